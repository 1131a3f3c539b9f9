"""Self-play games for training, across workers: :func:`selfplay_job`.

The engine at one level plays itself from openings: by default the XOT list of balanced
8-move openings (:func:`xot_openings`; not shipped: its published copy is GPL-3.0 and
hasamigo is MIT, so it is read from :func:`xot_path`); or the opening book's balanced
lines (:func:`book_openings`); or a file (:func:`openings_from`). The games are those of
a match of the level against itself (:func:`~hasamigo.tournament.match.match_tasks`):
openings in a seeded shuffled order, each played twice with the colours' seeds swapped,
each game's seed a function of the job's seed and its number only; so the games are the
same whatever the workers and however often the job was stopped and resumed.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hasamigo.engine.book import default_book
from hasamigo.engine.limits import MAX_LEVEL
from hasamigo.errors import InvalidOptionError
from hasamigo.jobs.games import play_short_task
from hasamigo.jobs.runner import Backend, Journal, run_job
from hasamigo.move import Move
from hasamigo.notation.record import GameRecord
from hasamigo.player_spec import PlayerSpec
from hasamigo.tournament.match import GameTask, match_tasks, read_openings, warm_up

#: book openings: lines this many moves long by default, to positions the book values
#: within this many discs of even (the shipped book: 212 lines of 8 moves, 652 of 12)
BOOK_PLIES = 8
BOOK_MARGIN = 4
BOOK_MAX_PLIES = 24  # the shipped book's deepest positions
#: a file of the XOT list named by the user
XOT_ENV = "HASAMIGO_XOT"
#: the reference data's copy, beside a checkout of hasamigo (``../shared``)
_CHECKOUT_XOT = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "xot" / (
    "xot-large.txt")


def xot_path() -> Path:
    """Where the XOT list (10,784 balanced 8-move openings by M. Berg, one transcript a
    line, e.g. ``xot-large.txt`` of NBoard's sources) is read from: ``$HASAMIGO_XOT``,
    else ``$XDG_DATA_HOME/hasamigo/xot.txt`` (``~/.local/share``), else the reference
    data beside a checkout. Raises :class:`FileNotFoundError` saying so when none is."""
    named = os.environ.get(XOT_ENV)
    if named:
        return Path(named)
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    for path in (data / "hasamigo" / "xot.txt", _CHECKOUT_XOT):
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"the XOT openings are not shipped with hasamigo (their published list is "
        f"GPL-3.0): put the list at {data / 'hasamigo' / 'xot.txt'} or name it with "
        f"${XOT_ENV}, or give --openings FILE")


def xot_openings() -> list[tuple[Move, ...]]:
    """The XOT list (see :func:`xot_path`)."""
    return read_openings(xot_path())


def book_openings(plies: int = BOOK_PLIES) -> list[tuple[Move, ...]]:
    """The shipped opening book's lines of ``plies`` moves (1..BOOK_MAX_PLIES) to its
    positions valued within :data:`BOOK_MARGIN` discs of even (:meth:`Book.lines`): openings
    the players chose, kept balanced as the XOT list is. Raises
    :class:`~hasamigo.errors.InvalidOptionError` when there are none."""
    if not 1 <= plies <= BOOK_MAX_PLIES:
        raise InvalidOptionError(
            f"book openings are from 1 to {BOOK_MAX_PLIES} moves long, not {plies}")
    book = default_book()
    if book is None:
        raise InvalidOptionError("this installation has no opening book (hasamigo book build)")
    lines = book.lines(plies, margin=BOOK_MARGIN)
    if not lines:
        raise InvalidOptionError(f"the book has no position {plies} moves in within "
                                 f"{BOOK_MARGIN} discs of even")
    return lines


def openings_from(spec: str) -> tuple[list[tuple[Move, ...]], str]:
    """The openings named by ``spec`` and the name the journal keeps: ``xot`` (the XOT
    list), ``book`` or ``book:N`` (the book's balanced lines of 8 or N moves) or a file of
    transcripts, one opening a line."""
    name = spec.strip().lower()
    if name == "xot":
        return xot_openings(), "xot"
    if name == "book" or name.startswith("book:"):
        number = name.partition(":")[2] or str(BOOK_PLIES)
        if not number.isdigit():
            raise InvalidOptionError(f"book openings: 'book' or 'book:N' (N moves), "
                                     f"not {spec!r}")
        return book_openings(int(number)), f"book:{int(number)}"
    path = Path(spec)
    if not path.is_file():
        raise InvalidOptionError(f"openings: 'xot', 'book', 'book:N' or a file of "
                                 f"transcripts; no file {spec!r}")
    return read_openings(path), path.name


def level_spec(level: int) -> PlayerSpec:
    """The player spec of the engine at ``level`` (1 .. MAX_LEVEL)."""
    if not 1 <= level <= MAX_LEVEL:
        raise ValueError(f"level must be from 1 to {MAX_LEVEL}, not {level}")
    return PlayerSpec("engine", level=level)


def selfplay_tasks(level: int, games: int, *, seed: int = 0,
                   openings: Sequence[Sequence[Move]] | None = None) -> dict[str, GameTask]:
    """The games of a self-play job, keyed by their number from 1."""
    spec = level_spec(level)
    return {str(t.index + 1): t
            for t in match_tasks(spec, spec, games, seed=seed, openings=openings)}


def game_records(rows: Sequence[dict[str, Any]], level: int) -> list[GameRecord]:
    """The rows of :func:`~hasamigo.jobs.games.play_short_task` as game records (for
    GGF or WTHOR)."""
    spec = str(level_spec(level))
    return [GameRecord(moves=[Move.from_str(m) for m in row["moves"]], black=spec, white=spec,
                       event=f"hasamigo selfplay game {row['index'] + 1}",
                       recorded_score=row["black_score"])
            for row in rows]


def selfplay_job(level: int, games: int, *, backend: Backend, seed: int = 0,
                 openings: Sequence[Sequence[Move]] | None = None, opening_name: str = "",
                 journal: str | Path | None = None,
                 on_result: Callable[[dict[str, Any]], None] | None = None,
                 on_start: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play ``games`` games of the engine at ``level`` against itself with ``backend``;
    the records in game order. ``journal``: a JSON-lines file of the finished games,
    resumed when it exists; ``opening_name`` names the openings in it (a resumed job must
    use the same). ``on_result``/``on_start``: as :func:`~hasamigo.jobs.runner.run_job`'s,
    with the rows."""
    tasks = selfplay_tasks(level, games, seed=seed, openings=openings)
    book = None if journal is None else Journal(journal, {
        "job": "selfplay", "level": level, "seed": seed, "openings": opening_name})
    rows = run_job(tasks, play_short_task, backend=backend,
                   setup=functools.partial(warm_up, level_spec(level)), journal=book,
                   on_result=None if on_result is None else lambda _key, row: on_result(row),
                   on_start=on_start)
    return game_records(list(rows.values()), level)
