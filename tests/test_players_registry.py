"""The player registry and the simple, engine and weakest players: legal, reproducible,
never mutating the board."""

from __future__ import annotations

import random

import pytest

from hasamigo import PASS, Board
from hasamigo.engine import MAX_LEVEL
from hasamigo.engine.players import (
    FORCED,
    KNOWN_SPECS,
    EnginePlayer,
    make_player,
    program_of,
    spec_threads,
)
from hasamigo.engine.players.naturalness import move_scores
from hasamigo.errors import InvalidOptionError
from hasamigo.tournament.match import play_game

SPECS = ["random", "greedy", "victory", "amusement", "entertainer", "engine:1", "engine:3",
         "weakest"]


@pytest.mark.parametrize("spec", SPECS)
def test_every_player_plays_legal_games_without_mutating(spec: str) -> None:
    player = make_player(spec, seed=1)
    other = make_player("random", seed=2)
    board = Board()
    while not board.is_game_over():
        mover = player if board.ply % 2 == 0 or board.must_pass() else other
        before = (board.key(), board.ply)
        move = mover.choose(board)
        assert (board.key(), board.ply) == before
        assert board.is_legal(move)
        board.push(move)


def test_forced_pass() -> None:
    board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- O")
    assert board.must_pass()
    for spec in SPECS:
        player = make_player(spec)
        assert player.choose(board) == PASS and player.last_kind == FORCED


@pytest.mark.parametrize("spec", ["random", "greedy", "victory", "entertainer"])
def test_same_seed_same_game(spec: str) -> None:
    games = [play_game(make_player(spec, seed=5), make_player("random", seed=6)).moves
             for _ in range(2)]
    assert games[0] == games[1]


def test_registry_names_and_errors() -> None:
    assert make_player("engine:top").name == f"engine:{MAX_LEVEL}"
    assert make_player(" Victory ").name == "victory"
    for bad in ["engine:x", "minimax", "engine", "amusement:late"]:
        with pytest.raises(InvalidOptionError, match=r"known: random|engine:N"):
            make_player(bad)
    # what is wrong is named, and where: the level after ':', an empty spec, a name
    for bad, said in [("", "empty"), ("engine:0", "level after ':' is a whole number from 1"),
                      (f"engine:{MAX_LEVEL + 1}", f"not '{MAX_LEVEL + 1}'"),
                      ("victory:3", "no level"), ("engine:5:swing", "the level comes last"),
                      ("vic tory", "program's name"), ("amusement:", "option's name"),
                      ("gtp: ", "needs a command after 'gtp:'")]:
        with pytest.raises(InvalidOptionError, match=said):
            make_player(bad)
    assert "weakest" in KNOWN_SPECS


def test_a_level_on_threads_is_named_with_them_and_searches_on_them() -> None:
    player = make_player("Engine:2@2", seed=1)
    assert isinstance(player, EnginePlayer)
    assert (player.name, player.level, player.engine.threads) == ("engine:2@2", 2, 2)
    top = make_player("engine:top@3")
    assert isinstance(top, EnginePlayer)
    assert (top.name, top.engine.threads) == (f"engine:{MAX_LEVEL}@3", 3)
    one = make_player("engine:2@1")  # one thread: the plain level's name
    assert isinstance(one, EnginePlayer) and one.name == "engine:2" and one.engine.threads == 1
    board = Board()
    for _ in range(4):  # the two-thread root search plays legal moves
        move = player.choose(board)
        assert board.is_legal(move)
        board.push(move)


def test_threads_in_a_spec_are_read_and_checked() -> None:
    assert [spec_threads(s) for s in ("engine:6", "engine:6@2", "engine:top@64", "victory",
                                      "nboard:ssh me@host edax")] == [1, 2, 64, 1, 1]
    assert program_of("engine:6@2") == program_of("engine:6") == program_of(" engine:6 @ 2 ")
    assert make_player(" engine:2 @ 2 ").name == "engine:2@2"
    for bad, said in (("engine:5@0", "from 1"), ("engine:5@65", "from 1 to 64"),
                      ("engine:5@x", "from 1"), ("engine:5@", "from 1"),
                      ("engine:top@-1", "from 1"), ("engine:top@999", "from 1 to 64")):
        assert program_of(bad) is None
        with pytest.raises(ValueError) as caught:
            make_player(bad)
        message = str(caught.value).replace("\n", " ")  # the spec, what it should be
        assert repr(bad) in message and f"after '@' {'run' if '64' in said else 'are'}" \
            in message and said in message, message
    with pytest.raises(ValueError, match="only the engine's levels take threads"):
        make_player("victory@2")
    with pytest.raises(ValueError, match="known: random"):
        make_player("nobody@2")
    assert any("engine:N@T" in known for known in KNOWN_SPECS)


def test_greedy_flips_most() -> None:
    rng = random.Random(3)
    player = make_player("greedy", seed=0)
    for _ in range(20):
        board = Board()
        for _ in range(rng.randrange(30)):
            board.push(rng.choice(list(board.legal_moves)))
        if not board.legal_moves_mask():
            continue
        move = player.choose(board)
        most = max(board.flips(m).bit_count() for m in board.legal_moves)
        assert board.flips(move).bit_count() == most


def test_weakest_picks_the_worst_scored_move() -> None:
    rng = random.Random(8)
    player = make_player("weakest", seed=0)
    for _ in range(5):
        board = Board()
        for _ in range(rng.randrange(10, 40)):
            board.push(rng.choice(list(board.legal_moves)))
        if not board.legal_moves_mask():
            continue
        move = player.choose(board)
        scores = move_scores(board)
        assert scores[move] == min(scores.values())


def test_weakest_loses_to_random() -> None:
    lost = 0
    for seed in range(4):
        result = play_game(make_player("weakest", seed=seed), make_player("random", seed=seed))
        lost += result.result.winner is not None and result.result.winner.name == "WHITE"
    assert lost >= 3


def test_engine_level_beats_random() -> None:
    result = play_game(make_player("engine:4", seed=0), make_player("random", seed=0))
    assert result.result.winner is not None and result.result.winner.name == "BLACK"
