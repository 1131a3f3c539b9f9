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
question's ``about`` and ``asks``); a game stored before the timings existed reads as the
program-move timing.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from hasamigo.engine.players import treatment_of
from hasamigo.game.controller import GameController
from hasamigo.game.result import verdict_for
from hasamigo.study.records import AnswerRecord, GameRecord, Outcome

GIFT = "gift"


def iso(moment: datetime | float | None) -> str | None:
    """An instant (or epoch seconds) as ISO 8601 in UTC; ``None`` stays ``None``."""
    if moment is None:
        return None
    if isinstance(moment, float | int):
        moment = datetime.fromtimestamp(moment, UTC)
    return moment.astimezone(UTC).isoformat()


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
    for q in study.questions:
        if not q.complete:
            continue
        can_win = q.answer("can_win")
        assert can_win is not None
        felt = q.answer("move_felt") if "move_felt" in q.asks else None
        about = q.about
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
            iso(max(a.at for a in given)), study.timing, about, subject_moves))
    return out


def gifts_of(game: GameController) -> int:
    """How many of the program's moves it reported as gifts (the entertainer's), as far
    as the answers about them say (each program move counted once)."""
    study = game.study
    if study is None:
        return 0
    moves = {q.about for q in study.questions
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


__all__ = ["game_answers", "game_record", "gifts_of", "iso"]
