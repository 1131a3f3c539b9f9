"""``hasamigo tournament new`` and ``enter``: make a tournament and enter its players (by
name or from a CSV file).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from hasamigo.cli import DbOpt, JsonOpt, console, fail
from hasamigo.cli.tournament.common import (
    FORMAT_HELP,
    TournamentArg,
    WhoOpt,
    c_setting,
    opened_service,
    show_json,
    tournament_app,
    who_of,
)


# ---- new ---------------------------------------------------------------------------------
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
    date: Annotated[str | None, typer.Option(
        "--date", help="The tournament's day (2023-03-18): a division's ages are counted "
                       "on it (default: the day a player is entered).")] = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a tournament; prints its id.

    JSON: {id, name, format, format_title, state, rounds_paired, total_rounds,
    round_complete, entrants, c, settings, has_password, created_at, updated_at}
    """
    from hasamigo.tournament.model import Settings

    with opened_service(db) as service:
        settings = Settings(format, rounds=rounds, c=c_setting(c), seed=seed,
                            prize_places=prize_places, third_place=third_place, date=date)
        info = service.create(name, settings, password=password, who=who_of(who))
    if as_json:
        show_json(info)
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
    seed, division, program. A name a spreadsheet export wrote safe (``'=…``,
    :mod:`hasamigo.notation.csv_cells`) is read as it was typed."""
    from hasamigo.notation.csv_cells import restore  # here: --help loads no board

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
        out.append({"name": restore(row["name"]), "rank": row.get("rank") or None,
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
    born: Annotated[str | None, typer.Option(
        help="Birth date (1983-03-18): the master division's age.")] = None,
    student: Annotated[bool | None, typer.Option(
        "--student/--not-student", help="Student status (the student division).")] = None,
    school_year: Annotated[int | None, typer.Option(
        min=1, max=12, help="School year from the first of elementary school: 1-6 小学, "
                            "7-9 中学, 10-12 高校 (the elementary division).")] = None,
    override: Annotated[str | None, typer.Option(
        help="Let the player in although the division's conditions refuse them: the "
             "reason, kept in the audit log.")] = None,
    program: Annotated[str | None, typer.Option(
        help="A program entrant's spec (as for match: engine:5, victory, …); the name "
             "defaults to it.")] = None,
    account: Annotated[str | None, typer.Option(
        "--account", help="Enter a player's account by its name (the entrant's name is "
                          "the account's; its results are rated, its rating seeds it).")
                       ] = None,
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
    if account is not None:
        if name is not None or program is not None:
            raise fail("--account enters the account under its own name: give no NAME or "
                       "--program with it")
        people.append({"account": account, "rank": rank, "birth_year": birth_year,
                       "woman": woman, "seed": seed, "division": division, "born": born,
                       "student": student, "school_year": school_year,
                       "override": override})
    elif name is not None or program is not None:
        people.append({"name": name or program, "rank": rank, "birth_year": birth_year,
                       "woman": woman, "seed": seed, "division": division,
                       "program": program, "born": born, "student": student,
                       "school_year": school_year, "override": override})
    if csv_file is not None:
        people += _csv_entrants(csv_file)
    if not people and not withdraw:
        raise fail("give a NAME (or --program), --csv FILE or --withdraw NAME")
    entered, withdrawn = [], []
    with opened_service(db) as service:
        tid = service.resolve(tournament)
        for person in people:
            if "account" in person:
                from hasamigo.accounts import AccountStore  # here: --help loads no database

                found = AccountStore(service.repo.db).by_name(person.pop("account"))
                if found is None:
                    raise fail("no account of that name")
                person.update(name=found.name, account_id=found.id)
            entered.append(service.register(tid, who=who_of(who), **person))
        for entrant in withdraw or []:
            withdrawn.append(service.withdraw(tid, entrant, who=who_of(who), reason=reason))
    if as_json:
        show_json({"entered": entered, "withdrawn": withdrawn})
        return
    for e in entered:
        extra = ", ".join(x for x in (e.rank, e.program, "woman" if e.woman else None,
                                      "seed" if e.seed else None) if x)
        console.print(f"entered #{e.number} {escape(e.name)}"
                      + (f" ({escape(extra)})" if extra else ""), highlight=False)
    for e in withdrawn:
        console.print(f"withdrew #{e.number} {escape(e.name)} from round {e.withdrawn_from} "
                      "on", highlight=False)


# ---- registration -----------------------------------------------------------------------------
@tournament_app.command("registration")
def registration(
    tournament: TournamentArg,
    open_: Annotated[bool | None, typer.Option(
        "--open/--closed", help="Signed-in players may enter themselves on the web (until "
                                "round 1 is paired).")] = None,
    closes: Annotated[str | None, typer.Option(
        help="Registration closes at this time (2026-12-24T18:00+09:00; UTC when no zone "
             "is given; 'none': no closing time).")] = None,
    cap: Annotated[int | None, typer.Option(
        min=0, max=2000, help="At most this many entrants (0: no cap).")] = None,
    seeding: Annotated[str | None, typer.Option(
        help="The order before round 1: 'rank' (seeds, dan/kyu, registration) or 'rating' "
             "(seeds, the rated by rating, the unrated by rank).")] = None,
    rating_seeds: Annotated[int | None, typer.Option(
        min=0, max=64, help="The highest rated entrants taken as seeds (kept apart in "
                            "round 1).")] = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Open or close self-registration and choose the seeding; with no option, show them.

    JSON: the tournament's {id, name, …, settings}.
    """
    changes: dict[str, Any] = {}
    if open_ is not None:
        changes["registration"] = open_
    if closes is not None:
        changes["registration_closes"] = None if closes.lower() == "none" else closes
    if cap is not None:
        changes["registration_cap"] = cap or None
    if seeding is not None:
        changes["seeding"] = seeding
    if rating_seeds is not None:
        changes["rating_seeds"] = rating_seeds
    with opened_service(db) as service:
        tid = service.resolve(tournament)
        info = service.set_registration(tid, who=who_of(who), **changes) if changes \
            else service.info(tid)
    if as_json:
        show_json(info)
        return
    s = info.settings
    console.print(f"registration {'open' if s.get('registration') else 'closed'}"
                  + (f", closes {s['registration_closes']}" if s.get("registration_closes")
                     else "")
                  + (f", at most {s['registration_cap']} entrants"
                     if s.get("registration_cap") else "")
                  + f"; seeding by {s.get('seeding', 'rank')}"
                  + (f", {s['rating_seeds']} seeds by rating" if s.get("rating_seeds")
                     else ""), highlight=False)
