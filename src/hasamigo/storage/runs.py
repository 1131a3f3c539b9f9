"""The server's runs (:class:`RunRepository`): each process's start, heartbeat and stop,
from which the outages (when no server ran at all) are worked out."""

from __future__ import annotations

from sqlalchemy import or_, select, update

from hasamigo.storage.db import Database
from hasamigo.storage.models import ServerRunRow


class RunRepository:
    """The server processes' runs in a :class:`~hasamigo.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def start_run(self, now: float) -> int:
        """Record a server process starting at ``now``; returns its run id."""
        with self.db.session() as session, session.begin():
            run = ServerRunRow(started_at=now, last_seen=now)
            session.add(run)
            session.flush()
            return run.id

    def heartbeat(self, run_id: int, now: float) -> None:
        """The run is alive at ``now`` (an outage after a crash starts at the last one)."""
        with self.db.session() as session, session.begin():
            session.execute(update(ServerRunRow).where(ServerRunRow.id == run_id)
                            .values(last_seen=now))

    def stop_run(self, run_id: int, now: float) -> None:
        with self.db.session() as session, session.begin():
            session.execute(update(ServerRunRow).where(ServerRunRow.id == run_id)
                            .values(last_seen=now, stopped_at=now))

    def outages_since(self, since: float) -> list[tuple[float, float]]:
        """The times, after ``since``'s run began, when no server process was running,
        oldest first: each from the end of the last run alive (its stop or, after a crash,
        its last heartbeat) to the next start. Several processes serving one database
        overlap: only a time covered by none of them is an outage."""
        with self.db.session() as session:
            before = session.scalars(
                select(ServerRunRow).where(ServerRunRow.started_at <= since)
                .order_by(ServerRunRow.started_at.desc(), ServerRunRow.id.desc()).limit(1)).all()
            first = before[0].started_at if before else since
            # every run alive at or after the first one's start, in the order they began
            runs = session.scalars(
                select(ServerRunRow).where(
                    ServerRunRow.started_at >= first
                    if not before else or_(ServerRunRow.started_at >= first,
                                           ServerRunRow.last_seen >= first))
                .order_by(ServerRunRow.started_at, ServerRunRow.id)).all()
        gaps = []
        covered: float | None = None  # the end of the time covered so far
        for run in runs:
            end = run.stopped_at if run.stopped_at is not None else run.last_seen
            if covered is not None and run.started_at > covered:
                gaps.append((covered, run.started_at))
            covered = end if covered is None else max(covered, end)
        return gaps

    def run_last_seen(self, run_id: int) -> float | None:
        """When the run last said it was alive (its stop, if it stopped)."""
        with self.db.session() as session:
            run = session.get(ServerRunRow, run_id)
            if run is None:
                return None
            return run.stopped_at if run.stopped_at is not None else run.last_seen


__all__ = ["RunRepository"]
