"""Game results under the JOF rules, including time-outs, play-out and forfeits.

:class:`GameResult` is the one value for how a game came out, wherever it was played: the
game controller (the web, the terminal), ``hasamigo match``
(:class:`~hasamigo.tournament.match.MatchGame` holds one, with which side each player
had) and a tournament (:class:`~hasamigo.tournament.model.BoardResult` holds one, with
which entrant had which colour). Those records add who sat where; the counts, the
winner, how the game ended, whether it is rated and the points are read from here.

It lives in the game layer, not on the package's flat surface (``hasamigo.GameResult``):
the core (``hasamigo``, the board) imports nothing above it (``tests/test_layers.py``),
and only the game knows the ways a game ends off the board.

Counts are always given as Black–White. ``Outcome`` (in :mod:`hasamigo.board`) is the
board's own count of a position with no move left; :meth:`GameResult.from_outcome` is
the one place a result is made from it.

**Scoring as of a date.** A board that ends with empty squares is counted by the rule of
the game's day (:func:`scoring_for`: today's for a game played here, its record's date for
an imported one) or by one chosen for the game (:class:`Scoring`):

* ``jof-2014`` (the JOF rules from 1 June 2014, and the international rule before that):
  the empties go to the winner; a tie shares the board (32–32);
* ``jof-pre-2014`` (the JOF rules before 1 June 2014, rule 14 as of August 2013): a
  perfect game (one side wiped out) is always the whole board's difference (64–0);
  otherwise the difference of the discs on the board, written as counts with the
  empties split between the two, so counts may be halves (``38.5–25.5``, 13 discs);
* ``discs``: the discs on the board as they stand, no empties given to anyone.

:attr:`GameResult.black` and :attr:`GameResult.white` stay whole numbers, the counts under
today's rule (``jof-2014``) that storage, standings and ratings add up; the winner is the
same under every scoring. :attr:`GameResult.score` is the count under the game's own
scoring, what the result card and the record sheet show; it is made from the discs on
the board (:attr:`GameResult.discs`), so only a game that ended on the board is counted
differently: a time-out, a forfeit, a resignation or a signed card is written as it is.

>>> old = GameResult.from_outcome(Outcome.official(14, 1), scoring=Scoring.JOF_PRE_2014)
>>> str(old), old.score.difference, str(old.score_under(Scoring.JOF_2014))
('38.5–25.5', 13, '63–1')
>>> scoring_for(datetime.date(1990, 5, 1)).code, scoring_for(2014).code
('jof-pre-2014', 'jof-2014')

>>> r = GameResult.from_outcome(Outcome.official(30, 30))
>>> str(r), r.winner, r.points_of(WHITE), r.loser
('32–32', None, 0.5, None)
>>> won = timeout_win(BLACK)
>>> str(won), won.lost_on_time, won.points_of(BLACK), won.to_json()["termination"]
('33–31', Color.WHITE, 1.0, 'timeout')
>>> GameResult.from_json(won.to_json()) == won
True
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hasamigo.board import Board, Outcome
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import BLACK, WHITE, Color


class Termination(enum.Enum):
    """How a game ended. ``code`` is the name stored and sent (``"timeout"``)."""

    NORMAL = "normal"  # neither side can move
    RESIGNATION = "resignation"
    TIMEOUT = "time-out (33–31)"
    PLAYOUT = "time-out, play-out (勝手打ち)"
    BOTH_FLAGS = "both flags down"
    FORFEIT = "forfeit"
    PENALTY = "loss by penalty (反則負け)"

    @property
    def code(self) -> str:
        return self.name.lower()

    @classmethod
    def from_code(cls, code: str) -> Termination:
        return cls[code.upper()]

    @property
    def on_time(self) -> bool:
        """A flag fell and was claimed (33–31 or a play-out)."""
        return self in (Termination.TIMEOUT, Termination.PLAYOUT)


class Scoring(enum.Enum):
    """How a finished board with empty squares is counted (see the module docstring).
    The value is the code stored and sent (``"jof-pre-2014"``)."""

    JOF_2014 = "jof-2014"
    JOF_PRE_2014 = "jof-pre-2014"
    DISCS = "discs"

    @property
    def code(self) -> str:
        return self.value

    @classmethod
    def from_code(cls, code: object) -> Scoring:
        """The scoring named ``code``; :class:`InvalidOptionError` naming the codes if none."""
        for scoring in cls:
            if scoring.value == code:
                return scoring
        raise InvalidOptionError(f"a scoring is {', '.join(s.value for s in cls)}, "
                                 f"not {shown(code)}")


#: The day the JOF's empties-to-the-winner rule took effect in Japan (the 2024
#: encyclopedia's note 2: 「日本では2014年6月1日からこのルールが施行された」).
JOF_2014_FROM = datetime.date(2014, 6, 1)


def scoring_for(when: datetime.date | int | None) -> Scoring:
    """The JOF's scoring on a day: ``jof-pre-2014`` before 1 June 2014, else ``jof-2014``.

    ``when`` may be a year alone (a WTHOR archive dates its games so): a year before 2014
    is the old rule, 2014 itself (the rule changed in June) and later today's. ``None``
    (no date) is today's rule.
    """
    if when is None:
        return Scoring.JOF_2014
    if isinstance(when, int):
        return Scoring.JOF_PRE_2014 if when < JOF_2014_FROM.year else Scoring.JOF_2014
    return Scoring.JOF_PRE_2014 if when < JOF_2014_FROM else Scoring.JOF_2014


@dataclass(frozen=True, slots=True)
class Score:
    """Counts Black–White under one scoring. A count is a whole ``int``, or a ``float``
    ending in .5 only where ``jof-pre-2014`` splits an odd number of empties, so that
    ``str`` writes ``63`` and ``38.5`` as a score sheet does."""

    black: float
    white: float
    scoring: Scoring

    @property
    def difference(self) -> float:
        """Black's count minus White's (whole under every scoring)."""
        return _whole_or_half(round(2 * (self.black - self.white)))

    def to_json(self) -> dict[str, Any]:
        return {"black": self.black, "white": self.white, "scoring": self.scoring.code}

    def __str__(self) -> str:
        return f"{self.black}–{self.white}"


def _whole_or_half(halves: int) -> float:
    """``halves`` / 2 as an ``int`` when whole (``str`` then writes no ``.0``)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def score_board(black_discs: int, white_discs: int, scoring: Scoring, *,
                squares: int = 64) -> Score:
    """The counts of a finished board with these discs under ``scoring``.

    >>> [str(score_board(14, 1, s)) for s in Scoring]
    ['63–1', '38.5–25.5', '14–1']
    >>> [str(score_board(b, w, Scoring.JOF_PRE_2014)) for b, w in ((20, 0), (20, 20))]
    ['64–0', '32–32']
    """
    outcome = Outcome.official(black_discs, white_discs, squares=squares)  # checks the counts
    if scoring is Scoring.JOF_2014:
        return Score(outcome.black, outcome.white, scoring)
    if scoring is Scoring.DISCS:
        return Score(black_discs, white_discs, scoring)
    if outcome.winner is not None and min(black_discs, white_discs) == 0:  # perfect game
        return Score(outcome.black, outcome.white, scoring)
    empties = squares - black_discs - white_discs
    return Score(_whole_or_half(2 * black_discs + empties),
                 _whole_or_half(2 * white_discs + empties), scoring)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: official counts (Black–White), the winner and how it ended.

    ``by_draw_win`` is set when a 32–32 game was won by the holder of the draw-win right
    (引き分け勝ち). ``rated`` is False for results the JOF rules keep out of ratings.
    ``black``/``white`` are the counts under today's rule; ``scoring`` is the game's own
    and ``discs`` the discs on the board when it ended there (``None`` otherwise, and in
    results stored before scorings were kept, which read as ``jof-2014``).
    """

    black: int
    white: int
    winner: Color | None
    termination: Termination = Termination.NORMAL
    rated: bool = True
    by_draw_win: bool = False
    scoring: Scoring = Scoring.JOF_2014
    #: not compared: two records of one result are equal whether or not they kept it
    discs: tuple[int, int] | None = field(default=None, compare=False)

    @classmethod
    def from_outcome(cls, outcome: Outcome, *, draw_win: Color | None = None,
                     scoring: Scoring = Scoring.JOF_2014) -> GameResult:
        """A game played to its end, counted under ``scoring``; a tie goes to the draw-win
        holder if there is one."""
        discs = (outcome.black_discs, outcome.white_discs)
        if outcome.winner is None and draw_win is not None:
            return cls(outcome.black, outcome.white, draw_win, by_draw_win=True,
                       scoring=scoring, discs=discs)
        return cls(outcome.black, outcome.white, outcome.winner, scoring=scoring, discs=discs)

    @property
    def score(self) -> Score:
        """The counts under the game's own scoring (what its result card shows)."""
        return self.score_under(self.scoring)

    def score_under(self, scoring: Scoring) -> Score:
        """The counts under ``scoring``: the board's discs counted so when the game ended
        on the board; otherwise (or with no discs kept) ``black``–``white`` as they are,
        under ``jof-2014`` (a forfeit's 64–0 and a time-out's 33–31 are not a board's count)."""
        if self.discs is None or self.termination is not Termination.NORMAL:
            return Score(self.black, self.white, Scoring.JOF_2014)
        return score_board(*self.discs, scoring, squares=self.black + self.white)

    @property
    def disc_difference(self) -> int:
        """Black's count minus White's."""
        return self.black - self.white

    @property
    def loser(self) -> Color | None:
        return None if self.winner is None else self.winner.other

    @property
    def lost_on_time(self) -> Color | None:
        """The side whose flag fell and was claimed (``None``: no time-out, or both flags)."""
        return self.loser if self.termination.on_time else None

    @property
    def forfeit(self) -> bool:
        return self.termination is Termination.FORFEIT

    @property
    def penalty(self) -> bool:
        """A loss by penalty (反則負け) the arbiter declared (JOF rule 21)."""
        return self.termination is Termination.PENALTY

    def counts_for(self, color: Color) -> int:
        return self.black if color is BLACK else self.white

    def points_of(self, color: Color) -> float:
        """1 for a win, ½ for a draw, 0 for a loss: the points every standing adds up."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is color else 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON form :meth:`from_json` reads (the termination as its ``code``)."""
        return {"black": self.black, "white": self.white,
                "winner": None if self.winner is None else self.winner.value,
                "termination": self.termination.code, "rated": self.rated,
                "by_draw_win": self.by_draw_win, "scoring": self.scoring.code,
                "discs": None if self.discs is None else list(self.discs)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """Read :meth:`to_json`'s output; one stored without ``scoring`` and ``discs``
        (before they were kept) reads as ``jof-2014`` with no discs."""
        discs = data.get("discs")
        return cls(int(data["black"]), int(data["white"]),
                   Color.parse_optional(data["winner"]),
                   Termination.from_code(data.get("termination", "normal")),
                   bool(data.get("rated", True)), bool(data.get("by_draw_win", False)),
                   Scoring.from_code(data.get("scoring", Scoring.JOF_2014.code)),
                   None if discs is None else (int(discs[0]), int(discs[1])))

    def __str__(self) -> str:
        """The score under the game's own scoring (``38.5–25.5`` under ``jof-pre-2014``)."""
        return str(self.score)


def _split(winner: Color, winner_count: int, loser_count: int) -> tuple[int, int]:
    return (winner_count, loser_count) if winner is BLACK else (loser_count, winner_count)


def timeout_win(winner: Color, *, squares: int = 64) -> GameResult:
    """The time-out winner's choice (1): a 33–31 win (on other boards: half + 1 to half − 1)."""
    half = squares // 2
    black, white = _split(winner, half + 1, squares - half - 1)
    return GameResult(black, white, winner, Termination.TIMEOUT)


def playout_result(board: Board, winner: Color) -> GameResult:
    """The time-out winner's choice (2), play-out (勝手打ち), stopped at ``board``.

    The winner played both sides alone and stopped (or ran out of time) here. If the game
    reached its natural end, empties go to the side ahead as usual; in a count taken
    mid-game they go to the **loser** (JOF rule 17). The winner keeps the win: taking the
    count is the winner's option, so a count that does not favour the winner is replaced
    by the 33–31 win the winner could have taken instead.
    """
    outcome = board.outcome()
    if outcome is not None:
        black, white = outcome.black, outcome.white
    else:
        black, white = board.counts()
        empties = board.empties.bit_count()
        if winner is BLACK:
            white += empties
        else:
            black += empties
    mine, theirs = (black, white) if winner is BLACK else (white, black)
    if mine <= theirs:
        return timeout_win(winner, squares=board.square_count())
    return GameResult(black, white, winner, Termination.PLAYOUT)


def both_flags_down(*, draw_win: Color | None = None, squares: int = 64) -> GameResult:
    """Both flags fell unnoticed: a draw (the draw-win holder wins a final); not rated."""
    half = squares // 2
    return GameResult(
        half, half, draw_win, Termination.BOTH_FLAGS, rated=False, by_draw_win=draw_win is not None
    )


def forfeit(winner: Color, *, rated: bool = True, squares: int = 64) -> GameResult:
    """A forfeit scores the whole board (64–0). A late player's chosen forfeit is not rated."""
    black, white = _split(winner, squares, 0)
    return GameResult(black, white, winner, Termination.FORFEIT, rated=rated)


def penalty_loss(loser: Color, *, squares: int = 64) -> GameResult:
    """A loss by penalty (反則負け, JOF rule 21): scored like a forfeit, the whole board to
    the other side (our convention: the rules give no score), and rated.

    >>> r = penalty_loss(WHITE)
    >>> str(r), r.winner, r.penalty, r.to_json()["termination"]
    ('64–0', Color.BLACK, True, 'penalty')
    """
    black, white = _split(loser.other, squares, 0)
    return GameResult(black, white, loser.other, Termination.PENALTY)


def resignation(loser: Color, *, squares: int = 64) -> GameResult:
    """A resignation: scored like a forfeit, the whole board to the winner (our convention:
    the JOF rules give no resignation score)."""
    black, white = _split(loser.other, squares, 0)
    return GameResult(black, white, loser.other, Termination.RESIGNATION)


def result_card(black: int, white: int, *, squares: int = 64) -> GameResult:
    """The result written on a result card (対戦カード, JOF rule 18): both disc counts.

    Counts that do not add up to the board's squares are read **to the winner's
    disadvantage**: more than the board holds reduces the winner's count, fewer gives the
    missing discs to the loser. A card whose counts are equal is a draw (a 64-square board:
    32–32).

    >>> str(result_card(35, 30)), str(result_card(33, 29)), str(result_card(33, 32))
    ('34–30', '33–31', '32–32')
    """
    for count in (black, white):
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= squares:
            raise InvalidOptionError(f"a disc count on a card is 0 to {squares}, "
                                     f"not {shown(count)}")
    if black == white:
        half = squares // 2
        return GameResult(half, squares - half, None)
    winner = BLACK if black > white else WHITE
    mine, theirs = (black, white) if winner is BLACK else (white, black)
    if mine + theirs > squares:
        mine = squares - theirs
    elif mine + theirs < squares:
        theirs = squares - mine
    if mine <= theirs:
        half = squares // 2
        return GameResult(half, squares - half, None)
    b, w = _split(winner, mine, theirs)
    return GameResult(b, w, winner)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A result from one participant's point of view: ``win``, ``lose`` or ``draw``."""

    outcome: Literal["win", "lose", "draw"]
    score: str
    notes: list[str] = field(default_factory=list)


def verdict_for(result: GameResult, colour: Color) -> Verdict:
    """WIN / LOSE / DRAW for ``colour`` with the game's score (own count first)."""
    score = result.score
    mine, theirs = (score.black, score.white) if colour is BLACK else (score.white, score.black)
    if result.winner is None:
        return Verdict("draw", f"{mine}–{theirs}")
    return Verdict("win" if result.winner is colour else "lose", f"{mine}–{theirs}")


__all__ = [
    "JOF_2014_FROM",
    "WHITE",
    "GameResult",
    "Score",
    "Scoring",
    "Termination",
    "Verdict",
    "both_flags_down",
    "forfeit",
    "penalty_loss",
    "playout_result",
    "resignation",
    "result_card",
    "score_board",
    "scoring_for",
    "timeout_win",
    "verdict_for",
]
