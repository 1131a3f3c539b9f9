"""``hasamigo nboard``: the NBoard protocol (version 2) session, in process and as a real
subprocess talked to line by line.

The protocol's facts come from Chris Welty's "NBoard Protocol" (protocol.htm in the
NBoard distribution, http://www.orbanova.com/nboard/; version 1 at
https://github.com/weltyc/ntest/blob/master/instructions/Protocol.htm). Its example
session is replayed below: the GUI's lines as published, our answers checked for the
shape the protocol requires (not for Edax's move: only that ours is legal).
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from hasamigo import Board
from hasamigo.engine.protocols.external import EngineGone, ProcessTransport
from hasamigo.engine.protocols.nboard import NBoardSession, board_ggf, board_of_ggf
from hasamigo.move import BLACK, PASS, WHITE

#: the example session of the NBoard protocol description (the GUI's side, verbatim)
EXAMPLE_GAME = ("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]"
                "RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O----------"
                "----------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")
EXAMPLE_SESSION = ["nboard 2", f"set game {EXAMPLE_GAME}", "set depth 6", "ping 1", "go"]


def example_board() -> Board:
    board = Board()
    for move in ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"]:
        board.play(move)
    return board


def parse_go(line: str) -> tuple[str, float | None, float | None]:
    """``=== MOVE/EVAL/TIME`` -> its three fields (a forced move may be given alone)."""
    assert line.startswith("=== ")
    fields = line[4:].split("/")
    if len(fields) == 1:
        assert fields[0] == "PA"
        return "PA", None, None
    move, score, seconds = fields
    return move, float(score), float(seconds)


# ---- the session, in process ------------------------------------------------------------
def test_the_published_example_session_replayed() -> None:
    session = NBoardSession(level=1)
    out = [line for command in EXAMPLE_SESSION for line in session.handle(command)]
    assert out[0] == "set myname hasamigo6"  # the answer to 'set depth 6'
    assert out[1] == "pong 1"
    assert out[-1].startswith("=== ")
    assert any(line.startswith("status ") for line in out[2:-1])
    nodestats = [line for line in out if line.startswith("nodestats ")]
    assert len(nodestats) == 1
    nodes, seconds = nodestats[0].split()[1:]
    assert int(nodes) > 0 and float(seconds) >= 0
    move, score, _ = parse_go(out[-1])
    board = example_board()
    assert session.board.key() == board.key()  # 'go' does not play the move
    assert board.is_legal(board.parse_move(move))
    assert score is not None and -64 <= score <= 64


def test_set_game_reads_the_position_at_the_end_of_the_game() -> None:
    board = example_board()
    assert board_of_ggf(EXAMPLE_GAME).key() == board.key()
    assert board_of_ggf(board_ggf(board)).move_stack == board.move_stack


def test_board_ggf_keeps_a_set_up_start() -> None:
    start = Board.from_string("-" * 27 + "OX------XO" + "-" * 27 + " O")
    board = start.copy()
    board.play(next(iter(board.legal_moves)))
    again = board_of_ggf(board_ggf(board))
    assert again.key() == board.key()
    assert again.root().key() == start.key()


def test_a_set_game_with_an_illegal_move_is_refused_and_the_position_kept() -> None:
    session = NBoardSession(level=1)
    session.handle("move f5")
    before = session.board.key()
    out = session.handle("set game (;GM[Othello]TY[8]B[f5]W[a1];)")  # a1 flips nothing
    assert len(out) == 1 and out[0].startswith("status error: set game refused")
    assert "a1" in out[0]
    assert session.board.key() == before


@pytest.mark.parametrize("garbage", ["", "junk", "(;GM[Go]B[f5];)", "(;GM[Othello]B[f5]",
                                     "(;GM[Othello]BO[8 ***];)", "(;GM[Othello]B[zz];)"])
def test_a_set_game_with_garbage_is_refused(garbage: str) -> None:
    session = NBoardSession(level=1)
    out = session.handle(f"set game {garbage}")
    assert len(out) == 1 and out[0].startswith("status error: set game refused")
    assert "\n" not in out[0]
    assert session.board.key() == Board().key()


def test_unknown_commands_are_ignored_and_the_session_goes_on() -> None:
    session = NBoardSession(level=1)
    for line in ["xyzzy", "set colour blue", "   ", "nboard", "nboard two", "\x00\x01",
                 "hint many", "set depth deep", "set contempt lots", "move", "move f5/x/y/z"]:
        out = session.handle(line)
        assert all(o.startswith("status") for o in out)  # ignored, or refused in a status
    assert session.handle("ping 3") == ["pong 3"]


def test_move_takes_the_eval_and_time_form_and_refuses_illegal_moves() -> None:
    session = NBoardSession(level=1)
    assert session.handle("move F5/1.25/3.5") == []
    assert session.board.move_stack == [session.board.parse_move("f5")]
    out = session.handle("move f5")
    assert out[0].startswith("status error: move refused") and "f5" in out[0]
    assert session.board.ply == 1


def test_hint_gives_n_search_lines_best_first_then_status() -> None:
    session = NBoardSession(level=2)
    session.handle(f"set game {EXAMPLE_GAME}")
    out = session.handle("hint 3")
    searches = [line.split() for line in out if line.startswith("search ")]
    assert len(searches) == min(3, len(session.board.legal_moves))
    assert out[-1] == "status"
    scores = [float(words[2]) for words in searches]
    assert scores == sorted(scores, reverse=True)
    firsts = [session.board.parse_move(words[1].split("-")[0]) for words in searches]
    assert len(set(firsts)) == len(firsts)
    assert all(session.board.is_legal(m) for m in firsts)
    assert all(words[3] == "0" for words in searches)  # the protocol's fixed field


def test_hint_near_the_end_says_the_score_is_exact() -> None:
    board = Board.from_string("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO-- X")
    session = NBoardSession(level=1)
    session.board = board
    searches = [line for line in session.handle("hint 1") if line.startswith("search ")]
    assert searches and searches[0].split()[4] == "100%"


def test_go_on_a_forced_pass_and_on_a_finished_game() -> None:
    session = NBoardSession(level=1)
    session.board = Board.from_string("O" * 62 + "X- X")  # X has no move, O can play
    if session.board.legal_moves_mask():  # pragma: no cover - the position is a pass
        pytest.skip("not a pass position")
    assert session.handle("go") == ["=== PA"]
    session.board = Board.from_string("X" * 64 + " O")
    out = session.handle("go")
    assert len(out) == 1 and out[0].startswith("status error")


def test_set_depth_changes_the_strength_and_the_name() -> None:
    session = NBoardSession(level=8)
    assert session.handle("set depth 2") == ["set myname hasamigo2"]
    assert session.strength.depth == 2
    assert session.handle("set depth 0")[0].startswith("status error")
    assert session.strength.depth == 2


def test_set_threads_holds_for_the_rest_of_the_session() -> None:
    session = NBoardSession(level=2, threads=3)
    assert session.engine.threads == 3
    assert session.handle("set threads 2") == []
    assert session.engine.threads == 2
    session.handle("set game (;GM[Othello]TY[8];)")  # a new game: the threads stay
    session.handle("set depth 3")
    assert session.engine.threads == 2
    out = session.handle("hint 4")  # searched on the two threads
    assert sum(line.startswith("search ") for line in out) == 4
    for bad, words in (("0", "from 1 to 64, not 0"), ("65", "from 1 to 64, not 65"),
                       ("two", "needs a whole number"), ("", "needs a whole number")):
        answer = session.handle(f"set threads {bad}")
        assert len(answer) == 1 and answer[0].startswith("status error: set threads")
        assert words in answer[0], answer
    assert session.engine.threads == 2


def test_learn_contempt_and_ping() -> None:
    session = NBoardSession(level=1)
    assert session.handle("learn") == ["learned"]
    assert session.handle("set contempt 100") == []
    assert session.contempt == 100
    assert session.handle("ping 42") == ["pong 42"]


def test_analyze_gives_one_line_per_position_from_the_end_back() -> None:
    session = NBoardSession(level=1)
    for move in ["f5", "d6", "c3"]:
        session.handle(f"move {move}")
    out = session.handle("analyze")
    lines = [line.split() for line in out if line.startswith("analysis ")]
    assert [int(words[1]) for words in lines] == [3, 2, 1, 0]
    assert all(-64 <= float(words[2]) <= 64 for words in lines)
    assert out[-1] == "status"
    assert session.board.ply == 3  # the position is unchanged


def test_a_whole_game_in_process() -> None:
    session = NBoardSession(level=1)
    session.handle("nboard 2")
    while not session.board.is_game_over():
        move, _, _ = parse_go(session.handle("go")[-1])
        assert session.board.is_legal(session.board.parse_move(move))
        assert session.handle(f"move {move}") == []
    assert session.board.outcome() is not None


# ---- a real subprocess --------------------------------------------------------------
#: the first answer of a fresh process may wait for the kernels to compile (a cold cache)
FIRST_ANSWER = 180.0
ANSWER = 60.0


def start(*args: str) -> ProcessTransport:
    transport = ProcessTransport([sys.executable, "-m", "hasamigo", *args], env=os.environ)
    transport.start()
    return transport


def read_until(transport: ProcessTransport, done: Callable[[str], bool],
               timeout: float = ANSWER) -> list[str]:
    """Lines up to and including the first one ``done`` accepts."""
    deadline = time.monotonic() + timeout
    lines: list[str] = []
    while time.monotonic() < deadline:
        line = transport.receive(deadline - time.monotonic())
        if line is None:
            continue
        lines.append(line)
        if done(line):
            return lines
    raise AssertionError(f"no answer within {timeout} s; got {lines}")


@pytest.fixture(scope="module")
def engine() -> Iterator[ProcessTransport]:
    transport = start("nboard", "--level", "2")
    transport.send("nboard 2")
    transport.send("ping 0")
    read_until(transport, lambda line: line == "pong 0", FIRST_ANSWER)
    yield transport
    transport.close("quit")


def test_process_plays_a_whole_game(engine: ProcessTransport) -> None:
    engine.send("set game (;GM[Othello]TY[8];)")
    board = Board()
    n = 0
    while not board.is_game_over():
        n += 1
        engine.send(f"ping {n}")
        engine.send("go")
        lines = read_until(engine, lambda line: line.startswith("=== "))
        assert f"pong {n}" in lines and lines.index(f"pong {n}") < len(lines) - 1
        move = board.parse_move(parse_go(lines[-1])[0])
        board.play(move)
        engine.send(f"move {'PA' if move == PASS else board.move_name(move)}")
    engine.send("ping done")
    read_until(engine, lambda line: line == "pong done")
    assert board.outcome() is not None


def test_process_hints_on_a_position_set_by_ggf(engine: ProcessTransport) -> None:
    engine.send(f"set game {EXAMPLE_GAME}")
    engine.send("hint 2")
    lines = read_until(engine, lambda line: line == "status")
    searches = [line.split() for line in lines if line.startswith("search ")]
    board = example_board()
    assert len(searches) == 2
    assert all(board.is_legal(board.parse_move(words[1][:2])) for words in searches)


def test_process_survives_bad_commands(engine: ProcessTransport) -> None:
    for line in ["gibberish", "set game (;GM[Othello]B[a1];)", "move q9", "hint -3", "go go",
                 "set depth 9999", "é" * 300]:
        engine.send(line)
    engine.send("ping 77")
    lines = read_until(engine, lambda line: line == "pong 77")
    assert any("set game refused" in line for line in lines)
    engine.send("set depth 2")
    assert read_until(engine, lambda line: line.startswith("set myname")) == [
        "set myname hasamigo2"]


def test_process_ping_stops_a_long_search(engine: ProcessTransport) -> None:
    engine.send("set game (;GM[Othello]TY[8]B[f5];)")
    engine.send("set depth 30")  # far too deep to finish
    engine.send("go")
    time.sleep(1.0)
    started = time.monotonic()
    engine.send("ping 99")
    lines = read_until(engine, lambda line: line == "pong 99", 30)
    assert time.monotonic() - started < 30
    answers = [line for line in lines if line.startswith("=== ")]
    assert len(answers) == 1 and lines.index(answers[0]) < lines.index("pong 99")
    board = Board()
    board.play("f5")
    assert board.is_legal(board.parse_move(parse_go(answers[0])[0]))
    engine.send("set depth 2")
    read_until(engine, lambda line: line == "set myname hasamigo2")


def test_process_exits_cleanly_when_its_input_ends() -> None:
    transport = start("nboard", "--level", "1")
    process = transport.process
    assert process is not None and process.stdin is not None
    transport.send("ping 1")
    read_until(transport, lambda line: line == "pong 1", FIRST_ANSWER)
    process.stdin.close()  # the GUI went away
    assert process.wait(timeout=30) == 0
    with pytest.raises(EngineGone):
        read_until(transport, lambda line: False, 5)
    assert "Traceback" not in transport.said()
    transport.close()


def test_process_exits_cleanly_when_nobody_reads_its_output() -> None:
    process = subprocess.Popen([sys.executable, "-m", "hasamigo", "nboard", "--level", "1"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=os.environ)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("ping 1\n")
    process.stdin.flush()
    assert process.stdout.readline() == "pong 1\n"
    process.stdout.close()  # a killed pipe: its answers go nowhere
    try:
        for n in range(20):
            process.stdin.write(f"ping {n}\n")
            process.stdin.flush()
            time.sleep(0.05)
        process.stdin.close()
    except BrokenPipeError:  # it has already gone: that is the point
        pass
    assert process.wait(timeout=30) == 0
    assert process.stderr is not None
    assert "Traceback" not in process.stderr.read()


def test_the_games_clock_bounds_go() -> None:
    session = NBoardSession(level=10)
    # TI[0:01]: a second a side for the whole game, and Black used 0.9 s of it
    out = session.handle("set game (;GM[Othello]TY[8]TI[0:01]B[f5//0.9];)")
    assert out == []
    assert session.time_left is not None and session.time_left[BLACK] == pytest.approx(0.1)
    started = time.perf_counter()
    move, _, _ = parse_go(session.handle("go")[-1])
    assert time.perf_counter() - started < 5.0  # level 10 without a clock takes longer
    assert session.board.is_legal(session.board.parse_move(move))
    session.handle("move d6/0.00/0.5")
    assert session.time_left[WHITE] == pytest.approx(0.5)


def test_serve_runs_a_session_on_streams_until_the_input_ends() -> None:
    from hasamigo.engine.protocols.session import serve

    out = io.StringIO()
    assert serve(NBoardSession(level=1), io.StringIO("nboard 2\r\nping 1\nbogus\ngo\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "pong 1" and lines[-1].startswith("=== ")


def test_serve_stops_at_quit_and_on_a_closed_output() -> None:
    from hasamigo.engine.protocols.session import serve

    out = io.StringIO()
    assert serve(NBoardSession(level=1), io.StringIO("ping 1\nquit\nping 2\n"), out) == 0
    assert out.getvalue() == "pong 1\n"
    closed = io.StringIO()
    closed.close()
    assert serve(NBoardSession(level=1), io.StringIO("ping 1\nping 2\n"), closed) == 0


def test_the_command_refuses_a_level_out_of_range() -> None:
    from typer.testing import CliRunner

    from hasamigo.cli import app

    for command in ("nboard", "gtp"):
        result = CliRunner().invoke(app, [command, "--level", "11"])
        assert result.exit_code == 2 and "--level" in result.stderr


def test_levels_with_the_book_play_from_it() -> None:
    from hasamigo.engine.book import default_book

    book = default_book()
    if book is None or book.choose(Board(), random.Random(0)) is None:  # pragma: no cover
        pytest.skip("no opening book in this installation")
    out = NBoardSession(level=8).handle("go")
    assert out[0].startswith("book ") and out[-1].startswith("=== ")
    move, _, _ = parse_go(out[-1])
    assert Board().is_legal(Board().parse_move(move))
    assert not any(line.startswith("book ") for line in NBoardSession(level=6).handle("go"))
