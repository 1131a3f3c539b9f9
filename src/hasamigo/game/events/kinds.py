"""The kinds of event a game is made of (:mod:`hasamigo.game.events` says what each is
for): :class:`Event`, the base, and one frozen dataclass per kind, with the constants their
fields take. Their JSON form is :mod:`hasamigo.game.events.codec`'s.

Each kind is registered where it is defined (:func:`register`, its decorator): that makes
:data:`EVENT_TYPES`, the one list of them, which the codec reads. The package
(:mod:`hasamigo.game.events`) exports this module's ``__all__``; ``tests/test_game_events_kinds.py``
checks that no kind is left out of either, nor without a rule in the fold or a codec for
its fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final, TypeVar

from hasamigo.move import Color


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event: ``at`` is when it happened (seconds of the time source)."""

    kind: ClassVar[str] = ""
    at: float = field(kw_only=True)


#: every kind of event by its ``kind``: the one list of them, made by :func:`register`
#: as each class is defined (the JSON codec reads it; the fold has a rule for each)
EVENT_TYPES: dict[str, type[Event]] = {}

E = TypeVar("E", bound=Event)


def register(cls: type[E]) -> type[E]:
    """Make an event class known (its ``kind`` must be new): the decorator of every kind
    of event, here and wherever one is added."""
    if not cls.kind or cls.kind in EVENT_TYPES:
        raise ValueError(f"event kind {cls.kind!r} is empty or taken")
    EVENT_TYPES[cls.kind] = cls
    return cls


# ---- colours -------------------------------------------------------------------------
#: The colour-decision steps. ``choose``: participant takes colour ``value``; ``draw``:
#: random colours, ``value`` is the participant (``0``/``1``) drawn to play Black;
#: ``hider``: the hider drawn when rank and age don't decide (``value`` ``0``/``1``);
#: ``hide``: the hidden disc's top face (``black``/``white``), drawn by the server;
#: ``call``: ``top``/``bottom`` with draws, ``black``/``white`` without; ``right``:
#: ``draw-win``/``colour``; ``colour``: the colour-right holder's pick.
COLOUR_STEPS = ("choose", "draw", "hider", "hide", "call", "right", "colour")


@register
@dataclass(frozen=True, slots=True)
class ColourStep(Event):
    """A step of deciding colours (see :data:`COLOUR_STEPS`); ``participant`` took it
    (``None``: the server's draw)."""

    kind: ClassVar[str] = "colour"
    step: str
    value: str
    participant: int | None


# ---- play ----------------------------------------------------------------------------
@register
@dataclass(frozen=True, slots=True)
class MovePlayed(Event):
    """A disc placed by ``colour`` on ``square`` (a grid index). Named ``Move`` in the
    issue; ``MovePlayed`` here so as not to shadow :class:`hasamigo.Move`.

    ``turned``: the discs the mover chose to turn under a 挟み碁 flip rule (a mask, as
    :attr:`hasamigo.Move.turned`); ``None``, every bracketed disc. In JSON a list of square
    names, ``"turned": ["d4", "e5"]``, left out when ``None`` (so events written before
    the flip rules read as they were)."""

    kind: ClassVar[str] = "move"
    colour: Color
    square: int
    turned: int | None = None


@register
@dataclass(frozen=True, slots=True)
class Pass(Event):
    """``colour`` passes (only allowed when it has no legal move)."""

    kind: ClassVar[str] = "pass"
    colour: Color


# ---- time ----------------------------------------------------------------------------
@register
@dataclass(frozen=True, slots=True)
class Claim(Event):
    """``by`` claims that ``flagged``'s flag has fallen; ``by == flagged`` is a player's
    self-report."""

    kind: ClassVar[str] = "claim"
    by: Color
    flagged: Color


@register
@dataclass(frozen=True, slots=True)
class TimeoutChoice(Event):
    """The time-out winner's choice: ``33-31`` or ``playout`` (勝手打ち)."""

    kind: ClassVar[str] = "timeout-choice"
    choice: str


@register
@dataclass(frozen=True, slots=True)
class StopPlayout(Event):
    """The play-out ends: the winner stopped, or (``timed_out``) the winner's own time ran
    out, at ``at``; the count then stands."""

    kind: ClassVar[str] = "stop-playout"
    timed_out: bool = False


@register
@dataclass(frozen=True, slots=True)
class Suspend(Event):
    """The server stopped (or was last seen alive) at ``at``: the clock stops."""

    kind: ClassVar[str] = "suspend"


@register
@dataclass(frozen=True, slots=True)
class Resume(Event):
    """The server is back: the clock runs again from ``at`` for the side it ran for."""

    kind: ClassVar[str] = "resume"


@register
@dataclass(frozen=True, slots=True)
class ProgramWaiting(Event):
    """The program of ``participant`` cannot move yet from ``at``: the kernels it searches
    with are being compiled or loaded (a fresh server's first run). Its clock does not run
    until :class:`ProgramReady`; an official game does not begin, nor go on, meanwhile
    (neither clock runs, nobody moves)."""

    kind: ClassVar[str] = "program-waiting"
    participant: int | None


@register
@dataclass(frozen=True, slots=True)
class ProgramReady(Event):
    """The program of ``participant`` can move from ``at``: its clock runs again when it
    is on move (an official game begins, or goes on, once no program waits)."""

    kind: ClassVar[str] = "program-ready"
    participant: int | None


# ---- seats -----------------------------------------------------------------------------
@register
@dataclass(frozen=True, slots=True)
class SeatNamed(Event):
    """The person of participant ``seat`` (``0``/``1``) plays under ``name`` from now on:
    an account took that seat (a join link, a seat kept for it, a game of the terminal
    taken over), and the game calls the side by the account's name instead of the name
    the setup gave it (the creator's "Player 2", the terminal's "You"). The setup itself
    is never changed; the fold renames the participant (a name is checked as any
    participant's, and the two players' names stay different); a program's seat is never
    renamed."""

    kind: ClassVar[str] = "seat-named"
    seat: int
    name: str


# ---- ending and taking back ------------------------------------------------------------
@register
@dataclass(frozen=True, slots=True)
class Resign(Event):
    kind: ClassVar[str] = "resign"
    colour: Color


@register
@dataclass(frozen=True, slots=True)
class AcceptResult(Event):
    """``colour`` accepts the result; once both have, a time-out can no longer be
    claimed."""

    kind: ClassVar[str] = "accept"
    colour: Color


@register
@dataclass(frozen=True, slots=True)
class UndoRequest(Event):
    """``colour`` asks to take back its last move (two people: the other must consent)."""

    kind: ClassVar[str] = "undo-request"
    colour: Color


@register
@dataclass(frozen=True, slots=True)
class UndoDecline(Event):
    """``colour`` refuses the opponent's take-back request."""

    kind: ClassVar[str] = "undo-decline"
    colour: Color


@register
@dataclass(frozen=True, slots=True)
class Undo(Event):
    """``colour``'s last move is taken back, with everything played after it."""

    kind: ClassVar[str] = "undo"
    colour: Color


# ---- over the board ------------------------------------------------------------------------
@register
@dataclass(frozen=True, slots=True)
class OverTheBoard(Event):
    """The game is played on a real board with a chess clock: the server keeps the clock
    and the record but the board is the players'. The clock stays stopped until the side
    that does not move first presses it (rule 5: White); it is then driven by
    :class:`ClockPress` alone, never by moves entered. ``scheduled``: the round's start
    (a late player's clock runs from it); ``byoyomi``: a player with at most this many
    seconds left is in 秒読み byo-yomi (0: only once the flag has fallen)."""

    kind: ClassVar[str] = "over-the-board"
    scheduled: float | None = None
    byoyomi: float = 0.0


@register
@dataclass(frozen=True, slots=True)
class ClockPress(Event):
    """``colour`` presses its clock button: its turn ends (with a move on the board, or
    with a declared pass when ``passed``) and the opponent's time runs. The first press
    starts the game."""

    kind: ClassVar[str] = "press"
    colour: Color
    passed: bool = False


@register
@dataclass(frozen=True, slots=True)
class Absent(Event):
    """Participant ``participant`` is not there at the start: their clock runs from
    ``since`` (the scheduled start; rule 12)."""

    kind: ClassVar[str] = "absent"
    participant: int | None
    since: float


@register
@dataclass(frozen=True, slots=True)
class Arrival(Event):
    """The late participant arrives: the clock stops; they play on the time left (rule 13)."""

    kind: ClassVar[str] = "arrival"
    participant: int | None


@register
@dataclass(frozen=True, slots=True)
class LateForfeit(Event):
    """The late participant chooses a forfeit loss instead of playing (rule 13): 64–0,
    not rated."""

    kind: ClassVar[str] = "late-forfeit"
    participant: int | None


@register
@dataclass(frozen=True, slots=True)
class IllegalClaim(Event):
    """``by`` claims, on its own turn, that the opponent's last move was illegal (rule
    6①): the turn goes back to the offender to correct it, or, when the offender was in
    byo-yomi, the correction is followed by a time-out (rule 15). The game's last move
    may be claimed after the game ended, whatever the time left (rule 10): see
    :func:`hasamigo.game.procedures.over_board.last_move_claimant`."""

    kind: ClassVar[str] = "illegal-claim"
    by: Color


@register
@dataclass(frozen=True, slots=True)
class EnteredMove(Event):
    """A move as it was played on the board: ``by`` moved, putting a disc on ``placed``
    (``None``: a pass), and ``board`` is the cells afterwards (a board string's cells) —
    so a wrong colour, wrong turns and displaced discs are all in the record. A legal one
    is a move like any other; a faulty one waits for the recorder's decision."""

    kind: ClassVar[str] = "entered-move"
    by: Color
    placed: int | None
    board: str


@register
@dataclass(frozen=True, slots=True)
class CorrectEntry(Event):
    """The recorder corrects the faulty move entered last: the board returns to the legal
    position (the same square played properly, or the move withdrawn)."""

    kind: ClassVar[str] = "correct-entry"


@register
@dataclass(frozen=True, slots=True)
class KeepBoard(Event):
    """The recorder keeps the faulty move as it stands on the board (the players went on
    unnoticed); the record marks the point."""

    kind: ClassVar[str] = "keep-board"


@register
@dataclass(frozen=True, slots=True)
class ResultCard(Event):
    """The result card (対戦カード) both players signed: the disc counts as written
    (rule 18: counts that do not add up are read to the winner's disadvantage)."""

    kind: ClassVar[str] = "result-card"
    black: int
    white: int


#: longest reason an arbiter gives for a penalty
PENALTY_REASON_LENGTH = 500
#: most seconds one penalty takes off a clock
PENALTY_SECONDS = 3600.0


@register
@dataclass(frozen=True, slots=True)
class Penalty(Event):
    """The arbiter penalises ``colour`` for ``reason`` (JOF rule 21): ``deducted``
    seconds taken off its clock (持ち時間減), or, with ``loss``, the game lost by
    penalty (反則負け, scored like a forfeit)."""

    kind: ClassVar[str] = "penalty"
    colour: Color
    reason: str
    deducted: float = 0.0
    loss: bool = False


# ---- the user study (the amusement paper's) ----------------------------------------------------
#: The study's two questions, each with its answers (the order the subject sees them in):
#: "Can you win now?" and "What kind of move did the opponent play?"
#: (:mod:`hasamigo.study.records` names them alike; :mod:`hasamigo.study.protocol` words them).
STUDY_QUESTIONS: dict[str, tuple[str, ...]] = {
    "can_win": ("win", "unknown", "lose"),
    "move_felt": ("surprising", "unknown", "expected"),
}
#: what a program reports of its move (``normal`` for a forced pass too)
STUDY_MOVE_KINDS = ("normal", "expectation", "surprise", "gift")
#: longest time accepted for answering one question (a subject may leave and come back)
STUDY_ANSWER_SECONDS = 7 * 24 * 3600.0
#: when the questions are asked: after every program move (the first study's timing, and
#: that of a stored :class:`StudyGame` without one) or after every move of the subject
#: (the amusement paper's 「被験者が１手打つごとに」)
PROGRAM_MOVE: Final = "program-move"
SUBJECT_MOVE: Final = "subject-move"
STUDY_TIMINGS = (PROGRAM_MOVE, SUBJECT_MOVE)


@register
@dataclass(frozen=True, slots=True)
class StudyGame(Event):
    """The game is a user-study game. With ``timing`` :data:`PROGRAM_MOVE` (``None``, as
    stored before there was a choice, reads so): after every program move that leaves the
    game going, the person answers :data:`STUDY_QUESTIONS` about it before moving again.
    With :data:`SUBJECT_MOVE`: after every move the person plays (the last one too), the
    questions are answered before the program moves (see
    :mod:`hasamigo.game.procedures.study`)."""

    kind: ClassVar[str] = "study-game"
    timing: str | None = None


@register
@dataclass(frozen=True, slots=True)
class StudyAnswer(Event):
    """The subject's answer to ``question`` asked after the move number ``move_number``
    (1 = the game's first ply, passes counted: the program's move, or with the
    :data:`SUBJECT_MOVE` timing the subject's), given ``seconds`` after the question was
    shown; ``move_kind`` is what the program reported of the program move the answer is
    about (``normal`` when there was none)."""

    kind: ClassVar[str] = "study-answer"
    move_number: int
    question: str
    answer: str
    seconds: float
    move_kind: str

__all__ = [
    "COLOUR_STEPS",
    "EVENT_TYPES",
    "PENALTY_REASON_LENGTH",
    "PENALTY_SECONDS",
    "PROGRAM_MOVE",
    "STUDY_ANSWER_SECONDS",
    "STUDY_MOVE_KINDS",
    "STUDY_QUESTIONS",
    "STUDY_TIMINGS",
    "SUBJECT_MOVE",
    "Absent",
    "AcceptResult",
    "Arrival",
    "Claim",
    "ClockPress",
    "ColourStep",
    "CorrectEntry",
    "EnteredMove",
    "Event",
    "IllegalClaim",
    "KeepBoard",
    "LateForfeit",
    "MovePlayed",
    "OverTheBoard",
    "Pass",
    "Penalty",
    "ProgramReady",
    "ProgramWaiting",
    "Resign",
    "ResultCard",
    "Resume",
    "SeatNamed",
    "StopPlayout",
    "StudyAnswer",
    "StudyGame",
    "Suspend",
    "TimeoutChoice",
    "Undo",
    "UndoDecline",
    "UndoRequest",
    "register",
]
