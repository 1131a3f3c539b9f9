"""``hasamigo tournament …``: run a tournament (the Meijin format, Swiss, round robin,
knockout) from the command line.

Tournaments live in the games database (``--db``, ``$HASAMIGO_DB``, else the default
file), so the web pages show what the command line did and the other way round. A
tournament is named by its id (printed by ``new``) or its name. Every command that
changes something writes an audit-log entry under ``--as`` (default: the login name).

The commands, in the order ``--help`` lists them: :mod:`.entrants` (``new``, ``enter``),
:mod:`.rounds` (``pair``, ``explain``, ``result``), :mod:`.tables` (``standings``,
``list``, ``audit``), :mod:`.runs` (``run``, ``export``, ``simulate``) and
:mod:`.sanctions` (``sanction``, ``sanctions``: rule 21's 注意・警告・退場), over
:mod:`.common` (the command group, its options and the service).
"""

from __future__ import annotations

# imported for their commands, which register in the order --help lists them (runs
# imports tables, whose commands come first)
from hasamigo.cli.tournament import entrants as _entrants  # noqa: F401
from hasamigo.cli.tournament import rounds as _rounds  # noqa: F401
from hasamigo.cli.tournament import runs as _runs  # noqa: F401
from hasamigo.cli.tournament import sanctions as _sanctions  # noqa: F401
from hasamigo.cli.tournament import tables as _tables  # noqa: F401
from hasamigo.cli.tournament.common import tournament_app

__all__ = ["tournament_app"]
