"""Experiments around the amusement paper (kept apart from the engine and players)."""

from __future__ import annotations
