"""A seat's secret is hashed in one place, which the web app and the terminal share."""

from __future__ import annotations

import hashlib
import inspect

import hasamigo.cli.play as play_module
import hasamigo.cli.play_store as play_store
from hasamigo.storage import secrets as secret_home
from hasamigo.storage.secrets import secret_hash


def test_the_hash_is_the_hex_sha256_of_the_utf8_text() -> None:
    assert secret_hash("abc-_XYZ") == hashlib.sha256(b"abc-_XYZ").hexdigest()
    assert len(secret_hash("")) == 64
    assert secret_hash("黒") == hashlib.sha256("黒".encode()).hexdigest()
    assert secret_hash("\ud800") == hashlib.sha256(b"?").hexdigest()  # a lone surrogate


def test_the_web_app_hashes_with_the_one_home() -> None:
    from hasamigo.web.services import games

    assert games.secret_hash is secret_home.secret_hash


def test_the_terminal_hashes_with_the_one_home_and_no_copy() -> None:
    source = inspect.getsource(play_module)
    store = inspect.getsource(play_store)  # the game's store, where the join code is kept
    assert "hashlib" not in source + store and "sha256" not in source + store
    assert "from hasamigo.storage.secrets import secret_hash" in store
    assert not hasattr(play_module, "join_code_hash")
