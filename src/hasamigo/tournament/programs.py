"""Tournaments that programs play by themselves (``hasamigo tournament run``).

Every entrant is a program (its spec, as for ``hasamigo match``). Round after round the
tournament is paired by its format, and each round's games are played
(:func:`~hasamigo.tournament.match.play_game`) one after the other here, or by any ``play``
given (the jobs runner's workers: :func:`hasamigo.jobs.games.program_player`), each
stored as it comes. Colours are
the pairing's where they are prescribed; in the knockout games (no draws) the game
controller's fuse-ishi decides them and the draw-win right, the hider being the higher
rank, else the elder. Each game is then replayed through
:class:`~hasamigo.game.controller.GameController` (so it is checked by the rules and
becomes a finished game of the library, public, with its replay) and entered as the
board's result. A run stopped half-way resumes where it stopped: the facts are all stored.

A league (round robin) of programs gives a table with each program's score against the
field and the Elo difference that score means, by the match command's computation
(:func:`~hasamigo.tournament.match.elo_difference`, :func:`~.match.elo_interval`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from hasamigo.engine.players import PlayerSpec, make_player, player_spec
from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.move import BLACK, Move
from hasamigo.tournament.match import (
    MatchGame,
    elo_difference,
    elo_interval,
    game_seed,
    play_game,
    random_opening,
)
from hasamigo.tournament.model import (
    Colours,
    GameKind,
    Pairing,
    PairingKind,
    TournamentError,
)
from hasamigo.tournament.service import GameView, TournamentService
from hasamigo.tournament.state import Tournament


@dataclass(frozen=True, slots=True)
class ProgramTask:
    """One game for a worker process (picklable): the players are the entrants' specs,
    read from the tournament's store."""

    round: int
    board: int
    black: PlayerSpec
    white: PlayerSpec
    opening: tuple[Move, ...]
    seed: int


def play_task(task: ProgramTask) -> MatchGame:
    """Play one tournament game (the unit of work of the process pool)."""
    black = make_player(task.black, seed=task.seed)
    white = make_player(task.white, seed=task.seed + 1)
    try:
        return play_game(black, white, task.opening, index=task.round * 1000 + task.board)
    finally:  # an external engine's process ends with its game
        black.close()
        white.close()


def _controller(t: Tournament, p: Pairing, seed: int) -> GameController:
    """The game of pairing ``p`` before its first move: prescribed colours (``a`` takes
    Black), or fuse-ishi with the draw-win right for games without draws."""
    assert p.b is not None
    people = []
    for number in (p.a, p.b):
        e = t.entrant(number)
        if e.program is None:
            raise TournamentError(f"{e.name} is not a program: only programs play by "
                                  "themselves (enter the results of people's games)")
        people.append(Participant(e.name, program=e.program, rank=e.rank,
                                  birth_year=e.birth_year))
    options = GameOptions(clock_seconds=None, casual=False, draws_allowed=p.draws_allowed)
    method = "fuse-ishi" if p.colours is Colours.FUSE_ISHI else "black"
    setup = GameSetup((people[0], people[1]), options, method)
    return GameController.new(setup, rng=random.Random(seed), game_id=secrets.token_hex(6))


def replay(game: GameController, played: MatchGame) -> None:
    """Feed a played game's moves to its controller (forced passes it plays itself)."""
    for move in (*played.opening, *played.moves):
        if not move.is_pass:
            game.play(None, move)
    if game.result is None:
        raise TournamentError("the game did not end")


Play = Callable[[Sequence[ProgramTask]], Iterable[MatchGame]]


def run_tournament(service: TournamentService, tournament_id: str, *,
                   random_plies: int = 0,
                   on_game: Callable[[GameView], None] | None = None,
                   on_round: Callable[[int, int], None] | None = None,
                   who: str = "hasamigo tournament run", play: Play | None = None
                   ) -> Tournament:
    """Play the tournament to its end (or on from where it stopped): pair each round,
    play its games, store and enter each. ``on_round(round, games)`` is called when a
    round starts, ``on_game`` after each game. ``play``: what plays a round's games (in
    any order; each is stored as it comes), instead of this process one after the other:
    the jobs runner's workers, :func:`hasamigo.jobs.games.program_player`."""
    if play is None:
        play = _play_here
    while True:
        t = service.tournament(tournament_id)
        if t.finished:
            return t
        if not t.pairings or t.round_complete(t.rounds_paired):
            service.pair_next_round(tournament_id, who=who)
            t = service.tournament(tournament_id)
        number = t.rounds_paired
        waiting = [p for p in t.pairings[number]
                   if p.kind is PairingKind.GAME and (number, p.board) not in t.results]
        if on_round is not None:
            on_round(number, len(waiting))
        for view in _play_round(service, tournament_id, t, waiting, play=play,
                                random_plies=random_plies, who=who):
            if on_game is not None:
                on_game(view)


def _play_round(service: TournamentService, tournament_id: str, t: Tournament,
                waiting: list[Pairing], *, play: Play, random_plies: int,
                who: str) -> Iterator[GameView]:
    seed = t.settings.seed
    games: dict[int, tuple[GameController, ProgramTask]] = {}  # by the game's index
    for p in waiting:
        game_number = p.round * 1000 + p.board
        game = _controller(t, p, game_seed(seed, game_number))
        opening = random_opening(random_plies, game_seed(seed + 1, game_number)) \
            if random_plies else ()
        black, white = game.seat(BLACK), game.seat(BLACK.other)
        assert black.program is not None and white.program is not None
        games[game_number] = (game, ProgramTask(p.round, p.board, player_spec(black.program),
                                                player_spec(white.program), opening,
                                                game_seed(seed + 2, game_number)))
    for played in play([task for _, task in games.values()]):
        game, task = games.pop(played.index)
        replay(game, played)
        yield service.record_game(tournament_id, task.round, task.board, game, who=who)


@dataclass(frozen=True, slots=True)
class LeagueRow:
    """A program's line of a league table: its score against the field and the Elo
    difference to the field's average that score means (``None``: infinite)."""

    place: int
    name: str
    program: str | None
    games: int
    wins: int
    draws: int
    losses: int
    discs: int
    score_pct: float
    elo: float | None
    elo_ci95: tuple[float | None, float | None]


def league_table(t: Tournament) -> list[LeagueRow]:
    """Every entrant's games played (not byes, not games left unplayed), in the order of
    the final ranking, with Elo against the field."""
    tally: dict[int, list[int]] = {n: [0, 0, 0, 0] for n in t.entrants}
    for g in t.games():
        if not g.finished or g.white is None or g.kind is GameKind.NOT_PLAYED_DRAW:
            continue
        for n in g.players:
            points = g.points_of(n)
            row = tally[n]
            row[0 if points == 1.0 else 1 if points == 0.5 else 2] += 1
            discs = g.discs_of(n)
            row[3] += discs or 0
    out = []
    for place, n in enumerate(t.format.final_order(t), 1):
        w, d, lost, discs = tally[n]
        games = w + d + lost
        score = (w + 0.5 * d) / games if games else 0.0
        elo = elo_difference(score) if games else None
        e = t.entrant(n)
        out.append(LeagueRow(place, e.name, e.program, games, w, d, lost, discs,
                             round(100 * score, 2),
                             None if elo is None else round(elo, 1),
                             _rounded(elo_interval(w, d, lost))))
    return out


def _play_here(tasks: Sequence[ProgramTask]) -> Iterator[MatchGame]:
    """The games one after the other in this process (the default of
    :func:`run_tournament`)."""
    return map(play_task, tasks)


def _rounded(pair: tuple[float | None, float | None]) -> tuple[float | None, float | None]:
    low, high = pair
    return (None if low is None else round(low, 1), None if high is None else round(high, 1))


__all__ = ["LeagueRow", "ProgramTask", "league_table", "play_task", "replay",
           "run_tournament"]
