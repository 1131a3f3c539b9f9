"""Fuzz: OBF lines (parse_obf) and files (read_obf, the engine's numbered read_obf)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import (
    FUZZ,
    check_file_error,
    check_message,
    field_values,
    mutate,
    mutated_text,
    obf_files,
    obf_lines,
    write,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import ParseError
from hasamigo.engine.obf import read_obf as read_numbered
from hasamigo.notation import format_obf, parse_obf, read_obf


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz-obf")


def check_line(line: str) -> None:
    try:
        position = parse_obf(line)
    except ParseError as exc:
        check_message(exc)
        assert exc.column is not None
        return
    assert parse_obf(format_obf(position)).answers == position.answers


def check_file(path: Path) -> None:
    try:
        positions = list(read_obf(path))
    except ParseError as exc:
        check_file_error(exc, path)
        with pytest.raises(ParseError):
            read_numbered(path)
        return
    assert len(read_numbered(path)) == len(positions)


def test_the_real_files_read(tmp_path: Path) -> None:
    for index, data in enumerate(obf_files()):
        assert len(list(read_obf(write(tmp_path / f"s{index}.obf", data)))) == 6
    for line in obf_lines():
        assert format_obf(parse_obf(line)) == line.strip()


@settings(FUZZ, max_examples=150)
@given(text=st.text(max_size=100))
def test_arbitrary_text(text: str) -> None:
    check_line(text)


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_mutated_lines(data: st.DataObject) -> None:
    check_line(mutated_text(obf_lines(), data))


@settings(FUZZ, max_examples=50)
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_as_a_file(folder: Path, data: bytes) -> None:
    check_file(write(folder / "random.obf", data))


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_mutated_files(folder: Path, data: st.DataObject) -> None:
    check_file(write(folder / "suite-1-6.obf", mutate(data.draw(st.sampled_from(obf_files())),
                                                      data)))


@settings(FUZZ, max_examples=150)
@given(line=st.sampled_from(obf_lines()), part=st.sampled_from(["move", "score", "side"]),
       value=field_values())
def test_answer_values(line: str, part: str, value: str) -> None:
    """A move, a score or the side to move of a real line set to a planted value."""
    if part == "side":
        check_line(line[:65] + value + line[66:])
        return
    group = 1 if part == "move" else 2
    match = re.search(r"([A-Z][0-9]|PA):([+-][0-9]+)", line)
    assert match is not None
    check_line(line[: match.start(group)] + value + line[match.end(group):])
