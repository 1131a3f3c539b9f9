"""Dependencies for the routes, as ``Annotated`` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates

from hasamigo.web.i18n import Lang, language_of
from hasamigo.web.services.analysis import AnalysisService
from hasamigo.web.services.games import GameService
from hasamigo.web.settings import Settings


def get_games(request: Request) -> GameService:
    service: GameService = request.app.state.games
    return service


def get_analysis(request: Request) -> AnalysisService:
    service: AnalysisService = request.app.state.analysis
    return service


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_templates(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    return templates


def get_lang(request: Request) -> Lang:
    return language_of(request)


Games = Annotated[GameService, Depends(get_games)]
Analysis = Annotated[AnalysisService, Depends(get_analysis)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
Templates = Annotated[Jinja2Templates, Depends(get_templates)]
LangDep = Annotated[Lang, Depends(get_lang)]
