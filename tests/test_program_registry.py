"""The programs are registered once (:data:`hasamigo.engine.players.PROGRAMS`): every one
constructs and has both languages' names, and the terminal and the web app name and
offer the same programs from it."""

from __future__ import annotations

import pytest

from hasamigo import Board
from hasamigo.cli import play as cli_play
from hasamigo.engine import MAX_LEVEL
from hasamigo.engine.perfect import PerfectPlayer
from hasamigo.engine.players import (
    KNOWN_SPECS,
    PROGRAMS,
    EnginePlayer,
    Player,
    Program,
    make_player,
    program_kernels,
    program_of,
)
from hasamigo.web.services import players as web_players


def _specs(program: Program) -> list[str]:
    return [f"{program.spec}:1", f"{program.spec}:top"] if program.levels else [program.spec]


@pytest.mark.parametrize("program", list(PROGRAMS.values()), ids=list(PROGRAMS))
def test_every_registered_program_constructs_with_both_names(program: Program) -> None:
    assert program.en and program.ja and program.en != program.ja
    assert not program.en.isascii() or program.en[0].isupper()
    assert not program.ja.isascii()  # a Japanese name, not the English one again
    for spec in _specs(program):
        player = make_player(spec, seed=3)
        assert isinstance(player, Player) and isinstance(player, program.player)
        assert program_of(spec) is not None and program_of(spec)[0] is program  # type: ignore[index]
        needed, _better = program_kernels(spec, Board)
        assert "rules" in needed and program.player.kernels.needs <= needed
        player.close()


def test_the_engine_levels_come_from_the_registry() -> None:
    assert program_of("engine:top") == (PROGRAMS["engine"], MAX_LEVEL)
    assert program_of("engine:0") is None and program_of(f"engine:{MAX_LEVEL + 1}") is None
    player = make_player("engine:3")
    assert isinstance(player, EnginePlayer) and player.level == 3


def test_the_known_specs_are_the_registry() -> None:
    for program in PROGRAMS.values():
        assert any(k.startswith(program.spec) for k in KNOWN_SPECS)


@pytest.mark.parametrize("program", list(PROGRAMS.values()), ids=list(PROGRAMS))
def test_the_terminal_and_the_web_name_each_program_from_the_registry(program: Program
                                                                       ) -> None:
    spec = _specs(program)[0]
    assert cli_play.program_name(spec).startswith(program.en)
    web = web_players.program_name(spec)
    assert web.startswith(program.en) and web.endswith(program.ja)


def test_the_terminal_and_the_web_know_the_same_programs() -> None:
    offered = [p.spec for p in PROGRAMS.values() if p.offered]
    assert list(web_players.PROGRAMS) == offered
    assert all(web_players.PROGRAMS[s] == (PROGRAMS[s].en, PROGRAMS[s].ja) for s in offered)
    # neither front end keeps a list of its own
    assert not hasattr(cli_play, "_PROGRAM_NAMES")
    for spec in PROGRAMS:
        assert cli_play.program_name(spec) != spec


def test_names_that_games_store_are_unchanged() -> None:
    assert web_players.program_name("victory") == "Victory 勝利指向"
    assert web_players.program_name("engine:5") == "Engine Lv5 エンジン"
    assert web_players.program_name("engine:top") == "Engine Lvtop エンジン"
    assert cli_play.program_name("engine:top") == "Engine (top level)"
    assert cli_play.program_name("engine:7") == "Engine level 7"
    assert cli_play.program_name("gtp:edax") == "gtp:edax"


def test_the_perfect_player_is_a_player() -> None:
    from hasamigo.variants import MiniBoard

    perfect = PerfectPlayer(MiniBoard, None, threads=1, seed=1)
    assert isinstance(perfect, Player)
    board = MiniBoard()
    move = perfect.choose(board)  # 32 empties and no table: beyond it, a random legal move
    assert board.is_legal(move) and perfect.last_reason
    with pytest.raises(ValueError, match="plays"):
        perfect.choose(Board())
    perfect.close()
