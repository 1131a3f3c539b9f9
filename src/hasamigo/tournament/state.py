"""A tournament as the fold of its facts: settings, entrants, pairings and results.

:class:`Tournament` holds exactly what is stored (see :mod:`hasamigo.tournament.model`)
and derives everything else (games, standings, the order each round is paired from, the
final ranking, awards) from it; its format (:mod:`hasamigo.tournament.formats`) decides
what the next round is. Its methods check a request against the rules and return the new
fact, or raise :class:`~hasamigo.tournament.model.TournamentError` changing nothing; the
service (:mod:`hasamigo.tournament.service`) stores what they return.

Standings follow the 43rd Meijin rules' order: more wins (a draw ½), then more
Brightwell points, then the better previous rank, where the previous rank is the place in
the standings after the round before (before round 1: :func:`initial_order`). So the
order after each round is computed from the one before, and ties never stay ties.

>>> t = Tournament(Settings("swiss", rounds=3, seed=1))
>>> for name in ("Ann", "Ben", "Cid", "Dee"):
...     _ = t.register(name)
>>> [p.board for p in t.pair_next_round()]
[1, 2]
>>> g = t.pairings[1][0]
>>> t.enter_result(1, 1, black_discs=40, white_discs=24).winner == g.a
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from hasamigo.errors import InvalidOptionError
from hasamigo.game.result import Termination, penalty_loss, result_card
from hasamigo.game.result import forfeit as forfeit_result
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.tournament.awards import Award
from hasamigo.tournament.brightwell import (
    Brightwell,
    brightwell_points,
    counting,
    nearest_c,
    wins,
)
from hasamigo.tournament.eligibility import refusals
from hasamigo.tournament.formats import make_format
from hasamigo.tournament.model import (
    BoardResult,
    Colours,
    Entrant,
    Game,
    GameKind,
    Pairing,
    PairingKind,
    Settings,
    TournamentError,
    initial_order,
    parse_date,
)
from hasamigo.tournament.pairing import Candidate

#: Longest tournament name.
NAME_LENGTH = 120
#: Most entrants a tournament takes.
MAX_ENTRANTS = 2000
#: Longest reason for a loss by penalty.
REASON_LENGTH = 500
#: Games sat at the board with their colours (a loss by penalty too; a forfeit not): what
#: a player's colour history counts.
PLAYED_AT_THE_BOARD = frozenset({GameKind.PLAYED, GameKind.PENALTY})


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the standings after a round."""

    place: int
    number: int
    name: str
    wins: float
    games: int
    brightwell: Brightwell
    woman: bool
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Placing:
    """A line of the final (or provisional) ranking, with the award it earns."""

    place: int
    number: int
    name: str
    wins: float
    brightwell: float
    woman: bool
    award: Award
    women_champion: bool = False


class Tournament:
    """See the module docstring. Build one from stored facts with the constructor."""

    def __init__(self, settings: Settings, entrants: Iterable[Entrant] = (),
                 pairings: Iterable[Pairing] = (),
                 results: Mapping[tuple[int, int], BoardResult] | None = None) -> None:
        self.settings = settings
        self.format = make_format(settings)
        self.entrants: dict[int, Entrant] = {e.number: e for e in entrants}
        self.pairings: dict[int, list[Pairing]] = {}
        for p in sorted(pairings, key=lambda p: (p.round, p.board)):
            self.pairings.setdefault(p.round, []).append(p)
        self.results: dict[tuple[int, int], BoardResult] = dict(results or {})
        self._cache: dict[str, Any] = {}

    # ---- basics ----------------------------------------------------------------------------
    @property
    def rounds_paired(self) -> int:
        return max(self.pairings, default=0)

    @property
    def total_rounds(self) -> int:
        return self.format.total_rounds(self)

    @property
    def c(self) -> int:
        """Brightwell's C: the setting, else the integer nearest to 64 ÷ games."""
        if self.settings.c is not None:
            return self.settings.c
        return nearest_c(max(1, self.format.brightwell_games(self)))

    def entrant(self, number: int) -> Entrant:
        try:
            return self.entrants[number]
        except KeyError:
            raise TournamentError(f"no entrant number {number}") from None

    def find(self, name_or_number: str | int) -> Entrant:
        """An entrant by number or by name (exact, then ignoring case)."""
        if isinstance(name_or_number, int) or str(name_or_number).isdigit():
            return self.entrant(int(name_or_number))
        text = str(name_or_number)
        for exact in (True, False):
            for e in self.entrants.values():
                if (e.name == text) if exact else (e.name.casefold() == text.casefold()):
                    return e
        raise TournamentError(f"no entrant named {text!r}")

    def name(self, number: int | None) -> str:
        return "" if number is None else self.entrant(number).name

    def active(self, round_number: int) -> list[int]:
        """The entrants who are paired in ``round_number`` (not withdrawn), by number."""
        return [n for n, e in sorted(self.entrants.items()) if e.plays_in(round_number)]

    def round_complete(self, round_number: int) -> bool:
        return all(p.kind is not PairingKind.GAME or (p.round, p.board) in self.results
                   for p in self.pairings.get(round_number, []))

    @property
    def finished(self) -> bool:
        return (self.rounds_paired > 0 and self.rounds_paired >= self.total_rounds
                and self.round_complete(self.rounds_paired))

    @property
    def state(self) -> str:
        """``registration`` (before round 1), ``playing`` or ``finished``."""
        if not self.pairings:
            return "registration"
        return "finished" if self.finished else "playing"

    def pairing(self, round_number: int, board: int) -> Pairing:
        for p in self.pairings.get(round_number, []):
            if p.board == board:
                return p
        raise TournamentError(f"round {round_number} has no board {board}")

    def _changed(self) -> None:
        self._cache.clear()

    # ---- games -----------------------------------------------------------------------------
    def games(self, through: int | None = None) -> list[Game]:
        """Every pairing with its result, in round and board order (up to ``through``)."""
        key = f"games:{through}"
        if key not in self._cache:
            self._cache[key] = [self._game(p) for r in sorted(self.pairings)
                                if through is None or r <= through
                                for p in self.pairings[r]]
        out: list[Game] = self._cache[key]
        return out

    def _game(self, p: Pairing) -> Game:
        if p.kind is PairingKind.BYE:
            return Game(p.round, p.board, p.stage, p.a, None, GameKind.BYE, 32, None, p.a,
                        True, p.colours, why=p.why)
        assert p.b is not None
        if p.kind is PairingKind.NOT_PLAYED_DRAW:
            return Game(p.round, p.board, p.stage, p.a, p.b, GameKind.NOT_PLAYED_DRAW, 32,
                        32, None, True, p.colours, rated=False, why=p.why)
        result = self.results.get((p.round, p.board))
        if result is None:
            return Game(p.round, p.board, p.stage, p.a, p.b, GameKind.PLAYED, None, None,
                        None, False, p.colours, why=p.why)
        r = result.result
        kind = GameKind.FORFEIT if r.forfeit else GameKind.PENALTY if r.penalty \
            else GameKind.PLAYED
        return Game(p.round, p.board, p.stage, result.black, result.white, kind,
                    r.black, r.white,
                    result.winner, True, p.colours, r.rated, result.draw_win, result.game_id,
                    why=p.why, result=result)

    def game(self, round_number: int, board: int) -> Game:
        return self._game(self.pairing(round_number, board))

    # ---- seeding ---------------------------------------------------------------------------
    def initial_order(self) -> list[int]:
        """The order before round 1 by the tournament's ``seeding`` (:func:`initial_order`)."""
        return initial_order(list(self.entrants.values()),
                             by_rating=self.settings.seeding == "rating")

    def seeds(self) -> frozenset[int]:
        """The seeds: those the director marked, and the ``rating_seeds`` highest rated
        entrants (ties by registration)."""
        marked = {n for n, e in self.entrants.items() if e.seed}
        rated = sorted((e for e in self.entrants.values()
                        if e.rating is not None and not e.withdrawn),
                       key=lambda e: (-(e.rating or 0), e.number))
        return frozenset(marked | {e.number for e in rated[:self.settings.rating_seeds]})

    # ---- standings -------------------------------------------------------------------------
    def orders(self) -> list[list[int]]:
        """The order before round 1 and after each paired round (index = round)."""
        if "orders" not in self._cache:
            withdrawn = {n for n, e in self.entrants.items() if e.withdrawn}
            everyone = list(self.entrants)
            order = self.initial_order()
            orders = [order]
            scores: list[tuple[dict[int, float], dict[int, Brightwell]]] = [
                ({}, brightwell_points((), self.c, players=everyone))]
            for r in range(1, self.rounds_paired + 1):
                games = counting(self.games(through=r))
                won = wins(games)
                bw = brightwell_points(games, self.c, withdrawn=withdrawn, players=everyone)
                before = {n: i for i, n in enumerate(order)}
                order = sorted(everyone, key=lambda n: (-won.get(n, 0.0), -bw[n].total,
                                                        before[n]))
                orders.append(order)
                scores.append((won, bw))
            self._cache["orders"] = orders
            self._cache["scores"] = scores
        out: list[list[int]] = self._cache["orders"]
        return out

    def order(self, after: int | None = None) -> list[int]:
        """Entrant numbers in standings order after round ``after`` (default: the last)."""
        orders = self.orders()
        after = len(orders) - 1 if after is None else after
        if not 0 <= after < len(orders):
            raise TournamentError(f"round {after} is not paired")
        return orders[after]

    def standings(self, after: int | None = None) -> list[Standing]:
        """The standings after round ``after`` (default: the last paired; unfinished
        games count nothing yet), with wins and the parts of Brightwell points."""
        order = self.order(after)
        after = len(self.orders()) - 1 if after is None else after
        won, bw = self._cache["scores"][after]
        games = counting(self.games(through=after))
        played: dict[int, int] = {}
        for g in games:
            for n in g.players:
                played[n] = played.get(n, 0) + 1
        return [Standing(i, n, self.entrants[n].name, won.get(n, 0.0), played.get(n, 0),
                         bw[n], self.entrants[n].woman, self.entrants[n].withdrawn)
                for i, n in enumerate(order, 1)]

    def scores(self, after: int | None = None) -> tuple[dict[int, float], dict[int, Brightwell]]:
        """(wins, Brightwell) of every entrant after round ``after``."""
        self.orders()
        scores: list[tuple[dict[int, float], dict[int, Brightwell]]] = self._cache["scores"]
        return scores[len(scores) - 1 if after is None else after]

    def candidates(self, players: Iterable[int], after: int) -> list[Candidate]:
        """What the Swiss pairing needs of ``players``, from the standings after round
        ``after``: their place, wins, Brightwell points, opponents, colours and byes."""
        order = self.order(after)
        place = {n: i for i, n in enumerate(order)}
        won, bw = self.scores(after)
        opponents: dict[int, set[int]] = {}
        colours: dict[int, list[Color]] = {}
        byes: dict[int, int] = {}
        for g in self.games(through=after):
            if not g.stage.counts:
                continue
            if g.kind is GameKind.BYE:
                byes[g.black] = byes.get(g.black, 0) + 1
                continue
            assert g.white is not None
            opponents.setdefault(g.black, set()).add(g.white)
            opponents.setdefault(g.white, set()).add(g.black)
            if g.kind in PLAYED_AT_THE_BOARD and g.colours is Colours.PRESCRIBED:
                colours.setdefault(g.black, []).append(BLACK)
                colours.setdefault(g.white, []).append(WHITE)
        ranked = sorted(players, key=lambda n: place[n])
        seeds = self.seeds()
        return [Candidate(n, self.entrants[n].name, won.get(n, 0.0), bw[n].total, i,
                          frozenset(opponents.get(n, ())), tuple(colours.get(n, ())),
                          byes.get(n, 0), n in seeds)
                for i, n in enumerate(ranked)]

    def ranking(self) -> list[Placing]:
        """The final ranking (provisional until the tournament is finished) with awards
        and the women's champion (女流名人)."""
        order = self.format.final_order(self)
        won, bw = self.scores()
        queen = self.format.women_champion(self, order)
        out = []
        for place, n in enumerate(order, 1):
            e = self.entrants[n]
            out.append(Placing(place, n, e.name, won.get(n, 0.0), bw[n].total, e.woman,
                               self.format.award(self, place, n), n == queen))
        return out

    # ---- requests --------------------------------------------------------------------------
    def register(self, name: str, *, rank: str | None = None, birth_year: int | None = None,
                 woman: bool = False, seed: bool = False, division: str | None = None,
                 program: str | None = None, born: str | None = None,
                 student: bool | None = None, school_year: int | None = None,
                 account_id: str | None = None, rating: int | None = None) -> Entrant:
        """A new entrant; late registration is taken until round 1 is paired. ``born``
        (a birth date) gives ``birth_year`` when that is not given. Whether the entrant
        may enter the tournament's division is :meth:`refusals`' (the service checks).
        ``account_id``: an account entering itself (once per tournament)."""
        if self.pairings:
            raise TournamentError("registration closed when round 1 was paired")
        if len(self.entrants) >= MAX_ENTRANTS:
            raise TournamentError(f"at most {MAX_ENTRANTS} entrants")
        name = name.strip() if isinstance(name, str) else name
        if account_id is not None and any(e.account_id == account_id
                                          for e in self.entrants.values()):
            raise TournamentError("this account is registered already")
        if any(e.name.casefold() == str(name).casefold() for e in self.entrants.values()):
            raise TournamentError(f"{name!r} is registered already")
        if program is not None:
            from hasamigo.engine.players import make_player

            try:
                make_player(program)
            except InvalidOptionError as exc:
                raise TournamentError(str(exc)) from None
        number = max(self.entrants, default=0) + 1
        if born is not None and birth_year is None:
            birth_year = parse_date(born, "a birth date").year
        entrant = Entrant(number, name, rank or None, birth_year, woman, seed, division,
                          program, born=born or None, student=student,
                          school_year=school_year, account_id=account_id, rating=rating)
        self.entrants[number] = entrant
        self._changed()
        return entrant

    def refusals(self, entrant: Entrant, today: date | None = None) -> list[str]:
        """Why ``entrant`` may not enter this tournament's division (empty: it may), on
        the tournament's date, else ``today`` (see :mod:`hasamigo.tournament.eligibility`)."""
        day = (parse_date(self.settings.date, "the tournament's date")
               if self.settings.date is not None else today or date.today())
        return refusals(getattr(self.format, "division", None), entrant, on=day)

    def withdraw(self, who: str | int) -> Entrant:
        """Withdraw an entrant from the next round to be paired on (at any time). A game
        of theirs already paired stays; enter it (a forfeit, if it is not played)."""
        entrant = self.find(who)
        if entrant.withdrawn:
            raise TournamentError(f"{entrant.name} has withdrawn already")
        entrant = entrant.withdraw(self.rounds_paired + 1)
        self.entrants[entrant.number] = entrant
        self._changed()
        return entrant

    def pair_next_round(self) -> list[Pairing]:
        """Pair the next round by the format's rules; the round before must be complete."""
        number = self.rounds_paired + 1
        if number > 1 and not self.round_complete(number - 1):
            missing = [p.board for p in self.pairings[number - 1]
                       if p.kind is PairingKind.GAME
                       and (p.round, p.board) not in self.results]
            raise TournamentError(f"round {number - 1} is not complete: boards "
                                  f"{', '.join(map(str, missing))} have no result")
        if number > self.total_rounds:
            raise TournamentError("the tournament is finished: every round is paired")
        if len(self.active(number)) < 2:
            raise TournamentError("at least two entrants are needed")
        rng = random.Random(f"hasamigo-tournament:{self.settings.seed}:{number}")
        pairings = self.format.plan_round(self, number, rng)
        if not pairings:
            raise TournamentError(f"round {number} has nobody to pair")
        self.pairings[number] = pairings
        self._changed()
        return pairings

    def unpair_last_round(self) -> list[Pairing]:
        """Take back the last round's pairing, while none of its results is entered."""
        number = self.rounds_paired
        if not number:
            raise TournamentError("no round is paired")
        if any(r == number for r, _ in self.results):
            raise TournamentError(f"round {number} has results: correct them instead")
        removed = self.pairings.pop(number)
        self._changed()
        return removed

    def make_result(self, round_number: int, board: int, *, black_discs: int | None = None,
                    white_discs: int | None = None, black: str | int | None = None,
                    draw_win: str | int | None = None, forfeit_loser: str | int | None = None,
                    late: bool = False, rated: bool = True,
                    termination: Termination = Termination.NORMAL,
                    game_id: str | None = None, penalty_loser: str | int | None = None,
                    reason: str | None = None) -> BoardResult:
        """The result a card (or a forfeit) gives for a board, checked, not yet entered.

        A card's counts are read by :func:`hasamigo.game.result.result_card`: counts
        that do not add up to 64 count against the winner (JOF rule 18). ``black`` says
        who played Black in a fuse-ishi game; ``draw_win`` who held the draw-win right
        (required in games without draws: a 32–32 game is theirs). ``forfeit_loser``:
        a forfeit, 64–0 to the other; ``late``: a late player's chosen forfeit (rule 13,
        not rated); ``rated=False``: a card the rules keep out of ratings (both flags
        down, rule 16); ``termination``: how a game stored with its moves ended (a card
        alone says nothing of it; a forfeit is ``forfeit_loser``); ``penalty_loser``: a
        loss by penalty (反則負け, rule 21) the arbiter declared, scored like a forfeit,
        with its ``reason`` (required)."""
        p = self.pairing(round_number, board)
        if p.kind is not PairingKind.GAME:
            raise TournamentError(f"round {round_number} board {board} is a "
                                  f"{p.kind.value.replace('_', ' ')}: nothing to enter")
        assert p.b is not None
        players = (p.a, p.b)
        black_n = p.a
        if p.colours is Colours.FUSE_ISHI:
            if black is None:
                raise TournamentError("colours were decided by fuse-ishi: say who played "
                                      "Black")
            black_n = self._one_of(black, players, "Black")
        elif black is not None and self._one_of(black, players, "Black") != p.a:
            raise TournamentError(f"colours are prescribed: {self.name(p.a)} plays Black")
        white_n = p.b if black_n == p.a else p.a
        holder = None
        if not p.draws_allowed:
            if draw_win is None and penalty_loser is None:  # a penalty decides without it
                raise TournamentError("no draws in this game: say who held the draw-win "
                                      "right (引き分け勝ち)")
            if draw_win is not None:
                holder = self._one_of(draw_win, players, "the draw-win right")
        elif draw_win is not None:
            raise TournamentError("this game allows draws: nobody holds a draw-win right")
        if penalty_loser is not None:
            if forfeit_loser is not None or black_discs is not None \
                    or white_discs is not None or late:
                raise TournamentError("a loss by penalty has no disc counts and is no "
                                      "forfeit")
            why = reason.strip() if isinstance(reason, str) else ""
            if not why or len(why) > REASON_LENGTH:
                raise TournamentError("a loss by penalty (反則負け) needs its reason, at most "
                                      f"{REASON_LENGTH} characters")
            loser = self._one_of(penalty_loser, players, "the penalty")
            score = penalty_loss(BLACK if loser == black_n else WHITE)
            return BoardResult(black_n, white_n, score, holder, game_id, why)
        if reason is not None:
            raise TournamentError("a reason goes with a loss by penalty (a correction's "
                                  "reason is the correction's)")
        if termination is Termination.PENALTY:
            raise TournamentError("a loss by penalty is entered with its loser and reason")
        if forfeit_loser is not None:
            if black_discs is not None or white_discs is not None:
                raise TournamentError("a forfeit has no disc counts")
            loser = self._one_of(forfeit_loser, players, "the forfeit")
            winner_colour = WHITE if loser == black_n else BLACK
            score = forfeit_result(winner_colour, rated=not late)
            return BoardResult(black_n, white_n, score, holder, game_id)
        if late:
            raise TournamentError("--late goes with a forfeit (the late player's choice)")
        if termination is Termination.FORFEIT:
            raise TournamentError("a forfeit is entered with its loser, not disc counts")
        if black_discs is None or white_discs is None:
            raise TournamentError("a result card has both disc counts")
        try:
            card = result_card(black_discs, white_discs)
        except InvalidOptionError as exc:
            raise TournamentError(str(exc)) from None
        if card.winner is None and holder is not None:  # 32–32: the holder's (引き分け勝ち)
            card = replace(card, winner=BLACK if holder == black_n else WHITE, by_draw_win=True)
        return BoardResult(black_n, white_n, replace(card, termination=termination,
                                                     rated=rated), holder, game_id)

    def enter_result(self, round_number: int, board: int, **card: Any) -> BoardResult:
        """Enter a board's first result (see :meth:`make_result`)."""
        if (round_number, board) in self.results:
            raise TournamentError(f"round {round_number} board {board} has a result: "
                                  "correct it (with a reason) instead")
        result = self.make_result(round_number, board, **card)
        self.results[round_number, board] = result
        self._changed()
        return result

    def correct_result(self, round_number: int, board: int,
                       **card: Any) -> tuple[BoardResult, BoardResult]:
        """Replace an entered result; returns (before, after). Standings follow; pairings
        already made stay. A knockout game's winner cannot change once the next round is
        paired (they have played on)."""
        before = self.results.get((round_number, board))
        if before is None:
            raise TournamentError(f"round {round_number} board {board} has no result to "
                                  "correct")
        after = self.make_result(round_number, board, **card)
        stage = self.pairing(round_number, board).stage
        if (not stage.counts and after.winner != before.winner
                and self.rounds_paired > round_number):
            raise TournamentError("the winner of a knockout game cannot change after the "
                                  "next round is paired")
        self.results[round_number, board] = after
        self._changed()
        return before, after

    def _one_of(self, who: str | int, players: tuple[int, int], what: str) -> int:
        number = self.find(who).number
        if number not in players:
            raise TournamentError(f"{self.name(number)} is not in this game ({what})")
        return number


__all__ = ["Placing", "Settings", "Standing", "Tournament"]
