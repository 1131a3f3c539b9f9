"""Errors of the game procedure: a request the rules refuse, a stored game that can't be
replayed. Both are :class:`~hasamigo.errors.HasamigoError`\\ s with a stable ``code``."""

from __future__ import annotations

from hasamigo.errors import HasamigoError

#: The codes a :class:`GameError` carries, with what each means.
GAME_ERROR_CODES = {
    "bad_request": "the request is malformed or out of range",
    "colours": "a colour-decision step out of order, by the wrong player, or a bad value",
    "wrong_phase": "the game is not in a phase that allows this",
    "game_over": "the game is over",
    "time_up": "the time for this has run out",
    "program_to_move": "it is a program's turn",
    "not_your_turn": "it is the other side's turn",
    "undo_not_allowed": "no take-backs in an official game",
    "nothing_to_undo": "there is no move to take back",
    "no_undo_request": "there is no take-back request to answer",
    "no_flag": "there is no fallen flag to claim",
    "stale": "the position changed since the request was made",
    "suspended": "the game's clock is suspended (the server is restarting)",
    "not_in_game": "the colour or participant is not one of this game's",
    "program_waiting": "a program cannot move yet (its kernels are being prepared): an "
                       "official game begins once it can",
}


class GameError(HasamigoError):
    """A request the procedure refuses; ``code`` is one of :data:`GAME_ERROR_CODES`."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


class StoredGameError(HasamigoError):
    """A stored game that cannot be replayed: damaged, hand-edited, or from an unknown
    version. Names the game and the event (numbered from 1) where replay stopped."""

    code = "stored_game"

    def __init__(self, message: str, *, game: str | None = None, event: int | None = None
                 ) -> None:
        self.detail = message
        self.game = game
        self.event = event
        where = []
        if game is not None:
            where.append(f"game {game}")
        if event is not None:
            where.append(f"event {event}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


__all__ = ["GAME_ERROR_CODES", "GameError", "StoredGameError"]
