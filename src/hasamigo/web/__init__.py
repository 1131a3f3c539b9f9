"""The web app: a person plays the programs (or another person) in a browser.

FastAPI + Jinja2 templates + plain ES modules and an SVG board (no build step). The
server is authoritative: it validates every move, keeps the clocks and commits every move
to the database before acknowledging it. See :func:`create_app`.
"""

from __future__ import annotations

from hasamigo.web.app import create_app
from hasamigo.web.settings import Settings

__all__ = ["Settings", "create_app"]
