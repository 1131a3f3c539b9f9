"""Cores for the engine in the web app (``Settings.engine_threads``): read as the other
settings are, checked as the engine checks threads, given to one analysis at a time (the
hints, the evaluation graph), said by ``GET /api/status`` and taken by ``hasamigo serve
--engine-threads``."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from hasamigo import Board
from hasamigo.cli import app as cli_app
from hasamigo.engine import Engine
from hasamigo.settings import SettingsError
from hasamigo.web import Settings, create_app
from hasamigo.web.app import SERVE_SETTINGS, served_app
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.settings import _cores


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    import os

    for name in list(os.environ):
        if name.upper().startswith("HASAMIGO_"):
            monkeypatch.delenv(name)
    return monkeypatch


def test_every_core_but_one_by_default_and_read_as_the_other_settings(
        clean_environment: pytest.MonkeyPatch) -> None:
    assert Settings().engine_threads == max(1, _cores() - 1)
    clean_environment.setenv("HASAMIGO_ENGINE_THREADS", "3")
    assert Settings().engine_threads == 3
    assert Settings(engine_threads=5).engine_threads == 5  # a keyword over the variable


@pytest.mark.parametrize("value", ["0", "65", "two"])
def test_a_bad_value_is_refused_naming_its_variable(clean_environment: pytest.MonkeyPatch,
                                                    value: str) -> None:
    clean_environment.setenv("HASAMIGO_ENGINE_THREADS", value)
    with pytest.raises(SettingsError) as caught:
        Settings()
    assert str(caught.value).startswith("HASAMIGO_ENGINE_THREADS")
    if value != "two":
        assert "from 1 to 64" in str(caught.value)


def test_serve_workers_hand_the_threads_over(clean_environment: pytest.MonkeyPatch) -> None:
    clean_environment.setenv(SERVE_SETTINGS, json.dumps({
        "db_url": "sqlite:///:memory:", "warm_engine": False, "engine_threads": 2}))
    assert served_app().state.settings.engine_threads == 2


def test_one_analysis_at_a_time_searches_on_the_cores() -> None:
    service = AnalysisService(Settings(engine_threads=3, warm_engine=False))
    try:
        with service.engine() as first:
            assert first.threads == 3
            with service.engine() as second:  # meanwhile: one thread
                assert second is not first and second.threads == 1
        with service.engine() as again:  # the cores are free again
            assert again.threads == 3
        held: list[int] = []
        entered, leave = threading.Event(), threading.Event()

        def hold() -> None:
            with service.engine() as engine:
                held.append(engine.threads)
                entered.set()
                leave.wait(10)

        other = threading.Thread(target=hold)
        other.start()
        assert entered.wait(10)
        with service.engine() as meanwhile:  # another thread holds the cores
            assert meanwhile.threads == 1
        leave.set()
        other.join()
        assert held == [3]
    finally:
        service.close()


def test_hints_and_the_graph_search_on_the_engines_cores(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    seen: list[tuple[str, int]] = []
    hints, analyse = Engine.hints, Engine.analyse

    def counted_hints(self: Engine, *args: Any, **kwargs: Any) -> Any:
        seen.append(("hints", self.threads))
        return hints(self, *args, **kwargs)

    def counted_analyse(self: Engine, *args: Any, **kwargs: Any) -> Any:
        seen.append(("analyse", self.threads))
        return analyse(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "hints", counted_hints)
    service = AnalysisService(Settings(engine_threads=2, warm_engine=False, hint_depth=3,
                                       eval_depth=2))
    try:
        board = Board()
        board.play("f5")
        view = asyncio.run(service.hints(board))
        assert sorted(h.move for h in view.hints) == ["d6", "f4", "f6"]
        monkeypatch.setattr(Engine, "analyse", counted_analyse)
        graph = asyncio.run(service.evaluations(board))
        assert len(graph.scores) == 2
    finally:
        service.close()
    assert seen[0] == ("hints", 2)
    assert {threads for kind, threads in seen if kind == "analyse"} == {2}


def test_the_status_says_the_engines_cores(tmp_path: Path) -> None:
    web = create_app(Settings(warm_engine=False, engine_threads=2),
                     db_url=f"sqlite:///{tmp_path / 'games.db'}")
    with TestClient(web) as client:
        assert client.get("/api/status").json()["engine_threads"] == 2


def test_serve_takes_the_cores_on_its_command_line() -> None:
    runner = CliRunner()
    assert "--engine-threads" in runner.invoke(cli_app, ["serve", "--help"]).output
    bad = runner.invoke(cli_app, ["serve", "--engine-threads", "0"])
    assert bad.exit_code == 2 and "--engine-threads" in bad.output + bad.stderr
