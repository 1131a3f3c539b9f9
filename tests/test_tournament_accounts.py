"""Tournaments by account (issue 67): accounts enter themselves, seeding by rating, the
director's results rated in the Othello pool (the JOF exclusions saying why not), a
correction of a rated round, an account deleted. SQLite; PostgreSQL too when
``HASAMIGO_TEST_POSTGRES`` holds a URL."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hasamigo.accounts.store import AccountStore
from hasamigo.ratings import Pool, RatingStore, subject_of_account, two_player
from hasamigo.storage import Database
from hasamigo.tournament import Settings, Tournament, TournamentError
from hasamigo.tournament.model import Entrant, initial_order
from hasamigo.tournament.pairing import draw_round
from hasamigo.tournament.rated import RATED_AS_ENTERED, game_ref
from hasamigo.tournament.service import RegistrationRefused, TournamentService


@pytest.fixture
def service(db: Database) -> TournamentService:
    return TournamentService.open(db)


def accounts(db: Database, *names: str) -> list[str]:
    store = AccountStore(db)
    return [store.create(name, "a long password 123").id for name in names]


def open_tournament(service: TournamentService, rounds: int = 2, **settings: object) -> str:
    info = service.create("Club night", Settings("swiss", rounds=rounds, seed=3),
                          password="director!")
    service.set_registration(info.id, registration=True, **settings)
    return info.id


# ---- seeding (no database) -------------------------------------------------------------------
def test_seeding_by_rating_puts_the_rated_first_then_the_unrated_by_rank() -> None:
    entrants = [Entrant(1, "Dan six", rank="6d"), Entrant(2, "Low", rating=1420),
                Entrant(3, "High", rating=1710), Entrant(4, "Kyu", rank="3k"),
                Entrant(5, "Seeded", seed=True), Entrant(6, "Unrated account",
                                                         account_id="a" * 32)]
    assert initial_order(entrants) == [5, 1, 4, 2, 3, 6]
    assert initial_order(entrants, by_rating=True) == [5, 3, 2, 1, 4, 6]
    t = Tournament(Settings("swiss", rounds=3, seeding="rating"), entrants)
    assert t.initial_order() == [5, 3, 2, 1, 4, 6]
    assert t.order(0) == t.initial_order()  # the standings' last tie-break before round 1


def test_the_highest_rated_are_seeds_kept_apart_in_round_1() -> None:
    entrants = [Entrant(n, f"P{n}", rating=1500 + 10 * n) for n in range(1, 9)]
    t = Tournament(Settings("swiss", rounds=3, rating_seeds=2), entrants)
    assert t.seeds() == {8, 7}
    candidates = t.candidates(t.active(1), 0)
    assert {c.number for c in candidates if c.seed} == {7, 8}
    for seed in range(30):  # whatever the draw, the two seeds do not meet in round 1
        drawn = draw_round(candidates, random.Random(seed))
        assert {frozenset((g.black, g.white)) for g in drawn.games}.isdisjoint(
            {frozenset((7, 8))})
    with pytest.raises(TournamentError, match="seeding is by rank or by rating"):
        Settings("swiss", seeding="luck")
    with pytest.raises(TournamentError, match="cap"):
        Settings("swiss", registration_cap=1)
    with pytest.raises(TournamentError, match="date and time"):
        Settings("swiss", registration_closes="tomorrow")


def test_older_settings_read_and_write_as_before() -> None:
    old = {"format": "swiss", "rounds": 3, "c": None, "seed": 0, "prize_places": 8,
           "third_place": True, "keep_seeds_apart": True}
    assert Settings.from_json(old).to_json() == old
    assert "account_id" not in Entrant(1, "A").to_json()
    linked = Entrant(1, "A", account_id="b" * 32, rating=1612).to_json()
    assert (linked["account_id"], linked["rating"]) == ("b" * 32, 1612)
    with pytest.raises(TournamentError, match="32 hexadecimal"):
        Entrant(1, "A", account_id="nobody")


# ---- registering oneself ----------------------------------------------------------------------
def test_an_account_registers_itself_once_and_withdraws_before_round_1(
        service: TournamentService, db: Database) -> None:
    ann, ben = accounts(db, "Ann", "Ben")
    closed = service.create("Invitational", Settings("swiss", rounds=2), password="director!")
    with pytest.raises(RegistrationRefused, match="does not take registrations"):
        service.register_account(closed.id, ann, "Ann")
    tid = open_tournament(service)
    entry = service.register_account(tid, ann, "Ann", rank="2d")
    assert (entry.number, entry.name, entry.account_id, entry.rating) == (1, "Ann", ann, None)
    with pytest.raises(RegistrationRefused, match="registered already"):
        service.register_account(tid, ann, "Ann")
    assert service.entry(tid, ann) is not None and service.entry(tid, ben) is None
    with pytest.raises(RegistrationRefused, match="no entry to withdraw"):
        service.withdraw_account(tid, ben)  # nothing on another account's entry
    withdrawn = service.withdraw_account(tid, ann)
    assert withdrawn.withdrawn_from == 1
    back = service.register_account(tid, ann, "Ann")
    assert (back.number, back.withdrawn_from) == (1, None)  # the same entry, back in
    service.register_account(tid, ben, "Ben")
    service.register(tid, "Cid")  # the director's entrants stay as they are
    actions = [e.action for e in service.audit(tid)]
    assert actions.count("register") == 4 and "self_withdraw" in actions
    service.pair_next_round(tid)
    with pytest.raises(RegistrationRefused, match="round 1 is paired"):
        service.withdraw_account(tid, ann)
    dee, = accounts(db, "Dee")
    with pytest.raises(RegistrationRefused, match="round 1 was paired"):
        service.register_account(tid, dee, "Dee")


def test_registration_closes_at_its_time_and_at_its_cap(service: TournamentService,
                                                         db: Database) -> None:
    ann, ben, cid = accounts(db, "Ann", "Ben", "Cid")
    tid = open_tournament(service, registration_cap=2,
                          registration_closes="2030-01-01T10:00:00+09:00")
    early = datetime(2030, 1, 1, 0, 59, tzinfo=UTC)
    service.register_account(tid, ann, "Ann", now=early)
    with pytest.raises(RegistrationRefused, match="registration closed at"):
        service.register_account(tid, ben, "Ben", now=datetime(2030, 1, 1, 1, 0, tzinfo=UTC))
    service.register_account(tid, ben, "Ben", now=early)
    with pytest.raises(RegistrationRefused, match=r"full \(2 entrants\)"):
        service.register_account(tid, cid, "Cid", now=early)
    service.withdraw_account(tid, ben)  # a place freed
    service.register_account(tid, cid, "Cid", now=early)
    with pytest.raises(RegistrationRefused, match="full"):
        service.register_account(tid, ben, "Ben", now=early)
    service.set_registration(tid, registration=False)
    settings = service.info(tid).settings
    assert "registration" not in settings and settings["registration_cap"] == 2
    with pytest.raises(RegistrationRefused, match="does not take registrations"):
        service.register_account(tid, ben, "Ben", now=early)
    with pytest.raises(TournamentError, match="not a registration setting"):
        service.set_registration(tid, rounds=9)


def test_the_seeding_takes_the_ratings_again_when_round_1_is_paired(
        service: TournamentService, db: Database) -> None:
    ann, ben, cid, dee = accounts(db, "Ann", "Ben", "Cid", "Dee")
    tid = open_tournament(service, seeding="rating")
    for account, name in ((ann, "Ann"), (ben, "Ben"), (cid, "Cid"), (dee, "Dee")):
        service.register_account(tid, account, name)
    assert [e.rating for e in service.entrants(tid)] == [None] * 4
    ratings = RatingStore(service.repo.db)
    ratings.record("game:elsewhere", two_player(Pool.OTHELLO, subject_of_account(dee),
                                                subject_of_account(cid), winner=0))
    service.pair_next_round(tid)
    rows = {e.name: e for e in service.entrants(tid)}
    assert rows["Dee"].rating is not None and rows["Cid"].rating is not None
    assert rows["Dee"].rating > rows["Cid"].rating
    assert (rows["Dee"].seeding, rows["Cid"].seeding) == (1, 2)  # the unrated after
    assert "rating" in [e.action for e in service.audit(tid)]
    with pytest.raises(TournamentError, match="seeding is fixed"):
        service.set_registration(tid, seeding="rank")


# ---- rated results ------------------------------------------------------------------------------
def test_results_are_rated_when_their_round_closes_with_the_exclusions_said(
        service: TournamentService, db: Database) -> None:
    names = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")
    ids = accounts(db, *names)
    tid = open_tournament(service)
    for account, name in zip(ids, names, strict=True):
        service.register_account(tid, account, name)
    service.register(tid, "Walk-in")  # a name the director entered
    service.register(tid, "Guest")
    ratings = RatingStore(service.repo.db)
    first = service.pair_next_round(tid)
    t = service.tournament(tid)
    account_boards = [g for g in first.games
                      if t.entrant(g.black_number).account_id
                      and g.white_number and t.entrant(g.white_number).account_id]
    views = {}
    late_done = False
    for g in first.games:
        if g.kind == "bye":
            continue
        both = g in account_boards
        if both and not late_done:  # a late player's chosen forfeit (rule 13)
            views[g.board] = service.enter_result(tid, 1, g.board,
                                                  forfeit_loser=g.white_number, late=True)
            late_done = True
        else:
            views[g.board] = service.enter_result(tid, 1, g.board, black_discs=40,
                                                  white_discs=24)
    assert all(not ratings.changes_of(game_ref(tid, 1, b)) for b in views)  # not closed
    reasons = {v.not_rated for v in views.values()}
    assert "late_forfeit" in reasons
    mixed = [v for v in views.values() if v not in [views[g.board] for g in account_boards]]
    assert all(v.not_rated in ("not_entrant_accounts", None) for v in mixed)
    assert any(v.not_rated == "not_entrant_accounts" for v in mixed) or not mixed
    assert len(account_boards) >= 2  # one late forfeit, one or more rated
    service.pair_next_round(tid)  # closes round 1: its results are rated
    rated_boards = 0
    for g in first.games:
        changes = ratings.changes_of(game_ref(tid, 1, g.board), Pool.OTHELLO)
        rated_view = views.get(g.board)
        if rated_view is not None and rated_view.not_rated is None:
            assert sorted(c.subject for c in changes) == sorted(
                subject_of_account(t.entrant(n).account_id or "")
                for n in (g.black_number, g.white_number or 0))
            assert {c.score for c in changes} == {1.0, 0.0}
            winner = next(c for c in changes if c.score == 1.0)
            assert winner.after.mu > winner.before.mu
            rated_boards += 1
        else:
            assert changes == []
    assert rated_boards == len(account_boards) - 1
    shown = service.round(tid, 1).games
    assert {g.board: g.not_rated for g in shown} == {
        b: v.not_rated for b, v in views.items()} | {
        g.board: None for g in first.games if g.kind == "bye"}


def test_a_correction_after_rating_keeps_the_ratings_and_says_so(
        service: TournamentService, db: Database) -> None:
    ids = accounts(db, "Ann", "Ben")
    tid = open_tournament(service, rounds=1)
    service.register_account(tid, ids[0], "Ann")
    service.register_account(tid, ids[1], "Ben")
    (game,) = service.pair_next_round(tid).games
    view = service.enter_result(tid, 1, 1, black_discs=40, white_discs=24)
    assert service.info(tid).state == "finished"  # the last result closes the round
    ratings = RatingStore(service.repo.db)
    before = ratings.changes_of(game_ref(tid, 1, 1))
    assert len(before) == 2 and view.not_rated is None and view.rating_note is None
    same = service.correct_result(tid, 1, 1, black_discs=41, white_discs=23,
                                  reason="counted again")
    assert same.rating_note is None  # the ratings read it the same: nothing to say
    flipped = service.correct_result(tid, 1, 1, black_discs=20, white_discs=44,
                                     reason="the card was swapped")
    assert flipped.rating_note == RATED_AS_ENTERED
    assert ratings.changes_of(game_ref(tid, 1, 1)) == before  # rated once, as entered
    assert service.rate(tid)[0].changes == tuple(before)  # asking again changes nothing
    black = ratings.current(subject_of_account(
        service.tournament(tid).entrant(game.black_number).account_id or ""), Pool.OTHELLO)
    assert black.games == 1


def test_a_deleted_account_leaves_a_nameless_entrant(service: TournamentService,
                                                     db: Database) -> None:
    ann, ben = accounts(db, "Ann", "Ben")
    tid = open_tournament(service)
    service.register_account(tid, ann, "Ann", rank="1d")
    service.register_account(tid, ben, "Ben")
    assert service.repo.forget_account(ann, "(deleted)") == 1
    rows = service.entrants(tid)
    assert (rows[0].name, rows[0].account_id, rows[0].rank) == ("(deleted) #1", None, None)
    assert rows[1].account_id == ben
    logged = [e.after for e in service.audit(tid) if e.action == "register"]
    assert "Ann" not in repr(logged) and ann not in repr(logged)
    AccountStore(db).delete(ben)  # the database unlinks the entrant (ON DELETE SET NULL)
    assert service.entrants(tid)[1].account_id is None


# ---- the command line -------------------------------------------------------------------------
def test_the_director_enters_an_account_and_opens_registration_from_the_cli(
        tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from hasamigo.cli import app

    url = f"sqlite:///{tmp_path / 'cli.db'}"
    runner = CliRunner()

    def cli(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, ["tournament", *args, "--db", url])
        assert result.exit_code == code, result.output
        return result.output

    info = json.loads(cli("new", "Club", "--format", "swiss", "--rounds", "2", "--json"))
    database = Database(url)
    database.open()
    try:
        (hanako,) = accounts(database, "Hanako")
    finally:
        database.close()
    entered = json.loads(cli("enter", info["id"], "--account", "hanako", "--rank", "1d",
                             "--json"))["entered"][0]
    assert (entered["name"], entered["account_id"], entered["rank"]) == ("Hanako", hanako,
                                                                         "1d")
    assert "no account of that name" in cli("enter", info["id"], "--account", "nobody",
                                            code=2)
    shown = cli("registration", info["id"], "--open", "--cap", "16", "--seeding", "rating")
    assert "registration open, at most 16 entrants; seeding by rating" in shown
    settings = json.loads(cli("registration", info["id"], "--json"))["settings"]
    assert (settings["registration"], settings["seeding"]) == (True, "rating")
    assert "seeding is by rank or by rating" in cli("registration", info["id"], "--seeding",
                                                    "age", code=2)


def test_two_servers_cannot_enter_one_account_twice(service: TournamentService,
                                                    db: Database) -> None:
    """Each server checks on its own load; the database's unique (account, tournament)
    refuses the second entry whatever its number, and nothing of it is written."""
    from hasamigo.storage import ConcurrentWrite

    (ann,) = accounts(db, "Ann")
    tid = open_tournament(service)
    service.register_account(tid, ann, "Ann")
    other = TournamentService.open(db)  # a second server on the same database
    with pytest.raises(ConcurrentWrite):
        other.repo.add_entrant(tid, Entrant(7, "Ann again", account_id=ann))
    assert [e.name for e in service.entrants(tid)] == ["Ann"]


def test_a_round_rated_then_unpaired_is_not_rated_again_by_a_correction(
        service: TournamentService, db: Database) -> None:
    ids = accounts(db, "Ann", "Ben")
    tid = open_tournament(service, rounds=2)
    service.register_account(tid, ids[0], "Ann")
    service.register_account(tid, ids[1], "Ben")
    service.pair_next_round(tid)
    service.enter_result(tid, 1, 1, black_discs=40, white_discs=24)
    service.pair_next_round(tid)  # round 1 closed: rated
    ratings = RatingStore(service.repo.db)
    rated_first = ratings.changes_of(game_ref(tid, 1, 1))
    assert len(rated_first) == 2
    service.unpair_last_round(tid)
    flipped = service.correct_result(tid, 1, 1, black_discs=24, white_discs=40,
                                     reason="the card was swapped")
    assert flipped.rating_note == RATED_AS_ENTERED
    service.pair_next_round(tid)
    assert ratings.changes_of(game_ref(tid, 1, 1)) == rated_first
