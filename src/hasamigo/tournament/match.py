"""Matches between two players: games in parallel, openings played twice, Elo with a 95% interval.

Game ``i`` of a match uses opening ``i // 2`` and gives player A Black when ``i`` is even,
White when odd, so every opening is played with both colours. Each game's seed is derived
from the match seed and ``i`` alone, and the players are made afresh for each game, so the
results are the same whatever the number of worker processes. Results use the official
score (:meth:`hasamigo.Board.outcome`: empties to the winner).

>>> elo_difference(0.5)
0.0
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from hasamigo.board import Board, Outcome
from hasamigo.engine.players import make_player
from hasamigo.engine.players.base import Player
from hasamigo.errors import ParseError
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.notation.record import GameRecord
from hasamigo.notation.transcript import read_transcripts

Z95 = 1.959963984540054
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: the moves from the opening's end, what each player said, the score."""

    index: int
    opening: tuple[Move, ...]
    moves: tuple[Move, ...]
    kinds: tuple[str, ...]
    reasons: tuple[str | None, ...]
    a_color: Color
    outcome: Outcome

    @property
    def a_points(self) -> float:
        """1 for a win of A, ½ for a draw, 0 for a loss."""
        if self.outcome.winner is None:
            return 0.5
        return 1.0 if self.outcome.winner is self.a_color else 0.0

    @property
    def a_discs(self) -> int:
        return self.outcome.black if self.a_color is BLACK else self.outcome.white

    @property
    def b_discs(self) -> int:
        return self.outcome.white if self.a_color is BLACK else self.outcome.black


def play_game(black: Player, white: Player, opening: Sequence[Move] = (), *, index: int = 0,
              a_color: Color = BLACK) -> GameResult:
    """Play ``opening`` then let the players move until the game ends."""
    board = Board()
    for move in opening:
        board.push(move)
    black.new_game()
    white.new_game()
    moves: list[Move] = []
    kinds: list[str] = []
    reasons: list[str | None] = []
    while not board.is_game_over():
        player = black if board.turn is BLACK else white
        move = player.choose(board)
        board.push(move)
        moves.append(move)
        kinds.append(player.last_kind)
        reasons.append(player.last_reason)
    outcome = board.outcome()
    assert outcome is not None
    return GameResult(index, tuple(opening), tuple(moves), tuple(kinds), tuple(reasons), a_color,
                      outcome)


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
    a: str
    b: str
    opening: tuple[Move, ...]
    seed: int

    @property
    def a_color(self) -> Color:
        return BLACK if self.index % 2 == 0 else WHITE


def run_task(task: GameTask) -> GameResult:
    """Play one game of a match (the unit of work of the process pool)."""
    a = make_player(task.a, seed=task.seed)
    b = make_player(task.b, seed=task.seed + 1)
    black, white = (a, b) if task.a_color is BLACK else (b, a)
    return play_game(black, white, task.opening, index=task.index, a_color=task.a_color)


def match_tasks(a: str, b: str, games: int, *, seed: int = 0,
                openings: Sequence[Sequence[Move]] | None = None,
                random_plies: int = 0) -> list[GameTask]:
    """The games of a match, in order. Openings are taken in a seeded shuffled order."""
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
        tasks.append(GameTask(index, a, b, opening, game_seed(seed, index)))
    return tasks


def run_tasks(tasks: Sequence[T], worker: Callable[[T], R], *, jobs: int = 1) -> Iterator[R]:
    """Run ``worker`` (a module-level function) on each task, on ``jobs`` processes (1: in this
    process); results come in task order."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield worker(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(worker, tasks, chunksize=1)


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

    a: str
    b: str
    results: list[GameResult] = field(default_factory=list)

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
        low, high = self.elo_ci95
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "draws": self.draws,
            "b_wins": self.b_wins,
            "a_score_pct": round(self.a_score_pct, 2),
            "elo": None if self.elo is None else round(self.elo, 1),
            "elo_ci95": [None if low is None else round(low, 1),
                         None if high is None else round(high, 1)],
        }

    def records(self) -> list[GameRecord]:
        """The games as records (GGF-ready), in game order."""
        out = []
        for r in sorted(self.results, key=lambda r: r.index):
            black, white = (self.a, self.b) if r.a_color is BLACK else (self.b, self.a)
            out.append(GameRecord(moves=[*r.opening, *r.moves], black=black, white=white,
                                  event=f"hasamigo match game {r.index + 1}",
                                  recorded_score=r.outcome.black))
        return out


def run_match(a: str, b: str, games: int, *, seed: int = 0,
              openings: Sequence[Sequence[Move]] | None = None, random_plies: int = 0,
              jobs: int = 1, on_result: Callable[[GameResult], None] | None = None,
              out: str | os.PathLike[str] | None = None) -> MatchSummary:
    """Play a match of ``games`` games between the specs ``a`` and ``b`` (see
    :func:`~hasamigo.engine.players.make_player`); optionally save every game to ``out``."""
    make_player(a)  # bad specs fail here, before any process starts
    make_player(b)
    tasks = match_tasks(a, b, games, seed=seed, openings=openings, random_plies=random_plies)
    summary = MatchSummary(a, b)
    for result in run_tasks(tasks, run_task, jobs=jobs):
        summary.results.append(result)
        if on_result is not None:
            on_result(result)
    summary.results.sort(key=lambda r: r.index)
    if out is not None:
        from hasamigo.notation import write_games

        write_games(Path(out), summary.records())
    return summary
