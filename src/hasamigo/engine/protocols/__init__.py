"""Engine protocols: our engine inside the Othello GUIs people use (NBoard, GTP), and
their engines inside ours (players that speak to an external process).

One module per protocol: :mod:`~hasamigo.engine.protocols.nboard` and
:mod:`~hasamigo.engine.protocols.gtp` hold a *session* each (one input line in, the reply
lines out: no I/O, so tests talk to them directly), run on stdin/stdout by
:func:`~hasamigo.engine.protocols.session.serve`;
:mod:`~hasamigo.engine.protocols.external` holds the players that play through an
external engine, over a transport (a process, or a session in this process for tests);
:mod:`~hasamigo.engine.protocols.config` reads the settings file of installed engines.
"""

from __future__ import annotations

from hasamigo.engine.protocols.gtp import GTPSession
from hasamigo.engine.protocols.nboard import NBoardSession
from hasamigo.engine.protocols.session import DEFAULT_LEVEL, Session, Strength, serve

__all__ = ["DEFAULT_LEVEL", "GTPSession", "NBoardSession", "Session", "Strength", "serve"]
