"""``hasamigo tournament pair``, ``explain`` and ``result``: pair a round, say why it was
paired so, and record a game's result.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, console, fail
from hasamigo.cli.tournament.common import (
    TournamentArg,
    WhoOpt,
    opened_service,
    show_json,
    tournament_app,
    who_of,
)


# ---- pair / explain ----------------------------------------------------------------------
def _print_round(view: Any) -> None:
    table = Table("board", "stage", "Black", "", "White", "result",
                  title=f"Round {view.number}" + ("" if view.complete else " (in play)"))
    for g in view.games:
        if g.kind == "bye":
            table.add_row(str(g.board), g.stage, escape(g.black), "", "(bye)", "win")
            continue
        score = "" if g.black_discs is None else f"{g.black_discs}–{g.white_discs}"
        if g.kind == "not_played_draw":
            score = "not played: draw"
        elif g.kind == "forfeit":
            score += " forfeit"
        elif g.kind == "penalty":
            score += " loss by penalty (反則負け)"
        if g.colours == "fuse-ishi" and not g.finished:
            score = "colours by fuse-ishi"
        if g.draw_win:
            score += f" (draw-win: {escape(g.draw_win)})"
        table.add_row(str(g.board), g.stage, escape(g.black), "v", escape(g.white or ""),
                      score)
    console.print(table)


def _print_explanation(explanation: Any) -> None:
    console.print(f"[bold]Round {explanation.round}: why these pairings[/]")
    for note in explanation.notes:
        console.print(f"  • {escape(note.text)}", highlight=False)
    for board, a, b, why in explanation.boards:
        head = f"board {board}: {escape(a)}" + (f" v {escape(b)}" if b else " (bye)")
        console.print(f"  [bold]{head}[/]", highlight=False)
        for d in why:
            console.print(f"    {escape(f'[{d.rule}]')} {escape(d.text)}", highlight=False)


@tournament_app.command("pair")
def pair(
    tournament: TournamentArg,
    explain: Annotated[bool, typer.Option("--explain", help="Say which rule chose each "
                                                            "pairing.")] = False,
    undo: Annotated[bool, typer.Option("--undo", help="Take back the last round's "
                                                      "pairing (while it has no result).")
                    ] = False,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pair the next round (the round before must be complete).

    JSON: {number, stages, complete, games: [{…a game}]} (+ explanation: {round, notes, boards}
    with --explain), a game being {round, board, stage, kind, black, white, black_number,
    white_number, black_discs, white_discs, winner, finished, colours, draw_win, rated,
    game_id, why: [{rule, text}]}.
    """
    with opened_service(db) as service:
        tid = service.resolve(tournament)
        if undo:
            number = service.unpair_last_round(tid, who=who_of(who))
            if as_json:
                show_json({"unpaired": number})
            else:
                console.print(f"round {number} unpaired")
            return
        view = service.pair_next_round(tid, who=who_of(who))
        explanation = service.explain(tid, view.number) if explain else None
    if as_json:
        data: dict[str, Any] = {"number": view.number, "stages": view.stages,
                                "complete": view.complete, "games": view.games}
        if explanation is not None:
            data["explanation"] = explanation
        show_json(data)
        return
    _print_round(view)
    if explanation is not None:
        _print_explanation(explanation)


@tournament_app.command("explain")
def explain_round(
    tournament: TournamentArg,
    round_number: Annotated[int | None, typer.Option("--round", min=1,
                                                     help="Default: the last paired.")
                            ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say which rule chose each pairing of a round.

    JSON: {round, notes: [{rule, text}], boards: [[board, a, b, [{rule, text}]]]}
    """
    with opened_service(db) as service:
        explanation = service.explain(service.resolve(tournament), round_number)
    if as_json:
        show_json(explanation)
    else:
        _print_explanation(explanation)


# ---- result ------------------------------------------------------------------------------
@tournament_app.command("result")
def result(
    tournament: TournamentArg,
    board: Annotated[int, typer.Argument(min=1, help="The board (pairing) number.")],
    black_discs: Annotated[int | None, typer.Argument(min=0, max=64,
                                                      help="Black's discs on the card.")
                           ] = None,
    white_discs: Annotated[int | None, typer.Argument(min=0, max=64,
                                                      help="White's discs on the card.")
                           ] = None,
    round_number: Annotated[int | None, typer.Option(
        "--round", min=1, help="Default: the last paired round.")] = None,
    black: Annotated[str | None, typer.Option(
        "--black", help="Fuse-ishi games: who played Black (name or number).")] = None,
    draw_win: Annotated[str | None, typer.Option(
        "--draw-win", help="Games without draws: who held the draw-win right.")] = None,
    forfeit: Annotated[str | None, typer.Option(
        "--forfeit", help="A forfeit: the player who forfeits (64–0 to the other).")
                       ] = None,
    late: Annotated[bool, typer.Option(
        "--late", help="With --forfeit: a late player's chosen forfeit (not rated).")
                    ] = False,
    penalty: Annotated[str | None, typer.Option(
        "--penalty", help="A loss by penalty (反則負け, JOF rule 21): the player who "
                          "loses; needs --reason. The project's reading (the rules "
                          "are silent): 64–0 to the other, and rated.")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", help="Take the result from a stored game between the board's two "
                       "entrants (a game over the board recorded at /record, with its "
                       "clock and result card), instead of disc counts.")] = None,
    correct: Annotated[bool, typer.Option(
        "--correct", help="Replace the entered result (needs --reason).")] = False,
    reason: Annotated[str | None, typer.Option(help="Why (a correction needs one).")
                      ] = None,
    db: DbOpt = None,
    who: WhoOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Enter a result card: BOARD, Black's and White's discs (counts that do not add up
    to 64 count against the winner, JOF rule 18), or --game: the result of a game
    recorded over the board.

    JSON: the game, as for pair.
    """
    card: dict[str, Any] = {"black_discs": black_discs, "white_discs": white_discs,
                            "black": black, "draw_win": draw_win, "forfeit_loser": forfeit,
                            "late": late}
    if correct and not reason:
        raise fail("a correction needs --reason (it is kept in the audit log)")
    if game is not None and any(v not in (None, False) for v in card.values()):
        raise fail("--game takes the whole result from the game: give no disc counts, "
                   "--black, --draw-win, --forfeit or --late with it")
    if penalty is not None and (not reason or game is not None or correct
                                or any(v not in (None, False) for v in card.values())):
        raise fail("--penalty takes the loser and --reason (kept in the audit log), "
                   "nothing else")
    with opened_service(db) as service:
        tid = service.resolve(tournament)
        number = round_number or service.info(tid).rounds_paired
        if penalty is not None:
            assert reason is not None
            view = service.penalty_loss(tid, number, board, penalty, reason=reason,
                                        who=who_of(who))
        elif game is not None:
            view = service.link_game(tid, number, board, game, who=who_of(who),
                                     reason=reason if correct else None)
        elif correct:
            assert reason is not None
            view = service.correct_result(tid, number, board, reason=reason, who=who_of(who),
                                          **card)
        else:
            view = service.enter_result(tid, number, board, who=who_of(who), **card)
    if as_json:
        show_json(view)
        return
    verb = "corrected" if correct else "lost by penalty" if penalty else "entered"
    winner = "a draw" if view.winner is None else f"{escape(view.winner)} wins"
    console.print(f"round {view.round} board {view.board} {verb}: {escape(view.black)} "
                  f"{view.black_discs}–{view.white_discs} {escape(view.white or '')}, "
                  f"{winner}" + (f" ({view.kind})" if view.kind in ("forfeit", "penalty")
                                 else ""),
                  highlight=False)
