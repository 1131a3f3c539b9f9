"""Fairy Othello's words (``+osere`` and the others, :data:`hasamigo.rules.WORDS`): オセレ's
flips on hand-made positions as the seed's sentence gives them, every word's moves and
perft against the reference of ``tests/naive_fairy.py``, the names, the players, the
engine through the rules search, the terminal and the web app."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from naive_fairy import State, named, perft
from test_web_api import create, make_client
from typer.testing import CliRunner

from hasamigo import BLACK, WHITE, Board, IllegalMoveError, IllegalReason, Move, find_variant
from hasamigo.cli import app
from hasamigo.engine.players import EnginePlayer, make_player, plays_every_rule
from hasamigo.errors import InvalidOptionError
from hasamigo.notation.ggf import format_ggf
from hasamigo.notation.record import GameRecord
from hasamigo.rules import OTHELLO_WORD, WORDS
from hasamigo.variants import WORD_TITLES, with_options

#: every word the project offers (Othello's own is the normal rule)
OFFERED = sorted(WORD_TITLES)
#: 2024 ja.wikipedia "オセロ (ボードゲーム)", その他の派生ゲーム (the seed, line ~1281)
SEED_OSERE = ("オセレ「-Own(自分の石を打つ) Set-Enemy(相手の石を裏返す) Reset-Enemy(相手の石は"
              "そのまま)」であれば、自分の石 (Own) と相手の石 (Reset-Enemy) に挟まれた相手の石 "
              "(Set-Enemy) を裏返すというルールになる。")


def position(*rows: str, turn: str = "X") -> str:
    """An 8×8 board string from its rows (``-`` empty), the side to move last."""
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    return "".join(rows) + " " + turn


def cell_of(board: Board, sq: int) -> tuple[int, int]:
    """The reference's (row, column) of a square."""
    name = board.square_name(sq)
    return int(name[1:]) - 1, "abcdefghij".index(name[0])


def squares(board: Board, mask: int) -> set[str]:
    return {board.square_name(sq) for sq in range(100) if mask >> sq & 1}


# ---- the words -------------------------------------------------------------------------
def test_the_eight_words_are_the_seeds_parts() -> None:
    assert len(WORDS) == 8 and OTHELLO_WORD == "osero"
    assert WORDS["osero"].reading == "-Own Set-Enemy Reset-Own"  # オセロ itself
    assert WORDS["osere"].reading == "-Own Set-Enemy Reset-Enemy"  # the seed's オセレ
    assert "Reset-Enemy" in SEED_OSERE and WORDS["osere"].kana in SEED_OSERE
    assert [w for w in WORDS if WORDS[w].from_seed] == ["osero", "osere"]
    assert "as the seed gives it" in WORD_TITLES["osere"]
    assert all("our reading" in WORD_TITLES[w] for w in OFFERED if w != "osere")


def test_names_in_romaji_and_kana_give_one_variant() -> None:
    variant = find_variant("standard+osere")
    assert variant is find_variant("standard+オセレ") is find_variant("8x8+OSERE")
    assert variant is with_options(Board, word="osere")
    assert variant.name == "standard+osere" and "オセレ" in variant.title
    assert find_variant("6x6+nip+esore").name == "6x6+nip+esore"
    assert with_options(Board, word="osero") is Board
    for bad in ("standard+osere+esore", "standard+osero", "standard+otello",
                "standard+osere+osere"):
        with pytest.raises(InvalidOptionError):
            find_variant(bad)
    with pytest.raises(InvalidOptionError, match="ring"):
        find_variant("nip-circle+osere")


# ---- オセレ on hand-made positions, as the seed's sentence says ------------------------------
def test_osere_turns_the_enemy_discs_between_own_and_an_enemy_disc() -> None:
    """「自分の石 (Own) と相手の石 (Reset-Enemy) に挟まれた相手の石 (Set-Enemy) を裏返す」:
    c4 (own) and f4 (an enemy disc, which stays) bracket d4 and e4 (enemy: turned); e4
    (enemy) closes for d4 too. Othello would turn f4 as well, closed by g4."""
    text = position("--------", "--------", "--------", "---OOOX-",
                    "--------", "--------", "--------", "--------")
    osere = find_variant("standard+osere")(text)
    assert squares(osere, osere.flips(Move.from_str("c4"))) == {"d4", "e4"}
    assert squares(Board(text), Board(text).flips(Move.from_str("c4"))) == {"d4", "e4", "f4"}
    osere.play("c4")
    assert osere.to_string().split()[0][24:32] == "--XXXOX-" and osere.turn is WHITE


def test_osere_needs_an_enemy_disc_to_close_the_bracket() -> None:
    """A single enemy disc next to the placed one, closed by an own disc, is Othello's
    bracket, not オセレ's: the move turns nothing and is refused; two enemy discs in a row
    on a diagonal bracket the nearer."""
    text = position("--------", "--------", "--------", "--------",
                    "--OX----", "--------", "-O------", "O-------", turn="X")
    osere = find_variant("standard+osere")(text)
    with pytest.raises(IllegalMoveError) as refused:
        osere.play("b5")
    assert refused.value.reason is IllegalReason.NO_FLIPS
    assert Board(text).is_legal(Move.from_str("b5"))  # Othello's bracket
    assert squares(osere, osere.flips(Move.from_str("c6"))) == {"b7"}  # c6 b7 (a8 closes)
    assert squares(osere, osere.legal_moves_mask()) == {"c6"}


def test_osere_brackets_along_several_lines_at_once() -> None:
    text = position("-OOOX---", "OO------", "O-O-----", "---O----",
                    "--------", "--------", "--------", "--------")
    osere = find_variant("standard+osere")(text)
    # a1: row (b1 c1, d1 closes), column (a2, a3 closes), diagonal (b2 c3, d4 closes)
    assert squares(osere, osere.flips(Move.from_str("a1"))) == {"b1", "c1", "a2", "b2", "c3"}
    assert named(State.of(osere, "osere").moves("X"))["a1"] == {"b1", "c1", "a2", "b2", "c3"}


# ---- every word against the reference ----------------------------------------------------
@pytest.mark.parametrize("word", OFFERED)
@pytest.mark.parametrize("base", ["standard", "octagon", "hasegawa-8x9", "4x4"])
def test_the_moves_are_the_references_along_random_games(word: str, base: str) -> None:
    board = find_variant(f"{base}+{word}")()
    rng = random.Random(f"{base}+{word}")  # a str seed: the same games every run
    while True:
        state = State.of(board, word)
        reference = named(state.moves(state.turn))
        offered = {board.square_name(m.square): squares(board, board.flips(m))
                   for m in board.legal_moves if m.square is not None}
        assert offered == reference, board.to_string()
        if board.is_game_over():
            assert state.over()
            break
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        at = None if move.square is None else cell_of(board, move.square)
        expected = state.play(at, set() if at is None else state.moves(state.turn)[at])
        after = State.of(board, word)
        assert after.cells == expected.cells and after.turn == expected.turn


@pytest.mark.parametrize("word", OFFERED)
def test_perft_of_every_word_is_the_references(word: str) -> None:
    for base, depth in (("standard", 3), ("6x6", 4)):
        board = find_variant(f"{base}+{word}")()
        assert [board.perft(d) for d in range(1, depth + 1)] == [
            perft(State.of(board, word), d) for d in range(1, depth + 1)], (base, word)


def test_the_reference_is_othello_for_othellos_word() -> None:
    """The reference, read by the word オセロ, counts what the kernels count."""
    assert [perft(State.of(Board()), d) for d in range(1, 5)] == [
        Board().perft(d) for d in range(1, 5)] == [4, 12, 56, 244]


@pytest.mark.parametrize("spec", ["standard+one+osere", "6x6+choose+esero"])
def test_a_flip_rule_chooses_among_a_words_discs(spec: str) -> None:
    board = find_variant(spec)()
    rule, word = spec.split("+")[1:]
    assert [board.perft(d) for d in (1, 2, 3)] == [
        perft(State.of(board, word), d, rule) for d in (1, 2, 3)]


def test_the_swapped_words_mirror_each_other() -> None:
    """An エ word is the オ word with own and enemy swapped in every part: its games
    count the same (エソレ is Othello played by making the other side's move)."""
    for a, b in (("osero", "esore"), ("osere", "esoro"), ("osoro", "esere"),
                 ("osore", "esero")):
        va = Board if a == OTHELLO_WORD else find_variant(f"standard+{a}")
        assert va().perft(4) == find_variant(f"standard+{b}")().perft(4)


# ---- players, the engine, the terminal, the web --------------------------------------------
@pytest.mark.parametrize("word", OFFERED)
def test_random_greedy_and_the_engine_play_every_word_to_the_end(word: str) -> None:
    """Random against greedy, greedy against engine:1, engine:2 against random: every move
    legal, every game to its end (the engine through the rules search)."""
    assert all(plays_every_rule(s) for s in ("random", "greedy", "engine:1"))
    variant = find_variant(f"standard+{word}")
    for first, second in (("random", "greedy"), ("greedy", "engine:1"),
                          ("engine:2", "random")):
        players = {BLACK: make_player(first, seed=3), WHITE: make_player(second, seed=4)}
        for player in players.values():
            player.check_board(variant)
        board = variant()
        while not board.is_game_over():
            move = players[board.turn].choose(board)
            assert board.is_legal(move)
            board.push(move)
        assert board.outcome() is not None and board.ply >= 20
    engine = EnginePlayer(1, seed=0)
    board = variant()
    engine.choose(board)
    assert "by the rules of" in (engine.last_reason or "")


@pytest.mark.parametrize("word", ["osore", "esero"])
def test_greedy_plays_for_the_largest_lead_the_word_allows(word: str) -> None:
    """Under オソレ a move turns the mover's own discs: greedy turns the fewest; under エセロ
    the other side's disc is placed and its discs turned: greedy turns the most."""
    board = find_variant(f"standard+{word}")()
    board.play("e3" if word == "osore" else "d3")
    rng = random.Random(1)
    for _ in range(6):
        board.push(rng.choice(list(board.legal_moves)))
    move = make_player("greedy", seed=0).choose(board)
    turned = {m: board.flips(m).bit_count() for m in board.legal_moves}
    assert len(set(turned.values())) > 1, board.to_string()  # a real choice
    assert turned[move] == (min if word == "osore" else max)(turned.values())


def test_records_of_othellos_flips_refuse_a_word() -> None:
    board = find_variant("standard+osere")()
    board.play("c3")
    assert not type(board).rules.supports("square_notation")
    with pytest.raises(ValueError, match="GGF cannot hold"):
        format_ggf(GameRecord(variant=type(board), moves=list(board.move_stack)))


def test_play_osere_in_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HASAMIGO_DB", f"sqlite:///{tmp_path / 'games.db'}")
    board = find_variant("standard+osere")()
    rng = random.Random(7)
    typed = []
    while not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        typed.append(board.move_name(move))
        board.push(move)
    result = CliRunner().invoke(app, ["play", "--variant", "standard+オセレ"],
                                input="c4\n" + "\n".join(typed) + "\n")
    out = result.stdout + result.stderr
    assert result.exit_code == 0, out
    assert "flips nothing" in out  # c4 is Othello's move, not オセレ's
    assert "Game over" in out and str(board.outcome()) in out


def test_the_web_app_offers_the_words_and_plays_them(tmp_path: Path) -> None:
    with make_client(tmp_path / "fairy.db") as client:
        page = client.get("/").text
        assert all(f'value="{word}"' in page for word in OFFERED)
        assert "オセレ" in page and "our reading" in page
        game, me = create(client, opponent="person", flip_rule="osere", clock_minutes=None)
        assert game["variant"] == "standard+osere" and "オセレ" in game["title"]
        assert sorted(game["legal"]) == ["c3", "f6"]
        response = me.post("/moves", {"move": "c3"})
        assert response.status_code == 200, response.text
        assert response.json()["flipped"] == ["d4"]
        game, _ = create(client, opponent="engine", level=1, flip_rule="esore",
                         clock_minutes=None)
        assert game["variant"] == "standard+esore"
        refused = client.post("/api/games", json={"opponent": "victory", "flip_rule": "esore"})
        assert refused.status_code >= 400 and "does not know" in refused.text
