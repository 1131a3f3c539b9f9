"""The signed-in session as :class:`~hasamigo.web.services.accounts.AccountService`
remembers it (issue 67's load: looked up once in :data:`SESSION_CACHE_SECONDS`, not on
every request), and that it is never remembered past its end: a sign-out or a deletion
through this server at once, one through another server on the same database within
those seconds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_web_accounts import PASSWORD, sign_up
from test_web_api import make_client

from hasamigo.accounts import Account, AccountStore
from hasamigo.storage import Database
from hasamigo.web.services.accounts import SESSION_CACHE_SECONDS, AccountService


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CountingStore(AccountStore):
    """The store, counting its session lookups (each one a database query)."""

    lookups = 0

    def session_account(self, token: str) -> Account | None:
        self.lookups += 1
        return super().session_account(token)


def test_a_session_is_looked_up_once_within_the_cache_seconds(db: Database) -> None:
    ticks, store = Ticks(), CountingStore(db)
    service = AccountService(store, session_clock=ticks)
    account = store.create("hanako", PASSWORD)
    token = store.open_session(account.id)

    async def run() -> None:
        for _ in range(5):
            assert await service.viewer(token) == account
        assert store.lookups == 1
        assert await service.viewer("not-a-session") is None
        assert await service.viewer("not-a-session") is None
        assert store.lookups == 2
        ticks.now += SESSION_CACHE_SECONDS
        assert await service.viewer(token) == account
        assert store.lookups == 3

    asyncio.run(run())


def test_an_end_elsewhere_is_seen_within_the_cache_seconds(db: Database) -> None:
    """Another server (or ``hasamigo accounts``) on the same database ends the session:
    this one stops trusting it once its cached lookup is older than the bound."""
    ticks, store = Ticks(), AccountStore(db)
    service = AccountService(store, session_clock=ticks)
    account = store.create("hanako", PASSWORD)
    token, other = store.open_session(account.id), store.open_session(account.id)

    async def run() -> None:
        assert await service.viewer(token) == account
        assert await service.viewer(other) == account
        AccountStore(db).close_session(token)  # the other server's sign-out
        AccountStore(db).close_sessions(account.id)
        ticks.now += SESSION_CACHE_SECONDS - 0.5
        assert await service.viewer(token) == account  # still within the bound
        ticks.now += 0.5
        assert await service.viewer(token) is None
        assert await service.viewer(other) is None

    asyncio.run(run())


def test_a_sign_out_here_ends_the_session_at_once(db: Database) -> None:
    ticks, store = Ticks(), AccountStore(db)
    service = AccountService(store, session_clock=ticks)
    account = store.create("hanako", PASSWORD)
    token, kept = store.open_session(account.id), store.open_session(account.id)

    async def run() -> None:
        assert await service.viewer(token) == account
        assert await service.viewer(kept) == account
        await service.log_out(token)
        assert await service.viewer(token) is None
        assert await service.viewer(kept) == account  # the other browser's session stays

    asyncio.run(run())


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "sessions.db") as c:
        yield c


def test_a_deleted_account_is_signed_out_at_once(client: TestClient) -> None:
    sign_up(client, "hanako")
    assert client.get("/api/accounts/me").status_code == 200
    token = client.cookies["hasamigo_session"]
    r = client.post("/api/accounts/delete", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    client.cookies.set("hasamigo_session", token)  # the browser kept the old cookie
    assert client.get("/api/accounts/me").status_code == 401


def test_a_sign_out_is_seen_by_the_next_request(client: TestClient) -> None:
    sign_up(client, "taro")
    assert client.get("/api/accounts/me").status_code == 200
    token = client.cookies["hasamigo_session"]
    assert client.post("/api/accounts/logout").status_code == 204
    client.cookies.set("hasamigo_session", token)
    assert client.get("/api/accounts/me").status_code == 401
