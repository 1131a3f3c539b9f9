"""The study's report: one self-contained HTML page (A4 when printed) in the order of the
paper's §4.2: its first table (wins against each program for the chosen subgroup, the
exact tests one- and two-sided, Fisher's and McNemar's, and which of them reproduces the
paper's 「有意であった」), the paper's own 0/6 against 4/6 under each test it might have
used (Fisher's one- and two-sided, the plain χ², McNemar's: it names none), "which was
more fun", the per-move answers pooled over subjects,
each subject's games in the form of its Figure 7; then treatment fidelity, the free-text
answers, the power, the further tables of :mod:`hasamigo.study.stats`, and whose words
(the paper's or the project's) each question of the protocol is.

A subgroup (``where``, :mod:`hasamigo.study.subgroups`: the paper's ``strength<=3``) narrows
every section; the first table keeps all subjects beside it, and ``group_by`` adds its
wins and tests per group.

The figures (:mod:`hasamigo.study.figures`, re-exported here) are embedded as inline SVG.
Headings are English or Japanese (``lang``); Japanese figure labels need a CJK font
(``fonts-noto-cjk``) and fall back to English when matplotlib finds none. Every piece of
text that came from a subject (codes, free-text answers) is escaped.
"""

from __future__ import annotations

import html
from pathlib import Path

from hasamigo.study.figures import (  # re-exported: the report's figures
    CJK_FONTS,
    KIND_LETTER,
    MOVE_FELT_SCORE,
    answers_of,
    cjk_font,
    game_of,
    per_move_figure,
    per_move_svg,
    surprise_figure,
    tracking_figure,
    wins_figure,
)
from hasamigo.study.pooled import move_axis, x_of
from hasamigo.study.protocol import Choice, protocol
from hasamigo.study.records import StudyData
from hasamigo.study.report_sections import (
    fidelity_section,
    free_text_section,
    groups_section,
    header,
    paper_tests_section,
    pooled_section,
    power_section,
    sources_section,
    study_protocol,
    wins_section,
)
from hasamigo.study.report_text import (
    KIND_KEY,
    LANGS,
    count_of,
    fmt_number,
    fmt_rate,
    html_table,
    labels,
    program_name,
    significance_line,
)
from hasamigo.study.stats import StudyStats, analyse, wins_by_program
from hasamigo.study.subgroups import Group, apply_where, group_by, parse_where

_STYLE = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: system-ui, "Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", sans-serif;
  color: #111; line-height: 1.45; max-width: 190mm; margin: 0 auto; padding: 12px; }
h1 { font-size: 1.45rem; margin: 0 0 .3em; }
h2 { font-size: 1.15rem; border-bottom: 1px solid #888; margin: 1.6em 0 .5em; }
h3 { font-size: .95rem; margin: 1.2em 0 .2em; }
p { margin: .35em 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .82rem; margin: .4em 0; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.text { white-space: pre-wrap; overflow-wrap: break-word; min-width: 9em; }
td > .test { margin: 0; min-width: 14em; }
.test { font-size: .85rem; }
.untested { color: #8a4b00; }
.note { color: #444; font-size: .78rem; }
.meta { font-size: .82rem; color: #333; }
.verdict { font-weight: 600; }
ul.answers li, ul.flags li { margin: .2em 0; }
figure { margin: .3em 0 .8em; }
figure svg { display: block; width: 100%; height: auto; }
figure.small svg { max-width: 120mm; }
figure.wide { overflow-x: auto; }
figure.wide svg { min-width: 34rem; }
table.wide { min-width: 44rem; }
.game { break-inside: avoid; page-break-inside: avoid; }
@media print {
  body { max-width: none; padding: 0; }
  .scroll, figure.wide { overflow: visible; }
  table.wide, figure.wide svg { min-width: 0; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  table, figure { break-inside: avoid; page-break-inside: avoid; }
}
"""


def _subjects_section(data: StudyData, t: dict[str, str], lang: str) -> str:
    strength = protocol_question(data, "strength")
    rows = []
    for s in data.subjects:
        code = html.escape(s.subject) + (f" ({t['simulated']})" if s.simulated else "")
        level = "" if s.strength is None else str(s.strength)
        if strength is not None and level in strength:
            level = f"{level} {html.escape(strength[level].text(lang))}"
        rows.append([code, level, " → ".join(program_name(a, lang) for a in s.order),
                     "" if s.more_fun is None else program_name(s.more_fun, lang),
                     html.escape(", ".join(s.strategies))])
    return (f"<h2>{t['subjects']}</h2>"
            + html_table([t["subject"], t["strength"], t["order"], t["more_fun"],
                          t["strategies"]], rows, wide=True))


def protocol_question(data: StudyData, key: str) -> dict[str, Choice] | None:
    """The choices of the study protocol's question ``key`` by code (``None``: not asked)."""
    try:
        question = protocol(study_protocol(data)).question(key)
    except KeyError:
        return None
    return {c.code: c for c in question.choices}


def _fun_section(stats: StudyStats, t: dict[str, str], lang: str) -> str:
    fun = stats.fun
    rows = [[program_name(c.program, lang), str(c.count),
             fmt_rate(c.count / fun.n if fun.n else None), significance_line(c.result, t)]
            for c in fun.choices]
    note = t["fun_note"].format(n=fun.n, k=len(fun.choices), none=fun.no_answer,
                                other=fun.other)
    return (f"<h2>{t['fun']}</h2>"
            + html_table([t["program"], t["chose"], t["share"], t["result"]], rows,
                     numeric=(1, 2))
            + f'<p class="note">{note}</p>')


def _surprise_section(stats: StudyStats, t: dict[str, str], lang: str) -> str:
    s = stats.surprise
    rows = [[t[KIND_KEY[k.kind]] if k.kind in KIND_KEY else html.escape(k.kind),
             str(k.answers), str(k.surprising), fmt_rate(k.rate)] for k in s.kinds]
    rows.append([f"<b>{t['special']}</b>", str(s.special.answers), str(s.special.surprising),
                 fmt_rate(s.special.rate)])
    figure = (f'<figure class="small">{surprise_figure(stats, lang=lang)}</figure>'
              if any(k.answers for k in s.kinds) else "")
    return (f"<h2>{t['surprise']}</h2>"
            + html_table([t["kind"], t["answers"], t["surprising"], t["rate"]], rows,
                     numeric=(1, 2, 3))
            + significance_line(s.result, t) + figure
            + f'<p class="note">{t["surprise_note"]}</p>')


def _tracking_section(data: StudyData, stats: StudyStats, t: dict[str, str],
                      lang: str) -> str:
    tr = stats.tracking
    rows = [[t[a.answer], str(a.n), fmt_number(a.mean, 1), fmt_number(a.median, 1)]
            for a in tr.by_answer]
    figure = (f'<figure class="small">{tracking_figure(data, lang=lang)}</figure>'
              if tr.n else "")
    return (f"<h2>{t['tracking']}</h2>"
            + html_table([t["answer"], t["n"], t["mean"], t["median"]], rows,
                     numeric=(1, 2, 3))
            + significance_line(tr.result, t) + figure
            + '<p class="note">' + t["tracking_note"].format(
                answers=count_of(lang, "answers", tr.n), missing=tr.missing) + "</p>")


def _games_in_order(data: StudyData) -> list[tuple[str, int]]:
    """(subject, game index) of every game, the subjects in the study's order."""
    rank = {s.subject: i for i, s in enumerate(data.subjects)}
    keys = {(g.subject, g.index) for g in data.games}
    keys |= {(a.subject, a.game_index) for a in data.answers}
    return sorted(keys, key=lambda k: (rank.get(k[0], len(rank)), k[0], k[1]))


def _game_block(data: StudyData, subject: str, index: int, axis: str, t: dict[str, str],
                lang: str) -> str:
    game = game_of(data, subject, index)
    answers = answers_of(data, subject, index)
    program = game.program if game is not None else (answers[0].program if answers else "?")
    heading = (f"{html.escape(subject)} · {t['game']} {index}: {program_name(program, lang)}")
    meta = []
    if game is not None:
        meta.append(t[game.subject_colour])
        if game.outcome is not None:
            score = ("" if game.subject_discs is None or game.program_discs is None
                     else f" {game.subject_discs}–{game.program_discs}")
            meta.append(t[f"outcome.{game.outcome}"] + score)
        if game.reported_outcome is not None:
            meta.append(f"{t['reported']}: {t[f'outcome.{game.reported_outcome}']}")
        if game.felt is not None:
            meta.append(f"{t['felt']}: {game.felt}")
        meta += [t["played_at"].format(kind=t[KIND_KEY[kind]], n=at)
                 for kind, at in (("expectation", game.expectation_at),
                                  ("surprise", game.surprise_at)) if at is not None]
    marks = [f"{KIND_LETTER[a.move_kind]} {x_of(a, axis)} ({t[KIND_KEY[a.move_kind]]})"
             for a in answers if a.move_kind in KIND_LETTER]
    meta.append(f"{t['marks']}: {', '.join(marks) or t['none']}")
    return (f'<section class="game"><h3>{heading}</h3>'
            f'<p class="meta">{" · ".join(meta)}</p>'
            f'<figure class="wide">{per_move_svg(answers, lang, axis)}</figure></section>')


def build_report(data: StudyData, *, title: str, lang: str = "en", where: str | None = None,
                 group_by: str | None = None) -> str:
    """The study's report as one self-contained HTML page (figures inline, A4 print CSS),
    headings in ``lang`` (``en`` or ``ja``); ``where`` a subgroup
    (:func:`hasamigo.study.subgroups.parse_where`, e.g. ``strength<=3``), ``group_by`` a
    field to split the first table by (:data:`~hasamigo.study.subgroups.GROUP_FIELDS`).
    Bad ``where`` or ``group_by`` raise before anything is drawn."""
    t = labels(lang)
    condition = parse_where(where)
    chosen = apply_where(data, condition)
    groups = _split(chosen, group_by)
    body = [f"<h1>{html.escape(title)}</h1>"]
    if not data.subjects:
        body.append(f"<p>{t['empty']}</p>")
        return _page(title, lang, body)
    body.append(header(data, str(condition), group_by, t))
    body.append("<p class=\"meta\">" + t["summary"].format(
        subjects=count_of(lang, "subjects", len(chosen.subjects)),
        games=count_of(lang, "games", len(chosen.games)),
        answers=count_of(lang, "answers", len(chosen.answers))) + "</p>")
    stats = analyse(chosen)
    figure = (f'<figure class="small">{wins_figure(stats, lang=lang)}</figure>'
              if stats.wins.arms else "")
    everyone = wins_by_program(data) if condition else None
    body.append(wins_section(stats.wins, everyone, str(condition), figure, t, lang))
    body.append(paper_tests_section(t))
    if group_by:
        body.append(groups_section(groups, group_by, t, lang))
    body += [_fun_section(stats, t, lang), pooled_section(chosen, t, lang)]
    axis = move_axis(chosen.answers)
    body.append(f"<h2>{t['per_move']}</h2><p class=\"note\">{t['per_move_note']}</p>")
    body += [_game_block(chosen, subject, index, axis, t, lang)
             for subject, index in _games_in_order(chosen)]
    body += [fidelity_section(chosen, t, lang), free_text_section(chosen, t, lang),
             power_section(stats.wins, t, lang), _surprise_section(stats, t, lang),
             _tracking_section(chosen, stats, t, lang), _subjects_section(chosen, t, lang),
             sources_section(chosen, t)]
    return _page(title, lang, body)


def _split(data: StudyData, field: str | None) -> list[Group]:
    return group_by(data, field) if field else []


def _page(title: str, lang: str, body: list[str]) -> str:
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
            "<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def default_title(lang: str = "en") -> str:
    """The report's title when none is given."""
    return labels(lang)["title"]


def write_report(data: StudyData, path: str | Path, *, title: str, lang: str = "en",
                 where: str | None = None, group_by: str | None = None) -> Path:
    """:func:`build_report` written to ``path`` (UTF-8); returns the path."""
    out = Path(path)
    out.write_text(build_report(data, title=title, lang=lang, where=where,
                                group_by=group_by), encoding="utf-8")
    return out


__all__ = [
    "CJK_FONTS",
    "LANGS",
    "MOVE_FELT_SCORE",
    "build_report",
    "cjk_font",
    "default_title",
    "per_move_figure",
    "surprise_figure",
    "tracking_figure",
    "wins_figure",
    "write_report",
]
