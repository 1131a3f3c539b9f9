"""The seats' secrets (:class:`SeatRepository`): a player's token, or a join code that is
exchanged once for a token, stored as the hash the caller computed (never the secret)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import or_, select, update

from hasamigo.storage.announcements import announce
from hasamigo.storage.db import Database
from hasamigo.storage.models import GameRow, GameSeatRow
from hasamigo.storage.rows import rowcount

SECRET_KINDS = ("token", "join")


@dataclass(frozen=True, slots=True)
class SeatSecret:
    """A secret acting for ``participants`` (indices into the setup's participants): a
    player's ``token``, or a ``join`` code that is exchanged once for a token. Only its
    hex SHA-256, computed by the caller, is stored."""

    kind: Literal["token", "join"]
    secret_hash: str
    participants: tuple[int, ...]
    client: str | None = None
    used: bool = False


def participants_text(participants: tuple[int, ...]) -> str:
    if participants not in ((0,), (1,), (0, 1)):
        raise ValueError(f"a seat acts for participant 0, 1 or both, not {participants!r}")
    return "".join(str(p) for p in participants)


def seat_row(game_id: str, secret: SeatSecret, now: datetime) -> GameSeatRow:
    if secret.kind not in SECRET_KINDS:
        raise ValueError(f"a seat secret is a token or a join code, not {secret.kind!r}")
    if not 0 < len(secret.secret_hash) <= 64:
        raise ValueError("a secret's hash is a hex SHA-256 (64 characters)")
    return GameSeatRow(game_id=game_id, secret_hash=secret.secret_hash, kind=secret.kind,
                       participants=participants_text(secret.participants),
                       client=secret.client, created_at=now,
                       used_at=now if secret.used else None)


def seat_secret(row: GameSeatRow) -> SeatSecret:
    kind: Literal["token", "join"] = "join" if row.kind == "join" else "token"
    return SeatSecret(kind, row.secret_hash, tuple(int(p) for p in row.participants),
                      row.client, row.used_at is not None)



class SeatRepository:
    """The seats of the games in a :class:`~hasamigo.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def secret(self, game_id: str, secret_hash: str) -> SeatSecret | None:
        with self.db.session() as session:
            row = session.get(GameSeatRow, (game_id, secret_hash))
            return None if row is None else seat_secret(row)

    def use_join_code(self, game_id: str, code_hash: str, token: SeatSecret
                      ) -> tuple[int, ...] | None:
        """Exchange an unused join code for ``token`` (a token for the same participants),
        atomically; returns the participants, or ``None`` if the code is unknown or used."""
        if token.kind != "token" or token.used:
            raise ValueError("a join code is exchanged for an unused token")
        now = datetime.now(UTC)
        with self.db.session() as session, session.begin():
            # Marking the code used first makes the exchange single-use under concurrency:
            # a second writer's update finds used_at set and changes nothing.
            changed = session.execute(
                update(GameSeatRow)
                .where(GameSeatRow.game_id == game_id, GameSeatRow.secret_hash == code_hash,
                       GameSeatRow.kind == "join", GameSeatRow.used_at.is_(None))
                .values(used_at=now).execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                return None
            participants = session.scalar(
                select(GameSeatRow.participants).where(GameSeatRow.game_id == game_id,
                                                       GameSeatRow.secret_hash == code_hash))
            if participants != participants_text(token.participants):
                raise ValueError(f"the join code acts for participants {participants}, the "
                                 f"token for {participants_text(token.participants)}")
            session.add(seat_row(game_id, token, now))
            announce(session, game_id)
        return token.participants

    def pending_joins(self, game_id: str) -> list[tuple[int, ...]]:
        """The participants whose join code has not been used yet (their seat is empty)."""
        with self.db.session() as session:
            return [tuple(int(p) for p in text) for text in session.scalars(
                select(GameSeatRow.participants).where(
                    GameSeatRow.game_id == game_id, GameSeatRow.kind == "join",
                    GameSeatRow.used_at.is_(None)))]

    def client_game_ids(self, client: str) -> list[str]:
        """Games the client created or holds a seat in, newest update first."""
        seated = select(GameSeatRow.game_id).where(GameSeatRow.client == client)
        with self.db.session() as session:
            return list(session.scalars(
                select(GameRow.id).where(or_(GameRow.creator == client, GameRow.id.in_(seated)))
                .order_by(GameRow.updated_at.desc(), GameRow.id)))


__all__ = ["SECRET_KINDS", "SeatRepository", "SeatSecret", "participants_text", "seat_row",
           "seat_secret"]
