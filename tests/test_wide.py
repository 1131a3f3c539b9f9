"""Boards larger than 8×8: the 10-column kernels and the Board layer against the slow
reference in ``naive.py``, square names, board strings and record formats on 10×10.

Positions come as in ``test_kernels.py``: random legal playouts from each wide variant's
start, and arbitrary disjoint black/white masks inside the playable shape.

No published perft table for 10×10 Othello was found (searched: Aart Bik's reversi perft
page and blog, which give 8×8 only; chess-programming and Othello forums); the counts
below are this package's, each checked against the reference (depth 7 and beyond in the
slow marker).
"""

from __future__ import annotations

import os
import textwrap

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit, types

from hasamigo import Board, Move, find_variant
from hasamigo._kernels import wide
from hasamigo.errors import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSquareError,
    ParseError,
)
from hasamigo.notation import GameRecord, format_ggf, parse_ggf, parse_obf, parse_transcript
from hasamigo.notation.obf import ObfPosition, format_obf
from hasamigo.notation.transcript import write_transcript
from hasamigo.notation.wthor import write_wthor

U64 = np.uint64
WIDE = sorted(naive.WIDE_FRAMES)
SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large]
POOLS = ["BW-", "BW", "BWW---", "BBW---------", "BW--------------", "BWWWWWWWW--", "BBBBBBBBW--"]

#: Perft from each start, pass a ply and a finished game one leaf (the package's counts;
#: the reference agrees to depth 7, see the tests below).
PERFT = {
    "grand": [1, 4, 12, 56, 244, 1396, 8200, 55180, 392268, 3045812],
    "eight-stars": [1, 4, 12, 56, 244, 1396, 8200, 55136, 391920, 3035364],
    "hasegawa-8x9": [1, 4, 12, 56, 244, 1396, 8200, 55114, 390722, 3015130],
    "hasegawa-9x10": [1, 4, 12, 56, 244, 1396, 8200, 55158, 391748, 3035392],
}


def start_cells(name: str) -> list:
    _rows, _cols, playable, corner = naive.WIDE_FRAMES[name]
    return naive.start_cells_at(playable, corner, 10)


# ---- strategies ----------------------------------------------------------------------


@st.composite
def reachable_positions(draw: st.DrawFn) -> tuple[str, list, str]:
    """(variant name, cells, colour to move) after a random legal playout from the start."""
    name = draw(st.sampled_from(WIDE))
    cells, colour = start_cells(name), naive.BLACK_DISC
    length = draw(st.integers(0, 100))
    rng = draw(st.randoms(use_true_random=False))
    for _ in range(length):
        moves = naive.legal_moves(cells, colour)
        if moves:
            cells = naive.apply_move(cells, colour, rng.choice(moves))
        elif not naive.legal_moves(cells, naive.other(colour)):
            break
        colour = naive.other(colour)
    return name, cells, colour


@st.composite
def arbitrary_positions(draw: st.DrawFn) -> tuple[str, list, str]:
    """(variant name, cells, colour): any disjoint black/white discs on the playable squares
    (long runs of one colour too: the shift steps cover runs of up to eight discs)."""
    name = draw(st.sampled_from(WIDE))
    playable = naive.WIDE_FRAMES[name][2]
    if draw(st.integers(0, 3)) == 0:
        a = draw(st.integers(0, 2**100 - 1))
        b = draw(st.integers(0, 2**100 - 1))
        black, white = a & playable, b & ~a & playable
    else:
        rng = draw(st.randoms(use_true_random=False))
        pool = rng.choice(POOLS)
        cells = [rng.choice(pool) for _ in range(100)]
        black = naive.mask_of([sq for sq, c in enumerate(cells) if c == "B"]) & playable
        white = naive.mask_of([sq for sq, c in enumerate(cells) if c == "W"]) & playable
    colour = draw(st.sampled_from([naive.BLACK_DISC, naive.WHITE_DISC]))
    return name, naive.cells_from_masks(black, white, playable, 10), colour


# ---- checks --------------------------------------------------------------------------


def words(cells: list, colour: str) -> tuple[np.uint64, ...]:
    p = naive.mask_of(naive.squares_of(cells, colour))
    o = naive.mask_of(naive.squares_of(cells, naive.other(colour)))
    return (*wide.split(p), *wide.split(o))


def check_kernels(name: str, cells: list, colour: str) -> None:
    playable = naive.WIDE_FRAMES[name][2]
    pair = words(cells, colour)
    expected = naive.mask_of(naive.legal_moves(cells, colour))
    assert wide.join(*wide.legal_moves_mask(*pair, *wide.split(playable))) == expected
    for sq in naive.squares_of(cells, naive.EMPTY):
        want = naive.mask_of(naive.flips(cells, colour, sq))
        assert wide.join(*wide.flips_at(*pair, sq)) == want, f"flips at {sq}"


def board_for(name: str, cells: list, colour: str) -> Board:
    rows, cols, _, _ = naive.WIDE_FRAMES[name]
    return find_variant(name).from_string(naive.board_string(cells, colour, rows, cols))


def check_board(name: str, cells: list, colour: str) -> None:
    board = board_for(name, cells, colour)
    assert board.black == naive.mask_of(naive.squares_of(cells, naive.BLACK_DISC))
    assert board.white == naive.mask_of(naive.squares_of(cells, naive.WHITE_DISC))
    moves = naive.legal_moves(cells, colour)
    assert board.legal_moves_mask() == naive.mask_of(moves)
    assert board.is_game_over() is naive.game_over(cells)
    assert board.must_pass() is naive.must_pass(cells, colour)
    for sq in naive.squares_of(cells, naive.EMPTY):
        assert board.flips(Move(sq)) == naive.mask_of(naive.flips(cells, colour, sq))
    outcome = board.outcome()
    if naive.game_over(cells):
        assert outcome is not None
        assert (outcome.black, outcome.white) == naive.official_score(cells)
    else:
        assert outcome is None


# ---- property tests ------------------------------------------------------------------


@settings(max_examples=40, suppress_health_check=SLOW_DATA, deadline=None)
@given(reachable_positions())
def test_wide_kernels_agree_on_reachable_positions(position: tuple[str, list, str]) -> None:
    check_kernels(*position)


@settings(max_examples=400, suppress_health_check=SLOW_DATA, deadline=None)
@given(arbitrary_positions())
def test_wide_kernels_agree_on_arbitrary_positions(position: tuple[str, list, str]) -> None:
    check_kernels(*position)


@settings(max_examples=150, suppress_health_check=SLOW_DATA, deadline=None)
@given(arbitrary_positions())
def test_wide_board_agrees_on_arbitrary_positions(position: tuple[str, list, str]) -> None:
    check_board(*position)


@settings(max_examples=8, suppress_health_check=SLOW_DATA, deadline=None)
@given(st.sampled_from(WIDE), st.lists(st.integers(0, 99), min_size=100, max_size=100))
def test_wide_board_playout_follows_reference(name: str, choices: list[int]) -> None:
    """Push/pop along a whole random game, comparing every position and every move."""
    cells, colour = start_cells(name), naive.BLACK_DISC
    board = find_variant(name)()
    history = []
    for choice in choices:
        moves = naive.legal_moves(cells, colour)
        assert board.legal_moves_mask() == naive.mask_of(moves)
        if moves:
            sq = moves[choice % len(moves)]
            assert board.flips(Move(sq)) == naive.mask_of(naive.flips(cells, colour, sq))
            move = Move(sq)
        elif naive.legal_moves(cells, naive.other(colour)):
            assert board.must_pass()
            sq, move = None, Move(None)
        else:
            assert board.is_game_over()
            assert board.outcome() is not None
            assert (board.outcome().black, board.outcome().white) == naive.official_score(cells)
            break
        history.append((board.black, board.white, board.turn))
        board.push(move)
        cells, colour = naive.apply_move(cells, colour, sq), naive.other(colour)
        assert board.black == naive.mask_of(naive.squares_of(cells, naive.BLACK_DISC))
        assert board.white == naive.mask_of(naive.squares_of(cells, naive.WHITE_DISC))
    while history:
        board.pop()
        assert (board.black, board.white, board.turn) == history.pop()
    assert board == find_variant(name)()


@settings(max_examples=25, suppress_health_check=SLOW_DATA, deadline=None)
@given(reachable_positions())
def test_wide_perft_agrees_on_reachable_positions(position: tuple[str, list, str]) -> None:
    name, cells, colour = position
    playable = naive.WIDE_FRAMES[name][2]
    for d in range(3):
        got = int(wide.perft(*words(cells, colour), *wide.split(playable), d))
        assert got == naive.perft(cells, colour, d), f"depth {d}"


# ---- perft from the start ------------------------------------------------------------


@pytest.mark.parametrize("name", WIDE)
def test_perft_from_the_start(name: str) -> None:
    board = find_variant(name)()
    assert [board.perft(d) for d in range(len(PERFT[name]))] == PERFT[name]
    cells = start_cells(name)
    assert [naive.perft(cells, "B", d) for d in range(7)] == PERFT[name][:7]


def test_grand_perft_7_against_the_reference() -> None:
    """Depth 7 is the first where the boards differ from 8×8 (55,092) and from each other."""
    assert naive.perft(start_cells("grand"), "B", 7) == PERFT["grand"][7]


@pytest.mark.slow
@pytest.mark.parametrize("name", WIDE)
def test_perft_7_and_8_against_the_reference(name: str) -> None:
    cells = start_cells(name)
    assert naive.perft(cells, "B", 7) == PERFT[name][7]
    if name == "grand":
        assert naive.perft(cells, "B", 8) == PERFT[name][8]


def test_reference_sanity_on_10x10() -> None:
    """The reference itself on facts checked by hand (so a bug cannot hide in both)."""
    cells = start_cells("grand")
    names = ["e4", "d5", "g6", "f7"]
    assert naive.legal_moves(cells, "B") == sorted(naive.square(n, 10) for n in names)
    assert naive.flips(cells, "B", naive.square("g6", 10)) == [naive.square("f6", 10)]
    # a run of eight white discs along row 1, bracketed from j1
    row = [naive.BLACK_DISC] + [naive.WHITE_DISC] * 8 + [naive.EMPTY] + [naive.EMPTY] * 90
    assert naive.flips(row, "B", 9) == list(range(1, 9))


# ---- geometry, names, strings --------------------------------------------------------


@pytest.mark.parametrize("name", WIDE)
def test_geometry_matches_the_reference(name: str) -> None:
    cls = find_variant(name)
    rows, cols, playable, _ = naive.WIDE_FRAMES[name]
    assert cls.stride == 10 and (cls.rows, cls.cols) == (len(rows), len(cols))
    assert cls.playable() == playable
    board = cls()
    cells = start_cells(name)
    assert board.to_string() == naive.board_string(cells, "B", rows, cols)
    assert cls.from_string(board.to_string()) == board


@pytest.mark.parametrize("name", WIDE)
def test_every_square_name_round_trips(name: str) -> None:
    cls = find_variant(name)
    names = [cls.square_name(sq) for sq in range(100) if cls.playable() >> sq & 1]
    assert len(names) == cls.square_count() == len(set(names))
    for text in names:
        sq = cls.parse_square(text)
        assert cls.square_name(sq) == text
        assert cls.parse_square(text.upper()) == sq
        assert cls.move_name(cls.parse_move(text)) == text


def test_grand_square_names() -> None:
    grand = find_variant("grand")
    assert grand.parse_square("a1") == 0
    assert grand.parse_square("j1") == 9
    assert grand.parse_square("a10") == 90
    assert grand.parse_square("J10") == 99
    assert grand.square_name(55) == "f6"
    assert grand.parse_move("pass").is_pass


@pytest.mark.parametrize(
    ("name", "text"),
    [("grand", "k1"), ("grand", "a11"), ("grand", "a0"), ("grand", "a"), ("grand", "10"),
     ("grand", "a100"), ("grand", "j1 0"), ("grand", "aa1"), ("grand", "a-1"), ("grand", "a²"),
     ("hasegawa-8x9", "j1"), ("hasegawa-8x9", "a9"), ("hasegawa-9x10", "a10"),
     ("hasegawa-9x10", "k5")],
)
def test_bad_square_names_are_refused(name: str, text: str) -> None:
    with pytest.raises(InvalidSquareError, match="not a square of"):
        find_variant(name).parse_square(text)


def test_cut_squares_of_eight_stars() -> None:
    stars = find_variant("eight-stars")
    for text in naive.EIGHT_STARS_CUT:
        with pytest.raises(InvalidSquareError, match="is cut from"):
            stars.parse_square(text)
        assert stars.parse_square(text, cut_ok=True) == naive.square(text, 10)
    board = stars()
    with pytest.raises(IllegalMoveError, match="illegal move a1 for black: not a playable"):
        board.play("a1")
    with pytest.raises(InvalidSquareError):
        stars.square_name(0)
    assert stars.grid_name(0) == "a1" and stars.grid_name(99) == "j10"


def test_moves_beyond_the_8x8_grid() -> None:
    assert Move(99).square == 99 and repr(Move(99)) == "Move(99)" and str(Move(64)) == "#64"
    assert repr(Move(37)) == "Move.from_str('f5')"
    with pytest.raises(InvalidSquareError):
        Move(100)
    board = Board()  # an 8×8 board refuses a square beyond its grid like any unplayable one
    with pytest.raises(IllegalMoveError, match="#70"):
        board.push(Move(70))
    assert not board.is_legal(Move(70)) and board.flips(Move(70)) == 0


def test_board_string_errors_on_10x10() -> None:
    grand = find_variant("grand")
    with pytest.raises(ParseError, match="100 squares"):
        grand.from_string("-" * 64 + " X")
    stars = find_variant("eight-stars")
    with pytest.raises(ParseError, match="a disc on a1, which is cut"):
        stars.from_string("X" + "-" * 99 + " X")


def test_diagram_aligns_row_ten() -> None:
    lines = str(find_variant("grand")()).splitlines()
    assert lines[0] == "   a b c d e f g h i j"
    assert lines[5] == " 5 . . . * O X . . . ."
    assert lines[10].startswith("10 ")
    assert len({len(line) for line in lines}) == 1


def test_handicap_on_wide_boards() -> None:
    grand = find_variant("grand")(handicap=4)
    assert {grand.square_name(sq) for sq in (0, 9, 90, 99)} == {"a1", "j1", "a10", "j10"}
    assert grand.black >> 99 & 1
    with pytest.raises(InvalidPositionError, match="no corner a1"):
        find_variant("eight-stars")(handicap=1)


# ---- formats -------------------------------------------------------------------------


def random_game(name: str, seed: int) -> Board:
    import random

    rng = random.Random(seed)
    board = find_variant(name)()
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


@pytest.mark.parametrize("name", WIDE)
def test_transcripts_round_trip(name: str) -> None:
    board = random_game(name, 7)
    cls = type(board)
    text = write_transcript(board.move_stack, cls)
    assert parse_transcript(text, cls()) == board.move_stack
    spaced = " ".join(cls.move_name(m) for m in board.move_stack if not m.is_pass).upper()
    assert parse_transcript(spaced, cls()) == board.move_stack


def test_transcript_reads_row_ten() -> None:
    grand = find_variant("grand")
    board = grand("-" * 80 + "-OX-------" + "-" * 10 + " X")  # white b9, black c9
    moves = parse_transcript("a9", board)
    assert [grand.move_name(m) for m in moves] == ["a9"]
    board = grand("-" * 80 + "-O--------" + "-X--------" + " X")  # white b9, black b10
    assert [grand.move_name(m) for m in parse_transcript("b8", board)] == ["b8"]
    board = grand("-" * 70 + "-X--------" + "-O--------" + "-" * 10 + " X")  # b8 X, b9 O
    assert [grand.move_name(m) for m in parse_transcript("b10", board)] == ["b10"]
    with pytest.raises(ParseError, match="not a square"):
        parse_transcript("e4k5", grand())


def test_ggf_round_trips_a_grand_game() -> None:
    board = random_game("grand", 3)
    grand = type(board)
    record = GameRecord(variant=grand, moves=list(board.move_stack), black="a", white="b")
    assert board.outcome() is not None
    record.recorded_score = board.outcome().black
    text = format_ggf(record)
    assert "TY[10]" in text and "BO[10 " in text
    assert any(f"[{grand.move_name(m)}]" in text for m in board.move_stack
               if m.square is not None and grand.move_name(m).endswith("10"))
    [back] = parse_ggf(text)
    assert back.variant is grand and back.moves == record.moves
    assert back.replay() == board


def test_ggf_reads_a_grand_start_position() -> None:
    cells = "-" * 44 + "OX--------XO" + "-" * 44
    rows = " ".join(cells[i:i + 10] for i in range(0, 100, 10))
    [record] = parse_ggf(f"(;GM[Othello]TY[10]BO[10 {rows.replace('X', '*')} *]B[e4];)")
    assert record.variant is find_variant("grand") and record.start is None
    assert [record.variant.move_name(m) for m in record.moves] == ["e4"]


@pytest.mark.parametrize("name", ["eight-stars", "hasegawa-8x9", "hasegawa-9x10"])
def test_ggf_refuses_shapes_it_cannot_hold(name: str) -> None:
    with pytest.raises(ValueError, match="GGF cannot hold"):
        format_ggf(GameRecord(variant=find_variant(name)))


def test_wthor_and_obf_refuse_wide_boards(tmp_path) -> None:  # type: ignore[no-untyped-def]
    grand = find_variant("grand")
    with pytest.raises(ValueError, match="WTHOR holds only 8×8"):
        write_wthor(tmp_path / "x.wtb", [GameRecord(variant=grand)])
    with pytest.raises(ValueError, match="OBF cannot hold"):
        format_obf(ObfPosition(grand()))
    with pytest.raises(InvalidOptionError, match="OBF holds positions of the 8×8 grid"):
        parse_obf(grand().to_string() + ";", board_cls=grand)


# ---- compiled code: no float64, the pure-Python path ----------------------------------

W = types.uint64
SIGNATURES = [
    (wide.legal_moves_mask, (W, W, W, W, W, W)),
    (wide.flips_at, (W, W, W, W, types.int64)),
    (wide.perft, (W, W, W, W, W, W, types.int64)),
]


@pytest.mark.parametrize(("dispatcher", "signature"), SIGNATURES,
                         ids=[d.__name__ for d, _ in SIGNATURES])
def test_wide_kernels_have_no_float64(dispatcher, signature) -> None:  # type: ignore[no-untyped-def]
    fresh = njit(nogil=True)(dispatcher.py_func)
    fresh.compile(signature)
    for cres in fresh.overloads.values():
        typemap = cres.type_annotation.typemap
        assert typemap
        assert {v: t for v, t in typemap.items() if "float" in str(t)} == {}
        assert "float" not in str(cres.signature.return_type)
        if dispatcher is not wide.perft:  # bitboards stay unsigned
            assert str(cres.signature.return_type) == "UniTuple(uint64 x 2)"


NO_JIT_SCRIPT = textwrap.dedent(
    """
    import random
    import sys

    sys.path.insert(0, sys.argv[1])
    import naive
    from hasamigo._kernels import wide

    rng = random.Random(20240602)
    checked = 0
    for name, (_r, _c, playable, corner) in sorted(naive.WIDE_FRAMES.items()):
        cells, colour = naive.start_cells_at(playable, corner, 10), "B"
        for _ in range(30):
            p = naive.mask_of(naive.squares_of(cells, colour))
            o = naive.mask_of(naive.squares_of(cells, naive.other(colour)))
            pair = (*wide.split(p), *wide.split(o))
            want = naive.mask_of(naive.legal_moves(cells, colour))
            assert wide.join(*wide.legal_moves_mask(*pair, *wide.split(playable))) == want
            for sq in naive.squares_of(cells, None):
                f = naive.mask_of(naive.flips(cells, colour, sq))
                assert wide.join(*wide.flips_at(*pair, sq)) == f, (name, sq)
            assert wide.perft(*pair, *wide.split(playable), 2) == naive.perft(cells, colour, 2)
            checked += 1
            moves = naive.legal_moves(cells, colour)
            if moves:
                cells = naive.apply_move(cells, colour, rng.choice(moves))
            elif naive.game_over(cells):
                break
            colour = naive.other(colour)
    print("checked", checked)
    """
)


def test_wide_kernel_logic_without_jit() -> None:
    """The kernels' Python source run as plain Python (coverage sees the kernel logic)."""
    from test_kernels import run_python

    out = run_python(NO_JIT_SCRIPT, os.path.dirname(__file__), env={"NUMBA_DISABLE_JIT": "1"})
    assert "checked 120" in out


# ---- record entry (arbiter mode) on the wide grid ------------------------------------


@pytest.mark.parametrize("name", WIDE)
def test_bracketed_lines_are_the_flips_on_wide_boards(name: str) -> None:
    import random

    from hasamigo.game.entry import bracketed_lines

    rng = random.Random(5)
    board = find_variant(name)()
    while not board.is_game_over():
        for move in board.legal_moves:
            if move.square is None:
                continue
            union = 0
            for line, _end in bracketed_lines(board, move.square, board.turn):
                for sq in line:
                    union |= 1 << sq
            assert union == board.flips(move)
        board.push(rng.choice(list(board.legal_moves)))


# ---- players and the engine on wide boards ------------------------------------------


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_board_api_players_play_a_whole_grand_game(spec: str) -> None:
    from hasamigo.engine.players import make_player

    board = find_variant("grand")()
    black, white = make_player(spec, seed=1), make_player("random", seed=2)
    while not board.is_game_over():
        move = (black if board.turn.value == "black" else white).choose(board)
        assert board.is_legal(move)
        board.push(move)
    assert board.outcome() is not None
    assert sum(board.counts()) <= 100


@pytest.mark.parametrize("spec", ["victory", "amusement", "entertainer"])
def test_kernel_players_refuse_wide_boards_by_name(spec: str) -> None:
    from hasamigo.engine.players import make_player

    player = make_player(spec, seed=1)
    with pytest.raises(InvalidOptionError, match="within the 8×8 grid, not Grand Othello"):
        player.check_board(find_variant("grand"))
    with pytest.raises(InvalidOptionError, match="within the 8×8 grid"):
        player.choose(find_variant("eight-stars")())
    player.check_board(find_variant("6x6"))  # inside the 8×8 grid: fine


def test_play_refuses_a_program_that_cannot_play_the_board() -> None:
    from typer.testing import CliRunner

    from hasamigo.cli import app

    result = CliRunner().invoke(app, ["play", "--variant", "grand", "--vs", "victory"])
    assert result.exit_code == 2
    assert "victory plays only boards within the 8×8 grid" in result.output
