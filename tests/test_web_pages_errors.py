"""Refusals as pages or as JSON (``hasamigo.web.errors.wants_html``): a person who opens
an unknown page gets the site's own page (the layout, the heading in their language, a
link home) with the same status; a script under ``/api`` keeps the JSON error."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from httpx2 import Response
from test_web_api import error_of, make_client

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module (its pages are only read); every test starts without
    cookies."""
    with make_client(tmp_path_factory.mktemp("errors") / "errors.db") as c:
        yield c


@pytest.fixture(autouse=True)
def no_cookies(client: TestClient) -> None:
    client.cookies.clear()


def heading(response: Response) -> str:
    text = response.text
    found = re.search(r'<h1 id="error-heading">(.*?)</h1>', text, re.S)
    assert found, text[:300]
    return found.group(1).strip()


def is_page(response: Response, status: int) -> bool:
    """The site's error page: the status, HTML, the site's header and CSS, a link home."""
    text = response.text
    assert response.status_code == status, text[:300]
    assert response.headers["content-type"].startswith("text/html")
    assert '<header class="topbar">' in text and "/static/css/app.css" in text
    assert 'id="error-home" href="/"' in text or 'href="/" id="error-home"' in text
    return True


@pytest.mark.parametrize("path", ["/foo", "/games/nope/elsewhere", "/studies/nope/s"])
def test_an_unknown_path_a_browser_opens_is_the_sites_404_page(client: TestClient,
                                                                path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert is_page(response, 404)
    assert heading(response) == "Page not found"
    assert f"<code>{path}</code>" in response.text


@pytest.mark.parametrize("accept", [None, "application/json", "*/*"])
def test_an_unknown_path_asked_by_a_script_stays_json(client: TestClient,
                                                      accept: str | None) -> None:
    headers = {} if accept is None else {"Accept": accept}
    response = client.get("/foo", headers=headers)
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


@pytest.mark.parametrize("path", ["/api/nowhere", "/api/games/nope", "/api/studies/nope",
                                  "/api/tournaments/nope", "/api", "/static/nope.js"])
def test_the_api_answers_json_even_to_a_browser(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/json")
    assert error_of(response)["code"] == "not_found"


def test_a_bad_api_parameter_stays_json(client: TestClient) -> None:
    response = client.get("/api/games?result=maybe", headers=BROWSER)
    assert response.status_code == 422 and error_of(response)["code"] == "invalid_request"


@pytest.mark.parametrize("path, title", [
    ("/games/nope", "Game not found"),
    ("/games/nope/replay", "Game not found"),
    ("/games/nope/join", "Game not found"),
    ("/record/nope", "Game not found"),
    ("/record/nope/clock", "Game not found"),
    ("/studies/nope", "Page not found"),
    ("/studies/nope/research", "Page not found"),
    ("/studies/nope/s/ABC", "Page not found"),
    ("/tournaments/nope", "No such tournament"),
    ("/tournaments/nope/standings", "No such tournament"),
])
def test_a_page_of_something_unknown_is_a_404_page_whatever_is_accepted(
        client: TestClient, path: str, title: str) -> None:
    for headers in (BROWSER, {}):  # a page's route answers with a page
        response = client.get(path, headers=headers)
        assert is_page(response, 404)
        assert heading(response) == title


def test_the_404_page_speaks_the_persons_language(client: TestClient) -> None:
    japanese = client.get("/foo", headers={**BROWSER, "Accept-Language": "ja,en;q=0.5"})
    assert is_page(japanese, 404) and heading(japanese) == "ページが見つかりません"
    assert '<html lang="ja">' in japanese.text and "ホームへ" in japanese.text
    client.cookies.set("lang", "ja")
    game = client.get("/games/nope")
    assert heading(game) == "対局が見つかりません" and "対局 nope はありません" in game.text
    assert heading(client.get("/foo?lang=en", headers=BROWSER)) == "Page not found"
    client.cookies.clear()
    assert heading(client.get("/foo", headers=BROWSER)) == "Page not found"


@pytest.mark.parametrize("path", ["/puzzles?n=0", "/tournaments/nope?round=0",
                                  "/library?result=maybe", "/record/sheet/blank?handicap=9",
                                  "/studies/bad%20id"])
def test_a_bad_page_parameter_is_a_page_too(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert is_page(response, 422)
    assert heading(response) == "This page cannot be shown"
    # what was wrong, in the API's words, without echoing the value back
    detail = re.search(r'id="error-detail">(.*?)</p>', response.text, re.S)
    assert detail and "maybe" not in detail.group(1)


def test_a_wrong_method_on_a_page_is_a_page(client: TestClient) -> None:
    response = client.post("/library", headers=BROWSER)
    assert is_page(response, 405)


def test_a_game_page_that_exists_is_not_an_error(client: TestClient) -> None:
    made = client.post("/api/games", json={"opponent": "random"}).json()
    response = client.get(f"/games/{made['id']}")
    assert response.status_code == 200 and 'id="error-page"' not in response.text
