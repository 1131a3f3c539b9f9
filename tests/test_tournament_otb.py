"""A board's result taken from a game recorded over the board (issue 14 plugging into the
tournament): the game's clock, result card, forfeit or both-flags-down outcome becomes the
board's result, linked to the stored game, and a game that is not that board's is refused
saying why."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import BLACK, WHITE
from hasamigo.cli import app
from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage import Database, GameRepository
from hasamigo.tournament import PairingKind, Settings, TournamentError
from hasamigo.tournament.export import game_records
from hasamigo.tournament.service import TournamentNotFound, TournamentService


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def service(db_url: str) -> Iterator[TournamentService]:
    db = Database(db_url)
    yield TournamentService.open(db)
    db.close()


def swiss(service: TournamentService, names: tuple[str, ...] = ("Ann", "Ben", "Cho", "Dai")
          ) -> tuple[str, list[tuple[int, str, str]]]:
    """A Swiss tournament with round 1 paired; its boards as (board, black, white)."""
    info = service.create("Club night", Settings("swiss", rounds=3, seed=2))
    for name in names:
        service.register(info.id, name)
    service.pair_next_round(info.id)
    t = service.tournament(info.id)
    boards = [(p.board, t.name(p.a), t.name(p.b)) for p in t.pairings[1]
              if p.kind is PairingKind.GAME]
    return info.id, boards


def otb_game(black: str, white: str, t: FakeTime, *, colour: str = "black",
             draws: bool = True, game_id: str | None = None) -> GameController:
    setup = GameSetup((Participant(black), Participant(white)),
                      GameOptions(casual=False, clock_seconds=600.0, draws_allowed=draws),
                      colour)  # type: ignore[arg-type]
    game = GameController.new(setup, time_source=t, rng=random.Random(5),
                              game_id=game_id or f"{black}-{white}")
    game.declare_over_the_board()
    return game


def store(service: TournamentService, game: GameController) -> str:
    GameRepository(service.repo.db).create(game, public=False)
    return game.id


def test_a_recorded_card_becomes_the_boards_result_linked_to_the_game(
        service: TournamentService) -> None:
    tid, boards = swiss(service)
    board, black, white = boards[0]
    t = FakeTime()
    game = otb_game(black, white, t)
    game.press(WHITE)
    t.now += 300
    game.hand_in_card(35, 30)  # 65 discs: read to the winner's disadvantage (rule 18)
    view = service.link_game(tid, 1, board, store(service, game), who="arbiter")
    assert (view.black, view.white, view.black_discs, view.white_discs, view.winner,
            view.game_id, view.rated) == (black, white, 34, 30, black, game.id, True)
    entry = service.audit(tid)[-1]
    assert entry.who == "arbiter" and entry.after is not None
    assert entry.after["game_id"] == game.id
    # the recorded game stays private: exported by the director, not to the public
    assert [r.event for r in game_records(service, tid)] == [
        f"Club night, round 1 board {board} (swiss)"]
    assert game_records(service, tid, public_only=True) == []


def test_a_time_out_and_a_late_forfeit_and_both_flags_down(service: TournamentService
                                                           ) -> None:
    tid, boards = swiss(service, ("Ann", "Ben", "Cho", "Dai", "Eri", "Fuu"))
    (b1, k1, w1), (b2, k2, w2), (b3, k3, w3) = boards
    t = FakeTime()
    timeout = otb_game(k1, w1, t)
    timeout.press(WHITE)
    t.now += 601  # Black's flag falls, White claims and takes 33-31
    timeout.claim(WHITE)
    timeout.choose_after_timeout("33-31")
    view = service.link_game(tid, 1, b1, store(service, timeout))
    assert (view.black_discs, view.white_discs, view.winner) == (31, 33, w1)

    late = otb_game(k2, w2, t, game_id="late-game")
    late.absent(1, since=t.now - 60)
    late.late_forfeit(1)
    view = service.link_game(tid, 1, b2, store(service, late))
    assert (view.kind, view.winner, view.rated) == ("forfeit", k2, False)

    both = otb_game(k3, w3, t, game_id="both-flags")
    both.press(WHITE)
    t.now += 601  # Black's flag
    both.press(BLACK)
    t.now += 601  # and White's: the claim finds both down (rule 16)
    both.claim(WHITE)
    view = service.link_game(tid, 1, b3, store(service, both))
    assert (view.black_discs, view.white_discs, view.winner, view.rated) == \
        (32, 32, None, False)


def test_a_game_that_is_not_the_boards_is_refused_saying_why(service: TournamentService
                                                             ) -> None:
    tid, boards = swiss(service)
    (board, black, white), (_, other_black, _) = boards
    t = FakeTime()
    wrong_players = otb_game(black, other_black, t, game_id="wrong-players")
    wrong_players.hand_in_card(40, 24)
    with pytest.raises(TournamentError, match=f"is {black} v {other_black}; round 1 "
                                              f"board {board} is {black} v {white}"):
        service.link_game(tid, 1, board, store(service, wrong_players))
    swapped = otb_game(white, black, t, game_id="swapped")
    swapped.hand_in_card(40, 24)
    with pytest.raises(TournamentError, match=f"{black} plays Black, but game swapped "
                                              f"has {white} as Black"):
        service.link_game(tid, 1, board, store(service, swapped))
    unfinished = otb_game(black, white, t, game_id="unfinished")
    with pytest.raises(TournamentError, match="game unfinished is not finished"):
        service.link_game(tid, 1, board, store(service, unfinished))
    with pytest.raises(TournamentNotFound, match="no stored game 'nope'"):
        service.link_game(tid, 1, board, "nope")
    assert service.round(tid, 1).games[0].finished is False  # nothing was entered


def test_a_knockout_game_decided_by_fuse_ishi_and_the_draw_win_right(
        service: TournamentService) -> None:
    info = service.create("Cup", Settings("knockout", seed=1))
    for name in ("Ann", "Ben"):
        service.register(info.id, name)
    service.pair_next_round(info.id)
    t = service.tournament(info.id)
    p = t.pairings[1][0]
    a, b = t.name(p.a), t.name(p.b)
    clock = FakeTime()
    # over the board the fuse-ishi gave the second entrant Black; the game ends 32-32
    game = otb_game(a, b, clock, colour="fuse-ishi", draws=False, game_id="final")
    while (pending := game.state.pending_colour_step()) is not None:
        step, participant = pending
        value = {"call": "black", "right": "colour",
                 "colour": "white" if participant == 0 else "black"}[step]
        game.colour_step(participant, step, value)
    assert game.seat(BLACK).name == b
    game.hand_in_card(32, 32)
    holder = game.draw_win
    assert holder is not None
    view = service.link_game(info.id, 1, p.board, store(service, game))
    assert (view.black, view.white) == (b, a)
    assert view.winner == view.draw_win == game.seat(holder).name


def test_the_command_line_takes_a_result_from_a_game(db_url: str) -> None:
    db = Database(db_url)
    service = TournamentService.open(db)
    tid, boards = swiss(service)
    board, black, white = boards[0]
    game = otb_game(black, white, FakeTime(), game_id="cli-game")
    game.hand_in_card(20, 44)
    store(service, game)
    db.close()
    runner = CliRunner()
    refused = runner.invoke(app, ["tournament", "result", tid, str(board), "20", "44",
                                  "--game", "cli-game", "--db", db_url])
    assert refused.exit_code != 0 and "--game takes the whole result" in refused.output
    done = runner.invoke(app, ["tournament", "result", tid, str(board), "--game",
                               "cli-game", "--db", db_url, "--json"])
    assert done.exit_code == 0, done.output
    assert '"game_id": "cli-game"' in done.output and '"winner": "' + white in done.output
