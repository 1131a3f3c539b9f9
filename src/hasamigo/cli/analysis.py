"""Learning from games: ``review`` (every move scored, its disc loss and label)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from hasamigo.cli import (
    JsonOpt,
    ThreadsOpt,
    VariantOpt,
    app,
    console,
    emit_json,
    err_console,
    fail,
    ready_kernels,
)
from hasamigo.cli.core import fail_with, parse_position, render_board
from hasamigo.cli.inputs import as_named, input_file
from hasamigo.errors import HasamigoError
from hasamigo.move import BLACK, WHITE

if TYPE_CHECKING:
    from hasamigo.board import Board
    from hasamigo.move import Move

LABEL_STYLE = {"best": "green", "good": "", "inaccuracy": "yellow", "mistake": "red",
               "blunder": "bold red"}


def _game(game: str, index: int, variant: type[Board]) -> tuple[Board, list[Move]]:
    """The start and the moves (passes in place) of a game file's game ``index`` or of a
    transcript typed on the command line."""
    from hasamigo.notation import read_games
    from hasamigo.notation.transcript import parse_transcript

    path = Path(game)
    if path.exists() and not path.is_dir():  # a file, or a pipe (``<(…)``)
        with input_file(path) as file:
            try:
                for number, record in enumerate(read_games(file), 1):
                    if number == index:
                        board = record.replay()
                        start = record.board()
                        return start, list(board.move_stack)
            except (HasamigoError, ValueError) as exc:
                raise fail(as_named(str(exc))) from None
        raise fail(f"{game}: there is no game {index}")
    start = variant()
    board = start.copy()
    for move in parse_transcript(game, board.copy()):
        board.push(move)
    return start, list(board.move_stack)


@app.command()
def review(
    game: Annotated[str, typer.Argument(help="A transcript (f5d6c3…) or a game file "
                                        "(.wtb, .ggf, transcripts; see --index).")],
    index: Annotated[int, typer.Option("--index", min=1, help="Which game of a file.")] = 1,
    depth: Annotated[int, typer.Option(min=1, max=30, help="Search depth of the midgame "
                                       "positions (plies).")] = 10,
    exact: Annotated[int, typer.Option("--exact", min=0, max=30, help="Solve exactly from "
                                       "this many empties.")] = 20,
    variant: VariantOpt = "standard",
    threads: ThreadsOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Review a game: for every move the engine's best move and score, the played move's
    score, the disc loss and a label (best 0, good 1-2, inaccuracy 3-5, mistake 6-9,
    blunder 10+ discs), then a summary per player and the turning point.

    Scores are in discs from the mover's side; exact from --exact empties. A forced move
    (the only legal one, or a pass) carries its position's score and is marked forced.
    JSON: {variant, depth, exact_empties, moves: [{ply, colour, move, best_move,
    best_score, played_score, loss, label, exact, forced}], summary: {black: {moves,
    total_loss, average_loss, labels, worst}, white: {...}}, turning_point}.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from hasamigo.analysis.review import check_options, check_reviewable
    from hasamigo.analysis.review import review as review_game
    from hasamigo.engine import Engine
    from hasamigo.variants import find_variant

    try:
        check_options(depth, exact)
        start, moves = _game(game, index, find_variant(variant))
        if not moves:
            raise fail("the game has no moves to review")
        check_reviewable(start)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    ready_kernels("rules", "engine", *([] if start.rules.supports("bitboard") else ["wide"]))
    progress = Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err_console, disable=as_json,
                        transient=True)
    with progress:
        task = progress.add_task("review", total=len(moves))
        result = review_game(start, moves, engine=Engine(threads=threads), depth=depth,
                             exact_empties=exact,
                             progress=lambda n, total: progress.update(task, completed=n))
    if as_json:
        emit_json(result.to_json())
        return
    table = Table("ply", "colour", "move", "best", "best score", "played", "loss", "label",
                  caption=f"depth {depth}, exact from {exact} empties (* exact); "
                  "scores in discs from the mover's side")
    for row in result.moves:
        style = LABEL_STYLE[row.label]
        mark = "*" if row.exact else ""
        table.add_row(str(row.ply + 1), str(row.colour), row.name, row.best_name,
                      f"{row.best_score:+d}{mark}", f"{row.played_score:+d}{mark}",
                      str(row.loss), (f"[{style}]{row.label}[/]" if style else row.label)
                      + (" (forced)" if row.forced else ""))
    console.print(table)
    for colour in (BLACK, WHITE):
        s = result.summary(colour)
        worst = ("" if s.worst is None or s.worst.loss == 0 else
                 f"; worst: move {s.worst.ply + 1} {s.worst.name} (-{s.worst.loss})")
        counts = ", ".join(f"{n} {name}" for name, n in s.labels.items() if n)
        console.print(f"{str(colour).capitalize()}: {s.moves} moves, average loss "
                      f"{s.average_loss:.2f} discs ({s.total_loss} in all); {counts}{worst}",
                      highlight=False)
    turning = result.turning_point()
    if turning is not None:
        console.print(f"Turning point: move {turning.ply + 1}, {turning.colour} "
                      f"{turning.name} (best {turning.best_name}, -{turning.loss} discs)",
                      highlight=False)


@app.command()
def explain(
    position: Annotated[str, typer.Argument(help="A transcript (f5d6c3…) or a board string.")],
    move: Annotated[str | None, typer.Argument(help="A move to explain (else only the "
                                               "position).")] = None,
    variant: VariantOpt = "standard",
    lang: Annotated[str, typer.Option("--lang", help="en or ja.")] = "en",
    as_json: JsonOpt = False,
) -> None:
    """Explain a position, and a move on it, in the words players use: stable discs
    (確定石), X- and C-squares, mobility and potential mobility, openness (開放度), quiet
    moves (中割り), single-disc flips (一石返し), regions and parity (偶数理論), tempo
    (手止まり), the opening and White's second move. Every note is measured on the board.

    JSON: {board, turn, position, move}: two lists of notes, a note being {kind, rule,
    rule_ja, text, text_ja, squares, values}.
    """
    from hasamigo.analysis.explain import move_notes, position_notes
    from hasamigo.variants import find_variant

    if lang not in ("en", "ja"):
        raise fail(f"--lang must be en or ja, not {lang!r}")
    try:
        board = parse_position(position, find_variant(variant))
        notes = position_notes(board)
        moved = move_notes(board, move) if move is not None else []
    except HasamigoError as exc:
        raise fail_with(exc) from None
    if as_json:
        emit_json({"board": board.to_string(), "turn": str(board.turn),
                   "position": [n.to_json() for n in notes],
                   "move": [n.to_json() for n in moved]})
        return
    console.print(render_board(board), highlight=False)
    for title, group in (("position", notes), (f"move {move}", moved)):
        if not group:
            continue
        console.print(f"[bold]{title}[/]")
        for note in group:
            text = note.en if lang == "en" else note.ja
            rule = note.rule if lang == "en" else note.rule_ja
            where = f" [{', '.join(note.squares)}]" if note.squares else ""
            console.print(f"  • {text}{where} — {rule}", highlight=False, markup=False)


@app.command()
def puzzle(
    number: Annotated[int, typer.Argument(help="An FFO position, 1-39.")] = 1,
    move: Annotated[str | None, typer.Argument(help="Your answer (else the puzzle is "
                                               "shown).")] = None,
    board: Annotated[str | None, typer.Option(
        "--board", help="A position of your own instead (a board string or a transcript; "
        "at most 20 empties).")] = None,
    variant: VariantOpt = "standard",
    threads: ThreadsOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Find the best move: an FFO endgame position (or your own with --board), your
    answer judged by the exact solver (its score, the best score and moves, the discs
    lost; on --threads threads).

    JSON: {puzzle: {key, title, variant, board, turn, empties, legal}, verdict: {move,
    score, best_score, best_moves, loss, correct}} (no verdict without a move).
    """
    from hasamigo.analysis.puzzles import ffo_puzzle, judge, position_puzzle
    from hasamigo.engine import Engine
    from hasamigo.variants import find_variant

    try:
        chosen = (position_puzzle(parse_position(board, find_variant(variant)))
                  if board is not None else ffo_puzzle(number))
        if move is not None:
            ready_kernels("rules", "engine")
        verdict = (judge(chosen, move, Engine(threads=threads)) if move is not None
                   else None)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    if as_json:
        emit_json({"puzzle": chosen.to_json()}
                  | ({} if verdict is None else {"verdict": verdict.to_json()}))
        return
    side = str(chosen.board.turn).capitalize()
    if verdict is None:
        console.print(render_board(chosen.board), highlight=False)
        console.print(f"{chosen.title}: {side} to move, {chosen.board.empties.bit_count()} "
                      f"empties. Find the best move, then: hasamigo puzzle "
                      f"{number if board is None else '--board …'} MOVE", highlight=False)
        return
    best = ", ".join(verdict.best_moves)
    if verdict.correct:
        console.print(f"{verdict.move}: {verdict.score:+d}, the best move (exact).",
                      highlight=False)
    else:
        console.print(f"{verdict.move}: {verdict.score:+d}; the best is {best} at "
                      f"{verdict.best_score:+d}: {verdict.loss} discs lost (exact).",
                      highlight=False)
