"""The simulated study's subjects: the panel of weak players and the answers they give.

A panel of simple, seeded players stands in for the paper's weak subjects (§4.2):

* ``random`` — any legal move;
* ``greedy`` — the most discs flipped;
* ``weighted1`` — 1 ply over the classic weighted-square table (no search, no mobility);
* ``noisy2`` — 2-ply weighted-square minimax (the victory program's phases) with Gaussian
  noise of :data:`NOISE_SIGMA` added to each root move's value;
* ``beginner`` — the first rule every beginner learns: take a corner when one is offered,
  otherwise play like ``noisy2``.

**The answers** (:func:`simulated_answers`) come from the member's own model of the
position (:class:`SubjectView`), asked when the study's protocol asks
(:mod:`hasamigo.study.protocol`):

* ``subject-move`` (the paper's 「被験者が１手打つごとに」): after each of the subject's own
  moves, passes excepted, the last one too. ``can_win`` is judged at the position after
  that move; ``move_felt`` is about the program's move before it (``about_move``), none
  at Black's first move (``move_felt`` ``None``, ``program_move`` "");
* ``program-move`` (the extended protocol's): after every program move that does not end
  the game, about that move, judged at the position it leaves.

``can_win`` maps the member's evaluation of the position, from its own side, by thresholds
to win / unknown / lose (at the game's end: the result); ``move_felt`` is where the
program's move ranks among the program's options by the member's own criterion (expected:
among its top two; surprising: in the bottom third; unknown between; a forced move or a
pass is expected). ``move_kind`` is the program's
:attr:`~hasamigo.engine.players.base.Player.last_kind` for that move. ``evaluation`` is a
cheap stand-in for the strong engine's (the real study's is deep), from the subject's
side: the engine at :data:`EVALUATION_DEPTH` plies, exact from :data:`EXACT_EMPTIES`
empties. ``seconds`` is simulated: :data:`ANSWER_SECONDS` plus an exponential delay of mean
:data:`ANSWER_DELAY` (seeded).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.players import make_player
from hasamigo.engine.players.base import FORCED, Player, squares_of
from hasamigo.engine.players.paper import (
    ENDGAME,
    move_values,
    phase,
    square_total,
    weighted_value,
)
from hasamigo.game.clock import Clock
from hasamigo.move import BLACK, Color, Move
from hasamigo.study.protocol import PROGRAM_MOVE, SUBJECT_MOVE, Timing
from hasamigo.study.records import MOVE_KINDS, CanWin, MoveFelt, MoveKind
from hasamigo.tournament.match import MatchGame

NOISE_SIGMA = 40.0
EVALUATION_DEPTH = 2
EXACT_EMPTIES = 12
ANSWER_SECONDS = 2.0
ANSWER_DELAY = 4.0


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

    def position(self, board: Board, colour: Color | None = None) -> tuple[float, int]:
        """Its evaluation of ``board`` for ``colour`` (default: the side to move), and the
        margin beyond which that means a win or a loss; a finished game is its disc
        difference, any margin at all."""
        me = board.turn if colour is None else colour
        if board.is_game_over() or self.profile.view == "discs":
            difference = board.discs(me).bit_count() - board.discs(me.other).bit_count()
            return float(difference), 0 if board.is_game_over() else DISC_MARGIN
        if self.profile.view == "squares":
            return float(square_total(board, me)), SQUARE_MARGIN
        stage = phase(board)
        mine = board.turn is me
        if not board.legal_moves_mask():  # the side to move must pass: the other's view
            board.push(Move(None))
            try:
                value = weighted_value(board, 1, stage)
            finally:
                board.pop()
            mine = not mine
        else:  # its own move and the reply; or, the opponent to move, its best reply
            value = weighted_value(board, 2 if mine else 1, stage)
        value = value if mine else -value
        margin = DISC_MARGIN if stage == ENDGAME else SQUARE_MARGIN
        return value + (self._noise() if stage != ENDGAME else 0.0), margin

    def can_win(self, board: Board, colour: Color | None = None) -> CanWin:
        """Its answer to "can you win now?" on ``board``, playing ``colour`` (default: the
        side to move)."""
        value, margin = self.position(board, colour)
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


# ---- the answers -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SimAnswer:
    """A simulated subject's answers at one question time (no study or subject yet); the
    fields are :class:`~hasamigo.study.records.AnswerRecord`'s."""

    move_number: int
    program_move: str
    move_kind: MoveKind
    position: str
    can_win: CanWin
    move_felt: MoveFelt | None
    seconds: float
    evaluation: float
    exact: bool
    timing: Timing
    about_move: int | None
    subject_moves: int


@dataclass(frozen=True, slots=True)
class _ProgramMove:
    """The program's latest move, as the next answers speak of it."""

    ply: int
    name: str
    kind: MoveKind
    felt: MoveFelt


def _kind(kind: str) -> MoveKind:
    if kind == FORCED:
        return "normal"
    for known in MOVE_KINDS:
        if kind == known:
            return known
    return "normal"


def _evaluation(engine: Engine, board: Board, subject: Color) -> tuple[float, bool]:
    """The engine's evaluation of ``board`` from ``subject``'s side, and whether it is
    exact; a finished game is its official result."""
    outcome = board.outcome()
    if outcome is not None:
        difference = outcome.disc_difference
        return float(difference if subject is BLACK else -difference), True
    engine.clear()
    if board.empties.bit_count() <= EXACT_EMPTIES:
        analysis = engine.solve(board, "exact")
    else:
        analysis = engine.analyse(board, Limit(depth=EVALUATION_DEPTH))
    score = float(analysis.score)
    return (score if board.turn is subject else -score), analysis.exact


def simulated_answers(result: MatchGame, member: str, seed: int,
                      timing: Timing = "subject-move") -> tuple[SimAnswer, ...]:
    """The answers the member (``result``'s A) gives in a game, at the question times of
    ``timing`` (see the module docstring; the default is the paper's)."""
    if timing not in (SUBJECT_MOVE, PROGRAM_MOVE):
        raise ValueError(f"timing {timing!r}: expected {SUBJECT_MOVE!r} or {PROGRAM_MOVE!r}")
    rng = random.Random(f"hasamigo-study-answers:{seed}")
    view = SubjectView(member, rng)
    engine = Engine(table_size=1 << 12)
    subject = result.a_color
    board = Board()
    out = []
    last: _ProgramMove | None = None  # the program's move the next answers are about
    played = 0  # the subject's moves so far

    def answer(ply: int, about: _ProgramMove | None) -> SimAnswer:
        evaluation, exact = _evaluation(engine, board, subject)
        seconds = round(ANSWER_SECONDS + rng.expovariate(1.0 / ANSWER_DELAY), 1)
        return SimAnswer(
            ply, about.name if about else "", about.kind if about else "normal",
            board.to_string(), view.can_win(board, subject), about.felt if about else None,
            seconds, evaluation, exact, timing, about.ply if about else None, played)

    for ply, (move, kind) in enumerate(zip(result.moves, result.kinds, strict=True), 1):
        if board.turn is subject:
            board.push(move)
            if not move.is_pass:
                played += 1
                if timing == SUBJECT_MOVE:
                    out.append(answer(ply, last))
                    last = None
            continue
        felt = view.move_felt(board, move)
        board.push(move)
        last = _ProgramMove(ply, board.move_name(move), _kind(kind), felt)
        if timing == PROGRAM_MOVE and not board.is_game_over():
            out.append(answer(ply, last))
    return tuple(out)


__all__ = [
    "ANSWER_DELAY",
    "ANSWER_SECONDS",
    "DISC_MARGIN",
    "EVALUATION_DEPTH",
    "EXACT_EMPTIES",
    "NOISE_SIGMA",
    "PANEL",
    "PROFILES",
    "SQUARE_MARGIN",
    "BeginnerPlayer",
    "NoisyMinimaxPlayer",
    "Profile",
    "SimAnswer",
    "SubjectView",
    "Weighted1Player",
    "simulated_answers",
]
