"""The app factory. Tests call ``create_app(db_url="sqlite:///tmp.db")``; ``hasamigo
serve`` runs it under uvicorn. A lifespan opens the database (migrating it), records the
server's run, resumes games whose program was to move and unfinished game reviews
(:class:`ReviewService`), starts the clock ticker and gets the kernels ready in tiers
(:class:`KernelWarmup`: the rules, the paper's programs, the engine, in that order, each
program moving as soon as its own are loaded; with ``Settings.warm_in_background``, as
``hasamigo serve`` runs it, the pages are served at once meanwhile, and ``GET
/api/status`` says how it is going); once the engine is ready, the
:class:`ComputePool`'s workers start and load the study report's modules (the first report
no longer waits for matplotlib); at shutdown it stops the programs and the workers and
records the orderly end of the run.

Before the first request the routes are prepared off the loop (:func:`_prepare_serving`)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from hasamigo import __version__
from hasamigo.accounts import AccountStore
from hasamigo.lobby import LobbyStore
from hasamigo.ratings import RatingStore
from hasamigo.storage.db import Database
from hasamigo.storage.multi_games import MultiGameRepository
from hasamigo.storage.repository import GameRepository
from hasamigo.storage.reviews import ReviewRepository
from hasamigo.storage.variations import VariationRepository
from hasamigo.web import errors, keyed_text
from hasamigo.web.deps import CLIENT_COOKIE
from hasamigo.web.limits import ASGIApp, BodyLimit, Message, Receive, Scope, Send
from hasamigo.web.routers import (
    accounts,
    analysis,
    games,
    importing,
    lobby,
    multi,
    pages,
    positions,
    puzzles,
    ratings,
    record,
    review,
    status,
    study,
    tournaments,
    variations,
    ws,
)
from hasamigo.web.services.accounts import AccountService
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.services.compute import ComputePool
from hasamigo.web.services.games import GameService, TimeSource
from hasamigo.web.services.lobby import LobbyService
from hasamigo.web.services.multi import MultiGameService
from hasamigo.web.services.players import PlayerFactory, registry_factory
from hasamigo.web.services.ratings import RatingService
from hasamigo.web.services.review import ReviewService
from hasamigo.web.services.study import Evaluator, StudySite, prepare_report
from hasamigo.web.services.tournaments import TournamentSite
from hasamigo.web.services.variations import VariationService
from hasamigo.web.services.warmup import Compiler, KernelWarmup
from hasamigo.web.settings import Settings
from hasamigo.web.state import AppServices

log = logging.getLogger(__name__)
HERE = Path(str(resources.files("hasamigo.web")))


def create_app(
    settings: Settings | None = None,
    *,
    db_url: str | None = None,
    player_factory: PlayerFactory | None = None,
    time_source: TimeSource = time.monotonic,
    wall_clock: TimeSource = time.time,
    engine_warmup: Compiler | None = None,
    study_evaluator: Evaluator | None = None,
) -> FastAPI:
    """The web app. ``db_url`` overrides ``settings.db_url``; ``player_factory`` (spec,
    seed) → player replaces the engine package's registry (tests); ``wall_clock`` is the
    games' clock (seconds since the epoch; tests drive it by hand) and ``time_source`` the
    monotonic clock of idle times and rate limits. ``engine_warmup`` replaces the
    subprocess that compiles the kernels (when ``settings.warm_engine``): run in a thread
    with the groups to compile and a function taking the progress events of ``python -m
    hasamigo._kernels.warm --progress``, it gets every group requested, as on an empty
    cache (tests inject a slow one); each group is loaded here once it says so.
    ``study_evaluator`` replaces the engine's evaluation of the study's positions (tests).

    Every service is built once, by the lifespan, on :class:`~hasamigo.web.state.AppServices`
    (``app.state.services``); the settings and the templates are the app's configuration."""
    settings = settings or Settings()
    if db_url is not None:
        settings = settings.model_copy(update={"db_url": db_url})

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.db_url)
        await asyncio.to_thread(db.open)
        analysis_service = AnalysisService(settings)
        service = GameService(
            GameRepository(db),
            settings,
            player_factory or registry_factory,
            time_source=time_source,
            wall_clock=wall_clock,
            search_pool=analysis_service.pool,
        )

        def load(group: str) -> None:
            """A group's kernels here, then what uses them chooses once (tables, books)."""
            from hasamigo._kernels.warm import warm

            warm(group)
            if group == "engine":
                analysis_service.warm()
            service.warm_players(group, lambda g: g == group or warmup.is_ready(g))

        warmup = (KernelWarmup(load, compiler=engine_warmup) if settings.warm_engine
                  else KernelWarmup.skipped())
        ready = warmup.ready  # the engine's: reviews and the study's evaluations wait for it
        service.kernels = warmup
        analysis_service.warmup = warmup
        # the report's modules loaded by each worker as it starts (it starts once the
        # engine is ready, below, or at the first request)
        compute = ComputePool(settings.compute_workers, prepare=prepare_report)
        rating_service = RatingService(RatingStore(db), service.repo)
        service.on_over = rating_service.game_over
        services = AppServices(
            db=db,
            games=service,
            analysis=analysis_service,
            reviews=ReviewService(ReviewRepository(db), service, settings, engine_ready=ready),
            variations=VariationService(VariationRepository(db)),
            engine=warmup,
            compute=compute,
            tournaments=TournamentSite(db, compute=compute),
            study=StudySite(db, service, evaluator=study_evaluator, engine_ready=ready,
                            compute=compute),
            multi=MultiGameService(MultiGameRepository(db), analysis_service.pool,
                                   games_per_minute=settings.games_per_minute,
                                   time_source=time_source, ratings=rating_service),
            accounts=AccountService(
                AccountStore(db, clock=lambda: datetime.fromtimestamp(wall_clock(), UTC)),
                signups_per_hour=settings.signups_per_hour),
            ratings=rating_service,
            lobby=LobbyService(
                LobbyStore(db, clock=lambda: datetime.fromtimestamp(wall_clock(), UTC)),
                RatingStore(db), service, time_source=time_source),
        )
        app.state.services = services
        try:
            if settings.warm_engine:
                # A cold start compiles the kernels, in a subprocess (see EngineWarmup).
                # In the background, pages are served at once and only the engine waits.
                warmup.start()
                if not settings.warm_in_background:
                    await ready.wait()
            await service.start()
            await services.reviews.start()
            await _prepare_serving(app, settings, warmup)
            if settings.warm_engine:  # after the engine's tiers, the workers in the background
                warmup.subscribe(lambda _warmup: _in_thread(compute.start, "compute-start"))
            yield
        finally:
            await services.multi.stop()
            await services.reviews.stop()
            await warmup.stop()
            await service.stop()
            await asyncio.to_thread(compute.close)
            analysis_service.close()
            db.close()

    app = FastAPI(title="hasamigo", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.templates = Jinja2Templates(directory=str(HERE / "templates"))
    keyed_text.install(app.state.templates.env)
    accounts.install(app.state.templates.env)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    errors.install(app)

    app.add_middleware(ClientCookie, find_viewer=accounts.find_viewer)
    for router in (pages.router, importing.router, games.router, analysis.router, review.router,
                   variations.router, status.router, ws.router, tournaments.router, record.router,
                   study.router, positions.router, positions.pages, puzzles.router,
                   puzzles.pages, multi.router, multi.pages, accounts.router, accounts.players,
                   accounts.pages, ratings.router, lobby.router, lobby.pages):
        app.include_router(router)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes,
                       paths={importing.IMPORT_PATH: settings.max_import_bytes})
    return app


class ClientCookie:
    """Every browser gets an anonymous id: the library lists the games it made or joined
    (seat tokens, not this cookie, authorise actions); then ``find_viewer`` (a page's
    signed-in account, :func:`hasamigo.web.routers.accounts.find_viewer`).

    Plain ASGI middleware: ``@app.middleware("http")`` (Starlette's BaseHTTPMiddleware)
    runs the rest of the app as a task behind memory streams: the two this replaces cost
    every request, the API's included, 0.5-0.7 ms of CPU more (issue 67's load)."""

    def __init__(self, app: ASGIApp, find_viewer: Callable[[Request], Awaitable[None]]
                 ) -> None:
        self.app = app
        self.find_viewer = find_viewer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        known = request.cookies.get(CLIENT_COOKIE)
        fresh = not (known and 16 <= len(known) <= 64 and known.isalnum())
        client = secrets.token_hex(16) if fresh else known
        request.state.client = client
        await self.find_viewer(request)
        if not fresh:
            await self.app(scope, receive, send)
            return
        cookie = Response()
        cookie.set_cookie(CLIENT_COOKIE, str(client), max_age=400 * 24 * 3600,
                          httponly=True, samesite="lax")
        header = next(item for item in cookie.raw_headers if item[0] == b"set-cookie")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


async def _prepare_serving(app: FastAPI, settings: Settings, warmup: KernelWarmup) -> None:
    """Before the first request: the routes prepared off the loop, the rules' kernels
    ready (:func:`_rules_ready`) and start-up's objects frozen out of the garbage collector
    (:func:`_freeze`), again once the engine has warmed.

    FastAPI (0.165) prepares an included router's routes (their fields and validators)
    when a request first walks it, on the event loop: 0.1 to 0.5 s a router on 2 busy
    cores, stalling every request of the first seconds. Building the OpenAPI document
    walks them all, so it is built here, on a thread, before the server listens."""
    await asyncio.to_thread(app.openapi)
    if settings.warm_engine:
        await asyncio.to_thread(_rules_ready)
    await asyncio.to_thread(_freeze)
    # the engine's kernels and tables, once loaded, last as long
    warmup.subscribe(lambda _warmup: gc.freeze())


def _rules_ready() -> None:
    """The rules' kernels (every game's moves and flips), loaded or compiled before the
    first request: the engine's warm-up compiles every kernel in a subprocess first, and
    meanwhile the first game created compiled them on the event loop (3.9 s to create
    a game during a cold start, as reported in issue 50)."""
    from hasamigo._kernels.warm import warm

    warm("rules")


def _freeze() -> None:
    """Leave what start-up made (the app, pydantic's validators, numba's dispatchers …:
    some 300,000 objects) out of every later garbage collection. A full collection holds
    the GIL throughout: one over the whole heap took 0.85 s on 2 busy cores, every thread
    and the event loop stopped, when a study's games were loaded for its report."""
    gc.collect()
    gc.freeze()


def _in_thread(fn: Callable[[], None], name: str) -> None:
    """``fn()`` on a daemon thread of its own (from the event loop: starting processes
    takes a while)."""
    threading.Thread(target=fn, name=f"hasamigo-{name}", daemon=True).start()


#: ``hasamigo serve --workers N`` hands its options to the worker processes in this
#: environment variable (JSON: the keyword arguments of :class:`Settings`)
SERVE_SETTINGS = "HASAMIGO_SERVE_SETTINGS"

#: uvicorn's WebSocket implementation for every server of the app (``uvicorn.Config(ws=…)``):
#: the websockets library's sans-I/O one. Its default ("auto") takes the library's legacy
#: implementation, deprecated since websockets 14.
UVICORN_WS = "websockets-sansio"


def served_app() -> FastAPI:
    """The app of one of ``hasamigo serve --workers N``'s processes (uvicorn's factory):
    its settings from :data:`SERVE_SETTINGS`."""
    options = json.loads(os.environ.get(SERVE_SETTINGS) or "{}")
    return create_app(Settings(**options))
