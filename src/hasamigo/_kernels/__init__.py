"""Compiled kernels on ``(player, opponent)`` uint64 bitboard pairs.

Only :mod:`hasamigo.board` and :mod:`hasamigo.engine` import from here, and the front ends
import :mod:`.warm` (it compiles the kernels before they time or serve anything). Every
kernel works relative to the side to move (a pass is a swap of the pair); colours are
absolute only above this layer.

Bit ``i`` is square ``i`` with ``a1 = 0``, ``b1 = 1``, ..., ``h8 = 63`` (index = row*8+col).
A *geometry mask* marks the playable squares; a kernel that must know which empty
squares exist takes it, so one kernel serves 8×8, 6×6, 4×4 and any shape within 8×8.
"""
