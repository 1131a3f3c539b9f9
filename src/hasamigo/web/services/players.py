"""Programs as players: the registry of the engine package, behind one small protocol."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hasamigo.board import Board
from hasamigo.game.clock import Clock
from hasamigo.move import Move


class Player(Protocol):
    def choose(self, board: Board, clock: Clock | None = None) -> Move: ...


PlayerFactory = Callable[[str, int], Player]

#: what the new-game form offers, with names for people (English, Japanese)
PROGRAMS: dict[str, tuple[str, str]] = {
    "victory": ("Victory", "勝利志向"),
    "amusement": ("Amusement", "娯楽志向"),
    "entertainer": ("Entertainer", "エンターテイナー"),
    "engine": ("Engine", "エンジン"),
    "weakest": ("Weakest", "最弱"),
    "random": ("Random", "ランダム"),
}


def program_name(spec: str) -> str:
    kind, _, level = spec.partition(":")
    en, ja = PROGRAMS.get(kind, (kind, kind))
    if level:
        return f"{en} Lv{level} {ja}"
    return f"{en} {ja}"


def registry_factory(spec: str, seed: int) -> Player:
    """Players from :func:`hasamigo.engine.players.make_player`."""
    from hasamigo.engine.players import make_player

    player: Player = make_player(spec, seed=seed)
    return player
