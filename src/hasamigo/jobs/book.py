"""The opening book's leaves across workers: the ``search`` of
:func:`~hasamigo.engine.book.search_leaves` and :func:`~hasamigo.engine.book.expand` for
``hasamigo book build`` and ``book deepen``.

A worker searches a leaf (:func:`~hasamigo.engine.book.search_leaf`) on the one engine it
keeps. No journal: the builder saves the book as it goes, and a stopped build resumes
from the book (the leaves searched at the requested depth are not searched again).

>>> from hasamigo.board import Board
>>> from hasamigo.engine.book import search_leaf
>>> from hasamigo.jobs import LocalBackend
>>> p, o = Board().pair()
>>> job = (p, o, (19, 26, 37, 44), 1)
>>> list(leaf_searcher(LocalBackend(1))([job])) == [(0, search_leaf(job))]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hasamigo.engine.book import LeafJob, LeafSearch, search_leaf
from hasamigo.jobs.runner import Backend, iter_job


def leaf_searcher(backend: Backend) -> LeafSearch:
    """The ``search`` of :func:`~hasamigo.engine.book.search_leaves` on ``backend``'s
    workers: ``(index, (square, score))`` for each leaf, as each finishes."""

    def search(jobs: Sequence[LeafJob]) -> Iterator[tuple[int, tuple[int, int]]]:
        keyed = {str(index): job for index, job in enumerate(jobs)}
        for key, (square, score) in iter_job(keyed, search_leaf, backend=backend):
            yield int(key), (square, score)

    return search


__all__ = ["leaf_searcher"]
