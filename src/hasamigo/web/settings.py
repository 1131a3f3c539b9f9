"""Settings of the web app (one place for every switch and every limit).

Each is read from the environment when not given as a keyword (pydantic-settings, see
:mod:`hasamigo.settings`): ``HASAMIGO_DB``, then ``HASAMIGO_`` and the field's name in
capitals (``HASAMIGO_TICK_SECONDS=1``, ``HASAMIGO_FORWARDED_ALLOW_IPS='["10.0.0.1"]'``);
a bad value raises :class:`~hasamigo.settings.SettingsError` naming the variable.
"""

from __future__ import annotations

import os
import shlex

from pydantic import Field, field_validator

from hasamigo.engine.limits import checked_threads
from hasamigo.storage.db import DatabaseSettings
from hasamigo.web.limits import trusted_proxies


def _cores() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


class Settings(DatabaseSettings):
    """``db_url`` (``HASAMIGO_DB``) ``None``: the SQLite file in the user's data directory."""

    #: how often the server looks at running clocks (programs' claims, play-out time)
    tick_seconds: float = 0.5
    #: how often the server records that it is alive: after a crash, the time since the
    #: last record is forgiven to the player on move (at most this long is charged)
    checkpoint_seconds: float = 10.0
    #: several processes on one database: a game's owner (the process running its clock
    #: and programs) holds it this long, renewing it every third of it; a dead owner's
    #: games are taken over by another process this long after its last renewal
    lease_seconds: float = 15.0
    #: plies searched for the hints panel and for the evaluation graph
    hint_depth: int = 6
    eval_depth: int = 4
    #: longest wait of ``POST .../moves?wait=true`` for the program's reply
    reply_wait_seconds: float = 30.0
    #: compile (first run) or load the kernels at start-up, in tiers (rules, the paper's
    #: programs, the engine; the 10-column grid's when first needed: see
    #: :mod:`hasamigo.web.services.warmup`). False: never; they compile at first use,
    #: which tests without an engine prefer
    warm_engine: bool = True
    #: warm after start-up instead of before it: the pages are served at once and each
    #: program moves as soon as its own kernels are loaded, hints once the engine's are
    #: (``GET /api/status`` says how far they are; ``hasamigo serve``). False: serving
    #: starts once the engine is warm (test harnesses that need it from the first request)
    warm_in_background: bool = False
    #: engine level offered by default on the new-game form
    default_level: int = 5

    #: a correspondence game's turn passed to a player (``HASAMIGO_NOTIFY_COMMAND``): this
    #: command (split as a shell would, never run by one) is run with three arguments
    #: more, the game's id, the colour to move and the deadline (ISO 8601, UTC), to send an
    #: e-mail or a chat message; none by default. A failure is logged, never the move's
    #: (see :mod:`hasamigo.web.services.games.notify`, docs/playing.md)
    notify_command: str | None = None
    #: longest run of the notify command before it is stopped (and the failure logged)
    notify_seconds: float = Field(default=30.0, gt=0, le=600)

    # ---- limits ----------------------------------------------------------------------
    #: largest request body (bytes); larger ones get 413
    max_body_bytes: int = 16 * 1024
    #: largest body of ``POST /api/games/import`` (a GGF text, or a WTHOR archive in
    #: base64: the largest yearly archive, 2004's 620 kB, is some 830 kB)
    max_import_bytes: int = 1024 * 1024
    #: largest websocket message (bytes); a larger one closes the socket (1009)
    max_ws_message_bytes: int = 4 * 1024
    #: websocket messages a client may send per second (more closes the socket, 1008)
    ws_messages_per_second: int = 20
    #: seconds a new socket has to say hello with its seat token
    ws_hello_seconds: float = 10.0
    #: sockets watching one game
    max_watchers_per_game: int = 64
    #: new games per client address per minute (429 beyond)
    games_per_minute: int = 20
    #: new accounts per client address per hour, refused attempts counted too (429
    #: beyond): raise it for a club whose players sign up together behind one address
    #: (an event's Wi-Fi), ``HASAMIGO_SIGNUPS_PER_HOUR``
    signups_per_hour: int = Field(default=10, ge=1, le=100_000)
    #: the proxies (addresses, networks such as ``10.0.0.0/8``, or ``*``) whose
    #: ``X-Forwarded-For`` names the client address the limits count; none by default: the
    #: header is ignored and the connection's peer is the client (``hasamigo serve
    #: --forwarded-allow-ips``, which also turns uvicorn's own proxy handling off: served by
    #: another ASGI server, turn its handling off too, as it rewrites the peer first)
    forwarded_allow_ips: tuple[str, ...] = ()
    #: games kept in memory; finished and idle games leave first and reload on demand
    max_live_games: int = 256
    #: a game nobody has touched or watched for this long leaves memory (its program's
    #: search, if any, is stopped: the game was abandoned)
    idle_seconds: float = 300.0
    #: engine searches (programs' moves, hints, evaluations) run on this many threads,
    #: apart from the I/O threads
    search_workers: int = Field(default_factory=_cores)
    #: hint/evaluation requests waiting for a search thread (more get 503 "busy")
    search_queue: int = 32
    #: cores for the engine (``HASAMIGO_ENGINE_THREADS``, ``hasamigo serve
    #: --engine-threads``; 1..64, by default every available core but one): the search
    #: threads of the hints, the evaluation graph and the puzzles' verdicts, which a person
    #: waits for. One of those searches at a time runs on them; others asked for meanwhile
    #: run on one thread each (:class:`~hasamigo.web.services.analysis.AnalysisService`), so
    #: that the search pool's ``search_workers`` searches, each on this many threads, never
    #: crowd the cores (at most ``search_workers + engine_threads - 1`` threads search at
    #: once). The programs' moves keep one thread each (several games' programs move at
    #: once, and a program's strength is its level's, the same on any server: a spec's
    #: ``engine:N@T`` says otherwise), and so do reviews (a background job that must not
    #: take the cores from the games on a clock)
    engine_threads: int = Field(default_factory=lambda: max(1, _cores() - 1))
    #: processes for CPU-heavy requests (study reports, pairing large tournaments), apart
    #: from the event loop and its threads: see :mod:`hasamigo.web.services.compute`
    compute_workers: int = Field(default_factory=lambda: min(2, _cores()))
    #: positions kept in the evaluation graph's cache
    analysis_cache_entries: int = 20_000

    # ---- game reviews ------------------------------------------------------------------
    #: search depth of a review's midgame positions, and the empties from which its
    #: positions are solved exactly (a stored review keeps the values it was made with)
    review_depth: int = 10
    review_exact_empties: int = 20
    #: reviews waiting for the review thread (more requests get 503 "busy")
    review_queue: int = 64

    @field_validator("engine_threads")
    @classmethod
    def _threads(cls, value: int) -> int:
        return checked_threads(value)  # the engine's own check (a ValueError says why)

    @field_validator("notify_command")
    @classmethod
    def _command(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        shlex.split(value)  # unbalanced quotes: a ValueError says so
        return value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _proxies(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        trusted_proxies(value)  # checked here (a ValueError says which entry)
        return value
