"""``hasamigo gtp``: the GTP session (the subset Othello engines use), in process and as a
real subprocess talked to line by line.

The protocol's facts (answers ``=[id] ...`` / ``?[id] ...`` ended by an empty line, ids
echoed, ``#`` comments) come from "GTP - Go Text Protocol, version 2, draft 2",
https://www.lysator.liu.se/~gunnar/gtp/.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Iterator

import pytest

from hasamigo import Board
from hasamigo.engine.protocols.external import ProcessTransport
from hasamigo.engine.protocols.gtp import GTPSession
from hasamigo.move import PASS

REQUIRED = ["boardsize", "clear_board", "play", "genmove", "undo", "showboard", "time_settings",
            "time_left", "quit", "protocol_version", "name", "version", "list_commands"]


def ok(answer: list[str]) -> str:
    """The text of a success answer (checking its shape)."""
    assert answer[-1] == "" and answer[0].startswith("="), answer
    first = answer[0].split(maxsplit=1)
    return "\n".join([first[1] if len(first) > 1 else "", *answer[1:-1]]).strip()


def refused(answer: list[str]) -> str:
    assert answer[-1] == "" and answer[0].startswith("?") and len(answer) == 2, answer
    return answer[0]


# ---- the session, in process ------------------------------------------------------------
def test_answers_echo_the_id_and_end_with_an_empty_line() -> None:
    session = GTPSession(level=1)
    assert session.handle("7 protocol_version") == ["=7 2", ""]
    assert session.handle("8 frobnicate") == ["?8 unknown command", ""]
    assert session.handle("name") == ["= hasamigo", ""]
    assert session.handle("# a comment only") == []
    assert session.handle("   ") == []
    assert ok(session.handle("version  # trailing comment"))


def test_list_commands_and_known_command() -> None:
    session = GTPSession(level=1)
    listed = ok(session.handle("list_commands")).split("\n")
    assert set(REQUIRED) <= set(listed)
    assert ok(session.handle("known_command genmove")) == "true"
    assert ok(session.handle("known_command castle")) == "false"


def test_hasamigo_threads_sets_the_search_threads_for_the_session() -> None:
    session = GTPSession(level=2)
    assert "hasamigo-threads" in ok(session.handle("list_commands")).split("\n")
    assert ok(session.handle("known_command hasamigo-threads")) == "true"
    assert ok(session.handle("hasamigo-threads")) == "1"
    assert ok(session.handle("3 hasamigo-threads 2")) == ""
    assert session.engine.threads == 2
    ok(session.handle("clear_board"))  # a new game: the threads stay
    ok(session.handle("play black f5"))
    move = ok(session.handle("genmove white"))  # searched on the two threads
    assert move in ("d6", "f6", "f4")
    assert ok(session.handle("hasamigo-threads")) == "2"
    assert "from 1 to 64, not 0" in refused(session.handle("hasamigo-threads 0"))
    assert "from 1 to 64, not 65" in refused(session.handle("hasamigo-threads 65"))
    assert "syntax error" in refused(session.handle("hasamigo-threads two"))
    assert "syntax error" in refused(session.handle("hasamigo-threads 1 2"))
    assert session.engine.threads == 2
    assert GTPSession(level=1, threads=4).engine.threads == 4


def test_only_an_8x8_board() -> None:
    session = GTPSession(level=1)
    assert refused(session.handle("boardsize 10")) == "? unacceptable size"
    assert refused(session.handle("boardsize")).startswith("? syntax error")
    assert ok(session.handle("boardsize 8")) == ""


def test_play_refuses_moves_out_of_turn_and_illegal_ones() -> None:
    session = GTPSession(level=1)
    assert "not white to move" in refused(session.handle("play white d3"))
    assert refused(session.handle("play black a1")).startswith("? illegal move")
    assert refused(session.handle("play black z9")).startswith("? syntax error")
    assert refused(session.handle("play purple f5")).startswith("? syntax error")
    assert refused(session.handle("play black")).startswith("? syntax error")
    assert session.board.ply == 0
    assert ok(session.handle("play B F5")) == ""
    assert session.board.move_stack == [session.board.parse_move("f5")]


def test_genmove_plays_its_move_and_undo_takes_it_back() -> None:
    session = GTPSession(level=1)
    move = ok(session.handle("genmove black"))
    assert session.board.move_stack == [Board().parse_move(move)]
    assert "not white" not in move
    assert refused(session.handle("genmove black")).startswith("? not black to move")
    assert ok(session.handle("undo")) == ""
    assert session.board.ply == 0
    assert refused(session.handle("undo")) == "? cannot undo"


def test_a_forced_pass_is_played_for_the_side_that_must_pass() -> None:
    session = GTPSession(level=1)
    session.board = Board.from_string("O" * 62 + "X- X")  # Black has no move
    assert not session.board.legal_moves_mask()
    answer = ok(session.handle("genmove white"))  # White moves after Black's pass
    assert session.board.move_stack[0] == PASS
    assert session.board.move_stack[1] == session.board.parse_move(answer)
    assert ok(session.handle("undo")) == ""
    assert session.board.ply == 0  # the pass went with the move
    assert ok(session.handle("genmove black")) == "pass"


def test_showboard_shows_the_discs_without_empty_lines() -> None:
    session = GTPSession(level=1)
    session.handle("play black f5")
    answer = session.handle("showboard")
    text = ok(answer)
    assert all(line.strip() for line in answer[1:-1])
    assert text.count("X") == 4 and text.count("O") == 1


def test_time_settings_and_time_left_let_genmove_answer() -> None:
    session = GTPSession(level=10)  # depth 16 without a clock: far more than a second
    rng = random.Random(3)
    for _ in range(20):  # a middle game out of the opening book
        colour = "black" if session.board.turn.symbol == "X" else "white"
        move = rng.choice(list(session.board.legal_moves))
        ok(session.handle(f"play {colour} {session.board.move_name(move)}"))
    before = session.board.copy()
    assert ok(session.handle("time_settings 60 0 0")) == ""
    assert ok(session.handle("time_left black 1 0")) == ""
    started = time.perf_counter()
    move_text = ok(session.handle("genmove black"))
    assert time.perf_counter() - started < 5.0
    assert before.is_legal(before.parse_move(move_text))
    assert refused(session.handle("time_left black soon 0")).startswith("? syntax error")
    assert refused(session.handle("time_settings 1 2")).startswith("? syntax error")


def test_clear_board_and_quit() -> None:
    session = GTPSession(level=1)
    session.handle("play black f5")
    assert ok(session.handle("clear_board")) == ""
    assert session.board.ply == 0
    assert session.handle("quit") == ["=", ""]
    assert session.finished


def test_a_whole_game_in_process() -> None:
    session = GTPSession(level=1)
    colours = {"X": "black", "O": "white"}
    while not session.board.is_game_over():
        colour = colours[session.board.turn.symbol]
        before = session.board.ply
        answer = ok(session.handle(f"genmove {colour}"))
        assert session.board.ply == before + 1
        assert session.board.peek() == session.board.parse_move(answer)
    assert session.board.outcome() is not None


# ---- a real subprocess --------------------------------------------------------------
FIRST_ANSWER = 180.0
ANSWER = 60.0


def exchange(transport: ProcessTransport, command: str, timeout: float = ANSWER) -> list[str]:
    """Send ``command``; its answer's lines, up to and including the empty line."""
    transport.send(command)
    deadline = time.monotonic() + timeout
    lines: list[str] = []
    while time.monotonic() < deadline:
        line = transport.receive(deadline - time.monotonic())
        if line is None:
            continue
        if not lines and not line:
            continue
        lines.append(line)
        if not line:
            return lines
    raise AssertionError(f"no answer to {command!r} within {timeout} s; got {lines}")


@pytest.fixture(scope="module")
def engine() -> Iterator[ProcessTransport]:
    transport = ProcessTransport([sys.executable, "-m", "hasamigo", "gtp", "--level", "2"],
                                 env=os.environ)
    transport.start()
    assert ok(exchange(transport, "1 protocol_version", FIRST_ANSWER)) == "2"
    yield transport
    transport.close("quit")


def test_process_plays_a_whole_game_with_undo(engine: ProcessTransport) -> None:
    assert ok(exchange(engine, "boardsize 8")) == ""
    assert ok(exchange(engine, "clear_board")) == ""
    board = Board()
    colours = {"X": "black", "O": "white"}
    undone = False
    while not board.is_game_over():
        colour = colours[board.turn.symbol]
        answer = ok(exchange(engine, f"genmove {colour}"))
        move = board.parse_move(answer)
        if not board.legal_moves_mask():
            assert move == PASS
        board.play(move)
        if board.ply == 10 and not undone:  # take it back and ask again
            assert ok(exchange(engine, "undo")) == ""
            board.pop()
            undone = True
    assert undone and board.outcome() is not None
    assert ok(exchange(engine, "genmove black")) == "pass"


def test_process_takes_its_threads_from_the_command_line() -> None:
    transport = ProcessTransport([sys.executable, "-m", "hasamigo", "gtp", "--level", "1",
                                  "--threads", "2"], env=os.environ)
    transport.start()
    try:
        assert ok(exchange(transport, "hasamigo-threads", FIRST_ANSWER)) == "2"
    finally:
        transport.close("quit")


def test_process_refuses_bad_commands_and_goes_on(engine: ProcessTransport) -> None:
    exchange(engine, "clear_board")
    assert refused(exchange(engine, "5 boardsize 10")) == "?5 unacceptable size"
    assert refused(exchange(engine, "play white d3")).startswith("? illegal move")
    assert refused(exchange(engine, "what is this")) == "? unknown command"
    assert refused(exchange(engine, "play black q99")).startswith("? syntax error")
    assert ok(exchange(engine, "9 name")) == "hasamigo"


def test_process_exits_cleanly_on_quit_and_on_end_of_input() -> None:
    transport = ProcessTransport([sys.executable, "-m", "hasamigo", "gtp", "--level", "1"],
                                 env=os.environ)
    transport.start()
    process = transport.process
    assert process is not None and process.stdin is not None
    assert ok(exchange(transport, "name", FIRST_ANSWER)) == "hasamigo"
    assert exchange(transport, "quit") == ["=", ""]
    assert process.wait(timeout=30) == 0
    transport.close()
    transport = ProcessTransport([sys.executable, "-m", "hasamigo", "gtp", "--level", "1"],
                                 env=os.environ)
    transport.start()
    process = transport.process
    assert process is not None and process.stdin is not None
    ok(exchange(transport, "name", FIRST_ANSWER))
    process.stdin.close()
    assert process.wait(timeout=30) == 0
    assert "Traceback" not in transport.said()
    transport.close()
