"""The user study of the amusement paper from the command line: the ``study`` group, and
the stored (real) study's commands: ``new``, ``list``, ``subjects``, ``export``,
``withdraw`` and ``archive``, over :func:`study_service`. The simulated study
(:mod:`hasamigo.cli.study_simulate`) and the report (:mod:`hasamigo.cli.study_report`)
register on :data:`study_app` from their own modules; each imports this one, never the
other way round."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, app, console, emit_json, fail
from hasamigo.cli.helptext import Typer

if TYPE_CHECKING:
    from hasamigo.study.service import StudyService

study_app = Typer(help="The user study of the amusement paper: run it, simulate it, "
                  "report it.", no_args_is_help=True)
app.add_typer(study_app, name="study")

StudyArg = Annotated[str, typer.Argument(help="The study's id.")]


@contextmanager
def study_service(db: str | None) -> Iterator[StudyService]:
    """The study service over the database; its errors become exit status 2."""
    from hasamigo.cli.database import open_database
    from hasamigo.errors import HasamigoError
    from hasamigo.storage.repository import GameRepository
    from hasamigo.study.service import StudyService
    from hasamigo.study.store import StudyRepository

    database, _shown = open_database(db)
    try:
        yield StudyService(StudyRepository(database), GameRepository(database))
    except (HasamigoError, KeyError, ValueError) as exc:
        raise fail(str(exc)) from None
    finally:
        database.close()


@study_app.command("new")
def study_new(
    name: Annotated[str, typer.Argument(help="The study's name.")],
    password: Annotated[str, typer.Option(
        "--password", prompt=True, hide_input=True,
        help="The researcher's password (only a salted hash is stored).")],
    programs: Annotated[str, typer.Option(
        "--programs", help="Comma-separated programs compared, 2 to 6: any registered "
                           "program (victory, amusement, amusement:swing, entertainer, "
                           "engine:3 …).")] = "victory,amusement",
    clock: Annotated[float | None, typer.Option(
        "--clock", min=0.1, max=120, help="Minutes a side (default: no clock).")] = None,
    languages: Annotated[str, typer.Option("--languages", help="ja, en or both.")] = "ja,en",
    protocol: Annotated[str, typer.Option(
        "--protocol", help="paper (the paper's questions, timing and scales) or extended "
                           "(the richer questionnaire).")] = "paper",
    window: Annotated[str, typer.Option(
        "--window", help="The surprise move's window: moves (the paper's: "
                         "moves 30-35 of the game) or "
                         "midgame (the project's reading: those moves in the midgame phase "
                         "only). Default: the protocol's (paper: moves).")] = "",
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a study; prints its id and the subjects' page.

    JSON: {id, name, arms, clock_minutes, languages, protocol, surprise_window, design,
    created_at, subjects, …}
    """
    from hasamigo.study.service import StudySettings

    with study_service(db) as service:
        settings = StudySettings(tuple(p.strip() for p in programs.split(",") if p.strip()),
                                 clock, tuple(x.strip() for x in languages.split(",")
                                              if x.strip()), protocol, window)
        info = service.create(name, settings, password)
    if as_json:
        emit_json(info.to_json())
        return
    console.print(f"created study {escape(info.name)} ({', '.join(info.settings.arms)}; "
                  f"protocol {info.settings.protocol}, surprise window "
                  f"{info.settings.surprise_window}), id [bold]{info.id}[/]; subjects start "
                  f"at /studies/{info.id}", highlight=False)


@study_app.command("list")
def study_list(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Every study, the newest first.

    JSON: [{id, name, arms, clock_minutes, languages, design, created_at, subjects}]
    """
    with study_service(db) as service:
        rows = service.list_studies()
    if as_json:
        emit_json([r.to_json() for r in rows])
        return
    table = Table("id", "name", "programs", "subjects", "created")
    for r in rows:
        table.add_row(r.id, escape(r.name), ", ".join(r.settings.arms), str(r.subjects),
                      r.created_at.strftime("%Y-%m-%d %H:%M"))
    console.print(table)


@study_app.command("subjects")
def study_subjects(study: StudyArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Each subject's code, order, step and games.

    JSON: [{code, number, order, language, step, game_index, created_at, finished_at,
    games: [{index, program, game_id, over, felt, questions, answered}]}]
    """
    with study_service(db) as service:
        rows = service.subjects(study)
    if as_json:
        emit_json([r.to_json() for r in rows])
        return
    table = Table("code", "order", "step", "answered")
    for r in rows:
        table.add_row(r.subject.code, " → ".join(r.subject.order), r.step,
                      ", ".join(f"{g.program} {g.answered}/{g.questions}" for g in r.games))
    console.print(table)


@study_app.command("export")
def study_export(
    study: StudyArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for subjects.csv, "
                                                          "games.csv, answers.csv and "
                                                          "study.json.")] = Path("."),
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The study's data: one row per subject, per game and per answer (CSV), and all
    three in study.json (evaluations not computed yet are empty).

    JSON: {written: ["path", …], subjects, games, answers}
    """
    with study_service(db) as service:
        data = service.data(study)
    written = data.write(out)
    summary = {"written": [str(p) for p in written], "subjects": len(data.subjects),
               "games": len(data.games), "answers": len(data.answers)}
    if as_json:
        emit_json(summary)
        return
    console.print(f"{summary['subjects']} subjects, {summary['games']} games, "
                  f"{summary['answers']} answers → {escape(str(out))}", highlight=False)


# ---- the researcher's data: withdrawal and archive (the stored study's) ---------------------
@study_app.command("withdraw")
def study_withdraw(
    study: StudyArg,
    code: Annotated[str, typer.Argument(help="The subject's code (their login).")],
    yes: Annotated[bool, typer.Option("--yes", help="Confirm: the subject's answers and "
                                                    "games are deleted for good.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A subject withdraws (on their request): they, their answers and their games are
    deleted; the study counts the withdrawal. Refused in an archived study.

    JSON: {withdrawn: code, games: the deleted games' ids, study_withdrawn}
    """
    if not yes:
        raise typer.BadParameter("withdrawing deletes the subject's data for good: add --yes",
                                 param_hint="--yes")
    with study_service(db) as service:
        games = service.withdraw(study, code)
        count = service.info(study).withdrawn
    if as_json:
        emit_json({"withdrawn": code.strip().upper(), "games": games,
                   "study_withdrawn": count})
        return
    console.print(f"subject {code.strip().upper()} withdrawn ({len(games)} games deleted; "
                  f"{count} withdrawn in all)", highlight=False)


@study_app.command("archive")
def study_archive(
    study: StudyArg,
    reopen: Annotated[bool, typer.Option("--reopen", help="Re-open the study instead.")
                      ] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Archive a study (read-only: no new subjects, answers, moves or withdrawals; its
    report and exports stay), or re-open it with --reopen.

    JSON: the study ({id, name, arms, protocol, surprise_window, …, archived_at, withdrawn})
    """
    with study_service(db) as service:
        info = service.reopen(study) if reopen else service.archive(study)
    if as_json:
        emit_json(info.to_json())
        return
    state = "re-opened" if info.archived_at is None else f"archived at {info.archived_at:%c}"
    console.print(f"study {info.id} {state}", highlight=False)


__all__ = ["DbOpt", "StudyArg", "study_app", "study_service"]
