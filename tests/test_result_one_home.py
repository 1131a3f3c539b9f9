"""One result value: :class:`hasamigo.game.result.GameResult`, whoever records the game.

The same finished game gives the same ``GameResult`` in ``hasamigo match`` (its
:class:`MatchGame` and the journal's row), in the game controller the web serves (and its
:class:`ResultView`) and in a stored tournament (its :class:`BoardResult`, through the
database): a draw, a time loss and a forfeit. No other class is a game's result.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

import hasamigo
from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.engine.players import Player, make_player
from hasamigo.game.clock import Clock
from hasamigo.game.controller import GameController
from hasamigo.game.result import GameResult, Termination, forfeit, timeout_win
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.jobs.games import game_result, game_row
from hasamigo.storage import Database
from hasamigo.tournament import BoardResult, Settings
from hasamigo.tournament.match import MatchGame, play_game
from hasamigo.tournament.programs import replay
from hasamigo.tournament.service import TournamentService
from hasamigo.web.views import result_view

SRC = Path(hasamigo.__file__).parent
#: a game of two random players that ends 32–32 (Black passes once, near the end)
DRAWN = ("c4e3f6c6d6b4b3g7f5g6b7a8g5d7f7e7c7a2c3g4e2c2h6c5h5c8d8e8g3g2h3f3h8e6a7g8f8a6h4"
         "h7f4d1h2d3b2b1f1d2e1f2b6g1b5a4a1h1c1a5a3passb8")
ANN, BOB = Participant("Ann"), Participant("Bob")
IDS = (f"one{n}" for n in itertools.count())


class Script(Player):
    """Plays the next move of ``moves`` (a list both sides share; a forced pass is the
    player's own)."""

    name = "script"

    def __init__(self, moves: list[Move]) -> None:
        super().__init__(seed=0)
        self.moves = moves

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        return self.moves.pop(0)


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def moves_of(transcript: str) -> list[Move]:
    text, out = transcript, []
    while text:
        size = 4 if text.startswith("pass") else 2
        out.append(Move.from_str(text[:size]))
        text = text[size:]
    return out


def controller(t: FakeTime | None = None, **options: object) -> GameController:
    setup = GameSetup((ANN, BOB), GameOptions(**{"casual": False, **options}),  # type: ignore[arg-type]
                      "black")
    return GameController.new(setup, rng=random.Random(1), time_source=t or FakeTime(),
                              game_id=next(IDS))


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TournamentService]:
    db = Database(f"sqlite:///{tmp_path / 'one.db'}")
    yield TournamentService.open(db)
    db.close()


def through_the_tournament(service: TournamentService, game: GameController) -> GameResult:
    """``game`` recorded as round 1 board 1 of a stored tournament (the draw gives Ann
    Black), read back from the database."""
    tid = service.create(f"One result {game.id}", Settings("swiss", rounds=1)).id
    service.register(tid, "Bob")
    service.register(tid, "Ann")
    service.pair_next_round(tid)
    service.record_game(tid, 1, 1, game)
    entered = service.tournament(tid).results[1, 1]
    assert entered.black == service.tournament(tid).find("Ann").number
    return entered.result


def through_the_journal(played: MatchGame) -> MatchGame:
    return game_result(json.loads(json.dumps(game_row(played))))


def test_a_draw_is_one_result_in_the_match_the_web_and_the_tournament(
        service: TournamentService) -> None:
    moves = [move for move in moves_of(DRAWN) if not move.is_pass]
    played = play_game(Script(moves), Script(moves))
    assert played.result == GameResult(32, 32, None) and played.a_points == 0.5
    assert through_the_journal(played) == played
    game = controller(clock_seconds=None)
    replay(game, played)  # the moves, as a tournament's programs' games are recorded
    assert game.result == played.result
    assert result_view(game.result).model_dump() == {
        "black": 32, "white": 32, "winner": None, "termination": "normal", "score": "32–32",
        "score_black": 32, "score_white": 32, "scoring": "jof-2014", "today": None,
        "by_draw_win": False, "rated": True}
    assert through_the_tournament(service, game) == played.result


def test_a_time_loss_is_one_result_in_the_match_the_web_and_the_tournament(
        service: TournamentService) -> None:
    now = [0.0]

    class Slow(Player):  # each move takes a second of the fake clock
        name = "slow"

        def _choose(self, board: Board, clock: Clock | None) -> Move:
            now[0] += 1.0
            return next(iter(board.legal_moves))

    played = play_game(Slow(), make_player("random", seed=3), clock=2.5,
                       time_source=lambda: now[0])
    assert played.time_loss is BLACK and played.result == timeout_win(WHITE)
    assert through_the_journal(played) == played

    t = FakeTime()
    game = controller(t, clock_seconds=60)
    for move in played.moves:
        game.play(game.board.turn, move)
    t.now += 61  # Black's flag falls; White claims and takes the 33–31 win
    game.claim(WHITE)
    game.choose_after_timeout("33-31")
    assert game.result == played.result
    assert game.result is not None and game.result.lost_on_time is BLACK
    view = result_view(game.result)
    assert (view.termination, view.winner, view.score) == ("timeout", "white", "31–33")
    assert through_the_tournament(service, game) == played.result


def test_a_forfeit_is_one_result_on_the_web_and_in_the_tournament(
        service: TournamentService) -> None:
    """A match has no forfeits (its programs are there); its journal keeps one whole."""
    t = FakeTime()
    game = controller(t, clock_seconds=600)
    game.declare_over_the_board(scheduled=t.now)
    game.absent(1)
    t.now += 300
    game.arrive(1)
    game.late_forfeit(1)  # Bob (White) chooses to lose: 64–0, not rated
    expected = forfeit(BLACK, rated=False)
    assert game.result == expected and result_view(expected).termination == "forfeit"
    assert through_the_tournament(service, game) == expected
    played = MatchGame(0, (), (), (), (), BLACK, expected)
    assert through_the_journal(played) == played and played.a_points == 1.0


def test_a_tournament_row_from_before_the_termination_column_still_loads(
        service: TournamentService) -> None:
    """Rows entered before revision 0008 have no termination: ``forfeit`` or a normal
    end, as they were read then (a 32–32 win is the draw-win holder's)."""
    tid = service.create("Old rows", Settings("swiss", rounds=1)).id
    for name in "AB":
        service.register(tid, name)
    service.pair_next_round(tid)
    service.enter_result(tid, 1, 1, black_discs=40, white_discs=24)
    with service.repo.db.engine.begin() as connection:
        connection.execute(sa.text("UPDATE tournament_results SET termination = NULL"))
    entered = service.tournament(tid).results[1, 1]
    assert entered.result == GameResult(40, 24, BLACK) and entered.points_of(entered.black) == 1
    old_audit = {"black": 2, "white": 1, "black_discs": 32, "white_discs": 32, "winner": 1,
                 "forfeit": False, "rated": True, "draw_win": 1, "game_id": None}
    read = BoardResult.from_json(old_audit)
    assert read.result == GameResult(32, 32, WHITE, by_draw_win=True) and read.winner == 1
    assert BoardResult.from_json(read.to_json()) == read
    forfeited = BoardResult.from_json({**old_audit, "black_discs": 0, "white_discs": 64,
                                       "forfeit": True, "rated": False, "draw_win": None})
    assert forfeited.result == forfeit(WHITE, rated=False)


def test_the_tournament_reads_winner_and_points_from_the_result() -> None:
    entered = BoardResult(7, 3, timeout_win(WHITE), game_id="g")
    assert (entered.winner, entered.entrant(BLACK), entered.colour_of(7)) == (3, 7, BLACK)
    assert (entered.points_of(3), entered.points_of(7), entered.discs_of(3)) == (1.0, 0.0, 33)
    assert entered.to_json()["termination"] == Termination.TIMEOUT.code == "timeout"


def _classes() -> Iterator[tuple[str, str]]:
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                yield path.relative_to(SRC).as_posix(), node.name


def test_no_second_class_is_a_games_result() -> None:
    """``GameResult`` lives in ``game/result.py`` alone; no ``Result``/``MatchResult``/
    ``GameOutcome`` beside it (``board.Outcome`` is the board's own count, see its
    docstring), and one function makes the web's view of it."""
    names = {"GameResult", "Result", "MatchResult", "GameOutcome", "Outcome"}
    found = sorted((path, name) for path, name in _classes() if name in names)
    assert found == [("board.py", "Outcome"), ("game/result.py", "GameResult")]
    made = [(path.relative_to(SRC).as_posix(), line)
            for path in sorted(SRC.rglob("*.py"))
            for line in path.read_text(encoding="utf-8").splitlines()
            if re.search(r"(?<!class )\bResultView\(", line)]
    assert [path for path, _ in made] == ["web/views.py"]
