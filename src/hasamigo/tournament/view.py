"""What a format reads of a tournament: :class:`TournamentView`, a structural type.

The formats (:mod:`hasamigo.tournament.formats`) decide rounds and rankings from a
tournament's state but must not import it: :class:`hasamigo.tournament.state.Tournament`
imports the formats to make its own. So the formats name only this protocol, and
``Tournament`` satisfies it by having these members (mypy checks where it passes itself
to its format). Add a member here before a format uses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from hasamigo.tournament.brightwell import Brightwell
from hasamigo.tournament.model import Entrant, Game, Pairing
from hasamigo.tournament.pairing import Candidate


class TournamentView(Protocol):
    """The read-only part of a tournament that the formats use."""

    @property
    def entrants(self) -> Mapping[int, Entrant]:
        """Every entrant by number."""

    @property
    def pairings(self) -> Mapping[int, Sequence[Pairing]]:
        """The pairings of each round paired so far, in board order."""

    @property
    def rounds_paired(self) -> int:
        """The last round paired (0: none yet)."""

    @property
    def finished(self) -> bool:
        """Every round paired and every game of the last one entered."""

    def entrant(self, number: int) -> Entrant:
        """The entrant numbered ``number`` (raises for none)."""

    def name(self, number: int | None) -> str:
        """The entrant's name (``""`` for ``None``)."""

    def active(self, round_number: int) -> list[int]:
        """The entrants paired in ``round_number``, by number."""

    def game(self, round_number: int, board: int) -> Game:
        """A board's pairing with its result."""

    def games(self, through: int | None = None) -> list[Game]:
        """Every pairing with its result, in round and board order."""

    def order(self, after: int | None = None) -> list[int]:
        """Entrant numbers in standings order after round ``after`` (default: the last)."""

    def scores(self, after: int | None = None) -> tuple[dict[int, float], dict[int, Brightwell]]:
        """(wins, Brightwell) of every entrant after round ``after``."""

    def initial_order(self) -> list[int]:
        """Entrant numbers in the order before round 1 (the tournament's seeding)."""

    def candidates(self, players: Iterable[int], after: int) -> list[Candidate]:
        """What the Swiss pairing needs of ``players`` from the standings after ``after``."""


__all__ = ["TournamentView"]
