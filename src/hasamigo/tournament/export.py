"""A tournament's standings and games as CSV and GGF, and its games in the library.

CSV is what a spreadsheet or a federation's rating office reads: one line per player
(standings, with the Brightwell formula's parts, and the award once finished) or per
board (games: round, board, stage, kind, players, counts, winner, draw-win holder, rated,
the library's game id) or per sanction of rule 21 (when, kind, person, round, board,
reason, who gave it). The names are written safe for a spreadsheet
(:mod:`hasamigo.notation.csv_cells`: a name typed as a formula gets a ``'`` in front).
GGF carries the games that have moves, the programs' games stored in the library (a
result card alone has no moves to write).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from hasamigo.notation import write_games
from hasamigo.notation.csv_cells import csv_text
from hasamigo.notation.record import GameRecord
from hasamigo.tournament.sanctions import Sanction
from hasamigo.tournament.service import GameView, RankingRow, StandingRow, TournamentService

STANDINGS_COLUMNS = ("place", "number", "name", "wins", "games", "discs", "opponents_wins",
                     "c", "brightwell", "woman", "withdrawn", "final_place", "dan", "ouza",
                     "women_champion")
GAMES_COLUMNS = ("round", "board", "stage", "kind", "black", "white", "black_discs",
                 "white_discs", "winner", "draw_win", "rated", "game_id")
#: rule 21's cautions, warnings and removals (:mod:`hasamigo.tournament.sanctions`)
SANCTIONS_COLUMNS = ("at", "kind", "kind_ja", "person", "entrant", "round", "board",
                     "reason", "given_by")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def standings_csv(standings: Iterable[StandingRow], ranking: Iterable[RankingRow] = ()
                  ) -> str:
    """The standings as CSV, with each player's final place and award where ``ranking``
    has them."""
    final = {r.number: r for r in ranking}
    rows = []
    for s in standings:
        r = final.get(s.number)
        rows.append([_cell(v) for v in (
            s.place, s.number, s.name, s.wins, s.games, s.discs, s.opponents_wins, s.c,
            s.brightwell, s.woman, s.withdrawn, None if r is None else r.place,
            None if r is None else r.dan, None if r is None else r.ouza,
            None if r is None else r.women_champion)])
    return csv_text(STANDINGS_COLUMNS, rows)


def games_csv(games: Iterable[GameView]) -> str:
    """Every board as CSV, one line each."""
    return csv_text(GAMES_COLUMNS, ([_cell(v) for v in (
        g.round, g.board, g.stage, g.kind, g.black, g.white, g.black_discs,
        g.white_discs, g.winner, g.draw_win, g.rated, g.game_id)] for g in games))


def sanctions_csv(sanctions: Iterable[Sanction]) -> str:
    """Every sanction of rule 21 (注意・警告・退場) as CSV, one line each, oldest first."""
    return csv_text(SANCTIONS_COLUMNS, ([_cell(v) for v in (
        s.at.isoformat(), s.kind.value, s.kind.japanese, s.person, s.entrant, s.round,
        s.board, s.reason, s.who)] for s in sanctions))


def _write(path: str | os.PathLike[str], text: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        handle.write(text)


def write_standings_csv(path: str | os.PathLike[str], standings: Iterable[StandingRow],
                        ranking: Iterable[RankingRow] = ()) -> int:
    """The standings CSV to ``path``; returns the number of players written."""
    rows = list(standings)
    _write(path, standings_csv(rows, ranking))
    return len(rows)


def write_sanctions_csv(path: str | os.PathLike[str], sanctions: Iterable[Sanction]) -> int:
    """The sanctions' CSV to ``path``; returns the number written."""
    rows = list(sanctions)
    _write(path, sanctions_csv(rows))
    return len(rows)


def write_games_csv(path: str | os.PathLike[str], games: Iterable[GameView]) -> int:
    """The boards' CSV to ``path``; returns the number of boards written."""
    rows = list(games)
    _write(path, games_csv(rows))
    return len(rows)


def game_records(service: TournamentService, tournament_id: str, *,
                 public_only: bool = False) -> list[GameRecord]:
    """The tournament's games that have moves (stored in the library), as records named
    by the tournament, round and board; ``public_only``: only those public in the
    library (what anyone may download)."""
    stored = service.load(tournament_id)
    out = []
    for g in service.games_played(tournament_id):
        if g.game_id is None:
            continue
        game = service.games.load(g.game_id)
        if game is None or (public_only and not game.public):
            continue
        record = game.game.record()
        record.event = f"{stored.name}, round {g.round} board {g.board} ({g.stage})"
        out.append(record)
    return out


def write_games_ggf(service: TournamentService, tournament_id: str,
                    path: str | os.PathLike[str]) -> int:
    """The games with moves in the format of ``path``'s extension (.ggf, .wtb, .txt)."""
    records = game_records(service, tournament_id)
    write_games(Path(path), records)
    return len(records)


def publish_games(service: TournamentService, tournament_id: str) -> list[str]:
    """Make the tournament's stored games public in the library (they are stored public
    when played; a director may have hidden some); returns their ids."""
    ids = [g.game_id for g in service.games_played(tournament_id) if g.game_id is not None]
    for game_id in ids:
        if service.games.load(game_id) is not None:
            service.games.set_public(game_id, True)
    return ids


__all__ = ["game_records", "games_csv", "publish_games", "standings_csv", "write_games_csv",
           "write_games_ggf", "write_standings_csv"]
