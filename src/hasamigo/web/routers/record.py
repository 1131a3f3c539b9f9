"""Over-the-board games: record entry, record sheets and the official chess clock."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
