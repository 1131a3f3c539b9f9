"""User-study games: a :class:`~hasamigo.game.events.StudyGame` event, appended before the
first move of a game between one person, the subject, and a program, adds the amusement
paper's questions. After every program move (a forced pass included) that leaves the game in play,
a question is **asked** (:class:`StudyQuestion`: the move, its number, the position the
subject faces); the subject's move or forced pass is refused until both questions
(:data:`~hasamigo.game.events.STUDY_QUESTIONS`) are answered
(:class:`~hasamigo.game.events.StudyAnswer`), and a second answer to the same question of
the same move is refused. The time spent answering is not charged to the subject's clock
(the clock restarts from each answer, unless the flag fell already).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hasamigo.game.clock import ClockState
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    STUDY_QUESTIONS,
    EnteredMove,
    Event,
    MovePlayed,
    Pass,
    StudyAnswer,
    StudyGame,
)
from hasamigo.game.procedures.core import Draft, GameState, Phase, Rule
from hasamigo.move import Color, Move


@dataclass(frozen=True, slots=True)
class StudyQuestion:
    """The questions asked after the program's move number ``move_number`` (``move``),
    with the position the subject then faced (a board string), when they were asked, and
    the answers given so far."""

    move_number: int
    move: Move
    position: str
    at: float
    answers: tuple[StudyAnswer, ...] = ()

    @property
    def complete(self) -> bool:
        return {a.question for a in self.answers} >= set(STUDY_QUESTIONS)

    def answer(self, question: str) -> StudyAnswer | None:
        return next((a for a in self.answers if a.question == question), None)


@dataclass(frozen=True, slots=True)
class StudyProgress:
    """A study game's questions so far (see the module docstring); ``subject``: the
    person's colour."""

    subject: Color
    questions: tuple[StudyQuestion, ...] = ()

    @property
    def asked(self) -> StudyQuestion | None:
        """The question awaiting an answer (the subject may not move meanwhile)."""
        last = self.questions[-1] if self.questions else None
        return last if last is not None and not last.complete else None


def gate(state: GameState, event: Event) -> None:
    """The subject moves (or passes) only once the last program move's questions are
    answered."""
    study = state.study
    if study is None or type(event) not in (MovePlayed, Pass, EnteredMove):
        return
    asked = study.asked
    mover = getattr(event, "colour", getattr(event, "by", None))
    if asked is not None and mover is study.subject:
        missing = [q for q in STUDY_QUESTIONS if asked.answer(q) is None]
        raise GameError(f"answer the questions about the program's move {asked.move_number} "
                        f"first ({', '.join(missing)})", "wrong_phase")


def ask(before: GameState, state: Draft) -> None:
    """After a program's move that leaves the game in play, the questions are asked."""
    study, ply = state.study, state.last
    if study is None or ply is None or ply.before is not before.last:
        return  # no move was added
    played = ply.played
    if played.colour is study.subject or state.phase is not Phase.PLAYING:
        return
    question = StudyQuestion(ply.number, played.move, state.position.to_string(), played.at)
    state.study = replace(study, questions=(*study.questions, question))


def _study_game(state: Draft, event: StudyGame) -> None:
    if state.study is not None:
        raise GameError("the game is a study game already", "wrong_phase")
    persons = state.persons
    if state.seats is None or len(persons) != 1:
        raise GameError("a study game is one person (the subject) against a program")
    if state.last is not None or state.phase is not Phase.PLAYING or state.otb is not None:
        raise GameError("a game becomes a study game before its first move", "wrong_phase")
    state.study = StudyProgress(persons[0])


def _study_answer(state: Draft, event: StudyAnswer) -> None:
    study = state.study
    if study is None:
        raise GameError("only a study game asks questions", "wrong_phase")
    asked = study.asked
    if asked is None or asked.move_number != event.move_number:
        answered = next((q for q in study.questions if q.move_number == event.move_number),
                        None)
        if answered is not None and answered.answer(event.question) is not None:
            raise GameError(f"the question {event.question} about move {event.move_number} "
                            "is answered already", "wrong_phase")
        waiting = "nothing" if asked is None else f"move {asked.move_number}"
        raise GameError(f"no question is asked about move {event.move_number} (asked: "
                        f"{waiting})", "wrong_phase")
    choices = STUDY_QUESTIONS.get(event.question)
    if choices is None or event.answer not in choices:
        raise GameError(f"{event.question} is answered with one of "
                        f"{', '.join(choices or ())}")
    if asked.answer(event.question) is not None:
        raise GameError(f"the question {event.question} about move {event.move_number} is "
                        "answered already", "wrong_phase")
    question = replace(asked, answers=(*asked.answers, event))
    state.study = replace(study, questions=(*study.questions[:-1], question))
    clock = state.clock
    if clock is not None and clock.running is study.subject and state.otb is None \
            and not state.suspended and not clock.flagged(study.subject, event.at):
        # answering is not playing: the subject's time restarts from the answer
        state.clock = ClockState(clock.black, clock.white, clock.running, event.at)


RULES: dict[type[Event], Rule] = {
    StudyGame: _study_game,
    StudyAnswer: _study_answer,
}

__all__ = ["RULES", "StudyProgress", "StudyQuestion", "ask", "gate"]
