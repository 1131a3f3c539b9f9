"""Programs as players: the registry of the engine package, behind one small protocol.

External engines play only when the settings file (:mod:`hasamigo.engine.protocols.config`)
lists them: a game names one as ``external:KEY`` (its key in the file, so the stored game
holds no command line), and an ``nboard:``/``gtp:`` spec starts only if the file has it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hasamigo.board import Board
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.game.clock import Clock
from hasamigo.move import Move


class Player(Protocol):
    def choose(self, board: Board, clock: Clock | None = None) -> Move: ...


PlayerFactory = Callable[[str, int], Player]

#: the program spec of an external engine of the settings file: this, then its key
EXTERNAL = "external:"

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
    """Players from :func:`hasamigo.engine.players.make_player`; an external engine's
    only when the settings file lists its spec."""
    from hasamigo.engine.players import external_spec, make_player
    from hasamigo.engine.protocols.config import configured_engines, find_engine

    if spec.startswith(EXTERNAL) or external_spec(spec) is not None:
        engines = configured_engines()
        engine = (find_engine(engines, key=spec[len(EXTERNAL):]) if spec.startswith(EXTERNAL)
                  else find_engine(engines, spec=spec))
        if engine is None:
            raise InvalidOptionError(f"the external engine {shown(spec)} is not in the "
                                     "server's settings file")
        external: Player = engine.player(seed)
        return external

    player: Player = make_player(spec, seed=seed)
    return player
