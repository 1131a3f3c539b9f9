"""Ratings (issue 67): the library's figures on the 1500 scale, outcomes and exclusions,
the store (idempotent per game, both databases, two servers at once)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from hasamigo.errors import InvalidOptionError
from hasamigo.game.result import GameResult, Termination
from hasamigo.move import BLACK, WHITE
from hasamigo.ratings import Pool, RatingStore, of_result, ranked, system, two_player
from hasamigo.ratings import outcome as oc
from hasamigo.ratings.model import subject_of_account, subject_of_program
from hasamigo.storage.db import Database

A = subject_of_account("a" * 32)
B = subject_of_account("b" * 32)
C = subject_of_account("c" * 32)
D = subject_of_account("d" * 32)


def library() -> PlackettLuce:
    """The library's model as docs/ratings.md states it, made here apart from the code."""
    return PlackettLuce(mu=1500, sigma=400, beta=200, tau=4)


# ---- the maths is the library's ------------------------------------------------------------
def test_the_scale_gives_elo_odds_for_a_200_point_gap_once_settled() -> None:
    (p, q) = system.win_chances([(1700.0, 0.0), (1500.0, 0.0)])
    assert p == pytest.approx(0.76, abs=0.001)  # Elo's table: 200 points, 76 %
    assert p + q == pytest.approx(1.0)


def test_a_win_a_draw_and_a_four_player_game_move_ratings_by_the_librarys_figures(
        db: Database) -> None:
    store = RatingStore(db)
    model = library()
    a, b = model.rating(), model.rating()
    [[a], [b]] = model.rate([[a], [b]], ranks=[0, 1])  # A beats B
    changes = store.record("game:1", two_player(Pool.OTHELLO, A, B, winner=0))
    assert [c.after.mu for c in changes] == pytest.approx([a.mu, b.mu])
    assert [c.after.sigma for c in changes] == pytest.approx([a.sigma, b.sigma])
    assert changes[0].delta > 0 > changes[1].delta and changes[0].score == 1.0
    [[b], [a]] = model.rate([[b], [a]], ranks=[0, 0])  # then a draw, B as Black
    store.record("game:2", two_player(Pool.OTHELLO, B, A, winner=None))
    assert store.current(A, Pool.OTHELLO).mu == pytest.approx(a.mu)
    assert store.current(B, Pool.OTHELLO).sigma == pytest.approx(b.sigma)
    assert store.current(A, Pool.OTHELLO).games == 2

    four = [model.rating() for _ in range(4)]
    expected = model.rate([[r] for r in four], ranks=[1, 0, 3, 1])
    store.record("multi:1", ranked(Pool.MULTI4, (A, B, C, D), (15, 20, 5, 15)))
    got = store.current_many([A, B, C, D], Pool.MULTI4)
    assert [got[s].mu for s in (A, B, C, D)] == pytest.approx([t[0].mu for t in expected])
    # the pools are apart: the four-player game did not move the Othello numbers
    assert store.current(C, Pool.OTHELLO).games == 0
    assert store.current(A, Pool.OTHELLO).mu == pytest.approx(a.mu)


def test_a_game_is_rated_once_and_its_history_keeps_before_and_after(db: Database) -> None:
    store = RatingStore(db)
    first = store.record("game:x", two_player(Pool.OTHELLO, A, B, winner=1))
    again = store.record("game:x", two_player(Pool.OTHELLO, A, B, winner=1))
    assert [(c.subject, c.after.mu) for c in again] == [(c.subject, c.after.mu) for c in first]
    assert store.current(A, Pool.OTHELLO).games == 1
    store.record("game:y", two_player(Pool.OTHELLO, A, B, winner=0))
    history = store.history(A, Pool.OTHELLO)
    assert [c.game_ref for c in history] == ["game:x", "game:y"]
    assert history[1].before.mu == pytest.approx(history[0].after.mu)
    assert history[0].before.mu == system.START_MU and history[0].score == 0.0
    assert [c.subject for c in store.changes_of("game:x")] == [A, B]


def test_two_servers_rating_one_game_at_once_rate_it_once(db: Database, tmp_path: Path
                                                          ) -> None:
    other = Database(db.url)  # another server's engine on the same database
    stores = [RatingStore(db), RatingStore(other)]
    barrier = threading.Barrier(2)
    results: list[object] = []

    def rate(store: RatingStore) -> None:
        barrier.wait()
        results.append(store.record("game:race", two_player(Pool.OTHELLO, A, B, winner=0)))

    threads = [threading.Thread(target=rate, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert len(results) == 2
    assert RatingStore(db).current(A, Pool.OTHELLO).games == 1
    assert len(RatingStore(db).changes_of("game:race")) == 2


def test_forgetting_a_subject_leaves_the_opponents_history(db: Database) -> None:
    store = RatingStore(db)
    store.record("game:1", two_player(Pool.OTHELLO, A, B, winner=0))
    assert store.forget(A) == 2
    assert store.current(A, Pool.OTHELLO).games == 0 and store.history(A, Pool.OTHELLO) == []
    assert len(store.history(B, Pool.OTHELLO)) == 1


# ---- outcomes and exclusions ---------------------------------------------------------------
def test_outcomes_place_the_players() -> None:
    assert two_player(Pool.OTHELLO, A, B, winner=None).ranks == (0, 0)
    assert ranked(Pool.ROLIT, (A, B, C), (10, 30, 10)).ranks == (1, 0, 1)
    assert ranked(Pool.MULTI4, (A, B, C, D), (10, 30, 10, 5)).score(0) == pytest.approx(0.5)
    # a 32-32 game the draw-win holder wins is rated as the draw it was on the board
    draw_win = GameResult(32, 32, WHITE, by_draw_win=True)
    assert of_result(Pool.OTHELLO, A, B, draw_win).ranks == (0, 0)
    assert of_result(Pool.OTHELLO, A, B, GameResult(40, 24, BLACK)).ranks == (0, 1)
    with pytest.raises(ValueError, match="once per game"):
        two_player(Pool.OTHELLO, A, A, winner=0)
    with pytest.raises(InvalidOptionError):
        two_player(Pool.OTHELLO, "account:nobody", B, winner=0)
    with pytest.raises(ValueError, match="two players"):
        ranked(Pool.OTHELLO, (A, B, C), (1, 2, 3))


def test_the_jof_exclusions_say_why_in_both_languages() -> None:
    late = GameResult(0, 64, WHITE, Termination.FORFEIT, rated=False)
    flags = GameResult(32, 32, None, Termination.BOTH_FLAGS, rated=False)
    assert oc.result_exclusion(late) is oc.LATE_FORFEIT
    assert oc.result_exclusion(flags) is oc.BOTH_FLAGS
    assert oc.result_exclusion(GameResult(0, 64, WHITE, Termination.PENALTY)) is None
    assert oc.result_exclusion(GameResult(33, 31, BLACK, Termination.TIMEOUT)) is None
    assert oc.card_exclusion(played=False, late=False, rated=True) is oc.NOT_PLAYED
    assert oc.card_exclusion(played=True, late=True, rated=False) is oc.LATE_FORFEIT
    assert oc.card_exclusion(played=True, late=False, rated=False) is oc.MARKED_NOT_RATED
    for exclusion in oc.EXCLUSIONS.values():
        ja = exclusion.text("ja")
        assert ja != exclusion.en and ja.strip(), exclusion.code
        assert exclusion.as_json("en") == {"code": exclusion.code, "reason": exclusion.en}
    assert "13" in oc.LATE_FORFEIT.text("ja") and "16" in oc.BOTH_FLAGS.text("ja")


def test_subjects_are_checked() -> None:
    assert subject_of_program("Engine:5") == "program:engine:5"
    with pytest.raises(InvalidOptionError):
        subject_of_program("nboard:/bin/edax")
    with pytest.raises(InvalidOptionError):
        subject_of_account("NOT-HEX")
    with pytest.raises(InvalidOptionError, match="pools"):
        Pool.parse("chess")
