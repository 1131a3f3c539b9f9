"""The server's own state, for pages that must say why the engine is not answering yet.

``GET /api/status`` → ``{"engine": "ready" | "warming", "seconds": float}``: the engine
warms in the background after start-up (the first run compiles it: about a minute on a
small machine); pages work meanwhile, programs' moves and hints wait. ``seconds`` is how
long it has been warming, or how long it took once ready. A page can poll it (every few
seconds while ``warming``) and tell the person what they are waiting for.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel

from hasamigo.web.services.analysis import EngineWarmup
from hasamigo.web.services.compute import serving_lifespan

#: the lifespan of the app's serving (routes prepared, compute workers stopped): here, with
#: the server's own state, once for the app
router = APIRouter(prefix="/api", tags=["status"], lifespan=serving_lifespan)


class StatusView(BaseModel):
    engine: Literal["ready", "warming"]
    #: seconds spent warming so far, or what the warm-up took once ready
    seconds: float


@router.get("/status")
async def status(request: Request) -> StatusView:
    """Whether the engine (programs' moves, hints, evaluations) is ready yet."""
    warmup: EngineWarmup | None = getattr(request.app.state, "engine", None)
    if warmup is None:  # before the lifespan has started it
        return StatusView(engine="warming", seconds=0.0)
    return StatusView(engine=warmup.state, seconds=round(warmup.seconds, 1))
