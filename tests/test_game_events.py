"""Property: a game is its events. For random games and random requests, legal and
illegal, the fold of the recorded events (through their JSON form) equals the live
controller's state after every request, and a refused request records nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_controller import snapshot

from hasamigo import BLACK, WHITE
from hasamigo.errors import HasamigoError
from hasamigo.game.controller import GameController, GameOptions, GameSetup, Participant
from hasamigo.game.events import event_from_json, event_to_json
from hasamigo.game.state import Phase

COLOURS = (BLACK, WHITE)


class FakeTime:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def setup_of(options: dict[str, Any]) -> GameSetup:
    second = Participant("Bot", program=options["program"]) if options["program"] \
        else Participant("Bob")
    return GameSetup(
        (Participant("Ann", auto_claim=options["auto_claim"]), second),
        GameOptions(variant=options["variant"], clock_seconds=options["clock"],
                    draws_allowed=options["draws"], casual=options["casual"],
                    program_claims=options["program_claims"]),
        options["colour"])


def reload(game: GameController) -> GameController:
    """The game rebuilt from its setup's and events' JSON, as storage does."""
    variant = type(game.board)
    setup = GameSetup.from_json(json.loads(json.dumps(game.setup.to_json())))
    events = [event_from_json(json.loads(json.dumps(event_to_json(e, variant))), variant)
              for e in game.events]
    return GameController(setup, events, time_source=game._now)


def _request(game: GameController, t: FakeTime, kind: int, value: int, rng: random.Random
             ) -> None:
    """One request, chosen by ``kind``; it may well be refused."""
    colour = COLOURS[value % 2]
    board = game.board
    if kind == 0:  # whatever takes the game forward, as a player would
        state = game.state
        step = state.pending_colour_step()
        if step is not None and step[1] is not None:
            without_draws = state.colours.draw_win_only or not game.options.draws_allowed
            choices = {"call": ("black", "white") if without_draws else ("top", "bottom"),
                       "right": ("draw-win", "colour"), "colour": ("black", "white")}
            game.colour_step(step[1], step[0], rng.choice(choices[step[0]]))
        elif state.phase is Phase.TIMEOUT_CHOICE:
            game.choose_after_timeout(rng.choice(("33-31", "playout")))
        elif state.phase is Phase.OVER:
            game.accept_result(colour)
        else:
            game.play(None, board.move_name(rng.choice(list(board.legal_moves))))
    elif kind == 1:  # any square, likely illegal, for either colour
        game.play(colour, board.square_name(rng.choice(
            [sq for sq in range(64) if board.playable() >> sq & 1])))
    elif kind == 2:
        game.play(colour, "pass")
    elif kind == 3:
        t.now += (value * 37) % 97 + 1  # hypothesis favours small numbers: spread them
    elif kind == 4:  # a claim of the running side's flag, by its opponent or itself
        flagged = board.turn
        game.claim(flagged if value % 3 == 0 else flagged.other, flagged)
    elif kind == 5:
        game.choose_after_timeout(("33-31", "playout")[value % 2])
    elif kind == 6:
        game.stop_playout()
    elif kind == 7:
        game.resign(colour)
    elif kind == 8:
        game.request_undo(colour)
    elif kind == 9:
        game.undo(colour)
    elif kind == 10:
        game.decline_undo(colour)
    elif kind == 11:
        game.accept_result(colour)
    elif kind == 12:
        game.suspend() if value % 2 else game.resume()
    elif kind == 13:
        game.observe()
    else:
        step = game.state.pending_colour_step()
        participant = value % 2 if step is None or step[1] is None else step[1]
        name = step[0] if step is not None else "call"
        choices = {"call": ("top", "bottom", "black", "white"), "right": ("draw-win", "colour"),
                   "colour": ("black", "white")}.get(name, ("black",))
        game.colour_step(participant, name, choices[value % len(choices)])


SETUPS = st.fixed_dictionaries({
    "variant": st.sampled_from(["4x4", "6x6", "standard"]),
    "colour": st.sampled_from(["black", "white", "random", "fuse-ishi"]),
    "clock": st.sampled_from([None, 30.0, 90.0]),
    "draws": st.booleans(),
    "casual": st.booleans(),
    "program": st.sampled_from([None, None, "random"]),
    "auto_claim": st.booleans(),
    "program_claims": st.booleans(),
})


#: request kinds, weighted: mostly legal moves and time passing, so games get far
KINDS = [0] * 12 + [3] * 5 + [4] * 3 + [13] * 2 + [14] * 2 + list(range(1, 15))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(SETUPS, st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 1000)),
                        max_size=80),
       st.integers(0, 2**16))
def test_the_fold_of_the_record_is_the_live_state(options: dict[str, Any],
                                                   requests: list[tuple[int, int]],
                                                   seed: int) -> None:
    t = FakeTime()
    setup = setup_of(options)
    game = GameController.new(setup, time_source=t, rng=random.Random(seed))
    rng = random.Random(seed)
    assert snapshot(reload(game)) == snapshot(game)
    for kind, value in requests:
        before, events = snapshot(game), game.events
        program = game.program_to_move()
        try:
            if program is not None and kind == 0:  # the program's turn: it moves
                game.play(program[0], game.board.move_name(rng.choice(list(
                    game.board.legal_moves))))
            else:
                _request(game, t, kind, value, rng)
        except (HasamigoError, ValueError):
            assert snapshot(game) == before and game.events == events  # nothing recorded
            continue
        assert snapshot(reload(game)) == snapshot(game)
        if game.phase is Phase.OVER:
            assert game.result is not None
            total = game.result.black + game.result.white
            assert total == game.board.square_count()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(SETUPS, st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 1000)),
                        max_size=50),
       st.integers(0, 2**16))
def test_reloading_from_the_database_at_any_point_gives_the_same_state(
        tmp_path_factory: pytest.TempPathFactory, options: dict[str, Any],
        requests: list[tuple[int, int]], seed: int) -> None:
    from hasamigo.storage import Database, GameRepository

    db = Database(f"sqlite:///{tmp_path_factory.mktemp('fold') / 'g.db'}")
    db.open()
    repo = GameRepository(db)
    t = FakeTime()
    setup = setup_of(options)
    game = GameController.new(setup, time_source=t, rng=random.Random(seed), game_id="g")
    repo.create(game)
    stored = len(game.events)
    rng = random.Random(seed)
    try:
        for kind, value in requests:
            try:
                _request(game, t, kind, value, rng)
            except (HasamigoError, ValueError):
                continue
            stored = repo.append(game, stored)
            loaded = repo.load("g", time_source=t)
            assert loaded is not None
            assert snapshot(loaded.game) == snapshot(game)
            assert loaded.game.events == game.events
    finally:
        db.close()
