"""Stored tournaments: the facts, the audit log, the director's password, restarts, races,
and the programs' games in the library. SQLite; PostgreSQL too when
``HASAMIGO_TEST_POSTGRES`` holds a URL (a throw-away schema each)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from test_storage_migration import BACKENDS, scratch_url  # tests/ is on the path

from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage import ConcurrentWrite, Database, GameRepository
from hasamigo.storage.models import TournamentRow
from hasamigo.tournament import PairingKind, Settings, Tournament, TournamentError
from hasamigo.tournament.service import TournamentNotFound, TournamentService, as_json
from hasamigo.tournament.store import TournamentRepository


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with scratch_url(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def service(db_url: str) -> Iterator[TournamentService]:
    db = Database(db_url)
    yield TournamentService.open(db)
    db.close()


def enter_round(service: TournamentService, tid: str, rng: random.Random,
                boards: list[int] | None = None) -> None:
    t = service.tournament(tid)
    number = t.rounds_paired
    for p in t.pairings[number]:
        if p.kind is not PairingKind.GAME or (boards is not None and p.board not in boards):
            continue
        card: dict[str, object] = {}
        if not p.draws_allowed:
            card = {"black": p.a, "draw_win": p.a}
        black = rng.randint(0, 64)
        service.enter_result(tid, number, p.board, black_discs=black,
                             white_discs=64 - black, **card)


def test_a_tournament_is_its_facts(service: TournamentService) -> None:
    info = service.create("Niigata open", Settings("meijin", seed=7), password="s3cret!")
    assert (info.format, info.state, info.entrants, info.c) == ("meijin", "registration",
                                                                0, 9)
    for i in range(9):
        service.register(info.id, f"P{i}", rank=["1d", "3d", None][i % 3],
                         birth_year=1960 + i, woman=i % 4 == 0, seed=i < 2)
    with pytest.raises(TournamentError, match="registered already"):
        service.register(info.id, "p0")
    rng = random.Random(1)
    service.pair_next_round(info.id)
    with pytest.raises(TournamentError, match="registration closed"):
        service.register(info.id, "Late")
    enter_round(service, info.id, rng)
    service.pair_next_round(info.id)
    loaded = service.tournament(info.id)
    assert loaded.rounds_paired == 2 and len(loaded.entrants) == 9
    assert sum(p.kind is PairingKind.BYE for p in loaded.pairings[2]) == 1
    assert all(p.why for p in loaded.pairings[2])
    assert service.info(info.id).state == "playing"
    assert service.resolve("Niigata open") == info.id
    with pytest.raises(TournamentNotFound):
        service.resolve("nope")
    [summary] = service.list_tournaments()
    assert (summary.entrants, summary.rounds_paired) == (9, 2)


def test_password_is_kept_as_a_salted_hash(service: TournamentService, db_url: str) -> None:
    a = service.create("A", Settings("swiss"), password="hunter22")
    b = service.create("B", Settings("swiss"), password="hunter22")
    assert service.check_password(a.id, "hunter22")
    assert not service.check_password(a.id, "hunter23")
    engine = sa.create_engine(Database(db_url).url)
    with engine.connect() as conn:
        stored = {row.id: row.password_hash for row in conn.execute(
            sa.select(TournamentRow.id, TournamentRow.password_hash))}
    engine.dispose()
    assert "hunter22" not in stored[a.id] and stored[a.id].startswith("$argon2id$")
    assert stored[a.id] != stored[b.id]  # salted
    service.set_password(a.id, None)
    assert not service.check_password(a.id, "hunter22")
    c = service.create("C", Settings("swiss"))
    assert not c.has_password and not service.check_password(c.id, "")
    with pytest.raises(TournamentError, match="password"):
        service.create("D", Settings("swiss"), password="x")


def test_every_correction_is_in_the_audit_log(service: TournamentService) -> None:
    tid = service.create("Club", Settings("swiss", rounds=2)).id
    for name in "ABCD":
        service.register(tid, name, who="desk")
    service.pair_next_round(tid, who="director")
    service.enter_result(tid, 1, 1, black_discs=40, white_discs=24, who="desk")
    with pytest.raises(TournamentError, match="correct it"):
        service.enter_result(tid, 1, 1, black_discs=30, white_discs=34)
    with pytest.raises(TournamentError, match="reason"):
        service.correct_result(tid, 1, 1, black_discs=30, white_discs=34, reason=" ")
    view = service.correct_result(tid, 1, 1, black_discs=30, white_discs=34,
                                  reason="the card was read upside down", who="chief")
    assert (view.black_discs, view.white_discs) == (30, 34)
    service.withdraw(tid, "D", reason="went home")
    log = service.audit(tid)
    assert [e.action for e in log] == ["create", "register", "register", "register",
                                       "register", "pair", "result", "correct", "withdraw"]
    correction = log[7]
    assert (correction.who, correction.round, correction.board) == ("chief", 1, 1)
    assert correction.before["black_discs"] == 40 and correction.after["black_discs"] == 30
    assert correction.reason == "the card was read upside down"
    assert correction.at >= log[6].at
    assert log[8].before["withdrawn_from"] is None and log[8].after["withdrawn_from"] == 2
    assert as_json(log)[7]["after"]["white_discs"] == 34


def test_a_restart_in_the_middle_of_a_round_loses_nothing(db_url: str) -> None:
    """Half of round 3's cards entered, the process gone; a new one carries on, and the
    tournament ends exactly as one that never stopped."""
    rng = random.Random(5)
    db = Database(db_url)
    first = TournamentService.open(db)
    tid = first.create("Restart", Settings("meijin", seed=3)).id
    for i in range(14):
        first.register(tid, f"R{i}", rank="1d" if i % 2 else None, woman=i % 5 == 0)
    for _ in range(2):
        first.pair_next_round(tid)
        enter_round(first, tid, rng)
    first.pair_next_round(tid)
    enter_round(first, tid, rng, boards=[1, 2, 3])
    before = first.tournament(tid)
    db.close()  # the server stops

    db = Database(db_url)
    second = TournamentService.open(db)
    after = second.tournament(tid)
    assert after.pairings == before.pairings and after.results == before.results
    assert [s.number for s in after.standings()] == [s.number for s in before.standings()]
    assert [g.board for g in second.results_to_enter(tid)] == [4, 5, 6, 7]
    enter_round(second, tid, rng, boards=[4, 5, 6, 7])
    while not second.tournament(tid).finished:
        second.pair_next_round(tid)
        enter_round(second, tid, rng)
    stored = second.tournament(tid)
    db.close()

    # the same facts, replayed in memory without a stop, give the same tournament
    memory = Tournament(stored.settings, stored.entrants.values())
    for r in range(1, stored.rounds_paired + 1):
        assert memory.pair_next_round() == stored.pairings[r]
        for p in memory.pairings[r]:
            if (r, p.board) in stored.results:
                memory.results[r, p.board] = stored.results[r, p.board]
        memory._changed()
    assert [p.number for p in memory.ranking()] == [p.number for p in stored.ranking()]


def test_racing_writers_collide_and_write_nothing(service: TournamentService) -> None:
    tid = service.create("Race", Settings("swiss", rounds=3)).id
    for name in "ABCD":
        service.register(tid, name)
    repo = service.repo
    t = service.tournament(tid)
    pairings = t.pair_next_round()
    repo.add_round(tid, 1, pairings)
    with pytest.raises(ConcurrentWrite):
        repo.add_round(tid, 1, pairings)  # a second server paired round 1 as well
    result = t.make_result(1, 1, black_discs=40, white_discs=24)
    repo.put_result(tid, 1, 1, result)
    with pytest.raises(ConcurrentWrite):
        repo.put_result(tid, 1, 1, result)
    stale = t.make_result(1, 1, black_discs=10, white_discs=54)
    with pytest.raises(ConcurrentWrite, match="someone else"):
        repo.put_result(tid, 1, 1, stale, before=stale, reason="stale view")
    assert service.tournament(tid).results[1, 1] == result
    assert [e.action for e in service.audit(tid)].count("result") == 1
    with pytest.raises(KeyError):
        repo.add_entrant("missing", t.entrants[1])


def test_undo_a_pairing_without_results(service: TournamentService) -> None:
    tid = service.create("Undo", Settings("swiss", rounds=3)).id
    for name in "ABCDE":
        service.register(tid, name)
    service.pair_next_round(tid)
    assert service.unpair_last_round(tid, reason="a late entrant") == 1
    service.register(tid, "F")  # registration is open again
    view = service.pair_next_round(tid)
    assert len(view.games) == 3 and not any(g.kind == "bye" for g in view.games)
    service.enter_result(tid, 1, 1, black_discs=33, white_discs=31)
    with pytest.raises(TournamentError, match="has results"):
        service.unpair_last_round(tid)


def test_a_programs_game_is_stored_in_the_library(service: TournamentService) -> None:
    tid = service.create("Bots", Settings("knockout", seed=2)).id
    service.register(tid, "Rand", program="random", rank="1d")
    service.register(tid, "Greed", program="greedy", rank="3d")
    service.pair_next_round(tid)
    from hasamigo.engine.players import make_player
    from hasamigo.tournament.programs import _controller

    t = service.tournament(tid)
    game = _controller(t, t.pairings[1][0], seed=4)
    assert game.draw_win is not None  # fuse-ishi without draws
    assert "hider" not in [getattr(e, "step", None) for e in game.events]  # 3d hides
    players = {"random": make_player("random", seed=1), "greedy": make_player("greedy")}
    while game.result is None:
        colour, spec = game.program_to_move()  # type: ignore[misc]
        game.play(colour, players[spec].choose(game.board))
    view = service.record_game(tid, 1, 1, game)
    assert view.game_id == game.id and view.finished
    assert view.draw_win == game.seat(game.draw_win).name
    games = GameRepository(service.repo.db)
    stored = games.load(game.id)  # type: ignore[arg-type]
    assert stored is not None and stored.public and stored.game.result == game.result
    assert service.tournament(tid).finished
    result = game.result
    assert result is not None and result.winner is not None  # no draws: someone won
    assert service.ranking(tid)[0].name == game.seat(result.winner).name
    assert games.delete(game.id)  # type: ignore[arg-type]
    assert service.tournament(tid).results[1, 1].game_id is None  # the card stays


def test_repository_round_trips_every_kind_of_fact(db_url: str) -> None:
    db = Database(db_url)
    db.open()
    repo = TournamentRepository(db)
    service = TournamentService(repo)
    tid = service.create("Facts", Settings("meijin", seed=1, c=6, prize_places=6)).id
    rng = random.Random(2)
    for i in range(12):
        service.register(tid, f"F{i}", rank="2d", birth_year=1980, woman=i < 3,
                         seed=i == 0, division="open", program=None)
    while not service.tournament(tid).finished:
        service.pair_next_round(tid)
        enter_round(service, tid, rng)
    stored = repo.load(tid)
    assert stored is not None and stored.tournament.settings == Settings(
        "meijin", seed=1, c=6, prize_places=6)
    kinds = {g.kind.value for g in stored.tournament.games()}
    assert {"played", "bye"} <= kinds or {"played"} <= kinds
    assert stored.tournament.ranking()[0].award.dan == "七段"
    assert repo.delete(tid) and repo.load(tid) is None
    db.close()


def test_unknown_tournament(service: TournamentService) -> None:
    with pytest.raises(TournamentNotFound, match="no tournament"):
        service.info("0123")
    with pytest.raises(TournamentNotFound):
        service.check_password("0123", "x")
    game = GameController.new(GameSetup((Participant("A"), Participant("B")), GameOptions()))
    assert game.id is None
