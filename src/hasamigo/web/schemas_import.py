"""Request and response of ``POST /api/games/import`` (pydantic): a game of a transcript,
a GGF text or a WTHOR archive brought into the library."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from hasamigo.web.schemas import GameView, Request, ScoringCode

ImportFormat = Literal["transcript", "ggf", "wthor"]
#: longest text or base64 accepted (the route's body limit, ``max_import_bytes``, is
#: what bounds it first)
MAX_IMPORT_CHARS = 4 * 1024 * 1024
#: the highest game number asked for (a WTHOR year holds some 10,000 games at most)
MAX_INDEX = 1_000_000


class ImportRequest(Request):
    """A game to import. ``transcript``: ``text`` is one game's moves (``f5d6c3…``, in any
    form a transcript is read). ``ggf``: ``text`` holds one or more GGF games, ``index``
    picks one. ``wthor``: ``data`` is a ``.wtb`` archive in base64, ``index`` picks a
    game, and ``players`` may bring the names (``WTHOR.JOU``, base64). The game is
    private to this browser unless ``public``. A board that ends with empties is counted
    as the source counts (the empties to the winner), by the JOF rule of the record's
    date for a ``jof_event``, or by the ``scoring`` given."""

    format: ImportFormat
    text: str | None = Field(None, max_length=MAX_IMPORT_CHARS,
                             description="the transcript or GGF text")
    data: str | None = Field(None, max_length=MAX_IMPORT_CHARS,
                             description="the WTHOR archive (.wtb), base64")
    players: str | None = Field(None, max_length=MAX_IMPORT_CHARS,
                                description="WTHOR's player names (WTHOR.JOU), base64")
    index: int = Field(1, ge=1, le=MAX_INDEX,
                       description="which game of the file, from 1 (GGF, WTHOR)")
    public: bool = False
    jof_event: bool = Field(False, description="a JOF event (Japan): count a board that "
                            "ends with empties by the JOF rule of the record's date "
                            "(before 1 June 2014 the discs' difference, empties split); "
                            "otherwise the empties go to the winner, as WTHOR and GGS "
                            "always counted")
    scoring: ScoringCode | None = Field(None, description="count the game so instead "
                                        "(jof-2014, jof-pre-2014, discs); not with "
                                        "jof_event")

    @model_validator(mode="after")
    def _one_source(self) -> ImportRequest:
        binary = self.format == "wthor"
        given, other = ("data", "text") if binary else ("text", "data")
        if getattr(self, given) is None:
            raise ValueError(f"a {self.format} import sends '{given}'")
        if getattr(self, other) is not None:
            raise ValueError(f"a {self.format} import sends '{given}', not '{other}'")
        if self.players is not None and not binary:
            raise ValueError("'players' (WTHOR.JOU) goes with a wthor import")
        if self.jof_event and self.scoring is not None:
            raise ValueError("give 'jof_event' (the JOF rule of the record's date) or "
                             "'scoring', not both")
        if self.format == "transcript" and self.index != 1:
            raise ValueError("a transcript holds one game: its index is 1")
        return self


class ImportedGame(GameView):
    """The imported game, with this browser's seat token for it (both players' seat, as
    two people on one screen: send it as ``Authorization: Bearer`` to replay and review a
    private game). ``finished``: the file's game reached its end; otherwise it is kept in
    progress where the file stops."""

    seat_token: str
    finished: bool


__all__ = ["MAX_IMPORT_CHARS", "MAX_INDEX", "ImportFormat", "ImportRequest", "ImportedGame"]
