"""One flipping rule per board geometry (issue 66): every caller asks it.

The definitions: on the 8×8 grid and on the 10-column grid (boards up to 10×10), the
compiled kernels, reached through :func:`hasamigo.board.grid_flips` and
:func:`~hasamigo.board.grid_moves`; a circular board's ring, :meth:`Rules.ring_flips`; a
Fairy Othello word (no kernel), :meth:`Rules.word_flips`. The callers: the board of every
variant (:meth:`Board.flips`, :meth:`Board.bracketed`), Rolit and the 4-player game
(:mod:`hasamigo.multi`) and record entry (:func:`hasamigo.game.entry.bracketed_lines`).
On random games of every variant and of Rolit, each caller's flips are compared with the
definition, and the definitions with a reference written here square by square.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import BLACK, WHITE, Board, Move, find_variant
from hasamigo._kernels.wide import split as wide_split
from hasamigo.board import Outcome, grid_flips, grid_moves
from hasamigo.game.entry import bracketed_lines
from hasamigo.multi import MULTI_GAMES, MultiBoard
from hasamigo.rules import OTHELLO_WORD, WORDS, Rules
from hasamigo.squares import BB_ALL, bits
from hasamigo.variants import VARIANTS

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
#: Every variant, and each option on a board of each grid: the flip rules, Nip's rule,
#: capture, every Fairy Othello word.
NAMES = sorted(
    [v.name for v in VARIANTS]
    + [f"{base}+{option}" for base in ("standard", "grand", "6x6", "hasegawa-8x9")
       for option in ("one", "choose", "nip", "capture", "indirect", *list(WORDS)[1:])]
    + ["nip-circle+indirect"]
)


def reference(mine: int, theirs: int, sq: int, stride: int, playable: int) -> int:
    """Othello's bracketing, square by square on (row, column): along each line from
    ``sq``, the run of ``theirs`` closed by a disc of ``mine``."""
    turned = 0
    row0, col0 = divmod(sq, stride)
    for dr, dc in DIRECTIONS:
        run, row, col = 0, row0 + dr, col0 + dc
        while 0 <= row < stride and 0 <= col < stride:
            at = row * stride + col
            if not playable >> at & 1 or not theirs >> at & 1:
                if playable >> at & 1 and mine >> at & 1:
                    turned |= run
                break
            run |= 1 << at
            row, col = row + dr, col + dc
    return turned


def definition(board: Board, mine: int, theirs: int, sq: int) -> int:
    """The one definition for ``board``'s geometry and rules, asked directly."""
    rules = board.rules
    if not rules.othello_brackets:
        return rules.word_flips(mine, theirs, sq, board.playable())

    def othello(p: int, o: int, at: int) -> int:
        return grid_flips(rules.stride, p, o, at) | rules.ring_flips(p, o, at)

    return rules.chained(mine, theirs, sq, othello(mine, theirs, sq), othello)


def random_positions(name: str, seed: int, plies: int) -> list[Board]:
    """The positions of a random game of ``name`` up to ``plies`` moves."""
    rng = random.Random(seed)
    board = find_variant(name)()
    seen = [board.copy(stack=False)]
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.move_choices())))
        seen.append(board.copy(stack=False))
    return seen


@settings(max_examples=120)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), plies=st.integers(0, 70))
def test_every_caller_on_a_board_flips_what_the_definition_does(
        name: str, seed: int, plies: int) -> None:
    board = random_positions(name, seed, plies)[-1]
    if board.in_placement_phase():
        return
    rules = board.rules
    empty = board.playable() & ~board.occupied
    for sq in bits(empty):
        for colour in (BLACK, WHITE):
            mine, theirs = board.discs(colour), board.discs(colour.other)
            expected = definition(board, mine, theirs, sq)
            assert board.bracketed(mine, theirs, sq) == expected, (name, sq)
            lines = list(bracketed_lines(board, sq, colour))
            union = 0
            for line, _end in lines:
                for disc in line:
                    assert not union >> disc & 1  # each disc on one line
                    union |= 1 << disc
            assert union == expected, (name, board.square_name(sq), colour)
            if rules.othello_brackets:  # each line closed by a disc of the colour put
                # down (in a chain, the mover's after the move: a disc it turns)
                closers = mine | expected | 1 << sq if rules.indirect else mine
                assert all(closers >> end & 1 for _line, end in lines)
                if not rules.rings and not rules.indirect:
                    assert expected == reference(mine, theirs, sq, rules.stride,
                                                 board.playable())
        if not board.in_placement_phase():
            assert board.flips(Move(sq)) == definition(board, *board.pair(), sq)


@settings(max_examples=60)
@given(stride=st.sampled_from([8, 10]), seed=st.integers(0, 2**32))
def test_the_python_word_rule_is_the_kernels_under_othellos_word(stride: int, seed: int) -> None:
    """Where the word rule and a kernel overlap (the word オセロ), they agree; with
    ``grid_moves``, on random discs of the whole grid."""
    rng = random.Random(seed)
    grid = (1 << stride * stride) - 1
    mine = rng.getrandbits(stride * stride) & grid
    theirs = rng.getrandbits(stride * stride) & grid & ~mine
    rules = Rules(stride=stride)
    assert rules.word == OTHELLO_WORD
    moves = 0
    for sq in bits(grid & ~(mine | theirs)):
        kernel = grid_flips(stride, mine, theirs, sq)
        assert rules.word_flips(mine, theirs, sq, grid) == kernel
        assert kernel == reference(mine, theirs, sq, stride, grid)
        moves |= (1 << sq) if kernel else 0
    assert grid_moves(stride, mine, theirs, grid) == moves


def _multi_reference_moves(own: int, others: int) -> int:
    return sum(1 << sq for sq in bits(BB_ALL & ~(own | others))
               if reference(own, others, sq, 8, BB_ALL))


@settings(max_examples=60)
@given(game=st.sampled_from(sorted(MULTI_GAMES)), players=st.integers(2, 4),
       seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_rolit_and_the_4_player_game_flip_by_the_8x8_definition(
        game: str, players: int, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = MultiBoard(game, players=players)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    occupied = board.occupied
    for colour in board.seats:
        own = board.discs[colour]
        others = occupied ^ own
        assert board.captures_mask(colour) == grid_moves(8, own, others, BB_ALL) \
            == _multi_reference_moves(own, others)
    own = board.discs[board.turn]
    for sq in bits(BB_ALL & ~occupied):
        assert board.turned_by(sq) == grid_flips(8, own, occupied ^ own, sq) \
            == reference(own, occupied ^ own, sq, 8, BB_ALL)


@pytest.mark.parametrize("name", ["standard", "grand", "nip-circle", "eight-stars"])
def test_an_entry_of_the_wrong_colour_is_judged_by_the_same_definition(name: str) -> None:
    """Record entry asks the board for the colour actually put down, not the side to
    move's: the same answer as the definition for that colour."""
    for board in random_positions(name, 7, 30)[::5]:
        other = board.turn.other
        mine, theirs = board.discs(other), board.discs(other.other)
        for sq in bits(board.playable() & ~board.occupied):
            turned = {d for line, _ in bracketed_lines(board, sq, other) for d in line}
            assert turned == set(bits(definition(board, mine, theirs, sq)))


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32))
def test_the_endgames_last_move_count_is_the_definitions(seed: int) -> None:
    """The endgame's last-move count (a table per line, as Edax counts the last flip) is
    a speed-up of the 8×8 definition, not another rule: on a board full but for one
    square, twice the discs the definition turns."""
    from hasamigo._kernels.endgame import last_flip_count

    rng = random.Random(seed)
    for _ in range(20):
        x = rng.randrange(64)
        mine = rng.getrandbits(64) & ~(1 << x)
        theirs = BB_ALL & ~mine & ~(1 << x)
        assert int(last_flip_count(np.uint64(mine), x)) == \
            2 * grid_flips(8, mine, theirs, x).bit_count()


@settings(max_examples=40)
@given(black=st.integers(0, 100), white=st.integers(0, 100), squares=st.sampled_from([64, 100]))
def test_the_kernels_count_a_finished_game_as_the_board_does(
        black: int, white: int, squares: int) -> None:
    """The empties to the winner: the board's :meth:`Outcome.official`, and the kernels'
    one definition (:func:`empties_to_winner`) that both grids' final scores use."""
    from hasamigo._kernels import endgame, wide_search

    if black + white > squares:
        return
    official = Outcome.official(black, white, squares=squares)
    expected = official.black - official.white
    empty = squares - black - white
    assert int(endgame.empties_to_winner(np.int64(black - white), np.int64(empty))) == expected
    if squares == 64:
        assert int(endgame.final_score(np.uint64((1 << black) - 1),
                                       np.uint64(((1 << white) - 1) << black),
                                       np.int64(empty))) == expected
    else:
        mine, theirs = (1 << black) - 1, ((1 << white) - 1) << black
        words = (*wide_split(mine), *wide_split(theirs))
        assert int(wide_search.final_score(*words, np.int64(empty))) == expected
