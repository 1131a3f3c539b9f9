"""JOF rule 21 in a tournament: the arbiter declares a loss by penalty (反則負け) with its
reason, on a board's result or through the game played over the board; the result, the
standings and the audit log show it. Time taken off a clock is the game's own event (see
tests/test_game_procedure_otb_arbiter.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from hasamigo import BLACK, WHITE
from hasamigo.game.controller import GameController
from hasamigo.game.result import Termination
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage import Database, GameRepository
from hasamigo.tournament import BoardResult, PairingKind, Settings, Tournament, TournamentError
from hasamigo.tournament.service import TournamentService

REASON = "a phone rang and was used during the game (rule 29)"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TournamentService]:
    db = Database(f"sqlite:///{tmp_path}/t.db")
    yield TournamentService.open(db)
    db.close()


def paired(service: TournamentService) -> tuple[str, list[tuple[int, int, int]]]:
    info = service.create("Club night", Settings("swiss", rounds=3, seed=2))
    for name in ("Ann", "Ben", "Cho", "Dai"):
        service.register(info.id, name)
    service.pair_next_round(info.id)
    t = service.tournament(info.id)
    boards = [(p.board, p.a, p.b) for p in t.pairings[1] if p.kind is PairingKind.GAME]
    return info.id, boards  # type: ignore[return-value]


def test_a_loss_by_penalty_is_its_own_result_with_its_reason() -> None:
    t = Tournament(Settings("swiss", rounds=3, seed=2))
    for name in ("Ann", "Ben"):
        t.register(name)
    [p] = t.pair_next_round()
    assert p.b is not None
    with pytest.raises(TournamentError, match="needs its reason"):
        t.make_result(1, 1, penalty_loser=p.a, reason="  ")
    with pytest.raises(TournamentError, match="no disc counts"):
        t.make_result(1, 1, penalty_loser=p.a, reason=REASON, black_discs=40,
                      white_discs=24)
    with pytest.raises(TournamentError, match="a reason goes with a loss by penalty"):
        t.make_result(1, 1, black_discs=40, white_discs=24, reason=REASON)
    result = t.enter_result(1, 1, penalty_loser=p.a, reason=REASON)
    assert result.winner == p.b and result.reason == REASON
    assert (result.result.black, result.result.white, result.result.termination) == \
        (0, 64, Termination.PENALTY)
    assert BoardResult.from_json(result.to_json()) == result
    game = t.game(1, 1)
    assert (game.kind.value, game.winner, game.points_of(p.b), game.points_of(p.a)) == \
        ("penalty", p.b, 1.0, 0.0)
    # the game was sat with its colours: the colour history counts it (a forfeit's not)
    colours = {c.number: c.colours for c in t.candidates([p.a, p.b], 1)}
    assert colours == {p.a: (BLACK,), p.b: (WHITE,)}


def test_the_director_declares_it_and_the_standings_and_audit_log_show_it(
        service: TournamentService) -> None:
    tid, [(b1, a1, z1), (b2, a2, z2)] = paired(service)
    service.enter_result(tid, 1, b1, black_discs=40, white_discs=24)
    with pytest.raises(TournamentError, match="needs its reason"):
        service.penalty_loss(tid, 1, b1, a1, reason="")
    view = service.penalty_loss(tid, 1, b1, a1, reason=REASON, who="arbiter")  # replaces
    assert (view.kind, view.winner, view.reason, view.black_discs) == \
        ("penalty", service.tournament(tid).name(z1), REASON, 0)
    fresh = service.penalty_loss(tid, 1, b2, z2, reason="touched the board (rule 8)")
    assert fresh.kind == "penalty" and fresh.winner == service.tournament(tid).name(a2)
    audit = service.audit(tid)
    assert [(e.action, e.board, e.reason, e.who) for e in audit[-2:]] == [
        ("penalty", b1, REASON, "arbiter"), ("penalty", b2, "touched the board (rule 8)",
                                             "director")]
    assert audit[-2].before["black_discs"] == 40 and audit[-2].after["reason"] == REASON
    rows = {r.number: r for r in service.standings(tid)}
    assert rows[a1].penalties == (f"round 1: {REASON}",)
    assert rows[z2].penalties == ("round 1: touched the board (rule 8)",)
    assert rows[z1].penalties == rows[a2].penalties == ()
    assert rows[z1].wins == 1.0 and rows[a1].wins == 0.0
    stored = service.tournament(tid).results[1, b1]  # read back from the database
    assert stored.reason == REASON and stored.result.penalty


def test_a_game_lost_by_penalty_over_the_board_becomes_the_boards_result(
        service: TournamentService) -> None:
    tid, [(board, a, b), _] = paired(service)
    t = service.tournament(tid)
    setup = GameSetup((Participant(t.name(a)), Participant(t.name(b))),
                      GameOptions(casual=False, clock_seconds=600.0), "black")
    game = GameController.new(setup, rng=random.Random(5), game_id="penalised")
    game.declare_over_the_board()
    game.press(WHITE)
    game.penalise(BLACK, "took back a move (待った, rule 6③)", seconds=60)
    game.penalise(BLACK, REASON, loss=True)
    GameRepository(service.repo.db).create(game, public=False)
    view = service.link_game(tid, 1, board, game.id, who="arbiter")
    assert (view.kind, view.winner, view.reason, view.game_id) == \
        ("penalty", t.name(b), REASON, "penalised")
    assert service.audit(tid)[-1].action == "penalty"


def test_eligibility_and_a_penalty_from_the_command_line(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from hasamigo.cli import app

    db = f"sqlite:///{tmp_path / 'cli.db'}"
    runner = CliRunner()

    def cli(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, ["tournament", *args, "--db", db])
        assert result.exit_code == code, result.output
        return result.output

    cli("new", "Masters", "--format", "master", "--date", "2023-03-18")
    refused = cli("enter", "Masters", "Kid", "--born", "2015-04-02", code=2)
    assert "40 or older on 2023-03-18" in refused
    cli("enter", "Masters", "Kid", "--born", "2015-04-02", "--override", "guest")
    for name, born in (("Ann", "1970-01-01"), ("Ben", "1960-05-05"), ("Cid", "1975-07-07")):
        cli("enter", "Masters", name, "--born", born)
    paired = json.loads(cli("pair", "Masters", "--json"))
    board = next(g for g in paired["games"] if g["kind"] == "played")
    cli("result", "Masters", str(board["board"]), "--penalty", board["black"], code=2)
    out = cli("result", "Masters", str(board["board"]), "--penalty", board["black"],
              "--reason", REASON)
    assert "lost by penalty" in out and "(penalty)" in out


def test_a_knockout_game_lost_by_penalty_needs_no_draw_win_holder() -> None:
    t = Tournament(Settings("knockout", seed=1))
    for name in ("Ann", "Ben"):
        t.register(name)
    [p] = t.pair_next_round()
    with pytest.raises(TournamentError, match="draw-win"):
        t.make_result(1, 1, black=p.a, black_discs=40, white_discs=24)
    result = t.enter_result(1, 1, black=p.a, penalty_loser=p.a, reason=REASON)
    assert result.winner == p.b and result.draw_win is None
