"""挟み碁's capture (``+capture``): 「相手の石を挟んだら取れる」 — the bracketed stones are
removed — with our reading of the rest (:mod:`hasamigo.rules`): a stone goes on any empty
square, half the board's squares a side, the stones on the board decide. Hand-made
positions, perft against the reference of ``tests/naive_fairy.py``, whole games by the
players and the engine, the game controller, the terminal and the web app."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from naive_fairy import State, named, perft
from test_web_api import create, make_client
from typer.testing import CliRunner

from hasamigo import BLACK, WHITE, Board, InvalidOptionError, Move, Outcome, find_variant
from hasamigo.cli import app
from hasamigo.engine.players import make_player
from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase

#: 2024 ja.wikipedia "オセロ (ボードゲーム)", 挟み碁 (the seed, line ~430)
SEED = "長谷川の発案により、相手の石を挟んだら取れるという簡易ルールで遊んでいた"
CAPTURE = "standard+capture"


def position(*rows: str, turn: str = "X") -> str:
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    return "".join(rows) + " " + turn


def cells(board: Board) -> str:
    return board.to_string().split()[0]


def test_a_bracketed_stone_is_taken_and_its_square_empty_again() -> None:
    """「相手の石を挟んだら取れる」: c4 brackets d4 and e4 against f4; both are taken, and
    Othello would have turned them."""
    assert "挟んだら取れる" in SEED
    text = position("--------", "--------", "--------", "--OOX---",
                    "--------", "--------", "--------", "--------")
    board = find_variant(CAPTURE)(text, hands=(30, 30))
    board.play("b4")
    assert cells(board)[24:32] == "-X--X---"
    assert board.counts() == (2, 0) and board.in_hand(BLACK) == 29
    othello = Board(text)
    othello.play("b4")
    assert cells(othello)[24:32] == "-XXXX---"


def test_a_stone_goes_anywhere_and_is_not_taken_between_enemy_stones() -> None:
    text = position("--------", "--------", "--------", "---O-O--",
                    "--------", "--------", "--------", "--------")
    board = find_variant(CAPTURE)(text, hands=(30, 30))
    assert board.legal_moves_mask() == board.empties  # any empty square, as in Go
    board.play("e4")  # between two white stones: it stays and takes nothing
    assert cells(board)[24:32] == "---OXO--" and board.turn is WHITE
    board.play("h8")  # a move that brackets nothing is a move
    assert board.counts() == (1, 3)


def test_one_move_takes_along_every_line() -> None:
    """d4 brackets one white stone on each of its eight lines, each against a black one:
    all eight are taken."""
    text = position("--------", "-X-X-X--", "--OOO---", "-XO-OX--",
                    "--OOO---", "-X-X-X--", "--------", "--------")
    board = find_variant(CAPTURE)(text, hands=(10, 10))
    assert board.flips(Move.from_str("d4")).bit_count() == 8
    board.play("d4")
    assert board.counts() == (9, 0)
    assert cells(board)[16:40] == "--------" + "-X-X-X--" + "--------"  # rows 3 to 5


def test_stones_in_hand_end_the_game_and_the_stones_on_the_board_decide() -> None:
    variant = find_variant(CAPTURE)
    assert variant.default_disc_limit == 32 and variant().in_hand(BLACK) == 30
    rng = random.Random(3)
    board = variant()
    taken = {BLACK: 0, WHITE: 0}
    while not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        assert move.square is not None  # both sides always have a stone and a square
        taken[board.turn] += board.flips(move).bit_count()
        board.push(move)
    assert board.ply == 60 and board.in_hand(BLACK) == board.in_hand(WHITE) == 0
    black, white = board.counts()
    assert (black, white) == (32 - taken[WHITE], 32 - taken[BLACK])  # stones = captures
    outcome = board.outcome()
    assert outcome == Outcome.official(black, white, squares=64)
    assert (outcome.winner is BLACK) == (black > white)


def test_a_side_without_stones_passes() -> None:
    board = find_variant(CAPTURE)(position(
        "--------", "--------", "--------", "---OX---",
        "---XO---", "--------", "--------", "--------"), hands=(0, 2))
    assert board.must_pass() and list(board.legal_moves) == [Move(None)]
    board.play("pass")
    board.play("a1")
    board.play("pass")
    board.play("h8")
    assert board.is_game_over()


@pytest.mark.parametrize(("name", "depth"), [("4x4+capture", 3), (CAPTURE, 2)])
def test_perft_is_the_references(name: str, depth: int) -> None:
    board = find_variant(name)()
    assert [board.perft(d) for d in range(1, depth + 1)] == [
        perft(State.of(board, capture=True), d) for d in range(1, depth + 1)]


def test_the_moves_are_the_references_along_random_games() -> None:
    for name, seed in (("6x6+capture", 1), ("hasegawa-8x9+capture", 2), ("octagon+capture", 3)):
        board = find_variant(name)()
        rng = random.Random(seed)
        while not board.is_game_over():
            state = State.of(board, capture=True)
            offered = {board.square_name(m.square): {
                board.square_name(sq) for sq in range(100) if board.flips(m) >> sq & 1}
                for m in board.legal_moves if m.square is not None}
            assert offered == named(state.moves(state.turn)), board.to_string()
            board.push(rng.choice(list(board.legal_moves)))
        assert State.of(board, capture=True).over()


def test_capture_goes_with_no_other_bracket_rule() -> None:
    for name in ("standard+capture+one", "standard+capture+nip", "nip-circle+capture",
                 "standard+osere+capture", "standard+capture+capture"):
        with pytest.raises(InvalidOptionError):
            find_variant(name)
    with pytest.raises(InvalidOptionError, match="stones in hand"):
        find_variant(CAPTURE)(disc_limit=None)
    assert find_variant("original+capture")().in_hand(BLACK) == 32  # the empty centre


def test_random_greedy_and_the_engine_play_to_the_end() -> None:
    variant = find_variant(CAPTURE)
    for first, second in (("random", "greedy"), ("greedy", "engine:1"),
                          ("engine:2", "random")):
        players = {BLACK: make_player(first, seed=5), WHITE: make_player(second, seed=6)}
        for player in players.values():
            player.check_board(variant)
        board = variant()
        while not board.is_game_over():
            move = players[board.turn].choose(board)
            assert board.is_legal(move)
            board.push(move)
        assert board.ply == 60 and board.outcome() is not None


def test_greedy_takes_the_most() -> None:
    board = find_variant(CAPTURE)()
    board.play("f5")
    move = make_player("greedy", seed=0).choose(board)
    assert board.flips(move).bit_count() == max(
        board.flips(m).bit_count() for m in board.legal_moves) == 1


def test_a_game_of_two_people_is_kept_with_its_stones(tmp_path: Path) -> None:
    setup = GameSetup((Participant("Ann"), Participant("Ben")),
                      GameOptions(variant=CAPTURE))
    game = GameController.new(setup, game_id="capture-1")
    rng = random.Random(9)
    while game.phase is Phase.PLAYING:
        game.play(None, rng.choice(list(game.board.legal_moves)))
    assert game.board.ply == 60 and game.board.in_hand(WHITE) == 0
    assert game.result is not None


def test_play_capture_in_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HASAMIGO_DB", f"sqlite:///{tmp_path / 'games.db'}")
    board = find_variant(CAPTURE)()
    rng = random.Random(11)
    typed = []
    while not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        typed.append(board.move_name(move))
        board.push(move)
    result = CliRunner().invoke(app, ["play", "--variant", CAPTURE],
                                input="\n".join(typed) + "\n")
    out = result.stdout + result.stderr
    assert result.exit_code == 0, out
    assert "Game over" in out and str(board.outcome()) in out


def test_the_web_app_plays_capture(tmp_path: Path) -> None:
    with make_client(tmp_path / "capture.db") as client:
        assert 'value="capture"' in client.get("/").text
        game, me = create(client, opponent="person", flip_rule="capture", clock_minutes=None)
        assert game["variant"] == CAPTURE and "capture" in game["title"]
        assert len(game["legal"]) == 60
        for move in ("f5", "d6"):
            response = me.post("/moves", {"move": move})
            assert response.status_code == 200, response.text
        after = response.json()
        board = find_variant(CAPTURE)()
        board.play("f5")
        board.play("d6")  # d6 brackets d5 against d4: taken
        assert after["flipped"] == ["d5"] and after["cells"] == cells(board)
