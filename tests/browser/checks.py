"""Checks the browser tests make on any page: no sideways scrolling, no symbol that needs
an emoji font, and boxes that must not overlap."""

from __future__ import annotations

import re
from typing import Any

#: blocks whose symbols many machines can only draw with an emoji font (⏮ ⏱ ◀ ▶ ■ ⚑ ✋ ✓
#: ⟳ ⬇ 🎲 …); the pages draw such symbols as inline SVG instead
EMOJI_BLOCKS = re.compile(
    "[\u2190-\u21ff\u2300-\u23ff\u25a0-\u25ff\u2600-\u27bf\u27f0-\u27ff\u2900-\u297f"
    "\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f]")


def no_sideways_scroll(page: Any, what: str = "") -> None:
    width, inner = page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{what or page.url}: scrolls sideways ({width} > {inner} px)"


def no_emoji_symbols(page: Any, what: str = "") -> None:
    text: str = page.evaluate("document.body.innerText")
    found = sorted(set(EMOJI_BLOCKS.findall(text)))
    assert not found, f"{what or page.url}: symbols that need an emoji font: {found}"


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not displayed"
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def board_unobstructed(page: Any) -> None:
    """Nothing lies over the board: at its centre and near its corners, the topmost
    element is part of the board."""
    uncovered = page.evaluate("""() => {
        const board = document.getElementById("board");
        const r = board.getBoundingClientRect();
        const points = [[.5, .5], [.08, .08], [.92, .08], [.08, .92], [.92, .92]];
        return points.every(([fx, fy]) => {
            const x = r.left + fx * r.width, y = r.top + fy * r.height;
            const top = document.elementFromPoint(x, y);
            return top !== null && board.contains(top);
        });
    }""")
    assert uncovered, "something covers the board"
