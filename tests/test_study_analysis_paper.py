"""The paper's analysis reproduced: its 8 subjects' outcome table (§4.2: 6 of 8 rated
themselves 「ふつう」 or below; against them the victory program won 6 of 6, the amusement
program lost 4 of 6, 「その差は有意であった」), the subgroup filter that selects them, the
four exact tests and which reproduces the claim, the pooled answers, treatment fidelity,
the power, and the report that shows it all in English and Japanese."""

from __future__ import annotations

import json
import re
import time
from math import comb
from pathlib import Path

import pytest
from scipy import stats as scipy_stats
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.study.pooled import per_move_shares, treatment_fidelity
from hasamigo.study.power import (
    fisher_needed,
    fisher_power,
    mcnemar_needed,
    mcnemar_power,
)
from hasamigo.study.records import (
    AnswerRecord,
    GameRecord,
    StudyData,
    StudyMeta,
    SubjectRecord,
)
from hasamigo.study.report import build_report
from hasamigo.study.stats import fun_preference, wins_by_program
from hasamigo.study.subgroups import apply_where, group_by, parse_where

ARMS = ("victory", "amusement")


def paper_study(answers: bool = True) -> StudyData:
    """The paper's 8 subjects: P1-P6 strength 1-3 (「ふつう」以下) lose to victory, P1-P4
    beat amusement; P7 (4) and P8 (5) win both. Order and colour alternate; of the six,
    four name amusement more fun, two victory. P3's amusement game had no surprise move,
    P5's neither special move. With ``answers``: each game 3 subject moves answered (the
    paper's timing), a surprise felt at the second against amusement."""
    data = StudyData(meta=StudyMeta("s1", "Paper", "paper", ARMS, surprise_window="midgame",
                                    withdrawn=1, software_version="9.9.9"))
    for i in range(8):
        code = f"P{i + 1}"
        order = ARMS if i % 2 == 0 else ARMS[::-1]
        strength = (1, 2, 3, 3, 2, 1, 4, 5)[i]
        fun = ("amusement", "amusement", "victory", "amusement", "victory", "amusement",
               "amusement", "victory")[i]
        data.subjects.append(SubjectRecord(
            "s1", code, order, strength=strength, protocol="paper", more_fun=fun,
            more_fun_why=f"why {code}" if i < 2 else "",
            strategies_text="角を取る" if i == 0 else "",
            what_makes_fun="<b>surprise</b>" if i == 1 else ""))
        for index, program in enumerate(order, 1):
            won = i >= 6 or (program == "amusement" and i < 4)
            amusement = program == "amusement"
            data.games.append(GameRecord(
                "s1", code, index, program, f"g{code}{index}",
                "black" if (i + index) % 2 else "white", "win" if won else "lose",
                moves=60,
                expectation_at=20 if amusement and i != 4 else None,
                surprise_at=31 if amusement and i not in (2, 4) else None))
            if not answers:
                continue
            for n in (1, 2, 3):
                kind = "surprise" if amusement and n == 2 else "normal"
                data.answers.append(AnswerRecord(
                    "s1", code, index, program, f"g{code}{index}", 2 * n - 1,
                    "" if n == 1 else "d3", kind, "", "win" if won and n > 1 else "unknown",
                    None if n == 1 else ("surprising" if kind == "surprise" else "expected"),
                    2.0, evaluation=float(n * (2 if won else -2)), timing="subject-move",
                    subject_moves=n))
    return data


def fisher_one_sided_by_hand(a_wins: int, b_wins: int, n: int) -> float:
    """P(X <= a_wins) for the wins against A among all wins, both arms ``n`` games."""
    total = a_wins + b_wins
    return sum(comb(n, x) * comb(n, total - x) for x in range(a_wins + 1)) / comb(2 * n, total)


# ---- the first table --------------------------------------------------------------------------
def test_the_papers_subgroup_and_its_tests() -> None:
    data = apply_where(paper_study(), "strength<=3")
    assert [s.subject for s in data.subjects] == [f"P{i}" for i in range(1, 7)]
    wins = wins_by_program(data)
    assert [(a.program, a.wins, a.games) for a in wins.arms] == [("victory", 0, 6),
                                                                  ("amusement", 4, 6)]
    (pair,) = wins.pairs
    assert (pair.a, pair.b, pair.table) == ("victory", "amusement", ((0, 6), (4, 2)))
    # the hand computation: C(6,4)/C(12,4) = 15/495 = 28/924
    assert pair.one_sided.p == pytest.approx(comb(6, 4) / comb(12, 4)) == pytest.approx(
        28 / 924)
    assert pair.one_sided.p == pytest.approx(fisher_one_sided_by_hand(0, 4, 6))
    assert pair.result.p == pytest.approx(56 / 924)  # two tails of a symmetric table
    assert round(pair.one_sided.p, 4) == 0.0303 and round(pair.result.p, 4) == 0.0606
    paired = pair.paired
    assert (paired.both, paired.b_only, paired.a_only, paired.neither) == (0, 4, 0, 2)
    assert pair.mcnemar.p == pytest.approx(2 * 0.5 ** 4) == 0.125
    assert pair.mcnemar_one_sided.p == pytest.approx(0.5 ** 4) == 0.0625
    assert pair.mcnemar.n == 4


def test_all_subjects_beside_the_subgroup() -> None:
    wins = wins_by_program(paper_study())
    assert [(a.wins, a.games) for a in wins.arms] == [(2, 8), (6, 8)]
    (pair,) = wins.pairs
    assert pair.one_sided.p == pytest.approx(fisher_one_sided_by_hand(2, 6, 8))
    assert (pair.paired.both, pair.paired.b_only, pair.paired.a_only) == (2, 4, 0)
    assert pair.mcnemar.p == 0.125  # the two strong subjects are concordant


def test_the_one_sided_direction_follows_the_studys_arm_order() -> None:
    data = paper_study(answers=False)
    data.meta = StudyMeta("s1", "Paper", "paper", ARMS[::-1])
    (pair,) = wins_by_program(apply_where(data, "strength<=3")).pairs
    assert (pair.a, pair.b) == ("amusement", "victory")
    assert pair.one_sided.p == pytest.approx(1.0)  # H1: more wins against victory
    assert pair.mcnemar_one_sided.p == pytest.approx(1.0)
    assert pair.result.p == pytest.approx(56 / 924)


def test_which_was_more_fun_on_the_papers_numbers() -> None:
    fun = fun_preference(apply_where(paper_study(), "strength<=3"))
    assert [(c.program, c.count) for c in fun.choices] == [("victory", 2), ("amusement", 4)]
    expected = scipy_stats.binomtest(4, 6, 0.5).pvalue
    assert all(c.result.p == pytest.approx(expected) == 0.6875 for c in fun.choices)


# ---- the filter language ----------------------------------------------------------------------
@pytest.mark.parametrize(("text", "subjects"), [
    ("strength<=3", "P1 P2 P3 P4 P5 P6"),
    ("strength>3", "P7 P8"),
    ("strength=4|5", "P7 P8"),
    ("strength!=1|2", "P3 P4 P7 P8"),
    ("first=victory", "P1 P3 P5 P7"),
    ("strength<3, first=amusement", "P2 P6"),
    ("  strength < 2 ", "P1 P6"),
    ("", "P1 P2 P3 P4 P5 P6 P7 P8"),
])
def test_where_keeps_the_right_subjects(text: str, subjects: str) -> None:
    data = apply_where(paper_study(), text)
    assert " ".join(s.subject for s in data.subjects) == subjects
    kept = set(subjects.split())
    assert {g.subject for g in data.games} == kept
    assert {a.subject for a in data.answers} == kept
    assert data.meta is not None and data.meta.withdrawn == 1


def test_where_colour_keeps_games_of_that_colour() -> None:
    full = paper_study()
    data = apply_where(full, "colour=black, strength<=3")
    assert data.games and all(g.subject_colour == "black" for g in data.games)
    assert len(data.games) == 6  # one game of each of the six
    played = {(g.subject, g.index) for g in data.games}
    assert data.answers and all((a.subject, a.game_index) in played for a in data.answers)


def test_where_on_extended_answers() -> None:
    subjects = [SubjectRecord("s", "A", ARMS, play_frequency="weekly",
                              strategies=("corners", "parity")),
                SubjectRecord("s", "B", ARMS, play_frequency="never", strategies=()),
                SubjectRecord("s", "C", ARMS)]
    data = StudyData(subjects)
    assert [s.subject for s in apply_where(data, "play_frequency=weekly").subjects] == ["A"]
    assert [s.subject for s in apply_where(data, "strategies=parity|edges").subjects] == ["A"]
    assert [s.subject for s in apply_where(data, "strategies!=corners").subjects] == ["B", "C"]
    # an unanswered field matches no clause, = or !=
    assert [s.subject for s in apply_where(data, "play_frequency!=never").subjects] == ["A"]


@pytest.mark.parametrize(("text", "column", "words"), [
    ("strength<=x", 11, "strength is a number 1-5, not 'x'"),
    ("strength=6", 10, "strength is a number 1-5, not '6'"),
    ("strenth=3", 1, "no field 'strenth'"),
    ("strength<=3, colour<=black", 20, "colour is compared with = or != only"),
    ("strength<=3,,first=victory", 13, "an empty condition"),
    ("strength", 1, "a condition is field, operator"),
    ("colour=", 8, "colour needs a value"),
    ("play_frequency=often", 16, "play_frequency is one of never, rarely"),
    ("strength<=3|4", 11, "<= takes one value"),
])
def test_where_says_what_is_wrong_and_where(text: str, column: int, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_where(text)
    assert caught.value.column == column
    assert words in str(caught.value) and f"column {column}" in str(caught.value)


def test_where_names_an_unknown_program() -> None:
    with pytest.raises(InvalidOptionError, match="no program 'nobody'"):
        apply_where(paper_study(), "first=nobody")


def test_group_by() -> None:
    data = paper_study(answers=False)
    groups = group_by(data, "strength")
    assert [(g.label, len(g.data.subjects)) for g in groups] == [
        ("strength=1", 2), ("strength=2", 2), ("strength=3", 2), ("strength=4", 1),
        ("strength=5", 1)]
    colours = group_by(data, "colour")
    assert [g.label for g in colours] == ["colour=black", "colour=white"]
    assert sum(len(g.data.games) for g in colours) == len(data.games)
    assert [g.label for g in group_by(data, "first")] == ["first=victory", "first=amusement"]
    assert group_by(data, None)[0].data is data
    with pytest.raises(InvalidOptionError, match="group by one of"):
        group_by(data, "strategies")


# ---- pooled answers and fidelity --------------------------------------------------------------
def test_pooled_shares_by_the_subjects_moves() -> None:
    pooled = per_move_shares(apply_where(paper_study(), "strength<=3"))
    assert pooled.axis == "subject_moves"
    by_program = {p.program: p for p in pooled.programs}
    amusement = {m.move: m for m in by_program["amusement"].moves}
    victory = {m.move: m for m in by_program["victory"].moves}
    # move 1: nobody says 勝てそう, the second question was not asked
    assert (amusement[1].n, amusement[1].can_win, amusement[1].felt_n) == (6, 0, 0)
    assert amusement[1].surprising_share is None
    # move 2: the 4 winners say 勝てそう; all 6 felt the surprise move
    assert (amusement[2].can_win_share, amusement[2].surprising_share) == (4 / 6, 1.0)
    assert amusement[2].mean_evaluation == pytest.approx((4 * 4 - 2 * 4) / 6)
    assert (victory[3].can_win, victory[3].surprising, victory[3].felt_n) == (0, 0, 6)
    assert victory[3].mean_evaluation == -6.0
    assert by_program["victory"].subjects == 6


def test_treatment_fidelity() -> None:
    fidelity = treatment_fidelity(paper_study(answers=False))
    by_program = {p.program: p for p in fidelity.programs}
    assert (by_program["amusement"].expectation, by_program["amusement"].surprise) == (7, 6)
    assert by_program["amusement"].share(6) == 0.75
    assert by_program["victory"].expectation == 0
    flags = {f.game.subject: f for f in fidelity.flags}
    assert set(flags) == {"P3", "P5"}
    assert flags["P5"].never and flags["P3"].missing == ("surprise",)


# ---- power ------------------------------------------------------------------------------------
def slow_fisher_power(n: int, pa: float, pb: float, one_sided: bool) -> float:
    total = 0.0
    for xa in range(n + 1):
        for xb in range(n + 1):
            p = scipy_stats.fisher_exact([[xa, n - xa], [xb, n - xb]],
                                         alternative="less" if one_sided else "two-sided")
            if p.pvalue <= 0.05 * (1 + 1e-7):
                total += scipy_stats.binom.pmf(xa, n, pa) * scipy_stats.binom.pmf(xb, n, pb)
    return total


def slow_mcnemar_power(n: int, pb: float, pc: float, one_sided: bool) -> float:
    total = 0.0
    for d in range(1, n + 1):
        for b in range(d + 1):
            p = scipy_stats.binomtest(b, d, 0.5,
                                      alternative="greater" if one_sided else "two-sided")
            if p.pvalue <= 0.05 * (1 + 1e-7):
                total += (scipy_stats.binom.pmf(d, n, pb + pc)
                          * scipy_stats.binom.pmf(b, d, pb / (pb + pc)))
    return total


@pytest.mark.parametrize("n", [3, 6, 9, 13])
@pytest.mark.parametrize("one_sided", [True, False])
def test_power_against_a_slow_enumeration(n: int, one_sided: bool) -> None:
    for pa, pb in ((0.0, 4 / 6), (0.25, 0.75), (0.4, 0.5)):
        assert fisher_power(n, pa, pb, one_sided=one_sided) == pytest.approx(
            slow_fisher_power(n, pa, pb, one_sided), abs=1e-9)
    for pb, pc in ((4 / 6, 0.0), (0.5, 0.1), (0.3, 0.2)):
        assert mcnemar_power(n, pb, pc, one_sided=one_sided) == pytest.approx(
            slow_mcnemar_power(n, pb, pc, one_sided), abs=1e-9)


def test_subjects_needed_at_the_papers_effect() -> None:
    start = time.perf_counter()
    found = {(test, side): needed(x, y, one_sided=side == "one").n
             for test, needed, x, y in (("fisher", fisher_needed, 0.0, 4 / 6),
                                        ("mcnemar", mcnemar_needed, 4 / 6, 0.0))
             for side in ("one", "two")}
    assert time.perf_counter() - start < 1.0
    for (test, side), n in found.items():  # the first n reaching 80 %, scanned slowly
        slow = slow_fisher_power if test == "fisher" else slow_mcnemar_power
        args = (0.0, 4 / 6) if test == "fisher" else (4 / 6, 0.0)
        powers = [slow(k, *args, side == "one") for k in range(2, 14)]
        assert n == 2 + next(i for i, p in enumerate(powers) if p >= 0.8)
    assert found[("fisher", "one")] < found[("fisher", "two")]


def test_power_not_estimable_and_capped() -> None:
    zero = fisher_needed(0.5, 0.5, one_sided=False)
    assert zero.n is None and "not estimable" in zero.reason and "zero" in zero.reason
    against = mcnemar_needed(0.1, 0.3, one_sided=True)
    assert against.n is None and "against" in against.reason
    assert mcnemar_needed(0.0, 0.0, one_sided=False).n is None
    capped = fisher_needed(0.5, 0.52, one_sided=False, cap=60)
    assert capped.n is None and capped.reason == "more than 60 subjects"


# ---- the report -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def paper_en() -> str:
    return build_report(paper_study(), title="Paper", lang="en", where="strength<=3")


@pytest.fixture(scope="module")
def paper_ja() -> str:
    return build_report(paper_study(), title="論文", lang="ja", where="strength<=3",
                        group_by="first")


def _section(page: str, heading: str) -> str:
    start = page.index(f"<h2>{heading}</h2>")
    end = page.find("<h2>", start + 1)
    return page[start:] if end < 0 else page[start:end]


def _plain(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment).replace("&#x27;", "'")


def test_report_first_table_and_verdict_en(paper_en: str) -> None:
    head = paper_en[:paper_en.index("<h2>")]
    assert "Subgroup: strength&lt;=3" in head and "Protocol: paper" in head
    assert "withdrawn (their data deleted): 1" in head and "hasamigo 9.9.9" in head
    assert "Surprise move's window: the project's reading: moves 30–35 in the midgame " \
        "phase only" in head
    wins = _plain(_section(paper_en, "Wins per program"))
    assert "victory – amusement: 0/6 – 4/6" in wins
    assert "2/8 (25%)" in wins and "6/8 (75%)" in wins  # all subjects beside
    assert "Fisher's exact test, one-sided: n = 12, odds ratio = 0.00, p = 0.0303" in wins
    assert "Fisher's exact test, two-sided: n = 12, odds ratio = 0.00, p = 0.0606" in wins
    assert "McNemar's exact test, two-sided: n = 4, proportion = 1.00, p = 0.125" in wins
    assert "McNemar's exact test, one-sided: n = 4, proportion = 1.00, p = 0.0625" in wins
    assert "one-sided H1: subjects win more against amusement than against victory" in wins
    assert ("only Fisher's exact test, one-sided (p = 0.0303) reaches p ≤ 0.05, as the "
            "paper's 「有意であった」 (was significant, no test named)") in wins
    assert "the paper names none" in wins
    assert "McNemar's exact test, two-sided (p = 0.125)" in wins.split("do not")[0]


def test_report_gives_the_papers_result_under_each_named_test(paper_en: str) -> None:
    """The paper names no test for 0/6 against 4/6: the report gives Fisher's one- and
    two-sided, the plain χ² and McNemar's one- and two-sided side by side, each named,
    right after the first table, and says the paper names none."""
    order = ["Wins per program", "The paper's result under each test",
             "Which game was more fun"]
    at = [paper_en.index(f"<h2>{h}</h2>") for h in order]
    assert at == sorted(at)
    section = _plain(_section(paper_en, "The paper's result under each test"))
    assert "The paper's 6 subjects: victory 0/6, amusement 4/6" in section
    lines = ["Fisher's exact test, one-sided: n = 12, odds ratio = 0.00, p = 0.0303",
             "Fisher's exact test, two-sided: n = 12, odds ratio = 0.00, p = 0.0606",
             "Pearson's χ² test (no continuity correction): n = 12, χ² = 6.00, p = 0.0143",
             "McNemar's exact test, one-sided: n = 4, proportion = 1.00, p = 0.0625",
             "McNemar's exact test, two-sided: n = 4, proportion = 1.00, p = 0.125"]
    found = [section.index(line) for line in lines]
    assert found == sorted(found), section
    assert "names no test" in section and "none of them the paper's" in section


def test_report_says_whose_words_each_question_is(paper_en: str) -> None:
    """The paper protocol's texts, each labelled: the strength question's sentence and
    its middle levels やや強い / やや弱い are the project's, the in-game questions and the
    after-games items the paper's."""
    section = _plain(_section(paper_en, "The questions: whose words"))
    assert "protocol (paper)" in section
    assert "strengthあなたのオセロゲームの強さを主観で答えてくださいthe project's" in section
    assert "strength強いthe paper's" in section and "strengthやや強いthe project's" in section
    assert "move_felt相手はどんな手を打ってきましたかthe paper's" in section
    assert "reported_outcome勝ちthe project's" in section


def test_report_sections_en(paper_en: str) -> None:
    order = ["Wins per program", "Which game was more fun",
             "Per-move answers, pooled over subjects", "Per-move graphs",
             "Treatment fidelity", "Free-text answers", "Power"]
    at = [paper_en.index(f"<h2>{h}</h2>") for h in order]
    assert at == sorted(at)
    fun = _plain(_section(paper_en, "Which game was more fun"))
    assert "n = 6, proportion = 0.67, p = 0.688" in fun
    pooled = _section(paper_en, "Per-move answers, pooled over subjects")
    assert pooled.count("<svg") == 1 and "the subject's n-th move" in pooled
    assert "<td class=\"num\">67%</td><td class=\"num\">100%</td>" in pooled  # move 2
    graphs = _section(paper_en, "Per-move graphs")
    assert graphs.count('<section class="game">') == 12 and graphs.count("<svg") == 12
    assert "S 2 (surprise)" in graphs  # marked at the subject's 2nd move
    fidelity = _plain(_section(paper_en, "Treatment fidelity"))
    assert "amusement65 (83%)4 (67%)0 (0%)" in fidelity  # the row, cells run together
    assert "victory60 (0%)0 (0%)0 (0%)" in fidelity
    assert "P5 · Game 2 (amusement): neither the expectation nor the surprise move" in fidelity
    assert "P3 · Game 2 (amusement): only partly — no surprise move" in fidelity
    free = _section(paper_en, "Free-text answers")
    assert "<h3>What was fun about it?</h3>" in free and "why P1" in free
    assert "<h3>Are there Othello strategies you know?</h3>" in free and "角を取る" in free
    assert "&lt;b&gt;surprise&lt;/b&gt;" in free and "<b>surprise</b>" not in free
    power = _plain(_section(paper_en, "Power"))
    assert "Fisher's exact testn = 7 (power 0.83)n = 9 (power 0.86)" in power
    assert "McNemar's exact testn = 9 (power 0.86)n = 11 (power 0.88)" in power
    assert "Searched up to 500 subjects" in power


def test_report_in_japanese(paper_ja: str) -> None:
    head = paper_ja[:paper_ja.index("<h2>")]
    assert "対象: strength&lt;=3" in head and "参加を取り消した被験者（データ削除済み）: 1" in head
    wins = _plain(_section(paper_ja, "プログラム別の勝敗"))
    assert "フィッシャーの正確確率検定（片側）: n = 12, オッズ比 = 0.00, p = 0.0303" in wins
    assert "マクネマーの正確検定（両側）: n = 4, 割合 = 1.00, p = 0.125" in wins
    assert ("p ≤ 0.05 となるのはフィッシャーの正確確率検定（片側） (p = 0.0303)のみで、"
            "論文の「有意であった」（検定名の記載なし）と一致する。") in wins
    assert "論文は検定名を記していない" in wins
    tests = _plain(_section(paper_ja, "論文の結果を各検定で"))
    assert "ピアソンのχ²検定（連続性補正なし）: n = 12, χ² = 6.00, p = 0.0143" in tests
    assert "マクネマーの正確検定（片側）: n = 4, 割合 = 1.00, p = 0.0625" in tests
    sources = _plain(_section(paper_ja, "質問の出典"))
    assert "strengthあなたのオセロゲームの強さを主観で答えてください本プロジェクト" in sources
    assert "can_winいま勝てそうですか論文" in sources
    groups = _plain(_section(paper_ja, "first 別の勝敗"))
    assert "first=victory" in groups and "first=amusement" in groups
    free = _section(paper_ja, "自由記述の回答")
    assert "<h3>それはどこがおもしろかったか</h3>" in free
    assert "<h3>あなたの思うボードゲームのおもしろさとは何か</h3>" in free
    assert "<h2>処置の実施状況</h2>" in paper_ja and "<h2>検出力</h2>" in paper_ja
    assert "<h2>1手毎の回答（被験者全体）</h2>" in paper_ja


def test_report_refuses_a_bad_subgroup() -> None:
    with pytest.raises(ParseError, match="column 10"):
        build_report(paper_study(answers=False), title="t", where="strength<x")
    with pytest.raises(InvalidOptionError, match="group by"):
        build_report(paper_study(answers=False), title="t", group_by="nothing")


def test_cli_where_and_group_by(tmp_path: Path) -> None:
    paper_study(answers=False).write(tmp_path / "export")
    out = tmp_path / "report.html"
    runner = CliRunner()
    result = runner.invoke(app, ["study", "report", str(tmp_path / "export"), "--out",
                                 str(out), "--where", "strength<=3", "--group-by", "first",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"out": str(out), "subjects": 6, "games": 12,
                                         "answers": 0, "where": "strength<=3"}
    page = out.read_text(encoding="utf-8")
    assert "p = 0.0303" in page and "<h2>Wins by first</h2>" in page
    bad = runner.invoke(app, ["study", "report", str(tmp_path / "export"), "--out",
                              str(tmp_path / "bad.html"), "--where", "strenth<=3"])
    assert bad.exit_code == 2 and "no field 'strenth'" in bad.output
    assert not (tmp_path / "bad.html").exists()
    bad = runner.invoke(app, ["study", "report", str(tmp_path / "export"), "--out",
                              str(tmp_path / "bad.html"), "--group-by", "shoe"])
    assert bad.exit_code == 2 and "--group-by is one of" in bad.output
