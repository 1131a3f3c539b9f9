"""The rules of the fold (:mod:`hasamigo.game.state`), one module per procedure over a
shared core: :mod:`~hasamigo.game.procedures.core` (the state and the rules every
procedure shares), :mod:`~hasamigo.game.procedures.colours` (deciding the colours),
:mod:`~hasamigo.game.procedures.online` (the game on the server, which every game
follows), :mod:`~hasamigo.game.procedures.over_board` (games at a real board and clock)
and :mod:`~hasamigo.game.procedures.study` (the user study's questions).

Imports point one way: every procedure imports the core, none the core imports; ``online``
imports ``over_board`` (a take-back cuts the entered record back too) and ``colours``
imports it (a late player's clock). A procedure's own state is its own dataclass, kept
beside the game's (:attr:`~hasamigo.game.procedures.core.GameState.parts`) and read with
the module's ``of``; :mod:`hasamigo.game.state` joins the procedures' rules into the
fold."""
