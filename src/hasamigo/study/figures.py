"""The study's figures, drawn by matplotlib on a bare :class:`matplotlib.figure.Figure` (no
pyplot state, so the web server may draw from several threads) and given as inline SVG:
the paper's per-move graph of a subject's game and the wins, surprise and tracking charts.

Labels are English or Japanese (``lang``, from the one catalog of :mod:`hasamigo.text`);
Japanese needs a CJK font (``fonts-noto-cjk``) and falls back to English when matplotlib
finds none. The report
(:mod:`hasamigo.study.report`) puts them on its page beside the tables, and re-exports
them.
"""

from __future__ import annotations

import functools
import io
import math
import re
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hasamigo.errors import InvalidOptionError
from hasamigo.study.pooled import SUBJECT_MOVES, PooledAnswers, move_axis, x_of
from hasamigo.study.records import CAN_WIN, AnswerRecord, GameRecord, StudyData
from hasamigo.study.stats import CAN_WIN_SCORE, StudyStats
from hasamigo.text import LANGS, N_, Lang, Message, translate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the "what kind of move" answers on the graph's scale (the paper: +1 surprising, −1 expected)
MOVE_FELT_SCORE = {"surprising": 1, "unknown": 0, "expected": -1}
#: colours: the paper's blue and orange lines, the black dotted evaluation, one per mark
CAN_WIN_COLOUR, MOVE_FELT_COLOUR, EVALUATION_COLOUR = "#1f77b4", "#ff7f0e", "#222222"
KIND_COLOUR = {"expectation": "#2ca02c", "surprise": "#d62728", "gift": "#9467bd"}
KIND_LETTER = {"expectation": "E", "surprise": "S", "gift": "G"}
_SVG_ID = re.compile(r'(\bid="|href="#|url\(#)')
#: fonts tried, in order, for Japanese figure labels
CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic",
             "Source Han Sans JP", "Hiragino Sans", "Yu Gothic", "Noto Sans CJK SC")
#: the figures' labels: messages for the one catalog (:mod:`hasamigo.text`), English as
#: written, Japanese the catalog's
FIGURE_MESSAGES: dict[str, Message] = {
    "move": N_("move"),
    "subject_moves": N_("the subject's moves"),
    "answer": N_("answer"),
    "evaluation": N_("evaluation (discs)"),
    "can_win": N_("can you win?"),
    "move_felt": N_("what kind of move?"),
    "expectation": N_("expectation move"),
    "surprise": N_("surprise move"),
    "gift": N_("gift"),
    "no_answers": N_("no answers"),
    "win": N_("win"),
    "unknown": N_("unknown"),
    "lose": N_("lose"),
    "games": N_("games"),
    "won": N_("won"),
    "draw": N_("draw"),
    "lost": N_("lost"),
    "rate": N_("“surprising” rate"),
    "normal": N_("normal"),
    "share": N_("share of answers"),
    "can_win_share": N_("“I think I can win”"),
    "surprising_share": N_("“a surprising move”"),
    "mean_evaluation": N_("mean evaluation (discs)"),
}


@functools.cache
def cjk_font() -> str | None:
    """The name of a font matplotlib can draw Japanese with, or ``None``."""
    from matplotlib import font_manager

    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in installed), None)


@functools.cache
def figure_labels(lang: Lang) -> dict[str, str]:
    """The figures' labels in ``lang``, by key."""
    return {key: translate(lang, message) for key, message in FIGURE_MESSAGES.items()}


def _figure_text(lang: str) -> tuple[dict[str, str], dict[str, Any]]:
    """The figure's labels and the font keyword for them: Japanese only with a CJK font."""
    if lang not in LANGS:
        raise InvalidOptionError(f"a report's language is 'en' or 'ja', not {lang!r}")
    font = cjk_font() if lang == "ja" else None
    if lang == "ja" and font is not None:
        return figure_labels("ja"), {"family": [font, "DejaVu Sans"]}
    return figure_labels("en"), {}


def _svg(fig: Figure) -> str:
    """The figure as an SVG element to put inline (no XML prologue). Its ids get a prefix
    of their own: many figures share one page, and matplotlib names glyphs and groups
    alike in every figure (``DejaVuSans-30``, ``axes_1``)."""
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    prefix = f"f{uuid.uuid4().hex[:8]}-"
    return _SVG_ID.sub(lambda m: m.group(1) + prefix, text[text.index("<svg"):].strip())


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def game_of(data: StudyData, subject: str, game_index: int) -> GameRecord | None:
    """The subject's ``game_index``-th game (1-based, in the subject's order), if recorded."""
    return next((g for g in data.games if g.subject == subject and g.index == game_index), None)


def answers_of(data: StudyData, subject: str, game_index: int) -> list[AnswerRecord]:
    """The answers given during that game, in the order of the moves."""
    return sorted((a for a in data.answers
                   if a.subject == subject and a.game_index == game_index),
                  key=lambda a: a.move_number)


def per_move_figure(data: StudyData, subject: str, game_index: int, *,
                    lang: str = "en") -> str:
    """The paper's Figure 7 of one subject's game (``game_index``: 1-based place in the
    subject's order) as an SVG string: blue 「いま勝てそうですか」 (+1 / 0 / −1), orange
    「相手はどんな手を打ってきましたか」 (+1 surprising … −1 expected; a gap where it was not
    asked), the evaluation (subject's side) black dotted on the right axis, over the
    subject's moves (the paper's 手数; :func:`hasamigo.study.pooled.move_axis`), the
    program's special moves shaded and lettered where the subject answered about them."""
    answers = answers_of(data, subject, game_index)
    if game_of(data, subject, game_index) is None and not answers:
        raise InvalidOptionError(f"the study has no game {game_index} of subject {subject!r}")
    return per_move_svg(answers, lang, move_axis(data.answers))


def per_move_svg(answers: Sequence[AnswerRecord], lang: str, axis: str | None = None) -> str:
    """:func:`per_move_figure` of the game's ``answers`` (``axis``: the x field, by
    default :func:`~hasamigo.study.pooled.move_axis` of these answers)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    t, font = _figure_text(lang)
    fig = _new_figure(7.2, 2.9)
    ax = fig.add_subplot()
    ax.set_ylim(-1.4, 1.4)
    ax.set_yticks([-1, 0, 1], ["−1", "0", "+1"])
    axis = axis or move_axis(answers)
    ax.set_xlabel(t["subject_moves" if axis == SUBJECT_MOVES else "move"], **font)
    ax.set_ylabel(t["answer"], **font)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    if not answers:
        ax.set_xlim(0, 60)
        ax.text(30, 0, t["no_answers"], ha="center", va="center", color="#666666", **font)
        return _svg(fig)
    xs = [x_of(a, axis) for a in answers]
    ax.set_xlim(max(0, min(xs) - 1), max(xs) + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    marked = []
    for x, a in zip(xs, answers, strict=True):
        if a.move_kind in KIND_COLOUR:
            ax.axvspan(x - 0.5, x + 0.5, color=KIND_COLOUR[a.move_kind],
                       alpha=0.22, linewidth=0, zorder=0)
            ax.text(x, 1.22, KIND_LETTER[a.move_kind], ha="center", va="center",
                    fontsize=8, fontweight="bold", color=KIND_COLOUR[a.move_kind])
            if a.move_kind not in marked:
                marked.append(a.move_kind)
    ax.plot(xs, [CAN_WIN_SCORE[a.can_win] for a in answers], color=CAN_WIN_COLOUR,
            marker="o", markersize=3.5, linewidth=1.6, zorder=3)
    ax.plot(xs, [math.nan if a.move_felt is None else MOVE_FELT_SCORE[a.move_felt]
                 for a in answers], color=MOVE_FELT_COLOUR,
            marker="s", markersize=3.2, linewidth=1.3, zorder=3, alpha=0.9)
    evaluations = [math.nan if a.evaluation is None else float(a.evaluation) for a in answers]
    ev = ax.twinx()
    known = [abs(v) for v in evaluations if not math.isnan(v)]
    limit = max([8.0, *known]) * 1.15
    ev.set_ylim(-limit, limit)
    ev.set_ylabel(t["evaluation"], **font)
    ev.axhline(0, color="#999999", linewidth=0.5, zorder=1)
    ev.plot(xs, evaluations, color=EVALUATION_COLOUR, linestyle=":", linewidth=1.6,
            marker=".", markersize=3, zorder=2)
    handles: list[Any] = [
        Line2D([], [], color=CAN_WIN_COLOUR, marker="o", markersize=3.5, label=t["can_win"]),
        Line2D([], [], color=MOVE_FELT_COLOUR, marker="s", markersize=3.2,
               label=t["move_felt"]),
        Line2D([], [], color=EVALUATION_COLOUR, linestyle=":", label=t["evaluation"]),
    ]
    handles += [Patch(color=KIND_COLOUR[k], alpha=0.35,
                      label=f"{KIND_LETTER[k]}: {t[k]}") for k in marked]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(len(handles), 3),
               fontsize=8, frameon=False, prop=font or None)
    return _svg(fig)


def wins_figure(stats: StudyStats, *, lang: str = "en") -> str:
    """Stacked bars: the subjects' wins, draws and losses against each program."""
    from matplotlib.ticker import MaxNLocator

    t, font = _figure_text(lang)
    arms = stats.wins.arms
    fig = _new_figure(4.6, 0.6 + 0.45 * max(2, len(arms)))
    ax = fig.add_subplot()
    names = [a.program for a in arms]
    left = [0.0] * len(arms)
    for key, values, colour in (("won", [a.wins for a in arms], "#2ca02c"),
                                ("draw", [a.draws for a in arms], "#bbbbbb"),
                                ("lost", [a.losses for a in arms], "#d62728")):
        ax.barh(names, values, left=left, color=colour, label=t[key], height=0.6)
        left = [x + v for x, v in zip(left, values, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel(t["games"], **font)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.legend(loc="outside right center", fontsize=8, frameon=False, prop=font or None)
    return _svg(fig)


def tracking_figure(data: StudyData, *, lang: str = "en") -> str:
    """The evaluation at each "can you win" answer: one dot per answer, the mean as a bar."""
    t, font = _figure_text(lang)
    fig = _new_figure(4.6, 2.6)
    ax = fig.add_subplot()
    order = list(reversed(CAN_WIN))  # lose, unknown, win: left to right
    for x, answer in enumerate(order):
        values = [float(a.evaluation) for a in data.answers
                  if a.can_win == answer and a.evaluation is not None]
        jitter = [((i * 0.618) % 1 - 0.5) * 0.4 for i in range(len(values))]
        ax.scatter([x + j for j in jitter], values, s=9, alpha=0.55,
                   color=CAN_WIN_COLOUR, linewidths=0)
        if values:
            mean = sum(values) / len(values)
            ax.plot([x - 0.3, x + 0.3], [mean, mean], color="#111111", linewidth=2)
    ax.axhline(0, color="#999999", linewidth=0.5)
    ax.set_xticks(range(len(order)), [t[a] for a in order], **font)
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.set_ylabel(t["evaluation"], **font)
    return _svg(fig)


def surprise_figure(stats: StudyStats, *, lang: str = "en") -> str:
    """Bars: the rate of "surprising" answers after each kind of move."""
    t, font = _figure_text(lang)
    rows = [k for k in stats.surprise.kinds if k.answers]
    fig = _new_figure(4.6, 2.4)
    ax = fig.add_subplot()
    names = [t.get(k.kind, k.kind) for k in rows]
    colours = [KIND_COLOUR.get(k.kind, "#7f7f7f") for k in rows]
    ax.bar(range(len(rows)), [k.rate or 0.0 for k in rows], color=colours, width=0.6)
    for i, k in enumerate(rows):
        ax.text(i, (k.rate or 0.0) + 0.03, f"{k.surprising}/{k.answers}", ha="center",
                fontsize=8)
    ax.set_xticks(range(len(rows)), names, **font)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel(t["rate"], **font)
    return _svg(fig)



def pooled_figure(pooled: PooledAnswers, *, lang: str = "en") -> str:
    """The answers pooled over subjects (:func:`hasamigo.study.pooled.per_move_shares`),
    one panel per program: the share of 「勝てそう」 (blue) and of 「意外な手」 (orange) at
    each move, the mean evaluation black dotted on the right axis."""
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    t, font = _figure_text(lang)
    rows = max(1, len(pooled.programs))
    fig = _new_figure(7.2, 0.6 + 2.1 * rows)
    axes = fig.subplots(rows, 1, sharex=True, squeeze=False)[:, 0]
    limit = max([8.0, *(abs(m.mean_evaluation) for p in pooled.programs for m in p.moves
                        if m.mean_evaluation is not None)]) * 1.15
    for ax, program in zip(axes, pooled.programs, strict=False):
        xs = [m.move for m in program.moves]
        ax.set_ylim(-0.05, 1.1)
        ax.set_ylabel(t["share"], **font)
        ax.set_title(f"{program.program} (n = {program.subjects})", fontsize=9)
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.plot(xs, [math.nan if m.can_win_share is None else m.can_win_share
                     for m in program.moves], color=CAN_WIN_COLOUR, marker="o",
                markersize=3, linewidth=1.5)
        ax.plot(xs, [math.nan if m.surprising_share is None else m.surprising_share
                     for m in program.moves], color=MOVE_FELT_COLOUR, marker="s",
                markersize=3, linewidth=1.2)
        ev = ax.twinx()
        ev.set_ylim(-limit, limit)
        ev.axhline(0, color="#999999", linewidth=0.5)
        ev.plot(xs, [math.nan if m.mean_evaluation is None else m.mean_evaluation
                     for m in program.moves], color=EVALUATION_COLOUR, linestyle=":",
                linewidth=1.5)
        ev.set_ylabel(t["evaluation"], fontsize=8, **font)
    axes[-1].xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[-1].set_xlabel(t["subject_moves" if pooled.axis == SUBJECT_MOVES else "move"],
                        **font)
    handles: list[Any] = [
        Line2D([], [], color=CAN_WIN_COLOUR, marker="o", label=t["can_win_share"]),
        Line2D([], [], color=MOVE_FELT_COLOUR, marker="s", label=t["surprising_share"]),
        Line2D([], [], color=EVALUATION_COLOUR, linestyle=":", label=t["mean_evaluation"]),
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=8,
               frameon=False, prop=font or None)
    return _svg(fig)
