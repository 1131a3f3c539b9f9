"""The events' JSON form: ``{"kind": …, <fields>…}``, each field through its codec
(:data:`FIELD_CODECS`), squares named in the variant's coordinates, read back strictly
(:func:`event_from_json` raises :class:`EventFormatError`). It knows the kinds of event
from :data:`~hasamigo.game.events.kinds.EVENT_TYPES`, which each kind joins where it is
defined (:func:`~hasamigo.game.events.kinds.register`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from hasamigo.board import Board
from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.game.events.kinds import (
    EVENT_TYPES,
    PENALTY_REASON_LENGTH,
    PENALTY_SECONDS,
    STUDY_ANSWER_SECONDS,
    STUDY_MOVE_KINDS,
    STUDY_QUESTIONS,
    STUDY_TIMINGS,
    Event,
)
from hasamigo.game.setup import NAME_LENGTH
from hasamigo.move import Color


class EventFormatError(HasamigoError, ValueError):
    """An event's JSON that is not one of ours (unknown kind, missing or bad field)."""

    code = "event_format"


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
    return [variant.square_name(sq) for sq in range(variant.grid_size()) if value >> sq & 1]


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


def _dec_timing(value: Any, _variant: type[Board]) -> str | None:
    if value is not None and value not in STUDY_TIMINGS:
        raise _bad(f"a study's timing is one of {', '.join(STUDY_TIMINGS)}")
    return None if value is None else str(value)


def _dec_move_kind(value: Any, _variant: type[Board]) -> str:
    if value not in STUDY_MOVE_KINDS:
        raise _bad(f"a program's move kind is one of {', '.join(STUDY_MOVE_KINDS)}")
    return str(value)


def _dec_reason(value: Any, _variant: type[Board]) -> str:
    if not isinstance(value, str) or not value.strip() \
            or len(value) > PENALTY_REASON_LENGTH:
        raise _bad(f"a penalty's reason is 1 to {PENALTY_REASON_LENGTH} characters")
    return value


def _dec_deducted(value: Any, variant: type[Board]) -> float:
    seconds = _dec_time(value, variant)
    if not 0 <= seconds <= PENALTY_SECONDS:
        raise _bad(f"a time penalty is 0 to {PENALTY_SECONDS:.0f} seconds")
    return seconds


def _dec_seat(value: Any, _variant: type[Board]) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise _bad("a seat is participant 0 or 1")
    return int(value)


def _dec_name(value: Any, _variant: type[Board]) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > NAME_LENGTH:
        raise _bad(f"a player's name is 1 to {NAME_LENGTH} characters, not blank")
    return value


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
    "timing": (lambda v, _b: v, _dec_timing),
    "reason": (lambda v, _b: v, _dec_reason),
    "deducted": (lambda v, _b: v, _dec_deducted),
    "loss": (lambda v, _b: v, _dec_flag),
    "seat": (lambda v, _b: v, _dec_seat),
    "name": (lambda v, _b: v, _dec_name),
}

#: Fields left out of the JSON when ``None`` (their default): fields added after events
#: of their kind were stored, which must stay readable without them.
OMITTED_WHEN_NONE = frozenset({"turned", "timing"})


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
    "FIELD_CODECS",
    "OMITTED_WHEN_NONE",
    "EventFormatError",
    "event_from_json",
    "event_to_json",
]
