"""The server's own state, for pages that must say why a program or the engine is not
answering yet.

``GET /api/status`` → ``{"engine": "ready" | "warming", "seconds": float, "groups": {…},
"engine_threads": int}``.
A fresh server compiles its kernels in the background (the first run only; minutes for the
engine on a small machine), in groups (:mod:`hasamigo.web.services.warmup`): ``rules`` (every
board, Random and Greedy), ``players`` (the paper's programs, Weakest until the engine is
ready), ``engine`` (its levels, the entertainer, hints, the graph), and when first needed
``wide-rules`` and ``wide`` (the 10-column grid's board and engine) and ``smallboard``. Pages
work meanwhile; each program moves once its own groups are ready.

* ``engine``, ``seconds``: whether the engine is ready, and how long it has been warming
  (or how long it took once ready), as before the groups were told apart;
* ``groups``: each group's ``state`` (``ready``; ``loading`` here after its compile;
  ``compiling``; ``waiting`` for the groups compiling before it; ``idle``: not needed yet),
  the ``fraction`` of its preparation done, the estimated ``seconds_left`` until it is
  ready (``null`` when not needed yet) and the ``kernel`` compiling now
  (``module.function``, e.g. ``endgame.solve3``: the page names its module);
* ``engine_threads``: the cores the hints and the evaluation graph search on (the setting
  of :class:`~hasamigo.web.settings.Settings`, ``hasamigo serve --engine-threads``).

A page polls it (every second or two while something it needs is not ready).
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from hasamigo.web.services.warmup import SERVER_GROUPS, GroupState, KernelWarmup
from hasamigo.web.state import services_of

router = APIRouter(prefix="/api", tags=["status"])


class GroupView(BaseModel):
    state: GroupState = Field(description="ready; loading (compiled, loading here); "
                              "compiling; waiting (behind others); idle (not needed yet)")
    fraction: float = Field(description="how much of its preparation is done, 0 to 1")
    seconds_left: float | None = Field(description="estimated seconds until it is ready "
                                       "(null: not needed yet)")
    kernel: str | None = Field(description="the kernel compiling now, module.function")


class StatusView(BaseModel):
    engine: Literal["ready", "warming"]
    #: seconds spent warming so far, or what the warm-up took once ready
    seconds: float
    groups: dict[str, GroupView]
    engine_threads: int = Field(description="the cores the hints and the evaluation graph "
                                "search on (one analysis at a time; the others, and the "
                                "programs' moves, on one each)")


def _groups(warmup: KernelWarmup | None) -> dict[str, GroupView]:
    views = {}
    for group in SERVER_GROUPS:
        if warmup is None:
            views[group] = GroupView(state="waiting", fraction=0.0, seconds_left=None,
                                     kernel=None)
            continue
        fraction, left, kernel = warmup.progress(group)
        views[group] = GroupView(state=warmup.group_state(group), fraction=round(fraction, 3),
                                 seconds_left=left, kernel=kernel)
    return views


@router.get("/status")
async def status(request: Request) -> StatusView:
    """Whether the engine (programs' moves, hints, evaluations) is ready yet, and how far
    each group of kernels has come."""
    services = services_of(request.app)
    threads = request.app.state.settings.engine_threads
    if services is None:  # before the lifespan has started it
        return StatusView(engine="warming", seconds=0.0, groups=_groups(None),
                          engine_threads=threads)
    warmup = services.engine
    return StatusView(engine=warmup.state, seconds=round(warmup.seconds, 1),
                      groups=_groups(warmup), engine_threads=threads)
