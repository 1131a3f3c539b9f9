"""The ``serve`` command: the web app under uvicorn.

Start-up, in order: the port is bound and listened on first (a busy port is refused at
once, exit 2, also when two servers race for it); the app starts (database, games) and
the engine starts warming in the background; the address is printed once the server
accepts connections, and the pages work from then on. The first run compiles the
kernels, with a progress line here: each program moves as soon as its own are ready
(Random at once, the paper's programs within seconds, the engine's levels and hints
within a minute; ``GET /api/status`` tells the pages).
"""

from __future__ import annotations

import errno
import socket
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hasamigo.cli import DB_DEFAULT, MAX_THREADS, app, console, err_console, fail

if TYPE_CHECKING:
    from hasamigo.web.services.warmup import KernelWarmup

COMPILING = ("compiling the engine, first run only… (the pages work meanwhile, and each "
             "program plays as soon as its own kernels are ready)")


#: the connections waiting to be accepted (uvicorn's default); while the app starts, a
#: client's connection waits here rather than being refused
BACKLOG = 2048


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``(host, port)`` and listening (uvicorn accepts its connections
    once the app has started); a one-line :func:`fail` (exit 2) when the port is taken or
    unusable.

    It listens at once: with ``SO_REUSEADDR``, Linux lets two sockets bind one port while
    neither listens, so two servers started together both passed the bind, and the one
    that listened second died in uvicorn with a traceback. A listening socket holds the
    port: the second server's bind or listen fails here, with the same one line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise fail(f"cannot listen on {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        # as uvicorn does: a port left in TIME_WAIT by a previous run is not "in use"
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise fail(f"port {port} on {host} is already in use (another server?): stop it, "
                       "or choose another port with --port") from None
        raise fail(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return sock


class _Progress:
    """The engine's warm-up on the terminal: one line while it compiles (a spinner on a
    terminal), one when it is done. Silent when the kernels only load from the cache."""

    def __init__(self) -> None:
        self._status: Any = None

    def begin(self, warmup: KernelWarmup) -> None:
        if warmup.state == "warming" and warmup.compiling:
            if err_console.is_terminal:
                self._status = err_console.status(COMPILING)
                self._status.start()
            else:
                err_console.print(COMPILING, highlight=False)
        warmup.subscribe(self.end)

    def close(self) -> None:
        """Stop the spinner (the server stopped before the engine was ready)."""
        if self._status is not None:
            self._status.stop()
            self._status = None

    def end(self, warmup: KernelWarmup) -> None:
        self.close()
        if warmup.compiling:
            err_console.print(f"engine ready: compiled in {warmup.seconds:.0f} s",
                              highlight=False)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite:///path.db, or postgresql:// with user@host/name. "
            + DB_DEFAULT,
        ),
    ] = None,
    workers: Annotated[int, typer.Option(
        min=1, max=64, help="Server processes sharing the port and the database (a "
        "federation's server: use PostgreSQL). Each game is run by one of them; if it "
        "dies, another takes its games over.")] = 1,
    takeover_seconds: Annotated[float, typer.Option(
        min=1.0, max=600.0, help="With several processes (or several servers on one "
        "database): how soon after a process dies another takes over its games' clocks "
        "and programs.")] = 15.0,
    forwarded_allow_ips: Annotated[str, typer.Option(
        "--forwarded-allow-ips", help="Proxies (comma-separated addresses or networks, or "
        "'*') whose X-Forwarded-For header names the client, as the limits on new games "
        "count it. Default: none (the header is ignored).")] = "",
    engine_threads: Annotated[int | None, typer.Option(
        "--engine-threads", min=1, max=MAX_THREADS, show_default="every core but one",
        help="Cores for the engine: the hints and the evaluation graph search on them, one "
        "analysis at a time (the programs' moves on one each).")] = None,
) -> None:
    """Play in a browser: start the web app and print its address once it answers.

    The first run compiles the kernels (the engine: about 45 s of CPU on a small
    machine; a progress line says so); the pages work meanwhile, Random and the paper's programs
    play within seconds, and the engine's levels and hints wait for theirs. With
    `--workers N`, the kernels are made ready first, then N processes serve.
    """
    sock = bind(host, port)  # first: a busy port is refused before anything is loaded
    try:
        import uvicorn

        from hasamigo.settings import SettingsError
        from hasamigo.storage.db import default_db_url, normalise_url
        from hasamigo.web import Settings, create_app
        from hasamigo.web.app import UVICORN_WS
        from hasamigo.web.limits import trusted_proxies
        from hasamigo.web.state import services_of
    except ImportError as exc:  # pragma: no cover - the web extras are dependencies
        sock.close()
        raise fail(f"the web app needs its dependencies: {exc}") from None
    url = normalise_url(db) if db else default_db_url()
    proxies = tuple(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    try:
        trusted_proxies(proxies)
    except ValueError as exc:
        sock.close()
        raise fail(f"--forwarded-allow-ips: {exc}") from None
    # given on the command line: over $HASAMIGO_ENGINE_THREADS and the default
    given: dict[str, Any] = {} if engine_threads is None else {"engine_threads": engine_threads}
    try:
        Settings(forwarded_allow_ips=proxies, **given)  # the HASAMIGO_* variables too
    except SettingsError as exc:
        sock.close()
        raise fail(str(exc)) from None
    shown_host = f"[{host}]" if ":" in host else host
    shown_port = sock.getsockname()[1]
    if workers > 1:
        _serve_workers(sock, url, workers, takeover_seconds,
                       f"http://{shown_host}:{shown_port}/", proxies, given)
        return
    web = create_app(Settings(warm_in_background=True, lease_seconds=takeover_seconds,
                              forwarded_allow_ips=proxies, **given), db_url=db)
    progress = _Progress()

    def started() -> None:
        console.print(f"hasamigo: open [bold]http://{shown_host}:{shown_port}/[/] in your "
                      "browser", highlight=False)
        console.print(f"database: {url}", highlight=False)
        services = services_of(web)
        if services is not None:  # built by the lifespan, which runs before startup ends
            progress.begin(services.engine)

    class Server(uvicorn.Server):
        """uvicorn's server, saying so once it accepts connections."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                started()

    # the app reads X-Forwarded-For itself (Settings.forwarded_allow_ips): uvicorn's own
    # handling, which trusts loopback by default, would rewrite the peer before it
    server = Server(uvicorn.Config(web, log_level="warning", ws=UVICORN_WS,
                                   proxy_headers=False))
    try:
        server.run(sockets=[sock])
    finally:
        progress.close()
        sock.close()
    if not server.started:  # the app did not start (uvicorn has logged why)
        raise typer.Exit(1)


def _serve_workers(sock: socket.socket, url: str, workers: int, takeover_seconds: float,
                   address: str, proxies: tuple[str, ...] = (),
                   given: dict[str, Any] | None = None) -> None:
    """``serve --workers N``: the database migrated and the engine compiled (or loaded)
    here, once, then uvicorn's supervisor runs N processes on the bound socket (and
    starts a new one if one dies). ``given``: settings from the command line (each
    process's own)."""
    import json
    import os
    import threading

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from hasamigo.cli import ready_kernels
    from hasamigo.errors import HasamigoError
    from hasamigo.storage.db import Database
    from hasamigo.web.app import SERVE_SETTINGS, UVICORN_WS
    from hasamigo.web.services.analysis import KERNEL_GROUPS

    try:
        database = Database(url)
        try:
            database.open()  # one migration, not N racing ones; a bad URL fails here
        finally:
            database.close()
    except (HasamigoError, Exception) as exc:
        sock.close()
        raise fail(f"cannot open the database {url}: {str(exc).splitlines()[0][:300]}"
                   ) from None
    if url.startswith("sqlite"):
        err_console.print("note: several processes on SQLite take turns to write; a "
                          "federation's server wants PostgreSQL (--db postgresql://…)",
                          highlight=False)
    ready_kernels(*KERNEL_GROUPS)
    os.environ[SERVE_SETTINGS] = json.dumps({
        "db_url": url, "warm_in_background": True, "lease_seconds": takeover_seconds,
        "forwarded_allow_ips": list(proxies), **(given or {})})
    config = uvicorn.Config("hasamigo.web.app:served_app", factory=True, workers=workers,
                            log_level="warning", ws=UVICORN_WS, proxy_headers=False)

    def say_when_answering() -> None:
        """The address, once one of the processes answers (as with one process)."""
        import time
        import urllib.request

        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(address + "api/status", timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            return
        console.print(f"hasamigo: open [bold]{address}[/] in your browser "
                      f"({workers} server processes)", highlight=False)
        console.print(f"database: {url}", highlight=False)

    threading.Thread(target=say_when_answering, daemon=True, name="say-address").start()
    try:
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()
