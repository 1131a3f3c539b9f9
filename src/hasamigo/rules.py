"""A variant's rules as one value the board delegates to, and the one capability query.

:class:`Rules` holds what a variant plays beyond its shape and start: the grid its squares
are numbered on (8 or 10 wide), how a move turns the discs it brackets (``all``, or 挟み碁's
``one`` and ``choose``), Nip's placing anywhere when both sides are blocked, and the rings
of a circular board. The board reads these through :attr:`Board.rules
<hasamigo.board.Board.rules>`; everyone else asks the rules what they allow instead of
reading the flags: :attr:`Rules.kernel` (which kernels serve the board) and
:meth:`Rules.supports` (a feature of :data:`FEATURES`).

>>> Rules().kernel, Rules(stride=10).kernel, Rules(flip_rule="one").kernel
(<Kernel.BITBOARD: 'bitboard'>, <Kernel.WIDE: 'wide'>, <Kernel.RULES: 'rules'>)
>>> Rules(flip_rule="choose").supports("choose_turned"), Rules().supports("choose_turned")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum

from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import Move
from hasamigo.squares import Bitboard, Square, bits

#: How the discs a move brackets are turned: ``all`` (Othello), and the house rules of
#: Hasegawa's 挟み碁 — ``one`` (only one of them, the mover's choice) and ``choose`` (those
#: the mover wants, at least one).
FLIP_RULES = ("all", "one", "choose")
#: Grid widths with kernels: 8 (one word per side) and 10 (two words, boards up to 10×10).
STRIDES = (8, 10)


class Kernel(StrEnum):
    """The family of kernels that searches a board."""

    BITBOARD = "bitboard"  # the 8×8 grid's kernels, one machine word a side
    WIDE = "wide"  # the 10×10 grid's kernels (:mod:`hasamigo._kernels.wide`), two words
    RULES = "rules"  # the engine's search through the Board API (:mod:`engine.rules_search`)


#: The features :meth:`Rules.supports` answers for, and what each means.
FEATURES: dict[str, str] = {
    "bitboard": "the 8×8 grid, one machine word a side: the opening book, the stable "
                "discs' kernel, OBF, the root split among workers",
    "engine": "the compiled search kernels know every rule (no Nip's rule, ring or 挟み碁 "
              "flip rule): the engine searches, solves and reviews with them",
    "stability": "stable discs by the 8×8 kernel (the 8×8 grid, no ring)",
    "square_notation": "a move is its square alone (every bracketed disc turned), as "
                       "record sheets, GGF and OBF write it",
    "choose_turned": "a move may name the discs it turns (挟み碁's rules one and choose)",
    "one_turned": "every move turns exactly one disc (挟み碁's rule one)",
    "place_anywhere": "Nip's rule: when neither side can flip, the side to move places "
                      "a disc on any empty square",
    "ring_flips": "flips along a ring (a circular board's circumference)",
    "adjacent_growth": "every disc is placed next to one already on the board, so the "
                       "discs stay one group (no Nip's rule, no ring)",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of a variant (see the module docstring); a frozen value, so that two
    variants of the same rules compare equal and a variant with options is its base's
    rules :meth:`with_options`.

    ``stride``: the grid's width (a square is ``row * stride + col``). ``flip_rule``: one
    of :data:`FLIP_RULES` — 挟み碁's house rule says the discs one does not want turned
    "need not be turned"; it is read here as "at least one is turned", so that every move
    still captures; a choice travels in :attr:`Move.turned`. ``place_when_blocked``:
    Nip's rule. ``rings``: lines that close on themselves, each the squares in cyclic
    order; a disc placed on one brackets along it both ways, as along a row.
    """

    stride: int = 8
    flip_rule: str = "all"
    place_when_blocked: bool = False
    rings: tuple[tuple[Square, ...], ...] = ()

    def __post_init__(self) -> None:
        # A mistake in a variant's definition, not user input: a plain ValueError.
        if self.stride not in STRIDES:
            raise ValueError(f"a grid is {' or '.join(map(str, STRIDES))} wide, "
                             f"not {self.stride!r}")
        if self.flip_rule not in FLIP_RULES:
            raise ValueError(f"unknown flip rule {self.flip_rule!r}")

    # ---- the capability query -----------------------------------------------------------
    @property
    def kernel(self) -> Kernel:
        """Which kernels search a board of these rules."""
        if self.beyond_kernels():
            return Kernel.RULES
        return Kernel.BITBOARD if self.stride == 8 else Kernel.WIDE

    def supports(self, feature: str) -> bool:
        """Whether these rules allow ``feature`` (a key of :data:`FEATURES`);
        :class:`ValueError` for an unknown name, so that a typo does not read as "no"."""
        if feature not in FEATURES:
            raise ValueError(f"unknown feature {feature!r}; known: {', '.join(FEATURES)}")
        bitboard = self.stride == 8
        return {
            "bitboard": bitboard,
            "engine": not self.beyond_kernels(),
            "stability": bitboard and not self.rings,
            "square_notation": self.flip_rule == "all",
            "choose_turned": self.flip_rule != "all",
            "one_turned": self.flip_rule == "one",
            "place_anywhere": self.place_when_blocked,
            "ring_flips": bool(self.rings),
            "adjacent_growth": not self.place_when_blocked and not self.rings,
        }[feature]

    def beyond_kernels(self) -> list[str]:
        """The rules the search kernels do not know, in words (none for most): Nip's
        placing anywhere, a ring's flips, a 挟み碁 flip rule. Only players of the Board
        API play such a board."""
        words = []
        if self.place_when_blocked:
            words.append("Nip's rule (placing anywhere when both sides are blocked)")
        if self.rings:
            words.append("the flips along the circle")
        if self.flip_rule != "all":
            words.append(f"挟み碁's flip rule {self.flip_rule!r} (the mover chooses the discs "
                         "to turn)")
        return words

    @property
    def move_kernels(self) -> str:
        """The warm-up group of the board's own kernels (moves and flips) on this grid."""
        return "rules" if self.stride == 8 else "wide-rules"

    @property
    def search_kernels(self) -> str:
        """The warm-up group of the engine's search kernels on this grid."""
        return "engine" if self.stride == 8 else "wide"

    @property
    def turning(self) -> str:
        """The name of the flip rule (``all``, ``one`` or ``choose``), for display."""
        return self.flip_rule

    @property
    def ring_squares(self) -> frozenset[Square]:
        """The squares on any ring."""
        return frozenset(sq for ring in self.rings for sq in ring)

    def with_options(self, *, nip: bool = False, flip_rule: str = "all") -> Rules:
        """These rules with Nip's rule (``nip``) and/or the flip rule ``flip_rule``
        (``"all"`` keeps the current one); :class:`InvalidOptionError` for an unknown
        rule or a second flip rule."""
        if flip_rule not in FLIP_RULES:
            raise InvalidOptionError(f"unknown flip rule {shown(flip_rule)}; known: "
                                     f"{', '.join(FLIP_RULES[1:])}")
        if flip_rule != "all" and self.flip_rule not in ("all", flip_rule):
            raise InvalidOptionError("a board has one flip rule")
        return replace(self, place_when_blocked=self.place_when_blocked or nip,
                       flip_rule=self.flip_rule if flip_rule == "all" else flip_rule)

    # ---- the behaviour the board delegates -----------------------------------------------
    def ring_moves(self, p: Bitboard, o: Bitboard) -> Bitboard:
        """Empty squares of the rings where ``p`` brackets ``o`` along a ring."""
        occupied, mask = p | o, 0
        for ring in self.rings:
            for sq in ring:
                if not occupied >> sq & 1 and self.ring_flips(p, o, sq):
                    mask |= 1 << sq
        return mask

    def ring_flips(self, p: Bitboard, o: Bitboard, sq: Square) -> Bitboard:
        """Discs of ``o`` that ``p`` brackets along the rings through the empty ``sq``:
        each way round, a run of ``o`` up to a disc of ``p``. The walk stops short of
        ``sq`` itself, so a ring all of ``o`` but ``sq`` brackets nothing."""
        flipped = 0
        for ring in self.rings:
            if sq not in ring:
                continue
            n, at = len(ring), ring.index(sq)
            for step in (1, -1):
                run = 0
                for k in range(1, n):
                    point = ring[(at + step * k) % n]
                    if not o >> point & 1:
                        if p >> point & 1:
                            flipped |= run
                        break
                    run |= 1 << point
        return flipped

    def choices(self, move: Move, bracketed: Bitboard) -> Iterator[Move]:
        """Every complete move on ``move``'s square that brackets ``bracketed``, each
        choice of turned discs a move of its own; the choice of every disc is the bare
        square."""
        if self.flip_rule == "all" or bracketed.bit_count() <= 1 or move.square is None:
            yield move
        elif self.flip_rule == "one":
            for sq in bits(bracketed):
                yield Move(move.square, 1 << sq)
        else:
            squares = list(bits(bracketed))
            full = (1 << len(squares)) - 1
            for pick in range(1, full + 1):
                if pick == full:
                    yield move
                    continue
                chosen = 0
                for i, sq in enumerate(squares):
                    if pick >> i & 1:
                        chosen |= 1 << sq
                yield Move(move.square, chosen)

    def needs_choice(self, bracketed: Bitboard) -> bool:
        """Whether a move bracketing ``bracketed`` must name the disc it turns (under
        ``one``, when it brackets more than one)."""
        return self.flip_rule == "one" and bracketed.bit_count() > 1

    def turn_problem(self, turned: Bitboard, bracketed: Bitboard) -> str | None:
        """Why turning ``turned`` of the ``bracketed`` discs (a subset, not empty) breaks
        the flip rule, in words with ``{turned}`` and ``{bracketed}`` for the board to
        name, or ``None``."""
        if self.flip_rule == "all" and turned != bracketed:
            return ("every bracketed disc is turned ({bracketed}); "
                    "this board has no choice of discs")
        if self.flip_rule == "one" and turned.bit_count() != 1:
            return (f"one disc is turned, not {turned.bit_count()} "
                    "({turned}): one of {bracketed}")
        return None


#: The rules of Othello on the 8×8 grid.
PLAIN = Rules()
