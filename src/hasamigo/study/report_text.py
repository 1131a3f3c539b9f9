"""The report's words and cells: its labels, and the small HTML helpers its sections share
(a p-value, a rate, a test's line, a table). Every piece of text that came from a subject
goes through :func:`html.escape` here or in the sections.

The labels are gettext messages (:mod:`hasamigo.text`): the English is written here, marked
for the catalog, and the Japanese is the catalog's (``src/hasamigo/locale``), the one the
web pages read. Where the report's word reads otherwise than the pages' (``Games``: 対局数
here, 局数 on the pages) the message has the context ``study report``. The Japanese
quoted in an English message is the paper's own words, quoted as they are in both
languages.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Sequence

from hasamigo.engine.players import program_of
from hasamigo.errors import InvalidOptionError
from hasamigo.study.significance import (
    BINOMIAL,
    CHI2,
    FISHER,
    FISHER_ONE,
    MCNEMAR,
    MCNEMAR_ONE,
    SPEARMAN,
    Significance,
)
from hasamigo.text import LANGS, N_, NNP_, NP_, Lang, Message, Plural, lang_code, translate

#: the report's labels by key (the sections read ``t["wins_note"]``): each a message for
#: the catalog, English as written
MESSAGES: dict[str, Message] = {
    "title": N_("User study report"),
    "summary": N_("{subjects}, {games}, {answers} during the games."),
    "empty": N_("No subjects in this study yet: there is nothing to report."),
    "subjects": N_("Subjects"),
    "subject": N_("Subject"),
    "strength": N_("Strength (1–5)"),
    "order": N_("Order played"),
    "more_fun": N_("More fun"),
    "why": N_("Why"),
    "what_makes_fun": N_("What makes a board game fun"),
    "strategies": N_("Known strategies"),
    "simulated": N_("simulated"),
    "wins": N_("Wins per program"),
    "program": N_("Program"),
    "games": NP_("study report", "Games"),
    "won": N_("Subject won"),
    "draws": N_("Draws"),
    "lost": N_("Subject lost"),
    "unfinished": N_("Unfinished"),
    "win_rate": N_("Win rate"),
    "pair": N_("Pair"),
    "table": N_("2×2 table (won / not)"),
    "result": N_("Result"),
    "holm": N_("Holm-adjusted p"),
    "wins_note": N_("A draw counts as not a win; unfinished games are left out. Fisher's exact "
                    "test compares the 2×2 table (subject won / did not win) × (program). With "
                    "more than two programs every pair is tested and Holm's adjustment is given "
                    "beside p, per test. The tests are the project's choice: the paper names "
                    "none."),
    "fun": N_("Which game was more fun"),
    "chose": N_("Named more fun"),
    "share": NP_("study report", "Share"),
    "fun_note": N_("Per program, an exact binomial test (two-sided) of the number of subjects "
                   "naming it against an even preference (1/k of the {n} who named a program, k "
                   "= {k}). No answer: {none}; not a program: {other}."),
    "surprise": N_("“Surprising” answers after special moves"),
    "kind": N_("Move just played"),
    "answers": NP_("study report", "Answers"),
    "surprising": N_("“Surprising”"),
    "rate": N_("Rate"),
    "special": N_("special (expectation, surprise, gift)"),
    "surprise_note": N_("Fisher's exact test (two-sided) on the 2×2 table (surprising / other "
                        "answer) × (after a special move / after a normal one). Answers are "
                        "pooled over subjects and are not independent."),
    "tracking": N_("“Can you win?” against the evaluation"),
    "answer": N_("Answer"),
    "n": N_("n"),
    "mean": N_("Mean evaluation"),
    "median": N_("Median"),
    "tracking_note": N_("Evaluation: discs from the subject's side (positive: ahead). Spearman's "
                        "rank correlation (two-sided) between the answer (lose −1, unknown 0, "
                        "win +1) and the evaluation, over {answers} with an evaluation "
                        "({missing} without one). Answers are pooled over subjects."),
    "per_move": N_("Per-move graphs"),
    "per_move_note": N_("Blue: “Can you win now?” (+1 win, 0 unknown, −1 lose). Orange: “What "
                        "kind of move?” (+1 surprising, 0 unknown, −1 expected). Black dotted: "
                        "the evaluation (discs, subject's side, right axis). Shaded bands mark "
                        "the program's special moves (E expectation, S surprise, G gift)."),
    "game": N_("Game"),
    "black": N_("black"),
    "white": N_("white"),
    "felt": N_("Felt (1–5)"),
    "marks": N_("Special moves"),
    "none": N_("none"),
    "no_answers": N_("no answers"),
    "too_few": N_("too few to test"),
    "p": N_("p"),
    "stat": N_("statistic"),
    "felt_note": N_("Note"),
    "win": N_("win"),
    "draw": N_("draw"),
    "lose": N_("lose"),
    "unknown": N_("unknown"),
    "surprising_a": N_("surprising"),
    "expected": N_("expected"),
    "normal": N_("normal"),
    "expectation": N_("expectation"),
    "surprise_k": N_("surprise"),
    "gift": N_("gift"),
    FISHER: N_("Fisher's exact test, two-sided"),
    BINOMIAL: N_("exact binomial test, two-sided"),
    SPEARMAN: N_("Spearman's rank correlation, two-sided"),
    "odds ratio": N_("odds ratio"),
    "proportion": N_("proportion"),
    "rho": N_("rho"),
    "protocol": NP_("study report", "Protocol"),
    "protocol.paper": N_("paper (the amusement paper's §4.1)"),
    "protocol.extended": N_("extended questionnaire"),
    "window": NP_("study report", "Surprise move's window"),
    "window.midgame": N_("the project's reading: moves 30–35 in the midgame phase only"),
    "window.moves": N_("the paper's: moves 30–35 of the game (「意外性の手は３０～３５手で打つ」)"),
    "withdrawn": N_("Subjects withdrawn (their data deleted)"),
    "subgroup": N_("Subgroup"),
    "all_subjects": N_("all subjects"),
    "version": N_("Software"),
    "grouped": N_("Grouped by"),
    "all_won": N_("All subjects: won / games"),
    "tests": N_("Tests"),
    "test": N_("Test"),
    "subgroup_col": N_("Subgroup ({where})"),
    "h1": N_("one-sided H1: subjects win more against {b} than against {a}"),
    "discordant": N_("Paired: of {pairs} subjects who finished both games, {both} won both, "
                     "{neither} neither; {b_only} won against {b} only (b), {a_only} against {a} "
                     "only (c). McNemar's exact test is the binomial test of b among b + c."),
    "verdict.one": N_("{pair}: only {tests} reaches p ≤ 0.05, as the paper's 「有意であった」 "
                      "(was significant, no test named); {others} do not."),
    "verdict.some": N_("{pair}: {tests} reach p ≤ 0.05 and reproduce the paper's "
                       "「有意であった」; {others} do not."),
    "verdict.all": N_("{pair}: all four tests reach p ≤ 0.05, as the paper's 「有意であった」."),
    "verdict.none": N_("{pair}: none of the four tests reaches p ≤ 0.05; none reproduces the "
                       "paper's 「有意であった」."),
    "and": N_(" and "),
    "mcnemar_fits": N_("McNemar's test is the one that fits a within-subject design (each "
                       "subject played every program); Fisher's test treats the two columns as "
                       "independent samples."),
    "by_group": N_("Wins by {field}"),
    "group": N_("Group"),
    "pooled": N_("Per-move answers, pooled over subjects"),
    "move": NP_("study report", "Move"),
    "pooled_note": N_("Per program and move ({axis}): n answers, the share answering "
                      "「勝てそう」 (I think I can win), the share answering 「意外な手」 (a "
                      "surprising move; of those asked), the mean evaluation (discs, subject's "
                      "side). Answers of one subject are not independent."),
    "axis.subject_moves": N_("the subject's n-th move, the paper's 手数"),
    "axis.move_number": N_("the game's move number: these data have no subject move count"),
    "can_win_share": N_("勝てそう"),
    "surprising_share": N_("意外な手"),
    "mean_eval": N_("eval."),
    "fidelity": N_("Treatment fidelity"),
    "fidelity_note": N_("The share of each program's games in which it played its expectation "
                        "move and its surprise move (recorded per game). The surprise move's "
                        "window in this study: {window}."),
    "expectation_played": N_("Expectation move played"),
    "surprise_played": N_("Surprise move played"),
    "gifts_played": N_("Games with gifts"),
    "flag.never": N_("{who}: neither the expectation nor the surprise move was played — the "
                     "treatment never happened"),
    "flag.part": N_("{who}: only partly — no {missing} move"),
    "flags_none": N_("Every amusement game had both its expectation and its surprise move."),
    "free": N_("Free-text answers"),
    "no_text": N_("no answers"),
    "power": N_("Power"),
    "power_note": N_("Subjects needed for {target} power at α = 0.05 at the effect observed in "
                     "the first table ({pair}: win rates {ra} and {rb}; discordant shares b "
                     "{pb}, c {pc}), by exact enumeration; each subject plays both programs, so "
                     "n per program = subjects. Searched up to {cap} subjects."),
    "one_sided": N_("one-sided"),
    "two_sided": N_("two-sided"),
    "needed": N_("n = {n} (power {power})"),
    "more_than": N_("more than {cap}"),
    "not_estimable": N_("not estimable ({why})"),
    "why.zero": N_("the observed effect is zero"),
    "why.against": N_("the observed effect is against the one-sided direction"),
    "fisher_power": N_("Fisher's exact test"),
    "mcnemar_power": N_("McNemar's exact test"),
    "reported": N_("reported"),
    "played_at": N_("{kind} move at move {n}"),
    FISHER_ONE: N_("Fisher's exact test, one-sided"),
    MCNEMAR: N_("McNemar's exact test, two-sided"),
    MCNEMAR_ONE: N_("McNemar's exact test, one-sided"),
    CHI2: N_("Pearson's χ² test (no continuity correction)"),
    "χ²": N_("χ²"),
    "paper_tests": N_("The paper's result under each test"),
    "paper_tests_note": N_("The paper reports "
                           "「勝利指向が０勝６敗，娯楽指向が４勝２敗，"
                           "という結果になり，その差は有意であった」 "
                           "(victory 0 wins 6 losses, amusement 4 wins 2 losses, and the "
                           "difference was significant; §4.2) and names no test. Here is its "
                           "result under each test a reader might have used (scipy.stats), none "
                           "of them the paper's by its word. McNemar's test fits its paired "
                           "design (each subject played both programs): with no win against "
                           "victory, b = 4 and c = 0. The χ² test's expected counts are under 5, "
                           "so its p is an approximation."),
    "paper_table": N_("The paper's 6 subjects: victory 0/6, amusement 4/6"),
    "sources": N_("The questions: whose words"),
    "sources_note": N_("Each Japanese question and choice of this study's protocol ({protocol}) "
                       "and whose words it is: the paper's as written (§4.1) or the project's. "
                       "The English is always the project's translation."),
    "question": N_("Question"),
    "text_ja": N_("Japanese"),
    "whose": N_("Whose words"),
    "source.paper": N_("the paper's"),
    "source.project": N_("the project's"),
    "outcome.win": N_("subject won"),
    "outcome.lose": N_("subject lost"),
    "outcome.draw": N_("draw"),
}
# the answers' words of the paper, shown in Japanese in both languages (its 「勝てそう」)
MESSAGES["can_win_share"] = N_("勝てそう")
MESSAGES["surprising_share"] = N_("意外な手")
#: the nouns that follow a count (:func:`count_of`); Japanese has the number alone, its
#: counter word is in the sentence
COUNTS: dict[str, Plural] = {
    "subjects": NNP_("study report", "{n} subject", "{n} subjects"),
    "games": NNP_("study report", "{n} game", "{n} games"),
    "answers": NNP_("study report", "{n} answer", "{n} answers"),
}
KIND_KEY = {"normal": "normal", "expectation": "expectation", "surprise": "surprise_k",
             "gift": "gift"}
FELT_KEY = {"surprising": "surprising_a", "unknown": "unknown", "expected": "expected"}


def report_lang(lang: str) -> Lang:
    """``lang`` if the report can be written in it, else a clear error."""
    if lang not in LANGS:
        raise InvalidOptionError(f"a report's language is 'en' or 'ja', not {lang!r}")
    return lang_code(lang)


@functools.cache
def _labels(lang: Lang) -> dict[str, str]:
    return {key: translate(lang, message) for key, message in MESSAGES.items()}


def labels(lang: str) -> dict[str, str]:
    """The report's labels in ``lang`` (``en`` or ``ja``), by key."""
    return dict(_labels(report_lang(lang)))


def count_of(lang: str, noun: str, n: int) -> str:
    """``n`` with its noun in the report's language: ``1 subject``, ``2 subjects``
    (``ngettext``; Japanese has the number alone, its counter word is in the sentence).

    >>> count_of("en", "subjects", 1), count_of("en", "games", 0), count_of("ja", "games", 2)
    ('1 subject', '0 games', '2')
    """
    return translate(report_lang(lang), COUNTS[noun], n).format(n=n)


# ---- the page -----------------------------------------------------------------------------
def fmt_p(value: float | None) -> str:
    if value is None:
        return "–"
    if value < 0.001:
        return "< 0.001"
    # near the threshold four places (0.0303, 0.0625: the paper's tests), else three
    return f"{value:.4f}" if value < 0.1 else f"{value:.3f}"


def fmt_number(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if math.isinf(value):
        return "∞"
    return f"{value:.{digits}f}"


def fmt_rate(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def significance_line(result: Significance, t: dict[str, str]) -> str:
    """One line: the test, n, the statistic and p — or why it was not run."""
    name = html.escape(t.get(result.test, result.test))
    if not result.tested:
        detail = result.reason.removeprefix("too few to test: ")
        return (f'<p class="test untested">{name}: n = {result.n} — {t["too_few"]} '
                f"({html.escape(detail)})</p>")
    stat = html.escape(t.get(result.statistic_name, result.statistic_name))
    p = fmt_p(result.p)
    return (f'<p class="test">{name}: n = {result.n}, {stat} = '
            f"{fmt_number(result.statistic)}, p {p if p.startswith('<') else '= ' + p}</p>")


def program_name(name: str, lang: str) -> str:
    """An arm as the report names it: in Japanese the registry's name beside the spec
    (``勝利指向 (victory)``); the spec alone otherwise, or when it names no program."""
    found = program_of(name) if lang == "ja" else None
    if found is not None:
        return f"{html.escape(found[0].ja)} ({html.escape(name)})"
    return html.escape(name)


def html_table(head: Sequence[str], rows: Sequence[Sequence[str]],
           numeric: Sequence[int] = (), *, wide: bool = False) -> str:
    """A table (cells already HTML) in a horizontally scrolling box for narrow screens."""
    def cell(tag: str, i: int, text: str) -> str:
        return f'<{tag} class="num">{text}</{tag}>' if i in numeric else f"<{tag}>{text}</{tag}>"

    lines = ["<tr>" + "".join(cell("th", i, h) for i, h in enumerate(head)) + "</tr>"]
    lines += ["<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>"
              for row in rows]
    table = '<table class="wide">' if wide else "<table>"
    return f'<div class="scroll">{table}{"".join(lines)}</table></div>'


def free_text(value: str) -> str:
    return f'<div class="text">{html.escape(value)}</div>' if value else ""


__all__ = [
    "COUNTS",
    "FELT_KEY",
    "KIND_KEY",
    "LANGS",
    "MESSAGES",
    "count_of",
    "fmt_number",
    "fmt_p",
    "fmt_rate",
    "free_text",
    "html_table",
    "labels",
    "program_name",
    "report_lang",
    "significance_line",
]
