"""Imported games in storage (:mod:`hasamigo.game.imported`): stored as a setup and events,
loaded back, every position of the replay equals the file's (and a forced pass the file
leaves out after its last move follows), whatever the source (WTHOR,
GGF with a start position or another board, random transcripts). SQLite, and PostgreSQL
when ``HASAMIGO_TEST_POSTGRES`` holds a URL."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from test_storage_migration import BACKENDS, scratch_url

from hasamigo import Board
from hasamigo.game.controller import GameController
from hasamigo.game.imported import game_date, game_of_record, player_name
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE, Move
from hasamigo.notation import (
    GameRecord,
    parse_ggf,
    parse_transcript,
    read_wthor,
    write_transcript,
)
from hasamigo.storage import Database, GameRepository

DATA = Path(__file__).parent / "data"
NOW = 1_700_000_000.0
NUMBERS = itertools.count()


@pytest.fixture(params=BACKENDS, scope="module")
def repo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[GameRepository]:
    with scratch_url(request.param, tmp_path_factory.mktemp("import")) as url:
        database = Database(url)
        database.open()
        yield GameRepository(database)
        database.close()


def positions(start: Board, moves: list[Move]) -> list[str]:
    """The board string before the first move and after each (passes included)."""
    board = start.copy()
    out = [board.to_string()]
    for move in moves:
        board.push(move)
        out.append(board.to_string())
    return out


def file_positions(record: GameRecord) -> list[str]:
    played = record.replay()
    return positions(record.board(), list(played.move_stack))


def stored_positions(repo: GameRepository, record: GameRecord, game_id: str) -> GameController:
    game = game_of_record(record, at=NOW, game_id=game_id)
    repo.create(game)
    loaded = repo.load(game_id)
    assert loaded is not None
    return loaded.game


def check(repo: GameRepository, record: GameRecord, game_id: str) -> GameController:
    game = stored_positions(repo, record, game_id)
    board = game.board
    stored, expected = positions(board.root(), list(board.move_stack)), file_positions(record)
    # a file may stop where the side to move must pass: the game plays the pass at once
    assert stored[:len(expected)] == expected
    assert all(m.is_pass for m in board.move_stack[len(expected) - 1:])
    outcome = record.outcome()
    if outcome is None:
        assert game.phase is Phase.PLAYING and game.result is None
    else:
        assert game.phase is Phase.OVER and game.result is not None
        assert (game.result.black, game.result.white) == (outcome.black, outcome.white)
    return game


def test_every_game_of_a_wthor_archive_is_stored_as_the_file_plays_it(
        repo: GameRepository) -> None:
    records = list(read_wthor(DATA / "wthor" / "WTH_1977.wtb"))
    for number, record in enumerate(records, 1):
        game = check(repo, record, f"wthor-{number}")
        assert game.seat(BLACK).name == player_name(record.black, BLACK)
        assert game.options.clock_seconds is None


def test_ggf_games_keep_their_board_start_names_and_date(repo: GameRepository) -> None:
    text = "\n".join(p.read_text() for p in sorted((DATA / "ggf").glob("*.ggf")))
    for number, record in enumerate(parse_ggf(text), 1):
        game = check(repo, record, f"ggf-{number}")
        assert type(game.board) is record.variant
        assert (game.seat(BLACK).name, game.seat(WHITE).name) == (record.black, record.white)
        when = game_date(record.date, now=NOW)
        assert when is not None and all(e.at == when for e in game.events)


def test_a_record_without_names_or_with_equal_ones_gets_names_a_game_can_have() -> None:
    moves = parse_transcript("f5d6c3")
    game = game_of_record(GameRecord(moves=moves), at=NOW)
    assert [p.name for p in game.participants] == ["Black", "White"]
    game = game_of_record(GameRecord(moves=moves, black="Ann\x00", white=" Ann "), at=NOW)
    assert [p.name for p in game.participants] == ["Ann (Black)", "Ann (White)"]
    assert all(e.at == NOW for e in game.events)  # no date: the import's instant


@pytest.mark.parametrize(("text", "expected"), [
    ("2003.12.15_12:33:18.MST", 1071491598.0), ("2003-12-15", 1071446400.0),
    ("947375357", 947375357.0), ("1977", None), ("", None), ("2003.13.40", None),
    ("2999.01.01", None),
])
def test_dates_are_read_when_whole(text: str, expected: float | None) -> None:
    assert game_date(text, now=NOW) == expected


def random_game(seed: int, plies: int) -> list[Move]:
    board = Board()
    rng = random.Random(seed)
    while len(board.move_stack) < plies and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return list(board.move_stack)


@hsettings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 70))
def test_random_transcripts_are_stored_position_for_position(
        repo: GameRepository, seed: int, plies: int) -> None:
    moves = random_game(seed, plies)
    record = GameRecord(moves=parse_transcript(write_transcript(moves)))
    game = check(repo, record, f"random-{next(NUMBERS)}")
    assert game.board.move_stack[:len(moves)] == moves
