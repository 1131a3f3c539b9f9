"""External engines as players (``nboard:COMMAND``, ``gtp:COMMAND``): over a mock
transport (our own sessions in process), then as real processes through ``match``."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from hasamigo import Board, ExternalEngineError, InvalidOptionError
from hasamigo.engine.players import KNOWN_SPECS, external_spec, make_player
from hasamigo.engine.players.simple import RandomPlayer
from hasamigo.engine.protocols.external import (
    EngineGone,
    ExternalPlayer,
    GTPPlayer,
    NBoardPlayer,
    SessionTransport,
    Transport,
)
from hasamigo.engine.protocols.gtp import GTPSession
from hasamigo.engine.protocols.nboard import NBoardSession
from hasamigo.move import BLACK
from hasamigo.notation.ggf import read_ggf
from hasamigo.tournament.match import GameAbortedError, play_game

PY = sys.executable


def our_nboard() -> SessionTransport:
    return SessionTransport(lambda: NBoardSession(level=1))


def our_gtp() -> SessionTransport:
    return SessionTransport(lambda: GTPSession(level=1))


class Dying(SessionTransport):
    """Our session, which dies (ends its output) when asked to move at ``at`` moves or more,
    ``times`` times in all (the count is shared by the restarts: ``deaths``)."""

    def __init__(self, make: Callable[[], NBoardSession | GTPSession], at: int, times: int,
                 deaths: list[int]) -> None:
        super().__init__(make)
        self.at, self.times, self.deaths = at, times, deaths

    def send(self, line: str) -> None:
        asked = line.endswith("go") or " genmove " in f" {line}"
        if asked and self.session is not None and self.session.board.ply >= self.at \
                and len(self.deaths) < self.times:
            self.deaths.append(self.session.board.ply)
            self.session = None
            raise EngineGone("ended its output (exit status 3)")
        super().send(line)


class Scripted(Transport):
    """An engine that answers every ``go`` with ``answer`` (after the pong it owes)."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.out: list[str] = []

    def start(self) -> None:
        self.out = []

    def send(self, line: str) -> None:
        if line.startswith("ping"):
            self.out.append("pong" + line[4:])
        elif line == "go":
            self.out.append(self.answer)

    def receive(self, timeout: float) -> str | None:
        return self.out.pop(0) if self.out else None

    def close(self, goodbye: str | None = None) -> None:
        self.out = []


# ---- over the mock transport ----------------------------------------------------------
@pytest.mark.parametrize("kind, transport", [(NBoardPlayer, our_nboard), (GTPPlayer, our_gtp)])
def test_a_whole_game_each_colour_through_our_own_session(
        kind: type[ExternalPlayer], transport: Callable[[], Transport]) -> None:
    player = kind("ours", transport=transport)
    for black_is_engine in (True, False):
        other = RandomPlayer(seed=1)
        black, white = (player, other) if black_is_engine else (other, player)
        result = play_game(black, white)
        assert result.result is not None and len(result.moves) >= 58
    assert player.restarts == 0 and player.faults == []
    player.close()


@pytest.mark.parametrize("kind, make", [(NBoardPlayer, lambda: NBoardSession(level=1)),
                                        (GTPPlayer, lambda: GTPSession(level=1))])
def test_an_engine_that_dies_once_is_restarted_and_the_game_goes_on(
        kind: type[ExternalPlayer], make: Callable[[], NBoardSession | GTPSession],
        caplog: pytest.LogCaptureFixture) -> None:
    deaths: list[int] = []
    player = kind("flaky", transport=lambda: Dying(make, 20, 1, deaths))
    with caplog.at_level(logging.WARNING, logger="hasamigo.external"):
        result = play_game(player, RandomPlayer(seed=2))
    assert result.result is not None
    assert len(deaths) == 1 and player.restarts == 1
    assert "restarting" in caplog.text and "flaky" in caplog.text
    assert "exit status 3" in player.faults[0]


@pytest.mark.parametrize("kind, make", [(NBoardPlayer, lambda: NBoardSession(level=1)),
                                        (GTPPlayer, lambda: GTPSession(level=1))])
def test_an_engine_that_dies_again_ends_the_game_with_the_moves_kept(
        kind: type[ExternalPlayer], make: Callable[[], NBoardSession | GTPSession]) -> None:
    deaths: list[int] = []
    player = kind("doomed", transport=lambda: Dying(make, 20, 2, deaths))
    with pytest.raises(GameAbortedError) as caught:
        play_game(player, RandomPlayer(seed=3), index=4)
    message = str(caught.value)
    assert message.startswith("game 5: ") and "doomed" in message
    assert "restarted once" in message
    assert len(deaths) == 2 and deaths[0] == deaths[1]
    moves = caught.value.moves
    assert len(moves) == deaths[0]  # every move before the failure is kept
    board = Board()
    for move in moves:
        board.push(move)
    record = caught.value.record("nboard:doomed", "random")
    assert record.moves == list(moves) and "aborted" in record.event


@pytest.mark.parametrize("answer, words", [("=== A1/0.00/1.0", "'A1'"),
                                           ("=== ZZ", "not a move"),
                                           ("===", "no move")])
def test_an_engine_answer_that_is_not_a_legal_move_is_an_error(answer: str, words: str) -> None:
    player = NBoardPlayer("liar --fast", transport=lambda: Scripted(answer))
    with pytest.raises(ExternalEngineError) as caught:
        player.choose(Board())
    assert "nboard:liar --fast" in str(caught.value) and words in str(caught.value)


def test_a_silent_engine_times_out_and_is_reported() -> None:
    player = NBoardPlayer("mute", transport=lambda: Scripted(""), timeout=0.3,
                          start_timeout=0.0)
    with pytest.raises(ExternalEngineError, match="no answer in time"):
        player.choose(Board())
    assert player.restarts == 1


def test_a_cancelled_player_answers_at_once_and_resumes() -> None:
    player = NBoardPlayer("mute", transport=lambda: Scripted(""), timeout=60)
    player.cancel()
    board = Board()
    assert board.is_legal(player.choose(board))
    player.resume()
    assert player.restarts == 0


def test_gtp_refuses_a_game_it_cannot_describe() -> None:
    player = GTPPlayer("ours", transport=our_gtp)
    board = Board(start="parallel")
    with pytest.raises(ExternalEngineError, match="usual start"):
        player.choose(board)


# ---- specs ----------------------------------------------------------------------------
def test_specs_keep_the_case_of_the_command() -> None:
    assert external_spec("NBOARD:/Opt/Edax -Q") == ("nboard", "/Opt/Edax -Q")
    assert external_spec("gtp: edax --gtp") == ("gtp", "edax --gtp")
    assert external_spec("engine:4") is None and external_spec("nboardx:a") is None
    player = make_player(f"NBoard:{PY} -m hasamigo nboard --level 2")
    assert isinstance(player, NBoardPlayer)
    assert player.command == f"{PY} -m hasamigo nboard --level 2"
    assert isinstance(make_player(f"gtp:'{PY}' -m hasamigo gtp"), GTPPlayer)
    assert "nboard:COMMAND" in KNOWN_SPECS and "gtp:COMMAND" in KNOWN_SPECS


@pytest.mark.parametrize("spec, words", [("nboard:", "needs a command"),
                                         ("gtp:   ", "needs a command"),
                                         ("nboard:edax 'unclosed", "cannot read"),
                                         ("gtp:/no/such/engine-here", "no program")])
def test_bad_external_specs_are_refused_before_anything_starts(spec: str, words: str) -> None:
    with pytest.raises(InvalidOptionError, match=words):
        make_player(spec)


def test_a_program_that_cannot_start_is_an_error() -> None:
    from hasamigo.engine.protocols.external import ProcessTransport

    player = NBoardPlayer([PY], transport=lambda: ProcessTransport(["/no/such/program"]))
    with pytest.raises(ExternalEngineError, match="cannot start"):
        player.choose(Board())


# ---- real processes through `match` ----------------------------------------------------
def hasamigo(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "hasamigo", *args], capture_output=True, text=True,
                          env=os.environ, timeout=timeout)


def check_colours(path: Path, a: str, b: str, games: int) -> None:
    """Game i gives A Black when i is even: the colours alternate."""
    records = list(read_ggf(path))
    assert len(records) == games
    for i, record in enumerate(records):
        assert (record.black, record.white) == ((a, b) if i % 2 == 0 else (b, a))
        assert record.recorded_score is not None
        assert record.replay().is_game_over()


def match_round_trip(tmp_path: Path, protocol: str, level: int, games: int) -> None:
    """``hasamigo match engine:LEVEL "PROTOCOL:hasamigo PROTOCOL --level LEVEL"`` finishes
    every game, with the colours alternating."""
    a = f"engine:{level}"
    b = f"{protocol}:{PY} -m hasamigo {protocol} --level {level}"
    out = tmp_path / "games.ggf"
    done = hasamigo("match", a, b, "--games", str(games), "--jobs", "2", "--json",
                    "--out", str(out))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == games and summary["b"] == b
    assert summary["a_wins"] + summary["draws"] + summary["b_wins"] == games
    check_colours(out, a, b, games)


def test_match_round_trip_over_nboard_two_games(tmp_path: Path) -> None:
    match_round_trip(tmp_path, "nboard", 2, 2)


@pytest.mark.slow
@pytest.mark.parametrize("protocol", ["nboard", "gtp"])
def test_match_round_trip_four_games_at_level_4(protocol: str, tmp_path: Path) -> None:
    match_round_trip(tmp_path, protocol, 4, 4)


FLAKY = """\
import os, sys
from hasamigo.engine.protocols.nboard import NBoardSession
at, marker = int(sys.argv[1]), sys.argv[2]
session = NBoardSession(level=1)
for line in sys.stdin:
    if line.strip() == "go" and session.board.ply >= at and not os.path.exists(marker):
        if sys.argv[3:] == ["once"]:
            open(marker, "w").close()
        print("flaky engine: dying on purpose", file=sys.stderr, flush=True)
        os._exit(3)
    for out in session.handle(line.rstrip("\\n")):
        print(out, flush=True)
"""


def flaky_spec(tmp_path: Path, *extra: str) -> str:
    script = tmp_path / "flaky.py"
    script.write_text(textwrap.dedent(FLAKY))
    return f"nboard:{PY} {script} 10 {tmp_path / 'died'} {' '.join(extra)}".rstrip()


def test_match_against_an_engine_that_exits_mid_game_fails_clearly_and_keeps_the_moves(
        tmp_path: Path) -> None:
    spec = flaky_spec(tmp_path)
    out = tmp_path / "games.ggf"
    done = hasamigo("match", "random", spec, "--games", "1", "--jobs", "1", "--out", str(out))
    assert done.returncode == 1
    assert "game 1" in done.stderr and "exit status 3" in done.stderr
    assert "dying on purpose" in done.stderr and str(out) in done.stderr
    [record] = list(read_ggf(out))
    assert "aborted" in record.event
    assert len(record.moves) >= 10
    board = record.replay()
    assert not board.is_game_over()


def test_match_against_an_engine_that_exits_once_goes_on(tmp_path: Path) -> None:
    spec = flaky_spec(tmp_path, "once")
    done = hasamigo("match", "random", spec, "--games", "1", "--jobs", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 1
    assert (tmp_path / "died").exists() and "restarting" in done.stderr


@pytest.mark.skipif(not os.environ.get("EDAX") or not shutil.which(os.environ.get("EDAX", "")),
                    reason="no Edax: set EDAX to its program")
def test_a_game_against_edax_over_nboard() -> None:
    edax = os.environ["EDAX"]
    player = NBoardPlayer([edax, "-nboard"], depth=2)
    result = play_game(player, RandomPlayer(seed=5))
    player.close()
    assert result.result is not None and result.a_color is BLACK
    assert player.faults == []


# ---- the settings file ------------------------------------------------------------------
def test_the_settings_file_is_found_by_env_then_xdg_then_home(tmp_path: Path) -> None:
    from hasamigo.engine.protocols.config import engines_path

    assert engines_path({"HASAMIGO_ENGINES": "/x/e.toml"}) == Path("/x/e.toml")
    assert engines_path({"XDG_CONFIG_HOME": str(tmp_path)}) == (
        tmp_path / "hasamigo" / "engines.toml")
    assert engines_path({}) == Path.home() / ".config" / "hasamigo" / "engines.toml"


def test_the_settings_file_lists_engines_with_their_options(tmp_path: Path) -> None:
    from hasamigo.engine.protocols.config import find_engine, load_engines

    path = tmp_path / "engines.toml"
    assert load_engines(path) == []  # no file: no engines
    path.write_text('[engines.edax]\nname = "Edax 4.4"\nprotocol = "nboard"\n'
                    'command = "edax -nboard"\ndepth = 10\ntimeout = 30\n'
                    '[engines.ours-gtp]\nprotocol = "gtp"\ncommand = "hasamigo gtp"\n')
    edax, ours = load_engines(path)
    assert (edax.key, edax.name, edax.spec, edax.depth, edax.timeout) == (
        "edax", "Edax 4.4", "nboard:edax -nboard", 10, 30.0)
    assert ours.name == "ours-gtp" and ours.depth is None
    assert find_engine([edax, ours], key="ours-gtp") is ours
    assert find_engine([edax, ours], spec="nboard:edax -nboard") is edax
    assert find_engine([edax, ours], key="nope") is None


@pytest.mark.parametrize("text, words", [
    ("[engines", "not TOML"),
    ("engines = 3", "table of engines"),
    ('[engines."Bad Key"]\nprotocol = "gtp"\ncommand = "x"', "a key is"),
    ('[engines.a]\nprotocol = "uci"\ncommand = "x"', "'protocol'"),
    ('[engines.a]\nprotocol = "gtp"', "'command'"),
    ('[engines.a]\nprotocol = "gtp"\ncommand = "x \'y"', "cannot read"),
    ('[engines.a]\nprotocol = "gtp"\ncommand = "x"\ndepth = 0', "'depth'"),
    ('[engines.a]\nprotocol = "gtp"\ncommand = "x"\ntimeout = -1', "'timeout'"),
    ('[engines.a]\nprotocol = "gtp"\ncommand = "x"\nname = ""', "'name'"),
])
def test_a_bad_settings_file_names_what_is_wrong(tmp_path: Path, text: str, words: str,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    from hasamigo.engine.protocols.config import configured_engines, load_engines
    from hasamigo.errors import ParseError

    path = tmp_path / "engines.toml"
    path.write_text(text)
    with pytest.raises(ParseError, match=words) as caught:
        load_engines(path)
    assert str(path) in str(caught.value)
    with caplog.at_level(logging.ERROR, logger="hasamigo.external"):
        assert configured_engines(path) == []  # a server goes on without them
    assert "ignored" in caplog.text


def test_the_protocols_import_nothing_above_the_engine() -> None:
    code = ("import sys, hasamigo.engine.protocols.external, hasamigo.engine.protocols.config; "
            "print(sorted(m for m in sys.modules if m.startswith(('hasamigo.web', "
            "'hasamigo.cli', 'hasamigo.tournament', 'hasamigo.study'))))")
    done = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=os.environ,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("answer", ["=== F5/1.50/0.2", "=== f5 1.50 0.2"])
def test_both_ways_engines_write_their_move_are_read(answer: str) -> None:
    player = NBoardPlayer("edax-like", transport=lambda: Scripted(answer))
    board = Board()
    assert player.choose(board) == board.parse_move("f5")
    assert player.last_reason == "nboard:edax-like: score 1.50"
