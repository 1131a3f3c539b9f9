"""Perfect play on the small boards: the table of solved positions and the player that uses
it (``engine:top`` on 4×4 and 6×6), checked against a plain negamax over the rules on 4×4
and against the shipped 6×6 table's own structure."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hasamigo._kernels.smallboard import PASS_MOVE
from hasamigo.board import Board
from hasamigo.cli import app
from hasamigo.engine import MAX_LEVEL
from hasamigo.engine.book import canonical
from hasamigo.engine.perfect import (
    DEFAULT_PLIES,
    FORMAT,
    LIVE_EMPTIES,
    PerfectPlayer,
    PerfectTable,
    build_table,
    default_table,
)
from hasamigo.engine.players import EnginePlayer, RandomPlayer
from hasamigo.engine.smallboard import SmallSolver
from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.variants import Board4x4, MiniBoard

runner = CliRunner()


def official(board: Board) -> int:
    """The finished game's official disc difference from the side to move's view."""
    outcome = board.outcome()
    assert outcome is not None
    return outcome.disc_difference if board.turn is BLACK else -outcome.disc_difference


def naive_value(board: Board) -> int:
    """Exact value by plain negamax over :class:`Board`, side to move's view."""
    return _naive(type(board), board.black, board.white, board.turn)


@functools.cache
def _naive(variant: type[Board], black: int, white: int, turn: Color) -> int:
    here = variant()
    here.black, here.white, here.turn = black, white, turn
    if here.is_game_over():
        return official(here)
    best = -99
    for move in list(here.legal_moves):
        here.push(move)
        best = max(best, -_naive(variant, here.black, here.white, here.turn))
        here.pop()
    return best


def pair(board: Board) -> tuple[int, int]:
    return board.discs(board.turn), board.discs(board.turn.other)


def test_4x4_table_agrees_with_negamax() -> None:
    """Every entry keeps the start's exact value for its colour (Black -10, White +10),
    which every position the table's player meets is worth at least."""
    solver = SmallSolver(Board4x4, threads=1, table_rows=1 << 12)
    table = build_table(Board4x4, 12, solver=solver)
    assert len(table) > 10
    start = Board4x4()
    root = table.get(*pair(start))
    assert root is not None and root.value == naive_value(start) == -10
    checked = 0
    for board in player_positions(Board4x4, table, 12):
        entry = table.get(*pair(board))
        assert entry is not None, board.to_string()
        assert entry.value == (-10 if board.turn is BLACK else 10)
        assert naive_value(board) >= entry.value
        board.push(PASS if entry.move == PASS_MOVE else Move(entry.move))
        assert -naive_value(board.copy(stack=False)) >= entry.value  # the move keeps it
        checked += 1
    assert checked == len(table)


def player_positions(variant: type[Board], table: PerfectTable,
                     plies: int) -> Iterator[Board]:
    """Every position (one of each set turned) where the table's player is to move within
    ``plies`` plies, the player following the table and the opponent playing anything."""
    seen: set[tuple[int, int]] = set()
    todo = [variant()]
    first = variant()
    for move in list(first.legal_moves):
        reply = first.copy()
        reply.push(move)
        todo.append(reply)
    while todo:
        board = todo.pop()
        if board.is_game_over():
            continue
        cp, co, _ = canonical(np.array([pair(board)[0]], dtype=np.uint64),
                              np.array([pair(board)[1]], dtype=np.uint64))
        key = (int(cp[0]), int(co[0]))
        if key in seen:
            continue
        seen.add(key)
        yield board.copy()
        entry = table.get(*pair(board))
        if entry is None or board.ply + 2 > plies:
            continue
        after = board.copy()
        after.push(PASS if entry.move == PASS_MOVE else Move(entry.move))
        if after.is_game_over():
            continue
        for move in list(after.legal_moves):
            reply = after.copy()
            reply.push(move)
            todo.append(reply)


@pytest.mark.parametrize("colour", [BLACK, WHITE])
def test_top_level_keeps_the_4x4_value_against_every_reply(colour: Color) -> None:
    """engine:top (solving as it plays: 4×4 has no table) never lets the value drop,
    whatever the opponent plays: every line of the opponent's, walked to the end."""
    player = EnginePlayer(MAX_LEVEL)
    target = naive_value(Board4x4()) * (1 if colour is BLACK else -1)
    finals = []

    def walk(board: Board) -> None:
        if board.is_game_over():
            finals.append(official(board) * (1 if board.turn is colour else -1))
            return
        if board.turn is colour:
            move = player.choose(board)
            assert "perfect play" in (player.last_reason or "") or move.is_pass
            board.push(move)
            walk(board)
            board.pop()
            return
        for move in list(board.legal_moves):
            board.push(move)
            walk(board)
            board.pop()

    walk(Board4x4())
    assert len(finals) > 20
    assert min(finals) >= target
    assert target in finals  # the opponent's perfect lines reach the value exactly


def test_table_file_round_trip_and_bad_files(tmp_path: Path) -> None:
    solver = SmallSolver(Board4x4, threads=1, table_rows=1 << 12)
    table = build_table(Board4x4, 4, solver=solver)
    path = tmp_path / "t.npz"
    table.save(path)
    again = PerfectTable.load(path)
    assert again.entries == table.entries and again.board == "4x4" and again.plies == 4
    (tmp_path / "junk.npz").write_bytes(b"not a table")
    with pytest.raises(ParseError, match="cannot read"):
        PerfectTable.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", format=np.array("something-else"))
    with pytest.raises(ParseError, match=FORMAT):
        PerfectTable.load(tmp_path / "other.npz")
    with np.load(path) as data:
        arrays = dict(data)
    arrays["value"] = np.array([99] * len(arrays["value"]), dtype=np.int8)
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ParseError, match="out of range"):
        PerfectTable.load(tmp_path / "bad.npz")
    with pytest.raises(InvalidOptionError):
        build_table(MiniBoard, 2, solver=solver, table=table)


def test_cli_writes_and_resumes_a_table(tmp_path: Path) -> None:
    path = tmp_path / "four.npz"
    args = ["solve-board", "4x4", "--threads", "1", "--table", str(path), "--plies", "6",
            "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    made = json.loads(result.stdout)["table"]
    assert made["positions"] == len(PerfectTable.load(path)) > 0 and made["plies"] == 6
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["table"]["positions"] == made["positions"]
    text = runner.invoke(app, ["solve-board", "4x4", "--table", str(tmp_path / "no" / "t.npz")])
    assert text.exit_code != 0 and "no directory" in text.stderr


SHIPPED = default_table("6x6")


@pytest.mark.skipif(SHIPPED is None, reason="no 6×6 table in this installation")
def test_shipped_6x6_table_covers_every_reply() -> None:
    """The shipped table holds the start (value -4: White wins 16–20) and every position
    the player can meet to move within its plies, with a legal move for each."""
    assert SHIPPED is not None and SHIPPED.plies == DEFAULT_PLIES["6x6"]
    start = MiniBoard()
    root = SHIPPED.get(*pair(start))
    assert root is not None and root.value == -4
    count = 0
    for board in player_positions(MiniBoard, SHIPPED, SHIPPED.plies):
        entry = SHIPPED.get(*pair(board))
        assert entry is not None, f"missing at ply {board.ply}: {board.to_string()}"
        if entry.move == PASS_MOVE:
            assert not board.legal_moves_mask()
        else:
            assert board.is_legal(Move(entry.move))
        count += 1
    assert count == len(SHIPPED)
    # past the table the player solves: the table reaches down to the live solver
    assert 36 - 4 - SHIPPED.plies - 1 <= LIVE_EMPTIES


@pytest.mark.slow
@pytest.mark.skipif(SHIPPED is None, reason="no 6×6 table in this installation")
def test_deepest_6x6_entries_solve_to_their_values() -> None:
    """A few of the table's deepest entries, solved again from scratch: each position is
    worth at least the value its entry keeps, and so is the position after its move."""
    assert SHIPPED is not None
    deepest = [b for b in player_positions(MiniBoard, SHIPPED, SHIPPED.plies)
               if b.ply >= SHIPPED.plies - 1][:3]
    assert deepest
    for board in deepest:
        solver = SmallSolver(MiniBoard, threads=2, table_rows=1 << 20)
        entry = SHIPPED.get(*pair(board))
        assert entry is not None and solver.value(*pair(board)) >= entry.value
        board.push(PASS if entry.move == PASS_MOVE else Move(entry.move))
        if not board.is_game_over():
            assert -solver.value(*pair(board)) >= entry.value
        solver.close()


@pytest.mark.slow
@pytest.mark.skipif(SHIPPED is None, reason="no 6×6 table in this installation")
@pytest.mark.parametrize("colour", [BLACK, WHITE])
def test_top_level_keeps_the_6x6_value_against_random(colour: Color) -> None:
    player, other = EnginePlayer(MAX_LEVEL), RandomPlayer(seed=7)
    board = MiniBoard()
    while not board.is_game_over():
        mover = player if board.turn is colour else other
        move = mover.choose(board)
        if mover is player and not move.is_pass:
            assert "perfect play" in (player.last_reason or "")
        board.push(move)
    player.close()
    mine = official(board) * (1 if board.turn is colour else -1)
    assert mine >= (-4 if colour is BLACK else 4)


def test_perfect_player_declines_far_positions_without_a_table() -> None:
    perfect = PerfectPlayer(MiniBoard, None, threads=1)
    assert perfect.exact(MiniBoard()) is None  # 32 empties, no table: not solved live
    perfect.close()
