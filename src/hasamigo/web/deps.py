"""Dependencies for the routes, as ``Annotated`` aliases."""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.templating import Jinja2Templates

from hasamigo.accounts import Account
from hasamigo.web.errors import Busy, Forbidden, NotFound, Unauthorized
from hasamigo.web.i18n import Lang, language_of
from hasamigo.web.limits import trusted_proxies
from hasamigo.web.services.accounts import SESSION_COOKIE, AccountService
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.services.games import GameService, LiveGame
from hasamigo.web.services.multi import MultiGameService
from hasamigo.web.services.ratings import RatingService
from hasamigo.web.services.review import ReviewService
from hasamigo.web.services.study import StudySite
from hasamigo.web.services.tournaments import TournamentSite
from hasamigo.web.services.variations import VariationService
from hasamigo.web.settings import Settings
from hasamigo.web.state import AppServices, services_of

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")

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


def get_accounts(request: Request) -> AccountService:
    return get_services(request).accounts


def get_ratings(request: Request) -> RatingService:
    return get_services(request).ratings


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

#: the paths whose ``{game_id}`` is a game of :class:`GameService` (of
#: :class:`MultiGameService`): a seat token is checked against that game before the body
GAME_PATHS = ("/api/games/{game_id}", "/api/record/games/{game_id}")
MULTI_PATHS = ("/api/multi/{game_id}",)

#: the dependencies that prove a credential (a token, a seat, a subject's code); each is
#: called by :class:`AuthFirst` before the body and the
#: query are read, and keeps what it found for the endpoint (:func:`once`)
_AUTH_FIRST: set[Callable[..., object]] = set()
#: where a request keeps what its credential checks found (one check, one lookup)
_FOUND = "hasamigo.credentials"


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


def auth_first(dependency: F) -> F:
    """Mark ``dependency`` as a credential check: :class:`AuthFirst` runs it before the
    route's body and query are validated. It is called with the request (``None`` for
    the security scheme it declares), sync or async, and reads only the request's headers
    and raw path parameters."""
    _AUTH_FIRST.add(dependency)
    return dependency


async def once(request: Request, key: str, find: Callable[[], Awaitable[T]]) -> T:
    """``await find()`` the first time a request asks for ``key``, the same value after
    (the check :class:`AuthFirst` ran first is not run twice)."""
    found: dict[str, Any] = request.scope.setdefault(_FOUND, {})
    if key not in found:
        found[key] = await find()
    value: T = found[key]
    return value


def path_value(request: Request, name: str, pattern: str | None = None) -> str | None:
    """The raw path parameter ``name`` (not yet validated): ``None`` when the route has
    none, or when it does not match ``pattern`` (no such thing can exist: a 404)."""
    value = request.path_params.get(name)
    if not isinstance(value, str):
        return None
    if pattern is not None and re.fullmatch(pattern, value) is None:
        return None
    return value


@auth_first
async def bearer_token(
    request: Request,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_reader)],
) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``; ``None`` without the header
    (reading a public game). ``_declared`` puts the scheme in the OpenAPI document; the
    header is checked here, and on a game's path (:data:`GAME_PATHS`) the caller's right
    to read that game (401 without a token for a private game, 403 with another's)."""
    token = read_bearer(request, longest=TOKEN_LENGTH, what="seat token")
    template = str(getattr(request.scope.get("route"), "path", ""))
    if path_value(request, "game_id") is not None and template.startswith(GAME_PATHS):
        await once(request, "reader", lambda: _game_access(request, acting=False))
    return token


@auth_first
async def seat_token(
    request: Request,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_seat)],
) -> str:
    """The seat token of an action: without ``Authorization: Bearer <token>``, 401; a
    token that holds no seat of the game the path names, 403 (no such game, 404)."""
    token = need_bearer(request, longest=TOKEN_LENGTH, what="seat token",
                        missing="acting in a game needs its seat token "
                                "(Authorization: Bearer …)")
    game_id = path_value(request, "game_id")
    if game_id is None:
        return token
    template = str(getattr(request.scope.get("route"), "path", ""))
    if template.startswith(GAME_PATHS):
        await once(request, "actor", lambda: _game_access(request, acting=True))
    elif template.startswith(MULTI_PATHS):
        multi = get_multi(request)

        async def seats() -> frozenset[int]:
            colours = await multi.seats(game_id, token)
            if not colours:  # pragma: no cover - colours_of refuses a stranger's token
                raise Forbidden("this seat token holds no seat of this game",
                                "not_your_seat")
            return colours

        await once(request, "multi seats", seats)
    return token


def session_token(longest: int, missing: str,
                  verify: Callable[[Request, str], Awaitable[None]] | None = None
                  ) -> Callable[..., Awaitable[str]]:
    """A dependency: a director's or researcher's session token of at most ``longest``
    characters, required (401 ``missing`` without it); ``verify(request, token)`` then
    refuses a token that is not a session of the tournament or study the path names
    (401/403, or 404 for no such one), before the body is read."""

    @auth_first
    async def token(
        request: Request,
        _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_session)],
    ) -> str:
        value = need_bearer(request, longest=longest, what="session token", missing=missing)
        if verify is not None:
            await once(request, f"session {id(verify)}", lambda: verify(request, value))
        return value

    return token


async def _game_access(request: Request, acting: bool) -> tuple[LiveGame, frozenset[int]]:
    games = get_games(request)
    game_id = path_value(request, "game_id")
    if game_id is None:  # pragma: no cover - the dependency is on a game's routes only
        raise NotFound("no game")
    if acting:
        token = need_bearer(request, longest=TOKEN_LENGTH, what="seat token",
                            missing="acting in a game needs its seat token "
                                    "(Authorization: Bearer …)")
        return await games.actor(game_id, token)
    return await games.reader(game_id, read_bearer(request, longest=TOKEN_LENGTH,
                                                   what="seat token"))


@auth_first
async def game_reader(
    request: Request,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(_reader)],
) -> tuple[LiveGame, frozenset[int]]:
    """The game of the path and the caller's seats, for reading: a seat token of the game,
    or none for a public game (401 without one for a private game, 403 with another's,
    404 for no such game), checked before the body and the query are read."""
    return await once(request, "reader", lambda: _game_access(request, acting=False))


def _dependencies(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _dependencies(sub)


class AuthFirst(APIRoute):
    """A route that runs its credential checks (:func:`auth_first`: the tokens of
    :data:`SEAT_TOKEN` and :data:`SESSION_TOKEN`, the seat of a game, a session of the
    tournament or study, a subject's code) before FastAPI reads the body and the query: a
    caller without the right credential gets 401, 403 or 404, never 422 for a body it was
    not entitled to send (FastAPI validates the body and the query before any dependency
    runs). Every router of the API uses this route class: the one order for all routes."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        checks = [(call, len(inspect.signature(call).parameters) - 1)
                  for call in dict.fromkeys(d.call for d in _dependencies(self.dependant)
                                            if d.call in _AUTH_FIRST)]
        if not checks:
            return handler

        async def authorised_first(request: Request) -> Response:
            for check, declared in checks:
                result = check(request, *[None] * declared)  # the schemes are not read
                if inspect.isawaitable(result):
                    await result
            return await handler(request)

        return authorised_first


_account_cookie = APIKeyCookie(
    name=SESSION_COOKIE, scheme_name="accountSession", auto_error=False,
    description="a signed-in account's session (set by POST /api/accounts or "
                "/api/accounts/login; HttpOnly)")


def session_cookie(request: Request) -> str | None:
    """The account session's token from its cookie (``None``: none, or not a token)."""
    value = request.cookies.get(SESSION_COOKIE)
    if not value or len(value) > 64 or not value.isascii() or not value.isprintable():
        return None
    return value


async def current_account(
    request: Request,
    _declared: Annotated[str | None, Depends(_account_cookie)] = None,
) -> Account | None:
    """The account this browser is signed in to (its session cookie), else ``None``: an
    ended, expired or spoilt session is nobody (looked up once a request)."""
    token = session_cookie(request)
    if token is None:
        return None
    return await once(request, "account", lambda: get_accounts(request).viewer(token))


@auth_first
async def signed_in(
    request: Request,
    _declared: Annotated[str | None, Depends(_account_cookie)] = None,
) -> Account:
    """The signed-in account, checked before the body is read: 401 without a session
    cookie, or with one whose session has ended (signed out, expired, account deleted)."""
    account = await current_account(request)
    if account is None:
        raise Unauthorized("this needs you to be signed in" if session_cookie(request) is None
                           else "your session has ended: sign in again")
    return account


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
SettingsDep = Annotated[Settings, Depends(get_settings)]
Templates = Annotated[Jinja2Templates, Depends(get_templates)]
LangDep = Annotated[Lang, Depends(get_lang)]
Token = Annotated[str | None, Depends(bearer_token)]
SeatToken = Annotated[str, Depends(seat_token)]
Reader = Annotated[tuple[LiveGame, frozenset[int]], Depends(game_reader)]
Client = Annotated[str, Depends(client_id)]
Accounts = Annotated[AccountService, Depends(get_accounts)]
Ratings = Annotated[RatingService, Depends(get_ratings)]
#: the signed-in account, or ``None`` (anyone may call the route)
Viewer = Annotated[Account | None, Depends(current_account)]
#: the signed-in account (401 ``{"error": …}`` without a valid session)
SignedIn = Annotated[Account, Depends(signed_in)]
Address = Annotated[str, Depends(client_address)]
