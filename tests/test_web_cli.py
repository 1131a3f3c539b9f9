"""The ``serve`` command is registered and documented."""

from __future__ import annotations

from typer.testing import CliRunner

from hasamigo.cli import app


def test_serve_help() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--db" in result.output
