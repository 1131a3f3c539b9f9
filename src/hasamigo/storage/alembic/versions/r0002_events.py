"""events: a game is stored as its setup and its events; every old game is converted.

Until now a game row held the controller's state as JSON (``to_dict``, state_version 1)
and ``moves`` duplicated its record. From here a game is ``games.setup`` plus its events
in ``game_events``; the rest of ``games`` is a summary. New tables: ``game_seats`` (hashed
tokens and join codes), ``server_runs`` (outage accounting) and ``legacy_games`` (old
games the conversion could not turn into valid events, kept as they were with the reason:
nothing is lost, and no bad row fails the upgrade).

Frozen: the conversion below is what this revision does, whatever later code does. It
uses the game modules only to serialise the events it builds and to replay them, to
check that they give the old game back (phase, colours, moves and their seconds, result);
a game that doesn't goes to ``legacy_games``.

Converted games belong to nobody (no seat holds a token): they are made public so that
they stay visible and replayable. Time: ``t0`` is the row's ``created_at``; the colours
are decided at ``t0``, each move is played at ``t0`` plus the seconds recorded so far,
so that the clock charges it exactly its recorded seconds. A clock that was running is
suspended where it was last saved and resumed at the upgrade, as the old server did
after a restart.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from alembic import op

from hasamigo.board import Board
from hasamigo.game.events import (
    AcceptResult,
    Claim,
    ColourStep,
    Event,
    MovePlayed,
    Pass,
    Resign,
    Resume,
    StopPlayout,
    Suspend,
    TimeoutChoice,
    event_to_json,
)
from hasamigo.game.setup import GameSetup
from hasamigo.game.state import GameState, Phase, replay
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.variants import find_variant

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("hasamigo.storage.alembic")

#: The options of the old state, all required.
OLD_OPTIONS = ("variant", "start", "handicap", "clock_seconds", "casual", "draws_allowed",
               "position")
#: A stored move's seconds may differ from the replayed charge by float rounding only.
SECONDS_TOLERANCE = 1e-3
#: Instants made up where the old state kept none (a claim, play-out moves) are this far
#: after the event before them.
STEP = 0.001


def upgrade() -> None:
    _create_tables()
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("setup", sa.JSON, nullable=True))
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("event_count", sa.Integer, nullable=True))
        batch.add_column(sa.Column("program_to_move", sa.Boolean, nullable=True))
    _convert_games()
    op.drop_table("moves")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("state")
        batch.drop_column("revision")
        batch.alter_column("setup", existing_type=sa.JSON, nullable=False)
        batch.alter_column("event_count", existing_type=sa.Integer, nullable=False)
        batch.alter_column("program_to_move", existing_type=sa.Boolean, nullable=False)
        batch.create_index("ix_games_public", ["public"])
        batch.create_index("ix_games_creator", ["creator"])
    if sa.inspect(op.get_bind()).has_table("schema_version"):
        op.drop_table("schema_version")


def downgrade() -> None:
    raise NotImplementedError(
        "revision 0002 converted every game's state into events; that conversion is one-way "
        "(restore a backup taken before the upgrade to go back)")


def _create_tables() -> None:
    op.create_table(
        "game_events",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("participants", sa.String(4), nullable=False),
        sa.Column("client", sa.String(64), nullable=True, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "server_runs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("stopped_at", sa.Float, nullable=True),
    )
    op.create_table(
        "legacy_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
    )


# ---- the data ---------------------------------------------------------------------------
_games = sa.table(
    "games",
    sa.column("id", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("state", sa.JSON),
    sa.column("setup", sa.JSON),
    sa.column("public", sa.Boolean),
    sa.column("creator", sa.String),
    sa.column("event_count", sa.Integer),
    sa.column("program_to_move", sa.Boolean),
)
_moves = sa.table("moves", sa.column("game_id", sa.String))
_events = sa.table(
    "game_events",
    sa.column("game_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("at", sa.Float),
    sa.column("data", sa.JSON),
)
_legacy = sa.table(
    "legacy_games",
    sa.column("id", sa.String),
    sa.column("state", sa.JSON),
    sa.column("reason", sa.Text),
)


def _convert_games() -> None:
    """Each old game: its events and setup, or (if it can't be converted) legacy_games."""
    bind = op.get_bind()
    ids = list(bind.execute(sa.select(_games.c.id).order_by(_games.c.id)).scalars())
    converted = 0
    now = time.time()
    for game_id in ids:
        created_at, text = bind.execute(
            sa.select(_games.c.created_at, sa.cast(_games.c.state, sa.Text))
            .where(_games.c.id == game_id)).one()
        state: Any = None
        try:
            state = json.loads(text)
            result = convert(state, _epoch(created_at), now)
        except Exception as exc:  # whatever goes wrong, the game is kept as it was
            reason = exc.reason if isinstance(exc, Unconvertible) else \
                f"{type(exc).__name__}: {exc}"
            log.warning("game %s is kept in legacy_games: %s", game_id, reason)
            bind.execute(_legacy.insert().values(
                id=game_id, state=state if state is not None else {"unreadable": text},
                reason=reason))
            bind.execute(_moves.delete().where(_moves.c.game_id == game_id))
            bind.execute(_games.delete().where(_games.c.id == game_id))
            continue
        for note in result.notes:
            log.info("game %s: %s", game_id, note)
        if result.events:
            bind.execute(_events.insert(), [
                {"game_id": game_id, "seq": seq, "kind": data["kind"], "at": data["at"],
                 "data": data}
                for seq, data in enumerate(result.events, 1)])
        bind.execute(_games.update().where(_games.c.id == game_id).values(
            setup=result.setup, public=True, creator=None, event_count=len(result.events),
            program_to_move=result.program_to_move))
        converted += 1
    if ids:
        log.info("converted %d of %d games to events; %d kept in legacy_games",
                 converted, len(ids), len(ids) - converted)


def _epoch(created_at: datetime) -> float:
    if created_at.tzinfo is None:  # SQLite keeps no zone; the old code wrote UTC
        created_at = created_at.replace(tzinfo=UTC)
    return created_at.timestamp()


# ---- the conversion of one old state ---------------------------------------------------------
class Unconvertible(Exception):
    """An old state that does not become valid events giving the same game."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Converted(NamedTuple):
    # (not a dataclass: Alembic loads this file without registering it as a module)
    setup: dict[str, Any]
    events: list[dict[str, Any]]
    program_to_move: bool
    notes: list[str]


def convert(state: Any, t0: float, now: float) -> Converted:
    """An old state dict (``to_dict``, state_version 1) as a setup and events; raises
    :class:`Unconvertible` (or any error on a malformed dict) saying why not. ``t0``: the
    game's creation, ``now``: the upgrade (see :func:`_outage`), both epoch seconds."""
    if not isinstance(state, dict) or state.get("state_version") != 1:
        raise Unconvertible("not a state of version 1")
    notes: list[str] = []
    setup_json = _setup(state, notes)
    try:
        setup = GameSetup.from_json(setup_json)
    except Exception as exc:
        raise Unconvertible(f"the setup is refused: {exc}") from exc
    variant = find_variant(setup.options.variant)
    events = _colour_steps(state, setup, t0)
    moves = state["moves"]
    playout_from = state["playout_from"]
    elapsed = 0.0
    for move in moves if playout_from is None else moves[:playout_from]:
        elapsed += move["seconds"] or 0.0
        events.append(_ply(move, variant, t0 + elapsed))
    events += _ending(state, setup, variant, events, t0 + elapsed)
    events += _outage(state, setup, events, now)
    final = _check(state, setup, events)
    program = (final.phase is Phase.PLAYING and not final.suspended
               and final.seats is not None
               and setup.participants[final.seats[final.board.turn]].program is not None)
    return Converted(setup_json, [event_to_json(e, variant) for e in events], program, notes)


def _setup(state: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    people = state["participants"]
    if not isinstance(people, list) or len(people) != 2:
        raise Unconvertible("a game has two participants")
    options = {key: state["options"][key] for key in OLD_OPTIONS}
    options["program_claims"] = True
    method = state["colour_method"]
    if options["draws_allowed"] is False and method != "fuse-ishi":
        # The old controller gave nobody the draw-win right unless fuse-ishi decided
        # colours: such a game was played with draws.
        options["draws_allowed"] = True
        notes.append(f"draws_allowed false with colour method {method!r} had no draw-win "
                     "holder: converted with draws allowed, as it was played")
    return {
        "version": 1,
        "participants": [{"name": p["name"], "program": p["program"], "rank": None,
                          "birth_year": None, "auto_claim": False} for p in people],
        "options": options,
        "colour_method": method,
    }


def _colour_steps(state: dict[str, Any], setup: GameSetup, t0: float) -> list[Event]:
    method = setup.colour_method
    if method in ("black", "white"):
        return [ColourStep("choose", method, 0, at=t0)]
    if method == "random":
        seats = state["seats"]
        return [ColourStep("draw", str(int(seats["black"])), None, at=t0)]
    fuse = state["fuse_ishi"]
    hider = int(fuse["hider"])
    events: list[Event] = [ColourStep("hider", str(hider), None, at=t0),
                           ColourStep("hide", fuse["top"], hider, at=t0)]
    if fuse["call"] is None:
        return events
    events.append(ColourStep("call", fuse["call"], 1 - hider, at=t0))
    for step in ("right", "colour"):
        value = fuse[step]
        if value is None:
            break
        pending = replay(setup, events).pending_colour_step()
        if pending is None or pending[0] != step:
            raise Unconvertible(f"fuse-ishi: a {step} was recorded, the rules wait for "
                                f"{pending}")
        events.append(ColourStep(step, value, pending[1], at=t0))
    return events


def _ply(move: dict[str, Any], variant: type[Board], at: float) -> Event:
    colour = Color(move["colour"])
    name = move["move"]
    if name.lower() == "pass":
        return Pass(colour, at=at)
    return MovePlayed(colour, variant.parse_square(name, cut_ok=True), at=at)


def _ending(state: dict[str, Any], setup: GameSetup, variant: type[Board],
            events: list[Event], last: float) -> list[Event]:
    """The events after the last move before any claim: how the game ended (so far)."""
    phase = state["phase"]
    result = state["result"]
    termination = None if result is None else result["termination"]
    loser_text = state["timeout_loser"]
    if phase in ("colours", "playing"):
        return []
    if loser_text is not None:  # a flag was claimed: time-out, play-out or pending choice
        loser = Color(loser_text)
        so_far = replay(setup, events)
        if so_far.clock is None:
            raise Unconvertible("a time-out in a game without a clock")
        fell = so_far.clock.flag_time(loser)
        at = (fell if fell is not None else so_far.last_at or last) + STEP
        added: list[Event] = [Claim(loser.other, loser, at=at)]
        if phase == "timeout-choice":
            return added
        playout_from = state["playout_from"]
        if playout_from is None:
            return [*added, TimeoutChoice("33-31", at=at)]
        added.append(TimeoutChoice("playout", at=at))
        for move in state["moves"][playout_from:]:
            at += STEP
            added.append(_ply(move, variant, at))
        if phase == "over" and replay(setup, events + added).phase is Phase.PLAYOUT:
            added.append(StopPlayout(at=at + STEP))
        return added
    if termination == "NORMAL":
        return [AcceptResult(BLACK, at=last), AcceptResult(WHITE, at=last)]
    if termination == "RESIGNATION":
        return [Resign(Color(result["winner"]).other, at=last)]
    if termination == "BOTH_FLAGS":
        so_far = replay(setup, events)
        clock = so_far.clock
        if clock is None:
            raise Unconvertible("both flags down in a game without a clock")
        fallen = [t for c in (BLACK, WHITE) if (t := clock.flag_time(c)) is not None]
        at = max([*fallen, so_far.last_at or last]) + STEP
        flagged = clock.running or so_far.board.turn
        return [Claim(flagged.other, flagged, at=at)]
    raise Unconvertible(f"no conversion for phase {phase!r} with termination {termination!r}")


def _outage(state: dict[str, Any], setup: GameSetup, events: list[Event], now: float
            ) -> list[Event]:
    """A running clock stops where the old one was saved and runs again from ``now``.

    The old state kept the running side's remaining time at the last save, and the gap
    from that save to the next start of the server was charged to nobody. Here that gap
    is an outage: :class:`Suspend` at the instant the replayed clock shows the saved
    remaining time, :class:`Resume` at the upgrade. (Without them the running side would
    be charged all the time since the game's last move.)
    """
    old = state["clock"]
    if old is None or old["running"] is None:
        return []
    replayed = replay(setup, events)
    clock = replayed.clock
    if clock is None or clock.running is None or replayed.last_at is None:
        return []
    if clock.running.value != old["running"]:
        raise Unconvertible(f"the clock runs for {clock.running.value} "
                            f"(it ran for {old['running']})")
    saved = float(old[old["running"]])
    used = max(0.0, clock.remaining(clock.running, replayed.last_at) - saved)
    suspended = replayed.last_at + used
    return [Suspend(at=suspended), Resume(at=max(now, suspended))]


def _check(state: dict[str, Any], setup: GameSetup, events: list[Event]) -> GameState:
    """Replay the events and compare with the old state; raise on any difference."""
    try:
        new = replay(setup, events)
    except Exception as exc:
        raise Unconvertible(f"the converted events are refused: {exc}") from exc
    differences = []
    if new.phase.value != state["phase"]:
        differences.append(f"phase {new.phase.value} (was {state['phase']})")
    seats = None if new.seats is None else {"black": new.seats[BLACK],
                                            "white": new.seats[WHITE]}
    if seats != state["seats"]:
        differences.append(f"seats {seats} (were {state['seats']})")
    if _value(new.draw_win) != state["draw_win"]:
        differences.append(f"draw-win {_value(new.draw_win)} (was {state['draw_win']})")
    if _value(new.timeout_loser) != state["timeout_loser"]:
        differences.append(f"time-out loser {_value(new.timeout_loser)} "
                           f"(was {state['timeout_loser']})")
    if new.playout_from != state["playout_from"]:
        differences.append(f"play-out from {new.playout_from} (was {state['playout_from']})")
    differences += _move_differences(state["moves"], new)
    old_result = state["result"]
    result = None if new.result is None else [
        new.result.black, new.result.white, _value(new.result.winner),
        new.result.termination.name]
    wanted = None if old_result is None else [
        old_result["black"], old_result["white"], old_result["winner"],
        old_result["termination"]]
    if result != wanted:
        differences.append(f"result {result} (was {wanted})")
    if differences:
        raise Unconvertible("the converted events give another game: "
                            + "; ".join(differences))
    return new


def _move_differences(old: list[dict[str, Any]], new: GameState) -> list[str]:
    if len(old) != len(new.moves):
        return [f"{len(new.moves)} moves (were {len(old)})"]
    name = new.board.move_name
    for number, (was, now) in enumerate(zip(old, new.moves, strict=True), 1):
        if (was["colour"], was["move"].lower()) != (now.colour.value, name(now.move)):
            return [f"move {number} is {now.colour.value} {name(now.move)} "
                    f"(was {was['colour']} {was['move']})"]
        seconds = was["seconds"]
        if (seconds is None) != (now.seconds is None) or (
                seconds is not None and now.seconds is not None
                and abs(seconds - now.seconds) > SECONDS_TOLERANCE):
            return [f"move {number} took {now.seconds} s (was {seconds} s)"]
    return []


def _value(colour: Color | None) -> str | None:
    return None if colour is None else colour.value
