"""A file named on the command line may be a pipe (issue 65 item 9): ``hasamigo solve
<(head -2 suite.obf)`` gives the command ``/dev/fd/63``, which reads once, has no size and no
extension. Each command that takes a file reads a real pipe (``os.pipe`` named
``/dev/fd/N``, or a FIFO made by ``os.mkfifo``) as it reads the file, and an input with
nothing in it is an error (status 2 and a message), never a pass."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app

DATA = Path(__file__).parent / "data"
SUITE = DATA / "ffo" / "fforum-1-19.obf"
runner = CliRunner()


@contextlib.contextmanager
def piped(data: bytes) -> Iterator[str]:
    """``data`` behind a pipe, named as a shell names ``<(…)``: ``/dev/fd/N``."""
    read, write = os.pipe()

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), os.fdopen(write, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield f"/dev/fd/{read}"
    finally:
        os.close(read)
        writer.join(timeout=5)


@contextlib.contextmanager
def fifo(folder: Path, data: bytes, name: str = "suite") -> Iterator[str]:
    """``data`` behind a named pipe (a FIFO) with no extension."""
    path = folder / name
    os.mkfifo(path)

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), open(path, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield str(path)
    finally:
        if writer.is_alive():  # the command never opened it: let the writer go
            with contextlib.suppress(OSError), open(path, "rb"):
                pass
        writer.join(timeout=5)


def run(*args: str) -> tuple[int, str]:
    """The exit code and what the command printed; a success with ``--json``, its
    standard output alone (a first run's "compiling the engine…" goes to standard
    error)."""
    result = runner.invoke(app, list(args))
    json_out = "--json" in args and result.exit_code == 0
    return result.exit_code, result.stdout if json_out else result.output


def first_lines(path: Path, n: int) -> bytes:
    return b"".join(path.read_bytes().splitlines(keepends=True)[:n])


def test_solve_reads_a_pipe_as_a_file() -> None:
    """The issue's case: positions from a pipe are solved and counted, not skipped."""
    with piped(first_lines(SUITE, 1)) as name:
        code, out = run("solve", name, "--json")
    assert code == 0, out
    report = json.loads(out)
    assert [p["index"] for p in report["positions"]] == [1]
    assert report["positions"][0]["ok"] and report["all_ok"]


def test_solve_reads_a_fifo(tmp_path: Path) -> None:
    with fifo(tmp_path, first_lines(SUITE, 1)) as name:
        code, out = run("solve", name, "--json")
    assert code == 0, out
    assert len(json.loads(out)["positions"]) == 1


@pytest.mark.parametrize("content", [b"", b"% a comment, no position\n\n"])
def test_an_input_with_no_position_is_an_error_not_a_pass(content: bytes,
                                                          tmp_path: Path) -> None:
    with piped(content) as name:
        code, out = run("solve", name, "--json")
    assert code == 2, out
    assert "no position" in out and name in out and "all_ok" not in out
    empty = tmp_path / "empty.obf"
    empty.write_bytes(content)
    code, out = run("solve", str(empty), "--json")
    assert code == 2 and "no position" in out


def test_a_bad_position_in_a_pipe_is_named_as_given() -> None:
    with piped(b"this is not a position\n") as name:
        code, out = run("solve", name)
    assert code == 2 and name in out and "hasamigo-input" not in out


@pytest.mark.parametrize("archive", ["ggf/nboard-test.ggf", "ggf/nboard-test2.ggf",
                                     "wthor/WTH_1977.wtb", "xot-sample.txt"])
def test_games_and_convert_read_every_format_from_a_pipe(archive: str,
                                                         tmp_path: Path) -> None:
    """A pipe has no extension: the format is the one its content shows."""
    source = DATA / archive
    code, expected = run("games", str(source), "--json")
    with piped(source.read_bytes()) as name:
        code, out = run("games", name, "--json")
    assert code in (0, 1), out
    assert json.loads(out)["games"] == json.loads(expected)["games"] > 0
    target = tmp_path / "out.ggf"
    with piped(source.read_bytes()) as name:
        code, out = run("convert", name, str(target))
    assert code == 0, out
    assert target.read_text().count("(;") == json.loads(expected)["games"]


def test_games_and_convert_refuse_an_empty_pipe(tmp_path: Path) -> None:
    with piped(b"") as name:
        code, out = run("games", name, "--json")
    assert code == 2 and "no game" in out
    with piped(b"") as name:
        code, out = run("convert", name, str(tmp_path / "x.ggf"))
    assert code == 2 and "no game" in out and not (tmp_path / "x.ggf").exists()


def test_record_check_and_sheet_read_a_pipe() -> None:
    sheet = DATA.parent / "data" / "ggf" / "nboard-test.ggf"
    with piped(sheet.read_bytes()) as name:
        code, out = run("record", "sheet", name)
    assert code == 0, out
    assert "<html" in out.lower()
    lines = "\n".join(" ".join(["-"] * 8) for _ in range(8)) + "\n"
    with piped(lines.encode()) as name:
        code, out = run("record", "check", name, "--json")
    assert code in (0, 1), out
    assert "transcript" in json.loads(out)


def test_book_show_reads_its_book_from_a_pipe() -> None:
    book = Path(__file__).parent.parent / "src" / "hasamigo" / "data" / "book.npz"
    code, expected = run("book", "show", "f5", "--book", str(book), "--json")
    assert code == 0, expected
    with piped(book.read_bytes()) as name:
        code, out = run("book", "show", "f5", "--book", name, "--json")
    assert code == 0, out
    assert json.loads(out) == json.loads(expected)
    with piped(book.read_bytes()) as name:
        code, out = run("book", "deepen", name)
    assert code == 2 and "not a pipe" in out


def test_tournament_entrants_from_a_pipe(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    code, out = run("tournament", "new", "Club", "--format", "swiss", "--rounds", "1",
                    "--password", "pass1234", "--db", db)
    assert code == 0, out
    with piped(b"name,rank\nAnn,3d\n'=Ben,\n") as name:
        code, out = run("tournament", "enter", "Club", "--csv", name, "--db", db, "--json")
    assert code == 0, out
    assert [e["name"] for e in json.loads(out)["entered"]] == ["Ann", "=Ben"]
