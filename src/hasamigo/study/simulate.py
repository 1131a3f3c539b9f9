"""The paper's study with simulated weak players (paper §4: weak humans won 0/6 against the
victory program and 4/6 against the amusement program).

A panel of simple, seeded players stands in for the weak subjects:

* ``random`` — any legal move;
* ``greedy`` — the most discs flipped;
* ``weighted1`` — 1 ply over the classic weighted-square table (no search, no mobility);
* ``noisy2`` — 2-ply weighted-square minimax (the victory program's phases) with Gaussian
  noise of :data:`NOISE_SIGMA` added to each root move's value.

Each member plays each program ``games`` games from the standard start, colours alternating.
The report gives the member's score (wins + ½ draws, %) against each program and how many of
the program's moves broke the naturalness bound
(:func:`~hasamigo.engine.players.naturalness.violations`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.engine.players import make_player
from hasamigo.engine.players.base import Player, squares_of
from hasamigo.engine.players.naturalness import violations
from hasamigo.engine.players.paper import move_values, square_total
from hasamigo.errors import InvalidOptionError
from hasamigo.game.clock import Clock
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.tournament.match import GameResult, game_seed, play_game, run_tasks

PROGRAMS = ("victory", "amusement", "entertainer")
NOISE_SIGMA = 40.0


class Weighted1Player(Player):
    """The move with the best classic weighted-square total right after it (1 ply)."""

    name = "weighted1"

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        me = board.turn
        scored = []
        for sq in squares_of(board):
            board.push(Move(sq))
            total = square_total(board, me)
            board.pop()
            scored.append((total, sq))
        top = max(t for t, _ in scored)
        sq = self.rng.choice([s for t, s in scored if t == top])
        self.explain(f"weighted squares, 1 ply ({top})")
        return Move(sq)


class NoisyMinimaxPlayer(Player):
    """2-ply weighted-square minimax with Gaussian noise on each root move's value."""

    name = "noisy2"

    def __init__(self, *, seed: int | None = None, depth: int = 2,
                 sigma: float = NOISE_SIGMA) -> None:
        super().__init__(seed=seed)
        self.depth = depth
        self.sigma = sigma

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        values = move_values(board, self.depth)
        noisy = {sq: v + self.rng.gauss(0.0, self.sigma) for sq, v in values.items()}
        sq = max(noisy, key=lambda s: noisy[s])
        self.explain(f"noisy {self.depth}-ply minimax ({values[sq]})")
        return Move(sq)


PANEL: dict[str, Callable[[int], Player]] = {
    "random": lambda seed: make_player("random", seed=seed),
    "greedy": lambda seed: make_player("greedy", seed=seed),
    "weighted1": lambda seed: Weighted1Player(seed=seed),
    "noisy2": lambda seed: NoisyMinimaxPlayer(seed=seed),
}

@dataclass(frozen=True, slots=True)
class StudyTask:
    """One game of the study (picklable)."""

    index: int
    member: str
    program: str
    seed: int

    @property
    def member_color(self) -> Color:
        return BLACK if self.index % 2 == 0 else WHITE


@dataclass(frozen=True, slots=True)
class StudyGame:
    task: StudyTask
    result: GameResult
    violations: int


def run_study_task(task: StudyTask) -> StudyGame:
    """Play one study game and count the program's naturalness violations."""
    member = PANEL[task.member](task.seed)
    program = make_player(task.program, seed=task.seed + 1)
    color = task.member_color
    black, white = (member, program) if color is BLACK else (program, member)
    result = play_game(black, white, index=task.index, a_color=color)
    broke = violations(result.moves, result.kinds, color.other)
    return StudyGame(task, result, len(broke))


@dataclass(frozen=True, slots=True)
class StudyRow:
    player: str
    program: str
    games: int
    player_win_pct: float
    naturalness_violations: int

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "program": self.program,
            "games": self.games,
            "player_win_pct": round(self.player_win_pct, 1),
            "naturalness_violations": self.naturalness_violations,
        }


def study_tasks(games: int, *, seed: int = 0, panel: Sequence[str] | None = None,
                programs: Sequence[str] = PROGRAMS) -> list[StudyTask]:
    """The study's games: each panel member against each program, ``games`` each."""
    panel = tuple(PANEL) if panel is None else panel
    tasks = []
    for member in panel:
        if member not in PANEL:
            raise InvalidOptionError(
                f"unknown panel player {member[:30]!r}; known: {', '.join(PANEL)}")
        for program in programs:
            make_player(program)
            for index in range(games):
                key = f"{seed}:{member}:{program}"
                tasks.append(StudyTask(index, member, program,
                                       game_seed(random.Random(key).getrandbits(62), index)))
    return tasks


def simulate(games: int, *, seed: int = 0, jobs: int = 1, panel: Sequence[str] | None = None,
             programs: Sequence[str] = PROGRAMS,
             on_game: Callable[[StudyGame], None] | None = None) -> list[StudyRow]:
    """Play the study; one row per (panel member, program), in panel then program order."""
    panel = tuple(PANEL) if panel is None else panel
    tasks = study_tasks(games, seed=seed, panel=panel, programs=programs)
    played: dict[tuple[str, str], list[StudyGame]] = {}
    for game in run_tasks(tasks, run_study_task, jobs=jobs):
        played.setdefault((game.task.member, game.task.program), []).append(game)
        if on_game is not None:
            on_game(game)
    rows = []
    for member in panel:
        for program in programs:
            done = played.get((member, program), [])
            points = sum(g.result.a_points for g in done)
            rows.append(StudyRow(member, program, len(done),
                                 100.0 * points / len(done) if done else 0.0,
                                 sum(g.violations for g in done)))
    return rows
