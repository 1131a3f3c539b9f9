"""The two-language text's one catalog (hasamigo.text, read by hasamigo.web.i18n and the
study's report): every message in use is in it, every message in it is in use and has its
Japanese, not fuzzy, with the English's placeholders; the page scripts read only keys that
:data:`~hasamigo.web.keyed_text.KEYED` has."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from hasamigo import text
from hasamigo.web import i18n
from hasamigo.web.keyed_text import KEYED, keyed_text

ROOT = Path(__file__).resolve().parents[1]
WEB = Path(i18n.__file__).parent
#: where the messages are written: the web pages and the study's report
SOURCES = (WEB, ROOT / "src" / "hasamigo" / "study", ROOT / "src" / "hasamigo" / "ratings",
           ROOT / "src" / "hasamigo" / "tournament")
PO = text.catalog_path("ja")
PLACEHOLDER = re.compile(r"\{(\w*)\}")

MessageId = tuple[str | None, str]  # (context, English; a plural's singular)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    with PO.open("rb") as po:
        return read_po(po, locale="ja", domain=i18n.DOMAIN)


@pytest.fixture(scope="module")
def used() -> dict[MessageId, list[str]]:
    """What ``pybabel extract -F babel.cfg`` (:data:`hasamigo.text.KEYWORDS`) finds in
    :data:`SOURCES`: message -> where."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[MessageId, list[str]] = {}
    for source in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
                source, method_map, options_map, keywords=text.KEYWORDS,
                strip_comment_tags=True):
            singular = message if isinstance(message, str) else message[0]
            found.setdefault((context, singular), []).append(f"{source.name}/{filename}:{lineno}")
    return found


def _first(text: object) -> str:
    """A message's text: a plural's singular (its id) or only form (Japanese has one)."""
    return str(text[0] if isinstance(text, (tuple, list)) else text)


def entries(catalog: Catalog) -> dict[MessageId, str]:
    return {(m.context, _first(m.id)): _first(m.string) for m in catalog if m.id}


def test_every_message_in_use_is_in_the_catalog(catalog: Catalog,
                                                used: dict[MessageId, list[str]]) -> None:
    missing = {m: where for m, where in used.items() if m not in entries(catalog)}
    assert not missing, missing
    assert len(used) > 600  # the extraction did find the templates and the code


def test_every_message_in_the_catalog_is_in_use(catalog: Catalog,
                                                used: dict[MessageId, list[str]]) -> None:
    unused = sorted(set(entries(catalog)) - set(used), key=str)
    assert not unused, "\n".join(map(str, unused))
    assert not catalog.obsolete


def test_every_message_has_its_japanese_not_fuzzy(catalog: Catalog) -> None:
    assert not catalog.fuzzy
    for message in catalog:
        if not message.id:
            continue
        assert message.string and _first(message.string).strip(), message.id
        assert not message.fuzzy, message.id


def test_placeholders_are_the_same_in_both_languages(catalog: Catalog) -> None:
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in map(str, ids):
            for japanese in map(str, strings):
                assert sorted(PLACEHOLDER.findall(english)) == \
                    sorted(PLACEHOLDER.findall(japanese)), message.id
                assert "%" not in english and "%" not in japanese, message.id  # {name} only
        assert ("python-brace-format" in message.flags) == bool(PLACEHOLDER.search(ids[0]))


def test_the_catalog_translates_with_and_without_context() -> None:
    ja = i18n.translations("ja")
    assert ja.gettext("New game") == "新しい対局"
    assert ja.pgettext("after a game", "New game") == "もう一局"
    assert ja.pgettext("legal moves", "Moves") == "合法手" and ja.gettext("Moves") == "棋譜"
    en = i18n.translations("en")
    assert en.gettext("New game") == "New game"
    assert en.pgettext("legal moves", "Moves") == "Moves"
    assert i18n.translate("ja", i18n.NP_("stage", "Swiss")) == "予選（スイス式）"


def test_keyed_texts_are_in_both_languages() -> None:
    english, japanese = keyed_text("en"), keyed_text("ja")
    assert set(english) == set(japanese) == set(KEYED)
    assert english["your_turn"] == "Your turn" and japanese["your_turn"] == "あなたの番です"
    assert japanese["term.timeout"] == "時間切れ（勝者33石）"


def test_the_page_scripts_read_only_keyed_texts() -> None:
    """``T["key"]``, ``T.key``, a dotted key passed on (``forCount(T, "var.count", n)``)
    and a family read as ``T[`term.${...}`]`` are all in :data:`KEYED`."""
    areas = {key.split(".")[0] for key in KEYED}
    read: set[str] = set()
    families: set[str] = set()
    for script in (WEB / "static" / "js").glob("*.js"):
        text = script.read_text()
        read |= set(re.findall(r"\b[Tt]\[\s*[\"']([\w.\-]+)[\"']\s*\]", text))
        read |= set(re.findall(r"\bT\.(\w+)", text))
        read |= {key for key in re.findall(r"[\"']([a-z][a-z_]*(?:\.[\w\-]+)+)[\"']", text)
                 if key.split(".")[0] in areas}
        families |= set(re.findall(r"\b[Tt]\[`([\w.\-]+\.)\$\{", text))
    assert len(read) > 150 and families
    assert read <= set(KEYED), sorted(read - set(KEYED))
    for family in families:
        assert any(key.startswith(family) for key in KEYED), family


def test_a_count_reads_in_the_plural_in_english_and_as_one_form_in_japanese() -> None:
    """ngettext for every text that follows a count: "1 mistake", "5 mistakes", 悪手 5."""
    mistakes = KEYED["review.count.mistake"]
    assert i18n.translate("en", mistakes, 1) == "{n} mistake"
    assert i18n.translate("en", mistakes, 5) == "{n} mistakes"
    assert i18n.translate("ja", mistakes, 5) == i18n.translate("ja", mistakes, 1) == "悪手 {n}"
    assert keyed_text("en")["review.count.blunder"] == {"one": "{n} blunder",
                                                        "other": "{n} blunders"}
    assert keyed_text("ja")["var.stale"]["other"].startswith("{n}手")
    # no key spells its singular by hand any more: ngettext does
    assert not [key for key in KEYED if key.endswith(".one")
                and key not in ("choose.one", "board.option.one")]


def test_the_gettext_module_does_not_import_the_keyed_texts() -> None:
    """hasamigo.web.i18n is the mechanism, keyed_text a table on top of it: no circle."""
    tree = ast.parse(Path(i18n.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {name for name in imported if name and "keyed_text" in name}, imported


def test_a_board_has_one_name_in_each_language() -> None:
    """The library's ``standard``, the form's ``8x8`` and the editor's list name one board
    one way, translated (issue 65.11)."""
    from hasamigo.web.keyed_text import board_name

    assert board_name("en", "standard") == board_name("en", "8x8") == "8×8"
    assert board_name("ja", "nip-circle") == "ニップ（円形）"
    assert board_name("en", "hasegawa-8x9+one") == "8×9, one disc turned"
    assert board_name("ja", "hasegawa-8x9+one") == "8×9、返すのは1枚"
    assert board_name("en", "no-such-board") == "no-such-board"


def test_the_pages_take_their_words_from_the_catalog_not_from_inline_pairs() -> None:
    """No template or page script picks words or punctuation by language itself (``"" if
    lang == "ja" else " "``): word order, spacing and colons are the catalog's. What
    another package sends in both languages (a note's ``text_ja``) is only chosen."""
    inline = re.compile(r"""lang\s*===?\s*["']ja["']|\bja\s*\?""")
    found = []
    for path in [*(WEB / "templates").glob("*.html"), *(WEB / "static" / "js").glob("*.js"),
                 WEB / "keyed_text.py", WEB / "i18n.py"]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            chooser = line.strip().startswith("const ja = ")  # for the *_ja texts below
            if inline.search(line) and not chooser and "_ja" not in line \
                    and 'lang === "ja" ? "ja" : "en"' not in line:
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
