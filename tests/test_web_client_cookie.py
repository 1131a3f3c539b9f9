"""The app's own middleware (:class:`hasamigo.web.app.ClientCookie`): every browser's
anonymous id cookie and a page's signed-in viewer, as plain ASGI middleware (issue 67's
load: Starlette's ``BaseHTTPMiddleware`` costs every request a task and memory streams)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.middleware.base import BaseHTTPMiddleware
from test_web_accounts import sign_up
from test_web_api import make_client

from hasamigo.web.deps import CLIENT_COOKIE


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "cookie.db") as c:
        yield c


def _client_cookies(response_headers: list[str]) -> list[str]:
    return [h for h in response_headers if h.startswith(f"{CLIENT_COOKIE}=")]


def test_no_middleware_of_the_slow_kind(client: TestClient) -> None:
    kinds = [m.cls for m in client.app.user_middleware]  # type: ignore[attr-defined]
    assert BaseHTTPMiddleware not in kinds


def test_a_new_browser_gets_its_id_once_and_keeps_it(client: TestClient) -> None:
    first = client.get("/api/games?limit=1")
    assert first.status_code == 200
    [cookie] = _client_cookies(first.headers.get_list("set-cookie"))
    value = cookie.split(";")[0].split("=", 1)[1]
    assert len(value) == 32 and value.isalnum()
    attributes = cookie.lower()
    assert "httponly" in attributes and "samesite=lax" in attributes
    assert f"max-age={400 * 24 * 3600}" in attributes
    again = client.get("/api/games?limit=1")
    assert _client_cookies(again.headers.get_list("set-cookie")) == []
    assert client.cookies[CLIENT_COOKIE] == value
    # an error's answer (404 in the one JSON shape) gives a new browser its id too
    client.cookies.clear()
    missing = client.get("/api/games/nosuchgame")
    assert missing.status_code == 404 and "error" in missing.json()
    assert len(_client_cookies(missing.headers.get_list("set-cookie"))) == 1


def test_a_spoilt_id_is_replaced(client: TestClient) -> None:
    client.cookies.set(CLIENT_COOKIE, "not-an-id!")
    r = client.get("/api/games?limit=1")
    [cookie] = _client_cookies(r.headers.get_list("set-cookie"))
    assert "not-an-id" not in cookie


def test_a_sign_up_answer_carries_both_cookies(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"name": "hanako", "password": "correct horse 67"})
    assert r.status_code in (200, 201), r.text
    names = {h.split("=", 1)[0] for h in r.headers.get_list("set-cookie")}
    assert {CLIENT_COOKIE, "hasamigo_session"} <= names


def test_a_page_knows_who_is_signed_in(client: TestClient) -> None:
    sign_up(client, "taro")
    page = client.get("/")
    assert page.status_code == 200
    assert "taro" in page.text
    client.cookies.delete("hasamigo_session")
    assert "taro" not in client.get("/").text
