"""The study's report: one self-contained HTML page (A4 when printed) with the paper's
per-move graph for every subject's game and the tables of :mod:`hasamigo.study.stats`.

The figures (:mod:`hasamigo.study.figures`, re-exported here) are embedded as inline SVG.
Headings are English or Japanese (``lang``); Japanese figure labels need a CJK font
(``fonts-noto-cjk``) and fall back to English when matplotlib finds none. Every piece of
text that came from a subject (codes, free-text answers) is escaped.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path

from hasamigo.errors import InvalidOptionError
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
from hasamigo.study.records import StudyData
from hasamigo.study.stats import (
    BINOMIAL,
    FISHER,
    SPEARMAN,
    Significance,
    StudyStats,
    analyse,
)

LANGS = ("en", "ja")

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "User study report",
        "summary": "{subjects}, {games}, {answers} after program moves.",
        # counts: "one|many" forms ({n} the number)
        "count.subjects": "{n} subject|{n} subjects", "count.games": "{n} game|{n} games",
        "count.answers": "{n} answer|{n} answers",
        "empty": "No subjects in this study yet: there is nothing to report.",
        "subjects": "Subjects",
        "subject": "Subject", "strength": "Strength (1–5)", "order": "Order played",
        "more_fun": "More fun", "why": "Why", "what_makes_fun": "What makes a board game fun",
        "strategies": "Known strategies", "simulated": "simulated",
        "wins": "Wins per program",
        "program": "Program", "games": "Games", "won": "Subject won", "draws": "Draws",
        "lost": "Subject lost", "unfinished": "Unfinished", "win_rate": "Win rate",
        "pair": "Pair", "table": "2×2 table (won / not)", "result": "Result",
        "holm": "Holm-adjusted p",
        "wins_note": "Per pair of programs, Fisher's exact test (two-sided) on subject won / "
                     "did not win; a draw counts as not a win; unfinished games are left out. "
                     "With more than two programs every pair is tested and Holm's adjustment "
                     "is given beside p. Each subject played every program, a pairing this "
                     "test ignores.",
        "fun": "Which game was more fun",
        "chose": "Named more fun", "share": "Share",
        "fun_note": "Per program, an exact binomial test (two-sided) of the number of "
                    "subjects naming it against an even preference (1/k of the {n} who "
                    "named a program, k = {k}). No answer: {none}; not a program: {other}.",
        "surprise": "“Surprising” answers after special moves",
        "kind": "Move just played", "answers": "Answers", "surprising": "“Surprising”",
        "rate": "Rate", "special": "special (expectation, surprise, gift)",
        "surprise_note": "Fisher's exact test (two-sided) on the 2×2 table (surprising / "
                         "other answer) × (after a special move / after a normal one). "
                         "Answers are pooled over subjects and are not independent.",
        "tracking": "“Can you win?” against the evaluation",
        "answer": "Answer", "n": "n", "mean": "Mean evaluation", "median": "Median",
        "tracking_note": "Evaluation: discs from the subject's side (positive: ahead). "
                         "Spearman's rank correlation (two-sided) between the answer (lose "
                         "−1, unknown 0, win +1) and the evaluation, over {answers} "
                         "with an evaluation ({missing} without one). Answers are pooled "
                         "over subjects.",
        "per_move": "Per-move graphs",
        "per_move_note": "Blue: “Can you win now?” (+1 win, 0 unknown, −1 lose). Orange: "
                         "“What kind of move?” (+1 surprising, 0 unknown, −1 expected). "
                         "Black dotted: the evaluation (discs, subject's side, right axis). "
                         "Shaded bands mark the program's special moves "
                         "(E expectation, S surprise, G gift).",
        "game": "Game", "black": "black", "white": "white", "felt": "Felt (1–5)",
        "marks": "Special moves", "none": "none", "no_answers": "no answers",
        "too_few": "too few to test", "p": "p", "stat": "statistic",
        "felt_note": "Note",
        "win": "win", "draw": "draw", "lose": "lose", "unknown": "unknown",
        "surprising_a": "surprising", "expected": "expected",
        "normal": "normal", "expectation": "expectation", "surprise_k": "surprise",
        "gift": "gift",
        FISHER: FISHER, BINOMIAL: BINOMIAL, SPEARMAN: SPEARMAN,
        "odds ratio": "odds ratio", "proportion": "proportion", "rho": "rho",
    },
    "ja": {
        "title": "ユーザースタディ報告",
        "summary": "被験者 {subjects} 人、対局 {games} 局、プログラムの手の後の回答 {answers} 件。",
        "count.subjects": "{n}", "count.games": "{n}", "count.answers": "{n}",
        "empty": "この実験にはまだ被験者がいません。報告する内容はありません。",
        "subjects": "被験者",
        "subject": "被験者", "strength": "強さ（1〜5）", "order": "対戦順",
        "more_fun": "おもしろかった方", "why": "理由",
        "what_makes_fun": "ボードゲームのおもしろさとは", "strategies": "知っている戦略",
        "simulated": "模擬",
        "wins": "プログラム別の勝敗",
        "program": "プログラム", "games": "対局数", "won": "被験者の勝ち", "draws": "引き分け",
        "lost": "被験者の負け", "unfinished": "未終局", "win_rate": "勝率",
        "pair": "組", "table": "2×2 表（勝ち／それ以外）", "result": "結果",
        "holm": "Holm 補正後の p",
        "wins_note": "プログラムの各組について、被験者の勝ち／勝ち以外でフィッシャーの正確確率"
                     "検定（両側）を行う。引き分けは「勝ち以外」に数え、未終局の対局は除く。"
                     "プログラムが3つ以上のときは全ての組を検定し、Holm の補正値を併記する。"
                     "各被験者が全プログラムと対戦しているが、この検定は対応を考慮しない。",
        "fun": "どちらがおもしろかったか",
        "chose": "おもしろいと答えた人数", "share": "割合",
        "fun_note": "プログラムごとに、それを選んだ人数を均等な選好（プログラムを答えた "
                    "{n} 人の 1/k、k = {k}）と比べる二項検定（両側）。無回答 {none}、"
                    "プログラム以外 {other}。",
        "surprise": "特別な手の直後の「意外な手」の回答",
        "kind": "直前の手", "answers": "回答数", "surprising": "「意外な手」",
        "rate": "割合", "special": "特別な手（期待性・意外性・ギフト）",
        "surprise_note": "（意外な手／それ以外の回答）×（特別な手の後／通常の手の後）の"
                         "2×2 表でフィッシャーの正確確率検定（両側）。回答は被験者をまたいで"
                         "合算しており、独立ではない。",
        "tracking": "「いま勝てそうですか」と評価値",
        "answer": "回答", "n": "n", "mean": "評価値の平均", "median": "中央値",
        "tracking_note": "評価値は被験者側から見た石差（正：被験者が優勢）。回答（負けそう "
                         "−1、わからない 0、勝てそう +1）と評価値のスピアマンの順位相関"
                         "（両側）、評価値のある {n} 件（評価値なし {missing} 件）。"
                         "回答は被験者をまたいで合算している。",
        "per_move": "1手毎のグラフ",
        "per_move_note": "青：「いま勝てそうですか」（+1 勝てそう、0 わからない、−1 "
                         "負けそう）。オレンジ：「相手はどんな手を打ってきましたか」（+1 "
                         "意外な手、0 わからない、−1 予想通り）。黒の点線：評価値（被験者側の"
                         "石差、右軸）。色の帯はプログラムの特別な手（E 期待性、S 意外性、"
                         "G ギフト）。",
        "game": "対局", "black": "黒", "white": "白", "felt": "おもしろさ（1〜5）",
        "marks": "特別な手", "none": "なし", "no_answers": "回答なし",
        "too_few": "少なすぎて検定できません", "p": "p", "stat": "統計量",
        "felt_note": "感想",
        "win": "勝てそう", "draw": "引き分け", "lose": "負けそう", "unknown": "わからない",
        "surprising_a": "意外な手", "expected": "予想通り",
        "normal": "通常の手", "expectation": "期待性の手", "surprise_k": "意外性の手",
        "gift": "ギフト",
        FISHER: "フィッシャーの正確確率検定（両側）", BINOMIAL: "二項検定（両側）",
        SPEARMAN: "スピアマンの順位相関（両側）",
        "odds ratio": "オッズ比", "proportion": "割合", "rho": "ρ",
    },
}
_OUTCOME = {"en": {"win": "subject won", "lose": "subject lost", "draw": "draw"},
            "ja": {"win": "被験者の勝ち", "lose": "被験者の負け", "draw": "引き分け"}}
_PROGRAM_JA = {"victory": "勝利指向", "amusement": "娯楽指向", "entertainer": "接待"}
_KIND_KEY = {"normal": "normal", "expectation": "expectation", "surprise": "surprise_k",
             "gift": "gift"}
_FELT_KEY = {"surprising": "surprising_a", "unknown": "unknown", "expected": "expected"}

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


def _labels(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        raise InvalidOptionError(f"a report's language is 'en' or 'ja', not {lang!r}")
    return _TEXT[lang]


def _count(t: dict[str, str], noun: str, n: int) -> str:
    """``n`` with its noun in the report's language: ``1 subject``, ``2 subjects``
    (``count.<noun>`` holds the one and the many forms, ``|`` between; Japanese has the
    number alone, its counter word is in the sentence).

    >>> _count(_labels("en"), "subjects", 1), _count(_labels("en"), "games", 0)
    ('1 subject', '0 games')
    """
    one, _bar, many = t[f"count.{noun}"].partition("|")
    return (one if n == 1 or not many else many).format(n=n)


# ---- the page -----------------------------------------------------------------------------
def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"  # p < 0.001, p = 0.143


def _number(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if math.isinf(value):
        return "∞"
    return f"{value:.{digits}f}"


def _rate(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _significance(result: Significance, t: dict[str, str]) -> str:
    """One line: the test, n, the statistic and p — or why it was not run."""
    name = html.escape(t.get(result.test, result.test))
    if not result.tested:
        detail = result.reason.removeprefix("too few to test: ")
        return (f'<p class="test untested">{name}: n = {result.n} — {t["too_few"]} '
                f"({html.escape(detail)})</p>")
    stat = html.escape(t.get(result.statistic_name, result.statistic_name))
    p = _p(result.p)
    return (f'<p class="test">{name}: n = {result.n}, {stat} = '
            f"{_number(result.statistic)}, p {p if p.startswith('<') else '= ' + p}</p>")


def _program(name: str, lang: str) -> str:
    if lang == "ja" and name in _PROGRAM_JA:
        return f"{_PROGRAM_JA[name]} ({html.escape(name)})"
    return html.escape(name)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]],
           numeric: Sequence[int] = (), *, wide: bool = False) -> str:
    """A table (cells already HTML) in a horizontally scrolling box for narrow screens."""
    def cell(tag: str, i: int, text: str) -> str:
        return f'<{tag} class="num">{text}</{tag}>' if i in numeric else f"<{tag}>{text}</{tag}>"

    lines = ["<tr>" + "".join(cell("th", i, h) for i, h in enumerate(head)) + "</tr>"]
    lines += ["<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>"
              for row in rows]
    table = '<table class="wide">' if wide else "<table>"
    return f'<div class="scroll">{table}{"".join(lines)}</table></div>'


def _text(value: str) -> str:
    return f'<div class="text">{html.escape(value)}</div>' if value else ""


def _subjects_section(data: StudyData, t: dict[str, str], lang: str) -> str:
    rows = []
    for s in data.subjects:
        code = html.escape(s.subject) + (f" ({t['simulated']})" if s.simulated else "")
        rows.append([code, "" if s.strength is None else str(s.strength),
                     " → ".join(_program(a, lang) for a in s.order),
                     "" if s.more_fun is None else _program(s.more_fun, lang),
                     _text(s.more_fun_why), _text(s.what_makes_fun),
                     html.escape(", ".join(s.strategies))])
    return (f"<h2>{t['subjects']}</h2>"
            + _table([t["subject"], t["strength"], t["order"], t["more_fun"], t["why"],
                      t["what_makes_fun"], t["strategies"]], rows, numeric=(1,), wide=True))


def _wins_section(stats: StudyStats, t: dict[str, str], lang: str) -> str:
    rows = [[_program(a.program, lang), str(a.games), str(a.wins), str(a.draws),
             str(a.losses), str(a.unfinished), _rate(a.win_rate)] for a in stats.wins.arms]
    parts = [f"<h2>{t['wins']}</h2>",
             _table([t["program"], t["games"], t["won"], t["draws"], t["lost"],
                     t["unfinished"], t["win_rate"]], rows, numeric=(1, 2, 3, 4, 5, 6))]
    if stats.wins.arms:
        parts.append(f'<figure class="small">{wins_figure(stats, lang=lang)}</figure>')
    pair_rows = []
    for pair in stats.wins.pairs:
        (aw, an), (bw, bn) = pair.table
        pair_rows.append([f"{_program(pair.a, lang)} – {_program(pair.b, lang)}",
                          f"{aw}/{an} – {bw}/{bn}", _significance(pair.result, t),
                          _p(pair.p_holm)])
    if pair_rows:
        head = [t["pair"], t["table"], t["result"]]
        if len(pair_rows) > 1:
            parts.append(_table([*head, t["holm"]], pair_rows, numeric=(3,)))
        else:
            parts.append(_table(head, [r[:3] for r in pair_rows]))
    else:
        parts.append(_significance(Significance(FISHER, sum(a.games for a in stats.wins.arms),
                                                "odds ratio", None, None,
                                                "fewer than two programs"), t))
    parts.append(f'<p class="note">{t["wins_note"]}</p>')
    return "".join(parts)


def _fun_section(stats: StudyStats, t: dict[str, str], lang: str) -> str:
    fun = stats.fun
    rows = [[_program(c.program, lang), str(c.count),
             _rate(c.count / fun.n if fun.n else None), _significance(c.result, t)]
            for c in fun.choices]
    note = t["fun_note"].format(n=fun.n, k=len(fun.choices), none=fun.no_answer,
                                other=fun.other)
    return (f"<h2>{t['fun']}</h2>"
            + _table([t["program"], t["chose"], t["share"], t["result"]], rows,
                     numeric=(1, 2))
            + f'<p class="note">{note}</p>')


def _surprise_section(stats: StudyStats, t: dict[str, str], lang: str) -> str:
    s = stats.surprise
    rows = [[t[_KIND_KEY[k.kind]] if k.kind in _KIND_KEY else html.escape(k.kind),
             str(k.answers), str(k.surprising), _rate(k.rate)] for k in s.kinds]
    rows.append([f"<b>{t['special']}</b>", str(s.special.answers), str(s.special.surprising),
                 _rate(s.special.rate)])
    figure = (f'<figure class="small">{surprise_figure(stats, lang=lang)}</figure>'
              if any(k.answers for k in s.kinds) else "")
    return (f"<h2>{t['surprise']}</h2>"
            + _table([t["kind"], t["answers"], t["surprising"], t["rate"]], rows,
                     numeric=(1, 2, 3))
            + _significance(s.result, t) + figure
            + f'<p class="note">{t["surprise_note"]}</p>')


def _tracking_section(data: StudyData, stats: StudyStats, t: dict[str, str],
                      lang: str) -> str:
    tr = stats.tracking
    rows = [[t[a.answer], str(a.n), _number(a.mean, 1), _number(a.median, 1)]
            for a in tr.by_answer]
    figure = (f'<figure class="small">{tracking_figure(data, lang=lang)}</figure>'
              if tr.n else "")
    return (f"<h2>{t['tracking']}</h2>"
            + _table([t["answer"], t["n"], t["mean"], t["median"]], rows,
                     numeric=(1, 2, 3))
            + _significance(tr.result, t) + figure
            + '<p class="note">' + t["tracking_note"].format(
                n=tr.n, answers=_count(t, "answers", tr.n), missing=tr.missing) + "</p>")


def _games_in_order(data: StudyData) -> list[tuple[str, int]]:
    """(subject, game index) of every game, the subjects in the study's order."""
    rank = {s.subject: i for i, s in enumerate(data.subjects)}
    keys = {(g.subject, g.index) for g in data.games}
    keys |= {(a.subject, a.game_index) for a in data.answers}
    return sorted(keys, key=lambda k: (rank.get(k[0], len(rank)), k[0], k[1]))


def _game_block(data: StudyData, subject: str, index: int, t: dict[str, str],
                lang: str) -> str:
    game = game_of(data, subject, index)
    answers = answers_of(data, subject, index)
    program = game.program if game is not None else (answers[0].program if answers else "?")
    heading = (f"{html.escape(subject)} · {t['game']} {index}: {_program(program, lang)}")
    meta = []
    if game is not None:
        meta.append(t[game.subject_colour])
        if game.outcome is not None:
            score = ("" if game.subject_discs is None or game.program_discs is None
                     else f" {game.subject_discs}–{game.program_discs}")
            meta.append(_OUTCOME[lang][game.outcome] + score)
        if game.felt is not None:
            meta.append(f"{t['felt']}: {game.felt}")
    marks = [f"{KIND_LETTER[a.move_kind]} {a.move_number} ({t[_KIND_KEY[a.move_kind]]})"
             for a in answers if a.move_kind in KIND_LETTER]
    meta.append(f"{t['marks']}: {', '.join(marks) or t['none']}")
    note = ""
    if game is not None and game.felt_note:
        note = (f'<p class="meta">{t["felt_note"]}: '
                f'<span class="text">{html.escape(game.felt_note)}</span></p>')
    return (f'<section class="game"><h3>{heading}</h3>'
            f'<p class="meta">{" · ".join(meta)}</p>{note}'
            f'<figure class="wide">{per_move_svg(answers, lang)}</figure></section>')


def build_report(data: StudyData, *, title: str, lang: str = "en") -> str:
    """The study's report as one self-contained HTML page (figures inline, A4 print CSS),
    headings in ``lang`` (``en`` or ``ja``)."""
    t = _labels(lang)
    body = [f"<h1>{html.escape(title)}</h1>"]
    if not data.subjects:
        body.append(f"<p>{t['empty']}</p>")
    else:
        body.append("<p class=\"meta\">" + t["summary"].format(
            subjects=_count(t, "subjects", len(data.subjects)),
            games=_count(t, "games", len(data.games)),
            answers=_count(t, "answers", len(data.answers))) + "</p>")
        stats = analyse(data)
        body += [_subjects_section(data, t, lang), _wins_section(stats, t, lang),
                 _fun_section(stats, t, lang), _surprise_section(stats, t, lang),
                 _tracking_section(data, stats, t, lang)]
        body.append(f"<h2>{t['per_move']}</h2><p class=\"note\">{t['per_move_note']}</p>")
        body += [_game_block(data, subject, index, t, lang)
                 for subject, index in _games_in_order(data)]
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
            "<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def default_title(lang: str = "en") -> str:
    """The report's title when none is given."""
    return _labels(lang)["title"]


def write_report(data: StudyData, path: str | Path, *, title: str, lang: str = "en") -> Path:
    """:func:`build_report` written to ``path`` (UTF-8); returns the path."""
    out = Path(path)
    out.write_text(build_report(data, title=title, lang=lang), encoding="utf-8")
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
