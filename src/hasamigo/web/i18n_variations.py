"""Interface text of the variations on the replay page, in English and Japanese (merged
into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``var.``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "var.title": ("Variations", "変化図"),
    "var.help": ("Click a grey dot on the board to try another move there: it starts a "
                 "variation, kept with the game. Step along it with the buttons or the "
                 "arrow keys.",
                 "盤上の灰色の点をクリックすると別の手を試せます。変化図として対局と一緒に"
                 "保存されます。ボタンや矢印キーで手順をたどれます。"),
    "var.tag": ("variation", "変化"),
    "var.none": ("No variations yet.", "変化図はまだありません。"),
    "var.from": ("Variation from move {n}:", "{n}手目からの変化:"),
    "var.line_from": ("from move {n}", "{n}手目から"),
    "var.back": ("Back to the main line", "本譜に戻る"),
    "var.pass": ("Pass", "パス"),
    "var.delete": ("Delete", "削除"),
    "var.delete_title": ("Delete this variation and everything after it",
                         "この変化と以降の手順を削除"),
    "var.open": ("Open this variation", "この変化を開く"),
    "var.json": ("Download the tree (JSON)", "変化図をダウンロード（JSON）"),
    "var.ggf": ("This line as GGF", "この手順をGGFで"),
    "var.main_ggf": ("Main line as GGF", "本譜をGGFで"),
    "var.count": ("{count} of {max} moves stored", "{count}/{max}手を保存"),
    "var.stale": ("{n} stored moves no longer follow the game and are hidden.",
                  "{n}手は本譜が変わったため表示していません。"),
    "var.stale.one": ("{n} stored move no longer follows the game and is hidden.",
                      "{n}手は本譜が変わったため表示していません。"),
    "var.pick": ("Choose the disc to turn.", "返す石を選んでください。"),
    "var.unavailable": ("No variations during an official game in progress.",
                        "公式戦の対局中は変化図を作れません。"),
    "var.notes": ("The notes follow the main line: back to it to read them.",
                  "解説は本譜の局面についてのものです。本譜に戻ると表示されます。"),
}
