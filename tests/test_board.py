"""The public Board API: moves and the stack, refusals with reasons, the legal-move view,
scoring and the board string."""

from __future__ import annotations

import pytest

import hasamigo
from hasamigo import (
    BLACK,
    PASS,
    WHITE,
    Board,
    IllegalMoveError,
    IllegalReason,
    InvalidSquareError,
    Move,
    Outcome,
    ParseError,
    find_variant,
    parse_square,
)
from hasamigo import variants as variants_module

F5, E6, D6 = parse_square("f5"), parse_square("e6"), parse_square("d6")


def cells(rows: list[str], to_move: str) -> str:
    return "".join(rows) + " " + to_move


# Figure 6 of the rules article: Black to move has no move, White has.
BLACK_MUST_PASS = cells(
    [
        "--------",
        "--------",
        "--------",
        "--XXX--O",
        "---XXXOO",
        "-----X-O",
        "-----X--",
        "--------",
    ],
    "X",
)
# Figure 8: Black 14, White 1, 49 empty, nobody can move.
BLOCKED = cells(
    [
        "--------",
        "--------",
        "--X-----",
        "---XXXX-",
        "---XXXXX",
        "----X-X-",
        "-----X--",
        "----O-X-",
    ],
    "O",
)


# ---- moves and the stack -------------------------------------------------------------


def test_push_pop_peek_and_the_move_stack() -> None:
    board = Board()
    start = board.copy()
    assert board.move_stack == [] and board.ply == 0
    board.push(Move(F5))
    assert board.peek() == Move(F5) and board.turn is WHITE
    assert board.play("d6") == Move(D6)
    assert board.move_stack == [Move(F5), Move(D6)] and board.ply == 2
    assert board.pop() == Move(D6)
    assert board.counts() == (4, 1) and board.turn is WHITE
    assert board.pop() == Move(F5)
    assert board == start and board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_play_parses_text_in_any_case_and_returns_the_move() -> None:
    board = Board()
    move = board.play("F5")
    assert move == Move.from_str("f5") and repr(move) == "Move.from_str('f5')"
    assert board.play(" black:d6 ".replace("black", "white")) == Move(D6)
    assert board.play("black:c3") == Move(parse_square("c3"))


def test_copy_and_root() -> None:
    board = Board()
    for name in ("f5", "d6", "c3"):
        board.play(name)
    copy = board.copy()
    copy.play("d3")
    assert board.ply == 3 and copy.ply == 4
    assert board.root() == Board() and board.ply == 3
    assert board.copy(stack=False).move_stack == []


# ---- refusals ------------------------------------------------------------------------


def refused(board: Board, move: str | Move) -> IllegalMoveError:
    before = (board.to_string(), list(board.move_stack))
    with pytest.raises(IllegalMoveError) as info:
        if isinstance(move, Move):
            board.push(move)
        else:
            board.play(move)
    assert (board.to_string(), board.move_stack) == before, "a refused move changed the board"
    assert isinstance(info.value, ValueError)
    assert info.value.reason.value in str(info.value)
    return info.value


def test_occupied() -> None:
    error = refused(Board(), "e5")
    assert error.reason is IllegalReason.OCCUPIED
    assert str(error) == "illegal move e5 for black: occupied"


def test_flips_nothing() -> None:
    assert refused(Board(), "a1").reason is IllegalReason.NO_FLIPS
    assert refused(Board(), "f4").reason is IllegalReason.NO_FLIPS  # diagonal neighbour of e5
    assert not Board().is_legal("a1")


def test_not_your_turn() -> None:
    board = Board()
    assert refused(board, "white:f5").reason is IllegalReason.NOT_YOUR_TURN
    board.play("f5")
    assert refused(board, "black:d6").reason is IllegalReason.NOT_YOUR_TURN
    assert refused(board, "x:d6").reason is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(ValueError):
        board.play("green:d6")


def test_pass_while_a_move_exists() -> None:
    board = Board()
    assert refused(board, "pass").reason is IllegalReason.PASS_NOT_ALLOWED
    assert refused(board, PASS).reason is IllegalReason.PASS_NOT_ALLOWED
    assert not board.is_legal(PASS) and PASS not in board.legal_moves


def test_a_square_when_a_pass_is_forced() -> None:
    board = Board(BLACK_MUST_PASS)
    assert refused(board, "a1").reason is IllegalReason.MUST_PASS
    assert refused(board, "c4").reason is IllegalReason.OCCUPIED


def test_unplayable_square_on_the_octagon() -> None:
    board = find_variant("octagon")()
    assert refused(board, Move(parse_square("a1"))).reason is IllegalReason.UNPLAYABLE
    assert refused(board, Move(parse_square("h7"))).reason is IllegalReason.UNPLAYABLE
    assert not board.is_legal("a1") and not board.is_legal(Move(parse_square("a1")))
    assert board.flips(Move(parse_square("a1"))) == 0


def test_play_text_on_an_unplayable_square_names_the_reason() -> None:
    assert refused(find_variant("octagon")(), "a1").reason is IllegalReason.UNPLAYABLE


def test_unknown_square_names() -> None:
    with pytest.raises(InvalidSquareError):
        Board().play("i9")
    with pytest.raises(InvalidSquareError):
        Board().play("f")
    assert not Board().is_legal("z1")


def test_game_over() -> None:
    board = Board(BLOCKED)
    assert refused(board, "pass").reason is IllegalReason.GAME_OVER
    assert refused(board, "a1").reason is IllegalReason.GAME_OVER
    assert refused(board, "c3").reason is IllegalReason.GAME_OVER


# ---- passes and the legal-move view --------------------------------------------------


def test_a_pass_is_truthy_and_legal_only_when_forced() -> None:
    assert bool(PASS) and PASS.is_pass and Move(None) == PASS and str(PASS) == "pass"
    assert Move.from_str("PA") == PASS and Move.from_str("--") == PASS
    board = Board(BLACK_MUST_PASS)
    assert board.must_pass() and board.is_legal(PASS) and board.is_legal("pass")
    assert board.play("pass") == PASS
    assert board.turn is WHITE and board.peek() == PASS
    assert board.pop() == PASS and board.turn is BLACK


def test_legal_moves_view() -> None:
    board = Board()
    view = board.legal_moves
    names = ["d3", "c4", "f5", "e6"]
    assert len(view) == 4 and view.count() == 4 and bool(view)
    assert sorted(str(m) for m in view) == sorted(names)
    assert [m.square for m in view] == sorted(parse_square(n) for n in names)
    assert Move(F5) in view and Move(parse_square("e5")) not in view and PASS not in view
    assert "f5" not in view  # the view holds Moves, not text
    board.play("f5")  # the view is live
    assert Move(F5) not in view and len(view) == 3
    assert sorted(str(m) for m in view) == ["d6", "f4", "f6"]
    assert board.legal_moves_mask() == sum(1 << m.square for m in view)
    assert repr(view).startswith("<LegalMoves (")


def test_legal_moves_when_forced_to_pass_and_at_the_end() -> None:
    forced = Board(BLACK_MUST_PASS).legal_moves
    assert list(forced) == [PASS] and len(forced) == 1 and bool(forced) and PASS in forced
    finished = Board(BLOCKED).legal_moves
    assert list(finished) == [] and len(finished) == 0 and not finished
    assert PASS not in finished


# ---- scoring -------------------------------------------------------------------------


def test_outcome_is_none_while_the_game_goes_on() -> None:
    assert Board().outcome() is None
    assert Board(BLACK_MUST_PASS).outcome() is None


def test_wipe_out_is_64_0() -> None:
    wiped = Board(cells(["--------"] * 3 + ["---XXX--", "---XXX--"] + ["--------"] * 3, "O"))
    assert wiped.is_game_over()
    outcome = wiped.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, outcome.winner) == (64, 0, BLACK)
    assert (outcome.black_discs, outcome.white_discs, outcome.empties) == (6, 0, 58)
    white_wipe = Board(cells(["O" + "-" * 7] + ["--------"] * 7, "X"))
    assert str(white_wipe.outcome()) == "0–64"


def test_tie_is_32_32() -> None:
    full = Board(cells(["XXXXXXXX", "OOOOOOOO"] * 4, "X"))
    assert full.is_game_over()
    assert str(full.outcome()) == "32–32"
    blocked = Board(cells(["XXX-----"] + ["--------"] * 6 + ["-----OOO"], "X"))
    outcome = blocked.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, outcome.winner) == (32, 32, None)
    assert (outcome.black_discs, outcome.white_discs) == (3, 3)
    assert outcome.disc_difference == 0


def test_6x6_tie_is_18_18() -> None:
    mini = find_variant("6x6")
    board = mini(cells(["XX----", "------", "------", "------", "------", "----OO"], "X"))
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, outcome.winner) == (18, 18, None)
    assert str(mini(cells(["XXXXXX", "OOOOOO"] * 3, "O")).outcome()) == "18–18"


def test_empties_go_to_the_winner() -> None:
    assert str(Outcome.official(14, 1)) == "63–1"
    assert str(Outcome.official(20, 30)) == "20–44"
    assert str(Outcome.official(3, 11, squares=16)) == "3–13"
    assert str(Outcome.official(16, 20, squares=36)) == "16–20"
    assert Outcome.official(5, 5, squares=36).winner is None
    assert Outcome.official(0, 1).winner is WHITE
    with pytest.raises(ValueError):
        Outcome.official(40, 30)


# ---- board strings -------------------------------------------------------------------


def evaluate(text: str) -> object:
    namespace = {**vars(variants_module), **vars(hasamigo)}
    return eval(text, namespace)


@pytest.mark.parametrize(
    ("variant", "moves"),
    [
        ("standard", "f5 d6 c3"),
        ("6x6", "c2 b4"),
        ("4x4", "b1"),
        ("octagon", "f5 f6 e6"),
        ("parallel", ""),
        ("original", "d4 e4"),
        ("standard", ""),
    ],
)
def test_repr_round_trip(variant: str, moves: str) -> None:
    board = find_variant(variant)()
    for name in moves.split():
        board.play(name)
    copy = evaluate(repr(board))
    assert isinstance(copy, type(board))
    assert copy == board and copy.to_string() == board.to_string()
    assert type(board).from_string(board.to_string()) == board
    assert copy.legal_moves_mask() == board.legal_moves_mask()


def test_to_string_format() -> None:
    assert Board().to_string() == "-" * 27 + "OX------XO" + "-" * 27 + " X"
    octagon = find_variant("octagon")().to_string()
    assert octagon.startswith("##----##\n".replace("\n", "")) and octagon.endswith("##----## X")
    assert repr(Board()) == f"Board({Board().to_string()!r})"


def test_from_string_accepts_other_symbols_and_refuses_bad_text() -> None:
    text = "." * 27 + "ox......xo" + "." * 27
    assert Board.from_string(text) == Board()
    assert Board.from_string(text + "O").turn is WHITE
    with pytest.raises(ParseError):
        Board.from_string("-" * 63)
    with pytest.raises(ParseError):
        Board.from_string("-" * 63 + "?")
    with pytest.raises(ParseError):
        Board.from_string("-" * 64 + "Z")
    with pytest.raises(ParseError):
        find_variant("octagon").from_string("X" + "-" * 63)  # a disc on the cut a1


def test_diagram_marks_legal_moves() -> None:
    lines = str(Board()).splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[3].split() == ["3", ".", ".", ".", "*", ".", ".", ".", "."]
    assert lines[4].split() == ["4", ".", ".", "*", "O", "X", ".", ".", "."]


def test_turn_and_colours() -> None:
    board = Board()
    assert board.turn is BLACK and board.turn.other is WHITE
    assert board.discs(BLACK) == board.black and board.discs(WHITE) == board.white
