"""Subgroups of a study: a small filter language to keep some subjects (or some games), and
a split of the data by one field, for the report, the CLI (``--where``, ``--group-by``) and
the web.

The paper analyses the 6 of its 8 subjects who rated themselves 「ふつう」 or below; here
that is ``strength<=3``. A filter is clauses joined by commas, all of which must hold::

    strength<=3                  self-rated strength (1 weakest … 5 strongest; 3 = ふつう)
    strength=4|5                 one of several values (``|``), for = and !=
    play_frequency=weekly        how often the subject plays (the extended protocol)
    strategies=corners           knows that strategy (the extended protocol's keys)
    first=victory                the arm played first (the counterbalanced order)
    colour=black                 keeps only the games where the subject had that colour

Operators: ``=``, ``!=`` for every field; ``<``, ``<=``, ``>``, ``>=`` for ``strength``.
A subject who did not answer a field matches no clause on it. Words are case-sensitive
codes as stored (``weekly``, ``black``), not the questionnaire's wording. ``colour`` acts
on games: a subject stays when one of their games does. Bad text is a
:class:`~hasamigo.errors.ParseError` naming the clause and its column.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.study.protocol import EXTENDED_PROTOCOL
from hasamigo.study.records import STRENGTH_LEVELS, GameRecord, StudyData, SubjectRecord

#: the fields a filter may name, and those :func:`group_by` may split on (``strategies``
#: is several answers at once: a subject would fall in several groups)
FIELDS = ("strength", "play_frequency", "strategies", "first", "colour")
GROUP_FIELDS = ("strength", "play_frequency", "first", "colour")
COLOURS = ("black", "white")
_ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_OPERATORS = ("<=", ">=", "!=", "=", "<", ">")
_CLAUSE = re.compile(r"\s*([A-Za-z_]+)\s*(<=|>=|!=|=|<|>)\s*(.*?)\s*$", re.S)


def _codes(key: str) -> tuple[str, ...]:
    return EXTENDED_PROTOCOL.question(key).codes


@dataclass(frozen=True, slots=True)
class Clause:
    """One condition: ``field op value`` (``values``: the alternatives joined by ``|``)."""

    field: str
    op: str
    values: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.field}{self.op}{'|'.join(self.values)}"

    def matches(self, value: str | int | None) -> bool:
        """Whether an answer ``value`` satisfies the clause (``None``: unanswered, never)."""
        if value is None:
            return False
        if self.op in _ORDERED:
            return bool(_ORDERED[self.op](int(value), int(self.values[0])))
        hit = str(value) in self.values
        return hit if self.op == "=" else not hit


@dataclass(frozen=True, slots=True)
class Where:
    """A parsed filter: all its clauses must hold. ``str()`` gives it back canonically.

    >>> str(parse_where(" strength <= 3 , first=victory"))
    'strength<=3, first=victory'
    """

    clauses: tuple[Clause, ...] = ()

    def __str__(self) -> str:
        return ", ".join(str(c) for c in self.clauses)

    def __bool__(self) -> bool:
        return bool(self.clauses)


def parse_where(text: str | None) -> Where:
    """The filter ``text`` parsed (``None`` or blank: no condition, every subject).

    >>> parse_where("strength<=3").clauses
    (Clause(field='strength', op='<=', values=('3',)),)
    >>> try:
    ...     parse_where("strength<=x")
    ... except ParseError as exc:
    ...     print(exc)
    where, column 11: strength is a number 1-5, not 'x' (in 'strength<=x')
    """
    if text is None or not text.strip():
        return Where()
    clauses = []
    start = 0
    for part in text.split(","):
        clauses.append(_clause(part, start + 1))
        start += len(part) + 1
    return Where(tuple(clauses))


def _clause(part: str, column: int) -> Clause:
    def error(message: str, at: int = 0) -> ParseError:
        return ParseError(f"{message} (in {part.strip()!r})", source="where",
                          column=column + at)

    match = _CLAUSE.fullmatch(part)
    if not part.strip():
        raise error("an empty condition (two commas, or one at an end)")
    if match is None:
        raise error(f"a condition is field, operator ({' '.join(_OPERATORS)}) and value, "
                    "as strength<=3")
    field, op, value = match.group(1), match.group(2), match.group(3)
    value_at = match.start(3)
    if field not in FIELDS:
        raise error(f"no field {field!r}; the fields are {', '.join(FIELDS)}", match.start(1))
    if op in _ORDERED and field != "strength":
        raise error(f"{field} is compared with = or != only, not {op}", match.start(2))
    values = tuple(v.strip() for v in value.split("|"))
    if not all(values):
        raise error(f"{field} needs a value after {op}", value_at)
    if op in _ORDERED and len(values) > 1:
        raise error(f"{op} takes one value, not {value!r}", value_at)
    allowed: Sequence[str] | None = {
        "strength": [str(n) for n in STRENGTH_LEVELS], "colour": COLOURS,
        "play_frequency": _codes("play_frequency"), "strategies": _codes("strategies"),
    }.get(field)
    for v in values:
        if allowed is None or v in allowed:
            continue
        if field == "strength":
            raise error(f"strength is a number 1-5, not {v!r}", value_at)
        raise error(f"{field} is one of {', '.join(allowed)}, not {v!r}", value_at)
    return Clause(field, op, values)


def _subject_value(subject: SubjectRecord, field: str) -> str | int | None:
    if field == "first":
        return subject.order[0] if subject.order else None
    value = getattr(subject, field)
    return value if value is None or isinstance(value, int) else str(value)


def _subject_matches(subject: SubjectRecord, clause: Clause) -> bool:
    if clause.field == "strategies":  # several answers: = knows one of them, != none
        known = set(subject.strategies) & set(clause.values)
        return bool(known) if clause.op == "=" else not known
    return clause.matches(_subject_value(subject, clause.field))


def apply_where(data: StudyData, where: Where | str | None) -> StudyData:
    """The subjects ``where`` keeps, with their games and answers (``colour`` clauses keep
    only the games played with that colour, and the subjects left with one); the same
    ``meta``. A ``first=`` naming no arm of the study is an error, not an empty report.

    >>> from hasamigo.study.records import SubjectRecord as S
    >>> data = StudyData([S("s", "P1", ("victory",), strength=2),
    ...                   S("s", "P2", ("victory",), strength=5)])
    >>> [s.subject for s in apply_where(data, "strength<=3").subjects]
    ['P1']
    """
    parsed = where if isinstance(where, Where) else parse_where(where)
    if not parsed:
        return data
    subject_clauses = [c for c in parsed.clauses if c.field != "colour"]
    game_clauses = [c for c in parsed.clauses if c.field == "colour"]
    arms = {arm for s in data.subjects for arm in s.order} | {g.program for g in data.games}
    for clause in parsed.clauses:
        unknown = [v for v in clause.values if clause.field == "first" and v not in arms]
        if unknown:
            raise InvalidOptionError(f"where: no program {unknown[0]!r} in this study "
                                     f"(first= is one of {', '.join(sorted(arms))})")
    subjects = [s for s in data.subjects
                if all(_subject_matches(s, c) for c in subject_clauses)]
    kept = {s.subject for s in subjects}

    def game_kept(g: GameRecord) -> bool:
        return g.subject in kept and all(c.matches(g.subject_colour) for c in game_clauses)

    games = [g for g in data.games if game_kept(g)]
    if game_clauses:
        with_games = {g.subject for g in games}
        subjects = [s for s in subjects if s.subject in with_games]
    played = {(g.subject, g.index) for g in games}
    answers = [a for a in data.answers if (a.subject, a.game_index) in played
               or (not game_clauses and a.subject in kept)]
    return StudyData(subjects, games, answers, data.meta)


@dataclass(frozen=True, slots=True)
class Group:
    """One part of a split: ``label`` the condition it stands for (``strength=3``; for the
    subjects who did not answer, ``strength: no answer``) and its data."""

    label: str
    value: str | None
    data: StudyData


def group_by(data: StudyData, field: str | None) -> list[Group]:
    """``data`` split by ``field`` (one of :data:`GROUP_FIELDS`), the values in their
    natural order (strength 1…5, the arms as played, black then white); ``None`` or ``""``:
    one group of everything.

    >>> from hasamigo.study.records import SubjectRecord as S
    >>> data = StudyData([S("s", "P1", ("victory", "amusement"), strength=2),
    ...                   S("s", "P2", ("amusement", "victory"), strength=5),
    ...                   S("s", "P3", ("amusement", "victory"))])
    >>> [(g.label, len(g.data.subjects)) for g in group_by(data, "first")]
    [('first=victory', 1), ('first=amusement', 2)]
    >>> [g.label for g in group_by(data, "strength")]
    ['strength=2', 'strength=5', 'strength: no answer']
    """
    if not field:
        return [Group("", None, data)]
    if field not in GROUP_FIELDS:
        raise InvalidOptionError(f"group by one of {', '.join(GROUP_FIELDS)}, not {field!r}")
    values: list[str]
    if field == "colour":
        values = [c for c in COLOURS if any(g.subject_colour == c for g in data.games)]
    else:
        seen = [_subject_value(s, field) for s in data.subjects]
        present = [v for v in dict.fromkeys(seen) if v is not None]
        key: Callable[[str | int], tuple[int, str]] = (
            (lambda v: (int(v), "")) if field == "strength" else
            (lambda v: (_order_of(field, str(v)), "" if field == "first" else str(v))))
        values = [str(v) for v in sorted(present, key=key)]
    groups = [Group(f"{field}={v}", v, apply_where(data, Where((Clause(field, "=", (v,)),))))
              for v in values]
    if field != "colour":
        missing = [s for s in data.subjects if _subject_value(s, field) is None]
        if missing:
            codes = {s.subject for s in missing}
            groups.append(Group(f"{field}: no answer", None, StudyData(
                missing, [g for g in data.games if g.subject in codes],
                [a for a in data.answers if a.subject in codes], data.meta)))
    return groups


def _order_of(field: str, value: str) -> int:
    """The place of a code in its question's list (unknown codes last); the arms keep the
    order they were first met in (``sorted`` is stable)."""
    if field == "play_frequency":
        codes = _codes(field)
        return codes.index(value) if value in codes else len(codes)
    return 0


__all__ = [
    "COLOURS",
    "FIELDS",
    "GROUP_FIELDS",
    "Clause",
    "Group",
    "Where",
    "apply_where",
    "group_by",
    "parse_where",
]
