"""The engine's Python surface: limits, analysis, play, hints, levels, OBF solving."""

from __future__ import annotations

from pathlib import Path

import pytest

from hasamigo import BLACK, PASS, WHITE, Board, Move
from hasamigo.engine import LEVELS, MAX_LEVEL, Engine, Limit, level, solve_obf_file

FFO = Path(__file__).parent / "data" / "ffo"
FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(table_size=1 << 16)


def test_limit_validation() -> None:
    assert Limit() == Limit(None, None, None)
    for bad in ({"depth": 0}, {"time": 0}, {"nodes": 0}):
        with pytest.raises(ValueError):
            Limit(**bad)  # type: ignore[arg-type]


def test_analyse_reports_a_legal_move_and_its_line(engine: Engine) -> None:
    board = Board()
    board.play("f5")
    a = engine.analyse(board, Limit(depth=4))
    assert a.move in board.legal_moves and a.pv[0] == a.move
    assert a.depth == 4 and not a.exact and a.mode == "midgame"
    assert a.nodes > 0 and a.seconds > 0 and a.nps > 0
    copy = board.copy()
    for move in a.pv:  # the whole PV is playable
        copy.push(move)
    assert len(a.lines) == 1 and a.lines[0].move == a.move


def test_play_does_not_touch_the_board(engine: Engine) -> None:
    board = Board()
    before = board.to_string()
    result = engine.play(board, Limit(depth=3))
    assert board.to_string() == before and result.move == result.analysis.move


def test_multipv_and_hints_score_every_move(engine: Engine) -> None:
    board = Board(FFO1)
    hints = engine.hints(board, Limit(depth=64))
    assert {h.move for h in hints} == set(board.legal_moves)
    scores = [h.score for h in hints]
    assert scores == sorted(scores, reverse=True)
    assert (hints[0].move, hints[0].score) == (Move.from_str("g8"), 18)
    assert dict((str(h.move), h.score) for h in hints)["h1"] == 12  # the file's second answer
    two = engine.analyse(board, Limit(depth=64), multipv=2)
    assert [line.score for line in two.lines] == [18, 12] and two.exact


def test_analyse_among_searches_only_those_moves(engine: Engine) -> None:
    board = Board(FFO1)
    hints = {h.move: h.score for h in engine.hints(board, Limit(depth=64))}
    others = [m for m in hints if m != Move.from_str("g8")]
    a = engine.analyse(board, Limit(depth=64), among=others)
    assert a.move in others and a.score == max(hints[m] for m in others) == 12
    one = engine.analyse(board, Limit(depth=4), among=[Move.from_str("a1"), others[0]])
    assert one.move == others[0]  # a1 is not legal here: only the legal ones are searched
    with pytest.raises(ValueError, match="none of the moves"):
        engine.analyse(board, Limit(depth=4), among=[Move.from_str("a1")])


def test_solve_modes(engine: Engine) -> None:
    board = Board(FFO1)
    exact = engine.solve(board)
    assert (exact.move, exact.score, exact.exact, exact.mode) == (Move.from_str("g8"), 18, True,
                                                                  "exact")
    wld = engine.solve(board, "wld")
    assert wld.score == 1 and wld.mode == "wld"
    with pytest.raises(ValueError, match="mode"):
        engine.solve(board, "fast")


def test_depth_beyond_the_empties_is_exact(engine: Engine) -> None:
    a = engine.analyse(Board(FFO1), Limit(depth=30))
    assert a.exact and a.score == 18 and a.mode == "exact"


def test_forced_pass_is_played() -> None:
    # White has no move here, Black has: White must pass
    board = Board("X" * 61 + "O-- O")
    assert board.must_pass()
    result = Engine(table_size=1 << 10).play(board)
    assert result.move == PASS and result.analysis.exact


def test_levels_table_and_play(engine: Engine) -> None:
    assert sorted(LEVELS) == list(range(1, MAX_LEVEL + 1))
    depths = [LEVELS[n].depth for n in sorted(LEVELS)]
    exacts = [LEVELS[n].exact_from for n in sorted(LEVELS)]
    assert depths == sorted(depths) and exacts == sorted(exacts)
    assert all(lv.wld_from >= lv.exact_from for lv in LEVELS.values())
    with pytest.raises(ValueError):
        level(MAX_LEVEL + 1)
    board = Board()
    board.play("f5")
    for n in (1, 3, 5):
        assert engine.play_level(board, n).move in board.legal_moves
    assert engine.play_level(Board(FFO1), MAX_LEVEL).move == Move.from_str("g8")


def test_game_over_and_unsupported_rules(engine: Engine) -> None:
    with pytest.raises(ValueError, match="over"):
        engine.analyse(Board("X" * 64 + " O"))
    with pytest.raises(ValueError, match="disc limit"):
        engine.analyse(Board(disc_limit=10))


def test_a_strong_level_beats_a_weak_one() -> None:
    """Sanity of the evaluation: depth 4 wins most games against depth 1."""
    engine = Engine(table_size=1 << 16)
    wins = 0
    for game in range(4):
        board = Board()
        strong = BLACK if game % 2 == 0 else WHITE
        while not board.is_game_over():
            depth = 4 if board.turn is strong else 1
            board.push(engine.play(board, Limit(depth=depth)).move)
        outcome = board.outcome()
        assert outcome is not None
        wins += outcome.winner is strong
    assert wins >= 3


def test_solve_obf_file_shape() -> None:
    result = solve_obf_file(FFO / "fforum-1-19.obf", "exact", table_size=1 << 16)
    assert set(result) == {"positions", "total_seconds", "total_wall", "all_ok"}
    first = result["positions"][0]
    assert set(first) == {"index", "move", "score", "expected_score", "ok", "seconds", "wall",
                          "nodes"}
    assert (first["index"], first["move"], first["score"], first["expected_score"]) == (
        1, "g8", 18, 18)


def test_two_threads_solve_to_the_same_scores() -> None:
    """Two threads (the tree shared out): every FFO #1-#19 score and best move as
    the file gives them, and the same scores as one thread on seeded random positions."""
    import random

    from hasamigo.engine import read_obf

    two = Engine(table_size=1 << 16, threads=2)
    for rec in read_obf(Path(__file__).parent / "data" / "ffo" / "fforum-1-19.obf"):
        a = two.solve(rec.board)
        assert a.score == rec.best_score and a.move in rec.best_moves, rec.index
        assert a.pv[0] == a.move
    one = Engine(table_size=1 << 16)
    rng = random.Random(11)
    for _ in range(6):
        board = Board()
        while board.empties.bit_count() > 14 and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            continue
        a1, a2 = one.solve(board), two.solve(board)
        assert a1.score == a2.score
        child = board.copy()
        child.push(a2.move)  # the two-thread move is a best move
        assert -one.solve(child).score == a1.score if not child.is_game_over() else True
        one.clear()  # the tables hold the exact solves: fixed-depth scores would use them
        two.clear()
        h1 = one.hints(board, Limit(depth=4))
        h2 = two.hints(board, Limit(depth=4))
        assert sorted((h.move.square or -1, h.score) for h in h1) == sorted(
            (h.move.square or -1, h.score) for h in h2)


def test_threads_are_checked() -> None:
    for bad in (0, 65, 1.5, True):
        with pytest.raises(ValueError, match="threads"):
            Engine(table_size=1 << 10, threads=bad)  # type: ignore[arg-type]
