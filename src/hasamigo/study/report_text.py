"""The report's words and cells: its labels in English and Japanese, and the small HTML
helpers its sections share (a p-value, a rate, a test's line, a table). Every piece of
text that came from a subject goes through :func:`html.escape` here or in the sections.
"""

from __future__ import annotations

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

LANGS = ("en", "ja")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "User study report",
        "summary": "{subjects}, {games}, {answers} during the games.",
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
        "wins_note": "A draw counts as not a win; unfinished games are left out. Fisher's "
                     "exact test compares the 2×2 table (subject won / did not win) × "
                     "(program). With more than two programs every pair is tested and "
                     "Holm's adjustment is given beside p, per test. The tests are the "
                     "project's choice: the paper names none.",
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
        "summary": "被験者 {subjects} 人、対局 {games} 局、対局中の回答 {answers} 件。",
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
        "wins_note": "引き分けは「勝ち以外」に数え、未終局の対局は除く。フィッシャーの正確確率"
                     "検定は（被験者の勝ち／勝ち以外）×（プログラム）の 2×2 表を比べる。"
                     "プログラムが3つ以上のときは全ての組を検定し、検定ごとに Holm の補正値を"
                     "併記する。検定の選択は本プロジェクトのもので、論文は検定名を記していない。",
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
# the paper's analysis (issue 52): the header, the four tests of the first table, the
# pooled answers, treatment fidelity, the free text, power
TEXT["en"].update({
    "protocol": "Protocol", "protocol.paper": "paper (the amusement paper's §4.1)",
    "protocol.extended": "extended questionnaire", "window": "Surprise move's window",
    "window.midgame": "the project's reading: moves 30–35 in the midgame phase only",
    "window.moves": "the paper's: moves 30–35 of the game (「意外性の手は３０～３５手で打つ」)",
    "withdrawn": "Subjects withdrawn (their data deleted)", "subgroup": "Subgroup",
    "all_subjects": "all subjects", "version": "Software", "grouped": "Grouped by",
    "all_won": "All subjects: won / games",
    "tests": "Tests", "test": "Test", "subgroup_col": "Subgroup ({where})",
    "h1": "one-sided H1: subjects win more against {b} than against {a}",
    "discordant": "Paired: of {pairs} subjects who finished both games, {both} won both, "
                  "{neither} neither; {b_only} won against {b} only (b), {a_only} against "
                  "{a} only (c). McNemar's exact test is the binomial test of b among b + c.",
    "verdict.one": "{pair}: only {tests} reaches p ≤ 0.05, as the paper's 「有意であった」 "
                   "(was significant, no test named); {others} do not.",
    "verdict.some": "{pair}: {tests} reach p ≤ 0.05 and reproduce the paper's "
                    "「有意であった」; {others} do not.",
    "verdict.all": "{pair}: all four tests reach p ≤ 0.05, as the paper's 「有意であった」.",
    "verdict.none": "{pair}: none of the four tests reaches p ≤ 0.05; none reproduces the "
                    "paper's 「有意であった」.",
    "and": " and ", "mcnemar_fits": "McNemar's test is the one that fits a within-subject "
    "design (each subject played every program); Fisher's test treats the two columns as "
    "independent samples.",
    "by_group": "Wins by {field}", "group": "Group",
    "pooled": "Per-move answers, pooled over subjects",
    "move": "Move", "pooled_note": "Per program and move ({axis}): n answers, the share "
    "answering 「勝てそう」 (I think I can win), the share answering 「意外な手」 (a surprising "
    "move; of those asked), the mean evaluation (discs, subject's side). Answers of one "
    "subject are not independent.",
    "axis.subject_moves": "the subject's n-th move, the paper's 手数",
    "axis.move_number": "the game's move number: these data have no subject move count",
    "can_win_share": "勝てそう", "surprising_share": "意外な手", "mean_eval": "eval.",
    "fidelity": "Treatment fidelity",
    "fidelity_note": "The share of each program's games in which it played its expectation "
                     "move and its surprise move (recorded per game). The surprise move's "
                     "window in this study: {window}.",
    "expectation_played": "Expectation move played", "surprise_played":
    "Surprise move played", "gifts_played": "Games with gifts",
    "flag.never": "{who}: neither the expectation nor the surprise move was played — the "
                  "treatment never happened",
    "flag.part": "{who}: only partly — no {missing} move",
    "flags_none": "Every amusement game had both its expectation and its surprise move.",
    "free": "Free-text answers", "no_text": "no answers",
    "power": "Power", "power_note": "Subjects needed for 80 % power at α = 0.05 at the "
    "effect observed in the first table ({pair}: win rates {ra} and {rb}; discordant "
    "shares b {pb}, c {pc}), by exact enumeration; each subject plays both programs, so "
    "n per program = subjects. Searched up to {cap} subjects.",
    "one_sided": "one-sided", "two_sided": "two-sided",
    "needed": "n = {n} (power {power})", "more_than": "more than {cap}",
    "not_estimable": "not estimable ({why})",
    "why.zero": "the observed effect is zero",
    "why.against": "the observed effect is against the one-sided direction",
    "fisher_power": "Fisher's exact test", "mcnemar_power": "McNemar's exact test",
    "reported": "reported", "played_at": "{kind} move at move {n}",
    FISHER_ONE: FISHER_ONE, MCNEMAR: MCNEMAR, MCNEMAR_ONE: MCNEMAR_ONE, CHI2: CHI2,
    "χ²": "χ²",
    "paper_tests": "The paper's result under each test",
    "paper_tests_note": "The paper reports 「勝利指向が０勝６敗，娯楽指向が４勝２敗，という"
    "結果になり，その差は有意であった」 (victory 0 wins 6 losses, amusement 4 wins 2 "
    "losses, and the difference was significant; §4.2) and names no test. Here is its "
    "result under each test a reader might have used (scipy.stats), none of them the "
    "paper's by its word. McNemar's test fits its paired design (each subject played both "
    "programs): with no win against victory, b = 4 and c = 0. The χ² test's expected "
    "counts are under 5, so its p is an approximation.",
    "paper_table": "The paper's 6 subjects: victory 0/6, amusement 4/6",
    "sources": "The questions: whose words",
    "sources_note": "Each Japanese question and choice of this study's protocol ({protocol}) "
    "and whose words it is: the paper's as written (§4.1) or the project's. The English "
    "is always the project's translation.",
    "question": "Question", "text_ja": "Japanese", "whose": "Whose words",
    "source.paper": "the paper's", "source.project": "the project's",
})
TEXT["ja"].update({
    "protocol": "プロトコル", "protocol.paper": "論文（娯楽指向オセロ論文 4.1 節）どおり",
    "protocol.extended": "拡張版の質問票", "window": "意外性の手の範囲",
    "window.midgame": "本プロジェクトの読み方：中盤の局面に限り 30〜35 手目",
    "window.moves": "論文どおり：対局の 30〜35 手目（「意外性の手は３０～３５手で打つ」）",
    "withdrawn": "参加を取り消した被験者（データ削除済み）", "subgroup": "対象",
    "all_subjects": "全被験者", "version": "ソフトウェア", "grouped": "グループ分け",
    "all_won": "全被験者：勝ち／対局数",
    "tests": "検定", "test": "検定", "subgroup_col": "対象（{where}）",
    "h1": "片側の対立仮説：被験者は {a} より {b} によく勝つ",
    "discordant": "対応あり：両方の対局を終えた {pairs} 人のうち、両方に勝った {both} 人、"
                  "どちらにも負けた {neither} 人、{b} にだけ勝った {b_only} 人 (b)、"
                  "{a} にだけ勝った {a_only} 人 (c)。マクネマーの正確検定は b + c 中の b の"
                  "二項検定。",
    "verdict.one": "{pair}：p ≤ 0.05 となるのは{tests}のみで、論文の「有意であった」"
                   "（検定名の記載なし）と一致する。{others}では有意ではない。",
    "verdict.some": "{pair}：{tests}で p ≤ 0.05 となり、論文の「有意であった」を再現する。"
                    "{others}では有意ではない。",
    "verdict.all": "{pair}：4つの検定すべてで p ≤ 0.05（論文の「有意であった」と一致）。",
    "verdict.none": "{pair}：4つの検定のいずれも p ≤ 0.05 に達せず、論文の「有意であった」"
                    "を再現しない。",
    "and": "と", "mcnemar_fits": "被験者内計画（各被験者が全プログラムと対戦）に合うのは"
    "マクネマーの検定であり、フィッシャーの検定は2列を独立な標本として扱う。",
    "by_group": "{field} 別の勝敗", "group": "グループ",
    "pooled": "1手毎の回答（被験者全体）",
    "move": "手数", "pooled_note": "プログラム・手数（{axis}）ごとに、回答数、「勝てそう」の"
    "割合、「意外な手」の割合（質問した回答のうち）、評価値の平均（被験者側の石差）。同じ"
    "被験者の回答は独立ではない。",
    "axis.subject_moves": "被験者の n 手目、論文の「手数」",
    "axis.move_number": "対局全体の手数：このデータには被験者の手数がない",
    "can_win_share": "勝てそう", "surprising_share": "意外な手", "mean_eval": "評価値",
    "fidelity": "処置の実施状況",
    "fidelity_note": "各プログラムの対局のうち、期待性の手と意外性の手を打った対局の割合"
                     "（対局ごとに記録）。この実験の意外性の手の範囲：{window}。",
    "expectation_played": "期待性の手あり", "surprise_played": "意外性の手あり",
    "gifts_played": "ギフトあり",
    "flag.never": "{who}：期待性の手も意外性の手も打たれなかった（処置が行われていない）",
    "flag.part": "{who}：一部のみ（{missing}の手なし）",
    "flags_none": "娯楽指向のすべての対局で期待性の手と意外性の手が打たれた。",
    "free": "自由記述の回答", "no_text": "回答なし",
    "power": "検出力", "power_note": "第1表で観察された効果（{pair}：勝率 {ra} と {rb}、"
    "不一致の割合 b {pb}、c {pc}）で、有意水準 0.05・検出力 80 % に必要な被験者数（正確な"
    "列挙による）。各被験者が両方と対戦するので、プログラムごとの n = 被験者数。{cap} 人まで"
    "探索。",
    "one_sided": "片側", "two_sided": "両側",
    "needed": "n = {n}（検出力 {power}）", "more_than": "{cap} 人より多い",
    "not_estimable": "推定できない（{why}）",
    "why.zero": "観察された効果が 0", "why.against": "観察された効果が片側検定と逆向き",
    "fisher_power": "フィッシャーの正確確率検定", "mcnemar_power": "マクネマーの正確検定",
    "reported": "申告", "played_at": "{kind}：{n} 手目",
    FISHER_ONE: "フィッシャーの正確確率検定（片側）", MCNEMAR: "マクネマーの正確検定（両側）",
    MCNEMAR_ONE: "マクネマーの正確検定（片側）", CHI2: "ピアソンのχ²検定（連続性補正なし）",
    "χ²": "χ²",
    "paper_tests": "論文の結果を各検定で",
    "paper_tests_note": "論文は「勝利指向が０勝６敗，娯楽指向が４勝２敗，という結果になり，"
    "その差は有意であった」（4.2 節）と述べるのみで、検定名を記していない。ここでは読者が"
    "用いそうな各検定（scipy.stats）でその結果を示す。いずれも論文が用いたと書かれたもの"
    "ではない。各被験者が両方と対戦した対応のある計画に合うのはマクネマーの検定で、勝利指向に"
    "誰も勝っていないので b = 4、c = 0。χ² 検定は期待度数が 5 未満なので p は近似値である。",
    "paper_table": "論文の被験者 6 人：勝利指向 0/6、娯楽指向 4/6",
    "sources": "質問の出典",
    "sources_note": "この実験のプロトコル（{protocol}）の日本語の質問と選択肢、およびその出典："
    "論文（4.1 節）の文言どおりか、本プロジェクトのものか。英語は常に本プロジェクトの訳。",
    "question": "質問", "text_ja": "日本語", "whose": "出典",
    "source.paper": "論文", "source.project": "本プロジェクト",
})
OUTCOME = {"en": {"win": "subject won", "lose": "subject lost", "draw": "draw"},
            "ja": {"win": "被験者の勝ち", "lose": "被験者の負け", "draw": "引き分け"}}
KIND_KEY = {"normal": "normal", "expectation": "expectation", "surprise": "surprise_k",
             "gift": "gift"}
FELT_KEY = {"surprising": "surprising_a", "unknown": "unknown", "expected": "expected"}

def labels(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        raise InvalidOptionError(f"a report's language is 'en' or 'ja', not {lang!r}")
    return TEXT[lang]


def count_of(t: dict[str, str], noun: str, n: int) -> str:
    """``n`` with its noun in the report's language: ``1 subject``, ``2 subjects``
    (``count.<noun>`` holds the one and the many forms, ``|`` between; Japanese has the
    number alone, its counter word is in the sentence).

    >>> count_of(labels("en"), "subjects", 1), count_of(labels("en"), "games", 0)
    ('1 subject', '0 games')
    """
    one, _bar, many = t[f"count.{noun}"].partition("|")
    return (one if n == 1 or not many else many).format(n=n)


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
    "FELT_KEY",
    "KIND_KEY",
    "LANGS",
    "OUTCOME",
    "TEXT",
    "count_of",
    "fmt_number",
    "fmt_p",
    "fmt_rate",
    "free_text",
    "html_table",
    "labels",
    "program_name",
    "significance_line",
]
