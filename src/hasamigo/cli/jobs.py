"""Long jobs on several workers, local processes or a Ray cluster: ``selfplay`` (the
options it shares with ``solve``, ``match``, ``tournament run`` and ``train-eval`` are in
:mod:`hasamigo.cli.workers`)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from hasamigo.cli import JsonOpt, app, console, emit_json, fail
from hasamigo.cli.core import fail_with
from hasamigo.cli.match import SeedOpt, _progress
from hasamigo.cli.workers import (
    RayAddressOpt,
    RayOpt,
    WorkersOpt,
    backend_for,
    backend_kind,
    journal_of,
)
from hasamigo.errors import HasamigoError
from hasamigo.move import BLACK, WHITE


@app.command()
def selfplay(
    level: Annotated[int, typer.Option("--level", "-l", min=1, max=60,
                                       help="The engine's level (as engine:N).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")],
    out: Annotated[Path, typer.Option("--out", dir_okay=False,
                                      help="Where the games go: .ggf, .wtb or .txt.")],
    openings: Annotated[str, typer.Option(
        "--openings", help="'xot' (the 10,784 XOT openings, read from $HASAMIGO_XOT, else "
        "xot.txt in the hasamigo directory of $XDG_DATA_HOME or ~/.local/share; not "
        "shipped), 'book' or 'book:N' (the opening book's lines of 8 or N moves, 1-24, to "
        "positions within 4 discs of even: 212 of 8 moves, 652 of 12) or a file of "
        "transcripts, one opening per line; each is played twice.")] = "xot",
    seed: SeedOpt = 0,
    workers: WorkersOpt = 1,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Self-play games of the engine at one level, for training: written to --out.

    Each finished game is also appended to OUT.jsonl, the job's journal: run the same
    command again and a stopped job goes on where it stopped (a larger --games adds games;
    remove the journal to start afresh). The games depend only on the level, the
    openings, the seed and their number, not on the workers. JSON: {games, level, seed,
    openings, workers, backend, resumed, black_wins, draws, white_wins, seconds, out}.
    """
    from hasamigo.engine.limits import MAX_LEVEL
    from hasamigo.jobs import JobError, JournalError
    from hasamigo.jobs.selfplay import level_spec, openings_from, selfplay_job
    from hasamigo.notation import detect_format, write_games

    if level > MAX_LEVEL:
        raise fail(f"--level must be from 1 to {MAX_LEVEL}, not {level}")
    try:
        if detect_format(out) == "obf":
            raise fail("--out must be a game file (.ggf, .wtb or .txt), not .obf")
        book, name = openings_from(openings)
    except (HasamigoError, ValueError, OSError) as exc:
        raise fail_with(exc) from None

    from hasamigo.cli import ready_kernels

    ready_kernels("rules", "engine")  # compiled once here; the workers load it
    backend = backend_for(workers, ray, ray_address)
    resumed = 0
    progress = _progress(not as_json)
    start = time.perf_counter()
    try:
        with progress:
            task = progress.add_task(f"{level_spec(level)} self-play", total=games)

            def begin(done: int) -> None:
                nonlocal resumed
                resumed = done
                progress.update(task, completed=done)

            records = selfplay_job(level, games, backend=backend, seed=seed, openings=book,
                                   opening_name=name, journal=journal_of(out),
                                   on_start=begin,
                                   on_result=lambda _row: progress.advance(task))
    except JournalError as exc:
        raise fail(str(exc)) from None
    except JobError as exc:
        raise fail(f"{exc} (the games so far are kept in {journal_of(out)})", code=1) from None
    finally:
        backend.close()
    try:
        write_games(out, records)
    except (HasamigoError, ValueError, OSError) as exc:
        raise fail_with(exc) from None
    seconds = time.perf_counter() - start
    black = [r.recorded_score for r in records]
    tally = Counter(BLACK.value if b is not None and b > 32 else WHITE.value
                    if b is not None and b < 32 else "draw" for b in black)
    kind = backend_kind(ray, ray_address)
    summary: dict[str, Any] = {
        "games": len(records), "level": level, "seed": seed, "openings": name,
        "workers": workers, "backend": kind, "resumed": resumed,
        "black_wins": tally["black"], "draws": tally["draw"], "white_wins": tally["white"],
        "seconds": round(seconds, 3), "out": str(out)}
    if as_json:
        emit_json(summary)
        return
    again = f", {resumed} of them from the journal" if resumed else ""
    console.print(
        f"{len(records)} games of engine:{level} against itself{again}: Black won "
        f"{tally['black']}, White {tally['white']}, {tally['draw']} drawn; "
        f"{seconds:.1f} s on {workers} {kind} worker{'s' if workers > 1 else ''} "
        f"-> {out}", highlight=False)
