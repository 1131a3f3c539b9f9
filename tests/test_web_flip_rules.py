"""The web API under 挟み碁's flip rules: a game created with ``flip_rule`` is stored under
the variant's name with the rule (``hasegawa-8x9+one``), a move names the discs it turns
(``turned``), bad choices get the one JSON error shape, and the view tells the UI what to
choose from. Two people on one screen play here, so that every move is the test's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import create, error_of, make_client

from hasamigo import Board, Move, find_variant
from hasamigo.squares import bits


def names(board: Board, mask: int) -> list[str]:
    return [board.square_name(sq) for sq in bits(mask)]


def body_of(board: Board, move: Move) -> dict[str, Any]:
    assert move.square is not None
    body: dict[str, Any] = {"move": board.square_name(move.square)}
    if move.turned is not None:
        body["turned"] = names(board, move.turned)
    return body


def test_a_game_under_one_plays_a_chosen_disc_and_refuses_bad_choices(db: Path) -> None:
    with make_client(db) as client:
        game, me = create(client, opponent="person", variant="hasegawa-8x9", flip_rule="one",
                          clock_minutes=None)
        assert game["variant"] == "hasegawa-8x9+one" and "one disc turned" in game["title"]
        assert game["flip_rule"] == "one" and game["analysable"]  # shallow, Board API
        assert (game["rows"], game["cols"]) == (8, 9)
        board = find_variant("hasegawa-8x9+one")()
        while not game["choices"]:  # play (the last choice of each position) to a choice
            move = list(board.move_choices())[-1]
            response = me.post("/moves", body_of(board, move))
            assert response.status_code == 200, response.text
            board.push(move)
            game = response.json()
            assert game["moves"][-1] == board.move_name(move)
        square, discs = next(iter(game["choices"].items()))
        sq = board.parse_square(square)
        assert discs == names(board, board.turn_choices(sq)) and len(discs) > 1
        revision = game["revision"]
        outside = next(n for n in ("a1", "i8", "a8", "i1") if n not in discs)
        for extra, status, code in [
            ({}, 422, "illegal_move"),  # a bare square: which disc?
            ({"turned": discs[:2]}, 422, "illegal_move"),  # two under 'one'
            ({"turned": [outside]}, 422, "illegal_move"),  # not bracketed
            ({"turned": []}, 422, "invalid_request"),
            ({"turned": ["z9"]}, 422, "invalid_request"),
            ({"turned": ["a1" * 20]}, 422, "invalid_request"),
            ({"turned": ["d4"] * 41}, 422, "invalid_request"),
            ({"turned": "d4"}, 422, "invalid_request"),
            ({"turned": [discs[0], discs[0]]}, 400, "parse_error"),
        ]:
            response = me.post("/moves", {"move": square, **extra})
            assert response.status_code == status, (extra, response.text)
            error = error_of(response)
            assert error["code"] == code, (extra, error)
            if code == "illegal_move":
                assert error["reason"] == "bad_turn"
        assert me.view()["revision"] == revision  # nothing was played
        response = me.post("/moves", {"move": square, "turned": [discs[-1]]})
        assert response.status_code == 200, response.text
        after = response.json()
        board.push(Move(sq, 1 << board.parse_square(discs[-1])))
        assert after["moves"][-1] == f"{square}({discs[-1]})"
        assert after["last_move"] == square and after["flipped"] == [discs[-1]]
        assert after["cells"] == board.to_string().split()[0]
        positions = me.get("/positions").json()
        assert positions[-1]["flipped"] == [discs[-1]] and positions[-1]["cells"] == after["cells"]
        transcript = me.get("/transcript")
        assert transcript.status_code == 200 and f"{square}({discs[-1]})" in transcript.text
        assert me.get("/ggf").status_code >= 400  # GGF has no place for the choice
        hints = me.get("/hints")  # searched by the Board API: a hint per square
        assert hints.status_code == 200, hints.text
        hinted = [h["move"] for h in hints.json()["hints"]]
        assert len(hinted) == len(set(hinted)) and all("(" not in n for n in hinted)
        game_id = me.id
    with make_client(db) as again:  # the stored game reads back with its choices
        response = again.get(f"/api/games/{game_id}", headers=me.headers())
        assert response.status_code == 200
        assert response.json()["cells"] == board.to_string().split()[0]
        assert response.json()["moves"] == [board.move_name(m) for m in board.move_stack]


def test_programs_that_do_not_know_the_rule_are_refused(client: TestClient) -> None:
    for opponent in ("victory", "weakest"):
        response = client.post("/api/games", json={"opponent": opponent, "flip_rule": "choose"})
        assert response.status_code == 400, response.text
        assert error_of(response)["code"] == "invalid_option"
        assert "flip rule" in error_of(response)["message"]
    response = client.post("/api/games", json={"opponent": "engine", "flip_rule": "choose"})
    assert response.status_code in (200, 201), response.text  # it searches by the rules
    game, _me = create(client, flip_rule="choose")  # random plays every rule
    assert game["variant"] == "standard+choose"
    response = client.post("/api/games", json={"opponent": "random", "flip_rule": "two"})
    assert response.status_code == 422 and error_of(response)["code"] == "invalid_request"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path):  # type: ignore[no-untyped-def]
    with make_client(db) as c:
        yield c
