"""Refusals as JSON, in one shape: ``{"error": {"code", "message", "reason"}}``.

Every error the app raises on purpose is a :class:`~hasamigo.errors.HasamigoError` whose
``code`` picks the status (:data:`STATUS`); an illegal move also names the rule in
``reason`` (``occupied``, ``flips_nothing`` …), other errors leave it ``null``. FastAPI's
own refusals (validation, unknown routes, wrong methods) are rewritten into the same shape,
and nothing the client sent is echoed back at length.

A person's browser gets a page instead (:func:`wants_html`): the same status, the site's
layout, the heading in the person's language (:func:`~hasamigo.web.i18n.language_of`) and
a link home. The rule, in order:

1. a path under ``/api`` (and ``/ws``, ``/static``) is always answered in JSON, whatever the
   request accepts: scripts read the error's ``code``;
2. a page's route (one declared with ``response_class=HTMLResponse``) is answered with a
   page: an unknown game or study, a bad query parameter of a page;
3. any other path (no route matched) gets a page when the request accepts ``text/html``
   (a browser navigating), else JSON (``fetch``, ``curl``, the API clients).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from hasamigo.errors import HasamigoError, IllegalMoveError, IllegalReason
from hasamigo.web.i18n import N_, language_of, translate
from hasamigo.web.schemas import ErrorBody, ErrorResponse

log = logging.getLogger(__name__)


class WebError(HasamigoError):
    """A refusal of the web layer; ``code`` picks the status."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class NotFound(WebError):
    code = "not_found"


class Unauthorized(WebError):
    """No seat token where one is needed."""

    code = "unauthorized"


class Forbidden(WebError):
    """A seat token that does not hold the seat acted for (or a private game)."""

    code = "forbidden"


class RateLimited(WebError):
    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Busy(WebError):
    """Too much work queued already; try again shortly."""

    code = "busy"


class StorageFailure(WebError):
    """The database refused a commit; the change was not acknowledged."""

    code = "storage"


STATUS: dict[str, int] = {
    # the request is malformed
    "bad_request": 400, "invalid_square": 400, "invalid_option": 400,
    "invalid_position": 400, "parse_error": 400, "event_format": 400,
    "clock": 400, "invalid_variation": 400,
    "invalid_name": 400, "invalid_password": 400,  # an account's (hasamigo.accounts)
    # who is asking
    "unauthorized": 401, "forbidden": 403, "not_your_seat": 403, "official_game": 403,
    "not_found": 404, "method_not_allowed": 405,
    # the game's state refuses it now
    "wrong_phase": 409, "game_over": 409, "time_up": 409, "program_to_move": 409,
    "not_your_turn": 409, "undo_not_allowed": 409, "nothing_to_undo": 409,
    "no_undo_request": 409, "no_flag": 409, "stale": 409, "colours": 409,
    "suspended": 409, "program_waiting": 409, "concurrent_write": 409, "not_in_game": 409,
    "already_joined": 409,
    "name_taken": 409,  # an account's name is someone else's
    "variation_limit": 409,  # a game's variation tree is full
    "tournament": 409,  # a tournament's state refuses it now (paired twice, entered twice …)
    "lobby": 409,  # the lobby refuses it now (a challenge taken, one's own, too many)
    "too_large": 413,
    "illegal_move": 422, "invalid_request": 422,
    "rate_limited": 429,
    "stored_game": 500, "internal": 500,
    "storage": 503, "busy": 503,
    "external_engine": 502,  # an external engine (NBoard/GTP process) failed
}

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

#: longest message sent back (a message may quote what the client sent)
MESSAGE_LENGTH = 300


def _short(text: str) -> str:
    return text if len(text) <= MESSAGE_LENGTH else text[:MESSAGE_LENGTH] + "…"


def error_body(exc: BaseException) -> tuple[int, ErrorBody]:
    """The status and body for ``exc`` (an unexpected exception is a bare 500)."""
    if isinstance(exc, IllegalMoveError):
        return 422, ErrorBody(code="illegal_move", message=_short(str(exc)),
                              reason=REASON_CODES.get(exc.reason, exc.reason.name.lower()))
    if isinstance(exc, HasamigoError):
        code = exc.code
        status = STATUS.get(code)
        if status is None:
            log.warning("no status for error code %r; answering 400", code)
            status = 400
        return status, ErrorBody(code=code, message=_short(str(exc)))
    return 500, ErrorBody(code="internal", message="internal error")


#: paths answered in JSON whatever the request accepts (rule 1 of the module's docstring)
JSON_PATHS = ("/api", "/ws", "/static")


def wants_html(request: Request) -> bool:
    """Whether the refusal of ``request`` is shown as a page (see the module's docstring)."""
    path = request.url.path
    if any(path == prefix or path.startswith(prefix + "/") for prefix in JSON_PATHS):
        return False
    route_class = getattr(request.scope.get("route"), "response_class", None)
    if isinstance(route_class, type) and issubclass(route_class, HTMLResponse):
        return True
    return "text/html" in request.headers.get("accept", "").lower()


#: the error pages' heading and sentence: not found, another refusal, the server's fault
_PAGE_TEXT: dict[str, tuple[str, str]] = {
    "not_found": (N_("Page not found"),
                  N_("There is nothing at this address: it may be mistyped, or what it showed "
                     "has been deleted.")),
    "bad_request": (N_("This page cannot be shown"),
                    N_("Something in the address is not what this page expects.")),
    "server": (N_("Something went wrong"),
               N_("The server could not show this page. Please try again in a moment.")),
}


def _page_text(status: int) -> tuple[str, str]:
    """The heading and the sentence (English msgids) of the page for a status."""
    if status == 404:
        return _PAGE_TEXT["not_found"]
    return _PAGE_TEXT["bad_request" if status < 500 else "server"]


def _page(request: Request, status: int, body: ErrorBody, headers: dict[str, str] | None
          ) -> Response:
    """The site's error page: the heading in the person's language, the path asked for,
    the server's own message (English, as the API gives it) beside a 4xx other than 404."""
    lang = language_of(request)
    heading, body_text = (translate(lang, text) for text in _page_text(status))
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(
        request, "error.html",
        {"request": request, "lang": lang,
         "other_lang": "en" if lang == "ja" else "ja", "status": status,
         "heading": heading, "body": body_text,
         "path": _short(request.url.path),
         "detail": body.message if 400 <= status < 500 and status != 404 else None},
        status_code=status, headers=headers)


def _response(request: Request, status: int, body: ErrorBody,
              headers: dict[str, str] | None = None) -> Response:
    if wants_html(request):
        return _page(request, status, body, headers)
    return JSONResponse(ErrorResponse(error=body).model_dump(), status_code=status,
                        headers=headers)


def validation_message(exc: RequestValidationError) -> str:
    """The first few problems, each as ``where: what`` (never the input itself)."""
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return _short("; ".join(parts) or "invalid request")


def install(app: FastAPI) -> None:
    async def project_error(request: Request, exc: Exception) -> Response:
        status, body = error_body(exc)
        headers = None
        if isinstance(exc, RateLimited):
            headers = {"Retry-After": str(exc.retry_after)}
        return _response(request, status, body, headers)

    async def invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return _response(request, 422, ErrorBody(code="invalid_request",
                                                 message=validation_message(exc)))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "bad_request" if exc.status_code < 500 else "internal")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        return _response(request, exc.status_code,
                         ErrorBody(code=code, message=_short(message)),
                         dict(exc.headers) if exc.headers else None)

    async def unexpected(request: Request, exc: Exception) -> Response:
        log.error("unexpected error", exc_info=exc)
        status, body = error_body(exc)
        return _response(request, status, body)

    app.add_exception_handler(HasamigoError, project_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)


__all__ = [
    "STATUS",
    "Busy",
    "Forbidden",
    "NotFound",
    "RateLimited",
    "StorageFailure",
    "Unauthorized",
    "WebError",
    "error_body",
    "install",
    "wants_html",
]
