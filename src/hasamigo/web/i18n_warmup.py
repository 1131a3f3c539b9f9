"""Interface text of the kernels' warm-up on a fresh server (issue 50), in English and
Japanese (merged into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``warmup.``).

``warmup.group.*`` names the groups of :mod:`hasamigo.web.services.warmup`;
``warmup.kernel.*`` the kernels' modules (``GET /api/status`` names the kernel compiling
now as ``module.function``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "warmup.getting": ("Getting {what} ready (first run only)",
                       "{what}を準備しています（初回のみ）"),
    "warmup.colon": (": ", "："),
    "warmup.compiling": ("compiling {kernel}…", "{kernel}をコンパイル中…"),
    "warmup.compiling_any": ("compiling…", "コンパイル中…"),
    "warmup.loading": ("loading…", "読み込み中…"),
    "warmup.waiting": ("waiting for the kernels before it…", "先の部品のコンパイル待ち…"),
    "warmup.left.seconds": ("about {n} s left", "あと約{n}秒"),
    "warmup.left.minutes": ("about {n} min left", "あと約{n}分"),
    "warmup.status": ("is getting ready (first run only)", "の準備中です（初回のみ）"),
    "warmup.casual": ("{name}'s clock does not run until it can move; you may move "
                      "meanwhile.",
                      "{name}が指せるようになるまで、その時計は止まっています。"
                      "その間もあなたは指せます。"),
    "warmup.official": ("This official game begins once {name} can move: neither clock "
                        "runs until then.",
                        "この公式戦は{name}が指せるようになってから始まります。"
                        "それまで両者の時計は止まっています。"),
    "warmup.paused": ("The game begins once {name} is ready", "{name}の準備ができ次第、対局開始"),
    "warmup.hints": ("Hints and the graph come once the engine is ready.",
                     "ヒントと評価グラフはエンジンの準備ができてから表示されます。"),
    "warmup.program": ("the program", "プログラム"),
    "warmup.group.rules": ("the rules", "ルール"),
    "warmup.group.players": ("the programs", "プログラム"),
    "warmup.group.engine": ("the engine", "エンジン"),
    "warmup.group.wide-rules": ("the 10×10 board", "10×10盤"),
    "warmup.group.wide": ("the 10×10 engine", "10×10盤のエンジン"),
    "warmup.group.smallboard": ("the small boards' solver", "小さい盤の完全読み"),
    "warmup.kernel.moves": ("the move generator", "着手生成"),
    "warmup.kernel.weighted": ("the weighted-square search", "重み付き探索"),
    "warmup.kernel.search": ("the midgame search", "中盤探索"),
    "warmup.kernel.endgame": ("the endgame solver", "終盤ソルバー"),
    "warmup.kernel.evaluate": ("the evaluation", "評価関数"),
    "warmup.kernel.patterns": ("the evaluation's patterns", "評価パターン"),
    "warmup.kernel.stability": ("the stable-disc count", "確定石の計算"),
    "warmup.kernel.hashtable": ("the hash table", "置換表"),
    "warmup.kernel.wide": ("the 10×10 move generator", "10×10盤の着手生成"),
    "warmup.kernel.wide_search": ("the 10×10 search", "10×10盤の探索"),
    "warmup.kernel.smallboard": ("the small boards' solver", "小さい盤の完全読み"),
}
