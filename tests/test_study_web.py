"""The study through the web API: a subject from consent to the last questionnaire, the
gate before the subject's move, one answer per question, coming back with the code, the
researcher's password and session, the exports' columns, bad input, and a restart."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo.board import Board
from hasamigo.engine.players.base import SURPRISE, Player
from hasamigo.game.clock import Clock
from hasamigo.move import Move
from hasamigo.study.records import AnswerRecord, GameRecord, SubjectRecord, columns
from hasamigo.web import create_app
from hasamigo.web.settings import Settings

SETTINGS = Settings(warm_engine=False, tick_seconds=3600)


class Quick(Player):
    """Stand-in program: the first legal move; its second move it calls a surprise."""

    name = "quick"

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        if board.occupied.bit_count() in (5, 6):
            self.explain("surprise!", SURPRISE)
        else:
            self.explain("first legal")
        return next(iter(board.legal_moves))


def make_client(db: Path) -> TestClient:
    app = create_app(SETTINGS, db_url=f"sqlite:///{db}",
                     player_factory=lambda spec, seed: Quick(seed=seed),
                     study_evaluator=lambda position: (2.0, False))
    return TestClient(app)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "study.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def refused(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
    error: dict[str, Any] = body["error"]
    return error


def new_study(client: TestClient, **fields: Any) -> tuple[str, str]:
    body = ok(client.post("/api/studies", json={"name": "Pilot", "password": "research-pw",
                                                **fields}), 201)
    return body["study"]["id"], body["session"]["token"]


def play_game(client: TestClient, base: str, state: dict[str, Any]) -> dict[str, Any]:
    """Play the game in play to its end, answering every question."""
    answered = 0
    while state["step"] == "game":
        question = state["question"]
        if question is not None:
            number = question["move_number"]
            if "can_win" not in question["answered"]:
                state = ok(client.post(f"{base}/answers", json={
                    "move_number": number, "question": "can_win", "answer": "unknown",
                    "seconds": 1.25}))
                continue
            state = ok(client.post(f"{base}/answers", json={
                "move_number": number, "question": "move_felt", "answer": "surprising",
                "seconds": 2.5}))
            answered += 1
            continue
        game = state["game"]
        if game["phase"] == "over":
            state = ok(client.get(base))
            continue
        if game["turn"] not in game["your_colours"] or not game["legal"]:
            state = ok(client.get(base))
            continue
        state = ok(client.post(f"{base}/moves", json={"move": game["legal"][0]}))
    assert answered > 10
    return state


def test_a_subject_completes_the_study_and_the_researcher_exports_it(
        client: TestClient, db: Path) -> None:
    study, token = new_study(client, protocol="extended")
    auth = {"Authorization": f"Bearer {token}"}
    first = ok(client.post(f"/api/studies/{study}/subjects", json={"language": "en"}), 201)
    second = ok(client.post(f"/api/studies/{study}/subjects", json={}), 201)
    assert first["order"] == ["victory", "amusement"]
    assert second["order"] == ["amusement", "victory"]  # AB / BA, stored
    code = first["code"]
    base = f"/api/studies/{study}/subjects/{code}"
    assert first["step"] == "consent"
    refused(client.post(f"{base}/before", json={"strength": 2, "play_frequency": "rarely"}),
            409)
    ok(client.post(f"{base}/consent"))
    refused(client.post(f"{base}/before", json={"strength": 9, "play_frequency": "rarely"}),
            422)
    refused(client.post(f"{base}/before", json={"strength": 2, "play_frequency": "x"}), 422)
    state = ok(client.post(f"{base}/before", json={
        "strength": 2, "play_frequency": "rarely", "strategies": ["corners", "parity"]}))
    assert (state["step"], state["game_index"], state["game"]) == ("game", 1, None)
    state = ok(client.post(f"{base}/game"))
    assert state["game"]["index"] == 1 and state["game"]["persons"]

    # wait until a question is asked, then: no move before answering, one answer each
    while state["question"] is None:
        game = state["game"]
        state = ok(client.post(f"{base}/moves", json={"move": game["legal"][0]})) \
            if game["turn"] in game["your_colours"] else ok(client.get(base))
    number = state["question"]["move_number"]
    game = state["game"]
    error = refused(client.post(f"{base}/moves", json={"move": game["legal"][0]}), 409)
    assert "answer the questions" in error["message"]
    ok(client.post(f"{base}/answers", json={"move_number": number, "question": "can_win",
                                            "answer": "win", "seconds": 3}))
    error = refused(client.post(f"{base}/answers", json={
        "move_number": number, "question": "can_win", "answer": "lose", "seconds": 4}), 409)
    assert "answered already" in error["message"]
    refused(client.post(f"{base}/answers", json={
        "move_number": number, "question": "move_felt", "answer": "win", "seconds": 4}), 400)
    refused(client.post(f"{base}/answers", json={
        "move_number": number, "question": "move_felt", "answer": "expected",
        "seconds": -1}), 422)

    # the subject closes the tab and comes back (a new server on the same file too)
    again = ok(client.get(f"/api/studies/{study}/subjects/{code.lower()}"))
    assert again["question"] == {"move_number": number, "move": again["question"]["move"],
                                 "about": number, "about_move": again["question"]["move"],
                                 "asks": ["can_win", "move_felt"],
                                 "answered": {"can_win": "win"}}
    with make_client(db) as other:
        resumed = ok(other.get(base))
        assert resumed["question"] == again["question"]
        assert resumed["game"]["cells"] == again["game"]["cells"]

    state = play_game(client, base, again)
    assert state["step"] == "felt" and state["game_index"] == 1
    refused(client.post(f"{base}/felt", json={"index": 1, "felt": 0}), 422)
    state = ok(client.post(f"{base}/felt", json={"index": 1, "felt": 4, "note": "fine"}))
    refused(client.post(f"{base}/felt", json={"index": 1, "felt": 4}), 409)
    state = ok(client.post(f"{base}/game"))
    state = play_game(client, base, state)
    state = ok(client.post(f"{base}/felt", json={"index": 2, "felt": 5}))
    assert state["step"] == "after"
    refused(client.post(f"{base}/after", json={"more_fun": "entertainer"}), 400)
    state = ok(client.post(f"{base}/after", json={
        "more_fun": "amusement", "more_fun_why": "a corner!", "what_makes_fun": "close"}))
    assert state["step"] == "done"

    # the researcher: progress, exports (their columns), the report
    progress = ok(client.get(f"/api/studies/{study}/progress", headers=auth))
    steps = {s["code"]: s["step"] for s in progress["subjects"]}
    assert steps == {code: "done", second["code"]: "consent"}
    assert [s["pseudonym"] for s in progress["subjects"]] == ["S01", "S02"]
    data = ok(client.get(f"/api/studies/{study}/export.json", headers=auth))
    assert set(data) == {"study", "subjects", "games", "answers"}
    assert data["study"]["protocol"] == "extended" and data["study"]["exported_at"]
    assert code not in str(data) and data["subjects"][0]["subject"] == "S01"
    assert [g["program"] for g in data["games"]] == ["victory", "amusement"]
    answers = data["answers"]
    assert answers[0]["can_win"] == "win" and answers[0]["move_felt"] == "surprising"
    assert {a["move_kind"] for a in answers} == {"normal", "surprise"}
    assert all(a["evaluation"] in (None, 2.0, -2.0) for a in answers)
    for table, kind in (("subjects", SubjectRecord), ("games", GameRecord),
                        ("answers", AnswerRecord)):
        response = client.get(f"/api/studies/{study}/export/{table}.csv", headers=auth)
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(response.text)))
        assert tuple(rows[0]) == columns(kind)
        assert len(rows) - 1 == len(data[table])
    report = client.get(f"/api/studies/{study}/report", headers=auth)
    assert report.status_code == 200 and "<svg" in report.text


def test_the_researchers_area_needs_the_password(client: TestClient) -> None:
    study, token = new_study(client)
    _other, other_token = new_study(client)
    for path in ("progress", "export.json", "export/answers.csv", "report"):
        url = f"/api/studies/{study}/{path}"
        assert refused(client.get(url), 401)["code"] == "unauthorized"
        refused(client.get(url, headers={"Authorization": "Bearer nonsense"}), 401)
        assert refused(client.get(url, headers={"Authorization": f"Bearer {other_token}"}),
                       403)["code"] == "forbidden"
        assert client.get(url, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    refused(client.post(f"/api/studies/{study}/login", json={"password": "wrong-one"}), 403)
    fresh = ok(client.post(f"/api/studies/{study}/login", json={"password": "research-pw"}))
    assert client.get(f"/api/studies/{study}/progress",
                      headers={"Authorization": f"Bearer {fresh['token']}"}).status_code == 200
    refused(client.get("/api/studies/nothere/progress",
                       headers={"Authorization": f"Bearer {token}"}), 404)


def test_bad_input_is_bounded_and_refused(client: TestClient) -> None:
    for body in ({"name": "x", "password": "short"},
                 {"name": "", "password": "long enough"},
                 {"name": "x" * 121, "password": "long enough"},
                 {"name": "x", "password": "long enough", "arms": ["victory"]},
                 {"name": "x", "password": "long enough", "arms": ["victory", "a b"]},
                 {"name": "x", "password": "long enough", "arms": ["victory"] * 7},
                 {"name": "x", "password": "long enough", "protocol": "mine"},
                 {"name": "x", "password": "long enough", "surprise_window": "late"},
                 {"name": "x", "password": "long enough", "languages": ["fr"]},
                 {"name": "x", "password": "long enough", "clock_minutes": 0},
                 {"name": "x", "password": "long enough", "extra": 1}):
        refused(client.post("/api/studies", json=body), 422)
    for arms in (["victory", "victory"], ["victory", "engine"], ["victory", "nboard:edax"],
                 ["victory", "chess"]):
        refused(client.post("/api/studies", json={"name": "x", "password": "long enough",
                                                  "arms": arms}), 400)
    study, _ = new_study(client, languages=["ja"], arms=["victory", "amusement",
                                                         "entertainer"])
    refused(client.post(f"/api/studies/{study}/subjects", json={"language": "en"}), 400)
    refused(client.get(f"/api/studies/{study}/subjects/NOSUCHCODE"), 404)
    # a code no subject can have is a wrong credential: 404, like an unknown one
    refused(client.get(f"/api/studies/{study}/subjects/{'A' * 17}"), 404)
    subject = ok(client.post(f"/api/studies/{study}/subjects", json={}), 201)
    assert len(subject["order"]) == 3
    base = f"/api/studies/{study}/subjects/{subject['code']}"
    refused(client.post(f"{base}/game"), 409)
    refused(client.post(f"{base}/moves", json={"move": "z9"}), 422)
    refused(client.post(f"{base}/answers", json={"move_number": 1, "question": "why",
                                                 "answer": "win", "seconds": 1}), 422)
    refused(client.post(f"{base}/after", json={"more_fun": "victory",
                                               "more_fun_why": "x" * 3000}), 422)


def test_the_pages_answer(client: TestClient) -> None:
    study, _ = new_study(client)
    subject = ok(client.post(f"/api/studies/{study}/subjects", json={}), 201)
    for path in ("/studies", f"/studies/{study}", f"/studies/{study}/s/{subject['code']}",
                 f"/studies/{study}/research"):
        response = client.get(path)
        assert response.status_code == 200, path
    assert client.get("/studies/nothere").status_code == 404
