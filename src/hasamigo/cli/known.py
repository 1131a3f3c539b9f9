"""``solve-board 8x8``: the published result of a board too big to solve here, quoted
with its source and said to be quoted, and with ``--verify`` the line's end solved by the
engine as far as the time given allows (:mod:`hasamigo.engine.known`)."""

from __future__ import annotations

from typing import Any

from hasamigo.cli import console, emit_json, err_console, ready_kernels
from hasamigo.engine.known import (
    VERIFY_FROM,
    LineCheck,
    PublishedResult,
    published,
    small_board_results,
    verify_line,
)

__all__ = ["published", "show_published"]

_WORDS = {-1: "lost", 0: "drawn", 1: "won"}


def _small_note() -> str:
    parts = []
    for name, (black, white) in small_board_results().items():
        verdict = "a draw" if black == white else ("Black" if black > white else "White") + \
            " wins"
        parts.append(f"{name} ({verdict} {black}–{white}): proven here from scratch by "
                     f"`hasamigo solve-board {name}`")
    return "; ".join(parts)


def show_published(result: PublishedResult, *, verify: bool, minutes: float,
                   as_json: bool) -> None:
    """Print ``result`` (quoted, with its source), then with ``verify`` what the engine
    proves of its line's end in ``minutes``."""
    data: dict[str, Any] = result.to_json() | {
        "proven_here": False, "small_boards": {
            name: {"black": b, "white": w, "proven_by": f"hasamigo solve-board {name}"}
            for name, (b, w) in small_board_results().items()}}
    if not as_json:
        status = f", claimed by {result.status}" if result.status else ""
        console.print(f"{result.board}: {result.verdict} {result.black}–{result.white} with "
                      f"perfect play{status} ({result.claim})", highlight=False,
                      soft_wrap=True)
        console.print(f"published line: {result.line}", highlight=False, soft_wrap=True)
        console.print(f"source: {result.source}, {result.url}"
                      + (f" ({result.status})" if result.status else ""), highlight=False,
                      soft_wrap=True)
        console.print("This result is quoted, not proven here: the proof solved 1.5 billion "
                      "positions of 36 empties. Smaller boards: " + _small_note() + ".",
                      highlight=False, soft_wrap=True)
    if verify:
        ready_kernels("rules", "engine")

        def shown(check: LineCheck) -> None:
            if not as_json:
                state = _WORDS.get(check.score, "?") if check.proven else "not proven in time"
                err_console.print(f"  after move {check.move_number} ({check.empties} "
                                  f"empties): {state} for the side to move, "
                                  f"{check.nodes:,} nodes, {check.seconds:.1f} s",
                                  highlight=False, soft_wrap=True)

        checks = verify_line(result, seconds=minutes * 60.0, progress=shown)
        agree = all(c.agrees for c in checks if c.proven)
        deepest = max((c.empties for c in checks if c.agrees), default=0)
        data["verified"] = {"minutes": minutes, "deepest_empties": deepest,
                            "agrees": agree, "positions": [c.to_json() for c in checks]}
        if not as_json:
            console.print(
                f"verified here: the line replays by the rules to {result.black}–"
                f"{result.white}, and each of its positions from {deepest} empties to the "
                f"end is {'as published' if agree else 'NOT as published'} with perfect play "
                f"(solved by the engine in {minutes:g} min; the paper's proof starts at "
                f"{VERIFY_FROM} empties and also covers every deviation, which is not "
                "searched here)", highlight=False, soft_wrap=True)
    if as_json:
        emit_json(data)
