"""Fuzz: WTHOR game archives (``.wtb``): only ParseError naming the file and the byte
offset may escape; a game that cannot be decoded is a record with a ``problem``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import FUZZ, check_file_error, check_problem, mutate, write, wthor_file
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import IllegalMoveError, ParseError
from hasamigo.notation import read_wthor
from hasamigo.notation.wthor import GAME_SIZE, HEADER_SIZE


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz-wthor")  # no WTHOR.JOU/TRN beside the archives


def check_file(path: Path) -> None:
    try:
        records = list(read_wthor(path))
    except ParseError as exc:
        check_file_error(exc, path)
        assert exc.offset is not None
        return
    assert len(records) <= (path.stat().st_size - HEADER_SIZE) // GAME_SIZE
    for record in records:
        check_problem(record.problem, path)
        try:
            record.replay()
        except (ParseError, IllegalMoveError) as exc:  # replay's documented errors
            assert record.problem is not None or isinstance(exc, IllegalMoveError)


def test_the_sample_reads_cleanly(tmp_path: Path) -> None:
    records = list(read_wthor(write(tmp_path / "three.wtb", wthor_file())))
    assert len(records) == 3
    assert all(r.problem is None and r.outcome() is not None for r in records)


@settings(FUZZ, max_examples=100)
@given(data=st.binary(max_size=HEADER_SIZE + 2 * GAME_SIZE))
def test_arbitrary_bytes(folder: Path, data: bytes) -> None:
    check_file(write(folder / "random.wtb", data))


@settings(FUZZ, max_examples=100)
@given(header=st.binary(min_size=HEADER_SIZE, max_size=HEADER_SIZE))
def test_arbitrary_header(folder: Path, header: bytes) -> None:
    check_file(write(folder / "header.wtb", header + wthor_file()[HEADER_SIZE:]))


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_mutated_archives(folder: Path, data: st.DataObject) -> None:
    check_file(write(folder / "games.wtb", mutate(wthor_file(), data)))
