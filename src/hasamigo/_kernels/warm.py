"""Compile or load the kernels a command uses before it times or serves anything.

Numba compiles a kernel at its first call (lazily: a command compiles only what it calls,
and nothing is compiled at import) and caches it on disk (:mod:`.config`), so only the
first run after an install or a kernel edit compiles. That first compile of the engine
takes half a minute of CPU, and it used to land in whatever ran first: the search time
``analyse`` reported, or a program's first move in the web app. The command line and the
web app call :func:`warm` first instead, and say "compiling…" when :func:`on_disk` says
the cache does not hold the kernels yet.

Each group calls its kernels' Python entry points once, on a tiny position, with the
argument types their wrappers pass (``np.uint64`` bitboards, Python ints, the same array
types): every kernel has one signature, and it is the one compiled here (a test checks
that the engine and the programs compile nothing more afterwards).

``python -m hasamigo._kernels.warm GROUP...`` fills the cache in a process of its own:
the web app compiles that way, then loads the kernels in its own process, because a
compile holds the GIL in long stretches and its pages would stall meanwhile.

Like the other wrappers of this package, this module is imported only from
:mod:`hasamigo.board`, :mod:`hasamigo.engine` and their front ends (the command line and
the web app), never by library code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from hasamigo._kernels import (
    endgame,
    hashtable,
    moves,
    search,
    smallboard,
    weighted,
    wide,
    wide_search,
)
from hasamigo._kernels.evaluate import default_params

U64 = np.uint64
# the standard start, and a position with three empty squares (an exact leaf)
_BLACK = U64(0x0000000810000000)
_WHITE = U64(0x0000001008000000)
_FULL = U64(0xFFFFFFFFFFFFFFFF)
_NEAR_END_P = U64(0x1FFFFFFFFFFFFFFF)
_NEAR_END_O = U64(0x0000000000000000)


def _rules() -> None:
    """What :class:`~hasamigo.board.Board` calls: legal moves and flips."""
    moves.legal_moves_mask(_BLACK, _WHITE, _FULL)
    moves.flips_at(_BLACK, _WHITE, 37)


def _perft() -> None:
    moves.perft(_BLACK, _WHITE, _FULL, 1)


def _engine() -> None:
    """What :class:`~hasamigo.engine.Engine` calls (:mod:`hasamigo.engine.core`)."""
    table = hashtable.hash_new(16)
    params = default_params()  # int16, like the trained parameters
    stop = np.zeros(1, dtype=np.int64)
    ctl = np.zeros(search.CTL_SIZE, dtype=np.int64)
    moves.legal_moves_mask(_BLACK, _WHITE, _FULL)
    search.child_position(_BLACK, _WHITE, 37)
    search.search(_BLACK, _WHITE, _FULL, 1, -64, 64, table, 1, params, stop, ctl,
                  search.ALL_FLAGS)
    search.evaluate_entry(_BLACK, _WHITE, _FULL, params)
    hashtable.hash_move(table, _BLACK, _WHITE)
    endgame.solve_small_entry(_NEAR_END_P, _NEAR_END_O, _FULL, -64, 64)


def _players() -> None:
    """What the paper's programs call (:mod:`hasamigo.engine.players.paper`)."""
    weights = np.zeros(64, dtype=np.int64)
    weighted.search(_BLACK, _WHITE, _FULL, 1, weights, 1, weighted.MODE_MOBILITY)
    weighted.evaluate_entry(_BLACK, _WHITE, _FULL, weights, 1, weighted.MODE_MOBILITY)


def _smallboard() -> None:
    """What :mod:`hasamigo.engine.smallboard` calls (``solve-board``)."""
    table = smallboard.table_new(16)
    stop = np.zeros(1, dtype=np.int64)
    ctl = np.zeros(smallboard.CTL_SIZE, dtype=np.int64)
    weights = np.zeros(64, dtype=np.int64)
    moves.legal_moves_mask(_BLACK, _WHITE, _FULL)
    search.child_position(_BLACK, _WHITE, 37)
    smallboard.solve(_NEAR_END_P, _NEAR_END_O, _FULL, _FULL, weights, -64, 64, table, stop, ctl)
    smallboard.table_probe(table, _BLACK, _WHITE)


def _wide() -> None:
    """What the engine and :class:`~hasamigo.board.Board` call on the 10-column grid
    (Grand Othello and its shapes)."""
    full = (1 << 100) - 1
    pl, ph = wide.split((1 << 45) | (1 << 54))  # the 10×10 cross: f5, e6 ...
    ol, oh = wide.split((1 << 44) | (1 << 55))  # ... and e5, f6
    ml, mh = wide.split(full)
    wide.legal_moves_mask(pl, ph, ol, oh, ml, mh)
    wide.flips_at(pl, ph, ol, oh, 46)
    keys, vals = wide_search.table_new(16)
    geo = wide_search.geometry(full)
    params = default_params()
    stop = np.zeros(1, dtype=np.int64)
    ctl = np.zeros(wide_search.CTL_SIZE, dtype=np.int64)
    wide_search.search(pl, ph, ol, oh, geo, 1, -100, 100, keys, vals, 1, params, stop, ctl,
                       wide_search.ALL_FLAGS)
    wide_search.evaluate_entry(pl, ph, ol, oh, geo, params)
    wide_search.table_move(keys, vals, pl, ph, ol, oh)


#: group name -> (the kernels it compiles, the calls that compile them)
GROUPS: dict[str, tuple[tuple[object, ...], Callable[[], None]]] = {
    "rules": ((moves.legal_moves_mask, moves.flips_at), _rules),
    "perft": ((moves.perft,), _perft),
    "engine": ((moves.legal_moves_mask, search.child_position, search.search,
                search.evaluate_entry, hashtable.hash_move, endgame.solve_small_entry),
               _engine),
    "players": ((weighted.search, weighted.evaluate_entry), _players),
    "wide": ((wide.legal_moves_mask, wide.flips_at, wide_search.search,
              wide_search.evaluate_entry, wide_search.table_move), _wide),
    "smallboard": ((moves.legal_moves_mask, search.child_position, smallboard.solve,
                    smallboard.table_probe), _smallboard),
}


def kernels(*groups: str) -> list[object]:
    """The kernels (numba dispatchers) of ``groups``."""
    return [k for g in groups for k in GROUPS[g][0]]


def on_disk(*groups: str) -> bool:
    """Whether numba's cache holds every kernel of ``groups`` (else :func:`warm` compiles).

    Reads numba's index paths (not public API); when they cannot be read, says False:
    at worst a progress line says "compiling" for the second it takes to load."""
    for kernel in kernels(*groups):
        if getattr(kernel, "overloads", None):
            continue  # already in this process
        cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
        index = getattr(cache_file, "_index_path", None)
        if not isinstance(index, str):
            return False
        try:
            with open(index, "rb"):
                pass
        except OSError:
            return False
    return True


def warm(*groups: str) -> None:
    """Compile (first run) or load every kernel of ``groups``."""
    for group in groups:
        GROUPS[group][1]()


def main(argv: list[str]) -> int:
    unknown = [g for g in argv if g not in GROUPS]
    if unknown:
        print(f"unknown group(s) {', '.join(unknown)}; known: {', '.join(GROUPS)}",
              file=sys.stderr)
        return 2
    warm(*(argv or list(GROUPS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
