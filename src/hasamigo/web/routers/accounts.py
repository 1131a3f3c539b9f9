"""Accounts (issue 67): sign-up, sign-in, sign-out and who is signed in, thin over
:class:`~hasamigo.web.services.accounts.AccountService`.

* ``POST /api/accounts`` a new account (:class:`Credentials`): 201
  ``{"account": {"id", "name"}}``, and the session cookie (this browser is signed in).
* ``POST /api/accounts/login`` the same for an existing account (401 for a wrong name or
  password; 429 after too many attempts from an address or for a name).
* ``POST /api/accounts/logout`` ends this browser's session (its row is deleted) and
  clears the cookie; 204, signed in or not.
* ``GET /api/accounts/me`` the signed-in account (401 without a valid session).
* ``POST /api/accounts/claim`` the games this browser played without an account become
  the signed-in account's (its seats): ``{"claimed": [game ids]}``.
* ``POST /api/accounts/delete`` (:class:`PasswordAgain`) deletes the signed-in account:
  its games still going resigned, its ratings, sessions, name and password hash deleted,
  its finished games kept for the opponents with its name anonymised; 204.
* ``GET /api/players/{name}`` a player's profile as JSON (as the page shows it):
  ``current`` each pool's rating now (``provisional``: shown with a ``?``),
  ``multi_games`` a page (``?multi_page=N``) of the games of three or four.

The session is the HttpOnly cookie ``hasamigo_session`` (SameSite=Lax; Secure over https).
Sign-up and sign-in also give a trusted browser's cookie ``hasamigo_device`` (HttpOnly,
SameSite=Strict, sent to ``/api/accounts`` only, a year; kept at sign-out): a sign-in from
that browser for its account is not held back by failures others made with the name.
Pages: ``/signup``, ``/login``, ``POST /logout`` (a form: works without a script),
``/players/{name}`` (the profile; one's own shows the claim and the deletion too). Every
page knows who is signed in (:func:`find_viewer`, ``viewer_of(request)`` in the
templates: the name in the navigation bar).
"""

from __future__ import annotations

import asyncio
import functools
import urllib.parse
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment

from hasamigo.accounts import Account
from hasamigo.accounts.model import NAME_LENGTH, PASSWORD_LENGTH
from hasamigo.accounts.profile import MULTI_MAX_PAGE, MultiGamesPage
from hasamigo.ratings import Pool, RatingChange
from hasamigo.web.deps import (
    Accounts,
    Address,
    AuthFirst,
    Client,
    Games,
    LangDep,
    Ratings,
    SignedIn,
    Templates,
    Viewer,
    current_account,
    session_cookie,
)
from hasamigo.web.errors import NotFound
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_accounts import (
    AccountReply,
    AccountView,
    Credentials,
    PasswordAgain,
)
from hasamigo.web.services.accounts import (
    COOKIE_SECONDS,
    DEVICE_COOKIE,
    DEVICE_COOKIE_SECONDS,
    SESSION_COOKIE,
    AccountService,
    PlayerPage,
    Welcome,
)
from hasamigo.web.state import services_of

router = APIRouter(prefix="/api/accounts", tags=["accounts"], route_class=AuthFirst)
players = APIRouter(prefix="/api/players", tags=["accounts"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)
PlayerName = Annotated[str, Path(min_length=1, max_length=200)]
#: the page of a profile's multi-player games (1 first)
MultiPage = Annotated[int, Query(ge=1, le=MULTI_MAX_PAGE)]


def _reply(account: Account) -> AccountReply:
    return AccountReply(account=AccountView(id=account.id, name=account.name))


def set_session(request: Request, response: Response, token: str) -> None:
    """Give this browser the session ``token`` (HttpOnly, SameSite=Lax, Secure over
    https)."""
    response.set_cookie(SESSION_COOKIE, token, max_age=COOKIE_SECONDS, path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")


def clear_session(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


#: the device cookie goes only where a password is checked
DEVICE_PATH = router.prefix


def device_cookie(request: Request) -> str | None:
    """The trusted browser's token from its cookie (``None``: none, or not a token)."""
    value = request.cookies.get(DEVICE_COOKIE)
    if not value or len(value) > 64 or not value.isascii() or not value.isprintable():
        return None
    return value


def welcome(request: Request, response: Response, signed: Welcome) -> None:
    """Give this browser its new session, and its new device token if it has one."""
    set_session(request, response, signed.session)
    if signed.device is not None:
        response.set_cookie(DEVICE_COOKIE, signed.device, max_age=DEVICE_COOKIE_SECONDS,
                            path=DEVICE_PATH, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")


async def _end_previous(request: Request, accounts: AccountService) -> None:
    """A browser signing in again ends the session it had (a new token every time)."""
    token = session_cookie(request)
    if token is not None:
        await accounts.log_out(token)


@router.post("", status_code=201, responses=ERRORS)
async def sign_up(req: Credentials, request: Request, response: Response,
                  accounts: Accounts, address: Address) -> AccountReply:
    """A new account, signed in at once in this browser (400 for a name or password the
    rules refuse, saying why; 409 for a name taken, whatever its case)."""
    signed = await accounts.sign_up(req.name, req.password, address)
    await _end_previous(request, accounts)
    welcome(request, response, signed)
    return _reply(signed.account)


@router.post("/login", responses=ERRORS)
async def log_in(req: Credentials, request: Request, response: Response,
                 accounts: Accounts, address: Address) -> AccountReply:
    """Sign in: a new session of the account in this browser."""
    signed = await accounts.log_in(req.name, req.password, address, device_cookie(request))
    await _end_previous(request, accounts)
    welcome(request, response, signed)
    return _reply(signed.account)


@router.post("/logout", status_code=204, responses=ERRORS)
async def log_out(request: Request, accounts: Accounts) -> Response:
    """Sign out: this browser's session ends (the next request with it is nobody's)."""
    token = session_cookie(request)
    if token is not None:
        await accounts.log_out(token)
    response = Response(status_code=204)
    clear_session(request, response)
    return response


@router.get("/me", responses=ERRORS)
async def me(account: SignedIn) -> AccountReply:
    """The signed-in account."""
    return _reply(account)


@router.post("/claim", responses=ERRORS)
async def claim(account: SignedIn, accounts: Accounts, client: Client) -> dict[str, list[str]]:
    """The games this browser played without an account become the account's: the
    seats it holds there (not the opponents'), for its profile and any browser."""
    return {"claimed": await accounts.claim(account, client)}


@router.post("/delete", status_code=204, responses=ERRORS)
async def delete_account(req: PasswordAgain, request: Request, account: SignedIn,
                         accounts: Accounts, games: Games, ratings: Ratings,
                         address: Address) -> Response:
    """Delete the signed-in account for good, its password asked again (403 if wrong);
    its games still going are resigned, and not rated."""
    await accounts.delete(account, req.password, address, games, ratings,
                          device_cookie(request))
    response = Response(status_code=204)
    clear_session(request, response)
    response.delete_cookie(DEVICE_COOKIE, path=DEVICE_PATH, httponly=True,
                           samesite="strict", secure=request.url.scheme == "https")
    return response


def profile_json(page: PlayerPage) -> dict[str, Any]:
    profile = page.profile

    def record(r: Any) -> dict[str, Any]:
        return {"win": r.win, "draw": r.draw, "loss": r.loss, "games": r.games}

    return {
        "account": {"id": profile.account.id, "name": profile.account.name,
                    "created_at": profile.account.created_at.isoformat()},
        "by_colour": {c: record(r) for c, r in profile.by_colour.items()},
        "by_opening": [{"en": en, "ja": ja, **record(r)} for en, ja, r in profile.by_opening],
        "games": [{"id": g.id, "finished_at": g.finished_at.isoformat(), "variant": g.variant,
                   "colour": g.colour, "opponent": g.opponent, "outcome": g.outcome,
                   "score": [g.mine, g.theirs], "opening_en": g.opening_en,
                   "opening_ja": g.opening_ja, "public": g.public}
                  for g in profile.games],
        "ratings": {pool.value: [{"game": c.game_ref, "at": c.at.isoformat(),
                                  "before": c.before.display, "after": c.after.display,
                                  "uncertainty": c.after.uncertainty}
                                 for c in changes]
                    for pool, changes in page.ratings.items()},
        "current": {pool.value: {"rating": r.display, "uncertainty": r.uncertainty,
                                 "provisional": r.provisional, "games": r.games}
                    for pool, r in page.current.items()},
        "multi_games": multi_json(page.multi),
    }


def multi_json(found: MultiGamesPage | None) -> dict[str, Any]:
    """A page of a profile's multi-player games as JSON."""
    if found is None:
        return {"page": 1, "pages": 1, "total": 0, "games": []}
    return {"page": found.page, "pages": found.pages, "total": found.total, "games": [
        {"id": g.id, "game": g.game, "finished_at": g.finished_at.isoformat(),
         "place": g.place, "rated": g.rated,
         "seats": [{"name": s.name, "colour": s.colour, "discs": s.discs, "place": s.place,
                    "me": s.me, "left": s.left} for s in g.seats]}
        for g in found.games]}


@players.get("/{name}", responses=ERRORS)
async def player(name: PlayerName, accounts: Accounts, viewer: Viewer,
                 multi_page: MultiPage = 1) -> dict[str, Any]:
    """A player's profile: finished games (another person sees the public ones), results
    by colour and by opening, rating history and rating now per pool, a page of the
    finished games of three or four (another person sees the rated ones)."""
    page = await accounts.profile(name, viewer, multi_page=multi_page)
    if page is None:
        raise NotFound("no player of that name")
    return profile_json(page)


# ---- pages -------------------------------------------------------------------------------
async def find_viewer(request: Request) -> None:
    """A page's request (not the API's, nor a static file) with a session cookie looks
    up who is signed in before the page is drawn, for the navigation bar
    (:func:`viewer_of`); the routes' :data:`~hasamigo.web.deps.Viewer` reuses it. Called
    by the app's plain ASGI middleware (:class:`~hasamigo.web.app.ClientCookie`) on every
    HTTP request."""
    path = request.url.path
    if request.method == "GET" and session_cookie(request) is not None \
            and not path.startswith(("/api/", "/static/", "/ws")) \
            and services_of(request.app) is not None:
        await current_account(request)


def viewer_of(request: Request | None) -> Account | None:
    """The signed-in account of a page's request (found by :func:`find_viewer`)."""
    if request is None:
        return None
    found = request.scope.get("hasamigo.credentials") or {}
    account = found.get("account")
    return account if isinstance(account, Account) else None


def install(env: Environment) -> None:
    """Give the templates ``viewer_of(request)``."""
    env.globals.update(viewer_of=viewer_of)


def _safe_next(target: str | None) -> str:
    """Where to go after signing in: a path of this site only (no open redirect). A
    browser drops tabs and line breaks from a URL before reading it (``/<tab>/evil.example``
    is ``//evil.example``, another site), so a target with any control character or space
    is refused too, as is one that reads as having a scheme or a host."""
    if not target or not target.startswith("/") or target.startswith("//") \
            or "\\" in target or len(target) > 500:
        return "/"
    if any(c.isspace() or not c.isprintable() for c in target):
        return "/"
    parts = urllib.parse.urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def _context(request: Request, lang: str, **extra: Any) -> dict[str, Any]:
    return {"request": request, "lang": lang, "other_lang": "en" if lang == "ja" else "ja",
            **extra}


@pages.get("/signup", response_class=HTMLResponse)
async def signup_page(request: Request, templates: Templates, lang: LangDep,
                      viewer: Viewer, next: str | None = None) -> Response:
    """The sign-up form (its script posts to ``POST /api/accounts``)."""
    return templates.TemplateResponse(request, "account_form.html", _context(
        request, lang, mode="signup", next=_safe_next(next), viewer=viewer,
        name_length=NAME_LENGTH, password_length=PASSWORD_LENGTH))


@pages.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, templates: Templates, lang: LangDep,
                     viewer: Viewer, next: str | None = None) -> Response:
    """The sign-in form (its script posts to ``POST /api/accounts/login``)."""
    return templates.TemplateResponse(request, "account_form.html", _context(
        request, lang, mode="login", next=_safe_next(next), viewer=viewer,
        name_length=NAME_LENGTH, password_length=PASSWORD_LENGTH))


@pages.post("/logout")
async def logout_page(request: Request, accounts: Accounts) -> Response:
    """The navigation bar's sign-out button (a form, ``next=<path>``): the session ends,
    back to that page."""
    token = session_cookie(request)
    if token is not None:
        await accounts.log_out(token)
    body = (await request.body())[:2000].decode("utf-8", "replace")
    target = urllib.parse.parse_qs(body).get("next", [None])[0]
    response = RedirectResponse(_safe_next(target), status_code=303)
    clear_session(request, response)
    return response


def rating_chart(changes: list[RatingChange], width: int = 600, height: int = 160
                 ) -> dict[str, Any]:
    """The points of a rating history's line (an SVG drawn by the template): the rating
    after each rated game, the first point the rating before the first. ``high`` and
    ``low`` are the chart's top and bottom (its vertical scale, drawn beside it),
    ``first`` and ``last`` where the line starts and ends."""
    values = [changes[0].before.display] + [c.after.display for c in changes] \
        if changes else []
    if not values:
        return {"points": "", "low": None, "high": None, "width": width, "height": height}
    low, high = min(values), max(values)
    span = max(high - low, 50)
    mid = (high + low) / 2
    low, high = round(mid - span / 2 - 10), round(mid + span / 2 + 10)
    pad = 8
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    points = " ".join(
        f"{pad + i * step:.1f},{pad + (high - v) / (high - low) * (height - 2 * pad):.1f}"
        for i, v in enumerate(values))
    return {"points": points, "low": low, "high": high, "width": width, "height": height,
            "first": values[0], "last": values[-1], "games": len(changes)}


@pages.get("/players/{name}", response_class=HTMLResponse)
async def player_page(request: Request, name: PlayerName, templates: Templates,
                      lang: LangDep, accounts: Accounts, viewer: Viewer, client: Client,
                      games: Games, multi_page: MultiPage = 1) -> Response:
    """A player's profile page; one's own lists its games still going (claimed ones
    too), and offers the claim of this browser's games and the deletion of the account.
    ``?multi_page=N``: the page of multi-player games shown."""
    page = await accounts.profile(name, viewer, multi_page=multi_page)
    if page is None:
        raise NotFound("no player of that name")
    claimable = await accounts.claimable(client) if page.own else 0
    going: list[Any] = []
    if page.own:
        held = await asyncio.to_thread(accounts.seats.account_participants,
                                       page.profile.account.id)
        if held:
            going = await asyncio.to_thread(functools.partial(
                games.repo.summaries, ids=list(held), exclude_phase="over", limit=100))
    charts = [(pool, rating_chart(changes)) for pool, changes in page.ratings.items()]
    return templates.TemplateResponse(request, "player.html", _context(
        request, lang, page=page, profile=page.profile, charts=charts, pools=list(Pool),
        claimable=claimable, going=going, viewer=viewer,
        here=urllib.parse.quote(request.url.path)))
