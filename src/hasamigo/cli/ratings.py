"""Commands on ratings: ``ratings calibrate`` measures the programs' ratings (matches
between program levels, fitted by the rating library, one program anchored), ``ratings
programs`` shows the table the server ships."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from hasamigo.cli import JsonOpt, app, console, emit_json, fail
from hasamigo.cli.core import fail_with
from hasamigo.cli.helptext import Typer
from hasamigo.cli.workers import CoresOpt, backend_for, workers_of
from hasamigo.errors import HasamigoError
from hasamigo.player_spec import PlayerSpec

ratings_app = Typer(help="Ratings: the programs' measured ratings (calibration) and the "
                         "shipped table.")
app.add_typer(ratings_app, name="ratings")

#: the programs measured by default, weakest first (as the schedule pairs neighbours)
DEFAULT_PROGRAMS = ("weakest", "random", "greedy", "engine:1", "amusement", "entertainer",
                    "engine:2", "victory", "engine:3", "engine:4", "engine:5", "engine:6",
                    "engine:7", "engine:8")


@ratings_app.command("calibrate")
def calibrate(
    programs: Annotated[list[str] | None, typer.Argument(
        metavar="PROGRAM...", help="Program specs, weakest first (each plays the next "
        "--reach ones); default: " + " ".join(DEFAULT_PROGRAMS) + ".")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=2, max=10_000,
                                       help="Games per match (colours alternate).")] = 20,
    reach: Annotated[int, typer.Option(min=1, max=20, help="Each program plays the next "
                                       "REACH programs of the list.")] = 3,
    anchor: Annotated[str, typer.Option(help="The program held at --anchor-rating.")
                      ] = "random",
    anchor_rating: Annotated[float, typer.Option(
        min=0, max=4000, help="The anchor's fixed rating.")] = 1000.0,
    random_plies: Annotated[int, typer.Option(
        "--random-plies", min=0, max=59, help="Open each pair of games with this many "
        "random moves (both colours).")] = 6,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed gives the same "
                                      "games and the same fit.")] = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", dir_okay=False, help="Write the table as JSON (the server reads the one "
        "shipped in the package's data directory).")] = None,
    markdown: Annotated[Path | None, typer.Option(
        "--markdown", dir_okay=False, help="Write the table as Markdown.")] = None,
    workers: CoresOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Measure the programs' ratings: each program plays the next ones of the list
    (GAMES games a match, openings of random moves played with both colours, through
    the jobs runner as `hasamigo match`), then the ratings are fitted to the results
    by the library's forecast (openskill, the server's ratings) with the anchor held at
    its number. JSON: the
    table, {anchor, command, programs: [{spec, rating, uncertainty, games, score_pct}],
    matches}."""
    from hasamigo.jobs import JobError
    from hasamigo.jobs.games import match_params, match_player
    from hasamigo.ratings import calibration as cal
    from hasamigo.tournament.match import run_match

    names = list(programs or DEFAULT_PROGRAMS)
    try:
        specs = [PlayerSpec.parse(name) for name in names]
        from hasamigo.engine.players import check_spec

        for spec in specs:
            check_spec(spec)
            if spec.external:
                raise fail(f"{spec} is an external engine: only the programs are calibrated")
        texts = [str(s) for s in specs]
        pairs = cal.schedule(texts, reach=reach)
        if anchor not in texts:
            raise fail(f"the anchor {anchor!r} is not among the programs: "
                       f"{', '.join(texts)}")
    except (HasamigoError, ValueError) as exc:
        raise fail_with(exc) from None
    count = workers_of(workers, None, threads=max(s.threads for s in specs))
    backend = backend_for(count, False, None)
    results: list[cal.PairResult] = []
    params = match_params(seed=seed, random_plies=random_plies, openings="", clock=None)
    try:
        for a, b in pairs:
            play = match_player(backend, params=params)
            summary = run_match(PlayerSpec.parse(a), PlayerSpec.parse(b), games, seed=seed,
                                random_plies=random_plies, play=play)
            results.append(cal.PairResult(a, b, summary.a_wins, summary.draws,
                                          summary.b_wins))
            if not as_json:
                console.print(f"{a} v {b}: {summary.a_wins}-{summary.draws}-"
                              f"{summary.b_wins}", highlight=False)
    except JobError as exc:
        raise fail(str(exc), code=1) from None
    except HasamigoError as exc:
        raise fail(str(exc), code=1) from None
    finally:
        backend.close()
    fitted = cal.fit(results, anchor=anchor, anchor_rating=anchor_rating)
    command = "hasamigo ratings " + shlex.join(sys.argv[2:] if len(sys.argv) > 2
                                               else ["calibrate"])
    data = cal.table_json(fitted, results, anchor=anchor, anchor_rating=anchor_rating,
                          command=command, seed=seed, games_per_pair=games)
    if out is not None:
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")
    if markdown is not None:
        markdown.write_text(cal.table_markdown(data), encoding="utf-8")
    if as_json:
        emit_json(data)
        return
    _print_programs(data)


def _print_programs(data: dict[str, object]) -> None:
    anchor = data.get("anchor") or {}
    table = Table("program", "rating", "±", "games", "score %",
                  title=f"anchor {anchor.get('program')} = {anchor.get('rating')}"
                  if isinstance(anchor, dict) else None)
    programs = data.get("programs")
    for p in programs if isinstance(programs, list) else []:
        table.add_row(str(p["spec"]), str(p["rating"]), str(p["uncertainty"]),
                      str(p["games"]), str(p["score_pct"]))
    console.print(table)


@ratings_app.command("programs")
def programs_table(as_json: JsonOpt = False) -> None:
    """The programs' ratings the server ships (src/hasamigo/data/program_ratings.json),
    with the command that measured them."""
    from hasamigo.ratings.calibration import PROGRAM_RATINGS

    try:
        data = json.loads(PROGRAM_RATINGS.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise fail_with(exc) from None
    if as_json:
        emit_json(data)
        return
    _print_programs(data)
    console.print(f"measured by: {data.get('command')}", highlight=False)
