"""Compile or load the kernels a command uses before it times or serves anything.

Numba compiles a kernel at its first call (lazily: a command compiles only what it calls,
and nothing is compiled at import) and caches it on disk (:mod:`.config`), so only the
first run after an install or a kernel edit compiles. That first compile of the engine
takes about 45 s of CPU (:data:`EXPECTED_CPU`), and it used to land in whatever ran first:
the search time ``analyse`` reported, or a program's first move in the web app. The
command line and the web app call :func:`warm` first instead, and say "compiling…" when
:func:`on_disk` says the cache does not hold the kernels yet.

Each group calls its kernels' Python entry points once, on a tiny position, with the
argument types their wrappers pass (``np.uint64`` bitboards, Python ints, the same array
types): every kernel has one signature, and it is the one compiled here (a test checks
that the engine and the programs compile nothing more afterwards).

``python -m hasamigo._kernels.warm GROUP...`` fills the cache in a process of its own:
the web app compiles that way, then loads the kernels in its own process, because a
compile holds the GIL in long stretches and its pages would stall meanwhile. With
``--progress`` it says how it goes, one JSON object a line on stdout (:func:`progress`):
the web app loads each group as soon as its line says it is done, so a program that
needs only the first groups plays while the engine still compiles, and its progress bar
estimates the time left from :data:`EXPECTED_CPU`.

Like the other wrappers of this package, this module is imported only from
:mod:`hasamigo.board`, :mod:`hasamigo.engine` and their front ends (the command line and
the web app), never by library code.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hasamigo._kernels import (
    hashtable,
    moves,
    search,
    smallboard,
    split,
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
    # the nodes the search on several threads plays in Python (hasamigo.engine.parallel)
    split.node_probe(table, _BLACK, _WHITE)
    split.node_store(table, _BLACK, _WHITE, 4, 7, 1, -64, 64, 0, 19)
    split.node_order(_BLACK, _WHITE, _FULL, 4, -1, table, params, search.ALL_FLAGS,
                     np.empty(split.ORDER_OUT, dtype=np.int64),
                     np.empty(split.ORDER_SCRATCH, dtype=np.uint64))
    split.exact_cut_score(_BLACK, _WHITE, _FULL, 1, params)
    split.midgame_cut(1, 60, 6)


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


def _wide_rules() -> tuple[Any, Any, Any, Any, int]:
    """What :class:`~hasamigo.board.Board` calls on the 10-column grid (Grand Othello and
    its shapes): legal moves and flips. Returns the position, for :func:`_wide`."""
    full = (1 << 100) - 1
    pl, ph = wide.split((1 << 45) | (1 << 54))  # the 10×10 cross: f5, e6 ...
    ol, oh = wide.split((1 << 44) | (1 << 55))  # ... and e5, f6
    ml, mh = wide.split(full)
    wide.legal_moves_mask(pl, ph, ol, oh, ml, mh)
    wide.flips_at(pl, ph, ol, oh, 46)
    return pl, ph, ol, oh, full


def _wide_board() -> None:
    _wide_rules()


def _wide() -> None:
    """What the engine and :class:`~hasamigo.board.Board` call on the 10-column grid."""
    pl, ph, ol, oh, full = _wide_rules()
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
                search.evaluate_entry, hashtable.hash_move, split.node_probe,
                split.node_store, split.node_order, split.exact_cut_score, split.midgame_cut),
               _engine),
    "players": ((weighted.search, weighted.evaluate_entry), _players),
    "wide": ((wide.legal_moves_mask, wide.flips_at, wide_search.search,
              wide_search.evaluate_entry, wide_search.table_move), _wide),
    "wide-rules": ((wide.legal_moves_mask, wide.flips_at), _wide_board),
    "smallboard": ((moves.legal_moves_mask, search.child_position, smallboard.solve,
                    smallboard.table_probe), _smallboard),
}


#: The expected CPU seconds of each group's cold compile (an empty cache) on a quiet
#: 2-core machine, for the estimate of the time left (the web app scales them by the speed
#: it sees in the run: a busy machine compiles slower). From ``benchmarks/compile_time.py
#: --commands '' --kernels rules,players,engine,wide-rules,wide,smallboard,perft`` (each
#: group after those before it, as the server compiles them): update them when a
#: kernel's compile time changes. A group compiled after another that
#: shares its kernels costs less (``wide-rules`` after ``wide``: nothing).
EXPECTED_CPU: dict[str, float] = {
    "rules": 1.0,
    "players": 2.0,
    "engine": 46.0,  # 240 before the larger helpers were inlined by LLVM (see config.py)
    "wide": 20.0,
    "wide-rules": 1.8,
    "smallboard": 6.0,  # after the engine, whose solvers it shares
    "perft": 1.6,
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


def loaded(*groups: str) -> bool:
    """Whether every kernel of ``groups`` is compiled or loaded in this process already."""
    return all(getattr(k, "overloads", None) for k in kernels(*groups))


def _name(dispatcher: Any) -> str | None:
    """``module.function`` of one of this package's kernels; ``None`` for numba's own."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    prefix = __package__ + "."
    if not module.startswith(prefix):
        return None
    return f"{module.removeprefix(prefix)}.{getattr(dispatcher, '__qualname__', '?')}"


def progress(groups: list[str], emit: Callable[[dict[str, Any]], None], *,
             tick: float = 1.0) -> None:
    """:func:`warm` ``groups`` in order, telling ``emit`` how it goes (the protocol of
    ``--progress``, one object per event, each with ``cpu``, this process's CPU seconds
    so far):

    * ``{"event": "compiling", "group", "kernel"}`` when a kernel of this package starts
      compiling (``kernel`` is ``module.function``; nested ones too: the endgame solver
      compiles inside the search), ``"compiled"`` with its CPU ``seconds`` when it ends;
    * ``{"event": "done", "group", "seconds"}`` when a group is compiled (or found in the
      cache): it can be loaded from the cache now;
    * ``{"event": "tick"}`` every ``tick`` seconds meanwhile (a compile can take minutes).

    A kernel loaded from the cache tells nothing: numba compiles nothing for it."""
    from numba.core import event as numba_event

    lock = threading.Lock()
    current = {"group": ""}
    started: list[float] = []

    def say(kind: str, **fields: Any) -> None:
        with lock:
            emit({"event": kind, **fields, "cpu": round(time.process_time(), 2)})

    class Listener(numba_event.Listener):  # type: ignore[misc]
        def on_start(self, ev: Any) -> None:
            name = _name(ev.data.get("dispatcher"))
            started.append(time.process_time())
            if name is not None:
                say("compiling", group=current["group"], kernel=name)

        def on_end(self, ev: Any) -> None:
            name = _name(ev.data.get("dispatcher"))
            begun = started.pop() if started else time.process_time()
            if name is not None:
                say("compiled", group=current["group"], kernel=name,
                    seconds=round(time.process_time() - begun, 2))

    stop = threading.Event()

    def ticker() -> None:
        while not stop.wait(tick):
            say("tick")

    thread = threading.Thread(target=ticker, name="warm-progress", daemon=True)
    thread.start()
    try:
        with numba_event.install_listener("numba:compile", Listener()):
            for group in groups:
                current["group"] = group
                begun = time.process_time()
                GROUPS[group][1]()
                say("done", group=group, seconds=round(time.process_time() - begun, 2))
    finally:
        stop.set()
        thread.join()


def _print_line(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    show = "--progress" in argv
    argv = [a for a in argv if a != "--progress"]
    unknown = [g for g in argv if g not in GROUPS]
    if unknown:
        print(f"unknown group(s) {', '.join(unknown)}; known: {', '.join(GROUPS)}",
              file=sys.stderr)
        return 2
    groups = argv or list(GROUPS)
    if show:
        progress(groups, _print_line)
    else:
        warm(*groups)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
