"""``hasamigo tournament sanction`` and ``sanctions``: the arbiter's caution (注意),
warning (警告) and removal (退場) of a person who disturbs the tournament (JOF rule 21:
「円滑で公正な大会運営を妨げる人物に注意、警告を与え、退場を命じることができる」; see
:mod:`hasamigo.tournament.sanctions`)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, console
from hasamigo.cli.tournament.common import (
    TournamentArg,
    WhoOpt,
    opened_service,
    show_json,
    tournament_app,
    who_of,
)


def _where(s: Any) -> str:
    return "" if s.round is None else f"round {s.round}" + (
        "" if s.board is None else f" board {s.board}")


@tournament_app.command("sanction")
def sanction(
    tournament: TournamentArg,
    kind: Annotated[str, typer.Argument(
        help="caution (注意), warning (警告) or removal (退場).")],
    reason: Annotated[str, typer.Option(help="Why (required; kept in the record).")],
    entrant: Annotated[str | None, typer.Option(
        help="The entrant sanctioned (name or number). Removal also withdraws them from "
             "the next round (the project's reading: the rule does not say).")] = None,
    person: Annotated[str | None, typer.Option(
        help="Someone who is not an entrant (a spectator, a companion), by name.")] = None,
    round_number: Annotated[int | None, typer.Option(
        "--round", min=1, help="The round it happened in, if any.")] = None,
    board: Annotated[int | None, typer.Option(
        min=1, help="The board it happened at, if any (with --round).")] = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Give a sanction of JOF rule 21 to an entrant or another person: a caution (注意),
    a warning (警告) or removal (退場), with the reason; kept in the tournament's record.

    JSON: {id, kind, kind_ja, person, entrant, reason, round, board, at, who}
    """
    with opened_service(db) as service:
        given = service.sanction(service.resolve(tournament), kind, reason=reason,
                                 entrant=entrant, person=person, round_number=round_number,
                                 board=board, who=who_of(who))
    if as_json:
        show_json(given.to_json())
        return
    where = _where(given)
    console.print(f"{given.kind.label} to {escape(given.person)}"
                  + (f" ({where})" if where else "") + f": {escape(given.reason)}",
                  highlight=False)


@tournament_app.command("sanctions")
def sanctions(tournament: TournamentArg, db: DbOpt = None, as_json: JsonOpt = False
              ) -> None:
    """Every sanction of JOF rule 21 given in the tournament (注意・警告・退場), oldest
    first.

    JSON: [{id, kind, kind_ja, person, entrant, reason, round, board, at, who}]
    """
    with opened_service(db) as service:
        given = service.sanctions(service.resolve(tournament))
    if as_json:
        show_json([s.to_json() for s in given])
        return
    table = Table("when", "kind", "person", "where", "reason", "by",
                  title="sanctions (JOF rule 21)")
    for s in given:
        person = escape(s.person) + ("" if s.entrant is None else f" (#{s.entrant})")
        table.add_row(s.at.strftime("%Y-%m-%d %H:%M"), s.kind.label, person, _where(s),
                      escape(s.reason), escape(s.who))
    console.print(table)
