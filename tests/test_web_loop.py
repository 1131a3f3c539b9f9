"""No request blocks the event loop (issue 50): ``GET /api/status`` answers in under 200 ms
while a 40-subject study's report, a whole game's review and the second round of a
200-player Swiss tournament are requested at once, on a live uvicorn server.

The study, the tournament (round 1 paired and entered) and a finished game are made
through the services and the API before the server is loaded; then the three heavy
requests go out together and ``/api/status`` is asked every 50 ms until the pairing has
answered (the report is still being drawn then: the server stops without waiting for it).
This bound is the one test of the suite that depends on the machine's speed: the issue
asks for it. The worst answer seen on a 2-core machine shared with other work: 0.16 s
(1.6 s and 4.1 s before the report and the pairing ran in worker processes)."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.study.service import StudyService, StudySettings
from hasamigo.study.store import StudyRepository
from hasamigo.tournament.model import Settings as TournamentSettings
from hasamigo.tournament.service import TournamentService
from hasamigo.tournament.store import TournamentRepository
from hasamigo.web import Settings, create_app
from hasamigo.web.app import UVICORN_WS

# slow: some 50 s (the study and the tournament are built, the engine warms, a worker
# process starts for the pairing)
pytestmark = pytest.mark.slow
SUBJECTS, PLAYERS = 40, 200
RESEARCHER, DIRECTOR = "research-pw", "director-pw"
BOUND = 0.2  # seconds: the issue's


def _study_game(games: GameRepository, program: str, game_id: str, rng: random.Random
                ) -> None:
    """A study game played to its end (random moves), every program move answered."""
    setup = GameSetup((Participant("Subject"), Participant(program, program=program)),
                      GameOptions(clock_seconds=None, casual=False), "random")
    game = GameController.new(setup, game_id=game_id)
    game.declare_study()
    games.create(game)
    stored = len(game.events)
    while game.result is None:
        study = game.study
        assert study is not None
        asked = study.asked
        if asked is not None:
            game.answer(asked.move_number, "can_win", rng.choice(["win", "lose", "unknown"]),
                        seconds=1.5)
            game.answer(asked.move_number, "move_felt",
                        rng.choice(["expected", "surprising"]), seconds=2.0,
                        move_kind="normal")
            continue
        game.play(None, game.board.move_name(rng.choice(list(game.board.legal_moves))))
    games.append(game, stored)


def make_study(db: Database, rng: random.Random) -> str:
    games = GameRepository(db)
    service = StudyService(StudyRepository(db), games)
    study = service.create("Load", StudySettings(protocol="extended"), RESEARCHER).id
    for n in range(SUBJECTS):
        code = service.new_subject(study, "en").code
        service.consent(study, code)
        service.answer_before(study, code, strength=rng.randint(1, 5),
                              play_frequency="rarely", strategies=["corners"])
        order = service.subject(study, code).order
        for index, program in enumerate(order, 1):
            game_id = f"study{n}x{index}"
            _study_game(games, program, game_id, rng)
            service.add_game(study, code, index, game_id)
            service.answer_felt(study, code, index, rng.randint(1, 5), "")
        service.answer_after(study, code, more_fun=order[0], more_fun_why="",
                             what_makes_fun="")
    return study


def make_tournament(db: Database, rng: random.Random) -> str:
    """A Swiss tournament of 200 with round 1 paired and every result entered."""
    service = TournamentService(TournamentRepository(db), GameRepository(db))
    tournament = service.create("Open", TournamentSettings("swiss", rounds=5),
                                password=DIRECTOR).id
    for i in range(PLAYERS):
        service.register(tournament, f"Player {i}", rank=["3d", "1d", "2k", None][i % 4])
    for game in service.pair_next_round(tournament).games:
        if game.kind == "played":
            black = rng.randint(20, 44)
            service.enter_result(tournament, 1, game.board, black_discs=black,
                                 white_discs=64 - black)
    return tournament


@dataclass
class Live:
    base: str
    study: str
    tournament: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    import uvicorn

    url = f"sqlite:///{tmp_path_factory.mktemp('loop') / 'loop.db'}"
    db = Database(url)
    db.open()
    rng = random.Random(50)
    try:
        study, tournament = make_study(db, rng), make_tournament(db, rng)
    finally:
        db.close()
    # the engine warms before the server listens (a review waits for it otherwise); the
    # review searches as the server's defaults do
    app = create_app(Settings(warm_engine=True, games_per_minute=1000), db_url=url)
    port = _free_port()
    # at the end the report may still be drawn: its request is cut after 2 s and its
    # worker process ended with the app (not waited for)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws=UVICORN_WS,
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 600  # a cold kernel cache compiles first
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield Live(f"http://127.0.0.1:{port}", study, tournament)
    server.should_exit = True
    thread.join(30)


def finished_game(client: httpx2.Client) -> tuple[str, dict[str, str]]:
    """A casual game between two people on one screen, played to its end at random."""
    rng = random.Random(7)
    created = client.post("/api/games", json={"opponent": "person", "casual": True})
    assert created.status_code == 201, created.text
    state: dict[str, Any] = created.json()
    game, headers = state["id"], {"Authorization": f"Bearer {state['seat_token']}"}
    while state["phase"] != "over":
        move = rng.choice(state["legal"]) if state["legal"] else "pass"
        answer = client.post(f"/api/games/{game}/moves", json={"move": move},
                             headers=headers)
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return game, headers


def login(client: httpx2.Client, path: str, password: str) -> dict[str, str]:
    answer = client.post(path, json={"password": password})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def test_status_answers_within_200_ms_while_the_heavy_requests_run(live: Live) -> None:
    client = httpx2.Client(base_url=live.base, timeout=120)
    game, seat = finished_game(client)
    researcher = login(client, f"/api/studies/{live.study}/login", RESEARCHER)
    director = login(client, f"/api/tournaments/{live.tournament}/login", DIRECTOR)
    heavy = {
        "report": ("GET", f"/api/studies/{live.study}/report", researcher),
        "review": ("POST", f"/api/games/{game}/review", seat),
        "pairing": ("POST", f"/api/tournaments/{live.tournament}/rounds", director),
    }
    answers: dict[str, httpx2.Response | BaseException] = {}

    def request(name: str) -> None:
        method, path, headers = heavy[name]
        try:
            with httpx2.Client(base_url=live.base, timeout=300) as own:
                answers[name] = own.request(method, path, headers=headers)
        except BaseException as exc:  # the report may still be drawn when the server stops
            answers[name] = exc

    threads = [threading.Thread(target=request, args=(name,), daemon=True) for name in heavy]
    for thread in threads:
        thread.start()
    seconds: list[float] = []
    started = time.monotonic()
    while "pairing" not in answers or len(seconds) < 40:
        assert time.monotonic() - started < 300, "the pairing never answered"
        begun = time.perf_counter()
        status = client.get("/api/status")
        seconds.append(time.perf_counter() - begun)
        assert status.status_code == 200 and status.json()["engine"] == "ready"
        time.sleep(0.05)
    client.close()
    pairing, review = answers["pairing"], answers.get("review")
    assert isinstance(pairing, httpx2.Response) and pairing.status_code == 201, pairing
    assert len(pairing.json()["games"]) == PLAYERS // 2
    assert isinstance(review, httpx2.Response) and review.status_code == 202, review
    assert "report" not in answers or isinstance(answers["report"], BaseException) \
        or answers["report"].status_code == 200
    worst = max(seconds)
    print(f"/api/status under load: {len(seconds)} asked, median "
          f"{sorted(seconds)[len(seconds) // 2] * 1000:.0f} ms, worst {worst * 1000:.0f} ms")
    assert worst < BOUND, (f"/api/status took {worst:.3f} s at worst (median "
                           f"{sorted(seconds)[len(seconds) // 2]:.3f} s, {len(seconds)} asked)")
