"""The arbiter's sanctions on a disruptive person: caution, warning, removal (JOF rule 21).

The 43rd Meijin-sen rules, rule 21, in full (:data:`RULE_21`)::

    21 審判員は、不正を行った対局者に罰則として持ち時間減や反則負けを宣告できる。また、円滑で
    公正な大会運営を妨げる人物に注意、警告を与え、退場を命じることができる。

Its first sentence is the time deduction (持ち時間減, on the game's clock: see
:mod:`hasamigo.game.procedures`) and the loss by penalty (反則負け,
:meth:`~hasamigo.tournament.service.TournamentService.penalty_loss`). This module is the
second: 「円滑で公正な大会運営を妨げる人物に注意、警告を与え、退場を命じることができる」 — a
caution (注意), a warning (警告), and removal (退場) of any **person** who disturbs the
smooth and fair running of the tournament: an entrant, or someone else (a spectator, a
companion), named as the director writes it.

A sanction names the person, its kind, the reason, the round and board if it happened at
one, and when and by whom it was given. It is a fact of the tournament's record, stored as
an entry of the audit log (action ``sanction``) so that it is kept with who, when and why
like every other change, and never edited: a mistaken one is answered by a note, not
erased.

Where the rule is silent, the project's reading (labelled so wherever it is shown):

* the rule gives no order: a removal need not follow a warning, nor a warning a caution;
* the removal of an **entrant** withdraws them from the next round to be paired (a game of
  theirs already paired stays, to be entered: a forfeit or a loss by penalty if the
  director declares one); a caution or a warning changes no result;
* the loss by penalty is scored 64–0 and **rated** (:data:`PENALTY_RATING_READING`): the
  rules say neither how it is scored nor whether it is rated.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hasamigo.tournament.model import Entrant, TournamentError
from hasamigo.tournament.state import Tournament

#: the seed's sentence (the 43rd Meijin-sen rules, rule 21), quoted in full
RULE_21 = ("審判員は、不正を行った対局者に罰則として持ち時間減や反則負けを宣告できる。また、"
           "円滑で公正な大会運営を妨げる人物に注意、警告を与え、退場を命じることができる。")
#: what the project reads into the rules' silence on a loss by penalty's rating
PENALTY_RATING_READING = ("The project's reading: rule 21 does not say how a loss by "
                          "penalty is scored or whether it is rated; it is scored 64–0 "
                          "like a forfeit and rated.")
#: the longest name of a person sanctioned who is not an entrant (an entrant's name's bound)
PERSON_LENGTH = 40
#: the longest reason (as a loss by penalty's)
REASON_LENGTH = 500


class SanctionKind(enum.Enum):
    """The three measures of rule 21's second sentence, in the rule's order."""

    CAUTION = "caution"  # 注意
    WARNING = "warning"  # 警告
    REMOVAL = "removal"  # 退場

    @property
    def japanese(self) -> str:
        return _JAPANESE[self]

    @property
    def label(self) -> str:
        """``注意 (caution)``: the rule's word, then the English."""
        return f"{self.japanese} ({self.value})"

    @classmethod
    def parse(cls, text: str) -> SanctionKind:
        """A kind by its English or Japanese word."""
        for kind in cls:
            if text.strip().casefold() in (kind.value, kind.japanese):
                return kind
        raise TournamentError(f"no sanction {text[:20]!r}: caution (注意), warning (警告) "
                              "or removal (退場)")


_JAPANESE = {SanctionKind.CAUTION: "注意", SanctionKind.WARNING: "警告",
             SanctionKind.REMOVAL: "退場"}


@dataclass(frozen=True, slots=True)
class Sanction:
    """One sanction as given (see the module's docstring): ``entrant`` the entrant's
    number when the person is one (``person`` their name then), else ``None``."""

    id: int
    kind: SanctionKind
    person: str
    entrant: int | None
    reason: str
    round: int | None
    board: int | None
    at: datetime
    who: str

    def line(self) -> str:
        """One line for the standings and the command line."""
        where = "" if self.round is None else f", round {self.round}" + (
            "" if self.board is None else f" board {self.board}")
        return f"{self.kind.label}{where}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind.value, "kind_ja": self.kind.japanese,
                "person": self.person, "entrant": self.entrant, "reason": self.reason,
                "round": self.round, "board": self.board, "at": self.at.isoformat(),
                "who": self.who}


def checked_sanction(t: Tournament, kind: str, *, reason: str | None,
                     entrant: str | int | None, person: str | None,
                     round_number: int | None, board: int | None
                     ) -> tuple[SanctionKind, dict[str, Any], Entrant | None]:
    """A sanction checked against the tournament: its kind, the fact the audit log keeps
    (``kind``, ``person``, ``entrant``, ``reason``) and the entrant sanctioned, if one."""
    measure = SanctionKind.parse(kind)
    why = checked_reason(reason)
    if (entrant is None) == (person is None):
        raise TournamentError("a sanction names an entrant or another person (one)")
    named = None if entrant is None else t.find(entrant)
    name = checked_person(person) if named is None else named.name
    if board is not None and round_number is None:
        raise TournamentError("a board is named with its round")
    if round_number is not None:
        if not 1 <= round_number <= t.rounds_paired:
            raise TournamentError(f"round {round_number} is not paired")
        if board is not None:
            t.pairing(round_number, board)
    return measure, {"kind": measure.value, "person": name, "reason": why,
                     "entrant": None if named is None else named.number}, named


def checked_reason(reason: str | None) -> str:
    why = reason.strip() if isinstance(reason, str) else ""
    if not why or len(why) > REASON_LENGTH:
        raise TournamentError(f"a sanction needs its reason, at most {REASON_LENGTH} "
                              "characters")
    return why


def checked_person(person: str | None) -> str:
    name = " ".join(person.split()) if isinstance(person, str) else ""
    if not name or len(name) > PERSON_LENGTH or not name.isprintable():
        raise TournamentError(f"say who is sanctioned: an entrant, or a person's name "
                              f"(at most {PERSON_LENGTH} characters)")
    return name


def recorded(entry_id: int, at: datetime, who: str, after: dict[str, Any],
             reason: str | None, round_number: int | None, board: int | None) -> Sanction:
    """The sanction an audit entry (action ``sanction``) keeps."""
    entrant = after.get("entrant")
    return Sanction(entry_id, SanctionKind(after["kind"]), str(after["person"]),
                    entrant if isinstance(entrant, int) else None, reason or "",
                    round_number, board, at, who)


__all__ = [
    "PENALTY_RATING_READING",
    "RULE_21",
    "Sanction",
    "SanctionKind",
    "checked_person",
    "checked_reason",
    "checked_sanction",
    "recorded",
]
