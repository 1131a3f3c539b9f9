"""The user study in the web app: the subjects' games run by the app's
:class:`~hasamigo.web.services.games.GameService`, the researcher's sessions, and the
strong engine's evaluations in the background, over
:class:`~hasamigo.study.service.StudyService`.

* **Subjects** hold nothing but their code: the subject is participant 0 of each of
  their games, and the study acts for that seat (the game's seat token is not handed
  out). Every answer is committed (an event of the game, or a row) before the answer
  to the request, so the next question is only shown once the last one is stored.
* **The protocol's timing**: a study's games are declared with its protocol's timing
  (:mod:`hasamigo.study.protocol`): the paper's questions come right after each subject
  move, the program waiting until they are answered (the subject's move is answered at
  once; the program's reply comes with the answer); the extended protocol's after each
  program move, the subject's move waiting. An archived study takes no moves nor answers.
* **The program's move kind** (normal / expectation / surprise / gift) of the move a
  question is about (``StudyQuestion.about``) is what the program reported
  (``Player.last_kind``) when the player that chose the move is still in memory;
  otherwise (a restart in between) the same program is asked again on the same position,
  which for the paper's programs gives the same kind (their planned moves are read from
  the record).
* **Researcher's sessions** are signed tokens keyed by the stored password hash, 12
  hours, as the tournaments' director's, with their own salt: see
  :mod:`hasamigo.web.sessions`.
* **Evaluations** are computed after each answered program move on the search threads,
  never on the event loop and never before the subject's next move is possible; a
  study with evaluations still pending exports ``None`` for them.
* **The report** (seconds of matplotlib) is drawn in the app's
  :class:`~hasamigo.web.services.compute.ComputePool` (:meth:`StudySite.report`), whose
  workers load its modules when they start (:func:`prepare_report`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from hasamigo.board import Board
from hasamigo.engine.players import program_of
from hasamigo.game.events import STUDY_MOVE_KINDS
from hasamigo.move import Color
from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.study.protocol import SUBJECT_MOVE
from hasamigo.study.records import StudyData
from hasamigo.study.service import (
    StudyError,
    StudyInfo,
    StudyService,
    StudySettings,
    SubjectProgress,
)
from hasamigo.study.store import StoredSubject, StudyRepository
from hasamigo.web.errors import Forbidden, Unauthorized
from hasamigo.web.limits import RateWindow
from hasamigo.web.schemas import NewGame
from hasamigo.web.schemas_study import NewStudy
from hasamigo.web.services.compute import ComputePool
from hasamigo.web.services.games import GameService, LiveGame
from hasamigo.web.sessions import SessionEnded, SessionKind

log = logging.getLogger(__name__)

#: (position board string) -> (discs from the side to move, exact)
Evaluator = Callable[[str], tuple[float, bool]]
#: the depth of the background evaluation (exact near the end, by the engine's levels)
EVAL_DEPTH = 8
SUBJECT = frozenset({0})
#: the researcher's sessions (a director's token is not one)
RESEARCHER = SessionKind("study researcher")


def engine_evaluator(depth: int = EVAL_DEPTH) -> Evaluator:
    """The strong engine's evaluation of a position, from the side to move, on engines
    kept for the next (:class:`~hasamigo.engine.pool.EnginePool`)."""
    from hasamigo.engine.pool import EnginePool

    pool = EnginePool(table_size=1 << 18)

    def evaluate(position: str) -> tuple[float, bool]:
        found = pool.evaluate_line(Board.from_string(position), depth, None)[0]
        return float(found.score), found.exact

    return evaluate


class StudySite:
    """The studies of one app (see the module docstring)."""

    def __init__(self, db: Database, games: GameService, *,
                 evaluator: Evaluator | None = None,
                 engine_ready: asyncio.Event | None = None,
                 wall_clock: Callable[[], float] = time.time,
                 time_source: Callable[[], float] = time.monotonic,
                 logins_per_minute: int = 10, creates_per_minute: int = 10,
                 subjects_per_minute: int = 30, compute: ComputePool | None = None) -> None:
        self.service = StudyService(StudyRepository(db), GameRepository(db))
        self.games = games
        #: where the report is drawn (``None``: on a thread of this process)
        self.compute = compute
        self.evaluator = evaluator or engine_evaluator()
        self.engine_ready = engine_ready
        self.now = wall_clock
        self._logins = RateWindow(logins_per_minute, 60.0, time_source=time_source)
        self._creates = RateWindow(creates_per_minute, 60.0, time_source=time_source)
        self._subjects = RateWindow(subjects_per_minute, 60.0, time_source=time_source)
        self._tasks: set[asyncio.Task[None]] = set()

    async def report(self, data: StudyData, title: str, lang: str, where: str | None = None,
                     group_by: str | None = None) -> str:
        """The study's report as HTML (:func:`render_report`), drawn in the compute pool's
        worker processes: the project's errors (a bad ``where``) come back as raised."""
        args = (data, title, lang, where, group_by)
        try:
            if self.compute is None:
                return await asyncio.to_thread(render_report, *args)
            return await self.compute.run(render_report, *args)
        except ImportError:
            raise StudyError("the report is not available in this version", "not_found"
                             ) from None

    async def _sync(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a read of the study's storage off the event loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def _store(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a write on the games' writer thread: SQLite has one writer at a time, and
        the game service queues every write there (see GameService.write)."""
        return await self.games.write(fn, *args)

    # ---- studies and the researcher -------------------------------------------------------
    async def create(self, req: NewStudy, address: str) -> tuple[StudyInfo, str, float]:
        self._creates.enforce(address, "new studies")
        settings = StudySettings(tuple(req.arms), req.clock_minutes, tuple(req.languages),
                                 req.protocol, req.surprise_window or "")
        info: StudyInfo = await self._store(self.service.create, req.name, settings,
                                            req.password)
        token, expires = await self._issue(info.id)
        return info, token, expires

    async def _issue(self, study_id: str) -> tuple[str, float]:
        stored = await self._sync(self.service.repo.password_hash, study_id)
        assert stored is not None
        return RESEARCHER.sign(study_id, "researcher", stored, now=self.now())

    async def login(self, study_id: str, password: str, address: str) -> tuple[str, float]:
        await self._sync(self.service.stored, study_id)
        self._logins.enforce(f"{address} {study_id}", "login attempts")
        if not await self._sync(self.service.check_password, study_id, password):
            raise Forbidden("wrong password")
        return await self._issue(study_id)

    async def researcher(self, study_id: str, token: str | None) -> None:
        """Pass with a valid researcher's session of this study, else 401 (none, spoilt,
        ended) or 403 (another study's)."""
        stored = await self._sync(self.service.repo.password_hash, study_id)
        if stored is None:
            raise StudyError(f"no study {study_id[:40]!r}", "not_found")
        if token is None:
            raise Unauthorized("the researcher's area needs the researcher's session: log "
                               "in with the study's password")
        claimed = SessionKind.claimed(token)
        if claimed is not None and claimed != study_id:
            raise Forbidden("this researcher's session is for another study")
        try:
            session = RESEARCHER.read(token, stored, now=self.now())
        except SessionEnded:
            raise Unauthorized("your researcher's session has ended: log in again") from None
        if session is None or session.tournament_id != study_id:
            raise Unauthorized("this researcher's session is not valid: log in again")

    async def data(self, study_id: str) -> StudyData:
        data: StudyData = await self._sync(self.service.data, study_id)
        self._evaluate_pending(study_id)
        return data

    async def change(self, study_id: str, **changes: Any) -> StudyInfo:
        """The researcher changes the arms, protocol or window (before any subject)."""
        info: StudyInfo = await self._store(lambda: self.service.change_settings(
            study_id, **changes))
        return info

    async def archive(self, study_id: str, archived: bool) -> StudyInfo:
        info: StudyInfo = await self._store(
            self.service.archive if archived else self.service.reopen, study_id)
        return info

    async def withdraw(self, study_id: str, code: str) -> int:
        """The subject ``code`` withdraws: their games leave memory (a program thinking in
        one is stopped), then they and everything of theirs leave the database. The
        study's count of withdrawals afterwards."""
        await self._sync(self.service.open_study, study_id)
        subject: StoredSubject = await self._sync(self.service.subject, study_id, code)
        rows = await self._sync(self.service.repo.games, study_id, subject.code)
        for row in rows:
            with contextlib.suppress(Exception):  # gone already, or never loaded
                live = await self.games.get(row.game_id)
                await self.games.delete(live, SUBJECT)
        await self._store(self.service.withdraw, study_id, subject.code)
        info = await self._sync(self.service.info, study_id)
        return int(info.withdrawn)

    # ---- subjects ----------------------------------------------------------------------------
    async def new_subject(self, study_id: str, language: str | None, address: str
                          ) -> dict[str, Any]:
        self._subjects.enforce(address, "new subjects")
        subject: StoredSubject = await self._store(self.service.new_subject, study_id,
                                                   language)
        return await self.state(study_id, subject.code)

    async def state(self, study_id: str, code: str) -> dict[str, Any]:
        """Where the subject is, with the game in play and the question asked, if any."""
        progress: SubjectProgress = await self._sync(self.service.progress, study_id, code)
        settings: StudySettings = await self._sync(self.service.settings, study_id)
        out = progress.to_json()
        out["study"] = study_id
        out["languages"] = list(settings.languages)
        out["surprise_window"] = settings.surprise_window
        out["timing"] = settings.questions.timing
        out["game"] = out["question"] = None
        index = progress.game_index
        current = next((g for g in progress.games if g.index == index), None)
        if current is not None:
            live = await self.games.get(current.game_id)
            view = self.games.view(live, SUBJECT)
            out["game"] = {"index": current.index, **view.model_dump(mode="json")}
            study = live.game.study
            asked = None if study is None else study.asked
            if asked is not None:
                board = live.game.board
                about = asked.about
                history = live.game.history
                about_move = None
                if about is not None and 1 <= about <= len(history):
                    played = history[about - 1].move
                    about_move = "pass" if played.is_pass else board.move_name(played)
                out["question"] = {
                    "move_number": asked.move_number,
                    "move": "pass" if asked.move.is_pass else board.move_name(asked.move),
                    "about": about, "about_move": about_move, "asks": list(asked.asks),
                    "answered": {a.question: a.answer for a in asked.answers}}
        return out

    async def consent(self, study_id: str, code: str) -> dict[str, Any]:
        await self._store(self.service.consent, study_id, code)
        return await self.state(study_id, code)

    async def before(self, study_id: str, code: str, **answers: Any) -> dict[str, Any]:
        await self._store(lambda: self.service.answer_before(study_id, code, **answers))
        return await self.state(study_id, code)

    async def start_game(self, study_id: str, code: str) -> dict[str, Any]:
        """Start the subject's next game (nothing happens when it has started)."""
        progress = await self._sync(self.service.progress, study_id, code)
        index = progress.game_index
        if progress.step != "game" or index is None:
            raise StudyError(f"the subject is at the {progress.step} step, not a game",
                             "wrong_phase")
        if any(g.index == index for g in progress.games):
            await self._ensure_declared(next(g for g in progress.games if g.index == index),
                                        progress.protocol)
            return await self.state(study_id, code)
        await self._sync(self.service.open_study, study_id)
        settings = await self._sync(self.service.settings, study_id)
        program = progress.subject.order[index - 1]
        created = await self.games.create(_new_game(settings.spec(program),
                                                    settings.clock_minutes),
                                          client=None, address=f"study {study_id} {code}")
        live = created.live
        timing = settings.questions.timing
        # before the program's first move: no await between creating and declaring
        await self.games.act(live, lambda lv: lv.game.declare_study(timing))
        try:
            await self._store(self.service.add_game, study_id, progress.subject.code, index,
                              live.id)
        except Exception:
            with contextlib.suppress(Exception):
                await self.games.delete(live, SUBJECT)
            raise
        return await self.state(study_id, code)

    async def _ensure_declared(self, progress: Any, protocol: str) -> None:
        from hasamigo.study.protocol import protocol as protocol_named

        live = await self.games.get(progress.game_id)
        timing = protocol_named(protocol).timing
        if live.game.study is None and not live.game.history:
            await self.games.act(live, lambda lv: lv.game.declare_study(timing))

    async def _current(self, study_id: str, code: str) -> LiveGame:
        await self._sync(self.service.open_study, study_id)
        progress = await self._sync(self.service.progress, study_id, code)
        current = next((g for g in progress.games if g.index == progress.game_index), None)
        if progress.step != "game" or current is None:
            raise StudyError("no game of the subject is in play", "wrong_phase")
        return await self.games.get(current.game_id)

    async def move(self, study_id: str, code: str, move: str) -> dict[str, Any]:
        live = await self._current(study_id, code)
        study = live.game.study
        # at the paper's timing the program waits for the answers: nothing to wait for
        wait = study is None or study.timing != SUBJECT_MOVE
        await self.games.play(live, SUBJECT, move.lower(), None, None, wait=wait)
        return await self.state(study_id, code)

    async def answer(self, study_id: str, code: str, move_number: int, question: str,
                     answer: str, seconds: float) -> dict[str, Any]:
        live = await self._current(study_id, code)
        study = live.game.study
        asked = None if study is None else next(
            (q for q in study.questions if q.move_number == move_number), None)
        kind = "normal" if asked is None else await self._move_kind(live, asked.about)

        def action(lv: LiveGame) -> None:
            lv.game.answer(move_number, question, answer, seconds=seconds, move_kind=kind)

        await self.games.act(live, action)
        study = live.game.study
        if study is not None:
            q = next((q for q in study.questions if q.move_number == move_number), None)
            if q is not None and q.complete:
                self._evaluate(live.id, move_number, q.position, study.subject)
                if study.timing == SUBJECT_MOVE:
                    await self.games.wait_for_program(live)  # its reply, now it may move
        return await self.state(study_id, code)

    async def _move_kind(self, live: LiveGame, move_number: int | None) -> str:
        """What the program reported of its move ``move_number`` (``None``: no move, a
        normal one; see the module docstring)."""
        game = live.game
        moves = game.history
        if move_number is None or not 1 <= move_number <= len(moves):
            return "normal"
        played = moves[move_number - 1]
        if played.move.is_pass:
            return "normal"
        player = live.players.get(played.colour)
        # the player that chose this very move says what kind it was
        # (test doubles of the Player protocol may not say: then it is a normal move)
        if player is not None and getattr(player, "last_ply", None) == move_number - 1:
            kind = str(getattr(player, "last_kind", "normal"))
            return kind if kind in STUDY_MOVE_KINDS else "normal"
        spec = game.seat(played.colour).program
        if spec is None:
            return "normal"
        board = game.board.copy()
        while len(board.move_stack) > move_number - 1:
            board.pop()

        def ask_again() -> str:
            fresh = self.games.player_factory(spec, 0)
            fresh.choose(board, None)
            kind = str(getattr(fresh, "last_kind", "normal"))
            return kind if kind in STUDY_MOVE_KINDS else "normal"

        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.games.search_pool, ask_again)
        except Exception:
            log.exception("cannot ask %s again for its move kind", spec)
            return "normal"

    async def felt(self, study_id: str, code: str, index: int, felt: int, note: str
                   ) -> dict[str, Any]:
        await self._store(self.service.answer_felt, study_id, code, index, felt, note)
        return await self.state(study_id, code)

    async def after(self, study_id: str, code: str, **answers: Any) -> dict[str, Any]:
        await self._store(lambda: self.service.answer_after(study_id, code, **answers))
        return await self.state(study_id, code)

    # ---- evaluations in the background -------------------------------------------------------
    def _evaluate(self, game_id: str, move_number: int, position: str, subject: Color
                  ) -> None:
        task = asyncio.create_task(self._evaluate_one(game_id, move_number, position,
                                                      subject.value))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _evaluate_pending(self, study_id: str) -> None:
        if self._tasks:
            return  # some are running; the rest are picked up on a later look

        async def run() -> None:
            pending = await self._sync(self.service.pending_evaluations, study_id)
            for game_id, number, position, subject in pending[:200]:
                await self._evaluate_one(game_id, number, position, subject)

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _evaluate_one(self, game_id: str, move_number: int, position: str,
                            subject: str) -> None:
        try:
            if self.engine_ready is not None:
                await self.engine_ready.wait()
            loop = asyncio.get_running_loop()
            score, exact = await loop.run_in_executor(self.games.search_pool,
                                                      self.evaluator, position)
            turn = position.rsplit(" ", 1)[-1]
            mine = score if turn == Color.parse(subject).symbol else -score
            await self._store(self.service.repo.put_evaluation, game_id, move_number,
                              float(mine), exact)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("evaluating move %s of game %s failed", move_number, game_id)

    async def settle(self) -> None:
        """Wait for the evaluations under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _new_game(spec: str, clock_minutes: float | None) -> NewGame:
    """The new-game request for a study game against the program ``spec`` (any program of
    the registry, which the study's settings checked): ``engine:N`` as the engine at level
    N; the others by their spec, set on the validated request (the new-game form offers
    fewer programs than a study may compare)."""
    found = program_of(spec)
    name = spec if found is None else found[0].en
    if found is not None and found[0].levels:
        return NewGame(opponent="engine", level=found[1] or 1, colour="random",
                       clock_minutes=clock_minutes, casual=False, names=("Subject", name))
    base = NewGame(opponent="victory", colour="random", clock_minutes=clock_minutes,
                   casual=False, names=("Subject", name))
    return base.model_copy(update={"opponent": spec})


# ---- the report's work, in the compute pool's worker processes ------------------------------
def render_report(data: StudyData, title: str, lang: str, where: str | None = None,
                  group_by: str | None = None) -> str:
    """The study's report as HTML (:func:`hasamigo.study.report.build_report`), for the
    subjects ``where`` keeps (:mod:`hasamigo.study.subgroups`), split by ``group_by``."""
    from hasamigo.study.report import build_report

    return str(build_report(data, title=title, lang=lang, where=where, group_by=group_by))


#: the modules a report needs, loaded by :func:`prepare_report`
REPORT_MODULES = ("hasamigo.study.report", "matplotlib.figure",
                  "matplotlib.backends.backend_svg")


def prepare_report() -> None:
    """A compute worker's preparation for the report (the pool's ``prepare``): its
    modules imported, matplotlib's fonts found and a small figure drawn as SVG once (its
    first text loads a font), so that the first report draws at once."""
    import importlib
    import io

    for name in REPORT_MODULES:
        importlib.import_module(name)
    from matplotlib.figure import Figure

    from hasamigo.study.figures import cjk_font

    cjk_font()
    figure = Figure(figsize=(2, 2), layout="constrained")
    axes = figure.add_subplot()
    axes.plot([0, 1], [0, 1], label="0")
    axes.set_title("0")
    axes.legend()
    figure.savefig(io.StringIO(), format="svg")


__all__ = ["EVAL_DEPTH", "REPORT_MODULES", "Evaluator", "StudySite", "engine_evaluator",
           "prepare_report", "render_report"]
