"""The files a command reads, read like files whatever they are: a pipe too.

A shell gives ``hasamigo solve <(head -2 suite.obf)`` the name ``/dev/fd/63``: a pipe,
which can be read once only, has no size, cannot seek and has no extension. A command that
read its input twice (once to check it, once to use it), handed its name to worker
processes or chose the format by the extension saw nothing the second time, or refused it
(issue 65: ``solve`` then reported no position and ``all_ok: true``). So every command that
takes a file goes through :func:`input_file` / :func:`input_files`: a regular file is used as
it is; anything else (a pipe, a FIFO, ``/dev/stdin``) is read once, up to
:data:`MAX_BYTES`, into a temporary regular file removed when the command ends. The copy
keeps the name's extension, or, when the name has none, takes the one its content shows
(:func:`sniffed_suffix`: GGF, OBF, WTHOR or a transcript). An error about the copy names the
file as the user wrote it (:func:`as_named`, which :func:`hasamigo.cli.core.fail_with` uses).

A file with nothing to work on is an error too, never a pass: each command says so
(:func:`nothing_in`), with status 2.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import typer

#: the most a pipe's content may hold (a WTHOR year is a few MB; the biggest archives
#: read here are a few hundred)
MAX_BYTES = 1 << 30
_CHUNK = 1 << 20
_GGF_START = re.compile(rb"\s*(?:[0-9]+\s+)?\(;")  # GGS numbers its games: ``1 (;GM[``
_OBF_LINE = re.compile(rb"\s*[-XO*xo.]{64}\s+[XOxo]\b")
#: the copies made now → the names the user gave
_NAMES: dict[str, str] = {}


def sniffed_suffix(head: bytes) -> str:
    """The extension a file's first bytes show: ``.wtb`` (binary: a NUL byte, which
    WTHOR's header always has, or bytes that are not UTF-8), ``.ggf`` (``(;`` first, or
    after a number as GGS writes), ``.obf`` (a board line: 64 cells and the side), else
    ``.txt`` (transcripts).

    >>> [sniffed_suffix(b) for b in (b" (;GM[Othello]", b"-" * 64 + b" X; A1:+2",
    ...                                b"\\x14\\x1a\\x0c\\x00", b"f5d6c3")]
    ['.ggf', '.obf', '.wtb', '.txt']
    """
    text = head.removeprefix(b"\xef\xbb\xbf")
    if b"\x00" in text:
        return ".wtb"
    if _GGF_START.match(text):
        return ".ggf"
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith((b"%", b"#")):
            if _OBF_LINE.match(line):
                return ".obf"
            break
    try:
        text[:4096].decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(text[:4096]) - 4:  # not a character cut at the end
            return ".wtb"
    return ".txt"


def _copy(path: Path, folder: str) -> Path:
    """``path`` (not a regular file) read once into ``folder``; :class:`OSError` when it
    cannot be read or holds more than :data:`MAX_BYTES`."""
    with open(path, "rb") as source:
        head = source.read(_CHUNK)
        suffix = path.suffix if path.suffix and len(path.suffix) <= 12 else \
            sniffed_suffix(head)
        copy = Path(folder) / f"input-{len(os.listdir(folder))}{suffix.lower()}"
        size = len(head)
        with open(copy, "wb") as target:
            target.write(head)
            while chunk := source.read(_CHUNK):
                size += len(chunk)
                if size > MAX_BYTES:
                    raise OSError(f"{path}: more than {MAX_BYTES >> 20} MB; "
                                  "give a file, not a pipe")
                target.write(chunk)
    _NAMES[str(copy)] = str(path)
    return copy


@contextlib.contextmanager
def input_files(paths: Sequence[Path]) -> Iterator[list[Path]]:
    """``paths`` as regular files for as long as the block runs (see the module
    docstring); one that cannot be read exits with status 2 naming it."""
    if all(p.is_file() for p in paths):
        yield list(paths)
        return
    folder = tempfile.mkdtemp(prefix="hasamigo-input-")
    try:
        try:
            files = [p if p.is_file() else _copy(p, folder) for p in paths]
        except OSError as exc:
            from hasamigo.cli import fail

            where = "" if exc.filename is None else f"{exc.filename}: "
            raise fail(f"{where}{exc.strerror or exc}") from None
        yield files
    finally:
        for copy in [c for c in _NAMES if c.startswith(folder)]:
            del _NAMES[copy]
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def input_file(path: Path) -> Iterator[Path]:
    """One file of :func:`input_files`."""
    with input_files([path]) as [file]:
        yield file


def as_named(text: str) -> str:
    """``text`` (an error's message) with each copy's name replaced by the name the user
    gave (``/dev/fd/63``)."""
    for copy, name in _NAMES.items():
        text = text.replace(copy, name)
    return text


def shown(path: Path) -> str:
    """The name of ``path`` as the user gave it (a copy's original)."""
    return _NAMES.get(str(path), str(path))


def nothing_in(paths: Path | Sequence[Path], what: str) -> typer.Exit:
    """The error for input with no ``what`` in it (status 2), to raise: an empty input is
    never a pass."""
    from hasamigo.cli import fail

    names = [shown(p) for p in ([paths] if isinstance(paths, Path) else paths)]
    where = names[0] if len(names) == 1 else "the files " + ", ".join(names)
    return fail(f"{where}: no {what} in it (an empty file, or a pipe already read?)")


__all__ = ["MAX_BYTES", "as_named", "input_file", "input_files", "nothing_in",
           "shown", "sniffed_suffix"]
