"""Hasegawa's early indirect bracketing (間接挟み) as the option ``+indirect`` (issue 64,
item 5).

The seed (the 2024 encyclopedia, 歴史): 「当初長谷川は間接挟みでも石を返すという現在よりも
やや複雑なルールを採用していたが、直接挟みのみに限定した簡明なルールに変更した」. The
project's reading (docs/rules.md, :mod:`hasamigo.rules`): the discs a move turns bracket in
their turn, and what they bracket turns too; only lines through a disc turned in the move;
a move must bracket directly. The reference here is written from those words alone, on
(row, column) cells, as a fixed point: turned discs are added while any line from one of
them holds a run of the other side's discs closed by the mover's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hasamigo import BLACK, Board, InvalidOptionError, Move, find_variant
from hasamigo.cli import app
from hasamigo.engine.players import make_player

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
Cell = tuple[int, int]


def grid(board: Board) -> dict[Cell, str]:
    """The playable cells by (row, column): 'X' black, 'O' white, '.' empty."""
    rows = board.to_string().split()[0]
    cells = {}
    for row in range(board.rows):
        for col in range(board.cols):
            ch = rows[row * board.cols + col]
            if ch != "#":
                cells[(row, col)] = ch if ch in "XO" else "."
    return cells


def runs_from(cells: dict[Cell, str], me: str, at: Cell) -> set[Cell]:
    """Runs of the other side's discs from ``at`` (not included) closed by ``me``."""
    found: set[Cell] = set()
    for dr, dc in DIRECTIONS:
        run, (row, col) = [], (at[0] + dr, at[1] + dc)
        while cells.get((row, col), "#") not in ("#", ".", me):
            run.append((row, col))
            row, col = row + dr, col + dc
        if run and cells.get((row, col)) == me:
            found |= set(run)
    return found


def reference_turned(cells: dict[Cell, str], me: str, at: Cell) -> set[Cell]:
    """What a ``me`` disc placed on the empty ``at`` turns under 間接挟み, as read here:
    nothing if it brackets nothing directly; else the fixed point."""
    turned = runs_from(cells, me, at)
    if not turned:
        return set()
    while True:
        after = dict(cells) | {at: me} | {cell: me for cell in turned}
        more = set().union(*(runs_from(after, me, cell) for cell in turned)) - turned
        if not more:
            return turned
        turned |= more


def _cell(board: Board, sq: int) -> Cell:
    name = board.square_name(sq)
    return int(name[1:]) - 1, "abcdefghij".index(name[0])


def test_a_turned_disc_brackets_in_its_turn() -> None:
    """Black a1: a2 is bracketed directly (a1–a3); turned, a2 brackets b2 (a2–c2). Under
    Othello only a2 turns; under 間接挟み b2 too. f1, between two older black discs, is
    bracketed by no disc of the move and stays white."""
    text = ("--------"   # row 1: e1 black, f1 white, g1 black
            "OO------"   # row 2: a2, b2 white
            "X-------")  # row 3: a3 black
    cells = list(text + "-" * 40)
    cells[4], cells[5], cells[6] = "X", "O", "X"
    cells[8 + 2] = "X"  # c2 black
    position = "".join(cells) + " X"
    plain = Board.from_string(position)
    indirect = find_variant("standard+indirect").from_string(position)
    a1 = plain.parse_square("a1")
    names = {plain.square_name(s) for s in range(64) if plain.flips(Move(a1)) >> s & 1}
    assert names == {"a2"}
    turned = indirect.flips(Move(a1))
    assert {indirect.square_name(s) for s in range(64) if turned >> s & 1} == {"a2", "b2"}
    indirect.play("a1")
    assert indirect.to_string().split()[0][:16] == "X---XOX-" + "XXX-----"


def test_a_move_must_bracket_directly() -> None:
    """The chain adds to a move, never makes one: the legal squares are Othello's."""
    for seed in range(5):
        rng = random.Random(seed)
        plain, indirect = Board(), find_variant("standard+indirect")()
        for _ in range(40):
            if indirect.is_game_over():
                break
            plain = Board.from_string(indirect.to_string())
            assert indirect.legal_moves_mask() == plain.legal_moves_mask()
            indirect.push(rng.choice(list(indirect.legal_moves)))


@settings(max_examples=60)
@given(name=st.sampled_from(["standard+indirect", "grand+indirect", "hasegawa-8x9+indirect",
                             "6x6+indirect", "octagon+indirect", "standard+nip+indirect"]),
       seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_the_board_turns_what_the_reference_turns(name: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = find_variant(name)()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    cells = grid(board)
    me = "X" if board.turn is BLACK else "O"
    for sq in board.legal_moves:
        if sq.square is None:
            continue
        turned = board.flips(sq)
        expected = reference_turned(cells, me, _cell(board, sq.square))
        if not expected:  # Nip's placing anywhere: nothing bracketed
            assert turned == 0
            continue
        assert {_cell(board, s) for s in range(board.grid_size()) if turned >> s & 1} \
            == expected, (name, board.square_name(sq.square))
        after = board.copy(stack=False)
        after.push(sq)
        assert sum(after.counts()) == sum(board.counts()) + 1


@pytest.mark.parametrize("name", ["standard+indirect+osere", "standard+indirect+one",
                                  "standard+choose+indirect", "6x6+capture+indirect"])
def test_indirect_bracketing_refuses_rules_that_turn_otherwise(name: str) -> None:
    with pytest.raises(InvalidOptionError, match="indirect"):
        find_variant(name)


def test_the_option_is_named_and_labelled() -> None:
    variant = find_variant("hasegawa-8x9+間接挟み")
    assert variant is find_variant("8x9+indirect")
    assert variant.name == "hasegawa-8x9+indirect"
    assert "間接挟み" in variant.title and "our reading" in variant.title
    assert variant.rules.supports("indirect")
    assert not variant.rules.supports("engine")  # the kernels know Othello's rule only
    assert not variant.rules.supports("square_notation")  # GGF, WTHOR, OBF replay Othello
    assert "indirect bracketing" in variant.rules_beyond_kernels()[0]


def test_the_seed_is_quoted_beside_the_rule() -> None:
    import hasamigo.rules

    assert ("当初長谷川は間接挟みでも石を返すという現在よりもやや複雑なルールを採用していたが、"
            "直接挟みのみに限定した簡明なルールに変更した") in (hasamigo.rules.__doc__ or "") \
        .replace("\n", "")
    assert "our reading" in (hasamigo.rules.__doc__ or "")


def test_variants_lists_it() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0, result.output
    assert "+indirect" in result.output and "間接挟み" in result.output
    rows = json.loads(runner.invoke(app, ["variants", "--json"]).output)
    assert all("+indirect" in row["options"] for row in rows)


def test_show_plays_a_game_of_it() -> None:
    """Black's g4 turns f4 (row 4, closed by e4); f4 then brackets e5 against d6."""
    runner = CliRunner()
    shown = {}
    for variant in ("standard", "standard+indirect"):
        result = runner.invoke(app, ["show", "e6d6c3f4d7c5g4", "--variant", variant, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        shown[variant] = (data["black"], data["white"])
    assert shown == {"standard": (8, 3), "standard+indirect": (9, 2)}


@pytest.mark.parametrize("spec", ["random", "greedy", "engine:1"])
def test_players_play_whole_games_by_the_rule(spec: str) -> None:
    variant = find_variant("6x6+indirect")
    board = variant()
    players = {BLACK: make_player(spec, seed=1), BLACK.other: make_player("random", seed=2)}
    while not board.is_game_over():
        move = players[board.turn].choose(board)
        assert board.is_legal(move)
        board.play(move)
    assert sum(board.counts()) <= 36


def test_the_web_app_offers_it_and_plays_it(tmp_path: Path) -> None:
    """The new-game form's "Flips" offers it (in Japanese too); a game of it follows the
    chain, as ``show`` does."""
    from test_web_api import create, make_client

    with make_client(tmp_path / "indirect.db") as client:
        assert 'value="indirect"' in client.get("/").text
        assert "間接挟み（長谷川の初期のルール" in client.get("/", params={"lang": "ja"}).text
        game, me = create(client, opponent="person", flip_rule="indirect", clock_minutes=None)
        assert game["variant"] == "standard+indirect" and "間接挟み" in game["title"]
        for move in ("e6", "d6", "c3", "f4", "d7", "c5", "g4"):
            response = me.post("/moves", {"move": move})
            assert response.status_code == 200, response.text
        assert sorted(response.json()["flipped"]) == ["e5", "f4"]  # standard: f4
