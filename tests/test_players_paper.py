"""The amusement paper's programs: the weighted minimax against the reference, the phases,
the move numbers, the expectation and surprise moves (midgame only), amusement:swing."""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive_weighted import root_values

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.engine.players import EXPECTATION, NORMAL, SURPRISE, make_player, move_number
from hasamigo.engine.players.paper import (
    ENDGAME,
    EXPECTATION_FROM,
    MIDGAME,
    MIDGAME_WEIGHTS,
    MOBILITY_WEIGHT,
    OPENING,
    OPENING_WEIGHTS,
    PHASES,
    SURPRISE_WINDOW,
    SWING,
    SWING_MIN,
    AmusementPlayer,
    VictoryPlayer,
    hands_corner,
    move_values,
    phase,
    planned_moves_done,
    scaled,
    stars,
    static_value,
    swing_drops,
)
from hasamigo.variants import Board4x4, MiniBoard, OriginalReversiBoard


def random_board(rng: random.Random, plies: int) -> Board:
    board = Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


def sampled_positions(seed: int, count: int, low: int = 0, high: int = 58) -> list[Board]:
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = random_board(rng, rng.randint(low, high))
        if board.legal_moves_mask():
            out.append(board)
    return out


def test_tables_are_symmetric_and_opening_mostly_negative() -> None:
    for table in (MIDGAME_WEIGHTS, OPENING_WEIGHTS):
        grid = np.asarray(table).reshape(8, 8)
        assert (grid == grid.T).all() and (grid == grid[::-1]).all()
        assert (grid == grid[:, ::-1]).all()
    assert (np.asarray(OPENING_WEIGHTS) < 0).sum() >= 56
    assert MIDGAME_WEIGHTS[0] == 100 and MIDGAME_WEIGHTS[9] == -50


@pytest.mark.parametrize("stage", [OPENING, MIDGAME, ENDGAME])
def test_kernel_equals_reference_minimax(stage: str) -> None:
    weights, mode = PHASES[stage]
    for board in sampled_positions(11, 12):
        for depth in (1, 2, 3):
            assert move_values(board, depth, stage) == root_values(
                board, depth, weights, MOBILITY_WEIGHT, mode), (board, depth)


def test_kernel_equals_reference_at_five_plies() -> None:
    # early positions keep the pure-Python reference fast; one near the end has passes
    rng = random.Random(5)
    boards = [Board(), random_board(rng, 2), random_board(rng, 3)]
    boards += sampled_positions(3, 2, 52, 56)
    for board in boards:
        stage = phase(board)
        weights, mode = PHASES[stage]
        assert move_values(board, 5) == root_values(board, 5, weights, MOBILITY_WEIGHT, mode)


def test_pass_does_not_use_a_ply() -> None:
    board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO-OO-O X")
    weights, mode = PHASES[phase(board)]
    assert move_values(board, 2) == root_values(board, 2, weights, MOBILITY_WEIGHT, mode)


def board_with(black: list[str], white: list[str]) -> Board:
    cells = ["-"] * 64
    for names, char in ((black, "X"), (white, "O")):
        for name in names:
            cells[Board.parse_square(name)] = char
    return Board.from_string("".join(cells) + " X")


def test_phases() -> None:
    centre_b, centre_w = ["e4", "d5", "e5"], ["d4", "c4"]
    assert phase(Board()) == OPENING
    assert phase(board_with(centre_b, centre_w)) == OPENING
    assert phase(board_with([*centre_b, "c3"], centre_w)) == OPENING  # c3 is inside
    assert phase(board_with(centre_b, [*centre_w, "a4"])) == MIDGAME  # a disc on an edge
    assert phase(board_with([*centre_b, "a1"], [*centre_w, "a4"])) == MIDGAME  # one corner
    assert phase(board_with([*centre_b, "a1"], [*centre_w, "h8"])) == ENDGAME  # two corners
    cornerless = Board.from_string("-" + "X" * 6 + "-" + "X" * 24 + "O" * 24 + "-" * 8 + " X")
    assert phase(cornerless) == ENDGAME  # 10 empties, no corner
    eleven = Board.from_string("-" + "X" * 6 + "-" + "X" * 23 + "-" + "O" * 24 + "-" * 8 + " X")
    assert phase(eleven) == MIDGAME


def test_victory_plays_the_best_minimax_move_and_never_mutates() -> None:
    for board in sampled_positions(21, 6):
        before = (board.key(), board.ply)
        player = VictoryPlayer(seed=0)
        move = player.choose(board)
        assert (board.key(), board.ply) == before
        values = move_values(board)
        assert move.square is not None and values[move.square] == max(values.values())


def test_move_number_counts_discs_not_passes() -> None:
    board = Board()
    assert move_number(board) == 1
    for ply in range(10):
        board.push(next(iter(board.legal_moves)))
        assert move_number(board) == ply + 2
    passing = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- O")
    number = move_number(passing)
    passing.push(Move(None))
    assert move_number(passing) == number  # a pass is not a move of the count


@pytest.mark.parametrize("handicap", [1, 2, 3, 4])
def test_move_number_counts_moves_played_after_a_handicap(handicap: int) -> None:
    board = Board(handicap=handicap)
    assert move_number(board) == 1  # the corner discs are not moves
    for ply in range(6):
        board.push(next(iter(board.legal_moves)))
        assert move_number(board) == ply + 2


def test_move_number_counts_the_placements_of_the_original_start() -> None:
    board = OriginalReversiBoard()
    assert move_number(board) == 1
    for ply in range(8):
        board.push(next(iter(board.legal_moves)))
        assert move_number(board) == ply + 2
    assert not board.in_placement_phase()


def test_thresholds_scale_with_the_board() -> None:
    assert [scaled(n, Board) for n in (EXPECTATION_FROM, *SURPRISE_WINDOW)] == [20, 30, 35]
    assert [scaled(n, MiniBoard) for n in (EXPECTATION_FROM, *SURPRISE_WINDOW)] == [11, 16, 19]
    assert [scaled(n, Board4x4) for n in (EXPECTATION_FROM, *SURPRISE_WINDOW)] == [4, 6, 7]
    assert move_number(MiniBoard()) == move_number(Board4x4()) == 1
    # each board's own corners and stars (b2 of 6x6 is the grid's c3)
    assert sorted(MiniBoard.square_name(x) for x in stars(MiniBoard).values()) == [
        "b2", "b5", "e2", "e5"]
    assert sorted(Board4x4.square_name(x) for x in stars(Board4x4).values()) == [
        "b2", "b3", "c2", "c3"]


def play_program(program: AmusementPlayer, seed: int, kind: type[Board] = Board,
                 opponent: str = "random") -> list[tuple[int, str, Board, Move]]:
    """A game of ``program`` against ``opponent``; (move number, kind, board before, move)
    of the program's moves."""
    other = make_player(opponent, seed=seed + 100)
    board = kind()
    log = []
    while not board.is_game_over():
        player = program if (board.turn.name == "BLACK") == (seed % 2 == 0) else other
        number = move_number(board)
        before = board.copy()
        move = player.choose(board)
        if player is program:
            log.append((number, program.last_kind, before, move))
        board.push(move)
    return log


def play_amusement(seed: int) -> tuple[list[tuple[int, str, Board, Move]], AmusementPlayer]:
    """A game of amusement against random; (move number, kind, board before, move) of its
    moves."""
    program = AmusementPlayer(seed=seed)
    return play_program(program, seed), program


def offers_corner(board: Board) -> bool:
    return any(hands_corner(board.copy(), sq) is not None for sq in stars(board).values()
               if board.legal_moves_mask() >> sq & 1)


def test_expectation_move_rules() -> None:
    fired_games = 0
    for seed in range(8):
        log, _ = play_amusement(seed)
        fired = [(n, b, m) for n, kind, b, m in log if kind == EXPECTATION]
        assert len(fired) <= 1
        if not fired:
            continue
        fired_games += 1
        number, before, move = fired[0]
        assert number >= EXPECTATION_FROM and phase(before) == MIDGAME
        assert move.square in stars(before).values()
        corner = hands_corner(before.copy(), move.square)
        after = before.copy()
        after.push(move)
        assert corner is not None and after.legal_moves_mask() >> corner & 1
        # the first chance: no earlier midgame turn from move 20 had such a star move
        for n, _kind, b, _ in log:
            if b.ply >= before.ply:
                break
            if n >= EXPECTATION_FROM and phase(b) == MIDGAME:
                assert not offers_corner(b)
    assert fired_games >= 3


def test_surprise_move_is_once_in_window_and_minimax_worst() -> None:
    low, high = SURPRISE_WINDOW
    fired_games = 0
    for seed in range(8):
        log, _ = play_amusement(seed)
        fired = [(n, b, m) for n, kind, b, m in log if kind == SURPRISE]
        assert len(fired) <= 1
        if not fired:
            continue
        fired_games += 1
        number, before, move = fired[0]
        assert low <= number <= high and phase(before) == MIDGAME
        values = move_values(before)
        assert move.square is not None and values[move.square] == min(values.values())
        earlier = [n for n, kind, b, _ in log if low <= n and b.ply < before.ply
                   and len(b.legal_moves) >= 2 and phase(b) == MIDGAME and kind != EXPECTATION]
        assert not earlier  # its first midgame turn in the window with a choice
    assert fired_games >= 3


def test_planned_moves_only_in_the_midgame() -> None:
    """「中盤において異なる戦略を見せる」: at a turn where a planned move would be due but the
    position is not in the midgame, the program plays as victory does."""
    low, high = SURPRISE_WINDOW
    checked = 0
    for seed in range(12):
        log = play_program(AmusementPlayer(seed=seed), seed, opponent="greedy")
        kinds = [kind for _n, kind, _b, _m in log]
        for n, kind, before, move in log:
            if kind in (EXPECTATION, SURPRISE):
                assert phase(before) == MIDGAME
            index = [b.ply for _n, _k, b, _m in log].index(before.ply)
            due = (low <= n <= high and SURPRISE not in kinds[:index]
                   and len(before.legal_moves) >= 2) or (
                n >= EXPECTATION_FROM and EXPECTATION not in kinds[:index]
                and offers_corner(before))
            if due and phase(before) != MIDGAME:
                checked += 1
                assert kind == NORMAL
                victory = move_values(before)
                assert move.square is not None
                assert victory[move.square] == max(victory.values())
    assert checked >= 3


def test_amusement_scales_its_moves_to_a_small_board() -> None:
    fired = {EXPECTATION: 0, SURPRISE: 0}
    for seed in range(4):
        log = play_program(AmusementPlayer(seed=seed), seed, MiniBoard)
        for n, kind, before, _move in log:
            if kind == EXPECTATION:
                fired[kind] += 1
                assert n >= 11 and phase(before) == MIDGAME
            if kind == SURPRISE:
                fired[kind] += 1
                assert 16 <= n <= 19 and phase(before) == MIDGAME
    assert fired[EXPECTATION] >= 2 and fired[SURPRISE] >= 2


def test_swing_surprise_is_placed_where_the_evaluation_swings() -> None:
    low, high = SURPRISE_WINDOW
    fired_games = differs = 0
    for seed in range(10):
        program = make_player("amusement:swing", seed=seed)
        assert isinstance(program, AmusementPlayer) and program.name == "amusement:swing"
        log = play_program(program, seed, opponent="greedy")  # play_program checks legality
        fired = [(n, b, m) for n, kind, b, m in log if kind == SURPRISE]
        assert len(fired) <= 1
        if not fired:
            continue
        fired_games += 1
        number, before, move = fired[0]
        assert low <= number <= high and phase(before) == MIDGAME
        drops = swing_drops(before.copy())
        assert move.square is not None and drops[move.square] == max(drops.values())
        assert drops[move.square] >= SWING_MIN or number >= high - 1
        for n, kind, b, _m in log:  # no earlier turn of the window offered a sharp swing
            if b.ply < before.ply and low <= n and phase(b) == MIDGAME and kind != EXPECTATION \
                    and len(b.legal_moves) >= 2:
                assert max(swing_drops(b.copy()).values()) < SWING_MIN
        values = move_values(before)
        differs += values[move.square] != min(values.values())
        assert planned_moves_done(_after(before, move), SWING)[1] or _over(before, move)
    assert fired_games >= 4 and differs >= 1


def _after(before: Board, move: Move) -> Board:
    """``before`` + ``move`` + the opponent's first moves until it is the mover's turn."""
    after = before.copy()
    after.push(move)
    while not after.is_game_over() and after.turn is not before.turn:
        after.push(next(iter(after.legal_moves)))
    return after


def _over(before: Board, move: Move) -> bool:
    return _after(before, move).is_game_over()


def test_amusement_reads_its_planned_moves_from_the_record() -> None:
    """A fresh program (a server restart) or a take-back must not make either planned move
    fire twice or be lost: the record says whether each has been played."""
    seed = next(s for s in range(10) if play_amusement(s)[1].surprise_done)
    log, program = play_amusement(seed)
    program.choose(Board())
    assert not program.surprise_done and not program.expectation_done
    kinds = [kind for _n, kind, _b, _m in log]
    assert kinds.count(SURPRISE) == 1
    for index, (_n, kind, before, move) in enumerate(log):
        # a new program at every turn of the game makes the same kind of choice as the one
        # that played it (ties among ordinary moves follow the seeded generator)
        fresh = AmusementPlayer(seed=seed)
        chosen = fresh.choose(before)
        assert fresh.last_kind == kind, index
        if kind in (SURPRISE, EXPECTATION):
            assert chosen == move, index
        # ...and, after a take-back to just after a planned move, a fresh one knows it
        if kind in (SURPRISE, EXPECTATION):
            after = _after(before, move)
            if after.is_game_over():
                continue
            expectation, surprise = planned_moves_done(after)
            assert surprise if kind == SURPRISE else expectation


def test_weighted_kernel_signatures_have_no_float() -> None:
    from hasamigo._kernels.weighted import evaluate_entry, search

    move_values(Board(), 2)
    static_value(Board())
    for kernel in (search, evaluate_entry):
        assert kernel.signatures
        for sig in kernel.signatures:
            assert "float" not in str(sig), sig
        for result in kernel.nopython_signatures:
            assert "float" not in str(result.return_type)


def test_square_total_is_the_table_over_each_sides_discs() -> None:
    from hasamigo.engine.players.paper import MIDGAME_WEIGHTS, square_total

    board = Board()
    player = make_player("random", seed=4)
    while not board.is_game_over():
        for colour in (BLACK, WHITE):
            mine, theirs = board.discs(colour), board.discs(colour.other)
            naive = sum(int(MIDGAME_WEIGHTS[s]) for s in range(64) if mine >> s & 1) - sum(
                int(MIDGAME_WEIGHTS[s]) for s in range(64) if theirs >> s & 1)
            assert square_total(board, colour) == naive
        board.push(player.choose(board))


def test_the_windows_public_api_says_what_the_program_does() -> None:
    """The surprise window's rules are public (the study reads the treatment with them):
    the paper's window (moves 30-35 of the game) holds whatever the phase; the project's
    midgame window also needs the midgame phase; a turn past move 35 is in neither."""
    from hasamigo.engine.players import paper

    assert not hasattr(paper, "_surprise_due") and not hasattr(paper, "_offers_corner")
    assert paper.SURPRISE_WINDOWS == (paper.MOVES_WINDOW, paper.MIDGAME_WINDOW)
    seen = {ENDGAME: 0, MIDGAME: 0}
    for board in sampled_positions(17, 400, 26, 40):
        n = move_number(board)
        in_moves = paper.in_window(board, n, paper.MOVES_WINDOW)
        in_midgame = paper.in_window(board, n, paper.MIDGAME_WINDOW)
        assert in_moves == (30 <= n <= 35)
        assert in_midgame == (in_moves and phase(board) == MIDGAME)
        if in_moves:
            seen[phase(board)] = seen.get(phase(board), 0) + 1
            choice = len(board.legal_moves) >= 2
            assert paper.surprise_due(board, n, window=paper.MOVES_WINDOW) == choice
            assert paper.surprise_due(board, window=paper.MIDGAME_WINDOW) == (
                choice and in_midgame)
    assert seen[ENDGAME] and seen[MIDGAME]  # both kinds of turn were met
    with pytest.raises(ValueError, match="surprise window"):
        paper.in_window(Board(), 30, "late")
