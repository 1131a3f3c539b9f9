"""Settings of the web app (one place for every switch)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """``db_url=None``: ``HASAMIGO_DB`` or the SQLite file in the user's data directory."""

    db_url: str | None = None
    #: how often the server looks at running clocks (claims a person's fallen flag)
    tick_seconds: float = 0.5
    #: how often running clocks are saved (bounds the time forgiven after a crash)
    checkpoint_seconds: float = 10.0
    #: plies searched for the hints panel and for the evaluation graph
    hint_depth: int = 6
    eval_depth: int = 4
    #: longest wait of ``POST .../moves?wait=true`` for the program's reply
    reply_wait_seconds: float = 30.0
    #: compile/load the engine kernels at start-up, in a thread
    warm_engine: bool = True
    #: engine level offered by default on the new-game form
    default_level: int = 5
