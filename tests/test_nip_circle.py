"""Nip's circular board (``nip-circle``): the octagon's 52 points, flips along the grid's
lines and along the circumference, which closes on itself, and Nip's rule of placing
anywhere when both sides are blocked.

The reference here is written apart from :mod:`hasamigo.board`: points are (column, row)
pairs, a position a dict of them, the grid's lines walked point by point and the ring's
flips found as arcs (every other own disc on the ring, each way round, with nothing but
opponent discs strictly between) rather than by walking out from the placed disc.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import (
    BLACK,
    PASS,
    WHITE,
    Board,
    IllegalMoveError,
    IllegalReason,
    InvalidOptionError,
    find_variant,
)
from hasamigo.move import Move
from hasamigo.variants import NipCircleBoard as NipCircle

# ---- the reference -----------------------------------------------------------------------

Point = tuple[int, int]  # (column, row), 0-based: a1 = (0, 0), h8 = (7, 7)
Cells = dict[Point, str | None]  # "B", "W" or None (empty), for the 52 points only

# The board's points: grid squares whose centres lie within radius √(3.5² + 1.5²) of the
# board's centre (3.5, 3.5); squared distances compared in whole numbers (×4).
POINTS: list[Point] = [
    (c, r) for r in range(8) for c in range(8) if (2 * c - 7) ** 2 + (2 * r - 7) ** 2 <= 58
]
RING_NAMES = [
    "c1", "d1", "e1", "f1", "g2", "h3", "h4", "h5", "h6", "g7",
    "f8", "e8", "d8", "c8", "b7", "a6", "a5", "a4", "a3", "b2",
]
DIRECTIONS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def point(name: str) -> Point:
    return "abcdefgh".index(name[0]), int(name[1]) - 1


def name_of(p: Point) -> str:
    return f"{'abcdefgh'[p[0]]}{p[1] + 1}"


RING: list[Point] = [point(n) for n in RING_NAMES]


def other(colour: str) -> str:
    return "W" if colour == "B" else "B"


def ref_flips(cells: Cells, colour: str, at: Point) -> set[Point]:
    """Opponent discs ``colour`` flips by placing on the empty point ``at``."""
    if cells[at] is not None:
        return set()
    opponent, flipped = other(colour), set()
    for dc, dr in DIRECTIONS:
        run: list[Point] = []
        here = (at[0] + dc, at[1] + dr)
        while here in cells and cells[here] == opponent:
            run.append(here)
            here = (here[0] + dc, here[1] + dr)
        if here in cells and cells[here] == colour:
            flipped.update(run)
    if at in RING:
        i = RING.index(at)
        for j, end in enumerate(RING):
            if j == i or cells[end] != colour:
                continue
            # the two arcs from ``at`` to ``end``, without either end
            clockwise = [RING[k % 20] for k in range(i + 1, i + (j - i) % 20)]
            counter = [RING[k % 20] for k in range(j + 1, j + (i - j) % 20)]
            for arc in (clockwise, counter):
                if arc and all(cells[p] == opponent for p in arc):
                    flipped.update(arc)
    return flipped


def ref_moves(cells: Cells, colour: str) -> set[Point]:
    """Where ``colour`` may place: a point that flips; with none for either side (Nip's
    rule), every empty point."""
    empties = {p for p in POINTS if cells[p] is None}
    flipping = {p for p in empties if ref_flips(cells, colour, p)}
    if flipping or any(ref_flips(cells, other(colour), p) for p in empties):
        return flipping
    return empties


def ref_play(cells: Cells, colour: str, at: Point | None) -> Cells:
    after = dict(cells)
    if at is not None:
        for p in ref_flips(cells, colour, at) | {at}:
            after[p] = colour
    return after


def ref_perft(cells: Cells, colour: str, depth: int) -> int:
    mine, theirs = ref_moves(cells, colour), ref_moves(cells, other(colour))
    if depth == 0 or not (mine or theirs):
        return 1
    if not mine:
        return ref_perft(cells, other(colour), depth - 1)  # a pass is a ply
    return sum(ref_perft(ref_play(cells, colour, m), other(colour), depth - 1) for m in mine)


# ---- between the reference and the board -----------------------------------------------


def board_of(cells: Cells, colour: str) -> Board:
    text = "".join(
        "#" if (c, r) not in cells else {"B": "X", "W": "O", None: "-"}[cells[(c, r)]]
        for r in range(8) for c in range(8)
    )
    return NipCircle(text + (" X" if colour == "B" else " O"))


def cells_of(board: Board) -> tuple[Cells, str]:
    def at(p: Point) -> str | None:
        sq = p[1] * 8 + p[0]
        return "B" if board.black >> sq & 1 else "W" if board.white >> sq & 1 else None

    return {p: at(p) for p in POINTS}, "B" if board.turn is BLACK else "W"


def as_mask(points: set[Point]) -> int:
    return sum(1 << (r * 8 + c) for c, r in points)


def position(colour: str = "B", **discs: str) -> Cells:
    """Cells with the usual cross and ``name=colour`` discs (``None``-valued: empty)."""
    cells: Cells = {p: None for p in POINTS}
    for name, disc in {"d4": "W", "e5": "W", "e4": "B", "d5": "B", **discs}.items():
        cells[point(name)] = disc
    return cells


def names(points: set[Point]) -> list[str]:
    return sorted(name_of(p) for p in points)


def agrees(board: Board) -> None:
    """The board's moves, flips and end agree with the reference."""
    cells, colour = cells_of(board)
    moves = ref_moves(cells, colour)
    assert board.legal_moves_mask() == as_mask(moves)
    for p in POINTS:
        assert board.flips(name_of(p)) == as_mask(ref_flips(cells, colour, p)), name_of(p)
    over = not moves and not ref_moves(cells, other(colour))
    assert board.is_game_over() == over
    if over:
        assert board.empties == 0  # Nip: only a full board ends the game


# ---- the board's shape and its ring ----------------------------------------------------


def test_the_points_are_the_octagons_within_the_circle() -> None:
    assert len(POINTS) == 52
    assert NipCircle.playable() == as_mask(set(POINTS)) == find_variant("octagon").playable()
    assert NipCircle.square_count() == 52


def test_the_ring_is_the_outer_boundary_in_cyclic_order() -> None:
    assert [NipCircle.square_name(sq) for sq in NipCircle.rings[0]] == RING_NAMES
    assert len(set(RING)) == 20 and set(RING) <= set(POINTS)
    # consecutive points (and the last and first) are neighbours on the grid
    for a, b in zip(RING, RING[1:] + RING[:1], strict=True):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1, (name_of(a), name_of(b))
    # the ring is exactly the points with a side (not a corner) against the outside
    outer = {
        p for p in POINTS
        if any((p[0] + dc, p[1] + dr) not in POINTS for dc, dr in DIRECTIONS if dc * dr == 0)
    }
    assert outer == set(RING)


@pytest.mark.parametrize("alias", ["nip-circle", "circular-nip", "nip-round", " NIP-CIRCLE "])
def test_registered_under_its_names(alias: str) -> None:
    assert find_variant(alias) is NipCircle
    assert NipCircle.place_when_blocked and NipCircle.rings


def test_the_start_is_the_cross_and_its_first_moves_the_usual_ones() -> None:
    board = NipCircle()
    assert board.to_string() == find_variant("nip-octagon")().to_string()
    assert sorted(board.move_name(m) for m in board.legal_moves) == ["c4", "d3", "e6", "f5"]
    assert board.turn is BLACK


# ---- flips along the ring ----------------------------------------------------------------


def test_a_ring_flip_across_the_point_where_the_list_wraps() -> None:
    """a4 → a3 → b2 → c1 → d1 runs over the end of the ring's list (b2 is last, c1 first);
    on the grid, a3 meets the cut a2 and b2-c1 is no line from a4."""
    cells = position("B", a3="W", b2="W", c1="W", d1="B")
    assert names(ref_flips(cells, "B", point("a4"))) == ["a3", "b2", "c1"]
    board = board_of(cells, "B")
    assert board.flips("a4") == as_mask({point("a3"), point("b2"), point("c1")})
    board.play("a4")
    assert board.counts() == (3 + 4, 2)
    # the same run the other way round: White from d1's side brackets back to a4
    mirror = board_of(position("W", a3="B", b2="B", c1="B", a4="W"), "W")
    assert mirror.flips("d1") == as_mask({point("a3"), point("b2"), point("c1")})


@pytest.mark.parametrize(
    ("move", "discs", "flipped"),
    [
        # round the corner from the top edge down the h-file: f1-g2-h3 is a diagonal on the
        # grid but e1 is not on it; the ring bends at f1 and at h3
        ("e1", {"f1": "W", "g2": "W", "h3": "W", "h4": "B"}, ["f1", "g2", "h3"]),
        # round the bottom-left: c8 → b7 → a6 → a5 bends twice
        ("d8", {"c8": "W", "b7": "W", "a6": "W", "a5": "B"}, ["a6", "b7", "c8"]),
        ("a5", {"a6": "W", "b7": "W", "c8": "W", "d8": "B"}, ["a6", "b7", "c8"]),
    ],
)
def test_moves_legal_only_by_the_ring(move: str, discs: dict[str, str],
                                      flipped: list[str]) -> None:
    cells = position("B", **discs)
    assert names(ref_flips(cells, "B", point(move))) == flipped
    board = board_of(cells, "B")
    assert board.is_legal(move) and board.flips(move) == as_mask({point(n) for n in flipped})
    # on the octagon without the ring, the same square flips nothing and is refused
    octagon = find_variant("nip-octagon")(board.to_string())
    assert octagon.flips(move) == 0
    with pytest.raises(IllegalMoveError) as info:
        octagon.play(move)
    assert info.value.reason is IllegalReason.NO_FLIPS


def test_ring_and_grid_flips_add_up() -> None:
    """c1 brackets d1 along row 1 and along the ring (the same disc once) and b2, a3 the
    other way round the ring."""
    cells = position("B", d1="W", e1="B", b2="W", a3="W", a4="B")
    assert names(ref_flips(cells, "B", point("c1"))) == ["a3", "b2", "d1"]
    assert board_of(cells, "B").flips("c1") == as_mask({point("a3"), point("b2"), point("d1")})


def test_a_ring_all_of_the_opponent_brackets_nothing() -> None:
    """With the other 19 points of the ring White's, a disc on d1 would meet only itself
    going round: nothing is bracketed and the move does not flip."""
    ring_white = {n: "W" for n in RING_NAMES if n != "d1"}
    cells = position("B", **ring_white, e6="W", e7=None)  # Black may flip e6 from e7
    assert ref_flips(cells, "B", point("d1")) == set()
    board = board_of(cells, "B")
    assert board.flips("d1") == 0
    with pytest.raises(IllegalMoveError) as info:
        board.play("d1")
    assert info.value.reason is IllegalReason.NO_FLIPS
    assert board.is_legal("e7")
    # one black point on the ring instead: the run goes round all the way to it
    cells[point("c1")] = "B"
    board = board_of(cells, "B")
    eighteen = {p for p in RING if p not in (point("c1"), point("d1"))}
    assert ref_flips(cells, "B", point("d1")) == eighteen
    assert board.flips("d1") == as_mask(eighteen)
    board.play("d1")
    assert board.black & as_mask(set(RING)) == as_mask(set(RING))


def test_a_point_off_the_ring_does_not_flip_along_it() -> None:
    """b3 is beside a3-b2-c1 but not on the circle: no flips along it."""
    cells = position("B", a3="W", b2="W", c1="W", d1="B", a4="B")
    assert ref_flips(cells, "B", point("b3")) == set()
    assert board_of(cells, "B").flips("b3") == 0


# ---- Nip's rule on the circle --------------------------------------------------------------


def test_both_blocked_places_anywhere_then_a_pass_then_the_full_board() -> None:
    """All Black but d1 and h5, White to move: neither side can flip, so White places on
    either; after d1 only White can flip (at h5), so Black passes; h5 then brackets every
    black point of the ring (both ways round to d1) and g4, f3, e2 on the diagonal, and the
    full board ends the game."""
    cells: Cells = {p: "B" for p in POINTS}
    cells[point("d1")] = cells[point("h5")] = None
    board = board_of(cells, "W")
    assert not board.is_game_over() and not board.must_pass()
    assert sorted(board.move_name(m) for m in board.legal_moves) == ["d1", "h5"]
    assert board.flips("d1") == 0
    board.play("d1")
    assert board.counts() == (50, 1)
    assert board.must_pass() and list(board.legal_moves) == [PASS]
    board.play("pass")
    expected = {p for p in RING if p not in (point("d1"), point("h5"))}
    expected |= {point("g4"), point("f3"), point("e2")}
    assert board.flips("h5") == as_mask(expected)
    board.play("h5")
    assert board.counts() == (50 - 21, 1 + 1 + 21)
    assert board.is_game_over() and board.empties == 0
    assert str(board.outcome()) == "29–23"
    agrees(board)


def test_perft_from_the_start_and_from_a_ring_position_matches_the_reference() -> None:
    cells = position("B")
    assert [NipCircle().perft(d) for d in range(1, 5)] == [
        ref_perft(cells, "B", d) for d in range(1, 5)
    ] == [4, 12, 56, 244]
    ring_rich = position("W", a3="W", b2="B", c1="W", d1="B", f1="B", g2="W", h4="W",
                         a5="B", b7="W", d8="B", e8="W", g7="B")
    board = board_of(ring_rich, "W")
    assert [board.perft(d) for d in range(1, 4)] == [
        ref_perft(ring_rich, "W", d) for d in range(1, 4)
    ]


def test_perft_walks_the_circle_move_by_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel knows no ring: perft must not call it on this board."""
    import hasamigo.board as board_module

    def refuse(*args: object) -> int:
        raise AssertionError("the perft kernel was called on the circular board")

    monkeypatch.setattr(board_module, "_perft_kernel", refuse)
    assert NipCircle().perft(3) == 56


# ---- against the reference on random positions and playouts ------------------------------

DISC = st.sampled_from(["B", "W", None])
RING_DISC = st.sampled_from(["B", "W", "W", "W", None])  # long runs round the ring


def _nearly_one_colour(colour: str, changes: list[tuple[int, str | None]]) -> list[str | None]:
    ring: list[str | None] = [colour] * 20
    for i, disc in changes:
        ring[i] = disc
    return ring


# a ring all of one colour but for a point or two: runs all the way round
NEARLY_ONE_COLOUR = st.builds(
    _nearly_one_colour,
    st.sampled_from(["B", "W"]),
    st.lists(st.tuples(st.integers(0, 19), DISC), min_size=1, max_size=2),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(DISC, min_size=52, max_size=52),
    st.one_of(st.lists(RING_DISC, min_size=20, max_size=20), NEARLY_ONE_COLOUR),
    st.sampled_from(["B", "W"]),
)
def test_random_positions_agree_with_the_reference(
    inner: list[str | None], ring: list[str | None], colour: str
) -> None:
    cells: Cells = dict(zip(POINTS, inner, strict=True))
    cells.update(zip(RING, ring, strict=True))
    agrees(board_of(cells, colour))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=97, max_size=97))
def test_random_playouts_agree_with_the_reference(choices: list[int]) -> None:
    board = NipCircle()
    for choice in choices:
        agrees(board)
        if board.is_game_over():
            break
        cells, colour = cells_of(board)
        moves = list(board.legal_moves)
        move = moves[choice % len(moves)]
        board.push(move)
        at = None if move.square is None else (move.square % 8, move.square // 8)
        assert cells_of(board)[0] == ref_play(cells, colour, at)
    # passes never follow each other (both blocked: place anywhere), so 97 plies hold at
    # least 48 placements: the 48 empties of the start are filled
    assert board.is_game_over() and board.empties == 0


def test_a_seeded_game_to_the_end_and_back() -> None:
    rng = random.Random(11)
    board = NipCircle()
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    assert board.empties == 0 and sum(board.counts()) == 52
    outcome = board.outcome()
    assert outcome is not None and outcome.black + outcome.white == 52
    while board.move_stack:
        board.pop()
    assert board == NipCircle()


# ---- programs and the command line --------------------------------------------------------


@pytest.mark.parametrize("spec", ["victory", "weakest"])
def test_programs_without_its_rules_refuse_the_board(spec: str) -> None:
    from hasamigo.engine.players import make_player

    with pytest.raises(InvalidOptionError, match="flips along the circle") as info:
        make_player(spec, seed=1).check_board(NipCircle)
    assert "random or greedy" in str(info.value)


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_the_board_api_players_play_it_to_the_end(spec: str) -> None:
    from hasamigo.engine.players import make_player

    player = make_player(spec, seed=3)
    player.check_board(NipCircle)
    board = NipCircle()
    while not board.is_game_over():
        move = player.choose(board)
        assert move in board.legal_moves
        board.push(move)
    assert board.empties == 0


class RingWithoutNip(NipCircle):
    """The ring without Nip's rule: the engine must refuse it for the ring alone."""

    name = "ring-without-nip"
    place_when_blocked = False


def test_the_engine_search_refuses_the_circle() -> None:
    from hasamigo.engine.grid import kernel_pair
    from hasamigo.engine.players import make_player
    from hasamigo.errors import InvalidPositionError

    with pytest.raises(InvalidPositionError, match="Nip's rule"):
        kernel_pair(NipCircle())
    with pytest.raises(InvalidPositionError, match="flips along the circle"):
        kernel_pair(RingWithoutNip())
    with pytest.raises(InvalidOptionError, match="does not know the flips along the circle;"):
        make_player("victory", seed=1).check_board(RingWithoutNip)
    make_player("engine:1", seed=1).check_board(RingWithoutNip)  # it searches by the rules


def test_the_command_line_lists_counts_and_shows_it() -> None:
    from typer.testing import CliRunner

    from hasamigo.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["variants", "--json"])
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["nip-circle"]["squares"] == 52
    result = runner.invoke(app, ["perft", "4", "--json", "--variant", "nip-circle"])
    assert result.exit_code == 0
    assert [r["leaves"] for r in json.loads(result.stdout)] == [4, 12, 56, 244]
    result = runner.invoke(app, ["show", "f5", "--json", "--variant", "circular-nip"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["variant"] == "nip-circle" and data["moves"] == ["f5"]


def test_a_move_by_colour_and_square_on_the_circle() -> None:
    board = board_of(position("B", a3="W", b2="W", c1="W", d1="B"), "B")
    with pytest.raises(IllegalMoveError):
        board.play("white:a4")
    assert board.play("black:a4") == Move(point("a4")[1] * 8 + point("a4")[0])
    assert board.turn is WHITE
