"""Fuzz: transcripts, as text (parse_transcript) and as files (read_transcripts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import (
    FUZZ,
    check_file_error,
    check_message,
    check_problem,
    mutate,
    mutated_text,
    transcript_file,
    transcripts,
    variants,
    write,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import Board, ParseError
from hasamigo.notation import parse_transcript, read_transcripts


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz-transcripts")


def check_text(variant: type[Board], text: str) -> None:
    board = variant()
    try:
        moves = parse_transcript(text, board)
    except ParseError as exc:
        check_message(exc)
        assert exc.offset is not None and 0 <= exc.offset <= len(text)
        return
    for move in moves:
        board.push(move)  # the moves given back are legal, forced passes included


def check_file(path: Path, *, strict: bool = False) -> None:
    try:
        records = list(read_transcripts(path, strict=strict))
    except ParseError as exc:
        check_file_error(exc, path)
        return
    for record in records:
        check_problem(record.problem, path)
        if record.problem is None:
            record.replay()
        else:
            with pytest.raises(ParseError):
                record.replay()


def test_the_real_files_read_cleanly(tmp_path: Path) -> None:
    path = write(tmp_path / "games.txt", transcript_file())
    records = list(read_transcripts(path, strict=True))
    assert len(records) == len(transcripts())
    for text in transcripts()[:8]:
        parse_transcript(text)


@settings(FUZZ, max_examples=200)
@given(variant=variants(), text=st.text(max_size=80))
def test_arbitrary_text(variant: type[Board], text: str) -> None:
    check_text(variant, text)


@settings(FUZZ, max_examples=200)
@given(variant=variants(), data=st.data())
def test_mutated_transcripts(variant: type[Board], data: st.DataObject) -> None:
    check_text(variant, mutated_text(transcripts(), data))


@settings(FUZZ, max_examples=50)
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_as_a_file(folder: Path, data: bytes) -> None:
    check_file(write(folder / "random.txt", data))


@settings(FUZZ, max_examples=150)
@given(data=st.data(), strict=st.booleans())
def test_mutated_files(folder: Path, data: st.DataObject, strict: bool) -> None:
    check_file(write(folder / "games.txt", mutate(transcript_file(), data)), strict=strict)
