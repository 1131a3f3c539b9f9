"""Programs as players: the engine package's registry (:data:`hasamigo.engine.players.PROGRAMS`)
and its one :class:`~hasamigo.engine.players.Player` type, as the web app offers them.

External engines play only when the settings file (:mod:`hasamigo.engine.protocols.config`)
lists them: a game names one as ``external:KEY`` (its key in the file, so the stored game
holds no command line), and an ``nboard:``/``gtp:`` spec starts only if the file has it."""

from __future__ import annotations

from collections.abc import Callable

from hasamigo.engine.players import PROGRAMS as REGISTRY
from hasamigo.engine.players import Player
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.player_spec import PlayerSpec

PlayerFactory = Callable[[str, int], Player]

#: the program spec of an external engine of the settings file: this, then its key
EXTERNAL = "external:"

#: what the new-game form offers (the registry's offered programs, in its order), with
#: names for people (English, Japanese)
PROGRAMS: dict[str, tuple[str, str]] = {
    program.spec: (program.en, program.ja) for program in REGISTRY.values() if program.offered}


def program_name(spec: str) -> str:
    """A program's name in both languages, as a game stores it: ``Victory 勝利指向``,
    ``Engine Lv5 エンジン`` (an unknown kind is named by itself).

    >>> program_name("victory"), program_name("engine:5"), program_name("greedy")
    ('Victory 勝利指向', 'Engine Lv5 エンジン', 'Greedy 欲張り')
    """
    try:
        read = PlayerSpec.parse(spec)
    except InvalidOptionError:
        return f"{spec} {spec}"
    program = None if read.external else REGISTRY.get(read.name)
    en, ja = (read.name, read.name) if program is None else (program.en, program.ja)
    if read.level is not None and (program is None or program.levels):
        return f"{en} Lv{read.level} {ja}"
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


__all__ = ["EXTERNAL", "PROGRAMS", "Player", "PlayerFactory", "program_name",
           "registry_factory"]
