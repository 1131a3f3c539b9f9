"""The opening book: symmetries, the tree from games, leaves by search, negamax, files,
the engine playing from it, and the ``book`` commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hasamigo import Board, Move, ParseError
from hasamigo.cli import app
from hasamigo.engine import Engine, Limit
from hasamigo.engine.book import (
    NO_LEAF,
    SQUARE_IMAGE,
    SQUARE_PREIMAGE,
    Book,
    canonical,
    expand,
    image,
    preimage,
    search_leaves,
    tree_from_records,
)
from hasamigo.engine.players import make_player
from hasamigo.engine.players.strong import EnginePlayer
from hasamigo.notation import GameRecord, write_wthor

words = st.integers(0, (1 << 64) - 1)


@settings(max_examples=200, deadline=None)
@given(words, st.integers(0, 7))
def test_preimage_undoes_image(x: int, k: int) -> None:
    a = np.array([x], dtype=np.uint64)
    assert int(preimage(image(a, k), k)[0]) == x
    assert int(image(a, k)[0]).bit_count() == x.bit_count()


def reference_image(sq: int, k: int) -> int:
    """Symmetry ``k`` of one square, by rows and columns."""
    r, c = divmod(sq, 8)
    if k & 1:
        c = 7 - c
    if k & 2:
        r = 7 - r
    if k & 4:
        r, c = c, r
    return r * 8 + c


def test_square_tables_follow_rows_and_columns() -> None:
    for k in range(8):
        for sq in range(64):
            assert SQUARE_IMAGE[k, sq] == reference_image(sq, k)
            assert SQUARE_PREIMAGE[k, SQUARE_IMAGE[k, sq]] == sq
    assert len({tuple(SQUARE_IMAGE[k, :64]) for k in range(8)}) == 8


@settings(max_examples=100, deadline=None)
@given(words, words)
def test_canonical_is_the_same_for_every_image(p: int, o: int) -> None:
    o &= ~p & ((1 << 64) - 1)
    keys = set()
    for k in range(8):
        ip = image(np.array([p], dtype=np.uint64), k)
        io = image(np.array([o], dtype=np.uint64), k)
        cp, co, sym = canonical(ip, io)
        keys.add((int(cp[0]), int(co[0])))
        # the symmetry it reports gives the key from the position it was given
        assert int(image(ip, int(sym[0]))[0]) == int(cp[0])
    assert len(keys) == 1


def record(transcript: str) -> GameRecord:
    return GameRecord(moves=[Move.from_str(transcript[i:i + 2])
                             for i in range(0, len(transcript), 2)])


GAMES = [
    "f5d6c3d3c4f4f6f3e6e7",  # tiger
    "f5d6c3d3c4f4f6f3e6e7",
    "e6f4c3c4d3d6f6c6f5g5",  # the tiger turned
    "f5f6e6f4e3c5c4d3c3",    # diagonal
    "d3c3c4e3f4d6",          # diagonal, turned
    "f5f4e3f6d3",            # parallel: once only
]


def test_tree_counts_games_through_each_position_under_symmetry() -> None:
    book, games = tree_from_records([record(t) for t in GAMES], plies=4, min_games=2)
    assert games == len(GAMES)
    start = Board()
    assert book.games[book.index(*pair(start))] == 6
    after = Board()
    after.play("f5")
    assert book.games[book.index(*pair(after))] == 6  # every first move is the same one
    tiger = Board()
    for m in ("f5", "d6", "c3", "d3"):
        tiger.play(m)
    assert book.games[book.index(*pair(tiger))] == 3  # two tigers and the turned one
    parallel = Board()
    parallel.play("f5")
    parallel.play("f4")
    assert parallel not in book  # one game only
    assert len(book) == 1 + 1 + 2 + 2 + 2  # starts, f5, (d6, f6), (c3), then (d3), (e3)...


def pair(board: Board) -> tuple[int, int]:
    me = board.turn
    return board.discs(me), board.discs(me.other)


@pytest.fixture(scope="module")
def small_book() -> Book:
    book, _ = tree_from_records([record(t) for t in GAMES], plies=6, min_games=2)
    search_leaves(book, 3)
    return book


def test_leaf_is_the_best_other_move_by_the_same_search(small_book: Book) -> None:
    engine = Engine(table_size=1 << 14)
    checked = 0
    for row in range(len(small_book)):
        kids = small_book.children(row)
        others = [sq for sq, child in kids if child is None]
        if not others:
            assert small_book.leaf[row] == NO_LEAF
            continue
        board = board_of(small_book, row)
        hints = {line.move.square: line.score
                 for line in engine.hints(board, Limit(depth=3))}
        assert small_book.leaf[row] in others
        assert small_book.leaf_value[row] == max(hints[sq] for sq in others)
        checked += 1
    assert checked >= 5


def board_of(book: Book, row: int) -> Board:
    p, o = int(book.player[row]), int(book.opponent[row])
    cells = ["X" if p >> s & 1 else "O" if o >> s & 1 else "-" for s in range(64)]
    return Board.from_string("".join(cells) + " X")


def test_values_are_the_negamax_of_leaves_and_book_moves(small_book: Book) -> None:
    def value(row: int) -> int:
        options = [-value(child) for _, child in small_book.children(row) if child is not None]
        if small_book.leaf[row] >= 0:
            options.append(int(small_book.leaf_value[row]))
        return max(options)

    for row in range(len(small_book)):
        assert small_book.value[row] == value(row)


def test_moves_are_given_in_the_boards_own_orientation(small_book: Book) -> None:
    plain, turned = Board(), Board()
    plain.play("f5")
    turned.play("e6")  # the same position, turned
    a = small_book.moves(plain)
    b = small_book.moves(turned)
    assert a
    # e6 is f5 mirrored in the a1-h8 diagonal (symmetry 4): so is every move
    assert {(Move(int(SQUARE_IMAGE[4, m.move.square])), m.value, m.games) for m in a} == {
        (m.move, m.value, m.games) for m in b}
    assert a[0].value == -small_book.value_of(plain_after(plain, a[0].move)) or not a[0].in_book
    assert small_book.value_of(plain) == a[0].value


def plain_after(board: Board, move: Move) -> Board:
    b = board.copy()
    b.push(move)
    return b


def test_save_and_load_round_trip(small_book: Book, tmp_path: Path) -> None:
    path = tmp_path / "book.npz"
    small_book.save(path)
    again = Book.load(path)
    for name in ("player", "opponent", "games", "value", "leaf", "leaf_value", "depth"):
        assert np.array_equal(getattr(again, name), getattr(small_book, name)), name
    assert again.source == small_book.source


def test_load_refuses_what_is_not_a_book(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(ParseError, match="cannot read the book"):
        Book.load(junk)
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    with pytest.raises(ParseError, match="not a hasamigo book"):
        Book.load(other)


def test_a_stopped_build_resumes_where_it_was(tmp_path: Path) -> None:
    book, _ = tree_from_records([record(t) for t in GAMES], plies=6, min_games=2)
    assert book.stats().unsearched == len(book)  # nothing known yet
    total = len(book.pending(2))
    path = tmp_path / "book.npz"

    class Stop(Exception):
        pass

    def stop_after_three(done: int, _total: int) -> None:
        if done == 3:
            raise Stop

    with pytest.raises(Stop):
        search_leaves(book, 2, progress=stop_after_three, save_to=path, save_every=1)
    saved = Book.load(path)
    assert len(saved.pending(2)) == total - 3
    assert search_leaves(saved, 2) == total - 3
    assert saved.stats().unsearched == 0 and not saved.pending(2)


def test_expand_adds_the_leaves_that_are_best(small_book: Book) -> None:
    book, _ = tree_from_records([record(t) for t in GAMES], plies=6, min_games=2)
    search_leaves(book, 3)
    best_leaves = sum(1 for row in range(len(book)) if book.leaf[row] >= 0
                      and book.leaf_value[row] >= book.value[row])
    assert best_leaves
    grown = expand(book, 3, rounds=1)
    assert len(grown) > len(book)
    assert not grown.pending(3)


def test_engine_plays_from_the_book(small_book: Book) -> None:
    player = EnginePlayer(8, seed=1, book=small_book)
    board = Board()
    move = player.choose(board)
    assert "book" in player.last_reason
    best = small_book.moves(board)[0].value
    assert move in [m.move for m in small_book.moves(board) if m.value == best]
    off = EnginePlayer(8, seed=1, book=False)
    off.choose(board)
    assert "book" not in off.last_reason
    assert EnginePlayer(4, book=small_book).book is None  # low levels: no book


def test_shipped_book_covers_the_start() -> None:
    from hasamigo.engine.book import default_book

    book = default_book()
    assert book is not None, "the package ships a book (src/hasamigo/data/book.npz)"
    stats = book.stats()
    assert stats.positions > 1000 and stats.unsearched == 0
    assert abs(stats.start_value or 0) <= 4  # the start is about even
    first = {m.move.square for m in book.moves(Board())}
    assert first == {m.square for m in Board().legal_moves}
    tiger = Board()
    for m in ("f5", "d6", "c3", "d3", "c4"):
        tiger.play(m)
    assert tiger in book and book.moves(tiger)
    assert make_player("engine:8").choose(Board()) in set(Board().legal_moves)


# ---- the commands ---------------------------------------------------------------------
runner = CliRunner()


def test_book_commands_build_show_stats_deepen(tmp_path: Path) -> None:
    archive = tmp_path / "games.wtb"
    rng = random.Random(3)
    games = [record(t) for t in GAMES]
    for _ in range(10):  # some longer random games after the shared openings
        board = Board()
        for m in ("f5", "d6", "c3"):
            board.play(m)
        while not board.is_game_over() and board.ply < 20:
            board.push(rng.choice(list(board.legal_moves)))
        games.append(GameRecord(moves=list(board.move_stack)))
    write_wthor(archive, games)
    out = tmp_path / "book.npz"
    result = runner.invoke(app, ["book", "build", str(archive), "--out", str(out), "--plies",
                                 "5", "--min-games", "2", "--depth", "2", "--jobs", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["positions"] >= 5 and stats["unsearched"] == 0
    assert stats["games_at_start"] == len(games) and stats["depths"] == {"2": stats["leaves"]}
    shown = runner.invoke(app, ["book", "show", "f5d6", "--book", str(out), "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["in_book"] and data["moves"][0]["move"] == data["moves"][0]["move"].lower()
    assert data["value"] == data["moves"][0]["value"]
    assert data["opening"]["en"] == "Perpendicular"
    text = runner.invoke(app, ["book", "show", "f5d6", "--book", str(out)])
    assert text.exit_code == 0 and "c3" in text.stdout
    deeper = runner.invoke(app, ["book", "deepen", str(out), "--depth", "3", "--rounds", "1",
                                 "--jobs", "1", "--json"])
    assert deeper.exit_code == 0, deeper.output
    grown = json.loads(deeper.stdout)
    assert grown["positions"] >= stats["positions"] and grown["unsearched"] == 0
    assert set(grown["depths"]) == {"3"}


def test_book_commands_refuse_bad_input(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_text("nothing")
    bad = runner.invoke(app, ["book", "stats", "--book", str(junk)])
    assert bad.exit_code != 0 and "cannot read the book" in bad.output
    worse = runner.invoke(app, ["book", "show", "f5z9"])
    assert worse.exit_code != 0 and "z9" in worse.output
    empty = tmp_path / "empty.wtb"
    write_wthor(empty, [record("f5d6")])
    none = runner.invoke(app, ["book", "build", str(empty), "--out", str(tmp_path / "b.npz"),
                               "--min-games", "5"])
    assert none.exit_code != 0 and "min-games" in none.output
