"""Interface text of importing a game on the library page, in English and Japanese
(merged into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``import.``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "import.title": ("Import a game", "棋譜を取り込む"),
    "import.note": ("a transcript, GGF or WTHOR (.wtb): replay it and let the engine "
                    "review it", "棋譜テキスト・GGF・WTHOR（.wtb）：再生してエンジンで検討"),
    "import.text": ("Paste a transcript (f5d6c3…) or GGF", "棋譜（f5d6c3…）かGGFを貼り付け"),
    "import.file": ("or choose a file (.txt, .ggf, .wtb; with WTHOR.JOU for the players' "
                    "names)",
                    "またはファイルを選ぶ（.txt, .ggf, .wtb。選手名はWTHOR.JOUも一緒に）"),
    "import.index": ("Game number in the file", "ファイル内の対局番号"),
    "import.index.note": ("for files with several games (GGF, WTHOR), from 1",
                          "複数の対局を含むファイル（GGF・WTHOR）で、1から"),
    "import.submit": ("Import and replay", "取り込んで再生"),
    "import.working": ("Importing…", "取り込み中…"),
    "import.empty": ("Paste a game or choose a file first.",
                     "先に棋譜を貼り付けるかファイルを選んでください。"),
    "import.too_large": ("The file is too large to import (at most {size}).",
                         "ファイルが大きすぎます（最大{size}）。"),
    "import.private": ("The game is private: only this browser sees it, until you make it "
                       "public.",
                       "取り込んだ対局は非公開で、公開するまでこのブラウザだけが見られます。"),
}
