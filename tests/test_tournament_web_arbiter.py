"""The arbiter's and the director's tools through TestClient: a division's eligibility
checked at entry and overridden with a reason (the audit log keeps it), a loss by penalty
on a board (result, standings, audit log), the pairing sheet's seat column (rule 4), and
over the board the penalties on the clock (rule 21) and the last move claimed illegal
after the game ended (rule 10)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter_lines import game_to_the_last_square
from fastapi.testclient import TestClient
from test_record_web import Recorder
from test_record_web import create as create_otb
from test_tournament_web import create
from test_web_api import FakeTime, error_of, make_client


@pytest.fixture
def t() -> FakeTime:
    return FakeTime()


@pytest.fixture
def client(tmp_path: Path, t: FakeTime) -> Iterator[TestClient]:
    with make_client(tmp_path / "games.db", t) as c:
        yield c


def test_a_child_is_refused_from_the_master_division_unless_the_director_overrides(
        client: TestClient) -> None:
    d = create(client, format="master", date="2023-03-18")
    assert d.get("/director")["tournament"]["settings"]["date"] == "2023-03-18"
    refused = d.refused("/entrants", {"name": "Kid", "birth_year": 2015}, status=409)
    assert "40 or older on 2023-03-18" in refused["message"]
    assert "born in 2015" in refused["message"]
    d.refused("/entrants", {"name": "Kid", "born": "15 April 2015"}, status=422)
    d.refused("/entrants", {"name": "Kid", "school_year": 13}, status=422)
    kid = d.post("/entrants", {"name": "Kid", "born": "2015-04-02",
                               "override": "invited by the organisers"}, status=201)
    assert kid["born"] == "2015-04-02" and kid["birth_year"] == 2015
    entry = d.get("/audit")[-1]
    assert entry["action"] == "register" and "invited by the organisers" in entry["reason"]
    public = client.get(f"/api/tournaments/{d.id}").json()
    assert all({"born", "student", "school_year", "birth_year"}.isdisjoint(e)
               for e in public["entrants"])
    elementary = create(client, format="elementary")
    pupil = elementary.post("/entrants", {"name": "Pupil", "student": True,
                                          "school_year": 5}, status=201)
    assert (pupil["student"], pupil["school_year"]) == (True, 5)
    elementary.refused("/entrants", {"name": "Teen", "school_year": 8}, status=409)


def test_a_loss_by_penalty_shows_on_the_result_the_standings_and_the_audit_log(
        client: TestClient) -> None:
    d = create(client)
    for name in ("Ann", "Ben", "Cid", "Dee"):
        d.post("/entrants", {"name": name}, status=201)
    paired = d.post("/rounds", status=201)
    g = paired["games"][0]
    board, loser = g["board"], g["black_number"]
    refused = d.refused(f"/rounds/1/boards/{board}/penalty", {"loser": loser}, status=422)
    assert refused["code"] == "invalid_request"
    view = d.post(f"/rounds/1/boards/{board}/penalty",
                  {"loser": loser, "reason": "advice taken from a spectator (rule 24)"})
    assert (view["kind"], view["winner"], view["black_discs"], view["white_discs"]) == \
        ("penalty", g["white"], 0, 64)
    assert view["reason"] == "advice taken from a spectator (rule 24)"
    audit = d.get("/audit")[-1]
    assert (audit["action"], audit["board"], audit["reason"]) == \
        ("penalty", board, "advice taken from a spectator (rule 24)")
    standings = client.get(f"/tournaments/{d.id}/standings").text
    assert "loss by penalty 反則負け" in standings and "rule 24" in standings
    pairings = client.get(f"/tournaments/{d.id}?round=1").text
    assert "penalty-reason" in pairings


def test_the_pairing_sheet_says_black_chooses_the_seat(client: TestClient) -> None:
    d = create(client)
    for name in ("Ann", "Ben", "Cid", "Dee"):
        d.post("/entrants", {"name": name}, status=201)
    paired = d.post("/rounds", status=201)
    sheet = client.get(f"/tournaments/{d.id}/print/pairings?round=1").text
    assert "座席は黒を持つ対局者が選択" in sheet and "Seat chosen by" in sheet
    for g in paired["games"]:
        assert g["seat_chooser"] == g["black"]
        assert f'<i class="disc-icon black"></i> {g["black"]}</td>' in sheet
    ja = client.get(f"/tournaments/{d.id}/print/pairings?round=1&lang=ja").text
    assert "座席の選択" in ja


def test_the_arbiter_takes_time_off_or_declares_a_loss_on_the_clock_page(
        client: TestClient, t: FakeTime) -> None:
    game = create_otb(client, clock_minutes=10)
    game.post("/press", {"colour": "white"})
    t.now += 30
    view = game.post("/penalty", {"colour": "black", "reason": "rule 8", "seconds": 120})
    assert view["clock"]["black"] == pytest.approx(450)
    assert view["penalties"] == [{"colour": "black", "reason": "rule 8", "seconds": 120.0,
                                  "loss": False}]
    blank = client.post(f"/api/record/games/{game.id}/penalty",
                        json={"colour": "white", "reason": "  ", "loss": True},
                        headers=game.headers)
    assert blank.status_code == 400 and "reason" in error_of(blank)["message"]
    view = game.post("/penalty", {"colour": "white", "reason": "rule 29", "loss": True})
    result = view["game"]["result"]
    assert (result["termination"], result["winner"], result["score"]) == \
        ("penalty", "black", "64–0")
    page = client.get(f"/record/{game.id}/clock").text
    assert 'id="penalty-form"' in page and 'id="penalty-loss"' in page


def enter_to_the_end(game: Recorder, t: FakeTime) -> dict[str, Any]:
    """Every move of :func:`game_to_the_last_square`, each pressed; the last one entered
    with nothing turned and kept as played (nobody claimed it then)."""
    moves = game_to_the_last_square()
    game.post("/press", {"colour": "white"})
    colour = "black"
    for name in moves[:-1]:
        t.now += 2
        game.post("/entries", {"square": name})
        game.post("/press", {"colour": colour})
        colour = "white" if colour == "black" else "black"
    game.post("/entries", {"square": moves[-1], "turned": []})
    return game.post("/entries/keep")


def test_the_last_move_is_claimed_after_the_game_ended(client: TestClient,
                                                       t: FakeTime) -> None:
    game = create_otb(client, clock_minutes=10)
    view = enter_to_the_end(game, t)
    assert view["game"]["phase"] == "over" and view["clock"]["running"] is None
    claimant = view["last_move_claimant"]
    assert claimant in ("black", "white") and view["marks"]
    kept = view["game"]["result"]
    t.now += 900  # whatever the time left (rule 10)
    other = "white" if claimant == "black" else "black"
    refused = client.post(f"/api/record/games/{game.id}/illegal", json={"colour": other},
                          headers=game.headers)
    assert refused.status_code == 409
    view = game.post("/illegal", {"colour": claimant})
    assert view["game"]["phase"] == "over" and view["marks"] == []
    assert view["game"]["result"] != kept and view["last_move_claimant"] is None
    assert view["faults"][-1]["decision"] == "claimed"
