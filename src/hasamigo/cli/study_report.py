"""``hasamigo study report``: the study's report (figures and tables) as HTML."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hasamigo.cli import JsonOpt, console, emit_json, fail
from hasamigo.cli.study import study_app
from hasamigo.errors import HasamigoError

if TYPE_CHECKING:
    from hasamigo.study.records import StudyData


def load_study(source: str, db: str | None = None) -> StudyData:
    """The study's data named by SOURCE: a ``study.json`` or the directory holding one
    (what ``study simulate --out`` and the web's export write), else a stored study's id
    (in ``db``)."""
    from hasamigo.study.records import StudyData

    path = Path(source)
    if not path.exists():
        if path.suffix or len(path.parts) > 1:  # meant as a file: say it is missing
            raise fail(f"{source}: no such file or directory")
        from hasamigo.cli.study_run import _service

        with _service(db) as service:
            return service.data(source)
    try:
        return StudyData.read(source)
    except HasamigoError as exc:
        raise fail(str(exc)) from None


@study_app.command("report")
def study_report(
    source: Annotated[str, typer.Argument(
        metavar="SOURCE", help="A stored study's id, or a study.json or the directory "
                               "holding one (an export, or study simulate --out).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.",
                                      dir_okay=False)],
    lang: Annotated[str, typer.Option("--lang", help="Headings: en or ja.")] = "en",
    title: Annotated[str | None, typer.Option(
        "--title", help="The report's title (default: 'User study report', in --lang).")
    ] = None,
    db: Annotated[str | None, typer.Option(
        "--db", help="Database URL of a stored study (as for serve).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write the study's report: one printable HTML page (A4) with the per-move graph of
    every subject's game, wins per program (Fisher's exact test), "more fun" (binomial
    test), "surprising" answers after special moves and "can you win" against the
    evaluation (Spearman). Print it or save it as PDF from a browser.

    JSON: {out, subjects, games, answers}. Exit status 2 when the data can't be read.
    """
    from hasamigo.study.report import LANGS, default_title, write_report

    if lang not in LANGS:
        raise fail(f"--lang is one of {', '.join(LANGS)}, not {lang!r}")
    data = load_study(source, db)
    try:
        path = write_report(data, out, title=title or default_title(lang), lang=lang)
    except OSError as exc:
        raise fail(f"{out}: {exc.strerror or exc}") from None
    if as_json:
        emit_json({"out": str(path), "subjects": len(data.subjects), "games": len(data.games),
                   "answers": len(data.answers)})
        return
    console.print(f"wrote {path}: {len(data.subjects)} subjects, {len(data.games)} games, "
                  f"{len(data.answers)} answers", highlight=False, markup=False,
                  soft_wrap=True)


__all__ = ["load_study", "study_report"]
