"""One stored study game as the study's records: its :class:`GameRecord` (the result from
the subject's side and the treatment's fidelity) and its :class:`AnswerRecord` rows (one
per question time answered in full).

The in-game questions are asked at one of two timings (:mod:`hasamigo.study.protocol`):

* ``program-move`` (the extended protocol): after each program move; ``move_number`` is
  the program's move and ``move_felt`` is about it;
* ``subject-move`` (the paper's 「被験者が１手打つごとに」): after each subject move, the
  program moving only once they are answered; ``move_number`` is the subject's move and
  ``move_felt`` is about the program's move before it (``about``), not asked at Black's
  first move (``None`` in the data).

The game layer says which (:class:`~hasamigo.game.state.StudyProgress` ``timing``, the
question's ``about`` and ``asks``); a game stored before the timings existed has neither,
and its questions were asked after the program's moves, about them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from hasamigo.engine.players import treatment_of
from hasamigo.game.controller import GameController
from hasamigo.game.result import verdict_for
from hasamigo.study.protocol import PROGRAM_MOVE
from hasamigo.study.records import AnswerRecord, GameRecord, Outcome

#: the in-game questions, in the order the data keeps them
IN_GAME = ("can_win", "move_felt")
GIFT = "gift"


def iso(moment: datetime | float | None) -> str | None:
    """An instant (or epoch seconds) as ISO 8601 in UTC; ``None`` stays ``None``."""
    if moment is None:
        return None
    if isinstance(moment, float | int):
        moment = datetime.fromtimestamp(moment, UTC)
    return moment.astimezone(UTC).isoformat()


def timing_of(game: GameController) -> str:
    """When the game's questions are asked: ``subject-move`` or ``program-move`` (games
    without a declared timing: the program's moves)."""
    return str(getattr(game.study, "timing", PROGRAM_MOVE))


def about_of(question: Any) -> int | None:
    """The ply number of the program's move a question's ``move_felt`` is about
    (``None``: none, at Black's first move); a question without ``about`` is about its
    own move (the program-move timing)."""
    return getattr(question, "about", question.move_number)  # type: ignore[no-any-return]


def asks_of(question: Any) -> tuple[str, ...]:
    """The questions asked at a question time (both, or only ``can_win`` when there is no
    program move to be asked about)."""
    return tuple(getattr(question, "asks", IN_GAME))


def answered(question: Any) -> bool:
    """Are all the questions asked at this time answered?"""
    return all(question.answer(k) is not None for k in asks_of(question))


def game_answers(study_id: str, subject: str, index: int, program: str, game: GameController,
                 evaluations: Mapping[tuple[str, int], tuple[float, bool]]
                 ) -> list[AnswerRecord]:
    """The answers of one study game, one record per question time answered in full."""
    study = game.study
    if study is None or game.id is None:
        return []
    out = []
    variant = game.variant
    history = game.history
    timing = timing_of(game)
    for q in study.questions:
        if not answered(q):
            continue
        can_win = q.answer("can_win")
        assert can_win is not None
        felt = q.answer("move_felt") if "move_felt" in asks_of(q) else None
        about = about_of(q)
        program_move = ""
        if about is not None and 1 <= about <= len(history):
            move = history[about - 1].move
            program_move = "pass" if move.is_pass else variant.move_name(move)
        subject_moves = sum(1 for p in history[:q.move_number]
                            if p.colour is study.subject and not p.move.is_pass)
        evaluation = evaluations.get((game.id, q.move_number))
        given = [a for a in (can_win, felt) if a is not None]
        out.append(AnswerRecord(
            study_id, subject, index, program, game.id, q.move_number, program_move,
            can_win.move_kind,  # type: ignore[arg-type]
            q.position, can_win.answer,  # type: ignore[arg-type]
            None if felt is None else felt.answer,  # type: ignore[arg-type]
            round(max(a.seconds for a in given), 3),
            None if evaluation is None else evaluation[0],
            False if evaluation is None else evaluation[1],
            iso(max(a.at for a in given)), timing, about, subject_moves))
    return out


def gifts_of(game: GameController) -> int:
    """How many of the program's moves it reported as gifts (the entertainer's), as far
    as the answers about them say (each program move counted once)."""
    study = game.study
    if study is None:
        return 0
    moves = {about_of(q) for q in study.questions
             if any(a.move_kind == GIFT for a in q.answers)}
    return len(moves - {None})


def game_record(study_id: str, subject: str, index: int, program: str, game: GameController,
                felt: int | None, felt_note: str | None,
                reported_outcome: Outcome | None = None) -> GameRecord:
    """One game's record: the result from the subject's side, the after-game answers of
    either protocol, and the treatment's fidelity (the move numbers of the amusement
    program's expectation and surprise moves, read from the record by the program's own
    rules, :func:`~hasamigo.engine.players.treatment_of`, with the window it played)."""
    study = game.study
    colour = study.subject if study is not None else game.persons[0]
    result = game.result
    outcome = subject_discs = program_discs = None
    if result is not None:
        outcome = verdict_for(result, colour).outcome
        subject_discs, program_discs = result.counts_for(colour), result.counts_for(colour.other)
    spec = game.seat(colour.other).program
    expectation_at = surprise_at = None
    if spec is not None:
        expectation_at, surprise_at = treatment_of(spec, game.board, colour.other)
    return GameRecord(study_id, subject, index, program, game.id or "",
                      colour.value,
                      outcome, subject_discs, program_discs, len(game.history), felt,
                      felt_note or "", reported_outcome, expectation_at, surprise_at,
                      gifts_of(game))


__all__ = ["about_of", "answered", "asks_of", "game_answers", "game_record", "gifts_of", "iso",
           "timing_of"]
