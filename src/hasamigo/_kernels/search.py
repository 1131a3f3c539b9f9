"""Midgame search and exact endgame solver: one iterative PVS kernel with a hash table.

``search`` scores ``(p, o)`` to ``depth`` plies with principal-variation search (negascout),
fail-soft, the transposition table of :mod:`hasamigo._kernels.hashtable` and move ordering:
the table's move first, then

* exact nodes (``depth >= empties``): fastest first (fewest opponent replies, corner replies
  counted twice), odd quadrants breaking ties; plus, from ``EVAL_ORDER_EMPTIES`` empties,
  the child's potential mobility (``POTENTIAL_WEIGHT``) and static evaluation, from
  ``SEARCH_ORDER_EMPTIES`` its one-ply search score (its best reply by the evaluation) and
  from ``SEARCH2_ORDER_EMPTIES`` a two-ply alpha-beta score;
* midgame nodes 3+ plies from the horizon: the static evaluation of each child;
* nodes nearer the horizon: mobility only.

Where ``depth >= empties`` the search is exact and hands over to the solvers of
:mod:`hasamigo._kernels.endgame` (null windows at 7 empties or fewer, any window at 4),
so the same kernel is the midgame search and the endgame solver, sharing one table.
A pass costs no depth. At depth 0 the kernel calls ``evaluate_at`` (disc units), inlined;
the move ordering calls ``evaluate_call``, compiled once (see :mod:`.config` on compile time).
A midgame node one ply from the horizon scores its children in one loop (``_search1``), not
a frame each; and a null-window node two plies from it, once its moves are ordered,
searches its children that way in one loop too (``_search2``; if a child must pass, the
frames search them): the same tree, midgame depth 12 in 0.97x the time (32 rounds, the
two trees at once on the two cores, swapped each round).
On a full board under trained pattern weights (``pat``), a node that scores its children
(the ordering, one ply from the horizon) scores them from its pattern indices
(``evaluate_vector``; :mod:`hasamigo._kernels.patterns`), not from their boards: the same
scores, about a quarter cheaper each. The root reads its indices from the board; each
frame that needs them (every midgame node, exact ones from ``EVAL_ORDER_EMPTIES``) has
them from its parent's and the move (``fpat``, ``_child_vectors``). FFO #20-#39: the same
134,612,277 nodes, 3 % faster; midgame depth 12: the same 42,015,913 nodes, 9.2 -> 10.2 M
nodes/s with the indices carried down, 8.4 M before the change (side by side).
The helpers take no arrays: the table, the frames' rows and the evaluation's weights reach
them as pointers and addresses (:mod:`hasamigo._kernels.memory`: an array would cost two
atomic reference counts at every call).
Work the ordering already did is not done twice: each move's flips (played from the frame)
and, where it counted them, the child's own moves (the child does not generate them
again); and it asks the processor for each child's table bucket while it computes the
child (where the child probes the table), so that the probe, soon after, finds it in the
cache. A miss costs about 170 ns on the 2-core VM of the figures; a node, 40 on average.
Nor is work done that a cutoff makes useless: a node with a table move searches it first,
alone, and orders the other moves only if it did not cut (``forder``). The order and the
tree are the same; midgame depth 12: 3 % faster. Not at exact nodes below
``EVAL_ORDER_EMPTIES``: their ordering is cheap and asks for the children's table buckets
while it works, whereas the table move's child, searched at once, found its bucket cold
(FFO #42-#50, the same tree, side by side: 1-7 % faster with the ordering first, 3
rounds). And a null-window exact node of ``SHALLOW_MAX + 1`` empties, whose children the
solvers answer at once, is searched without a frame (``_null_node``: its table, ordering and
children in one call, the children in one loop, ``_node_children``), and so is one of an
empty more (``_null_node9``, over ``_null_node``): the same tree. The children in one loop
instead of a frame each was 1-2 % faster; the 8 empties node without a frame 1 % more, the
9 empties one another 1 % (FFO #40-#52, pairs on a noisy 2-core machine: 0.989-0.991x, then
0.978-0.981x). The same for 10 and 11 empties (with the enhanced transposition cutoff)
measured 0.983-1.008x and cost 80 s more compile time: not kept. Nor were two changes to
the tree at 8-11 empties: no table at 8 empties (the 9 empties node's prefetches moved up
with it) gave FFO #40-#44, #47-#49 827 M nodes against 759 M, 1.03-1.06x the time; the
child's potential mobility in the ordering (its side's and ours, weight 1 each, with
mobility's 4) 1.8 % fewer nodes on #40-#52 but 1.00-1.01x the time (it costs what it saves
there; from 12 empties up it pays, see ``POTENTIAL_WEIGHT``).
Two uses of the table in the ordering changed almost nothing, so neither is kept: a second
move per row (the best of the row's earlier search, ordered second, as Edax and Egaroucid
keep one) searched FFO #20-#39 in 122,528,853 nodes against 122,527,559, and #45, #48, #49,
#51, #52 in 1,438,966,481 against 1,438,968,068; keeping each child's estimate at exact
nodes from 12 empties inside the bounds an earlier pass stored for it searched those five
in 1,437 M nodes against 1,439 M (and probed the table once more a child).

Cutoffs before a node's moves are searched: the table's bounds; at exact nodes the
*stability cutoff* (the opponent's stable discs, :mod:`hasamigo._kernels.stability`, cap
the score: at or below alpha, return that cap); and the *enhanced transposition cutoff*
(a child's stored upper bound already refutes the node: return its negation).

*Selective passes* (``ctl[PROBCUT] = k > 0``): exact nodes from ``PROBCUT_MIN_EMPTIES``
empties whose one-ply score lies far enough outside the window (``PROBCUT_T[k - 1]``
standard deviations of that score's error) return the bound without a search. Such a
pass is not exact; its table rows carry confidence level ``k - 1`` (an exact search's
carry ``FULL_LEVEL``), so only passes at that confidence or lower trust their bounds,
while every pass uses their moves. The engine runs them before an exact solve of many
empties to fill the table with good moves and a close first window. The same level makes
*probable cuts at midgame nodes* (``MPC_*`` below): a null-window node whose shallow search
lies far enough outside the window returns the bound (``Engine.analyse(selectivity=k)``).

What Edax and Egaroucid do that we do not (their published sources, read for the facts; each
item with what we measured, FFO nodes from ``benchmarks/ffo.py``; "#49-#53" is those five in
one engine, 3,675 M nodes):

* *A second table move* (the best move of the row's earlier search, both engines): tried,
  the same nodes (above).
* *Sort moves by a deeper shallow search where many empties are left.* Edax sorts a node of
  ``d`` empties by a search of each child ``(d - 15) / 3`` plies deep (one more from 27
  empties, two fewer when the table's upper bound is below alpha, at most 6), with the table,
  cut below alpha - 8; Egaroucid by a search with probable cuts, in a window of 10 discs
  below alpha to 3 above beta. Ours: the two-ply sort from 18 empties. Three- and four-ply
  sorts (evaluation at the leaves, no table) measured in issue 54 (beside
  ``SEARCH2_ORDER_EMPTIES``): fewer nodes, more time. A three-ply sort with the cheaper
  evaluation at its leaves (the parent's pattern indices), Edax's cut below alpha - 8 and
  only at nodes with no table move: up to 13 % fewer nodes in the same time (there). Not
  kept; with the table and probable cuts inside them, not tried.
* *Weigh mobility against the shallow score as Edax does* (one move of the child's,
  corners twice, as much as one disc of a three-ply-or-deeper score; ours 4 discs a move):
  measured with the deeper sorts, their score weighed twice (beside
  ``SEARCH2_ORDER_EMPTIES``).
* *Corner and edge stability in the sort* (Edax): corner stability measured, more nodes
  (``POTENTIAL_WEIGHT``). Edge stability not tried.
* *A bonus for a child already in the table* (Edax, at sort depths of 3 or more): not tried.
* *Egaroucid's own trained evaluation for the endgame's move ordering* (small patterns,
  trained to predict the best move rather than the score): not tried (no training data
  for it here).
* *Probable cuts at exact nodes tested by a deeper search* (both: a shallow search of
  about a quarter of the empties, with its own error model): measured by
  ``benchmarks/probcut_end.py``: #45, #49, #50 2.76 G -> 2.04 G nodes, but #40-#55 as
  many nodes in more time. Not used.
* *More selective passes* (Edax: 73, 87, 95, 98, 99 % then exact; Egaroucid about the
  same): a fifth at 3.3 sigma measured, more nodes (``SELECTIVE_EMPTIES`` in
  :mod:`hasamigo.engine.core`); fewer measured in issue 54, more nodes too (there).
* *Midgame iterative deepening before the solve* (Edax deepens with selectivity up to
  the endgame): our presearch stops at 6 plies; 8 and 12 measured, no fewer nodes
  (``PRESEARCH_DEPTH``).
* *A larger table* (both size theirs to the memory given): 2^24 rows instead of the
  benchmark's 2^22: #53 2,030 M nodes against 2,092 M (3 %).
* *Parallel search inside the tree* (both: YBWC): ours is ABDADA, this kernel deferring
  the moves other threads are searching (``USE_DEFER``, below), issue 54.
* *Vector instructions* for flips and the last empties' counts (Edax's SSE/AVX builds,
  Egaroucid's AVX2): numba gives no portable access to them; not tried.

Issue 63, the exact tree in nodes (``benchmarks/ffo.py``, one thread, table 2^22; the CPU
ratios from pairs of whole runs, ``ffo.py --only-40-59 --positions 45,46,48``, on a loaded
2-core machine). Kept: the 7 empties solver tries its moves *fastest first* (the fewest
opponent replies, parity breaking ties; :mod:`hasamigo._kernels.endgame`), as Edax and
Egaroucid order their exact nodes, where ours tried the squares by parity and a fixed
preference. Nodes before -> after, every position fewer:

    #20 45 -> 45            #27 2.64 M -> 2.42 M    #34 7.43 M -> 5.72 M    #41 26.1 M -> 22.3 M
    #21 367 k -> 305 k      #28 12.14 M -> 9.64 M   #35 2.56 M -> 2.23 M    #42 29.4 M -> 24.1 M
    #22 451 k -> 420 k      #29 1.20 M -> 1.02 M    #36 9.29 M -> 7.61 M    #43 16.4 M -> 13.7 M
    #23 619 k -> 507 k      #30 2.19 M -> 1.82 M    #37 22.86 M -> 20.94 M  #44 12.0 M -> 10.9 M
    #24 2.09 M -> 1.86 M    #31 2.25 M -> 1.98 M    #38 33.81 M -> 29.15 M  #45 349.1 M -> 270.9 M
    #25 3.19 M -> 3.11 M    #32 6.63 M -> 6.29 M    #39 167 k -> 153 k      #46 41.1 M -> 38.9 M
    #26 8.06 M -> 6.39 M    #33 12.68 M -> 11.71 M  #40 24.6 M -> 19.9 M    #47 22.2 M -> 19.5 M
                                                                            #48 126.2 M -> 121.6 M
    #20-#39 130.62 M -> 113.27 M (0.867x); #40-#48 and #59 750.4 M -> 637.2 M (0.849x);
    #59 103.35 M -> 95.34 M. CPU 0.99x (4 pairs, 0.93-1.05). #40-#59 whole: 21.99 G ->
    18.90 G nodes (#49 237.8 M, #50 603.6 M, #51 217.3 M, #52 191.4 M, #53 1,865.9 M,
    #54 3,268.1 M, #55 8,313.3 M, #56 871.6 M, #57 1,319.2 M, #58 1,377.0 M), every
    score right.

Tried in the same issue, not kept:

* *Fastest first at 6 empties too*: #20-#39 103.76 M nodes, #40-#48 and #59 601.0 M (#45
  266.4 M, #46 32.8 M, #48 106.4 M, #59 90.9 M), but 1.045x the CPU (5 pairs, 1.01-1.11;
  again on a quieter machine, 1.016x, 0.98-1.06):
  the keys (each child's moves) cost more there than the nodes they save.
* *Corners counted twice in the 7 empties key* (as the search's exact ordering does):
  #20-#39 112.22 M against 113.27 M, one popcount more a move; not worth it.
* *SELECTIVE_EMPTIES* (:mod:`hasamigo.engine.core`) 20, 21, 22 instead of 18, before the
  change above: #20-#39 130.19 M, 126.68 M, 138.17 M against 130.62 M; after it, 21:
  110.56 M against 113.27 M and #40-#48, #59 632.1 M against 637.2 M, the CPU the same
  (0.99-1.00x). Each position moves by up to 50 % either way (#27 +58 %, #28 -30 % at
  21): a shuffle of the order, not a better one. Not kept.
* *#59* (34 empties, a wipeout, +64; Egaroucid 5.9 M nodes, Edax 0.96 M): its nodes are
  the selective passes' (before the change: 3.4 M at the first level, 3.9 M at the
  second, 56.8 M at the third and 39.3 M at the fourth, the window (61, 63) around their
  guess of 62), the exact pass 1,645 (a null window at 63, the table ordered by them).
  Without the passes the exact pass proves +64 in 32.1 M from a cold table. The probable
  cuts at exact nodes take the evaluation's one-ply score, which cannot see a wipeout
  (38 at #59's root), as evidence about scores near 64. Tried: no probable cut whose
  bound lies beyond 48 discs (the cut low only below 48, the cut high only above -48):
  #59 32.1 M, but #39 (+64 too) 18.4 M against 167 k (its first pass then proves +64
  with no cut, as cold as #59's exact one); the cut low alone so bounded: #59 114.5 M;
  the cut high alone: #59 301.5 M, #39 1.39 M. Sorting for the wipeout (where the node
  must score 48 or more, the opponent's discs after the move, 4 each, in the exact key):
  #39 69 k, #59 223 M (with the bounded cuts 1.80 G: the move flipping the most gives the
  opponent the most replies). A deeper presearch (``PRESEARCH_DEPTH`` 8, 10, 12): #59
  103.36 M each time (its table is its own; only the root's order changes), #45 372 M,
  353 M, 355 M against 349 M. Fewer selective passes (the first 1, 2 or 3 levels): #59
  348 M, 338 M, 394 M; #45 725 M, 324 M, 321 M; #48 168 M, 167 M, 144 M. What #59 lacks
  is a midgame search deep enough to meet the wipeout inside its horizon (Edax deepens
  with selectivity towards the end before solving; our presearch stops at 6 plies), or an
  evaluation that orders wipeouts: not found in this issue's time.
* *An evaluation trained on the project's own exact labels* (``hasamigo corpus train``: a
  correction to eval-v2, ridge 30, fitted on 31,400 exact scores at 10-22 empties, 30,000
  of them nodes of the engine's own 8-ply searches): on held-out positions its mean
  absolute error at 9-12, 13-16 and 17-20 empties is 6.39, 6.71 and 7.26 discs against
  eval-v2's 7.03, 7.23 and 8.54, yet FFO #20-#39 took 113.20 M nodes against 113.27 M
  (ridge 10: 120.9 M; 100: 112.4 M), each position moving by up to 30 % either way (#37
  17.5 M against 20.9 M, #34 7.3 M against 5.7 M), and #40-#48 586.2 M against 541.8 M
  (#41 15.8 M against 22.3 M, #48 176.4 M against 121.6 M). A smaller error of the
  position's score does not order the exact nodes better: there the mobility term (4
  discs a move) and the table rank the siblings, and an error of 6-8 discs on a score
  says little about which of two siblings is better. Nor does it play better: engine:6
  with it against engine:6 with eval-v2, 200 XOT games, colours swapped, scored 44.0 %
  (79-18-103, Elo -42, 95 % -89 to +4); fitted on 10-18 empties only, 43.75 %. Not
  shipped: an evaluation is chosen by its games and its tree, not its error.

*Deferred moves* (``USE_DEFER``: the threads of a parallel search, ABDADA in
:mod:`hasamigo.engine.parallel`; not a flag of one thread's search): at a frame of
``DEFER_MIN_EMPTIES`` empties or more (exact) or ``DEFER_MIN_DEPTH`` plies or more from
the horizon, a move after the node's first whose child another thread has marked
(:func:`~hasamigo._kernels.hashtable.hash_busy`) is passed over and searched after the
node's other moves; the move being searched is marked until its score is final (after a
re-search, if any), then unmarked, and so are the marks of a stopped search (the engine
stops its last iteration at every timed move: a mark left behind would defer that move in
the searches after it). Measured with two threads (single runs on a 2-core VM,
noisy): midgame depth 14 full width (5 positions; one thread 18.8-19.2 s) 10.6 s with
``DEFER_MIN_DEPTH`` 3, 12.3 s with 4, 10.1 s with 6, 9.8 s with 8; a selective depth 15
(30 positions, selectivity 3; one thread 5.9 s) 4.1, 4.0, 3.5 and 4.2 s; FFO #41, #45,
#49, #52 with ``DEFER_MIN_EMPTIES`` 10, 12 and 15: 12.2, 12.7 and 12.2 s (one thread
21.7 s), within noise. Kept: 6 and 12.

Iterative with an explicit stack of frames (recursive cached kernels crashed, numba
#6061). No wall clock: every 1024 nodes it polls ``stop[0]`` (set from Python) and the
node budget ``ctl[LIMIT]``; when either trips it sets ``ctl[ABORTED]`` and returns 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import CORNERS, ONE, U64, ZERO, lowest_square, popcount
from hasamigo._kernels.bits import FULL as FULL_BOARD
from hasamigo._kernels.config import NJIT, NJIT_INLINE, NJIT_LLVM_INLINE
from hasamigo._kernels.endgame import SHALLOW_MAX, final_score, odd_quadrants, solve_small
from hasamigo._kernels.evaluate import (
    HAND_SIZE,
    evaluate_at,
    evaluate_call,
    evaluate_vector,
    neighbours,
)
from hasamigo._kernels.hashtable import (
    FULL_LEVEL,
    entry_depth,
    entry_level,
    entry_lower,
    entry_move,
    entry_upper,
    hash_busy,
    hash_mark,
    hash_prefetch,
    hash_probe,
    hash_store,
    hash_unmark,
)
from hasamigo._kernels.memory import as_int32, at, data_pointer
from hasamigo._kernels.moves import flips, legal_moves
from hasamigo._kernels.patterns import (
    N_INSTANCES,
    child_vector,
    copy_vector,
    pattern_vectors,
    weights_address,
)
from hasamigo._kernels.stability import stable_discs

# ctl array slots (int64): node budget and probable-cut level in, counters and the abort
# flag out
LIMIT = 0
NODES = 1
ABORTED = 2
PROBCUT = 3  # 0: an exact search; k in 1..len(PROBCUT_T): selective cuts at confidence k
CTL_SIZE = 4

# flags: switches for tests (every feature on in play)
USE_HASH = 1
USE_ORDER = 2
USE_STABILITY = 4
USE_ETC = 8
ALL_FLAGS = USE_HASH | USE_ORDER | USE_STABILITY | USE_ETC
# a parallel search's threads (not a feature of one thread's search): a node's moves after
# its first that another thread is searching now (marked in the table) are deferred to
# the end of its list (ABDADA, see hasamigo.engine.parallel), at exact nodes of
# DEFER_MIN_EMPTIES empties or more and midgame nodes DEFER_MIN_DEPTH plies or more from
# the horizon
USE_DEFER = 16
DEFER_MIN_EMPTIES = 12
DEFER_MIN_DEPTH = 6

# midgame nodes this near the horizon skip the table (a probe is a cache miss): depth-10
# benchmark 0.82 -> 0.43 cpu s, 4.1 -> 6.0 M nodes/s (3 gave the same time, more nodes);
# exact nodes always use it
HASH_MIN_DEPTH = 3
# Measurements below: FFO #20-#39 (benchmarks/ffo.py), nodes are exact, cpu s are noisy
# (+-10 %: a shared 2-core machine). "Subset" is #26, #33, #36, #37, #38.
# Exact nodes with this many empties or more also sort by the evaluation of the child
# (808 M -> 608 M nodes, 48 -> 39 cpu s); from SEARCH_ORDER_EMPTIES by a one-ply search of
# it instead. Subset (ETC at 12): without 428.0 M nodes (stability at 8); 16: 369.3 M,
# 23.8 cpu s; 14: 361.1 M, 22.3 s; 12: 335.2 M, 21.3 s (#38 254 M -> 177 M); 10: 331.1 M,
# 26.4 s.
#
# With the trained evaluation (FFO #20-#39, 2-ply sort from SEARCH2_ORDER_EMPTIES, else as
# named): one-ply sort from 12 empties 159.2 M nodes, 14.3 s; 10: 146.5 M, 15.8 s; 15:
# 167.3 M, 12.2 s; then the two-ply sort from 16: 158.6 M, 11.9 s; 18: 162.2 M, 10.6 s;
# 21: 173.0 M, 11.7 s. Mobility weighs MOBILITY_WEIGHT discs a move (2: 176.1 M nodes;
# 4: 159.2 M; 8: 183.6 M).
# Measured again on bigger trees (FFO #40-#45, #47-#49, #51, #52, #56 in one run, 2,635 M
# nodes; pairs against 18/12/15, one core each, cores swapped): two-ply sort from 17 empties
# 2,565 M nodes, 1.048x and 1.006x the time; from 19, 2,686 M, 0.978x and 1.023x; the
# evaluation sort from 13, 2,710 M, 1.004x and 0.990x; the one-ply sort from 16, 2,714 M,
# 1.030x and 0.968x. Flat: none kept.
EVAL_ORDER_EMPTIES = 12
SEARCH_ORDER_EMPTIES = 15
# Where #53 and #55 spend their nodes (issue 54; the root's searches, ``_root``, one by one):
# #53 (28 empties) 13.5 M in the first pass, 128 M in the second, 331 M in the third (three
# windows: 214 M, 63 M, 54 M), 416 M in the fourth, 1,203 M in the exact one: 2,092 M; #55
# (29 empties) 10 M, 135 M, 1,562 M (1,240 M, 276 M, 46 M), 1,302 M, 6,311 M: 9,321 M. So
# the selective passes are a third of the nodes, but each pass makes the next smaller:
# without the fourth, #53 searched 2,123 M (the exact pass 1,650 M); the second and
# fourth only, 2,191 M. The exact pass's one window, around the last pass's score, held
# on both. Nor does the table limit them: 2^24 rows instead of the benchmark's 2^22, #53
# 2,030 M nodes.
SEARCH2_ORDER_EMPTIES = 18
MOBILITY_WEIGHT = 4
# Where an exact solve's nodes are (issue 54; #53, 28 empties, an instrumented copy counting
# the nodes entered by their empties): of the exact pass's 1,203 M, 1,124 M are the shallow
# solvers' (7 empties or fewer), 48.6 M the frameless nodes of 8-9 empties, 11.2 M the frames
# of 9 or fewer otherwise, and only 19.8 M the frames of 10 or more (8.8 M at 10, 3.3 M at
# 12, 0.29 M at 16, 11 k at 20, 92 at 27); each empty more, about 2-2.5 times fewer nodes.
# So the time is in the last ten empties, and what shrinks it is a better order above them,
# where a node's sort costs little beside the tree below it.
# Deeper sorts, as Edax's sort deepens with the empties (issue 54, not kept): from a first
# count of empties an exact node sorted its moves by a three-ply alpha-beta search of each
# child (the static evaluation at its leaves, no table) instead of the two-ply one, from a
# second by a four-ply one; their score weighed twice the shallower sorts' (Edax weighs one
# move of mobility as one disc of such a score, ours 4) and, with a delta, the child's
# search stopped once the move fell that many discs below the node's alpha (Edax's cut, at
# 8: the moves below it need no order among themselves). FFO #49-#53 in one engine
# (3,675 M nodes, 131 cpu s with the two-ply sort alone; the runs below in pairs on a loaded 2-core
# machine, so their seconds compare only with each other):
#   sort plies 3/4 from  delta  weight   nodes     cpu s
#   24 / 27              8      1        3,676 M   146.1
#   22 / 26              -      2        3,447 M   140.7
#   22 / 26              8      2        3,444 M   148.5
#   20 / 24              -      2        3,131 M   149.1
#   20 / 24              8      2        3,140 M   138.7
#   18 / 22              -      2        2,728 M   169.3
# and on a quiet machine (wall = cpu): 18 / 22, 8, 2: 2,741 M, 147.0 s; 19 / 23, 8, 2:
# 2,892 M, 147.9 s (#53: 1,303 M nodes and 74.7 s, 1,391 M and 71.5 s, against 2,092 M and
# 73.5 s): the deeper the sort, the fewer the nodes, but the sort costs what it saves (its
# evaluation reads every pattern of every leaf; 11-17 M nodes/s against 25-35). Three plies
# from 21 empties with a full window and weight 1: #45 alone 366.6 M nodes against 349.1 M.
# 20 / 24, 8, 2 side by side against the two-ply sort (one core each): #53 1,568 M nodes,
# 75.5 s against 2,092 M, 87.9 s; #54 3,502 M, 143.1 s against 4,131 M, 146.8 s; on #49-#52
# as many nodes (1,555 M against 1,583 M) at a higher cost. But #40-#59 whole (ffo.py, one
# thread): #55 7,357 M nodes against 9,321 M in 466.6 s against 345-453 s (15.8 M nodes/s:
# its four-ply sorts at 24-29 empties), #40-#54 302.3 s against 307.0 s. Not kept: a
# cheaper sort (the table inside it, the children scored from their parent's pattern
# indices as the two-ply sort does) might keep the nodes and lose the cost.
# The cheaper sort, tried (issue 54, not kept): a three-ply alpha-beta sort scoring every
# leaf from its parent's pattern indices, as the two-ply sort does, its score weighed twice.
# FFO #45, #47-#53 in one engine (4,172 M nodes one-thread; new and old at once on the two
# cores, so the seconds compare only within a row):
#   three-ply sort                                       nodes      cpu s (old)
#   from 20 empties, at every sorted node                3,889 M    119.1 (116.4)
#   from 20, only at nodes the table has no move for     3,817 M    118.2 (117.7), 112.8 (112.6)
#     ... the two-ply sort too only there (else one-ply)  3,865 M    (alone: 122.0)
#   from 18, only there                                  3,630 M    (alone: 140.0)
#   from 20, only there, each child's sort cut once the move falls 8 discs below alpha
#     (Edax's cut)                                       3,820 M    112.3 (113.5)
#     ... and the two-ply sort cut the same way          3,822 M    111.3 (110.5)
#   from 22, only there, both cut                        4,010 M    112.3 (114.3)
# A node whose table move did not cut (the table keeps a move at fail-low nodes too) is
# mostly an all-node, where the order saves nothing: its deep sort added nodes. Where the
# deep sort pays, it saves up to 13 % of the nodes, but the time stays the same (0.98-1.01x):
# the nodes per second fall as much (the sort's own cost, or the saved nodes being the
# cheapest, the last empties'; not told apart).
# Exact nodes from EVAL_ORDER_EMPTIES up also count the child's potential mobility: the
# empties next to the mover's discs, POTENTIAL_WEIGHT each (fewer is better for the mover).
# FFO #40-#59 (ffo.py, one engine, the two trees at once on the two cores): 23,541 M nodes,
# 877.4 cpu s without it; 21,990 M nodes, 779.0 s with it (#55: 10,061 M, 412.6 s against
# 9,320 M, 345.7 s). Below EVAL_ORDER_EMPTIES it saved no nodes (FFO #45, #48, #49, #51,
# #52: 1,432 M against 1,439 M) and cost its bit operations at every node of 8-11 empties:
# counted there too, #40-#59 took 21,878 M nodes but more time a node. Weight 3 lost half
# the nodes saved (FFO #41-#49, #51, #52: 1,486 M against 1,361 M at weight 1, 1,582 M
# without); Edax's corner stability on top (the mover's corners and the edge squares
# beside its own corners, 4 each) gave 23,956 M on #40-#59.
POTENTIAL_WEIGHT = 1
# Stability cutoff at exact nodes with this many empties or more (only when the opponent
# has few enough discs for the cap to reach alpha). With ETC at 12: off 542.0 M nodes,
# 36.6 s; 12: 541.1 M, 35.0 s; 8: 532.9 M, 34.5 s; 5: 526.8 M, 32.1 s.
STABILITY_MIN_EMPTIES = 5
# Enhanced transposition cutoff at midgame nodes this deep / exact nodes this empty.
# Exact, at 12 (stability at 8): off 597.8 M nodes, 39.9 s; on 532.9 M, 34.5 s.
# Subset: 12: 335.2 M, 21.3 s; 10: 327.4 M, 22.3 s (fewer nodes, the time within noise).
# Its test waits for the children's table buckets (about 170 ns a miss on the 2-core VM):
# at exact nodes of 10-11 empties the move ordering runs before it, while they arrive (FFO
# #40-#59 whole, side by side: 1,041 -> 1,015 cpu s, the same 26.65 G nodes; running it
# first at every node instead cost more on FFO #20-#39 and the midgame).
ETC_MIN_DEPTH = 6
ETC_MIN_EMPTIES = 10
# Probable cuts at exact nodes (selective passes that order the exact one, see
# hasamigo.engine.core): from this many empties, a node whose one-ply search score is
# PROBCUT_T[k-1]/100 standard deviations (sigma = (PROBCUT_SIGMA0 + PROBCUT_SIGMA1 * empties)
# / 100 discs, the spread of that score around the exact one) outside the window is cut.
PROBCUT_MIN_EMPTIES = 12
PROBCUT_T = np.array([100, 150, 200, 260], dtype=np.int64)
PROBCUT_LEVELS = 4
PROBCUT_SIGMA0 = 400
PROBCUT_SIGMA1 = 20
# Probable cuts at midgame nodes (multi-ProbCut, at the confidence levels of PROBCUT_T): a
# null-window node ``d`` plies from the horizon (MPC_MIN_DEPTH or more; not the root, not
# inside another such test; the principal variation's nodes are searched in full) whose
# static evaluation is at or above beta first searches itself ``probcut_depth(d)`` plies
# with a null window at beta + t sigma, and returns beta if that shallow score reaches it;
# one at or below alpha tests alpha - t sigma the same way. sigma (1/100 disc) =
# MPC_SIGMA[d] - MPC_SIGMA_E * empties, at least MPC_SIGMA_MIN (deeper than the table: its
# deepest entry of d's parity): the spread of deep - shallow full-width scores of our own
# search, measured by benchmarks/probcut_fit.py on 500 WTHOR positions at 16-52 empties
# (2010: 300 to depth 11; 2012: 200 to depth 13). It falls with the empties, about 0.05
# disc each, and is widest where the shallow search is shortest (d = 4: the evaluation
# alone). benchmarks/search.py, depth 12 (a loaded 2-core machine): full width 15.6 cpu s,
# 42.0 M nodes; t = 2.0: 1.04 s, 3.3 M nodes; MPC_MIN_DEPTH 5 instead: as fast, less often
# the full-width score (30 positions: 18 the same score, 28 within 2 discs, 26 the same move).
MPC_MIN_DEPTH = 3
MPC_SIGMA = np.array([0, 0, 0, 546, 684, 474, 603, 519, 648, 587, 538, 516, 595, 521],
                     dtype=np.int64)
MPC_SIGMA_E = 5
MPC_SIGMA_MIN = 200
PASS_MOVE = 64
MAX_PLY = 130  # 60 moves and as many passes, with room
MAX_MOVES = 40
INF = 1000
UNKNOWN = ~ZERO  # not a set of legal moves (every square): "not computed"
_POLL = 1023  # poll the stop flag about every 1024 nodes
# int32 pattern indices after the ETC's rows of ``ffl``: three sets of scratch and two per
# frame, in rows of MAX_MOVES uint64
VEC_ROWS = ((3 + 2 * MAX_PLY) * N_INSTANCES + 2 * MAX_MOVES - 1) // (2 * MAX_MOVES)

# which of a frame's pattern indices are known (fpat)
NO_VECTORS = 0
THEIR_VECTORS = 1  # from its opponent's side only (a node one ply from the horizon)
BOTH_VECTORS = 2

# when a frame orders its moves (forder)
ORDERED = 0
ORDER_NOW = 1
ORDER_AFTER = 2  # after its table's move, searched first alone, if that does not cut

# child-search stages of a frame
FULL = 0
SCOUT = 1
RESEARCH = 2
PC_HIGH = 3  # the child is this position's shallow probable-cut test above beta
PC_LOW = 4  # ... below alpha


@njit(**NJIT_INLINE)
def probcut_depth(d):  # type: ignore[no-untyped-def]
    """Plies of the shallow search that tests a midgame node ``d`` plies from the horizon:
    about a fifth of ``d``, rounded to an even number, plus ``d``'s parity (the evaluation's
    odd/even swing then cancels)."""
    return 2 * ((d * 2) // 10) + (d & 1)


@njit(**NJIT_INLINE)
def probcut_margin(k, ne, d):  # type: ignore[no-untyped-def]
    """The midgame probable cut's margin in discs at confidence ``k`` (1..PROBCUT_LEVELS)
    for a node ``d`` plies from the horizon with ``ne`` empties."""
    last = MPC_SIGMA.shape[0] - 1
    if d > last:  # deeper than measured: the deepest entry of d's parity
        d = last - ((d - last) & 1)
    sigma = MPC_SIGMA[d] - MPC_SIGMA_E * ne
    if sigma < MPC_SIGMA_MIN:
        sigma = np.int64(MPC_SIGMA_MIN)
    return (PROBCUT_T[k - 1] * sigma + 5000) // 10000


@njit(**NJIT_LLVM_INLINE)
def _child_score(p, o, sq, f, mask, w, nw, pat, vy, vc):  # type: ignore[no-untyped-def]
    """The static evaluation of ``(p, o)``'s child after ``sq`` (flipping ``f``), from the
    child's side to move. With ``pat``, from ``vy``, the pattern indices of ``(p, o)``
    from its opponent's side (``vc``: scratch for the child's)."""
    cp = o ^ f
    co = p ^ f ^ (ONE << U64(sq))
    if pat:
        child_vector(vc, vy, sq, f, True)
        return evaluate_vector(cp, co, vc, legal_moves(cp, co, mask), w)
    return evaluate_call(cp, co, mask, w, nw)


@njit(**NJIT_LLVM_INLINE)
def _reply_score(p, o, moves, mask, w, nw, pat, vy, vc):  # type: ignore[no-untyped-def]
    """One-ply search score of ``(p, o)`` for its side to move, whose moves are ``moves``
    (the evaluation's ``nw`` parameters at address ``w``). With ``pat`` (a full board under
    pattern weights), ``vy`` holds the pattern indices of ``(p, o)`` from its opponent's
    side and the children are scored from them (``vc``: scratch for a child's)."""
    if moves == ZERO:
        return evaluate_call(p, o, mask, w, nw)
    best = np.int64(-INF)
    m = moves
    while m != ZERO:
        sq = lowest_square(m)
        m &= m - ONE
        v = -_child_score(p, o, sq, flips(p, o, sq), mask, w, nw, pat, vy, vc)
        if v > best:
            best = v
    return best


@njit(**NJIT)
def _reply_score2(p, o, moves, mask, w, nw, pat, vx, vg, vc):  # type: ignore[no-untyped-def]
    """Two-ply alpha-beta score of ``(p, o)`` for its side to move (moves ``moves``). With
    ``pat``, ``vx`` holds the pattern indices of ``(p, o)`` from its own side (``vg``,
    ``vc``: scratch for a child's and a grandchild's; see :func:`_reply_score`)."""
    if moves == ZERO:
        return -_reply_score(o, p, legal_moves(o, p, mask), mask, w, nw, pat, vx, vc)
    best = np.int64(-INF)
    m = moves
    while m != ZERO:
        sq = lowest_square(m)
        m &= m - ONE
        f = flips(p, o, sq)
        np_ = o ^ f
        no = p ^ f ^ (ONE << U64(sq))
        om = legal_moves(np_, no, mask)
        if pat:  # the child's indices from its opponent's side (the side that moved)
            child_vector(vg, vx, sq, f, False)
        # the reply: the opponent's best, cut as soon as it is no better than ``best`` for us
        if om == ZERO:
            if pat:
                v = evaluate_vector(no, np_, vg, legal_moves(no, np_, mask), w)
            else:
                v = evaluate_call(no, np_, mask, w, nw)
        else:
            worst = np.int64(INF)
            r = om
            while r != ZERO:
                s2 = lowest_square(r)
                r &= r - ONE
                x = _child_score(np_, no, s2, flips(np_, no, s2), mask, w, nw, pat, vg, vc)
                if x < worst:
                    worst = x
                    if worst <= best:
                        break
            v = worst
        if v > best:
            best = v
    return best


@njit(**NJIT_LLVM_INLINE)
def _search1(p, o, moves, mask, beta, w, nw, pat, vy, vc):  # type: ignore[no-untyped-def]
    """A midgame node one ply from the horizon, searched in one loop: the best of its
    children's static evaluations (fail-soft, stopping at ``beta``) and how many children
    it evaluated. The same score as searching each child as a depth-0 frame; a scout
    child's re-search is not needed because a leaf's score does not depend on its window.
    With ``pat``, the children are scored from the node's pattern indices from its
    opponent's side, ``vy`` (``vc``: scratch)."""
    best = np.int64(-INF)
    n = np.int64(0)
    m = moves
    while m != ZERO:
        sq = lowest_square(m)
        m &= m - ONE
        v = -_child_score(p, o, sq, flips(p, o, sq), mask, w, nw, pat, vy, vc)
        n += 1
        if v > best:
            best = v
            if v >= beta:
                break
    return best, n


@njit(**NJIT_LLVM_INLINE)
def _search2(p, o, mask, beta, mv, fl, cm, n, w, nw, pat, vx, vy, vc):  # type: ignore[no-untyped-def]
    """A midgame node two plies from the horizon with a null window below ``beta``,
    searched in one loop once its ``n`` moves are ordered (``mv``, their flips ``fl`` and
    the children's moves ``cm``): each child as :func:`_search1` (scored from ``vy``, its
    pattern indices from its opponent's side, derived here from the node's own, ``vx``;
    ``vc``: scratch). The same score and nodes as a frame for each child: a null window
    needs no re-search. Returns whether it searched the node (not if a child's moves are
    unknown or it has none: a pass, which the frames handle), the best score (fail-soft,
    stopping at ``beta``) and the nodes below the node."""
    for i in range(n):
        if cm[i] == ZERO or cm[i] == UNKNOWN:
            return False, np.int64(0), np.int64(0)
    best = np.int64(-INF)
    nodes = np.int64(0)
    for i in range(n):
        sq = mv[i]
        f = fl[i]
        if f == ZERO:
            f = flips(p, o, sq)
        if pat:
            child_vector(vy, vx, sq, f, False)
        v, k = _search1(o ^ f, p ^ f ^ (ONE << U64(sq)), cm[i], mask, 1 - beta, w, nw, pat,
                        vy, vc)
        nodes += 1 + k
        if -v > best:
            best = -v
            if best >= beta:
                break
    return True, best, nodes


@njit(**NJIT_LLVM_INLINE)
def _stability_cut(p, o, mask, ne, n_sq, alpha, use_stab):  # type: ignore[no-untyped-def]
    """The stability cutoff of an exact node of ``ne`` empties: whether the opponent's
    stable discs cap the score at or below ``alpha``, and that cap."""
    if use_stab and ne >= STABILITY_MIN_EMPTIES and n_sq - 2 * popcount(o) <= alpha:
        v = n_sq - 2 * popcount(stable_discs(o, p, mask))
        if v <= alpha:
            return True, v
    return False, np.int64(0)


@njit(**NJIT_INLINE)
def _answer_exact(p, o, mask, empty, ne, n_sq, alpha, beta, use_stab):  # type: ignore[no-untyped-def]
    """An exact node of ``ne`` empties answered as it is entered, without a frame: by the
    stability cutoff (:func:`_stability_cut`), else by the shallow solvers where they take
    it (4 empties or fewer, or up to ``SHALLOW_MAX`` with a null window). Returns whether
    it is answered, the score and the solvers' nodes."""
    cut, v = _stability_cut(p, o, mask, ne, n_sq, alpha, use_stab)
    if cut:
        return True, v, np.int64(0)
    if ne <= 4 or (ne <= SHALLOW_MAX and beta == alpha + 1):
        v, k = solve_small(p, o, alpha, beta, empty, ne)
        return True, v, k
    return False, np.int64(0), np.int64(0)


@njit(**NJIT_LLVM_INLINE)
def _child_vectors(fvec, ply, sq, f, only_theirs):  # type: ignore[no-untyped-def]
    """Frame ``ply + 1``'s pattern indices from frame ``ply``'s, whose side to move played
    ``sq`` flipping ``f``; with ``only_theirs`` (a node one ply from the horizon, which
    scores its children from them) only those from its opponent's side."""
    x = at(fvec, 2 * ply * N_INSTANCES)
    y = at(fvec, (2 * ply + 1) * N_INSTANCES)
    if not only_theirs:
        child_vector(at(fvec, (2 * ply + 2) * N_INSTANCES), y, sq, f, True)
    child_vector(at(fvec, (2 * ply + 3) * N_INSTANCES), x, sq, f, False)


@njit(**NJIT_INLINE)
def _swap_vectors(fvec, ply):  # type: ignore[no-untyped-def]
    """Frame ``ply + 1``'s pattern indices after frame ``ply``'s side passes: the sides
    swapped."""
    copy_vector(at(fvec, (2 * ply + 2) * N_INSTANCES), at(fvec, (2 * ply + 1) * N_INSTANCES))
    copy_vector(at(fvec, (2 * ply + 3) * N_INSTANCES), at(fvec, 2 * ply * N_INSTANCES))


@njit(**NJIT_INLINE)
def _copy_vectors(fvec, ply):  # type: ignore[no-untyped-def]
    """Frame ``ply + 1``'s pattern indices when it is frame ``ply``'s position again (a
    probable cut's shallow search)."""
    copy_vector(at(fvec, (2 * ply + 2) * N_INSTANCES), at(fvec, 2 * ply * N_INSTANCES))
    copy_vector(at(fvec, (2 * ply + 3) * N_INSTANCES), at(fvec, (2 * ply + 1) * N_INSTANCES))


@njit(**NJIT_LLVM_INLINE)
def _order_moves(p, o, mask, moves, hmove, exact, depth, w, nw, mv, fl, cm, keys, flags,
                 known, cf, tab, rows, pat, vx, vy, vec):  # type: ignore[no-untyped-def]
    """Write the moves into ``mv`` best first, into ``fl`` the discs each flips where
    ordering computed them (0 where it did not: the search computes them when it plays the
    move) and into ``cm`` the child's own legal moves where it computed them (``UNKNOWN``
    where it did not); return how many. With ``known``, ``cf`` already holds each move's
    flips, in the order of the squares (:func:`_etc_children` computed them, and asked for
    the children's buckets of ``table``); otherwise the buckets of the children that will
    probe the table are asked for here. With ``pat``, the children are scored from the
    node's pattern indices ``vx`` (from its side) and ``vy`` (``vec``: scratch for three
    more sets)."""
    n = 0
    c = 0  # the move's place in square order (in ``cf``)
    order = (flags & USE_ORDER) != 0
    pat = pat and order and depth >= (EVAL_ORDER_EMPTIES if exact else 3)
    vc = vec
    vg = at(vec, N_INSTANCES)
    vh = at(vec, 2 * N_INSTANCES)
    empty = mask & ~(p | o)
    odd = odd_quadrants(empty) if exact else ZERO
    m = moves
    while m != ZERO:
        sq = lowest_square(m)
        m &= m - ONE
        f = cf[c] if known else ZERO
        om = UNKNOWN
        c += 1
        if order and sq == hmove:
            k = np.int64(-INF * 16)
        elif not order or (depth <= 1 and not exact):
            k = np.int64(0)
        else:
            b = ONE << U64(sq)
            if not known:
                f = flips(p, o, sq)
            np_ = o ^ f
            no = p ^ f ^ b
            if not known and depth > (SHALLOW_MAX + 1 if exact else HASH_MIN_DEPTH):
                hash_prefetch(tab, rows, np_, no)  # the child probes the table soon
            if exact:
                om = legal_moves(np_, no, mask)
                k = (popcount(om) + popcount(om & CORNERS)) * MOBILITY_WEIGHT
                if depth >= EVAL_ORDER_EMPTIES:
                    # the empties next to the mover's discs (the child's: ours less ``b``)
                    k += popcount(neighbours(no) & empty & ~b) * POTENTIAL_WEIGHT
                if (odd & b) == ZERO:
                    k += 2
                if depth >= SEARCH2_ORDER_EMPTIES:
                    if pat:
                        child_vector(vc, vy, sq, f, True)
                    k = k + _reply_score2(np_, no, om, mask, w, nw, pat, vc, vg, vh)
                elif depth >= SEARCH_ORDER_EMPTIES:
                    if pat:
                        child_vector(vc, vx, sq, f, False)
                    k = k + _reply_score(np_, no, om, mask, w, nw, pat, vc, vh)
                elif pat:
                    child_vector(vc, vy, sq, f, True)
                    k = k + evaluate_vector(np_, no, vc, om, w)
                elif depth >= EVAL_ORDER_EMPTIES:
                    k = k + evaluate_call(np_, no, mask, w, nw)
            elif pat:
                child_vector(vc, vy, sq, f, True)
                k = evaluate_vector(np_, no, vc, legal_moves(np_, no, mask), w) * 4
            elif depth >= 3:
                k = evaluate_call(np_, no, mask, w, nw) * 4
            else:
                om = legal_moves(np_, no, mask)
                k = popcount(om) + popcount(om & CORNERS)
        # insertion by key (stable: squares in index order on ties)
        j = n
        while j > 0 and keys[j - 1] > k:
            keys[j] = keys[j - 1]
            mv[j] = mv[j - 1]
            fl[j] = fl[j - 1]
            cm[j] = cm[j - 1]
            j -= 1
        keys[j] = k
        mv[j] = sq
        fl[j] = f
        cm[j] = om
        n += 1
    return n


@njit(**NJIT_LLVM_INLINE)
def _etc_children(p, o, moves, tab, rows, cf, cp, co):  # type: ignore[no-untyped-def]
    """The first half of the enhanced transposition cutoff (:func:`_etc_check`): each
    child into ``cp``, ``co`` and its flips into ``cf`` (in the order of the squares, for
    the move ordering), its table bucket asked for; returns how many. The ordering runs
    between the two halves, so the buckets arrive while it works."""
    n = 0
    m = moves
    while m != ZERO:
        sq = lowest_square(m)
        m &= m - ONE
        f = flips(p, o, sq)
        cf[n] = f
        cp[n] = o ^ f
        co[n] = p ^ f ^ (ONE << U64(sq))
        hash_prefetch(tab, rows, cp[n], co[n])
        n += 1
    return n


@njit(**NJIT_LLVM_INLINE)
def _etc_check(n, depth, level, beta, tab, rows, cp, co):  # type: ignore[no-untyped-def]
    """Enhanced transposition cutoff: a score >= ``beta`` if the table already holds, for
    one of the ``n`` children of :func:`_etc_children`, searched at least ``depth - 1``
    plies, an upper bound that refutes it (else -INF)."""
    for i in range(n):
        e = hash_probe(tab, rows, cp[i], co[i])
        if (e != ZERO and entry_depth(e) >= depth - 1 and entry_level(e) >= level
                and -entry_upper(e) >= beta):
            return -entry_upper(e)
    return np.int64(-INF)


def _null_search(children):  # type: ignore[no-untyped-def]
    """The body of a kernel searching an exact node of ``n`` empties (``SHALLOW_MAX + 1``
    or one more) with a null window (``alpha``, ``alpha + 1``) without a frame, over
    ``children``, which answers its ``n`` ordered moves in one loop: the node entered (its
    stability cutoff tried already, :func:`_answer_exact`) and searched as its frame would
    be: the table's bounds, then its moves ordered (the table's first, then fastest first,
    :func:`_order_moves`; ``moves`` is ``UNKNOWN`` if not known), the children, the result
    stored. A side with no move passes: the opponent's node is entered and searched the
    same way (a second round, as a child frame would be) and each side's result stored.
    The same tree and table as the frames'. ``mv``, ``fl``, ``cm``, ``keys``: scratch rows
    of ``MAX_MOVES``, the children's after the node's. Returns the score, the search's
    nodes below this one and the solvers'. Made once per size and inlined into a named
    kernel (a factory's kernels would share one cache name)."""

    @njit(**NJIT_INLINE)
    def body(p, o, mask, empty, ne, alpha, moves, n_sq, flags, tab, rows, date, level, w, nw,
             mv, fl, cm, keys, cf, vec):  # type: ignore[no-untyped-def]
        use_hash = (flags & USE_HASH) != 0
        use_stab = (flags & USE_STABILITY) != 0
        q, r, x = p, o, alpha
        n1 = np.int64(0)
        n2 = np.int64(0)
        v = np.int64(0)
        passed = False
        for rnd in range(2):
            if rnd == 1:  # the opponent's node after a pass, entered as a child frame is
                n1 += 1
                cut, v = _stability_cut(q, r, mask, ne, n_sq, x, use_stab)
                if cut:
                    break
            hmove = np.int64(-1)
            if use_hash:
                e = hash_probe(tab, rows, q, r)
                if e != ZERO:
                    hmove = entry_move(e)
                    if entry_depth(e) >= ne and entry_level(e) >= level:
                        # a null window: the bounds answer the node or leave it as it is
                        lo = entry_lower(e)
                        hi = entry_upper(e)
                        if lo > x or lo == hi:
                            v = lo
                            break
                        if hi <= x:
                            v = hi
                            break
            m = moves if rnd == 0 else UNKNOWN
            if m == UNKNOWN:
                m = legal_moves(q, r, mask)
            if m == ZERO:  # only in the first round: the second side has moves
                if legal_moves(r, q, mask) == ZERO:
                    v = final_score(q, r, ne)
                    break
                q, r, x = r, q, -x - 1
                passed = True
                continue
            # the flags as typed values, not literals: one compiled _order_moves for both
            # callers (LLVM still folds them once it inlines it)
            n = _order_moves(q, r, mask, m, hmove, np.bool_(True), ne, w, nw, mv, fl, cm, keys,
                             flags, np.bool_(False), cf, tab, rows, np.bool_(False), vec, vec,
                             vec)
            v, bm, j1, j2 = children(q, r, mask, x + 1, n_sq, flags, tab, rows, date, level,
                                     w, nw, mv, fl, cm, keys, cf, vec, n)
            n1 += j1
            n2 += j2
            if use_hash:
                hash_store(tab, rows, q, r, ne, level, date, x, x + 1, v, bm)
            break
        if passed:
            v = -v
            if use_hash:
                hash_store(tab, rows, p, o, ne, level, date, alpha, alpha + 1, v,
                           np.int64(PASS_MOVE))
        return v, n1, n2

    return body


def _node_children(child):  # type: ignore[no-untyped-def]
    """The loop over the ``n`` ordered moves ``mv`` (flips ``fl``, 0 where not known; the
    children's moves ``cm``, ``UNKNOWN`` where not known) of an exact node with a null
    window below ``beta`` whose children ``child`` searches without a frame: each child
    entered as its frame would be (:func:`_stability_cut`), then searched by ``child``
    (the solvers, :func:`_solver_child`, or a smaller frameless node; its scratch rows
    after this node's). Returns the best score and
    move (fail-soft, stopping at ``beta``), the search's nodes and the solvers'."""

    @njit(**NJIT_INLINE)
    def loop(p, o, mask, beta, n_sq, flags, tab, rows, date, level, w, nw, mv, fl, cm, keys,
             cf, vec, n):  # type: ignore[no-untyped-def]
        best = np.int64(-INF)
        bm = np.int64(-1)
        nodes = np.int64(0)
        shallow = np.int64(0)
        use_stab = (flags & USE_STABILITY) != 0
        ca = -beta  # each child's window: (-beta, -beta + 1)
        i = 0
        while i < n:
            sq = mv[i]
            f = fl[i]
            cmoves = cm[i]
            i += 1
            if f == ZERO:
                f = flips(p, o, sq)
            x = o ^ f
            y = p ^ f ^ (ONE << U64(sq))
            empty = mask & ~(x | y)
            nodes += 1
            cut, v = _stability_cut(x, y, mask, popcount(empty), n_sq, ca, use_stab)
            if not cut:
                v, j1, j2 = child(x, y, mask, empty, ca, cmoves, n_sq, flags, tab, rows, date,
                                  level, w, nw, at(mv, MAX_MOVES), at(fl, MAX_MOVES),
                                  at(cm, MAX_MOVES), keys, cf, vec)
                nodes += j1
                shallow += j2
            if -v > best:
                best = -v
                bm = sq
                if best >= beta:
                    break
        return best, bm, nodes, shallow

    return loop


@njit(**NJIT_INLINE)
def _solver_child(p, o, mask, empty, alpha, moves, n_sq, flags, tab, rows, date, level, w, nw,
                  mv, fl, cm, keys, cf, vec):  # type: ignore[no-untyped-def]
    """A child of ``SHALLOW_MAX`` empties as :func:`_null_search`'s loop searches one: by
    the solvers (null window)."""
    v, k = solve_small(p, o, alpha, alpha + 1, empty, np.int64(SHALLOW_MAX))
    return v, np.int64(0), k


_null_body8 = _null_search(_node_children(_solver_child))


@njit(**NJIT)
def _null_node(p, o, mask, empty, alpha, moves, n_sq, flags, tab, rows, date, level, w, nw,
               mv, fl, cm, keys, cf, vec):  # type: ignore[no-untyped-def]
    """A null-window exact node of ``SHALLOW_MAX + 1`` empties without a frame (see
    :func:`_null_search`): its children are the solvers'."""
    return _null_body8(p, o, mask, empty, np.int64(SHALLOW_MAX + 1), alpha, moves, n_sq,
                       flags, tab, rows, date, level, w, nw, mv, fl, cm, keys, cf, vec)


_null_body9 = _null_search(_node_children(_null_node))


@njit(**NJIT)
def _null_node9(p, o, mask, empty, alpha, moves, n_sq, flags, tab, rows, date, level, w, nw,
                mv, fl, cm, keys, cf, vec):  # type: ignore[no-untyped-def]
    """A null-window exact node of ``SHALLOW_MAX + 2`` empties without a frame (see
    :func:`_null_search`): its children are :func:`_null_node`'s."""
    return _null_body9(p, o, mask, empty, np.int64(SHALLOW_MAX + 2), alpha, moves, n_sq,
                       flags, tab, rows, date, level, w, nw, mv, fl, cm, keys, cf, vec)


@njit(**NJIT)
def search(p, o, mask, depth, alpha, beta, table, date, params, stop, ctl, flags):  # type: ignore[no-untyped-def]
    """Score of ``(p, o)`` for the side to move searched ``depth`` plies, fail-soft in
    ``(alpha, beta)``; ``depth >= empties`` is an exact solve. Adds nodes to ``ctl[NODES]``."""
    fp = np.empty(MAX_PLY, dtype=np.uint64)
    fo = np.empty(MAX_PLY, dtype=np.uint64)
    fa = np.empty(MAX_PLY, dtype=np.int64)  # alpha (raised as moves improve it)
    fa0 = np.empty(MAX_PLY, dtype=np.int64)  # alpha at entry (after table narrowing)
    fb = np.empty(MAX_PLY, dtype=np.int64)
    fd = np.empty(MAX_PLY, dtype=np.int64)
    fbest = np.empty(MAX_PLY, dtype=np.int64)
    fbm = np.empty(MAX_PLY, dtype=np.int64)
    fcur = np.empty(MAX_PLY, dtype=np.int64)
    fn = np.empty(MAX_PLY, dtype=np.int64)
    fi = np.empty(MAX_PLY, dtype=np.int64)
    fstage = np.empty(MAX_PLY, dtype=np.int64)
    fmoves = np.empty(MAX_PLY, dtype=np.uint64)  # legal moves (kept across a probable-cut test)
    fhm = np.empty(MAX_PLY, dtype=np.int64)  # the table's move
    fpcb = np.empty(MAX_PLY, dtype=np.int64)  # the probable-cut test's bound
    # the helpers take pointers, not arrays (see hasamigo._kernels.memory): each frame's
    # row of fmv, ffl and fcm, and scratch rows after the frames' (the ordering's keys;
    # the ETC's flips and children), which live as long as the arrays the loop indexes
    fmv = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    # their flips (0: not yet known); then the ETC's rows and, as int32, the pattern
    # indices: three sets of scratch, then each frame's from its side and its opponent's
    ffl = np.empty((MAX_PLY + 3 + VEC_ROWS, MAX_MOVES), dtype=np.uint64)
    fpat = np.empty(MAX_PLY, dtype=np.int64)  # which of the frame's pattern indices are known
    fhash = np.empty(MAX_PLY, dtype=np.bool_)
    forder = np.empty(MAX_PLY, dtype=np.int64)  # ORDERED, ORDER_NOW or ORDER_AFTER
    fcm = np.empty((MAX_PLY, MAX_MOVES), dtype=np.uint64)  # each move's replies, or UNKNOWN
    fkm = np.empty(MAX_PLY, dtype=np.uint64)  # the entered node's moves, or UNKNOWN
    fdef = np.empty(MAX_PLY, dtype=np.uint64)  # the moves deferred (bits: places in fmv)
    fmark = np.empty(MAX_PLY, dtype=np.bool_)  # the child searched now is marked busy
    pmv = data_pointer(fmv)
    pfl = data_pointer(ffl)
    pcm = data_pointer(fcm)
    kbuf = at(pmv, MAX_PLY * MAX_MOVES)
    cbf = at(pfl, MAX_PLY * MAX_MOVES)  # flips and children (the ETC's buffers)
    cbp = at(pfl, (MAX_PLY + 1) * MAX_MOVES)
    cbo = at(pfl, (MAX_PLY + 2) * MAX_MOVES)
    vec = as_int32(at(pfl, (MAX_PLY + 3) * MAX_MOVES))  # the pattern indices' scratch
    fvec = at(vec, 3 * N_INSTANCES)  # frame k's: at 2k (its side), 2k + 1 (its opponent's)
    tab = data_pointer(table)
    rows = table.shape[0]
    w = weights_address(params)
    nw = params.shape[0]
    pat = U64(mask) == FULL_BOARD and nw > HAND_SIZE  # children scored from their parent's
    shallow = np.int64(0)  # nodes of the shallow solvers
    use_hash = (flags & USE_HASH) != 0
    use_stab = (flags & USE_STABILITY) != 0
    use_etc = use_hash and (flags & USE_ETC) != 0
    defer = use_hash and (flags & USE_DEFER) != 0
    limit = ctl[LIMIT]
    pc = ctl[PROBCUT]
    level = FULL_LEVEL if pc <= 0 else pc - 1  # of the bounds this search finds and uses
    mask = U64(mask)
    n_sq = popcount(mask)
    pcply = -1  # the frame whose probable-cut test is running (-1: none; tests don't nest)

    fp[0] = U64(p)
    fo[0] = U64(o)
    fa[0] = alpha
    fb[0] = beta
    fd[0] = depth
    fkm[0] = UNKNOWN
    ne0 = popcount(mask & ~(fp[0] | fo[0]))
    fpat[0] = NO_VECTORS
    if pat and (depth < ne0 or ne0 >= EVAL_ORDER_EMPTIES):
        pattern_vectors(fp[0], fo[0], fvec, at(fvec, N_INSTANCES))
        fpat[0] = BOTH_VECTORS
    ply = 0
    entering = True
    v = np.int64(0)
    nodes = np.int64(0)
    poll = np.int64(_POLL + 1)  # the node count at which to poll next
    while True:
        prepare = False  # the node is to be searched: order its moves
        known = False  # the ETC's buffers hold this frame's children (the same step only)
        late = False
        nc = 0
        leaf = False  # the node is answered (v): back to its parent
        if entering:
            nodes += 1
            if nodes >= poll:
                poll = nodes + _POLL + 1
                if stop[0] != 0 or (limit > 0 and nodes + shallow >= limit):
                    ctl[NODES] += nodes + shallow
                    ctl[ABORTED] = 1
                    for k in range(ply):  # the marks of the moves being searched go too
                        if fmark[k]:
                            hash_unmark(tab, rows, fp[k + 1], fo[k + 1])
                    return np.int64(0)
            pp = fp[ply]
            oo = fo[ply]
            a = fa[ply]
            b = fb[ply]
            d = fd[ply]
            empty = mask & ~(pp | oo)
            ne = popcount(empty)
            if d >= ne:
                d = ne
                fd[ply] = ne
                leaf, v, k = _answer_exact(pp, oo, mask, empty, ne, n_sq, a, b, use_stab)
                shallow += k
                if not leaf and SHALLOW_MAX < ne <= SHALLOW_MAX + 2 and b == a + 1:
                    # its children are the solvers' or their parents: searched without a
                    # frame (the frames' rows from this one's on hold its scratch)
                    row = ply * MAX_MOVES
                    if ne == SHALLOW_MAX + 1:
                        v, n1, n2 = _null_node(pp, oo, mask, empty, a, fkm[ply], n_sq, flags,
                                               tab, rows, date, level, w, nw, at(pmv, row),
                                               at(pfl, row), at(pcm, row), kbuf, cbf, vec)
                    else:
                        v, n1, n2 = _null_node9(pp, oo, mask, empty, a, fkm[ply], n_sq,
                                                flags, tab, rows, date, level, w, nw,
                                                at(pmv, row), at(pfl, row), at(pcm, row),
                                                kbuf, cbf, vec)
                    nodes += n1
                    shallow += n2
                    leaf = True
            elif d <= 0:
                v = evaluate_at(pp, oo, mask, w, nw)  # exact if the game is over
                leaf = True
            hmove = np.int64(-1)
            hashed = use_hash and (d >= ne or d >= HASH_MIN_DEPTH)
            fhash[ply] = hashed
            if not leaf and hashed:
                e = hash_probe(tab, rows, pp, oo)
                if e != ZERO:
                    hmove = entry_move(e)
                    if entry_depth(e) >= d and entry_level(e) >= level:
                        lo = entry_lower(e)
                        hi = entry_upper(e)
                        if lo >= b:
                            v = lo
                            leaf = True
                        elif hi <= a:
                            v = hi
                            leaf = True
                        elif lo == hi:
                            v = lo
                            leaf = True
                        else:
                            if lo > a:
                                a = lo
                            if hi < b:
                                b = hi
            if not leaf:
                moves = fkm[ply]
                if moves == UNKNOWN:
                    moves = legal_moves(pp, oo, mask)
                if moves == ZERO:
                    if legal_moves(oo, pp, mask) == ZERO:
                        v = final_score(pp, oo, ne)
                        leaf = True
                elif pc > 0 and d >= ne and ne >= PROBCUT_MIN_EMPTIES:
                    vs = _reply_score(pp, oo, moves, mask, w, nw, np.bool_(False), vec, vec)
                    margin = (PROBCUT_T[pc - 1] * (PROBCUT_SIGMA0 + PROBCUT_SIGMA1 * ne)) // 10000
                    if vs - margin >= b:
                        v = b
                        leaf = True
                    elif vs + margin <= a:
                        v = a
                        leaf = True
                elif d == 1 and d < ne:
                    # one ply from the horizon: the children are evaluated in place
                    v, n1 = _search1(pp, oo, moves, mask, b, w, nw, fpat[ply] != NO_VECTORS,
                                     at(fvec, (2 * ply + 1) * N_INSTANCES), vec)
                    nodes += n1
                    leaf = True
                if not leaf:
                    fa[ply] = a
                    fb[ply] = b
                    fmoves[ply] = moves
                    fhm[ply] = hmove
                    prepare = True
                    if (pc > 0 and b == a + 1 and d < ne and d >= MPC_MIN_DEPTH and ply > 0
                            and pcply < 0 and moves != ZERO):
                        # a midgame probable cut: does a shallow search already decide it?
                        margin = probcut_margin(pc, ne, d)
                        ev = evaluate_call(pp, oo, mask, w, nw)
                        stage = -1
                        bound = np.int64(0)
                        if ev >= b and b + margin <= 64:
                            stage = PC_HIGH
                            bound = b + margin
                        elif ev <= a and a - margin >= -64:
                            stage = PC_LOW
                            bound = a - margin
                        ds = probcut_depth(d)
                        if stage >= 0 and ds == 0:
                            if (ev >= bound) if stage == PC_HIGH else (ev <= bound):
                                v = b if stage == PC_HIGH else a
                                leaf = True
                                prepare = False
                        elif stage >= 0:
                            fstage[ply] = stage
                            fpcb[ply] = bound
                            fp[ply + 1] = pp
                            fo[ply + 1] = oo
                            fd[ply + 1] = ds
                            fkm[ply + 1] = moves
                            fpat[ply + 1] = fpat[ply]
                            if fpat[ply] == BOTH_VECTORS:
                                _copy_vectors(fvec, ply)
                            fa[ply + 1] = bound - 1 if stage == PC_HIGH else bound
                            fb[ply + 1] = bound if stage == PC_HIGH else bound + 1
                            pcply = ply
                            ply += 1
                            continue
        elif fstage[ply] >= PC_HIGH:
            # this frame's probable-cut test returned v (the same side to move)
            pcply = -1
            if (v >= fpcb[ply]) if fstage[ply] == PC_HIGH else (v <= fpcb[ply]):
                v = fb[ply] if fstage[ply] == PC_HIGH else fa[ply]
                leaf = True
            else:
                prepare = True
        else:
            # a child of this frame returned v (from its side)
            v = -v
            if fstage[ply] == SCOUT and v > fa[ply] and v < fb[ply]:
                fstage[ply] = RESEARCH
                fa[ply + 1] = -fb[ply]
                fb[ply + 1] = -v
                fd[ply + 1] = fd[ply] if fcur[ply] == PASS_MOVE else fd[ply] - 1
                ply += 1
                entering = True
                continue
            if fmark[ply]:
                hash_unmark(tab, rows, fp[ply + 1], fo[ply + 1])
                fmark[ply] = False
            if v > fbest[ply]:
                fbest[ply] = v
                fbm[ply] = fcur[ply]
                if v > fa[ply]:
                    fa[ply] = v
        if prepare:
            # the node is searched: its moves, best first (after the enhanced
            # transposition cutoff, which may still answer it)
            pp = fp[ply]
            oo = fo[ply]
            a = fa[ply]
            b = fb[ply]
            d = fd[ply]
            moves = fmoves[ply]
            ne = popcount(mask & ~(pp | oo))
            forder[ply] = ORDERED
            if moves == ZERO:
                fmv[ply, 0] = PASS_MOVE
                fn[ply] = 1
            else:
                known = use_etc and (ne >= ETC_MIN_EMPTIES if d >= ne else d >= ETC_MIN_DEPTH)
                nc = _etc_children(pp, oo, moves, tab, rows, cbf, cbp, cbo) if known else 0
                # a cheap ordering: mobility only, at exact nodes below EVAL_ORDER_EMPTIES
                cheap = d >= ne and ne < EVAL_ORDER_EMPTIES
                # the cutoff's test waits for the children's buckets (a memory latency):
                # a cheap ordering runs first, while they arrive; a costly one only if
                # the test fails
                late = known and cheap
                if known and not late:
                    v = _etc_check(nc, d, level, b, tab, rows, cbp, cbo)
                    leaf = v >= b
                hm = fhm[ply]
                if (not leaf and not cheap and (flags & USE_ORDER) != 0
                        and hm >= 0 and hm < PASS_MOVE and (moves >> U64(hm)) & ONE != ZERO):
                    # the table's move alone: the others are ordered only if it does not
                    # cut. Not where the ordering is cheap: it asks for the children's
                    # table buckets (the table move's child's too) while it works, and a
                    # child searched at once would wait for its bucket
                    fmv[ply, 0] = hm
                    ffl[ply, 0] = cbf[popcount(moves & ((ONE << U64(hm)) - ONE))] if known else ZERO
                    fcm[ply, 0] = UNKNOWN
                    fn[ply] = 1
                    forder[ply] = ORDER_AFTER
                else:
                    fn[ply] = 0
                    forder[ply] = ORDER_NOW
            fa0[ply] = a
            fbest[ply] = -INF
            fbm[ply] = -1
            fi[ply] = 0
            fdef[ply] = ZERO
            fmark[ply] = False
        if not leaf and forder[ply] != ORDERED and (
                forder[ply] == ORDER_NOW or (fi[ply] == 1 and fbest[ply] < fb[ply])):
            # order the node's moves (the table's move, if searched already, stays first)
            pp = fp[ply]
            oo = fo[ply]
            d = fd[ply]
            ne = popcount(mask & ~(pp | oo))
            row = ply * MAX_MOVES
            fn[ply] = _order_moves(pp, oo, mask, fmoves[ply], fhm[ply], d >= ne, d, w, nw,
                                   at(pmv, row), at(pfl, row), at(pcm, row), kbuf,
                                   flags, known and forder[ply] == ORDER_NOW, cbf, tab, rows,
                                   fpat[ply] == BOTH_VECTORS,
                                   at(fvec, 2 * ply * N_INSTANCES),
                                   at(fvec, (2 * ply + 1) * N_INSTANCES), vec)
            if late and forder[ply] == ORDER_NOW:
                v = _etc_check(nc, d, level, fb[ply], tab, rows, cbp, cbo)
                leaf = v >= fb[ply]
            forder[ply] = ORDERED
            if not leaf and d == 2 and d < ne and fb[ply] - fa[ply] == 1 and fi[ply] == 0:
                # two plies from the horizon, a null window: its children in one loop
                leaf, v, n1 = _search2(pp, oo, mask, fb[ply], at(pmv, row), at(pfl, row),
                                       at(pcm, row), fn[ply], w, nw,
                                       fpat[ply] == BOTH_VECTORS,
                                       at(fvec, 2 * ply * N_INSTANCES),
                                       at(fvec, (2 * ply + 3) * N_INSTANCES), vec)
                nodes += n1
        if leaf:
            if ply == 0:
                ctl[NODES] += nodes + shallow
                return v
            ply -= 1
            entering = False
            continue
        # next move of this frame (a deferred one last), or its end
        j = -1
        share = False  # the frame's moves are shared between threads (USE_DEFER)
        if fbest[ply] < fb[ply]:
            pp = fp[ply]
            oo = fo[ply]
            if defer:
                ne = popcount(mask & ~(pp | oo))
                share = ne >= DEFER_MIN_EMPTIES if fd[ply] >= ne else fd[ply] >= DEFER_MIN_DEPTH
            while fi[ply] < fn[ply]:
                k = fi[ply]
                fi[ply] += 1
                sq = fmv[ply, k]
                if share and k > 0 and sq != PASS_MOVE:
                    f = ffl[ply, k]
                    if f == ZERO:
                        f = flips(pp, oo, sq)
                        ffl[ply, k] = f
                    if hash_busy(tab, rows, oo ^ f, pp ^ f ^ (ONE << U64(sq))):
                        fdef[ply] |= ONE << U64(k)
                        continue
                j = k
                break
            if j < 0 and fdef[ply] != ZERO:
                j = lowest_square(fdef[ply])
                fdef[ply] &= fdef[ply] - ONE
        if j >= 0:
            sq = fmv[ply, j]
            f = ffl[ply, j]
            fcur[ply] = sq
            if sq == PASS_MOVE:
                fp[ply + 1] = oo
                fo[ply + 1] = pp
                fd[ply + 1] = fd[ply]
                fkm[ply + 1] = UNKNOWN
                fpat[ply + 1] = fpat[ply]
                if fpat[ply] == BOTH_VECTORS:
                    _swap_vectors(fvec, ply)
                elif fpat[ply] == THEIR_VECTORS:  # one ply from the horizon: read again
                    pattern_vectors(oo, pp, at(fvec, (2 * ply + 2) * N_INSTANCES),
                                    at(fvec, (2 * ply + 3) * N_INSTANCES))
                    fpat[ply + 1] = BOTH_VECTORS
            else:
                fkm[ply + 1] = fcm[ply, j]
                bit = ONE << U64(sq)
                if f == ZERO:
                    f = flips(pp, oo, sq)
                fp[ply + 1] = oo ^ f
                fo[ply + 1] = pp ^ f ^ bit
                fd[ply + 1] = fd[ply] - 1
                # the child's pattern indices, where it scores its children or passes them on
                cne = popcount(mask & ~(fp[ply + 1] | fo[ply + 1]))
                fpat[ply + 1] = NO_VECTORS
                if fpat[ply] == BOTH_VECTORS and (fd[ply + 1] < cne or cne >= EVAL_ORDER_EMPTIES):
                    theirs = fd[ply + 1] == 1 and cne > 1  # scores its children from these
                    _child_vectors(fvec, np.int64(ply), sq, f, theirs)
                    fpat[ply + 1] = THEIR_VECTORS if theirs else BOTH_VECTORS
            if j == 0 or fb[ply] - fa[ply] == 1:
                fstage[ply] = FULL
                fa[ply + 1] = -fb[ply]
                fb[ply + 1] = -fa[ply]
            else:
                fstage[ply] = SCOUT
                fa[ply + 1] = -fa[ply] - 1
                fb[ply + 1] = -fa[ply]
            if share and j > 0 and sq != PASS_MOVE:  # others defer it while it is searched
                hash_mark(tab, rows, fp[ply + 1], fo[ply + 1])
                fmark[ply] = True
            ply += 1
            entering = True
            continue
        v = fbest[ply]
        if fhash[ply]:
            bm = fbm[ply]
            hash_store(tab, rows, fp[ply], fo[ply], fd[ply], level, date, fa0[ply], fb[ply],
                       v, bm)
        if ply == 0:
            ctl[NODES] += nodes + shallow
            return v
        ply -= 1
        entering = False


@njit(**NJIT)
def evaluate_entry(p, o, mask, params):  # type: ignore[no-untyped-def]
    """Python entry point: the static evaluation (disc units, side to move)."""
    return evaluate_call(U64(p), U64(o), U64(mask), weights_address(params), params.shape[0])


@njit(**NJIT)
def child_position(p, o, sq):  # type: ignore[no-untyped-def]
    """Python entry point: the pair after the side to move plays ``sq`` (64: a pass)."""
    p = U64(p)
    o = U64(o)
    if sq == PASS_MOVE:
        return o, p
    f = flips(p, o, np.int64(sq))
    return o ^ f, p ^ f ^ (ONE << U64(sq))
