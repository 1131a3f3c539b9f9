"""The study's report: per-move graphs, the tables, both languages, escaping, the CLI."""

from __future__ import annotations

import ast
import json
import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.errors import InvalidOptionError
from hasamigo.study import figures, report, report_sections, report_text
from hasamigo.study.figures import FIGURE_MESSAGES, figure_labels
from hasamigo.study.records import AnswerRecord, GameRecord, StudyData, SubjectRecord
from hasamigo.study.report import build_report, cjk_font, per_move_figure, write_report
from hasamigo.study.report_text import MESSAGES, count_of, labels
from hasamigo.study.significance import (
    BINOMIAL,
    CHI2,
    FISHER,
    FISHER_ONE,
    MCNEMAR,
    MCNEMAR_ONE,
    SPEARMAN,
)
from hasamigo.text import translate

ARMS = ("victory", "amusement")
SCRIPT = "<script>alert('x')</script>"


def synthetic_study(subjects: int = 4, seed: int = 7) -> StudyData:
    """``subjects`` subjects × 2 arms, order counterbalanced; the subject plays Black, the
    program answers on the even moves 2…60 and is asked after every one. Against the
    amusement program an expectation move at 22 and a surprise move at 32 (felt as
    surprising); the subjects lose to victory and win 3 of 4 against amusement; 3 of 4
    find amusement more fun. The last two answers of every game have no evaluation."""
    rng = random.Random(seed)
    data = StudyData()
    for i in range(subjects):
        code = f"S{i + 1}"
        order = ARMS if i % 2 == 0 else ARMS[::-1]
        fun = "victory" if i == 3 else "amusement"
        data.subjects.append(SubjectRecord(
            "study", code, order, language="en", strength=2 + i % 3, more_fun=fun,
            more_fun_why=SCRIPT if i == 0 else "more surprises & a win",
            what_makes_fun="winning\nsometimes", strategies=("corners",)))
        for index, program in enumerate(order, 1):
            won = program == "amusement" and i != 2
            data.games.append(GameRecord(
                "study", code, index, program, f"g-{code}-{index}", "black",
                outcome="win" if won else "lose", subject_discs=36 if won else 20,
                program_discs=28 if won else 44, moves=60, felt=4 if won else 2,
                felt_note=SCRIPT if (i, index) == (1, 2) else ""))
            evaluation = 0.0
            for move in range(2, 61, 2):
                kind = "normal"
                if program == "amusement" and move == 22:
                    kind, evaluation = "expectation", evaluation + 14
                elif program == "amusement" and move == 32:
                    kind, evaluation = "surprise", evaluation + 10
                else:
                    evaluation += rng.uniform(-3, 3) + (-1.2 if program == "victory" else 0.3)
                can_win = "win" if evaluation > 5 else "lose" if evaluation < -5 else "unknown"
                felt = ("surprising" if kind != "normal" or rng.random() < 0.1
                        else rng.choice(["unknown", "expected"]))
                data.answers.append(AnswerRecord(
                    "study", code, index, program, f"g-{code}-{index}", move,
                    "b2" if kind == "expectation" else "d3", kind, "", can_win, felt,
                    seconds=2.0, evaluation=None if move > 56 else round(evaluation, 1)))
    return data


@pytest.fixture(scope="module")
def study() -> StudyData:
    return synthetic_study()


@pytest.fixture(scope="module")
def report_en(study: StudyData) -> str:
    return build_report(study, title="Pilot <1>", lang="en")


@pytest.fixture(scope="module")
def report_ja(study: StudyData) -> str:
    return build_report(study, title="予備実験", lang="ja")


def _section(page: str, heading: str) -> str:
    """The HTML of the ``<h2>`` section named ``heading``, up to the next one."""
    start = page.index(f"<h2>{heading}</h2>")
    end = page.find("<h2>", start + 1)
    return page[start:] if end < 0 else page[start:end]


def _cells(row_html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>",
                                                          row_html)]


def _row(section: str, first_cell: str) -> list[str]:
    for row in re.findall(r"<tr>(.*?)</tr>", section):
        cells = _cells(row)
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r}")


# ---- the per-move graphs ----------------------------------------------------------------------
def test_one_per_move_graph_per_subject_and_game(report_en: str, study: StudyData) -> None:
    per_move = _section(report_en, "Per-move graphs")
    blocks = re.findall(r'<section class="game">(.*?)</section>', per_move, re.S)
    assert len(blocks) == len(study.games) == 8
    for block in blocks:
        assert block.count("<svg") == 1
    first = blocks[0]
    assert "S1 · Game 1: victory" in first and "subject lost 20–44" in first
    amusement = blocks[1]
    assert "S1 · Game 2: amusement" in amusement
    assert "E 22 (expectation)" in amusement and "S 32 (surprise)" in amusement
    assert "Special moves: none" in first


def test_per_move_figure_is_one_svg_with_the_marks(study: StudyData) -> None:
    svg = per_move_figure(study, "S1", 2)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<svg") == 1
    # the legend names the lines and both kinds of mark (text drawn as paths: glyph ids)
    assert "expectation move" in svg and "surprise move" in svg  # as <!-- comments -->
    plain = per_move_figure(study, "S1", 1)
    assert "expectation move" not in plain
    with pytest.raises(InvalidOptionError, match="no game 3 of subject 'S1'"):
        per_move_figure(study, "S1", 3)


def test_per_move_figure_without_answers_or_evaluations(study: StudyData) -> None:
    games_only = StudyData(study.subjects, study.games, [])
    assert "no answers" in per_move_figure(games_only, "S2", 1)
    no_eval = StudyData(study.subjects, study.games,
                        [a for a in study.answers if a.evaluation is None])
    assert per_move_figure(no_eval, "S2", 1).startswith("<svg")


def test_japanese_figure_labels_use_a_cjk_font(study: StudyData) -> None:
    svg = per_move_figure(study, "S1", 2, lang="ja")
    if cjk_font() is None:
        assert "expectation move" in svg  # falls back to English labels
    else:
        assert "期待性の手" in svg


# ---- the tables -------------------------------------------------------------------------------
def test_wins_table(report_en: str) -> None:
    wins = _section(report_en, "Wins per program")
    assert _row(wins, "victory")[:7] == ["victory", "4", "0", "0", "4", "0", "0%"]
    assert _row(wins, "amusement")[:7] == ["amusement", "4", "3", "0", "1", "0", "75%"]
    # 0/4 against 3/4: Fisher two-sided p = 0.143, one-sided 0.0714; McNemar b = 3, c = 0
    assert "0/4 – 3/4" in wins
    assert "Fisher&#x27;s exact test, two-sided: n = 8" in wins and "p = 0.143" in wins
    assert "Fisher&#x27;s exact test, one-sided: n = 8" in wins and "p = 0.0714" in wins
    assert "McNemar&#x27;s exact test, two-sided: n = 3, proportion = 1.00, p = 0.250" in wins
    assert "none of the four tests reaches p ≤ 0.05" in wins
    assert "A draw counts as not a win" in wins
    assert wins.count("<svg") == 1


def test_fun_table(report_en: str) -> None:
    fun = _section(report_en, "Which game was more fun")
    victory, amusement = _row(fun, "victory"), _row(fun, "amusement")
    assert victory[1:3] == ["1", "25%"] and amusement[1:3] == ["3", "75%"]
    assert "exact binomial test, two-sided: n = 4, proportion = 0.75, p = 0.625" in fun


def test_surprise_table(report_en: str, study: StudyData) -> None:
    section = _section(report_en, "“Surprising” answers after special moves")
    assert _row(section, "expectation")[1:3] == ["4", "4"]  # once per amusement game
    assert _row(section, "surprise")[1:3] == ["4", "4"]
    assert _row(section, "gift")[1:3] == ["0", "0"]
    normal = [a for a in study.answers if a.move_kind == "normal"]
    surprising = sum(a.move_felt == "surprising" for a in normal)
    assert _row(section, "normal")[1:3] == [str(len(normal)), str(surprising)]
    assert f"n = {len(study.answers)}, odds ratio = " in section


def test_tracking_table(report_en: str, study: StudyData) -> None:
    section = _section(report_en, "“Can you win?” against the evaluation")
    rated = [a for a in study.answers if a.evaluation is not None]
    wins = [a.evaluation for a in rated if a.can_win == "win" and a.evaluation is not None]
    assert _row(section, "win")[1:3] == [str(len(wins)), f"{sum(wins) / len(wins):.1f}"]
    assert f"Spearman&#x27;s rank correlation, two-sided: n = {len(rated)}, rho = " in section
    assert f"({len(study.answers) - len(rated)} without one)" in section


def test_both_languages_headings(report_en: str, report_ja: str) -> None:
    for heading in ("Subjects", "Wins per program", "Which game was more fun",
                    "Per-move graphs"):
        assert f"<h2>{heading}</h2>" in report_en
    for heading in ("被験者", "プログラム別の勝敗", "どちらがおもしろかったか", "1手毎のグラフ"):
        assert f"<h2>{heading}</h2>" in report_ja
    assert '<html lang="ja">' in report_ja and "娯楽指向 (amusement)" in report_ja
    assert "フィッシャーの正確確率検定（両側）: n = 8" in report_ja
    with pytest.raises(InvalidOptionError, match="'en' or 'ja'"):
        build_report(StudyData(), title="x", lang="fr")


#: labels the same in both languages: symbols, and the paper's answer words it quotes
SAME_IN_BOTH = {"n", "p", "χ²", "can_win_share", "surprising_share"}
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
MARKERS = {"N_", "NP_", "NN_", "NNP_"}


def test_the_report_reads_its_words_from_the_one_catalog(report_en: str,
                                                         report_ja: str) -> None:
    """The report's labels are gettext messages: English as written, Japanese from the
    catalog the web pages read (issue 66: one mechanism for two-language text)."""
    english, japanese = labels("en"), labels("ja")
    assert set(english) == set(japanese) == set(MESSAGES)
    for key, message in MESSAGES.items():
        assert japanese[key] == translate("ja", message)
        if key not in SAME_IN_BOTH:  # a message missing from the catalog reads in English
            assert japanese[key] != english[key], key
    assert japanese["wins"] == "プログラム別の勝敗" and japanese["games"] == "対局数"
    assert translate("ja", "Games") == "局数"  # the pages' word; the report's has a context
    assert japanese["outcome.win"] == "被験者の勝ち" and "被験者の勝ち 36–28" in report_ja
    assert japanese[FISHER] == "フィッシャーの正確確率検定（両側）" and english[FISHER] == FISHER
    for name in (FISHER, FISHER_ONE, MCNEMAR, MCNEMAR_ONE, CHI2, BINOMIAL, SPEARMAN):
        assert english[name] == name  # the label's msgid is the test's own name
    assert "被験者 4 人、対局 8 局" in report_ja and "4 subjects, 8 games" in report_en
    assert count_of("en", "games", 1) == "1 game" and count_of("ja", "games", 1) == "1"
    assert "検出力 80 % に必要な被験者数" in report_ja
    assert "Subjects needed for 80 % power" in report_en
    assert not CJK.search(report_en.split("<h2>")[1].split("</h2>")[0])
    english_figures, japanese_figures = figure_labels("en"), figure_labels("ja")
    for key, message in FIGURE_MESSAGES.items():
        assert english_figures[key] == translate("en", message)
        assert japanese_figures[key] == translate("ja", message) != english_figures[key], key
    assert japanese_figures["can_win"] == "いま勝てそうか"


def _japanese_outside_messages(source: str) -> list[str]:
    """The string constants with Japanese in ``source`` that are not an English message
    marked for the catalog (one quoting the paper's words)."""
    tree = ast.parse(source)
    marked = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id in MARKERS
              for arg in node.args}
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and CJK.search(node.value) and id(node) not in marked | docstrings]


@pytest.mark.parametrize("module", [report_text, figures, report, report_sections],
                         ids=lambda m: m.__name__)
def test_the_report_modules_hold_no_japanese_of_their_own(module: ModuleType) -> None:
    """The Japanese is the catalog's: the report's modules write English only (what Japanese
    is left is the paper's words quoted in an English message), and no table by language."""
    source = Path(str(module.__file__)).read_text()
    found = _japanese_outside_messages(source)
    assert not found, found
    assert '"ja":' not in source and "TEXT[" not in source
    # the check does catch a Japanese label written out (as the module had them)
    assert _japanese_outside_messages('T = {"ja": {"wins": "プログラム別の勝敗"}}')


def test_user_text_is_escaped(report_en: str) -> None:
    assert "<script>" not in report_en
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in report_en
    assert report_en.count("&lt;script&gt;") == 2  # a "why" and a game's note (free text)
    assert "<title>Pilot &lt;1&gt;</title>" in report_en
    assert "more surprises &amp; a win" in report_en


def test_svg_ids_are_unique_and_resolve(report_en: str) -> None:
    ids = re.findall(r'\bid="([^"]+)"', report_en)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r'href="#([^"]+)"', report_en))
    refs |= set(re.findall(r"url\(#([^)]+)\)", report_en))
    assert refs and refs <= set(ids)


def test_figures_from_several_threads(study: StudyData) -> None:
    keys = [("S1", 1), ("S1", 2), ("S2", 1), ("S2", 2)]
    with ThreadPoolExecutor(4) as pool:
        svgs = list(pool.map(lambda k: per_move_figure(study, *k), keys))
    assert all(svg.startswith("<svg") and svg.count("<svg") == 1 for svg in svgs)
    assert ["expectation move" in svg for svg in svgs] == [False, True, True, False]


def test_print_css_and_self_contained(report_en: str) -> None:
    assert "@page { size: A4;" in report_en
    assert "<link" not in report_en and "src=" not in report_en.replace("xlink:href", "")


def test_degenerate_studies() -> None:
    empty = build_report(StudyData(), title="Empty")
    assert "No subjects in this study yet" in empty and "<svg" not in empty
    assert "この実験にはまだ被験者がいません" in build_report(StudyData(), title="空", lang="ja")
    # subjects, no games, no answers: every test says it cannot run
    only = StudyData([SubjectRecord("s", "P1", ARMS)], [], [])
    page = build_report(only, title="t")
    assert page.count("too few to test") >= 3
    # one arm only
    one = synthetic_study(2)
    one = StudyData([replace(s, order=("victory",), more_fun="victory") for s in one.subjects],
                    [g for g in one.games if g.program == "victory"],
                    [a for a in one.answers if a.program == "victory"])
    assert "fewer than two programs" in build_report(one, title="t")


# ---- the CLI ----------------------------------------------------------------------------------
def test_cli_writes_the_report(tmp_path: Path) -> None:
    synthetic_study(2).write(tmp_path / "export")
    out = tmp_path / "report.html"
    runner = CliRunner()
    result = runner.invoke(app, ["study", "report", str(tmp_path / "export"), "--out",
                                 str(out), "--lang", "ja", "--title", "T&T"])
    assert result.exit_code == 0, result.output
    assert "report.html" in result.output and "2 subjects, 4 games" in result.output
    page = out.read_text(encoding="utf-8")
    assert "<h1>T&amp;T</h1>" in page and page.count('<section class="game">') == 4
    result = runner.invoke(app, ["study", "report", str(tmp_path / "export" / "study.json"),
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"out": str(out), "subjects": 2, "games": 4,
                                         "answers": 120, "where": ""}
    assert "<h1>User study report</h1>" in out.read_text(encoding="utf-8")


def test_cli_refuses_broken_data(tmp_path: Path) -> None:
    runner = CliRunner()
    broken = tmp_path / "broken.json"
    broken.write_text('{"subjects": [', encoding="utf-8")
    result = runner.invoke(app, ["study", "report", str(broken), "--out",
                                 str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert "broken.json" in result.output and not (tmp_path / "r.html").exists()
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"subjects": [{"nobody": 1}], "games": [], "answers": []}',
                     encoding="utf-8")
    result = runner.invoke(app, ["study", "report", str(wrong), "--out",
                                 str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "wrong.json" in result.output
    result = runner.invoke(app, ["study", "report", str(tmp_path / "missing"), "--out",
                                 str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "missing" in result.output
    result = runner.invoke(app, ["study", "report", str(broken), "--out",
                                 str(tmp_path / "r.html"), "--lang", "fr"])
    assert result.exit_code == 2


def test_write_report(tmp_path: Path) -> None:
    path = write_report(synthetic_study(1), tmp_path / "r.html", title="t", lang="en")
    assert path == tmp_path / "r.html" and path.read_text(encoding="utf-8").startswith(
        "<!doctype html>")


def test_three_arms_and_gifts() -> None:
    data = synthetic_study(2)
    for subject in ("S1", "S2"):
        data.games.append(GameRecord("study", subject, 3, "entertainer", f"e-{subject}",
                                     "white", outcome="draw", subject_discs=32,
                                     program_discs=32))
        data.answers += [AnswerRecord("study", subject, 3, "entertainer", f"e-{subject}", m,
                                      "a8", "gift" if m == 25 else "normal", "", "unknown",
                                      "surprising" if m == 25 else "expected", 1.0, 0.0)
                         for m in range(1, 60, 2)]
    data.subjects[:] = [replace(s, order=(*s.order, "entertainer")) for s in data.subjects]
    page = build_report(data, title="three", lang="en")
    wins = _section(page, "Wins per program")
    assert "Holm-adjusted p" in wins
    assert wins.count("Fisher&#x27;s exact test, two-sided: n =") == 3  # one per pair
    assert _row(wins, "entertainer")[1:4] == ["2", "0", "2"]
    assert "G 25 (gift)" in page
    fun = _section(page, "Which game was more fun")
    assert "k = 3" in fun
