"""Notes on a replayed position (issue 19): ``GET /api/games/{id}/notes?ply=N`` gives the
explanation notes of the position after N moves and of the move that led there."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_web_api import create, error_of, make_client

from hasamigo import Board
from hasamigo.analysis.explain import move_notes, position_notes


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with make_client(tmp_path / "games.db") as c:
        yield c


def test_notes_of_each_ply_are_the_explain_modules(client: TestClient) -> None:
    _game, both = create(client, opponent="person", clock_minutes=None)
    moves = ["f5", "d6", "c5", "f4", "e3"]  # the Rabbit (兎) so far
    for square in moves:
        assert both.move(square).status_code == 200
    board = Board()
    for ply, square in enumerate(["", *moves]):
        if square:
            before = board.copy()
            board.play(square)
        data = both.get(f"/notes?ply={ply}").json()
        assert data["ply"] == ply and data["move"] == (square or None)
        assert [n["kind"] for n in data["position"]] == [n.kind for n in position_notes(board)]
        expected = move_notes(before, square) if square else []
        assert [n["text"] for n in data["move_notes"]] == [n.en for n in expected]
    last = both.get("/notes?ply=5").json()
    second = next(n for n in last["position"] if n["kind"] == "second_move")
    assert "縦取り" in second["text_ja"] and "Rabbit" in second["text"]
    for bad in ("6", "-1", "x"):
        response = both.get(f"/notes?ply={bad}")
        assert response.status_code in (400, 422), response.text
        assert "code" in error_of(response)


def test_an_official_game_in_progress_gets_no_notes(client: TestClient) -> None:
    _game, seat = create(client, casual=False)
    response = seat.get("/notes?ply=0")
    assert response.status_code == 403 and error_of(response)["code"] == "official_game"
