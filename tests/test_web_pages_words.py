"""The words of the pages, through TestClient: a game on one screen is nobody's loss in
the library, the library's filter reads in one case style, the home page leads to the
studies."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_web_api import create, make_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "words.db") as c:
        yield c


def row_of(page: str, game_id: str) -> str:
    found = re.search(rf'<tr data-game-id="{game_id}".*?</tr>', page, re.S)
    assert found, f"{game_id} is not listed"
    return found.group(0)


def test_a_game_on_one_screen_is_listed_with_its_winner_not_as_lost(client: TestClient
                                                                     ) -> None:
    _game, both = create(client, opponent="person")  # both seats in this browser
    assert both.move("f5").status_code == 200
    assert both.post("/resign", {"colour": "black"}).status_code == 200  # White wins
    row = row_of(client.get("/library").text, both.id)
    assert "White won" in row and "0–64" in row
    assert "Lost" not in row and "Won" not in row and 'class="tag lost"' not in row
    japanese = row_of(client.get("/library?lang=ja").text, both.id)
    assert "白の勝ち" in japanese and "負け" not in japanese
    # the result filter agrees: neither side's win or loss is this browser's
    assert both.id not in client.get("/library?result=lost").text
    assert both.id not in client.get("/library?result=won").text


def test_a_game_against_a_program_is_still_won_or_lost(client: TestClient) -> None:
    _game, me = create(client, colour="black")
    assert me.move("f5").status_code == 200 and me.post("/resign").status_code == 200
    row = row_of(client.get("/library").text, me.id)
    assert 'class="tag lost">Lost<' in row and "White won" not in row


def test_the_library_filter_reads_in_one_case_style(client: TestClient) -> None:
    page = client.get("/library").text
    form = re.search(r'<form class="card filters".*?</form>', page, re.S)
    assert form
    labels = re.findall(r"<(?:option|span)[^>]*>([^<]+)</(?:option|span)>", form.group(0))
    words = [label.strip() for label in labels if label.strip()]
    assert "In progress" in words
    assert all(w[0].isupper() for w in words if w[0].isalpha()), words


def test_the_home_page_links_the_studies(client: TestClient) -> None:
    for lang in ("en", "ja"):
        page = client.get(f"/?lang={lang}").text
        assert 'href="/studies"' in page


def test_counts_of_one_are_singular_in_the_study_report_and_the_tournament(
        client: TestClient) -> None:
    made = client.post("/api/studies", json={"name": "Pilot", "password": "research-pw"})
    study, token = made.json()["study"]["id"], made.json()["session"]["token"]
    assert client.post(f"/api/studies/{study}/subjects", json={}).status_code == 201
    auth = {"Authorization": f"Bearer {token}"}
    report = client.get(f"/api/studies/{study}/report", headers=auth).text
    assert "1 subject, 0 games, 0 answers during the games." in report
    assert "1 subjects" not in report
    japanese = client.get(f"/api/studies/{study}/report?lang=ja", headers=auth).text
    assert "被験者 1 人、対局 0 局" in japanese
    made = client.post("/api/tournaments", json={
        "name": "Open", "format": "swiss", "rounds": 3, "password": "director-pw-1",
        "director": "Mori"})
    tournament, session = made.json()["tournament"]["id"], made.json()["session"]["token"]
    entered = client.post(f"/api/tournaments/{tournament}/entrants", json={"name": "Aoki"},
                          headers={"Authorization": f"Bearer {session}"})
    assert entered.status_code == 201, entered.text
    page = client.get(f"/tournaments/{tournament}").text
    assert ">1 entrant<" in page and "1 entrants" not in page
    assert "参加者 1人" in client.get(f"/tournaments/{tournament}?lang=ja").text
