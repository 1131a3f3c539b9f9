"""The paper's study with simulated weak players (paper §4: weak humans won 0/6 against the
victory program and 4/6 against the amusement program).

A panel of simple, seeded players stands in for the weak subjects:

* ``random`` — any legal move;
* ``greedy`` — the most discs flipped;
* ``weighted1`` — 1 ply over the classic weighted-square table (no search, no mobility);
* ``noisy2`` — 2-ply weighted-square minimax (the victory program's phases) with Gaussian
  noise of :data:`NOISE_SIGMA` added to each root move's value;
* ``beginner`` — the first rule every beginner learns: take a corner when one is offered,
  otherwise play like ``noisy2``.

Each member plays each program ``games`` games from the standard start, colours alternating.
The report gives the member's score (wins + ½ draws, %) against each program and how many of
the program's moves broke the naturalness bound
(:func:`~hasamigo.engine.players.naturalness.violations`).

**The paper's claim is a direction**: weak players do better against ``amusement`` than
against ``victory``. :func:`direction_tests` tests it per member with Fisher's exact test,
one-sided (the member wins more often against the amusement arm), on wins against
non-wins: a draw counts as a non-win (the paper counts wins, 0/6 and 4/6).

**Simulated subjects** (:func:`study_data`): game ``r`` of a member against each program
makes one subject (``{member}-{r}``) who played those games, in the programs' order for
even ``r`` and the reverse for odd ``r`` (counterbalanced). After every program move that
does not end the game the subject answers from its own model of the position
(:class:`SubjectView`): ``can_win`` from its evaluation of the position it faces, mapped by
thresholds to win / unknown / lose; ``move_felt`` from where the program's move ranks among
the program's options by the subject's own criterion (expected: among its top two;
surprising: in the bottom third; unknown between; a forced move is expected).
``move_kind`` is the program's :attr:`~hasamigo.engine.players.base.Player.last_kind`.
``evaluation`` is a cheap stand-in for the strong engine's (the real study's is deep): the
engine at :data:`EVALUATION_DEPTH` plies, exact from :data:`EXACT_EMPTIES` empties.
``seconds`` is simulated: :data:`ANSWER_SECONDS` plus an exponential delay of mean
:data:`ANSWER_DELAY` (seeded). The questionnaires come from the member's profile
(:data:`PROFILES`); ``more_fun`` is the arm the subject scored best against (ties: the
arm the member scores best against overall); ``felt`` (1–5) is 1 + 3 × the game's points,
rounded, + 1 for a close game (at most :data:`CLOSE_DISCS` discs apart), at most 5.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.players import make_player
from hasamigo.engine.players.base import FORCED, Player, squares_of
from hasamigo.engine.players.naturalness import violations
from hasamigo.engine.players.paper import (
    ENDGAME,
    move_values,
    phase,
    square_total,
    weighted_value,
)
from hasamigo.errors import InvalidOptionError
from hasamigo.game.clock import Clock
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.study.records import (
    MOVE_KINDS,
    AnswerRecord,
    CanWin,
    GameRecord,
    MoveFelt,
    MoveKind,
    Outcome,
    StudyData,
    SubjectRecord,
)
from hasamigo.tournament.match import MatchGame, game_seed, play_game

PROGRAMS = ("victory", "amusement", "amusement:swing", "entertainer")
#: the baseline of the direction test and the arms tested against it
BASELINE = "victory"
AMUSEMENT_ARMS = ("amusement", "amusement:swing")
NOISE_SIGMA = 40.0
EVALUATION_DEPTH = 2
EXACT_EMPTIES = 12
ANSWER_SECONDS = 2.0
ANSWER_DELAY = 4.0
CLOSE_DISCS = 10
STUDY_NAME = "simulated"


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


class BeginnerPlayer(NoisyMinimaxPlayer):
    """The first rule every beginner learns: take a corner when one is offered (the best
    of them by the 2-ply search if several); otherwise play like ``noisy2``."""

    name = "beginner"

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        mask = board.legal_moves_mask()
        corners = [c for c in board.corners() if mask >> c & 1]
        if not corners:
            return super()._choose(board, clock)
        values = move_values(board, self.depth)
        top = max(values[c] for c in corners)
        sq = self.rng.choice([c for c in corners if values[c] == top])
        self.explain(f"a corner: {board.square_name(sq)}")
        return Move(sq)


PANEL: dict[str, Callable[[int], Player]] = {
    "random": lambda seed: make_player("random", seed=seed),
    "greedy": lambda seed: make_player("greedy", seed=seed),
    "weighted1": lambda seed: Weighted1Player(seed=seed),
    "noisy2": lambda seed: NoisyMinimaxPlayer(seed=seed),
    "beginner": lambda seed: BeginnerPlayer(seed=seed),
}


# ---- the subjects' own view ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Profile:
    """What a panel member would answer in the questionnaires, and how it sees a position:
    ``view`` is ``discs`` (disc counts), ``squares`` (the weighted-square total) or
    ``search`` (the 2-ply weighted minimax, with :data:`NOISE_SIGMA` noise)."""

    strength: int
    play_frequency: str
    strategies: tuple[str, ...]
    view: str


PROFILES: dict[str, Profile] = {
    "random": Profile(1, "never", (), "discs"),
    "greedy": Profile(2, "rarely", (), "discs"),
    "weighted1": Profile(2, "rarely", ("corners",), "squares"),
    "noisy2": Profile(3, "sometimes", ("corners", "mobility"), "search"),
    "beginner": Profile(2, "sometimes", ("corners",), "search"),
}
#: |value| beyond which a view says win / lose: discs, and weighted-square units
DISC_MARGIN = 6
SQUARE_MARGIN = 40


class SubjectView:
    """A panel member's model of the game, for its answers (see the module docstring)."""

    def __init__(self, member: str, rng: random.Random) -> None:
        self.profile = PROFILES[member]
        self.rng = rng

    def _noise(self) -> float:
        return self.rng.gauss(0.0, NOISE_SIGMA) if self.profile.view == "search" else 0.0

    def position(self, board: Board) -> tuple[float, int]:
        """Its evaluation of ``board`` for the side to move, and the margin beyond which
        that means a win or a loss."""
        me = board.turn
        if self.profile.view == "discs":
            return float(board.discs(me).bit_count() - board.discs(me.other).bit_count()), (
                DISC_MARGIN)
        if self.profile.view == "squares":
            return float(square_total(board, me)), SQUARE_MARGIN
        stage = phase(board)
        if not board.legal_moves_mask():  # it must pass: the opponent's view, negated
            board.push(Move(None))
            try:
                value = -weighted_value(board, 1, stage)
            finally:
                board.pop()
        else:
            value = weighted_value(board, 2, stage)
        margin = DISC_MARGIN if stage == ENDGAME else SQUARE_MARGIN
        return value + (self._noise() if stage != ENDGAME else 0.0), margin

    def can_win(self, board: Board) -> CanWin:
        value, margin = self.position(board)
        return "win" if value > margin else "lose" if value < -margin else "unknown"

    def options(self, board: Board) -> dict[int, float]:
        """How it rates each of the side to move's options (higher: better for the mover)."""
        view = self.profile.view
        if view == "discs":
            return {sq: float(board.flips(Move(sq)).bit_count()) for sq in squares_of(board)}
        if view == "squares":
            me = board.turn
            out = {}
            for sq in squares_of(board):
                board.push(Move(sq))
                out[sq] = float(square_total(board, me))
                board.pop()
            return out
        return {sq: v + self._noise() for sq, v in move_values(board, 2).items()}

    def move_felt(self, board: Board, move: Move) -> MoveFelt:
        """How the program's ``move`` on ``board`` (before it) felt."""
        if move.square is None or len(board.legal_moves) < 2:
            return "expected"
        rated = self.options(board)
        mine = rated[move.square]
        better = sum(v > mine for v in rated.values())
        if better <= 1:
            return "expected"
        if better >= math.ceil(2 * len(rated) / 3):
            return "surprising"
        return "unknown"


@dataclass(frozen=True, slots=True)
class SimAnswer:
    """A simulated subject's answers after one program move (no study or subject yet)."""

    move_number: int
    program_move: str
    move_kind: MoveKind
    position: str
    can_win: CanWin
    move_felt: MoveFelt
    seconds: float
    evaluation: float
    exact: bool


def _kind(kind: str) -> MoveKind:
    if kind == FORCED:
        return "normal"
    for known in MOVE_KINDS:
        if kind == known:
            return known
    return "normal"


def simulated_answers(result: MatchGame, member: str, seed: int) -> tuple[SimAnswer, ...]:
    """The answers the member (``result``'s A) gives after each program move of a game."""
    rng = random.Random(f"hasamigo-study-answers:{seed}")
    view = SubjectView(member, rng)
    engine = Engine(table_size=1 << 12)
    program = result.a_color.other
    board = Board()
    out = []
    for number, (move, kind) in enumerate(zip(result.moves, result.kinds, strict=True), 1):
        mover = board.turn
        felt: MoveFelt = "expected"
        if mover is program:
            felt = view.move_felt(board, move)
        board.push(move)
        if mover is not program or board.is_game_over():
            continue
        empties = board.empties.bit_count()
        engine.clear()
        if empties <= EXACT_EMPTIES:
            analysis = engine.solve(board, "exact")
        else:
            analysis = engine.analyse(board, Limit(depth=EVALUATION_DEPTH))
        seconds = round(ANSWER_SECONDS + rng.expovariate(1.0 / ANSWER_DELAY), 1)
        out.append(SimAnswer(number, board.move_name(move), _kind(kind), board.to_string(),
                             view.can_win(board), felt, seconds, float(analysis.score),
                             analysis.exact))
    return tuple(out)


# ---- the games ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StudyTask:
    """One game of the study (picklable); ``answers``: also simulate the answers."""

    index: int
    member: str
    program: str
    seed: int
    answers: bool = False

    @property
    def member_color(self) -> Color:
        return BLACK if self.index % 2 == 0 else WHITE


@dataclass(frozen=True, slots=True)
class StudyGame:
    task: StudyTask
    result: MatchGame
    violations: int
    answers: tuple[SimAnswer, ...] = ()


def run_study_task(task: StudyTask) -> StudyGame:
    """Play one study game and count the program's naturalness violations."""
    member = PANEL[task.member](task.seed)
    program = make_player(task.program, seed=task.seed + 1)
    color = task.member_color
    black, white = (member, program) if color is BLACK else (program, member)
    result = play_game(black, white, index=task.index, a_color=color)
    broke = violations(result.moves, result.kinds, color.other)
    answers = simulated_answers(result, task.member, task.seed) if task.answers else ()
    return StudyGame(task, result, len(broke), answers)


@dataclass(frozen=True, slots=True)
class StudyRow:
    player: str
    program: str
    games: int
    player_win_pct: float
    naturalness_violations: int
    wins: int = 0
    draws: int = 0

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "program": self.program,
            "games": self.games,
            "player_win_pct": round(self.player_win_pct, 1),
            "naturalness_violations": self.naturalness_violations,
        }


@dataclass(frozen=True, slots=True)
class DirectionTest:
    """Does ``player`` win more often against ``program`` than against ``baseline``?
    Fisher's exact test, one-sided, on wins and non-wins (draws are non-wins)."""

    player: str
    program: str
    baseline: str
    wins: int
    games: int
    baseline_wins: int
    baseline_games: int
    score_pct: float
    baseline_score_pct: float
    odds_ratio: float
    p_value: float

    @property
    def direction_holds(self) -> bool:
        """The member scores higher (wins + ½ draws) against ``program``."""
        return self.score_pct > self.baseline_score_pct

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "program": self.program,
            "baseline": self.baseline,
            "test": "fisher-exact, one-sided (wins vs non-wins; a draw is a non-win)",
            "wins": self.wins,
            "games": self.games,
            "baseline_wins": self.baseline_wins,
            "baseline_games": self.baseline_games,
            "player_win_pct": round(self.score_pct, 1),
            "baseline_win_pct": round(self.baseline_score_pct, 1),
            "odds_ratio": None if math.isinf(self.odds_ratio) or math.isnan(self.odds_ratio)
            else round(self.odds_ratio, 3),
            "p_value": self.p_value,
            "direction_holds": self.direction_holds,
        }


def direction_tests(rows: Sequence[StudyRow], *, baseline: str = BASELINE,
                    programs: Sequence[str] = AMUSEMENT_ARMS) -> list[DirectionTest]:
    """One test per (member, amusement arm) present in ``rows`` with the baseline."""
    from scipy.stats import fisher_exact

    cells = {(r.player, r.program): r for r in rows}
    out = []
    for r in rows:
        base = cells.get((r.player, baseline))
        if r.program not in programs or base is None or not r.games or not base.games:
            continue
        table = [[r.wins, r.games - r.wins], [base.wins, base.games - base.wins]]
        odds, p = fisher_exact(table, alternative="greater")
        out.append(DirectionTest(r.player, r.program, baseline, r.wins, r.games, base.wins,
                                 base.games, r.player_win_pct, base.player_win_pct,
                                 float(odds), float(p)))
    return out


def study_tasks(games: int, *, seed: int = 0, panel: Sequence[str] | None = None,
                programs: Sequence[str] = PROGRAMS, answers: bool = False) -> list[StudyTask]:
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
                                       game_seed(random.Random(key).getrandbits(62), index),
                                       answers))
    return tasks


@dataclass(slots=True)
class Simulation:
    """A simulated study: the table's rows, the direction tests and the games played."""

    rows: list[StudyRow]
    tests: list[DirectionTest]
    games: list[StudyGame] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"rows": [r.as_json() for r in self.rows],
                "tests": [t.as_json() for t in self.tests]}


#: what plays a study's games (in any order): the jobs runner's workers,
#: :func:`hasamigo.jobs.games.study_player`
Play = Callable[[Sequence[StudyTask]], Iterable[StudyGame]]


def run_simulation(games: int, *, seed: int = 0, play: Play | None = None,
                   panel: Sequence[str] | None = None, programs: Sequence[str] = PROGRAMS,
                   answers: bool = False,
                   on_game: Callable[[StudyGame], None] | None = None) -> Simulation:
    """Play the study; rows per (panel member, program), in panel then program order;
    ``answers``: also the simulated subjects' answers (for :func:`study_data`).
    ``play``: what plays the games (:data:`Play`), instead of this process one after
    the other; the games are the same, and kept in the order of the tasks."""
    panel = tuple(PANEL) if panel is None else panel
    tasks = study_tasks(games, seed=seed, panel=panel, programs=programs, answers=answers)
    played: dict[tuple[str, str], list[StudyGame]] = {}
    every: list[StudyGame] = []
    for game in map(run_study_task, tasks) if play is None else play(tasks):
        played.setdefault((game.task.member, game.task.program), []).append(game)
        every.append(game)
        if on_game is not None:
            on_game(game)
    order = {task: number for number, task in enumerate(tasks)}
    every.sort(key=lambda game: order[game.task])
    for done in played.values():
        done.sort(key=lambda game: order[game.task])
    rows = []
    for member in panel:
        for program in programs:
            done = played.get((member, program), [])
            points = sum(g.result.a_points for g in done)
            rows.append(StudyRow(member, program, len(done),
                                 100.0 * points / len(done) if done else 0.0,
                                 sum(g.violations for g in done),
                                 sum(g.result.a_points == 1.0 for g in done),
                                 sum(g.result.a_points == 0.5 for g in done)))
    return Simulation(rows, direction_tests(rows), every)


def simulate(games: int, *, seed: int = 0, play: Play | None = None,
             panel: Sequence[str] | None = None,
             programs: Sequence[str] = PROGRAMS,
             on_game: Callable[[StudyGame], None] | None = None) -> list[StudyRow]:
    """Play the study; one row per (panel member, program), in panel then program order
    (:func:`run_simulation`'s rows)."""
    return run_simulation(games, seed=seed, play=play, panel=panel, programs=programs,
                          on_game=on_game).rows


# ---- the study's records -----------------------------------------------------------------
def _outcome(points: float) -> Outcome:
    return "win" if points == 1.0 else "draw" if points == 0.5 else "lose"


def study_data(simulation: Simulation, *, study: str = STUDY_NAME) -> StudyData:
    """The simulated study as the real one's records (see the module docstring); the
    games must have been played with ``answers=True`` to have answers."""
    by_subject: dict[tuple[str, int], dict[str, StudyGame]] = {}
    programs: list[str] = []
    for game in simulation.games:
        by_subject.setdefault((game.task.member, game.task.index), {})[game.task.program] = game
        if game.task.program not in programs:
            programs.append(game.task.program)
    overall = {(r.player, r.program): r.player_win_pct for r in simulation.rows}
    data = StudyData()
    for (member, rep), arms in by_subject.items():
        subject = f"{member}-{rep + 1:03d}"
        order = tuple(p for p in programs if p in arms)
        if rep % 2:
            order = order[::-1]
        profile = PROFILES[member]
        best = max(order, key=lambda p: (arms[p].result.a_points,
                                         overall.get((member, p), 0.0), -order.index(p)))
        data.subjects.append(SubjectRecord(
            study, subject, order, language="en", simulated=True, strength=profile.strength,
            play_frequency=profile.play_frequency, strategies=profile.strategies,
            more_fun=best, more_fun_why=f"simulated: the program it did best against ({best})",
            what_makes_fun=""))
        for place, program in enumerate(order, 1):
            game = arms[program]
            result = game.result
            game_id = f"{study}:{subject}:{place}"
            diff = result.a_discs - result.b_discs
            felt = min(5, 1 + round(3 * result.a_points) + (abs(diff) <= CLOSE_DISCS))
            data.games.append(GameRecord(
                study, subject, place, program, game_id,
                result.a_color.value, _outcome(result.a_points),
                result.a_discs, result.b_discs, len(result.moves), felt))
            for a in game.answers:
                data.answers.append(AnswerRecord(
                    study, subject, place, program, game_id, a.move_number, a.program_move,
                    a.move_kind, a.position, a.can_win, a.move_felt, a.seconds, a.evaluation,
                    a.exact))
    return data


def write_study(simulation: Simulation, directory: str | Path, *,
                title: str = "Simulated study") -> list[Path]:
    """The exports of :func:`study_data` into ``directory`` (three CSV files and
    ``study.json``) and the report (``report.html``) as for a real study."""
    data = study_data(simulation)
    written = data.write(directory)
    from hasamigo.study.report import write_report

    written.append(write_report(data, Path(directory) / "report.html", title=title, lang="en"))
    return written
