"""Tables, in SQLAlchemy 2's typed declarative style. API schemas live apart (web.schemas).

A game is stored as exactly what it is: its setup (``games.setup``) and its events
(``game_events``, one row each, numbered from 1). The other columns of ``games`` are a
summary for the library, recomputed from the controller on every write and never read
back into a game. The migrations (``storage/alembic/versions``) spell these tables out
instead of importing them; a test checks that both agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: its setup (JSON) and the library's summary of its events."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)  # GameSetup.to_json()
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(),
                                         index=True)
    creator: Mapped[str | None] = mapped_column(String(64), index=True)  # a client id
    # ---- the summary (see repository.summary_columns) ----
    phase: Mapped[str] = mapped_column(String(20), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    black: Mapped[str] = mapped_column(String(80))
    white: Mapped[str] = mapped_column(String(80))
    opponent: Mapped[str] = mapped_column(String(40))
    casual: Mapped[bool] = mapped_column(Boolean)
    move_count: Mapped[int] = mapped_column(Integer)
    result_black: Mapped[int | None] = mapped_column(Integer)
    result_white: Mapped[int | None] = mapped_column(Integer)
    winner: Mapped[str | None] = mapped_column(String(8))
    termination: Mapped[str | None] = mapped_column(String(20))
    event_count: Mapped[int] = mapped_column(Integer)
    program_to_move: Mapped[bool] = mapped_column(Boolean)
    #: a correspondence game's deadline for the side to move (seconds since the epoch;
    #: ``NULL`` for other games): the servers find the games whose deadline passed by it
    deadline: Mapped[float | None] = mapped_column(Float, index=True)


class GameEventRow(Base):
    """One event of a game (``seq`` from 1, no gaps); ``data`` is ``event_to_json``'s
    output, ``kind`` and ``at`` are copies of two of its fields for queries."""

    __tablename__ = "game_events"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class GameSeatRow(Base):
    """A secret that acts for participants of a game: a player's token, or a join code
    (used once, then exchanged for a token). Only its SHA-256 is stored."""

    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "token" | "join"
    participants: Mapped[str] = mapped_column(String(4))  # "0", "1" or "01"
    client: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: the account holding this seat (revision 0012), if a signed-in person took it; the
    #: token stays the proof of the seat, the account may ask for a fresh one
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL",
                               name="fk_game_seats_account_id"), index=True)


class ServerRunRow(Base):
    """A server process's life (epoch seconds), so that the clock time of an outage (the
    gap between two runs) is not charged to the player on move."""

    __tablename__ = "server_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)
    stopped_at: Mapped[float | None] = mapped_column(Float)


class LegacyGameRow(Base):
    """An old game (the pre-event state format) that could not be turned into valid
    events when the database was upgraded: kept as it was, with the reason."""

    __tablename__ = "legacy_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    state: Mapped[Any] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(Text)


# ---- tournaments (revision 0003) -------------------------------------------------------------
class TournamentRow(Base):
    """A tournament: its name and settings (``Settings.to_json()``); the director's
    password only as a salted hash (argon2id; older rows ``pbkdf2_sha256$…``, rehashed at
    the next login: :mod:`hasamigo.passwords`)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    format: Mapped[str] = mapped_column(String(24))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class TournamentEntrantRow(Base):
    """An entrant, numbered from 1 in the order of registration."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    rank: Mapped[str | None] = mapped_column(String(16))
    birth_year: Mapped[int | None] = mapped_column(Integer)
    woman: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[bool] = mapped_column(Boolean)
    division: Mapped[str | None] = mapped_column(String(24))
    program: Mapped[str | None] = mapped_column(String(40))
    withdrawn_from: Mapped[int | None] = mapped_column(Integer)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: what a division's eligibility is read from (revision 0010): the birth date (ISO),
    #: student status, the school year (1–12); ``NULL``: not given
    born: Mapped[str | None] = mapped_column(String(10))
    student: Mapped[bool | None] = mapped_column(Boolean)
    school_year: Mapped[int | None] = mapped_column(Integer)
    #: the account that entered itself (revision 0015; NULL: a name the director entered,
    #: or an account since deleted), once per tournament; the rating it was seeded by
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL",
                               name="fk_tournament_entrants_account_id"))
    rating: Mapped[int | None] = mapped_column(Integer)

    __table_args__ = (Index("uq_tournament_entrants_account", "account_id", "tournament_id",
                            unique=True),)


class TournamentRoundRow(Base):
    """A paired round (its pairings are in ``tournament_pairings``)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    paired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentPairingRow(Base):
    """Board ``board`` of a round: ``player_a`` (Black, with prescribed colours) against
    ``player_b`` (none: a bye), and why the pairing chose them (``why``)."""

    __tablename__ = "tournament_pairings"
    __table_args__ = (
        ForeignKeyConstraint(["tournament_id", "round"],
                             ["tournament_rounds.tournament_id", "tournament_rounds.number"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["tournament_id", "player_a"],
                             ["tournament_entrants.tournament_id",
                              "tournament_entrants.number"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["tournament_id", "player_b"],
                             ["tournament_entrants.tournament_id",
                              "tournament_entrants.number"],
                             ondelete="CASCADE"),
    )

    tournament_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage: Mapped[str] = mapped_column(String(16))
    player_a: Mapped[int] = mapped_column(Integer)
    player_b: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    colours: Mapped[str] = mapped_column(String(12))
    why: Mapped[list[Any]] = mapped_column(JSON)


class TournamentResultRow(Base):
    """The result entered for a board (the newest; the audit log keeps the ones it
    replaced). ``game_id``: the game stored with its moves, if any."""

    __tablename__ = "tournament_results"
    __table_args__ = (
        ForeignKeyConstraint(["tournament_id", "round", "board"],
                             ["tournament_pairings.tournament_id", "tournament_pairings.round",
                              "tournament_pairings.board"],
                             ondelete="CASCADE"),
    )

    tournament_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    black: Mapped[int] = mapped_column(Integer)
    white: Mapped[int] = mapped_column(Integer)
    black_discs: Mapped[int] = mapped_column(Integer)
    white_discs: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer)
    forfeit: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    draw_win: Mapped[int | None] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="SET NULL"))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    entered_by: Mapped[str | None] = mapped_column(String(80))
    #: ``Termination.code`` (revision 0008); ``NULL`` in older rows: ``forfeit`` or normal
    termination: Mapped[str | None] = mapped_column(String(20))
    #: why a loss by penalty (反則負け, rule 21) was declared (revision 0010)
    reason: Mapped[str | None] = mapped_column(Text)


class TournamentAuditRow(Base):
    """One entry of a tournament's audit log: who did what when, with the value before
    and after (every correction, and every other change too) and the reason given."""

    __tablename__ = "tournament_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    who: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(24))
    round: Mapped[int | None] = mapped_column(Integer)
    board: Mapped[int | None] = mapped_column(Integer)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text)


# ==== the user study (revision 0004) ==========================================================
# A study's subjects play ordinary stored games (their answers are events of those games,
# see hasamigo.game.events.StudyAnswer); these tables hold the rest: the study, each
# subject with the counterbalanced order and the questionnaires, which game is which of the
# subject's, and the strong engine's evaluations computed after the answers.
class StudyRow(Base):
    """A study: its name, settings (programs, protocol, surprise window, clock,
    languages), the researcher's password (a salted argon2id hash, or an older PBKDF2
    one), when it was archived and how many subjects withdrew."""

    __tablename__ = "studies"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # revision 0009: archived (read-only) since, and how many subjects withdrew (their
    # rows and games are deleted; only the count stays)
    archived_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    withdrawn: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class StudySubjectRow(Base):
    """A subject: the anonymous code, the arrival number (which row of the design), the
    order of the programs, the language, and the questionnaires as they were answered
    (``before``, ``after``: JSON objects, ``None`` until answered)."""

    __tablename__ = "study_subjects"
    __table_args__ = (UniqueConstraint("study_id", "number", name="uq_study_subject_number"),)

    study_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True)
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    number: Mapped[int] = mapped_column(Integer)
    order: Mapped[list[Any]] = mapped_column(JSON)
    language: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    consented_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class StudyGameRow(Base):
    """The subject's game number ``index`` (1-based, in the subject's order): the program
    and the stored game, and the after-game answer (``felt`` 1–5 and a note)."""

    __tablename__ = "study_games"
    __table_args__ = (
        ForeignKeyConstraint(["study_id", "code"],
                             ["study_subjects.study_id", "study_subjects.code"],
                             ondelete="CASCADE"),
    )

    study_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    program: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    felt: Mapped[int | None] = mapped_column(Integer)
    felt_note: Mapped[str | None] = mapped_column(Text)


class StudyEvaluationRow(Base):
    """The strong engine's evaluation of the position the subject faced after the
    program's move ``move_number`` of a study game: discs from the subject's side."""

    __tablename__ = "study_evaluations"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    move_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    evaluation: Mapped[float] = mapped_column(Float)
    exact: Mapped[bool] = mapped_column(Boolean)


# ==== game reviews (revision 0005) ============================================================
class ReviewRow(Base):
    """A game's review (:mod:`hasamigo.analysis.review`), stored a move at a time so that
    it resumes where it stopped: ``moves`` holds the rows done so far, in order
    (``MoveReview.to_json()``), ``reviewed`` how many (the append's compare-and-set);
    ``status`` is ``queued``, ``running``, ``done`` or ``failed`` (``error`` says why)."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    depth: Mapped[int] = mapped_column(Integer)
    exact_empties: Mapped[int] = mapped_column(Integer)
    moves: Mapped[list[Any]] = mapped_column(JSON)
    reviewed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), index=True)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# ==== variations (revision 0006) ============================================================
class VariationRow(Base):
    """One move of a game's variation tree (:mod:`hasamigo.analysis.variations`):
    ``parent_id`` ``NULL`` branches off the main line, played from its position ``ply``;
    else ``ply`` is the parent's plus one. ``parent_key`` is ``parent_id`` or 0 (never
    ``NULL``, so that the unique key also holds off the main line: SQL's unique keys
    treat every ``NULL`` as distinct); the same move under the same parent is one row."""

    __tablename__ = "variations"
    __table_args__ = (UniqueConstraint("game_id", "parent_key", "ply", "move",
                                       name="uq_variations_move"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True)
    parent_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("variations.id", ondelete="CASCADE"), index=True)
    parent_key: Mapped[int] = mapped_column(Integer)
    ply: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# ==== leases (revision 0007) ================================================================
class GameLeaseRow(Base):
    """Which server process runs a game's clock and programs (several processes may
    serve one database): ``owner`` is its :class:`ServerRunRow` id, renewed with its
    heartbeat; once ``expires_at`` (epoch seconds) has passed, another process may take
    the game over."""

    __tablename__ = "game_leases"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[int] = mapped_column(Integer, index=True)
    expires_at: Mapped[float] = mapped_column(Float)


# ==== multi-player games (revision 0011) ====================================================
class MultiGameRow(Base):
    """A game of three or four players (:mod:`hasamigo.multi`): ``game`` is the rules'
    name (``rolit``, ``othello4``); ``seats`` the seats in turn order from the first to
    move (``[{"colour", "name", "program"}]``, ``program`` ``null`` for a person);
    ``secrets`` the hashes of the seats' tokens and join codes
    (``[{"kind", "hash", "colours", "used"}]``, never the secrets); ``moves`` the moves as
    text (``f4 c3 PA …``); ``version`` counts the writes (the compare-and-set of every
    update); ``result`` each seat's final discs once over (``red 20 yellow 6 …``)."""

    __tablename__ = "multi_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    seats: Mapped[list[Any]] = mapped_column(JSON)
    secrets: Mapped[list[Any]] = mapped_column(JSON)
    moves: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    result: Mapped[str | None] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: a rated game (revision 0017): rated in the ``rolit`` or ``multi4`` pool once over
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MultiGameSeatRow(Base):
    """The account holding a seat (``colour``) of a multi-player game (revision 0017):
    set when a signed-in person creates the game or takes the seat, ``NULL`` once the
    account is deleted (the game stays, for the others). The seat's token stays the
    proof of the seat; the account may ask for a fresh one."""

    __tablename__ = "multi_game_seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("multi_games.id", ondelete="CASCADE"), primary_key=True)
    colour: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL",
                               name="fk_multi_game_seats_account_id"), index=True)


# ==== accounts (revision 0012) ===============================================================
class AccountRow(Base):
    """A person's account (:mod:`hasamigo.accounts`): ``name`` as they chose it
    (NFKC-normalised), ``name_key`` its case-folded form (unique: names differ by more
    than case), the password's hash (argon2id, :mod:`hasamigo.passwords`), never the
    password."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session token (never the token), when it
    began and was last seen (sessions end after a time unused, or at sign-out: the row
    is deleted)."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountDeviceRow(Base):
    """A browser an account signed in from (revision 0018): the SHA-256 of its long-lived
    device cookie's token (never the token), when it was given and last used. A sign-in
    from it is not held back by failures others made with the account's name
    (:mod:`hasamigo.accounts.attempts`); deleted with the account."""

    __tablename__ = "account_devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountAttemptRow(Base):
    """One attempt the accounts' limits count (revision 0018): a failed sign-in, or a
    sign-up. ``key`` is the SHA-256 of what it is counted against (the client's address,
    a name's key, a device), never the text itself; ``at`` its instant. Rows older than the
    longest window are pruned; nothing typed (no password) is stored."""

    __tablename__ = "account_attempts"
    __table_args__ = (Index("ix_account_attempts_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


# ==== ratings (revision 0013) ================================================================
class RatingRow(Base):
    """A subject's current rating in a pool (:mod:`hasamigo.ratings`): ``subject`` is
    ``account:<id>`` or ``program:<spec>`` (a rating knows no account row), ``mu`` and
    ``sigma`` the library's mean and deviation on the 1500 scale, ``games`` how many rated
    games made it. A subject never rated has no row (the pool's start)."""

    __tablename__ = "ratings"

    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    subject: Mapped[str] = mapped_column(String(80), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """One subject's change by one rated game, before and after: unique per (pool, game,
    subject), so that a game is rated once, even by two servers at once. ``game_ref``
    names the game (``game:<id>``, ``tournament:<id>:<round>:<board>``); ``score`` is the
    subject's result (1, ½, 0; a share of the others beaten in a game of three or four)."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("pool", "game_ref", "subject",
                                       name="uq_rating_changes_game_subject"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pool: Mapped[str] = mapped_column(String(16))
    game_ref: Mapped[str] = mapped_column(String(120))
    subject: Mapped[str] = mapped_column(String(80), index=True)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    games_after: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


# ==== lobby (revision 0014) ==================================================================
class LobbyChallengeRow(Base):
    """An open challenge of the lobby (:mod:`hasamigo.lobby`): posted by an account, with
    the game it offers (variant, minutes a side or days per move, rated, the poster's
    colour, watched by anyone or not). ``state``: ``open`` until accepted (``accepted``,
    ``acceptor_id`` and then ``game_id`` set in the one transaction that wins), cancelled by
    its poster, or lapsed (``expires_at`` passed, or the poster has no session left)."""

    __tablename__ = "lobby_challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    poster_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    clock_minutes: Mapped[float | None] = mapped_column(Float)
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    colour: Mapped[str] = mapped_column(String(12))
    public: Mapped[bool] = mapped_column(Boolean)
    #: the poster's rating shown with the challenge (its display number when posted)
    rating: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(12), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    acceptor_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL"))
    game_id: Mapped[str | None] = mapped_column(String(32))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LobbyWaitingRow(Base):
    """An account waiting to be paired with someone near its rating (one entry per
    account: the primary key). ``mu`` is its rating when it began waiting, ``since`` when,
    ``seen_at`` its page's last call (an entry unseen for a while lapses); once paired,
    ``partner_id`` is set on both entries in one transaction, then ``game_id``."""

    __tablename__ = "lobby_waiting"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    partner_id: Mapped[str | None] = mapped_column(String(32))
    paired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    game_id: Mapped[str | None] = mapped_column(String(32))
