"""Board variants: geometries within the 8×8 grid and, for boards larger than 8×8, within
the 10×10 grid (``Rules(stride=10)``); historical starts and the disc limit; Nip's rule,
the circular board's ring, 挟み碁's flip rules and capture, and Fairy Othello's words.

Each variant is a :class:`~hasamigo.board.Board` subclass with class-level metadata, its
shape and start, composed with its :class:`~hasamigo.rules.Rules` (``rules``), which the
board delegates to; :func:`find_variant` looks one up by name or alias, options included.

>>> find_variant("mini").square_count()
36
>>> find_variant("6x6")().to_string()
'--------------OX----XO-------------- X'
>>> find_variant("eight-stars").square_count()
88
"""

from __future__ import annotations

from hasamigo.board import Board
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.rules import FLIP_RULES, KANA_WORDS, OTHELLO_WORD, WORDS, Rules
from hasamigo.squares import A1, A2, A7, A8, B1, B8, G1, G8, H1, H2, H7, H8, Square, parse_square


class ParallelBoard(Board):
    """8×8 with the parallel Reversi start: d4, e4 white; d5, e5 black."""

    name = "parallel"
    aliases = ("parallel-start",)
    title = "Reversi 8×8, parallel start"
    default_start = "parallel"


class OriginalReversiBoard(Board):
    """Reversi as first published: an empty centre; the first four discs (Black first)
    are placed freely on the four centre squares, without flips."""

    name = "original"
    aliases = ("original-reversi", "reversi")
    title = "Reversi 8×8, original start"
    default_start = "original"


class EarlyReversiBoard(Board):
    """19th-century Reversi: original start and 32 discs a side; a side that has placed
    all 32 passes for the rest of the game."""

    name = "reversi-32"
    aliases = ("early-reversi", "reversi-1886")
    title = "Reversi 8×8, 32-disc limit"
    default_start = "original"
    default_disc_limit = 32


class MiniBoard(Board):
    """Mini Othello, 6×6 (perfect play: White wins 16–20). Named a1..f6 on its own."""

    name = "6x6"
    aliases = ("mini", "mini-othello")
    title = "Mini Othello 6×6"
    rows = cols = 6
    top = left = 1


class Board4x4(Board):
    """4×4 Othello (perfect play: White wins, 3–13 with the empties to the winner)."""

    name = "4x4"
    aliases = ("micro",)
    title = "Othello 4×4"
    rows = cols = 4
    top = left = 2


class OctagonBoard(Board):
    """8×8 with three squares cut at each corner: an octagon of 52 squares."""

    name = "octagon"
    aliases = ("octagonal",)
    title = "Octagonal Othello (52 squares)"
    cut = sum(1 << sq for sq in (A1, B1, A2, H1, G1, H2, A8, B8, A7, H8, G8, H7))


def _grid_squares(stride: int, *names: str) -> int:
    """Mask of squares named in a frame's own coordinates at the grid's top-left (a1 = 0)."""
    mask = 0
    for name in names:
        col, row = "abcdefghij".index(name[0]), int(name[1:]) - 1
        mask |= 1 << (row * stride + col)
    return mask


class GrandBoard(Board):
    """Grand Othello, 10×10: columns a..j, rows 1..10, the cross start on the centre
    (e5, f6 white; f5, e6 black), Black first. A MegaHouse board of the Othello family,
    an event of the Othello World Cup 2013 and 2014 (ja.wikipedia "オセロ
    (ボードゲーム)", 派生ゲーム and Othello World Cup sections)."""

    name = "grand"
    aliases = ("10x10", "grand-othello")
    title = "Grand Othello 10×10"
    rows = cols = 10
    rules = Rules(stride=10)


class EightStarsBoard(Board):
    """Eight Stars Othello: the 10×10 Grand Othello board with three squares cut at each
    corner (a1, b1, a2; i1, j1, j2; a9, a10, b10; j9, i10, j10), an octagon of 88 squares;
    the same cross start as Grand Othello (e5, f6 white; f5, e6 black).

    Source: ja.wikipedia "オセロ (ボードゲーム)" (the 2024 text in the project's seeds),
    派生ゲーム: "エイトスターズオセロ … 旧称「88オセロ(エイティエイトオセロ)」。
    グランドオセロの盤面から四隅を切り落として八角形状にしたもの" — Grand Othello's board
    with the four corners cut off into an octagon, formerly sold as "88 Othello". The page
    draws no diagram and the MegaHouse rules it cites (長谷川五郎 2006, p. 279; Othello!
    JAPAN, 2013-02-03) could not be reached, so the cut is inferred: 88 squares = 100 - 4×3,
    three squares per corner, the corner and its two edge neighbours (the only symmetric
    cut of three squares; the same shape as the 8×8 ``octagon``). The start is not stated
    either: the cross on the centre, as on Grand Othello, whose board this is.
    """

    name = "eight-stars"
    aliases = ("eight-stars-othello", "88", "88-othello")
    title = "Eight Stars Othello (88 squares)"
    rows = cols = 10
    rules = Rules(stride=10)
    cut = _grid_squares(
        10, "a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10"
    )


class Hasegawa8x9Board(Board):
    """Hasegawa's early 8×9 board: 8 rows (1..8) by 9 columns (a..i).

    Source: ja.wikipedia "オセロ (ボードゲーム)" (2019 and 2024): for 挟み碁 Hasegawa used
    home-made boards of 8×8, 8×9, 9×10 and octagonal shape, and first played his game on
    an 8×9 board before taking the 8×8 chessboard in 1970. Read as 縦×横 (rows × columns,
    the usual Japanese order for a board's size). No source gives a start: the cross of
    Othello on the 2×2 nearest the centre, which with 9 columns is d4, e4, d5, e5 (the
    centre column e and the one left of it; d4, e5 white; e4, d5 black), Black first —
    the rule every board of this package follows (rows or columns odd: upper left of the
    middle). Plain Othello flips (挟み碁's house rules are a separate option).
    """

    name = "hasegawa-8x9"
    aliases = ("8x9",)
    title = "Hasegawa's 8×9 board"
    rows = 8
    cols = 9
    rules = Rules(stride=10)


class Hasegawa9x10Board(Board):
    """Hasegawa's early 9×10 board: 9 rows (1..9) by 10 columns (a..j).

    Source and reading as for :class:`Hasegawa8x9Board`. Start: the cross on the 2×2
    nearest the centre, e4, f4, e5, f5 (rows 4-5: the centre row 5 and the one above it;
    e4, f5 white; f4, e5 black), Black first.
    """

    name = "hasegawa-9x10"
    aliases = ("9x10",)
    title = "Hasegawa's 9×10 board"
    rows = 9
    cols = 10
    rules = Rules(stride=10)


class NipOctagonBoard(Board):
    """Nip (ニップ) on its octagonal board: the 52 squares of the 8×8 board without a1, b1,
    a2, g1, h1, h2, a7, a8, b8, g8, h7, h8 (the ``octagon`` shape), with Nip's rule: when
    neither side can flip, the game does not end; the side to move places a disc on any
    empty square, flipping nothing, and play goes on until the board is full.

    Sources: issue 18 (Nip's rule); the board as the pre-war "ニップゲーム"
    (utility model 187845 of 1933, by 松本彌助) is described in an older text of
    ja.wikipedia "オセロ (ボードゲーム)", quoted at nakajim.net's Nipp page (its cut squares
    are listed there as above; the pieces were white and red). Those pages give no start:
    the cross on the centre, as on every board here. The later circular Nip board (52
    points on lines, flips along the circle too) is :class:`NipCircleBoard`, a model of
    it, since no source at hand gives its geometry exactly.
    """

    name = "nip-octagon"
    aliases = ("nip", "nip-game")
    title = "Nip (octagonal board, 52 squares)"
    cut = OctagonBoard.cut
    rules = Rules(place_when_blocked=True)


#: The circumference of :class:`NipCircleBoard`: the octagon's 20 outermost squares,
#: clockwise from c1 (a3 and b2 close the circle back to c1).
NIP_CIRCLE_RING: tuple[Square, ...] = tuple(parse_square(name) for name in (
    "c1", "d1", "e1", "f1", "g2", "h3", "h4", "h5", "h6", "g7",
    "f8", "e8", "d8", "c8", "b7", "a6", "a5", "a4", "a3", "b2",
))


class NipCircleBoard(Board):
    """Nip (ニップ) on its circular board, as modelled here: the 52 points are the 52
    squares of the ``octagon`` (the squares of the 8×8 grid whose centres lie within a
    circle of radius √(3.5² + 1.5²) about the board's centre: exactly the octagon), flips
    go along the grid's lines as usual, and the circumference is one more line, which
    closes on itself: its 20 outermost points in cyclic order c1 d1 e1 f1 g2 h3 h4 h5 h6
    g7 f8 e8 d8 c8 b7 a6 a5 a4 a3 b2 (and back to c1). A disc placed on the circumference
    brackets opponent discs running along it either way round up to its own disc, as
    along a row; the bracketing disc must be another point, so a circle whose other 19
    points are all the opponent's brackets nothing. A move is legal if it flips along
    any line. Nip's rule holds: when neither side can flip, the side to move places a
    disc on any empty point; the game ends when the board is full.

    Why this model: ja.wikipedia "オセロ (ボードゲーム)" (§ニップ) says the mainstream Nip
    board (sold by Hanayama) is circular and has no corners, so no disc can be made
    stable; nakajim.net's "Nipp" page says the circular board has 52 points, the discs go
    on the intersections of its lines and are flipped in every direction: vertically,
    horizontally, diagonally and along the circumference. Neither draws the lines, and no
    other source of its geometry is at hand; 52 is the octagon's count, and the octagon's
    squares are exactly the grid points within the circle above, so the points are taken
    to be the octagon's, with its outer ring as the circumference. The start is not
    stated: the usual cross on d4, e4, d5, e5 is assumed (d4, e5 white; e4, d5 black),
    Black first.
    """

    name = "nip-circle"
    aliases = ("circular-nip", "nip-round", "round-nip")
    title = "Nip (circular board, 52 points)"
    cut = OctagonBoard.cut
    rules = Rules(place_when_blocked=True, rings=(NIP_CIRCLE_RING,))


VARIANTS: tuple[type[Board], ...] = (
    Board,
    ParallelBoard,
    OriginalReversiBoard,
    EarlyReversiBoard,
    MiniBoard,
    Board4x4,
    OctagonBoard,
    GrandBoard,
    EightStarsBoard,
    Hasegawa8x9Board,
    Hasegawa9x10Board,
    NipOctagonBoard,
    NipCircleBoard,
)


#: The 挟み碁 flip rules a variant name may end with (``+one``, ``+choose``), and the words
#: the title of such a variant adds.
RULE_TITLES = {
    "one": "one disc turned",
    "choose": "turned discs chosen",
}
assert set(RULE_TITLES) == set(FLIP_RULES) - {"all"}
#: Nip's rule as an option of any board (``+nip``): when neither side can flip, the side to
#: move places a disc anywhere (:attr:`Board.place_when_blocked`).
NIP_OPTION = "nip"
NIP_TITLE = "Nip's rule (placing anywhere when both are blocked)"
#: 挟み碁's first rule as an option of any board without a ring (``+capture``): stones
#: placed anywhere, the bracketed ones taken (:class:`~hasamigo.rules.Rules`, ``capture``).
CAPTURE_OPTION = "capture"
CAPTURE_TITLE = "挟み碁's capture (bracketed stones taken; stones in hand)"
#: Hasegawa's early rule as an option of any board (``+indirect``, or ``+間接挟み``): the
#: discs a move turns bracket in their turn (:class:`~hasamigo.rules.Rules`, ``indirect``;
#: the seed names the rule, the details are the project's reading).
INDIRECT_OPTION = "indirect"
INDIRECT_KANJI = "間接挟み"
INDIRECT_TITLE = "Hasegawa's early indirect bracketing (間接挟み; details our reading)"
#: The Fairy Othello words a variant name may end with (``+osere``; in kana too,
#: ``+オセレ``), Othello's own excepted, and the words each adds to the title.
WORD_TITLES = {
    name: f"Fairy Othello {word.kana} ({word.reading}; "
          f"{'as the seed gives it' if word.from_seed else 'our reading'})"
    for name, word in WORDS.items() if name != OTHELLO_WORD
}

_WITH_OPTIONS: dict[tuple[type[Board], Rules], type[Board]] = {}


def with_options(base: type[Board], *, nip: bool = False, flip_rule: str = "all",
                 word: str = OTHELLO_WORD, capture: bool = False,
                 indirect: bool = False) -> type[Board]:
    """``base`` played with Nip's rule (``nip``), under the 挟み碁 flip rule ``flip_rule``
    (``"one"`` or ``"choose"``; ``"all"``: the normal rule), the Fairy Othello ``word``
    (``"osere"``…; ``"osero"``: Othello's), 挟み碁's ``capture`` and/or Hasegawa's early
    ``indirect`` bracketing: ``base``'s shape and start composed with
    ``base.rules.with_options(...)``, named ``base.name`` followed by ``+nip``, ``+rule``,
    ``+word``, ``+capture`` and ``+indirect``, made once and kept, so that the
    same name always gives the same variant (``base`` itself when it already plays so).

    >>> v = with_options(find_variant("8x9"), flip_rule="one")
    >>> v.name, v.title, v is find_variant("hasegawa-8x9+one")
    ('hasegawa-8x9+one', "Hasegawa's 8×9 board, 挟み碁 rule: one disc turned", True)
    >>> find_variant("standard+nip").rules.supports("place_anywhere")
    True
    >>> find_variant("standard+オセレ").name, find_variant("6x6+capture").default_disc_limit
    ('standard+osere', 18)
    """
    if flip_rule != "all" and flip_rule not in RULE_TITLES:
        raise InvalidOptionError(
            f"unknown flip rule {shown(flip_rule)}; known: {', '.join(RULE_TITLES)}")
    if word != OTHELLO_WORD and word not in WORD_TITLES:
        raise InvalidOptionError(
            f"unknown Fairy Othello word {shown(word)}; known: {', '.join(WORD_TITLES)}")
    rules = base.rules.with_options(nip=nip, flip_rule=flip_rule, word=word,
                                    capture=capture, indirect=indirect) if (
        flip_rule == "all" or base.rules.turning in ("all", flip_rule)) else None
    if rules is None:
        raise InvalidOptionError(f"{base.title} already has a flip rule")
    if rules == base.rules:
        return base
    key = (base, rules)
    made = _WITH_OPTIONS.get(key)
    if made is None:
        added = []  # (suffix, title words) in name order
        if rules.supports("place_anywhere") and not base.rules.supports("place_anywhere"):
            added.append((NIP_OPTION, NIP_TITLE))
        if rules.turning != base.rules.turning:
            added.append((rules.turning, f"挟み碁 rule: {RULE_TITLES[rules.turning]}"))
        if rules.word != base.rules.word:
            added.append((rules.word, WORD_TITLES[rules.word]))
        if rules.capture and not base.rules.capture:
            added.append((CAPTURE_OPTION, CAPTURE_TITLE))
        if rules.indirect and not base.rules.indirect:
            added.append((INDIRECT_OPTION, INDIRECT_TITLE))
        suffix = "".join(f"+{option}" for option, _ in added)
        made = _WITH_OPTIONS[key] = _composed(base, rules, suffix, [t for _, t in added])
    return made


def _composed(base: type[Board], rules: Rules, suffix: str, words: list[str]) -> type[Board]:
    """The variant of ``base``'s shape and start under ``rules``: a subclass (the Board API
    and the registry take variants as classes) that changes nothing but the rules and the
    names (and, under capture, the stones in hand: :class:`Board` gives them)."""

    composed_rules = rules  # read by the class body (a name it assigns is its own)

    class Composed(base):  # type: ignore[valid-type,misc]  # a base chosen at run time
        __doc__ = f"{base.title} with {'; '.join(words)}."
        rules = composed_rules
        name = base.name + suffix
        aliases = tuple(alias + suffix for alias in base.aliases)
        title = ", ".join([base.title, *words])

    Composed.__name__ = Composed.__qualname__ = f"{base.__name__}_{suffix.replace('+', '_')}"
    Composed.__module__ = __name__
    return Composed


def find_variant(name: str) -> type[Board]:
    """The board class registered under ``name`` or one of its aliases (case-insensitive);
    :class:`~hasamigo.errors.InvalidOptionError` listing the known names otherwise.

    A name may end with options: ``+nip`` (Nip's rule), a 挟み碁 flip rule, ``+one`` or
    ``+choose`` (``standard+one``, ``8x9+nip+choose``), a Fairy Othello word (``+osere``,
    or in kana ``+オセレ``), ``+capture`` (挟み碁's first rule) and ``+indirect`` (or
    ``+間接挟み``: Hasegawa's early indirect bracketing): the variant played so
    (:func:`with_options`).
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    base_key, *options = (part.strip() for part in key.split("+"))
    options = [INDIRECT_OPTION if option == INDIRECT_KANJI else KANA_WORDS.get(option, option)
               for option in options]
    for variant in VARIANTS:
        if base_key == variant.name or base_key in variant.aliases:
            rules = [o for o in options if o in RULE_TITLES]
            words = [o for o in options if o in WORD_TITLES]
            unknown = [o for o in options if o not in RULE_TITLES and o not in WORD_TITLES
                       and o not in (NIP_OPTION, CAPTURE_OPTION, INDIRECT_OPTION)]
            if unknown or len(rules) > 1 or len(words) > 1 or len(options) != len(set(options)):
                raise InvalidOptionError(
                    f"unknown options in {shown(name)}: a board may end with +{NIP_OPTION}, "
                    f"one flip rule (known flip rules: {', '.join(RULE_TITLES)}; as in "
                    f"{variant.name}+one), one Fairy Othello word ({', '.join(WORD_TITLES)}) "
                    f", +{CAPTURE_OPTION} and +{INDIRECT_OPTION}"
                )
            return with_options(variant, nip=NIP_OPTION in options,
                                flip_rule=rules[0] if rules else "all",
                                word=words[0] if words else OTHELLO_WORD,
                                capture=CAPTURE_OPTION in options,
                                indirect=INDIRECT_OPTION in options)
    known = ", ".join(v.name for v in VARIANTS)
    raise InvalidOptionError(
        f"unknown variant {shown(name)}; known: {known}, with options such as "
        f"+{NIP_OPTION} or +{CAPTURE_OPTION} (hasamigo variants lists them)"
    )
