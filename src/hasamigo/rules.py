"""A variant's rules as one value the board delegates to, and the one capability query.

:class:`Rules` holds what a variant plays beyond its shape and start: the grid its squares
are numbered on (8 or 10 wide), how a move turns the discs it brackets (``all``, or 挟み碁's
``one`` and ``choose``), what it brackets (a Fairy Othello word, :data:`WORDS`), whether the
bracketed discs are removed instead (挟み碁's capture), Nip's placing anywhere when both
sides are blocked, and the rings of a circular board. The board reads these through
:attr:`Board.rules <hasamigo.board.Board.rules>`; everyone else asks the rules what they
allow instead of reading the flags: :attr:`Rules.kernel` (which kernels serve the board)
and :meth:`Rules.supports` (a feature of :data:`FEATURES`).

>>> Rules().kernel, Rules(stride=10).kernel, Rules(flip_rule="one").kernel
(<Kernel.BITBOARD: 'bitboard'>, <Kernel.WIDE: 'wide'>, <Kernel.RULES: 'rules'>)
>>> Rules(flip_rule="choose").supports("choose_turned"), Rules().supports("choose_turned")
(True, False)
>>> Rules(word="osere").kernel, Rules(capture=True).supports("capture")
(<Kernel.RULES: 'rules'>, True)

**Fairy Othello** (小谷善行, 1983; the 2024 ja.wikipedia text in the seeds, 派生ゲーム):
Kotani read the name オセロ on purpose as words, 「-Own(自分の石を打つ) Set-Enemy(相手の石を
裏返す) Reset-Own(自分の石はそのまま)」, and recombined them into dozens of rule sets. A
:class:`Word` here is that reading: three syllables, each a part — what is placed (オ -Own,
エ -Enemy), what is turned (セ Set-Enemy, ソ Set-Own) and what closes the bracket and stays
(ロ Reset-Own, レ Reset-Enemy) — so eight words, spelt in romaji; Othello's own is every
board's rule, the seven others are the options (``+osere``…). The seed
gives two whole: オセロ (Othello) and **オセレ**, 「自分の石 (Own) と相手の石 (Reset-Enemy)
に挟まれた相手の石 (Set-Enemy) を裏返す」. No source at hand lists Kotani's others (the
search for his published list found none), so the other six are **our readings** of the
same three parts, each written out as a flip rule below (``own`` and ``enemy`` are the
mover's and the other side's colours; a "run" is the unbroken line of discs of the turned
colour starting next to the placed disc, in any of the eight directions):

======  ======  ======================================================================
word    source  reading as a flip rule
======  ======  ======================================================================
osero   seed    an own disc is placed; a run of enemy discs closed by an own disc turns
                to own (Othello)
osere   seed    an own disc is placed; a run of enemy discs closed by an enemy disc
                turns to own, all of it but that closing disc, which stays
osoro   ours    an own disc is placed; a run of own discs closed by an own disc turns to
                enemy, all but the closing disc
osore   ours    an own disc is placed; a run of own discs closed by an enemy disc turns
                to enemy
esero   ours    an enemy disc is placed; a run of enemy discs closed by an own disc turns
                to own
esere   ours    an enemy disc is placed; a run of enemy discs closed by an enemy disc
                turns to own, all but the closing disc
esoro   ours    an enemy disc is placed; a run of own discs closed by an own disc turns
                to enemy, all but the closing disc
esore   ours    an enemy disc is placed; a run of own discs closed by an enemy disc turns
                to enemy
======  ======  ======================================================================

Where the turned and the closing colour are the same (osere, osoro, esere, esoro), every
disc of the run is bracketed by a later one of the same colour, so the run's last disc is
the closer and the others turn: a run of one turns nothing. Every word is offered: a move
must turn at least one disc, as in Othello, under every word (none makes that impossible:
each has a move from the cross start); a side without one passes, and the game ends when
neither side has one. Under the ソ words a move turns the mover's own discs, so every move
costs its mover: a game of making the least bad move (our reading, playable to the end like
the others). The scoring is Othello's.

**挟み碁's capture** (``capture``; the same seed, 挟み碁: 「相手の石を挟んだら取れるという
簡易ルール」, the game Hasegawa played with Go stones before discs were turned): the
bracketed stones are removed, their squares empty again, as in Go. The seed gives no more
(「挟み碁には「挟んだら裏返す」という基本原理以外に定まったルールはなかった」), so the rest is
**our reading**, chosen so that a game is a game and ends:

- a move places a stone of one's own on any empty square, as in Go, and takes every
  enemy stone it brackets along the eight lines as in Othello (an own stone beyond a run
  of enemy stones), none if it brackets none; a stone placed between enemy stones is not
  taken;
- each side has half the board's squares in stones (32 on 8×8, the cross start's two
  included: 30 in hand), taken stones are not given back, and a side whose hand is empty
  passes; the game ends when neither side has a stone to place (60 plies from the cross
  start);
- the stones on the board decide, written as Othello writes a result (the empty squares
  to the winner). With the same number of stones placed a side, a side's stones on the
  board are 32 less the stones the other took: counting stones and counting captures give
  the same winner.

Why not "a move must capture", as a move must flip in Othello: from the cross start every
game then ends within four plies (the stones that could bracket are taken at once); and
without a stock of stones, placing anywhere never ends (random games were seen to run
past 3,000 plies, taking back and forth). Capture brackets as Othello does: it does not
go with another word, a flip rule (which stones to take), Nip's rule or a ring.

**Hasegawa's early indirect bracketing** (``indirect``, 間接挟み; the same seed, 歴史:
「当初長谷川は間接挟みでも石を返すという現在よりもやや複雑なルールを採用していたが、直接挟み
のみに限定した簡明なルールに変更した」 — at first Hasegawa turned discs bracketed indirectly
too, a slightly more complicated rule than today's, then kept to direct bracketing alone).
The seed names the rule and says no more, so how it plays is **our reading**:

- *Direct* bracketing is Othello's: the discs between the placed disc and the mover's
  disc that closes each line. *Indirect* bracketing is what the discs so turned bracket
  in their turn: each turned disc brackets along its eight lines as a placed disc would
  (a run of the other side's discs closed by the mover's), those discs turn too, and so
  on from each newly turned disc until none brackets more (a chain; today's rule turns
  none of them).
- Only lines through a disc that turned in this move count: a run already lying between
  two of the mover's older discs stays as it is (the move did not bracket it).
- A move must bracket directly, as in Othello: the chain adds to a move, never makes one.
  Where a disc may be placed, passes, the end and the count are Othello's.

It goes with Nip's rule and a ring (a ring's turned discs bracket along it too), not with
a Fairy Othello word, a flip rule or capture, which say differently what is turned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum

from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import Move
from hasamigo.squares import Bitboard, Square, bits

#: How the discs a move brackets are turned: ``all`` (Othello), and the house rules of
#: Hasegawa's 挟み碁 — ``one`` (only one of them, the mover's choice) and ``choose`` (those
#: the mover wants, at least one).
FLIP_RULES = ("all", "one", "choose")
#: The parts of a Fairy Othello word, by syllable (romaji): what is placed, what is
#: turned, what closes the bracket; ``True`` is the mover's own colour.
PLACED = {"o": True, "e": False}  # オ -Own, エ -Enemy
TURNED = {"se": False, "so": True}  # セ Set-Enemy, ソ Set-Own
CLOSER = {"ro": True, "re": False}  # ロ Reset-Own, レ Reset-Enemy
_KANA = {"o": "オ", "e": "エ", "se": "セ", "so": "ソ", "ro": "ロ", "re": "レ"}
#: The word of Othello itself, the default.
OTHELLO_WORD = "osero"
#: The words the seed gives whole; the others are the project's readings.
SEED_WORDS = ("osero", "osere")
#: Grid widths with kernels: 8 (one word per side) and 10 (two words, boards up to 10×10).
STRIDES = (8, 10)


@dataclass(frozen=True, slots=True)
class Word:
    """A Fairy Othello word (see the module docstring): its name in romaji (``osere``),
    in kana (``オセレ``), and its three parts, ``True`` for the mover's own colour.

    >>> WORDS["osere"].kana, WORDS["osere"].reading
    ('オセレ', '-Own Set-Enemy Reset-Enemy')
    """

    name: str
    placed_own: bool
    turns_own: bool
    closer_own: bool

    @property
    def kana(self) -> str:
        return "".join(_KANA[part] for part in _syllables(self.name))

    @property
    def reading(self) -> str:
        """The word as Kotani's parts: ``-Own Set-Enemy Reset-Own`` for Othello."""
        whose = {True: "Own", False: "Enemy"}
        return (f"-{whose[self.placed_own]} Set-{whose[self.turns_own]} "
                f"Reset-{whose[self.closer_own]}")

    @property
    def from_seed(self) -> bool:
        """Whether the seed gives this word whole (else it is the project's reading)."""
        return self.name in SEED_WORDS


def _syllables(name: str) -> tuple[str, str, str]:
    return name[:1], name[1:3], name[3:5]


#: The eight words by name, Othello's first.
WORDS: dict[str, Word] = {
    a + b + c: Word(a + b + c, PLACED[a], TURNED[b], CLOSER[c])
    for a in PLACED for b in TURNED for c in CLOSER
}
#: A word's kana spelling (``オセレ``) to its name.
KANA_WORDS = {word.kana: name for name, word in WORDS.items()}
#: The eight directions on a grid, as (rows, columns).
_DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


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
                       "discs stay one group (no Nip's rule, no ring, no capture)",
    "fairy_word": "a Fairy Othello word other than Othello's says what a move places, "
                  "turns and brackets with (オセレ and the others of WORDS)",
    "capture": "挟み碁's capture: a stone goes on any empty square and the stones it "
               "brackets are removed; stones in hand (a disc limit) end the game",
    "indirect": "Hasegawa's early indirect bracketing (間接挟み): the discs a move turns "
                "bracket in their turn, and what they bracket turns too",
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
    order; a disc placed on one brackets along it both ways, as along a row. ``word``: the
    Fairy Othello word (a key of :data:`WORDS`) that says what a move places and which
    discs it brackets. ``capture``: the bracketed discs are removed instead of turned.
    ``indirect``: Hasegawa's early 間接挟み, the turned discs bracketing in their turn.
    """

    stride: int = 8
    flip_rule: str = "all"
    place_when_blocked: bool = False
    rings: tuple[tuple[Square, ...], ...] = ()
    word: str = OTHELLO_WORD
    capture: bool = False
    indirect: bool = False

    def __post_init__(self) -> None:
        # A mistake in a variant's definition, not user input: a plain ValueError.
        if self.stride not in STRIDES:
            raise ValueError(f"a grid is {' or '.join(map(str, STRIDES))} wide, "
                             f"not {self.stride!r}")
        if self.flip_rule not in FLIP_RULES:
            raise ValueError(f"unknown flip rule {self.flip_rule!r}")
        if self.word not in WORDS:
            raise ValueError(f"unknown Fairy Othello word {self.word!r}")
        if self.rings and self.word != OTHELLO_WORD:
            raise ValueError("a ring brackets as Othello does: no other word on it")
        if self.capture and (self.word != OTHELLO_WORD or self.flip_rule != "all"
                             or self.place_when_blocked or self.rings):
            raise ValueError("capture brackets as Othello does, places anywhere and takes "
                             "every bracketed stone: no word, flip rule, Nip's rule or ring")
        if self.indirect and (self.word != OTHELLO_WORD or self.flip_rule != "all"
                              or self.capture):
            raise ValueError("indirect bracketing turns what Othello's brackets turn, and "
                             "more: no word, flip rule or capture")

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
        othello = (self.word == OTHELLO_WORD and not self.capture  # Othello's brackets
                   and not self.indirect)
        return {
            "bitboard": bitboard,
            "engine": not self.beyond_kernels(),
            "stability": bitboard and not self.rings and othello,
            "square_notation": self.flip_rule == "all" and othello,
            "choose_turned": self.flip_rule != "all",
            "one_turned": self.flip_rule == "one",
            "place_anywhere": self.place_when_blocked,
            "ring_flips": bool(self.rings),
            "adjacent_growth": not self.place_when_blocked and not self.rings
                               and not self.capture,
            "fairy_word": self.word != OTHELLO_WORD,
            "capture": self.capture,
            "indirect": self.indirect,
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
        if self.word != OTHELLO_WORD:
            word = WORDS[self.word]
            words.append(f"Fairy Othello's {word.kana} ({word.reading})")
        if self.capture:
            words.append("挟み碁's capture (stones placed anywhere, bracketed stones taken)")
        if self.indirect:
            words.append("Hasegawa's early indirect bracketing (間接挟み: the turned discs "
                         "bracket in their turn)")
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

    def with_options(self, *, nip: bool = False, flip_rule: str = "all",
                     word: str = OTHELLO_WORD, capture: bool = False,
                     indirect: bool = False) -> Rules:
        """These rules with Nip's rule (``nip``), the flip rule ``flip_rule`` (``"all"``
        keeps the current one), the Fairy Othello ``word`` (``"osero"`` keeps the current
        one), 挟み碁's ``capture`` and/or Hasegawa's ``indirect`` bracketing;
        :class:`InvalidOptionError` for an unknown rule, a second flip rule or word, a word
        or capture on a ring, or indirect bracketing with a word, flip rule or capture."""
        if flip_rule not in FLIP_RULES:
            raise InvalidOptionError(f"unknown flip rule {shown(flip_rule)}; known: "
                                     f"{', '.join(FLIP_RULES[1:])}")
        if flip_rule != "all" and self.flip_rule not in ("all", flip_rule):
            raise InvalidOptionError("a board has one flip rule")
        if word not in WORDS:
            raise InvalidOptionError(f"unknown Fairy Othello word {shown(word)}; known: "
                                     f"{', '.join(list(WORDS)[1:])}")
        if word != OTHELLO_WORD and self.word not in (OTHELLO_WORD, word):
            raise InvalidOptionError("a board has one Fairy Othello word")
        nip = self.place_when_blocked or nip
        flip_rule = self.flip_rule if flip_rule == "all" else flip_rule
        word = self.word if word == OTHELLO_WORD else word
        capture = self.capture or capture
        if self.rings and word != OTHELLO_WORD:
            raise InvalidOptionError("a circular board's ring brackets as Othello does: "
                                     "no Fairy Othello word on it")
        if capture and (word != OTHELLO_WORD or flip_rule != "all" or nip or self.rings):
            raise InvalidOptionError(
                "挟み碁's capture brackets as Othello does, places anywhere and takes every "
                "bracketed stone: it goes with no Fairy Othello word, flip rule (+one, "
                "+choose), Nip's rule or ring")
        indirect = self.indirect or indirect
        if indirect and (word != OTHELLO_WORD or flip_rule != "all" or capture):
            raise InvalidOptionError(
                "Hasegawa's indirect bracketing (+indirect) turns every disc Othello's "
                "brackets turn, and the discs those bracket: it goes with no Fairy Othello "
                "word, flip rule (+one, +choose) or capture")
        return replace(self, place_when_blocked=nip, flip_rule=flip_rule, word=word,
                       capture=capture, indirect=indirect)

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

    def chained(self, p: Bitboard, o: Bitboard, sq: Square, direct: Bitboard,
                bracket: Callable[[Bitboard, Bitboard, Square], Bitboard]) -> Bitboard:
        """Every disc a move on ``sq`` turns under :attr:`indirect` (see the module
        docstring): the ``direct`` ones (those the placed disc brackets), then what each
        newly turned disc brackets in its turn, until none brackets more. ``bracket`` is
        the board's one definition of Othello's bracketing for its grid (it reads the lines
        from a square, not the square itself). Without :attr:`indirect`: ``direct``."""
        if not self.indirect:
            return direct
        turned, new = direct, direct
        p |= 1 << sq
        while new:
            p, o = p | new, o & ~new
            more = 0
            for disc in bits(new):
                more |= bracket(p, o, disc)
            new = more & ~turned
            turned |= new
        return turned

    # ---- Fairy Othello's words and 挟み碁's capture -------------------------------------
    @property
    def othello_brackets(self) -> bool:
        """Whether a move brackets as in Othello (the word オセロ): the board's kernels
        find the moves and the bracketed discs; else :meth:`word_flips` does."""
        return self.word == OTHELLO_WORD

    def word_flips(self, p: Bitboard, o: Bitboard, sq: Square, playable: Bitboard
                   ) -> Bitboard:
        """The discs the mover (``p``; the other side ``o``) brackets by placing on the
        empty ``sq`` under :attr:`word`: along each of the eight lines, the run of the
        turned colour next to ``sq``, closed by a disc of the closing colour (when the two
        colours are the same, the run's last disc closes it); see the module docstring."""
        word = WORDS[self.word]
        run_of = p if word.turns_own else o
        closer = p if word.closer_own else o
        closed_by_run = word.turns_own == word.closer_own
        n = self.stride
        row0, col0 = divmod(sq, n)
        flipped = 0
        for dr, dc in _DIRECTIONS:
            row, col, run, last = row0 + dr, col0 + dc, 0, 0
            while 0 <= row < n and 0 <= col < n:
                point = row * n + col
                if not playable >> point & 1 or not run_of >> point & 1:
                    break
                run |= 1 << point
                last = point
                row, col = row + dr, col + dc
            if not run:
                continue
            if closed_by_run:  # the run's last disc closes it
                flipped |= run & ~(1 << last)
            elif 0 <= row < n and 0 <= col < n and playable >> (row * n + col) & 1 \
                    and closer >> (row * n + col) & 1:
                flipped |= run
        return flipped

    def word_moves(self, p: Bitboard, o: Bitboard, playable: Bitboard) -> Bitboard:
        """The empty squares of ``playable`` where the mover ``p`` brackets something under
        :attr:`word` (only squares next to a disc of the turned colour can)."""
        run_of = p if WORDS[self.word].turns_own else o
        n, mask = self.stride, 0
        empty = playable & ~(p | o)
        for sq in bits(empty):
            row, col = divmod(sq, n)
            if not any(0 <= row + dr < n and 0 <= col + dc < n
                       and run_of >> ((row + dr) * n + col + dc) & 1
                       for dr, dc in _DIRECTIONS):
                continue
            if self.word_flips(p, o, sq, playable):
                mask |= 1 << sq
        return mask

    def applied(self, p: Bitboard, o: Bitboard, sq: Square | None, turned: Bitboard
                ) -> tuple[Bitboard, Bitboard]:
        """The mover's and the other side's discs after a move on ``sq`` (``None``: a
        pass) that turns ``turned``: the placed disc is the word's colour; the turned
        discs change colour, or are removed under :attr:`capture` (``turned`` may be
        empty there: a stone placed that brackets nothing)."""
        if sq is None:
            return p, o
        if self.capture:
            p, o = p & ~turned, o & ~turned
        else:  # the turned discs are all of one colour: each changes side
            p, o = p ^ turned, o ^ turned
        if WORDS[self.word].placed_own:
            return p | 1 << sq, o
        return p, o | 1 << sq

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
