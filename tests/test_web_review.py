"""Game review over the web API: started by POST, worked in the background a move at a
time, each row stored as it comes, resumed after a restart without recomputing a stored
row; refused for games that are not over and boards the engine cannot search.

Reviews here search 2 plies and solve the last 6 empties (the server's settings), so a
whole game takes seconds; the opponent is the tiny stand-in of ``test_web_api.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_review import WTHOR, _naive
from test_web_api import FakeTime, FirstLegal, Seat, create, error_of

from hasamigo.analysis.review import LABELS, label_of
from hasamigo.board import Board
from hasamigo.notation import read_wthor, write_transcript
from hasamigo.storage import Database, ReviewRepository
from hasamigo.web import Settings, create_app
from hasamigo.web.services import review as review_service

SETTINGS = Settings(warm_engine=False, tick_seconds=3600, review_depth=2,
                    review_exact_empties=6)


def make_client(db: Path, settings: Settings = SETTINGS) -> TestClient:
    t = FakeTime()
    app = create_app(settings, db_url=f"sqlite:///{db}", time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: FirstLegal())
    return TestClient(app)


def finished_game(client: TestClient) -> tuple[dict[str, Any], Seat]:
    """A whole 8×8 game against the stand-in: the person plays the last legal square in
    name order (no strategy at all: it gives discs away)."""
    view, me = create(client, opponent="random", clock_minutes=None)
    while view["phase"] == "playing":
        view = me.move(sorted(view["legal"])[-1]).json()
    assert view["phase"] == "over"
    return view, me


def poll(me: Seat, until: Sequence[str] = ("done",), *, rows: int | None = None,
         patience: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + patience
    while True:
        response = me.get("/review")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        if data["status"] == "failed" and "failed" not in until:
            pytest.fail(f"the review failed: {data['error']}")
        if data["status"] in until and (rows is None or data["reviewed"] >= rows):
            return data
        assert time.monotonic() < deadline, f"the review is still {data['status']}"
        time.sleep(0.05)


def test_a_finished_game_is_reviewed_in_the_background(tmp_path: Path) -> None:
    with make_client(tmp_path / "games.db") as client:
        view, me = finished_game(client)
        assert me.get("/review").status_code == 404  # nothing before a POST
        started = me.post("/review")
        assert started.status_code == 202, started.text
        first = started.json()
        assert first["status"] in ("queued", "running")
        assert (first["depth"], first["exact_empties"]) == (2, 6)
        assert first["total"] == len(view["moves"])
        again = me.post("/review")  # idempotent: the same review, not a second one
        assert again.status_code == 200 and again.json()["depth"] == 2
        data = poll(me)
        assert me.post("/review").status_code == 200

    moves = view["moves"]
    rows = data["moves"]
    assert data["reviewed"] == data["total"] == len(moves) == len(rows)
    colour = view["first_colour"]
    for ply, (row, move) in enumerate(zip(rows, moves, strict=True)):
        assert row["ply"] == ply and row["move"] == move
        if move != "pass":  # colours alternate, a pass included
            assert row["colour"] == colour, row
        colour = "white" if colour == "black" else "black"
        assert row["loss"] == row["best_score"] - row["played_score"] >= 0, row
        assert row["label"] == label_of(row["loss"])
        if row["best_move"] == row["move"]:
            assert row["loss"] == 0, row
    assert any(row["loss"] > 0 for row in rows), "the person's play lost no disc?"
    for side in ("black", "white"):
        mine = [row for row in rows if row["colour"] == side]
        summary = data["summary"][side]
        assert summary["moves"] == len(mine)
        assert summary["total_loss"] == sum(row["loss"] for row in mine)
        assert summary["average_loss"] == pytest.approx(
            summary["total_loss"] / len(mine), abs=0.005)
        assert set(summary["labels"]) == {name for name, _ in LABELS}
        assert sum(summary["labels"].values()) == len(mine)
        for name, count in summary["labels"].items():
            assert count == sum(1 for row in mine if row["label"] == name)
        worst = max(mine, key=lambda r: (r["loss"], -r["ply"]))
        assert summary["worst"] == (None if worst["loss"] == 0 else
                                    {"ply": worst["ply"], "move": worst["move"],
                                     "loss": worst["loss"]})
    turning = max(rows, key=lambda r: (r["loss"], -r["ply"]))
    assert data["turning_point"] == turning["ply"]
    # from 6 empties the positions are solved exactly (forced moves and passes too)
    assert all(row["exact"] for row in rows[-6:])
    assert not any(row["exact"] for row in rows[:40])


def test_reviews_are_refused_for_games_not_over_and_boards_the_engine_cannot_search(
        tmp_path: Path) -> None:
    with make_client(tmp_path / "games.db") as client:
        _official, strict = create(client, casual=False)
        response = strict.post("/review")
        assert response.status_code == 403 and error_of(response)["code"] == "official_game"
        _casual, friendly = create(client)
        response = friendly.post("/review")
        assert response.status_code == 409 and error_of(response)["code"] == "wrong_phase"
        assert friendly.get("/review").status_code == 404

        unknown = client.post("/api/games/nosuchgame/review")
        assert unknown.status_code == 404 and error_of(unknown)["code"] == "not_found"
        private = client.post(f"/api/games/{friendly.id}/review")  # no seat token
        assert private.status_code == 401 and error_of(private)["code"] == "unauthorized"

        _original, both = create(client, opponent="person", start="original",
                                 clock_minutes=None)
        assert both.post("/resign").json()["phase"] == "over"
        response = both.post("/review")
        assert response.status_code == 400 and error_of(response)["code"] == "invalid_option"
        assert "cannot review" in error_of(response)["message"]

        # an official game is reviewed once it is over
        strict.post("/resign")
        assert strict.post("/review").status_code == 202
        assert poll(strict)["total"] == 0  # resigned before a move: nothing to review


def test_a_review_resumes_after_a_restart_without_recomputing_a_stored_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first run stores three rows, then its fourth search hangs and the server
    stops; the next run finishes the review from move 4 on, each move searched once."""
    real_review = review_service.review
    calls: dict[int, list[int]] = {1: [], 2: []}
    run = 1
    gate = threading.Event()

    def counted(start: Any, moves: Sequence[Any], **options: Any) -> Any:
        calls[run].append(len(moves))  # the move being reviewed is the last of these
        if run == 1 and len(moves) >= 4:
            gate.wait(30)  # the fourth search hangs until the server has stopped
        return real_review(start, moves, **options)

    monkeypatch.setattr(review_service, "review", counted)
    db = tmp_path / "games.db"
    try:
        with make_client(db) as client:
            view, me = finished_game(client)
            assert me.post("/review").status_code == 202
            early = poll(me, ("running",), rows=3)
            assert early["reviewed"] == 3 and early["total"] == len(view["moves"])
            # the pages are served while the review's thread is busy
            assert me.get("").status_code == 200
            assert me.get("/review").json()["reviewed"] == 3
    finally:
        run = 2
        gate.set()
    database = Database(f"sqlite:///{db}")
    stored = ReviewRepository(database).get(view["id"])
    database.close()
    assert stored is not None and stored.reviewed == 3 and stored.status == "running"
    assert calls[1] == [1, 2, 3, 4]

    with make_client(db) as client:
        me.client = client
        data = poll(me)  # resumed at start-up: no POST needed
    total = len(view["moves"])
    assert data["reviewed"] == total
    assert data["moves"][:3] == early["moves"]  # the stored rows are kept as they were
    assert calls[2] == list(range(4, total + 1))  # and none of them was searched again


def test_a_failed_review_says_why_and_a_second_post_resumes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_review = review_service.review
    broken = {"on": True}

    def flaky(start: Any, moves: Sequence[Any], **options: Any) -> Any:
        if broken["on"] and len(moves) == 5:
            raise RuntimeError("the engine fell over")
        return real_review(start, moves, **options)

    monkeypatch.setattr(review_service, "review", flaky)
    with make_client(tmp_path / "games.db") as client:
        view, me = finished_game(client)
        me.post("/review")
        failed = poll(me, ("failed",))
        assert failed["reviewed"] == 4 and "the engine fell over" in failed["error"]
        broken["on"] = False
        assert me.post("/review").status_code == 202  # queued again, from its rows
        done = poll(me)
        assert done["reviewed"] == len(view["moves"]) and done["error"] is None
        assert done["moves"][:4] == failed["moves"]


def test_a_stored_review_that_does_not_match_the_game_fails_saying_so(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with make_client(db) as client:
        view, me = finished_game(client)
    database = Database(f"sqlite:///{db}")
    reviews = ReviewRepository(database)
    reviews.create(view["id"], depth=2, exact_empties=6)
    first = view["moves"][0]
    wrong = "d3" if first != "d3" else "c4"
    reviews.append(view["id"], 0, {"ply": 0, "colour": "black", "move": wrong,
                                   "best_move": wrong, "best_score": 0, "played_score": 0,
                                   "loss": 0, "label": "best", "exact": False})
    database.close()
    with make_client(db) as client:
        me.client = client
        failed = poll(me, ("failed",))
    assert failed["error"] == f"the review's move 1 is {wrong}, the game's {first}"


def imported_wthor_game(client: TestClient) -> Seat:
    """WTHOR 1977's first game (its last 11 empties hold five forced moves and two
    passes), imported as a transcript: a finished game this browser may review."""
    text = write_transcript(next(iter(read_wthor(WTHOR))).moves)
    response = client.post("/api/games/import", json={"format": "transcript", "text": text})
    assert response.status_code == 201, response.text
    game = response.json()
    return Seat(client, game["id"], game["seat_token"])


def test_forced_moves_and_passes_are_served_with_their_positions_score(
        tmp_path: Path) -> None:
    """Issue 50: the review's forced moves (the only legal move, a pass) are stored and
    served with the position's score, exact from 6 empties, checked against a plain
    negamax; a review stored before (no ``forced``, 0s) is served with those scores
    unknown (null), never as 0."""
    db = tmp_path / "games.db"
    with make_client(db) as client:
        me = imported_wthor_game(client)
        old = imported_wthor_game(client)  # the same game, for an old review below
        assert me.post("/review").status_code == 202
        data = poll(me)
    board = Board()
    forced_exact = 0
    for row in data["moves"]:
        move = board.parse_move(row["move"])
        assert row["forced"] is (move.is_pass or len(board.legal_moves) == 1), row
        if row["forced"]:
            assert row["best_move"] == row["move"] and row["loss"] == 0, row
            assert row["best_score"] == row["played_score"] is not None, row
        if board.empties.bit_count() <= 6:
            value = _naive(board.black, board.white, board.turn)
            assert row["exact"] and row["best_score"] == value, (row, value)
            forced_exact += row["forced"] and value != 0
        board.push(move)
    assert forced_exact == 4  # a8, a pass, g2 and h1, each at -4 for the mover
    stored = Database(f"sqlite:///{db}")
    reviews = ReviewRepository(stored)
    reviews.create(old.id, depth=2, exact_empties=6)
    for number, row in enumerate(data["moves"]):  # as rows were stored before
        was = {key: value for key, value in row.items() if key != "forced"}
        if row["forced"]:
            was |= {"best_score": 0, "played_score": 0, "exact": False}
        reviews.append(old.id, number, was)
    reviews.set_status(old.id, "done")
    stored.close()
    with make_client(db) as client:
        old.client = client
        shown = old.get("/review").json()
    assert shown["summary"] == data["summary"]
    for before, now in zip(data["moves"], shown["moves"], strict=True):
        assert now["forced"] is before["forced"]
        if before["forced"]:
            assert (now["best_score"], now["played_score"], now["loss"]) == (None, None, 0)
        else:
            assert now == before
