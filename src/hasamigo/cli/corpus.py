"""``hasamigo corpus``: a corpus of positions labelled by exact solves or deep searches
(:mod:`hasamigo.jobs.corpus`, files :mod:`hasamigo.engine.corpus`): build it on workers or
Ray, resumably; inspect it; read it out; fit the evaluation to it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from hasamigo.cli import JsonOpt, app, console, emit_json, err_console, fail, ready_kernels
from hasamigo.cli.core import fail_with
from hasamigo.cli.helptext import Typer
from hasamigo.cli.workers import RayAddressOpt, RayOpt, WorkersOpt, backend_for
from hasamigo.errors import HasamigoError

corpus_app = Typer(help="A corpus of positions labelled by exact solves or deep searches: "
                   "build (resumable, on workers or Ray), info, read, train.",
                   no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")

DirArg = Annotated[Path, typer.Argument(file_okay=False, help="The corpus directory.")]


@corpus_app.command("build")
def corpus_build(
    directory: DirArg,
    source: Annotated[str, typer.Option(
        help="Where positions come from: wthor:FILE[,FILE...] (WTHOR archives), selfplay "
             "(the engine's games against itself) or trees (the nodes of its searches).")],
    empties: Annotated[str, typer.Option(help="Empties of the positions, LO-HI.")] = "14-26",
    count: Annotated[int, typer.Option(min=1, max=10_000_000,
                                       help="Positions to label.")] = 10_000,
    label: Annotated[str, typer.Option(
        help="exact (perfect-play score) or deep:D (a D-ply search; exact where D reaches "
             "the end).")] = "exact",
    seed: Annotated[int, typer.Option(help="Seed of the sampling.")] = 0,
    shard: Annotated[int, typer.Option(
        min=1, max=1_000_000, help="Positions a shard: a task, and what a kill -9 may "
                                   "lose.")] = 100,
    workers: WorkersOpt = 1,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sample positions, label them and write them to NPZ shards in DIRECTORY.

    Positions are one per canonical key (the board's 8 symmetries), none twice in the
    corpus. Each shard is written atomically and named in corpus.json with its SHA-256
    as it finishes; run the same command again after a stop (even kill -9) to finish
    the build; other parameters add a new build to the same corpus. JSON: {build,
    planned, labelled, resumed, remade, seconds, positions_per_second}.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from hasamigo.jobs import JobError
    from hasamigo.jobs.corpus import (
        BuildSpec,
        build_corpus,
        check_label,
        check_source,
        parse_empties,
    )

    try:
        spec = BuildSpec(check_source(source), parse_empties(empties), count,
                         check_label(label), seed, shard)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    backend = backend_for(workers, ray, ray_address)
    ready_kernels("rules", "engine")
    progress = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                        TimeRemainingColumn(), console=err_console, disable=as_json)
    tasks: dict[str, Any] = {}

    def step(what: str, done: int, total: int) -> None:
        if what not in tasks:
            tasks[what] = progress.add_task(what, total=total)
        progress.update(tasks[what], completed=done, total=total)

    try:
        with progress:
            report = build_corpus(directory, spec, backend=backend, progress=step)
    except (HasamigoError, OSError) as exc:
        raise fail_with(exc) from None
    except JobError as exc:  # pragma: no cover - a HasamigoError already
        raise fail(str(exc)) from None
    finally:
        backend.close()
    rate = report.labelled / report.seconds if report.seconds > 0 else 0.0
    out = {"build": report.build, "planned": report.planned, "labelled": report.labelled,
           "resumed": report.resumed, "remade": report.remade,
           "seconds": round(report.seconds, 2), "positions_per_second": round(rate, 1)}
    if as_json:
        emit_json(out)
        return
    if report.remade:
        err_console.print(f"made again (missing or damaged): {', '.join(report.remade)}",
                          highlight=False)
    short = (f" (the source gave only {report.planned:,} new positions)"
             if report.planned < count else "")
    console.print(f"build {report.build}: {report.planned:,} positions{short}, "
                  f"{report.labelled:,} labelled now in {report.seconds:.1f} s "
                  f"({rate:.1f}/s), {report.resumed:,} done before -> {directory}",
                  highlight=False)


@corpus_app.command("info")
def corpus_info(directory: DirArg, as_json: JsonOpt = False) -> None:
    """Check every shard of a corpus and sum it up: builds, shards, positions by empties.

    Exit status 1 when a shard is damaged (each is named with what is wrong). JSON:
    {directory, builds, shards: [{file, build, positions, ok, error, empties}], positions,
    damaged}."""
    from hasamigo.jobs.corpus import corpus_summary

    try:
        summary = corpus_summary(directory)
    except (HasamigoError, OSError) as exc:
        raise fail_with(exc) from None
    if as_json:
        emit_json(summary)
    else:
        for build, params in summary["builds"].items():
            console.print(f"build {build}: {json.dumps(params)}", highlight=False)
        table = Table("shard", "build", "positions", "empties", "status")
        for s in summary["shards"]:
            span = f"{s['empties'][0]}-{s['empties'][-1]}" if s["empties"] else ""
            table.add_row(s["file"], s["build"], f"{s['positions']:,}", span,
                          "ok" if s["ok"] else "DAMAGED")
        console.print(table)
        console.print(f"{summary['positions']:,} positions in "
                      f"{len(summary['shards']) - summary['damaged']} whole shards",
                      highlight=False)
        for s in summary["shards"]:
            if not s["ok"]:
                err_console.print(f"[bold red]error:[/] {s['error']}", highlight=False,
                                  soft_wrap=True, markup=True)
    if summary["damaged"]:
        raise typer.Exit(1)


def _read(directory: Path, skip_damaged: bool) -> Any:
    """The corpus read, or its error with what to do about a damaged shard."""
    from hasamigo.engine.corpus import CorpusError, read_corpus

    try:
        return read_corpus(directory, skip_damaged=skip_damaged)
    except CorpusError as exc:
        if "damaged corpus shard" in str(exc):
            raise fail(f"{exc} (--skip-damaged reads the other shards; the build's "
                       "command, run again, makes it again)") from None
        raise fail_with(exc) from None
    except (HasamigoError, OSError) as exc:
        raise fail_with(exc) from None


@corpus_app.command("read")
def corpus_read(
    directory: DirArg,
    limit: Annotated[int, typer.Option(min=0, help="Rows at most (0: all).")] = 0,
    skip_damaged: Annotated[bool, typer.Option(
        "--skip-damaged", help="Leave damaged shards out (named on stderr) instead of "
                               "stopping.")] = False,
) -> None:
    """Print the positions as JSON lines: {board, empties, score, depth, source}; the
    board as a board string with the side to move as X (``hasamigo analyse`` reads it)."""
    from hasamigo.engine.corpus import SOURCES
    from hasamigo.engine.training import position_board

    got = _read(directory, skip_damaged)
    for problem in got.damaged:
        err_console.print(f"skipped: {problem}", highlight=False, soft_wrap=True, markup=False)
    names = {code: name for name, code in SOURCES.items()}
    pos = got.positions
    n = len(pos) if limit == 0 else min(limit, len(pos))
    for i in range(n):
        sys.stdout.write(json.dumps({
            "board": position_board(int(pos.p[i]), int(pos.o[i])).to_string(),
            "empties": int(pos.empties[i]), "score": int(pos.score[i]),
            "depth": int(pos.depth[i]), "source": names.get(int(pos.source[i]), "?")}) + "\n")


@corpus_app.command("train")
def corpus_train(
    directory: DirArg,
    out: Annotated[Path, typer.Option(dir_okay=False, help="Weights file to write (.npz).")
                   ] = Path("eval.npz"),
    holdout_every: Annotated[int, typer.Option(
        min=0, help="Hold out one position in N, chosen by a hash of its canonical key "
                    "(0: none).")] = 10,
    ridge: Annotated[float, typer.Option(min=0.0, help="Ridge penalty.")] = 2.0,
    iterations: Annotated[int, typer.Option(min=1, help="CGLS iterations per stage.")] = 80,
    start: Annotated[str, typer.Option(
        help="shipped: fit a correction to eval-v2 (the ridge pulls towards its weights); "
             "zero: fit from nothing (the ridge pulls towards 0).")] = "shipped",
    train_empties: Annotated[str | None, typer.Option(
        metavar="LO-HI", help="Train only on positions with these empties; every other "
                              "position is held out (e.g. fit on 12-22, measure on 23-30).")
    ] = None,
    heldout_empties: Annotated[str | None, typer.Option(
        metavar="LO-HI", help="Report the held-out figures of positions with these empties "
                              "(default: all held out).")] = None,
    skip_damaged: Annotated[bool, typer.Option(
        "--skip-damaged", help="Train on the whole shards, leaving the damaged out.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Fit the pattern evaluation to a corpus (train-eval's fitting) and write its weights.

    By default each stage is fitted as a correction to the shipped weights (eval-v2);
    stages the corpus does not reach keep them as they are. Prints the
    held-out positions' mean absolute error and correlation against their labels for
    the fitted evaluation and for eval-v2 on the same positions, then per stage the
    held-out mean absolute and root-mean-square errors. JSON: {positions, train_positions,
    heldout: {n, empties, fitted: {mae, correlation}, eval_v2: {...}}, stages: [...], out}."""
    from hasamigo.engine.corpus import holdout_bucket
    from hasamigo.engine.evaluation import (
        evaluation_params,
        load_weights,
        params_from_weights,
        save_weights,
        weights_path,
    )
    from hasamigo.engine.training import (
        corpus_samples,
        fill_stages,
        heldout_figures,
        heldout_mask,
        in_discs,
        quantize,
        tied,
        train,
    )
    from hasamigo.jobs.corpus import parse_empties

    if start not in ("shipped", "zero"):
        raise fail(f"--start must be 'shipped' or 'zero', not {start[:20]!r}")
    try:
        fit_band = None if train_empties is None else parse_empties(train_empties)
        report_band = None if heldout_empties is None else parse_empties(heldout_empties)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    got = _read(directory, skip_damaged)
    for problem in got.damaged:
        err_console.print(f"skipped: {problem}", highlight=False, soft_wrap=True, markup=False)
    pos = got.positions
    if not len(pos):
        raise fail(f"{directory}: the corpus holds no positions")
    ready_kernels("rules", "engine")
    samples = corpus_samples(pos.p, pos.o, pos.empties, pos.score,
                             holdout_bucket(pos.p, pos.o))
    shipped = evaluation_params("trained")
    base = tied(in_discs(load_weights(weights_path())))
    held = heldout_mask(samples, holdout_every, fit_band)
    weights, reports = train(samples, held=held, ridge=ridge, iterations=iterations,
                             other=shipped, base=base if start == "shipped" else None)
    final = quantize(fill_stages(weights, reports, base))
    save_weights(out, final, f"hasamigo corpus train: {len(pos)} positions of {directory}, "
                             f"from {start}, ridge {ridge}, {iterations} iterations, "
                             f"held out 1/{holdout_every} by key"
                             + ("" if fit_band is None else
                                f", trained on {fit_band[0]}-{fit_band[1]} empties only"))
    params = params_from_weights(final)
    mine, theirs = heldout_figures(samples, params, shipped, held=held, empties=report_band)
    trained_on = len(pos) - int(held.sum())

    def fig(f: Any) -> dict[str, Any]:
        return {"mae": round(f.mae, 3), "correlation": round(f.correlation, 4)}

    rows: list[dict[str, Any]] = []
    for r in reports:
        if not r.test_positions:
            continue
        stage_mine, stage_theirs = heldout_figures(samples, params, shipped, held=held,
                                                   empties=r.empties)
        rows.append({
            "stage": r.stage, "empties": list(r.empties), "train_positions": r.train_positions,
            "test_positions": r.test_positions, "rmse_trained": round(r.rmse_trained, 3),
            "rmse_shipped": None if r.rmse_other is None else round(r.rmse_other, 3),
            "mae_trained": round(stage_mine.mae, 3), "mae_shipped": round(stage_theirs.mae, 3)})
    band = "all" if report_band is None else f"{report_band[0]}-{report_band[1]}"
    if as_json:
        emit_json({"positions": len(pos), "train_positions": trained_on,
                   "heldout": {"n": mine.positions, "empties": band, "fitted": fig(mine),
                               "eval_v2": fig(theirs)},
                   "stages": rows, "out": str(out)})
        return
    table = Table("evaluation", "held-out positions", "mean abs. error", "correlation",
                  caption=f"{len(pos):,} positions, {trained_on:,} trained on; held out, "
                          f"empties {band}, against the corpus's labels -> {out}")
    for name, f in (("fitted", mine), ("eval-v2 (shipped)", theirs)):
        table.add_row(name, f"{f.positions:,}", f"{f.mae:.2f}", f"{f.correlation:.3f}")
    console.print(table)
    stages = Table("stage", "empties", "train", "held out", "mae fitted", "mae eval-v2",
                   "rmse fitted", "rmse eval-v2")
    for row in rows:
        stages.add_row(str(row["stage"]), f"{row['empties'][0]}-{row['empties'][1]}",
                       f"{row['train_positions']:,}", f"{row['test_positions']:,}",
                       f"{row['mae_trained']:.2f}", f"{row['mae_shipped']:.2f}",
                       f"{row['rmse_trained']:.2f}", f"{row['rmse_shipped']:.2f}")
    console.print(stages)
