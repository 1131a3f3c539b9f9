"""The board editor: the reachability flags (sound: no position of a real game is ever
flagged), ``POST /api/positions/check`` and ``/analyse`` on built positions, their
refusals in the one error shape, and the ``/editor`` page opened from a share link."""

from __future__ import annotations

import json
import random
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo import Board, find_variant
from hasamigo.analysis.reachable import CODES, unreachable_flags
from hasamigo.web import Settings, create_app
from hasamigo.web.schemas import NewGame
from hasamigo.web.schemas_positions import EDITOR_VARIANTS

START = Board().to_string()


def cells_with(variant: str = "8x8", turn: str = "X", **discs: str) -> str:
    """The variant's empty board with ``discs`` (square name -> X or O), then ``turn``."""
    cls = find_variant(variant)
    board = cls("".join("-" if cls.playable() >> cls.local_square(i % cls.cols, i // cls.cols)
                        & 1 else "#" for i in range(cls.rows * cls.cols)))
    cells = list(board.to_string().split()[0])
    for name, colour in discs.items():
        sq = cls.parse_square(name)
        row, col = divmod(sq, cls.stride)
        cells[(row - cls.top) * cls.cols + col - cls.left] = colour
    return "".join(cells) + " " + turn


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(warm_engine=False, tick_seconds=3600, hint_depth=3),
                     db_url=f"sqlite:///{tmp_path / 'games.db'}")
    with TestClient(app) as c:
        yield c


def check(client: TestClient, board: str, variant: str = "8x8") -> dict[str, Any]:
    response = client.post("/api/positions/check", json={"variant": variant, "board": board})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "reason"}
    assert body["error"]["code"] == code, body
    error: dict[str, Any] = body["error"]
    return error


# ---- the flags -------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["8x8", "6x6", "4x4", "eight-stars", "hasegawa-8x9",
                                     "nip-circle"])
def test_no_position_of_a_played_game_is_ever_flagged(variant: str) -> None:
    """Soundness: random games from the start, every position on the way (passes too)
    checked; a flag there would be a false proof of unreachability."""
    rng = random.Random(f"reach-{variant}")
    cls = find_variant(variant)
    seen = 0
    for _ in range(4):
        board = cls()
        while True:
            assert unreachable_flags(board) == [], board.to_string()
            seen += 1
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
    assert seen > 4 * (cls.square_count() - 4)  # whole games were played


def test_each_flag_on_a_position_built_for_it() -> None:
    empty_centre = Board(cells_with(d4="O", e4="X", d5="X", c3="O"))  # e5 empty
    codes = [f.code for f in unreachable_flags(empty_centre)]
    assert codes == ["start_square_empty"]
    assert unreachable_flags(empty_centre)[0].squares == ("e5",)

    assert [f.code for f in unreachable_flags(Board(cells_with(d4="X")))] == \
        ["start_square_empty", "too_few_discs"]

    start = Board()
    island = Board(START.replace("-", "X", 1))  # a disc on a1, far from the centre
    assert island.occupied == start.occupied | 1
    [flag] = unreachable_flags(island)
    assert flag.code == "disconnected" and flag.squares == ("a1",)
    assert "a1" in flag.en and "a1" in flag.ja

    # Black to move, White has one disc and could play b4: its last turn was no move
    # (that leaves two) and no pass (it has a move)
    lone = Board(cells_with(d4="X", e4="X", d5="X", e5="X", c4="X", f4="O"))
    assert lone.moves_mask(lone.turn.other)
    assert [f.code for f in unreachable_flags(lone)] == ["last_turn"]
    # the same discs with White to move: Black, not to move, has five discs, so its last
    # turn may have been a move, and nothing is proved
    assert unreachable_flags(Board(cells_with(turn="O", d4="X", e4="X", d5="X", e5="X",
                                              c4="X", f4="O"))) == []
    assert set(CODES) == {"start_square_empty", "too_few_discs", "disconnected", "last_turn"}


def test_nips_rule_places_anywhere_so_no_disc_is_flagged_as_apart() -> None:
    nip = find_variant("nip-circle")
    board = nip(nip().to_string().replace("-", "X", 1))
    assert unreachable_flags(board) == []


# ---- the check API ---------------------------------------------------------------------------
def test_the_start_is_not_flagged_and_its_moves_are_the_four(client: TestClient) -> None:
    body = check(client, START)
    assert body["legal"] == ["d3", "c4", "f5", "e6"]
    assert body["turn"] == "black" and body["counts"] == {"black": 2, "white": 2, "empty": 60}
    assert body["unreachable"] is False and body["flags"] == []
    assert body["must_pass"] is False and body["game_over"] is False
    assert body["board"] == START and body["analysable"] is True
    mobility = next(n for n in body["notes"] if n["kind"] == "mobility")
    assert "4 moves" in mobility["text"] and "着手可能数" in mobility["text_ja"]


def test_an_empty_centre_square_is_flagged(client: TestClient) -> None:
    body = check(client, cells_with(d4="O", e4="X", d5="X", c3="O"))
    assert body["unreachable"] is True
    [flag] = body["flags"]
    assert flag["code"] == "start_square_empty" and flag["squares"] == ["e5"]
    assert "e5" in flag["text"] and "e5" in flag["text_ja"]


def test_must_pass_and_game_over_are_told(client: TestClient) -> None:
    # White to move; after e2 Black has no move (the position of the browser tests)
    board = Board("OXXXOOOOOXXX-XOOXOXXXXXOXXXOOXXOXXXXXXXOXXXXXOOO-XXXXOOO-XOOOOOO O")
    board.play("e2")
    body = check(client, board.to_string())
    assert body["turn"] == "black" and body["must_pass"] is True and body["legal"] == []
    assert body["game_over"] is False

    full = "X" * 40 + "O" * 24 + " O"
    body = check(client, full)
    assert body["game_over"] is True and body["winner"] == "black"
    assert body["counts"] == {"black": 40, "white": 24, "empty": 0}


def test_shaped_and_ringed_boards_keep_their_shape(client: TestClient) -> None:
    stars = find_variant("eight-stars")()
    body = check(client, stars.to_string(), "eight-stars")
    assert (body["rows"], body["cols"]) == (10, 10)
    assert body["cells"].count("#") == 12 and body["flags"] == []
    assert set(body["legal"]) == {"e4", "d5", "g6", "f7"}

    nip = find_variant("nip-circle")()
    body = check(client, nip.to_string(), "nip-circle")
    assert len(body["rings"]) == 1 and len(body["rings"][0]) == 20
    assert body["analysable"] is True  # shallowly, by the Board API
    scored = client.post("/api/positions/analyse",
                         json={"variant": "nip-circle", "board": nip.to_string()})
    assert scored.status_code == 200, scored.text
    assert {h["move"] for h in scored.json()["hints"]} == set(body["legal"])


def test_refusals_are_in_the_one_error_shape(client: TestClient) -> None:
    post = lambda body: client.post("/api/positions/check", json=body)  # noqa: E731
    # unknown boards, named or not
    assert "8x8" in refused(post({"variant": "chess", "board": START}), 400,
                            "invalid_option")["message"]
    refused(post({"variant": "standard", "board": START}), 400, "invalid_option")
    # unreadable board strings: too short, a stray character, a disc on a cut square,
    # a side to move that is neither
    refused(post({"board": "XO X"}), 400, "parse_error")
    refused(post({"board": START.replace("-", "Z", 1)}), 400, "parse_error")
    refused(post({"variant": "eight-stars",
                  "board": "X" + find_variant("eight-stars")().to_string()[1:]}),
            400, "parse_error")
    refused(post({"board": START[:-1] + "Q"}), 400, "parse_error")
    # bounded body: the string's length, unknown fields, a body over the server's limit
    refused(post({"board": "-" * 201}), 422, "invalid_request")
    refused(post({"board": START, "moves": []}), 422, "invalid_request")
    refused(post({"board": ""}), 422, "invalid_request")
    huge = client.post("/api/positions/check", content=b'{"board": "' + b"-" * 20_000 + b'"}',
                       headers={"content-type": "application/json"})
    refused(huge, 413, "too_large")
    refused(client.post("/api/positions/analyse", json={"board": "nonsense"}), 400,
            "parse_error")


def test_the_editor_offers_the_new_game_forms_boards() -> None:
    assert typing.get_args(NewGame.model_fields["variant"].annotation) == EDITOR_VARIANTS


# ---- analysis -------------------------------------------------------------------------------
def test_analyse_scores_every_move_with_the_engine(client: TestClient) -> None:
    response = client.post("/api/positions/analyse", json={"board": START})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["depth"] == 3 and body["side"] == "black"
    scores = {h["move"]: h["score"] for h in body["hints"]}
    assert set(scores) == {"d3", "c4", "f5", "e6"}
    assert len(set(scores.values())) == 1  # the start is symmetric: one score for all four

    # a set-up position far from any opening: the corner that wins a whole edge is best
    edge = Board(cells_with(turn="O", b1="X", c1="X", d1="X", e1="X", f1="X", g1="X",
                            h1="O", c2="X", d2="X", e2="O", d3="X"))
    response = client.post("/api/positions/analyse", json={"board": edge.to_string()})
    assert response.status_code == 200, response.text
    hints = response.json()["hints"]
    assert hints[0]["move"] == "a1" and hints[0]["score"] == max(h["score"] for h in hints)

    # nothing to score when the side to move must pass
    board = Board("OXXXOOOOOXXX-XOOXOXXXXXOXXXOOXXOXXXXXXXOXXXXXOOO-XXXXOOO-XOOOOOO O")
    board.play("e2")
    response = client.post("/api/positions/analyse", json={"board": board.to_string()})
    assert response.status_code == 200 and response.json()["hints"] == []


# ---- the page -------------------------------------------------------------------------------
def editor_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="editor-data" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_editor_page_opens_a_share_links_board(client: TestClient) -> None:
    mini = find_variant("6x6")()
    mini.push(next(iter(mini.legal_moves)))
    shared = mini.to_string()
    response = client.get("/editor", params={"variant": "6x6", "board": shared})
    assert response.status_code == 200
    assert f'value="{shared}"' in response.text
    data = editor_data(response.text)
    assert data["variant"] == "6x6" and data["board"] == shared
    assert 'id="bad-link"' not in response.text
    # every board of the form, with its shape and the programs that play it
    boards = {b["name"]: b for b in data["boards"]}
    assert tuple(boards) == EDITOR_VARIANTS
    assert boards["eight-stars"]["start"].count("#") == 12
    assert "victory" in boards["8x8"]["programs"]
    assert "victory" not in boards["grand"]["programs"] and "random" in boards["grand"]["programs"]
    assert boards["nip-circle"]["programs"] == ["engine", "random"]  # by the Board API


def test_an_unreadable_link_opens_the_start_and_says_so(client: TestClient) -> None:
    response = client.get("/editor", params={"variant": "8x8", "board": "XO#?"})
    assert response.status_code == 200 and 'id="bad-link"' in response.text
    assert editor_data(response.text)["board"] == START
    response = client.get("/editor", params={"variant": "chess"})
    assert 'id="bad-link"' in response.text and editor_data(response.text)["variant"] == "8x8"
    # in Japanese too
    response = client.get("/editor", params={"lang": "ja"})
    assert "盤面エディター" in response.text and 'id="bad-link"' not in response.text


def test_the_new_game_page_links_to_the_editor(client: TestClient) -> None:
    assert 'href="/editor"' in client.get("/").text
