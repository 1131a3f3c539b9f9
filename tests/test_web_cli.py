"""The ``serve`` command: registered and documented; a busy port is refused at once.

The start-up itself (address, pages at once, the engine warming) is tests/test_startup.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from hasamigo.cli import app


def test_serve_help() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--db" in result.output


def test_serve_refuses_a_busy_port_at_once_with_one_line(tmp_path: Path) -> None:
    """Before it loads the app, opens the database or compiles anything: nothing of the
    cache nor the database exists afterwards."""
    cache = tmp_path / "numba"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "hasamigo", "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp_path / 'games.db'}"],
            env={**os.environ, "NUMBA_CACHE_DIR": str(cache), "COLUMNS": "60"},
            capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert f"port {port} on 127.0.0.1 is already in use" in lines[0] and "--port" in lines[0]
    assert "open http" not in proc.stdout
    assert not (tmp_path / "games.db").exists()
    assert not list(cache.rglob("*.nb*"))
