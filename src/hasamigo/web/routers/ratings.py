"""Ratings (issue 67), thin over :class:`~hasamigo.web.services.ratings.RatingService`:

* ``GET /api/ratings/programs`` the programs' measured ratings (docs/ratings.md) and the
  command that measured them;
* ``GET /api/ratings/{pool}/{subject}`` a subject's rating (``account:<id>``,
  ``program:<spec>``) in a pool (``othello``, ``rolit``, ``multi4``), with its last changes
  (``?history=N``, at most 500);
* ``GET /api/players/{name}/ratings`` an account's ratings by its name, every pool, with
  the history of each (the profile's chart);
* ``GET /api/games/{game_id}/rating`` whether a finished game was rated: each player's
  change, or why not (the JOF exclusions and the site's own, in the reader's language).

Ratings are public, as on the sites players know: no credential is asked but the game's
own reader's (a private game's rating is seen by its seats only).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from hasamigo.errors import InvalidOptionError
from hasamigo.ratings import Pool
from hasamigo.ratings.calibration import PROGRAM_RATINGS
from hasamigo.ratings.model import SUBJECT_CHARS, check_subject, subject_of_account
from hasamigo.web.deps import Accounts, AuthFirst, LangDep, Ratings, Reader
from hasamigo.web.errors import NotFound
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.services.ratings import verdict_json

router = APIRouter(tags=["ratings"], route_class=AuthFirst)

PoolPath = Annotated[str, Path(max_length=16, pattern=r"^[a-z0-9]{1,16}$")]
SubjectPath = Annotated[str, Path(max_length=SUBJECT_CHARS)]
History = Annotated[int, Query(ge=0, le=500, description="the last N changes")]


def _pool(text: str) -> Pool:
    try:
        return Pool.parse(text)
    except InvalidOptionError as exc:
        raise NotFound(str(exc)) from None


@router.get("/api/ratings/programs", responses=ERRORS)
async def programs() -> dict[str, Any]:
    """The shipped table of the programs' ratings (empty if it is missing)."""
    import json

    try:
        data: dict[str, Any] = json.loads(
            await asyncio.to_thread(PROGRAM_RATINGS.read_text, encoding="utf-8"))
    except (OSError, ValueError):
        return {"programs": [], "anchor": None, "command": None}
    return data


@router.get("/api/ratings/{pool}/{subject}", responses=ERRORS)
async def subject_rating(pool: PoolPath, subject: SubjectPath, ratings: Ratings,
                         history: History = 0) -> dict[str, Any]:
    """A subject's rating in a pool (the pool's start if never rated)."""
    which, who = _pool(pool), check_subject(subject)  # 400 for a malformed one
    rating = await asyncio.to_thread(ratings.current, who, which)
    changes = await asyncio.to_thread(ratings.history, who, which, history) if history else []
    return {**rating.as_json(), "history": [c.as_json() for c in changes]}


@router.get("/api/players/{name}/ratings", responses=ERRORS)
async def player_ratings(name: Annotated[str, Path(max_length=40)], ratings: Ratings,
                         accounts: Accounts, history: History = 100) -> dict[str, Any]:
    """An account's ratings in every pool it was rated in, each with its last changes."""
    account = await asyncio.to_thread(accounts.store.by_name, name)
    if account is None:
        raise NotFound("no such player")
    subject = subject_of_account(account.id)
    pools = await asyncio.to_thread(ratings.pools_of, subject)
    out = []
    for rating in pools:
        changes = await asyncio.to_thread(ratings.history, subject, rating.pool, history)
        out.append({**rating.as_json(), "history": [c.as_json() for c in changes]})
    return {"name": account.name, "subject": subject, "ratings": out}


@router.get("/api/games/{game_id}/rating", responses=ERRORS)
async def game_rating(game_id: str, reader: Reader, ratings: Ratings, lang: LangDep
                      ) -> dict[str, Any]:
    """A finished game's rating changes, or why it is not rated (``over`` false before
    its end)."""
    live, _you = reader
    verdict = await asyncio.to_thread(ratings.verdict, live.id, live.game)
    if verdict is None:
        return {"rated": False, "changes": [], "excluded": None, "over": False}
    answer = verdict_json(verdict, lang)
    for change, colour in zip(answer["changes"], ("black", "white"), strict=False):
        change["colour"] = colour  # rated as (Black, White): the changes' order
    return {**answer, "over": True}
