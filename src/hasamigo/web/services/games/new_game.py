"""The game a new-game request asks for (:func:`setup_of`): the variant's name, the
participants, a program's spec, and whether that program plays on that board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hasamigo.engine.players import plays_every_grid, plays_every_rule
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.game.errors import GameError
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.player_spec import PlayerSpec
from hasamigo.variants import find_variant
from hasamigo.web.schemas import NewGame
from hasamigo.web.services.players import EXTERNAL, program_name

if TYPE_CHECKING:
    from hasamigo.engine.protocols.config import ConfiguredEngine


def _variant_name(req: NewGame) -> tuple[str, str | None]:
    """The variant and start for the form's board, start and flip rule (8×8 original →
    ``original``; a 挟み碁 flip rule ends the name: ``hasegawa-8x9+one``)."""
    rule = "" if req.flip_rule == "all" else f"+{req.flip_rule}"
    if req.variant == "8x8":
        if req.start == "original":
            return "original" + rule, None
        return "standard" + rule, None if req.start == "cross" else req.start
    if req.start == "original":
        raise GameError("the original (empty-centre) start is offered on 8×8 only")
    return req.variant + rule, None if req.start == "cross" else req.start


def setup_of(req: NewGame, engines: Sequence[ConfiguredEngine] = ()) -> GameSetup:
    """The game a new-game request asks for; ``engines``: the external engines of the
    settings file (the only ones ``opponent='external'`` may name)."""
    variant, start = _variant_name(req)
    names = req.names
    ranks = req.ranks or (None, None)
    years = req.birth_years or (None, None)
    if req.opponent == "person":
        first = Participant(names[0] if names else "Player 1", rank=ranks[0],
                            birth_year=years[0])
        second = Participant(names[1] if names else "Player 2", rank=ranks[1],
                             birth_year=years[1])
    else:
        spec = (str(PlayerSpec("engine", level=req.level)) if req.opponent == "engine"
                else req.opponent)
        name = program_name(spec)
        if req.opponent == "external":
            from hasamigo.engine.protocols.config import find_engine

            engine = None if req.engine is None else find_engine(engines, key=req.engine)
            if engine is None:
                raise InvalidOptionError(f"no external engine {shown(req.engine)} is set up "
                                         "on this server")
            spec, name = f"{EXTERNAL}{engine.key}", engine.name
        board = find_variant(variant)
        if not board.rules.supports("bitboard") and not plays_every_grid(spec):
            raise InvalidOptionError(f"{name} does not play on {board.title} yet: play "
                                     "the engine, Weakest, Random or a person there")
        rules = board.rules_beyond_kernels()
        if rules and not plays_every_rule(spec):
            raise InvalidOptionError(f"{name} does not know {' nor '.join(rules)} of "
                                     f"{board.title}: play Random or a person there")
        first = Participant(names[0] if names else "You", rank=ranks[0],
                            birth_year=years[0], auto_claim=req.auto_claim)
        second = Participant(name, program=spec, rank=ranks[1], birth_year=years[1])
    minutes = req.clock_minutes
    if req.days_per_move is not None:  # a correspondence game: no chess clock
        if req.opponent != "person":
            raise InvalidOptionError("days per move are for a game between two people")
        if minutes is not None and "clock_minutes" in req.model_fields_set:
            raise InvalidOptionError("a correspondence game (days per move) has no chess "
                                     "clock: leave clock_minutes out")
        minutes = None
    if req.rated and (req.opponent != "person" or req.same_screen):
        raise InvalidOptionError("a rated game is between two people in two browsers "
                                 "(opponent 'person', same_screen false)")
    options = GameOptions(
        variant=variant, start=start, handicap=req.handicap,
        clock_seconds=None if minutes is None else minutes * 60.0,
        casual=req.casual and not req.rated, draws_allowed=req.draws_allowed,
        position=req.position, program_claims=req.program_claims, scoring=req.scoring,
        days_per_move=req.days_per_move, rated=req.rated,
    )
    return GameSetup((first, second), options, req.colour)


__all__ = ["setup_of"]
