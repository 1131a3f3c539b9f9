"""Tournaments: the director's area (password) and the public pages (pairings, standings,
bracket, ranking), over :class:`~hasamigo.tournament.service.TournamentService`.

The API (``/api/tournaments/…``) answers the core's views as JSON. Reading is public;
what changes a tournament needs the director's session token (``Authorization: Bearer
<token>``, from ``POST /api/tournaments`` or ``…/login``; see
:mod:`hasamigo.web.services.tournaments`). The public pages are rendered here from the
same views (they work without a script); the director's area is a script over the API.

Pages: ``/tournaments`` (the list and the create form), ``/tournaments/{id}`` (the
pairings of a round), ``…/standings``, ``…/bracket``, ``…/ranking``, ``…/director``, and
the printable sheets ``…/print/pairings`` and ``…/print/standings`` (A4).

The routes are plain functions: the core's storage is synchronous, so FastAPI runs them on
its thread pool.
"""

from __future__ import annotations

import asyncio
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from hasamigo.accounts import Account
from hasamigo.notation import format_ggf
from hasamigo.tournament.export import game_records, games_csv, sanctions_csv, standings_csv
from hasamigo.tournament.formats import FORMATS
from hasamigo.tournament.model import parse_moment
from hasamigo.tournament.service import (
    EntrantView,
    TournamentInfo,
    TournamentNotFound,
    as_json,
)
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    LangDep,
    SignedIn,
    Templates,
    Tournaments,
    Viewer,
    get_tournaments,
    path_value,
    session_token,
)
from hasamigo.web.errors import NotFound
from hasamigo.web.i18n import Lang
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_tournament import (
    MAX_ROUND,
    Correction,
    LinkedGame,
    Login,
    NewEntrant,
    NewTournament,
    PenaltyLoss,
    RegistrationSettings,
    ResultCard,
    SanctionRequest,
    SelfEntry,
    Unpair,
    Withdrawal,
)
from hasamigo.web.services.tournaments import TOKEN_LENGTH, DirectorSession, TournamentSite
from hasamigo.web.sessions import session_reply

router = APIRouter()
api = APIRouter(prefix="/api/tournaments", tags=["tournaments"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)



async def _director_of_path(request: Request, token: str) -> None:
    """The token is a director's session of the tournament the path names (else 401/403,
    404 for no such tournament)."""
    tournament_id = path_value(request, "tournament_id", r"[A-Za-z0-9_-]{1,64}")
    if tournament_id is None:
        raise NotFound("no such tournament")
    await asyncio.to_thread(get_tournaments(request).director, tournament_id, token)


#: the director's session token (``Authorization: Bearer <token>``), required: 401 without,
#: and checked against the tournament before the body or the query is read
director_token = session_token(TOKEN_LENGTH, "the director's area needs the director's "
                               "session: log in with the tournament's password",
                               verify=_director_of_path)

Site = Tournaments
DirectorToken = Annotated[str, Depends(director_token)]
TournamentId = Annotated[str, Path(min_length=1, max_length=64,
                                   pattern=r"^[A-Za-z0-9_-]+$")]
RoundNumber = Annotated[int, Path(ge=1, le=MAX_ROUND)]
BoardNumber = Annotated[int, Path(ge=1, le=1000)]
Number = Annotated[int, Path(ge=1, le=100_000)]


def _session(site: TournamentSite, tournament_id: str, token: str | None) -> DirectorSession:
    return site.director(tournament_id, token)


# ---- views --------------------------------------------------------------------------------------
def public_info(info: TournamentInfo) -> dict[str, Any]:
    """The tournament as anyone may read it (without the draws' seed: nobody can work
    out round 1 before it is drawn)."""
    data: dict[str, Any] = as_json(info)
    data["settings"] = {k: v for k, v in data["settings"].items() if k != "seed"}
    return data


def public_entrant(e: EntrantView) -> dict[str, Any]:
    """An entrant as anyone may read it: without the birth year, the birth date, the
    student status or the school year (the director's area shows them), and with
    ``account`` (entered with an account) in place of the account's id."""
    data: dict[str, Any] = as_json(replace(e, birth_year=None))
    for private in ("birth_year", "born", "student", "school_year"):
        del data[private]
    data["account"] = data.pop("account_id") is not None
    return data


def registration_state(site: TournamentSite, tournament_id: str, viewer: Account | None
                       ) -> dict[str, Any]:
    """Whether accounts may enter themselves now (``refusal``: why not), the settings
    that say so, and the viewer's own entry (``None``: none, or not signed in)."""
    service = site.service
    t = service.tournament(tournament_id)
    settings = t.settings
    entry = None if viewer is None else service.entry(tournament_id, viewer.id)
    return {"open": service.registration_refusal(t) is None,
            "refusal": service.registration_refusal(t),
            "registration": settings.registration,
            "closes": settings.registration_closes, "cap": settings.registration_cap,
            "closes_utc": None if settings.registration_closes is None else
            parse_moment(settings.registration_closes, "the closing time")
            .astimezone(UTC).strftime("%Y-%m-%d %H:%M"),
            "entered": sum(not e.withdrawn for e in t.entrants.values()),
            "seeding": settings.seeding, "rating_seeds": settings.rating_seeds,
            "signed_in": viewer is not None,
            "entry": None if entry is None else public_entrant(entry),
            "can_withdraw": entry is not None and not entry.withdrawn_from
            and not t.pairings}


def _paired(site: TournamentSite, tournament_id: str, number: int) -> None:
    paired = site.service.info(tournament_id).rounds_paired
    if not 1 <= number <= paired:
        raise NotFound(f"round {number} is not paired" + (f" (rounds 1 to {paired} are)"
                                                          if paired else ""))


# ---- the API: reading (public) ------------------------------------------------------------------
@api.get("", responses=ERRORS)
def list_tournaments(site: Site) -> list[dict[str, Any]]:
    """Every tournament, the most recently changed first."""
    out: list[dict[str, Any]] = as_json(site.service.list_tournaments())
    return out


@api.get("/formats")
def formats() -> list[dict[str, Any]]:
    """The formats a tournament can be run in (``key`` for ``POST /api/tournaments``)."""
    return [{"key": key, "title": cls.title} for key, cls in FORMATS.items()]


@api.get("/{tournament_id}", responses=ERRORS)
def get_tournament(tournament_id: TournamentId, site: Site) -> dict[str, Any]:
    """The tournament and its entrants."""
    return {"tournament": public_info(site.service.info(tournament_id)),
            "entrants": [public_entrant(e) for e in site.service.entrants(tournament_id)]}


@api.get("/{tournament_id}/rounds", responses=ERRORS)
def list_rounds(tournament_id: TournamentId, site: Site) -> list[dict[str, Any]]:
    """Every paired round with its boards, in order."""
    paired = site.service.info(tournament_id).rounds_paired
    return [as_json(site.service.round(tournament_id, n)) for n in range(1, paired + 1)]


@api.get("/{tournament_id}/rounds/{number}", responses=ERRORS)
def get_round(tournament_id: TournamentId, number: RoundNumber, site: Site
              ) -> dict[str, Any]:
    """A round's boards: who plays whom, colours, results."""
    _paired(site, tournament_id, number)
    data: dict[str, Any] = as_json(site.service.round(tournament_id, number))
    return data


@api.get("/{tournament_id}/rounds/{number}/explain", responses=ERRORS)
def explain(tournament_id: TournamentId, number: RoundNumber, site: Site) -> dict[str, Any]:
    """Why a round is paired as it is: the round's notes, then each board's reasons."""
    _paired(site, tournament_id, number)
    data: dict[str, Any] = as_json(site.service.explain(tournament_id, number))
    return data


@api.get("/{tournament_id}/standings", responses=ERRORS)
def standings(tournament_id: TournamentId, site: Site,
              after: Annotated[int | None, Query(ge=0, le=MAX_ROUND, description=(
                  "after this round (default: the last paired)"))] = None
              ) -> dict[str, Any]:
    """The standings: wins, Brightwell points and the formula's parts
    (``brightwell == discs + c × opponents_wins``)."""
    info = site.service.info(tournament_id)
    if after is not None and after > info.rounds_paired:
        raise NotFound(f"round {after} is not paired")
    rows = site.service.standings(tournament_id, after)
    return {"after": info.rounds_paired if after is None else after, "c": info.c,
            "standings": as_json(rows)}


def _download(text: str, media_type: str, info: TournamentInfo, what: str) -> Response:
    # an ASCII name for old browsers, the real one (Japanese too) by RFC 6266
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", info.name).strip("-") or info.id
    full = urllib.parse.quote(f"{info.name}-{what}", safe="")
    return Response(text, media_type=f"{media_type}; charset=utf-8", headers={
        "Content-Disposition": f"attachment; filename=\"{stem}-{what}\"; "
                               f"filename*=UTF-8''{full}"})


@api.get("/{tournament_id}/standings.csv", response_class=Response, responses=ERRORS)
def standings_download(tournament_id: TournamentId, site: Site) -> Response:
    """The standings as CSV (with the Brightwell formula's parts, and each player's final
    place and award, provisional until the tournament is finished)."""
    info = site.service.info(tournament_id)
    text = standings_csv(site.service.standings(tournament_id),
                         site.service.ranking(tournament_id))
    return _download(text, "text/csv", info, "standings.csv")


@api.get("/{tournament_id}/games.csv", response_class=Response, responses=ERRORS)
def games_download(tournament_id: TournamentId, site: Site) -> Response:
    """Every board as CSV: round, board, stage, kind, players, counts, winner, draw-win
    holder, rated, and the library's game id."""
    info = site.service.info(tournament_id)
    return _download(games_csv(site.service.games_played(tournament_id)), "text/csv", info,
                     "games.csv")


@api.get("/{tournament_id}/games.ggf", response_class=Response, responses=ERRORS)
def games_ggf(tournament_id: TournamentId, site: Site) -> Response:
    """The tournament's games that have moves and are public in the library, as GGF."""
    info = site.service.info(tournament_id)
    records = game_records(site.service, tournament_id, public_only=True)
    text = "".join(format_ggf(record) + "\n" for record in records)
    return _download(text, "application/x-ggf", info, "games.ggf")


@api.get("/{tournament_id}/ranking", responses=ERRORS)
def ranking(tournament_id: TournamentId, site: Site) -> dict[str, Any]:
    """The final ranking with dan awards (provisional until ``final``)."""
    info = site.service.info(tournament_id)
    return {"final": info.state == "finished",
            "ranking": as_json(site.service.ranking(tournament_id))}


@api.get("/{tournament_id}/bracket", responses=ERRORS)
def bracket(tournament_id: TournamentId, site: Site) -> dict[str, Any]:
    """The knockout games (semifinals, final, third place, women's final, knockout
    rounds), in round and board order."""
    data: dict[str, Any] = as_json(site.service.bracket(tournament_id))
    return data


# ---- the API: an account's own entry (issue 67) --------------------------------------------------
@api.get("/{tournament_id}/registration", responses=ERRORS)
def registration(tournament_id: TournamentId, site: Site, viewer: Viewer) -> dict[str, Any]:
    """Whether a signed-in account may enter itself now, and why not; the signed-in
    viewer's own entry."""
    return registration_state(site, tournament_id, viewer)


@api.post("/{tournament_id}/registration", status_code=201, responses=ERRORS)
def register_self(tournament_id: TournamentId, req: SelfEntry, site: Site,
                  account: SignedIn) -> dict[str, Any]:
    """The signed-in account enters itself under its name (401 signed out; 409: closed,
    full, round 1 paired, entered already); its Othello rating is taken for the
    seeding."""
    entry = site.service.register_account(tournament_id, account.id, account.name,
                                          rank=req.rank or None)
    return public_entrant(entry)


@api.delete("/{tournament_id}/registration", responses=ERRORS)
def withdraw_self(tournament_id: TournamentId, site: Site, account: SignedIn
                  ) -> dict[str, Any]:
    """The signed-in account withdraws its own entry, before round 1 is paired (409
    after it, or with no entry: the director withdraws)."""
    return public_entrant(site.service.withdraw_account(tournament_id, account.id))


# ---- the API: the director ----------------------------------------------------------------------
@api.put("/{tournament_id}/registration/settings", responses=ERRORS)
def registration_settings(tournament_id: TournamentId, req: RegistrationSettings,
                          site: Site, token: DirectorToken) -> dict[str, Any]:
    """Open or close self-registration (a closing time, a cap) and choose the seeding
    (by rank or by rating, the highest rated as seeds); the seeding is fixed once round
    1 is paired (409)."""
    session = _session(site, tournament_id, token)
    info = site.service.set_registration(tournament_id, who=session.who, **req.model_dump())
    return {"tournament": as_json(info)}


@api.post("", status_code=201, responses=ERRORS)
def create(req: NewTournament, site: Site, address: Address) -> dict[str, Any]:
    """A new tournament; the answer carries the director's session token (the password
    is kept only as a salted hash)."""
    info, token, expires = site.create(req, address)
    return {"tournament": as_json(info),
            "session": session_reply(token, req.director or "director", expires)}


@api.post("/{tournament_id}/login", responses=ERRORS)
def login(tournament_id: TournamentId, req: Login, site: Site, address: Address
          ) -> dict[str, Any]:
    """The director's password for a session (403: wrong password), in the one shape of
    :func:`~hasamigo.web.sessions.session_reply`."""
    token, expires = site.login(tournament_id, req.password, req.director, address)
    return session_reply(token, req.director or "director", expires)


@api.get("/{tournament_id}/director", responses=ERRORS)
def director_view(tournament_id: TournamentId, site: Site, token: DirectorToken
                  ) -> dict[str, Any]:
    """What the director's area shows: the tournament (with its settings), every
    entrant's details, the boards still waiting for a result."""
    session = _session(site, tournament_id, token)
    service = site.service
    return {"tournament": as_json(service.info(tournament_id)),
            "entrants": as_json(service.entrants(tournament_id)),
            "to_enter": as_json(service.results_to_enter(tournament_id)),
            "sanctions": [s.to_json() for s in service.sanctions(tournament_id)],
            "director": session.who,
            "expires_at": datetime.fromtimestamp(session.expires, UTC).isoformat()}


@api.post("/{tournament_id}/entrants", status_code=201, responses=ERRORS)
def register(tournament_id: TournamentId, req: NewEntrant, site: Site, token: DirectorToken
             ) -> dict[str, Any]:
    """Register an entrant (until round 1 is paired)."""
    entrant = site.register(_session(site, tournament_id, token), req)
    data: dict[str, Any] = as_json(entrant)
    return data


@api.post("/{tournament_id}/entrants/{number}/withdraw", responses=ERRORS)
def withdraw(tournament_id: TournamentId, number: Number, req: Withdrawal, site: Site,
             token: DirectorToken) -> dict[str, Any]:
    """Withdraw an entrant from the next round to be paired on (at any time)."""
    entrant = site.withdraw(_session(site, tournament_id, token), number, req.reason)
    data: dict[str, Any] = as_json(entrant)
    return data


@api.post("/{tournament_id}/rounds", status_code=201, responses=ERRORS)
def pair(tournament_id: TournamentId, site: Site, token: DirectorToken) -> dict[str, Any]:
    """Pair the next round by the format's rules (the round before must be complete);
    the finals are rounds too."""
    data: dict[str, Any] = as_json(site.pair(_session(site, tournament_id, token)))
    return data


@api.post("/{tournament_id}/rounds/{number}/unpair", responses=ERRORS)
def unpair(tournament_id: TournamentId, number: RoundNumber, req: Unpair, site: Site,
           token: DirectorToken) -> dict[str, int]:
    """Take back the last round's pairing, while none of its results is entered."""
    return {"unpaired": site.unpair(_session(site, tournament_id, token), number,
                                    req.reason)}


@api.post("/{tournament_id}/rounds/{number}/boards/{board}/result", responses=ERRORS)
def enter_result(tournament_id: TournamentId, number: RoundNumber, board: BoardNumber,
                 req: ResultCard, site: Site, token: DirectorToken) -> dict[str, Any]:
    """Enter a board's result card or forfeit (a board that has one: correct it)."""
    session = _session(site, tournament_id, token)
    data: dict[str, Any] = as_json(site.enter(session, number, board, req))
    return data


@api.post("/{tournament_id}/rounds/{number}/boards/{board}/game", responses=ERRORS)
def link_game(tournament_id: TournamentId, number: RoundNumber, board: BoardNumber,
              req: LinkedGame, site: Site, token: DirectorToken) -> dict[str, Any]:
    """Take a board's result from a stored game between its two entrants (a game over the
    board recorded with its clock and result card); with ``reason``, a correction."""
    session = _session(site, tournament_id, token)
    data: dict[str, Any] = as_json(site.link(session, number, board, req))
    return data


@api.post("/{tournament_id}/rounds/{number}/boards/{board}/correction", responses=ERRORS)
def correct_result(tournament_id: TournamentId, number: RoundNumber, board: BoardNumber,
                   req: Correction, site: Site, token: DirectorToken) -> dict[str, Any]:
    """Replace a board's entered result; the audit log keeps before, after and reason."""
    session = _session(site, tournament_id, token)
    data: dict[str, Any] = as_json(site.correct(session, number, board, req))
    return data


@api.post("/{tournament_id}/rounds/{number}/boards/{board}/penalty", responses=ERRORS)
def penalty(tournament_id: TournamentId, number: RoundNumber, board: BoardNumber,
            req: PenaltyLoss, site: Site, token: DirectorToken) -> dict[str, Any]:
    """Declare a loss by penalty (反則負け, JOF rule 21) on a board, with the reason: the
    board's result (entered or replaced) is 64–0 to the other; the audit log keeps it."""
    session = _session(site, tournament_id, token)
    data: dict[str, Any] = as_json(site.penalty(session, number, board, req))
    return data


@api.post("/{tournament_id}/sanctions", status_code=201, responses=ERRORS)
def give_sanction(tournament_id: TournamentId, req: SanctionRequest, site: Site,
                  token: DirectorToken) -> dict[str, Any]:
    """Give a sanction of JOF rule 21 (注意 caution, 警告 warning, 退場 removal) to an
    entrant or another person, with the reason; kept in the record (the audit log,
    action ``sanction``) and shown in the standings. Removing an entrant withdraws them
    from the next round."""
    session = _session(site, tournament_id, token)
    given = site.service.sanction(tournament_id, req.kind, reason=req.reason,
                                  entrant=req.entrant, person=req.person,
                                  round_number=req.round, board=req.board, who=session.who)
    return given.to_json()


@api.get("/{tournament_id}/sanctions.csv", response_class=Response, responses=ERRORS)
def sanctions_download(tournament_id: TournamentId, site: Site, token: DirectorToken
                       ) -> Response:
    """The sanctions of rule 21 as CSV (the director's: it names people who are not
    entrants)."""
    _session(site, tournament_id, token)
    return Response(sanctions_csv(site.service.sanctions(tournament_id)),
                    media_type="text/csv; charset=utf-8", headers={
                        "Content-Disposition":
                        f'attachment; filename="{tournament_id}-sanctions.csv"'})


@api.get("/{tournament_id}/sanctions", responses=ERRORS)
def list_sanctions(tournament_id: TournamentId, site: Site, token: DirectorToken
                   ) -> list[dict[str, Any]]:
    """Every sanction of rule 21 given, oldest first (the director's)."""
    _session(site, tournament_id, token)
    return [s.to_json() for s in site.service.sanctions(tournament_id)]


@api.get("/{tournament_id}/audit", responses=ERRORS)
def audit(tournament_id: TournamentId, site: Site, token: DirectorToken
          ) -> list[dict[str, Any]]:
    """The audit log, oldest first: who, when, what, before, after, why."""
    _session(site, tournament_id, token)
    out: list[dict[str, Any]] = as_json(site.service.audit(tournament_id))
    return out


# ---- pages --------------------------------------------------------------------------------------
def num(value: float | None) -> str:
    """A score as people write it: 3, 2.5, 170.5."""
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _context(request: Request, lang: Lang, **extra: Any) -> dict[str, Any]:
    return {"request": request, "lang": lang,
            "other_lang": "en" if lang == "ja" else "ja", "num": num,
            "formats": list(FORMATS), **extra}


def _missing(request: Request, templates: Templates, lang: Lang, tournament_id: str
             ) -> Response:
    return templates.TemplateResponse(
        request, "tournament_missing.html",
        _context(request, lang, tournament_id=tournament_id[:64]), status_code=404)


def _tournament_page(request: Request, templates: Templates, lang: Lang, site: TournamentSite,
                     tournament_id: str, template: str, tab: str,
                     build: Callable[[TournamentInfo], dict[str, Any]] | None = None
                     ) -> Response:
    try:
        info = site.service.info(tournament_id)
        extra = build(info) if build is not None else {}
    except TournamentNotFound:
        return _missing(request, templates, lang, tournament_id)
    return templates.TemplateResponse(
        request, template, _context(request, lang, info=info, tab=tab, **extra))


def _round_number(info: TournamentInfo, asked: int | None) -> int:
    if asked is None or not 1 <= asked <= info.rounds_paired:
        return info.rounds_paired
    return asked


@pages.get("/tournaments", response_class=HTMLResponse)
def tournaments_page(request: Request, templates: Templates, lang: LangDep, site: Site
                     ) -> Response:
    """Every tournament, and the form that makes a new one."""
    rows = site.service.list_tournaments()
    return templates.TemplateResponse(request, "tournament_list.html",
                                      _context(request, lang, tournaments=rows))


@pages.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def pairings_page(request: Request, tournament_id: str, templates: Templates,
                  lang: LangDep, site: Site, viewer: Viewer,
                  round: Annotated[int | None, Query(ge=1, le=MAX_ROUND)] = None
                  ) -> Response:
    """The pairings of a round (default: the last paired), and the entrants."""
    def build(info: TournamentInfo) -> dict[str, Any]:
        number = _round_number(info, round)
        view = site.service.round(tournament_id, number) if number else None
        return {"round": view, "entrants": site.service.entrants(tournament_id),
                "registration": registration_state(site, tournament_id, viewer)}

    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_pairings.html", "pairings", build)


@pages.get("/tournaments/{tournament_id}/standings", response_class=HTMLResponse)
def standings_page(request: Request, tournament_id: str, templates: Templates,
                   lang: LangDep, site: Site,
                   after: Annotated[int | None, Query(ge=0, le=MAX_ROUND)] = None
                   ) -> Response:
    """The standings after a round with the Brightwell formula's parts."""
    def build(info: TournamentInfo) -> dict[str, Any]:
        shown = info.rounds_paired if after is None or after > info.rounds_paired else after
        return {"after": shown, "rows": site.service.standings(tournament_id, shown)}

    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_standings.html", "standings", build)


@pages.get("/tournaments/{tournament_id}/bracket", response_class=HTMLResponse)
def bracket_page(request: Request, tournament_id: str, templates: Templates,
                 lang: LangDep, site: Site) -> Response:
    """The knockout games, stage by stage."""
    def build(info: TournamentInfo) -> dict[str, Any]:
        games = site.service.bracket(tournament_id).games
        stages: dict[tuple[int, str], list[Any]] = {}
        for g in games:
            stages.setdefault((g.round, g.stage), []).append(g)
        return {"stages": list(stages.items())}

    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_bracket.html", "bracket", build)


@pages.get("/tournaments/{tournament_id}/ranking", response_class=HTMLResponse)
def ranking_page(request: Request, tournament_id: str, templates: Templates,
                 lang: LangDep, site: Site) -> Response:
    """The final ranking with dan awards (provisional until the end)."""
    def build(info: TournamentInfo) -> dict[str, Any]:
        return {"rows": site.service.ranking(tournament_id)}

    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_ranking.html", "ranking", build)


@pages.get("/tournaments/{tournament_id}/director", response_class=HTMLResponse)
def director_page(request: Request, tournament_id: str, templates: Templates,
                  lang: LangDep, site: Site) -> Response:
    """The director's area: its script logs in and works through the API."""
    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_director.html", "director")


@pages.get("/tournaments/{tournament_id}/print/pairings", response_class=HTMLResponse)
def print_pairings(request: Request, tournament_id: str, templates: Templates,
                   lang: LangDep, site: Site,
                   round: Annotated[int | None, Query(ge=1, le=MAX_ROUND)] = None
                   ) -> Response:
    """A round's pairing sheet to print (A4; headings in the page's language)."""
    def build(info: TournamentInfo) -> dict[str, Any]:
        number = _round_number(info, round)
        view = site.service.round(tournament_id, number) if number else None
        return {"sheet": "pairings", "round": view,
                "printed_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}

    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_print.html", "print", build)


@pages.get("/tournaments/{tournament_id}/print/standings", response_class=HTMLResponse)
def print_standings(request: Request, tournament_id: str, templates: Templates,
                    lang: LangDep, site: Site,
                    after: Annotated[int | None, Query(ge=0, le=MAX_ROUND)] = None
                    ) -> Response:
    """The standings sheet to print (A4), with the final ranking once it is final."""
    def build(info: TournamentInfo) -> dict[str, Any]:
        shown = info.rounds_paired if after is None or after > info.rounds_paired else after
        return {"sheet": "standings", "after": shown,
                "rows": site.service.standings(tournament_id, shown),
                "ranking": site.service.ranking(tournament_id)
                if info.state == "finished" and shown == info.rounds_paired else None,
                "printed_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}

    return _tournament_page(request, templates, lang, site, tournament_id,
                            "tournament_print.html", "print", build)


router.include_router(api)
router.include_router(pages)

__all__ = ["director_token", "public_entrant", "public_info", "router"]
