"""The variations API: other moves tried from a game's positions, kept as a tree.

* ``GET /api/games/{id}/variations`` the tree (:class:`VariationsView`).
* ``POST /api/games/{id}/variations`` add a move (``{"parent": node}`` or ``{"ply": n}``
  off the main line, and ``"move"``): 201 with the tree, or 200 if that move was there.
* ``DELETE /api/games/{id}/variations/{node}`` the node and its subtree; the tree.
* ``GET /api/games/{id}/variations.json`` the tree to download
  (:func:`hasamigo.analysis.variations.tree_to_json`).
* ``GET /api/games/{id}/variations/{node}/ggf`` the node's whole line as GGF.

Who may read the game may read and add to its variations (a seat token, or anyone for a
public game); an official game in progress has none (403 ``official_game``). Every move
is checked with the rules core against the game as it stands. At most
:data:`~hasamigo.analysis.variations.MAX_NODES` moves a game (409 ``variation_limit``),
:data:`~hasamigo.analysis.variations.MAX_LINE` a line (400 ``invalid_variation``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from hasamigo.web.deps import AuthFirst, Reader, Variations
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_variations import VariationRequest, VariationsView

router = APIRouter(prefix="/api/games", tags=["variations"], route_class=AuthFirst)
NodeId = Annotated[int, Path(ge=1, le=2**31 - 1)]


def _attachment(game_id: str, ext: str) -> dict[str, str]:
    return {"Content-Disposition":
            f'attachment; filename="hasamigo-{game_id}-variations.{ext}"'}


@router.get("/{game_id}/variations", responses=ERRORS)
async def get_variations(game_id: str, variations: Variations, reader: Reader
                         ) -> VariationsView:
    """The game's variation tree, every node with its position and the moves there."""
    live, _you = reader
    return await variations.view(live)


@router.post("/{game_id}/variations", status_code=201, responses=ERRORS)
async def add_variation(game_id: str, req: VariationRequest, variations: Variations,
                        reader: Reader, response: Response
                        ) -> VariationsView:
    """Add a move under ``parent``, or off the main line at ``ply``; ``node`` in the
    answer is its id (200 when the same move was there already)."""
    live, _you = reader
    view, created = await variations.add(live, req.parent, req.ply, req.move)
    if not created:
        response.status_code = 200
    return view


@router.delete("/{game_id}/variations/{node}", responses=ERRORS)
async def delete_variation(game_id: str, node: NodeId, variations: Variations,
                           reader: Reader) -> VariationsView:
    """Delete the node and everything after it; the tree that is left."""
    live, _you = reader
    return await variations.delete(live, node)


@router.get("/{game_id}/variations.json", responses=ERRORS)
async def download_variations(game_id: str, variations: Variations, reader: Reader
                              ) -> JSONResponse:
    """The tree as a file (shape: :mod:`hasamigo.analysis.variations`)."""
    live, _you = reader
    return JSONResponse(await variations.export(live), headers=_attachment(game_id, "json"))


@router.get("/{game_id}/variations/{node}/ggf", response_class=PlainTextResponse,
            responses=ERRORS)
async def variation_ggf(game_id: str, node: NodeId, variations: Variations, reader: Reader
                        ) -> Response:
    """The node's whole line from the start (the main line to its branch, then the
    variation) as GGF; the result only if the line ends the game."""
    live, _you = reader
    text = await variations.line_ggf(live, node)
    return PlainTextResponse(text + "\n", headers={
        "Content-Disposition":
        f'attachment; filename="hasamigo-{game_id}-line-{node}.ggf"'})
