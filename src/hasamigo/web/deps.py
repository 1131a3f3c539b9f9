"""Dependencies for the routes, as ``Annotated`` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.templating import Jinja2Templates

from hasamigo.web.errors import Unauthorized
from hasamigo.web.i18n import Lang, language_of
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.services.games import GameService
from hasamigo.web.services.review import ReviewService
from hasamigo.web.services.variations import VariationService
from hasamigo.web.settings import Settings

#: the cookie that tells a browser's games apart (anonymous, random, HttpOnly)
CLIENT_COOKIE = "hasamigo_client"
TOKEN_LENGTH = 64


def get_games(request: Request) -> GameService:
    service: GameService = request.app.state.games
    return service


def get_analysis(request: Request) -> AnalysisService:
    service: AnalysisService = request.app.state.analysis
    return service


def get_reviews(request: Request) -> ReviewService:
    service: ReviewService = request.app.state.reviews
    return service


def get_variations(request: Request) -> VariationService:
    service: VariationService = request.app.state.variations
    return service


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_templates(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    return templates


def get_lang(request: Request) -> Lang:
    return language_of(request)


_bearer = HTTPBearer(auto_error=False, description="the seat token of the seat acted for")


def read_bearer(request: Request, *, longest: int, what: str) -> str | None:
    """The token of ``Authorization: Bearer <token>`` (at most ``longest`` printable ASCII
    characters); ``None`` without the header; a malformed header is 401 naming ``what``."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > longest \
            or not token.isascii() or not token.isprintable():
        raise Unauthorized(f"the Authorization header must be 'Bearer <{what}>'")
    return token


def bearer_token(
    request: Request,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``; ``None`` without the header.
    (``_declared`` puts the scheme in the OpenAPI document; the header is checked here.)"""
    return read_bearer(request, longest=TOKEN_LENGTH, what="seat token")


def client_id(request: Request) -> str:
    """This browser's anonymous id (set by the app's middleware on every request)."""
    client: str = request.state.client
    return client


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


Games = Annotated[GameService, Depends(get_games)]
Analysis = Annotated[AnalysisService, Depends(get_analysis)]
Reviews = Annotated[ReviewService, Depends(get_reviews)]
Variations = Annotated[VariationService, Depends(get_variations)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
Templates = Annotated[Jinja2Templates, Depends(get_templates)]
LangDep = Annotated[Lang, Depends(get_lang)]
Token = Annotated[str | None, Depends(bearer_token)]
Client = Annotated[str, Depends(client_id)]
Address = Annotated[str, Depends(client_address)]
