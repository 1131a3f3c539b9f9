"""Refusals as JSON: ``{"error": {"code", "message", "reason"}}`` with a fitting status.

An illegal move is 422 with ``code="illegal_move"`` and ``reason`` naming the rule
(``occupied``, ``flips_nothing`` ...); a request out of turn or phase is 409; an unknown
game 404; a failed commit 503 (nothing was acknowledged).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from hasamigo.errors import IllegalMoveError, IllegalReason
from hasamigo.game.controller import GameError
from hasamigo.web.schemas import ErrorBody, ErrorResponse
from hasamigo.web.services.games import NotFound, StorageFailure

STATUS = {"bad_request": 400, "not_found": 404}

REASON_CODES = {
    IllegalReason.OCCUPIED: "occupied",
    IllegalReason.NO_FLIPS: "flips_nothing",
    IllegalReason.NOT_YOUR_TURN: "not_your_turn",
    IllegalReason.PASS_NOT_ALLOWED: "pass_not_allowed",
    IllegalReason.MUST_PASS: "must_pass",
    IllegalReason.UNPLAYABLE: "unplayable",
    IllegalReason.GAME_OVER: "game_over",
    IllegalReason.NO_DISCS_LEFT: "no_discs_left",
    IllegalReason.PLACEMENT_PHASE: "placement_phase",
}


def error_body(exc: Exception) -> tuple[int, ErrorBody]:
    if isinstance(exc, IllegalMoveError):
        return 422, ErrorBody(code="illegal_move", message=str(exc),
                              reason=REASON_CODES.get(exc.reason, exc.reason.name.lower()))
    if isinstance(exc, GameError):
        return STATUS.get(exc.code, 409), ErrorBody(code=exc.code, message=str(exc))
    if isinstance(exc, NotFound):
        return 404, ErrorBody(code="not_found", message=f"no game {exc.args[0]!r}")
    if isinstance(exc, StorageFailure):
        return 503, ErrorBody(code="storage", message=str(exc))
    return 500, ErrorBody(code="internal", message="internal error")


def install(app: FastAPI) -> None:
    async def handler(_request: Request, exc: Exception) -> JSONResponse:
        status, body = error_body(exc)
        return JSONResponse(ErrorResponse(error=body).model_dump(), status_code=status)

    for kind in (IllegalMoveError, GameError, NotFound, StorageFailure):
        app.add_exception_handler(kind, handler)
