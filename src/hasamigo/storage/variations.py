"""Reading and writing variation trees (table ``variations``, revision 0006).

A node is one move (see :mod:`hasamigo.analysis.variations`, which checks moves and
builds the tree; nothing here knows the rules). :meth:`VariationRepository.add` returns
the existing node for the same move under the same parent (the unique key settles a race
between two adders) and refuses a node past the game's limit; :meth:`delete` takes a node
and its whole subtree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hasamigo.errors import HasamigoError
from hasamigo.storage.db import Database, write_lock
from hasamigo.storage.models import GameRow, VariationRow
from hasamigo.storage.rows import aware


class TreeFull(HasamigoError):
    """The game keeps as many variation nodes as it may."""

    code = "variation_limit"


@dataclass(frozen=True, slots=True)
class StoredNode:
    id: int
    game_id: str
    parent_id: int | None
    ply: int
    move: str
    created_at: datetime


def _stored(row: VariationRow) -> StoredNode:
    return StoredNode(row.id, row.game_id, row.parent_id, row.ply, row.move,
                      aware(row.created_at))


class VariationRepository:
    """Variation nodes in a :class:`~hasamigo.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def nodes(self, game_id: str) -> list[StoredNode]:
        """The game's nodes, oldest first."""
        with self.db.session() as session:
            return [_stored(row) for row in session.scalars(
                select(VariationRow).where(VariationRow.game_id == game_id)
                .order_by(VariationRow.id))]

    def count(self, game_id: str) -> int:
        with self.db.session() as session:
            return self._count(session, game_id)

    @staticmethod
    def _count(session: Session, game_id: str) -> int:
        return session.scalar(select(func.count()).select_from(VariationRow)
                              .where(VariationRow.game_id == game_id)) or 0

    def _find(self, session: Session, game_id: str, parent_id: int | None, ply: int,
              move: str) -> VariationRow | None:
        return session.scalar(select(VariationRow).where(
            VariationRow.game_id == game_id, VariationRow.parent_key == (parent_id or 0),
            VariationRow.ply == ply, VariationRow.move == move))

    def add(self, game_id: str, parent_id: int | None, ply: int, move: str, *,
            max_nodes: int) -> tuple[StoredNode, bool]:
        """The node of ``move`` under ``parent_id`` (``None``: off the main line at
        ``ply``), added if new; ``(node, created)``. :class:`TreeFull` when the game keeps
        ``max_nodes`` already; ``KeyError`` if the game or the parent is gone."""
        try:
            with self.db.session() as session, session.begin():
                write_lock(session)
                existing = self._find(session, game_id, parent_id, ply, move)
                if existing is not None:
                    return _stored(existing), False
                if session.get(GameRow, game_id) is None:
                    raise KeyError(game_id)
                if parent_id is not None:
                    parent = session.get(VariationRow, parent_id)
                    if parent is None or parent.game_id != game_id:
                        raise KeyError(parent_id)
                if self._count(session, game_id) >= max_nodes:
                    raise TreeFull(f"a game keeps at most {max_nodes} variation moves: "
                                   "delete a variation to add more")
                row = VariationRow(game_id=game_id, parent_id=parent_id,
                                   parent_key=parent_id or 0, ply=ply, move=move,
                                   created_at=datetime.now(UTC))
                session.add(row)
                session.flush()
                return _stored(row), True
        except IntegrityError as exc:
            # another adder stored the same move first (the unique key), or the game or
            # the parent went meanwhile
            with self.db.session() as session:
                existing = self._find(session, game_id, parent_id, ply, move)
                if existing is None:
                    raise KeyError(parent_id or game_id) from exc
                return _stored(existing), False

    def delete(self, game_id: str, node_id: int) -> int:
        """Delete the node and its subtree; how many nodes went (0: no such node in this
        game)."""
        with self.db.session() as session, session.begin():
            write_lock(session)
            rows = session.execute(select(VariationRow.id, VariationRow.parent_id)
                                   .where(VariationRow.game_id == game_id)).all()
            children: dict[int, list[int]] = {}
            for row_id, parent in rows:
                if parent is not None:
                    children.setdefault(parent, []).append(row_id)
            if node_id not in {row_id for row_id, _parent in rows}:
                return 0
            doomed, stack = [], [node_id]
            while stack:
                current = stack.pop()
                doomed.append(current)
                stack.extend(children.get(current, []))
            session.execute(delete(VariationRow).where(VariationRow.id.in_(doomed))
                            .execution_options(synchronize_session=False))
            return len(doomed)
