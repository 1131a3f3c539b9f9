"""The user study: the subjects' procedure and the researcher's area, over
:class:`~hasamigo.web.services.study.StudySite`.

API (``/api/studies/…``):

* ``POST /api/studies`` (name, researcher's password, arms, protocol, surprise window,
  clock, languages) → the study and the researcher's session token; ``POST …/{id}/login``
  → a token; ``GET …/{id}`` the study as subjects see it (name, languages, protocol).
* Subjects (their code is their only credential): ``POST …/{id}/subjects`` → a new
  subject's state with its code; ``GET …/subjects/{code}`` the state (step, game, the
  question asked); ``POST …/{code}/consent``, ``/before``, ``/game`` (start the next
  game), ``/moves``, ``/answers``, ``/felt``, ``/after``, ``/withdraw``
  (``{"confirm": true}``: the subject and everything of theirs is deleted; the
  researcher's page uses it too, on a subject's request). Every answer is committed
  before the state that shows the next question is answered.
* The researcher (``Authorization: Bearer <token>``): ``GET …/{id}/progress`` (each
  subject's step and games, codes beside pseudonyms), ``PATCH …/{id}`` (arms, protocol,
  window: only before the first subject), ``POST …/{id}/archive`` and ``/unarchive``,
  ``GET …/{id}/export.zip`` (the whole bundle: every table as CSV, ``study.csv``,
  ``data_dictionary.csv``, ``study.json``), ``GET …/{id}/export.json``,
  ``GET …/{id}/export/{table}.csv`` (``subjects``, ``games``, ``answers``, ``study``),
  ``GET …/{id}/report?where=…&group_by=…`` (the report, HTML).

Pages: ``/studies`` (create, log in), ``/studies/{id}`` (a subject starts or comes back
with the code), ``/studies/{id}/s/{code}`` (the subject's procedure),
``/studies/{id}/research`` (progress, exports, report).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from hasamigo.engine.players import PROGRAMS
from hasamigo.study.pooled import fidelity_summary
from hasamigo.study.protocol import PROTOCOL_BY_NAME, SURPRISE_WINDOWS
from hasamigo.study.records import StudyData
from hasamigo.study.service import PLAY_FREQUENCIES, STRATEGIES, StudyError
from hasamigo.study.settings import MAX_ARMS
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    LangDep,
    Study,
    Templates,
    auth_first,
    once,
    path_value,
    session_token,
)
from hasamigo.web.deps import (
    get_study as study_site,
)
from hasamigo.web.i18n import Lang
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_study import (
    GROUP_BY_LENGTH,
    WHERE_LENGTH,
    After,
    AnswerRequest,
    Before,
    Felt,
    Login,
    MoveRequest,
    NewStudy,
    NewSubject,
    StudyChange,
    Withdraw,
)
from hasamigo.web.services.study import StudySite
from hasamigo.web.services.tournaments import TOKEN_LENGTH
from hasamigo.web.sessions import session_reply

router = APIRouter()
api = APIRouter(prefix="/api/studies", tags=["studies"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)
Site = Study
#: who a researcher's session names (a study has one password, not named people)
RESEARCHER = "researcher"
STUDY_ID, CODE = r"[A-Za-z0-9_-]{1,32}", r"[A-Za-z0-9]{1,16}"


async def _researcher_of_path(request: Request, token: str) -> None:
    """The token is a researcher's session of the study the path names (else 401/403, 404
    for no such study)."""
    study_id = path_value(request, "study_id", STUDY_ID)
    if study_id is None:
        raise StudyError("no such study", "not_found")
    await study_site(request).researcher(study_id, token)


#: the researcher's session token (``Authorization: Bearer <token>``), required: 401 without,
#: and checked against the study before the body or the query is read
researcher_token = session_token(TOKEN_LENGTH, "the researcher's area needs the researcher's "
                                 "session: log in with the study's password",
                                 verify=_researcher_of_path)
ResearcherToken = Annotated[str, Depends(researcher_token)]
StudyId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Code = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]


@auth_first
async def subject_code(request: Request) -> None:
    """A subject's code is their only credential: a code that is not one of the study's
    subjects is 404 before the body is read (a malformed one too: no subject has it)."""
    study_id = path_value(request, "study_id", STUDY_ID)
    code = path_value(request, "code", CODE)
    if study_id is None or code is None:
        raise StudyError("no such subject in this study", "not_found")
    site = study_site(request)
    await once(request, "subject",
               lambda: asyncio.to_thread(site.service.subject, study_id, code))


#: the subjects' routes: the code is checked first (:func:`subject_code`)
SUBJECT = [Depends(subject_code)]
Table = Annotated[str, Path(pattern=r"^(subjects|games|answers|study)$")]
Where = Annotated[str | None, Query(max_length=WHERE_LENGTH,
                                    description="the subjects the report keeps "
                                                "(e.g. strength<=3)")]
GroupBy = Annotated[str | None, Query(max_length=GROUP_BY_LENGTH,
                                      pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                                      description="a column the report groups by "
                                                  "(e.g. first, colour)")]


# ---- studies and the researcher ------------------------------------------------------------
@api.post("", status_code=201, responses=ERRORS)
async def create_study(req: NewStudy, site: Site, address: Address) -> dict[str, Any]:
    """A new study and the researcher's first session (``"session"``, in the shape of
    :func:`~hasamigo.web.sessions.session_reply`)."""
    info, token, expires = await site.create(req, address)
    return {"study": info.to_json(), "session": session_reply(token, RESEARCHER, expires)}


@api.post("/{study_id}/login", responses=ERRORS)
async def login(study_id: StudyId, req: Login, site: Site, address: Address
                ) -> dict[str, Any]:
    """A researcher's session for the study's password (403 for a wrong one), in the one
    shape of :func:`~hasamigo.web.sessions.session_reply`."""
    token, expires = await site.login(study_id, req.password, address)
    return session_reply(token, RESEARCHER, expires)


@api.get("/{study_id}", responses=ERRORS)
async def get_study(study_id: StudyId, site: Site) -> dict[str, Any]:
    """The study as a subject sees it."""
    info = await asyncio.to_thread(site.service.info, study_id)
    return {"id": info.id, "name": info.name, "languages": list(info.settings.languages),
            "protocol": info.settings.protocol, "archived": info.archived_at is not None}


@api.patch("/{study_id}", responses=ERRORS)
async def change_study(study_id: StudyId, req: StudyChange, site: Site,
                       token: ResearcherToken) -> dict[str, Any]:
    """Change the arms, protocol or surprise window: only while no subject has arrived
    (``wrong_phase`` after: a running study cannot change protocol)."""
    await site.researcher(study_id, token)
    info = await site.change(study_id, arms=req.arms, protocol=req.protocol,
                             surprise_window=req.surprise_window)
    return {"study": info.to_json()}


@api.post("/{study_id}/archive", responses=ERRORS)
async def archive(study_id: StudyId, site: Site, token: ResearcherToken) -> dict[str, Any]:
    """Archive the study: read-only (no new subjects, answers, moves or withdrawals)
    until re-opened; its report and exports stay."""
    await site.researcher(study_id, token)
    return {"study": (await site.archive(study_id, True)).to_json()}


@api.post("/{study_id}/unarchive", responses=ERRORS)
async def unarchive(study_id: StudyId, site: Site, token: ResearcherToken
                    ) -> dict[str, Any]:
    """Re-open an archived study."""
    await site.researcher(study_id, token)
    return {"study": (await site.archive(study_id, False)).to_json()}


@api.get("/{study_id}/progress", responses=ERRORS)
async def progress(study_id: StudyId, site: Site, token: ResearcherToken) -> dict[str, Any]:
    """Every subject's step, order and games, and the treatment fidelity of the finished
    games (:func:`~hasamigo.study.pooled.fidelity_summary`: the surprise window, whose
    reading it is, and per program the games with each special move) (the researcher)."""
    await site.researcher(study_id, token)
    info = await asyncio.to_thread(site.service.info, study_id)
    subjects = await asyncio.to_thread(site.service.subjects, study_id)
    fidelity = fidelity_summary(await site.data(study_id))
    return {"study": info.to_json(), "subjects": [s.to_json() for s in subjects],
            "fidelity": fidelity}


async def _data(site: StudySite, study_id: str, token: str | None) -> StudyData:
    await site.researcher(study_id, token)
    return await site.data(study_id)


def _exported(data: StudyData) -> StudyData:
    """The data stamped with the moment it leaves the server."""
    if data.meta is not None:
        data.meta = replace(data.meta, exported_at=datetime.now(UTC).isoformat())
    return data


def _json(data: StudyData) -> str:
    return json.dumps(_exported(data).to_json(), ensure_ascii=False)


def _csv(data: StudyData, table: str) -> str:
    return _exported(data).to_csv()[f"{table}.csv"]


def _zip(data: StudyData) -> bytes:
    return _exported(data).zip()


@api.get("/{study_id}/export.zip", responses=ERRORS)
async def export_zip(study_id: StudyId, site: Site, token: ResearcherToken) -> Response:
    """The researcher's one export: every table as CSV (``subjects``, ``games``,
    ``answers``, ``study``), ``data_dictionary.csv`` and ``study.json``, under the
    subjects' pseudonyms."""
    data = await _data(site, study_id, token)
    return Response(await asyncio.to_thread(_zip, data), media_type="application/zip",
                    headers={"Content-Disposition":
                             f'attachment; filename="study-{study_id}.zip"'})


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
    """One table as CSV: one row per subject, game or answer (``study``: the study's
    one row)."""
    data = await _data(site, study_id, token)
    return Response(await asyncio.to_thread(_csv, data, table),
                    media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition":
                             f'attachment; filename="study-{study_id}-{table}.csv"'})


@api.get("/{study_id}/report", responses=ERRORS, response_class=HTMLResponse)
async def report(study_id: StudyId, site: Site, token: ResearcherToken, lang: LangDep,
                 where: Where = None, group_by: GroupBy = None) -> HTMLResponse:
    """The study's report (figures and tables) as HTML, drawn in a worker process (seconds
    of matplotlib for a few dozen subjects: :meth:`StudySite.report`);
    ``where`` keeps some subjects (``strength<=3``: the paper's 「ふつう」以下), ``group_by``
    splits the tables by a column (``first``, ``colour``…)."""
    data = await _data(site, study_id, token)
    info = await asyncio.to_thread(site.service.info, study_id)
    html = await site.report(data, info.name, lang, (where or "").strip() or None,
                             (group_by or "").strip() or None)
    return HTMLResponse(html)


# ---- subjects --------------------------------------------------------------------------------
@api.post("/{study_id}/subjects", status_code=201, responses=ERRORS)
async def new_subject(study_id: StudyId, req: NewSubject, site: Site, address: Address
                      ) -> dict[str, Any]:
    """A new subject: the anonymous code and the counterbalanced order."""
    return await site.new_subject(study_id, req.language, address)


@api.get("/{study_id}/subjects/{code}", responses=ERRORS, dependencies=SUBJECT)
async def subject_state(study_id: StudyId, code: Code, site: Site) -> dict[str, Any]:
    """Where the subject is: the step, the game in play, the question asked."""
    return await site.state(study_id, code)


@api.post("/{study_id}/subjects/{code}/consent", responses=ERRORS, dependencies=SUBJECT)
async def consent(study_id: StudyId, code: Code, site: Site) -> dict[str, Any]:
    return await site.consent(study_id, code)


@api.post("/{study_id}/subjects/{code}/before", responses=ERRORS, dependencies=SUBJECT)
async def before(study_id: StudyId, code: Code, req: Before, site: Site) -> dict[str, Any]:
    return await site.before(study_id, code, strength=req.strength,
                             play_frequency=req.play_frequency,
                             strategies=None if req.strategies is None
                             else list(req.strategies))


@api.post("/{study_id}/subjects/{code}/game", responses=ERRORS, dependencies=SUBJECT)
async def start_game(study_id: StudyId, code: Code, site: Site) -> dict[str, Any]:
    """Start the subject's next game (the state as it is when it has started)."""
    return await site.start_game(study_id, code)


@api.post("/{study_id}/subjects/{code}/moves", responses=ERRORS, dependencies=SUBJECT)
async def move(study_id: StudyId, code: Code, req: MoveRequest, site: Site
               ) -> dict[str, Any]:
    """The subject's move; answers once the program has replied (or a few seconds)."""
    return await site.move(study_id, code, req.move)


@api.post("/{study_id}/subjects/{code}/answers", responses=ERRORS, dependencies=SUBJECT)
async def answer(study_id: StudyId, code: Code, req: AnswerRequest, site: Site
                 ) -> dict[str, Any]:
    """One answer about the program's last move (a second one to the same question is
    refused)."""
    return await site.answer(study_id, code, req.move_number, req.question, req.answer,
                             req.seconds)


@api.post("/{study_id}/subjects/{code}/felt", responses=ERRORS, dependencies=SUBJECT)
async def felt(study_id: StudyId, code: Code, req: Felt, site: Site) -> dict[str, Any]:
    return await site.felt(study_id, code, req.index, req.felt, req.note)


@api.post("/{study_id}/subjects/{code}/after", responses=ERRORS, dependencies=SUBJECT)
async def after(study_id: StudyId, code: Code, req: After, site: Site) -> dict[str, Any]:
    return await site.after(study_id, code, more_fun=req.more_fun,
                            more_fun_why=req.more_fun_why, what_makes_fun=req.what_makes_fun,
                            strategies_text=req.strategies_text,
                            reported_outcomes=req.reported_outcomes)


@api.post("/{study_id}/subjects/{code}/withdraw", responses=ERRORS, dependencies=SUBJECT)
async def withdraw(study_id: StudyId, code: Code, req: Withdraw, site: Site
                   ) -> dict[str, Any]:
    """The subject withdraws (``{"confirm": true}``; the code is the credential, so the
    researcher's page does it the same way on a subject's request): the subject, their
    answers and games are deleted for good; the study counts the withdrawal."""
    withdrawn = await site.withdraw(study_id, code)
    return {"withdrawn": True, "study_withdrawn": withdrawn}


# ---- pages -------------------------------------------------------------------------------------
def _context(request: Request, lang: Lang, **extra: Any) -> dict[str, Any]:
    return {"request": request, "lang": lang,
            "other_lang": "en" if lang == "ja" else "ja", "strategies": STRATEGIES,
            "frequencies": PLAY_FREQUENCIES, "protocols": PROTOCOL_BY_NAME,
            "windows": SURPRISE_WINDOWS, "arm_choices": _arm_choices(lang), "max_arms": MAX_ARMS,
            "protocol_windows": {name: p.window for name, p in PROTOCOL_BY_NAME.items()},
            **extra}


def _arm_choices(lang: Lang) -> list[tuple[str, str]]:
    """The programs the create form offers to tick, ``(spec, name)`` in the page's
    language: the registry's, but the engine (its levels are typed, ``engine:N``) and the
    window variants (the study's window chooses them)."""
    return [(p.spec, p.ja if lang == "ja" else p.en) for p in PROGRAMS.values()
            if not p.levels and not p.spec.endswith(":moves")]


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
