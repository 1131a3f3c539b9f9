"""Fuzz: WTHOR name files (``WTHOR.JOU`` players, ``WTHOR.TRN`` tournaments), alone and
beside an archive."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import FUZZ, check_file_error, mutate, names_file, write, wthor_file
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import ParseError
from hasamigo.notation import read_wthor
from hasamigo.notation.wthor import (
    HEADER_SIZE,
    PLAYER_NAME_SIZE,
    TOURNAMENT_NAME_SIZE,
    parse_header,
    read_names,
)

FILES = {"WTHOR.JOU": PLAYER_NAME_SIZE, "WTHOR.TRN": TOURNAMENT_NAME_SIZE}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz-names")


def check_names(path: Path, record_size: int) -> None:
    try:
        names = read_names(path, record_size)
    except ParseError as exc:
        check_file_error(exc, path)
        assert exc.offset is not None
        return
    data = path.read_bytes()
    assert len(names) == parse_header(data).names
    assert all(isinstance(name, str) and "\0" not in name for name in names)


def test_the_samples_read_cleanly(tmp_path: Path) -> None:
    for name, size in FILES.items():
        names = read_names(write(tmp_path / name, names_file(name, size)), size)
        assert len(names) == 6 and all(names[1:])


@settings(FUZZ, max_examples=100)
@given(name=st.sampled_from(sorted(FILES)), data=st.binary(max_size=HEADER_SIZE + 60))
def test_arbitrary_bytes(folder: Path, name: str, data: bytes) -> None:
    check_names(write(folder / f"random-{name}", data), FILES[name])


@settings(FUZZ, max_examples=250)
@given(name=st.sampled_from(sorted(FILES)), data=st.data())
def test_mutated_name_files(folder: Path, name: str, data: st.DataObject) -> None:
    size = FILES[name]
    check_names(write(folder / name, mutate(names_file(name, size), data)), size)


@settings(FUZZ, max_examples=60)
@given(name=st.sampled_from(sorted(FILES)), data=st.data())
def test_a_bad_name_file_beside_an_archive(folder: Path, name: str,
                                           data: st.DataObject) -> None:
    here = folder / "beside"
    shutil.rmtree(here, ignore_errors=True)
    here.mkdir()
    archive = write(here / "WTH_1977.wtb", wthor_file())
    names = write(here / name, mutate(names_file(name, FILES[name]), data))
    try:
        list(read_wthor(archive))
    except ParseError as exc:
        check_file_error(exc, names)
