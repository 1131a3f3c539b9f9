"""User-study games: a :class:`~hasamigo.game.events.StudyGame` event, appended before the
first move of a game between one person, the subject, and a program, adds the amusement
paper's questions, at one of two timings (the event's ``timing``):

* :data:`~hasamigo.game.events.PROGRAM_MOVE` — after every program move (a forced pass
  included) that leaves the game in play, a question is **asked** (:class:`StudyQuestion`:
  the move, its number, the position the subject faces); the subject's move or forced
  pass is refused until it is answered. The time spent answering is not charged to the
  subject's clock (the clock restarts from each answer, unless the flag fell already).
* :data:`~hasamigo.game.events.SUBJECT_MOVE` — the paper's 「被験者が１手打つごとに」: after
  every move the subject plays (a forced pass is not a move played; the move that ends the
  game is one), a question is asked about the position after it, and its second question
  is about the program's move before it (:attr:`StudyQuestion.about`; at Black's first
  move there was none, so only ``can_win`` is asked). The program does not move, nor pass,
  until it is answered, and its clock stands meanwhile (it starts when the last answer is
  given), so answering costs neither side time. The last question is answered after the
  game is over.

Either way a second answer to the same question of the same move is refused, and so is an
answer to a question not asked.

The questions are this procedure's own: a :class:`StudyProgress` beside the game's state
(one of :attr:`~hasamigo.game.procedures.core.GameState.parts`, read with :func:`of`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hasamigo.game.clock import ClockState
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    PROGRAM_MOVE,
    STUDY_QUESTIONS,
    STUDY_TIMINGS,
    SUBJECT_MOVE,
    EnteredMove,
    Event,
    MovePlayed,
    Pass,
    StudyAnswer,
    StudyGame,
)
from hasamigo.game.procedures.core import Draft, GameState, Phase, Queries, Rule, runner
from hasamigo.move import Color, Move


@dataclass(frozen=True, slots=True)
class StudyQuestion:
    """The questions asked after the move number ``move_number`` (``move``: the program's,
    or the subject's at the :data:`SUBJECT_MOVE` timing), with the position after it (a
    board string), when they were asked, and the answers given so far. ``about``: the
    number of the program's move the answers are about (``move_number`` itself at the
    program-move timing; the program's last before the subject's move at the other,
    ``None`` if it had none); ``asks``: the questions asked."""

    move_number: int
    move: Move
    position: str
    at: float
    answers: tuple[StudyAnswer, ...] = ()
    about: int | None = None
    asks: tuple[str, ...] = tuple(STUDY_QUESTIONS)

    @property
    def complete(self) -> bool:
        return {a.question for a in self.answers} >= set(self.asks)

    def answer(self, question: str) -> StudyAnswer | None:
        return next((a for a in self.answers if a.question == question), None)


@dataclass(frozen=True, slots=True)
class StudyProgress:
    """A study game's questions so far (see the module docstring); ``subject``: the
    person's colour; ``timing``: when the questions are asked."""

    subject: Color
    questions: tuple[StudyQuestion, ...] = ()
    timing: str = PROGRAM_MOVE

    @property
    def after_subject(self) -> bool:
        """Whether the questions follow the subject's moves (the paper's timing)."""
        return self.timing == SUBJECT_MOVE

    @property
    def asked(self) -> StudyQuestion | None:
        """The question awaiting an answer (the subject may not move meanwhile)."""
        last = self.questions[-1] if self.questions else None
        return last if last is not None and not last.complete else None


def of(state: Queries) -> StudyProgress | None:
    """A study game's questions so far, kept beside the game's state (``None``: not a
    study game)."""
    return state.part(StudyProgress)


def gate(state: GameState, event: Event) -> None:
    """While a question is asked, the subject does not move or pass (program-move timing),
    nor does the program (subject-move timing)."""
    study = of(state)
    if study is None or type(event) not in (MovePlayed, Pass, EnteredMove):
        return
    asked = study.asked
    if asked is None:
        return
    mover = getattr(event, "colour", getattr(event, "by", None))
    missing = [q for q in asked.asks if asked.answer(q) is None]
    if study.after_subject:
        raise GameError(f"the subject answers the questions about move {asked.move_number} "
                        f"before the program moves ({', '.join(missing)})", "wrong_phase")
    if mover is study.subject:
        raise GameError(f"answer the questions about the program's move {asked.move_number} "
                        f"first ({', '.join(missing)})", "wrong_phase")


def ask(before: GameState, state: Draft) -> None:
    """After a program's move that leaves the game in play (program-move timing), or
    after a move the subject played (subject-move timing), the questions are asked."""
    study, ply = of(state), state.last
    if study is None or ply is None or ply.before is not before.last:
        return  # no move was added
    played = ply.played
    position = state.position.to_string()
    if not study.after_subject:
        if played.colour is study.subject or state.phase is not Phase.PLAYING:
            return
        question = StudyQuestion(ply.number, played.move, position, played.at,
                                 about=ply.number)
    else:
        if played.colour is not study.subject or played.move.is_pass \
                or state.phase not in (Phase.PLAYING, Phase.OVER):
            return
        about = ply.before
        while about is not None and about.played.colour is study.subject:
            about = about.before
        asks = tuple(STUDY_QUESTIONS) if about is not None else ("can_win",)
        question = StudyQuestion(ply.number, played.move, position, played.at,
                                 about=None if about is None else about.number, asks=asks)
        clock = state.clock
        if clock is not None and clock.running is not None:
            state.clock, _ = clock.switch(None, played.at)  # it stands while they answer
    state.put(replace(study, questions=(*study.questions, question)))


def _study_game(state: Draft, event: StudyGame) -> None:
    if of(state) is not None:
        raise GameError("the game is a study game already", "wrong_phase")
    persons = state.persons
    if state.seats is None or len(persons) != 1:
        raise GameError("a study game is one person (the subject) against a program")
    if state.last is not None or state.phase is not Phase.PLAYING or state.players_clock:
        raise GameError("a game becomes a study game before its first move", "wrong_phase")
    timing = event.timing or PROGRAM_MOVE
    if timing not in STUDY_TIMINGS:
        raise GameError(f"a study's timing is one of {', '.join(STUDY_TIMINGS)}")
    state.put(StudyProgress(persons[0], timing=timing))


def _study_answer(state: Draft, event: StudyAnswer) -> None:
    study = of(state)
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
    if event.question not in asked.asks:
        raise GameError(f"the question {event.question} is not asked about move "
                        f"{event.move_number} (the opponent had not moved yet)", "wrong_phase")
    if asked.answer(event.question) is not None:
        raise GameError(f"the question {event.question} about move {event.move_number} is "
                        "answered already", "wrong_phase")
    question = replace(asked, answers=(*asked.answers, event))
    state.put(replace(study, questions=(*study.questions[:-1], question)))
    clock = state.clock
    if clock is None or state.players_clock or state.suspended:
        return
    if study.after_subject:
        if question.complete and state.phase is Phase.PLAYING and clock.running is None:
            # the program's time starts once the subject has answered
            state.clock, _ = clock.switch(runner(state, state.position.turn), event.at)
    elif clock.running is study.subject and not clock.flagged(study.subject, event.at):
        # answering is not playing: the subject's time restarts from the answer
        state.clock = ClockState(clock.black, clock.white, clock.running, event.at,
                                 clock.per_turn)


RULES: dict[type[Event], Rule] = {
    StudyGame: _study_game,
    StudyAnswer: _study_answer,
}

__all__ = ["RULES", "StudyProgress", "StudyQuestion", "ask", "gate", "of"]
