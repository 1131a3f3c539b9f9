"""The events a game is made of, and their JSON form.

A game is its :class:`~hasamigo.game.setup.GameSetup` plus an append-only list of these
events; board, phase, clock and result are a pure fold over them
(:func:`hasamigo.game.state.replay`). Every event carries ``at``, the instant it happened
in seconds of the game's time source (the wall clock, seconds since the epoch, on the
server). Colours are absolute; squares are grid indices in memory and square names of the
game's variant in JSON (``f5``; 6×6 ``a1``..``f6``).

The user study's games add theirs: :class:`StudyGame` declares a game a study game and
:class:`StudyAnswer` is one answer of the subject about a program move.

New kinds of event subclass :class:`Event`, give themselves a ``kind``
and register with :func:`register`; fields named as below reuse the codecs, others add one
to :data:`FIELD_CODECS`.

A fresh server compiles the kernels the programs search with (minutes, the first time):
:class:`ProgramWaiting` and :class:`ProgramReady` say when a program could not move yet
and when it could, so that its clock does not run meanwhile.

Games played **over the board** (a real board and chess clock; the server keeps the
record) add their own events: :class:`OverTheBoard` declares the game so, the clock is
pressed (:class:`ClockPress`), a late player's clock runs (:class:`Absent`,
:class:`Arrival`, :class:`LateForfeit`), an illegal move is claimed on the clock
(:class:`IllegalClaim`), moves are entered as they were played on the board, faults and
all (:class:`EnteredMove`), the recorder decides on a faulty one (:class:`CorrectEntry`,
:class:`KeepBoard`), and the players sign the result card (:class:`ResultCard`).

>>> from hasamigo import BLACK, Board
>>> event = MovePlayed(BLACK, Board.parse_square("f5"), at=12.5)
>>> event_to_json(event, Board)
{'kind': 'move', 'colour': 'black', 'square': 'f5', 'at': 12.5}
>>> event_from_json(_, Board) == event
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from hasamigo.board import Board
from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.move import Color


class EventFormatError(HasamigoError, ValueError):
    """An event's JSON that is not one of ours (unknown kind, missing or bad field)."""

    code = "event_format"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event: ``at`` is when it happened (seconds of the time source)."""

    kind: ClassVar[str] = ""
    at: float = field(kw_only=True)


# ---- colours -------------------------------------------------------------------------
#: The colour-decision steps. ``choose``: participant takes colour ``value``; ``draw``:
#: random colours, ``value`` is the participant (``0``/``1``) drawn to play Black;
#: ``hider``: the hider drawn when rank and age don't decide (``value`` ``0``/``1``);
#: ``hide``: the hidden disc's top face (``black``/``white``), drawn by the server;
#: ``call``: ``top``/``bottom`` with draws, ``black``/``white`` without; ``right``:
#: ``draw-win``/``colour``; ``colour``: the colour-right holder's pick.
COLOUR_STEPS = ("choose", "draw", "hider", "hide", "call", "right", "colour")


@dataclass(frozen=True, slots=True)
class ColourStep(Event):
    """A step of deciding colours (see :data:`COLOUR_STEPS`); ``participant`` took it
    (``None``: the server's draw)."""

    kind: ClassVar[str] = "colour"
    step: str
    value: str
    participant: int | None


# ---- play ----------------------------------------------------------------------------
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


@dataclass(frozen=True, slots=True)
class Pass(Event):
    """``colour`` passes (only allowed when it has no legal move)."""

    kind: ClassVar[str] = "pass"
    colour: Color


# ---- time ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Claim(Event):
    """``by`` claims that ``flagged``'s flag has fallen; ``by == flagged`` is a player's
    self-report."""

    kind: ClassVar[str] = "claim"
    by: Color
    flagged: Color


@dataclass(frozen=True, slots=True)
class TimeoutChoice(Event):
    """The time-out winner's choice: ``33-31`` or ``playout`` (勝手打ち)."""

    kind: ClassVar[str] = "timeout-choice"
    choice: str


@dataclass(frozen=True, slots=True)
class StopPlayout(Event):
    """The play-out ends: the winner stopped, or (``timed_out``) the winner's own time ran
    out, at ``at``; the count then stands."""

    kind: ClassVar[str] = "stop-playout"
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Suspend(Event):
    """The server stopped (or was last seen alive) at ``at``: the clock stops."""

    kind: ClassVar[str] = "suspend"


@dataclass(frozen=True, slots=True)
class Resume(Event):
    """The server is back: the clock runs again from ``at`` for the side it ran for."""

    kind: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class ProgramWaiting(Event):
    """The program of ``participant`` cannot move yet from ``at``: the kernels it searches
    with are being compiled or loaded (a fresh server's first run). Its clock does not run
    until :class:`ProgramReady`; an official game does not begin, nor go on, meanwhile
    (neither clock runs, nobody moves)."""

    kind: ClassVar[str] = "program-waiting"
    participant: int | None


@dataclass(frozen=True, slots=True)
class ProgramReady(Event):
    """The program of ``participant`` can move from ``at``: its clock runs again when it
    is on move (an official game begins, or goes on, once no program waits)."""

    kind: ClassVar[str] = "program-ready"
    participant: int | None


# ---- ending and taking back ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Resign(Event):
    kind: ClassVar[str] = "resign"
    colour: Color


@dataclass(frozen=True, slots=True)
class AcceptResult(Event):
    """``colour`` accepts the result; once both have, a time-out can no longer be
    claimed."""

    kind: ClassVar[str] = "accept"
    colour: Color


@dataclass(frozen=True, slots=True)
class UndoRequest(Event):
    """``colour`` asks to take back its last move (two people: the other must consent)."""

    kind: ClassVar[str] = "undo-request"
    colour: Color


@dataclass(frozen=True, slots=True)
class UndoDecline(Event):
    """``colour`` refuses the opponent's take-back request."""

    kind: ClassVar[str] = "undo-decline"
    colour: Color


@dataclass(frozen=True, slots=True)
class Undo(Event):
    """``colour``'s last move is taken back, with everything played after it."""

    kind: ClassVar[str] = "undo"
    colour: Color


# ---- over the board ------------------------------------------------------------------------
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


@dataclass(frozen=True, slots=True)
class ClockPress(Event):
    """``colour`` presses its clock button: its turn ends (with a move on the board, or
    with a declared pass when ``passed``) and the opponent's time runs. The first press
    starts the game."""

    kind: ClassVar[str] = "press"
    colour: Color
    passed: bool = False


@dataclass(frozen=True, slots=True)
class Absent(Event):
    """Participant ``participant`` is not there at the start: their clock runs from
    ``since`` (the scheduled start; rule 12)."""

    kind: ClassVar[str] = "absent"
    participant: int | None
    since: float


@dataclass(frozen=True, slots=True)
class Arrival(Event):
    """The late participant arrives: the clock stops; they play on the time left (rule 13)."""

    kind: ClassVar[str] = "arrival"
    participant: int | None


@dataclass(frozen=True, slots=True)
class LateForfeit(Event):
    """The late participant chooses a forfeit loss instead of playing (rule 13): 64–0,
    not rated."""

    kind: ClassVar[str] = "late-forfeit"
    participant: int | None


@dataclass(frozen=True, slots=True)
class IllegalClaim(Event):
    """``by`` claims, on its own turn, that the opponent's last move was illegal (rule
    6①): the turn goes back to the offender to correct it, or, when the offender was in
    byo-yomi, the correction is followed by a time-out (rule 15)."""

    kind: ClassVar[str] = "illegal-claim"
    by: Color


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


@dataclass(frozen=True, slots=True)
class CorrectEntry(Event):
    """The recorder corrects the faulty move entered last: the board returns to the legal
    position (the same square played properly, or the move withdrawn)."""

    kind: ClassVar[str] = "correct-entry"


@dataclass(frozen=True, slots=True)
class KeepBoard(Event):
    """The recorder keeps the faulty move as it stands on the board (the players went on
    unnoticed); the record marks the point."""

    kind: ClassVar[str] = "keep-board"


@dataclass(frozen=True, slots=True)
class ResultCard(Event):
    """The result card (対戦カード) both players signed: the disc counts as written
    (rule 18: counts that do not add up are read to the winner's disadvantage)."""

    kind: ClassVar[str] = "result-card"
    black: int
    white: int


# ---- the user study (the amusement paper's) ----------------------------------------------------
#: The study's two questions after every program move, each with its answers (the order
#: the subject sees them in): "Can you win now?" and "What kind of move did the opponent
#: just play?" (:mod:`hasamigo.study.records` names them alike).
STUDY_QUESTIONS: dict[str, tuple[str, ...]] = {
    "can_win": ("win", "unknown", "lose"),
    "move_felt": ("surprising", "unknown", "expected"),
}
#: what a program reports of its move (``normal`` for a forced pass too)
STUDY_MOVE_KINDS = ("normal", "expectation", "surprise", "gift")
#: longest time accepted for answering one question (a subject may leave and come back)
STUDY_ANSWER_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class StudyGame(Event):
    """The game is a user-study game: after every program move that leaves the game going,
    the person answers :data:`STUDY_QUESTIONS` about it before moving again (the fold
    refuses the person's move, or forced pass, until both are answered)."""

    kind: ClassVar[str] = "study-game"


@dataclass(frozen=True, slots=True)
class StudyAnswer(Event):
    """The subject's answer to ``question`` about the program's move number
    ``move_number`` (1 = the game's first ply, passes counted), given ``seconds`` after
    the question was shown; ``move_kind`` is what the program reported of that move."""

    kind: ClassVar[str] = "study-answer"
    move_number: int
    question: str
    answer: str
    seconds: float
    move_kind: str


# ---- JSON ------------------------------------------------------------------------------
EVENT_TYPES: dict[str, type[Event]] = {}


def register(cls: type[Event]) -> type[Event]:
    """Make an event class known to the JSON codec (its ``kind`` must be new)."""
    if not cls.kind or cls.kind in EVENT_TYPES:
        raise ValueError(f"event kind {cls.kind!r} is empty or taken")
    EVENT_TYPES[cls.kind] = cls
    return cls


for _cls in (ColourStep, MovePlayed, Pass, Claim, TimeoutChoice, StopPlayout, Suspend,
             Resume, ProgramWaiting, ProgramReady, Resign, AcceptResult, UndoRequest,
             UndoDecline, Undo, OverTheBoard, ClockPress, Absent, Arrival, LateForfeit,
             IllegalClaim, EnteredMove, CorrectEntry, KeepBoard, ResultCard, StudyGame,
             StudyAnswer):
    register(_cls)

Encoder = Callable[[Any, type[Board]], Any]
Decoder = Callable[[Any, type[Board]], Any]


def _bad(message: str) -> EventFormatError:
    return EventFormatError(message)


def _dec_colour(value: Any, _variant: type[Board]) -> Color:
    try:
        return Color.parse(value)
    except InvalidOptionError as exc:
        raise _bad(str(exc)) from exc


def _dec_square(value: Any, variant: type[Board]) -> int:
    if not isinstance(value, str) or len(value) > 4:
        raise _bad("a square is a name like 'f5'")
    try:
        return variant.parse_square(value, cut_ok=True)
    except (HasamigoError, ValueError) as exc:
        raise _bad(str(exc)) from exc


def _dec_time(value: Any, _variant: type[Board]) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise _bad("'at' must be a finite number of seconds")
    return float(value)


def _dec_text(value: Any, _variant: type[Board]) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise _bad("a step, value or choice is a short text")
    return value


def _dec_participant(value: Any, _variant: type[Board]) -> int | None:
    if (value is not None and value not in (0, 1)) or isinstance(value, bool):
        raise _bad("a participant is 0, 1 or null")
    return None if value is None else int(value)


def _dec_flag(value: Any, _variant: type[Board]) -> bool:
    if not isinstance(value, bool):
        raise _bad("a flag is true or false")
    return value


def _dec_optional_time(value: Any, variant: type[Board]) -> float | None:
    return None if value is None else _dec_time(value, variant)


def _dec_seconds(value: Any, variant: type[Board]) -> float:
    seconds = _dec_time(value, variant)
    if not 0 <= seconds <= 3600:
        raise _bad("byo-yomi is 0 to 3600 seconds")
    return seconds


def _enc_optional_square(value: int | None, variant: type[Board]) -> str | None:
    return None if value is None else variant.square_name(value)


def _dec_optional_square(value: Any, variant: type[Board]) -> int | None:
    return None if value is None else _dec_square(value, variant)


def _enc_turned(value: int, variant: type[Board]) -> list[str]:
    return [variant.square_name(sq) for sq in range(variant.stride ** 2) if value >> sq & 1]


def _dec_turned(value: Any, variant: type[Board]) -> int:
    if not (isinstance(value, list) and 1 <= len(value) <= variant.square_count()):
        raise _bad("turned discs are a non-empty list of square names like 'f5'")
    mask = 0
    for name in value:
        sq = _dec_square(name, variant)
        if mask >> sq & 1:
            raise _bad(f"turned disc {variant.grid_name(sq)} is named twice")
        mask |= 1 << sq
    return mask


def _dec_cells(value: Any, variant: type[Board]) -> str:
    if not isinstance(value, str) or len(value) != variant.rows * variant.cols \
            or set(value) - set("XO-#"):
        raise _bad(f"a board is {variant.rows * variant.cols} cells of X, O, - and #")
    return value


def _dec_count(value: Any, _variant: type[Board]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 64:
        raise _bad("a disc count is a whole number from 0 to 64")
    return value


def _dec_move_number(value: Any, _variant: type[Board]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 400:
        raise _bad("a move number is a whole number from 1 to 400")
    return value


def _dec_question(value: Any, _variant: type[Board]) -> str:
    if value not in STUDY_QUESTIONS:
        raise _bad(f"a study question is one of {', '.join(STUDY_QUESTIONS)}")
    return str(value)


def _dec_answer(value: Any, _variant: type[Board]) -> str:
    if not isinstance(value, str) or not any(value in a for a in STUDY_QUESTIONS.values()):
        raise _bad("a study answer is one of the question's answers")
    return value


def _dec_answer_seconds(value: Any, variant: type[Board]) -> float:
    seconds = _dec_time(value, variant)
    if not 0 <= seconds <= STUDY_ANSWER_SECONDS:
        raise _bad("the time taken to answer is 0 seconds to a week")
    return seconds


def _dec_move_kind(value: Any, _variant: type[Board]) -> str:
    if value not in STUDY_MOVE_KINDS:
        raise _bad(f"a program's move kind is one of {', '.join(STUDY_MOVE_KINDS)}")
    return str(value)


#: field name -> (encode, decode) between the event's value and JSON.
FIELD_CODECS: dict[str, tuple[Encoder, Decoder]] = {
    "at": (lambda v, _b: v, _dec_time),
    "colour": (lambda v, _b: v.value, _dec_colour),
    "by": (lambda v, _b: v.value, _dec_colour),
    "flagged": (lambda v, _b: v.value, _dec_colour),
    "square": (lambda v, b: b.square_name(v), _dec_square),
    "step": (lambda v, _b: v, _dec_text),
    "value": (lambda v, _b: v, _dec_text),
    "choice": (lambda v, _b: v, _dec_text),
    "participant": (lambda v, _b: v, _dec_participant),
    "timed_out": (lambda v, _b: v, _dec_flag),
    "passed": (lambda v, _b: v, _dec_flag),
    "scheduled": (lambda v, _b: v, _dec_optional_time),
    "since": (lambda v, _b: v, _dec_time),
    "byoyomi": (lambda v, _b: v, _dec_seconds),
    "placed": (_enc_optional_square, _dec_optional_square),
    "board": (lambda v, _b: v, _dec_cells),
    "black": (lambda v, _b: v, _dec_count),
    "white": (lambda v, _b: v, _dec_count),
    "move_number": (lambda v, _b: v, _dec_move_number),
    "question": (lambda v, _b: v, _dec_question),
    "answer": (lambda v, _b: v, _dec_answer),
    "seconds": (lambda v, _b: v, _dec_answer_seconds),
    "move_kind": (lambda v, _b: v, _dec_move_kind),
    "turned": (_enc_turned, _dec_turned),
}

#: Fields left out of the JSON when ``None`` (their default): fields added after events
#: of their kind were stored, which must stay readable without them.
OMITTED_WHEN_NONE = frozenset({"turned"})


def event_to_json(event: Event, variant: type[Board]) -> dict[str, Any]:
    """``{"kind": …, <fields>…}`` with squares named in ``variant``'s coordinates."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "at" or (value is None and f.name in OMITTED_WHEN_NONE):
            continue
        out[f.name] = FIELD_CODECS[f.name][0](value, variant)
    out["at"] = event.at
    return out


def event_from_json(data: Any, variant: type[Board]) -> Event:
    """Read :func:`event_to_json`'s output strictly: every field present (but those of
    :data:`OMITTED_WHEN_NONE`, ``None`` when absent), no other."""
    if not isinstance(data, dict):
        raise _bad("an event is a JSON object")
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _bad(f"unknown event kind {str(kind)[:30]!r}")
    names = [f.name for f in fields(cls)]
    missing = [n for n in names if n not in data and n not in OMITTED_WHEN_NONE]
    extra = sorted(set(data) - set(names) - {"kind"})
    if missing or extra:
        raise _bad(f"{kind} event: " + "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else [])
            + ([f"unknown {', '.join(extra)[:60]}"] if extra else [])))
    values = {n: FIELD_CODECS[n][1](data[n], variant) for n in names if n in data}
    return cls(**values)


__all__ = [
    "COLOUR_STEPS",
    "EVENT_TYPES",
    "FIELD_CODECS",
    "OMITTED_WHEN_NONE",
    "STUDY_ANSWER_SECONDS",
    "STUDY_MOVE_KINDS",
    "STUDY_QUESTIONS",
    "Absent",
    "AcceptResult",
    "Arrival",
    "Claim",
    "ClockPress",
    "ColourStep",
    "CorrectEntry",
    "EnteredMove",
    "Event",
    "EventFormatError",
    "IllegalClaim",
    "KeepBoard",
    "LateForfeit",
    "MovePlayed",
    "OverTheBoard",
    "Pass",
    "ProgramReady",
    "ProgramWaiting",
    "Resign",
    "ResultCard",
    "Resume",
    "StopPlayout",
    "StudyAnswer",
    "StudyGame",
    "Suspend",
    "TimeoutChoice",
    "Undo",
    "UndoDecline",
    "UndoRequest",
    "event_from_json",
    "event_to_json",
    "register",
]
