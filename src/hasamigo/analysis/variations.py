"""Variations: other moves tried from positions of a game, kept as a tree beside it.

A variation node is one move. A node without a parent branches off the game's main line:
it is played from the main line's position ``ply`` (after ``ply`` moves, passes counted),
in place of the game's move ``ply + 1``. A node with a parent continues its parent's
line: its ``ply`` is the parent's plus one. A node's *line* is the main line's first
``branch`` moves followed by the moves from its root node down to it.

Nothing here touches storage or the web: :func:`check_move` validates a move to add,
:func:`build_tree` replays every stored node (leaving out those that no longer replay,
e.g. under a casual game's taken-back move), :func:`tree_to_json` writes the exported
shape and :func:`tree_from_json` reads it back, :func:`line_record` makes a line a
:class:`~hasamigo.notation.record.GameRecord` for GGF.

The JSON shape (``tree_to_json``)::

    {"game": "a1b2c3", "variant": "standard",
     "main_line": ["f5", "d6", ...],
     "variations": [                      # branches off the main line, by from_ply
       {"from_ply": 22,                   # played from the main line's position 22
        "moves": ["e6", "f7", "g8"],      # move i is played from position from_ply + i
        "ids": [12, 13, 17],              # the stored node of each move
        "children": [                     # branches off this line, by from_ply
          {"from_ply": 23, "moves": ["c3"], "ids": [20], "children": []}]}]}

A line follows each node's first child (the oldest); its other children start the
line's ``children``, whose ``from_ply`` says where they leave it: a child with
``from_ply`` ``p`` replaces the parent line's move ``p - from_ply`` (its first move is
played after the parent line's first ``p - from_ply`` moves), so the two lines share
those moves. Passes are written ``pass``; a 挟み碁 move that chose its discs ``c4(d4)``.

>>> from hasamigo import Board
>>> main = [Board.parse_move(m) for m in ("f5", "d6", "c3")]
>>> check_move(Board(), main, {}, parent=None, ply=1, move="f6")
(1, 'f6')
>>> tree = build_tree(Board(), main, [VariationNode(1, None, 1, "f6"),
...                                  VariationNode(2, 1, 2, "e6")])
>>> tree_to_json("g", tree)["variations"]
[{'from_ply': 1, 'moves': ['f6', 'e6'], 'ids': [1, 2], 'children': []}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hasamigo.board import Board
from hasamigo.errors import HasamigoError, ParseError, shown
from hasamigo.move import Move
from hasamigo.notation.record import GameRecord

#: the most nodes a game keeps
MAX_NODES = 500
#: the longest variation, in moves from the main line
MAX_LINE = 64


class VariationError(HasamigoError, ValueError):
    """A variation that cannot be added or read as asked (a ply off the main line, the
    game's own move, a line too long, an unreadable tree)."""

    code = "invalid_variation"


class VariationLimit(VariationError):
    """The game keeps :data:`MAX_NODES` nodes already."""

    code = "variation_limit"


@dataclass(frozen=True, slots=True)
class VariationNode:
    """One stored move: ``parent`` ``None`` branches off the main line at ``ply``."""

    id: int
    parent: int | None
    ply: int
    move: str


@dataclass(slots=True)
class PlacedNode:
    """A node that replays: its move (canonical name), the board after it, the discs it
    turned and its children (oldest first)."""

    node: VariationNode
    move: Move
    board: Board
    turned: int
    children: list[PlacedNode] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.node.id


@dataclass(slots=True)
class VariationTree:
    """Every node that replays on the game as it stands: ``roots`` by (ply, id),
    ``nodes`` by id; ``stale`` counts the stored nodes that no longer replay."""

    start: Board
    main: list[Move]
    roots: list[PlacedNode]
    nodes: dict[int, PlacedNode]
    stale: int = 0

    def main_board(self, ply: int) -> Board:
        """The main line's position after ``ply`` moves."""
        board = self.start.copy()
        for move in self.main[:ply]:
            board.push(move)
        return board

    def line(self, node_id: int) -> tuple[int, list[PlacedNode]]:
        """The branch point and the nodes from the root down to ``node_id``."""
        path = [self.nodes[node_id]]
        while path[-1].node.parent is not None:
            path.append(self.nodes[path[-1].node.parent])
        path.reverse()
        return path[0].node.ply, path

    def line_moves(self, node_id: int) -> list[Move]:
        """Every move from the start to ``node_id``: the main line's, then the line's."""
        branch, path = self.line(node_id)
        return [*self.main[:branch], *(placed.move for placed in path)]


def canonical(board: Board, move: Move) -> Move:
    """``move`` as one name for one move: a choice of turned discs that turns every
    bracketed disc is the bare square (as :meth:`Board.move_choices` names it)."""
    if move.square is not None and move.turned is not None \
            and move.turned == board.flips(Move(move.square)):
        return Move(move.square)
    return move


def parse_checked(board: Board, text: str) -> Move:
    """The legal move ``text`` names on ``board`` (canonical); :class:`IllegalMoveError`
    saying why if it is not legal, :class:`InvalidSquareError` / :class:`ParseError` if
    it names nothing."""
    move = board.parse_move(text)
    trial = board.copy(stack=False)
    trial.push(move)  # raises IllegalMoveError with the reason
    return canonical(board, move)


def check_move(start: Board, main: Sequence[Move], nodes: Mapping[int, VariationNode], *,
               parent: int | None, ply: int | None, move: str) -> tuple[int, str]:
    """Validate a move to add (at ``parent``, or off the main line at ``ply``) and return
    its ply and canonical name. ``nodes`` are the game's stored nodes by id. Refuses a
    parent not in ``nodes`` (``KeyError``), a ply off the main line, the main line's own
    move there, a line past :data:`MAX_LINE` (:class:`VariationError`) and an illegal
    move (:class:`IllegalMoveError`)."""
    if parent is None:
        if ply is None or not 0 <= ply <= len(main):
            raise VariationError(f"a variation branches off the main line at a ply from 0 "
                                 f"to {len(main)}, not {shown(ply)}")
        board = start.copy()
        for played in main[:ply]:
            board.push(played)
        played_move = parse_checked(board, move)
        if ply < len(main) and played_move == canonical(board, main[ply]):
            raise VariationError(f"{board.move_name(played_move)} is the game's own move "
                                 f"{ply + 1}: step along the main line instead")
        return ply, board.move_name(played_move)
    path = [nodes[parent]]
    while path[-1].parent is not None:
        path.append(nodes[path[-1].parent])  # KeyError: a broken chain
    path.reverse()
    if len(path) >= MAX_LINE:
        raise VariationError(f"a variation is at most {MAX_LINE} moves long")
    branch = path[0].ply
    if branch > len(main):
        raise VariationError("this variation leaves the main line past its last move")
    board = start.copy()
    for played in main[:branch]:
        board.push(played)
    for step in path:
        board.push(board.parse_move(step.move))
    played_move = parse_checked(board, move)
    return branch + len(path), board.move_name(played_move)


def build_tree(start: Board, main: Sequence[Move], nodes: Iterable[VariationNode]
               ) -> VariationTree:
    """Replay every node; those that do not replay (a ply past the main line, an
    illegal move: the main line changed under them) are left out with their subtrees
    and counted in ``stale``."""
    stored = sorted(nodes, key=lambda n: n.id)
    children: dict[int | None, list[VariationNode]] = {}
    for node in stored:
        children.setdefault(node.parent, []).append(node)
    tree = VariationTree(start.copy(stack=False), list(main), [], {})
    mains: dict[int, Board] = {}
    for node in sorted(children.get(None, []), key=lambda n: (n.ply, n.id)):
        if node.ply not in mains and 0 <= node.ply <= len(main):
            mains[node.ply] = tree.main_board(node.ply)
        placed = _place(mains.get(node.ply), node, node.ply)
        if placed is None:
            continue
        tree.roots.append(placed)
        _grow(tree, placed, children)
    tree.stale = len(stored) - len(tree.nodes)
    return tree


def _place(board: Board | None, node: VariationNode, ply: int) -> PlacedNode | None:
    if board is None or node.ply != ply:
        return None
    try:
        move = parse_checked(board, node.move)
    except (HasamigoError, ValueError):
        return None
    after = board.copy()
    turned = after.turned_by(move)
    after.push(move)
    return PlacedNode(node, move, after, turned)


def _grow(tree: VariationTree, root: PlacedNode,
          children: Mapping[int | None, list[VariationNode]]) -> None:
    stack = [(root, 1)]
    while stack:  # iterative: a line may be MAX_LINE deep
        placed, depth = stack.pop()
        tree.nodes[placed.id] = placed
        if depth >= MAX_LINE:
            continue
        for child in children.get(placed.id, []):
            grown = _place(placed.board, child, placed.node.ply + 1)
            if grown is not None:
                placed.children.append(grown)
                stack.append((grown, depth + 1))


# ---- the exported shape -----------------------------------------------------------------
def _lines(first: PlacedNode, board: Board) -> dict[str, Any]:
    moves: list[str] = []
    ids: list[int] = []
    children: list[dict[str, Any]] = []
    placed: PlacedNode | None = first
    while placed is not None:
        moves.append(board.move_name(placed.move))
        ids.append(placed.id)
        for other in placed.children[1:]:
            children.append(_lines(other, board))
        placed = placed.children[0] if placed.children else None
    children.sort(key=lambda c: (c["from_ply"], c["ids"][0]))
    return {"from_ply": first.node.ply, "moves": moves, "ids": ids, "children": children}


def tree_to_json(game_id: str, tree: VariationTree) -> dict[str, Any]:
    """The tree in the module docstring's shape."""
    board = tree.start
    return {"game": game_id, "variant": board.name,
            "main_line": [board.move_name(m) for m in tree.main],
            "variations": [_lines(root, board) for root in tree.roots]}


def tree_from_json(data: Mapping[str, Any]) -> list[VariationNode]:
    """The nodes of :func:`tree_to_json`'s output (:class:`VariationError` if the shape
    is wrong; the moves are not checked here: :func:`build_tree` replays them)."""
    nodes: list[VariationNode] = []

    def read(line: Any, parent: int | None, parent_ply: int | None) -> None:
        if not isinstance(line, Mapping):
            raise VariationError("a variation is an object")
        moves, ids, start = line.get("moves"), line.get("ids"), line.get("from_ply")
        if not (isinstance(moves, list) and isinstance(ids, list) and moves
                and len(moves) == len(ids) and isinstance(start, int)
                and all(isinstance(m, str) for m in moves)
                and all(isinstance(i, int) for i in ids)):
            raise VariationError("a variation has from_ply, and as many moves as ids")
        if parent_ply is not None and start != parent_ply + 1:
            raise VariationError(f"a branch from ply {parent_ply} starts at "
                                 f"{parent_ply + 1}, not {start}")
        by_ply: dict[int, int] = {}
        above = parent
        for offset, (move, node_id) in enumerate(zip(moves, ids, strict=True)):
            nodes.append(VariationNode(node_id, above, start + offset, move))
            by_ply[start + offset] = node_id
            above = node_id
        for child in line.get("children", []):
            child_ply = child.get("from_ply") if isinstance(child, Mapping) else None
            if not isinstance(child_ply, int) or child_ply - 1 not in by_ply \
                    or child_ply == start:
                raise VariationError("a branch leaves its line after one of its moves")
            read(child, by_ply[child_ply - 1], child_ply - 1)

    lines = data.get("variations")
    if not isinstance(lines, list):
        raise VariationError("the tree has a list of variations")
    for line in lines:
        read(line, None, None)
    if len({n.id for n in nodes}) != len(nodes):
        raise VariationError("a node id is used twice")
    return nodes


def line_record(record: GameRecord, moves: Sequence[Move]) -> GameRecord:
    """The game's record with ``moves`` in place of its own: the result is the line's if
    it ends the game, none otherwise."""
    line = replace(record, moves=list(moves), recorded_score=None,
                   metadata={k: v for k, v in record.metadata.items() if k != "RE"})
    try:
        outcome = line.outcome()
    except (HasamigoError, ValueError) as exc:  # pragma: no cover - lines are replayed
        raise ParseError(f"the line does not replay: {exc}") from exc
    if outcome is not None:
        line.recorded_score = outcome.black
    return line


__all__ = [
    "MAX_LINE",
    "MAX_NODES",
    "PlacedNode",
    "VariationError",
    "VariationLimit",
    "VariationNode",
    "VariationTree",
    "build_tree",
    "canonical",
    "check_move",
    "line_record",
    "parse_checked",
    "tree_from_json",
    "tree_to_json",
]
