"""Small helpers every repository shares: the games' here in ``storage``, and the
domains' above it (``tournament.store``, ``study.store``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, overload

from sqlalchemy import CursorResult


@overload
def aware(moment: datetime) -> datetime: ...


@overload
def aware(moment: None) -> None: ...


def aware(moment: datetime | None) -> datetime | None:
    """SQLite returns the stored UTC instants without their zone (``None`` stays ``None``:
    an instant not yet reached, such as a study subject's finish)."""
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def rowcount(result: Any) -> int:
    """The rows an update or delete changed."""
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


__all__ = ["aware", "rowcount"]
