"""Commands on the rules and formats: perft, show, games, convert, variants (``play`` has
its own module, :mod:`hasamigo.cli.play`)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import (
    JsonOpt,
    VariantOpt,
    app,
    console,
    emit_json,
    err_console,
    fail,
    variant_named,
)
from hasamigo.errors import HasamigoError, ParseError
from hasamigo.squares import bits

if TYPE_CHECKING:
    from hasamigo.board import Board

#: What each 挟み碁 flip rule lets the mover do, for ``variants``.
_RULE_HELP = {
    "one": "of the discs a move brackets only one is turned, the mover's choice (c4(d4))",
    "choose": "the mover turns those of them it wants, at least one (c4(d4e5))",
}


def fail_with(exc: BaseException) -> typer.Exit:
    """:func:`~hasamigo.cli.fail` with the error's own text (which ``fail`` prints as it
    is, brackets and all), a piped input named as the user gave it
    (:func:`hasamigo.cli.inputs.as_named`)."""
    from hasamigo.cli.inputs import as_named

    return fail(as_named(str(exc)))


def parse_position(text: str, variant: type[Board]) -> Board:
    """A board from a board string (cells + side) or a transcript played from the start."""
    cells = "".join(text.split())
    n = variant.rows * variant.cols
    if len(cells) in (n, n + 1) and not any(ch.isdigit() for ch in cells):
        return variant.from_string(text)
    from hasamigo.notation.transcript import parse_transcript

    board = variant()
    for move in parse_transcript(text, board.copy()):
        board.push(move)
    return board


def board_summary(board: Board) -> dict[str, Any]:
    """The JSON shape of ``show``."""
    black, white = board.counts()
    outcome = board.outcome()
    return {
        "variant": board.name,
        "board": board.to_string(),
        "turn": str(board.turn),
        "black": black,
        "white": white,
        "empties": board.empties.bit_count(),
        "legal_moves": [board.move_name(m) for m in board.legal_moves],
        "must_pass": board.must_pass(),
        "game_over": outcome is not None,
        "outcome": None
        if outcome is None
        else {
            "black": outcome.black,
            "white": outcome.white,
            "winner": None if outcome.winner is None else str(outcome.winner),
            "score": str(outcome),
        },
        "moves": [board.move_name(m) for m in board.move_stack],
        **({"flip_rule": board.rules.turning, "turn_choices": _turn_choices(board)}
           if board.rules.supports("choose_turned") else {}),
    }


def _turn_choices(board: Board) -> dict[str, list[str]]:
    """Under a 挟み碁 flip rule: each legal square with the discs it brackets (to choose
    from)."""
    return {
        board.square_name(sq): [board.square_name(d) for d in bits(board.turn_choices(sq))]
        for sq in bits(board.legal_moves_mask())
    }


def render_board(board: Board, *, last: int | None = None) -> str:
    """Rich markup for a board diagram: ● black, ○ white, · legal move."""
    from hasamigo.board import FILE_LETTERS

    moves = board.legal_moves_mask()
    playable = board.playable()
    files = FILE_LETTERS[: board.cols]
    lines = ["   " + " ".join(files)]
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            sq = board.local_square(c, r)
            if board.black >> sq & 1:
                cell = "[bold]●[/]" if sq != last else "[bold red]●[/]"
            elif board.white >> sq & 1:
                cell = "○" if sq != last else "[red]○[/]"
            elif moves >> sq & 1:
                cell = "[dim]·[/]"
            elif playable >> sq & 1:
                cell = "[green]-[/]"
            else:
                cell = " "
            cells.append(cell)
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    return "\n".join(lines)


def _status_line(board: Board) -> str:
    black, white = board.counts()
    outcome = board.outcome()
    if outcome is not None:
        who = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        return f"black {black}, white {white} — game over: {who} {outcome}"
    to_move = f"{board.turn} to move"
    if board.must_pass():
        to_move += " (must pass)"
    return f"black {black}, white {white} — {to_move}"


@app.command()
def perft(
    depth: Annotated[int, typer.Argument(min=0, max=30, help="Plies to count up to.")],
    board_text: Annotated[
        str | None, typer.Option("--board", "-b", help="Board string or transcript to start from.")
    ] = None,
    variant: VariantOpt = "standard",
    only: Annotated[bool, typer.Option("--only", help="Count only DEPTH, not 1..DEPTH.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Count the leaves DEPTH plies ahead (a pass is a ply; a finished game is one leaf),
    with the CPU time the count took and the leaves per CPU second (the elapsed time, on a
    busy machine, says more about the machine).

    JSON: a list of {depth, leaves, cpu_seconds, leaves_per_cpu_second, wall_seconds}
    (leaves_per_cpu_second: null below a millisecond of CPU).
    """
    cls = variant_named(variant)
    try:
        board = cls() if board_text is None else parse_position(board_text, cls)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    board.perft(1)  # compile or load the kernel outside the timings
    rows = []
    for d in [depth] if only else range(1, depth + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        leaves = board.perft(d)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        rate = leaves / cpu if cpu >= 1e-3 else None  # a clock tick is no measure
        rows.append(
            {
                "depth": d,
                "leaves": leaves,
                "cpu_seconds": round(cpu, 6),
                "leaves_per_cpu_second": None if rate is None else round(rate),
                "wall_seconds": round(wall, 6),
            }
        )
        if not as_json:
            rate_text = " " * 21 if rate is None else f"{rate / 1e6:7.1f} M leaves/CPU s"
            console.print(f"{d:>3} {leaves:>17,} {cpu:9.4f} CPU s {rate_text} "
                          f"({wall:.4f} s elapsed)", highlight=False)
    if as_json:
        emit_json(rows)


@app.command()
def show(
    position: Annotated[str, typer.Argument(help="A transcript (f5d6c3…) or a board string.")],
    variant: VariantOpt = "standard",
    as_json: JsonOpt = False,
) -> None:
    """Show a position: board diagram with legal moves, disc counts, side to move, result.

    JSON: {variant, board, turn, black, white, empties, legal_moves, must_pass, game_over,
    outcome: null | {black, white, winner, score}, moves}.
    """
    cls = variant_named(variant)
    try:
        board = parse_position(position, cls)
    except HasamigoError as exc:
        raise fail_with(exc) from None
    if as_json:
        emit_json(board_summary(board))
        return
    last = board.move_stack[-1].square if board.move_stack else None
    console.print(render_board(board, last=last), highlight=False)
    console.print(_status_line(board), highlight=False)
    names = [board.move_name(m) for m in board.legal_moves]
    if names:
        console.print("legal moves: " + " ".join(names), highlight=False)
    if board.rules.supports("choose_turned") and names:
        how = "one of" if board.rules.supports("one_turned") else "any of (at least one)"
        for square, discs in _turn_choices(board).items():
            if len(discs) > 1:
                console.print(f"  {square} turns {how} {' '.join(discs)}: "
                              f"{square}({discs[0]})", highlight=False)
    console.print(f"board: {board.to_string()}", highlight=False)


def _games_report(path: Path, *, show_progress: bool) -> dict[str, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from hasamigo.notation import read_games

    failed: list[dict[str, Any]] = []
    mismatches: list[dict[str, Any]] = []
    count = 0
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        disable=not show_progress,
    )
    with progress:
        task = progress.add_task(f"replaying {path.name}", total=None)
        for index, record in enumerate(read_games(path)):
            count += 1
            progress.advance(task)
            if record.problem:
                failed.append({"index": index, "reason": record.problem})
                continue
            try:
                board = record.replay()
            except HasamigoError as exc:
                failed.append({"index": index, "reason": str(exc)})
                continue
            outcome = board.outcome()
            if record.recorded_score is None:
                continue
            if outcome is None:
                black, _ = board.counts()
                replayed = black
            else:
                replayed = outcome.black
            if replayed != record.recorded_score:
                mismatches.append(
                    {"index": index, "recorded": record.recorded_score, "replayed": replayed}
                )
    return {"games": count, "failed": failed, "score_mismatches": mismatches}


@app.command()
def games(
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="WTHOR, GGF or transcripts.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Replay every game of an archive or record and report failures and score disagreements.

    Scores compared are Black's official disc count (empties to the winner).
    JSON: {games, failed: [{index, reason}], score_mismatches: [{index, recorded, replayed}]}.
    Exit status 1 when any game fails or disagrees.
    """
    from hasamigo.cli.inputs import input_file, nothing_in

    with input_file(file) as path:
        try:
            report = _games_report(path, show_progress=not as_json and sys.stderr.isatty())
        except (ParseError, ValueError, OSError) as exc:
            raise fail_with(exc) from None
    if not report["games"]:
        raise nothing_in(file, "game")
    if as_json:
        emit_json(report)
    else:
        console.print(f"{report['games']} games in {escape(str(file))}", highlight=False)
        console.print(
            f"{len(report['failed'])} failed to replay, "
            f"{len(report['score_mismatches'])} score disagreements"
        )
        for item in report["failed"][:20]:
            console.print(f"  game {item['index']}: {escape(item['reason'])}", highlight=False)
        for item in report["score_mismatches"][:20]:
            console.print(
                f"  game {item['index']}: recorded {item['recorded']}, replayed {item['replayed']}",
                highlight=False,
            )
    if report["failed"] or report["score_mismatches"]:
        raise typer.Exit(1)


@app.command()
def convert(
    source: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Input file.")],
    target: Annotated[
        Path, typer.Argument(dir_okay=False, help="Output file (format by extension).")
    ],
) -> None:
    """Convert game records between formats, chosen by extension (.wtb, .ggf, .txt)."""
    from hasamigo.notation import read_games, write_games

    # Write beside the target and rename, so a failure never leaves a half-written file.
    partial = target.with_name(f".{target.name}.partial{target.suffix}")
    from hasamigo.cli.inputs import input_file, nothing_in

    with input_file(source) as path:
        try:
            records = list(read_games(path))
        except (HasamigoError, ValueError, OSError) as exc:
            raise fail_with(exc) from None
    if not records:
        raise nothing_in(source, "game")
    try:
        write_games(partial, records)
        os.replace(partial, target)
    except (HasamigoError, ValueError, OSError) as exc:
        partial.unlink(missing_ok=True)
        raise fail_with(exc) from None
    console.print(f"wrote {len(records)} games to {escape(str(target))}", highlight=False)


@app.command()
def variants(as_json: JsonOpt = False) -> None:
    """List the board variants, and the rules any of them may be played under (a suffix
    of the name): 挟み碁's flip rules (``hasegawa-8x9+one``, ``standard+choose``), Nip's
    rule, 挟み碁's capture (``standard+capture``) and Fairy Othello's words
    (``standard+osere``).

    JSON: a list of {name, aliases, title, squares, start, disc_limit, flip_rules, options,
    words}, where flip_rules, options and words map each suffix to what it means.
    """
    from hasamigo.variants import (
        CAPTURE_OPTION,
        CAPTURE_TITLE,
        INDIRECT_OPTION,
        INDIRECT_TITLE,
        NIP_OPTION,
        NIP_TITLE,
        RULE_TITLES,
        VARIANTS,
        WORD_TITLES,
    )

    rows = [
        {
            "name": v.name,
            "aliases": list(v.aliases),
            "title": v.title,
            "squares": v.square_count(),
            "start": v.default_start,
            "disc_limit": v.default_disc_limit,
            "flip_rules": {f"+{rule}": words for rule, words in RULE_TITLES.items()},
            "options": {f"+{NIP_OPTION}": NIP_TITLE, f"+{CAPTURE_OPTION}": CAPTURE_TITLE,
                        f"+{INDIRECT_OPTION}": INDIRECT_TITLE},
            "words": {f"+{word}": words for word, words in WORD_TITLES.items()},
        }
        for v in VARIANTS
    ]
    if as_json:
        emit_json(rows)
        return
    table = Table("name", "aliases", "title", "squares")
    for v in VARIANTS:
        table.add_row(v.name, ", ".join(v.aliases), v.title, str(v.square_count()))
    console.print(table)
    console.print("挟み碁 flip rules, an option of every variant (add it to the name, as in "
                  "hasegawa-8x9+one):", highlight=False)
    for rule, words in RULE_TITLES.items():
        console.print(f"  +{rule:<7} {words}: {_RULE_HELP[rule]}", highlight=False)
    console.print(f"  +{NIP_OPTION:<7} {NIP_TITLE}, on any variant (as in standard+nip; "
                  "with a flip rule: hasegawa-8x9+nip+one)", highlight=False)
    console.print(f"  +{CAPTURE_OPTION:<7} {CAPTURE_TITLE}: a stone goes on any empty square, "
                  "half the squares a side (as in standard+capture; no ring)", highlight=False)
    console.print(f"  +{INDIRECT_OPTION:<7} {INDIRECT_TITLE}: the discs a move turns bracket "
                  "in their turn, and those turn too (as in hasegawa-8x9+indirect, or "
                  "+間接挟み; docs/rules.md)", highlight=False)
    console.print("Fairy Othello's words (小谷善行), in romaji or kana (standard+osere, "
                  "standard+オセレ; docs/rules.md reads each):", highlight=False)
    for word, words in WORD_TITLES.items():
        console.print(f"  +{word:<7} {words}", highlight=False)
