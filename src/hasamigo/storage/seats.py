"""The seats' secrets (:class:`SeatRepository`): a player's token, or a join code that is
exchanged once for a token, stored as the hash the caller computed (never the secret).

A secret may name the account holding its seat (``account``, issue 67): the token stays
the proof of the seat for every action, and the account may ask for a fresh token of its
own seat from any browser (:meth:`SeatRepository.add_token`). A join code naming an
account is a seat kept for that account (a game the lobby made): it is exchanged by the
account, not by whoever knows a code."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import delete, or_, select, update

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
    #: the account holding the seat (``None``: anonymous)
    account: str | None = None


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
                       used_at=now if secret.used else None, account_id=secret.account)


def seat_secret(row: GameSeatRow) -> SeatSecret:
    kind: Literal["token", "join"] = "join" if row.kind == "join" else "token"
    return SeatSecret(kind, row.secret_hash, tuple(int(p) for p in row.participants),
                      row.client, row.used_at is not None, row.account_id)



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

    def account_seats(self, game_id: str, account_id: str) -> list[SeatSecret]:
        """The secrets of the game's seats that ``account_id`` holds (tokens, and join
        codes kept for it), oldest first."""
        with self.db.session() as session:
            return [seat_secret(row) for row in session.scalars(
                select(GameSeatRow).where(GameSeatRow.game_id == game_id,
                                          GameSeatRow.account_id == account_id)
                .order_by(GameSeatRow.created_at, GameSeatRow.secret_hash))]

    def add_token(self, game_id: str, token: SeatSecret, keep: int = 8) -> None:
        """Store a fresh token of an account's seat; the account keeps its ``keep``
        newest tokens of the game (older browsers' tokens end)."""
        if token.kind != "token" or token.account is None:
            raise ValueError("a fresh token is an account's")
        now = datetime.now(UTC)
        with self.db.session() as session, session.begin():
            session.add(seat_row(game_id, token, now))
            session.flush()
            old = list(session.scalars(
                select(GameSeatRow.secret_hash).where(
                    GameSeatRow.game_id == game_id, GameSeatRow.account_id == token.account,
                    GameSeatRow.kind == "token")
                .order_by(GameSeatRow.created_at.desc(), GameSeatRow.secret_hash)
                .offset(keep)))
            if old:
                session.execute(delete(GameSeatRow).where(
                    GameSeatRow.game_id == game_id, GameSeatRow.secret_hash.in_(old),
                    GameSeatRow.secret_hash != token.secret_hash))

    def account_game_ids(self, account_id: str) -> list[str]:
        """Games in which the account holds a seat, newest update first."""
        seated = select(GameSeatRow.game_id).where(GameSeatRow.account_id == account_id)
        with self.db.session() as session:
            return list(session.scalars(
                select(GameRow.id).where(GameRow.id.in_(seated))
                .order_by(GameRow.updated_at.desc(), GameRow.id)))

    def account_participants(self, account_id: str) -> dict[str, frozenset[int]]:
        """For each game the account holds a seat of, the participants it holds."""
        held: dict[str, set[int]] = {}
        with self.db.session() as session:
            for game_id, participants in session.execute(
                    select(GameSeatRow.game_id, GameSeatRow.participants)
                    .where(GameSeatRow.account_id == account_id)):
                held.setdefault(game_id, set()).update(int(p) for p in participants)
        return {game_id: frozenset(p) for game_id, p in held.items()}

    def seat_accounts(self, game_id: str) -> list[tuple[tuple[int, ...], str]]:
        """Who holds the game's seats: (participants, account) of each token an account
        holds (a rated game's players, :mod:`hasamigo.web.services.ratings`)."""
        with self.db.session() as session:
            return [(tuple(int(p) for p in participants), str(account))
                    for participants, account in session.execute(
                        select(GameSeatRow.participants, GameSeatRow.account_id)
                        .where(GameSeatRow.game_id == game_id, GameSeatRow.kind == "token",
                               GameSeatRow.account_id.is_not(None))
                        .order_by(GameSeatRow.created_at))]

    def unclaimed_client_games(self, client: str) -> list[str]:
        """The games in which this browser holds a seat token no account holds."""
        with self.db.session() as session:
            return sorted(set(session.scalars(select(GameSeatRow.game_id).where(
                GameSeatRow.client == client, GameSeatRow.kind == "token",
                GameSeatRow.account_id.is_(None)))))

    def claim_client(self, client: str, account_id: str) -> list[str]:
        """The seats this browser (``client``) took without an account, given to the
        account (tokens held by no account only); the games claimed."""
        with self.db.session() as session, session.begin():
            where = (GameSeatRow.client == client, GameSeatRow.kind == "token",
                     GameSeatRow.account_id.is_(None))
            games = sorted(set(session.scalars(select(GameSeatRow.game_id).where(*where))))
            if games:
                session.execute(update(GameSeatRow).where(*where).values(
                    account_id=account_id).execution_options(synchronize_session=False))
        return games

    def client_game_ids(self, client: str) -> list[str]:
        """Games the client created or holds a seat in, newest update first."""
        seated = select(GameSeatRow.game_id).where(GameSeatRow.client == client)
        with self.db.session() as session:
            return list(session.scalars(
                select(GameRow.id).where(or_(GameRow.creator == client, GameRow.id.in_(seated)))
                .order_by(GameRow.updated_at.desc(), GameRow.id)))


__all__ = ["SECRET_KINDS", "SeatRepository", "SeatSecret", "participants_text", "seat_row",
           "seat_secret"]
