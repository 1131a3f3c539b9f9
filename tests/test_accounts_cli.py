"""``hasamigo accounts list|show|delete`` (issue 67): the operator's view of the accounts;
no password hash is ever printed; a deletion is the site's (ratings, sessions, name and
hash gone, games anonymised)."""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from hasamigo.accounts import AccountStore
from hasamigo.cli import app
from hasamigo.ratings import Pool, RatingStore, subject_of_account
from hasamigo.ratings.outcome import two_player
from hasamigo.storage import Database

runner = CliRunner()


def database(tmp_path: Path) -> tuple[str, Database]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    db = Database(url)
    db.open()
    return url, db


def test_list_and_show(tmp_path: Path) -> None:
    url, db = database(tmp_path)
    store = AccountStore(db)
    hanako = store.create("Hanako", "correct horse")
    store.create("山田花子", "correct horse")
    store.open_session(hanako.id)
    RatingStore(db).record("game:x", two_player(Pool.OTHELLO, subject_of_account(hanako.id),
                                                 "program:random", winner=0))
    result = runner.invoke(app, ["accounts", "list", "--db", url, "--json"])
    assert result.exit_code == 0, result.output
    assert [a["name"] for a in json.loads(result.stdout)] == ["Hanako", "山田花子"]
    result = runner.invoke(app, ["accounts", "list", "--db", url])
    assert "Hanako" in result.output and "argon2" not in result.output
    result = runner.invoke(app, ["accounts", "show", "hanako", "--db", url, "--json"])
    shown = json.loads(result.stdout)
    assert shown["sessions"] == 1 and shown["ratings"]["othello"]["games"] == 1
    assert "argon2" not in result.output and "password" not in result.output
    result = runner.invoke(app, ["accounts", "show", "nobody", "--db", url])
    assert result.exit_code == 2 and "no account" in result.output


def test_delete(tmp_path: Path) -> None:
    url, db = database(tmp_path)
    store = AccountStore(db)
    hanako = store.create("Zqxhanako", "correct horse")
    store.open_session(hanako.id)
    RatingStore(db).record("game:x", two_player(Pool.OTHELLO, subject_of_account(hanako.id),
                                                 "program:random", winner=0))
    result = runner.invoke(app, ["accounts", "delete", "zqxhanako", "--db", url], input="n\n")
    assert result.exit_code == 1 and store.by_name("Zqxhanako") is not None
    result = runner.invoke(app, ["accounts", "delete", "zqxhanako", "--db", url, "--yes",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"deleted": "Zqxhanako", "games_anonymised": 0}
    assert store.by_name("Zqxhanako") is None
    with db.engine.connect() as conn:
        for table in ("accounts", "account_sessions", "ratings", "rating_changes"):
            rows = conn.execute(sa.text(f"select * from {table}")).all()
            assert not [r for r in rows if hanako.id in str(r) or "Zqxhanako" in str(r)]
