"""Accounts (issue 67): the rules of a name and a password, and the store (accounts,
password checks and rehashing, sessions and their end). On SQLite, and on PostgreSQL
when ``HASAMIGO_TEST_POSTGRES`` is set."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from hasamigo.accounts import (
    AccountStore,
    InvalidName,
    InvalidPassword,
    NameTaken,
    check_password,
    name_key,
    normalise_name,
)
from hasamigo.accounts.store import token_hash
from hasamigo.storage import Database
from hasamigo.storage.models import AccountRow, AccountSessionRow


# ---- the rules --------------------------------------------------------------------------
@pytest.mark.parametrize(("given", "stored"), [
    ("taro", "taro"), ("  Taro_1  ", "Taro_1"), ("ＴＡＲＯ", "TARO"), ("ﾀﾛｳ", "タロウ"),
    ("山田-太郎", "山田-太郎"), ("abc", "abc"), ("a" * 20, "a" * 20), ("ゆーき", "ゆーき"),
    ("花子", "花子"), ("ab", "ab"),  # two characters: many Japanese names
    ("ta\u0301ro", "t\u00e1ro"),
    # Japanese mixes its scripts and Latin letters; one other script alone is a name
    ("山田たろうTaro", "山田たろうTaro"), ("佐々木", "佐々木"), ("Иван", "Иван"),
    ("Αλέξης", "Αλέξης"), ("김민수", "김민수"), ("Straße_2", "Straße_2"),
])
def test_names_that_may_be_used(given: str, stored: str) -> None:
    assert normalise_name(given) == stored


@pytest.mark.parametrize("given", [
    "a", "山", "a" * 21, "a b", "<script>", "taro!", "a\u0000b", "tar\u200bo", "", "   ",
    "(deleted)", "a.b", "abc\u0308",
    # letters that draw nothing (the Hangul fillers, also after NFKC), no letter at all
    "\u3164\u3164\u3164", "\uffa0\uffa0\uffa0", "\u115f\u1160\u115f", "ab\u3164c",
    "---", "_-_",
    # letters of two scripts: a Cyrillic or Greek letter passing for a Latin one
    "\u0430lice", "b\u043eb", "\u0391lex", "taro\u0442", "山田\u0430bc",
])
def test_names_refused(given: str) -> None:
    with pytest.raises(InvalidName):
        normalise_name(given)


def test_names_differ_by_more_than_case_and_width() -> None:
    assert name_key("Taro") == name_key("tARO") == name_key(normalise_name("ｔａｒｏ"))
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("taro") != name_key("jiro")


@pytest.mark.parametrize("password", ["1234567", "x" * 257, "        ", "TaroTaro"])
def test_passwords_refused(password: str) -> None:
    with pytest.raises(InvalidPassword) as refused:
        check_password(password, "tarotaro")
    assert password.strip() not in str(refused.value) or not password.strip()


def test_passwords_that_may_be_used() -> None:
    assert check_password("correct horse", "taro") == "correct horse"
    assert check_password("x" * 256) == "x" * 256
    assert check_password("パスワードです八文字")


# ---- the store ---------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def test_create_and_find(db: Database) -> None:
    store = AccountStore(db)
    account = store.create("Ｔａｒｏ", "correct horse")
    assert len(account.id) == 32 and account.name == "Taro"
    assert store.by_id(account.id) == account
    assert store.by_name("taro") == account == store.by_name("TARO ")
    assert store.by_name("jiro") is None and store.by_id("0" * 32) is None
    assert store.by_id("not an id") is None
    with pytest.raises(NameTaken):
        store.create("TARO", "another password")
    assert [a.name for a in store.all()] == ["Taro"]


def test_the_password_is_stored_only_as_an_argon2_hash(db: Database) -> None:
    store = AccountStore(db)
    store.create("hanako", "correct horse")
    with db.session() as session:
        stored = session.scalar(select(AccountRow.password_hash))
    assert stored is not None and stored.startswith("$argon2id$")
    assert "correct horse" not in stored


def test_authenticate(db: Database) -> None:
    store = AccountStore(db)
    account = store.create("hanako", "correct horse")
    assert store.authenticate("Hanako", "correct horse") == account
    assert store.authenticate("hanako", "Correct horse") is None
    assert store.authenticate("nobody", "correct horse") is None
    assert store.authenticate("x" * 300, "correct horse") is None
    assert store.check(account.id, "correct horse")
    assert not store.check(account.id, "wrong password")
    assert not store.check("0" * 32, "correct horse")


def test_an_old_hash_is_replaced_at_sign_in(db: Database) -> None:
    import hashlib

    store = AccountStore(db)
    account = store.create("hanako", "correct horse")
    salt = "00" * 16
    digest = hashlib.pbkdf2_hmac("sha256", b"correct horse", bytes.fromhex(salt), 1000).hex()
    with db.session() as session, session.begin():
        session.execute(update(AccountRow).values(
            password_hash=f"pbkdf2_sha256$1000${salt}${digest}"))
    assert store.authenticate("hanako", "correct horse") == account
    with db.session() as session:
        assert session.scalar(select(AccountRow.password_hash)).startswith("$argon2id$")
    assert store.authenticate("hanako", "correct horse") == account


def test_sessions(db: Database) -> None:
    clock = Clock()
    store = AccountStore(db, clock=clock)
    account = store.create("hanako", "correct horse")
    token = store.open_session(account.id)
    other = store.open_session(account.id)
    assert token != other and len(token) >= 43
    assert store.session_account(token) == account
    with db.session() as session:  # only the hash is kept
        hashes = set(session.scalars(select(AccountSessionRow.token_hash)))
    assert hashes == {token_hash(token), token_hash(other)} and token not in hashes
    assert store.close_session(token)
    assert store.session_account(token) is None
    assert not store.close_session(token)
    assert store.session_account(other) == account
    assert store.session_account("") is None and store.session_account("x" * 500) is None
    assert store.close_sessions(account.id) == 1
    assert store.session_account(other) is None


def test_a_session_is_touched_and_ends_when_unused(db: Database) -> None:
    clock = Clock()
    store = AccountStore(db, clock=clock)
    account = store.create("hanako", "correct horse")
    token = store.open_session(account.id)
    clock.now += timedelta(days=20)
    assert store.session_account(token) == account  # seen: 30 more days
    clock.now += timedelta(days=29)
    assert store.session_account(token) == account
    clock.now += timedelta(days=31)
    assert store.session_account(token) is None
    assert store.session_count(account.id) == 0  # the expired row went


def test_a_session_ends_90_days_after_sign_in(db: Database) -> None:
    clock = Clock()
    store = AccountStore(db, clock=clock)
    account = store.create("hanako", "correct horse")
    token = store.open_session(account.id)
    for _ in range(4):
        clock.now += timedelta(days=20)
        assert store.session_account(token) == account
    clock.now += timedelta(days=11)
    assert store.session_account(token) is None


def test_a_session_of_no_account_is_refused(db: Database) -> None:
    from hasamigo.accounts import AccountNotFound

    with pytest.raises(AccountNotFound):
        AccountStore(db).open_session("0" * 32)
