"""Helpers of the browser tests: seat tokens live in the page's localStorage (as the app's
``static/js/api.js`` keeps them), and API calls made beside the page send them."""

from __future__ import annotations

from typing import Any

SEAT_KEY = "hasamigo:seat:"
JOIN_KEY = "hasamigo:join:"


def token_of(page: Any, game_id: str) -> str | None:
    """The seat token this page's browser keeps for ``game_id``."""
    token: str | None = page.evaluate("key => localStorage.getItem(key)", SEAT_KEY + game_id)
    return token


def auth(page: Any, game_id: str) -> dict[str, str]:
    token = token_of(page, game_id)
    assert token, f"this browser holds no seat in {game_id}"
    return {"Authorization": f"Bearer {token}"}


def get_state(page: Any, base: str, game_id: str) -> dict[str, Any]:
    response = page.request.get(f"{base}/api/games/{game_id}", headers=auth(page, game_id))
    assert response.ok, response.text()
    state: dict[str, Any] = response.json()
    return state


def keep_seat(page: Any, base: str, game_id: str, token: str,
              join_url: str | None = None) -> None:
    """Put a seat token (and the join link) into this browser's localStorage."""
    if not page.url.startswith(base):
        page.goto(base + "/library")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SEAT_KEY + game_id, token])
    if join_url:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [JOIN_KEY + game_id, join_url])


def create_game(page: Any, base: str, **body: Any) -> dict[str, Any]:
    """A game created through the API; this page's browser keeps its seat."""
    response = page.request.post(f"{base}/api/games", data=body)
    assert response.status == 201, response.text()
    created: dict[str, Any] = response.json()
    keep_seat(page, base, created["id"], created["seat_token"], created.get("join_url"))
    return created


def play(page: Any, base: str, game_id: str, move: str, *, wait: bool = False
         ) -> dict[str, Any]:
    """A move for this browser's seat, through the API (``wait``: the program's reply too)."""
    response = page.request.post(
        f"{base}/api/games/{game_id}/moves{'?wait=true' if wait else ''}",
        data={"move": move}, headers=auth(page, game_id))
    assert response.ok, response.text()
    state: dict[str, Any] = response.json()
    return state


def move_count(page: Any) -> int:
    count: int = page.locator("#moves li").count()
    return count


class MovePosts:
    """The moves the watched pages POSTed, as the server answered them: every status,
    the refusals (status and text), and per game the moves it accepted."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.refusals: list[str] = []
        self.accepted: dict[str, int] = {}

    def watch(self, page: Any) -> None:
        page.on("response", self._seen)

    def _seen(self, response: Any) -> None:
        if response.request.method != "POST" or not response.url.endswith("/moves"):
            return
        self.statuses.append(response.status)
        if response.status >= 400:
            self.refusals.append(f"{response.status} {response.text()[:200]}")
        else:
            game_id = response.url.rsplit("/", 2)[1]
            self.accepted[game_id] = self.accepted.get(game_id, 0) + 1
