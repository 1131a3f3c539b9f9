"""The lobby (issue 67): a challenge's terms, its life (posted, accepted once, cancelled by
its poster, lapsed), the waiting list paired by rating in the database, the games being
played between people. On SQLite, and on PostgreSQL when ``HASAMIGO_TEST_POSTGRES`` is
set."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_storage_migration import BACKENDS, scratch_url

from hasamigo.accounts import Account, AccountStore
from hasamigo.errors import InvalidOptionError
from hasamigo.lobby import (
    ChallengeNotFound,
    ChallengeState,
    LobbyError,
    LobbyStore,
    NotYourChallenge,
    Terms,
    window,
)
from hasamigo.lobby.model import (
    CORRESPONDENCE_LAPSE,
    LIVE_LAPSE,
    OPEN_PER_ACCOUNT,
    WAITING_SEEN,
    WINDOW_OPEN,
    WINDOW_START,
)
from hasamigo.storage import Database

PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    with scratch_url(request.param, tmp_path) as url:
        database = Database(url)
        database.open()
        yield database
        database.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lobby(db: Database, clock: Clock) -> LobbyStore:
    return LobbyStore(db, clock=clock)


def person(db: Database, name: str, *, signed_in: bool = True) -> Account:
    accounts = AccountStore(db)
    account = accounts.create(name, PASSWORD)
    if signed_in:
        accounts.open_session(account.id)
    return account


# ---- the terms ---------------------------------------------------------------------------
def test_terms_default_to_the_jof_clock_and_check_each_field() -> None:
    terms = Terms.check("8x8", 20, None, True, "black", True)
    assert terms.clock_minutes == 20.0 and not terms.correspondence
    assert terms.time_control == "20 minutes a side" and terms.lapse == LIVE_LAPSE
    corr = Terms.check("6x6", None, 3, False, "fuse-ishi", False)
    assert corr.correspondence and corr.lapse == CORRESPONDENCE_LAPSE
    for args, words in [
        (("9x9", 20, None, False, "black", True), "no two-player variant"),
        (("rolit", 20, None, False, "black", True), "no two-player variant"),
        (("8x8", 20, None, False, "green", True), "no colour"),
        (("8x8", 20, 3, False, "black", True), "no chess clock"),
        (("8x8", None, None, False, "black", True), "minutes a side"),
        (("8x8", 0.5, None, False, "black", True), "minutes a side"),
        (("8x8", float("nan"), None, False, "black", True), "minutes a side"),
        (("8x8", 181, None, False, "black", True), "minutes a side"),
        (("8x8", None, 15, False, "black", True), "days per move"),
        (("8x8", None, True, False, "black", True), "days per move"),
        (("6x6", 20, None, True, "black", True), "standard 8×8"),
    ]:
        with pytest.raises(InvalidOptionError, match=words):
            Terms.check(*args)  # type: ignore[arg-type]


def test_the_window_widens_with_waiting_then_opens() -> None:
    assert window(0) == WINDOW_START
    assert window(4.9) == WINDOW_START < window(5) < window(30) < window(100)
    assert window(WINDOW_OPEN.total_seconds()) == float("inf")


# ---- challenges --------------------------------------------------------------------------
def test_a_challenge_is_accepted_once(db: Database, lobby: LobbyStore) -> None:
    ann, bob, cid = person(db, "ann"), person(db, "bob"), person(db, "cid")
    posted = lobby.post(ann.id, Terms(rated=True), 1500)
    assert posted.state is ChallengeState.OPEN and posted.poster_name == "ann"
    assert [c.id for c in lobby.open_challenges()] == [posted.id]
    with pytest.raises(LobbyError, match="your own"):
        lobby.claim(posted.id, ann.id)
    taken = lobby.claim(posted.id, bob.id)
    assert taken.state is ChallengeState.ACCEPTED and taken.acceptor_id == bob.id
    with pytest.raises(LobbyError, match="someone else"):
        lobby.claim(posted.id, cid.id)
    assert lobby.open_challenges() == []
    with pytest.raises(ChallengeNotFound):
        lobby.claim("0" * 16, bob.id)
    assert lobby.accepted_since(ann.id, timedelta(minutes=5)) == []  # no game yet
    lobby.attach_game(posted.id, "abcdef123456")
    assert [c.game_id for c in lobby.accepted_since(ann.id, timedelta(minutes=5))] \
        == ["abcdef123456"]
    assert [c.game_id for c in lobby.accepted_since(bob.id, timedelta(minutes=5))] \
        == ["abcdef123456"]
    assert lobby.accepted_since(cid.id, timedelta(minutes=5)) == []


def test_a_challenge_whose_game_failed_is_open_again(db: Database, lobby: LobbyStore) -> None:
    ann, bob = person(db, "ann"), person(db, "bob")
    posted = lobby.post(ann.id, Terms(), 1500)
    lobby.claim(posted.id, bob.id)
    lobby.reopen(posted.id)
    assert lobby.get(posted.id).state is ChallengeState.OPEN
    assert lobby.claim(posted.id, bob.id).acceptor_id == bob.id


def test_two_acceptors_at_once_make_one_taker(db: Database, lobby: LobbyStore) -> None:
    poster = person(db, "poster")
    takers = [person(db, f"taker{i}") for i in range(6)]
    posted = lobby.post(poster.id, Terms(), 1500)
    won: list[str] = []
    refused: list[str] = []
    start = threading.Barrier(len(takers))

    def take(account: Account) -> None:
        start.wait()
        try:
            lobby.claim(posted.id, account.id)
            won.append(account.id)
        except LobbyError:
            refused.append(account.id)

    threads = [threading.Thread(target=take, args=(t,)) for t in takers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and len(refused) == len(takers) - 1
    assert lobby.get(posted.id).acceptor_id == won[0]


def test_only_its_poster_cancels(db: Database, lobby: LobbyStore) -> None:
    ann, bob = person(db, "ann"), person(db, "bob")
    posted = lobby.post(ann.id, Terms(), 1500)
    with pytest.raises(NotYourChallenge):
        lobby.cancel(posted.id, bob.id)
    assert lobby.cancel(posted.id, ann.id).state is ChallengeState.CANCELLED
    with pytest.raises(LobbyError, match="no longer open"):
        lobby.cancel(posted.id, ann.id)
    with pytest.raises(LobbyError, match="no longer open"):
        lobby.claim(posted.id, bob.id)


def test_a_challenge_lapses_in_time_or_when_its_poster_signs_out(
        db: Database, lobby: LobbyStore, clock: Clock) -> None:
    ann, bob = person(db, "ann"), person(db, "bob")
    live = lobby.post(ann.id, Terms(), 1500)
    corr = lobby.post(ann.id, Terms(clock_minutes=None, days_per_move=2), 1500)
    clock.advance(seconds=LIVE_LAPSE.total_seconds() + 1)
    assert [c.id for c in lobby.open_challenges()] == [corr.id]
    with pytest.raises(LobbyError, match="no longer open"):
        lobby.claim(live.id, bob.id)
    AccountStore(db).close_sessions(ann.id)  # signed out everywhere
    assert lobby.open_challenges() == []
    with pytest.raises(LobbyError, match="no longer open"):
        lobby.claim(corr.id, bob.id)
    AccountStore(db).open_session(ann.id)  # back before the correspondence one lapsed
    assert [c.id for c in lobby.open_challenges()] == [corr.id]
    clock.advance(seconds=CORRESPONDENCE_LAPSE.total_seconds())
    assert lobby.open_challenges() == []
    lobby.post(ann.id, Terms(), 1500)  # posting tidies: the lapsed are marked so
    assert lobby.get(live.id).state is ChallengeState.LAPSED


def test_open_challenges_per_account_are_bounded(db: Database, lobby: LobbyStore) -> None:
    ann = person(db, "ann")
    posted = [lobby.post(ann.id, Terms(), 1500) for _ in range(OPEN_PER_ACCOUNT)]
    with pytest.raises(LobbyError, match="at most"):
        lobby.post(ann.id, Terms(), 1500)
    lobby.cancel(posted[0].id, ann.id)
    lobby.post(ann.id, Terms(), 1500)


# ---- waiting -----------------------------------------------------------------------------
def test_the_nearest_rating_within_the_window_is_paired(
        db: Database, lobby: LobbyStore, clock: Clock) -> None:
    ann, bob, cid, dan = (person(db, n) for n in ("ann", "bob", "cid", "dan"))
    lobby.wait(ann.id, 1500.0)
    lobby.wait(bob.id, 1800.0)  # too far for a while
    entry = lobby.pair(ann.id)[0]
    assert entry is not None and entry.partner_id is None
    lobby.wait(cid.id, 1560.0)
    lobby.wait(dan.id, 1580.0)
    paired = lobby.pair(cid.id)[0]
    assert paired is not None and paired.partner_id == dan.id  # 20 away; ann 60
    assert lobby.entry(dan.id).partner_id == cid.id  # type: ignore[union-attr]
    assert lobby.pair(ann.id)[0].partner_id is None  # type: ignore[union-attr]
    waited = 0
    while lobby.pair(bob.id)[0].partner_id is None:  # type: ignore[union-attr]
        clock.advance(seconds=5)
        waited += 5
        lobby.wait(ann.id, 1500.0)  # ann's page is still there
        assert waited <= 60
    assert waited == 40  # the windows reach 300 points after 40 seconds
    assert lobby.entry(ann.id).partner_id == bob.id  # type: ignore[union-attr]


def test_a_partner_nearer_is_preferred(db: Database, lobby: LobbyStore) -> None:
    ann, bob, cid = (person(db, n) for n in ("ann", "bob", "cid"))
    lobby.wait(ann.id, 1500.0)
    lobby.wait(bob.id, 1590.0)
    lobby.wait(cid.id, 1520.0)
    paired = lobby.pair(ann.id)[0]
    assert paired is not None and paired.partner_id == cid.id


def test_an_entry_unseen_lapses_and_leaving_works_until_paired(
        db: Database, lobby: LobbyStore, clock: Clock) -> None:
    ann, bob, cid = (person(db, n) for n in ("ann", "bob", "cid"))
    lobby.wait(ann.id, 1500.0)
    clock.advance(seconds=WAITING_SEEN.total_seconds() + 1)  # ann's page closed
    lobby.wait(bob.id, 1500.0)
    assert lobby.pair(bob.id)[0].partner_id is None  # type: ignore[union-attr]
    assert lobby.waiting_count() == 1
    assert lobby.leave(bob.id) and lobby.entry(bob.id) is None
    lobby.wait(ann.id, 1500.0)
    lobby.wait(cid.id, 1500.0)
    assert lobby.pair(cid.id)[0].partner_id == ann.id  # type: ignore[union-attr]
    assert not lobby.leave(ann.id)  # paired: the game is being made
    lobby.set_game(ann.id, cid.id, "abcdef123456")
    assert lobby.entry(ann.id).game_id == "abcdef123456"  # type: ignore[union-attr]
    fresh = lobby.wait(ann.id, 1500.0)  # waiting again after that game
    assert fresh.partner_id is None and fresh.game_id is None


def test_a_pair_whose_game_was_never_made_waits_again(
        db: Database, lobby: LobbyStore, clock: Clock) -> None:
    ann, bob = person(db, "ann"), person(db, "bob")
    lobby.wait(ann.id, 1500.0)
    lobby.wait(bob.id, 1500.0)
    assert lobby.pair(ann.id)[0].partner_id == bob.id  # type: ignore[union-attr]
    lobby.unpair(ann.id, bob.id)
    assert lobby.entry(bob.id).partner_id is None  # type: ignore[union-attr]
    assert lobby.pair(bob.id)[0].partner_id == ann.id  # type: ignore[union-attr]
    clock.advance(seconds=40)  # its server stopped before the game was made
    lobby.wait(ann.id, 1500.0)  # both pages still ask
    entry = lobby.pair(bob.id)[0]
    assert entry is not None and entry.partner_id == ann.id  # paired again at once


def test_many_waiting_at_once_are_each_paired_once(db: Database, lobby: LobbyStore) -> None:
    people = [person(db, f"p{i:02d}") for i in range(10)]
    for index, account in enumerate(people):
        lobby.wait(account.id, 1500.0 + index)
    start = threading.Barrier(len(people))

    def ask(account: Account) -> None:
        start.wait()
        lobby.pair(account.id)[0]

    threads = [threading.Thread(target=ask, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    partners = {p.id: lobby.entry(p.id).partner_id for p in people}  # type: ignore[union-attr]
    assert all(partners.values())
    assert all(partners[partner] == me for me, partner in partners.items()
               if partner is not None)
