"""A variant's rules have one home (:class:`hasamigo.rules.Rules`, held by the board as
``rules``) and one capability query (``rules.kernel``, ``rules.supports(...)``): no module
outside the board, the variants and the rules reads the flags (``flip_rule``, ``stride``,
``rings``, ``place_when_blocked``, ``word``, ``capture``) to decide what a board allows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hasamigo.board import Board
from hasamigo.rules import FEATURES, PLAIN, Kernel, Rules
from hasamigo.variants import VARIANTS, find_variant, with_options

SRC = Path(__file__).resolve().parent.parent / "src" / "hasamigo"
#: the modules that own the rules: the rules themselves, the board that delegates to them
#: and the variants that declare them
OWNERS = {"rules.py", "board.py", "variants.py"}
FLAGS = {"flip_rule", "stride", "rings", "place_when_blocked", "word", "capture"}
#: reads of a flag's name that are not a board's flag, and why
NOT_A_BOARD = {
    ("web/services/games/new_game.py", "req.flip_rule"): "the new-game form's field",
}


def flag_reads() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        where = path.relative_to(SRC).as_posix()
        if where in OWNERS or where.startswith("_kernels/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in FLAGS
                    and (where, ast.unparse(node)) not in NOT_A_BOARD):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_the_rules_flags() -> None:
    found = flag_reads()
    assert not found, ("ask board.rules.kernel / board.rules.supports(...) instead of "
                       "reading the flags:\n" + "\n".join(found))


def test_the_allowed_reads_are_still_there() -> None:
    """An exemption that no longer matches anything is dropped, not kept."""
    for where, expression in NOT_A_BOARD:
        assert expression in (SRC / where).read_text(encoding="utf-8"), (where, expression)


_8X8 = {"bitboard", "engine", "stability", "square_notation", "adjacent_growth"}
_WIDE = {"engine", "square_notation", "adjacent_growth"}
#: every registered variant and a few with options: the kernels that serve it and the
#: features it supports
EXPECTED: dict[str, tuple[Kernel, set[str]]] = {
    "standard": (Kernel.BITBOARD, _8X8),
    "parallel": (Kernel.BITBOARD, _8X8),
    "original": (Kernel.BITBOARD, _8X8),
    "reversi-32": (Kernel.BITBOARD, _8X8),
    "6x6": (Kernel.BITBOARD, _8X8),
    "4x4": (Kernel.BITBOARD, _8X8),
    "octagon": (Kernel.BITBOARD, _8X8),
    "grand": (Kernel.WIDE, _WIDE),
    "eight-stars": (Kernel.WIDE, _WIDE),
    "hasegawa-8x9": (Kernel.WIDE, _WIDE),
    "hasegawa-9x10": (Kernel.WIDE, _WIDE),
    "nip-octagon": (Kernel.RULES, {"bitboard", "stability", "square_notation",
                                   "place_anywhere"}),
    "nip-circle": (Kernel.RULES, {"bitboard", "square_notation", "place_anywhere",
                                  "ring_flips"}),
    "standard+one": (Kernel.RULES, {"bitboard", "stability", "choose_turned", "one_turned",
                                    "adjacent_growth"}),
    "standard+nip": (Kernel.RULES, {"bitboard", "stability", "square_notation",
                                    "place_anywhere"}),
    "grand+choose": (Kernel.RULES, {"choose_turned", "adjacent_growth"}),
    "hasegawa-8x9+nip+one": (Kernel.RULES, {"choose_turned", "one_turned",
                                            "place_anywhere"}),
    "nip-circle+choose": (Kernel.RULES, {"bitboard", "choose_turned", "place_anywhere",
                                         "ring_flips"}),
    # Fairy Othello's words bracket otherwise: no stable discs, no records' notation
    "standard+osere": (Kernel.RULES, {"bitboard", "fairy_word", "adjacent_growth"}),
    "grand+esore": (Kernel.RULES, {"fairy_word", "adjacent_growth"}),
    "standard+one+osoro": (Kernel.RULES, {"bitboard", "choose_turned", "one_turned",
                                          "fairy_word", "adjacent_growth"}),
    # 挟み碁's capture places anywhere and takes stones: no growth from one group either
    "standard+capture": (Kernel.RULES, {"bitboard", "capture"}),
    "hasegawa-8x9+capture": (Kernel.RULES, {"capture"}),
}


def test_every_registered_variant_is_in_the_table() -> None:
    assert {v.name for v in VARIANTS} <= set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_capability_query(name: str) -> None:
    variant = find_variant(name)
    kernel, features = EXPECTED[name]
    assert variant.name == name
    assert variant.rules.kernel is kernel
    assert {f for f in FEATURES if variant.rules.supports(f)} == features
    board = variant()
    assert board.rules is variant.rules  # the board and its class ask the same value
    # the kernels search a board exactly when no rule is beyond them
    assert (kernel is Kernel.RULES) == bool(variant.rules_beyond_kernels())
    assert variant.rules.supports("engine") == (kernel is not Kernel.RULES)
    # the warm-up groups follow the grid
    wide = not variant.rules.supports("bitboard")
    assert variant.rules.move_kernels == ("wide-rules" if wide else "rules")
    assert variant.rules.search_kernels == ("wide" if wide else "engine")
    # the stable discs are computed where the query says so
    assert (board.stable_discs(board.turn) is not None) == variant.rules.supports("stability")


def test_an_unknown_feature_is_an_error_not_a_no() -> None:
    with pytest.raises(ValueError, match="unknown feature"):
        PLAIN.supports("bitbord")


def test_a_variant_with_options_is_its_base_composed_with_rules() -> None:
    base = find_variant("hasegawa-8x9")
    made = find_variant("8x9+nip+one")
    assert made is with_options(base, nip=True, flip_rule="one")
    assert issubclass(made, base) and made.__module__ == "hasamigo.variants"
    assert made.rules == Rules(stride=10, flip_rule="one", place_when_blocked=True)
    assert made.rules == base.rules.with_options(nip=True, flip_rule="one")
    assert (made.rows, made.cols, made.cut, made.playable()) == (
        base.rows, base.cols, base.cut, base.playable())
    assert with_options(base) is base
    assert with_options(find_variant("nip"), nip=True) is find_variant("nip")


def test_the_old_flags_read_the_rules_and_cannot_be_set() -> None:
    variant = find_variant("grand+choose")
    assert (variant.stride, variant.flip_rule, variant.place_when_blocked, variant.rings) == (
        10, "choose", False, ())
    board = variant()
    assert board.flip_rule == "choose"
    with pytest.raises(AttributeError, match="rule of the variant"):
        board.flip_rule = "all"


def test_a_subclass_declaring_flags_the_old_way_gets_them_as_rules() -> None:
    class Wide6(Board):
        name = "test-wide-6"
        rows = cols = 6
        stride = 10
        flip_rule = "one"

    assert Wide6.rules == Rules(stride=10, flip_rule="one")
    assert "stride" not in Wide6.__dict__ and Wide6.stride == 10
    assert Wide6.rules.kernel is Kernel.RULES and Wide6().legal_moves_mask()


def test_rules_are_checked() -> None:
    with pytest.raises(ValueError):
        Rules(stride=9)
    with pytest.raises(ValueError):
        Rules(flip_rule="some")
    with pytest.raises(ValueError, match="word"):
        Rules(word="otello")
    with pytest.raises(ValueError, match="capture"):
        Rules(capture=True, flip_rule="one")
    with pytest.raises(ValueError, match="ring"):
        Rules(word="osere", rings=((0, 1, 2),))


def test_the_rules_page_names_every_feature() -> None:
    page = (SRC.parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    assert all(f"`{feature}`" in page for feature in FEATURES)
    assert all(f"`{kernel.value}`" in page for kernel in Kernel)
