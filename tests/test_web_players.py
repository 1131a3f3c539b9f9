"""The web app with the engine package's real players (``make_player``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hasamigo.web import Settings, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize(
    ("opponent", "level"),
    [("victory", 5), ("amusement", 5), ("entertainer", 5), ("engine", 3), ("weakest", 5),
     ("random", 5)],
)
def test_each_program_replies_with_a_legal_move(tmp_path: Path, opponent: str, level: int
                                                ) -> None:
    app = create_app(Settings(warm_engine=False, tick_seconds=3600),
                     db_url=f"sqlite:///{tmp_path / 'p.db'}")
    with TestClient(app) as client:
        game = client.post("/api/games", json={"opponent": opponent, "level": level,
                                                "clock_minutes": None}).json()
        seat = {"Authorization": f"Bearer {game['seat_token']}"}
        assert game["seats"]["white"]["program"] == (
            f"engine:{level}" if opponent == "engine" else opponent)
        for _ in range(3):
            response = client.post(f"/api/games/{game['id']}/moves?wait=true",
                                   json={"move": game["legal"][0]}, headers=seat)
            assert response.status_code == 200, response.text
            game = response.json()
            assert game["turn"] == "black" and not game["thinking"]
        assert len(game["moves"]) == 6
