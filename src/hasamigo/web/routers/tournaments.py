"""Tournaments: the director's area (password) and the public pages (pairings, standings,
bracket, ranking)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
