"""The ``paper`` protocol is the amusement paper's §4.1, word for word: its questions, their
choices, their timing and the questionnaires' items, quoted here from the paper."""

from __future__ import annotations

from hasamigo.game.events import STUDY_QUESTIONS, SUBJECT_MOVE
from hasamigo.study.protocol import (
    DEFAULT_PROTOCOL,
    EXTENDED_PROTOCOL,
    PAPER,
    PAPER_PROTOCOL,
    PAPER_SOURCE,
    PROJECT_SOURCE,
    PROTOCOL_BY_NAME,
    protocol,
    sources,
)

# §4.1, as printed (line breaks of the two-column layout removed):
# 「プレイ前のアンケートでは，被験者のオセロゲームの強さを「強い」から「弱い」まで５段階で，
#  主観で答えてもらう．」
BEFORE_SCALE = ("強い", "弱い", 5)
# 「プレイ中のアンケートでは，被験者が１手打つごとにアンケートに答えてもらい，内容は，「いま
#  勝てそうですか」と「相手はどんな手を打ってきましたか」である．それぞれ「勝てそう・わからな
#  い・負けそう」と「意外な手・わからない・予想通り」のいずれかを選んでもらう．」
IN_GAME = (("いま勝てそうですか", ("勝てそう", "わからない", "負けそう")),
           ("相手はどんな手を打ってきましたか", ("意外な手", "わからない", "予想通り")))
# 「プレイ後のアンケートでは，「それぞれ対戦した勝敗結果」，「どちらがおもしろかったか」，
#  「それはどこがおもしろかったか」，「あなたの知っているオセロゲームの戦略はあるか」，「あな
#  たの思うボードゲームのおもしろさとは何か」の５つに答えてもらう．」
AFTER = ("それぞれ対戦した勝敗結果", "どちらがおもしろかったか",
         "それはどこがおもしろかったか", "あなたの知っているオセロゲームの戦略はあるか",
         "あなたの思うボードゲームのおもしろさとは何か")
# §4.2 reads the scale's middle: 「オセロの主観の強さを「ふつう」以下にしていた」
MIDDLE = "ふつう"


def test_the_paper_protocol_is_the_default() -> None:
    assert DEFAULT_PROTOCOL == PAPER and protocol("paper") is PAPER_PROTOCOL
    assert set(PROTOCOL_BY_NAME) == {"paper", "extended"}


def test_the_in_game_questions_are_the_papers_after_every_subject_move() -> None:
    assert PAPER_PROTOCOL.timing == SUBJECT_MOVE  # 「被験者が１手打つごとに」
    asked = tuple((q.ja, tuple(c.ja for c in q.choices)) for q in PAPER_PROTOCOL.in_game)
    assert asked == IN_GAME
    # the codes the game's events take, in the paper's order
    assert tuple(q.key for q in PAPER_PROTOCOL.in_game) == tuple(STUDY_QUESTIONS)
    for q in PAPER_PROTOCOL.in_game:
        assert q.codes == STUDY_QUESTIONS[q.key]
        assert q.en and all(c.en for c in q.choices)  # and an English translation of each


def test_before_the_games_only_the_subjects_own_strength_on_five_levels() -> None:
    (strength,) = PAPER_PROTOCOL.before
    strongest, weakest, levels = BEFORE_SCALE
    words = [c.ja for c in strength.choices]
    assert len(words) == levels and words[0] == strongest and words[-1] == weakest
    assert MIDDLE in words and words.index(MIDDLE) == 2  # 「ふつう」以下 is codes 1..3
    assert [int(c.code) for c in strength.choices] == [5, 4, 3, 2, 1]


def test_after_the_games_exactly_the_papers_five_items_and_nothing_per_game() -> None:
    assert tuple(q.ja for q in PAPER_PROTOCOL.after) == AFTER
    assert PAPER_PROTOCOL.after_game == ()
    results = PAPER_PROTOCOL.after[0]
    assert results.per_game and {c.code for c in results.choices} == {"win", "lose", "draw"}


def test_the_extended_protocol_keeps_the_richer_questionnaire() -> None:
    assert EXTENDED_PROTOCOL.timing != SUBJECT_MOVE
    assert [q.key for q in EXTENDED_PROTOCOL.before] == ["strength", "play_frequency",
                                                          "strategies"]
    assert [q.key for q in EXTENDED_PROTOCOL.after_game] == ["felt", "felt_note"]


def test_each_text_says_whose_words_it_is() -> None:
    """A Japanese text labelled the paper's is quoted in §4.1-4.2 (BEFORE_SCALE, IN_GAME,
    AFTER, MIDDLE above); everything else is labelled the project's: the strength
    question's sentence (the paper gives none), やや強い / やや弱い, the outcome choices, and
    the whole extended protocol."""
    quoted = {BEFORE_SCALE[0], BEFORE_SCALE[1], MIDDLE, *AFTER}
    for question, choices in IN_GAME:
        quoted |= {question, *choices}
    rows = sources(PAPER_PROTOCOL)
    assert {text for _, text, source in rows if source == PAPER_SOURCE} == quoted
    project = {text for _, text, source in rows if source == PROJECT_SOURCE}
    assert project == {PAPER_PROTOCOL.question("strength").ja, "やや強い", "やや弱い",
                       "勝ち", "負け", "引き分け"}
    assert all(source == PROJECT_SOURCE for _, _, source in sources(EXTENDED_PROTOCOL))


def test_the_paper_protocols_window_is_the_papers() -> None:
    """「意外性の手は３０～３５手で打つ」: the paper protocol's surprise window is the game's
    moves 30-35 (``moves``); the midgame condition is the project's, the extended
    protocol's default; the window constants have one home, the program's module."""
    from hasamigo.engine.players import paper
    from hasamigo.study import protocol as study_protocol

    assert PAPER_PROTOCOL.window == paper.PAPER_WINDOW == paper.MOVES_WINDOW == "moves"
    assert EXTENDED_PROTOCOL.window == paper.MIDGAME_WINDOW
    assert paper.WINDOW_SOURCE == {"moves": "paper", "midgame": "project"}
    assert study_protocol.SURPRISE_WINDOWS is paper.SURPRISE_WINDOWS
