"""One order of checks on every route (issue 65, item 3), and one shape of session
(item 8).

Who is asking first: a caller without the right credential (none, a wrong seat token, a
wrong session, a wrong subject's code) gets 401, 403 or 404 in the one error shape, never
422 for a body or a query it was not entitled to send, and never 5xx. The sweep walks the
app's OpenAPI document: every operation that declares a token (seat, session, or the
reader's token of a private game) or takes a subject's code in its path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import error_of, make_client

from hasamigo.web.deps import READER_TOKEN, SEAT_TOKEN, SESSION_TOKEN

#: the bodies sent: none, malformed JSON, JSON of the wrong shape
BODIES: list[tuple[bytes | None, dict[str, str]]] = [
    (None, {}),
    (b"{", {"content-type": "application/json"}),
    (b'{"move": [1, 2], "parent": "x", "ply": -4, "strength": "x", "confirm": 3}',
     {"content-type": "application/json"}),
]
#: a credential that is well formed but nobody's
WRONG = {"Authorization": "Bearer " + "w" * 40}
#: a query value no parameter accepts (too long for a text, not a number, not a choice)
BAD_QUERY = "x" * 300


def credential_routes(document: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """``(method, path, query parameters)`` of every operation that needs a credential."""
    out = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            schemes = {name for entry in operation.get("security", []) for name in entry}
            params = operation.get("parameters", [])
            code = any(p["in"] == "path" and p["name"] == "code" for p in params)
            if schemes & {SEAT_TOKEN, SESSION_TOKEN, READER_TOKEN} or code:
                out.append((method.upper(), path,
                            [p["name"] for p in params if p["in"] == "query"]))
    return out


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "games.db") as c:
        yield c


def refusal(response: Any, where: tuple[object, ...]) -> dict[str, Any]:
    assert response.status_code in (401, 403, 404), (*where, response.status_code,
                                                     response.text)
    error = error_of(response)
    assert set(error) == {"code", "message", "reason"} and error["message"], where
    return error


def sweep(client: TestClient, values: dict[str, str],
          credentials: list[dict[str, str]]) -> int:
    routes = credential_routes(client.app.openapi())  # type: ignore[attr-defined]
    for method, template, queries in routes:
        path = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], template)
        params = [{}] + [{name: BAD_QUERY} for name in queries]
        for body, headers in BODIES:
            for query in params:
                for auth in credentials:
                    response = client.request(method, path, content=body, params=query,
                                              headers={**headers, **auth})
                    refusal(response, (method, path, body, query, auth))
    return len(routes)


def setting(client: TestClient) -> dict[str, str]:
    """A private game, a tournament and a study that exist; a subject's code that does
    not; the other path parameters well formed."""
    game = client.post("/api/games", json={"opponent": "person"}).json()
    tournament = client.post("/api/tournaments", json={
        "name": "Open", "format": "swiss", "rounds": 3, "password": "director-pw",
        "director": "Mori"}).json()["tournament"]["id"]
    study = client.post("/api/studies", json={"name": "Pilot", "password": "research-pw"}
                        ).json()["study"]["id"]
    return {"game_id": game["id"], "tournament_id": tournament, "study_id": study,
            "code": "NOSUCH9", "number": "1", "board": "1", "node": "1", "table": "games"}


def test_every_credential_route_refuses_a_stranger_before_reading_body_or_query(
        client: TestClient) -> None:
    values = setting(client)
    routes = credential_routes(client.app.openapi())  # type: ignore[attr-defined]
    paths = {(m, p) for m, p, _q in routes}
    # the four groups that answered 422 first, and the areas that did not
    assert ("POST", "/api/games/{game_id}/variations") in paths
    assert ("DELETE", "/api/games/{game_id}/variations/{node}") in paths
    assert ("GET", "/api/games/{game_id}/notes") in paths
    assert ("POST", "/api/studies/{study_id}/subjects/{code}/before") in paths
    assert ("POST", "/api/tournaments/{tournament_id}/rounds") in paths
    assert sweep(client, values, [{}, WRONG]) >= 40


def test_a_game_that_does_not_exist_is_404_before_the_body(client: TestClient) -> None:
    for method, path in (("POST", "/api/games/nosuch/variations"),
                         ("GET", "/api/games/nosuch/notes?ply=-1"),
                         ("POST", "/api/games/nosuch/moves")):
        response = client.request(method, path, content=b"{", headers={
            "content-type": "application/json", **WRONG})
        assert refusal(response, (path,))["code"] == "not_found"


def test_the_four_groups_say_which_refusal(client: TestClient) -> None:
    values = setting(client)
    game = values["game_id"]
    bad = {"content": b'{"move": 5}', "headers": {"content-type": "application/json"}}
    stranger = client.post(f"/api/games/{game}/variations", **bad)  # type: ignore[arg-type]
    assert error_of(stranger)["code"] == "unauthorized" and stranger.status_code == 401
    wrong = client.delete(f"/api/games/{game}/variations/0", headers=WRONG)
    assert wrong.status_code == 403 and error_of(wrong)["code"] == "forbidden"
    notes = client.get(f"/api/games/{game}/notes", params={"ply": "many"})
    assert notes.status_code == 401
    subject = client.post(f"/api/studies/{values['study_id']}/subjects/NOSUCH9/before",
                          **bad)  # type: ignore[arg-type]
    assert subject.status_code == 404 and error_of(subject)["code"] == "not_found"
    malformed = client.post(f"/api/studies/{values['study_id']}/subjects/no-such!/felt",
                            **bad)  # type: ignore[arg-type]
    assert malformed.status_code == 404


def test_with_the_credential_a_bad_body_or_query_is_then_422(client: TestClient) -> None:
    """The order changes nothing for the entitled caller: the body is still validated."""
    game = client.post("/api/games", json={"opponent": "person"}).json()
    seat = {"Authorization": f"Bearer {game['seat_token']}"}
    base = f"/api/games/{game['id']}"
    for response in (client.post(f"{base}/variations", json={"move": 5}, headers=seat),
                     client.delete(f"{base}/variations/0", headers=seat),
                     client.get(f"{base}/notes", params={"ply": "many"}, headers=seat)):
        assert response.status_code == 422, response.text
        assert error_of(response)["code"] == "invalid_request"
    assert client.get(f"{base}/notes", params={"ply": 0}, headers=seat).status_code == 200
    subject = client.post("/api/studies", json={"name": "Pilot", "password": "research-pw"}
                          ).json()["study"]["id"]
    code = client.post(f"/api/studies/{subject}/subjects", json={}).json()["code"]
    before = client.post(f"/api/studies/{subject}/subjects/{code}/before",
                         json={"strength": "x"})
    assert before.status_code == 422


def test_a_public_game_is_read_without_a_token_and_its_body_then_validated(
        client: TestClient) -> None:
    game = client.post("/api/games", json={"opponent": "person", "public": True}).json()
    response = client.post(f"/api/games/{game['id']}/variations", json={"move": 5})
    assert response.status_code == 422


# ---- the sessions' one shape (issue 65, item 8) --------------------------------------------
SESSION_KEYS = {"token", "who", "expires_at"}


def test_the_director_and_the_researcher_get_one_shape_of_session(
        client: TestClient) -> None:
    made = client.post("/api/tournaments", json={
        "name": "Open", "format": "swiss", "rounds": 3, "password": "director-pw",
        "director": "Mori"}).json()
    study = client.post("/api/studies", json={"name": "Pilot", "password": "research-pw"}
                        ).json()
    logins = [client.post(f"/api/tournaments/{made['tournament']['id']}/login",
                          json={"password": "director-pw", "director": "Sato"}).json(),
              client.post(f"/api/studies/{study['study']['id']}/login",
                          json={"password": "research-pw"}).json()]
    sessions = [made["session"], study["session"], *logins]
    for session in sessions:
        assert set(session) == SESSION_KEYS, session
        ends = datetime.fromisoformat(session["expires_at"])
        assert ends.utcoffset() == timedelta(0)  # an ISO 8601 time in UTC, not a number
    assert [s["who"] for s in sessions] == ["Mori", "researcher", "Sato", "researcher"]
    # the tokens they carry work as bearer tokens
    auth = {"Authorization": f"Bearer {logins[1]['token']}"}
    assert client.get(f"/api/studies/{study['study']['id']}/progress",
                      headers=auth).status_code == 200


def test_the_api_page_says_bearer_token_and_the_shape() -> None:
    text = (Path(__file__).parents[1] / "docs" / "web-api.md").read_text(encoding="utf-8")
    assert "session cookie" not in text and "bearer token" in text
    assert all(f'"{key}"' in text for key in SESSION_KEYS)
