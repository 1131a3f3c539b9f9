"""The ``serve`` command: the web app under uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer

from hasamigo.cli import app, console, fail


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite:///path.db or postgresql://user@host/name. Default: "
            "$HASAMIGO_DB, else ~/.local/share/hasamigo/hasamigo.db.",
        ),
    ] = None,
) -> None:
    """Play in a browser: start the web app and print its address."""
    try:
        import uvicorn

        from hasamigo.storage.db import default_db_url, normalise_url
        from hasamigo.web import create_app
    except ImportError as exc:  # pragma: no cover - the web extras are dependencies
        raise fail(f"the web app needs its dependencies: {exc}") from None
    url = normalise_url(db) if db else default_db_url()
    console.print(f"hasamigo: open [bold]http://{host}:{port}/[/] in your browser")
    console.print(f"database: {url}", highlight=False)
    uvicorn.run(create_app(db_url=db), host=host, port=port, log_level="warning")
