"""The study's protocols: which questions are asked, when, in which words and on which
scales. A study chooses one when it is created and keeps it (:mod:`hasamigo.study.service`).

**paper** (the default) is the amusement paper's §4.1 exactly:

* before the games, only the subject's own strength, 「「強い」から「弱い」まで５段階で，主観
  で」 (five levels from "strong" to "weak", self-judged). The paper names the ends and, in
  §4.2, 「ふつう」; the two levels between (やや強い, やや弱い) are our wording of the
  five-level scale it describes, and so is the question's sentence
  (「あなたのオセロゲームの強さを主観で答えてください」): the paper gives none;
* during a game, 「被験者が１手打つごとに」 (each time the subject plays a move) the two
  questions 「いま勝てそうですか」 (勝てそう・わからない・負けそう) and 「相手はどんな手を打っ
  てきましたか」 (意外な手・わからない・予想通り), the program moving only once they are
  answered. A forced pass is not a move played, so it is not asked about; at Black's first
  move the opponent has played nothing yet, so only the first question is asked then;
* after the games the five items: 「それぞれ対戦した勝敗結果」, 「どちらがおもしろかったか」,
  「それはどこがおもしろかったか」, 「あなたの知っているオセロゲームの戦略はあるか」,
  「あなたの思うボードゲームのおもしろさとは何か」. No question after each game.

**Whose words** (``source`` of each :class:`Question` and :class:`Choice`,
:func:`sources`): a Japanese text marked :data:`PAPER_SOURCE` is the paper's as written
(its questions end without a question mark; we add none); one marked
:data:`PROJECT_SOURCE` is ours: the strength question's sentence, its levels やや強い and
やや弱い, and the outcome choices of 「それぞれ対戦した勝敗結果」 (勝ち・負け・引き分け) in the
paper protocol, and every text of the extended protocol. The English is always ours (a
faithful translation of the paper's Japanese where it has one).

**The surprise move's window** (:data:`SURPRISE_WINDOWS`; defined with the program,
:mod:`hasamigo.engine.players.paper`) is a study setting; each protocol has its default
(:attr:`Protocol.window`): the paper's window (:data:`PAPER_WINDOW`, the game's moves
30-35, 「意外性の手は３０～３５手で打つ」) for ``paper``; the project's midgame reading
for ``extended``, as before the paper protocol existed.

**extended** is the richer questionnaire the project asked before the paper protocol
existed: strength from "never played" to "strong", how often, which strategies, before;
the questions after every *program* move; how each game felt (1-5) after it; which was more
fun, why and what makes a board game fun after all games.

The answers' codes are the same in both (``win``/``unknown``/``lose``,
``surprising``/``unknown``/``expected``, strength 1 weakest … 5 strongest), so the
analysis reads either; only the wording, the timing and the items differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from hasamigo.engine.players.paper import (
    MIDGAME_WINDOW,
    MOVES_WINDOW,
    PAPER_WINDOW,
    SURPRISE_WINDOWS,
    WINDOW_SOURCE,
)
from hasamigo.game.events import PROGRAM_MOVE, SUBJECT_MOVE

PAPER = "paper"
EXTENDED = "extended"
PROTOCOLS = (PAPER, EXTENDED)
DEFAULT_PROTOCOL = PAPER

#: when the in-game questions are asked: after each subject move (the paper's,
#: :data:`SUBJECT_MOVE`) or after each program move (the extended protocol's,
#: :data:`PROGRAM_MOVE`): the game's :class:`~hasamigo.game.events.StudyGame` ``timing``
Timing = Literal["subject-move", "program-move"]

Lang = Literal["ja", "en"]

#: whose words a Japanese text is (the English is always ours)
Source = Literal["paper", "project"]
PAPER_SOURCE: Final = "paper"
PROJECT_SOURCE: Final = "project"


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer offered: its code (the data's), its words, and whose the Japanese is."""

    code: str
    ja: str
    en: str
    source: Source = PROJECT_SOURCE

    def text(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True, slots=True)
class Question:
    """One question: its key (the data's column), its words, whose the Japanese is
    (``source``) and its choices (none: free text; ``per_game``: asked once per game
    played, as 「それぞれ対戦した勝敗結果」)."""

    key: str
    ja: str
    en: str
    choices: tuple[Choice, ...] = ()
    per_game: bool = False
    many: bool = False  # several choices may be ticked
    source: Source = PROJECT_SOURCE

    def text(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.choices)


@dataclass(frozen=True, slots=True)
class Protocol:
    """A protocol's questions at each time, and its default surprise ``window``."""

    name: str
    timing: Timing
    before: tuple[Question, ...]
    in_game: tuple[Question, ...]
    after_game: tuple[Question, ...]  # after each game
    after: tuple[Question, ...]  # after all games
    window: str = PAPER_WINDOW

    @property
    def questions(self) -> tuple[Question, ...]:
        """Every question, in the order asked."""
        return (*self.before, *self.in_game, *self.after_game, *self.after)

    def question(self, key: str) -> Question:
        for q in self.questions:
            if q.key == key:
                return q
        raise KeyError(key)


CAN_WIN_PAPER = Question("can_win", "いま勝てそうですか", "Do you think you can win now?", (
    Choice("win", "勝てそう", "I think I can win", PAPER_SOURCE),
    Choice("unknown", "わからない", "I don't know", PAPER_SOURCE),
    Choice("lose", "負けそう", "I think I will lose", PAPER_SOURCE),
), source=PAPER_SOURCE)
MOVE_FELT_PAPER = Question(
    "move_felt", "相手はどんな手を打ってきましたか", "What kind of move did your opponent play?", (
        Choice("surprising", "意外な手", "A surprising move", PAPER_SOURCE),
        Choice("unknown", "わからない", "I don't know", PAPER_SOURCE),
        Choice("expected", "予想通り", "As I expected", PAPER_SOURCE),
    ), source=PAPER_SOURCE)
#: the paper's five levels, strongest first as it names them (code 5 strongest): 強い and
#: 弱い are its ends (§4.1), ふつう its §4.2's; the two between are ours, and so is the
#: question's sentence (the paper: 「「強い」から「弱い」まで５段階で，主観で答えてもらう」)
STRENGTH_PAPER = Question(
    "strength", "あなたのオセロゲームの強さを主観で答えてください",
    "How strong are you at Othello, in your own judgement?", (
        Choice("5", "強い", "Strong", PAPER_SOURCE),
        Choice("4", "やや強い", "Fairly strong"),
        Choice("3", "ふつう", "Average", PAPER_SOURCE),
        Choice("2", "やや弱い", "Fairly weak"),
        Choice("1", "弱い", "Weak", PAPER_SOURCE),
    ))
#: ours: the paper asks for 「それぞれ対戦した勝敗結果」 and offers no choices
OUTCOME_CHOICES = (Choice("win", "勝ち", "Won"), Choice("lose", "負け", "Lost"),
                   Choice("draw", "引き分け", "Draw"))

PAPER_PROTOCOL = Protocol(
    PAPER, SUBJECT_MOVE,
    before=(STRENGTH_PAPER,),
    in_game=(CAN_WIN_PAPER, MOVE_FELT_PAPER),
    after_game=(),
    after=(
        Question("reported_outcome", "それぞれ対戦した勝敗結果",
                 "The result of each game you played", OUTCOME_CHOICES, per_game=True,
                 source=PAPER_SOURCE),
        Question("more_fun", "どちらがおもしろかったか", "Which one was more fun?",
                 source=PAPER_SOURCE),
        Question("more_fun_why", "それはどこがおもしろかったか", "What was fun about it?",
                 source=PAPER_SOURCE),
        Question("strategies_text", "あなたの知っているオセロゲームの戦略はあるか",
                 "Are there Othello strategies you know?", source=PAPER_SOURCE),
        Question("what_makes_fun", "あなたの思うボードゲームのおもしろさとは何か",
                 "What, to you, makes a board game fun?", source=PAPER_SOURCE),
    ),
    window=PAPER_WINDOW,
)

EXTENDED_PROTOCOL = Protocol(
    EXTENDED, PROGRAM_MOVE,
    before=(
        Question("strength", "オセロの強さは？", "How strong are you at Othello?", (
            Choice("1", "1 やったことがない", "1 never played"),
            Choice("2", "2 初心者", "2 beginner"),
            Choice("3", "3 ふつう", "3 average"),
            Choice("4", "4 得意", "4 good"),
            Choice("5", "5 強い", "5 strong"),
        )),
        Question("play_frequency", "どのくらいオセロをしますか？", "How often do you play?", (
            Choice("never", "しない", "never"), Choice("rarely", "たまに", "rarely"),
            Choice("monthly", "月に数回", "monthly"), Choice("weekly", "週に数回", "weekly"),
            Choice("daily", "毎日", "daily"),
        )),
        Question("strategies", "知っている戦略は？", "Which strategies do you know?", (
            Choice("corners", "角を取る", "take corners"),
            Choice("x_squares", "星（Xマス）を避ける", "avoid X-squares (stars)"),
            Choice("c_squares", "Cマスに注意", "careful with C-squares"),
            Choice("edges", "辺", "edges"),
            Choice("mobility", "着手可能数（開放度）", "mobility (few moves for the opponent)"),
            Choice("stable_discs", "確定石", "stable discs (確定石)"),
            Choice("quiet_moves", "中割り", "quiet inside moves (中割り)"),
            Choice("parity", "偶数理論", "parity (偶数理論)"),
            Choice("openings", "定石（兎・虎・牛・鼠）", "openings (兎, 虎, 牛, 鼠)"),
        ), many=True),
    ),
    in_game=(
        Question("can_win", "今、勝てると思いますか？", "Can you win now?", (
            Choice("win", "勝てる", "win"), Choice("unknown", "わからない", "unknown"),
            Choice("lose", "負ける", "lose"),
        )),
        Question("move_felt", "相手が今打った手はどんな手でしたか？",
                 "What kind of move did the opponent just play?", (
                     Choice("surprising", "意外", "surprising"),
                     Choice("unknown", "わからない", "unknown"),
                     Choice("expected", "予想通り", "expected"),
                 )),
    ),
    after_game=(
        Question("felt", "この対局はどうでしたか？", "How did this game feel?", (
            Choice("1", "1 つまらない", "1 dull"), Choice("2", "2", "2"),
            Choice("3", "3", "3"), Choice("4", "4", "4"), Choice("5", "5 楽しい", "5 fun"),
        )),
        Question("felt_note", "ひとこと", "Anything to add?"),
    ),
    after=(
        Question("more_fun", "どちらの対局が楽しかったですか？", "Which game was more fun?"),
        Question("more_fun_why", "その理由は？", "Why?"),
        Question("what_makes_fun", "ボードゲームの楽しさとは何だと思いますか？",
                 "What makes a board game fun for you?"),
    ),
    window=MIDGAME_WINDOW,
)

PROTOCOL_BY_NAME = {PAPER: PAPER_PROTOCOL, EXTENDED: EXTENDED_PROTOCOL}


def protocol(name: str) -> Protocol:
    """The protocol named ``name`` (``paper`` or ``extended``); ``KeyError`` otherwise."""
    return PROTOCOL_BY_NAME[name]


def default_window(name: str) -> str:
    """The surprise window a study under protocol ``name`` gets unless told.

    >>> default_window("paper"), default_window("extended")
    ('moves', 'midgame')
    """
    return protocol(name).window


def sources(proto: Protocol) -> list[tuple[str, str, str]]:
    """Whose words each Japanese text of ``proto`` is: ``(question key, text, source)``
    for each question's sentence and then each of its choices, in the order asked.

    >>> [source for key, _, source in sources(PAPER_PROTOCOL) if key == "strength"]
    ['project', 'paper', 'project', 'paper', 'project', 'paper']
    """
    rows: list[tuple[str, str, str]] = []
    for q in proto.questions:
        rows.append((q.key, q.ja, q.source))
        rows += [(q.key, c.ja, c.source) for c in q.choices]
    return rows


__all__ = [
    "DEFAULT_PROTOCOL",
    "EXTENDED",
    "EXTENDED_PROTOCOL",
    "MIDGAME_WINDOW",
    "MOVES_WINDOW",
    "PAPER",
    "PAPER_PROTOCOL",
    "PAPER_SOURCE",
    "PAPER_WINDOW",
    "PROGRAM_MOVE",
    "PROJECT_SOURCE",
    "PROTOCOLS",
    "PROTOCOL_BY_NAME",
    "SUBJECT_MOVE",
    "SURPRISE_WINDOWS",
    "WINDOW_SOURCE",
    "Choice",
    "Protocol",
    "Question",
    "Source",
    "Timing",
    "default_window",
    "protocol",
    "sources",
]
