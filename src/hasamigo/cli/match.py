"""Commands on players: ``match`` between two players."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from hasamigo.cli import JsonOpt, app, console, emit_json, err_console, fail
from hasamigo.cli.core import fail_with
from hasamigo.cli.workers import (
    CoresOpt,
    JobsOpt,
    RayAddressOpt,
    RayOpt,
    backend_for,
    backend_kind,
    journal_of,
    workers_of,
)
from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.player_spec import PlayerSpec

if TYPE_CHECKING:
    from rich.progress import Progress

SeedOpt = Annotated[int, typer.Option("--seed", help="Seed: the same seed gives the same games.")]


def _progress(show: bool) -> Progress:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
                    disable=not show)


def _elo_text(value: float | None, sign: int) -> str:
    if value is None:
        return "+∞" if sign > 0 else "−∞"
    return f"{value:+.0f}"


def _player(text: str) -> PlayerSpec:
    """A player argument read as its spec (:func:`hasamigo.engine.players.player_spec`):
    a bad one is refused as the command line refuses any bad argument."""
    from hasamigo.engine.players import player_spec

    return player_spec(text)


def _positive_minutes(value: float | None) -> float | None:
    """A clock of more than nothing and at most a day (24 h: any longer is a typo)."""
    if value is not None and not 0 < value <= 24 * 60:
        raise typer.BadParameter(f"minutes a side must be above 0 and at most 1440, not {value:g}")
    return value


@app.command()
def match(
    player_a: Annotated[PlayerSpec, typer.Argument(
        parser=_player, metavar="PLAYER_A",
        help="A player spec: random, greedy, victory, amusement, amusement:swing, "
             "entertainer, engine:N, engine:top, weakest, nboard:COMMAND, gtp:COMMAND; an "
             "engine level on T search threads: engine:N@T.")],
    player_b: Annotated[PlayerSpec, typer.Argument(
        parser=_player, metavar="PLAYER_B", help="The other player spec.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 10,
    openings: Annotated[Path | None, typer.Option(
        "--openings", exists=True, dir_okay=False,
        help="Transcripts, one opening per line; each is played twice, colours swapped.")] = None,
    random_plies: Annotated[int, typer.Option(
        "--random-plies", min=0, max=59, help="Or open with this many random moves.")] = 0,
    seed: SeedOpt = 0,
    out: Annotated[Path | None, typer.Option("--out", dir_okay=False,
                                             help="Save every game (.ggf, .txt, .wtb).")] = None,
    clock: Annotated[float | None, typer.Option(
        "--clock", callback=_positive_minutes,
        help="Minutes a side for each game: the programs manage their time, and a side "
             "whose flag falls loses on time (33-31).")] = None,
    workers: CoresOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    journal: Annotated[Path | None, typer.Option(
        "--journal", dir_okay=False,
        help="Keep each finished game in this JSON-lines file and resume from it "
        "(default with --workers/--ray: OUT.jsonl beside --out; none without --out).")
                       ] = None,
    weights_a: Annotated[Path | None, typer.Option(
        "--weights-a", exists=True, dir_okay=False,
        help="Pattern weights (hasamigo corpus train, train-eval) that PLAYER_A, an engine, "
             "evaluates with instead of the shipped ones.")] = None,
    weights_b: Annotated[Path | None, typer.Option(
        "--weights-b", exists=True, dir_okay=False,
        help="The same for PLAYER_B: e.g. engine:top --weights-a NEW.npz against engine:top, "
             "two evaluations at equal time.")] = None,
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    r"""Play PLAYER_A against PLAYER_B, colours alternating, games in parallel.

    The games are shared out through the jobs runner (local processes, one per core
    unless --workers says, or Ray actors; a game whose worker dies is played again):
    with engine:N@T players, one worker per T cores unless --workers says.
    With --workers or --ray each finished game is also kept in a journal: run the same
    command again and only the games missing from it are played (a larger --games adds
    games). The games are the same whatever the workers for the same seed. JSON: {a, b,
    games, a_wins, draws, b_wins, a_score_pct, elo, elo_ci95: \[low, high]} (Elo of A
    over B; null for an infinite value); with --clock also time_losses: {a, b} (games
    each side lost on time); with --weights-a/-b also weights: {a, b} (each file's
    SHA-256).
    """
    from hasamigo.tournament.match import check_weights, read_openings, run_match

    if openings is not None and random_plies:
        raise fail("give either --openings or --random-plies, not both")
    # the journal and the summary's line come with the jobs runner's options given on
    # the command line: neither the default nor the old --jobs kept a journal before
    on_workers = (workers is not None or ray or ray_address is not None
                  or journal is not None)
    # a game's two players search in turn: its worker needs the larger one's threads
    threads = max(player_a.threads, player_b.threads)
    weights: dict[str, str] = {}
    try:
        for side, spec, path in (("a", player_a, weights_a), ("b", player_b, weights_b)):
            if path is not None:
                try:
                    check_weights(spec, str(path))
                except InvalidOptionError as exc:
                    raise fail(f"--weights-{side}: {exc}") from None
                weights[side] = hashlib.sha256(path.read_bytes()).hexdigest()
        book = read_openings(openings) if openings is not None else None
        if out is not None:
            from hasamigo.notation import detect_format

            detect_format(out)
    except (HasamigoError, ValueError, OSError) as exc:
        raise fail_with(exc) from None
    count = workers_of(workers, jobs, threads=threads)
    if journal is None and out is not None and on_workers:
        journal = journal_of(out)
    from hasamigo.jobs import JobError, JournalError
    from hasamigo.jobs.games import match_params, match_player

    seconds = None if clock is None else clock * 60.0
    resumed = 0

    def begin(done: int) -> None:
        nonlocal resumed
        resumed = done

    backend = backend_for(count, ray, ray_address)
    params = match_params(seed=seed, random_plies=random_plies,
                          openings="" if openings is None else openings.name, clock=seconds,
                          weights=weights)
    play = match_player(backend, journal=journal, params=params, on_start=begin)
    progress = _progress(not as_json)
    try:
        with progress:
            task = progress.add_task(f"{player_a} vs {player_b}", total=games)
            summary = run_match(player_a, player_b, games, seed=seed, openings=book,
                                random_plies=random_plies, out=out,
                                on_result=lambda _: progress.advance(task),
                                clock=seconds, play=play,
                                a_weights=None if weights_a is None else str(weights_a.resolve()),
                                b_weights=None if weights_b is None else str(weights_b.resolve()))
    except JournalError as exc:
        raise fail(str(exc)) from None
    except JobError as exc:  # a game whose workers kept dying
        kept = "" if journal is None else f" (the games so far are kept in {journal})"
        raise fail(f"{exc}{kept}", code=1) from None
    except HasamigoError as exc:  # a game a player could not finish
        kept = "" if out is None else f" (the games so far are saved in {out})"
        raise fail(f"{exc}{kept}", code=1) from None
    finally:
        backend.close()
    if as_json:
        emit_json({**summary.as_json(), **({"weights": weights} if weights else {})})
        return
    title = f"{games} games, seed {seed}" + ("" if clock is None else f", {clock:g} min a side")
    name_a = str(player_a) + ("" if weights_a is None else f" ({weights_a.name})")
    name_b = str(player_b) + ("" if weights_b is None else f" ({weights_b.name})")
    table = Table("", name_a, "draws", name_b, title=title)
    table.add_row("wins", str(summary.a_wins), str(summary.draws), str(summary.b_wins))
    table.add_row("discs", str(summary.a_discs), "", str(summary.b_discs))
    if clock is not None:
        table.add_row("lost on time", str(summary.a_time_losses), "",
                      str(summary.b_time_losses))
    console.print(table)
    low, high = summary.elo_ci95
    elo = summary.elo
    elo_text = _elo_text(elo, 1 if summary.a_score_pct > 50 else -1)
    console.print(f"{name_a} scores {summary.a_score_pct:.1f}%: Elo {elo_text} "
                  f"(95%: {_elo_text(low, -1)} .. {_elo_text(high, 1)})", highlight=False)
    if on_workers:
        again = f", {resumed} of them from {journal}" if resumed else ""
        console.print(f"{summary.games} games on {count} {backend_kind(ray, ray_address)} "
                      f"worker{'s' if count > 1 else ''}{again}", highlight=False)
    if out is not None:
        console.print(f"wrote {summary.games} games to {out}", highlight=False)
