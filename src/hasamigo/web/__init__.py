"""The web app: a person plays the programs (or another person) in a browser.

FastAPI + Jinja2 templates + plain ES modules and an SVG board (no build step). The
server is authoritative: it validates every move, keeps the clocks and commits every move
to the database before acknowledging it. See :func:`create_app`.

The package imports the app only when a name of it is asked for (PEP 562): the compute
pool's workers unpickle functions of ``hasamigo.web.services``, which imports this
package first, and a worker has no use for the routers, FastAPI and the pages' modules
(each worker was 240 MB with them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hasamigo.web.app import create_app
    from hasamigo.web.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from hasamigo.web.app import create_app

        return create_app
    if name == "Settings":
        from hasamigo.web.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
