"""Opening names (:mod:`hasamigo.game.openings`): one name per position in each language,
the 2024 encyclopedia's diagrams named as it names them, and every disagreement between
the sources listed in the module's notes."""

from __future__ import annotations

import csv
import io
import random
from importlib import resources

import pytest

from hasamigo import Board
from hasamigo.analysis.explain import SECOND_MOVES
from hasamigo.errors import HasamigoError
from hasamigo.game import openings
from hasamigo.game.openings import ENCYCLOPEDIA, normalise, opening_name, position_key
from hasamigo.move import PASS


def diagram(black: str, white: str, turn: str) -> Board:
    """A position drawn as the encyclopedia's diagrams list it: the squares of each colour."""
    cells = ["-"] * 64
    for squares, mark in ((black, "X"), (white, "O")):
        for name in squares.split():
            cells[(int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])] = mark
    return Board.from_string("".join(cells) + " " + turn)


#: the diagrams of othello-wikipedia-ja-2024.txt (定石 and 黒番・白番それぞれの戦略), their
#: discs as the text lists them, and the caption; five-move positions have White to move
DIAGRAMS = [
    ("縦取り", diagram("e4 e5 f5", "d4 d5 d6", "X")),
    ("斜め取り", diagram("e4 d5 f5", "d4 e5 f6", "X")),
    ("並び取り", diagram("d5 e5 f5", "d4 e4 f4", "X")),
    ("兎定石", diagram("e3 d4 c5 d5 f5", "e4 f4 e5 d6", "O")),
    ("虎定石", diagram("c3 c4 d4 e4 e5 f5", "d3 d5 d6", "O")),
    ("牛定石", diagram("e4 c5 d5 e5 f5", "d4 d6 e6 f6", "O")),
    ("鼠定石", diagram("d3 e3 d4 e4 d5", "f4 e5 f5 f6", "O")),
]


@pytest.mark.parametrize(("caption", "board"), DIAGRAMS, ids=[c for c, _ in DIAGRAMS])
def test_each_encyclopedia_diagram_is_named_as_its_caption(caption: str, board: Board) -> None:
    moves = next(m for m, name in ENCYCLOPEDIA.items() if name == caption)
    after = Board()
    for i in range(0, len(moves), 2):
        after.play(moves[i:i + 2])
    assert position_key(after) == position_key(board)
    found = opening_name(moves)
    assert found is not None and found.ja == caption


def test_the_cow_diagram_is_the_position_after_f5f6e6d6c5_and_every_way_there_is_the_cow() -> None:
    """The issue's finding: the diagram is f5f6e6d6c5 exactly (not turned), which was named
    only 斜め取り; Egaroucid's 牛定石 is f5f6e6f4e3, the same position turned."""
    cow = dict(DIAGRAMS)["牛定石"]
    after = Board()
    for move in ("f5", "f6", "e6", "d6", "c5"):
        after.play(move)
    assert after.to_string() == cow.to_string()
    # Welty's and Egaroucid's lines, one through 並び取り, and Welty's turned half round
    for moves in ("f5f6e6d6c5", "f5f6e6f4e3", "f5f4e3f6e6", "c4c3d3e3f4"):
        found = opening_name(moves)
        assert found is not None and (found.en, found.ja) == ("Cow", "牛定石"), moves


def test_f5f4_has_one_japanese_name_here_and_in_the_notes_on_a_game() -> None:
    found = opening_name("f5f4")
    assert found is not None and (found.en, found.ja) == ("Parallel", "並び取り")
    assert {ja for _en, ja, _leads in SECOND_MOVES.values()} == {"縦取り", "斜め取り", "並び取り"}
    assert SECOND_MOVES["f4"][1] == found.ja


def _rows() -> list[dict[str, str]]:
    text = resources.files("hasamigo").joinpath("data/openings.csv").read_text("utf-8")
    return [row for row in csv.DictReader(io.StringIO(text)) if row["moves"].strip()]


def _moves(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _position(moves: str) -> str:
    board = Board()
    for i in range(0, len(moves), 2):
        board.play(moves[i:i + 2])
    return position_key(board)


def test_every_line_to_a_position_gets_the_same_names() -> None:
    named: dict[str, tuple[str | None, str | None]] = {}
    for row in _rows():
        moves = row["moves"].strip().lower()
        found = opening_name(moves)
        turned = "".join(normalise(_moves(moves)) or [])
        assert found is not None and found.moves == turned, moves  # the whole line is named
        key = _position(moves)
        assert named.setdefault(key, (found.en, found.ja)) == (found.en, found.ja), moves


def test_every_disagreement_between_the_sources_is_in_the_notes() -> None:
    """Recomputed from the data: each position some sources name differently in one
    language has both names in the module's notes, and the notes' name is the one used."""
    names: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for row in _rows():
        language = "ja" if "japanese" in row["source"] else "en"
        moves = row["moves"].strip().lower()
        names.setdefault((_position(moves), language), []).append((row["name"].strip(), moves))
    for moves, name in ENCYCLOPEDIA.items():
        names.setdefault((_position(moves), "ja"), []).insert(0, (name, moves))
    notes = openings.__doc__ or ""
    disagreements = 0
    for (_key, language), given in names.items():
        distinct = list(dict.fromkeys(name for name, _moves in given))
        if len(distinct) < 2:
            continue
        disagreements += 1
        for name in distinct:
            assert name in notes, (language, name)
        found = opening_name(given[0][1])
        assert found is not None and getattr(found, language) == distinct[0]
    assert disagreements == 19  # 18 in English, 並び取り/平行取り in Japanese


def _named_from_scratch(moves: list[str]) -> openings.OpeningName | None:
    """The name by the definition: replay the first LONGEST moves, keep the last named."""
    turned = openings.normalise([m for m in moves if m != "pass"][:openings.LONGEST])
    best, en, ja, board = None, None, None, Board()
    for n, move in enumerate(turned or [], 1):
        try:
            if board.must_pass():
                board.push(PASS)
            board.play(move)
        except (HasamigoError, ValueError):
            break
        found = openings._table().get(openings.position_key(board))
        if found is not None:
            en, ja = found[0] or en, found[1] or ja
            best = openings.OpeningName(en, ja, "".join((turned or [])[:n]))
    return best


def test_a_game_asked_after_each_move_is_named_as_replayed_from_its_start() -> None:
    rng = random.Random(67)
    lines = [_moves(row["moves"].strip().lower()) for row in _rows() if row["moves"].strip()]
    for line in [*rng.sample(lines, 12), *[[] for _ in range(8)]]:
        board = Board()
        moves: list[str] = []
        for name in line:
            board.play(name)
            moves.append(name)
        while len(moves) < 64 and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            moves.append(board.move_name(move))
        for n in range(min(len(moves), openings.LONGEST + 2) + 1):
            assert opening_name(moves[:n]) == _named_from_scratch(moves[:n]), moves[:n]
    spoilt = ["f5", "d6", "c3", "d3", "c4", "a1", "f4"]  # a1 is not legal there
    assert opening_name(spoilt) == _named_from_scratch(spoilt) == opening_name(spoilt[:5])


def test_moves_past_the_deepest_named_position_are_not_replayed() -> None:
    deepest = max(64 - key.split()[0].count("-") for key in openings._table()) - 4
    assert deepest < openings.LONGEST
    rng = random.Random(5)
    board, moves = Board(), list[str]()
    while len(moves) < deepest + 6 and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        moves.append(board.move_name(move))
    opening_name(moves[:deepest])
    walked = openings._walk.cache_info().misses
    for n in range(deepest, len(moves) + 1):
        assert opening_name(moves[:n]) == opening_name(moves[:deepest])
    assert openings._walk.cache_info().misses == walked
