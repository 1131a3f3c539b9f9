"""Dependencies for the routes, as ``Annotated`` aliases."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.templating import Jinja2Templates

from hasamigo.web.errors import Busy, Unauthorized
from hasamigo.web.i18n import Lang, language_of
from hasamigo.web.limits import trusted_proxies
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.services.compute import ComputePool
from hasamigo.web.services.games import GameService
from hasamigo.web.services.multi import MultiGameService
from hasamigo.web.services.review import ReviewService
from hasamigo.web.services.study import StudySite
from hasamigo.web.services.tournaments import TournamentSite
from hasamigo.web.services.variations import VariationService
from hasamigo.web.settings import Settings
from hasamigo.web.state import AppServices, services_of

#: the cookie that tells a browser's games apart (anonymous, random, HttpOnly)
CLIENT_COOKIE = "hasamigo_client"
TOKEN_LENGTH = 64


def get_services(request: Request) -> AppServices:
    """The app's services, built by its lifespan (503 before it has run)."""
    services = services_of(request.app)
    if services is None:
        raise Busy("the server is starting")
    return services


def get_games(request: Request) -> GameService:
    return get_services(request).games


def get_multi(request: Request) -> MultiGameService:
    return get_services(request).multi


def get_analysis(request: Request) -> AnalysisService:
    return get_services(request).analysis


def get_reviews(request: Request) -> ReviewService:
    return get_services(request).reviews


def get_variations(request: Request) -> VariationService:
    return get_services(request).variations


def get_tournaments(request: Request) -> TournamentSite:
    return get_services(request).tournaments


def get_study(request: Request) -> StudySite:
    return get_services(request).study


def get_compute(request: Request) -> ComputePool:
    return get_services(request).compute


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_templates(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    return templates


def get_lang(request: Request) -> Lang:
    return language_of(request)


#: the OpenAPI security schemes. A route that declares :data:`SEAT_TOKEN` or
#: :data:`SESSION_TOKEN` needs that token: without it the answer is 401, whatever the body
#: (see :class:`AuthFirst`); :data:`READER_TOKEN` is needed only for a private game.
SEAT_TOKEN, READER_TOKEN, SESSION_TOKEN = "seatToken", "seatTokenIfPrivate", "sessionToken"
_seat = HTTPBearer(scheme_name=SEAT_TOKEN, auto_error=False,
                   description="the seat token of the seat acted for (required)")
_reader = HTTPBearer(scheme_name=READER_TOKEN, auto_error=False,
                     description="a seat token of the game: needed unless the game is public")
_session = HTTPBearer(scheme_name=SESSION_TOKEN, auto_error=False,
                      description="the director's (or researcher's) session token: POST "
                      "/api/tournaments or …/login, POST /api/studies or …/login (required)")

#: the dependencies that need a token; :class:`AuthFirst` runs them before the body is read
_AUTH_FIRST: set[Callable[..., object]] = set()


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


def need_bearer(request: Request, *, longest: int, what: str, missing: str) -> str:
    """:func:`read_bearer`, refusing a request without the header (401 ``missing``)."""
    token = read_bearer(request, longest=longest, what=what)
    if token is None:
        raise Unauthorized(missing)
    return token


def _auth_first(dependency: Callable[..., str]) -> Callable[..., str]:
    _AUTH_FIRST.add(dependency)
    return dependency


def bearer_token(
    request: Request,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_reader)],
) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``; ``None`` without the header
    (reading a public game). ``_declared`` puts the scheme in the OpenAPI document; the
    header is checked here."""
    return read_bearer(request, longest=TOKEN_LENGTH, what="seat token")


@_auth_first
def seat_token(
    request: Request,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_seat)],
) -> str:
    """The seat token of an action: without ``Authorization: Bearer <token>``, 401."""
    return need_bearer(request, longest=TOKEN_LENGTH, what="seat token",
                       missing="acting in a game needs its seat token "
                               "(Authorization: Bearer …)")


def session_token(longest: int, missing: str) -> Callable[..., str]:
    """A dependency: a director's or researcher's session token of at most ``longest``
    characters, required (401 ``missing`` without it)."""

    @_auth_first
    def token(
        request: Request,
        _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_session)],
    ) -> str:
        return need_bearer(request, longest=longest, what="session token", missing=missing)

    return token


def _dependencies(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _dependencies(sub)


class AuthFirst(APIRoute):
    """A route that runs its token dependencies (:data:`SEAT_TOKEN`, :data:`SESSION_TOKEN`)
    before FastAPI reads the body: a caller without a token gets 401, never 422 for a body
    it was not entitled to send (FastAPI parses the JSON before any dependency runs)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        checks = list(dict.fromkeys(
            d.call for d in _dependencies(self.dependant) if d.call in _AUTH_FIRST))
        if not checks:
            return handler

        async def authorised_first(request: Request) -> Response:
            for check in checks:
                check(request, None)  # the scheme declared is not read
            return await handler(request)

        return authorised_first


def client_id(request: Request) -> str:
    """This browser's anonymous id (set by the app's middleware on every request)."""
    client: str = request.state.client
    return client


def client_address(request: Request) -> str:
    """The client's address, as the per-address limits count it: the connection's peer,
    or what ``X-Forwarded-For`` says when the peer is a proxy named in
    ``Settings.forwarded_allow_ips`` (from anyone else the header is ignored)."""
    peer = request.client.host if request.client is not None else "unknown"
    proxies = trusted_proxies(get_settings(request).forwarded_allow_ips)
    return proxies.client(peer, request.headers.getlist("x-forwarded-for"))


Services = Annotated[AppServices, Depends(get_services)]
Games = Annotated[GameService, Depends(get_games)]
Multi = Annotated[MultiGameService, Depends(get_multi)]
Analysis = Annotated[AnalysisService, Depends(get_analysis)]
Reviews = Annotated[ReviewService, Depends(get_reviews)]
Variations = Annotated[VariationService, Depends(get_variations)]
Tournaments = Annotated[TournamentSite, Depends(get_tournaments)]
Study = Annotated[StudySite, Depends(get_study)]
Compute = Annotated[ComputePool, Depends(get_compute)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
Templates = Annotated[Jinja2Templates, Depends(get_templates)]
LangDep = Annotated[Lang, Depends(get_lang)]
Token = Annotated[str | None, Depends(bearer_token)]
SeatToken = Annotated[str, Depends(seat_token)]
Client = Annotated[str, Depends(client_id)]
Address = Annotated[str, Depends(client_address)]
