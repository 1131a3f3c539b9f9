"""The colour has one home: ``Color.parse`` reads a name, ``Color.value`` writes it.

A grep over the package fails on a colour converted by hand anywhere but ``move.py``
(``"black" if x is BLACK else "white"``, ``x == "white"``), so a new one cannot creep in.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hasamigo
from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.move import BLACK, COLOUR_NAMES, WHITE, Color

PACKAGE = Path(hasamigo.__file__).parent
HOME = PACKAGE / "move.py"

#: ``"black" if …``, ``… == "white"``, ``"black" != …``: a colour named or compared by hand
HAND_CONVERSION = re.compile(
    r"""["'](?:black|white)["']\s+if\b"""
    r"""|(?:==|!=)\s*["'](?:black|white)["']"""
    r"""|["'](?:black|white)["']\s*(?:==|!=)"""
)


def _hand_conversions(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if path == HOME or "_kernels" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_CONVERSION.search(line):
                found.append(f"{path.relative_to(root.parent)}:{number}: {line.strip()}")
    return found


def test_no_hand_conversions_of_colours_outside_move_py() -> None:
    found = _hand_conversions(PACKAGE)
    assert not found, ("use Color.parse / .value instead of converting a colour by hand:\n"
                       + "\n".join(found))


@pytest.mark.parametrize("line", [
    'side = "black" if board.turn is BLACK else "white"',
    "colour = 'white' if turn is BLACK else 'black'",
    'BLACK if data["colour"] == "black" else WHITE',
    'if "white" != name:',
])
def test_the_grep_sees_a_hand_conversion(line: str, tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "bad.py").write_text(line + "\n", encoding="utf-8")
    assert _hand_conversions(package) == [f"pkg/bad.py:1: {line}"]


@pytest.mark.parametrize("line", [
    "side = board.turn.value",
    'colour = Color.parse(data["colour"])',
    'names = {"black": 0, "white": 1}',
])
def test_the_grep_lets_the_single_home_through(line: str, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(line + "\n", encoding="utf-8")
    assert _hand_conversions(tmp_path) == []


# ---- Color.parse ---------------------------------------------------------------------
@pytest.mark.parametrize("colour", [BLACK, WHITE])
def test_strict_reads_back_value(colour: Color) -> None:
    assert Color.parse(colour.value) is colour
    assert Color.parse(str(colour)) is colour


@pytest.mark.parametrize("text", ["Black", "WHITE", " black", "black ", "b", "w", "x", "o",
                                  "黒", "白", "", "blue"])
def test_strict_refuses_all_but_the_exact_names(text: str) -> None:
    with pytest.raises(InvalidOptionError, match="a colour is 'black' or 'white', not ") as err:
        Color.parse(text)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize(("text", "colour"), [
    ("black", BLACK), ("Black", BLACK), (" BLACK\n", BLACK), ("b", BLACK), ("B", BLACK),
    ("x", BLACK), ("X", BLACK), ("黒", BLACK),
    ("white", WHITE), ("White", WHITE), ("w", WHITE), ("W", WHITE), ("o", WHITE),
    ("O", WHITE), ("白", WHITE),
])
def test_lenient_reads_what_people_and_programs_type(text: str, colour: Color) -> None:
    assert Color.parse(text, lenient=True) is colour


@pytest.mark.parametrize("text", ["", "blue", "bl", "blackwhite", "0", "none", "黒白"])
def test_lenient_refuses_the_rest_naming_the_text(text: str) -> None:
    with pytest.raises(InvalidOptionError) as err:
        Color.parse(text, lenient=True)
    assert repr(text) in str(err.value)
    assert "black" in str(err.value) and "white" in str(err.value)


@pytest.mark.parametrize("value", [None, 0, 1, ["black"], b"black"])
def test_not_a_string_is_refused_by_a_project_error(value: object) -> None:
    with pytest.raises(HasamigoError):
        Color.parse(value)  # type: ignore[arg-type]


def test_a_long_text_is_cut_in_the_message() -> None:
    with pytest.raises(InvalidOptionError) as err:
        Color.parse("x" * 10_000, lenient=True)
    assert len(str(err.value)) < 200


def test_parse_optional_reads_none_as_none() -> None:
    assert Color.parse_optional(None) is None
    assert Color.parse_optional(None, lenient=True) is None
    assert Color.parse_optional("white") is WHITE
    assert Color.parse_optional("w", lenient=True) is WHITE
    with pytest.raises(InvalidOptionError):
        Color.parse_optional("w")


def test_lenient_names_are_folded_and_cover_both_colours() -> None:
    assert all(name == name.strip().casefold() for name in COLOUR_NAMES)
    assert set(COLOUR_NAMES.values()) == {BLACK, WHITE}
    for colour in (BLACK, WHITE):
        assert COLOUR_NAMES[colour.value] is colour
