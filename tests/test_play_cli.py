"""``hasamigo play``: a game in the terminal against a program or between two people.

Quick checks feed the prompt through typer's CliRunner (the program is the real
``random`` player, seeded, so that the person's script can be computed ahead); the clock
checks drive an injected wall clock; the last tests run the command in a real terminal
(a pty from the standard library), read each prompt and answer it.
"""

from __future__ import annotations

import os
import re
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.cli import app, console
from hasamigo.cli import play as play_module
from hasamigo.engine.players import make_player, player_spec
from hasamigo.game.clock import Clock
from hasamigo.game.controller import GameController
from hasamigo.game.result import Termination
from hasamigo.game.state import Phase
from hasamigo.storage import Database, GameRepository
from hasamigo.variants import find_variant

runner = CliRunner()
SAVED = re.compile(r"saved as game ([0-9a-f]{12}) in")
LINK = re.compile(r"open (http://\S+/games/([0-9a-f]{12})/join\?code=(\S+)) to keep this game "
                  r"in your browser's library")


@pytest.fixture(autouse=True)
def own_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's games go to its own database, never the user's (``HASAMIGO_DB``)."""
    path = tmp_path / "games.db"
    monkeypatch.setenv("HASAMIGO_DB", f"sqlite:///{path}")
    return path


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def stored(db: Path, output: str) -> GameController:
    """The game the command saved (its id is in the output)."""
    found = SAVED.search(output) or LINK.search(output)
    assert found is not None, output
    game_id = found.group(1) if found.re is SAVED else found.group(2)
    database = Database(f"sqlite:///{db}")
    try:
        loaded = GameRepository(database).load(game_id)
    finally:
        database.close()
    assert loaded is not None
    return loaded.game


def seeded_random(monkeypatch: pytest.MonkeyPatch, seed: int = 1) -> None:
    """The real ``random`` player, seeded the same in every game, so that a script can
    foresee its replies."""
    monkeypatch.setattr(play_module, "make_program",
                        lambda spec, _seed: make_player(spec, seed=seed))


def first_legal_script(seed: int = 1, variant: str = "standard"
                       ) -> tuple[list[str], Board]:
    """A person (Black) who always plays the first legal move against ``random`` seeded
    with ``seed``: what they type, and the final board."""
    cls = find_variant(variant)
    board = cls()
    program = make_player("random", seed=seed)
    typed: list[str] = []
    while not board.is_game_over():
        if board.must_pass():
            board.push(Move(None))
        elif board.turn is BLACK:
            move = next(iter(board.legal_moves))
            typed.append(cls.move_name(move))
            board.push(move)
        else:
            board.push(program.choose(board))
    return typed, board


# ---- quick checks through CliRunner -----------------------------------------------------
def test_a_game_against_random_to_the_end_is_saved_with_a_link(
        monkeypatch: pytest.MonkeyPatch, own_database: Path) -> None:
    seeded_random(monkeypatch)
    typed, board = first_legal_script()
    code, out, _ = run("--vs", "random", "--clock", "30", input="\n".join(typed) + "\n")
    assert code == 0, out
    outcome = board.outcome()
    assert outcome is not None
    assert "Game over: You" in out and outcome.__str__() in out
    assert "Random (white) plays" in out
    game = stored(own_database, out)
    assert game.phase is Phase.OVER and game.state.result_final
    assert game.board.move_stack == board.move_stack
    assert game.result is not None and (game.result.black, game.result.white) == (
        outcome.black, outcome.white)
    assert game.seat(BLACK).name == "You" and game.seat(WHITE).program == "random"
    link = LINK.search(out)
    assert link is not None and link.group(1).startswith("http://127.0.0.1:8000/games/")


def test_quit_and_end_of_input_exit_0_with_the_game_saved_as_it_stands(
        monkeypatch: pytest.MonkeyPatch, own_database: Path) -> None:
    seeded_random(monkeypatch)
    for ending in ("quit\n", ""):
        code, out, _ = run("--vs", "random", "--clock", "5", input="f5\n" + ending)
        assert code == 0, out
        assert "unfinished" in out
        game = stored(own_database, out)
        assert game.phase is Phase.PLAYING and len(game.board.move_stack) == 2
        # nobody is at the board: the clock waits for whoever takes the game over
        assert game.state.suspended


def test_two_people_play_a_whole_4x4_game() -> None:
    # Moves typed in the 4x4 board's own coordinates; passes are automatic; one illegal entry.
    cls = find_variant("4x4")
    game = cls()
    typed = ["a1"]  # illegal: flips nothing (refused, the game goes on)
    while not game.is_game_over():
        if game.must_pass():
            game.play("pass")
            continue
        move = next(iter(game.legal_moves))
        typed.append(cls.move_name(move))
        game.push(move)
    code, out, _ = run("--variant", "4x4", input="\n".join(typed) + "\n")
    assert code == 0, out
    outcome = game.outcome()
    assert outcome is not None
    assert "Game over" in out and str(outcome) in out
    assert "flips nothing" in out
    passes = sum(1 for move in game.move_stack if move.is_pass)
    assert out.count("passes (no legal move)") == passes


def test_undo_takes_back_the_move_and_the_reply(monkeypatch: pytest.MonkeyPatch,
                                                 own_database: Path) -> None:
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", input="f5\nundo\nundo\nquit\n")
    assert code == 0, out
    assert "Taken back: your last move and Random's reply." in out
    assert "black has no move to take back" in out  # the second undo
    game = stored(own_database, out)
    assert game.board.move_stack == [] and [e.kind for e in game.events].count("undo") == 1


def test_hint_gives_every_legal_move_with_a_score(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", input="hint\nquit\n")
    assert code == 0, out
    line = next(line for line in out.splitlines() if "hints (" in line)
    assert "depth 6" in line
    assert sorted(re.findall(r"\b([a-h][1-8]) [+-]\d+", line)) == ["c4", "d3", "e6", "f5"]


def test_an_official_game_refuses_hints_and_take_backs(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", "--official", input="hint\nf5\nundo\nquit\n")
    assert code == 0, out
    assert "no hints in an official game" in out
    assert "no take-backs in an official game" in out


def test_bad_input_gets_one_line_and_the_prompt_again(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", input="d5\nxyz\na1\nz9\n\nquit\n")
    assert code == 0, out
    assert "illegal move d5 for black: occupied" in out
    assert "illegal move a1 for black: flips nothing" in out
    assert "not a square of Othello 8×8: 'z9'" in out
    assert "unknown command 'xyz'" in out and "hint, undo, claim, resign" in " ".join(
        out.split())
    assert out.count("You (black) > ") == 6  # one prompt per line typed


def test_help_lists_the_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", input="help\nquit\n")
    assert code == 0
    for command in ("hint", "undo", "claim", "resign", "quit"):
        assert re.search(rf"^{command}\s", out, re.MULTILINE), command


def test_the_program_can_play_black(monkeypatch: pytest.MonkeyPatch, own_database: Path
                                    ) -> None:
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", "--colour", "white", input="quit\n")
    assert code == 0, out
    game = stored(own_database, out)
    assert game.seat(WHITE).name == "You" and len(game.board.move_stack) == 1


def test_fuse_ishi_asks_the_person_for_the_call(monkeypatch: pytest.MonkeyPatch,
                                                own_database: Path) -> None:
    seeded_random(monkeypatch)
    # The caller is whoever does not hide (drawn): a person who is asked answers "top";
    # otherwise "top" is an unknown command at the first move and changes nothing.
    code, out, _ = run("--vs", "random", "--colour", "fuse-ishi", input="top\nquit\n")
    assert code == 0, out
    game = stored(own_database, out)
    assert game.phase is Phase.PLAYING and game.state.seats is not None
    if "You hide the disc (drawn by lot)." in out:
        assert re.search(r"Random calls (top|bottom)\.", out)
    else:
        assert "Random hides the disc (drawn by lot)." in out
        assert "You call top." in out and "You: top or bottom > " in out
    assert "Colours: " in out


def test_threads_go_to_an_engine_level_and_its_name(own_database: Path) -> None:
    """``--threads 2`` against an engine level: the game keeps ``engine:1@2`` (the web app
    playing it on goes on with them) and names the program with its threads."""
    code, out, err = run("--vs", "engine:1", "--threads", "2", "--colour", "white",
                         input="quit\n")
    assert code == 0, out + err
    game = stored(own_database, out)
    program = game.seat(BLACK)
    assert program.program == "engine:1@2"
    assert program.name == "Engine level 1 on 2 threads"
    assert len(game.board.move_stack) == 1


def test_threads_given_twice_must_agree() -> None:
    def threaded(text: str, threads: int) -> str:
        return str(play_module.threaded_spec(player_spec(text), threads))

    assert threaded("engine:3", 1) == "engine:3"
    assert threaded("engine:top", 4) == "engine:top@4"
    assert threaded("engine:3@2", 2) == "engine:3@2"
    assert threaded("victory", 2) == "victory"  # the hints' threads only
    assert play_module.program_name("engine:top@4") == "Engine (top level) on 4 threads"
    code, _, err = run("--vs", "engine:3@2", "--threads", "3")
    assert code == 2 and "engine:3@2 says its threads" in err
    code, _, err = run("--vs", "engine:3@65")
    assert code == 2 and "'engine:3@65'" in err and "from 1 to 64" in err
    code, _, err = run("--vs", "engine:3@0")
    assert code == 2 and "'engine:3@0'" in err and "after '@'" in err


def test_hints_on_two_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import hasamigo.engine

    made: list[int] = []

    class Counted(hasamigo.engine.Engine):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.threads)

    monkeypatch.setattr(hasamigo.engine, "Engine", Counted)
    seeded_random(monkeypatch)
    code, out, _ = run("--vs", "random", "--threads", "2", input="hint\nquit\n")
    assert code == 0, out
    assert made == [2]
    line = next(line for line in out.splitlines() if "hints (" in line)
    assert sorted(re.findall(r"\b([a-h][1-8]) [+-]\d+", line)) == ["c4", "d3", "e6", "f5"]


def test_refusals_before_the_game(own_database: Path) -> None:
    code, _, err = run("--vs", "nobody")
    assert code == 2 and "unknown player" in err
    code, _, err = run("--disc-limit", "20")
    assert code == 2 and "reversi-32" in err
    code, _, err = run("--handicap", "2", "--colour", "random")
    assert code == 2 and "handicap" in err
    code, _, err = run("--colour", "green")
    assert code == 2 and "fuse-ishi" in err
    assert not own_database.exists()  # refused before the database is opened
    code, _, err = run("--db", "nosuchdriver://x")
    assert code == 2 and "cannot use nosuchdriver://x" in err


def test_the_join_link_gives_a_browser_the_seat_and_the_library_entry(
        monkeypatch: pytest.MonkeyPatch, own_database: Path) -> None:
    from fastapi.testclient import TestClient

    from hasamigo.web import Settings, create_app
    seeded_random(monkeypatch)
    typed, _board = first_legal_script()
    code, out, _ = run("--vs", "random", input="\n".join(typed) + "\n")
    assert code == 0
    link = LINK.search(out)
    assert link is not None
    game_id, join_code = link.group(2), link.group(3)
    app_ = create_app(Settings(warm_engine=False, tick_seconds=3600),
                      db_url=f"sqlite:///{own_database}")
    with TestClient(app_) as client:
        assert client.get("/api/games").json() == []
        joined = client.post(f"/api/games/{game_id}/join", json={"code": join_code})
        assert joined.status_code == 200, joined.text
        assert joined.json()["game"]["your_colours"] == ["black"]
        assert [g["id"] for g in client.get("/api/games").json()] == [game_id]
        again = client.post(f"/api/games/{game_id}/join", json={"code": join_code})
        assert again.status_code == 403  # the link works once


# ---- the clock, on an injected wall clock --------------------------------------------------
class FakeTime:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class SlowFirstLegal:
    """Stand-in program: the first legal move, after ``seconds`` of the fake clock."""

    def __init__(self, clock: FakeTime, seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    def choose(self, board: Board, clock: Clock | None = None) -> Move:
        self.clock.now += self.seconds
        return next(iter(board.legal_moves))

    def cancel(self) -> None:
        pass

    def check_board(self, variant: type[Board]) -> None:
        pass


def slow_typing(monkeypatch: pytest.MonkeyPatch, clock: FakeTime, *seconds: float) -> None:
    """The person takes ``seconds[i]`` of the fake clock to type line ``i`` (the last
    value for every later line)."""
    original = console.input
    delays = list(seconds)

    def typing(prompt: str = "", **options: Any) -> str:
        clock.now += delays.pop(0) if len(delays) > 1 else delays[0]
        return original(prompt, **options)

    monkeypatch.setattr(console, "input", typing)


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(play_module, "wall_clock", clock)
    return clock


def test_the_program_claims_the_persons_fallen_flag(
        monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime, own_database: Path) -> None:
    monkeypatch.setattr(play_module, "make_program",
                        lambda spec, seed: SlowFirstLegal(fake_time, 1.0))
    slow_typing(monkeypatch, fake_time, 61.0)
    code, out, _ = run("--vs", "random", "--clock", "1", input="f5\n")
    assert code == 0, out
    assert "f5 was not played: time ran out first" in out
    assert "Random (white) claims black's fallen flag." in out
    assert "You lose 31–33 by time-out (33–31)" in out
    game = stored(own_database, out)
    assert game.result is not None and game.result.termination is Termination.TIMEOUT
    assert game.board.move_stack == []


def test_the_person_claims_the_programs_fallen_flag_and_takes_33_31(
        monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime, own_database: Path) -> None:
    monkeypatch.setattr(play_module, "make_program",
                        lambda spec, seed: SlowFirstLegal(fake_time, 90.0))
    code, out, _ = run("--vs", "random", "--clock", "1", input="claim\nf5\nclaim\n33-31\n")
    assert code == 0, out
    assert "no flag has fallen (Random has 1:00 left)" in out
    assert "Random (white) plays" in out and "flag down" in out  # its move stands (rule 15)
    assert "You claim white's fallen flag." in out
    assert "You win 33–31 by time-out (33–31)" in out
    game = stored(own_database, out)
    assert game.result is not None and (game.result.black, game.result.white) == (33, 31)
    assert len(game.board.move_stack) == 2


def test_two_people_a_move_after_the_flag_fell_stands_until_claimed(
        monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime, own_database: Path) -> None:
    slow_typing(monkeypatch, fake_time, 61.0, 0.0)
    code, out, _ = run("--clock", "1", "--name", "Ann", "--name", "Bob",
                       input="f5\nclaim\n33-31\n")
    assert code == 0, out
    assert "Bob (white) claims black's fallen flag." in out
    assert "Bob (white) takes the 33–31 win." in out
    assert "Game over: Bob (white) wins 33–31 by time-out (33–31)." in out
    game = stored(own_database, out)
    assert game.board.move_stack == [Move.from_str("f5")]  # played late, but it stands
    assert game.result is not None and (game.result.black, game.result.white) == (31, 33)


def test_a_play_out_after_a_time_out_win(
        monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime, own_database: Path) -> None:
    monkeypatch.setattr(play_module, "make_program",
                        lambda spec, seed: SlowFirstLegal(fake_time, 90.0))
    code, out, _ = run("--vs", "random", "--clock", "1",
                       input="f5\nclaim\nplayout\nf4\nstop\n")
    assert code == 0, out
    assert "You choose play-out" in out and "You move for black (play-out" in out
    assert "The play-out is stopped: the count stands." in out
    game = stored(own_database, out)
    assert game.board.move_stack[-1] == Move.from_str("f4")
    assert [e.kind for e in game.events][-3:] == ["stop-playout", "accept", "accept"]
    # a count that does not favour the winner becomes the 33–31 they could have taken
    assert game.result is not None and (game.result.black, game.result.white) == (33, 31)


# ---- a real terminal -----------------------------------------------------------------------
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")
PROMPT = re.compile(r"legal: ([a-h1-8 ]+)\n[^\n]*\) > $")


class Terminal:
    """``hasamigo`` run on a pseudo-terminal of 80×24: what it shows, what is typed."""

    def __init__(self, args: list[str], term: str) -> None:
        import fcntl
        import pty
        import struct
        import termios

        env = dict(os.environ, TERM=term, COLUMNS="80", LINES="24")
        env.pop("NO_COLOR", None)
        env.pop("FORCE_COLOR", None)
        pid, fd = pty.fork()
        if pid == 0:  # the child: the command, on the terminal
            try:
                # Ctrl-C as at a shell's prompt, even when these tests run with SIGINT
                # ignored (a background job of a non-interactive shell): an ignored signal
                # stays ignored across exec, and Python then never raises KeyboardInterrupt
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                # and unblocked: a blocked signal stays blocked across fork and exec too,
                # and would wait, pending, for ever
                signal.pthread_sigmask(signal.SIG_SETMASK, set())
                os.execve(sys.executable, [sys.executable, "-m", "hasamigo", *args], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.raw = b""
        self.seen = 0  # where the screen text not yet answered starts

    def text(self) -> str:
        """What was shown, without colours and cursor moves; carriage returns dropped."""
        plain = ANSI.sub("", self.raw.decode("utf-8", "replace"))
        return plain.replace("\r\n", "\n").replace("\r", "\n")

    def read_until_prompt_or_exit(self, deadline: float) -> str | None:
        """The legal moves of the next prompt, or ``None`` once the command has exited."""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # EIO: the command has exited and closed the terminal
                return None
            if not chunk:
                return None
            self.raw += chunk
            found = PROMPT.search(self.text()[self.seen:])
            if found:
                self.seen = len(self.text())
                return found.group(1)
        raise AssertionError("no prompt in time; the screen showed:\n" + self.text()[-2000:]
                             + "\n" + self.diagnosis())

    def diagnosis(self) -> str:
        """What the kernel says of the command while it hangs: its signals (blocked,
        ignored, caught, pending) and where each of its threads waits."""
        proc = Path(f"/proc/{self.pid}")
        try:
            status = [line for line in (proc / "status").read_text().splitlines()
                      if line.startswith(("State", "Sig", "Shd"))]
            threads = [f"{task.name} {(task / 'comm').read_text().strip()} "
                       f"{(task / 'stat').read_text().split()[2]} "
                       f"{(task / 'wchan').read_text().strip()}"
                       for task in sorted((proc / "task").iterdir())]
        except OSError as exc:
            return f"(no /proc for the command: {exc})"
        return "\n".join(["the command's signals:", *status, "its threads:", *threads])

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


@pytest.fixture
def terminal_cleanup() -> Iterator[list[Terminal]]:
    started: list[Terminal] = []
    yield started
    for term in started:
        try:
            os.kill(term.pid, signal.SIGKILL)
            os.waitpid(term.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("term", ["xterm-256color", "dumb"])
def test_a_game_against_random_in_a_real_terminal(tmp_path: Path, term: str,
                                                  terminal_cleanup: list[Terminal]) -> None:
    db = tmp_path / "terminal.db"
    shell = Terminal(["play", "--vs", "random", "--clock", "10", "--db", f"sqlite:///{db}"],
                     term)
    terminal_cleanup.append(shell)
    deadline = time.monotonic() + 180  # a cold kernel cache compiles first
    typed = 0
    while (legal := shell.read_until_prompt_or_exit(deadline)) is not None:
        shell.type(legal.split()[0] + "\n")
        typed += 1
    assert shell.wait() == 0, shell.text()[-2000:]
    terminal_cleanup.clear()
    screen = shell.text()
    assert "Game over: " in screen and "thinking" in screen
    assert all(len(line) <= 80 for line in screen.splitlines()
               if not line.startswith(("open ", "transcript", "saved as")))
    game = stored(db, screen)
    assert game.phase is Phase.OVER and game.state.result_final
    person = [m for m in game.history if m.colour is BLACK and not m.move.is_pass]
    assert len(person) == typed
    result = game.result
    assert result is not None
    verdict = re.search(r"Game over: (You win|You lose|Draw) (\d+)–(\d+)", screen)
    assert verdict is not None
    assert (int(verdict.group(2)), int(verdict.group(3))) == (result.black, result.white)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_ctrl_c_in_a_real_terminal_exits_130_with_the_game_saved(
        tmp_path: Path, terminal_cleanup: list[Terminal]) -> None:
    db = tmp_path / "terminal.db"
    shell = Terminal(["play", "--vs", "random", "--db", f"sqlite:///{db}"], "xterm-256color")
    terminal_cleanup.append(shell)
    deadline = time.monotonic() + 180
    assert shell.read_until_prompt_or_exit(deadline) is not None
    shell.type("f5\n")
    assert shell.read_until_prompt_or_exit(deadline) is not None
    shell.type("\x03")  # the terminal turns it into SIGINT
    while shell.read_until_prompt_or_exit(deadline) is not None:
        pass
    assert shell.wait() == 130
    terminal_cleanup.clear()
    game = stored(db, shell.text())
    assert game.phase is Phase.PLAYING and len(game.board.move_stack) == 2
