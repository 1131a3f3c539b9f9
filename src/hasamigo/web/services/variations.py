"""Variations of a game (:mod:`hasamigo.analysis.variations`) for the web: moves checked
on the server with the rules core against the game as it stands, stored by
:class:`~hasamigo.storage.variations.VariationRepository`, shown as a tree with every
node's position and the moves there (the replay page trusts none of its own).

Who may read the game may read and add to its variations; an official game in progress
has none (403 ``official_game``: no analysis board beside a running official game).
"""

from __future__ import annotations

import asyncio
from typing import Any

from hasamigo.analysis.variations import (
    MAX_LINE,
    MAX_NODES,
    PlacedNode,
    VariationError,
    VariationNode,
    VariationTree,
    build_tree,
    check_move,
    line_record,
    tree_to_json,
)
from hasamigo.board import Board
from hasamigo.game.state import Phase
from hasamigo.notation import format_ggf
from hasamigo.squares import bits
from hasamigo.storage.variations import StoredNode, VariationRepository
from hasamigo.web.errors import Forbidden, NotFound
from hasamigo.web.schemas_variations import LineView, MovesHere, NodeView, VariationsView
from hasamigo.web.services.games import LiveGame


def check_game(live: LiveGame) -> None:
    """Refuse the variations of an official game in progress (403 ``official_game``)."""
    game = live.game
    if game.phase is not Phase.OVER and not game.options.casual:
        raise Forbidden("no variations during an official game: try them once it is over",
                        "official_game")


def moves_here(board: Board) -> MovesHere:
    """The moves of the side to move (see :class:`MovesHere`)."""
    legal = [board.square_name(sq) for sq in bits(board.legal_moves_mask())]
    picks = {board.square_name(sq): [board.square_name(d) for d in bits(board.turn_choices(sq))]
             for sq in bits(board.legal_moves_mask()) if board.needs_choice(sq)}
    return MovesHere(turn=board.turn.value, legal=legal,
                     picks=picks, must_pass=board.must_pass(), over=board.is_game_over())


def _node_view(tree: VariationTree, placed: PlacedNode) -> NodeView:
    board = placed.board
    black, white = board.counts()
    _branch, path = tree.line(placed.id)
    return NodeView(
        id=placed.id, parent=placed.node.parent, ply=placed.node.ply,
        move=board.move_name(placed.move),
        colour=board.turn.other.value,  # the side that moved
        cells=board.to_string().split()[0], black=black, white=white,
        flipped=[board.square_name(sq) for sq in bits(placed.turned)],
        here=moves_here(board), children=[c.id for c in placed.children],
        line=[p.id for p in path])


def tree_view(game_id: str, tree: VariationTree, count: int, node: int | None = None
              ) -> VariationsView:
    board = tree.start.copy()
    main = [moves_here(board)]
    for move in tree.main:
        board.push(move)
        main.append(moves_here(board))
    data = tree_to_json(game_id, tree)
    return VariationsView(
        game=game_id, count=count, max_nodes=MAX_NODES, max_line=MAX_LINE,
        stale=tree.stale, main=main,
        nodes=[_node_view(tree, placed) for placed in tree.nodes.values()],
        variations=[LineView.model_validate(line) for line in data["variations"]],
        node=node)


class VariationService:
    """The variations of live games (see the module docstring)."""

    def __init__(self, repo: VariationRepository) -> None:
        self.repo = repo

    def _tree(self, live: LiveGame) -> tuple[VariationTree, list[StoredNode]]:
        stored = self.repo.nodes(live.id)
        board = live.game.board
        nodes = [VariationNode(n.id, n.parent_id, n.ply, n.move) for n in stored]
        return build_tree(board.root(), list(board.move_stack), nodes), stored

    async def view(self, live: LiveGame, node: int | None = None) -> VariationsView:
        check_game(live)

        def work() -> VariationsView:
            tree, stored = self._tree(live)
            return tree_view(live.id, tree, len(stored), node)
        return await asyncio.to_thread(work)

    async def add(self, live: LiveGame, parent: int | None, ply: int | None, move: str
                  ) -> tuple[VariationsView, bool]:
        """Add ``move`` (see :class:`VariationRequest`); the tree and whether the node is
        new. 404 for a parent that is not this game's, 400 ``invalid_variation`` for a ply
        off the main line, the game's own move or a line too long, 422 ``illegal_move``,
        409 ``variation_limit`` for a full tree."""
        check_game(live)

        def work() -> tuple[VariationsView, bool]:
            tree, stored = self._tree(live)
            if parent is not None and parent not in tree.nodes:
                if any(n.id == parent for n in stored):
                    raise VariationError(f"variation move {parent} no longer follows the "
                                         "game (its main line changed)")
                raise NotFound(f"no variation move {parent} in game {live.id}")
            nodes = {p.id: p.node for p in tree.nodes.values()}
            board = live.game.board
            at, name = check_move(board.root(), list(board.move_stack), nodes,
                                  parent=parent, ply=ply, move=move)
            try:
                added, created = self.repo.add(live.id, parent, at, name,
                                               max_nodes=MAX_NODES)
            except KeyError as exc:  # the parent or the game went meanwhile
                raise NotFound(f"no variation move {parent} in game {live.id}") from exc
            tree, stored = self._tree(live)
            return tree_view(live.id, tree, len(stored), added.id), created
        return await asyncio.to_thread(work)

    async def delete(self, live: LiveGame, node: int) -> VariationsView:
        """Delete ``node`` and its subtree (404 if it is not this game's)."""
        check_game(live)

        def work() -> VariationsView:
            if self.repo.delete(live.id, node) == 0:
                raise NotFound(f"no variation move {node} in game {live.id}")
            tree, stored = self._tree(live)
            return tree_view(live.id, tree, len(stored))
        return await asyncio.to_thread(work)

    async def export(self, live: LiveGame) -> dict[str, Any]:
        """The tree as :func:`tree_to_json` writes it."""
        check_game(live)

        def work() -> dict[str, Any]:
            return tree_to_json(live.id, self._tree(live)[0])
        return await asyncio.to_thread(work)

    async def line_ggf(self, live: LiveGame, node: int) -> str:
        """The whole line of ``node`` (the main line up to its branch, then the
        variation) as GGF."""
        check_game(live)

        def work() -> str:
            tree, _stored = self._tree(live)
            if node not in tree.nodes:
                raise NotFound(f"no variation move {node} in game {live.id}")
            return format_ggf(line_record(live.game.record(), tree.line_moves(node)))
        return await asyncio.to_thread(work)
