"""The study's statistics: the tests against known answers, each analysis on hand-made data,
and the degenerate tables (no answers, one arm, all draws) that must not crash."""

from __future__ import annotations

import json
from math import comb

import pytest

from hasamigo.study.records import AnswerRecord, GameRecord, StudyData, SubjectRecord
from hasamigo.study.stats import (
    analyse,
    binomial,
    can_win_tracking,
    fisher,
    fun_preference,
    holm,
    mcnemar,
    spearman,
    surprise_rates,
    wins_by_program,
)


def hypergeometric_p(table: tuple[tuple[int, int], tuple[int, int]]) -> float:
    """Fisher's two-sided p by hand: the probability of every table with the same margins
    that is no more likely than the one observed."""
    (a, b), (c, d) = table
    row1, col1, n = a + b, a + c, a + b + c + d

    def prob(x: int) -> float:
        return comb(col1, x) * comb(n - col1, row1 - x) / comb(n, row1)

    observed = prob(a)
    lo, hi = max(0, row1 + col1 - n), min(row1, col1)
    return sum(prob(x) for x in range(lo, hi + 1) if prob(x) <= observed * (1 + 1e-7))


# ---- the tests on known answers -------------------------------------------------------------
def test_fisher_textbook_case() -> None:
    # scipy's documentation of fisher_exact: [[6, 2], [1, 4]] -> p = 0.1026 (two-sided)
    result = fisher(((6, 2), (1, 4)))
    assert result.p == pytest.approx(0.10256, abs=1e-5)
    assert result.p == pytest.approx(hypergeometric_p(((6, 2), (1, 4))))
    assert result.statistic == pytest.approx(12.0)  # (6 * 4) / (2 * 1)
    assert result.n == 13 and result.tested


@pytest.mark.parametrize("table", [((0, 6), (4, 2)), ((3, 3), (3, 3)), ((8, 1), (2, 7)),
                                   ((1, 9), (11, 3))])
def test_fisher_matches_the_hypergeometric_sum(table: tuple[tuple[int, int], tuple[int, int]]
                                               ) -> None:
    assert fisher(table).p == pytest.approx(hypergeometric_p(table))


@pytest.mark.parametrize("table", [((0, 6), (4, 2)), ((3, 3), (3, 3)), ((8, 1), (2, 7)),
                                   ((2, 6), (6, 2))])
def test_fisher_one_sided_is_the_lower_tail(table: tuple[tuple[int, int], tuple[int, int]]
                                            ) -> None:
    (a, b), (c, d) = table
    row1, col1, n = a + b, a + c, a + b + c + d
    lower = sum(comb(col1, x) * comb(n - col1, row1 - x) for x in range(max(0, row1 + col1 - n),
                                                                        a + 1)) / comb(n, row1)
    result = fisher(table, "less")
    assert result.p == pytest.approx(lower) and result.test.endswith("one-sided")
    with pytest.raises(ValueError, match="two-sided, less or greater"):
        fisher(table, "fewer")


@pytest.mark.parametrize(("b", "c"), [(4, 0), (0, 4), (5, 2), (3, 3), (1, 0)])
def test_mcnemar_is_the_binomial_test_of_the_discordant_pairs(b: int, c: int) -> None:
    n = b + c
    upper = sum(comb(n, k) for k in range(b, n + 1)) / 2 ** n
    lower = sum(comb(n, k) for k in range(b + 1)) / 2 ** n
    assert mcnemar(b, c, "greater").p == pytest.approx(upper)
    assert mcnemar(b, c).p == pytest.approx(min(1.0, 2 * min(upper, lower)))
    assert mcnemar(b, c).n == n and mcnemar(b, c).statistic == pytest.approx(b / n)


def test_fisher_on_the_papers_wins() -> None:
    # the paper: 0/6 against victory, 4/6 against amusement ("significant"); two-sided
    # Fisher gives 0.061 (one-sided would be 0.030)
    result = fisher(((0, 6), (4, 2)))
    assert result.p == pytest.approx(0.0606, abs=1e-4)
    assert result.statistic == 0.0


def test_binomial_known_cases() -> None:
    assert binomial(4, 6).p == pytest.approx(0.6875)  # 2 * (15 + 6 + 1) / 64
    assert binomial(6, 6).p == pytest.approx(2 / 64)
    assert binomial(3, 6).p == pytest.approx(1.0)
    assert binomial(2, 6, 1 / 3).p == pytest.approx(1.0)
    assert binomial(4, 6).statistic == pytest.approx(4 / 6)


def test_spearman_known_cases() -> None:
    perfect = spearman([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    assert perfect.statistic == pytest.approx(1.0) and perfect.p == pytest.approx(0.0)
    # rho = 1 - 6 * sum(d^2) / (n (n^2 - 1)) = 1 - 6 * 2 / 60 = 0.8
    assert spearman([1, 2, 3, 4, 5], [1, 3, 2, 4, 5]).statistic == pytest.approx(0.9)
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]).statistic == pytest.approx(0.8)
    assert not spearman([1, 2], [1, 2]).tested
    with pytest.raises(ValueError, match="unequal"):
        spearman([1, 2, 3], [1, 2])


def test_holm() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx((0.03, 0.06, 0.06))
    assert holm([0.5, None, 0.01]) == (0.5, None, 0.02)
    assert holm([0.0606]) == (0.0606,)
    assert holm([0.9, 0.8]) == (1.0, 1.0)
    assert holm([]) == ()


def test_degenerate_tables_say_too_few() -> None:
    for table in (((0, 0), (0, 0)), ((3, 0), (2, 0)), ((0, 4), (0, 4)), ((5, 5), (0, 0))):
        result = fisher(table)
        assert not result.tested and result.p is None and result.statistic is None
        assert result.reason.startswith("too few to test")
    assert not binomial(0, 0).tested
    with pytest.raises(ValueError, match="negative"):
        fisher(((-1, 2), (3, 4)))


# ---- hand-made studies ----------------------------------------------------------------------
def game(subject: str, index: int, program: str, outcome: str | None) -> GameRecord:
    return GameRecord("s", subject, index, program, f"{subject}-{index}", "black",
                      outcome)  # type: ignore[arg-type]


def answer(kind: str = "normal", felt: str = "unknown", can_win: str = "unknown",
           evaluation: float | None = None, program: str = "amusement") -> AnswerRecord:
    return AnswerRecord("s", "P1", 1, program, "g", 1, "a1", kind,  # type: ignore[arg-type]
                        "", can_win, felt, 1.0, evaluation)  # type: ignore[arg-type]


def papers_study() -> StudyData:
    """The paper's six weak subjects: 0/6 against victory, 4/6 against amusement, 4 of 6
    found amusement more fun."""
    subjects, games = [], []
    for i in range(6):
        code = f"P{i + 1}"
        order = ("victory", "amusement") if i % 2 == 0 else ("amusement", "victory")
        subjects.append(SubjectRecord("s", code, order,
                                      more_fun="amusement" if i < 4 else "victory"))
        for index, program in enumerate(order, 1):
            outcome = "win" if program == "amusement" and i < 4 else "lose"
            games.append(game(code, index, program, outcome))
    return StudyData(subjects, games, [])


def test_wins_by_program_on_the_papers_numbers() -> None:
    table = wins_by_program(papers_study())
    assert [(a.program, a.games, a.wins, a.losses) for a in table.arms] == [
        ("victory", 6, 0, 6), ("amusement", 6, 4, 2)]
    assert table.arms[1].win_rate == pytest.approx(4 / 6)
    (pair,) = table.pairs
    assert (pair.a, pair.b, pair.table) == ("victory", "amusement", ((0, 6), (4, 2)))
    assert pair.result.p == pytest.approx(0.0606, abs=1e-4) and pair.p_holm == pair.result.p
    assert pair.result.n == 12


def test_wins_count_draws_as_not_a_win_and_leave_out_unfinished() -> None:
    data = StudyData([], [game("A", 1, "victory", "draw"), game("A", 2, "amusement", "win"),
                          game("B", 1, "victory", "lose"), game("B", 2, "amusement", None)],
                     [])
    victory, amusement = wins_by_program(data).arms
    assert (victory.wins, victory.draws, victory.losses, victory.games) == (0, 1, 1, 2)
    assert (amusement.games, amusement.unfinished) == (1, 1)
    assert wins_by_program(data).pairs[0].table == ((0, 2), (1, 0))


def test_wins_with_three_arms_test_every_pair_with_holm() -> None:
    games = []
    for i in range(6):
        games += [game(f"P{i}", 1, "victory", "lose"),
                  game(f"P{i}", 2, "amusement", "win" if i < 5 else "lose"),
                  game(f"P{i}", 3, "entertainer", "win" if i < 3 else "lose")]
    table = wins_by_program(StudyData([], games, []))
    assert [(p.a, p.b) for p in table.pairs] == [
        ("victory", "amusement"), ("victory", "entertainer"), ("amusement", "entertainer")]
    raw = [p.result.p for p in table.pairs]
    assert all(p is not None for p in raw)
    assert [p.p_holm for p in table.pairs] == list(holm(raw))
    assert all(p.p_holm is not None and p.result.p is not None and p.p_holm >= p.result.p
               for p in table.pairs)


def test_wins_degenerate() -> None:
    assert wins_by_program(StudyData()).arms == ()
    assert wins_by_program(StudyData()).pairs == ()
    # one arm: no pair to test
    one = wins_by_program(StudyData([], [game("A", 1, "victory", "lose")], []))
    assert len(one.arms) == 1 and one.pairs == ()
    # all draws: nobody won, the "won" column is empty
    draws = wins_by_program(StudyData([], [game("A", 1, "victory", "draw"),
                                           game("A", 2, "amusement", "draw")], []))
    assert draws.pairs[0].table == ((0, 1), (0, 1))
    assert not draws.pairs[0].result.tested and draws.pairs[0].p_holm is None
    json.dumps(draws.to_json())


def test_fun_preference_on_the_papers_numbers() -> None:
    test = fun_preference(papers_study())
    assert [(c.program, c.count) for c in test.choices] == [("victory", 2), ("amusement", 4)]
    assert all(c.result.p == pytest.approx(0.6875) for c in test.choices)
    assert (test.n, test.no_answer, test.other, test.expected_share) == (6, 0, 0, 0.5)


def test_fun_preference_three_arms_and_odd_answers() -> None:
    arms = ("victory", "amusement", "entertainer")
    subjects = [SubjectRecord("s", f"P{i}", arms, more_fun=fun)
                for i, fun in enumerate(["entertainer"] * 5 + ["amusement", None, "chess"])]
    test = fun_preference(StudyData(subjects, [], []))
    assert (test.n, test.no_answer, test.other) == (6, 1, 1)
    assert test.expected_share == pytest.approx(1 / 3)
    entertainer = test.choices[2]
    assert entertainer.count == 5
    assert entertainer.result.p == pytest.approx(binomial(5, 6, 1 / 3).p)
    assert entertainer.result.p is not None and entertainer.result.p < 0.05


def test_fun_preference_degenerate() -> None:
    assert fun_preference(StudyData()).choices == ()
    only = fun_preference(StudyData([SubjectRecord("s", "P", ("victory",),
                                                   more_fun="victory")], [], []))
    assert not only.choices[0].result.tested
    nobody = fun_preference(StudyData([SubjectRecord("s", "P", ("victory", "amusement"))],
                                      [], []))
    assert nobody.n == 0 and not nobody.choices[0].result.tested


def test_surprise_rates() -> None:
    answers = ([answer("expectation", "surprising")] * 3 + [answer("expectation", "expected")]
               + [answer("surprise", "surprising")] * 2 + [answer("gift", "unknown")]
               + [answer("normal", "surprising")] * 2 + [answer("normal", "expected")] * 10)
    test = surprise_rates(StudyData([], [], answers))
    kinds = {k.kind: (k.answers, k.surprising) for k in test.kinds}
    assert kinds == {"normal": (12, 2), "expectation": (4, 3), "surprise": (2, 2),
                     "gift": (1, 0)}
    assert (test.special.answers, test.special.surprising) == (7, 5)
    assert test.special.rate == pytest.approx(5 / 7)
    assert test.table == ((5, 2), (2, 10))
    assert test.result.p == pytest.approx(hypergeometric_p(((5, 2), (2, 10))))
    assert test.result.n == 19


def test_surprise_rates_degenerate() -> None:
    empty = surprise_rates(StudyData())
    assert empty.table == ((0, 0), (0, 0)) and not empty.result.tested
    assert all(k.rate is None for k in empty.kinds)
    # victory only plays normal moves: no special row to compare
    normal_only = surprise_rates(StudyData([], [], [answer("normal", "surprising"),
                                                    answer("normal", "expected")]))
    assert not normal_only.result.tested


def test_can_win_tracking() -> None:
    answers = [answer(can_win="lose", evaluation=-12), answer(can_win="lose", evaluation=-4),
               answer(can_win="unknown", evaluation=-2), answer(can_win="unknown",
                                                                evaluation=3),
               answer(can_win="win", evaluation=10), answer(can_win="win", evaluation=6),
               answer(can_win="win", evaluation=20), answer(can_win="win", evaluation=None)]
    test = can_win_tracking(StudyData([], [], answers))
    means = {a.answer: (a.n, a.mean, a.median) for a in test.by_answer}
    assert means == {"win": (3, 12.0, 10.0), "unknown": (2, 0.5, 0.5),
                     "lose": (2, -8.0, -8.0)}
    assert (test.n, test.missing) == (7, 1)
    # answers and evaluations are perfectly concordant between groups: rho from ranks
    xs = [-1, -1, 0, 0, 1, 1, 1]
    ys = [-12, -4, -2, 3, 10, 6, 20]
    assert test.result.statistic == pytest.approx(spearman(xs, ys).statistic)
    assert test.result.statistic is not None and test.result.statistic > 0.9
    assert test.result.p is not None and test.result.p < 0.01


def test_can_win_tracking_degenerate() -> None:
    assert not can_win_tracking(StudyData()).result.tested
    no_eval = can_win_tracking(StudyData([], [], [answer(can_win="win")] * 5))
    assert no_eval.n == 0 and no_eval.missing == 5 and not no_eval.result.tested
    same = can_win_tracking(StudyData([], [], [answer(can_win="win", evaluation=v)
                                               for v in (1, 5, 9)]))
    assert "constant" in same.result.reason


def test_analyse_to_json() -> None:
    stats = analyse(papers_study())
    data = json.loads(json.dumps(stats.to_json(), allow_nan=False))
    assert data["wins"]["pairs"][0]["table"] == [[0, 6], [4, 2]]
    assert data["wins"]["draws"] == "count as not a win"
    assert data["fun"]["choices"][1]["count"] == 4
    infinite = analyse(StudyData([], [], [answer("surprise", "surprising"),
                                          answer("normal", "expected"),
                                          answer("normal", "surprising")]))
    assert infinite.surprise.result.statistic == float("inf")
    assert json.loads(json.dumps(infinite.to_json(), allow_nan=False)
                      )["surprise"]["result"]["statistic"] == "inf"


def test_the_web_app_starts_without_scipy_stats() -> None:
    """The study's tests import scipy.stats when they first run, not when the web app
    starts (it was a fifth of the app's start-up): a fresh interpreter that imports the
    app has not loaded it."""
    import subprocess
    import sys

    code = "import sys, hasamigo.web.app; print('scipy.stats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)
    assert out.stdout.strip() == "False"
