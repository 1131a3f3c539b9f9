"""What a rated game tells the ratings (:class:`Placings`: each player's place; the
game's result itself is :class:`~hasamigo.game.result.GameResult`), and which results
are not rated and why (:class:`Exclusion`).

A two-player game gives each side a place: the winner first, or both first for a draw. A
game of three or four (Rolit, the four-player game) ranks the seats by their final discs,
equal discs sharing a place. A 32–32 game that the holder of the draw-win right (引き分け勝ち)
wins is rated as the draw it was on the board: the right decides who goes on in a
knock-out, not who played better (the project's reading; the rules say nothing).

**Not rated.** The JOF rules keep some results out of ratings (「レーティングに算入しない」):

* a late player's chosen forfeit loss (rule 13: 不戦敗を選択した場合、試合結果はレーティングに
  算入しない);
* both flags down unnoticed, scored a draw (rule 16: この試合結果はレーティングには算入しない);
* a result a tournament's director marked not rated, and a game that was not played (a
  bye, a round-6 game counted as a draw without being played).

A loss by penalty (rule 21) is rated, the tournament's reading
(:data:`hasamigo.tournament.sanctions.PENALTY_RATING_READING`). Online, as on the sites
players know, a game is rated only when it was created rated, between two different
people's accounts, on the standard 8×8 board, and when both sides made a move (a game
abandoned before that is no contest). Each exclusion carries its reason in English and
(through the catalog) in Japanese, for the pages.

>>> two_player(Pool.OTHELLO, "program:random", "program:victory", winner=1).ranks
(1, 0)
>>> ranked(Pool.ROLIT, ("program:a", "program:b", "program:c"), (30, 20, 30)).ranks
(0, 2, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hasamigo.game.result import GameResult, Termination
from hasamigo.move import BLACK, Color
from hasamigo.ratings.model import Pool, check_subject
from hasamigo.text import N_, Lang, translate


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why a result is not rated: a stable ``code`` and the reason in English (the
    catalog's msgid; :meth:`text` gives it in a language)."""

    code: str
    en: str

    def text(self, lang: Lang) -> str:
        return translate(lang, self.en)

    def as_json(self, lang: Lang = "en") -> dict[str, str]:
        return {"code": self.code, "reason": self.text(lang)}


LATE_FORFEIT = Exclusion("late_forfeit", N_(
    "A late player's chosen forfeit loss is not rated (JOF rule 13)."))
BOTH_FLAGS = Exclusion("both_flags", N_(
    "Both flags fell unnoticed: the draw is not rated (JOF rule 16)."))
MARKED_NOT_RATED = Exclusion("marked_not_rated", N_(
    "The tournament's director marked this result not rated."))
NOT_PLAYED = Exclusion("not_played", N_(
    "The game was not played (a bye, or a game counted without being played)."))
NOT_A_RATED_GAME = Exclusion("not_a_rated_game", N_("The game was not created as rated."))
NOT_ACCOUNTS = Exclusion("not_accounts", N_(
    "A seat is not held by a signed-in account: only games between accounts are rated."))
SAME_PLAYER = Exclusion("same_player", N_("The same player held both seats."))
NOT_STANDARD = Exclusion("not_standard", N_(
    "Only Othello on the standard 8×8 board, from the usual start, is rated."))
TOO_SHORT = Exclusion("too_short", N_(
    "The game ended before both players had moved: no contest."))
#: a game resigned for a player who deleted their account: rating it would give the
#: opponent points nobody won (a throwaway account could feed its friend's rating)
ACCOUNT_DELETED = Exclusion("account_deleted", N_(
    "A player deleted their account before the game ended: not rated."))

EXCLUSIONS: dict[str, Exclusion] = {e.code: e for e in (
    LATE_FORFEIT, BOTH_FLAGS, MARKED_NOT_RATED, NOT_PLAYED, NOT_A_RATED_GAME, NOT_ACCOUNTS,
    SAME_PLAYER, NOT_STANDARD, TOO_SHORT, ACCOUNT_DELETED)}


def result_exclusion(result: GameResult) -> Exclusion | None:
    """Why the rules keep ``result`` out of ratings, or ``None`` if they don't: its
    ``rated`` flag, and the termination that says which rule set it."""
    if result.rated:
        return None
    if result.termination is Termination.FORFEIT:
        return LATE_FORFEIT
    if result.termination is Termination.BOTH_FLAGS:
        return BOTH_FLAGS
    return MARKED_NOT_RATED


def card_exclusion(*, played: bool, late: bool, rated: bool) -> Exclusion | None:
    """Why a tournament's board result is not rated (``played``: the game took place;
    ``late``: the late player chose the forfeit; ``rated``: the card's flag)."""
    if not played:
        return NOT_PLAYED
    if late:
        return LATE_FORFEIT
    return None if rated else MARKED_NOT_RATED


@dataclass(frozen=True, slots=True)
class Placings:
    """What a rated game tells the ratings: its pool, the subjects (Black then White in a
    two-player game; the seats in turn order otherwise) and each one's place (0 first;
    equal places tie)."""

    pool: Pool
    subjects: tuple[str, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.subjects) <= 4 or len(self.ranks) != len(self.subjects):
            raise ValueError("an outcome has two to four subjects, each with a place")
        for subject in self.subjects:
            check_subject(subject)
        if len(set(self.subjects)) != len(self.subjects):
            raise ValueError("a subject is rated once per game")
        if self.pool is Pool.OTHELLO and len(self.subjects) != 2:
            raise ValueError("an Othello game has two players")

    def score(self, index: int) -> float:
        """Subject ``index``'s score: the share of the others it finished ahead of, a tie
        counting half (1, ½, 0 in a two-player game)."""
        mine, others = self.ranks[index], len(self.ranks) - 1
        ahead = sum(1.0 if mine < r else 0.5 if mine == r else 0.0
                    for i, r in enumerate(self.ranks) if i != index)
        return ahead / others


def two_player(pool: Pool, black: str, white: str, *, winner: int | None) -> Placings:
    """Black's and White's outcome; ``winner`` 0 (Black), 1 (White) or ``None`` (a draw)."""
    if winner not in (0, 1, None):
        raise ValueError("the winner is 0 (Black), 1 (White) or None (a draw)")
    ranks = (0, 0) if winner is None else (0, 1) if winner == 0 else (1, 0)
    return Placings(pool, (black, white), ranks)


def of_result(pool: Pool, black: str, white: str, result: GameResult) -> Placings:
    """The outcome of a finished two-player game (a draw-win holder's win is the draw it
    was on the board)."""
    winner: Color | None = None if result.by_draw_win else result.winner
    return two_player(pool, black, white,
                      winner=None if winner is None else 0 if winner == BLACK else 1)


def ranked(pool: Pool, subjects: Sequence[str], discs: Sequence[int]) -> Placings:
    """The outcome of a game of three or four: places by final discs, more is better,
    equal discs share a place (standard competition ranking: 0, 0, 2)."""
    if len(subjects) != len(discs):
        raise ValueError("one disc count per subject")
    ranks = tuple(sum(1 for other in discs if other > mine) for mine in discs)
    return Placings(pool, tuple(subjects), ranks)


__all__ = ["ACCOUNT_DELETED", "BOTH_FLAGS", "EXCLUSIONS", "LATE_FORFEIT", "MARKED_NOT_RATED",
           "NOT_ACCOUNTS",
           "NOT_A_RATED_GAME", "NOT_PLAYED", "NOT_STANDARD", "SAME_PLAYER", "TOO_SHORT",
           "Exclusion", "Placings", "card_exclusion", "of_result", "ranked",
           "result_exclusion", "two_player"]
