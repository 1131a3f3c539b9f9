"""The web app with the engine package's real players (``make_player``)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo.errors import InvalidOptionError
from hasamigo.web import Settings, create_app
from hasamigo.web.services.players import registry_factory


def play_three_moves(client: TestClient, game: dict[str, Any]) -> None:
    """Black (the person) plays three moves; the program answers each with a legal one."""
    seat = {"Authorization": f"Bearer {game['seat_token']}"}
    for _ in range(3):
        response = client.post(f"/api/games/{game['id']}/moves?wait=true",
                               json={"move": game["legal"][0]}, headers=seat)
        assert response.status_code == 200, response.text
        game = response.json()
        assert game["turn"] == "black" and not game["thinking"]
    assert len(game["moves"]) == 6


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
        assert game["seats"]["white"]["program"] == (
            f"engine:{level}" if opponent == "engine" else opponent)
        play_three_moves(client, game)


# ---- external engines from the settings file ------------------------------------------
def engines_file(tmp_path: Path) -> Path:
    command = shlex.join([sys.executable, "-m", "hasamigo", "nboard", "--level", "2"])
    path = tmp_path / "engines.toml"
    path.write_text(f'[engines.ours]\nname = "Our NBoard engine"\nprotocol = "nboard"\n'
                    f"command = {json.dumps(command)}\n", encoding="utf-8")
    return path


def test_a_configured_external_engine_is_offered_and_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HASAMIGO_ENGINES", str(engines_file(tmp_path)))
    app = create_app(Settings(warm_engine=False, tick_seconds=3600, reply_wait_seconds=180),
                     db_url=f"sqlite:///{tmp_path / 'x.db'}")
    with TestClient(app) as client:
        page = client.get("/").text
        assert "Our NBoard engine" in page and 'value="external:ours"' in page
        game = client.post("/api/games", json={"opponent": "external", "engine": "ours",
                                                "clock_minutes": None}).json()
        white = game["seats"]["white"]
        # the game names the engine by its key: the stored game holds no command line
        assert white["program"] == "external:ours" and white["name"] == "Our NBoard engine"
        play_three_moves(client, game)


def test_only_engines_of_the_settings_file_are_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HASAMIGO_ENGINES", str(engines_file(tmp_path)))
    app = create_app(Settings(warm_engine=False, tick_seconds=3600),
                     db_url=f"sqlite:///{tmp_path / 'y.db'}")
    with TestClient(app) as client:
        unknown = client.post("/api/games", json={"opponent": "external", "engine": "nope"})
        assert unknown.status_code == 400 and "nope" in unknown.text
        assert client.post("/api/games", json={"opponent": "external"}).status_code == 400
        for body in ({"opponent": "external", "engine": "ours; rm -rf /"},
                     {"opponent": "nboard:/bin/sh -c 'touch x'"},
                     {"opponent": "external", "engine": "ours", "command": "/bin/sh"}):
            assert client.post("/api/games", json=body).status_code == 422
    with pytest.raises(InvalidOptionError, match="settings file"):
        registry_factory(f"nboard:{sys.executable} -c pass", 0)
    with pytest.raises(InvalidOptionError, match="settings file"):
        registry_factory("external:nope", 0)
    assert registry_factory("external:ours", 0).name == "Our NBoard engine"
    monkeypatch.setenv("HASAMIGO_ENGINES", str(tmp_path / "missing.toml"))
    with pytest.raises(InvalidOptionError):
        registry_factory(f"nboard:{sys.executable} -m hasamigo nboard --level 2", 0)
