"""Settings from the environment (pydantic-settings, :mod:`hasamigo.settings`): the web
app's :class:`Settings` and the database's ``HASAMIGO_DB`` read, their defaults, a keyword
over a variable, and a bad value named by its variable."""

from __future__ import annotations

import json

import pytest

from hasamigo.settings import SettingsError
from hasamigo.storage.db import DatabaseSettings, default_db_url
from hasamigo.web import Settings, create_app
from hasamigo.web.app import SERVE_SETTINGS, served_app


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    import os

    for name in list(os.environ):
        if name.upper().startswith("HASAMIGO_"):
            monkeypatch.delenv(name)
    return monkeypatch


def test_the_defaults_are_the_documented_ones() -> None:
    s = Settings()
    assert s.db_url is None and DatabaseSettings().db_url is None
    assert (s.tick_seconds, s.lease_seconds, s.hint_depth, s.warm_engine) == (0.5, 15.0, 6, True)
    assert s.forwarded_allow_ips == () and s.max_body_bytes == 16 * 1024
    assert s.search_workers >= 1 and 1 <= s.compute_workers <= 2
    assert default_db_url().endswith("/hasamigo/hasamigo.db")


def test_variables_are_read_and_keywords_win(clean_environment: pytest.MonkeyPatch) -> None:
    env = clean_environment
    env.setenv("HASAMIGO_DB", "postgresql://u@localhost/h")
    env.setenv("HASAMIGO_TICK_SECONDS", "2")
    env.setenv("HASAMIGO_WARM_ENGINE", "false")
    env.setenv("HASAMIGO_FORWARDED_ALLOW_IPS", '["10.0.0.0/8"]')
    s = Settings()
    assert s.db_url == "postgresql://u@localhost/h" and s.tick_seconds == 2.0
    assert s.warm_engine is False and s.forwarded_allow_ips == ("10.0.0.0/8",)
    assert default_db_url() == "postgresql+psycopg://u@localhost/h"
    assert Settings(tick_seconds=3, db_url=None).tick_seconds == 3.0
    assert Settings(db_url=None).db_url is None
    assert Settings.variable("db_url") == "HASAMIGO_DB"
    assert Settings.variable("max_live_games") == "HASAMIGO_MAX_LIVE_GAMES"
    # create_app(settings, db_url=...) keeps the other settings
    app = create_app(Settings(warm_engine=False, hint_depth=3), db_url="sqlite:///:memory:")
    given = app.state.settings
    assert (given.db_url, given.hint_depth, given.tick_seconds) == ("sqlite:///:memory:", 3, 2)


@pytest.mark.parametrize(("name", "value", "says"), [
    ("HASAMIGO_TICK_SECONDS", "fast", "valid number"),
    ("HASAMIGO_WARM_ENGINE", "maybe", "valid boolean"),
    ("HASAMIGO_MAX_LIVE_GAMES", "2.5", "valid integer"),
    ("HASAMIGO_FORWARDED_ALLOW_IPS", '["proxy.example"]', "trusted proxy"),
    ("HASAMIGO_FORWARDED_ALLOW_IPS", "10.0.0.1", "not JSON"),
])
def test_a_bad_value_names_its_variable(clean_environment: pytest.MonkeyPatch, name: str,
                                        value: str, says: str) -> None:
    clean_environment.setenv(name, value)
    with pytest.raises(SettingsError, match=says) as caught:
        Settings()
    assert str(caught.value).startswith(name)
    assert isinstance(caught.value, ValueError) and caught.value.code == "settings"


def test_a_bad_keyword_names_the_keyword() -> None:
    with pytest.raises(SettingsError, match=r"^tick_seconds='x': .*valid number"):
        Settings(tick_seconds="x")
    with pytest.raises(SettingsError):
        Settings(no_such_setting=1)
    with pytest.raises(ValueError, match="frozen"):
        Settings().tick_seconds = 1.0  # frozen


def test_serve_workers_hand_their_settings_over(clean_environment: pytest.MonkeyPatch
                                                ) -> None:
    clean_environment.setenv(SERVE_SETTINGS, json.dumps({
        "db_url": "sqlite:///:memory:", "warm_engine": False, "lease_seconds": 7.5,
        "forwarded_allow_ips": ["127.0.0.1"]}))
    clean_environment.setenv("HASAMIGO_HINT_DEPTH", "4")  # the parent's variables too
    s = served_app().state.settings
    assert (s.db_url, s.warm_engine, s.lease_seconds) == ("sqlite:///:memory:", False, 7.5)
    assert s.forwarded_allow_ips == ("127.0.0.1",) and s.hint_depth == 4
