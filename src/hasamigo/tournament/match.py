"""Matches between two players: openings played twice, Elo with a 95% interval.

Game ``i`` of a match uses opening ``i // 2`` and gives player A Black when ``i`` is even,
White when odd, so every opening is played with both colours. Each game's seed is derived
from the match seed and ``i`` alone, and the players are made afresh for each game, so the
results are the same whatever plays the games: here, one after the other, or the jobs
runner's workers (:func:`hasamigo.jobs.games.match_player`, ``hasamigo match``). Results
use the official score (:meth:`hasamigo.Board.outcome`: empties to the winner), as a
:class:`~hasamigo.game.result.GameResult`.

**On a clock** (``clock`` seconds a side) each side's time is a real :class:`Clock` over
the real time, charged as the game's controller charges it: from the offer of the turn
to the move. Each program gets a copy, as the web server gives it one, and manages its
time (:mod:`hasamigo.engine.timing`). A side whose flag falls loses on time: the opponent
(a program) claims at once, and the game counts as the 33–31 time-out win
(:func:`hasamigo.game.result.timeout_win`). The kernels are loaded (or compiled) before
the clock starts, as the server does. Timing makes such games differ from run to run.

>>> elo_difference(0.5)
0.0
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import functools
import math
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hasamigo.board import Board
from hasamigo.engine.players import PlayerSpec, check_spec, make_player
from hasamigo.engine.players.base import Player
from hasamigo.engine.players.strong import EnginePlayer
from hasamigo.errors import ExternalEngineError, HasamigoError, InvalidOptionError, ParseError
from hasamigo.game.clock import Clock, TimeSource
from hasamigo.game.result import GameResult, timeout_win
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.notation.record import GameRecord
from hasamigo.notation.transcript import read_transcripts

Z95 = 1.959963984540054
WARM_UP_SECONDS = 5.0  # the clock of the throw-away player that loads the kernels ...
WARM_UP_EMPTIES = 14  # ... and the empties of its position near the end


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One finished game of a match: the moves from the opening's end, what each player
    said, which colour player A had, and the game's :class:`GameResult` (a time loss is
    its ``Termination.TIMEOUT``, 33–31 to the other side)."""

    index: int
    opening: tuple[Move, ...]
    moves: tuple[Move, ...]
    kinds: tuple[str, ...]
    reasons: tuple[str | None, ...]
    a_color: Color
    result: GameResult
    #: the seconds charged for each of ``moves`` (empty without a clock)
    seconds: tuple[float, ...] = ()

    @property
    def time_loss(self) -> Color | None:
        """On a clock: the side whose flag fell (the game ended there)."""
        return self.result.lost_on_time

    @property
    def a_lost_on_time(self) -> bool:
        return self.time_loss is self.a_color

    @property
    def b_lost_on_time(self) -> bool:
        return self.time_loss is not None and self.time_loss is not self.a_color

    @property
    def a_points(self) -> float:
        """1 for a win of A, ½ for a draw, 0 for a loss."""
        return self.result.points_of(self.a_color)

    @property
    def a_discs(self) -> int:
        return self.result.counts_for(self.a_color)

    @property
    def b_discs(self) -> int:
        return self.result.counts_for(self.a_color.other)


class GameAbortedError(HasamigoError, RuntimeError):
    """A game that could not be finished because a player failed (an external engine that
    died twice or played an illegal move): the message says why; the moves played until
    then are kept (``opening``, ``moves``) so that nothing is lost."""

    code = "game_aborted"

    def __init__(self, message: str, *, index: int = 0, opening: tuple[Move, ...] = (),
                 moves: tuple[Move, ...] = (), a_color: Color = BLACK) -> None:
        super().__init__(message)
        self.index, self.opening, self.moves, self.a_color = index, opening, moves, a_color

    def __reduce__(self) -> tuple[object, ...]:  # across the worker processes, whole
        return (_aborted, (str(self), self.index, self.opening, self.moves, self.a_color))

    def record(self, a: PlayerSpec, b: PlayerSpec) -> GameRecord:
        """The unfinished game as a record (no result), between the specs ``a`` and ``b``."""
        black, white = (str(a), str(b)) if self.a_color is BLACK else (str(b), str(a))
        return GameRecord(moves=[*self.opening, *self.moves], black=black, white=white,
                          event=f"hasamigo match game {self.index + 1}, aborted: {self}")


def _aborted(message: str, index: int, opening: tuple[Move, ...], moves: tuple[Move, ...],
             a_color: Color) -> GameAbortedError:
    return GameAbortedError(message, index=index, opening=opening, moves=moves,
                            a_color=a_color)


def play_game(black: Player, white: Player, opening: Sequence[Move] = (), *, index: int = 0,
              a_color: Color = BLACK, clock: float | None = None,
              time_source: TimeSource = time.monotonic) -> MatchGame:
    """Play ``opening`` then let the players move until the game ends; with ``clock``,
    each side has that many seconds for its moves (measured by ``time_source``) and a
    side whose flag falls loses on time. An external engine that fails ends the game
    with :class:`GameAbortedError` (holding the moves played)."""
    board = Board()
    for move in opening:
        board.push(move)
    black.new_game()
    white.new_game()
    moves: list[Move] = []
    kinds: list[str] = []
    reasons: list[str | None] = []
    seconds: list[float] = []
    timer = None if clock is None else Clock(clock, time_source=time_source)
    time_loss: Color | None = None
    if timer is not None and not board.is_game_over():
        timer.start(board.turn)
    while not board.is_game_over():
        color = board.turn
        player = black if color is BLACK else white
        try:
            move = (player.choose(board) if timer is None
                    else _timed_choice(player, board, timer, time_source))
        except ExternalEngineError as exc:
            raise GameAbortedError(f"game {index + 1}: {exc}", index=index,
                                   opening=tuple(opening), moves=tuple(moves),
                                   a_color=a_color) from exc
        if timer is not None:
            seconds.append(timer.press(color))
            if timer.remaining(color) <= 0:  # the opponent claims the fallen flag
                seconds.pop()
                time_loss = color
                break
        board.push(move)
        moves.append(move)
        kinds.append(player.last_kind)
        reasons.append(player.last_reason)
    if timer is not None:
        timer.stop()
    if time_loss is None:
        outcome = board.outcome()
        assert outcome is not None
        result = GameResult.from_outcome(outcome)
    else:
        result = timeout_win(time_loss.other, squares=board.square_count())
    return MatchGame(index, tuple(opening), tuple(moves), tuple(kinds), tuple(reasons), a_color,
                     result, tuple(seconds))


def _timed_choice(player: Player, board: Board, clock: Clock, time_source: TimeSource) -> Move:
    """``player``'s move on a copy of ``clock`` (as the server hands a program its clock);
    when its flag falls the player is stopped (its answer will not count anyway)."""
    color = board.turn
    fired = threading.Event()

    def flag() -> None:
        fired.set()
        player.cancel()

    watch = threading.Timer(max(0.0, clock.remaining(color)), flag)
    watch.daemon = True
    watch.start()
    try:
        return player.choose(board, Clock.from_state(clock.state(), time_source=time_source))
    finally:
        watch.cancel()
        if fired.is_set():
            player.resume()


def warm_up(spec: PlayerSpec | str) -> None:
    """Load (the first time: compile) the kernels ``spec`` uses, so that a game on a clock
    does not charge them to the first moves: a throw-away player of that spec moves once
    at the start and once near the end (the solvers' kernels), on a clock of its own."""
    near_end = Board()
    rng = random.Random(0)
    while near_end.empties.bit_count() > WARM_UP_EMPTIES and not near_end.is_game_over():
        near_end.push(rng.choice(list(near_end.legal_moves)))
    for position in (Board(), near_end):
        if position.is_game_over() or not position.legal_moves_mask():
            continue
        clock = Clock(WARM_UP_SECONDS)
        clock.start(position.turn)
        player = make_player(spec, seed=0)
        try:
            player.choose(position, clock)
        finally:
            player.close()


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game ``index``: a function of the match seed and the index only."""
    return random.Random(f"hasamigo-match:{match_seed}:{index}").getrandbits(62)


def random_opening(plies: int, seed: int) -> tuple[Move, ...]:
    """``plies`` random legal moves from the start (fewer if the game ends)."""
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return tuple(board.move_stack)


def read_openings(path: str | os.PathLike[str]) -> list[tuple[Move, ...]]:
    """The openings of a transcript file (one per line); a bad line raises
    :class:`ParseError` naming the file."""
    out = []
    for record in read_transcripts(path):
        if record.problem:
            raise ParseError(record.problem, source=os.fspath(path))
        out.append(tuple(record.moves))
    if not out:
        raise ParseError("no openings", source=os.fspath(path))
    return out


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything a worker needs to play one game (picklable)."""

    index: int
    a: PlayerSpec
    b: PlayerSpec
    opening: tuple[Move, ...]
    seed: int
    clock: float | None = None  # seconds a side
    #: pattern-weights files the engine players ``a`` and ``b`` evaluate with (None: the
    #: shipped weights)
    a_weights: str | None = None
    b_weights: str | None = None

    @property
    def a_color(self) -> Color:
        return BLACK if self.index % 2 == 0 else WHITE


_WARM: set[PlayerSpec] = set()  # the specs whose kernels this process has loaded


def run_task(task: GameTask) -> MatchGame:
    """Play one game of a match (the unit of work of the jobs runner's workers)."""
    if task.clock is not None:
        for spec in (task.a, task.b):
            if spec not in _WARM:
                warm_up(spec)
                _WARM.add(spec)
    a = make_player(task.a, seed=task.seed)
    b = make_player(task.b, seed=task.seed + 1)
    for player, weights in ((a, task.a_weights), (b, task.b_weights)):
        if weights is not None:
            _with_weights(player, weights)
    black, white = (a, b) if task.a_color is BLACK else (b, a)
    try:
        return play_game(black, white, task.opening, index=task.index, a_color=task.a_color,
                         clock=task.clock)
    finally:  # an external engine's process ends with its game
        a.close()
        b.close()


@functools.cache
def weights_params(path: str) -> np.ndarray:
    """The evaluation parameters of the pattern-weights file ``path``, read once a process
    (:class:`~hasamigo.errors.ParseError` for a file that is not one)."""
    from hasamigo.engine.evaluation import load_weights, params_from_weights

    return params_from_weights(load_weights(path))


def _no_weights(name: object) -> InvalidOptionError:
    return InvalidOptionError(f"{name} plays without pattern weights: only an engine player "
                              f"(engine:N) takes a weights file")


def check_weights(spec: PlayerSpec, path: str) -> None:
    """Refuse a weights file for a player that is no engine, or a file that is not pattern
    weights (:class:`~hasamigo.errors.InvalidOptionError`, :class:`ParseError`)."""
    if spec.program != "engine":
        raise _no_weights(spec)
    weights_params(path)


def _with_weights(player: Player, path: str) -> None:
    if not isinstance(player, EnginePlayer):
        raise _no_weights(player.name)
    player.use_params(weights_params(path))


def match_tasks(a: PlayerSpec, b: PlayerSpec, games: int, *, seed: int = 0,
                openings: Sequence[Sequence[Move]] | None = None,
                random_plies: int = 0, clock: float | None = None,
                a_weights: str | None = None, b_weights: str | None = None) -> list[GameTask]:
    """The games of a match, in order, between the players ``a`` and ``b`` (checked
    against the registry: :class:`~hasamigo.errors.InvalidOptionError` for one it does
    not play; ``a_weights``/``b_weights``: a pattern-weights file an engine player
    evaluates with, checked here). Openings are taken in a seeded shuffled order."""
    check_spec(a)
    check_spec(b)
    for spec, weights in ((a, a_weights), (b, b_weights)):
        if weights is not None:
            check_weights(spec, weights)
    order: list[tuple[Move, ...]] = [tuple(o) for o in openings] if openings else []
    random.Random(f"hasamigo-openings:{seed}").shuffle(order)
    tasks = []
    for index in range(games):
        pair = index // 2
        if order:
            opening = order[pair % len(order)]
        elif random_plies:
            opening = random_opening(random_plies, game_seed(seed, 2 * pair))
        else:
            opening = ()
        tasks.append(GameTask(index, a, b, opening, game_seed(seed, index), clock,
                              a_weights, b_weights))
    return tasks


def elo_difference(score: float) -> float | None:
    """Elo difference for an expected score in [0, 1]; ``None`` (infinite) at 0 or 1."""
    if score <= 0.0 or score >= 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no -0.0 at even


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float | None, float | None]:
    """95% interval of the Elo difference (normal approximation on the mean score per game);
    a bound is ``None`` when it is infinite."""
    n = wins + draws + losses
    if n == 0:
        return None, None
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    margin = Z95 * math.sqrt(var / n)
    low = elo_difference(s - margin) if s - margin > 0 else None
    high = elo_difference(s + margin) if s + margin < 1 else None
    return low, high


@dataclass
class MatchSummary:
    """Tallies of a match from A's point of view."""

    a: PlayerSpec
    b: PlayerSpec
    results: list[MatchGame] = field(default_factory=list)
    clock: float | None = None  # seconds a side, if the games were played on a clock

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def a_wins(self) -> int:
        return sum(r.a_points == 1.0 for r in self.results)

    @property
    def draws(self) -> int:
        return sum(r.a_points == 0.5 for r in self.results)

    @property
    def b_wins(self) -> int:
        return sum(r.a_points == 0.0 for r in self.results)

    @property
    def a_discs(self) -> int:
        return sum(r.a_discs for r in self.results)

    @property
    def b_discs(self) -> int:
        return sum(r.b_discs for r in self.results)

    @property
    def a_time_losses(self) -> int:
        return sum(r.a_lost_on_time for r in self.results)

    @property
    def b_time_losses(self) -> int:
        return sum(r.b_lost_on_time for r in self.results)

    @property
    def a_score_pct(self) -> float:
        if not self.results:
            return 0.0
        return 100.0 * sum(r.a_points for r in self.results) / self.games

    @property
    def elo(self) -> float | None:
        return elo_difference(self.a_score_pct / 100.0) if self.results else None

    @property
    def elo_ci95(self) -> tuple[float | None, float | None]:
        return elo_interval(self.a_wins, self.draws, self.b_wins)

    def as_json(self) -> dict[str, object]:
        """The summary for ``--json``; ``time_losses: {a, b}`` only on a clock."""
        low, high = self.elo_ci95
        out: dict[str, object] = {
            "a": str(self.a),
            "b": str(self.b),
            "games": self.games,
            "a_wins": self.a_wins,
            "draws": self.draws,
            "b_wins": self.b_wins,
            "a_score_pct": round(self.a_score_pct, 2),
            "elo": None if self.elo is None else round(self.elo, 1),
            "elo_ci95": [None if low is None else round(low, 1),
                         None if high is None else round(high, 1)],
        }
        if self.clock is not None:
            out["time_losses"] = {"a": self.a_time_losses, "b": self.b_time_losses}
        return out

    def records(self) -> list[GameRecord]:
        """The games as records (GGF-ready), in game order."""
        out = []
        for r in sorted(self.results, key=lambda r: r.index):
            black, white = ((str(self.a), str(self.b)) if r.a_color is BLACK
                            else (str(self.b), str(self.a)))
            event = f"hasamigo match game {r.index + 1}"
            if r.time_loss is not None:  # the moves stop where the flag fell
                event += f", {r.time_loss} lost on time"
            out.append(GameRecord(moves=[*r.opening, *r.moves], black=black, white=white,
                                  event=event,
                                  recorded_score=r.result.black))
        return out


def run_match(a: PlayerSpec, b: PlayerSpec, games: int, *, seed: int = 0,
              openings: Sequence[Sequence[Move]] | None = None, random_plies: int = 0,
              on_result: Callable[[MatchGame], None] | None = None,
              out: str | os.PathLike[str] | None = None,
              clock: float | None = None,
              play: Callable[[Sequence[GameTask]], Iterable[MatchGame]] | None = None,
              a_weights: str | None = None, b_weights: str | None = None,
              ) -> MatchSummary:
    """Play a match of ``games`` games between the players ``a`` and ``b`` (a spec's text
    is read by :func:`~hasamigo.engine.players.player_spec`); optionally save every game
    to ``out``.
    ``clock``: seconds a side for each game (each worker process keeps its own clocks).
    ``play``: what plays the games (in any order), instead of this process one after the
    other: the jobs runner's workers, :func:`hasamigo.jobs.games.match_player`.
    ``a_weights``/``b_weights``: a pattern-weights file (``hasamigo corpus train``,
    ``train-eval``) that the engine player ``a`` or ``b`` evaluates with instead of the
    shipped one: two evaluations measured against each other.

    A game a player could not finish raises :class:`GameAbortedError`, after the games
    finished before it and the unfinished one (its moves so far) are saved to ``out``."""
    # bad specs fail here, before any process starts
    tasks = match_tasks(a, b, games, seed=seed, openings=openings, random_plies=random_plies,
                        clock=clock, a_weights=a_weights, b_weights=b_weights)
    summary = MatchSummary(a, b, clock=clock)
    try:
        played = map(run_task, tasks) if play is None else play(tasks)
        for result in played:
            summary.results.append(result)
            if on_result is not None:
                on_result(result)
    except GameAbortedError as exc:
        summary.results.sort(key=lambda r: r.index)
        if out is not None:
            from hasamigo.notation import write_games

            write_games(Path(out), [*summary.records(), exc.record(a, b)])
        raise
    summary.results.sort(key=lambda r: r.index)
    if out is not None:
        from hasamigo.notation import write_games

        write_games(Path(out), summary.records())
    return summary
