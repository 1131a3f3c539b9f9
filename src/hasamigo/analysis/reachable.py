"""Cheap, sound checks that a set-up position cannot be reached from its board's start.

A set-up position (the board editor's) may be anything; :func:`unreachable_flags` names
the reasons, among a few it can tell at a glance, why no game from the variant's start
could have led to it. Each check is **sound**: a flag is a proof that the position is
unreachable. None is **complete**: a position without a flag may still be unreachable
("not flagged" proves nothing). What is checked, for a board whose start has discs (the
cross or the parallel start; the original empty-centre start is not checked):

* ``start_square_empty``: a square holding a disc at the start is empty. Discs are put on
  the board and flipped, never taken off, so a square once occupied stays occupied.
* ``too_few_discs``: fewer discs than the start has (4). Implied by the first; said on its
  own because it is the plainer message. No flag counts *more* discs: every move puts
  exactly one disc on the board and a pass puts none, so any count from the start's up to
  the board's squares is what some number of moves leaves, and the side to move cannot be
  told from the count, since passes change it.
* ``disconnected`` (flip rules only): a disc that no chain of neighbouring discs (the
  eight directions) joins to the start's discs. A move flips along a line from the square
  it is played on, so that square's neighbour on the line holds a disc: every disc placed
  touches one already there. Not checked under Nip's rule (a blocked side places anywhere)
  nor on boards with rings.
* ``last_turn`` (flip rules only): the side not to move has fewer than two discs yet has a
  move here. Its last turn was a move, which leaves the mover at least two discs (the one
  placed and one flipped), or a pass, which it may make only with no move, on this very
  board (a pass changes nothing else); or no turn was taken yet, and the start gives each
  side two discs.
"""

from __future__ import annotations

from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.move import BLACK
from hasamigo.squares import Bitboard, bits

#: the codes :func:`unreachable_flags` may give, in the order it gives them
CODES = ("start_square_empty", "too_few_discs", "disconnected", "last_turn")


@dataclass(frozen=True, slots=True)
class Flag:
    """A proof that the position is unreachable, in English and Japanese, with the
    squares it is about."""

    code: str  # one of CODES
    en: str
    ja: str
    squares: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "text": self.en, "text_ja": self.ja,
                "squares": list(self.squares)}


def _names(board: Board, mask: Bitboard) -> tuple[str, ...]:
    return tuple(board.square_name(sq) for sq in bits(mask))


def _grow(board: Board, seed: Bitboard, within: Bitboard) -> Bitboard:
    """The squares of ``within`` joined to ``seed`` by chains of neighbours (8 directions)."""
    reached, frontier = seed & within, seed & within
    while frontier:
        grown = 0
        for sq in bits(frontier):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    near = board.step(sq, dr, dc) if dr or dc else None
                    if near is not None:
                        grown |= 1 << near
        frontier = grown & within & ~reached
        reached |= frontier
    return reached


def unreachable_flags(board: Board) -> list[Flag]:
    """Why ``board`` cannot arise in a game from its variant's start, as far as the cheap
    checks of this module tell (empty: nothing found, which proves nothing)."""
    if board.start == "original":
        return []
    start = type(board)(start=board.start)
    if not start.occupied:
        return []
    flags: list[Flag] = []
    start_discs = start.occupied
    missing = start_discs & ~board.occupied
    if missing:
        names = _names(board, missing)
        flags.append(Flag(
            "start_square_empty",
            f"{', '.join(names)} {'is' if len(names) == 1 else 'are'} empty, but "
            f"{'it holds' if len(names) == 1 else 'they hold'} a disc from the start on: "
            "discs are never taken off the board.",
            f"{'、'.join(names)}が空いているが、初期配置から石があるマスで、石は盤から"
            "取り除かれない。", names))
    count, needed = board.occupied.bit_count(), start_discs.bit_count()
    if count < needed:
        flags.append(Flag(
            "too_few_discs",
            f"{count} disc{'s' * (count != 1)} on the board: a game has at least the "
            f"{needed} of the start.",
            f"盤上の石は{count}個。対局中は初期配置の{needed}個より減らない。"))
    if not board.rules.supports("adjacent_growth"):
        return flags
    joined = _grow(board, start_discs & board.occupied, board.occupied)
    apart = board.occupied & ~joined
    if apart and not missing:
        names = _names(board, apart)
        flags.append(Flag(
            "disconnected",
            f"No chain of neighbouring discs joins {', '.join(names)} to the centre: "
            "every disc is played next to one already there.",
            f"{'、'.join(names)}は中央の石と隣り合う石でつながっていない。石は必ず既にある"
            "石の隣に打たれる。", names))
    other = board.turn.other
    if board.discs(other).bit_count() < 2 and board.moves_mask(other):
        en, ja = ("Black", "黒") if other is BLACK else ("White", "白")
        flags.append(Flag(
            "last_turn",
            f"{en}, not to move, has {board.discs(other).bit_count()} disc and a move: "
            f"{en}'s last turn can have been neither a move (it leaves the mover two discs "
            "at least) nor a pass (allowed only without a move).",
            f"手番でない{ja}の石が{board.discs(other).bit_count()}個で、しかも打てる手がある。"
            f"{ja}の直前の手番は着手(打った側に2個以上残る)でもパス(打てる手がないときだけ)"
            "でもありえない。"))
    return flags


__all__ = ["CODES", "Flag", "unreachable_flags"]
