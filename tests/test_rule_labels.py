"""Labels a reader relies on (issue 64, item 6): the 8×8 result said to be a preprint's
where it is stated, the Fairy Othello suffixes counted as the code accepts them, and the
games the sources name without rules listed in one place with the sentence naming each."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import find_variant
from hasamigo.cli import app
from hasamigo.errors import InvalidOptionError
from hasamigo.rules import WORDS
from hasamigo.variants import WORD_TITLES

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
#: number words as the page writes them
NUMBERS = {"six": 6, "seven": 7, "eight": 8, "nine": 9}


def test_solve_board_8x8_says_preprint_in_its_headline() -> None:
    result = CliRunner().invoke(app, ["solve-board", "8x8"])
    assert result.exit_code == 0, result.output
    headline = result.output.splitlines()[0]
    assert headline.startswith("8x8: a draw 32–32")
    assert "preprint" in headline and "not peer reviewed" in headline


def test_solve_board_8x8_json_carries_the_status() -> None:
    result = CliRunner().invoke(app, ["solve-board", "8x8", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["status"] == "a preprint, not peer reviewed"


def _page() -> str:
    return RULES_PAGE.read_text(encoding="utf-8")


def test_the_fairy_othello_suffixes_are_counted_as_the_code_accepts_them() -> None:
    accepted = []
    for word in WORDS:
        try:
            find_variant(f"standard+{word}")
        except InvalidOptionError:
            continue
        accepted.append(word)
    assert sorted(accepted) == sorted(WORD_TITLES)
    section = _page().split("### Fairy Othello", 1)[1].split("\n### ", 1)[0]
    counted = re.search(r"\*\*(\w+) suffixes\*\*", section)
    assert counted is not None, "the page says how many suffixes a board takes"
    assert NUMBERS[counted.group(1)] == len(accepted) == 7
    assert len(WORDS) == 8 and "eight words" in section
    assert "Eight words;" not in section  # the old sentence that read as eight suffixes


#: The sentences of the 2024 encyclopedia (派生ゲーム, 歴史) that name each, references cut.
NAMED_WITHOUT_RULES = {
    "4・7": "また、佐藤周二は、オセロ用具を使用した新ゲーム4・7を考案し、解説書を出版している",
    "Miracle Five": "このほか、長谷川五郎が開発した全く新しい別ゲームであるミラクルファイブ"
                    "(原型はセルゴ、ソクラテス)もオセロの派生ゲームとしてオセロの大会内でプレイ"
                    "されることがある",
    "Annexation's board": "アネクセイションは、十字形の盤面を用いていたが、現在のオセロと同様に"
                          "「挟んだら裏返す」という基本原理に基づくゲームだった",
}


@pytest.mark.parametrize(("name", "sentence"), list(NAMED_WITHOUT_RULES.items()))
def test_what_the_sources_name_without_rules_is_listed_in_one_place(
        name: str, sentence: str) -> None:
    page = _page()
    section = page.split("### Named in the sources, without rules", 1)
    assert len(section) == 2, "the page has the section"
    body = section[1].split("\n#", 1)[0]
    row = next((line for line in body.splitlines() if line.startswith(f"| {name}")), None)
    assert row is not None, f"{name} has a row"
    assert f"「{sentence}」" in row
