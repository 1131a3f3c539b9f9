"""A game read from a file (a transcript, GGF, WTHOR) as a game of the procedure.

An imported game is an ordinary game: a :class:`~hasamigo.game.setup.GameSetup` (the
file's two players as two people, Black chosen by the first, no clock, casual) and the
events a game played on one screen would have left: the colour choice, then each move
through :meth:`GameController.play`, so the forced passes follow by themselves (one after
the file's last move too, when the side to move then has none) and every move is checked
by the fold again. Its board, phase and result are the fold's, as for
any game; the file's recorded score is not an event and is not kept.

A file whose moves stop before the end (a resignation, a time-out, an adjudication: the
file's result can't be checked against the board) gives a game **in progress** at that
position, which its two players may play on; nothing is invented to end it.

Every event is dated at the game's date when the file gives a whole one (GGF ``DT``: a
day, with its time of day if written, read as UTC; or seconds since the epoch), else at
``at`` (the import).

**How a board that ends with empties is counted: by the record's source, not its date
alone.** The 2024 encyclopedia's note on the empties-to-the-winner rule says
「国際的には従前から使われていたルールだが、日本では2014年6月1日からこのルールが施行された」
(othello-wikipedia-ja-2024, note 2): internationally the rule was in use before, in Japan
it took effect on 1 June 2014. So a record of the international game, a WTHOR archive or
a GGS game in GGF, keeps the count with the empties to the winner (``jof-2014``) whatever
its date; the Japanese count of before June 2014 (``jof-pre-2014``: the empties split, a
wipe-out 64-0) applies only to a game the user marks as a JOF event (:func:`record_scoring`
with ``jof_event``; a year alone, as WTHOR gives, dates it enough). The user may also
choose any scoring for an import, or change a stored game's afterwards: the game's setup
holds it (:attr:`~hasamigo.game.setup.GameOptions.scoring`), and its result also gives the
count with the empties to the winner (``score_under``), which the pages show beside it.

>>> from hasamigo.notation import parse_ggf
>>> [record] = parse_ggf("(;GM[Othello]PB[Ann]PW[Bo]DT[2003.12.15_12:33:18.MST]"
...                      "B[f5]W[d6];)")
>>> game = game_of_record(record, at=0.0)
>>> game.seat(BLACK).name, len(game.history), game.phase.value
('Ann', 2, 'playing')
>>> game_date(record.date)
1071491598.0
"""

from __future__ import annotations

import random
import re
import time
from datetime import UTC, datetime

from hasamigo.errors import HasamigoError
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.result import Scoring, scoring_for
from hasamigo.game.setup import NAME_LENGTH, GameOptions, GameSetup, Participant
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.notation.record import GameRecord

#: players' names when the file has none
DEFAULT_NAMES = {BLACK: "Black", WHITE: "White"}
_DAY = re.compile(r"([0-9]{4})[.\-/]([0-9]{1,2})[.\-/]([0-9]{1,2})"
                  r"(?:[_T ]([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?)?")
_EPOCH = re.compile(r"[0-9]{9,10}")
_YEAR = re.compile(r"([0-9]{4})(?![0-9])")
#: dates before this (or a day after the import) are taken for noise, not a date
_EARLIEST = datetime(1970, 1, 2, tzinfo=UTC).timestamp()


def player_name(text: str, colour: Color) -> str:
    """A player's name as a participant takes it: printable, spaces collapsed, at most
    :data:`~hasamigo.game.setup.NAME_LENGTH` characters; the colour's name if none."""
    clean = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return clean[:NAME_LENGTH] or DEFAULT_NAMES[colour]


def imported_setup(record: GameRecord, names: tuple[str, str] | None = None, *,
                   scoring: Scoring | None = None) -> GameSetup:
    """The setup of ``record``'s game: Black (participant 0) and White as people, the
    record's board and start, no clock, casual, counted by ``scoring`` (default: the
    source's count, :func:`record_scoring`). ``names`` replace the record's (when it
    has none, as a WTHOR archive without its ``.JOU``); equal names get their colour."""
    black, white = names or (record.black, record.white)
    black, white = player_name(black, BLACK), player_name(white, WHITE)
    if black == white:
        black = f"{black[:NAME_LENGTH - 8]} (Black)"
        white = f"{white[:NAME_LENGTH - 8]} (White)"
    options = GameOptions(variant=record.variant.name, position=record.start,
                          clock_seconds=None, casual=True,
                          scoring=(scoring or record_scoring(record)).code)
    return GameSetup((Participant(black), Participant(white)), options, "black")


def game_date(text: str, *, now: float | None = None) -> float | None:
    """The instant (seconds since the epoch) a record's date names, if it names a whole
    one: ``2003.12.15`` or ``2003-12-15`` with an optional ``_12:33:18`` (read as UTC;
    a zone name after it is ignored), or epoch seconds (GGS writes ``DT[947375357]``).
    A year alone (WTHOR), nothing, or a date outside 1970 .. tomorrow is ``None``."""
    text = text.strip()
    latest = (time.time() if now is None else now) + 86_400
    if _EPOCH.fullmatch(text):
        instant = float(text)
    elif found := _DAY.match(text):
        year, month, day, hour, minute, second = (int(g) if g else 0 for g in found.groups())
        try:
            instant = datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp()
        except ValueError:
            return None
    else:
        return None
    return instant if _EARLIEST <= instant <= latest else None


def record_scoring(record: GameRecord, *, jof_event: bool = False) -> Scoring:
    """How ``record``'s game counts a board that ends with empties (see the module
    docstring): the empties to the winner (``jof-2014``), as the international game
    always counted, unless the user marks it a JOF event (``jof_event``): then the JOF's
    scoring on the record's date (:func:`~hasamigo.game.result.scoring_for`), read from a
    whole date (GGF ``DT``) or a year alone (WTHOR, or a date :func:`game_date` takes for
    noise but whose year is plain); no date at all is today's rule.

    >>> old = GameRecord(date="1990")
    >>> record_scoring(old).code, record_scoring(old, jof_event=True).code
    ('jof-2014', 'jof-pre-2014')
    >>> [record_scoring(GameRecord(date=d), jof_event=True).code
    ...  for d in ("2014.05.31", "2014", "")]
    ['jof-pre-2014', 'jof-2014', 'jof-2014']
    """
    if not jof_event:
        return Scoring.JOF_2014
    instant = game_date(record.date)
    if instant is not None:
        return scoring_for(datetime.fromtimestamp(instant, UTC).date())
    year = _YEAR.match(record.date.strip())
    return scoring_for(None if year is None else int(year.group(1)))


def game_of_record(record: GameRecord, *, at: float, game_id: str | None = None,
                   names: tuple[str, str] | None = None,
                   scoring: Scoring | None = None) -> GameController:
    """The game of ``record`` (see the module docstring), its events dated at the
    record's date or else ``at``, counted by ``scoring`` (default: the source's count).
    Raises :class:`~hasamigo.errors.ParseError` for a record with a ``problem``,
    :class:`~hasamigo.errors.IllegalMoveError` naming the move number and square for an
    illegal move, :class:`GameError` for a board or start the games can't be set up
    with."""
    moves = record.replay().move_stack
    instant = game_date(record.date, now=at)
    when = at if instant is None else instant
    setup = imported_setup(record, names, scoring=scoring)
    game = GameController.new(setup, time_source=lambda: when, rng=random.Random(0),
                              game_id=game_id)
    for move in moves:
        if move.is_pass:  # forced: the controller has played it already
            continue
        try:
            game.play(None, move)
        except (HasamigoError, ValueError) as exc:  # pragma: no cover - replayed above
            raise GameError(f"move {len(game.board.move_stack) + 1}: {exc}") from exc
    played = game.board.move_stack
    # the fold agrees with the replay, but for a forced pass it plays after the last move
    if played[:len(moves)] != moves or not all(m.is_pass for m in played[len(moves):]):
        raise GameError("the game's moves differ from the record's")  # pragma: no cover
    return game


__all__ = ["DEFAULT_NAMES", "game_date", "game_of_record", "imported_setup", "player_name",
           "record_scoring"]
