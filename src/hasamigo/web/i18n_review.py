"""Interface text of the game review on the replay page, in English and Japanese (merged
into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``review.``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "review.title": ("Game review", "対局の検討"),
    "review.practise": ("practise", "練習"),
    "review.start": ("Review this game", "この対局を検討する"),
    "review.intro": ("The engine scores every move and the best one in its place: the discs "
                     "each move gave away show where the game was won and lost. It runs on "
                     "the server; you may leave this page and come back.",
                     "エンジンが全ての手と最善手を評価し、各手で失った石数から勝負の分かれ目を"
                     "示します。検討はサーバーで進むので、このページを離れても続きます。"),
    "review.queued": ("Waiting for the engine…", "エンジンの順番待ち…"),
    "review.running": ("Reviewing move {n} of {total}…", "{total}手中{n}手目を検討中…"),
    "review.failed": ("The review stopped:", "検討が止まりました："),
    "review.retry": ("Continue the review", "検討を続ける"),
    "review.not_over": ("The game can be reviewed once it is over.",
                        "対局が終わると検討できます。"),
    "review.unavailable": ("The engine cannot review games on this board.",
                           "この盤の対局はエンジンで検討できません。"),
    "review.depth": ("Depth {depth}, exact from {exact} empties; scores in discs.",
                     "{depth}手読み、残り{exact}マスから完全読み。評価値は石差。"),
    "review.graph": ("Evaluation by the review (Black's view, discs)",
                     "検討による評価値（黒から見た石差）"),
    "review.help": ("Click a point of the graph or a row of the table to see the position "
                    "before that move: the square played is tinted red, the best one blue.",
                    "グラフの点か表の行をクリックすると、その手の直前の局面を表示します。"
                    "打った手のマスは赤、最善手のマスは青で示します。"),
    "review.summary": ("Summary", "まとめ"),
    "review.average": ("average loss {avg} discs a move ({total} in all)",
                       "1手平均 {avg} 石の損（合計 {total} 石）"),
    "review.worst": ("worst: move {n} {move} (−{loss})", "最大の損：{n}手目 {move}（−{loss}）"),
    "review.turning": ("Turning point: move {n}, {colour} {move} (best {best}, −{loss} discs)",
                       "勝負の分かれ目：{n}手目 {colour} {move}（最善 {best}、−{loss}石）"),
    "review.no_turning": ("No move lost a disc.", "石を損した手はありません。"),
    "review.moves": ("Move by move", "一手ずつ"),
    "review.col.n": ("#", "手"),
    "review.col.move": ("Move", "着手"),
    "review.col.best": ("Best", "最善手"),
    "review.col.loss": ("Loss", "損失"),
    "review.col.label": ("Verdict", "評価"),
    "review.label.best": ("best", "最善"),
    "review.label.good": ("good", "好手"),
    "review.label.inaccuracy": ("inaccuracy", "疑問手"),
    "review.label.mistake": ("mistake", "悪手"),
    "review.label.blunder": ("blunder", "大悪手"),
    "review.forced": ("forced", "必然手"),
}
