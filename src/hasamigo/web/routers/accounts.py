"""Accounts (issue 67): sign-up, sign-in, sign-out and who is signed in, thin over
:class:`~hasamigo.web.services.accounts.AccountService`.

* ``POST /api/accounts`` a new account (:class:`Credentials`): 201
  ``{"account": {"id", "name"}}``, and the session cookie (this browser is signed in).
* ``POST /api/accounts/login`` the same for an existing account (401 for a wrong name or
  password; 429 after too many attempts from an address or for a name).
* ``POST /api/accounts/logout`` ends this browser's session (its row is deleted) and
  clears the cookie; 204, signed in or not.
* ``GET /api/accounts/me`` the signed-in account (401 without a valid session).

The session is the HttpOnly cookie ``hasamigo_session`` (SameSite=Lax; Secure over https).
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from hasamigo.accounts import Account
from hasamigo.web.deps import Accounts, Address, AuthFirst, SignedIn, session_cookie
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_accounts import AccountReply, AccountView, Credentials
from hasamigo.web.services.accounts import COOKIE_SECONDS, SESSION_COOKIE

router = APIRouter(prefix="/api/accounts", tags=["accounts"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)


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


@router.post("", status_code=201, responses=ERRORS)
async def sign_up(req: Credentials, request: Request, response: Response,
                  accounts: Accounts, address: Address) -> AccountReply:
    """A new account, signed in at once in this browser (400 for a name or password the
    rules refuse, saying why; 409 for a name taken, whatever its case)."""
    account, token = await accounts.sign_up(req.name, req.password, address)
    set_session(request, response, token)
    return _reply(account)


@router.post("/login", responses=ERRORS)
async def log_in(req: Credentials, request: Request, response: Response,
                 accounts: Accounts, address: Address) -> AccountReply:
    """Sign in: a new session of the account in this browser."""
    account, token = await accounts.log_in(req.name, req.password, address)
    set_session(request, response, token)
    return _reply(account)


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
