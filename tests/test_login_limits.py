"""Sign-in limits that hold across server processes, and trusted browsers (issue 67).

Failed sign-ins are counted in the database (``account_attempts``, revision 0018), so two
services on one database (two server processes) and a restarted one see the same counts;
a browser the account trusts (its ``hasamigo_device`` cookie) is not locked out by
failures others made with the account's name. On SQLite, and on PostgreSQL when
``HASAMIGO_TEST_POSTGRES`` is set."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import SETTINGS, browser, make_client

from hasamigo.accounts import AccountStore, LoginFailed
from hasamigo.accounts.attempts import (
    KEEP,
    AttemptLog,
    Limit,
    Refusal,
    address_key,
    device_key,
    name_key_of,
)
from hasamigo.accounts.store import token_hash
from hasamigo.storage import Database
from hasamigo.storage.db import alembic_config, normalise_url
from hasamigo.storage.models import AccountAttemptRow, AccountDeviceRow
from hasamigo.web.errors import Forbidden, RateLimited
from hasamigo.web.services.accounts import (
    DEVICE_COOKIE,
    SESSION_COOKIE,
    AccountService,
    Welcome,
)

PASSWORD = "correct horse battery"
T0 = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


class Clock:
    """The wall clock every "process" of a test reads (moved by hand)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with scratch_url(request.param, tmp_path) as found:
        yield found


@pytest.fixture
def clock() -> Clock:
    return Clock()


class Server:
    """One server process: a database connection of its own and its own service."""

    def __init__(self, url: str, clock: Clock, **limits: int) -> None:
        self.db = Database(url)
        self.db.open()
        self.service = AccountService(AccountStore(self.db, clock=clock), **limits)

    def log_in(self, name: str, password: str, address: str = "198.51.100.1",
               device: str | None = None) -> Welcome:
        return asyncio.run(self.service.log_in(name, password, address, device))

    def sign_up(self, name: str, address: str = "198.51.100.1") -> Welcome:
        return asyncio.run(self.service.sign_up(name, PASSWORD, address))

    def fails(self, name: str, address: str = "198.51.100.1", device: str | None = None
              ) -> str:
        """A wrong password: ``"401"``, or ``"429"`` when a limit refuses it."""
        try:
            self.log_in(name, "a wrong password", address, device)
        except LoginFailed:
            return "401"
        except RateLimited:
            return "429"
        raise AssertionError("a wrong password signed in")


@pytest.fixture
def servers(url: str, clock: Clock) -> Iterator[tuple[Server, Server]]:
    one = Server(url, clock, logins_per_minute=100, logins_per_name_per_hour=4)
    two = Server(url, clock, logins_per_minute=100, logins_per_name_per_hour=4)
    yield one, two
    one.db.close()
    two.db.close()


def attempt_rows(db: Database) -> list[tuple[str, datetime]]:
    with db.session() as session:
        return [(key, at) for key, at in session.execute(
            sa.select(AccountAttemptRow.key, AccountAttemptRow.at))]


# ---- counted in the database -----------------------------------------------------------------
def test_two_servers_count_the_same_failures(servers: tuple[Server, Server]) -> None:
    one, two = servers
    one.sign_up("hanako")
    # each server lets the name fail 4 times an hour: together, not 4 each
    seen = [server.fails("hanako", address=f"203.0.113.{i}")
            for i, server in enumerate([one, two, one, two, one, two])]
    assert seen == ["401"] * 4 + ["429"] * 2
    # the right password from a browser the account does not trust waits too
    with pytest.raises(RateLimited) as refused:
        two.log_in("hanako", PASSWORD, "192.0.2.7")
    assert refused.value.retry_after == 3601
    assert "for this name" in str(refused.value)


def test_a_restarted_server_forgets_no_failure(url: str, clock: Clock) -> None:
    first = Server(url, clock, logins_per_name_per_hour=3)
    first.sign_up("hanako")
    assert [first.fails("hanako", f"203.0.113.{i}") for i in range(3)] == ["401"] * 3
    first.db.close()
    restarted = Server(url, clock, logins_per_name_per_hour=3)
    assert restarted.fails("hanako", "203.0.113.99") == "429"
    # an hour after the first failure, the name may be tried again
    clock.now += timedelta(hours=1, seconds=1)
    assert restarted.fails("hanako", "203.0.113.99") == "401"
    restarted.db.close()


def test_the_address_limit_is_shared_and_says_when(servers: tuple[Server, Server],
                                                   url: str, clock: Clock) -> None:
    one = Server(url, clock, logins_per_minute=3)
    two = Server(url, clock, logins_per_minute=3)
    one.sign_up("hanako")
    assert [one.fails("hanako"), two.fails("jiro"), one.fails("saburo")] == ["401"] * 3
    clock.now += timedelta(seconds=20)
    with pytest.raises(RateLimited) as refused:
        two.log_in("hanako", PASSWORD)
    assert refused.value.retry_after == 41  # the first failure leaves the minute in 40 s
    assert "from this address" in str(refused.value)
    assert one.fails("hanako", address="198.51.100.2") == "401"  # another address
    clock.now += timedelta(seconds=41)
    assert two.log_in("hanako", PASSWORD).account.name == "hanako"
    one.db.close()
    two.db.close()


def test_a_success_is_not_a_failure(servers: tuple[Server, Server]) -> None:
    one, two = servers
    one.sign_up("hanako")
    for _ in range(6):  # more than the name's limit: successes do not count
        assert two.log_in("hanako", PASSWORD, "203.0.113.5").account.name == "hanako"
    assert one.service.attempts.count(name_key_of("hanako")) == 0
    assert one.fails("hanako") == "401"
    assert one.service.attempts.count(name_key_of("hanako")) == 1


def test_nothing_typed_is_stored(servers: tuple[Server, Server]) -> None:
    one, _two = servers
    one.sign_up("hanako")
    for typed in ["hanako", "Hanako-typed", "my-secret-pass"]:
        with pytest.raises(LoginFailed):
            one.log_in(typed, "my-secret-pass", "203.0.113.77")
    stored = " ".join(f"{key} {at}" for key, at in attempt_rows(one.db))
    for text in ["hanako", "typed", "secret", "203.0.113.77"]:
        assert text not in stored.lower()
    assert one.service.attempts.count(address_key("203.0.113.77")) == 3


# ---- trusted browsers --------------------------------------------------------------------------
def test_the_owner_in_a_trusted_browser_gets_in_while_the_name_is_locked(
        servers: tuple[Server, Server]) -> None:
    one, two = servers
    device = one.sign_up("hanako").device
    assert device is not None
    # an attacker fails from many addresses on both servers: the name is locked
    assert [two.fails("hanako", f"203.0.113.{i}") for i in range(5)] == ["401"] * 4 + ["429"]
    # the owner's usual browser still signs in (on either server), its cookie kept
    signed = one.log_in("hanako", PASSWORD, "192.0.2.1", device)
    assert signed.account.name == "hanako" and signed.device is None
    assert two.log_in("hanako", PASSWORD, "192.0.2.1", device).device is None
    # a browser without the cookie, or with a forged one, waits
    for other in [None, "forged-device-token", "x" * 500]:
        with pytest.raises(RateLimited):
            two.log_in("hanako", PASSWORD, "192.0.2.1", other)


def test_another_accounts_device_does_not_help(servers: tuple[Server, Server]) -> None:
    one, two = servers
    one.sign_up("hanako")
    jiro_device = one.sign_up("jiro").device
    assert [two.fails("hanako", f"203.0.113.{i}") for i in range(4)] == ["401"] * 4
    with pytest.raises(RateLimited):
        one.log_in("hanako", PASSWORD, "192.0.2.1", jiro_device)
    # it still counts for jiro's own sign-in
    assert one.log_in("jiro", PASSWORD, "192.0.2.1", jiro_device).device is None


def test_a_failure_from_a_trusted_browser_counts_against_it(
        servers: tuple[Server, Server]) -> None:
    one, two = servers
    device = one.sign_up("hanako").device
    assert device is not None
    hashed = token_hash(device)
    assert one.fails("hanako", device=device) == "401"
    attempts = one.service.attempts
    assert attempts.count(device_key(hashed)) == 1
    assert attempts.count(name_key_of("hanako")) == 0
    # the browser itself is limited as a name is: a stolen cookie guesses no faster
    assert [two.fails("hanako", f"203.0.113.{i}", device) for i in range(4)] \
        == ["401"] * 3 + ["429"]
    with pytest.raises(RateLimited) as refused:
        one.log_in("hanako", PASSWORD, "192.0.2.1", device)
    assert "from this browser" in str(refused.value)
    # and the name is untouched: another browser of the owner's signs in
    assert one.log_in("hanako", PASSWORD, "192.0.2.1").device is not None


def test_a_device_unused_for_a_year_is_trusted_no_more(url: str, clock: Clock) -> None:
    server = Server(url, clock, logins_per_name_per_hour=2)
    device = server.sign_up("hanako").device
    clock.now += timedelta(days=366)
    assert server.service.store.device_account(device) is None
    assert [server.fails("hanako", f"203.0.113.{i}") for i in range(2)] == ["401"] * 2
    with pytest.raises(RateLimited):
        server.log_in("hanako", PASSWORD, "192.0.2.1", device)
    server.db.close()


def test_an_account_keeps_its_twenty_latest_browsers(servers: tuple[Server, Server],
                                                     clock: Clock) -> None:
    one, _two = servers
    first = one.sign_up("hanako").device
    devices = []
    for _ in range(20):
        clock.now += timedelta(minutes=1)
        devices.append(one.log_in("hanako", PASSWORD).device)
    store = one.service.store
    account_id = one.log_in("hanako", PASSWORD, device=devices[-1]).account.id
    assert store.device_count(account_id) == 20
    assert store.device_account(first) is None
    assert all(store.device_account(d) == account_id for d in devices)


# ---- pruning and deletion --------------------------------------------------------------------
def test_old_failures_are_pruned(servers: tuple[Server, Server], clock: Clock) -> None:
    one, two = servers
    one.sign_up("hanako")
    for i in range(3):
        one.fails("hanako", f"203.0.113.{i}")
    assert len(attempt_rows(one.db)) == 3 * 2 + 1  # by address and name; the sign-up
    clock.now += KEEP / 2
    two.fails("jiro")
    assert two.service.attempts.prune() == 0
    clock.now += KEEP / 2 + timedelta(seconds=1)
    assert two.service.attempts.prune() == 7
    assert {key for key, _at in attempt_rows(one.db)} == {
        name_key_of("jiro"), address_key("198.51.100.1")}
    # a process prunes as it counts (at most once a minute)
    clock.now += KEEP / 2 + timedelta(seconds=1)
    one.fails("saburo")
    assert {key for key, _at in attempt_rows(one.db)} == {
        name_key_of("saburo"), address_key("198.51.100.1")}


def test_a_limit_longer_than_what_is_kept_is_refused() -> None:
    with pytest.raises(ValueError, match="at most"):
        Limit("k", 3, KEEP + timedelta(seconds=1), "x")
    with pytest.raises(ValueError, match="at least one"):
        Limit("k", 0, KEEP, "x")


def test_refused_attempts_are_not_counted(url: str, clock: Clock) -> None:
    db = Database(url)
    db.open()
    log = AttemptLog(db, clock=clock)
    limit = [Limit("key", 2, timedelta(minutes=1), "tries")]
    assert isinstance(log.begin(limit), list) and isinstance(log.begin(limit), list)
    for _ in range(5):
        refused = log.begin(limit)
        assert isinstance(refused, Refusal) and refused.wait == 60.0
    assert log.count("key") == 2
    clock.now += timedelta(seconds=61)
    assert isinstance(log.begin(limit), list)
    db.close()


def test_attempts_made_at_once_on_two_servers_do_not_slip_under_a_limit(
        url: str, clock: Clock) -> None:
    """Written first, counted after: of attempts racing on two connections, no more than
    the limit are let through (a race may refuse more: the careful side)."""
    dbs = [Database(url), Database(url)]
    for db in dbs:
        db.open()
    logs = [AttemptLog(db, clock=clock) for db in dbs]
    limit = [Limit("raced", 3, timedelta(minutes=1), "tries")]
    start = threading.Barrier(12)

    def attempt(i: int) -> bool:
        start.wait()
        return isinstance(logs[i % 2].begin(limit), list)

    with ThreadPoolExecutor(12) as pool:
        let_through = sum(pool.map(attempt, range(12)))
    assert let_through <= 3
    assert logs[0].count("raced") == let_through  # the refused left no row
    for db in dbs:
        db.close()


def test_deletion_forgets_the_browsers_and_the_failures(
        servers: tuple[Server, Server]) -> None:
    one, two = servers
    device = one.sign_up("hanako").device
    assert device is not None
    one.fails("hanako")
    one.fails("hanako", device=device)
    two.sign_up("jiro")
    two.fails("jiro")
    account = one.log_in("hanako", PASSWORD, device=device).account
    store = one.service.store
    store.delete(account.id)
    keys = {key for key, _at in attempt_rows(one.db)}
    assert name_key_of("hanako") not in keys and device_key(token_hash(device)) not in keys
    assert name_key_of("jiro") in keys  # another account's failures stay
    with one.db.session() as session:
        owners = set(session.scalars(sa.select(AccountDeviceRow.account_id)))
    assert account.id not in owners and len(owners) == 1
    assert store.device_account(device) is None


def test_deletion_is_limited_and_a_trusted_browser_is_not_locked_out(
        servers: tuple[Server, Server]) -> None:
    one, two = servers
    device = one.sign_up("hanako").device
    account = one.log_in("hanako", PASSWORD, device=device).account
    assert [two.fails("hanako", f"203.0.113.{i}") for i in range(4)] == ["401"] * 4

    async def delete(password: str, browser_device: str | None) -> None:
        await one.service.delete(account, password, "192.0.2.1", games=None,  # type: ignore[arg-type]
                                 device=browser_device)

    with pytest.raises(RateLimited):  # the name is locked for a browser it does not trust
        asyncio.run(delete("wrong password!", None))
    with pytest.raises(Forbidden):  # from the trusted one, a wrong password is just wrong
        asyncio.run(delete("wrong password!", device))
    assert one.service.attempts.count(device_key(token_hash(device or ""))) == 1


# ---- the web ---------------------------------------------------------------------------------
def test_the_device_cookie(tmp_path: Path) -> None:
    settings = SETTINGS.model_copy(update={"forwarded_allow_ips": ("*",)})
    with make_client(tmp_path / "w.db", settings=settings) as owner:
        r = owner.post("/api/accounts", json={"name": "hanako", "password": PASSWORD})
        assert r.status_code == 201
        cookie = next(c for c in r.headers.get_list("set-cookie")
                      if c.startswith(DEVICE_COOKIE))
        lowered = cookie.lower()
        assert "httponly" in lowered and "path=/api/accounts" in lowered
        assert "samesite=strict" in lowered and "max-age=31536000" in lowered
        device = owner.cookies[DEVICE_COOKIE]
        # sign-out keeps it
        assert owner.post("/api/accounts/logout").status_code == 204
        assert SESSION_COOKIE not in owner.cookies and owner.cookies[DEVICE_COOKIE] == device
        # an attacker locks the name from many addresses
        attacker = browser(owner)
        codes = [attacker.post("/api/accounts/login",
                               json={"name": "HANAKO", "password": "wrong one"},
                               headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                 for i in range(31)]
        assert codes == [401] * 30 + [429]
        r = attacker.post("/api/accounts/login", json={"name": "hanako", "password": PASSWORD},
                          headers={"X-Forwarded-For": "203.0.113.200"})
        assert r.status_code == 429 and r.headers["Retry-After"] == "3601"
        assert r.json()["error"]["code"] == "rate_limited"
        # the owner's browser gets in, and keeps its device cookie
        r = owner.post("/api/accounts/login", json={"name": "hanako", "password": PASSWORD})
        assert r.status_code == 200 and owner.cookies[DEVICE_COOKIE] == device
        assert not any(c.startswith(DEVICE_COOKIE) for c in r.headers.get_list("set-cookie"))
        assert owner.get("/api/accounts/me").json()["account"]["name"] == "hanako"
        # deletion forgets the browser
        assert owner.post("/api/accounts/delete", json={"password": PASSWORD}).status_code == 204
        assert DEVICE_COOKIE not in owner.cookies


def test_two_web_servers_share_the_count(tmp_path: Path) -> None:
    settings = SETTINGS.model_copy(update={"forwarded_allow_ips": ("*",)})
    with make_client(tmp_path / "two.db", settings=settings) as one, \
            make_client(tmp_path / "two.db", settings=settings) as two:
        assert one.post("/api/accounts", json={"name": "hanako", "password": PASSWORD}
                        ).status_code == 201
        one.cookies.clear()  # the failures come from browsers hanako's account does not trust
        codes = [(one if i % 2 else two).post(
            "/api/accounts/login", json={"name": "hanako", "password": "wrong one"},
            headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(31)]
        assert codes == [401] * 30 + [429]
        # the sign-ups of an address are shared too
        codes = [(one if i % 2 else two).post(
            "/api/accounts", json={"name": f"player{i}", "password": PASSWORD},
            headers={"X-Forwarded-For": "192.0.2.9"}).status_code for i in range(11)]
        assert codes == [201] * 10 + [429]


# ---- the migration ---------------------------------------------------------------------------
def test_r0018_adds_the_tables_and_goes_back(url: str) -> None:
    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0017")
        assert "account_attempts" not in sa.inspect(conn).get_table_names()
        command.upgrade(alembic_config(conn), "0018")
        names = sa.inspect(conn).get_table_names()
        assert {"account_attempts", "account_devices"} <= set(names)
        indexes = {i["name"] for i in sa.inspect(conn).get_indexes("account_attempts")}
        assert "ix_account_attempts_key_at" in indexes
        command.downgrade(alembic_config(conn), "0017")
        names = sa.inspect(conn).get_table_names()
        assert "account_attempts" not in names and "account_devices" not in names
        assert "accounts" in names
    engine.dispose()
