"""Explanations (issue 19): each kind on a position built from the diagrams of ja.wikipedia's
"オセロ (ボードゲーム)" (戦術), and property tests that no note claims a feature the
position does not have."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hasamigo.analysis.explain import (
    RULES,
    Note,
    corner_squares,
    move_notes,
    position_notes,
    regions,
)
from hasamigo.board import Board
from hasamigo.cli import app
from hasamigo.errors import IllegalMoveError
from hasamigo.move import BLACK, WHITE
from hasamigo.squares import bits, parse_square

runner = CliRunner()

#: 一石返し・中割 (Black to move): the Rabbit's 9th move, e6, flips e5 alone, surrounded.
RABBIT_9 = ("--------" "--------" "---XX---" "---XXO--" "--XOOO--" "--OO-O--" "--------"
            "--------" " X")
#: 確定石 (White to move): ten White discs around h8 can never be flipped, no Black disc.
STABLE_10 = ("-XXX----" "XXXXX---" "XXXXXX--" "XXXXXXX-" "-XXXXXXO" "--XXXXOO" "---XXOOO"
             "----OOOO" " O")
#: 手止まり (Black to move): b7 has no empty neighbour.
TEMPO = ("--X--XXX" "X-XXXOOO" "OOOOOOOO" "OOXOOXXO" "OOOXOXXO" "OOXOXXXO" "O-OOOXOO"
         "XXXXXXXO" " X")


def kinds(notes: list[Note]) -> dict[str, list[Note]]:
    out: dict[str, list[Note]] = {}
    for note in notes:
        out.setdefault(note.kind, []).append(note)
    return out


def test_single_flip_and_quiet_move_of_the_rabbit() -> None:
    board = Board.from_string(RABBIT_9)
    notes = kinds(move_notes(board, "e6"))
    assert notes["single_flip"][0].squares == ("e5",)
    assert notes["quiet"][0].squares == ("e5",)
    assert notes["openness"][0].values == {"flipped": 1, "openness": 0}
    # a move flipping discs next to empties is neither
    other = kinds(move_notes(board, "g5"))
    assert "quiet" not in other and other["openness"][0].values["openness"] > 0


def test_the_ten_stable_white_discs() -> None:
    board = Board.from_string(STABLE_10)
    stable = [n for n in position_notes(board) if n.kind == "stable"]
    assert len(stable) == 1 and stable[0].values == {"colour": "white", "count": 10}
    assert set(stable[0].squares) == {"h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8",
                                      "h8"}


def test_c_and_x_squares_of_the_seeds_diagram() -> None:
    board = Board()
    names = {board.square_name(corner): ({board.square_name(s) for s in bits(x)},
                                         {board.square_name(s) for s in bits(c)})
             for corner, (x, c) in corner_squares(board).items()}
    assert names == {"a1": ({"b2"}, {"b1", "a2"}), "h1": ({"g2"}, {"g1", "h2"}),
                     "a8": ({"b7"}, {"a7", "b8"}), "h8": ({"g7"}, {"h7", "g8"})}


def test_x_square_beside_an_empty_corner() -> None:
    board = Board.from_string("--------" "--------" "--------" "---OX---" "---XXX--"
                              "-----O--" "--------" "--------" " X")
    notes = kinds(move_notes(board, "g7"))
    assert notes["x_square"][0].squares == ("g7", "h8")
    assert "c_square" not in notes
    corner_taken = Board.from_string("--------" "--------" "--------" "---OX---" "---XXX--"
                                     "-----O--" "--------" "-------O" " X")
    assert "x_square" not in kinds(move_notes(corner_taken, "g7"))


def test_tempo_and_parity_of_the_seeds_endgame() -> None:
    board = Board.from_string(TEMPO)
    black = kinds(move_notes(board, "b7"))
    assert black["tempo"][0].squares == ("b7",)
    parity = next(n for n in position_notes(board) if n.kind == "parity")
    assert sorted(parity.values["regions"]) == [1, 2, 3]
    board.play("b7")
    # White to move: the top-left region has 3 (odd), the top middle 2; a1 leaves it even
    assert sorted(g.bit_count() for g in regions(board)) == [2, 3]
    white = kinds(move_notes(board, "a1"))
    assert white["parity"][0].values == {"region": 3, "left": 2}
    assert set(white["parity"][0].squares) == {"a1", "b1", "b2"}


@pytest.mark.parametrize("moves, kind, family", [
    ("f5d6", "perpendicular", None), ("f5f6", "diagonal", "Cow"), ("f5f4", "parallel", "Mouse"),
    ("f5d6c5", "perpendicular", "Rabbit"), ("f5d6c3d3c4", "perpendicular", "Tiger"),
    ("d3c3", "diagonal", "Cow"),  # the same as f5f6, turned
    ("c4e3", "perpendicular", None),  # f5d6 turned
    ("c4c3", "diagonal", "Cow"),  # f5f6 turned
])
def test_second_move_type_and_family(moves: str, kind: str, family: str | None) -> None:
    board = Board()
    for i in range(0, len(moves), 2):
        board.play(moves[i:i + 2])
    note = kinds(position_notes(board))["second_move"][0]
    assert note.values == {"type": kind, "family": family}
    if moves == "f5d6c3d3c4":
        opening = kinds(position_notes(board))["opening"][0]
        assert opening.values["en"] == "Tiger"


def test_illegal_move_is_refused_with_the_reason() -> None:
    with pytest.raises(IllegalMoveError, match="a1"):
        move_notes(Board(), "a1")


# ---- no note claims what the position does not have --------------------------------------
def truly_stable(board: Board, squares: list[int]) -> bool:
    """No sequence of moves from ``board`` ever changes the colour of ``squares``."""
    colours = {sq: board.black >> sq & 1 for sq in squares}
    seen: set[tuple[int, int, object]] = set()

    def walk(b: Board) -> bool:
        key = (b.black, b.white, b.turn)
        if key in seen:
            return True
        seen.add(key)
        if any((b.black >> sq & 1) != was for sq, was in colours.items()):
            return False
        for move in list(b.legal_moves):
            b.push(move)
            ok = walk(b)
            b.pop()
            if not ok:
                return False
        return True

    return walk(board.copy())


def random_position(seed: int, empties: int) -> Board:
    rng = random.Random(seed)
    board = Board()
    while board.empties.bit_count() > empties and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_stable_discs_shown_are_stable(seed: int) -> None:
    board = random_position(seed, 7)
    for note in position_notes(board):
        if note.kind == "stable":
            assert truly_stable(board, [parse_square(s) for s in note.squares])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(4, 40))
def test_move_notes_claim_only_what_is_there(seed: int, empties: int) -> None:
    board = random_position(seed, empties)
    if board.is_game_over() or not board.legal_moves_mask():
        return
    move = random.Random(seed).choice(list(board.legal_moves))
    flipped = board.flips(move)
    after = board.copy()
    after.push(move)
    notes = kinds(move_notes(board, move))
    assert ("single_flip" in notes) == (flipped.bit_count() == 1)
    around = set()
    for sq in bits(flipped):
        r, c = divmod(sq, 8)
        around |= {(r + dr) * 8 + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                   if 0 <= r + dr < 8 and 0 <= c + dc < 8 and after.empties >> (
                       (r + dr) * 8 + c + dc) & 1}
    assert notes["openness"][0].values["openness"] == len(around)
    assert ("quiet" in notes) == (not around)
    for note in notes.get("x_square", []) + notes.get("c_square", []):
        sq, corner = (parse_square(s) for s in note.squares)
        assert board.empties >> corner & 1
        distance = (abs(sq // 8 - corner // 8), abs(sq % 8 - corner % 8))
        assert distance == ((1, 1) if note.kind == "x_square" else distance)
        assert max(distance) == 1
    for note in position_notes(board):
        if note.kind == "parity":
            assert sum(note.values["regions"]) == board.empties.bit_count()
        if note.kind == "tempo":
            colour = BLACK if note.values["colour"] == "black" else WHITE
            for s in note.squares:
                sq = parse_square(s)
                assert board.moves_mask(colour) >> sq & 1
                assert not board.moves_mask(colour.other) >> sq & 1
    assert all(n.kind in RULES for n in move_notes(board, move) + position_notes(board))


def test_cli_explain_text_and_json() -> None:
    result = runner.invoke(app, ["explain", "--json", "--", RABBIT_9, "e6"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {n["kind"] for n in data["move"]} >= {"single_flip", "quiet", "openness"}
    assert all({"kind", "rule", "rule_ja", "text", "text_ja", "squares"} <= set(n)
               for n in data["position"] + data["move"])
    text = runner.invoke(app, ["explain", "f5d6c3d3c4", "--lang", "ja"])
    assert text.exit_code == 0, text.stderr
    assert "縦取り" in text.stdout and "虎" in text.stdout
    bad = runner.invoke(app, ["explain", "f5d6", "a1"])
    assert bad.exit_code == 2 and "a1" in bad.stderr
    junk = runner.invoke(app, ["explain", "f5zz"])
    assert junk.exit_code == 2 and "Traceback" not in junk.stderr


def test_corners_are_the_shapes() -> None:
    """On the octagon the corners are the squares no line flips through (a1 is cut);
    on the circular Nip board, whose edge is a ring, there are none."""
    from hasamigo.variants import find_variant

    octagon = find_variant("octagon")()
    names = sorted(octagon.square_name(c) for c in corner_squares(octagon))
    assert names == ["a3", "a6", "c1", "c8", "f1", "f8", "h3", "h6"]
    assert corner_squares(find_variant("nip-circle")()) == {}
