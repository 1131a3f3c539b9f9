"""The paper's study with simulated weak players (paper §4: weak humans won 0/6 against the
victory program and 4/6 against the amusement program).

A panel of simple, seeded players stands in for the weak subjects
(:mod:`hasamigo.study.panel`: ``random``, ``greedy``, ``weighted1``, ``noisy2``,
``beginner``). Each member plays each program ``games`` games from the standard start,
colours alternating. The report gives the member's score (wins + ½ draws, %) against each
program and how many of the program's moves broke the naturalness bound
(:func:`~hasamigo.engine.players.naturalness.violations`).

**The paper's claim is a direction**: weak players do better against ``amusement`` than
against ``victory``. :func:`direction_tests` tests it per member with Fisher's exact test,
one-sided (the member wins more often against the amusement arm), on wins against
non-wins: a draw counts as a non-win (the paper counts wins, 0/6 and 4/6).

**The surprise window** is the study's setting (:data:`~hasamigo.study.protocol.
SURPRISE_WINDOWS`), the protocol's unless told (:func:`~hasamigo.study.protocol.
default_window`): ``moves``, the paper's (「意外性の手は３０～３５手で打つ」: the game's moves
30-35; the default of the ``paper`` protocol), plays the amusement arms' ``:moves``
programs; ``midgame``, the project's reading (those moves in the midgame phase only; the
``extended`` protocol's default), plays the arms as named (:func:`arm_spec`). The arm
keeps its name in the data either way.

**Treatment fidelity**: every game records the move numbers of the amusement program's
expectation and surprise moves (:func:`~hasamigo.engine.players.treatment_of`, read from the
game's record by the program's own rules) and the entertainer's gift moves (the moves it
reported as planned gifts); :meth:`Simulation.fidelity` gives the share of games where each
was played, per program and per member.

**Simulated subjects** (:func:`study_data`): game ``r`` of a member against each program
makes one subject (``{member}-{r}``) who played those games, in the programs' order for
even ``r`` and the reverse for odd ``r`` (counterbalanced). The subjects answer when the
study's protocol asks (:mod:`hasamigo.study.protocol`; the answers:
:func:`~hasamigo.study.panel.simulated_answers`): ``paper`` after each of their own moves,
``extended`` after each program move. The questionnaires come from the member's profile
(:data:`~hasamigo.study.panel.PROFILES`), the protocol's items only: ``paper`` asks the
strength before, and after the games the result of each (``reported_outcome``: a
simulated subject reports the real one), which was more fun and the strategies it knows
(``strategies_text``); ``extended`` asks strength, play frequency and strategies before
and how each game felt after it. ``more_fun`` is the arm the subject scored best against
(ties: the arm the member scores best against overall); ``felt`` (1–5) is 1 + 3 × the
game's points, rounded, + 1 for a close game (at most :data:`CLOSE_DISCS` discs apart),
at most 5.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hasamigo.board import Board
from hasamigo.engine.players import AmusementPlayer, make_player, treatment_of
from hasamigo.engine.players.base import GIFT_KINDS
from hasamigo.engine.players.naturalness import violations
from hasamigo.errors import InvalidOptionError
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.study.panel import (
    PANEL,
    PROFILES,
    BeginnerPlayer,
    NoisyMinimaxPlayer,
    SimAnswer,
    SubjectView,
    Weighted1Player,
    simulated_answers,
)
from hasamigo.study.protocol import (
    DEFAULT_PROTOCOL,
    MIDGAME_WINDOW,
    PAPER,
    PROTOCOLS,
    SURPRISE_WINDOWS,
    Timing,
    default_window,
)
from hasamigo.study.protocol import protocol as protocol_named
from hasamigo.study.records import (
    AnswerRecord,
    GameRecord,
    Outcome,
    StudyData,
    StudyMeta,
    SubjectRecord,
)
from hasamigo.study.settings import game_spec
from hasamigo.tournament.match import MatchGame, game_seed, play_game

PROGRAMS = ("victory", "amusement", "amusement:swing", "entertainer")
#: the baseline of the direction test and the arms tested against it
BASELINE = "victory"
AMUSEMENT_ARMS = ("amusement", "amusement:swing")
CLOSE_DISCS = 10
STUDY_NAME = "simulated"
#: the words of each strategy key in a paper-protocol subject's free-text answer
STRATEGY_WORDS = {"corners": "take the corners", "mobility": "keep the opponent's moves few"}


def arm_spec(program: str, window: str = MIDGAME_WINDOW) -> str:
    """The program that plays the arm ``program`` under the surprise ``window``, as in a
    stored study (:func:`~hasamigo.study.settings.game_spec`); an unknown window is an
    :class:`~hasamigo.errors.InvalidOptionError`.

    >>> arm_spec("amusement:swing", "moves"), arm_spec("victory", "moves")
    ('amusement:swing:moves', 'victory')
    """
    if window not in SURPRISE_WINDOWS:
        raise InvalidOptionError(f"unknown surprise window {window[:30]!r}; known: "
                                 f"{', '.join(SURPRISE_WINDOWS)}")
    return game_spec(program, window)


# ---- the games ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StudyTask:
    """One game of the study (picklable): the arm ``program`` played under the surprise
    ``window`` (:func:`arm_spec`); ``answers``: also simulate the answers, at the question
    times of ``timing``."""

    index: int
    member: str
    program: str
    seed: int
    answers: bool = False
    window: str = MIDGAME_WINDOW
    timing: Timing = "subject-move"

    @property
    def member_color(self) -> Color:
        return BLACK if self.index % 2 == 0 else WHITE

    @property
    def spec(self) -> str:
        """The program that plays the arm."""
        return arm_spec(self.program, self.window)


@dataclass(frozen=True, slots=True)
class StudyGame:
    """A game played, with the program's treatment: the move numbers of its expectation
    and surprise moves (``None``: not played) and its gift moves (the entertainer's)."""

    task: StudyTask
    result: MatchGame
    violations: int
    answers: tuple[SimAnswer, ...] = ()
    expectation_at: int | None = None
    surprise_at: int | None = None
    gifts: int = 0


def run_study_task(task: StudyTask) -> StudyGame:
    """Play one study game, count the program's naturalness violations and read what of
    its treatment it played."""
    member = PANEL[task.member](task.seed)
    program = make_player(task.spec, seed=task.seed + 1)
    color = task.member_color
    black, white = (member, program) if color is BLACK else (program, member)
    result = play_game(black, white, index=task.index, a_color=color)
    broke = violations(result.moves, result.kinds, color.other)
    board = Board()
    gifts = 0
    for move, kind in zip(result.moves, result.kinds, strict=True):
        gifts += board.turn is not color and kind in GIFT_KINDS
        board.push(move)
    expectation_at, surprise_at = treatment_of(task.spec, board, color.other)
    if isinstance(program, AmusementPlayer):  # its planned moves are the two above
        gifts = 0
    answers = (simulated_answers(result, task.member, task.seed, task.timing)
               if task.answers else ())
    return StudyGame(task, result, len(broke), answers, expectation_at, surprise_at, gifts)


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
                programs: Sequence[str] = PROGRAMS, answers: bool = False,
                window: str = MIDGAME_WINDOW, timing: Timing = "subject-move"
                ) -> list[StudyTask]:
    """The study's games: each panel member against each program, ``games`` each (the
    same games, seed for seed, whatever the window and the question times)."""
    panel = tuple(PANEL) if panel is None else panel
    tasks = []
    for member in panel:
        if member not in PANEL:
            raise InvalidOptionError(
                f"unknown panel player {member[:30]!r}; known: {', '.join(PANEL)}")
        for program in programs:
            make_player(arm_spec(program, window))
            for index in range(games):
                key = f"{seed}:{member}:{program}"
                tasks.append(StudyTask(index, member, program,
                                       game_seed(random.Random(key).getrandbits(62), index),
                                       answers, window, timing))
    return tasks


@dataclass(frozen=True, slots=True)
class Fidelity:
    """How often a program's treatment happened over ``games`` games: how many had its
    expectation move, its surprise move and at least one gift move."""

    games: int
    expectation: int
    surprise: int
    gifts: int

    @classmethod
    def of(cls, games: Sequence[StudyGame]) -> Fidelity:
        return cls(len(games), sum(g.expectation_at is not None for g in games),
                   sum(g.surprise_at is not None for g in games),
                   sum(g.gifts > 0 for g in games))

    def _pct(self, count: int) -> float:
        return 100.0 * count / self.games if self.games else 0.0

    @property
    def expectation_pct(self) -> float:
        return self._pct(self.expectation)

    @property
    def surprise_pct(self) -> float:
        return self._pct(self.surprise)

    @property
    def gift_pct(self) -> float:
        return self._pct(self.gifts)

    def as_json(self) -> dict[str, object]:
        return {"games": self.games, "expectation_pct": round(self.expectation_pct, 1),
                "surprise_pct": round(self.surprise_pct, 1),
                "gift_pct": round(self.gift_pct, 1)}


@dataclass(slots=True)
class Simulation:
    """A simulated study: the table's rows, the direction tests and the games played,
    under ``protocol`` and the surprise ``window``."""

    rows: list[StudyRow]
    tests: list[DirectionTest]
    games: list[StudyGame] = field(default_factory=list)
    protocol: str = DEFAULT_PROTOCOL
    window: str = MIDGAME_WINDOW

    @property
    def programs(self) -> list[str]:
        """The arms, in the rows' order."""
        return list(dict.fromkeys(r.program for r in self.rows))

    def fidelity(self) -> dict[str, Fidelity]:
        """Each program's treatment over all its games."""
        return {program: Fidelity.of([g for g in self.games if g.task.program == program])
                for program in self.programs}

    def fidelity_by_member(self) -> dict[str, dict[str, Fidelity]]:
        """Each program's treatment against each panel member: a member against whom it
        rarely happens (one who takes corners early ends the midgame) shows here."""
        members = list(dict.fromkeys(r.player for r in self.rows))
        return {program: {member: Fidelity.of([
            g for g in self.games if g.task.program == program and g.task.member == member])
            for member in members} for program in self.programs}

    def as_json(self) -> dict[str, object]:
        return {"protocol": self.protocol, "surprise_window": self.window,
                "rows": [r.as_json() for r in self.rows],
                "tests": [t.as_json() for t in self.tests],
                "fidelity": {p: f.as_json() for p, f in self.fidelity().items()},
                "fidelity_by_member": {
                    p: {m: f.as_json() for m, f in members.items()}
                    for p, members in self.fidelity_by_member().items()}}


#: what plays a study's games (in any order): the jobs runner's workers,
#: :func:`hasamigo.jobs.games.study_player`
Play = Callable[[Sequence[StudyTask]], Iterable[StudyGame]]


def run_simulation(games: int, *, seed: int = 0, play: Play | None = None,
                   panel: Sequence[str] | None = None, programs: Sequence[str] = PROGRAMS,
                   answers: bool = False, protocol: str = DEFAULT_PROTOCOL,
                   window: str | None = None,
                   on_game: Callable[[StudyGame], None] | None = None) -> Simulation:
    """Play the study; rows per (panel member, program), in panel then program order;
    ``answers``: also the simulated subjects' answers (for :func:`study_data`), at the
    question times of ``protocol`` (``paper`` or ``extended``); ``window``: the
    surprise move's (:func:`arm_spec`; ``None``: the protocol's). ``play``: what plays
    the games (:data:`Play`), instead of this process one after the other; the games are
    the same, and kept in the order of the tasks."""
    if protocol not in PROTOCOLS:
        raise InvalidOptionError(f"unknown protocol {protocol[:30]!r}; known: "
                                 f"{', '.join(PROTOCOLS)}")
    window = default_window(protocol) if window is None else window
    panel = tuple(PANEL) if panel is None else panel
    tasks = study_tasks(games, seed=seed, panel=panel, programs=programs, answers=answers,
                        window=window, timing=protocol_named(protocol).timing)
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
    return Simulation(rows, direction_tests(rows), every, protocol, window)


def simulate(games: int, *, seed: int = 0, play: Play | None = None,
             panel: Sequence[str] | None = None,
             programs: Sequence[str] = PROGRAMS, window: str | None = None,
             on_game: Callable[[StudyGame], None] | None = None) -> list[StudyRow]:
    """Play the study; one row per (panel member, program), in panel then program order
    (:func:`run_simulation`'s rows; ``window`` ``None``: the paper protocol's)."""
    return run_simulation(games, seed=seed, play=play, panel=panel, programs=programs,
                          window=window, on_game=on_game).rows


# ---- the study's records -----------------------------------------------------------------
def _outcome(points: float) -> Outcome:
    return "win" if points == 1.0 else "draw" if points == 0.5 else "lose"


def study_data(simulation: Simulation, *, study: str = STUDY_NAME,
               name: str = "Simulated study") -> StudyData:
    """The simulated study as the real one's records, under its protocol (see the module
    docstring), with its :class:`~hasamigo.study.records.StudyMeta`; the games must have
    been played with ``answers=True`` to have answers."""
    from hasamigo import __version__

    paper = simulation.protocol == PAPER
    by_subject: dict[tuple[str, int], dict[str, StudyGame]] = {}
    for game in simulation.games:
        by_subject.setdefault((game.task.member, game.task.index), {})[game.task.program] = game
    programs = [p for p in simulation.programs
                if any(p in arms for arms in by_subject.values())]
    overall = {(r.player, r.program): r.player_win_pct for r in simulation.rows}
    data = StudyData(meta=StudyMeta(
        study, name, simulation.protocol, tuple(programs), simulation.window,
        languages=("en",), software_version=__version__))
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
            play_frequency=None if paper else profile.play_frequency,
            strategies=() if paper else profile.strategies,
            more_fun=best, more_fun_why=f"simulated: the program it did best against ({best})",
            what_makes_fun="", protocol=simulation.protocol,
            strategies_text=", ".join(STRATEGY_WORDS.get(s, s) for s in profile.strategies)
            if paper else ""))
        for place, program in enumerate(order, 1):
            game = arms[program]
            result = game.result
            game_id = f"{study}:{subject}:{place}"
            diff = result.a_discs - result.b_discs
            felt = min(5, 1 + round(3 * result.a_points) + (abs(diff) <= CLOSE_DISCS))
            outcome = _outcome(result.a_points)
            data.games.append(GameRecord(
                study, subject, place, program, game_id,
                result.a_color.value, outcome, result.a_discs, result.b_discs,
                len(result.moves), None if paper else felt,
                reported_outcome=outcome if paper else None,
                expectation_at=game.expectation_at, surprise_at=game.surprise_at,
                gifts=game.gifts))
            for a in game.answers:
                data.answers.append(AnswerRecord(
                    study, subject, place, program, game_id, a.move_number, a.program_move,
                    a.move_kind, a.position, a.can_win, a.move_felt, a.seconds, a.evaluation,
                    a.exact, timing=a.timing, about_move=a.about_move,
                    subject_moves=a.subject_moves))
    return data


def write_study(simulation: Simulation, directory: str | Path, *,
                title: str = "Simulated study") -> list[Path]:
    """The exports of :func:`study_data` into ``directory`` (three CSV files and
    ``study.json``) and the report (``report.html``) as for a real study."""
    data = study_data(simulation, name=title)
    written = data.write(directory)
    from hasamigo.study.report import write_report

    written.append(write_report(data, Path(directory) / "report.html", title=title, lang="en"))
    return written


__all__ = [
    "AMUSEMENT_ARMS",
    "BASELINE",
    "PANEL",
    "PROFILES",
    "PROGRAMS",
    "BeginnerPlayer",
    "DirectionTest",
    "Fidelity",
    "NoisyMinimaxPlayer",
    "Simulation",
    "StudyGame",
    "StudyRow",
    "StudyTask",
    "SubjectView",
    "Weighted1Player",
    "arm_spec",
    "direction_tests",
    "run_simulation",
    "run_study_task",
    "simulate",
    "study_data",
    "study_tasks",
    "write_study",
]
