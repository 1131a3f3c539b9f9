"""A slow, obviously correct reference for Fairy Othello's words and 挟み碁's capture,
written from the rules' words on (row, column) cells, independent of the board's code
(its bitboards, its runs and :class:`hasamigo.rules.Word`).

A word is read from its syllables here, by the seed's parts: オ/o "-Own" (自分の石を打つ),
エ/e "-Enemy"; セ/se "Set-Enemy" (相手の石を裏返す), ソ/so "Set-Own"; ロ/ro "Reset-Own"
(自分の石はそのまま), レ/re "Reset-Enemy". A disc is bracketed when it lies on a line between
the placed disc and a disc of the closing colour with nothing but discs of the turned
colour between them — for every closing disc on the line, so where the turned and closing
colours are the same every disc of the run but the farthest is bracketed by a later one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hasamigo import BLACK, Board

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
Cell = tuple[int, int]


def other(colour: str) -> str:
    return "O" if colour == "X" else "X"


@dataclass
class State:
    """A position as cells (``"X"``, ``"O"``, ``"-"``; cut squares absent), the side to
    move, the stones in hand (``None`` without a limit) and the game's rule: a word, and
    whether bracketed discs are removed (capture)."""

    cells: dict[Cell, str]
    turn: str
    word: str = "osero"
    capture: bool = False
    hands: dict[str, int] | None = field(default=None)

    @classmethod
    def of(cls, board: Board, word: str = "osero", capture: bool = False) -> State:
        text = board.to_string().split()[0]
        cells = {(i // board.cols, i % board.cols): ch for i, ch in enumerate(text)
                 if ch != "#"}
        hands = None
        if board.disc_limit is not None:
            hands = {"X": board.in_hand(BLACK), "O": board.in_hand(BLACK.other)}
        return cls(cells, "X" if board.turn is BLACK else "O", word, capture, hands)

    def bracketed(self, me: str, at: Cell) -> set[Cell]:
        """The discs ``me`` brackets by placing on the empty ``at`` under the word."""
        turned_own = self.word[1:3] == "so"
        closer_own = self.word[3:5] == "ro"
        run_colour = me if turned_own else other(me)
        closer = me if closer_own else other(me)
        found: set[Cell] = set()
        row, col = at
        for dr, dc in DIRECTIONS:
            for k in range(2, 12):  # a closing disc k squares away
                between = [(row + dr * i, col + dc * i) for i in range(1, k)]
                end = (row + dr * k, col + dc * k)
                if self.cells.get(end) == closer and all(
                        self.cells.get(c) == run_colour for c in between):
                    found.update(between)
        return found

    def moves(self, me: str) -> dict[Cell, set[Cell]]:
        """Each legal square of ``me`` with the discs it turns (or takes)."""
        if self.hands is not None and self.hands[me] <= 0:
            return {}
        out = {}
        for at, ch in self.cells.items():
            if ch != "-":
                continue
            discs = self.bracketed(me, at)
            if discs or self.capture:  # capture: anywhere empty, as in Go
                out[at] = discs
        return out

    def play(self, at: Cell | None, discs: set[Cell]) -> State:
        cells = dict(self.cells)
        hands = None if self.hands is None else dict(self.hands)
        if at is not None:
            placed_own = self.word[0] == "o"
            for c in discs:
                cells[c] = "-" if self.capture else other(cells[c])
            cells[at] = self.turn if placed_own else other(self.turn)
            if hands is not None:
                hands[self.turn] -= 1
        return State(cells, other(self.turn), self.word, self.capture, hands)

    def over(self) -> bool:
        return not self.moves(self.turn) and not self.moves(other(self.turn))


def choices(moves: dict[Cell, set[Cell]], rule: str) -> list[tuple[Cell, frozenset[Cell]]]:
    """Every (square, discs turned) under 挟み碁's flip rule ``rule`` (all, one, choose)."""
    import itertools

    out: list[tuple[Cell, frozenset[Cell]]] = []
    for at, discs in moves.items():
        if rule == "all" or not discs:
            out.append((at, frozenset(discs)))
        elif rule == "one":
            out.extend((at, frozenset([d])) for d in discs)
        else:
            out.extend((at, frozenset(pick)) for k in range(1, len(discs) + 1)
                       for pick in itertools.combinations(sorted(discs), k))
    return out


def perft(state: State, depth: int, rule: str = "all") -> int:
    """Leaves ``depth`` plies ahead: a pass is a ply, a finished game one leaf."""
    if depth == 0 or state.over():
        return 1
    moves = state.moves(state.turn)
    if not moves:
        return perft(state.play(None, set()), depth - 1, rule)
    return sum(perft(state.play(at, set(discs)), depth - 1, rule)
               for at, discs in choices(moves, rule))


def name(cell: Cell) -> str:
    return f"{'abcdefghij'[cell[1]]}{cell[0] + 1}"


def named(moves: dict[Cell, set[Cell]]) -> dict[str, set[str]]:
    return {name(at): {name(c) for c in discs} for at, discs in moves.items()}
