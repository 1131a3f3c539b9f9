"""The result card a finished game gives for a tournament's board.

A game over the board (or one programs played) ends with a
:class:`~hasamigo.game.result.GameResult`; a board's result is entered as a card
(:meth:`Tournament.make_result <hasamigo.tournament.state.Tournament.make_result>`'s
fields). :func:`card_of_game` reads one into the other, checking the game is the board's.
"""

from __future__ import annotations

from typing import Any

from hasamigo.game.controller import GameController
from hasamigo.game.result import Termination
from hasamigo.move import BLACK, WHITE
from hasamigo.tournament.model import Colours, PairingKind, TournamentError
from hasamigo.tournament.state import Tournament


def card_of_game(t: Tournament, round_number: int, board: int, game: GameController
                 ) -> dict[str, Any]:
    """The result card a finished game gives for a board (see
    :meth:`Tournament.make_result`): who played Black (fuse-ishi), the counts or the
    forfeit, the draw-win holder, and whether it is rated. The game's two players must be
    the board's entrants (by name), with the prescribed colours unless fuse-ishi decided."""
    result = game.result
    if result is None:
        raise TournamentError(f"game {game.id} is not finished")
    p = t.pairing(round_number, board)
    if p.kind is not PairingKind.GAME or p.b is None:
        raise TournamentError(f"round {round_number} board {board} is not a game")
    names = {colour: game.seat(colour).name for colour in (BLACK, WHITE)}
    try:
        black, white = (t.find(names[c]).number for c in (BLACK, WHITE))
    except TournamentError:
        black = white = -1
    if {black, white} != {p.a, p.b}:
        raise TournamentError(
            f"game {game.id} is {names[BLACK]} v {names[WHITE]}; round {round_number} "
            f"board {board} is {t.name(p.a)} v {t.name(p.b)}")
    card: dict[str, Any] = {}
    if p.colours is Colours.FUSE_ISHI:
        card["black"] = black
    elif black != p.a:
        raise TournamentError(f"colours are prescribed: {t.name(p.a)} plays Black, but "
                              f"game {game.id} has {names[BLACK]} as Black")
    if result.termination is Termination.FORFEIT:
        card["forfeit_loser"] = white if result.winner is BLACK else black
        card["late"] = not result.rated
    elif result.termination is Termination.PENALTY:
        card["penalty_loser"] = white if result.winner is BLACK else black
        card["reason"] = "; ".join(p.reason for p in game.over_board.penalties if p.loss) \
            or "loss by penalty (反則負け)"
    else:
        card["black_discs"], card["white_discs"] = result.black, result.white
        card["rated"] = result.rated
        card["termination"] = result.termination
    if p.draws_allowed and result.by_draw_win:
        raise TournamentError(f"game {game.id} was played without draws (won on the "
                              f"draw-win right); round {round_number} board {board} "
                              "allows draws")
    if not p.draws_allowed:
        holder = game.draw_win
        if holder is None:
            raise TournamentError(f"round {round_number} board {board} allows no draws, "
                                  f"but game {game.id} was played without a draw-win right")
        card["draw_win"] = black if holder is BLACK else white
    return card


__all__ = ["card_of_game"]
