"""Kernels for fitting the pattern evaluation: replaying game records into positions and
the sparse products of a least-squares fit (:mod:`hasamigo.engine.training`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import FULL, ONE, U64, ZERO, popcount, transpose
from hasamigo._kernels.config import NJIT
from hasamigo._kernels.evaluate import evaluate
from hasamigo._kernels.moves import flips, legal_moves

# replay_games status codes, one per game
REPLAYED = 0
ILLEGAL = 1  # a move was not legal (the game is left out)
UNFINISHED = 2  # the record stops before the end of the game (left out)


@njit(**NJIT)
def replay_games(black, white, moves, starts, out_p, out_o, out_empties, out_black, out_game,
                 final, status):  # type: ignore[no-untyped-def]
    """Replay each game ``g`` (squares ``moves[starts[g]:starts[g + 1]]``, passes implied)
    from ``(black, white)``; write every position before a move as ``(p, o)`` of the side
    to move with its empties, ``out_black`` 1 when Black is to move, and its game.

    ``final[g]`` gets Black's official disc difference (empties to the winner) and
    ``status[g]`` a code; positions of a game that is not ``REPLAYED`` are not kept.
    Returns the number of positions written."""
    n = 0
    for g in range(starts.shape[0] - 1):
        p = U64(black)
        o = U64(white)
        black_to_move = True
        first = n
        status[g] = REPLAYED
        for k in range(starts[g], starts[g + 1]):
            sq = moves[k]
            if legal_moves(p, o, FULL) == ZERO:
                p, o = o, p
                black_to_move = not black_to_move
            f = flips(p, o, sq)
            bit = ONE << U64(sq)
            if f == ZERO or (p | o) & bit:
                status[g] = ILLEGAL
                break
            out_p[n] = p
            out_o[n] = o
            out_empties[n] = 64 - popcount(p | o)
            out_black[n] = 1 if black_to_move else 0
            out_game[n] = g
            n += 1
            p, o = o ^ f, p ^ f ^ bit
            black_to_move = not black_to_move
        if status[g] == REPLAYED and (legal_moves(p, o, FULL) != ZERO
                                      or legal_moves(o, p, FULL) != ZERO):
            status[g] = UNFINISHED
        if status[g] != REPLAYED:
            n = first
            continue
        b = p if black_to_move else o
        w = o if black_to_move else p
        d = popcount(b) - popcount(w)
        e = 64 - popcount(b | w)
        final[g] = d + e if d > 0 else (d - e if d < 0 else 0)
    return n


@njit(**NJIT)
def sparse_dot(idx, w, out):  # type: ignore[no-untyped-def]
    """``out[i] = sum(w[idx[i, j]] for j)``: the predictions of a linear pattern model."""
    for i in range(idx.shape[0]):
        s = 0.0
        for j in range(idx.shape[1]):
            s += w[idx[i, j]]
        out[i] = s


@njit(**NJIT)
def sparse_dot_t(idx, r, out):  # type: ignore[no-untyped-def]
    """``out[k] = sum(r[i] for i, j with idx[i, j] == k)``: the transposed product."""
    out[:] = 0.0
    for i in range(idx.shape[0]):
        v = r[i]
        for j in range(idx.shape[1]):
            out[idx[i, j]] += v


@njit(**NJIT)
def transpose_all(xs):  # type: ignore[no-untyped-def]
    """Each board of ``xs`` mirrored in the a1-h8 diagonal."""
    out = np.empty_like(xs)
    for i in range(xs.shape[0]):
        out[i] = transpose(xs[i])
    return out


@njit(**NJIT)
def evaluate_all(ps, os, mask, params):  # type: ignore[no-untyped-def]
    """The static evaluation of each ``(ps[i], os[i])`` (side to move, discs)."""
    out = np.empty(ps.shape[0], dtype=np.int64)
    for i in range(ps.shape[0]):
        out[i] = evaluate(ps[i], os[i], U64(mask), params)
    return out


__all__ = [
    "ILLEGAL",
    "REPLAYED",
    "UNFINISHED",
    "evaluate_all",
    "replay_games",
    "sparse_dot",
    "sparse_dot_t",
    "transpose_all",
]
