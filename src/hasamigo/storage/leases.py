"""Which server process runs which game (:class:`LeaseRepository`): one process at a time
owns a game in play, by a lease row it renews with its heartbeat; when it dies its leases
expire and another process takes its games over."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from hasamigo.game.state import Phase
from hasamigo.storage.db import Database, write_lock
from hasamigo.storage.models import GameLeaseRow, GameRow, ServerRunRow
from hasamigo.storage.rows import rowcount


class LeaseRepository:
    """The games' leases in a :class:`~hasamigo.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def take_lease(self, game_id: str, run_id: int, now: float, seconds: float
                   ) -> tuple[bool, int | None]:
        """Make ``run_id`` the game's owner until ``now + seconds`` if nobody owns it, its
        lease has expired, or it is ``run_id``'s already. Atomic: of two processes taking
        an expired lease together, one gets it. Returns (taken, the previous owner if
        another run's lease had expired, else ``None``)."""
        until = now + seconds
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            before = session.execute(
                select(GameLeaseRow.owner, GameLeaseRow.expires_at)
                .where(GameLeaseRow.game_id == game_id)).first()
            if before is None:
                if session.get(GameRow, game_id) is None:
                    return False, None
                try:
                    with session.begin_nested():
                        session.add(GameLeaseRow(game_id=game_id, owner=run_id,
                                                 expires_at=until))
                        session.flush()
                except IntegrityError:  # another process inserted it first
                    return False, None
                return True, None
            # the condition is checked again on the row as it is when the update locks it
            changed = session.execute(
                update(GameLeaseRow)
                .where(GameLeaseRow.game_id == game_id,
                       or_(GameLeaseRow.owner == run_id, GameLeaseRow.expires_at < now))
                .values(owner=run_id, expires_at=until)
                .execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                return False, None
            previous = int(before.owner)
            return True, (previous if previous != run_id else None)

    def renew_leases(self, run_id: int, now: float, seconds: float) -> set[str]:
        """Extend every lease ``run_id`` holds, and record that the run is alive (a
        heartbeat); returns the games it still owns (a lease that expired and was taken
        by another process is no longer among them)."""
        with self.db.session() as session, session.begin():
            session.execute(update(ServerRunRow).where(ServerRunRow.id == run_id)
                            .values(last_seen=now))
            session.execute(update(GameLeaseRow).where(GameLeaseRow.owner == run_id)
                            .values(expires_at=now + seconds)
                            .execution_options(synchronize_session=False))
            return set(session.scalars(select(GameLeaseRow.game_id)
                                       .where(GameLeaseRow.owner == run_id)))

    def release_leases(self, run_id: int, game_ids: Collection[str] | None = None) -> None:
        """Give up the run's leases (all of them, or those of ``game_ids``): another
        process may take the games at once."""
        query = delete(GameLeaseRow).where(GameLeaseRow.owner == run_id)
        if game_ids is not None:
            if not game_ids:
                return
            query = query.where(GameLeaseRow.game_id.in_(list(game_ids)))
        with self.db.session() as session, session.begin():
            session.execute(query.execution_options(synchronize_session=False))

    def orphan_games(self, now: float, limit: int = 64) -> list[str]:
        """Games not over whose owner's lease has expired (the process died), games in
        which a program is to move that have no owner, and correspondence games whose
        deadline has passed that have no owner (none was in memory, or no server ran
        when it passed): the games another process should take over. The due ones come
        first, the earliest deadline first."""
        with self.db.session() as session:
            expired = select(GameLeaseRow.game_id).where(GameLeaseRow.expires_at < now)
            leased = select(GameLeaseRow.game_id)
            due = and_(GameRow.deadline.is_not(None), GameRow.deadline <= now)
            return list(session.scalars(
                select(GameRow.id).where(
                    GameRow.phase != Phase.OVER.value,
                    or_(GameRow.id.in_(expired),
                        and_(or_(GameRow.program_to_move.is_(True), due),
                             GameRow.id.not_in(leased))))
                .order_by(GameRow.deadline.is_(None), GameRow.deadline,
                          GameRow.updated_at.desc(), GameRow.id).limit(limit)))


__all__ = ["LeaseRepository"]
