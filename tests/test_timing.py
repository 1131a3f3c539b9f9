"""Time management (:mod:`hasamigo.engine.timing`): the budget rule's properties, the engine
on a budget, and every program on a clock never losing on time.

The games run on a real clock over a fake time source that follows the real time and can
be jumped forward (to stand for the server's latency around each move). What is checked is
"the flag never fell", never "the move took less than x seconds": a loaded machine may be
slower, and the programs must still keep within their clocks.
"""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hasamigo import BLACK, Board, Move, find_variant
from hasamigo.engine import MAX_LEVEL, Engine, Limit
from hasamigo.engine.limits import LEVELS, WIDE_LEVELS
from hasamigo.engine.players import Player, make_player
from hasamigo.engine.timing import (
    LATENCY_SECONDS,
    SOLVE_NPS,
    TARGET_SHARE,
    URGENT_SECONDS,
    Budget,
    MoveTime,
    Speed,
    fits,
    move_budget,
    move_weight,
    next_iteration,
    safety_margin,
    solve_seconds,
)
from hasamigo.game.clock import Clock
from hasamigo.tournament.match import MatchGame, play_game, warm_up

SECONDS = st.floats(min_value=0.001, max_value=20_000.0, allow_nan=False)
EMPTIES = st.integers(min_value=1, max_value=60)


class FakeTime:
    """``time.monotonic`` plus an offset the test can jump forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset

    def jump(self, seconds: float) -> None:
        self.offset += seconds


class Latency(Player):
    """A program as the web server runs it: ``before`` seconds pass on its clock before it
    sees the position (the queue), ``after`` seconds after its answer (the commit)."""

    def __init__(self, inner: Player, fake: FakeTime, before: float, after: float) -> None:
        super().__init__(seed=inner.seed)
        self.inner, self.fake, self.before, self.after = inner, fake, before, after
        self.name = inner.name

    def new_game(self) -> None:
        super().new_game()
        self.inner.new_game()

    def cancel(self) -> None:
        self.inner.cancel()

    def resume(self) -> None:
        self.inner.resume()

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        self.fake.jump(self.before)
        move = self.inner.choose(board, clock)
        self.last_reason, self.last_kind = self.inner.last_reason, self.inner.last_kind
        self.fake.jump(self.after)
        return move


def clock_game(spec: str, seconds: float, *, seed: int = 1, latency: bool = True
               ) -> MatchGame:
    """``spec`` (Black) against random, ``seconds`` a side on the fake time source."""
    warm_up(spec)
    fake = FakeTime()
    program: Player = make_player(spec, seed=seed)
    if latency:  # the server's whole latency, a quarter before the move, the rest after
        program = Latency(program, fake, LATENCY_SECONDS / 4, 3 * LATENCY_SECONDS / 4)
    return play_game(program, make_player("random", seed=seed + 1), clock=seconds,
                     time_source=fake)


def assert_on_time(result: MatchGame, seconds: float) -> None:
    assert result.time_loss is None, f"lost on time after {len(result.moves)} moves"
    assert result.result.black + result.result.white == 64
    assert len(result.seconds) == len(result.moves)
    assert sum(result.seconds[0::2]) < seconds  # Black's moves: the program's


# ---- the budget rule ---------------------------------------------------------------------
@given(SECONDS, EMPTIES)
def test_budget_never_exceeds_the_time_left_minus_the_margin(remaining: float,
                                                             empties: int) -> None:
    b = move_budget(remaining, empties)
    assert 0.0 <= b.target <= b.hard <= max(0.0, remaining - safety_margin(remaining))
    assert b.target <= TARGET_SHARE * max(0.0, remaining - safety_margin(remaining)) + 1e-9


@given(SECONDS, SECONDS, EMPTIES)
def test_budget_shrinks_as_time_runs_out(a: float, b: float, empties: int) -> None:
    low, high = sorted((a, b))
    assert move_budget(low, empties).target <= move_budget(high, empties).target + 1e-9
    assert move_budget(low, empties).hard <= move_budget(high, empties).hard + 1e-9


@given(SECONDS, EMPTIES, EMPTIES)
def test_budget_grows_with_fewer_moves_to_play(remaining: float, a: int, b: int) -> None:
    fewer, more = sorted((a, b))
    assert move_budget(remaining, fewer).target >= move_budget(remaining, more).target - 1e-9


def test_middle_game_weighs_more_than_the_opening_and_the_solve_most() -> None:
    assert move_weight(56) < move_weight(36) < move_weight(22)
    assert move_weight(22) > move_weight(20) > move_weight(10)
    shares = [move_budget(100.0, e).target for e in range(1, 61)]  # 1 empty .. 60
    assert all(x >= y for x, y in itertools.pairwise(shares))


def test_too_little_time_is_urgent() -> None:
    assert move_budget(safety_margin(0.0), 30).urgent
    assert move_budget(0.0, 30) == Budget(0.0, 0.0)
    assert not move_budget(60.0, 30).urgent
    assert Budget(URGENT_SECONDS / 2, URGENT_SECONDS / 2).urgent


def test_the_last_own_move_may_use_everything_usable() -> None:
    b = move_budget(10.0, 1)
    assert b.hard == pytest.approx(10.0 - safety_margin(10.0))


def test_solve_fits_only_within_the_target() -> None:
    assert solve_seconds(22) > solve_seconds(20) > solve_seconds(20, "wld")
    assert fits(1.0, Budget(1.0, 3.0)) and not fits(1.01, Budget(1.0, 3.0))
    assert not fits(0.0, Budget(0.0, 0.0))  # urgent: nothing may start


def test_next_iteration_is_clamped() -> None:
    assert next_iteration([]) == 0.0
    assert next_iteration([0.5]) == pytest.approx(2.0)  # the default growth
    assert next_iteration([0.01, 1.0]) == pytest.approx(8.0)  # at most GROWTH_MAX
    assert next_iteration([1.0, 1.0]) == pytest.approx(2.0)  # at least GROWTH_MIN


def test_speed_is_kept_per_thread_count() -> None:
    """A solve on two threads is estimated at the two-thread speed, one on one thread at
    the one-thread speed, whatever order they were measured in."""
    speed = Speed()
    speed.measure(4_000_000, 1.0, "exact", threads=2)
    speed.measure(1_000_000, 1.0, "exact", threads=1)
    one, two = speed.solve_seconds(20, threads=1), speed.solve_seconds(20, threads=2)
    assert one == pytest.approx(solve_seconds(20, nps=1_000_000))
    assert two == pytest.approx(solve_seconds(20, nps=4_000_000))
    assert speed.solve_nps == 1_000_000 and speed.solve_at(2) == 4_000_000


def test_a_many_thread_speed_is_never_taken_for_fewer_threads() -> None:
    """Only a two-thread speed known: a one-thread solve is estimated at the default, not
    at the faster two-thread speed (it would start solves that cannot finish)."""
    speed = Speed()
    speed.measure(50_000_000, 1.0, "exact", threads=2)
    speed.measure(20_000_000, 1.0, "midgame", threads=2)
    assert speed.solve_at(1) is None and speed.search_nps is None
    assert speed.solve_seconds(20, threads=1) == pytest.approx(solve_seconds(20, nps=SOLVE_NPS))


def test_an_unmeasured_thread_count_takes_the_slower_speed_below() -> None:
    speed = Speed()
    speed.measure(2_000_000, 1.0, "midgame", threads=1)
    speed.measure(3_000_000, 1.0, "midgame", threads=3)
    assert speed.search_at(2) == 2_000_000 and speed.search_at(8) == 3_000_000
    # no solve measured: the searches' speed on those threads, scaled
    assert speed.solve_seconds(20, threads=8) < speed.solve_seconds(20, threads=2)


def test_short_searches_tell_no_speed() -> None:
    speed = Speed()
    speed.measure(10, 1.0, "exact", threads=2)
    speed.measure(10_000_000, 0.001, "exact", threads=2)
    assert speed.solve_at(2) is None


def test_an_engine_estimates_and_measures_at_its_own_threads(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """``Engine.solve_estimate`` asks its speed on the threads it has now (after
    ``set_threads`` too), and a finished search is counted on the threads it ran on."""
    engine = Engine(table_size=1 << 10)
    speed = engine._speed  # the engine's measurements: no search here is long enough to tell
    speed.measure(1_000_000, 1.0, "exact", threads=1)
    speed.measure(4_000_000, 1.0, "exact", threads=2)
    one = engine.solve_estimate(20)
    engine.set_threads(2)
    assert engine.solve_estimate(20) == pytest.approx(one / 4)
    for bad in (0, 65, 1.5, True):
        with pytest.raises(ValueError, match="threads must be a whole number from 1 to 64"):
            engine.set_threads(bad)  # type: ignore[arg-type]
    assert engine.threads == 2
    counted: list[int] = []
    monkeypatch.setattr(speed, "measure", lambda nodes, seconds, mode, threads=1:
                        counted.append(threads))
    engine.analyse(Board(), Limit(depth=3))
    assert counted == [2]


def test_move_time_reads_the_clock_again() -> None:
    fake = FakeTime()
    clock = Clock(30.0, time_source=fake)
    clock.start(BLACK)
    timer = MoveTime(clock, BLACK, 40)
    assert timer.left().hard <= timer.budget.hard
    fake.jump(29.9)  # time the player did not see pass
    assert timer.left().urgent


# ---- the engine on a budget ----------------------------------------------------------------
def position(empties: int, seed: int = 3) -> Board:
    board = Board()
    rng = random.Random(seed)
    while board.empties.bit_count() > empties:
        assert not board.is_game_over()
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_engine_solves_only_when_the_estimate_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    board = position(14)
    engine = Engine(table_size=1 << 14)
    estimates = {"exact": 5.0, "wld": 0.5}
    monkeypatch.setattr(engine, "solve_estimate", lambda empties, mode="exact": estimates[mode])
    roomy = Budget(100.0, 100.0)
    assert engine.play_timed(board, roomy, exact_from=20).analysis.mode == "exact"
    a = engine.play_timed(board, Budget(1.0, 100.0), exact_from=20).analysis
    assert a.mode == "wld" and a.exact
    a = engine.play_timed(board, Budget(0.1, 100.0), depth=4, exact_from=20).analysis
    assert a.mode == "midgame" and a.depth <= 4 and not a.exact
    # a level's limits are never extended: no solve above exact_from / wld_from
    assert engine.play_timed(board, roomy, depth=3, exact_from=12, wld_from=12
                             ).analysis.depth == 3


def test_engine_on_an_urgent_budget_plays_one_ply_at_once() -> None:
    engine = Engine(table_size=1 << 12)
    result = engine.play_timed(position(40), Budget(0.0, 0.0))
    assert result.analysis.depth == 1 and position(40).is_legal(result.move)


def test_engine_stopped_by_the_hard_limit_answers_its_deepest_finished_iteration() -> None:
    engine = Engine(table_size=1 << 14)
    board = position(44)
    a = engine.analyse(board, Limit(depth=60), budget=Budget(0.05, 0.05))
    assert 1 <= a.depth < 60 and board.is_legal(a.move)


def test_a_level_with_ample_time_plays_as_without_a_clock() -> None:
    for empties in (50, 30, 10):
        board = position(empties, seed=empties)
        clock = Clock(3600.0)
        clock.start(board.turn)
        timed = make_player("engine:3", seed=1).choose(board, clock)
        assert timed == make_player("engine:3", seed=1).choose(board)


@pytest.mark.parametrize(("number", "capped"), [(MAX_LEVEL - 1, True), (MAX_LEVEL, False)])
def test_on_a_clock_only_the_top_level_is_bounded_by_the_clock_alone(
        number: int, capped: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A level keeps its depth and endgame on a clock; the top level deepens and solves
    wherever its time allows (the time more threads save is spent, not given back), its
    time still shared out from its own endgame."""
    asked: list[dict[str, int]] = []

    def play_timed(self: Engine, board: Board, budget: object, **bounds: int) -> object:
        asked.append(bounds)
        raise LookupError("enough")

    monkeypatch.setattr(Engine, "play_timed", play_timed)
    board = position(40, seed=3)
    clock = Clock(600.0)
    clock.start(board.turn)
    with pytest.raises(LookupError):
        make_player(f"engine:{number}", seed=1).choose(board, clock)
    lv = LEVELS[number]
    own = {"depth": lv.depth, "exact_from": lv.exact_from, "wld_from": lv.wld_from,
           "selectivity": lv.selectivity}
    free = {"depth": 64, "exact_from": 64, "wld_from": 64, "selectivity": lv.selectivity}
    assert asked == [own if capped else free]


def test_on_the_wide_grid_the_top_level_keeps_its_bounds_on_a_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The solve's cost model is 8×8's: on Grand Othello the top level's clock does not
    lift its depth and endgame (a solve started on that model could overrun)."""
    asked: list[dict[str, int]] = []

    def play_timed(self: Engine, board: Board, budget: object, **bounds: int) -> object:
        asked.append(bounds)
        raise LookupError("enough")

    monkeypatch.setattr(Engine, "play_timed", play_timed)
    board = find_variant("grand")()
    clock = Clock(600.0)
    clock.start(board.turn)
    with pytest.raises(LookupError):
        make_player(f"engine:{MAX_LEVEL}", seed=1).choose(board, clock)
    lv = WIDE_LEVELS[MAX_LEVEL]
    assert asked == [{"depth": lv.depth, "exact_from": lv.exact_from,
                      "wld_from": lv.wld_from, "selectivity": lv.selectivity}]


@pytest.mark.parametrize("spec", ["victory", "amusement", "entertainer", "weakest"])
def test_programs_with_ample_time_play_as_without_a_clock(spec: str) -> None:
    untimed = play_game(make_player(spec, seed=5), make_player("random", seed=6))
    timed = play_game(make_player(spec, seed=5), make_player("random", seed=6), clock=3600.0)
    assert timed.moves == untimed.moves and timed.time_loss is None


# ---- players on a clock -------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["engine:10", "entertainer", "victory", "amusement",
                                  "weakest"])
def test_a_program_with_its_flag_about_to_fall_moves_at_once(spec: str) -> None:
    warm_up(spec)
    for empties in (50, 20, 12):
        board = position(empties, seed=7)
        fake = FakeTime()
        clock = Clock(60.0, time_source=fake)
        clock.start(board.turn)
        fake.jump(60.0 - safety_margin(0.0) / 2)  # less left than the margin
        player = make_player(spec, seed=1)
        move = player.choose(board, clock)
        assert board.is_legal(move) and not clock.flagged(board.turn)


def test_engine_10_on_a_minute_never_loses_on_time() -> None:
    assert_on_time(clock_game("engine:10", 60.0), 60.0)


def test_engine_10_on_five_seconds_never_loses_on_time() -> None:
    assert_on_time(clock_game("engine:10", 5.0, latency=False), 5.0)


@pytest.mark.parametrize("spec", ["entertainer", "victory"])
def test_paper_programs_and_the_entertainer_on_a_minute(spec: str) -> None:
    assert_on_time(clock_game(spec, 60.0), 60.0)


ALL_PROGRAMS = ["random", "greedy", "victory", "amusement", "entertainer", "weakest",
                *(f"engine:{n}" for n in range(1, MAX_LEVEL + 1))]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ALL_PROGRAMS)
def test_every_program_at_every_level_keeps_a_minute(spec: str) -> None:
    assert_on_time(clock_game(spec, 60.0, seed=11), 60.0)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["engine:10", "entertainer", "weakest", "amusement"])
def test_short_clocks_degrade_without_losing_on_time(spec: str) -> None:
    assert_on_time(clock_game(spec, 2.0, seed=12, latency=False), 2.0)
