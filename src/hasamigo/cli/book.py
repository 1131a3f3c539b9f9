"""The opening book: ``book build`` (from game archives, valued by search), ``book deepen``
(expand it along the lines it recommends, or search its leaves deeper), ``book show``
(a position's book moves) and ``book stats``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from hasamigo.cli import JsonOpt, app, console, emit_json, fail, ready_kernels
from hasamigo.cli.core import fail_with, parse_position
from hasamigo.cli.helptext import Typer
from hasamigo.cli.inputs import input_file, input_files, nothing_in
from hasamigo.cli.match import _progress
from hasamigo.cli.workers import (
    CoresOpt,
    JobsOpt,
    RayAddressOpt,
    RayOpt,
    backend_for,
    workers_of,
)
from hasamigo.errors import HasamigoError

book_app = Typer(help="The opening book: build it from game archives, deepen it, "
                            "look positions up.", no_args_is_help=True)
app.add_typer(book_app, name="book")

BookOpt = Annotated[Path | None, typer.Option(
    "--book", dir_okay=False, help="Book file (default: the book shipped with hasamigo).")]
DepthOpt = Annotated[int, typer.Option(min=1, max=30, help="Plies of search for each leaf.")]


def _load(path: Path | None) -> Any:
    from hasamigo.engine.book import Book, default_book

    try:
        if path is None:
            book = default_book()
        else:
            with input_file(path) as file:  # a pipe read once, like a file
                book = Book.load(file)
    except (HasamigoError, OSError) as exc:
        raise fail_with(exc) from None
    if book is None:
        raise fail("this installation has no book: build one with `hasamigo book build`")
    return book


def _search(book: Any, depth: int, workers: int, ray: bool, ray_address: str | None,
            out: Path, as_json: bool, rounds: int = 0) -> Any:
    from hasamigo.engine.book import expand, search_leaves
    from hasamigo.jobs import JobError
    from hasamigo.jobs.book import leaf_searcher

    ready_kernels("rules", "engine")
    backend = backend_for(workers, ray, ray_address)
    progress = _progress(not as_json)
    try:
        with progress:
            task = progress.add_task("searching the leaves", total=None)

            def step(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            search = leaf_searcher(backend)
            if rounds:
                return expand(book, depth, rounds=rounds, search=search, progress=step,
                              save_to=out)
            search_leaves(book, depth, search=search, progress=step, save_to=out)
            return book
    except JobError as exc:  # a leaf whose workers kept dying
        raise fail(f"{exc} (the book so far is saved in {out}: `book deepen` goes on)",
                   code=1) from None
    finally:
        backend.close()


@book_app.command("build")
def book_build(
    archives: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False,
                                                   help="Game archives (WTHOR .wtb).")],
    out: Annotated[Path, typer.Option(dir_okay=False, help="Book file to write (.npz).")
                   ] = Path("book.npz"),
    plies: Annotated[int, typer.Option(min=1, max=60, help="Moves of each game read.")] = 20,
    min_games: Annotated[int, typer.Option(min=1, help="Keep positions that at least this "
                                                       "many games reached.")] = 8,
    depth: DepthOpt = 10,
    rounds: Annotated[int, typer.Option(min=0, help="Deepening rounds after the first "
                                                    "valuation (see `book deepen`).")] = 0,
    workers: CoresOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Build a book from game archives: the positions of their openings, each leaf valued
    by a search of DEPTH plies, the values carried up by negamax.

    The leaves are shared out through the jobs runner (local processes, one per core
    unless --workers says, or Ray actors). The book is saved as it is searched; if the
    build stops, `book deepen OUT --depth DEPTH` resumes it. JSON: the shape of `book
    stats`.
    """
    from hasamigo.engine.book import tree_from_records
    from hasamigo.engine.training import read_archives

    count = workers_of(workers, jobs)

    try:
        with input_files(archives) as files:  # pipes read once, like files
            book, games = tree_from_records(read_archives(files), plies=plies,
                                            min_games=min_games)
    except (HasamigoError, OSError) as exc:
        raise fail_with(exc) from None
    if not games:
        raise nothing_in(archives, "game")
    if not len(book):
        raise fail(f"no position was reached by {min_games} of the {games} standard-start "
                   "games read: lower --min-games or give more archives")
    book.source = f"hasamigo book build: {book.source}, leaves at depth {depth}"
    book.save(out)
    book = _search(book, depth, count, ray, ray_address, out, as_json, rounds)
    _print_stats(book, out, as_json)


@book_app.command("deepen")
def book_deepen(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Book file.")],
    depth: DepthOpt = 10,
    rounds: Annotated[int, typer.Option(min=0, help="Rounds of expansion: each adds the "
                                                    "positions of leaves that are their "
                                                    "position's best move.")] = 1,
    workers: CoresOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Deepen a book in place: search the leaves not yet searched to DEPTH plies (this
    also resumes a stopped build), then expand it ROUNDS times along its best lines, the
    leaves shared out as for `book build`."""
    count = workers_of(workers, jobs)
    if not path.is_file():
        raise fail(f"{path}: the book is deepened in place: give a file, not a pipe")
    book = _load(path)
    book = _search(book, depth, count, ray, ray_address, path, as_json, rounds)
    _print_stats(book, path, as_json)


@book_app.command("show")
def book_show(
    position: Annotated[str, typer.Argument(help="A transcript from the start (f5d6c3) or a "
                                                 "board string (64 cells + side).")] = "",
    book_path: BookOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The book's moves at a position, best first, with their values (discs for the side
    to move), the games that played them and the opening's name.

    JSON: {position, in_book, value, opening: {en, ja} | null, moves: [{move, value,
    games, in_book, depth}]}.
    """
    from hasamigo.board import Board
    from hasamigo.game.openings import opening_name

    try:
        board = parse_position(position, Board) if position.strip() else Board()
    except HasamigoError as exc:
        raise fail_with(exc) from None
    book = _load(book_path)
    moves = book.moves(board)
    name = opening_name([board.move_name(m) for m in board.move_stack]) if board.move_stack \
        else None
    value = book.value_of(board)
    if as_json:
        emit_json({"position": board.to_string(), "in_book": value is not None,
                   "value": value,
                   "opening": None if name is None else {"en": name.en, "ja": name.ja},
                   "moves": [{"move": board.move_name(m.move), "value": m.value,
                              "games": m.games, "in_book": m.in_book, "depth": m.depth}
                             for m in moves]})
        return
    if name is not None:
        console.print(f"opening: {name.en or ''} {name.ja or ''}".rstrip(), highlight=False)
    if not moves:
        console.print("not in the book", highlight=False)
        return
    table = Table("move", "value", "games", "from", caption=f"book value {value:+d} "
                  "(discs, side to move)")
    for m in moves:
        table.add_row(board.move_name(m.move), f"{m.value:+d}", f"{m.games:,}",
                      "book" if m.in_book else f"search, depth {m.depth}")
    console.print(table)


@book_app.command("stats")
def book_stats(book_path: BookOpt = None, as_json: JsonOpt = False) -> None:
    """What a book holds: positions, leaves and their search depths, positions by move.

    JSON: {file, positions, leaves, unsearched, depths: {depth: leaves}, by_move:
    {move: positions}, games_at_start, start_value, source}.
    """
    _print_stats(_load(book_path), book_path, as_json)


def _print_stats(book: Any, path: Path | None, as_json: bool) -> None:
    s = book.stats()
    by_move = {d - 4: n for d, n in s.by_discs.items()}
    data = {"file": str(path) if path is not None else "(shipped)", "positions": s.positions,
            "leaves": s.leaves, "unsearched": s.unsearched,
            "depths": {str(k): v for k, v in s.depths.items()},
            "by_move": {str(k): v for k, v in by_move.items()},
            "games_at_start": s.games_at_start, "start_value": s.start_value,
            "source": s.source}
    if as_json:
        emit_json(data)
        return
    console.print(f"{data['file']}: {s.positions:,} positions from {s.games_at_start:,} games, "
                  f"{s.leaves:,} leaves ({s.unsearched:,} not searched yet)", highlight=False)
    console.print(f"value of the start: {s.start_value:+d}" if s.start_value is not None
                  else "the start position is not in the book", highlight=False)
    console.print("leaves by search depth: " + ", ".join(
        f"{d}: {n:,}" for d, n in s.depths.items()), highlight=False)
    console.print("positions by move number: " + ", ".join(
        f"{m}: {n:,}" for m, n in by_move.items()), highlight=False)
    console.print(s.source, highlight=False, markup=False)
