"""The events a game is made of, and their JSON form.

A game is its :class:`~hasamigo.game.setup.GameSetup` plus an append-only list of these
events; board, phase, clock and result are a pure fold over them
(:func:`hasamigo.game.state.replay`). Every event carries ``at``, the instant it happened
in seconds of the game's time source (the wall clock, seconds since the epoch, on the
server). Colours are absolute; squares are grid indices in memory and square names of the
game's variant in JSON (``f5``; 6×6 ``a1``..``f6``).

An account that takes a person's seat names it (:class:`SeatNamed`): the game calls that
side by the account's name from then on, its setup unchanged.

The user study's games add theirs: :class:`StudyGame` declares a game a study game and
:class:`StudyAnswer` is one answer of the subject about a program move.

New kinds of event subclass :class:`Event` in :mod:`~hasamigo.game.events.kinds`, give
themselves a ``kind``, are registered by the :func:`register` decorator and join that
module's ``__all__`` (this package exports it); fields named as below reuse the codecs,
others add one to :data:`FIELD_CODECS`; a procedure gives the fold a rule for them.

A fresh server compiles the kernels the programs search with (minutes, the first time):
:class:`ProgramWaiting` and :class:`ProgramReady` say when a program could not move yet
and when it could, so that its clock does not run meanwhile.

Games played **over the board** (a real board and chess clock; the server keeps the
record) add their own events: :class:`OverTheBoard` declares the game so, the clock is
pressed (:class:`ClockPress`), a late player's clock runs (:class:`Absent`,
:class:`Arrival`, :class:`LateForfeit`), an illegal move is claimed on the clock
(:class:`IllegalClaim`), moves are entered as they were played on the board, faults and
all (:class:`EnteredMove`), the recorder decides on a faulty one (:class:`CorrectEntry`,
:class:`KeepBoard`), the players sign the result card (:class:`ResultCard`), and the
arbiter penalises a player (:class:`Penalty`: time taken off the clock, or a loss by
penalty).

The kinds are :mod:`hasamigo.game.events.kinds`, the JSON form
:mod:`hasamigo.game.events.codec`; this package gives both.

>>> from hasamigo import BLACK, Board
>>> event = MovePlayed(BLACK, Board.parse_square("f5"), at=12.5)
>>> event_to_json(event, Board)
{'kind': 'move', 'colour': 'black', 'square': 'f5', 'at': 12.5}
>>> event_from_json(_, Board) == event
True
"""

from __future__ import annotations

from hasamigo.game.events import codec, kinds
from hasamigo.game.events.codec import *  # noqa: F403  (its __all__: the JSON form)
from hasamigo.game.events.kinds import *  # noqa: F403  (its __all__: every kind of event)

__all__ = kinds.__all__ + codec.__all__
