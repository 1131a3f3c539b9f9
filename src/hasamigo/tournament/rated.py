"""Which of a tournament's results are rated, and why the others are not (issue 67).

A board's result is rated in the ``othello`` pool (:mod:`hasamigo.ratings`) when both its
entrants are accounts (they registered themselves) and the JOF rules do not keep it out
(「レーティングに算入しない」): a late player's chosen forfeit (rule 13), both flags down
unnoticed (rule 16), a card the director marked not rated; and a game that was not played
(a bye, a round-6 game counted as a draw, a forfeit for a player who did not come) has
nothing to rate. A loss by penalty is rated (the tournament's reading,
:data:`hasamigo.tournament.sanctions.PENALTY_RATING_READING`). Each game's reference is
``tournament:<id>:<round>:<board>``.

**When.** A round's results are rated when the round is *closed*: when the next round is
paired, or, for the last round, when its last result makes the tournament finished; board
by board in board order, each once (:meth:`~hasamigo.ratings.RatingStore.record` writes a
game once, whichever server asks, and keeps each player's rating before and after). Until
then the director corrects freely and nothing is to undo. A correction after that changes
the standings but not the ratings: each later rated game started from the numbers this
one made, so re-rating one game would mean rewriting every later game of both players
and of their opponents; the result then says so (:data:`RATED_AS_ENTERED`), unless what
the ratings read of it (who won, or a draw; rated or not) is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from hasamigo.ratings import Exclusion, Pool, RatingChange, RatingStore, of_result
from hasamigo.ratings.model import subject_of_account
from hasamigo.ratings.outcome import (
    LATE_FORFEIT,
    NOT_PLAYED,
    SAME_PLAYER,
    result_exclusion,
)
from hasamigo.text import N_
from hasamigo.tournament.model import Game, GameKind
from hasamigo.tournament.state import Tournament

POOL = Pool.OTHELLO
NOT_ENTRANT_ACCOUNTS = Exclusion("not_entrant_accounts", N_(
    "Not both players entered with an account: only games between accounts are rated."))
#: a correction made after the round was rated, that the ratings would read differently
RATED_AS_ENTERED = N_("Rated as first entered: the ratings were made when the round "
                      "closed, and each later game started from them; the correction "
                      "changes the standings, not the ratings.")


def game_ref(tournament_id: str, round_number: int, board: int) -> str:
    """The rated game's reference: ``tournament:<id>:<round>:<board>``."""
    return f"tournament:{tournament_id}:{round_number}:{board}"


def exclusion(t: Tournament, g: Game) -> Exclusion | None:
    """Why a finished board is not rated (``None``: it is rated)."""
    if g.kind in (GameKind.BYE, GameKind.NOT_PLAYED_DRAW) or g.result is None \
            or g.white is None:
        return NOT_PLAYED
    result = g.result.result
    if result.forfeit:
        return NOT_PLAYED if result.rated else LATE_FORFEIT
    ruled = result_exclusion(result)
    if ruled is not None:
        return ruled
    black, white = t.entrant(g.black).account_id, t.entrant(g.white).account_id
    if black is None or white is None:
        return NOT_ENTRANT_ACCOUNTS
    if black == white:
        return SAME_PLAYER
    return None


def closed(t: Tournament, round_number: int) -> bool:
    """A round whose results are rated: the next one is paired, or it is the last and
    the tournament is finished."""
    return round_number < t.rounds_paired or (round_number == t.rounds_paired
                                              and t.finished)


@dataclass(frozen=True, slots=True)
class BoardRating:
    """What the ratings made of a board: its changes (empty: not rated), or why not."""

    round: int
    board: int
    excluded: Exclusion | None
    changes: tuple[RatingChange, ...] = ()


def rate_round(store: RatingStore, tournament_id: str, t: Tournament,
               round_number: int) -> list[BoardRating]:
    """Rate a closed round's boards in board order (each game once: a board rated
    already keeps its changes)."""
    if not closed(t, round_number):
        return []
    out = []
    for p in t.pairings.get(round_number, []):
        g = t.game(round_number, p.board)
        if not g.finished:
            continue
        why = exclusion(t, g)
        changes: tuple[RatingChange, ...] = ()
        if why is None and g.result is not None and g.white is not None:
            black, white = t.entrant(g.black), t.entrant(g.white)
            assert black.account_id is not None and white.account_id is not None
            outcome = of_result(POOL, subject_of_account(black.account_id),
                                subject_of_account(white.account_id), g.result.result)
            changes = tuple(store.record(game_ref(tournament_id, round_number, p.board),
                                         outcome))
        out.append(BoardRating(round_number, p.board, why, changes))
    return out


def reads_the_same(t: Tournament, g: Game, changes: list[RatingChange]) -> bool:
    """Whether the ratings read a board as they rated it: the same subjects with the same
    scores (an unrated board: still not rated)."""
    if exclusion(t, g) is not None or g.result is None or g.white is None:
        return not changes
    black, white = t.entrant(g.black), t.entrant(g.white)
    assert black.account_id is not None and white.account_id is not None
    outcome = of_result(POOL, subject_of_account(black.account_id),
                        subject_of_account(white.account_id), g.result.result)
    scored = {c.subject: c.score for c in changes}
    return scored == {s: outcome.score(i) for i, s in enumerate(outcome.subjects)}


__all__ = ["NOT_ENTRANT_ACCOUNTS", "POOL", "RATED_AS_ENTERED", "BoardRating", "closed",
           "exclusion", "game_ref", "rate_round", "reads_the_same"]
