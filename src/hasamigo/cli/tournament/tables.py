"""``hasamigo tournament standings``, ``list`` and ``audit``: what a tournament stands at,
which tournaments there are, and who changed what.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, console
from hasamigo.cli.tournament.common import (
    TournamentArg,
    number_text,
    opened_service,
    show_json,
    tournament_app,
)


# ---- standings ---------------------------------------------------------------------------
def _print_standings(rows: Any, title: str) -> None:
    table = Table("#", "name", "wins", "games", "discs", "opp. wins", "C", "Brightwell",
                  title=title)
    for s in rows:
        name = escape(s.name) + (" ♀" if s.woman else "") + (" (withdrawn)" if s.withdrawn
                                                             else "")
        table.add_row(str(s.place), name, number_text(s.wins), str(s.games), str(s.discs),
                      number_text(s.opponents_wins), str(s.c), number_text(s.brightwell))
    console.print(table)
    for s in rows:  # rule 21: losses by penalty, and cautions, warnings, removals
        for line in (*s.penalties, *s.sanctions):
            console.print(f"  {escape(s.name)}: {escape(line)}", highlight=False)


def print_ranking(rows: Any, title: str) -> None:
    table = Table("place", "name", "wins", "Brightwell", "dan", "王座戦", title=title)
    for r in rows:
        name = escape(r.name) + (" ♀" if r.woman else "") + \
            (" 女流名人" if r.women_champion else "")
        table.add_row(str(r.place), name, number_text(r.wins), number_text(r.brightwell),
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
    discs, opponents_wins, c, brightwell, formula, woman, withdrawn, penalties,
    sanctions}], ranking: [{place,
    number, name, wins, brightwell, woman, dan, dan_english, ouza, women_champion}]}
    """
    with opened_service(db) as service:
        tid = service.resolve(tournament)
        info = service.info(tid)
        rows = service.standings(tid, round_number)
        ranking = service.ranking(tid)
    if as_json:
        show_json({"tournament": info, "standings": rows, "ranking": ranking})
        return
    after = info.rounds_paired if round_number is None else round_number
    _print_standings(rows, f"{escape(info.name)}: standings after round {after}")
    if info.state != "registration":
        print_ranking(ranking, "final ranking" if info.state == "finished"
                       else "ranking so far (provisional)")


@tournament_app.command("list")
def list_tournaments(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The tournaments in the database, the most recently changed first.

    JSON: [{id, name, format, entrants, rounds_paired, created_at, updated_at}]
    """
    with opened_service(db) as service:
        rows = service.list_tournaments()
    if as_json:
        show_json(rows)
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
    with opened_service(db) as service:
        entries = service.audit(service.resolve(tournament))
    if as_json:
        show_json(entries)
        return
    table = Table("when", "who", "what", "round", "board", "reason")
    for e in entries:
        table.add_row(e.at.strftime("%Y-%m-%d %H:%M:%S"), escape(e.who), e.action,
                      "" if e.round is None else str(e.round),
                      "" if e.board is None else str(e.board), escape(e.reason or ""))
    console.print(table)
