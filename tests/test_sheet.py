"""Record sheets: the grid of move numbers, written and read; real games with one error
each (two numbers swapped, a number repeated or skipped) are refused at the right move
with the fix that gives the real game back in most cases; printable sheets.

The rates of restored games are printed (``pytest -s``) and held to floors measured on
WTHOR 2010 (see :data:`FLOORS`), on the 200 games of the year in ``tests/data`` (a whole year
is read from the reference data beside the checkout when it is there)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.notation import GameRecord, read_wthor
from hasamigo.notation.sheet import (
    Sheet,
    check_sheet,
    format_sheet,
    load_sheet,
    read_sheet,
    sheet_html,
    sheet_of_moves,
)
from hasamigo.notation.transcript import parse_transcript
from hasamigo.squares import bits

DATA = Path(__file__).parent / "data" / "wthor"
#: WTHOR 2010's first game, and the 200 games of the year that
#: ``random.Random(3).sample(games, 200)`` draws, in that order (tests/data/ATTRIBUTION.md)
GAME_1 = DATA / "WTH_2010-game1.wtb"
SAMPLE = DATA / "WTH_2010-sample.wtb"
#: the whole year, in the reference data (``../shared/data``)
YEAR = "wthor/WTH_2010.wtb"
#: the share of detected errors whose suggested fix restores the real game must stay
#: above these (measured: adjacent swaps 94 %, swaps ≤5 apart 83 %, repeats 97 %,
#: skips 100 %)
FLOORS = {"swap-adjacent": 0.88, "swap-near": 0.75, "repeat": 0.92, "skip": 0.97,
          "miswrite": 0.9}


def games(path: Path) -> list[GameRecord]:
    return [g for g in read_wthor(path) if g.problem is None]


def round_trip(records: list[GameRecord]) -> int:
    """How many games are not read back identically from their written sheet."""
    failures = 0
    for record in records:
        played = record.replay().move_stack
        text = format_sheet(sheet_of_moves(played))
        result = check_sheet(read_sheet(text))
        if not result.ok or result.moves != played:
            failures += 1
    return failures


# ---- writing and reading -------------------------------------------------------------------
def test_the_sampled_games_of_a_year_are_read_back_identically() -> None:
    records = games(SAMPLE)
    assert len(records) == 200
    assert round_trip(records) == 0


@pytest.mark.shared(YEAR)
def test_every_game_of_a_wthor_year_is_read_back_identically(
        shared_data: Callable[[str], Path]) -> None:
    records = games(shared_data(YEAR))
    assert len(records) > 2000
    assert round_trip(records) == 0


@pytest.mark.shared(YEAR)
def test_the_games_in_the_tests_data_are_those_of_the_year(
        shared_data: Callable[[str], Path]) -> None:
    """The games in ``tests/data`` are the year's first and the 200 that
    ``random.Random(3)`` draws from it, on which the fix rates below are measured."""
    year = games(shared_data(YEAR))
    assert [g.moves for g in games(GAME_1)] == [year[0].moves]
    assert [g.moves for g in games(SAMPLE)] == [
        g.moves for g in random.Random(3).sample(year, 200)]


@pytest.mark.exhaustive  # ~3 min; one year is in the default suite
@pytest.mark.shared("wthor")
def test_every_game_of_every_wthor_year_is_read_back_identically(
        shared_data: Callable[[str], Path]) -> None:
    for path in sorted(shared_data("wthor").glob("WTH_*.wtb")):
        records = [g for g in read_wthor(path) if g.problem is None]
        assert round_trip(records) == 0, path.name


def test_the_text_form() -> None:
    sheet = sheet_of_moves(parse_transcript("f5d6c3d3c4"))
    text = format_sheet(sheet)
    lines = text.splitlines()
    assert len(lines) == 8 and all(len(line.split()) == 8 for line in lines)
    assert lines[2].split() == ["-", "-", "3", "4", "-", "-", "-", "-"]
    assert lines[3].split()[2] == "5" and lines[3].split()[3] == "-"  # d4 is a start square
    # blank lines and comments are skipped; '-', '--' and '.' are all empty squares
    loose = "# a sheet\n\n" + text.replace(" - ", " . ") + "\n"
    assert read_sheet(loose) == sheet
    assert check_sheet(sheet).transcript == "f5d6c3d3c4"


def test_passes_are_implied_by_the_position() -> None:
    # a WTHOR game with a forced pass is read with the pass put back
    for record in games(GAME_1):
        played = record.replay().move_stack
        if any(m.is_pass for m in played[:-1]):
            result = check_sheet(sheet_of_moves(played))
            assert result.ok and result.moves == played
            break
    else:  # pragma: no cover - the game has one
        pytest.fail("no game with a pass")


def test_a_handicap_sheet_and_the_side_that_starts() -> None:
    board = Board(handicap=2)
    moves = []
    for _ in range(6):
        move = next(m for m in board.legal_moves if not m.is_pass)
        board.push(move)
        moves.append(move)
    sheet = sheet_of_moves(moves, handicap=2)
    text = format_sheet(sheet)
    assert text.splitlines()[0].split()[0] == "-"  # a1 holds a handicap disc
    assert check_sheet(read_sheet(text, handicap=2)).moves == moves
    # read without the handicap, White's first move is not legal for Black
    plain = check_sheet(read_sheet(text))
    assert not plain.ok and plain.faults[0].move_number == 1
    # the side that starts, given by option
    first_white = read_sheet(format_sheet(sheet_of_moves(parse_transcript(
        "f4d3", Board("---------------------------OX------XO--------------------------- O")))),
        first=WHITE)
    assert check_sheet(first_white).ok


def test_malformed_sheets_are_refused_with_line_and_column() -> None:
    good = format_sheet(sheet_of_moves(parse_transcript("f5d6")))
    rows = good.splitlines()
    with pytest.raises(ParseError, match="line 3, column 8: 'x' is not a move number"):
        read_sheet("\n".join([*rows[:2], " -  -  x  -  -  -  -  -", *rows[3:]]))
    with pytest.raises(ParseError, match="line 5, column 26: a row has 8 fields"):
        read_sheet("\n".join([*rows[:4], rows[4] + "  -", *rows[5:]]))
    with pytest.raises(ParseError, match="has 8 rows of numbers, this one 7"):
        read_sheet("\n".join(rows[:7]))
    with pytest.raises(ParseError, match="line 1, column 1: move numbers run from 1 to 60, "
                                         "not 61"):
        read_sheet("\n".join(["61" + rows[0][2:], *rows[1:]]))
    with pytest.raises(ParseError, match="move numbers run from 1 to 58"):
        read_sheet("\n".join(["59" + rows[0][2:], *rows[1:]]), handicap=2)
    with pytest.raises(InvalidOptionError):
        read_sheet(good, handicap=5)


def test_a_sheet_file_names_itself_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "sheet.txt"
    path.write_text("- - -\n", encoding="utf-8")
    with pytest.raises(ParseError, match=r"sheet\.txt, line"):
        load_sheet(path)


# ---- faults and fixes, exactly -------------------------------------------------------------------
def first_game() -> tuple[list[Move], list[int]]:
    """WTHOR 2010 game 1 (Van den Biggelaar–Kortendijk): its squares, passes left out."""
    record = next(iter(read_wthor(GAME_1)))
    squares = [m.square for m in record.replay().move_stack if m.square is not None]
    return [Move(sq) for sq in squares], squares


def numbered(squares: list[int], numbers: list[int]) -> Sheet:
    return Sheet(tuple([None] * 64)).renumbered(dict(zip(squares, numbers, strict=True)))


def test_two_numbers_swapped() -> None:
    _moves, squares = first_game()
    real = "".join(Board.square_name(sq) for sq in squares)
    numbers = list(range(1, len(squares) + 1))
    numbers[29], numbers[30] = 31, 30  # a4 (move 30) and a6 (31) written the other way
    result = check_sheet(numbered(squares, numbers))
    assert not result.ok and result.transcript == real[:58] + "a6"  # legal up to move 30
    assert [f.to_json() for f in result.faults] == [{
        "move_number": 31, "kind": "illegal", "squares": ["a4"],
        "message": "move 31: a4 is not a legal move for Black; the legal squares are g1, h2, "
                   "a7, b7, e7, f7, g7, h7"}]
    assert result.suggestion is not None and result.suggestion.kind == "swap"
    assert result.suggestion.description == "30 and 31 are swapped: 30 on a4, 31 on a6"
    assert result.suggestion.transcript == real
    assert check_sheet(result.suggestion.sheet).ok


def test_a_number_repeated_and_a_number_skipped() -> None:
    _moves, squares = first_game()
    real = "".join(Board.square_name(sq) for sq in squares)
    n = len(squares)
    repeated = [k if k <= 30 else k - 1 for k in range(1, n + 1)]  # 30 written twice
    result = check_sheet(numbered(squares, repeated))
    assert [f.to_json() for f in result.faults] == [{
        "move_number": 30, "kind": "repeated", "squares": [
            Board.square_name(sq) for sq in sorted(squares[29:31])],
        "message": f"move 30: the number 30 is written twice ("
                   f"{' and '.join(Board.square_name(sq) for sq in sorted(squares[29:31]))})"}]
    assert result.transcript == real[:58]
    assert result.suggestion is not None and result.suggestion.transcript == real
    assert result.suggestion.kind == "repeat"
    skipped = [k if k < 30 else k + 1 for k in range(1, n + 1)]  # 30 jumped
    result = check_sheet(numbered(squares, skipped))
    assert [f.to_json() for f in result.faults] == [{
        "move_number": 30, "kind": "skipped", "squares": [],
        "message": "move 30: the number 30 is missing (the numbers jump from 29 to 31)"}]
    assert result.suggestion is not None and result.suggestion.transcript == real
    assert result.suggestion.description == "30 is skipped: every number after 29 one lower"


def test_a_pass_implied() -> None:
    sheet = sheet_of_moves(parse_transcript("f5"))
    cells = list(sheet.cells)
    cells[Board.parse_square("c4")] = 2  # Black again: White would have passed
    result = check_sheet(Sheet(tuple(cells)))
    assert result.faults[0].message == ("move 2: c4 is not a legal move for White; the legal "
                                        "squares are f4, d6, f6")
    assert result.suggestion is not None and result.suggestion.kind == "pass"
    assert result.suggestion.transcript == "f5passc4"
    assert result.suggestion.description.startswith("a pass is implied before 2: White "
                                                    "passed though it could play f4, d6, f6")


def test_a_number_on_a_start_square_and_numbers_after_the_end() -> None:
    sheet = sheet_of_moves(parse_transcript("f5d6"))
    cells = list(sheet.cells)
    cells[Board.parse_square("d4")] = 3
    result = check_sheet(Sheet(tuple(cells)))
    assert result.faults[0].to_json() == {
        "move_number": 3, "kind": "start_square", "squares": ["d4"],
        "message": "move 3: 3 is written on d4, a square taken at the start"}
    assert result.suggestion is None
    # a game that ended, with a number after it
    board = Board()
    rng = random.Random(5)
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    played = [m for m in board.move_stack if not m.is_pass]
    if board.empties:
        spare = next(iter(bits(board.empties)))
        over = sheet_of_moves([*played, Move(spare)])
        fault = check_sheet(over).faults[0]
        assert fault.kind == "game_over" and fault.move_number == len(played) + 1


# ---- one error in real games: found, and the real game restored --------------------------------
def inject(numbers: list[int], kind: str, rng: random.Random) -> tuple[list[int], int]:
    """``numbers`` with one error of ``kind``; also the first move number it touches."""
    n = len(numbers)
    out = list(numbers)
    if kind == "swap-adjacent":
        k = rng.randrange(1, n)
        out[k - 1], out[k] = out[k], out[k - 1]
        return out, k
    if kind == "swap-near":
        a = rng.randrange(1, n)
        b = rng.randrange(a + 1, min(n, a + 5) + 1)
        out[a - 1], out[b - 1] = out[b - 1], out[a - 1]
        return out, a
    k = rng.randrange(2, n)
    if kind == "miswrite":  # one number written as its neighbour: 23 25 25 or 23 23 25
        out[k - 1] += rng.choice((-1, 1))
        return out, k - 1
    if kind == "repeat":  # k written twice, every later number one short
        return [x if x <= k else x - 1 for x in out], k
    return [x if x < k else x + 1 for x in out], k  # skip: k jumped


def restore_rates(records: list[GameRecord], seed: int = 11
                  ) -> dict[str, tuple[int, int, int]]:
    """Per error kind: (games, errors detected, real game restored by the fix)."""
    rates = {}
    for kind in FLOORS:
        rng = random.Random(seed)
        detected = restored = 0
        for record in records:
            squares = [m.square for m in record.replay().move_stack if m.square is not None]
            real = "".join(Board.square_name(sq) for sq in squares)
            numbers, touched = inject(list(range(1, len(squares) + 1)), kind, rng)
            result = check_sheet(numbered(squares, numbers))  # type: ignore[arg-type]
            if result.ok:  # both orders legal: a sheet can't tell
                continue
            detected += 1
            assert result.faults[0].move_number >= touched
            if result.suggestion is not None:  # a fix places every number written
                assert len(result.suggestion.transcript) == len(real), (kind, numbers)
            if result.suggestion is not None and result.suggestion.transcript == real:
                restored += 1
        rates[kind] = (len(records), detected, restored)
    return rates


def test_one_error_is_found_and_the_fix_restores_the_real_game_in_most_cases() -> None:
    records = games(SAMPLE)  # random.Random(3).sample(the year's games, 200)
    rates = restore_rates(records)
    for kind, (total, detected, restored) in rates.items():
        print(f"{kind}: {detected}/{total} detected, {restored} restored "
              f"({restored / detected:.0%})")
        assert restored / detected >= FLOORS[kind], kind
    # numbering slips always show
    assert rates["repeat"][1] == rates["skip"][1] == rates["miswrite"][1] == 200


@pytest.mark.exhaustive  # the 200-game sample above holds the same floors in the default suite
@pytest.mark.shared(YEAR)
def test_fix_rates_over_a_whole_year(shared_data: Callable[[str], Path]) -> None:
    rates = restore_rates(games(shared_data(YEAR)))
    for kind, (total, detected, restored) in rates.items():
        print(f"{kind}: {detected}/{total} detected, {restored} restored "
              f"({restored / detected:.1%})")
        assert restored / detected >= FLOORS[kind], kind


# ---- printable sheets ---------------------------------------------------------------------------
def test_blank_and_filled_sheets_in_both_languages() -> None:
    blank = sheet_html(lang="ja")
    assert "<h1>オセロ棋譜用紙</h1>" in blank and 'lang="ja"' in blank and "署名" in blank
    assert blank.count('<td class="start">') == 4
    english = sheet_html(sheet_of_moves(parse_transcript("f5d6c3")), lang="en",
                         black="Ann <A>", white="Bob", result=(40, 24))
    assert "<h1>Othello record sheet</h1>" in english and "Ann &lt;A&gt;" in english
    assert "<td>1</td>" in english and "<td>3</td>" in english and "<td>40</td>" in english
    handicap = sheet_html(handicap=4)
    assert handicap.count('<span class="black">') == 6  # 4 corners and 2 start discs
    with pytest.raises(InvalidOptionError):
        sheet_html(lang="fr")
    assert BLACK is not WHITE
