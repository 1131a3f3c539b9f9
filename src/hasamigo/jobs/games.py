"""Games across workers: the task of :mod:`.selfplay`, of ``hasamigo match``, of
``hasamigo tournament run`` and of ``hasamigo study simulate``.

A worker plays a game (:func:`~hasamigo.tournament.match.run_task`, or
:func:`~hasamigo.tournament.programs.play_task` for a tournament's) and returns it as a
JSON-able row (:func:`game_row`) that the journal keeps and :func:`game_result` turns
back into the same :class:`~hasamigo.tournament.match.MatchGame`. A game depends only on
its task (players' specs, opening, seed), so the results are those of the one-process
run whatever the workers, and however often the job was stopped and resumed.

:func:`match_player`, :func:`program_player` and :func:`study_player` are the ``play``
arguments of :func:`~hasamigo.tournament.match.run_match`,
:func:`~hasamigo.tournament.programs.run_tournament` and
:func:`~hasamigo.study.simulate.run_simulation`.

>>> from hasamigo.engine.players import PlayerSpec
>>> from hasamigo.tournament.match import match_tasks, run_task
>>> played = run_task(match_tasks(PlayerSpec("greedy"), PlayerSpec("random"), 1, seed=4)[0])
>>> game_result(game_row(played)) == played
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hasamigo.game.result import GameResult, Termination
from hasamigo.jobs.runner import Backend, Journal, iter_job
from hasamigo.move import Color, Move
from hasamigo.tournament.match import GameTask, MatchGame, run_task

if TYPE_CHECKING:  # the tournaments' module reads the database: imported when used
    from hasamigo.study.simulate import StudyGame, StudyTask
    from hasamigo.tournament.programs import ProgramTask

#: the keys of a row that :mod:`.selfplay` keeps (the moves from the start, the opening's
#: included, and Black's official count)
SHORT_KEYS = ("index", "moves", "black_score")


def game_row(game: MatchGame) -> dict[str, Any]:
    """A finished game as a JSON-able row: ``{index, moves, black_score}`` (``moves``
    from the start, the opening's included), ``result`` (:meth:`GameResult.to_json`) and
    all the rest of ``game``, so that :func:`game_result` gives it back."""
    return {"index": game.index,
            "moves": [str(m) for m in (*game.opening, *game.moves)],
            "black_score": game.result.black, "result": game.result.to_json(),
            "opening": len(game.opening), "a_color": game.a_color.value,
            "kinds": list(game.kinds), "reasons": list(game.reasons),
            "seconds": list(game.seconds)}


def _row_result(row: dict[str, Any]) -> GameResult:
    """The result of a row; a row journalled before ``result`` was kept has
    ``black_score``, ``white_score``, ``winner`` and ``time_loss`` (the side whose flag
    fell: a 33–31 time-out) instead."""
    if "result" in row:
        return GameResult.from_json(row["result"])
    winner = Color.parse_optional(row["winner"])
    ended = Termination.NORMAL if row.get("time_loss") is None else Termination.TIMEOUT
    return GameResult(row["black_score"], row["white_score"], winner, ended)


def game_result(row: dict[str, Any]) -> MatchGame:
    """The game of a row of :func:`game_row` (or of an older journal's row)."""
    moves = tuple(Move.from_str(m) for m in row["moves"])
    cut = row["opening"]
    return MatchGame(row["index"], moves[:cut], moves[cut:], tuple(row["kinds"]),
                     tuple(row["reasons"]), Color.parse(row["a_color"]), _row_result(row),
                     tuple(row["seconds"]))


def play_task(task: GameTask) -> dict[str, Any]:
    """One game of a match (or of self-play), as a row of :func:`game_row`."""
    return game_row(run_task(task))


def play_short_task(task: GameTask) -> dict[str, Any]:
    """One game as the row of :data:`SHORT_KEYS` only (what self-play's journal keeps:
    the players' words about each move would make it ten times larger)."""
    row = play_task(task)
    return {key: row[key] for key in SHORT_KEYS}


def play_program_task(task: ProgramTask) -> dict[str, Any]:
    """One game of a tournament of programs, as a row of :func:`game_row`."""
    from hasamigo.tournament.programs import play_task as play_program_game

    return game_row(play_program_game(task))


def match_params(*, seed: int, openings: str, random_plies: int,
                 clock: float | None, weights: dict[str, str] | None = None) -> dict[str, Any]:
    """What a match's journal is checked against, besides its players (which
    :func:`match_player` takes from the games): the games depend on these (and on their
    number only, so a larger ``--games`` adds games to a journal). ``weights``: the
    SHA-256 of the weights file each engine player evaluates with (``{"a": ..., "b":
    ...}``), where one has its own, so a journal is not resumed with other weights."""
    params: dict[str, Any] = {"job": "match", "seed": seed, "openings": openings,
                              "random_plies": random_plies, "clock": clock}
    if weights:
        params["weights"] = weights
    return params


def _with_players(params: dict[str, Any], task: GameTask) -> dict[str, Any]:
    """``params`` with the match's players as a journal keeps them: ``a`` and ``b``, their
    specs' text."""
    return {"job": "match", "a": str(task.a), "b": str(task.b), **params}


def match_player(backend: Backend, *, journal: str | Path | None = None,
                 params: dict[str, Any] | None = None,
                 on_start: Callable[[int], None] | None = None
                 ) -> Callable[[Sequence[GameTask]], Iterator[MatchGame]]:
    """The ``play`` of :func:`~hasamigo.tournament.match.run_match` on ``backend``'s
    workers: the games are keyed by their number from 1 and, with a ``journal`` (checked
    against ``params``, see :func:`match_params`, and the games' players), those it holds
    are not played again (they come first; ``on_start`` is told how many)."""

    def play(tasks: Sequence[GameTask]) -> Iterator[MatchGame]:
        book = (None if journal is None or not tasks
                else Journal(journal, _with_players(params or {}, tasks[0])))
        keyed = {str(task.index + 1): task for task in tasks}
        for _key, row in iter_job(keyed, play_task, backend=backend, journal=book,
                                  on_start=on_start):
            yield game_result(row)

    return play


def program_player(backend: Backend) -> Callable[[Sequence[ProgramTask]], Iterator[MatchGame]]:
    """The ``play`` of :func:`~hasamigo.tournament.programs.run_tournament` on
    ``backend``'s workers. No journal: the tournament's database keeps each game as it
    finishes, and a stopped run resumes from it."""

    def play(tasks: Sequence[ProgramTask]) -> Iterator[MatchGame]:
        keyed = {f"{task.round}.{task.board}": task for task in tasks}
        for _key, row in iter_job(keyed, play_program_task, backend=backend):
            yield game_result(row)

    return play


def study_player(backend: Backend) -> Callable[[Sequence[StudyTask]], Iterator[StudyGame]]:
    """The ``play`` of :func:`~hasamigo.study.simulate.run_simulation` on ``backend``'s
    workers (no journal: a simulation runs in one go)."""
    from hasamigo.study.simulate import run_study_task

    def play(tasks: Sequence[StudyTask]) -> Iterator[StudyGame]:
        keyed = {str(number): task for number, task in enumerate(tasks)}
        for _key, game in iter_job(keyed, run_study_task, backend=backend):
            yield game

    return play
