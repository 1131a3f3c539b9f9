"""``hasamigo tournament run``, ``export`` and ``simulate``: play a tournament's games by
program, write its games and tables out, and simulate a whole tournament.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, console, emit_json, fail
from hasamigo.cli.tournament.common import (
    FORMAT_HELP,
    TournamentArg,
    WhoOpt,
    c_setting,
    number_text,
    opened_service,
    show_json,
    tournament_app,
    who_of,
)
from hasamigo.cli.tournament.tables import print_ranking
from hasamigo.cli.workers import (
    CoresOpt,
    JobsOpt,
    RayAddressOpt,
    RayOpt,
    backend_for,
    workers_of,
)

if TYPE_CHECKING:
    from hasamigo.tournament.service import EntrantView


# ---- run ---------------------------------------------------------------------------------
def _threads(entrants: Iterable[EntrantView]) -> int:
    """The most search threads an entrant's program asks for (``engine:N@T``): what each
    game's worker needs (:func:`~hasamigo.cli.workers.workers_of`)."""
    from hasamigo.engine.players import spec_threads
    from hasamigo.errors import InvalidOptionError

    most = 1
    for entrant in entrants:
        if entrant.program is not None:
            with contextlib.suppress(InvalidOptionError):  # refused when its game starts
                most = max(most, spec_threads(entrant.program))
    return most


@tournament_app.command("run")
def run(
    tournament: TournamentArg,
    random_plies: Annotated[int, typer.Option(
        "--random-plies", min=0, max=59, help="Open each game with this many random "
                                             "moves (programs that always play alike "
                                             "then play different games).")] = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", dir_okay=False, help="Also write every game (.ggf, .txt, .wtb).")] = None,
    workers: CoresOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Programs play the whole tournament (or the rest of it) by themselves, games in
    parallel; every game is saved to the games library (public) and to --out.

    A round's games are shared out through the jobs runner (local processes, one per
    core unless --workers says, or Ray actors; a game whose worker dies is played again)
    and each is stored as it finishes: a stopped run resumes from the database. With
    programs on T search threads (engine:N@T), one worker per T cores unless --workers
    says.

    JSON: {tournament: {…as for new}, ranking: [{…as for standings}], league: [{place,
    name, program, games, wins, draws, losses, discs, score_pct, elo, elo_ci95}]}
    (Elo: the difference to the field that each program's score means.)
    """
    from hasamigo.cli.match import _elo_text, _progress
    from hasamigo.jobs import JobError
    from hasamigo.jobs.games import program_player
    from hasamigo.tournament.export import write_games_ggf
    from hasamigo.tournament.programs import league_table, run_tournament

    if jobs is not None and workers is not None:
        workers_of(workers, jobs)  # both given: refused before the database is opened
    if out is not None:
        from hasamigo.errors import HasamigoError
        from hasamigo.notation import detect_format

        try:
            detect_format(out)
        except HasamigoError as exc:
            raise fail(str(exc)) from None
    progress = _progress(not as_json)
    with opened_service(db) as service, progress:
        tid = service.resolve(tournament)
        info = service.info(tid)
        count = workers_of(workers, jobs, threads=_threads(service.entrants(tid)))
        backend = backend_for(count, ray, ray_address)
        task = progress.add_task(escape(info.name), total=None)

        def on_round(number: int, games: int) -> None:
            progress.update(task, description=f"{escape(info.name)}: round {number}",
                            total=games, completed=0)

        try:
            t = run_tournament(service, tid, random_plies=random_plies,
                               on_round=on_round, on_game=lambda _: progress.advance(task),
                               who=who_of(who), play=program_player(backend))
        except JobError as exc:  # a game whose workers kept dying
            raise fail(f"{exc} (the games so far are stored: run again to go on)",
                       code=1) from None
        finally:
            backend.close()
        written = write_games_ggf(service, tid, out) if out is not None else None
        info = service.info(tid)
        ranking = service.ranking(tid)
        league = league_table(t)
    if as_json:
        show_json({"tournament": info, "ranking": ranking, "league": league})
        return
    print_ranking(ranking, f"{escape(info.name)}: final ranking")
    table = Table("place", "program", "games", "wins", "draws", "losses", "score %",
                  "Elo v field", "95%", title="League table")
    for row in league:
        low, high = row.elo_ci95
        table.add_row(str(row.place), escape(row.name), str(row.games), str(row.wins),
                      str(row.draws), str(row.losses), f"{row.score_pct:.1f}",
                      _elo_text(row.elo, 1 if row.score_pct > 50 else -1),
                      f"{_elo_text(low, -1)} .. {_elo_text(high, 1)}")
    console.print(table)
    if written is not None:
        console.print(f"wrote {written} games to {out}", highlight=False)


# ---- export ------------------------------------------------------------------------------
@tournament_app.command("export")
def export(
    tournament: TournamentArg,
    standings_csv: Annotated[Path | None, typer.Option(
        "--standings", dir_okay=False, help="Standings (and final places, dan) as CSV.")
                             ] = None,
    games_csv: Annotated[Path | None, typer.Option(
        "--games", dir_okay=False, help="Every board as CSV.")] = None,
    ggf: Annotated[Path | None, typer.Option(
        "--ggf", dir_okay=False, help="The games with moves (.ggf, .txt or .wtb).")] = None,
    sanctions_csv: Annotated[Path | None, typer.Option(
        "--sanctions", dir_okay=False,
        help="The cautions, warnings and removals of rule 21 (注意・警告・退場) as CSV.")
                             ] = None,
    library: Annotated[bool, typer.Option(
        "--library", help="Make the tournament's stored games public in the library.")
                       ] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Standings, games and rule 21's sanctions as CSV, the games as GGF; the games into
    the library.

    JSON: {standings, games, ggf, sanctions, library: ["game id", …]} (lines or games
    written).
    """
    from hasamigo.tournament.export import (
        publish_games,
        write_games_csv,
        write_games_ggf,
        write_sanctions_csv,
        write_standings_csv,
    )

    if not (standings_csv or games_csv or ggf or sanctions_csv or library):
        raise fail("give --standings FILE, --games FILE, --ggf FILE, --sanctions FILE or "
                   "--library")
    written: dict[str, Any] = {"standings": None, "games": None, "ggf": None,
                               "sanctions": None, "library": None}
    with opened_service(db) as service:
        tid = service.resolve(tournament)
        try:
            if standings_csv is not None:
                written["standings"] = write_standings_csv(
                    standings_csv, service.standings(tid), service.ranking(tid))
            if games_csv is not None:
                written["games"] = write_games_csv(games_csv, service.games_played(tid))
            if ggf is not None:
                written["ggf"] = write_games_ggf(service, tid, ggf)
            if sanctions_csv is not None:
                written["sanctions"] = write_sanctions_csv(sanctions_csv,
                                                           service.sanctions(tid))
        except OSError as exc:
            raise fail(str(exc)) from None
        if library:
            written["library"] = publish_games(service, tid)
    if as_json:
        emit_json(written)
        return
    for key, path in (("standings", standings_csv), ("games", games_csv), ("ggf", ggf),
                      ("sanctions", sanctions_csv)):
        if path is not None:
            console.print(f"wrote {written[key]} {'lines' if key != 'ggf' else 'games'} to "
                          f"{escape(os.fspath(path))}", highlight=False)
    if library:
        console.print(f"{len(written['library'])} games public in the library",
                      highlight=False)


# ---- simulate ----------------------------------------------------------------------------
@tournament_app.command("simulate")
def simulate(
    entrants: Annotated[int, typer.Option("--entrants", "-n", min=4, max=2000,
                                          help="Simulated players.")] = 32,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same "
                                                     "tournament.")] = 0,
    format: Annotated[str, typer.Option("--format", "-f", help=FORMAT_HELP)] = "meijin",
    c: Annotated[str, typer.Option("--c", help="Brightwell's C: auto or a number.")
                 ] = "auto",
    as_json: JsonOpt = False,
) -> None:
    """A whole tournament (the Meijin format by default) with simulated results; nothing
    is stored.

    JSON: {format, c, rounds: [{round, stage, games: [{black, white, black_discs,
    white_discs, kind}]}], ranking: [{rank, name, wins, brightwell, woman, dan}]} —
    stage: swiss, semifinal, final, third_place, placement, women_final; kind: played,
    bye, not_played_draw, forfeit; wins and brightwell over every game but the
    semifinal, final, third-place and women's-final games (draws ½).
    """
    from hasamigo.tournament.model import TournamentError
    from hasamigo.tournament.simulate import simulate as run_simulation

    try:
        data = run_simulation(entrants, seed, format=format, c=c_setting(c))
    except (TournamentError, ValueError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        emit_json(data)
        return
    console.print(f"{data['format']}: {entrants} players, C = {data['c']}, "
                  f"{len({r['round'] for r in data['rounds']})} rounds", highlight=False)
    table = Table("rank", "name", "wins", "Brightwell", "dan")
    for row in data["ranking"][:16]:
        table.add_row(str(row["rank"]), row["name"] + (" ♀" if row["woman"] else ""),
                      number_text(row["wins"]), number_text(row["brightwell"]), row["dan"] or "")
    console.print(table)
