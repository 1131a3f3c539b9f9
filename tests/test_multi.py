"""The multi-player games (:mod:`hasamigo.multi`): perft against a naive reference written
out here, random games to the end, the rules' edge cases and the errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo.errors import IllegalMoveError, IllegalReason, InvalidOptionError
from hasamigo.move import PASS, Move
from hasamigo.multi import MultiBoard, find_multi_game
from hasamigo.squares import parse_square

# ---- the naive reference: a list of 64 cells, None or a colour index, walked square by
# square in the eight directions ----------------------------------------------------------
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def naive_start() -> list[int | None]:
    cells: list[int | None] = [None] * 64
    cells[3 * 8 + 3] = 0  # d4
    cells[3 * 8 + 4] = 1  # e4
    cells[4 * 8 + 4] = 2  # e5
    cells[4 * 8 + 3] = 3  # d5
    return cells


def naive_flips(cells: list[int | None], colour: int, sq: int) -> list[int]:
    if cells[sq] is not None:
        return []
    row, col = divmod(sq, 8)
    found = []
    for dr, dc in DIRECTIONS:
        r, c, run = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] is not None \
                and cells[r * 8 + c] != colour:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == colour:
            found += run
    return found


def naive_next_to_a_disc(cells: list[int | None], sq: int) -> bool:
    row, col = divmod(sq, 8)
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        if 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] is not None:
            return True
    return False


def naive_moves(cells: list[int | None], colour: int, rolit: bool) -> list[int]:
    captures = [sq for sq in range(64) if naive_flips(cells, colour, sq)]
    if captures or not rolit:
        return captures
    return [sq for sq in range(64) if cells[sq] is None and naive_next_to_a_disc(cells, sq)]


def naive_perft(cells: list[int | None], seats: list[int], at: int, depth: int,
                rolit: bool) -> int:
    if None not in cells:
        return 1
    if not rolit and not any(naive_moves(cells, c, False) for c in seats):
        return 1
    if depth == 0:
        return 1
    colour = seats[at]
    moves = naive_moves(cells, colour, rolit)
    following = (at + 1) % len(seats)
    if not moves:  # a pass (Othello's rule only)
        return naive_perft(cells, seats, following, depth - 1, rolit)
    total = 0
    for sq in moves:
        after = list(cells)
        for turned in naive_flips(cells, colour, sq):
            after[turned] = colour
        after[sq] = colour
        total += naive_perft(after, seats, following, depth - 1, rolit)
    return total


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize(("game", "seats"), [("rolit", [0, 1, 2, 3]), ("rolit", [0, 2]),
                                             ("othello4", [0, 1, 2, 3])])
def test_perft_agrees_with_the_naive_reference(game: str, seats: list[int], depth: int) -> None:
    board = MultiBoard(game, seats=seats)
    assert board.perft(depth) == naive_perft(naive_start(), seats, 0, depth, game == "rolit")


@pytest.mark.parametrize("depth", [5, 6])
def test_rolit_perft_deep(depth: int) -> None:
    """Depth 6 from Rolit's start: 44,154 leaves, about 2 s with the reference."""
    assert MultiBoard("rolit").perft(depth) == naive_perft(naive_start(), [0, 1, 2, 3], 0,
                                                           depth, True)


def test_perft_counts() -> None:
    """The counts themselves, so that a change shows (checked against the reference)."""
    assert [MultiBoard("rolit").perft(d) for d in range(7)] == [
        1, 3, 20, 136, 1366, 7427, 44154]
    assert [MultiBoard("othello4").perft(d) for d in range(7)] == [
        1, 3, 7, 16, 28, 105, 317]


# ---- whole games ------------------------------------------------------------------------
def random_game(board: MultiBoard, seed: int) -> MultiBoard:
    rng = random.Random(seed)
    while not board.is_game_over():
        move = rng.choice(board.legal_moves())
        board.play(move)
    return board


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_random_rolit_game_fills_the_board(seed: int) -> None:
    board = random_game(MultiBoard("rolit", players=4), seed)
    assert sum(board.scores().values()) == 64
    assert len(board.move_stack) == 60  # nobody passes in Rolit
    assert all(not m.is_pass for m in board.move_stack)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       game=st.sampled_from(["rolit", "othello4"]))
def test_every_random_game_counts_every_disc(seed: int, players: int, game: str) -> None:
    board = random_game(MultiBoard(game, players=players), seed)
    assert sum(board.counts()) == board.occupied.bit_count()
    placed = sum(1 for m in board.move_stack if not m.is_pass)
    assert board.occupied.bit_count() == 4 + placed
    unused = sum(board.counts()[c] for c in range(4) if c not in board.seats)
    assert sum(board.scores().values()) + unused == board.occupied.bit_count()
    ranks = [s.rank for s in board.standings()]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    # the game is over because the board is full or, with passes, nobody can capture
    if board.occupied.bit_count() < 64:
        assert game == "othello4"
        assert not any(board.captures_mask(c) for c in board.seats)


def test_push_and_pop_restore_the_position() -> None:
    board = random_game(MultiBoard("rolit"), 7)
    end = (list(board.discs), board.turn)
    moves = list(board.move_stack)
    while board.move_stack:
        board.pop()
    assert board.discs == list(MultiBoard("rolit").discs) and board.turn == 0
    for move in moves:
        board.play(move)
    assert (board.discs, board.turn) == end


# ---- the rules' cases -------------------------------------------------------------------
def test_the_start_has_one_disc_of_each_colour_whatever_the_players() -> None:
    for players in (2, 3, 4):
        board = MultiBoard("rolit", players=players)
        assert board.counts() == (1, 1, 1, 1)
    two = MultiBoard("rolit", players=2)
    assert [two.colour_name(c) for c in two.seats] == ["red", "green"]


def test_a_capture_must_be_made_when_one_exists() -> None:
    board = MultiBoard("rolit")
    assert board.legal_moves_mask() == board.captures_mask()  # red can capture: d6 f4 f6
    assert sorted(str(m) for m in board.legal_moves()) == ["d6", "f4", "f6"]
    with pytest.raises(IllegalMoveError, match="a capture is possible") as info:
        board.play("c3")
    assert info.value.reason is IllegalReason.NO_FLIPS


def test_without_a_capture_any_square_next_to_a_disc() -> None:
    board = MultiBoard("rolit")
    board.play("f4")  # yellow has no disc left: it places next to any disc
    mask = board.legal_moves_mask()
    assert board.captures_mask() == 0
    assert mask >> parse_square("g3") & 1 and not mask >> parse_square("h8") & 1
    board.play("g3")
    assert board.colour_name(board.colour_at(parse_square("g3")) or 0) == "yellow"
    with pytest.raises(IllegalMoveError, match="occupied"):
        board.play("g3")


def test_unused_colours_can_be_captured_by_anyone() -> None:
    board = MultiBoard("rolit", players=2)  # red and green; yellow e4 and blue d5 neutral
    board.play("f4")  # red d4 brackets yellow e4
    assert board.counts() == (3, 0, 1, 1)
    assert board.colour_name(board.turn) == "green"


def test_othello4_passes_and_ends_when_nobody_can_capture() -> None:
    board = MultiBoard("othello4")
    board.play("f4")  # black takes red's e4: red has no disc, so it must pass
    assert board.colour_name(board.turn) == "red"
    assert board.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError, match="must pass"):
        board.play("f5")
    board.play("pass")
    assert board.colour_name(board.turn) == "white"
    with pytest.raises(IllegalMoveError, match="a legal move exists"):
        board.play("pass")


def test_the_first_player_and_the_seats_are_chosen() -> None:
    board = MultiBoard("rolit", seats=["blue", "yellow"], first="blue")
    assert board.seats == (1, 3) and board.colour_name(board.turn) == "blue"
    board.play(board.legal_moves()[0])
    assert board.colour_name(board.turn) == "yellow"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": 5}, "2 to 4 players"),
    ({"seats": ["red"]}, "2 to 4 different colours"),
    ({"seats": ["red", "red"]}, "2 to 4 different colours"),
    ({"seats": ["red", "purple"]}, "no colour 'purple'"),
    ({"seats": ["red", "green"], "first": "blue"}, "blue does not play"),
    ({"players": 3, "seats": ["red", "green"]}, "3 players but 2 seats"),
])
def test_bad_set_ups_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        MultiBoard("rolit", **kwargs)  # type: ignore[arg-type]


def test_unknown_game() -> None:
    with pytest.raises(InvalidOptionError, match="known: rolit, othello4"):
        find_multi_game("chess")


def test_standings_share_ranks_on_ties() -> None:
    board = MultiBoard("rolit")
    assert [s.rank for s in board.standings()] == [1, 1, 1, 1]
    board.play("f4")
    assert [(s.name, s.rank, s.discs) for s in board.standings()] == [
        ("red", 1, 3), ("green", 2, 1), ("blue", 2, 1), ("yellow", 4, 0)]
    assert board.winners() == [0]


def test_moves_made_with_their_colours() -> None:
    board = MultiBoard("rolit", first="green")
    assert sorted(str(m) for m in board.legal_moves()) == ["c3", "c5", "e3"]
    board.play("c5")  # green e5 brackets blue d5
    assert [(board.colour_name(c), str(m)) for c, m in board.replay()] == [("green", "c5")]
    assert board.move_stack == [Move.from_str("c5")]
    assert board.colour_name(board.turn) == "blue"


def test_the_turn_order_starts_with_the_first_to_move() -> None:
    board = MultiBoard("rolit", players=3, first="green")
    assert board.turn_order() == (2, 0, 1)
    board.play(board.legal_moves()[0])
    assert board.turn_order() == (2, 0, 1) and board.turn == 0
