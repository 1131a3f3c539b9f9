"""The rules of the fold (:mod:`hasamigo.game.state`), one module per procedure over a
shared core: :mod:`~hasamigo.game.procedures.core` (the state and the rules every
procedure shares), :mod:`~hasamigo.game.procedures.colours` (deciding the colours),
:mod:`~hasamigo.game.procedures.online` (the game on the server, which every game
follows), :mod:`~hasamigo.game.procedures.over_board` (games at a real board and clock)
and :mod:`~hasamigo.game.procedures.study` (the user study's questions)."""
