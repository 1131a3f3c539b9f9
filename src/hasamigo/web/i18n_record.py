"""Interface text for record entry, record sheets and the chess-clock page, in English and Japanese
(merged into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``record.``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    # the over-the-board home (/record)
    "record.nav": ("Over the board", "対局記録"),
    "record.title": ("Over the board 対局記録", "対局記録（盤での対局）"),
    "record.intro": ("A game on a real board with a chess clock: the clock, the record "
                     "(as it was played, faults and all) and the result card are kept "
                     "together as one game.",
                     "実際の盤と対局時計での対局：時計・棋譜（不正着手も含めて打たれた"
                     "とおりに）・対戦カードを一つの対局として記録します。"),
    "record.new": ("New game over the board", "新しい対局"),
    "record.player": ("Player", "対局者"),
    "record.colours": ("Colours", "石の色"),
    "record.colour.first_black": ("Player 1 has Black", "対局者1が黒"),
    "record.colour.first_white": ("Player 1 has White", "対局者1が白"),
    "record.minutes": ("Minutes each", "持ち時間（分）"),
    "record.byoyomi": ("Byo-yomi 秒読み (seconds)", "秒読み（秒）"),
    "record.byoyomi.note": ("A player with at most this many seconds left is in byo-yomi: "
                            "an illegal move of theirs that is claimed is corrected, then "
                            "a time-out (rule 15). 0: only once the flag has fallen.",
                            "残り時間がこの秒数以下なら秒読み中です。秒読み中の不正着手を"
                            "指摘されると、訂正したうえで時間切れ扱いになります（第15項）。"
                            "0：時間切れ後のみ。"),
    "record.scheduled": ("Scheduled start (a late player's time runs from it)",
                         "対局開始予定時刻（遅刻者の時間はここから減る）"),
    "record.open_clock": ("Open the chess clock", "対局時計を開く"),
    "record.open_record": ("Enter the record", "棋譜を入力する"),
    "record.sheets": ("Record sheets 棋譜用紙", "棋譜用紙"),
    "record.sheets.note": ("Print a blank sheet for the players, or type a filled one to "
                           "check it.", "空の棋譜用紙を印刷するか、記入済みの用紙を入力"
                           "して確認します。"),
    "record.blank_en": ("Blank sheet (English)", "空の用紙（英語）"),
    "record.blank_ja": ("Blank sheet (Japanese)", "空の用紙（日本語）"),
    "record.blank": ("Blank sheet to print", "空の用紙を印刷"),
    "record.check_sheet": ("Check a record sheet", "棋譜用紙を確認"),
    # record entry (/record/{id})
    "record.entry": ("Record", "棋譜入力"),
    "record.entry.help": ("Click the square where the disc was put, then the discs as they "
                          "were turned (what the disc brackets is marked to start with: "
                          "click to change), then Enter.",
                          "石を置いたマスをクリックし、実際に返した石をクリックして"
                          "調整してから（挟んだ石は最初から印が付いています）、"
                          "「入力」を押します。"),
    "record.clock": ("Chess clock", "対局時計"),
    "record.sheet": ("Record sheet", "棋譜用紙"),
    "record.decide_colours": ("Decide colours", "手番を決める"),
    "record.enter_move": ("The move as played", "打たれた手"),
    "record.placed": ("Disc put on", "置いたマス"),
    "record.disc_colour": ("The colour of the disc put down", "置いた石の色"),
    "record.by": ("Moved by", "打った人"),
    "record.by.turn": ("the side to move", "手番の人"),
    "record.turned": ("Turned", "返した石"),
    "record.none": ("none", "なし"),
    "record.enter": ("Enter", "入力"),
    "record.pass": ("Pass", "パス"),
    "record.clear": ("Clear", "クリア"),
    "record.undo": ("Take back the entry", "入力を取り消す"),
    "record.type_board": ("Type the board after the move", "着手後の盤面を入力"),
    "record.type_board.note": ("8 lines of 8: X black, O white, - empty.",
                               "8文字×8行：X 黒、O 白、- 空き。"),
    "record.enter_board": ("Enter the board", "盤面を入力"),
    "record.faults": ("Illegal move 不正着手", "不正着手"),
    "record.decide": ("Correct the move (the board returns to the legal position), or keep "
                      "the board as it stands if the players went on unnoticed (the record "
                      "marks the point).",
                      "着手を訂正する（正しい局面に戻す）か、気付かずに対局が続いた場合は"
                      "盤面をそのまま残します（棋譜にその位置を記録）。"),
    "record.correct": ("Correct the move", "訂正する"),
    "record.keep": ("Keep the board as it stands", "盤面をそのまま残す"),
    "record.fault_list": ("Faults of the record", "不正着手の記録"),
    "record.no_faults": ("No fault so far.", "不正着手はありません。"),
    "record.decision.corrected": ("corrected", "訂正"),
    "record.decision.kept": ("kept", "そのまま"),
    "record.decision.undecided": ("undecided", "未決定"),
    "record.click_square": ("Click the square where the disc was put first.",
                            "先に石を置いたマスをクリックしてください。"),
    "record.status.colours": ("Colours are not decided yet.", "手番がまだ決まっていません。"),
    "record.status.over": ("The game is over.", "終局しました。"),
    "record.status.pending": ("Move {n} has faults: correct it or keep the board.",
                              "{n}手目に不正着手があります：訂正するか盤面を残してください。"),
    "record.status.move": ("Move {n}: {colour} to move", "{n}手目：{colour}の番"),
    # the result card
    "record.card": ("Result card 対戦カード", "対戦カード"),
    "record.card.submit": ("Hand in", "提出"),
    "record.card.in": ("card", "カード"),
    "record.card.note": ("Both counts as written and signed. Counts that do not add up to "
                         "64 count against the winner (rule 18).",
                         "双方が確認・署名した石数。合計が64石にならない場合は勝者に不利に"
                         "扱います（第18項）。"),
    "record.not_rated": ("not rated", "レーティング対象外"),
    # the clock
    "record.press": ("Press the clock", "時計を押す"),
    "record.pass_press": ("Pass パス", "パス"),
    "record.illegal": ("Illegal move 不正着手", "不正着手の指摘"),
    "record.illegal.title": ("The side whose clock runs claims that the opponent's last move "
                             "was illegal: the opponent's clock runs again until the move is "
                             "put right.",
                             "時計が動いている側が、相手の直前の着手を不正と指摘します。"
                             "着手を直すまで相手の時計が動きます。"),
    "record.illegal.claimed": ("{claimant} claimed an illegal move: {offender}'s clock runs "
                               "again. {offender} puts the move right, then presses.",
                               "{claimant}が不正着手を指摘しました。{offender}の時計に"
                               "戻りました。{offender}は着手を直してから時計を押します。"),
    "record.illegal.timeout": ("{claimant} claimed an illegal move in {offender}'s byo-yomi "
                               "秒読み: a time-out for {offender}.",
                               "{claimant}が秒読み中の{offender}の不正着手を指摘しました："
                               "{offender}の時間切れです。"),
    "record.absent": ("{name} is absent", "{name}が不在"),
    "record.arrived": ("Arrived", "到着"),
    "record.forfeit": ("Forfeit 不戦敗", "不戦敗を選ぶ"),
    "record.forfeit.confirm": ("The late player takes a forfeit loss (64–0, not rated)?",
                               "遅刻者が不戦敗（64石差・レーティング対象外）を選びますか？"),
    "record.swap": ("Swap sides", "左右を入れ替え"),
    "record.flag": ("Flag down", "時間切れ"),
    "record.byoyomi_on": ("Byo-yomi 秒読み", "秒読み"),
    "record.passed": ("passed", "パス"),
    "record.no_clock": ("This game has no clock.", "この対局には時計がありません。"),
    "record.late": ("{name} is late: their time runs.", "{name}が遅刻：持ち時間が減っています。"),
    "record.start": ("{colour} presses to start the clock (space bar or tap).",
                     "{colour}が時計を押して対局開始（スペースキーかタップ）。"),
    # record sheets (/record/sheet)
    "record.check.intro": ("Type the move numbers as they are written on the sheet (passes "
                           "are not written). The sheet is replayed; if it is not a legal "
                           "game you get the first move number where it fails and the "
                           "likely fix.",
                           "用紙に書かれた手数をそのまま入力してください（パスは書きません）。"
                           "再生して、正しい棋譜でなければ最初に誤る手数と、考えられる"
                           "修正を示します。"),
    "record.first": ("First to move", "先手"),
    "record.first.start": ("as the start says", "初期配置どおり"),
    "record.check": ("Check", "確認"),
    "record.sheet_text": ("The sheet as text", "テキストの棋譜用紙"),
    "record.sheet_text.note": ("8 lines of 8 fields: a move number, or - for a square never "
                               "played (the start squares too).",
                               "8項目×8行：手数、または打たれていないマス（初期配置も）は -。"),
    "record.read_text": ("Read the text", "テキストを読む"),
    "record.likely_fix": ("Likely fix", "考えられる修正"),
    "record.sheet.ok": ("A legal game.", "正しい棋譜です。"),
    "record.sheet.bad": ("Not a legal game.", "正しい棋譜ではありません。"),
    "record.print": ("Print", "印刷"),
}
