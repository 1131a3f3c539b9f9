"""Commands on the web app's accounts (issue 67), for the server's operator: ``accounts
list`` and ``accounts show NAME`` (no password hash is ever shown), ``accounts delete NAME``
(as the account's own deletion on the site does: its ratings, sessions, name and hash
deleted, the games it played kept for the opponents with its name anonymised)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, app, console, emit_json, fail
from hasamigo.cli.helptext import Typer

if TYPE_CHECKING:
    from hasamigo.accounts import Account, AccountStore

accounts_app = Typer(help="The web app's accounts: list, show, delete.")
app.add_typer(accounts_app, name="accounts")

NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The account's name (any "
                                        "case).")]


@contextmanager
def _store(db: str | None) -> Iterator[AccountStore]:
    from hasamigo.accounts import AccountStore
    from hasamigo.cli.database import open_database

    database, _shown = open_database(db)
    try:
        yield AccountStore(database)
    finally:
        database.close()


def _find(store: AccountStore, name: str) -> Account:
    account = store.by_name(name)
    if account is None:
        raise fail(f"no account {name[:40]!r}")
    return account


@accounts_app.command("list")
def accounts_list(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Every account, oldest first.

    JSON: [{id, name, created_at}].
    """
    with _store(db) as store:
        rows = [{"id": a.id, "name": a.name, "created_at": a.created_at.isoformat()}
                for a in store.all()]
    if as_json:
        emit_json(rows)
        return
    table = Table(caption=f"{len(rows)} accounts")
    for column in ("name", "id", "created"):
        table.add_column(column, no_wrap=True)
    for row in rows:
        table.add_row(escape(row["name"]), row["id"], row["created_at"][:16].replace("T", " "))
    console.print(table)


@accounts_app.command("show")
def accounts_show(name: NameArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """One account: when it was made, its sessions, the games it holds seats of, its
    ratings.

    JSON: {id, name, created_at, sessions, games, ratings: {pool: {rating, uncertainty,
    games}}}.
    """
    from hasamigo.ratings import RatingStore, subject_of_account
    from hasamigo.storage.seats import SeatRepository

    with _store(db) as store:
        account = _find(store, name)
        ratings = RatingStore(store.db).pools_of(subject_of_account(account.id))
        shown: dict[str, Any] = {
            "id": account.id, "name": account.name,
            "created_at": account.created_at.isoformat(),
            "sessions": store.session_count(account.id),
            "games": len(SeatRepository(store.db).account_game_ids(account.id)),
            "ratings": {r.pool.value: {"rating": r.display, "uncertainty": r.uncertainty,
                                       "games": r.games} for r in ratings}}
    if as_json:
        emit_json(shown)
        return
    console.print(f"{escape(shown['name'])} ({shown['id']}), since "
                  f"{shown['created_at'][:16].replace('T', ' ')}", highlight=False)
    console.print(f"sessions: {shown['sessions']}, games: {shown['games']}", highlight=False)
    for pool, rating in shown["ratings"].items():
        console.print(f"rating ({pool}): {rating['rating']} ± {rating['uncertainty']} "
                      f"after {rating['games']} games", highlight=False)


@accounts_app.command("delete")
def accounts_delete(
    name: NameArg,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask to confirm.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Delete an account for good: its ratings, sessions, name and password hash; the
    games it played stay for the opponents, its name replaced by "(deleted)". A game
    still going stays as it is (the site's own deletion resigns it; a server may hold it).

    JSON: {deleted: name, games_anonymised: n}.
    """
    from hasamigo.web.services.accounts import forget_account

    with _store(db) as store:
        account = _find(store, name)
        if not yes and not typer.confirm(f"Delete the account {account.name} for good?"):
            raise typer.Exit(1)
        changed = forget_account(store, account.id)
    if as_json:
        emit_json({"deleted": account.name, "games_anonymised": len(changed)})
        return
    console.print(f"deleted {escape(account.name)}; {len(changed)} games anonymised",
                  highlight=False)
