"""Variants: handicaps, the historical starts, the 32-disc limit, the registry and the
local square names of the small boards."""

from __future__ import annotations

import random

import naive
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import (
    BLACK,
    PASS,
    VARIANTS,
    WHITE,
    Board,
    IllegalMoveError,
    IllegalReason,
    InvalidOptionError,
    InvalidSquareError,
    Move,
    find_variant,
    parse_square,
)


def grid(*names: str) -> int:
    return sum(1 << parse_square(n) for n in names)


START_BLACK, START_WHITE = grid("e4", "d5"), grid("d4", "e5")


def reference(board: Board) -> tuple[list, str]:
    """The board's discs and side as reference cells (for the rules, not the discs' history)."""
    cells = naive.cells_from_masks(board.black, board.white, board.playable())
    return cells, "B" if board.turn is BLACK else "W"


def reason_refused(board: Board, move: str) -> IllegalReason:
    with pytest.raises(IllegalMoveError) as info:
        board.play(move)
    return info.value.reason


# ---- handicaps -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("handicap", "corners"),
    [(1, ("a1",)), (2, ("a1", "h8")), (3, ("a1", "h1", "h8")), (4, ("a1", "h1", "a8", "h8"))],
)
def test_handicap_corners_and_white_moves_first(handicap: int, corners: tuple[str, ...]) -> None:
    board = Board(handicap=handicap)
    assert board.black == START_BLACK | grid(*corners)
    assert board.white == START_WHITE
    assert board.turn is WHITE
    cells, colour = reference(board)
    assert colour == "W"
    assert [m.square for m in board.legal_moves] == naive.legal_moves(cells, "W")
    first = board.move_name(Move(naive.legal_moves(cells, "W")[0]))
    board.play(f"white:{first}")  # White (the stronger player) makes the first move
    assert board.turn is BLACK


def test_handicap_on_the_mini_board_uses_its_own_corners() -> None:
    mini = find_variant("6x6")(handicap=4)
    assert mini.black & grid("b2", "g2", "b7", "g7") == grid("b2", "g2", "b7", "g7")
    assert mini.turn is WHITE


@pytest.mark.parametrize("bad", [0.5, 5, -1])
def test_bad_handicaps(bad: object) -> None:
    with pytest.raises(ValueError):
        Board(handicap=bad)  # type: ignore[arg-type]


def test_handicap_and_position_together_are_refused() -> None:
    with pytest.raises(ValueError):
        Board(Board().to_string(), handicap=1)


def test_no_handicap_on_the_octagon() -> None:
    with pytest.raises(ValueError):
        find_variant("octagon")(handicap=1)


# ---- original Reversi start ----------------------------------------------------------


@pytest.mark.parametrize("how", ["variant", "option"])
def test_original_start_places_four_discs_then_plays_normally(how: str) -> None:
    board = find_variant("original")() if how == "variant" else Board(start="original")
    centre = grid("d4", "e4", "d5", "e5")
    assert board.black == board.white == 0 and board.turn is BLACK
    assert board.legal_moves_mask() == centre and not board.must_pass()
    assert reason_refused(board, "c3") is IllegalReason.PLACEMENT_PHASE
    assert reason_refused(board, "pass") is IllegalReason.PASS_NOT_ALLOWED
    for name, colour in (("d4", BLACK), ("e4", WHITE), ("e5", BLACK)):
        assert board.turn is colour
        assert board.flips(name) == 0
        board.play(name)
    assert board.legal_moves_mask() == grid("d5")  # the last centre square, no flips needed
    board.play("d5")
    assert board.black == grid("d4", "e5") and board.white == grid("e4", "d5")  # no flips
    assert board.turn is BLACK
    cells, colour = reference(board)
    assert [m.square for m in board.legal_moves] == naive.legal_moves(cells, colour)
    first = board.legal_moves.__iter__().__next__()
    flipped = board.flips(first)
    assert flipped and flipped == naive.mask_of(naive.flips(cells, colour, first.square))
    board.push(first)
    assert board.black == grid("d4", "e5") | (1 << first.square) | flipped


# ---- the 32-disc limit ---------------------------------------------------------------

# Black has 32 discs on the board (rows 3-6), White one on c2. Black could play b1-d1 but
# under a 32-disc limit has nothing left to place; White can play c7.
OUT_OF_DISCS = "----------O-----" + "XXXXXXXX" * 4 + "--------" * 2 + " X"


def test_a_side_without_discs_passes() -> None:
    free = Board(OUT_OF_DISCS)
    assert free.legal_moves_mask() == grid("b1", "c1", "d1") and free.in_hand(BLACK) is None
    board = Board(OUT_OF_DISCS, disc_limit=32)
    assert board.in_hand(BLACK) == 0 and board.in_hand(WHITE) == 31
    assert board.legal_moves_mask() == 0 and board.must_pass()
    assert list(board.legal_moves) == [PASS]
    assert reason_refused(board, "c1") is IllegalReason.NO_DISCS_LEFT
    board.play("pass")
    board.play("c7")
    assert board.in_hand(WHITE) == 30 and board.counts() == (28, 6)
    assert board.must_pass()  # Black still has no disc to place
    board.pop()
    board.pop()
    assert board.in_hand(BLACK) == 0 and board.in_hand(WHITE) == 31


def test_small_disc_limit_through_play_and_perft() -> None:
    board = Board(disc_limit=3)  # each side may place one more disc
    assert (board.in_hand(BLACK), board.in_hand(WHITE)) == (1, 1)
    board.play("f5")
    board.play("f6")
    assert (board.in_hand(BLACK), board.in_hand(WHITE)) == (0, 0)
    assert board.is_game_over() and board.legal_moves_mask() == 0
    cells, colour = reference(board)
    assert naive.legal_moves(cells, colour)  # a move on the board, but no disc to play it
    assert [Board(disc_limit=3).perft(d) for d in range(1, 5)] == [4, 12, 12, 12]


@pytest.mark.parametrize("bad", [0, -3, "32", 2.5])
def test_bad_disc_limits(bad: object) -> None:
    with pytest.raises(ValueError):
        Board(disc_limit=bad)  # type: ignore[arg-type]


# A reversi-32 game (original start) in which White passes twice, so Black places its 32nd
# disc first; Black then has moves on the board (b2, a7) but no disc left, and passes.
EARLY_GAME = (
    "e4d5d4e5d6c3f5f6d3e3d2c5f4g6f7g4g3e2f3e7b5h2h7d1d8g7e6e8c2b3h5c4c1g2f1e1a3a5a6h3c6a2"
    "h1b1g5d7h4a4h8b4a1g1f8g8b6b7f2c8h6passb8passa8c7"
)


def split_moves(text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        step = 4 if text.startswith("pass", i) else 2
        out.append(text[i : i + step])
        i += step
    return out


def test_reversi_32_black_runs_out_of_discs() -> None:
    board = find_variant("reversi-32")()
    assert board.disc_limit == 32 and board.in_hand(BLACK) == board.in_hand(WHITE) == 32
    for name in split_moves(EARLY_GAME):
        board.play(name)
    placed_by_black = sum(1 for i, m in enumerate(board.move_stack) if i % 2 == 0 and m != PASS)
    assert placed_by_black == 32 and board.in_hand(BLACK) == 0
    assert board.turn is BLACK
    cells, colour = reference(board)
    assert naive.legal_moves(cells, colour) == [parse_square("b2"), parse_square("a7")]
    assert board.must_pass() and list(board.legal_moves) == [PASS]
    assert reason_refused(board, "b2") is IllegalReason.NO_DISCS_LEFT
    board.play("pass")
    board.play("a7")
    assert board.is_game_over()
    # Without the limit the same moves leave Black a real move instead of the pass.
    free = find_variant("original")()
    for name in split_moves(EARLY_GAME):
        free.play(name)
    assert free.legal_moves_mask() == grid("b2", "a7")


def test_reversi_32_hand_counts_along_random_games() -> None:
    rng = random.Random(7)
    for _ in range(12):
        board = find_variant("reversi-32")()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            for colour, parity in ((BLACK, 0), (WHITE, 1)):
                placed = sum(
                    1 for i, m in enumerate(board.move_stack) if i % 2 == parity and m != PASS
                )
                assert board.in_hand(colour) == 32 - placed >= 0
        assert sum(board.counts()) == sum(1 for m in board.move_stack if m != PASS) <= 64


@pytest.mark.parametrize("variant", ["reversi-32", "standard-32"])
def test_repr_round_trip_keeps_the_discs_in_hand(variant: str) -> None:
    import hasamigo
    from hasamigo import variants

    if variant == "standard-32":
        board = Board(disc_limit=32)
        moves = ["f5", "d6", "c3"]
    else:
        board = find_variant(variant)()
        moves = ["d4", "e4", "e5", "d5", "f4"]
    for name in moves:
        board.play(name)
    copy = eval(repr(board), {**vars(variants), **vars(hasamigo)})
    for colour in (BLACK, WHITE):
        assert copy.in_hand(colour) == board.in_hand(colour)


# ---- the registry --------------------------------------------------------------------

NAMES = {
    "standard": ("standard", "othello", "8x8", "cross"),
    "parallel": ("parallel", "parallel-start"),
    "original": ("original", "original-reversi", "reversi"),
    "reversi-32": ("reversi-32", "early-reversi", "reversi-1886"),
    "6x6": ("6x6", "mini", "mini-othello"),
    "4x4": ("4x4", "micro"),
    "octagon": ("octagon", "octagonal"),
}


@pytest.mark.parametrize(("name", "aliases"), NAMES.items())
def test_find_variant_names_and_aliases(name: str, aliases: tuple[str, ...]) -> None:
    variant = find_variant(name)
    assert variant.name == name and issubclass(variant, Board) and variant in VARIANTS
    for alias in aliases:
        assert find_variant(alias) is variant
        assert find_variant(f"  {alias.upper()} ") is variant


def test_find_variant_standard_is_board() -> None:
    assert find_variant("othello") is Board


def test_find_variant_unknown_name() -> None:
    with pytest.raises(ValueError, match="triangle") as info:
        find_variant("triangle-othello")  # (grand-othello was unknown before 10×10 came)
    assert "6x6" in str(info.value) and "octagon" in str(info.value)
    assert "grand" in str(info.value) and "eight-stars" in str(info.value)


@pytest.mark.parametrize(
    ("name", "squares"), [("standard", 64), ("6x6", 36), ("4x4", 16), ("octagon", 52)]
)
def test_playable_shapes(name: str, squares: int) -> None:
    variant = find_variant(name)
    assert variant.playable() == naive.FRAMES[name][2]
    assert variant.square_count() == squares


# ---- local square names --------------------------------------------------------------


def test_mini_board_names_its_squares_a1_to_f6() -> None:
    mini = find_variant("6x6")
    assert mini.square_name(parse_square("b2")) == "a1"
    assert mini.square_name(parse_square("g7")) == "f6"
    assert mini.parse_square("a1") == parse_square("b2")
    assert mini.parse_square("F6") == parse_square("g7")
    for bad in ("g1", "a7", "h8", "a0"):
        with pytest.raises(InvalidSquareError):
            mini.parse_square(bad)
    with pytest.raises(InvalidSquareError):
        mini.square_name(parse_square("a1"))  # outside the frame
    board = mini()
    assert sorted(board.move_name(m) for m in board.legal_moves) == ["b3", "c2", "d5", "e4"]
    assert board.play("c2") == Move(parse_square("d3"))
    assert board.flips("b2") == grid("d4")  # local b2 is grid c3
    assert mini.move_name(PASS) == "pass"


def test_4x4_board_names_its_squares_a1_to_d4() -> None:
    micro = find_variant("4x4")
    assert micro.parse_square("a1") == parse_square("c3")
    assert micro.parse_square("d4") == parse_square("f6")
    assert micro.square_name(parse_square("e5")) == "c3"
    for bad in ("e1", "a5"):
        with pytest.raises(InvalidSquareError):
            micro.parse_square(bad)
    board = micro()
    assert board.to_string() == "-----OX--XO----- X"
    assert sorted(board.move_name(m) for m in board.legal_moves) == ["a2", "b1", "c4", "d3"]


# ---- Nip: placing anywhere when both sides are blocked -----------------------------------

NIP_BLOCKED = "".join(["##XXXX##", "#XXXXXX#", "XXXX-XXX", "XXXXXXXX", "XXXXX-XX", "XXXXXXXX",
                       "#XXXXXX#", "##XXXX##"]) + " O"  # White wiped out, two empties


def test_nip_places_anywhere_when_both_sides_are_blocked() -> None:
    nip, octagon = find_variant("nip-octagon"), find_variant("octagon")
    assert nip.playable() == octagon.playable() and nip.square_count() == 52
    assert octagon(NIP_BLOCKED).is_game_over()  # the usual rule: over
    board = nip(NIP_BLOCKED)
    assert not board.is_game_over() and not board.must_pass()
    assert sorted(board.move_name(m) for m in board.legal_moves) == ["e3", "f5"]
    assert board.flips("e3") == 0
    board.play("e3")  # a lone white disc, nothing flipped
    assert board.counts() == (50, 1)
    # Black cannot bracket it from f5 and White still cannot flip: Black places there
    assert [board.move_name(m) for m in board.legal_moves] == ["f5"]
    board.play("f5")
    assert board.is_game_over() and str(board.outcome()) == "51–1"
    assert nip(NIP_BLOCKED).perft(2) == 2  # walked move by move: the kernel lacks the rule


def test_nip_refuses_what_the_rule_does_not_allow() -> None:
    board = find_variant("nip-octagon")()
    with pytest.raises(IllegalMoveError, match="flips nothing"):
        board.play("a3")  # a normal position: the usual rule holds
    with pytest.raises(IllegalMoveError, match="not a playable square"):
        board.push(Move(0))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 63), min_size=60, max_size=60), st.booleans())
def test_nip_games_end_only_on_a_full_board(choices: list[int], from_blocked: bool) -> None:
    """Whatever is played, a Nip game ends only when no square is empty."""
    nip = find_variant("nip-octagon")
    board = nip(NIP_BLOCKED) if from_blocked else nip()
    for choice in choices:
        if board.is_game_over():
            break
        moves = list(board.legal_moves)
        board.push(moves[choice % len(moves)])
    if board.is_game_over():
        assert board.empties == 0


@pytest.mark.parametrize("spec", ["victory", "weakest"])
def test_programs_without_nips_rule_refuse_the_board(spec: str) -> None:
    from hasamigo.engine.players import make_player

    with pytest.raises(InvalidOptionError, match="Nip's rule"):
        make_player(spec, seed=1).check_board(find_variant("nip-octagon"))
    make_player("greedy", seed=1).check_board(find_variant("nip-octagon"))


def test_nips_rule_is_an_option_of_every_board() -> None:
    """``+nip`` gives any board Nip's rule: the octagon with it plays as nip-octagon, and
    the names with options read in any order and round-trip."""
    octagon_nip = find_variant("octagon+nip")
    assert octagon_nip.place_when_blocked and octagon_nip.name == "octagon+nip"
    board = octagon_nip(NIP_BLOCKED)
    assert sorted(board.move_name(m) for m in board.legal_moves) == ["e3", "f5"]
    assert find_variant("octagon")(NIP_BLOCKED).is_game_over()
    both = find_variant("8x9+one+nip")
    assert both is find_variant("hasegawa-8x9+nip+one") is find_variant(both.name)
    assert both.place_when_blocked and both.flip_rule == "one"
    assert find_variant("nip-octagon+nip") is find_variant("nip-octagon")
    for bad in ("standard+nip+nip", "standard+one+choose", "standard+two", "standard+"):
        with pytest.raises(InvalidOptionError, match=r"options|flip rule"):
            find_variant(bad)
    assert Board().perft(3) == find_variant("standard+nip")().perft(3)  # no block that early
