"""The app factory. Tests call ``create_app(db_url="sqlite:///tmp.db")``; ``hasamigo
serve`` runs it under uvicorn. A lifespan opens the database (migrating it), resumes
unfinished games, starts the clock ticker, and at shutdown saves every running clock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from hasamigo import __version__
from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.web import errors
from hasamigo.web.routers import analysis, games, pages, ws
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.services.games import GameService, TimeSource
from hasamigo.web.services.players import PlayerFactory, registry_factory
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)
HERE = Path(str(resources.files("hasamigo.web")))


def create_app(
    settings: Settings | None = None,
    *,
    db_url: str | None = None,
    player_factory: PlayerFactory | None = None,
    time_source: TimeSource = time.monotonic,
    wall_clock: TimeSource = time.time,
) -> FastAPI:
    """The web app. ``db_url`` overrides ``settings.db_url``; ``player_factory`` (spec,
    seed) → player replaces the engine package's registry (tests); ``time_source`` is the
    monotonic clock the game clocks read (tests drive it by hand)."""
    settings = settings or Settings()
    if db_url is not None:
        settings = replace(settings, db_url=db_url)
    db = Database(settings.db_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(db.open)
        service = GameService(
            GameRepository(db),
            settings,
            player_factory or registry_factory,
            time_source=time_source,
            wall_clock=wall_clock,
        )
        app.state.games = service
        if settings.warm_engine:
            # Load (or compile) every kernel before serving: a numba compile holds the GIL
            # for long stretches and would stall the event loop mid-game.
            await asyncio.to_thread(app.state.analysis.warm)
            await asyncio.to_thread(service.warm_players)
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            db.close()

    app = FastAPI(title="hasamigo", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.db = db
    app.state.analysis = AnalysisService(settings)
    app.state.templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    errors.install(app)
    for router in (pages.router, games.router, analysis.router, ws.router):
        app.include_router(router)
    return app
