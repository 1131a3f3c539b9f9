"""The programs' calibration (issue 67): a tiny real run through the command line, the fit
checked against the library's own figures, the shipped table read by the server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.ratings import calibration as cal

runner = CliRunner()


def test_a_tiny_calibration_plays_its_matches_and_anchors_the_fit(tmp_path: Path) -> None:
    out, md = tmp_path / "programs.json", tmp_path / "programs.md"
    result = runner.invoke(app, ["ratings", "calibrate", "random", "victory", "-n", "4",
                                 "--workers", "1", "--seed", "3",
                                 "--out", str(out), "--markdown", str(md)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["anchor"] == {"program": "random", "rating": 1000}
    [match] = data["matches"]
    assert (match["a"], match["b"]) == ("random", "victory")
    assert match["a_wins"] + match["draws"] + match["b_wins"] == 4
    by_spec = {p["spec"]: p for p in data["programs"]}
    assert by_spec["random"]["rating"] == 1000 and by_spec["victory"]["games"] == 4
    # victory (5-ply minimax) beats random moves: rated above the anchor by its score
    assert match["b_wins"] > match["a_wins"] and by_spec["victory"]["rating"] > 1000
    assert "| `victory` |" in md.read_text()
    assert cal.program_ratings(out) == {"random": 1000,
                                        "victory": by_spec["victory"]["rating"]}


def test_the_fit_reproduces_the_scores_by_the_librarys_forecast() -> None:
    """With many games (the prior's pull negligible), the library's own forecast at the
    fitted ratings gives back each match's score: 75 % against the anchor, then 50 %."""
    results = [cal.PairResult("random", "victory", 100, 0, 300),
               cal.PairResult("victory", "engine:1", 200, 0, 200)]
    fitted = {p.spec: p for p in cal.fit(results)}
    assert fitted["random"].rating == 1000 and fitted["random"].uncertainty == 0
    model = PlackettLuce(mu=1500, sigma=400, beta=200, tau=4)

    def forecast(a: str, b: str) -> float:
        teams = [[model.rating(mu=fitted[a].rating, sigma=0.0)],
                 [model.rating(mu=fitted[b].rating, sigma=0.0)]]
        return float(model.predict_win(teams)[0])

    assert forecast("victory", "random") == pytest.approx(0.75, abs=0.01)
    assert forecast("victory", "engine:1") == pytest.approx(0.5, abs=0.01)
    assert fitted["victory"].score == 500 and fitted["victory"].games == 800
    assert 0 < fitted["victory"].uncertainty < fitted["engine:1"].uncertainty


def test_an_adaptive_program_does_not_move_the_others() -> None:
    base = [cal.PairResult("random", "victory", 5, 0, 15)]
    alone = {p.spec: p.rating for p in cal.fit(base)}
    with_it = {p.spec: p.rating for p in cal.fit(
        [*base, cal.PairResult("victory", "entertainer", 2, 16, 2),
         cal.PairResult("random", "entertainer", 0, 20, 0)])}
    assert with_it["victory"] == pytest.approx(alone["victory"])
    assert alone["victory"] > with_it["entertainer"] > 1000


def test_the_schedule_pairs_neighbours_and_refuses_a_lone_program() -> None:
    assert cal.schedule(["a", "b", "c", "d"], reach=2) == [
        ("a", "b"), ("a", "c"), ("b", "c"), ("b", "d"), ("c", "d")]
    with pytest.raises(ValueError):
        cal.schedule(["a"])
    with pytest.raises(ValueError, match="anchor"):
        cal.fit([cal.PairResult("a", "b", 1, 0, 0)], anchor="random")


def test_the_anchor_must_be_calibrated_and_programs_known() -> None:
    result = runner.invoke(app, ["ratings", "calibrate", "greedy", "victory", "-n", "2"])
    assert result.exit_code != 0 and "anchor" in result.output
    result = runner.invoke(app, ["ratings", "calibrate", "random", "nobody", "-n", "2"])
    assert result.exit_code != 0 and "nobody" in result.output


def test_the_shipped_table_names_the_engine_levels() -> None:
    shipped = cal.program_ratings()
    assert shipped["random"] == cal.DEFAULT_ANCHOR_RATING
    assert {"engine:1", "engine:5", "victory", "entertainer"} <= shipped.keys()
    data = json.loads(cal.PROGRAM_RATINGS.read_text())
    assert data["command"].startswith("hasamigo ratings calibrate")
