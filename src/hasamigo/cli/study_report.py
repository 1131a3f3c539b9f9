"""``hasamigo study report``: the study's report (figures and tables) as HTML."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hasamigo.cli import JsonOpt, console, emit_json, fail
from hasamigo.cli.study import study_app, study_service
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
        with study_service(db) as service:
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
    where: Annotated[str | None, typer.Option(
        "--where", metavar="TEXT",
        help="Only these subjects: conditions joined by commas, as 'strength<=3' (the "
             "paper's ふつう or below), 'first=victory', 'colour=black', "
             "'play_frequency=weekly'.")] = None,
    group_by: Annotated[str | None, typer.Option(
        "--group-by", metavar="FIELD",
        help="Also give the wins and tests per group: strength, play_frequency, first "
             "(the program played first) or colour.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write the study's report: one printable HTML page (A4) in the paper's order — wins
    against each program for the subgroup (--where) and all subjects, Fisher's exact test
    one- and two-sided and McNemar's exact test, saying which reproduces the paper's
    「有意であった」; "more fun" (binomial test); the per-move answers pooled; each
    subject's per-move graph (the paper's Figure 7); treatment fidelity; the free-text
    answers; the subjects needed for 80 % power. Print it or save it as PDF from a browser.

    JSON: {out, subjects, games, answers, where} (the counts of the subgroup). Exit
    status 2 when the data can't be read or --where / --group-by is wrong.
    """
    from hasamigo.study.report import LANGS, default_title, write_report
    from hasamigo.study.subgroups import GROUP_FIELDS, apply_where, parse_where

    if lang not in LANGS:
        raise fail(f"--lang is one of {', '.join(LANGS)}, not {lang!r}")
    if group_by is not None and group_by not in GROUP_FIELDS:
        raise fail(f"--group-by is one of {', '.join(GROUP_FIELDS)}, not {group_by!r}")
    try:
        condition = parse_where(where)
    except HasamigoError as exc:
        raise fail(f"--where: {exc}") from None
    data = load_study(source, db)
    try:
        chosen = apply_where(data, condition)
        path = write_report(data, out, title=title or default_title(lang), lang=lang,
                            where=str(condition) or None, group_by=group_by)
    except HasamigoError as exc:
        raise fail(f"--where: {exc}") from None
    except OSError as exc:
        raise fail(f"{out}: {exc.strerror or exc}") from None
    if as_json:
        emit_json({"out": str(path), "subjects": len(chosen.subjects),
                   "games": len(chosen.games), "answers": len(chosen.answers),
                   "where": str(condition)})
        return
    subgroup = f" ({condition})" if condition else ""
    console.print(f"wrote {path}: {len(chosen.subjects)} subjects{subgroup}, "
                  f"{len(chosen.games)} games, {len(chosen.answers)} answers",
                  highlight=False, markup=False, soft_wrap=True)


__all__ = ["load_study", "study_report"]
