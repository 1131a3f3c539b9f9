"""The paper's experiment replicated end to end in chromium: a study with the paper's
protocol (the default), 8 subjects through the real pages, each playing both programs
with a simulated player's moves and answering by a rule, then the researcher's report,
whose first table, Figure 7 and tests are checked against the stored games.

The subjects (§4.1–4.2 of the paper): 8, of whom 6 rate themselves 「ふつう」 or below, the
order counterbalanced by the study. Their moves are the study panel's beginner (a noisy
2-ply player that always takes an offered corner: :mod:`hasamigo.study.panel`) and,
for the two stronger subjects, the victory program's own 5-ply search. Their answers
follow a rule on the strong engine's evaluation (depth 4, discs from their side) of the
position after their move: 勝てそう above +4, 負けそう below −4, わからない between; the
program's move before it felt 意外な手 when it moved the evaluation 6 discs or more their
way, 予想通り when it moved it less than 2, わからない otherwise.

Desktop width (1280 px); screenshots of the report. About six minutes of play (CI runs it
with the other browser tests, not again with the slow ones).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from hasamigo import Board
from hasamigo.engine import Engine
from hasamigo.engine.players import make_player
from hasamigo.engine.pool import evaluate_position
from hasamigo.move import Color, Move
from hasamigo.study.panel import PANEL

pytestmark = pytest.mark.browser

#: (strength 5 strong … 1 weak, the subject's player): 6 at 「ふつう」 (3) or below, played
#: by the panel's weak players (against amusement they win a quarter to a third of their
#: games, against victory almost none), and 2 stronger ones by the victory program
SUBJECTS = [(3, "beginner"), (2, "weighted1"), (1, "beginner"), (3, "noisy2"),
            (5, "victory"), (2, "beginner"), (3, "weighted1"), (4, "victory")]
WIN_MARGIN = 4.0
SURPRISE_SWING = 6.0


class Subject:
    """One simulated subject: their player and the answer rule's memory."""

    def __init__(self, number: int, player: str) -> None:
        self.player = (PANEL[player](number) if player in PANEL
                       else make_player(player, seed=number))
        self.engine = Engine(table_size=1 << 16)
        self.before_program: float | None = None  # the evaluation before the program moved
        self.after_mine: float | None = None  # after the subject's last move

    def evaluate(self, board: Board, me: Color) -> float:
        return float(evaluate_position(self.engine, board, 4, me).score)

    def answers(self, board: Board, me: Color, asks: list[str]) -> dict[str, str]:
        now = self.evaluate(board, me)
        out = {"can_win": "win" if now > WIN_MARGIN else
               "lose" if now < -WIN_MARGIN else "unknown"}
        if "move_felt" in asks:
            swing = 0.0 if self.before_program is None else self.before_program - (
                self.after_mine if self.after_mine is not None else 0.0)
            # the program's move turned the evaluation by `swing` discs the subject's way
            out["move_felt"] = ("surprising" if swing >= SURPRISE_SWING else
                                "expected" if abs(swing) < 2 else "unknown")
        self.after_mine = now
        return out


def _board(game: dict[str, Any]) -> Board:
    turn = "X" if game["turn"] == "black" else "O"
    return Board.from_string(f"{game['cells']} {turn}")


def _state(page: Any, base: str) -> dict[str, Any]:
    response = page.request.get(base)
    assert response.ok, response.text()
    state: dict[str, Any] = response.json()
    return state


def _play_game(page: Any, base: str, subject: Subject) -> None:
    """Play the subject's game on the page to its end, answering every question."""
    index = _state(page, base)["game_index"]
    for _ in range(500):
        state = _state(page, base)
        if state["step"] != "game" or state["game_index"] != index:
            return
        game, question = state["game"], state["question"]
        if game is None:
            page.click("#start-game")
            page.wait_for_selector("#play:not([hidden])")
            continue
        me = Color.parse(game["your_colours"][0])
        if question is not None:
            page.wait_for_selector("#questions:not([hidden])")
            asks = [q for q in ("can_win", "move_felt")
                    if page.locator(f".study-q[data-question={q}]").is_visible()]
            answers = subject.answers(_board(game), me, asks)
            for key, code in answers.items():
                if key in question["answered"]:
                    continue
                row = page.locator(f".study-q[data-question={key}]")
                with page.expect_response(lambda r: r.url.endswith("/answers")):
                    row.locator(f"button[data-answer={code}]").click()
            continue
        if game["phase"] == "playing" and game["turn"] == me.value and game["legal"]:
            board = _board(game)
            subject.before_program = subject.evaluate(board, me)
            move: Move = subject.player.choose(board)
            square = board.move_name(move)
            assert square in game["legal"]
            page.wait_for_selector(f".study-cell.legal[data-square={square}]")
            with page.expect_response(lambda r: r.url.endswith("/moves")):
                page.click(f".study-cell.legal[data-square={square}]")
            continue
        page.wait_for_timeout(100)  # the program is thinking
    pytest.fail("the game did not end: " + page.locator("#subject").inner_text()[:500])


def _take_part(new_page: Callable[..., Any], server: str, study: str, number: int,
               strength: int, player: str) -> str:
    page = new_page(width=1280, lang="ja")
    page.goto(f"{server}/studies/{study}")
    page.click("#start")
    page.wait_for_selector("[data-step=consent]:not([hidden])")
    code = page.locator("#code").inner_text().strip()
    base = f"{server}/api/studies/{study}/subjects/{code}"
    page.click("#consent")
    page.wait_for_selector("#before:not([hidden])")
    page.check(f"input[name=strength][value='{strength}']")
    page.locator("#before button[type=submit]").click()
    page.wait_for_selector("[data-step=game]:not([hidden])")
    subject = Subject(number, player)
    while _state(page, base)["step"] == "game":
        page.wait_for_selector("#start-game:visible, #play:not([hidden])")
        _play_game(page, base, subject)
    state = _state(page, base)
    assert state["step"] == "after", state["step"]
    outcomes = [g["outcome"] for g in state["games"]]
    assert len(outcomes) == 2 and all(o in ("win", "lose", "draw") for o in outcomes)
    page.wait_for_selector("#after:not([hidden])")
    # the last game's result is shown (a game the program ended goes on at once)
    shown = page.locator("#last-result")
    assert shown.is_visible() and shown.get_attribute("data-outcome") == outcomes[1]
    # the paper's five items: each game's result as the subject saw it, which was more
    # fun (a game they won, else the second), why, the strategies they know, what makes fun
    for i, outcome in enumerate(outcomes, 1):
        page.check(f"input[name=reported_outcome-{i}][value={outcome}]")
    fun = state["order"][outcomes.index("win") if "win" in outcomes else 1]
    page.check(f"input[name=more-fun][value='{fun}']")
    page.fill("#q-more_fun_why", "角を取らせてくれた")
    page.fill("#q-strategies_text", "角を取る" if strength <= 3 else "偶数理論、中割り")
    page.fill("#q-what_makes_fun", "勝てそうで勝てないところ")
    page.locator("#after button[type=submit]").click()
    page.wait_for_selector("[data-step=done]:not([hidden])")
    return code


def test_the_paper_replicated_through_the_pages(new_page: Callable[..., Any],
                                                live_server: str, screenshots: Path) -> None:
    researcher = new_page(width=1280, lang="ja")
    researcher.goto(f"{live_server}/studies")
    researcher.fill("#study-name", "Replication")
    researcher.fill("#study-password", "research-pw")
    researcher.locator("#new-study button[type=submit]").click()
    researcher.wait_for_url("**/research")
    study = researcher.url.rstrip("/").split("/")[-2]
    token = researcher.evaluate(f"() => sessionStorage.getItem('study-token:{study}')")
    assert token

    for number, (strength, player) in enumerate(SUBJECTS):
        _take_part(new_page, live_server, study, number, strength, player)

    headers = {"Authorization": f"Bearer {token}"}
    exported = researcher.request.get(f"{live_server}/api/studies/{study}/export.json",
                                      headers=headers)
    assert exported.ok, exported.text()
    data = json.loads(exported.text())
    assert data["study"]["protocol"] == "paper"
    strength = {s["subject"]: s["strength"] for s in data["subjects"]}
    assert sorted(strength.values()) == sorted(s for s, _ in SUBJECTS)
    # one answer after every move the subject played, none after the program's
    for g in data["games"]:
        answers = [a for a in data["answers"]
                   if a["subject"] == g["subject"] and a["game_index"] == g["index"]]
        assert answers and all(a["timing"] == "subject-move" for a in answers)
        assert len({a["move_number"] for a in answers}) == len(answers)
    # the paper's first table for the subjects at 「ふつう」 or below, from the games
    wins: dict[str, list[int]] = {"victory": [0, 0], "amusement": [0, 0]}
    for g in data["games"]:
        if strength[g["subject"]] <= 3 and g["outcome"] is not None:
            wins[g["program"]][0] += g["outcome"] == "win"
            wins[g["program"]][1] += 1
    assert wins["victory"][1] == wins["amusement"][1] == 6
    table = [[wins["victory"][0], 6 - wins["victory"][0]],
             [wins["amusement"][0], 6 - wins["amusement"][0]]]
    one_sided = stats.fisher_exact(table, alternative="less").pvalue
    two_sided = stats.fisher_exact(table).pvalue

    report = researcher.request.get(
        f"{live_server}/api/studies/{study}/report?lang=en&where=strength<=3",
        headers=headers)
    assert report.ok, report.text()
    html = report.text()
    assert f"{wins['victory'][0]}/6" in html and f"{wins['amusement'][0]}/6" in html
    # the subgroup's tests (12 games): Fisher's one- and two-sided as scipy computes them
    # from the stored games, or "too few to test" when a margin of the table is empty
    degenerate = wins["victory"][0] + wins["amusement"][0] in (0, 12)
    for name, p in (("one-sided", one_sided), ("two-sided", two_sided)):
        line = re.search(re.escape(f"exact test, {name}: n = 12") + r"[^<]*", html)
        assert line is not None, name
        if degenerate:
            assert "too few to test" in line.group(0)
        else:
            assert (f"p = {p:.3f}" if p >= 0.001 else "p < 0.001") in line.group(0)
    assert "McNemar" in html
    assert html.count("<svg") >= 16  # Figure 7 for each of the 16 games, and the rest
    researcher.goto(f"{live_server}/studies/{study}/research")
    frame = researcher.frame_locator("#report")
    frame.locator("svg").first.wait_for(timeout=60_000)
    researcher.screenshot(path=str(screenshots / "study-replication-research.png"),
                          full_page=True)
    page = new_page(width=1280, lang="en")
    page.set_content(html)
    page.screenshot(path=str(screenshots / "study-replication-report.png"), full_page=True)
