"""The package surface: format detection, read_games/write_games, random round trips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hasamigo import Board, find_variant
from hasamigo.notation import (
    GameRecord,
    ObfPosition,
    detect_format,
    format_ggf,
    format_obf,
    parse_ggf,
    parse_obf,
    parse_transcript,
    read_games,
    write_games,
    write_transcript,
)

DATA = Path(__file__).parent / "data"
SIZES = ["standard", "6x6", "4x4"]


def random_game(seed: int, variant: type[Board] = Board, *, max_moves: int = 100) -> Board:
    """Random legal moves (passes included) from the start, up to the end or ``max_moves``."""
    rng = random.Random(seed)
    board = variant()
    while not board.is_game_over() and board.ply < max_moves:
        board.push(rng.choice(list(board.legal_moves)))
    return board


@pytest.mark.parametrize(
    ("name", "kind"),
    [("a/WTH_1999.wtb", "wthor"), ("x.WTB", "wthor"), ("g.ggf", "ggf"), ("t.txt", "transcript"),
     ("t.tra", "transcript"), ("t.transcript", "transcript"), ("p.obf", "obf")],
)
def test_detect_format(name: str, kind: str) -> None:
    assert detect_format(name) == kind


@pytest.mark.parametrize("name", ["games.pgn", "games", "archive.wtb.gz"])
def test_unknown_extension_is_named(name: str) -> None:
    with pytest.raises(ValueError, match=r"is not a known format; supported: \.wtb, \.ggf") as info:
        detect_format(name)
    suffix = Path(name).suffix
    assert (repr(suffix) if suffix else "no extension") in str(info.value)


def test_read_games_dispatches() -> None:
    assert len(list(read_games(DATA / "wthor" / "WTH_1977.wtb"))) == 12
    assert len(list(read_games(DATA / "ggf" / "nboard-test2.ggf"))) == 3
    with pytest.raises(ValueError, match="read_obf"):
        read_games(DATA / "ffo" / "fforum-1-19.obf")


def test_readers_are_lazy(tmp_path: Path) -> None:
    path = tmp_path / "bad.ggf"
    path.write_text("(;GM[Othello]B[f5];)\n(;oops")
    games = read_games(path)
    assert next(games).moves  # the first game reads before the fault is met
    with pytest.raises(ValueError):
        next(games)


@pytest.mark.parametrize("suffix", [".ggf", ".txt", ".wtb"])
def test_write_games_round_trip(tmp_path: Path, suffix: str) -> None:
    records = [GameRecord(moves=list(random_game(seed).move_stack)) for seed in range(20)]
    for record in records:
        outcome = record.outcome()
        record.recorded_score = outcome.black if outcome else None
    path = tmp_path / f"games{suffix}"
    write_games(path, records)
    again = list(read_games(path))
    assert [r.replay().key() for r in again] == [r.replay().key() for r in records]
    if suffix != ".txt":  # a transcript line holds no score
        assert [r.recorded_score for r in again] == [r.recorded_score for r in records]
    if suffix == ".wtb":  # WTHOR drops passes; the replay puts them back
        assert [r.replay().move_stack for r in again] == [r.moves for r in records]
    else:
        assert [r.moves for r in again] == [r.moves for r in records]


def test_write_games_refuses_obf(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="write_obf"):
        write_games(tmp_path / "x.obf", [])


def test_transcript_file_cannot_hold_a_custom_start(tmp_path: Path) -> None:
    record = GameRecord(start=find_variant("parallel")().to_string())
    with pytest.raises(ValueError, match="non-standard start"):
        write_games(tmp_path / "x.txt", [record])


# ---- property-based round trips ----------------------------------------------------------
seeds = st.integers(min_value=0, max_value=2**32)
quick = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@quick
@given(seed=seeds, size=st.sampled_from(SIZES), passes=st.booleans())
def test_transcript_round_trip(seed: int, size: str, passes: bool) -> None:
    variant = find_variant(size)
    game = random_game(seed, variant)
    text = write_transcript(game.move_stack, variant, passes=passes)
    assert text == text.lower()
    assert parse_transcript(text, variant()) == game.move_stack


@quick
@given(seed=seeds, size=st.sampled_from(SIZES), plies=st.integers(0, 70), scored=st.booleans())
def test_ggf_round_trip(seed: int, size: str, plies: int, scored: bool) -> None:
    variant = find_variant(size)
    start = random_game(seed, variant, max_moves=plies % 7)  # sometimes a custom start
    record = GameRecord(
        variant=variant,
        start=start.to_string() if start.ply else None,
        black="Black [1]",
        white="W\\hite",
        date="2024.01.02",
        metadata={"TI": "05:00//02:00", "RB": "1500"},
    )
    board = record.board()
    rng = random.Random(seed)
    while not board.is_game_over() and board.ply < plies:
        board.push(rng.choice(list(board.legal_moves)))
    record.moves = list(board.move_stack)
    outcome = board.outcome()
    if scored and outcome is not None:
        record.recorded_score = outcome.black
    [again] = parse_ggf(format_ggf(record))
    expected_meta = {"GM": "Othello", "TY": str(variant.rows), **record.metadata}
    if record.recorded_score is not None:
        expected_meta["RE"] = f"{2 * record.recorded_score - variant.square_count():+d}.000"
    assert again.metadata == expected_meta
    again.metadata = record.metadata
    assert again == record


@quick
@given(seed=seeds, plies=st.integers(0, 60), scores=st.lists(st.integers(-64, 64), max_size=12))
def test_obf_round_trip(seed: int, plies: int, scores: list[int]) -> None:
    board = random_game(seed, max_moves=plies)
    position_board = Board.from_string(board.to_string())
    moves = list(position_board.legal_moves)
    answers = list(zip(moves, scores, strict=False))
    position = ObfPosition(position_board, answers)
    again = parse_obf(format_obf(position))
    assert again.board == position.board
    assert again.answers == answers
    if answers:
        assert again.best_score == max(s for _, s in answers)


@pytest.mark.parametrize("suffix", [".ggf", ".wtb", ".txt"])
def test_every_game_format_has_its_writer_and_reads_back(tmp_path: Path, suffix: str) -> None:
    """write_games writes each game format through its one writer (GAME_WRITERS, every
    format of FORMATS but OBF's positions), and read_games reads the games back."""
    from hasamigo.move import Move
    from hasamigo.notation import FORMATS, GAME_WRITERS, GameRecord, read_games, write_games

    assert set(GAME_WRITERS) == set(FORMATS.values()) - {"obf"}
    moves = [Move.from_str(m) for m in ("f5", "d6", "c3", "d3", "c4")]
    path = tmp_path / f"games{suffix}"
    write_games(path, [GameRecord(moves=moves)])
    assert [list(g.moves) for g in read_games(path)] == [moves]
