"""The app's services, built once by the lifespan (:func:`hasamigo.web.app.create_app`)
and kept on ``app.state.services``; routes reach them through :mod:`hasamigo.web.deps`.

Every service is made here, in one place and in order (the database, then the games over
it, then what uses the games), instead of lazily in the routers behind locks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from hasamigo.storage.db import Database
    from hasamigo.web.services.accounts import AccountService
    from hasamigo.web.services.analysis import AnalysisService
    from hasamigo.web.services.compute import ComputePool
    from hasamigo.web.services.games import GameService
    from hasamigo.web.services.lobby import LobbyService
    from hasamigo.web.services.multi import MultiGameService
    from hasamigo.web.services.ratings import RatingService
    from hasamigo.web.services.review import ReviewService
    from hasamigo.web.services.study import StudySite
    from hasamigo.web.services.tournaments import TournamentSite
    from hasamigo.web.services.variations import VariationService
    from hasamigo.web.services.warmup import KernelWarmup


@dataclass(frozen=True, slots=True)
class AppServices:
    """What the routes use, one of each per app (the settings and the templates, the app's
    configuration, stay on ``app.state``)."""

    db: Database
    games: GameService
    analysis: AnalysisService
    reviews: ReviewService
    variations: VariationService
    #: the kernels' warm-up (its ``ready`` event: the engine's kernels are loaded)
    engine: KernelWarmup
    #: worker processes for CPU-heavy work (reports, large pairings), started at first use
    compute: ComputePool
    tournaments: TournamentSite
    study: StudySite
    #: the games of three and four players (Rolit, 4人対戦オセロ)
    multi: MultiGameService
    #: people's accounts and their sessions (issue 67)
    accounts: AccountService
    #: the players' ratings: a rated game rated as it ends (issue 67)
    ratings: RatingService
    #: the lobby: challenges, pairing by rating, games to watch (issue 67)
    lobby: LobbyService


def services_of(app: FastAPI) -> AppServices | None:
    """The app's services; ``None`` before its lifespan has built them."""
    services: AppServices | None = getattr(app.state, "services", None)
    return services


__all__ = ["AppServices", "services_of"]
