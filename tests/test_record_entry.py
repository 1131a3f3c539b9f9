"""Record entry: every fault of a move played over the board is found and named exactly.

The faults are built from a real position (the first game of WTHOR 2010, Van den
Biggelaar–Kortendijk, before move 21: Black's c6 turns c5 on the line to c4 and d5 on the
line to e4), each checked for its exact message and squares; then random legal games get
one random fault injected and the checker must name it as that kind. The recorder's
decisions (correct, keep) are events of the game: the fold is checked through replays and
the events' JSON.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.errors import InvalidSquareError
from hasamigo.game.controller import GameController, GameOptions, GameSetup, Participant
from hasamigo.game.entry import (
    FAULT_KINDS,
    bracketed_lines,
    check_entry,
    correction,
    entry_from_board,
    entry_from_turned,
    legal_entry,
)
from hasamigo.game.errors import GameError
from hasamigo.game.events import EnteredMove, event_from_json, event_to_json
from hasamigo.game.state import Phase, replay
from hasamigo.notation import read_wthor
from hasamigo.squares import bits

#: WTHOR 2010's first game, cut from the year (tests/data/ATTRIBUTION.md)
GAME_1 = Path(__file__).parent / "data" / "wthor" / "WTH_2010-game1.wtb"
LEGAL = "f2, g2, h2, b4, b6, c6, e7, f7, g7, h7"


@pytest.fixture(scope="module")
def position() -> Board:
    """WTHOR 2010, game 1, before move 21 (Black to move; the game went on with c6)."""
    record = next(iter(read_wthor(GAME_1)))
    board = record.board()
    for move in record.replay().move_stack[:20]:
        board.push(move)
    assert board.turn is BLACK and record.replay().move_stack[20] == Move.from_str("c6")
    return board


def messages(board: Board, entry: object) -> list[tuple[str, tuple[str, ...], str]]:
    return [(f.kind, f.squares, f.message) for f in check_entry(board, entry, 21)]  # type: ignore[arg-type]


# ---- each fault, exactly ---------------------------------------------------------------------
def test_the_real_move_is_legal(position: Board) -> None:
    assert messages(position, entry_from_turned(position, "c6", turned=["c5", "d5"])) == []
    assert messages(position, legal_entry(position, Move.from_str("c6"))) == []


def test_wrong_colour(position: Board) -> None:
    # Black puts a white disc on c6 and turns what a white disc brackets there (d6)
    entry = entry_from_turned(position, "c6", WHITE, ["d6"])
    assert messages(position, entry) == [
        ("wrong_colour", ("c6",), "move 21: Black put a white disc on c6")]
    assert correction(position, entry) == Move.from_str("c6")  # Black's c6 is legal


def test_out_of_turn(position: Board) -> None:
    entry = entry_from_turned(position, "c6", turned=["d6"], by=WHITE)
    assert messages(position, entry) == [
        ("out_of_turn", ("c6",), "move 21: White moved out of turn on c6 (Black to move)")]
    assert correction(position, entry) is None  # withdrawn: Black moves


def test_a_square_that_turns_nothing_lists_the_legal_squares(position: Board) -> None:
    entry = entry_from_turned(position, "a7", turned=())
    assert messages(position, entry) == [
        ("no_flips", ("a7",), f"move 21: a black disc on a7 turns nothing; the legal squares "
         f"are {LEGAL}")]
    assert correction(position, entry) is None


def test_a_bracketed_disc_not_turned_names_the_disc_and_its_line(position: Board) -> None:
    entry = entry_from_turned(position, "c6", turned=["c5"])
    assert messages(position, entry) == [
        ("not_turned", ("d5",), "move 21: d5 not turned: bracketed on the line c6–e4")]
    nothing = entry_from_turned(position, "c6", turned=[])
    assert [f.message for f in check_entry(position, nothing, 21)] == [
        "move 21: c5 not turned: bracketed on the line c6–c4",
        "move 21: d5 not turned: bracketed on the line c6–e4"]


def test_a_disc_turned_that_was_not_bracketed(position: Board) -> None:
    entry = entry_from_turned(position, "c6", turned=["c5", "d5", "e5"])
    assert messages(position, entry) == [
        ("over_turned", ("e5",), "move 21: e5 turned but not bracketed")]


def test_a_displaced_disc(position: Board) -> None:
    after = legal_entry(position, Move.from_str("c6"))
    d3 = position.parse_square("d3")
    bumped = type(after)(after.by, after.square, after.black & ~(1 << d3), after.white)
    assert messages(position, bumped) == [
        ("displaced", ("d3",), "move 21: displaced disc d3 (was black, now empty)")]
    # a disc of the mover's own colour turned over is displaced too, not "turned"
    own = entry_from_turned(position, "c6", turned=["c5", "d5", "c4"])
    assert messages(position, own) == [
        ("displaced", ("c4",), "move 21: displaced disc c4 (was black, now white)")]
    assert correction(position, bumped) == Move.from_str("c6")


def test_a_pass_while_a_move_existed_lists_the_moves(position: Board) -> None:
    entry = entry_from_turned(position, None)
    assert messages(position, entry) == [
        ("pass_with_moves", tuple(LEGAL.split(", ")),
         f"move 21: Black passed, but could play {LEGAL}")]
    assert messages(position, entry_from_turned(position, None, by=WHITE)) == [
        ("out_of_turn", (), "move 21: White passed out of turn (Black to move)")]


def test_several_faults_of_one_move_are_all_named(position: Board) -> None:
    # Black puts a white disc on g8 (it turns nothing), turns e5 and knocks d3 off
    black, white = position.black, position.white
    g8, e5, d3 = (position.parse_square(n) for n in ("g8", "e5", "d3"))
    after = type(legal_entry(position, Move.from_str("c6")))(
        BLACK, g8, black & ~(1 << d3) | 1 << e5, (white | 1 << g8) & ~(1 << e5))
    assert messages(position, after) == [
        ("wrong_colour", ("g8",), "move 21: Black put a white disc on g8"),
        ("no_flips", ("g8",), f"move 21: a white disc on g8 turns nothing; Black's legal "
         f"squares are {LEGAL}"),
        ("displaced", ("d3", "e5"), "move 21: displaced discs d3 (was black, now empty), "
         "e5 (was white, now black)"),
    ]


def test_the_board_typed_after_the_move(position: Board) -> None:
    played = position.copy()
    played.push(Move.from_str("c6"))
    entry = entry_from_board(position, played.to_string())
    assert entry.square == position.parse_square("c6") and messages(position, entry) == []
    # the same board with c5 left unturned
    cells = list(played.to_string().split()[0])
    cells[position.parse_square("c5")] = "O"
    assert messages(position, entry_from_board(position, "".join(cells)))[0][0] == "not_turned"
    assert entry_from_board(position, position.to_string()).square is None  # a pass


def test_entry_slips_are_refused_with_the_square(position: Board) -> None:
    with pytest.raises(GameError, match="c5 already holds a disc"):
        entry_from_turned(position, "c5")
    with pytest.raises(GameError, match="a8 is empty: only a disc can be turned"):
        entry_from_turned(position, "c6", turned=["a8"])
    with pytest.raises(InvalidSquareError):
        entry_from_turned(position, "z9")
    with pytest.raises(GameError, match="not a board"):
        entry_from_board(position, "XO")


def test_bracketed_lines_are_the_flips_of_the_kernel() -> None:
    rng = random.Random(3)
    for _ in range(30):
        board = Board()
        while not board.is_game_over():
            for move in board.legal_moves:
                if move.is_pass:
                    continue
                union = 0
                for line, _end in bracketed_lines(board, move.square, board.turn):
                    for sq in line:
                        union |= 1 << sq
                assert union == board.flips(move)
            board.push(rng.choice(list(board.legal_moves)))


# ---- one random fault in random legal games ---------------------------------------------------
def _random_position(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    if board.must_pass():
        board.push(Move(None))
    return board


def _inject(board: Board, kind: str, rng: random.Random) -> object | None:
    """An entry on ``board`` with one fault of ``kind`` (``None`` if the position has no
    room for it)."""
    turn = board.turn
    legal = [m for m in board.legal_moves if not m.is_pass]
    empties = list(bits(board.empties))
    if kind == "pass_with_moves":
        return entry_from_turned(board, None) if legal else None
    if kind == "no_flips":
        dead = [sq for sq in empties if not board.moves_mask(turn) >> sq & 1]
        return entry_from_turned(board, rng.choice(dead), turned=()) if dead else None
    if kind == "out_of_turn":
        theirs = list(bits(board.moves_mask(turn.other)))
        if not theirs:
            return None
        sq = rng.choice(theirs)
        turned = [s for line, _e in bracketed_lines(board, sq, turn.other) for s in line]
        return entry_from_turned(board, sq, turned=turned, by=turn.other)
    if not legal:
        return None
    move = rng.choice(legal)
    assert move.square is not None
    flips = list(bits(board.flips(move)))
    if kind == "wrong_colour":
        turned = [s for line, _e in bracketed_lines(board, move.square, turn.other) for s in line]
        return entry_from_turned(board, move.square, turn.other, turned)
    if kind == "not_turned":
        flips.remove(rng.choice(flips))
        return entry_from_turned(board, move.square, turned=flips)
    if kind == "over_turned":
        others = [s for s in bits(board.discs(turn.other)) if s not in flips]
        return entry_from_turned(board, move.square, turned=[*flips, rng.choice(others)]) \
            if others else None
    assert kind == "displaced"
    entry = legal_entry(board, move)
    mine = [s for s in bits(board.discs(turn)) if s != move.square]
    spare = [s for s in empties if s != move.square]
    how = rng.randrange(3)
    if how == 0 and mine:  # an own disc knocked off the board
        sq = rng.choice(mine)
        return type(entry)(entry.by, entry.square, entry.black & ~(1 << sq),
                           entry.white & ~(1 << sq))
    if how == 1 and mine:  # an own disc turned over
        sq = rng.choice(mine)
        return entry_from_turned(board, move.square, turned=[*flips, sq])
    if spare:  # a stray disc on an empty square
        sq = rng.choice(spare)
        return type(entry)(entry.by, entry.square, entry.black | 1 << sq, entry.white)
    return None


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(0, 58), st.sampled_from(sorted(FAULT_KINDS)))
def test_an_injected_fault_is_found_and_named_as_its_kind(seed: int, plies: int,
                                                          kind: str) -> None:
    board = _random_position(seed, plies)
    if board.is_game_over():
        return
    entry = _inject(board, kind, random.Random(seed))
    if entry is None:
        return
    faults = check_entry(board, entry, 7)  # type: ignore[arg-type]
    assert faults, f"{kind} not found"
    assert faults[0].kind == kind
    if kind != "wrong_colour":  # a wrong colour may also turn nothing for its colour
        assert [f.kind for f in faults] == [kind]
    assert all(f.move_number == 7 and f.message.startswith("move 7: ") for f in faults)
    for fault in faults:
        for name in fault.squares:
            board.parse_square(name)  # every square named is a real square


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(0, 58))
def test_a_legal_move_entered_as_played_has_no_fault(seed: int, plies: int) -> None:
    board = _random_position(seed, plies)
    for move in board.legal_moves:
        if not move.is_pass:
            assert check_entry(board, legal_entry(board, move), 1) == []


# ---- the recorder's decisions are events --------------------------------------------------------
class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def recorder(**options: object) -> GameController:
    setup = GameSetup((Participant("Ann"), Participant("Bob")),
                      GameOptions(clock_seconds=None, casual=False, **options))  # type: ignore[arg-type]
    game = GameController.new(setup, time_source=FakeTime(), rng=random.Random(1))
    game.declare_over_the_board()
    return game


def reloaded(game: GameController) -> GameController:
    variant = type(game.board)
    events = [event_from_json(json.loads(json.dumps(event_to_json(e, variant))), variant)
              for e in game.events]
    return GameController(game.setup, events, time_source=game._now)


def test_correcting_a_move_plays_it_properly_or_withdraws_it() -> None:
    game = recorder()
    game.enter_move("f5", turned=[])  # e5 left unturned
    assert game.pending_entry is not None and game.board.ply == 0
    with pytest.raises(GameError, match="move 1 was entered with faults"):
        game.enter_move("d6")
    game.correct_entry()
    assert [game.board.move_name(m) for m in game.board.move_stack] == ["f5"]
    expected = Board()
    expected.play("f5")
    assert game.board.to_string() == expected.to_string()
    assert [(f.fault.kind, f.decision) for f in game.faults] == [("not_turned", "corrected")]
    game.enter_move("c3")  # a square White can't play: withdrawn
    game.correct_entry()
    assert game.board.ply == 1 and game.board.turn is WHITE
    assert game.faults[-1].fault.kind == "no_flips"
    back = reloaded(game)
    assert back.board.to_string() == game.board.to_string() and back.faults == game.faults


def test_keeping_the_board_marks_the_point_and_the_game_goes_on_from_it() -> None:
    game = recorder()
    game.enter_move("f5")
    game.enter_move("d6", turned=["d5", "e5"])  # White turns one disc too many
    game.keep_board()
    assert game.marks[0].move_number == 2
    assert game.board.to_string() == game.marks[0].board
    assert game.board.turn is BLACK and game.phase is Phase.PLAYING
    record = game.entered_record()
    assert record["moves"] == ["f5", "d6"] and record["marks"][0]["move_number"] == 2
    assert record["faults"][0]["decision"] == "kept" and record["faults"][0]["kind"] == \
        "over_turned"
    # the game goes on from the kept board, checked against it
    board = game.board.copy()
    legal = next(m for m in board.legal_moves if not m.is_pass)
    game.enter(legal_entry(board, legal))
    assert game.pending_entry is None and game.board.ply == 3
    again = reloaded(game)
    assert again.board.to_string() == game.board.to_string()
    assert again.marks == game.marks
    # a take-back of the kept move returns to the legal position before it
    game.request_undo(BLACK)
    game.undo(BLACK)
    game.request_undo(WHITE)
    game.undo(WHITE)
    assert game.board.ply == 1 and game.marks == () and game.faults == ()


def test_a_stored_entry_is_checked_again_when_replayed() -> None:
    game = recorder()
    game.enter_move("f5")
    events = list(game.events)
    bad = EnteredMove(WHITE, Board.parse_square("f5"), "-" * 64, at=events[-1].at + 1)
    with pytest.raises(Exception, match="f5 already held a disc"):
        replay(game.setup, [*events, bad], game="g1")


def test_entries_need_a_game_in_play() -> None:
    game = recorder()
    game.hand_in_card(40, 24)
    with pytest.raises(GameError, match="the game is over"):
        game.enter_move("f5")
