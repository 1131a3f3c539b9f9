"""Commands on the engine: solve (OBF suites), analyse (ranked moves), train-eval,
solve-board (the small boards from their start); its speed: :mod:`hasamigo.cli.bench`."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from hasamigo.cli import (
    JsonOpt,
    ThreadsOpt,
    VariantOpt,
    app,
    console,
    emit_json,
    err_console,
    fail,
    ready_kernels,
    variant_named,
)
from hasamigo.cli.core import fail_with, parse_position
from hasamigo.cli.inputs import input_file, input_files, nothing_in
from hasamigo.cli.workers import RayAddressOpt, RayOpt, WorkersOpt, backend_for, spread
from hasamigo.errors import HasamigoError

ScoreNote = "Scores are disc differences from the side to move."


@app.command()
def solve(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="An OBF file.")],
    exact: Annotated[bool, typer.Option("--exact", help="Exact scores (default).")] = False,
    wld: Annotated[bool, typer.Option("--wld", help="Only win/loss/draw (faster).")] = False,
    table_bits: Annotated[int, typer.Option(min=10, max=28, help="Hash table: 2^N rows.")] = 22,
    threads: ThreadsOpt = 1,
    workers: WorkersOpt = 1,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    out: Annotated[Path | None, typer.Option(
        "--out", dir_okay=False, help="Also append each position's row to this JSON-lines "
        "file as it is solved; run again with it to skip the positions it holds.")] = None,
    split: Annotated[bool, typer.Option(
        "--split", help="Split each position among the workers at its root (for a few "
        "deep positions) instead of one position per worker; exact scores only.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Solve every position of an OBF file and compare with the answers in it.

    Prints per position the best move, score, agreement, CPU time, nodes and nodes/s, then
    totals; exit status 1 if any answer disagrees. Scores are disc differences from the
    side to move. JSON: {positions: [{index, move, score, expected_score, ok, seconds,
    wall, nodes}], total_seconds, total_wall, all_ok} (seconds: CPU of every thread).
    With --workers or --ray the positions are shared out among workers (one engine
    each) and printed in order at the end; total_wall is then the job's elapsed time.
    With --split, one position at a time is split among the workers at its root (the
    best score so far passed between them as the bound to beat); with --out, each of its
    tasks is kept as it finishes, and a rerun resumes a position half solved.
    """
    from hasamigo.engine import read_obf, solve_obf_file

    if exact and wld:
        raise fail("choose one of --exact and --wld")
    if split and wld:
        raise fail("--split solves exact scores: leave out --wld")
    spread = workers > 1 or ray or ray_address is not None or out is not None or split
    if spread and threads > 1:
        raise fail("choose one of --threads and --workers/--ray/--out: a worker's engine "
                   "searches on one thread")
    mode = "wld" if wld else "exact"
    with input_file(file) as path:  # a pipe is read once, into a file, and used as one
        try:
            positions = read_obf(path)  # a bad file is refused before the engine compiles
        except (HasamigoError, ValueError, OSError) as exc:
            raise fail_with(exc) from None
        if not positions:
            raise nothing_in(file, "position")

        ready_kernels("rules", "engine")

        def show(row: dict[str, Any]) -> None:
            if as_json:
                return
            rate = row["nodes"] / row["seconds"] / 1e6 if row["seconds"] > 0 else 0.0
            expected = "?" if row["expected_score"] is None else f"{row['expected_score']:+d}"
            verdict = "ok" if row["ok"] else "[bold red]DISAGREES[/]"
            console.print(
                f"#{row['index']:<3} {row['move']:>4} {row['score']:+4d} (file {expected:>3}) "
                f"{verdict:>3} {row['seconds']:8.2f} s {row['nodes']:>14,} nodes "
                f"{rate:7.1f} M/s",
                highlight=False,
            )

        if split:
            result = _split_job(path, table_bits, workers, ray, ray_address, out, show,
                                as_json)
        elif spread:
            result = _solve_job(path, mode, table_bits, workers, ray, ray_address, out,
                                as_json)
            for row in result["positions"]:
                show(row)
        else:
            try:
                result = solve_obf_file(path, mode, table_size=1 << table_bits,
                                        on_result=show, threads=threads)
            except (HasamigoError, ValueError, OSError) as exc:
                raise fail_with(exc) from None
    if not result["positions"]:  # never a pass: every position was solved or it failed
        raise nothing_in(file, "position")
    if as_json:
        emit_json(result)
    else:
        nodes = sum(p["nodes"] for p in result["positions"])
        total = result["total_seconds"]
        bad = sum(1 for p in result["positions"] if not p["ok"])
        rate = nodes / total / 1e6 if total > 0 else 0.0
        on = (f"{threads} thread{'s' if threads > 1 else ''}" if not spread else
              f"{workers} {'ray' if ray or ray_address is not None else 'local'} worker"
              f"{'s' if workers > 1 else ''}")
        console.print(
            f"{len(result['positions'])} positions ({mode}): {total:.2f} CPU s "
            f"({result['total_wall']:.2f} s elapsed, {on}), {nodes:,} nodes, "
            f"{rate:.1f} M nodes/s; {bad} disagree",
            highlight=False,
        )
    if not result["all_ok"]:
        raise typer.Exit(1)


def _split_job(file: Path, table_bits: int, workers: int, ray: bool, address: str | None,
               out: Path | None, show: Callable[[dict[str, Any]], None], quiet: bool
               ) -> dict[str, Any]:
    """``solve --split``: each position split among the workers at its root
    (:func:`hasamigo.jobs.split.split_solve_job`), a line per task on the progress bar's
    description; bad input exits with status 2, a job that cannot finish with 1."""
    from hasamigo.cli.match import _progress
    from hasamigo.jobs.split import split_solve_job

    backend = backend_for(workers, ray, address)
    progress = _progress(not quiet)
    with _job(backend, out, "the tasks finished so far"), progress:
        task = progress.add_task(f"solving {file.name}, split", total=None)

        def told(key: str, result: dict[str, Any]) -> None:
            position, _, tried = key.partition("/")
            progress.update(task, description=f"#{position}: {tried} -> "
                            f"{result['score']:+d}")

        return split_solve_job(file, backend=backend, table_size=1 << table_bits,
                               journal=out, on_result=show, on_task=told)


def _solve_job(file: Path, mode: str, table_bits: int, workers: int, ray: bool,
               address: str | None, out: Path | None, quiet: bool) -> dict[str, Any]:
    """``solve`` on several workers (:func:`hasamigo.jobs.solve.solve_job`), with a
    progress bar; bad input exits with status 2, a job that cannot finish with 1."""
    from hasamigo.cli.match import _progress
    from hasamigo.engine import read_obf
    from hasamigo.jobs.solve import solve_job

    backend = backend_for(workers, ray, address)
    progress = _progress(not quiet)
    with _job(backend, out, "the positions solved so far"), progress:
        task = progress.add_task(f"solving {file.name}", total=None)
        count = len(read_obf(file))
        progress.update(task, total=count)
        return solve_job(file, mode, backend=backend, table_size=1 << table_bits,
                         journal=out,
                         on_start=lambda done: progress.update(task, completed=done),
                         on_result=lambda _row: progress.advance(task))


@contextlib.contextmanager
def _job(backend: Any, out: Path | None, kept: str) -> Iterator[None]:
    """Runs a job on ``backend`` and closes it after: a refused journal or bad input exits
    with status 2, a job that cannot finish with 1, saying that ``kept`` is in ``out``."""
    from hasamigo.jobs import JobError, JournalError

    try:
        yield
    except JournalError as exc:
        raise fail(str(exc)) from None
    except JobError as exc:
        where = "" if out is None else f" ({kept} are kept in {out})"
        raise fail(f"{exc}{where}", code=1) from None
    except (HasamigoError, ValueError, OSError) as exc:
        raise fail_with(exc) from None
    finally:
        backend.close()


@app.command()
def analyse(
    position: Annotated[str, typer.Argument(help="A transcript (f5d6c3…) or a board string.")],
    depth: Annotated[int | None, typer.Option(min=1, max=60, help="Search depth (plies).")] = None,
    seconds: Annotated[
        float | None, typer.Option("--time", min=0.01, help="Time limit (s).")
    ] = None,
    best: Annotated[int, typer.Option("--best", min=1, help="Show only the N best moves.")] = 64,
    variant: VariantOpt = "standard",
    threads: ThreadsOpt = 1,
    selectivity: Annotated[int, typer.Option(
        min=0, max=4, help="Probable cuts in the midgame: 0 searches every node; 1-4 cut a "
        "node a shallow search puts outside the window, 68/87/95/99 % sure.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Rank every legal move with its score and principal variation.

    Scores are disc differences from the side to move; a depth reaching the end of the game
    gives exact scores. JSON: {board, turn, depth, exact, selectivity, nodes, seconds,
    nodes_per_second, moves: [{move, score, pv}]}.
    """
    from hasamigo.engine import Engine, Limit

    cls = variant_named(variant)
    try:
        board = parse_position(position, cls)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    if board.is_game_over():
        raise fail("the game is over: nothing to analyse")
    limit = Limit(depth=depth, time=seconds) if depth or seconds else Limit(depth=10)
    ready_kernels("rules", "engine")  # the search's time below excludes the compile
    engine = Engine(threads=threads)
    try:
        analysis = engine.analyse(board, limit, multipv=len(board.legal_moves),
                                  selectivity=selectivity)
    except ValueError as exc:
        raise fail_with(exc) from None
    moves: list[dict[str, Any]] = [
        {
            "move": board.move_name(line.move),
            "score": line.score,
            "pv": [board.move_name(m) for m in line.pv],
        }
        for line in list(analysis.lines or ())[:best]
    ]
    data: dict[str, Any] = {
        "board": board.to_string(),
        "turn": str(board.turn),
        "depth": analysis.depth,
        "exact": analysis.exact,
        "selectivity": selectivity,
        "nodes": analysis.nodes,
        "seconds": round(analysis.seconds, 6),
        "nodes_per_second": round(analysis.nps),
        "moves": moves,
    }
    if as_json:
        emit_json(data)
        return
    kind = "exact" if analysis.exact else f"depth {analysis.depth}"
    if selectivity and not analysis.exact:
        kind += f", selectivity {selectivity}"
    table = Table("move", "score", "principal variation")
    for row in moves:
        table.add_row(row["move"], f"{row['score']:+d}", " ".join(row["pv"]))
    console.print(table)
    # below the table, not its caption: a caption wraps to the table's width (three narrow
    # columns), in the middle of its sentences
    console.print(f"{board.turn} to move — {kind}, {analysis.nodes:,} nodes in "
                  f"{analysis.seconds:.2f} s. {ScoreNote}", highlight=False)


@app.command("train-eval")
def train_eval(
    archives: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False,
                                                   help="WTHOR archives (.wtb).")],
    out: Annotated[Path, typer.Option(help="Weights file to write (.npz).")] = Path("eval.npz"),
    holdout_every: Annotated[int, typer.Option(min=0, help="Hold out every Nth game "
                                               "(0: none).")] = 20,
    ridge: Annotated[float, typer.Option(min=0.0, help="Ridge penalty.")] = 2.0,
    iterations: Annotated[int, typer.Option(min=1, help="CGLS iterations per stage.")] = 80,
    label: Annotated[str, typer.Option(
        help="Labels: 'result' (the game's result, or WTHOR's perfect-play score where it "
             "has one) or 'exact' (positions with 14-24 empties solved exactly).")] = "result",
    exact_limit: Annotated[int, typer.Option(
        min=0, help="With --label exact: solve this many positions, spread over the "
                    "archives (0: every one; hours of CPU).")] = 20000,
    exact_cache: Annotated[Path | None, typer.Option(
        dir_okay=False, help="With --label exact: the solved scores, kept and resumed "
                             "(default: OUT with .exact.npz).")] = None,
    exact_empties: Annotated[str, typer.Option(
        help="With --label exact: the empties of the positions solved, LO-HI within "
             "14-24 (a 14-empties solve takes milliseconds, a 24-empties one seconds).")
    ] = "14-24",
    exact_weight: Annotated[float, typer.Option(
        min=1.0, max=1000.0, help="With --label exact: how many times an exactly labelled "
                                  "position counts in the fit against one labelled by its "
                                  "game's result.")] = 1.0,
    workers: WorkersOpt = 1,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Fit the pattern evaluation to game archives and write its weights.

    With --label exact and --workers or --ray the positions are solved in chunks shared
    out among the workers; the scores go into the same cache as they come (a stopped
    run resumes from it) and the weights are those of one process.

    Prints per stage the held-out root-mean-square error (discs) of the fitted, the
    hand-set and the shipped evaluation; with `--label exact`, against the exact scores of
    the held-out games' solved positions. Use the result with `--out
    src/hasamigo/data/eval-v2.npz` to replace the shipped weights. JSON: {games_used,
    positions, label, exact_positions, stages: [{stage, empties, train_positions,
    test_positions, rmse_trained, rmse_hand, rmse_shipped}], out}.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from hasamigo.engine.evaluation import evaluation_params, save_weights
    from hasamigo.engine.training import (
        load_exact_cache,
        quantize,
        read_archives,
        samples_from_records,
        train,
    )

    if label not in ("result", "exact"):
        raise fail(f"--label must be 'result' or 'exact', not {label[:20]!r}")
    on_workers = spread(workers, ray, ray_address)
    if on_workers and label != "exact":
        raise fail("--workers/--ray share out the exact solving: give --label exact")
    band = _empties_band(exact_empties)
    cache = exact_cache or out.with_name(out.stem + ".exact.npz")
    try:
        if label == "exact":
            load_exact_cache(cache)  # a damaged cache is refused before the long work
        with input_files(archives) as files:  # pipes read once, like files
            samples, counts = samples_from_records(read_archives(files))
    except (HasamigoError, OSError) as exc:
        raise fail_with(exc) from None
    if not len(samples):
        raise fail("no finished standard-start games in the archives")
    progress = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                        TimeElapsedColumn(), console=err_console, disable=as_json)
    test_among = None
    exact_count = 0
    backend = backend_for(workers, ray, ray_address) if on_workers else None
    with progress:
        task = progress.add_task("fitting", total=None)

        def step(what: str, done: int, total: int) -> None:
            progress.update(task, description=what, completed=done, total=total)

        if label == "exact":
            samples, test_among = _exact(samples, exact_limit or None, band, cache, backend,
                                         step)
            exact_count = int(test_among.sum())
        weights, reports = train(samples, holdout_every=holdout_every, ridge=ridge,
                                 iterations=iterations, other=evaluation_params("trained"),
                                 test_among=test_among, weighted=test_among,
                                 weight=exact_weight, progress=step)
    source = (f"hasamigo train-eval: {counts['games_used']} games from "
              f"{len(archives)} archives, ridge {ridge}, {iterations} iterations, "
              f"labels {label}" + (f" ({exact_count} exact at {band[0]}-{band[1]} empties, "
                                   f"weight {exact_weight:g})" if label == "exact" else ""))
    save_weights(out, quantize(weights), source)
    rows: list[dict[str, Any]] = [
        {"stage": r.stage, "empties": list(r.empties), "train_positions": r.train_positions,
         "test_positions": r.test_positions, "rmse_trained": round(r.rmse_trained, 3),
         "rmse_hand": round(r.rmse_hand, 3),
         "rmse_shipped": None if r.rmse_other is None else round(r.rmse_other, 3)}
        for r in reports if label == "result" or r.test_positions]
    if as_json:
        emit_json({"games_used": counts["games_used"], "positions": len(samples),
                   "label": label, "exact_positions": exact_count, "stages": rows,
                   "out": str(out)})
        return
    against = "exact scores" if label == "exact" else "labels"
    table = Table("stage", "empties", "train", "held out", "rmse trained", "rmse hand",
                  "rmse shipped",
                  caption=f"{counts['games_used']:,} games, {len(samples):,} positions, "
                  f"held-out error against {against} -> {out}")
    for r in rows:
        lo, hi = r["empties"]
        table.add_row(str(r["stage"]), f"{lo}-{hi}",
                      f"{r['train_positions']:,}", f"{r['test_positions']:,}",
                      f"{r['rmse_trained']:.2f}", f"{r['rmse_hand']:.2f}",
                      f"{r['rmse_shipped']:.2f}")
    console.print(table)


def _empties_band(text: str) -> tuple[int, int]:
    """``--exact-empties``: ``LO-HI`` (or one number, read as the corpus reads its
    empties) within the exact-label range."""
    from hasamigo.engine.training import EXACT_EMPTIES
    from hasamigo.jobs.corpus import parse_empties

    lo_max, hi_max = EXACT_EMPTIES
    try:
        lo, hi = parse_empties(text)
    except HasamigoError as exc:
        raise fail(f"--exact-empties: {exc}") from None
    if not lo_max <= lo <= hi <= hi_max:
        raise fail(f"--exact-empties {lo}-{hi} is outside {lo_max}-{hi_max}")
    return lo, hi


def _exact(samples: Any, limit: int | None, band: tuple[int, int], cache: Path, backend: Any,
           step: Any) -> tuple[Any, Any]:
    """The exact labels, here (no ``backend``) or on the backend's workers."""
    from hasamigo.engine.training import exact_labels
    from hasamigo.jobs import JobError
    from hasamigo.jobs.exact import exact_job

    if backend is None:
        return exact_labels(samples, limit=limit, cache=cache, empties=band, progress=step)
    try:
        return exact_job(samples, backend=backend, limit=limit, cache=cache, empties=band,
                         progress=step)
    except JobError as exc:
        raise fail(f"{exc} (the scores so far are kept in {cache})", code=1) from None
    finally:
        backend.close()


@app.command("solve-board")
def solve_board(
    board: Annotated[str, typer.Argument(help="The board to solve: 4x4 or 6x6; 8x8 quotes "
                                         "its published result.")],
    threads: Annotated[int, typer.Option(min=1, max=64, help="Search threads (one shared "
                                         "table).")] = 2,
    table: Annotated[Path | None, typer.Option(
        "--table", help="Then write the table of solved positions that lets engine:top "
        "play the board perfectly (the player's positions of its first --plies plies); "
        "an existing table is resumed.")] = None,
    plies: Annotated[int | None, typer.Option(
        min=1, max=30, help="Plies the table covers (default: as the shipped table).")] = None,
    verify: Annotated[bool, typer.Option("--verify", help="8x8: solve the published line's "
                                         "positions from its end back, for --minutes.")] = False,
    minutes: Annotated[float, typer.Option(min=0.1, max=600, help="--verify's time.")] = 5.0,
    as_json: JsonOpt = False,
) -> None:
    """Solve a small board from its start with no stored knowledge: the perfect-play
    result under the official count (empties to the winner), one perfect line, the nodes
    and the CPU time (of every thread). 8x8 is not solved here: its published result
    (a draw, Takizawa 2023) is quoted with its line and source (hasamigo.engine.known).

    6×6 takes minutes (--table adds about a minute). JSON: {board, black, white, line,
    nodes, seconds} (line: a transcript in the board's own square names, passes written as
    'pass'); with --table also table: {path, plies, positions, nodes, seconds}.
    """
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from hasamigo.cli.known import published, show_published
    from hasamigo.engine.perfect import DEFAULT_PLIES, PerfectTable, build_table
    from hasamigo.engine.smallboard import solvable, solver_for
    from hasamigo.engine.smallboard import solve_board as solve_start

    if (quoted := published(board)) is not None:
        show_published(quoted, verify=verify, minutes=minutes, as_json=as_json)
        return
    try:
        variant = solvable(board)
        old = PerfectTable.load(table) if table is not None and table.exists() else None
    except HasamigoError as exc:
        raise fail_with(exc) from None
    if table is not None and not table.parent.is_dir():
        raise fail(f"no directory {table.parent} for the table")
    depth = plies if plies is not None else DEFAULT_PLIES.get(variant.name, 4)
    ready_kernels("rules", "smallboard")
    progress = Progress(SpinnerColumn(), TextColumn("[progress.description]{task.description}"),
                        TimeElapsedColumn(), console=err_console, disable=as_json,
                        transient=True)
    solver = solver_for(variant, threads=threads)
    built: dict[str, object] | None = None
    try:
        with progress:
            task = progress.add_task(f"solving {variant.title}", total=None)

            def step(what: str) -> None:
                progress.update(task, description=f"{variant.title}: {what}")

            result = solve_start(variant, solver=solver, progress=step)
            if table is not None:
                cpu, nodes = time.process_time(), solver.nodes
                made = build_table(variant, depth, solver=solver, table=old,
                                   start_value=result.outcome.disc_difference,
                                   progress=lambda what: step(f"table, {what}"),
                                   checkpoint=lambda t: t.save(table))
                made.save(table)
                built = {"path": str(table), "plies": made.plies, "positions": len(made),
                         "nodes": solver.nodes - nodes,
                         "seconds": round(time.process_time() - cpu, 3)}
    finally:
        solver.close()
    if as_json:
        emit_json(result.to_json() | ({} if built is None else {"table": built}))
        return
    outcome = result.outcome
    winner = "a draw" if outcome.winner is None else f"{outcome.winner}".capitalize() + " wins"
    rate = result.nodes / result.seconds / 1e6 if result.seconds > 0 else 0.0
    console.print(f"{variant.title}: {winner} {outcome} with perfect play "
                  f"(discs {outcome.black_discs}–{outcome.white_discs}, empties to the winner)",
                  highlight=False, soft_wrap=True)
    console.print(f"perfect line: {result.transcript()}", highlight=False)
    console.print(f"{result.nodes:,} nodes in {result.seconds:.2f} CPU s "
                  f"({result.wall:.2f} s elapsed, {result.threads} thread"
                  f"{'s' if result.threads > 1 else ''}), {rate:.1f} M nodes/s",
                  highlight=False)
    if built is not None:
        console.print(f"table of solved positions: {built['positions']:,} positions of the "
                      f"first {built['plies']} plies in {built['path']} "
                      f"({built['nodes']:,} nodes, {built['seconds']} CPU s)", highlight=False)
