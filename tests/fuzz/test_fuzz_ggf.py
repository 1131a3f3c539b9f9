"""Fuzz: GGF as text (parse_ggf) and as files (read_ggf, lenient and strict)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import (
    FUZZ,
    check_file_error,
    check_message,
    check_problem,
    field_values,
    ggf_files,
    mutate,
    write,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import ParseError
from hasamigo.notation import parse_ggf, read_ggf


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz-ggf")


def check_text(text: str) -> None:
    try:
        records = parse_ggf(text)
    except ParseError as exc:
        check_message(exc)
        assert exc.line is not None
        return
    for record in records:
        record.replay()  # validated while read


def check_file(path: Path, *, strict: bool) -> None:
    try:
        records = list(read_ggf(path, strict=strict))
    except ParseError as exc:
        check_file_error(exc, path)
        return
    for record in records:
        check_problem(record.problem, path)
        if record.problem is None:
            record.replay()


def test_the_real_files_read_cleanly(tmp_path: Path) -> None:
    counts = []
    for index, data in enumerate(ggf_files()):
        records = list(read_ggf(write(tmp_path / f"g{index}.ggf", data), strict=True))
        counts.append(len(records))
        assert parse_ggf(data.decode()) == records
    assert counts == [1, 3]


@settings(FUZZ, max_examples=200)
@given(text=st.text(max_size=60).map(lambda body: f"(;{body};)") | st.text(max_size=60))
def test_arbitrary_text(text: str) -> None:
    check_text(text)


@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_mutated_text(data: st.DataObject) -> None:
    raw = mutate(data.draw(st.sampled_from(ggf_files())), data)
    check_text(raw.decode("utf-8", data.draw(st.sampled_from(["replace", "surrogateescape"]))))


@settings(FUZZ, max_examples=50)
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_as_a_file(folder: Path, data: bytes) -> None:
    check_file(write(folder / "random.ggf", data), strict=False)


@settings(FUZZ, max_examples=200)
@given(data=st.data(), strict=st.booleans())
def test_mutated_files(folder: Path, data: st.DataObject, strict: bool) -> None:
    raw = mutate(data.draw(st.sampled_from(ggf_files())), data)
    check_file(write(folder / "games.ggf", raw), strict=strict)


@settings(FUZZ, max_examples=200)
@given(game=st.integers(0, 3), key=st.sampled_from(["TY", "KM", "RE", "BO", "B", "W", "GM"]),
       value=field_values())
def test_tag_values(game: int, key: str, value: str) -> None:
    """One tag of a real game set to a planted value (KM[inf], TY[٣], BO[...], B[a²])."""
    text = b"".join(ggf_files()).decode().splitlines()[game]
    tag = f"{key}[{value.replace(chr(92), chr(92) * 2).replace(']', chr(92) + ']')}]"
    changed, found = re.subn(rf"(?<![A-Z]){key}\[[^\]]*\]", lambda _: tag, text, count=1)
    check_text(changed if found else text.replace(";)", tag + ";)"))
