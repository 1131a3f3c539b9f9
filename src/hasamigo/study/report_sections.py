"""The report's sections for the paper's analysis (:mod:`hasamigo.study.report` puts them on
the page): the header with the study's protocol and subgroup, the first table (wins
against each program, the four exact tests and which of them reproduces the paper's
「有意であった」), the paper's own result under each test (it names none), the wins by
group, the pooled per-move answers, treatment fidelity, the free-text answers, the power,
and whose words each question is. Each takes data already computed and returns HTML.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from hasamigo.study.figures import pooled_figure
from hasamigo.study.pooled import (
    Fidelity,
    PooledAnswers,
    is_amusement,
    per_move_shares,
    treatment_fidelity,
)
from hasamigo.study.power import MAX_SUBJECTS, TARGET, Needed, fisher_needed, mcnemar_needed
from hasamigo.study.protocol import (
    EXTENDED_PROTOCOL,
    MIDGAME_WINDOW,
    PAPER_PROTOCOL,
    protocol,
    sources,
)
from hasamigo.study.records import StudyData
from hasamigo.study.report_text import (
    KIND_KEY,
    fmt_number,
    fmt_p,
    fmt_rate,
    html_table,
    program_name,
    significance_line,
)
from hasamigo.study.significance import (
    FISHER,
    FISHER_ONE,
    MCNEMAR,
    Significance,
    paper_tests,
)
from hasamigo.study.stats import PairTest, WinsTable, wins_by_program
from hasamigo.study.subgroups import Group

#: the significance level of the report's verdicts and power
ALPHA = 0.05
#: the free-text questions, in the order listed
FREE_TEXT = ("more_fun_why", "strategies_text", "what_makes_fun", "felt_note")


def study_protocol(data: StudyData) -> str:
    """The study's protocol: its settings', else its subjects' (older data: extended)."""
    if data.meta is not None:
        return data.meta.protocol
    return data.subjects[0].protocol if data.subjects else EXTENDED_PROTOCOL.name


def header(data: StudyData, where: str, group: str | None, t: dict[str, str]) -> str:
    """The lines under the title: protocol, window, withdrawn, subgroup, software."""
    meta = data.meta
    name = study_protocol(data)
    rows = [(t["protocol"], t.get(f"protocol.{name}", html.escape(name)))]
    if meta is not None:
        rows.append((t["window"], t.get(f"window.{meta.surprise_window}",
                                        html.escape(meta.surprise_window))))
        rows.append((t["withdrawn"], str(meta.withdrawn)))
    rows.append((t["subgroup"], html.escape(where) if where else t["all_subjects"]))
    if group:
        rows.append((t["grouped"], html.escape(group)))
    if meta is not None and meta.software_version:
        rows.append((t["version"], f"hasamigo {html.escape(meta.software_version)}"))
    return "".join(f'<p class="meta">{k}: {v}</p>' for k, v in rows)


# ---- the first table --------------------------------------------------------------------------
def _won(arm_wins: int, games: int) -> str:
    return f"{arm_wins}/{games}"


def _verdict(pair: PairTest, t: dict[str, str], lang: str) -> str:
    """Which of the four tests reach p ≤ 0.05, in one plain sentence."""
    tests = [(r, t.get(r.test, r.test)) for r, _ in pair.tests()]
    passed = [f"{name} (p = {fmt_p(r.p)})" for r, name in tests
              if r.p is not None and r.p <= ALPHA]
    failed = [f"{name} (p = {fmt_p(r.p)})" for r, name in tests
              if r.p is None or r.p > ALPHA]
    joiner = t["and"] if lang == "ja" else ", "
    key = ("verdict.none" if not passed else "verdict.all" if not failed
           else "verdict.one" if len(passed) == 1 else "verdict.some")
    pair_name = f"{program_name(pair.a, lang)} – {program_name(pair.b, lang)}"
    return t[key].format(pair=pair_name, tests=html.escape(joiner.join(passed)),
                         others=html.escape(joiner.join(failed)))


def wins_section(chosen: WinsTable, everyone: WinsTable | None, where: str,
                 figure: str, t: dict[str, str], lang: str) -> str:
    """The paper's first table: wins against each program for the chosen subgroup (and for
    all subjects beside it when a subgroup is chosen), the four tests of every pair with
    the one-sided tests' direction, the paired counts, and the verdict."""
    all_arms = {a.program: a for a in everyone.arms} if everyone is not None else {}
    head = [t["program"], t["games"], t["won"], t["draws"], t["lost"], t["unfinished"],
            t["win_rate"]]
    rows = []
    for a in chosen.arms:
        row = [program_name(a.program, lang), str(a.games), str(a.wins), str(a.draws),
               str(a.losses), str(a.unfinished), fmt_rate(a.win_rate)]
        if everyone is not None:
            other = all_arms.get(a.program)
            row.append("–" if other is None else
                       f"{_won(other.wins, other.games)} ({fmt_rate(other.win_rate)})")
        rows.append(row)
    if everyone is not None:
        head.append(t["all_won"])
    parts = [f"<h2>{t['wins']}</h2>",
             html_table(head, rows, numeric=(1, 2, 3, 4, 5, 6)), figure]
    if not chosen.pairs:
        parts.append(significance_line(Significance(FISHER, sum(a.games for a in chosen.arms),
                                            "odds ratio", None, None,
                                            "fewer than two programs"), t))
    others = {(p.a, p.b): p for p in everyone.pairs} if everyone is not None else {}
    many = len(chosen.pairs) > 1
    for pair in chosen.pairs:
        (aw, an), (bw, bn) = pair.table
        parts.append(f"<h3>{program_name(pair.a, lang)} – {program_name(pair.b, lang)}: "
                     f"{aw}/{aw + an} – {bw}/{bw + bn}</h3>")
        test_head = [t["test"], t["subgroup_col"].format(where=html.escape(where))
                     if where else t["result"]]
        if many:
            test_head.append(t["holm"])
        if pair_all := others.get((pair.a, pair.b)):
            test_head.append(t["all_subjects"])
        test_rows = []
        for i, (result, holm_p) in enumerate(pair.tests()):
            row = [html.escape(t.get(result.test, result.test)), significance_line(result, t)]
            if many:
                row.append(fmt_p(holm_p))
            if pair_all is not None:
                row.append(significance_line(pair_all.tests()[i][0], t))
            test_rows.append(row)
        parts.append(html_table(test_head, test_rows, numeric=(2,) if many else ()))
        parts.append('<p class="note">' + t["h1"].format(
            a=program_name(pair.a, lang), b=program_name(pair.b, lang)) + ". "
            + t["discordant"].format(pairs=pair.paired.pairs, both=pair.paired.both,
                                     neither=pair.paired.neither,
                                     b_only=pair.paired.b_only, a_only=pair.paired.a_only,
                                     a=program_name(pair.a, lang),
                                     b=program_name(pair.b, lang)) + "</p>")
        parts.append(f'<p class="verdict">{_verdict(pair, t, lang)}</p>')
    parts.append(f'<p class="note">{t["wins_note"]} {t["mcnemar_fits"]}</p>')
    return "".join(parts)


def groups_section(groups: Sequence[Group], field: str, t: dict[str, str],
                   lang: str) -> str:
    """One row per group: subjects, wins against each program, and the first pair's
    tests (Fisher one- and two-sided, McNemar two-sided)."""
    tables = [(g, wins_by_program(g.data)) for g in groups]
    arms = list(dict.fromkeys(a.program for _, w in tables for a in w.arms))
    head = [t["group"], t["n"], *(program_name(a, lang) for a in arms)]
    tests = ("one_sided", "result", "mcnemar")
    head += [html.escape(t[name]) for name in (FISHER_ONE, FISHER, MCNEMAR)]
    rows = []
    for g, w in tables:
        by_arm = {a.program: a for a in w.arms}
        row = [html.escape(g.label), str(len(g.data.subjects))]
        row += [_won(by_arm[a].wins, by_arm[a].games) if a in by_arm else "–" for a in arms]
        first = w.pairs[0] if w.pairs else None
        for name in tests:
            result: Significance | None = getattr(first, name) if first else None
            row.append(fmt_p(result.p if result is not None else None))
        rows.append(row)
    numeric = tuple(range(1, len(head)))
    return (f"<h2>{t['by_group'].format(field=html.escape(field))}</h2>"
            + html_table(head, rows, numeric=numeric))


# ---- the answers pooled, fidelity ---------------------------------------------------------------
def pooled_section(data: StudyData, t: dict[str, str], lang: str) -> str:
    pooled: PooledAnswers = per_move_shares(data)
    parts = [f"<h2>{t['pooled']}</h2>"]
    if not pooled.programs:
        return parts[0] + f"<p>{t['no_answers']}</p>"
    moves = sorted({m.move for p in pooled.programs for m in p.moves})
    head = [t["move"]]
    for p in pooled.programs:
        name = program_name(p.program, lang)
        head += [f"{name}: n", f"{name}: {t['can_win_share']}",
                 f"{name}: {t['surprising_share']}", f"{name}: {t['mean_eval']}"]
    rows = []
    for move in moves:
        row = [str(move)]
        for p in pooled.programs:
            m = next((m for m in p.moves if m.move == move), None)
            row += (["0", "–", "–", "–"] if m is None else
                    [str(m.n), fmt_rate(m.can_win_share), fmt_rate(m.surprising_share),
                     fmt_number(m.mean_evaluation, 1)])
        rows.append(row)
    parts.append(f'<figure class="wide">{pooled_figure(pooled, lang=lang)}</figure>')
    parts.append(html_table(head, rows, numeric=tuple(range(len(head))), wide=True))
    parts.append('<p class="note">' + t["pooled_note"].format(
        axis=t[f"axis.{pooled.axis}"]) + "</p>")
    return "".join(parts)


def fidelity_section(data: StudyData, t: dict[str, str], lang: str) -> str:
    fidelity: Fidelity = treatment_fidelity(data)
    window = (data.meta.surprise_window if data.meta is not None else MIDGAME_WINDOW)
    rows = [[program_name(p.program, lang), str(p.games),
             f"{p.expectation} ({fmt_rate(p.share(p.expectation))})",
             f"{p.surprise} ({fmt_rate(p.share(p.surprise))})",
             f"{p.gifts} ({fmt_rate(p.share(p.gifts))})"] for p in fidelity.programs]
    parts = [f"<h2>{t['fidelity']}</h2>",
             '<p class="note">' + t["fidelity_note"].format(
                 window=t.get(f"window.{window}", html.escape(window))) + "</p>",
             html_table([t["program"], t["games"], t["expectation_played"],
                         t["surprise_played"], t["gifts_played"]], rows,
                        numeric=(1, 2, 3, 4))]
    items = []
    for flag in fidelity.flags:
        g = flag.game
        who = f"{html.escape(g.subject)} · {t['game']} {g.index} ({program_name(g.program, lang)})"
        if flag.never:
            items.append(t["flag.never"].format(who=who))
        else:
            missing = t[KIND_KEY[flag.missing[0]]]
            items.append(t["flag.part"].format(who=who, missing=missing))
    if items:
        parts.append('<ul class="flags">' + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
    elif any(is_amusement(g.program) for g in data.games):
        parts.append(f"<p>{t['flags_none']}</p>")
    return "".join(parts)


# ---- the paper's result under each test -----------------------------------------------------
def paper_tests_section(t: dict[str, str]) -> str:
    """The paper's 0/6 against 4/6 under Fisher's test one- and two-sided, the plain χ²
    test and McNemar's test one- and two-sided, side by side (the paper names none)."""
    rows = [[html.escape(t.get(r.test, r.test)), significance_line(r, t)]
            for r in paper_tests()]
    return (f"<h2>{t['paper_tests']}</h2><h3>{t['paper_table']}</h3>"
            + html_table([t["test"], t["result"]], rows)
            + f'<p class="note">{t["paper_tests_note"]}</p>')


# ---- whose words ------------------------------------------------------------------------------
def sources_section(data: StudyData, t: dict[str, str]) -> str:
    """The study protocol's Japanese questions and choices, each with whose words it is
    (:func:`~hasamigo.study.protocol.sources`)."""
    name = study_protocol(data)
    rows = [[html.escape(key), html.escape(text), t[f"source.{source}"]]
            for key, text, source in sources(protocol(name))]
    return (f"<h2>{t['sources']}</h2>"
            + f'<p class="note">{t["sources_note"].format(protocol=html.escape(name))}</p>'
            + html_table([t["question"], t["text_ja"], t["whose"]], rows))


# ---- free text ------------------------------------------------------------------------------
def free_text_section(data: StudyData, t: dict[str, str], lang: str) -> str:
    """Each free-text question's answers, the question in the study protocol's words
    (the other protocol's when the study's does not ask it)."""
    own = protocol(study_protocol(data))
    parts = [f"<h2>{t['free']}</h2>"]
    for key in FREE_TEXT:
        answers: list[tuple[str, str]]
        if key == "felt_note":
            answers = [(f"{g.subject} · {t['game']} {g.index} ({g.program})", g.felt_note)
                       for g in data.games if g.felt_note]
        else:
            answers = [(s.subject, getattr(s, key)) for s in data.subjects if getattr(s, key)]
        try:
            question = own.question(key)
        except KeyError:
            if not answers:
                continue  # not asked by this protocol, and no answer
            other = EXTENDED_PROTOCOL if own is PAPER_PROTOCOL else PAPER_PROTOCOL
            question = other.question(key)
        parts.append(f"<h3>{html.escape(question.text(lang))}</h3>")
        if not answers:
            parts.append(f'<p class="note">{t["no_text"]}</p>')
            continue
        parts.append('<ul class="answers">' + "".join(
            f'<li><b>{html.escape(who)}</b>: <span class="text">{html.escape(text)}</span></li>'
            for who, text in answers) + "</ul>")
    return "".join(parts)


# ---- power ----------------------------------------------------------------------------------
def _needed(needed: Needed, t: dict[str, str]) -> str:
    if needed.n is not None and needed.power is not None:
        return t["needed"].format(n=needed.n, power=f"{needed.power:.2f}")
    if needed.reason.startswith("more than"):
        return t["more_than"].format(cap=needed.cap)
    why = "why.zero" if "zero" in needed.reason else "why.against"
    return t["not_estimable"].format(why=t[why])


def power_section(wins: WinsTable, t: dict[str, str], lang: str) -> str:
    """Subjects needed, per test and side, at the first pair's observed effect."""
    parts = [f"<h2>{t['power']}</h2>"]
    if not wins.pairs:
        return parts[0] + significance_line(Significance(FISHER, 0, "odds ratio", None, None,
                                                 "fewer than two programs"), t)
    pair = wins.pairs[0]
    (aw, an), (bw, bn) = pair.table
    if not aw + an or not bw + bn:
        return parts[0] + significance_line(pair.result, t)
    ra, rb = aw / (aw + an), bw / (bw + bn)
    paired = pair.paired
    pb = paired.b_only / paired.pairs if paired.pairs else 0.0
    pc = paired.a_only / paired.pairs if paired.pairs else 0.0
    rows = []
    for label, find, x, y in (("fisher_power", fisher_needed, ra, rb),
                              ("mcnemar_power", mcnemar_needed, pb, pc)):
        rows.append([t[label], _needed(find(x, y, one_sided=True), t),
                     _needed(find(x, y, one_sided=False), t)])
    parts.append(html_table([t["test"], t["one_sided"], t["two_sided"]], rows))
    parts.append('<p class="note">' + t["power_note"].format(
        pair=f"{program_name(pair.a, lang)} – {program_name(pair.b, lang)}",
        ra=fmt_rate(ra), rb=fmt_rate(rb), pb=fmt_rate(pb), pc=fmt_rate(pc),
        cap=MAX_SUBJECTS, target=f"{100 * TARGET:.0f} %") + "</p>")
    return "".join(parts)


__all__ = [
    "ALPHA",
    "FREE_TEXT",
    "fidelity_section",
    "free_text_section",
    "groups_section",
    "header",
    "paper_tests_section",
    "pooled_section",
    "power_section",
    "sources_section",
    "study_protocol",
    "wins_section",
]
