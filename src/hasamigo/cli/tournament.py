"""``hasamigo tournament …``: run a tournament (the Meijin format, Swiss, round robin,
knockout) from the command line.

Tournaments live in the games database (``--db``, ``$HASAMIGO_DB``, else the default
file), so the web pages show what the command line did and the other way round. A
tournament is named by its id (printed by ``new``) or its name. Every command that
changes something writes an audit-log entry under ``--as`` (default: the login name).
"""

from __future__ import annotations

import csv
import getpass
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DB_DEFAULT, JsonOpt, app, console, emit_json, fail
from hasamigo.cli.helptext import Typer
from hasamigo.cli.workers import (
    CoresOpt,
    JobsOpt,
    RayAddressOpt,
    RayOpt,
    backend_for,
    workers_of,
)

if TYPE_CHECKING:
    from hasamigo.tournament.service import TournamentService

tournament_app = Typer(
    help="Run a tournament: the Meijin format, Swiss, round robin or knockout.",
    no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")

DbOpt = Annotated[str | None, typer.Option(
    "--db", help=f"Database URL (as for serve). {DB_DEFAULT}")]
WhoOpt = Annotated[str | None, typer.Option(
    "--as", help="Who makes the change, for the audit log (default: your login name).")]
TournamentArg = Annotated[str, typer.Argument(help="The tournament's id or name.")]
FORMAT_HELP = ("meijin (the 43rd Meijin open division), master, student, elementary "
               "(its other divisions), swiss, round-robin, knockout")


def _who(who: str | None) -> str:
    if who:
        return who
    try:
        return getpass.getuser()
    except Exception:  # no login name (a container)
        return "director"


@contextmanager
def _service(db: str | None) -> Iterator[TournamentService]:
    """The tournament service over the database; its errors become exit status 2."""
    from hasamigo.errors import HasamigoError
    from hasamigo.storage import Database
    from hasamigo.tournament.service import TournamentService

    shown = db or "the default database"
    try:
        database = Database(db)
        shown = database.engine.url.render_as_string(hide_password=True)
        service = TournamentService.open(database)
    except Exception as exc:  # a bad URL, a locked or foreign database, a missing driver
        raise fail(f"cannot use {shown}: {exc}") from None
    try:
        yield service
    except (HasamigoError, KeyError, ValueError) as exc:
        raise fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args
                   else str(exc)) from None
    finally:
        database.close()


def _json(value: Any) -> None:
    from hasamigo.tournament.service import as_json

    emit_json(as_json(value))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ---- new ---------------------------------------------------------------------------------
def _c_setting(text: str) -> int | None:
    if text.strip().lower() in ("auto", "nearest"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise typer.BadParameter("C is 'auto' (nearest to 64 ÷ games) or a whole number "
                                 "(6: the older fixed C)") from None
    if not 1 <= value <= 64:
        raise typer.BadParameter("C is 1 to 64")
    return value


@tournament_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    format: Annotated[str, typer.Option("--format", "-f", help=FORMAT_HELP)] = "meijin",
    rounds: Annotated[int | None, typer.Option(
        "--rounds", "-r", min=1, max=50,
        help="Swiss rounds (swiss: default 5; meijin: 6; divisions: 5) or round-robin "
             "cycles.")] = None,
    c: Annotated[str, typer.Option(
        "--c", help="Brightwell's C: auto (the integer nearest to 64 ÷ games) or a number "
                    "(6: the older rules).")] = "auto",
    password: Annotated[str | None, typer.Option(
        "--password", help="The director's password for the web pages (only a salted "
                           "hash is stored).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the draws.")] = 0,
    prize_places: Annotated[int, typer.Option(
        "--prize-places", min=1, max=64, help="Open division: the last 入賞 place.")] = 8,
    third_place: Annotated[bool, typer.Option(
        "--third-place/--no-third-place", help="Knockout: a third-place game.")] = True,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a tournament; prints its id.

    JSON: {id, name, format, format_title, state, rounds_paired, total_rounds,
    round_complete, entrants, c, settings, has_password, created_at, updated_at}
    """
    from hasamigo.tournament.model import Settings

    with _service(db) as service:
        settings = Settings(format, rounds=rounds, c=_c_setting(c), seed=seed,
                            prize_places=prize_places, third_place=third_place)
        info = service.create(name, settings, password=password, who=_who(who))
    if as_json:
        _json(info)
        return
    console.print(f"created tournament {escape(info.name)!s} ({info.format_title}), "
                  f"id [bold]{info.id}[/]", highlight=False)


# ---- enter -------------------------------------------------------------------------------
_TRUE = {"1", "y", "yes", "true", "t", "w", "f", "woman", "female", "女", "女性", "x", "✓"}
_FALSE = {"", "0", "n", "no", "false", "m", "man", "male", "男", "男性", "-"}


def _flag(text: str | None, column: str, line: int) -> bool:
    value = (text or "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise fail(f"line {line}: {column} {text!r} is not yes or no")


def _csv_entrants(path: Path) -> list[dict[str, Any]]:
    """Entrants from a CSV file with a header: name (required), rank, birth_year, woman,
    seed, division, program."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise fail(f"{path}: {exc}") from None
    out = []
    for line, row in enumerate(rows, 2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        if not row.get("name"):
            raise fail(f"{path}: line {line} has no name (columns: name, rank, birth_year, "
                       "woman, seed, division, program)")
        year = row.get("birth_year") or None
        if year is not None and not year.isdigit():
            raise fail(f"{path}: line {line}: birth_year {year!r} is not a year")
        out.append({"name": row["name"], "rank": row.get("rank") or None,
                    "birth_year": None if year is None else int(year),
                    "woman": _flag(row.get("woman"), "woman", line),
                    "seed": _flag(row.get("seed"), "seed", line),
                    "division": row.get("division") or None,
                    "program": row.get("program") or None})
    return out


@tournament_app.command("enter")
def enter(
    tournament: TournamentArg,
    name: Annotated[str | None, typer.Argument(help="The entrant's name.")] = None,
    rank: Annotated[str | None, typer.Option(help="Dan/kyu: 3d, 2 dan, 三段, 1k, 5級.")
                    ] = None,
    birth_year: Annotated[int | None, typer.Option(help="For fuse-ishi (the elder hides).")
                          ] = None,
    woman: Annotated[bool, typer.Option("--woman", help="Plays for the women's final.")
                     ] = False,
    seed: Annotated[bool, typer.Option("--seed", help="A seeded player (kept apart in "
                                                      "round 1).")] = False,
    division: Annotated[str | None, typer.Option(help="Division (free text).")] = None,
    program: Annotated[str | None, typer.Option(
        help="A program entrant's spec (as for match: engine:5, victory, …); the name "
             "defaults to it.")] = None,
    csv_file: Annotated[Path | None, typer.Option(
        "--csv", exists=True, dir_okay=False,
        help="Entrants from a CSV file with a header: name, rank, birth_year, woman, seed, "
             "division, program.")] = None,
    withdraw: Annotated[list[str] | None, typer.Option(
        "--withdraw", help="Withdraw this entrant (name or number) from the next round "
                           "on; may be given again.")] = None,
    reason: Annotated[str | None, typer.Option(help="Why (for the audit log).")] = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Add entrants (before round 1 is paired) or withdraw them (at any time).

    JSON: {entered: [{…an entrant}], withdrawn: [{…an entrant}]} where an entrant is {number, name,
    rank, birth_year, woman, seed, division, program, withdrawn_from}.
    """
    people: list[dict[str, Any]] = []
    if name is not None or program is not None:
        people.append({"name": name or program, "rank": rank, "birth_year": birth_year,
                       "woman": woman, "seed": seed, "division": division,
                       "program": program})
    if csv_file is not None:
        people += _csv_entrants(csv_file)
    if not people and not withdraw:
        raise fail("give a NAME (or --program), --csv FILE or --withdraw NAME")
    entered, withdrawn = [], []
    with _service(db) as service:
        tid = service.resolve(tournament)
        for person in people:
            entered.append(service.register(tid, who=_who(who), **person))
        for entrant in withdraw or []:
            withdrawn.append(service.withdraw(tid, entrant, who=_who(who), reason=reason))
    if as_json:
        _json({"entered": entered, "withdrawn": withdrawn})
        return
    for e in entered:
        extra = ", ".join(x for x in (e.rank, e.program, "woman" if e.woman else None,
                                      "seed" if e.seed else None) if x)
        console.print(f"entered #{e.number} {escape(e.name)}"
                      + (f" ({escape(extra)})" if extra else ""), highlight=False)
    for e in withdrawn:
        console.print(f"withdrew #{e.number} {escape(e.name)} from round {e.withdrawn_from} "
                      "on", highlight=False)


# ---- pair / explain ----------------------------------------------------------------------
def _print_round(view: Any) -> None:
    table = Table("board", "stage", "Black", "", "White", "result",
                  title=f"Round {view.number}" + ("" if view.complete else " (in play)"))
    for g in view.games:
        if g.kind == "bye":
            table.add_row(str(g.board), g.stage, escape(g.black), "", "(bye)", "win")
            continue
        score = "" if g.black_discs is None else f"{g.black_discs}–{g.white_discs}"
        if g.kind == "not_played_draw":
            score = "not played: draw"
        elif g.kind == "forfeit":
            score += " forfeit"
        if g.colours == "fuse-ishi" and not g.finished:
            score = "colours by fuse-ishi"
        if g.draw_win:
            score += f" (draw-win: {escape(g.draw_win)})"
        table.add_row(str(g.board), g.stage, escape(g.black), "v", escape(g.white or ""),
                      score)
    console.print(table)


def _print_explanation(explanation: Any) -> None:
    console.print(f"[bold]Round {explanation.round}: why these pairings[/]")
    for note in explanation.notes:
        console.print(f"  • {escape(note.text)}", highlight=False)
    for board, a, b, why in explanation.boards:
        head = f"board {board}: {escape(a)}" + (f" v {escape(b)}" if b else " (bye)")
        console.print(f"  [bold]{head}[/]", highlight=False)
        for d in why:
            console.print(f"    {escape(f'[{d.rule}]')} {escape(d.text)}", highlight=False)


@tournament_app.command("pair")
def pair(
    tournament: TournamentArg,
    explain: Annotated[bool, typer.Option("--explain", help="Say which rule chose each "
                                                            "pairing.")] = False,
    undo: Annotated[bool, typer.Option("--undo", help="Take back the last round's "
                                                      "pairing (while it has no result).")
                    ] = False,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pair the next round (the round before must be complete).

    JSON: {number, stages, complete, games: [{…a game}]} (+ explanation: {round, notes, boards}
    with --explain), a game being {round, board, stage, kind, black, white, black_number,
    white_number, black_discs, white_discs, winner, finished, colours, draw_win, rated,
    game_id, why: [{rule, text}]}.
    """
    with _service(db) as service:
        tid = service.resolve(tournament)
        if undo:
            number = service.unpair_last_round(tid, who=_who(who))
            if as_json:
                _json({"unpaired": number})
            else:
                console.print(f"round {number} unpaired")
            return
        view = service.pair_next_round(tid, who=_who(who))
        explanation = service.explain(tid, view.number) if explain else None
    if as_json:
        data: dict[str, Any] = {"number": view.number, "stages": view.stages,
                                "complete": view.complete, "games": view.games}
        if explanation is not None:
            data["explanation"] = explanation
        _json(data)
        return
    _print_round(view)
    if explanation is not None:
        _print_explanation(explanation)


@tournament_app.command("explain")
def explain_round(
    tournament: TournamentArg,
    round_number: Annotated[int | None, typer.Option("--round", min=1,
                                                     help="Default: the last paired.")
                            ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say which rule chose each pairing of a round.

    JSON: {round, notes: [{rule, text}], boards: [[board, a, b, [{rule, text}]]]}
    """
    with _service(db) as service:
        explanation = service.explain(service.resolve(tournament), round_number)
    if as_json:
        _json(explanation)
    else:
        _print_explanation(explanation)


# ---- result ------------------------------------------------------------------------------
@tournament_app.command("result")
def result(
    tournament: TournamentArg,
    board: Annotated[int, typer.Argument(min=1, help="The board (pairing) number.")],
    black_discs: Annotated[int | None, typer.Argument(min=0, max=64,
                                                      help="Black's discs on the card.")
                           ] = None,
    white_discs: Annotated[int | None, typer.Argument(min=0, max=64,
                                                      help="White's discs on the card.")
                           ] = None,
    round_number: Annotated[int | None, typer.Option(
        "--round", min=1, help="Default: the last paired round.")] = None,
    black: Annotated[str | None, typer.Option(
        "--black", help="Fuse-ishi games: who played Black (name or number).")] = None,
    draw_win: Annotated[str | None, typer.Option(
        "--draw-win", help="Games without draws: who held the draw-win right.")] = None,
    forfeit: Annotated[str | None, typer.Option(
        "--forfeit", help="A forfeit: the player who forfeits (64–0 to the other).")
                       ] = None,
    late: Annotated[bool, typer.Option(
        "--late", help="With --forfeit: a late player's chosen forfeit (not rated).")
                    ] = False,
    game: Annotated[str | None, typer.Option(
        "--game", help="Take the result from a stored game between the board's two "
                       "entrants (a game over the board recorded at /record, with its "
                       "clock and result card), instead of disc counts.")] = None,
    correct: Annotated[bool, typer.Option(
        "--correct", help="Replace the entered result (needs --reason).")] = False,
    reason: Annotated[str | None, typer.Option(help="Why (a correction needs one).")
                      ] = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Enter a result card: BOARD, Black's and White's discs (counts that do not add up
    to 64 count against the winner, JOF rule 18), or --game: the result of a game
    recorded over the board.

    JSON: the game, as for pair.
    """
    card: dict[str, Any] = {"black_discs": black_discs, "white_discs": white_discs,
                            "black": black, "draw_win": draw_win, "forfeit_loser": forfeit,
                            "late": late}
    if correct and not reason:
        raise fail("a correction needs --reason (it is kept in the audit log)")
    if game is not None and any(v not in (None, False) for v in card.values()):
        raise fail("--game takes the whole result from the game: give no disc counts, "
                   "--black, --draw-win, --forfeit or --late with it")
    with _service(db) as service:
        tid = service.resolve(tournament)
        number = round_number or service.info(tid).rounds_paired
        if game is not None:
            view = service.link_game(tid, number, board, game, who=_who(who),
                                     reason=reason if correct else None)
        elif correct:
            assert reason is not None
            view = service.correct_result(tid, number, board, reason=reason, who=_who(who),
                                          **card)
        else:
            view = service.enter_result(tid, number, board, who=_who(who), **card)
    if as_json:
        _json(view)
        return
    verb = "corrected" if correct else "entered"
    winner = "a draw" if view.winner is None else f"{escape(view.winner)} wins"
    console.print(f"round {view.round} board {view.board} {verb}: {escape(view.black)} "
                  f"{view.black_discs}–{view.white_discs} {escape(view.white or '')}, "
                  f"{winner}" + (" (forfeit)" if view.kind == "forfeit" else ""),
                  highlight=False)


# ---- standings ---------------------------------------------------------------------------
def _print_standings(rows: Any, title: str) -> None:
    table = Table("#", "name", "wins", "games", "discs", "opp. wins", "C", "Brightwell",
                  title=title)
    for s in rows:
        name = escape(s.name) + (" ♀" if s.woman else "") + (" (withdrawn)" if s.withdrawn
                                                             else "")
        table.add_row(str(s.place), name, _num(s.wins), str(s.games), str(s.discs),
                      _num(s.opponents_wins), str(s.c), _num(s.brightwell))
    console.print(table)


def _print_ranking(rows: Any, title: str) -> None:
    table = Table("place", "name", "wins", "Brightwell", "dan", "王座戦", title=title)
    for r in rows:
        name = escape(r.name) + (" ♀" if r.woman else "") + \
            (" 女流名人" if r.women_champion else "")
        table.add_row(str(r.place), name, _num(r.wins), _num(r.brightwell),
                      r.dan or "", "✓" if r.ouza else "")
    console.print(table)


@tournament_app.command("standings")
def standings(
    tournament: TournamentArg,
    round_number: Annotated[int | None, typer.Option(
        "--round", min=0, help="Standings after this round (default: the last paired).")
                            ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The standings (wins, Brightwell points and their parts) and the final ranking
    with dan awards (provisional until the end).

    JSON: {tournament: {…as for new}, standings: [{place, number, name, wins, games,
    discs, opponents_wins, c, brightwell, formula, woman, withdrawn}], ranking: [{place,
    number, name, wins, brightwell, woman, dan, dan_english, ouza, women_champion}]}
    """
    with _service(db) as service:
        tid = service.resolve(tournament)
        info = service.info(tid)
        rows = service.standings(tid, round_number)
        ranking = service.ranking(tid)
    if as_json:
        _json({"tournament": info, "standings": rows, "ranking": ranking})
        return
    after = info.rounds_paired if round_number is None else round_number
    _print_standings(rows, f"{escape(info.name)}: standings after round {after}")
    if info.state != "registration":
        _print_ranking(ranking, "final ranking" if info.state == "finished"
                       else "ranking so far (provisional)")


@tournament_app.command("list")
def list_tournaments(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The tournaments in the database, the most recently changed first.

    JSON: [{id, name, format, entrants, rounds_paired, created_at, updated_at}]
    """
    with _service(db) as service:
        rows = service.list_tournaments()
    if as_json:
        _json(rows)
        return
    table = Table("id", "name", "format", "entrants", "rounds")
    for r in rows:
        table.add_row(r.id, escape(r.name), r.format, str(r.entrants), str(r.rounds_paired))
    console.print(table)


@tournament_app.command("audit")
def audit(tournament: TournamentArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The audit log: every change, with who, when, before, after and why.

    JSON: [{id, at, who, action, round, board, before, after, reason}]
    """
    with _service(db) as service:
        entries = service.audit(service.resolve(tournament))
    if as_json:
        _json(entries)
        return
    table = Table("when", "who", "what", "round", "board", "reason")
    for e in entries:
        table.add_row(e.at.strftime("%Y-%m-%d %H:%M:%S"), escape(e.who), e.action,
                      "" if e.round is None else str(e.round),
                      "" if e.board is None else str(e.board), escape(e.reason or ""))
    console.print(table)


# ---- run ---------------------------------------------------------------------------------
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
    and each is stored as it finishes: a stopped run resumes from the database.

    JSON: {tournament: {…as for new}, ranking: [{…as for standings}], league: [{place,
    name, program, games, wins, draws, losses, discs, score_pct, elo, elo_ci95}]}
    (Elo: the difference to the field that each program's score means.)
    """
    from hasamigo.cli.match import _elo_text, _progress
    from hasamigo.jobs import JobError
    from hasamigo.jobs.games import program_player
    from hasamigo.tournament.export import write_games_ggf
    from hasamigo.tournament.programs import league_table, run_tournament

    count = workers_of(workers, jobs)
    if out is not None:
        from hasamigo.errors import HasamigoError
        from hasamigo.notation import detect_format

        try:
            detect_format(out)
        except HasamigoError as exc:
            raise fail(str(exc)) from None
    progress = _progress(not as_json)
    with _service(db) as service, progress:
        tid = service.resolve(tournament)
        info = service.info(tid)
        backend = backend_for(count, ray, ray_address)
        task = progress.add_task(escape(info.name), total=None)

        def on_round(number: int, games: int) -> None:
            progress.update(task, description=f"{escape(info.name)}: round {number}",
                            total=games, completed=0)

        try:
            t = run_tournament(service, tid, random_plies=random_plies,
                               on_round=on_round, on_game=lambda _: progress.advance(task),
                               who=_who(who), play=program_player(backend))
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
        _json({"tournament": info, "ranking": ranking, "league": league})
        return
    _print_ranking(ranking, f"{escape(info.name)}: final ranking")
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
    library: Annotated[bool, typer.Option(
        "--library", help="Make the tournament's stored games public in the library.")
                       ] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Standings and games as CSV and GGF; the games into the library.

    JSON: {standings, games, ggf, library: ["game id", …]} (lines or games written).
    """
    from hasamigo.tournament.export import (
        publish_games,
        write_games_csv,
        write_games_ggf,
        write_standings_csv,
    )

    if not (standings_csv or games_csv or ggf or library):
        raise fail("give --standings FILE, --games FILE, --ggf FILE or --library")
    written: dict[str, Any] = {"standings": None, "games": None, "ggf": None, "library": None}
    with _service(db) as service:
        tid = service.resolve(tournament)
        try:
            if standings_csv is not None:
                written["standings"] = write_standings_csv(
                    standings_csv, service.standings(tid), service.ranking(tid))
            if games_csv is not None:
                written["games"] = write_games_csv(games_csv, service.games_played(tid))
            if ggf is not None:
                written["ggf"] = write_games_ggf(service, tid, ggf)
        except OSError as exc:
            raise fail(str(exc)) from None
        if library:
            written["library"] = publish_games(service, tid)
    if as_json:
        emit_json(written)
        return
    for key, path in (("standings", standings_csv), ("games", games_csv), ("ggf", ggf)):
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
        data = run_simulation(entrants, seed, format=format, c=_c_setting(c))
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
                      _num(row["wins"]), _num(row["brightwell"]), row["dan"] or "")
    console.print(table)
