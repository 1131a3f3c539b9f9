"""The match runner: colours, openings twice, seeds, tallies, Elo, GGF output, the CLI."""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.cli import app
from hasamigo.engine.players import Player, make_player
from hasamigo.errors import InvalidOptionError
from hasamigo.game.clock import Clock
from hasamigo.game.result import GameResult, Termination
from hasamigo.jobs import LocalBackend
from hasamigo.jobs.games import match_player
from hasamigo.notation import read_games
from hasamigo.player_spec import PlayerSpec
from hasamigo.tournament.match import (
    GameTask,
    MatchSummary,
    elo_difference,
    elo_interval,
    game_seed,
    match_tasks,
    play_game,
    read_openings,
    run_match,
)

DATA = Path(__file__).parent / "data"
runner = CliRunner()
RANDOM, GREEDY, VICTORY = PlayerSpec("random"), PlayerSpec("greedy"), PlayerSpec("victory")


def test_colours_alternate_and_each_opening_is_played_twice() -> None:
    openings = read_openings(DATA / "xot-sample.txt")
    tasks = match_tasks(RANDOM, GREEDY, 8, seed=3, openings=openings)
    assert [t.a_color for t in tasks] == [BLACK, WHITE] * 4
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.opening == second.opening and len(first.opening) == 8
    assert len({t.opening for t in tasks}) == 4
    assert len({t.seed for t in tasks}) == 8
    assert match_tasks(RANDOM, GREEDY, 8, seed=3, openings=openings) == tasks


def test_random_plies_openings() -> None:
    tasks = match_tasks(RANDOM, RANDOM, 4, seed=1, random_plies=6)
    assert all(len(t.opening) == 6 for t in tasks)
    assert tasks[0].opening == tasks[1].opening != tasks[2].opening


def test_game_seed_depends_on_match_seed_and_index_only() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(50)} | {game_seed(2, 0)}) == 51


def test_tallies_and_colours_in_play() -> None:
    summary = run_match(GREEDY, RANDOM, 6, seed=4)
    assert summary.games == 6
    assert summary.a_wins + summary.draws + summary.b_wins == 6
    for r in summary.results:
        assert r.a_color is (BLACK if r.index % 2 == 0 else WHITE)
        assert r.a_discs + r.b_discs == 64  # official counts
        points = 0.5 if r.result.winner is None else float(r.result.winner is r.a_color)
        assert r.a_points == points
    wins = sum(r.a_points == 1 for r in summary.results)
    assert summary.a_wins == wins
    assert summary.a_score_pct == pytest.approx(
        100 * (summary.a_wins + summary.draws / 2) / 6)
    assert summary.a_discs == sum(r.a_discs for r in summary.results)


def test_same_results_with_one_or_two_jobs() -> None:
    one = run_match(GREEDY, VICTORY, 4, seed=9, random_plies=4)
    two = run_match(GREEDY, VICTORY, 4, seed=9, random_plies=4,
                    play=match_player(LocalBackend(2)))
    assert [(r.opening, r.moves, r.result) for r in one.results] == [
        (r.opening, r.moves, r.result) for r in two.results]


def test_elo_on_known_inputs() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(10 / 11) == pytest.approx(400.0)
    assert elo_difference(1 / 11) == pytest.approx(-400.0)
    assert elo_difference(0.0) is None and elo_difference(1.0) is None
    low, high = elo_interval(5, 0, 5)
    assert low is not None and high is not None
    assert low == pytest.approx(-high)
    # mean 0.5, sd 0.5 per game, n = 10: s ± 1.96 * 0.5 / sqrt(10)
    margin = 1.959963984540054 * 0.5 / math.sqrt(10)
    assert high == pytest.approx(-400 * math.log10(1 / (0.5 + margin) - 1))
    assert elo_interval(10, 0, 0) == (None, None)
    assert elo_interval(0, 10, 0) == (0.0, 0.0)


def test_ggf_output_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "games.ggf"
    summary = run_match(RANDOM, GREEDY, 4, seed=2, random_plies=3, out=out)
    records = list(read_games(out))
    assert len(records) == 4
    for record, result in zip(records, summary.results, strict=True):
        board = record.replay()
        assert GameResult.from_outcome(board.outcome()) == result.result
        assert record.recorded_score == result.result.black
        assert {record.black, record.white} == {"random", "greedy"}
        assert (record.black == "random") == (result.a_color is BLACK)


def test_cli_json_shape(tmp_path: Path) -> None:
    out = tmp_path / "m.ggf"
    result = runner.invoke(app, ["match", "greedy", "random", "--games", "4", "--seed", "1",
                                 "--jobs", "1", "--openings", str(DATA / "xot-sample.txt"),
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"a", "b", "games", "a_wins", "draws", "b_wins", "a_score_pct",
                         "elo", "elo_ci95"}
    assert data["a"] == "greedy" and data["games"] == 4
    assert data["a_wins"] + data["draws"] + data["b_wins"] == 4
    assert isinstance(data["elo_ci95"], list) and len(data["elo_ci95"]) == 2
    assert len(list(read_games(out))) == 4


def test_cli_table_output() -> None:
    result = runner.invoke(app, ["match", "random", "random", "--games", "2", "--jobs", "1"])
    assert result.exit_code == 0, result.stderr
    assert "wins" in result.stdout and "Elo" in result.stdout


@pytest.mark.parametrize("args", [
    ["match", "nobody", "random"],
    ["match", "random", "engine:99"],
    ["match", "random", "random", "--openings", "missing.txt"],
    ["match", "random", "random", "--out", "games.xyz"],
])
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    if "nobody" in args:
        assert "unknown player 'nobody'" in result.stderr and "victory" in result.stderr


def test_cli_refuses_bad_threads_naming_the_spec_and_the_range() -> None:
    result = runner.invoke(app, ["match", "engine:5@65", "random"])
    assert result.exit_code == 2
    assert "'engine:5@65'" in result.stderr and "from 1 to 64" in result.stderr


def test_cli_match_of_a_level_on_two_threads_names_them() -> None:
    result = runner.invoke(app, ["match", "engine:1@2", "engine:1", "-n", "2", "--workers",
                                 "1", "--random-plies", "4", "--clock", "0.5", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["a"], data["b"], data["games"]) == ("engine:1@2", "engine:1", 2)
    assert data["time_losses"] == {"a": 0, "b": 0}


def test_default_workers_leave_each_game_the_cores_its_threads_ask_for(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from hasamigo.cli import workers as workers_module

    monkeypatch.setattr(workers_module, "available_cores", lambda: 8)
    assert workers_module.workers_of(None, None) == 8
    assert workers_module.workers_of(None, None, threads=2) == 4
    assert workers_module.workers_of(None, None, threads=3) == 2
    assert workers_module.workers_of(None, None, threads=16) == 1
    capsys.readouterr()
    assert workers_module.workers_of(4, None, threads=2) == 4  # asked for: as asked
    assert "warning" not in capsys.readouterr().err
    assert workers_module.workers_of(5, None, threads=2) == 5  # ... with a warning
    warned = " ".join(capsys.readouterr().err.split())
    assert "5 workers of 2 search threads each share 8 cores" in warned
    assert "--workers 4 gives each its own" in warned


def test_task_is_picklable() -> None:
    import pickle

    task = GameTask(0, RANDOM, GREEDY, (), 5)
    assert pickle.loads(pickle.dumps(task)) == task


def test_cli_refuses_an_illegal_opening_line_naming_it(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("f5d6c3\nf5f5\n")
    result = runner.invoke(app, ["match", "random", "random", "--games", "2",
                                 "--openings", str(openings), "--jobs", "1"])
    assert result.exit_code == 2
    assert "line 2" in result.stderr and "occupied" in result.stderr


# ---- on a clock ------------------------------------------------------------------------------
class Dawdler(Player):
    """A stand-in that, on a clock of less than ``short`` seconds, thinks until it is
    stopped (or for ``patience`` seconds): it loses on time, and shows that its flag stops
    it. On longer clocks (the match's warm-up) it answers at once."""

    name = "dawdler"

    def __init__(self, patience: float = 30.0, short: float = 1.0) -> None:
        super().__init__(seed=0)
        self.patience, self.short = patience, short
        self.stopped = threading.Event()
        self.resumed = False

    def cancel(self) -> None:
        self.stopped.set()

    def resume(self) -> None:
        self.resumed = True

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        if clock is not None and clock.remaining(board.turn) < self.short:
            self.stopped.wait(self.patience)
        return next(iter(board.legal_moves))


def test_a_side_whose_flag_falls_loses_33_31_and_is_stopped() -> None:
    slow = Dawdler()
    result = play_game(make_player("random", seed=1), slow, clock=0.5)
    assert result.time_loss is WHITE and slow.stopped.is_set() and slow.resumed
    assert (result.result.black, result.result.white, result.result.winner) == (33, 31, BLACK)
    assert result.result.termination is Termination.TIMEOUT
    assert len(result.moves) == 1 and len(result.seconds) == 1  # the late move never stands
    summary = MatchSummary(RANDOM, PlayerSpec("dawdler"), [result], clock=0.5)
    assert summary.a_wins == 1 and summary.a_time_losses == 0 and summary.b_time_losses == 1
    assert summary.as_json()["time_losses"] == {"a": 0, "b": 1}
    assert "white lost on time" in summary.records()[0].event.lower()


def test_a_clock_charges_each_move_from_the_offer_to_the_move() -> None:
    now = [0.0]

    class Ticking(Player):
        name = "ticking"

        def _choose(self, board: Board, clock: Clock | None) -> Move:
            assert clock is not None and clock.running is board.turn
            now[0] += 1.0  # each move takes a second of the fake clock
            return next(iter(board.legal_moves))

    result = play_game(Ticking(), make_player("random", seed=3), clock=100.0,
                       time_source=lambda: now[0])
    assert result.time_loss is None and result.result.black + result.result.white == 64
    assert result.seconds[0::2] == (1.0,) * len(result.seconds[0::2])
    assert set(result.seconds[1::2]) <= {0.0}
    short = play_game(Ticking(), make_player("random", seed=3), clock=2.5,
                      time_source=lambda: now[0])
    assert short.time_loss is BLACK and len(short.moves) == 4  # its 3rd move came too late


def test_without_a_clock_nothing_changes() -> None:
    summary = run_match(GREEDY, RANDOM, 2, seed=4)
    assert "time_losses" not in summary.as_json()
    assert all(r.time_loss is None and r.seconds == () for r in summary.results)


def test_clock_match_on_two_processes() -> None:
    summary = run_match(RANDOM, PlayerSpec.parse("engine:1"), 2, seed=5, clock=5.0,
                        play=match_player(LocalBackend(2)))
    assert summary.games == 2 and summary.a_time_losses == summary.b_time_losses == 0
    assert all(r.seconds and len(r.seconds) == len(r.moves) for r in summary.results)


def test_cli_clock_json_reports_time_losses() -> None:
    result = runner.invoke(app, ["match", "random", "engine:1", "--games", "2", "--jobs", "1",
                                 "--clock", "0.05", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["time_losses"] == {"a": 0, "b": 0}
    assert data["a_wins"] + data["draws"] + data["b_wins"] == 2


def test_cli_clock_table_and_bad_clock() -> None:
    result = runner.invoke(app, ["match", "random", "random", "--games", "1", "--jobs", "1",
                                 "--clock", "0.1"])
    assert result.exit_code == 0, result.stderr
    assert "lost on time" in result.stdout and "0.1 min a side" in result.stdout
    for bad in ("0", "-1", "nan", "2000"):
        refused = runner.invoke(app, ["match", "random", "random", "--clock", bad])
        assert refused.exit_code == 2 and "--clock" in refused.stderr


def test_cli_counts_a_stand_in_losing_on_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import hasamigo.engine.players as players

    class NamedDawdler(Dawdler):  # made by name, as the registry makes its players
        def __init__(self, *, seed: int | None = None) -> None:
            super().__init__()

    monkeypatch.setitem(players.PROGRAMS, "dawdler",
                        players.Program("dawdler", NamedDawdler, "Dawdler", "のろま"))
    result = runner.invoke(app, ["match", "random", "dawdler", "--games", "2", "--jobs", "1",
                                 "--clock", "0.01", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["time_losses"] == {"a": 0, "b": 2} and data["a_wins"] == 2


def _zero_weights(path: Path) -> Path:
    """A weights file whose every pattern weight is 0: an evaluation that sees nothing."""
    import numpy as np

    from hasamigo._kernels.patterns import N_WEIGHTS, STAGES
    from hasamigo.engine.evaluation import save_weights

    save_weights(path, np.zeros((STAGES, N_WEIGHTS), dtype=np.int16), "test: all zero")
    return path


def test_an_engine_player_evaluates_with_the_weights_it_is_given(tmp_path: Path) -> None:
    from hasamigo.tournament.match import _with_weights

    board = Board()
    for move in ("f5", "d6", "c3"):
        board.push(Move.from_str(move))
    zero = _zero_weights(tmp_path / "zero.npz")
    shipped = make_player(PlayerSpec("engine", level=2), seed=1)
    mine = make_player(PlayerSpec("engine", level=2), seed=1)
    _with_weights(mine, str(zero))
    assert mine.engine.evaluate(board) == 0  # type: ignore[attr-defined]
    assert shipped.engine.evaluate(board) != 0  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionError, match="only an engine player"):
        _with_weights(make_player(VICTORY, seed=1), str(zero))


def test_cli_match_with_weights_reports_them_and_refuses_bad_ones(tmp_path: Path) -> None:
    import hashlib

    zero = _zero_weights(tmp_path / "zero.npz")
    result = runner.invoke(app, ["match", "engine:1", "engine:1", "--games", "2",
                                 "--weights-a", str(zero), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 2
    assert report["weights"] == {"a": hashlib.sha256(zero.read_bytes()).hexdigest()}
    table = runner.invoke(app, ["match", "engine:1", "random", "--games", "2",
                                "--weights-a", str(zero)])
    assert table.exit_code == 0 and "engine:1 (zero.npz)" in table.stdout
    not_engine = runner.invoke(app, ["match", "engine:1", "victory", "--games", "2",
                                     "--weights-b", str(zero)])
    assert not_engine.exit_code == 2 and "--weights-b" in not_engine.output
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not weights")
    bad = runner.invoke(app, ["match", "engine:1", "engine:1", "--games", "2",
                              "--weights-a", str(junk)])
    assert bad.exit_code == 2 and "junk.npz" in bad.output
    assert "not an .npz file" in bad.output and "pickle" not in bad.output
