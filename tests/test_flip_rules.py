"""挟み碁's flip rules as options (``+one``: one bracketed disc turned, the mover's choice;
``+choose``: any non-empty subset of them): the variant names, the moves with their
turned discs and their notation, refusals, perft, transcripts, events and the players.

The choices are checked against a reference written here from the rules' words, square by
square on (row, column) coordinates, independent of the board's bit kernels."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hasamigo import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    IllegalReason,
    InvalidOptionError,
    Move,
    ParseError,
    find_variant,
)
from hasamigo.cli import app
from hasamigo.engine.players import make_player, plays_every_rule
from hasamigo.errors import InvalidSquareError
from hasamigo.game.controller import GameController
from hasamigo.game.events import EventFormatError, MovePlayed, event_from_json, event_to_json
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.notation import read_games, write_games
from hasamigo.notation.ggf import format_ggf
from hasamigo.notation.obf import ObfPosition, format_obf, parse_obf
from hasamigo.notation.record import GameRecord
from hasamigo.notation.sheet import read_sheet
from hasamigo.notation.transcript import parse_transcript, write_transcript
from hasamigo.notation.wthor import write_wthor
from hasamigo.storage import Database, GameRepository

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


# ---- the reference ---------------------------------------------------------------------
def cells(board: Board) -> dict[tuple[int, int], str]:
    """The board as ``{(row, col): "X" | "O" | "-"}`` over its playable squares."""
    text = board.to_string().split()[0]
    return {
        (i // board.cols, i % board.cols): ch
        for i, ch in enumerate(text)
        if ch != "#"
    }


def bracketed(grid: dict[tuple[int, int], str], me: str, row: int, col: int) -> set:
    """Opponent discs bracketed by ``me`` placing at (row, col): walk each of the eight
    lines over the opponent's discs to one of ``me``'s."""
    other = "O" if me == "X" else "X"
    found: set[tuple[int, int]] = set()
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while grid.get((r, c)) == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and grid.get((r, c)) == me:
            found.update(line)
    return found


def reference_choices(board: Board, rule: str) -> set[tuple[str, frozenset[str]]]:
    """Every legal (square, discs turned) of the side to move under ``rule``, by name."""
    grid = cells(board)
    me = "X" if board.turn is BLACK else "O"
    out = set()
    for (row, col), ch in grid.items():
        if ch != "-":
            continue
        discs = bracketed(grid, me, row, col)
        if not discs:
            continue
        names = [f"{'abcdefghij'[c]}{r + 1}" for r, c in discs]
        square = f"{'abcdefghij'[col]}{row + 1}"
        if rule == "all":
            out.add((square, frozenset(names)))
        elif rule == "one":
            out.update((square, frozenset([n])) for n in names)
        else:
            for k in range(1, len(names) + 1):
                out.update((square, frozenset(pick)) for pick in itertools.combinations(names, k))
    return out


def board_choices(board: Board) -> set[tuple[str, frozenset[str]]]:
    out = set()
    for move in board.move_choices():
        if move.square is None:
            continue
        turned = board.flips(move) if move.turned is None else move.turned
        names = frozenset(board.square_name(sq) for sq in range(100) if turned >> sq & 1)
        out.add((board.square_name(move.square), names))
    return out


def reference_perft(board: Board, rule: str, depth: int) -> int:
    """Leaves ``depth`` plies ahead, each (square, turned) a move, a pass a ply."""
    if depth == 0 or board.is_game_over():
        return 1
    choices = reference_choices(board, rule)
    if not choices:
        board.push(Move(None))
        total = reference_perft(board, rule, depth - 1)
        board.pop()
        return total
    total = 0
    for square, names in choices:
        turned = sum(1 << board.parse_square(n) for n in names)
        board.push(Move(board.parse_square(square), turned))
        total += reference_perft(board, rule, depth - 1)
        board.pop()
    return total


# ---- the variants ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["hasegawa-8x9+one", "8x9+one", "HASEGAWA-8x9+One "])
def test_a_rule_suffix_gives_one_cached_class(name: str) -> None:
    variant = find_variant(name)
    assert variant is find_variant("hasegawa-8x9+one")
    assert variant.name == "hasegawa-8x9+one"
    assert variant.flip_rule == "one"
    assert issubclass(variant, find_variant("hasegawa-8x9"))
    assert (variant.rows, variant.cols, variant.stride) == (8, 9, 10)
    assert "one disc turned" in variant.title
    assert find_variant("hasegawa-8x9").flip_rule == "all"


@pytest.mark.parametrize("base", ["standard", "octagon", "grand", "6x6", "hasegawa-9x10"])
def test_every_variant_takes_both_rules(base: str) -> None:
    for rule in ("one", "choose"):
        variant = find_variant(f"{base}+{rule}")
        assert variant.name == f"{find_variant(base).name}+{rule}"
        assert variant.flip_rule == rule
        assert variant.playable() == find_variant(base).playable()
        assert variant().to_string() == find_variant(base)().to_string()


def test_an_unknown_rule_is_refused_listing_the_rules() -> None:
    with pytest.raises(InvalidOptionError, match="one, choose"):
        find_variant("standard+two")
    with pytest.raises(InvalidOptionError, match="known"):
        find_variant("nonesuch+one")


# ---- moves and their notation ---------------------------------------------------------
def test_move_turned_is_checked_and_hashable() -> None:
    move = Move(19, 1 << 27)
    assert move == Move(19, 1 << 27) and hash(move) == hash(Move(19, 1 << 27))
    assert move != Move(19)
    assert str(move) == "d3(d4)" and str(Move(19)) == "d3"
    assert repr(Move(19)) == "Move.from_str('d3')"
    for bad in (-1, 1 << 100, True, "d4", 1.0):
        with pytest.raises(InvalidSquareError):
            Move(19, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidSquareError):
        Move(None, 1)


def test_move_names_round_trip_in_square_order() -> None:
    variant = find_variant("standard+choose")
    move = variant.parse_move("C4( e5, d4 )")
    assert move.square == variant.parse_square("c4")
    assert move.turned == (1 << variant.parse_square("d4")) | (1 << variant.parse_square("e5"))
    assert variant.move_name(move) == "c4(d4e5)"
    assert variant.parse_move(variant.move_name(move)) == move
    wide = find_variant("hasegawa-9x10+one")
    j10 = wide.parse_move("a9(j9)")
    assert wide.move_name(j10) == "a9(j9)"
    assert wide.move_name(wide.parse_move("a1(a9b2)")) == "a1(b2a9)"


@pytest.mark.parametrize(
    ("text", "column"),
    [("c4(d4", 3), ("c4(zz)", 4), ("c4(d4d4)", 6), ("c4()", 3), ("c4(d4)x", 3),
     ("c4((d4))", 3), ("c4(d4" + "e5" * 200 + ")", None), ("  c4(d4", 5),
     ("  c4(d4x9)", 8)],
)
def test_junk_in_a_move_is_a_parse_error_with_its_column(text: str, column: int | None) -> None:
    with pytest.raises(ParseError) as info:
        find_variant("standard+one").parse_move(text)
    assert info.value.column == column


# ---- the rules --------------------------------------------------------------------------
def _play_to(board: Board, plies: int, seed: int) -> Board:
    rng = random.Random(seed)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.move_choices())))
    return board


def _position_with_a_choice(rule: str) -> tuple[Board, Move]:
    """A position of ``standard+rule`` with a square that brackets two discs or more."""
    for seed in range(100):
        board = _play_to(find_variant(f"standard+{rule}")(), 10, seed)
        for move in board.legal_moves:
            if move.square is not None and board.turn_choices(move.square).bit_count() >= 2:
                return board, move
    raise AssertionError("no position with a choice")  # pragma: no cover


@settings(max_examples=60)
@given(
    base=st.sampled_from(["standard", "octagon", "hasegawa-8x9", "6x6", "eight-stars"]),
    rule=st.sampled_from(["all", "one", "choose"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 40),
)
def test_the_board_offers_exactly_the_reference_choices(
    base: str, rule: str, seed: int, plies: int
) -> None:
    board = _play_to(find_variant(base if rule == "all" else f"{base}+{rule}")(), plies, seed)
    expected = reference_choices(board, rule)
    assert board_choices(board) == expected
    moves = list(board.move_choices())
    assert len(moves) == len(set(moves)) == (len(expected) or (0 if board.is_game_over() else 1))
    grid = cells(board)
    me = "X" if board.turn is BLACK else "O"
    for move in moves:
        assert board.is_legal(move)
        if move.square is None:
            continue
        before = board.to_string()
        turned = board.flips(move) if move.turned is None else move.turned
        board.push(move)
        after = cells(board)
        row, col = divmod(move.square - board.top * board.stride - board.left, board.stride)
        assert after[(row, col)] == me
        changed = {rc for rc in grid if grid[rc] != after[rc]} - {(row, col)}
        names = {f"{'abcdefghij'[c]}{r + 1}" for r, c in changed}
        assert names == {board.square_name(sq) for sq in range(100) if turned >> sq & 1}
        assert all(after[rc] == me for rc in changed)
        board.pop()
        assert board.to_string() == before


def test_one_refuses_a_bare_square_that_brackets_several_and_names_them() -> None:
    board, move = _position_with_a_choice("one")
    assert move.square is not None
    choices = board.turn_choices(move.square)
    names = [board.square_name(sq) for sq in range(100) if choices >> sq & 1]
    assert board.needs_choice(move.square)
    assert not board.is_legal(move)
    with pytest.raises(IllegalMoveError) as info:
        board.push(move)
    assert info.value.reason is IllegalReason.BAD_TURN
    assert all(name in str(info.value) for name in names)
    ply = board.ply
    played = board.play(f"{board.move_name(move)}({names[1]})")
    assert board.ply == ply + 1 and played.turned == 1 << board.parse_square(names[1])
    assert board.peek() == played


def test_bad_choices_are_refused_with_bad_turn() -> None:
    board, move = _position_with_a_choice("one")
    sq = move.square
    assert sq is not None
    choices = board.turn_choices(sq)
    first, second = [s for s in range(100) if choices >> s & 1][:2]
    not_bracketed = next(s for s in range(64) if board.playable() >> s & 1 and not choices >> s & 1)
    for turned, words in [
        (choices, "one disc"),
        ((1 << first) | (1 << second), "one disc"),
        (0, "at least one"),
        (1 << not_bracketed, f"does not bracket {board.square_name(not_bracketed)}"),
    ]:
        with pytest.raises(IllegalMoveError, match=words) as info:
            board.push(Move(sq, turned))
        assert info.value.reason is IllegalReason.BAD_TURN
    before = board.to_string()
    board.push(Move(sq, 1 << second))
    assert board.pop() == Move(sq, 1 << second)
    assert board.to_string() == before

    choose, move = _position_with_a_choice("choose")
    assert move.square is not None
    assert choose.is_legal(move)  # a bare square turns them all
    with pytest.raises(IllegalMoveError) as info:
        choose.push(Move(move.square, 0))
    assert info.value.reason is IllegalReason.BAD_TURN
    normal = _play_to(Board(), 10, 3)
    sq = next(iter(normal.legal_moves)).square
    assert sq is not None
    flips = normal.flips(Move(sq))
    assert normal.is_legal(Move(sq, flips))  # the normal rule: all of them, said or not
    if flips.bit_count() > 1:
        with pytest.raises(IllegalMoveError, match="no choice"):
            normal.push(Move(sq, flips & -flips))


def test_placement_legality_passes_and_end_are_unchanged() -> None:
    for rule in ("one", "choose"):
        variant = find_variant(f"standard+{rule}")
        board, plain = variant(), Board()
        assert board.legal_moves_mask() == plain.legal_moves_mask()
        with pytest.raises(IllegalMoveError) as info:
            board.play("a1")
        assert info.value.reason is IllegalReason.NO_FLIPS
        full = variant("X" * 63 + "- O")
        assert full.is_game_over() and full.outcome() is not None
        blocked = variant("X" * 61 + "-XO X")
        assert blocked.must_pass()
        assert list(blocked.move_choices()) == [Move(None)]


@pytest.mark.parametrize(("base", "rule", "depth"), [
    ("standard", "one", 4), ("standard", "choose", 4), ("hasegawa-8x9", "one", 3),
    ("6x6", "choose", 4),
])
def test_perft_counts_every_choice(base: str, rule: str, depth: int) -> None:
    board = find_variant(f"{base}+{rule}")()
    expected = reference_perft(board.copy(), rule, depth)
    assert board.perft(depth) == expected
    assert board.perft(depth) > find_variant(base)().perft(depth) or depth < 3


# ---- transcripts and other formats -------------------------------------------------------
def _random_game(name: str, seed: int) -> Board:
    board = find_variant(name)()
    return _play_to(board, 400, seed)


@pytest.mark.parametrize("name", ["hasegawa-8x9+one", "standard+choose", "grand+one"])
def test_transcripts_keep_the_turned_discs(name: str, tmp_path) -> None:
    board = _random_game(name, 7)
    assert board.is_game_over()
    assert any(m.turned is not None for m in board.move_stack)
    text = write_transcript(board.move_stack, type(board))
    assert "(" in text
    assert parse_transcript(text, type(board)()) == board.move_stack
    record = GameRecord(variant=type(board), moves=list(board.move_stack))
    path = tmp_path / "games.txt"
    write_games(path, [record])
    assert path.read_text().startswith(f"# variant: {type(board).name}\n")
    (back,) = read_games(path)
    assert back.problem is None
    assert back.variant is type(board) and back.moves == record.moves
    assert back.replay().to_string() == board.to_string()


def test_a_transcript_with_a_bad_choice_says_where_and_why() -> None:
    variant = find_variant("standard+one")
    board, move = _position_with_a_choice("one")
    prefix = write_transcript(board.move_stack, variant)
    with pytest.raises(ParseError) as info:
        parse_transcript(prefix + board.move_name(move), variant())
    assert info.value.offset == len(prefix)
    assert IllegalReason.BAD_TURN.value in str(info.value) and "say which" in str(info.value)
    with pytest.raises(ParseError) as info:
        parse_transcript("f5(e4zz)", variant())
    assert info.value.offset == 5


def test_record_sheets_refuse_the_flip_rules() -> None:
    with pytest.raises(InvalidOptionError, match="record sheet"):
        read_sheet("", find_variant("standard+one"))


def test_ggf_wthor_and_obf_refuse_the_flip_rules(tmp_path) -> None:
    board = _random_game("standard+one", 3)
    record = GameRecord(variant=type(board), moves=list(board.move_stack))
    with pytest.raises(ValueError, match=r"GGF cannot hold a game of .*one disc turned"):
        format_ggf(record)
    with pytest.raises(ValueError, match="WTHOR holds only"):
        write_wthor(tmp_path / "x.wtb", [record])
    with pytest.raises(ValueError, match="OBF cannot hold"):
        format_obf(ObfPosition(board=type(board)(), answers=[]))
    with pytest.raises(InvalidOptionError, match="normal flip rule"):
        parse_obf(Board().to_string() + ";", board_cls=type(board))


# ---- game events and storage ---------------------------------------------------------------
class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.5
        return self.now


def _two_people_game(variant: str, seed: int) -> GameController:
    setup = GameSetup((Participant("Ann"), Participant("Ben")), GameOptions(variant=variant))
    game = GameController.new(setup, time_source=_Clock(), game_id=f"flip-{seed}")
    rng = random.Random(seed)
    while game.phase is Phase.PLAYING:
        game.play(None, rng.choice(list(game.board.move_choices())))
    return game


def test_move_events_keep_their_turned_discs_through_json() -> None:
    game = _two_people_game("hasegawa-8x9+one", 11)
    variant = type(game.board)
    assert variant.name == "hasegawa-8x9+one" and game.phase is Phase.OVER
    chosen = [e for e in game.events if isinstance(e, MovePlayed) and e.turned is not None]
    assert chosen
    as_json = [event_to_json(e, variant) for e in chosen]
    assert all(d["turned"] and all(isinstance(n, str) for n in d["turned"]) for d in as_json)
    setup = GameSetup.from_json(json.loads(json.dumps(game.setup.to_json())))
    events = [event_from_json(json.loads(json.dumps(event_to_json(e, variant))), variant)
              for e in game.events]
    assert events == list(game.events)
    again = GameController(setup, events, time_source=_Clock())
    assert type(again.board) is variant
    assert again.board.to_string() == game.board.to_string()
    assert again.board.move_stack == game.board.move_stack
    assert again.result == game.result


def test_move_events_without_turned_read_as_before() -> None:
    old = {"kind": "move", "colour": "black", "square": "f5", "at": 12.5}
    event = event_from_json(old, Board)
    assert event == MovePlayed(BLACK, Board.parse_square("f5"), at=12.5)
    assert event_to_json(event, Board) == old  # no "turned" key for a normal move
    turned = event_from_json({**old, "turned": ["e5"]}, Board)
    assert isinstance(turned, MovePlayed) and turned.turned == 1 << Board.parse_square("e5")
    for bad in ([], ["e5", "e5"], ["z9"], "e5", [5], ["e5"] * 200):
        with pytest.raises(EventFormatError):
            event_from_json({**old, "turned": bad}, Board)


def test_a_stored_game_reloads_with_its_choices(tmp_path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'games.db'}")
    database.open()
    try:
        repo = GameRepository(database)
        game = _two_people_game("standard+choose", 5)
        repo.create(game, creator="client")
        stored = repo.load(game.id, time_source=_Clock())
        assert stored is not None
        assert type(stored.game.board).name == "standard+choose"
        assert list(stored.game.events) == list(game.events)
        assert stored.game.board.move_stack == game.board.move_stack
        assert any(m.turned is not None for m in stored.game.board.move_stack)
    finally:
        database.close()


# ---- players -------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["random", "greedy"])
@pytest.mark.parametrize("name", ["hasegawa-8x9+one", "standard+choose", "octagon+one",
                                  "6x6+choose"])
def test_random_and_greedy_play_whole_games_by_the_rule(spec: str, name: str) -> None:
    board = find_variant(name)()
    players = {BLACK: make_player(spec, seed=1), WHITE: make_player(spec, seed=2)}
    chose = 0
    while not board.is_game_over():
        move = players[board.turn].choose(board)
        assert board.is_legal(move)
        if move.square is not None and board.flip_rule == "one":
            turned = board.flips(move) if move.turned is None else move.turned
            assert turned.bit_count() == 1
        chose += move.turned is not None
        board.push(move)
    if spec == "greedy" and board.flip_rule == "choose":
        assert chose == 0  # turning them all turns the most
    else:
        assert chose > 0
    assert board.outcome() is not None


def test_greedy_turns_every_disc_it_can_under_choose() -> None:
    board = _play_to(find_variant("standard+choose")(), 12, 4)
    move = make_player("greedy", seed=0).choose(board)
    assert move.square is not None and move.turned is None
    most = max(board.flips(m).bit_count() for m in board.legal_moves)
    assert board.flips(move).bit_count() == most


@pytest.mark.parametrize("spec", ["victory", "weakest", "entertainer"])
def test_other_players_refuse_the_flip_rules(spec: str) -> None:
    player = make_player(spec, seed=0)
    with pytest.raises(InvalidOptionError, match="flip rule 'one'"):
        player.check_board(find_variant("standard+one"))
    with pytest.raises(InvalidOptionError, match="random or greedy"):
        player.choose(find_variant("standard+choose")())
    player.check_board(Board)  # the normal rule is fine
    assert not plays_every_rule(spec)
    assert plays_every_rule("random") and plays_every_rule("greedy")


# ---- the command line ---------------------------------------------------------------------
def _cli(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), input=input)
    return result.exit_code, result.stdout + result.stderr


def test_play_in_the_terminal_types_the_discs_to_turn(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HASAMIGO_DB", f"sqlite:///{tmp_path / 'games.db'}")
    variant = find_variant("hasegawa-8x9+one")
    board = variant()
    typed: list[str] = []
    asked = None
    while not board.is_game_over():
        if board.must_pass():
            board.push(Move(None))
            continue
        if asked is None:
            needing = [m for m in board.legal_moves
                       if m.square is not None and board.needs_choice(m.square)]
            if needing:
                asked = needing[0]
                typed.append(variant.move_name(asked))  # refused: which disc?
        move = list(board.move_choices())[-1]
        typed.append(variant.move_name(move))
        board.push(move)
    assert asked is not None and any("(" in t for t in typed)
    code, out = _cli("play", "--variant", "hasegawa-8x9+one", input="\n".join(typed) + "\n")
    assert code == 0, out
    assert "Game over" in out and str(board.outcome()) in out
    assert asked.square is not None
    name = variant.square_name(asked.square)
    assert f"{name} brackets" in out and "say which" in out
    assert "turn one of" in out  # the legal moves list the choices
    database = Database(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        (summary,) = GameRepository(database).summaries()
        stored = GameRepository(database).load(summary.id)
    finally:
        database.close()
    assert stored is not None and stored.game.board.move_stack == board.move_stack


def test_play_refuses_a_program_that_does_not_know_the_rule(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HASAMIGO_DB", f"sqlite:///{tmp_path / 'games.db'}")
    code, out = _cli("play", "--vs", "victory", "--variant", "standard+one", input="quit\n")
    assert code != 0 and "flip rule" in out
    assert not (tmp_path / "games.db").exists() or "saved as game" not in out
    code, out = _cli("play", "--vs", "random", "--variant", "standard+one", input="quit\n")
    assert code == 0, out


def test_show_perft_variants_and_convert(tmp_path) -> None:
    code, out = _cli("show", "--variant", "standard+choose", "f5f6e6(e5)", "--json")
    assert code == 0, out
    shown = json.loads(out)
    assert shown["variant"] == "standard+choose" and shown["moves"][-1] == "e6(e5)"
    assert shown["turn_choices"] == {"f4": ["e4", "f5"], "d6": ["d5", "e6"]}
    code, out = _cli("perft", "3", "--variant", "standard+one", "--json")
    assert code == 0, out
    assert [row["leaves"] for row in json.loads(out)] == [
        reference_perft(find_variant("standard+one")(), "one", d) for d in (1, 2, 3)]
    code, out = _cli("variants", "--json")
    assert code == 0 and all(set(row["flip_rules"]) == {"+one", "+choose"}
                             for row in json.loads(out))
    code, out = _cli("variants")
    assert "+one" in out and "+choose" in out
    game = _random_game("hasegawa-8x9+one", 2)
    source = tmp_path / "games.txt"
    write_games(source, [GameRecord(variant=type(game), moves=list(game.move_stack))])
    code, out = _cli("convert", str(source), str(tmp_path / "copy.txt"))
    assert code == 0, out
    assert (tmp_path / "copy.txt").read_text() == source.read_text()
    code, out = _cli("convert", str(source), str(tmp_path / "copy.ggf"))
    assert code != 0 and "GGF cannot hold" in out
    code, out = _cli("games", str(source), "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["games"] == 1 and report["failed"] == []
