"""Small helpers every repository of the games shares."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import CursorResult


def aware(moment: datetime) -> datetime:
    """SQLite returns the stored UTC instants without their zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def rowcount(result: Any) -> int:
    """The rows an update or delete changed."""
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


__all__ = ["aware", "rowcount"]
