"""The user study: the subjects' procedure and the researcher's area, over
:class:`~hasamigo.web.services.study.StudySite`.

API (``/api/studies/…``):

* ``POST /api/studies`` (name, researcher's password, arms, clock, languages) → the study
  and the researcher's session token; ``POST …/{id}/login`` → a token;
  ``GET …/{id}`` the study as subjects see it (name, languages).
* Subjects (their code is their only credential): ``POST …/{id}/subjects`` → a new
  subject's state with its code; ``GET …/subjects/{code}`` the state (step, game, the
  question asked); ``POST …/{code}/consent``, ``/before``, ``/game`` (start the next
  game), ``/moves``, ``/answers``, ``/felt``, ``/after``. Every answer is committed before
  the state that shows the next question is answered.
* The researcher (``Authorization: Bearer <token>``): ``GET …/{id}/progress`` (each
  subject's step and games), ``GET …/{id}/export.json``, ``GET …/{id}/export/{table}.csv``
  (``subjects``, ``games``, ``answers``), ``GET …/{id}/report`` (the report, HTML).

Pages: ``/studies`` (create, log in), ``/studies/{id}`` (a subject starts or comes back
with the code), ``/studies/{id}/s/{code}`` (the subject's procedure),
``/studies/{id}/research`` (progress, exports, report).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse, Response

from hasamigo.study.records import StudyData
from hasamigo.study.service import PLAY_FREQUENCIES, STRATEGIES, StudyError
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    Compute,
    LangDep,
    Study,
    Templates,
    session_token,
)
from hasamigo.web.i18n import Lang
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_study import (
    After,
    AnswerRequest,
    Before,
    Felt,
    Login,
    MoveRequest,
    NewStudy,
    NewSubject,
)
from hasamigo.web.services.compute import render_report
from hasamigo.web.services.study import StudySite
from hasamigo.web.services.tournaments import TOKEN_LENGTH

router = APIRouter()
api = APIRouter(prefix="/api/studies", tags=["studies"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)
Site = Study
#: the researcher's session token (``Authorization: Bearer <token>``), required: 401 without
researcher_token = session_token(TOKEN_LENGTH, "the researcher's area needs the researcher's "
                                 "session: log in with the study's password")
ResearcherToken = Annotated[str, Depends(researcher_token)]
StudyId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Code = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]
Table = Annotated[str, Path(pattern=r"^(subjects|games|answers)$")]


# ---- studies and the researcher ------------------------------------------------------------
@api.post("", status_code=201, responses=ERRORS)
async def create_study(req: NewStudy, site: Site, address: Address) -> dict[str, Any]:
    """A new study and the researcher's first session."""
    info, token, expires = await site.create(req, address)
    return {"study": info.to_json(), "token": token, "expires": expires}


@api.post("/{study_id}/login", responses=ERRORS)
async def login(study_id: StudyId, req: Login, site: Site, address: Address
                ) -> dict[str, Any]:
    """A researcher's session for the study's password (403 for a wrong one)."""
    token, expires = await site.login(study_id, req.password, address)
    return {"token": token, "expires": expires}


@api.get("/{study_id}", responses=ERRORS)
async def get_study(study_id: StudyId, site: Site) -> dict[str, Any]:
    """The study as a subject sees it."""
    info = await asyncio.to_thread(site.service.info, study_id)
    return {"id": info.id, "name": info.name, "languages": list(info.settings.languages)}


@api.get("/{study_id}/progress", responses=ERRORS)
async def progress(study_id: StudyId, site: Site, token: ResearcherToken) -> dict[str, Any]:
    """Every subject's step, order and games (the researcher)."""
    await site.researcher(study_id, token)
    info = await asyncio.to_thread(site.service.info, study_id)
    subjects = await asyncio.to_thread(site.service.subjects, study_id)
    return {"study": info.to_json(), "subjects": [s.to_json() for s in subjects]}


async def _data(site: StudySite, study_id: str, token: str | None) -> StudyData:
    await site.researcher(study_id, token)
    return await site.data(study_id)


def _json(data: StudyData) -> str:
    return json.dumps(data.to_json(), ensure_ascii=False)


def _csv(data: StudyData, table: str) -> str:
    return data.to_csv()[f"{table}.csv"]


@api.get("/{study_id}/export.json", responses=ERRORS)
async def export_json(study_id: StudyId, site: Site, token: ResearcherToken) -> Response:
    """The three tables in one object (``StudyData.to_json()``)."""
    data = await _data(site, study_id, token)
    # written off the loop: a study of 40 subjects is a few thousand answers (0.15 s)
    return Response(await asyncio.to_thread(_json, data), media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="study-{study_id}.json"'})


@api.get("/{study_id}/export/{table}.csv", responses=ERRORS)
async def export_csv(study_id: StudyId, table: Table, site: Site, token: ResearcherToken
                     ) -> Response:
    """One table as CSV: one row per subject, game or answer."""
    data = await _data(site, study_id, token)
    return Response(await asyncio.to_thread(_csv, data, table),
                    media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition":
                             f'attachment; filename="study-{study_id}-{table}.csv"'})


@api.get("/{study_id}/report", responses=ERRORS, response_class=HTMLResponse)
async def report(study_id: StudyId, site: Site, token: ResearcherToken, lang: LangDep,
                 compute: Compute) -> HTMLResponse:
    """The study's report (figures and tables) as HTML, drawn in a worker process (seconds
    of matplotlib for a few dozen subjects: see :mod:`hasamigo.web.services.compute`)."""
    data = await _data(site, study_id, token)
    info = await asyncio.to_thread(site.service.info, study_id)
    try:
        html = await compute.run(render_report, data, info.name, lang)
    except ImportError:
        raise StudyError("the report is not available in this version", "not_found"
                         ) from None
    return HTMLResponse(html)


# ---- subjects --------------------------------------------------------------------------------
@api.post("/{study_id}/subjects", status_code=201, responses=ERRORS)
async def new_subject(study_id: StudyId, req: NewSubject, site: Site, address: Address
                      ) -> dict[str, Any]:
    """A new subject: the anonymous code and the counterbalanced order."""
    return await site.new_subject(study_id, req.language, address)


@api.get("/{study_id}/subjects/{code}", responses=ERRORS)
async def subject_state(study_id: StudyId, code: Code, site: Site) -> dict[str, Any]:
    """Where the subject is: the step, the game in play, the question asked."""
    return await site.state(study_id, code)


@api.post("/{study_id}/subjects/{code}/consent", responses=ERRORS)
async def consent(study_id: StudyId, code: Code, site: Site) -> dict[str, Any]:
    return await site.consent(study_id, code)


@api.post("/{study_id}/subjects/{code}/before", responses=ERRORS)
async def before(study_id: StudyId, code: Code, req: Before, site: Site) -> dict[str, Any]:
    return await site.before(study_id, code, strength=req.strength,
                             play_frequency=req.play_frequency,
                             strategies=list(req.strategies))


@api.post("/{study_id}/subjects/{code}/game", responses=ERRORS)
async def start_game(study_id: StudyId, code: Code, site: Site) -> dict[str, Any]:
    """Start the subject's next game (the state as it is when it has started)."""
    return await site.start_game(study_id, code)


@api.post("/{study_id}/subjects/{code}/moves", responses=ERRORS)
async def move(study_id: StudyId, code: Code, req: MoveRequest, site: Site
               ) -> dict[str, Any]:
    """The subject's move; answers once the program has replied (or a few seconds)."""
    return await site.move(study_id, code, req.move)


@api.post("/{study_id}/subjects/{code}/answers", responses=ERRORS)
async def answer(study_id: StudyId, code: Code, req: AnswerRequest, site: Site
                 ) -> dict[str, Any]:
    """One answer about the program's last move (a second one to the same question is
    refused)."""
    return await site.answer(study_id, code, req.move_number, req.question, req.answer,
                             req.seconds)


@api.post("/{study_id}/subjects/{code}/felt", responses=ERRORS)
async def felt(study_id: StudyId, code: Code, req: Felt, site: Site) -> dict[str, Any]:
    return await site.felt(study_id, code, req.index, req.felt, req.note)


@api.post("/{study_id}/subjects/{code}/after", responses=ERRORS)
async def after(study_id: StudyId, code: Code, req: After, site: Site) -> dict[str, Any]:
    return await site.after(study_id, code, more_fun=req.more_fun,
                            more_fun_why=req.more_fun_why, what_makes_fun=req.what_makes_fun)


# ---- pages -------------------------------------------------------------------------------------
def _context(request: Request, lang: Lang, **extra: Any) -> dict[str, Any]:
    return {"request": request, "lang": lang,
            "other_lang": "en" if lang == "ja" else "ja", "strategies": STRATEGIES,
            "frequencies": PLAY_FREQUENCIES, **extra}


@pages.get("/studies", response_class=HTMLResponse)
def studies_page(request: Request, templates: Templates, lang: LangDep) -> Response:
    """Create a study, or log in to one as its researcher."""
    return templates.TemplateResponse(request, "study_list.html", _context(request, lang))


@pages.get("/studies/{study_id}", response_class=HTMLResponse)
async def study_entry(study_id: StudyId, request: Request, templates: Templates,
                      lang: LangDep, site: Site) -> Response:
    """A subject starts, or comes back with the code."""
    info = await asyncio.to_thread(site.service.info, study_id)
    return templates.TemplateResponse(request, "study_entry.html",
                                      _context(request, lang, info=info))


@pages.get("/studies/{study_id}/s/{code}", response_class=HTMLResponse)
async def subject_page(study_id: StudyId, code: Code, request: Request,
                       templates: Templates, lang: LangDep, site: Site) -> Response:
    """The subject's procedure (a script over the API)."""
    info = await asyncio.to_thread(site.service.info, study_id)
    return templates.TemplateResponse(request, "study_subject.html",
                                      _context(request, lang, info=info, code=code.upper()))


@pages.get("/studies/{study_id}/research", response_class=HTMLResponse)
async def research_page(study_id: StudyId, request: Request, templates: Templates,
                        lang: LangDep, site: Site) -> Response:
    """The researcher's area: progress, exports, report (a script over the API)."""
    info = await asyncio.to_thread(site.service.info, study_id)
    return templates.TemplateResponse(request, "study_research.html",
                                      _context(request, lang, info=info))


router.include_router(api)
router.include_router(pages)
