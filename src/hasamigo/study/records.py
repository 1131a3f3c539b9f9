"""What a user study collects, as plain records: one per subject, per game and per answer.

These are the study's data in the shape the exports and the report read, whoever made
them: a real study run in the browser (:mod:`hasamigo.study.service`) or the simulated
one (:mod:`hasamigo.study.simulate`). The exports are CSV (one file per table, with
``study.csv`` for the :class:`StudyMeta` and ``data_dictionary.csv`` describing every
column, :mod:`hasamigo.study.dictionary`) and JSON (everything in one object); both carry
exactly the fields below, in this order. Subjects are named by pseudonyms (``S01``…).

Conventions, the amusement paper's:

* a subject plays one game against each program (an *arm*) in a counterbalanced order;
* at each question time (after every subject move in the paper's protocol, after every
  program move in the extended one: ``timing``) the subject answers two questions:
  ``can_win`` — "Can you win now?" (``win`` / ``unknown`` / ``lose``) and ``move_felt`` —
  "What kind of move did the opponent play?" (``surprising`` / ``unknown`` /
  ``expected``; ``None`` when the opponent had not moved yet);
* ``move_kind`` is what the program reports of that move: ``normal``, ``expectation`` or
  ``surprise`` (the amusement program's planned moves; the entertainer's gifts are
  ``gift``);
* ``evaluation`` is the strong engine's evaluation of the position the subject faces,
  in discs **from the subject's side** (positive: the subject is ahead), ``None`` until
  computed; ``exact`` when the solver reached the end.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from hasamigo.errors import ParseError
from hasamigo.notation.csv_cells import csv_text

CanWin = Literal["win", "unknown", "lose"]
MoveFelt = Literal["surprising", "unknown", "expected"]
MoveKind = Literal["normal", "expectation", "surprise", "gift"]
Outcome = Literal["win", "lose", "draw"]

CAN_WIN: tuple[CanWin, ...] = ("win", "unknown", "lose")
MOVE_FELT: tuple[MoveFelt, ...] = ("surprising", "unknown", "expected")
MOVE_KINDS: tuple[MoveKind, ...] = ("normal", "expectation", "surprise", "gift")
#: self-rated strength, the before questionnaire's 5 levels (1: never played … 5: strong)
STRENGTH_LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True, slots=True)
class SubjectRecord:
    """One subject: the anonymous code, the arms in the order played (the stored
    counterbalancing), the questionnaires. ``strategies`` is a list of known strategy
    keys (e.g. ``corners``, ``mobility``, ``parity``); ``more_fun`` names an arm."""

    study: str
    subject: str
    order: tuple[str, ...]
    language: str = "ja"
    simulated: bool = False
    consented_at: str | None = None  # ISO 8601, UTC
    strength: int | None = None
    play_frequency: str | None = None
    strategies: tuple[str, ...] = ()
    more_fun: str | None = None
    more_fun_why: str = ""
    what_makes_fun: str = ""
    finished_at: str | None = None
    #: the study's protocol (:mod:`hasamigo.study.protocol`): ``paper`` or ``extended``
    protocol: str = "extended"
    #: the paper protocol's after question 「あなたの知っているオセロゲームの戦略はあるか」
    #: (free text; the extended protocol asks ``strategies`` before, as keys)
    strategies_text: str = ""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a subject: which program, in which place of the order, who had which
    colour, and how it ended from the subject's side; ``felt`` is the after-game answer
    (1 dull … 5 fun) and ``felt_note`` its free text."""

    study: str
    subject: str
    index: int  # 1-based place in the subject's order
    program: str
    game_id: str
    subject_colour: Literal["black", "white"]
    outcome: Outcome | None = None
    subject_discs: int | None = None
    program_discs: int | None = None
    moves: int = 0
    felt: int | None = None
    felt_note: str = ""
    #: the paper protocol's after question 「それぞれ対戦した勝敗結果」: the result as the
    #: subject reported it (``win`` / ``lose`` / ``draw``), beside the real ``outcome``
    reported_outcome: Outcome | None = None
    #: treatment fidelity: the game's move number (1 = the first disc placed, passes not
    #: counted, as :func:`hasamigo.engine.players.move_number`) at which the program played
    #: its expectation move / its surprise move; ``None``: not played (or the program has
    #: none); ``gifts``: the entertainer's gift moves
    expectation_at: int | None = None
    surprise_at: int | None = None
    gifts: int = 0


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """The answers given at one question time: right after a program move (``timing``
    ``program-move``, the extended protocol: ``move_number`` is the program's move) or
    right after a subject move (``subject-move``, the paper's 「被験者が１手打つごとに」:
    ``move_number`` is the subject's move, and ``move_felt`` is about the program's move
    before it, ``about_move``; ``None`` when there was none, at Black's first move)."""

    study: str
    subject: str
    game_index: int
    program: str
    game_id: str
    move_number: int  # the ply the questions follow (1 = the game's first, passes counted)
    program_move: str  # the program's move the answers are about (``a1``…, ``pass``; "": none)
    move_kind: MoveKind  # what the program reported of that move (``normal`` when none)
    position: str  # the board string after ``move_number`` (``hasamigo.Board.to_string``)
    can_win: CanWin
    move_felt: MoveFelt | None
    seconds: float  # from the question shown to the answer given
    evaluation: float | None = None
    exact: bool = False
    answered_at: str | None = None
    #: ``subject-move`` (the paper's timing) or ``program-move`` (the extended protocol's)
    timing: str = "program-move"
    #: the ply number of the program's move ``move_felt`` is about (``None``: none)
    about_move: int | None = None
    #: the subject's moves played so far (this one included at ``subject-move``): the
    #: x-axis of the paper's Figure 7 (「手数」 of one side)
    subject_moves: int = 0


@dataclass(frozen=True, slots=True)
class StudyMeta:
    """What the study was, for whoever reads its data later: its protocol and settings,
    how many subjects withdrew (their data is gone), and the software that wrote it."""

    study: str
    name: str
    protocol: str  # ``paper`` or ``extended`` (:mod:`hasamigo.study.protocol`)
    arms: tuple[str, ...]
    surprise_window: str = "midgame"  # ``moves`` (the paper's) or ``midgame`` (ours)
    clock_minutes: float | None = None
    languages: tuple[str, ...] = ("ja", "en")
    created_at: str | None = None
    archived_at: str | None = None
    withdrawn: int = 0
    software_version: str = ""
    exported_at: str | None = None


R = TypeVar("R", SubjectRecord, GameRecord, AnswerRecord, StudyMeta)


@dataclass(slots=True)
class StudyData:
    """A study's three tables, and what the study was (``meta``; ``None`` for data made
    without a stored study, as older exports)."""

    subjects: list[SubjectRecord] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    answers: list[AnswerRecord] = field(default_factory=list)
    meta: StudyMeta | None = None

    # ---- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The three tables, and ``study`` (the :class:`StudyMeta`) when there is one."""
        out: dict[str, Any] = {}
        if self.meta is not None:
            out["study"] = _row(self.meta)
        out.update(subjects=[_row(r) for r in self.subjects],
                   games=[_row(r) for r in self.games],
                   answers=[_row(r) for r in self.answers])
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, source: str | None = None) -> StudyData:
        """What :meth:`to_json` wrote (``study`` optional: older files have none)."""
        try:
            meta = data.get("study")
            return cls([_record(SubjectRecord, row) for row in data["subjects"]],
                       [_record(GameRecord, row) for row in data["games"]],
                       [_record(AnswerRecord, row) for row in data["answers"]],
                       None if meta is None else _record(StudyMeta, meta))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise ParseError(f"not a study's data: {exc}", source=source) from None

    # ---- CSV ------------------------------------------------------------------------------
    def to_csv(self) -> dict[str, str]:
        """``{"subjects.csv": …, "games.csv": …, "answers.csv": …}``, and ``study.csv``
        (the :class:`StudyMeta` as one row) when there is one."""
        out = {"subjects.csv": table_csv(SubjectRecord, self.subjects),
               "games.csv": table_csv(GameRecord, self.games),
               "answers.csv": table_csv(AnswerRecord, self.answers)}
        if self.meta is not None:
            out["study.csv"] = table_csv(StudyMeta, [self.meta])
        return out

    def files(self) -> dict[str, str]:
        """The export bundle, name → text: the CSV tables (:meth:`to_csv`),
        ``data_dictionary.csv`` (every column of every table: its type, meaning and codes,
        :mod:`hasamigo.study.dictionary`) and ``study.json`` (everything); ``meta`` gets
        its ``exported_at`` now when it has none."""
        from hasamigo.study.dictionary import dictionary_csv

        if self.meta is not None and self.meta.exported_at is None:
            self.meta = replace(self.meta, exported_at=datetime.now(UTC).isoformat())
        out = self.to_csv()
        out["data_dictionary.csv"] = dictionary_csv()
        out["study.json"] = json.dumps(self.to_json(), ensure_ascii=False, indent=1)
        return out

    def zip(self) -> bytes:
        """:meth:`files` in one zip archive (the researcher's one export)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, text in self.files().items():
                archive.writestr(name, text.encode("utf-8"))
        return buffer.getvalue()

    def write(self, directory: str | Path) -> list[Path]:
        """The export bundle (:meth:`files`) into ``directory``."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in self.files().items():
            (out / name).write_text(text, encoding="utf-8", newline="")
            written.append(out / name)
        return written

    @classmethod
    def read(cls, path: str | Path) -> StudyData:
        """A ``study.json`` (or the directory holding one) written by :meth:`write`."""
        file = Path(path)
        if file.is_dir():
            file = file / "study.json"
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ParseError(f"cannot read the study's data: {exc}", source=str(file)
                             ) from None
        return cls.from_json(data, source=str(file))


#: the export's tables: file stem → record class
TABLES: dict[str, type[Any]] = {"subjects": SubjectRecord, "games": GameRecord,
                                "answers": AnswerRecord, "study": StudyMeta}


def columns(kind: type[R]) -> tuple[str, ...]:
    """The export's columns of a table, in order."""
    return tuple(f.name for f in fields(kind))


def table_csv(kind: type[R], rows: Iterable[R]) -> str:
    """One table as CSV, every cell safe for a spreadsheet
    (:mod:`hasamigo.notation.csv_cells`: a subject's free text typed as a formula gets a
    ``'`` in front)."""
    return csv_text(columns(kind), ([_cell(v) for v in _row(row).values()] for row in rows))


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list | tuple):
        return ";".join(str(v) for v in value)
    return str(value)


def _row(record: SubjectRecord | GameRecord | AnswerRecord | StudyMeta) -> dict[str, Any]:
    data = asdict(record)
    return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


def _record(kind: type[R], row: Mapping[str, Any]) -> R:
    known = columns(kind)
    unknown = set(row) - set(known)
    if unknown:
        raise ValueError(f"unknown fields {sorted(unknown)} in a {kind.__name__}")
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in row.items()}
    return kind(**values)


def arms_of(data: StudyData) -> Sequence[str]:
    """The study's arms, in the order they first appear in the subjects' orders."""
    seen: dict[str, None] = {}
    for s in data.subjects:
        for arm in s.order:
            seen.setdefault(arm, None)
    for g in data.games:
        seen.setdefault(g.program, None)
    return list(seen)


__all__ = [
    "CAN_WIN",
    "MOVE_FELT",
    "MOVE_KINDS",
    "STRENGTH_LEVELS",
    "TABLES",
    "AnswerRecord",
    "CanWin",
    "GameRecord",
    "MoveFelt",
    "MoveKind",
    "Outcome",
    "StudyData",
    "StudyMeta",
    "SubjectRecord",
    "arms_of",
    "columns",
    "table_csv",
]
