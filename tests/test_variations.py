"""The pure variations module: a move to add is checked against the game's positions,
the stored nodes replay into a tree (stale ones left out), the nested JSON reads back to
the same tree, a line becomes a GGF record. A property: every line of a random tree
replays legally from the start and the JSON round-trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import Board, IllegalMoveError, find_variant
from hasamigo.analysis.variations import (
    MAX_LINE,
    VariationError,
    VariationNode,
    build_tree,
    canonical,
    check_move,
    line_record,
    tree_from_json,
    tree_to_json,
)
from hasamigo.move import Move
from hasamigo.notation import GameRecord, format_ggf, parse_ggf

MAIN = ["f5", "d6", "c3", "d3", "c4"]


def main_line(names: list[str] = MAIN) -> list[Move]:
    return [Board.parse_move(m) for m in names]


def test_a_move_is_checked_against_the_position_it_is_played_from() -> None:
    main = main_line()
    assert check_move(Board(), main, {}, parent=None, ply=1, move="F6") == (1, "f6")
    assert check_move(Board(), main, {}, parent=None, ply=5, move="f4")[0] == 5
    with pytest.raises(VariationError, match="game's own move 2"):
        check_move(Board(), main, {}, parent=None, ply=1, move="d6")
    with pytest.raises(VariationError, match="from 0 to 5"):
        check_move(Board(), main, {}, parent=None, ply=6, move="f4")
    with pytest.raises(IllegalMoveError, match="occupied"):
        check_move(Board(), main, {}, parent=None, ply=0, move="d4")
    nodes = {1: VariationNode(1, None, 1, "f6"), 2: VariationNode(2, 1, 2, "e6")}
    assert check_move(Board(), main, nodes, parent=2, ply=None, move="f4") == (3, "f4")
    with pytest.raises(KeyError):
        check_move(Board(), main, nodes, parent=7, ply=None, move="f4")
    chain = {i: VariationNode(i, i - 1 if i > 1 else None, i - 1, "x")
             for i in range(1, MAX_LINE + 1)}
    with pytest.raises(VariationError, match="at most"):
        check_move(Board(), main, chain, parent=MAX_LINE, ply=None, move="f4")


def test_a_choice_of_every_bracketed_disc_is_the_bare_square() -> None:
    board = find_variant("standard+choose")()
    board.play("f5")
    move = board.parse_move("f6(e5)")  # f6 brackets e5 only
    assert canonical(board, move) == Move(move.square)
    assert check_move(find_variant("standard+choose")(), main_line(["f5"]), {},
                      parent=None, ply=1, move="f6(e5)") == (1, "f6")


def test_nodes_that_no_longer_replay_are_left_out_with_their_subtrees() -> None:
    nodes = [VariationNode(1, None, 1, "f6"), VariationNode(2, 1, 2, "e6"),
             VariationNode(3, None, 4, "c4"),  # the main line's move 5 is c4 … until undone
             VariationNode(4, 3, 5, "b3"), VariationNode(5, None, 9, "a1"),
             VariationNode(6, 2, 3, "d4")]  # occupied: never replays
    tree = build_tree(Board(), main_line(MAIN[:3]), nodes)
    assert set(tree.nodes) == {1, 2} and tree.stale == 4
    assert tree.line_moves(2) == main_line(["f5", "f6", "e6"])


def test_the_tree_is_nested_by_where_lines_leave_each_other() -> None:
    nodes = [VariationNode(1, None, 1, "f6"), VariationNode(2, 1, 2, "e6"),
             VariationNode(3, 2, 3, "f4"), VariationNode(4, 1, 2, "d3"),
             VariationNode(5, None, 1, "f4")]
    tree = build_tree(Board(), main_line(), nodes)
    data = tree_to_json("g", tree)
    assert data["main_line"] == MAIN
    assert data["variations"] == [
        {"from_ply": 1, "moves": ["f6", "e6", "f4"], "ids": [1, 2, 3],
         "children": [{"from_ply": 2, "moves": ["d3"], "ids": [4], "children": []}]},
        {"from_ply": 1, "moves": ["f4"], "ids": [5], "children": []}]
    assert sorted(tree_from_json(data), key=lambda n: n.id) == nodes
    for bad in ({"variations": 3}, {"variations": [{"from_ply": 1, "moves": [],
                                                     "ids": []}]},
                {"variations": [{"from_ply": 1, "moves": ["f6"], "ids": [1],
                                 "children": [{"from_ply": 5, "moves": ["e6"],
                                               "ids": [2]}]}]}):
        with pytest.raises(VariationError):
            tree_from_json(bad)


def test_a_line_is_a_record_with_its_own_result() -> None:
    record = GameRecord(moves=main_line(), black="Ann", white="Ben", recorded_score=40)
    tree = build_tree(Board(), main_line(), [VariationNode(1, None, 2, "c5")])
    line = line_record(record, tree.line_moves(1))
    assert line.recorded_score is None and line.black == "Ann"
    [back] = parse_ggf(format_ggf(line))
    assert back.moves == main_line(["f5", "d6", "c5"])
    # a line that ends the game carries its result
    board, rng = Board(), random.Random(7)
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    outcome = board.outcome()
    assert outcome is not None
    assert line_record(record, board.move_stack).recorded_score == outcome.black


VARIANTS = ["standard", "6x6", "standard+one", "hasegawa-8x9+choose", "nip-circle"]


@st.composite
def trees(draw: st.DrawFn) -> tuple[type[Board], list[Move], list[VariationNode]]:
    """A random board, main line and tree of legal moves grown on it (every choice of
    turned discs a move of its own)."""
    variant = find_variant(draw(st.sampled_from(VARIANTS)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    board = variant()
    main: list[Move] = []
    for _ in range(draw(st.integers(0, 30))):
        if board.is_game_over():
            break
        move = rng.choice(list(board.move_choices()))
        board.push(move)
        main.append(move)
    nodes: dict[int, VariationNode] = {}
    boards: dict[int, Board] = {}
    for node_id in range(1, draw(st.integers(0, 40)) + 1):
        parent = rng.choice([None, *nodes]) if nodes else None
        if parent is None:
            ply = rng.randint(0, len(main))
            at = variant()
            for move in main[:ply]:
                at.push(move)
        else:
            ply, at = nodes[parent].ply + 1, boards[parent]
        if at.is_game_over():
            continue
        move = rng.choice(list(at.move_choices()))
        if parent is None and ply < len(main) and move == main[ply]:
            continue
        name = at.move_name(move)
        if any(n.parent == parent and n.ply == ply and n.move == name
               for n in nodes.values()):
            continue
        nodes[node_id] = VariationNode(node_id, parent, ply, name)
        after = at.copy()
        after.push(move)
        boards[node_id] = after
    return variant, main, list(nodes.values())


@settings(max_examples=40, deadline=None)
@given(trees())
def test_every_line_replays_and_the_json_round_trips(
        case: tuple[type[Board], list[Move], list[VariationNode]]) -> None:
    variant, main, nodes = case
    tree = build_tree(variant(), main, nodes)
    assert set(tree.nodes) == {n.id for n in nodes} and tree.stale == 0
    for node in nodes:
        replayed = GameRecord(variant=variant, moves=tree.line_moves(node.id)).replay()
        assert replayed.to_string() == tree.nodes[node.id].board.to_string()
    data = tree_to_json("g", tree)
    back = tree_from_json(data)
    assert sorted(back, key=lambda n: n.id) == sorted(nodes, key=lambda n: n.id)
    assert tree_to_json("g", build_tree(variant(), main, back)) == data
    # and every stored move is checked as it was added: the same name, the same ply
    known = {n.id: n for n in nodes}
    for node in nodes:
        assert check_move(variant(), main, known, parent=node.parent,
                          ply=node.ply if node.parent is None else None,
                          move=node.move) == (node.ply, node.move)
