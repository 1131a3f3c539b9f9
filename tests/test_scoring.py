"""Scoring as of a date (:mod:`hasamigo.game.result`): the JOF's rule from 1 June 2014
(empties to the winner), the rule before it (a wipe-out is the whole board, otherwise the
discs' difference, written with the empties split) and the plain count; chosen by the
game's date or by its options, kept through JSON, and shown by an imported game of 1990,
its record sheet and its entered record."""

from __future__ import annotations

import base64
import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import Seat, make_client

from hasamigo import BLACK, PASS, WHITE, Board
from hasamigo.errors import InvalidOptionError
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.imported import game_of_record, imported_setup, record_scoring
from hasamigo.game.result import (
    GameResult,
    Score,
    Scoring,
    Termination,
    forfeit,
    score_board,
    scoring_for,
    timeout_win,
    verdict_for,
)
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.notation import parse_transcript, read_wthor, write_wthor
from hasamigo.notation.record import GameRecord
from hasamigo.web.views import result_view

#: 図8 of the 2024 encyclopedia (othello-wikipedia-ja-2024.txt, 「双方打てずの終局(63対1)」),
#: its discs as the seed's diagram lists them, row 1 first: Black on c3, d4-g4, d5-h5, e6,
#: g6, f7 and g8; White on e8 alone.
FIGURE_8 = ("--------"
            "--------"
            "--X-----"
            "---XXXX-"
            "---XXXXX"
            "----X-X-"
            "-----X--"
            "----O-X-") + " X"
#: a random game (seed 1 of a search for a game ending with empties, both colours on the
#: board) that ends with 32 black discs, 27 white and 5 empty squares
ENDS_WITH_EMPTIES = ("c4c3e6f4g4f6d6h4e3c5g3e7b2h2g6g7d7h6b3d2b5c7d8b4e2a5g5b1c2f5h8h5g2"
                     "c8a2e1a4a3c1h7b8f8g8a1f7d3f2d1h3f1h1g1e8f3c6")


def test_figure_8_scores_63_1_today_and_38_5_25_5_before_june_2014() -> None:
    """図8: the diagram shows 14 black discs and 1 white (e8), so 64 − 15 = 49 squares are
    empty and neither side can move. Today (jof-2014) the 49 empties go to the winner:
    14 + 49 = 63 against 1, 「63対1(62石差)」 as the seed's text says. Before 1 June 2014
    (note 2) a game that is not a wipe-out records the difference of the discs on the
    board, 14 − 1 = 13, 「13石差」, written as counts with the 49 empties split,
    14 + 24.5 = 38.5 against 1 + 24.5 = 25.5, 「38.5対25.5」. The plain count is 14–1 (the
    literal reading of the 2014 announcement's quotation, which note 2 doubts was ever
    the rule)."""
    board = Board.from_string(FIGURE_8)
    assert board.counts() == (14, 1) and board.empties.bit_count() == 49
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is BLACK
    today = GameResult.from_outcome(outcome)
    old = GameResult.from_outcome(outcome, scoring=Scoring.JOF_PRE_2014)
    assert str(today) == "63–1" and today.score.difference == 62
    assert str(old) == "38.5–25.5" and old.score == Score(38.5, 25.5, Scoring.JOF_PRE_2014)
    assert old.score.difference == 13 and isinstance(old.score.difference, int)
    assert str(old.score_under(Scoring.DISCS)) == "14–1"
    # the winner, the points and the stored counts are the same under every scoring
    assert old.winner is today.winner is BLACK and old.points_of(BLACK) == 1.0
    assert (old.black, old.white) == (today.black, today.white) == (63, 1)
    assert verdict_for(old, WHITE).score == "25.5–38.5"


@pytest.mark.parametrize(("black", "white", "today", "pre", "discs"), [
    (20, 0, "64–0", "64–0", "20–0"),  # a wipe-out is the whole board's difference
    (0, 13, "0–64", "0–64", "0–13"),
    (20, 20, "32–32", "32–32", "20–20"),  # a tie shares the board under both JOF rules
    (33, 30, "34–30", "33.5–30.5", "33–30"),  # one empty square split: still 3 discs
    (40, 24, "40–24", "40–24", "40–24"),  # a full board is counted alike
])
def test_each_scoring_on_wipe_outs_ties_and_nearly_full_boards(
        black: int, white: int, today: str, pre: str, discs: str) -> None:
    assert str(score_board(black, white, Scoring.JOF_2014)) == today
    assert str(score_board(black, white, Scoring.JOF_PRE_2014)) == pre
    assert str(score_board(black, white, Scoring.DISCS)) == discs


def test_a_board_that_cannot_hold_the_discs_and_an_unknown_scoring_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="jof-2014, jof-pre-2014, discs"):
        Scoring.from_code("jof-2013")
    with pytest.raises(ValueError, match="do not fit"):
        score_board(40, 30, Scoring.JOF_PRE_2014)
    with pytest.raises(GameError, match="a scoring is"):
        GameOptions(scoring="old")


def test_the_scoring_of_a_day_changes_on_1_june_2014() -> None:
    assert scoring_for(datetime.date(2014, 5, 31)) is Scoring.JOF_PRE_2014
    assert scoring_for(datetime.date(2014, 6, 1)) is Scoring.JOF_2014
    assert scoring_for(1990) is Scoring.JOF_PRE_2014 and scoring_for(2013) is Scoring.JOF_PRE_2014
    assert scoring_for(2014) is Scoring.JOF_2014 and scoring_for(None) is Scoring.JOF_2014
    def jof(date: str) -> Scoring:
        return record_scoring(GameRecord(date=date), jof_event=True)

    assert jof("2014.05.31_23:00:00") is Scoring.JOF_PRE_2014
    assert jof("1965") is Scoring.JOF_PRE_2014
    # GGS's epoch seconds: 2014-05-27 23:49:27 UTC, then 2014-06-01 00:00:00 UTC
    assert jof("1401234567") is Scoring.JOF_PRE_2014
    assert jof("1401580800") is Scoring.JOF_2014


@pytest.mark.parametrize("date", ["1965", "1990", "2014.05.31_23:00:00", "1401234567",
                                  "2019.03.02", ""])
def test_a_record_keeps_the_international_count_unless_marked_a_jof_event(date: str) -> None:
    """「国際的には従前から使われていたルールだが、日本では2014年6月1日からこのルールが施行
    された」 (the 2024 encyclopedia's note 2): a WTHOR or GGS record of any date counts the
    empties to the winner; only a JOF event is counted by Japan's rule of its date."""
    assert record_scoring(GameRecord(date=date)) is Scoring.JOF_2014


def test_a_result_keeps_its_scoring_and_discs_through_json_and_old_ones_read_as_today() -> None:
    outcome = Board.from_string(FIGURE_8).outcome()
    assert outcome is not None
    old = GameResult.from_outcome(outcome, scoring=Scoring.JOF_PRE_2014)
    data = json.loads(json.dumps(old.to_json()))
    assert data["scoring"] == "jof-pre-2014" and data["discs"] == [14, 1]
    again = GameResult.from_json(data)
    assert again == old and again.discs == (14, 1) and str(again) == "38.5–25.5"
    stored_before = {"black": 63, "white": 1, "winner": "black", "termination": "normal",
                     "rated": True, "by_draw_win": False}
    read = GameResult.from_json(stored_before)
    assert read.scoring is Scoring.JOF_2014 and read.discs is None and str(read) == "63–1"
    # with no discs kept, no other scoring can be made up: the counts stay as stored
    assert str(read.score_under(Scoring.JOF_PRE_2014)) == "63–1"
    assert read.score_under(Scoring.JOF_PRE_2014).scoring is Scoring.JOF_2014


def test_results_not_counted_on_the_board_are_written_as_they_are() -> None:
    """A forfeit and a time-out are not a board's count: no scoring changes them."""
    for result in (forfeit(BLACK), timeout_win(WHITE)):
        old = GameResult(result.black, result.white, result.winner, result.termination,
                         scoring=Scoring.JOF_PRE_2014, discs=(10, 5))
        assert str(old) == str(result) and old.termination is not Termination.NORMAL


def _finish(game: GameController, transcript: str) -> None:
    for move in parse_transcript(transcript):
        if not move.is_pass:
            game.play(None, move)


def test_a_game_is_scored_by_its_options_and_a_game_played_here_by_todays_rule() -> None:
    """Without a chosen scoring a game played here is counted by today's rule, whatever
    its clock says (tests keep games on clocks near 1970)."""
    people = (Participant("Ann"), Participant("Bob"))
    for chosen, day, expected in ((None, 1990, "37–27"), (None, 2026, "37–27"),
                                  ("discs", 2026, "32–27"), ("jof-pre-2014", 2026, "34.5–29.5"),
                                  ("jof-2014", 1990, "37–27")):
        now = datetime.datetime(day, 5, 1, tzinfo=datetime.UTC).timestamp()
        setup = GameSetup(people, GameOptions(clock_seconds=None, scoring=chosen))
        game = GameController.new(setup, time_source=lambda now=now: now)
        _finish(game, ENDS_WITH_EMPTIES)
        result = game.result
        assert result is not None and result.discs == (32, 27), chosen
        assert str(result) == expected and (result.black, result.white) == (37, 27)
    assert GameOptions(scoring="discs").to_json()["scoring"] == "discs"
    assert "scoring" not in GameOptions().to_json()  # left to the date: stored as before
    assert GameSetup.from_json(GameSetup(people, GameOptions(scoring="jof-pre-2014"))
                               .to_json()).options.scoring == "jof-pre-2014"


def _wthor_1990(tmp_path: Path) -> Path:
    """A WTHOR archive of 1990 holding one game, written by the project's own writer."""
    path = tmp_path / "WTH_1990.wtb"
    record = GameRecord(moves=parse_transcript(ENDS_WITH_EMPTIES), date="1990")
    assert write_wthor(path, [record]) == 1
    return path


def test_a_wthor_game_of_1990_keeps_the_empties_to_the_winner(tmp_path: Path) -> None:
    """WTHOR (the French federation's archive) counted the empties to the winner before
    Japan did: its game of 1990 is 37–27, as the archive's own score says."""
    [record] = read_wthor(_wthor_1990(tmp_path), players=[])
    assert record.date == "1990" and record.recorded_score == 37
    assert imported_setup(record).options.scoring == "jof-2014"
    game = game_of_record(record, at=datetime.datetime(2026, 1, 1).timestamp())
    assert game.result is not None
    view = result_view(game.result)
    assert (view.score, view.scoring, view.today) == ("37–27", "jof-2014", None)


def test_a_jof_event_of_1990_shows_the_old_score_beside_todays(tmp_path: Path) -> None:
    """The game ends with 32 black discs, 27 white and 5 empty squares: 34.5–29.5 (5 discs)
    by the JOF rule of 1990, 37–27 with the empties to the winner."""
    [record] = read_wthor(_wthor_1990(tmp_path), players=[])
    old = record_scoring(record, jof_event=True)
    assert imported_setup(record, scoring=old).options.scoring == "jof-pre-2014"
    game = game_of_record(record, at=datetime.datetime(2026, 1, 1).timestamp(),
                          scoring=old)
    assert game.result is not None
    view = result_view(game.result)
    assert (view.score, view.scoring, view.today) == ("34.5–29.5", "jof-pre-2014", "37–27")
    assert (view.score_black, view.score_white, view.black, view.white) == (34.5, 29.5, 37, 27)
    assert game.entered_record()["result"]["score"] == "34.5–29.5"


def test_a_game_of_today_shows_one_score(tmp_path: Path) -> None:
    record = GameRecord(moves=parse_transcript(ENDS_WITH_EMPTIES), date="2019.03.02")
    game = game_of_record(record, at=datetime.datetime(2026, 1, 1).timestamp())
    assert game.result is not None
    view = result_view(game.result)
    assert (view.score, view.scoring, view.today) == ("37–27", "jof-2014", None)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "scoring.db") as c:
        yield c


def test_the_imported_1990_jof_event_and_its_record_sheet_use_the_old_scoring(
        client: TestClient, tmp_path: Path) -> None:
    data = base64.b64encode(_wthor_1990(tmp_path).read_bytes()).decode()
    response = client.post("/api/games/import", json={"format": "wthor", "data": data,
                                                      "jof_event": True})
    assert response.status_code == 201, response.text
    game = response.json()
    result = game["result"]
    assert (result["score"], result["today"], result["scoring"]) == \
        ("34.5–29.5", "37–27", "jof-pre-2014")
    sheet = client.get(f"/api/record/games/{game['id']}/sheet",
                       headers={"Authorization": f"Bearer {game['seat_token']}"})
    assert sheet.status_code == 200, sheet.text
    assert "<td>34.5</td>" in sheet.text and "<td>29.5</td>" in sheet.text


def test_a_new_game_takes_its_scoring_and_refuses_an_unknown_one(client: TestClient) -> None:
    """Two people on one screen, set up one move before :data:`ENDS_WITH_EMPTIES` ends."""
    board = Board()
    moves = parse_transcript(ENDS_WITH_EMPTIES)
    for move in moves[:-1]:
        board.push(move)
    last = board.move_name(moves[-1])
    made = client.post("/api/games", json={
        "opponent": "person", "scoring": "discs", "clock_minutes": None,
        "colour": "black" if board.turn is BLACK else "white", "position": board.to_string()})
    assert made.status_code == 201, made.text
    seat = Seat(client, made.json()["id"], made.json()["seat_token"])
    result = seat.move(last).json()["result"]
    assert (result["score"], result["scoring"], result["today"]) == ("32–27", "discs", "37–27")
    refused = client.post("/api/games", json={"opponent": "person", "scoring": "1990"})
    assert refused.status_code == 422


def test_a_ggf_game_dated_1999_is_counted_by_the_old_rule_as_a_jof_event_only() -> None:
    from hasamigo.notation import parse_ggf
    from hasamigo.notation.transcript import write_transcript

    moves = parse_transcript(ENDS_WITH_EMPTIES)
    board = Board()
    plies = []
    for move in moves:
        if not move.is_pass and board.must_pass():
            board.push(PASS)
            plies.append(("W" if board.turn is BLACK else "B") + "[PA]")
        plies.append(("B" if board.turn is BLACK else "W") + f"[{board.move_name(move)}]")
        board.push(move)
    assert write_transcript(board.move_stack).replace("pass", "") == \
        ENDS_WITH_EMPTIES.replace("pass", "")
    [record] = parse_ggf("(;GM[Othello]PB[Ann]PW[Bo]DT[1999.07.04_10:00:00]"
                         + "".join(plies) + ";)")
    game = game_of_record(record, at=datetime.datetime(2026, 1, 1).timestamp())
    assert game.result is not None and str(game.result) == "37–27"  # GGS: international
    game = game_of_record(record, at=datetime.datetime(2026, 1, 1).timestamp(),
                          scoring=record_scoring(record, jof_event=True))
    assert game.result is not None and str(game.result) == "34.5–29.5"
    assert result_view(game.result).today == "37–27"


def test_the_record_sheet_command_counts_by_its_date_or_its_scoring() -> None:
    from typer.testing import CliRunner

    from hasamigo.cli import app

    runner = CliRunner()
    old = runner.invoke(app, ["record", "sheet", ENDS_WITH_EMPTIES, "--date", "1990-05-01"])
    assert old.exit_code == 0, old.output
    assert "<td>34.5</td>" in old.stdout and "<td>29.5</td>" in old.stdout
    today = runner.invoke(app, ["record", "sheet", ENDS_WITH_EMPTIES])
    assert "<td>37</td>" in today.stdout and "<td>27</td>" in today.stdout
    plain = runner.invoke(app, ["record", "sheet", ENDS_WITH_EMPTIES, "--scoring", "discs"])
    assert "<td>32</td>" in plain.stdout and "<td>27</td>" in plain.stdout
    bad = runner.invoke(app, ["record", "sheet", ENDS_WITH_EMPTIES, "--scoring", "old"])
    assert bad.exit_code == 2 and "a scoring is" in bad.output


def test_an_import_is_counted_by_its_source_or_as_the_user_says(client: TestClient,
                                                                tmp_path: Path) -> None:
    """Per import: a WTHOR record of 1990 keeps the empties to the winner; marked a JOF
    event it takes the JOF rule of 1990; a scoring may be given instead; not both."""
    data = base64.b64encode(_wthor_1990(tmp_path).read_bytes()).decode()

    def imported(**extra: object) -> dict[str, object]:
        response = client.post("/api/games/import", json={"format": "wthor", "data": data,
                                                          **extra})
        assert response.status_code == 201, response.text
        return dict(response.json())

    plain = imported()
    assert (plain["scoring"], plain["result"]["score"], plain["result"]["today"]) == (  # type: ignore[index]
        "jof-2014", "37–27", None)
    assert imported(jof_event=True)["scoring"] == "jof-pre-2014"
    assert imported(scoring="discs")["result"]["score"] == "32–27"  # type: ignore[index]
    both = client.post("/api/games/import", json={"format": "wthor", "data": data,
                                                  "jof_event": True, "scoring": "discs"})
    assert both.status_code == 422 and "not both" in both.text
    wrong = client.post("/api/games/import", json={"format": "wthor", "data": data,
                                                   "scoring": "1990"})
    assert wrong.status_code == 422


def test_the_creator_changes_a_stored_games_count(client: TestClient, tmp_path: Path) -> None:
    """Per game: the library and the game show the count; the importing browser changes
    it and the finished game's result is counted anew, also after a restart; a caller
    without the game's token cannot."""
    data = base64.b64encode(_wthor_1990(tmp_path).read_bytes()).decode()
    made = client.post("/api/games/import", json={"format": "wthor", "data": data})
    assert made.status_code == 201, made.text
    seat = Seat(client, made.json()["id"], made.json()["seat_token"])

    def listed() -> str:
        [line] = [g for g in client.get("/api/games").json() if g["id"] == seat.id]
        return str(line["scoring"])

    assert listed() == "jof-2014"
    changed = client.post(f"/api/games/{seat.id}/scoring", json={"scoring": "jof-pre-2014"},
                          headers=seat.headers())
    assert changed.status_code == 200, changed.text
    view = changed.json()
    assert (view["scoring"], view["result"]["score"], view["result"]["today"]) == (
        "jof-pre-2014", "34.5–29.5", "37–27")
    assert listed() == "jof-pre-2014"
    assert seat.get().json()["result"]["score"] == "34.5–29.5"
    nobody = client.post(f"/api/games/{seat.id}/scoring", json={"scoring": "discs"})
    assert nobody.status_code in (401, 403)
    bad = client.post(f"/api/games/{seat.id}/scoring", json={"scoring": "old"},
                      headers=seat.headers())
    assert bad.status_code == 422
    with make_client(tmp_path / "scoring.db") as again:  # a new server on the same file
        reloaded = again.get(f"/api/games/{seat.id}", headers=seat.headers()).json()
        assert (reloaded["scoring"], reloaded["result"]["score"]) == ("jof-pre-2014",
                                                                      "34.5–29.5")


def test_the_library_command_imports_shows_and_changes_the_count(tmp_path: Path) -> None:
    """The command line: ``library import`` (the source's count, ``--jof-event``,
    ``--scoring``, not both), ``library list`` and ``show`` saying how each game is
    counted, ``library scoring`` changing it."""
    from typer.testing import CliRunner

    from hasamigo.cli import app

    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'library.db'}"
    archive = str(_wthor_1990(tmp_path))

    def cli(*args: str, code: int = 0) -> Any:
        result = runner.invoke(app, ["library", *args, "--db", db])
        assert result.exit_code == code, result.output
        return json.loads(result.stdout) if "--json" in args and code == 0 else result.output

    plain = cli("import", archive, "--json")
    assert (plain["scoring"], plain["score"], plain["today"]) == ("jof-2014", "37–27", None)
    assert "/join?code=" in plain["link"]
    old = cli("import", archive, "--jof-event", "--json")
    assert (old["scoring"], old["score"], old["today"]) == ("jof-pre-2014", "34.5–29.5",
                                                            "37–27")
    assert cli("import", archive, "--scoring", "discs", "--json")["score"] == "32–27"
    assert "not both" in cli("import", archive, "--jof-event", "--scoring", "discs", code=2)
    assert "a scoring is" in cli("import", archive, "--scoring", "old", code=2)
    listed = {g["id"]: g["scoring"] for g in cli("list", "--json")}
    assert listed[plain["id"]] == "jof-2014" and listed[old["id"]] == "jof-pre-2014"
    assert plain["id"] in cli("list") and "jof-pre-2014" in cli("list")
    assert "empties to the winner" in cli("show", plain["id"])
    changed = cli("scoring", plain["id"], "jof-pre-2014", "--json")
    assert (changed["scoring"], changed["score"]) == ("jof-pre-2014", "34.5–29.5")
    assert cli("show", plain["id"], "--json") == changed
    assert "no game" in cli("scoring", "nosuchgame", "discs", code=2)
    assert "a scoring is" in cli("scoring", plain["id"], "1990", code=2)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("A JOF event (Japan)", "as WTHOR and GGS always counted",
            "scored by the JOF rule before June 2014", "Change the count")),
    ("ja", ("日本オセロ連盟の大会の棋譜", "WTHOR や GGS が従前から数えてきたとおり",
            "2014年6月より前の日本オセロ連盟ルール", "数え方を変える"))])
def test_the_pages_show_and_offer_the_count(client: TestClient, tmp_path: Path, lang: str,
                                            words: tuple[str, ...]) -> None:
    """The library's import form offers the JOF event; the library says a game's count
    when it is not the empties to the winner; the replay page offers the change (its
    script shows it to the game's creator), in both languages."""
    data = base64.b64encode(_wthor_1990(tmp_path).read_bytes()).decode()
    made = client.post("/api/games/import", json={"format": "wthor", "data": data,
                                                  "jof_event": True})
    assert made.status_code == 201, made.text
    library = client.get(f"/library?lang={lang}").text
    assert 'id="import-jof-event"' in library and 'data-scoring="jof-pre-2014"' in library
    replay = client.get(f"/games/{made.json()['id']}/replay?lang={lang}").text
    assert 'id="scoring-form"' in replay and 'value="jof-pre-2014"' in replay
    for word in words:
        assert word in library + replay, word


def test_a_count_changed_from_the_command_line_reaches_a_running_server(
        client: TestClient, tmp_path: Path) -> None:
    """The server holds the game in memory; ``library scoring`` on its database changes the
    count, and the server's next answer has it (it compares the game's version, count
    included, with the database, as for another server process's change)."""
    from typer.testing import CliRunner

    from hasamigo.cli import app

    data = base64.b64encode(_wthor_1990(tmp_path).read_bytes()).decode()
    made = client.post("/api/games/import", json={"format": "wthor", "data": data})
    assert made.status_code == 201, made.text
    seat = Seat(client, made.json()["id"], made.json()["seat_token"])
    assert seat.get().json()["result"]["score"] == "37–27"
    changed = CliRunner().invoke(app, ["library", "scoring", seat.id, "jof-pre-2014", "--db",
                                       f"sqlite:///{tmp_path / 'scoring.db'}"])
    assert changed.exit_code == 0, changed.output
    view = seat.get().json()
    assert (view["scoring"], view["result"]["score"]) == ("jof-pre-2014", "34.5–29.5")
