"""The study's counterbalancing: which order of the programs (arms) each subject plays.

A **balanced Latin square** after Williams (1949): every arm appears in every place
equally often, and every arm follows every other arm equally often (first-order
carry-over balanced). For an even number of arms ``n`` that takes ``n`` orders; for an
odd ``n`` it takes ``2n`` (the square and its mirror image). So:

* 2 arms: ``AB``, ``BA``;
* 3 arms: the Williams design of 6 orders, which for three arms is **all six orders**
  (the rows ``ABC, BCA, CAB`` then their mirrors ``CBA, ACB, BAC``); each 3 subjects in
  a row fill one Latin square (every arm once in every place), each 6 every order once;
* 4 arms: 4 orders.

Subject number ``k`` (0-based, in the order they arrive) plays row ``k mod len(rows)``:
over any multiple of the design's length every order is played equally often and every
arm is in every place equally often.

>>> orders(("victory", "amusement"))
[('victory', 'amusement'), ('amusement', 'victory')]
>>> ["".join(o) for o in orders(tuple("ABC"))]
['ABC', 'BCA', 'CAB', 'CBA', 'ACB', 'BAC']
>>> order_for(("A", "B"), 3)
('B', 'A')
"""

from __future__ import annotations

from collections.abc import Sequence


def williams(n: int) -> list[list[int]]:
    """The rows of a Williams design for ``n`` treatments (``n`` rows for an even ``n``,
    ``2n`` for an odd one), each a permutation of ``range(n)``.

    >>> williams(4)
    [[0, 1, 3, 2], [1, 2, 0, 3], [2, 3, 1, 0], [3, 0, 2, 1]]
    """
    if n < 1:
        raise ValueError("a design needs at least one arm")
    # the first row 0, 1, n-1, 2, n-2, …; the others add 1 (mod n) to every element
    first = [0]
    low, high = 1, n - 1
    take_low = True
    while len(first) < n:
        if take_low:
            first.append(low)
            low += 1
        else:
            first.append(high)
            high -= 1
        take_low = not take_low
    rows = [[(x + shift) % n for x in first] for shift in range(n)]
    if n % 2:
        rows += [list(reversed(row)) for row in rows]
    return rows


def orders(arms: Sequence[str]) -> list[tuple[str, ...]]:
    """The counterbalanced orders of ``arms`` (see the module docstring)."""
    if len(set(arms)) != len(arms):
        raise ValueError("the arms must differ")
    return [tuple(arms[i] for i in row) for row in williams(len(arms))]


def order_for(arms: Sequence[str], subject_number: int) -> tuple[str, ...]:
    """The order subject number ``subject_number`` (0-based) plays."""
    if subject_number < 0:
        raise ValueError("subjects are numbered from 0")
    rows = orders(arms)
    return rows[subject_number % len(rows)]


__all__ = ["order_for", "orders", "williams"]
