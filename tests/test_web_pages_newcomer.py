"""What a newcomer reads on the pages, through TestClient (issue 65, 10-12): one name per
board in both languages, the library's length of a game named (plies), the print sheet
naming its format once and carrying an icon, /favicon.ico served."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_tournament_web import create as create_tournament
from test_web_api import create, make_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "newcomer.db") as c:
        yield c


def cells(page: str, css_class: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(rf'<td class="{css_class}">(.*?)</td>', page, re.S)]


def test_the_library_names_a_board_as_the_new_game_form_does_in_both_languages(
        client: TestClient) -> None:
    _game, both = create(client, opponent="person")
    assert both.move("f5").status_code == 200
    for lang, other_words in (("en", ()), ("ja", ("standard", "Othello"))):
        library = client.get(f"/library?lang={lang}").text
        assert cells(library, "variant") == ["8×8"], lang
        form = client.get(f"/?lang={lang}").text
        assert '<input type="radio" name="variant" value="8x8" checked><span>8×8</span>' in form
        assert not [w for w in other_words if w in " ".join(cells(library, "variant"))]


def test_the_editor_lists_its_boards_in_the_pages_language(client: TestClient) -> None:
    editor = client.get("/editor?lang=ja").text
    names = re.findall(r'<option value="([\w-]+)"[^>]*>([^<]*)</option>',
                       editor.split('id="variant"', 1)[1].split("</select>", 1)[0])
    shown = dict(names)
    assert shown["8x8"] == "8×8" and shown["nip-circle"] == "ニップ（円形）"
    assert shown["eight-stars"] == "エイトスターズ"
    # no English title of the board classes ("Grand Othello 10×10", "Hasegawa's 8×9 board")
    assert not [name for name in shown.values() if re.search(r"[A-Za-z]", name)], shown


def test_the_library_says_its_count_is_of_plies(client: TestClient) -> None:
    _game, both = create(client, opponent="person")
    assert both.move("f5").status_code == 200
    library = client.get("/library").text
    assert "<th title=\"moves and passes\">Plies</th>" in library
    assert "手数" in client.get("/library?lang=ja").text


def test_the_pairing_sheet_names_the_swiss_format_once_and_has_an_icon(
        client: TestClient) -> None:
    d = create_tournament(client, format="swiss")
    for name in ("Ann", "Ben", "Cid", "Dee"):
        d.post("/entrants", {"name": name}, status=201)
    d.post("/rounds", status=201)
    for lang in ("en", "ja"):
        sheet = client.get(f"/tournaments/{d.id}/print/pairings?round=1&lang={lang}").text
        head = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", sheet.split("<header", 1)[1]
                                          .split("</header>", 1)[0]))
        assert head.count("Swiss" if lang == "en" else "スイス") == 1, head
        assert '<link rel="icon" href="/static/favicon.svg"' in sheet


def test_the_favicon_is_served_where_browsers_look_for_it(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"
    assert icon.content[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
