"""Players: one interface (:class:`Player`) for simple players, the amusement paper's two
programs, our entertainer, the strong engine's levels and a mode that tries to lose.

Specs for :func:`make_player`: ``random``, ``greedy``, ``victory``, ``amusement``,
``amusement:swing`` (the paper's future work: the surprise move where the evaluation
swings sharply), ``entertainer``, ``engine:N`` (N = 1 .. MAX_LEVEL, or ``engine:top``), ``weakest``;
and external engines, ``nboard:COMMAND`` and ``gtp:COMMAND`` (a program that speaks the
NBoard protocol or GTP, started at the first move: :mod:`hasamigo.engine.protocols.external`;
the command keeps its case and is split as a shell would, without a shell).

``choose(board, clock)`` takes the game's clock (the player's own copy): on it every
program manages its time by the one rule of :mod:`hasamigo.engine.timing` and never moves
after its flag fell; without one (``None``) each plays exactly as it always has.

>>> from hasamigo import Board
>>> player = make_player("victory", seed=7)
>>> board = Board()
>>> move = player.choose(board)
>>> board.is_legal(move), player.last_kind
(True, 'normal')
>>> try:
...     make_player("nobody")
... except ValueError as exc:
...     print(exc)
unknown player 'nobody'; known: random, greedy, victory, amusement, amusement:swing,
entertainer, engine:N (N = 1..10), engine:top, weakest, nboard:COMMAND, gtp:COMMAND
"""

from __future__ import annotations

from typing import Any

from hasamigo.board import Board
from hasamigo.engine import MAX_LEVEL
from hasamigo.engine.players.base import (
    EXPECTATION,
    FORCED,
    GIFT,
    GIFT_KINDS,
    NORMAL,
    SURPRISE,
    Choice,
    Kernels,
    Player,
    move_number,
)
from hasamigo.engine.players.entertainer import EntertainerPlayer
from hasamigo.engine.players.naturalness import Violation, move_losses, violations
from hasamigo.engine.players.paper import (
    SWING,
    AmusementPlayer,
    VictoryPlayer,
    phase,
)
from hasamigo.engine.players.simple import GreedyPlayer, RandomPlayer
from hasamigo.engine.players.strong import EnginePlayer, WeakestPlayer
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.squares import ASCII_DIGITS

#: The named programs: class and options.
_KINDS: dict[str, tuple[type[Player], dict[str, Any]]] = {
    "random": (RandomPlayer, {}),
    "greedy": (GreedyPlayer, {}),
    "victory": (VictoryPlayer, {}),
    "amusement": (AmusementPlayer, {}),
    "amusement:swing": (AmusementPlayer, {"surprise": SWING}),
    "entertainer": (EntertainerPlayer, {}),
    "weakest": (WeakestPlayer, {}),
}
KNOWN_SPECS = ("random", "greedy", "victory", "amusement", "amusement:swing", "entertainer",
               f"engine:N (N = 1..{MAX_LEVEL})", "engine:top", "weakest", "nboard:COMMAND",
               "gtp:COMMAND")
#: the spec prefixes of external engines
EXTERNAL_PREFIXES = ("nboard", "gtp")


def plays_every_grid(spec: str) -> bool:
    """Whether the program ``spec`` plays boards beyond the 8×8 grid (Grand Othello and
    its shapes), told without starting it (see :attr:`Player.every_grid`).

    >>> plays_every_grid("greedy"), plays_every_grid("engine:5"), plays_every_grid("victory")
    (True, True, False)
    """
    text = spec.strip().lower()
    if text.startswith("engine:"):
        number = text.removeprefix("engine:")
        return number == "top" or (number.isascii() and number.isdigit()
                                   and 1 <= int(number) <= MAX_LEVEL
                                   and EnginePlayer.every_grid)
    kind = _KINDS.get(text)
    return kind is not None and kind[0].every_grid


def plays_every_rule(spec: str) -> bool:
    """Whether the program ``spec`` plays the rules the search kernels do not know
    (:meth:`Board.rules_beyond_kernels`: Nip's, the circular board's ring, 挟み碁's flip
    rules), told without starting it (see :attr:`Player.every_rule`): the players of the
    Board API and the engine (which then searches through it).

    >>> plays_every_rule("random"), plays_every_rule("engine:5"), plays_every_rule("victory")
    (True, True, False)
    """
    text = spec.strip().lower()
    if text.startswith("engine:"):
        return EnginePlayer.every_rule
    kind = _KINDS.get(text)
    return kind is not None and kind[0].every_rule


def program_kernels(spec: str, variant: type[Board]) -> tuple[frozenset[str], frozenset[str]]:
    """``(needed, better)``: the compiled kernel groups (:data:`hasamigo._kernels.warm.GROUPS`)
    the program ``spec`` needs to move on ``variant``, the board's own included, and
    those it plays better with once they are loaded, told without starting it (see
    :attr:`Player.kernels`). An external engine (a process of its own) and an unknown
    spec need only the board's.

    >>> from hasamigo import Board
    >>> [sorted(groups) for groups in program_kernels("weakest", Board)]
    [['players', 'rules'], ['engine']]
    >>> sorted(program_kernels("engine:5", Board)[0]), sorted(program_kernels("random", Board)[0])
    (['engine', 'rules'], ['rules'])
    """
    text = spec.strip().lower()
    if text.startswith("engine:"):
        number = text.removeprefix("engine:")
        digits = 1 <= len(number) <= 2 and all(ch in ASCII_DIGITS for ch in number)
        level = MAX_LEVEL if number == "top" else int(number) if digits else None
        return EnginePlayer.kernel_groups(variant, level)
    kind = _KINDS.get(text)
    if kind is None:
        return Player.kernel_groups(variant)
    return kind[0].kernel_groups(variant)


def external_spec(spec: str) -> tuple[str, str] | None:
    """``(protocol, command)`` of an external engine's spec, the command as written;
    ``None`` for any other spec.

    >>> external_spec("NBoard:/opt/Edax/edax -q"), external_spec("engine:4")
    (('nboard', '/opt/Edax/edax -q'), None)
    """
    kind, colon, command = spec.strip().partition(":")
    if colon and kind.strip().lower() in EXTERNAL_PREFIXES:
        return kind.strip().lower(), command.strip()
    return None


def make_player(spec: str, *, seed: int | None = None) -> Player:
    """The player named by ``spec`` (see the module docstring), seeded for reproducibility;
    :class:`~hasamigo.errors.InvalidOptionError` listing the known specs otherwise."""
    external = external_spec(spec)
    if external is not None:
        from hasamigo.engine.protocols.external import external_player

        return external_player(*external, seed=seed)
    text = spec.strip().lower()
    kind = _KINDS.get(text)
    if kind is not None:
        cls, options = kind
        return cls(seed=seed, **options)
    if text.startswith("engine:"):
        number = text.partition(":")[2]
        if number == "top":
            return EnginePlayer(MAX_LEVEL, seed=seed)
        # ASCII digits, at most two: str.isdigit() would take '٣' and 5,000-digit text.
        if (1 <= len(number) <= 2 and all(ch in ASCII_DIGITS for ch in number)
                and 1 <= int(number) <= MAX_LEVEL):
            return EnginePlayer(int(number), seed=seed)
    raise InvalidOptionError(f"unknown player {shown(spec)}; known: {', '.join(KNOWN_SPECS)}")


__all__ = [
    "EXPECTATION",
    "EXTERNAL_PREFIXES",
    "FORCED",
    "GIFT",
    "GIFT_KINDS",
    "KNOWN_SPECS",
    "NORMAL",
    "SURPRISE",
    "AmusementPlayer",
    "Choice",
    "EnginePlayer",
    "EntertainerPlayer",
    "GreedyPlayer",
    "Kernels",
    "Player",
    "RandomPlayer",
    "VictoryPlayer",
    "Violation",
    "WeakestPlayer",
    "external_spec",
    "make_player",
    "move_losses",
    "move_number",
    "phase",
    "plays_every_grid",
    "plays_every_rule",
    "program_kernels",
    "violations",
]
