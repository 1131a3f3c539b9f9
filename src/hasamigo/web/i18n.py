"""Interface text in English and Japanese. Official terms keep their Japanese
names beside the English in both languages (伏せ石 fuse-ishi, 勝手打ち play-out, ...)."""

from __future__ import annotations

from typing import Literal

from fastapi import Request

from hasamigo.web.i18n_editor import STRINGS as _editor_strings
from hasamigo.web.i18n_import import STRINGS as _import_strings
from hasamigo.web.i18n_record import STRINGS as _record_strings
from hasamigo.web.i18n_review import STRINGS as _review_strings
from hasamigo.web.i18n_study import STRINGS as _study_strings
from hasamigo.web.i18n_tournament import STRINGS as _tournament_strings
from hasamigo.web.i18n_variations import STRINGS as _variation_strings
from hasamigo.web.i18n_warmup import STRINGS as _warmup_strings

Lang = Literal["en", "ja"]
LANGS: tuple[Lang, ...] = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    "app": ("hasamigo — Othello", "hasamigo — オセロ"),
    "tagline": ("Othello by the official JOF rules", "日本オセロ連盟の公式ルールで遊ぶオセロ"),
    "nav.new": ("New game", "新しい対局"),
    "nav.library": ("Game library", "棋譜ライブラリ"),
    "new.title": ("New game", "新しい対局"),
    "new.opponent": ("Opponent", "対戦相手"),
    "opp.victory": ("Victory-oriented program", "勝利志向プログラム"),
    "opp.victory.note": ("plays to win (5-ply minimax)", "勝ちを目指す（5手読み）"),
    "opp.amusement": ("Amusement-oriented program", "娯楽志向プログラム"),
    "opp.amusement.note": ("gives you chances and surprises", "チャンスと驚きをくれる"),
    "opp.entertainer": ("Entertainer", "エンターテイナー"),
    "opp.entertainer.note": ("keeps the game close and lively", "接戦で盛り上げる"),
    "opp.engine": ("Engine", "エンジン"),
    "opp.engine.note": ("strength by level 1–10", "レベル1〜10で強さを選ぶ"),
    "opp.weakest": ("Weakest", "最弱AI"),
    "opp.weakest.note": ("tries its best to lose", "全力で負けにくる"),
    "opp.random": ("Random", "ランダム"),
    "opp.random.note": ("plays any legal move", "合法手から適当に打つ"),
    "opp.external.note": ("an engine installed on this server (NBoard/GTP)",
                          "このサーバーに入れたエンジン（NBoard・GTP）"),
    "opp.person": ("Another person", "もう一人の人"),
    "opp.person.note": ("two players: one screen or two browsers",
                        "二人で対局：同じ画面か別々のブラウザで"),
    "person.where": ("Where does the other person play?", "相手はどこで打ちますか？"),
    "person.same_screen": ("On this screen", "この画面で"),
    "person.other_browser": ("In another browser (send a link)", "別のブラウザで（リンクを送る）"),
    "new.watchers": ("Watching 観戦", "観戦"),
    "new.public": ("Public: anyone may watch (観戦)", "公開：誰でも観戦できる"),
    "new.claims": ("Time-out claims 時間切れ", "時間切れの申告"),
    "claims.auto": ("Claim the program's flag for me", "プログラムの時間切れを自動で申告する"),
    "claims.program": ("The program may claim my flag", "プログラムが私の時間切れを申告してよい"),
    "fuse.details": ("Ranks and ages: who hides the disc", "段級位と生年：石を伏せる人"),
    "fuse.details.note": ("The higher rank hides the disc (伏せ石); with equal or unknown "
                          "ranks, the elder; with neither known, lots are drawn.",
                          "段級位の高い人が石を伏せます。同じか不明なら年長者、"
                          "どちらも不明なら抽選です。"),
    "fuse.rank": ("Rank (3d, 1k, 三段)", "段級位（3d, 1k, 三段）"),
    "fuse.birth_year": ("Birth year", "生まれ年"),
    "seat.first": ("You (player 1)", "あなた（1人目）"),
    "seat.second": ("Opponent (player 2)", "相手（2人目）"),
    "level": ("Level", "レベル"),
    "new.colour": ("Your colour", "あなたの色"),
    "colour.black": ("Black (moves first)", "黒（先手）"),
    "colour.white": ("White", "白"),
    "colour.random": ("Random (as in the paper)", "ランダム（論文と同じ）"),
    "colour.fuse": ("伏せ石 fuse-ishi", "伏せ石 (fuse-ishi)"),
    "new.handicap": ("Handicap (corners for Black; White moves first)",
                     "ハンデ（黒に隅を置く・白から打つ）"),
    "handicap.none": ("None", "なし"),
    "new.clock": ("Clock (each side)", "持ち時間（各自）"),
    "clock.none": ("No clock", "時計なし"),
    "clock.official": ("20 minutes (official)", "20分（公式）"),
    "clock.custom": ("Custom", "指定"),
    "minutes": ("minutes", "分"),
    "new.board": ("Board", "盤"),
    "new.board.wide": ("On 10×10, Eight Stars, 8×9 and 9×10 play a person, the engine, "
                       "Weakest or Random: the paper's programs play boards up to 8×8.",
                       "10×10・エイトスターズ・8×9・9×10 では、人・エンジン・最弱・ランダムと"
                       "対局できます（論文のプログラムは8×8まで）。"),
    "board.eightstars": ("Eight Stars", "エイトスターズ"),
    "board.nipcircle": ("Nip (circle)", "ニップ（円形）"),
    "new.board.nip": ("Nip's circular board: 52 points, discs flip along the circle too, and "
                      "when neither side can flip the player places anywhere; play a person "
                      "or Random there, without hints.",
                      "ニップの円形盤：52点、円周に沿っても返り、どちらも返せないときは"
                      "空いている点のどこにでも置けます。人かランダムと対局します（ヒントなし）。"),
    "solved.title": ("Solved boards", "解かれた盤"),
    "solved.link": ("What perfect play gives on each board", "完全な打ち方での結果"),
    "solved.intro": ("The small boards below were solved from their start by hasamigo itself "
                     "(hasamigo solve-board, no stored knowledge); move the slider to replay a "
                     "perfect line. Scores give the empty squares to the winner.",
                     "下の小さな盤は、hasamigo が初期配置から自分で解いたものです"
                     "（hasamigo solve-board、知識の蓄積なし）。スライダーで完全手順を再生"
                     "できます。空きマスは勝者に数えます。"),
    "solved.result": ("Perfect play: Black {black} – {white} White",
                      "完全な打ち方で 黒 {black} – {white} 白"),
    "solved.line": ("Perfect line:", "完全手順:"),
    "solved.8x8": ("Believed a draw with perfect play, 32–32: Takizawa (2023) announced a "
                   "computer proof. Deciding who wins an n×n position is PSPACE-complete.",
                   "完全な打ち方では引き分け（32–32）とされ、滝沢（2023年）がコンピュータによる"
                   "証明を発表しました。n×n 盤の勝敗判定は PSPACE 完全です。"),
    "board.no_analysis": ("No hints or evaluation graph on this board yet.",
                          "この盤では、ヒントと評価グラフはまだ使えません。"),
    "new.flip_rule": ("Flips (挟み碁 house rules)", "裏返し（挟み碁のルール）"),
    "flip.all": ("Normal: every bracketed disc", "通常：挟んだ石をすべて裏返す"),
    "flip.one": ("One disc: only one of them, your choice", "1個のみ：挟んだ石のうち1個だけ"),
    "flip.choose": ("Choose discs: those you want, at least one",
                    "選んで裏返す：裏返したい石だけ（1個以上）"),
    "new.flip_rule.note": ("Hasegawa's 挟み碁 was played with these house rules. With one of "
                           "them play a person or Random; no hints.",
                           "長谷川五郎の挟み碁のルールです。人かランダムと対局します"
                           "（ヒントなし）。"),
    "choose.one": ("{square}: click the disc to turn.",
                   "{square}：裏返す石をクリックしてください。"),
    "choose.some": ("{square}: click the discs to turn (at least one), then confirm.",
                    "{square}：裏返す石をクリックして（1個以上）確定してください。"),
    "choose.confirm": ("Turn these", "確定"),
    "choose.cancel": ("Cancel", "取り消し"),
    "choose.none": ("Choose at least one disc.", "少なくとも1個選んでください。"),
    "new.start": ("Start position", "初期配置"),
    "start.cross": ("Cross (Othello)", "クロス（オセロ）"),
    "start.parallel": ("Parallel (Reversi)", "平行（リバーシ）"),
    "start.original": ("Original Reversi (free centre)", "元祖リバーシ（中央に自由に置く）"),
    "new.rules": ("Game type", "対局の種類"),
    "rules.casual": ("Casual (undo allowed)", "カジュアル（待ったあり）"),
    "rules.official": ("Official (no take-backs)", "公式（待ったなし）"),
    "rules.nodraws": ("No draws: draw-win right 引き分け勝ち (with fuse-ishi)",
                      "引き分けなし：引き分け勝ちの権利（伏せ石のとき）"),
    "new.start_button": ("Start the game", "対局開始"),
    "new.panels": ("Panels (can be changed during the game)", "表示パネル（対局中も切替可）"),
    "panel.hints": ("Hints", "ヒント"),
    "panel.graph": ("Evaluation graph", "評価値グラフ"),
    "panel.opening": ("Opening name", "定石名"),
    "black": ("Black", "黒"),
    "white": ("White", "白"),
    "you": ("You", "あなた"),
    "to_move": ("to move", "の番"),
    "your_turn": ("Your turn", "あなたの番です"),
    "thinking": ("is thinking…", "が考えています…"),
    "pass_notice": ("has no legal move and passes (パス)", "は打てる場所がないのでパス"),
    # the result's heading: the viewer's own when they hold one colour, else who won
    "win": ("You win", "あなたの勝ち"),
    "lose": ("You lose", "あなたの負け"),
    "draw": ("Draw", "引き分け"),
    "wins": ("{name} wins", "{name}の勝ち"),
    "resign": ("Resign", "投了"),
    "resign.confirm": ("Resign this game?", "投了しますか？"),
    "undo": ("Take back 待った", "待った"),
    "undo.waiting": ("You asked to take back your move (待った): waiting for the opponent…",
                     "待ったを申し出ました。相手の返事を待っています…"),
    "undo.asks": ("asks to take back their move (待った):", "が待ったを申し出ています："),
    "undo.allow": ("Allow", "認める"),
    "undo.decline": ("Decline", "断る"),
    "claim": ("Claim time-out 時間切れ", "時間切れを申告"),
    "claim.self": ("Report my own time-out 時間切れ", "自分の時間切れを申告"),
    "accept": ("Accept result", "結果を承認"),
    "accept.note": ("Until both players accept, the last mover's time-out (時間切れ) can "
                    "still be claimed.",
                    "両者が承認するまでは、最後に打った人の時間切れをまだ申告できます。"),
    "accept.waiting": ("You accepted the result; waiting for the opponent.",
                       "結果を承認しました。相手の承認を待っています。"),
    "waiting.opponent": ("waiting for the opponent", "相手の番です"),
    "clock.stopped": ("The clocks are stopped.", "時計は止まっています。"),
    "status.awaiting_join": ("Waiting for the other player", "相手の参加待ち"),
    "clock.awaiting_join": ("Waiting for the other player to open the link: the clocks "
                            "start when they arrive.",
                            "相手が招待リンクを開くのを待っています。時計は相手が来てから動きます。"),
    "official.no_help": ("Official game: no hints or evaluation graph until it ends.",
                         "公式戦：終局までヒントと評価値グラフは使えません。"),
    "loading": ("Loading…", "読み込み中…"),
    "private.title": ("This game is private", "この対局は非公開です"),
    "private.body": ("Your browser holds no seat for it. A player can send you the join "
                     "link, or make the game public so that anyone may watch (観戦).",
                     "このブラウザはこの対局の席を持っていません。対局者から参加リンクを"
                     "受け取るか、対局を公開（観戦可）にしてもらってください。"),
    "private.retry": ("Try again", "もう一度読み込む"),
    "watching": ("Watching 観戦", "観戦中"),
    "watching.note": ("You are watching: the moves appear as they are played.",
                      "観戦中：打たれた手がそのまま表示されます。"),
    "public.toggle": ("Public: anyone may watch (観戦)", "公開：誰でも観戦できる"),
    "invite.title": ("Invite the other player", "相手を招待"),
    "invite.note": ("Send this link to the other person: it gives their browser the other "
                    "seat (it works once).",
                    "このリンクを相手に送ってください。相手のブラウザに席が渡ります（1回限り）。"),
    "copy": ("Copy", "コピー"),
    "copied": ("Copied", "コピーしました"),
    "join.title": ("Join a game", "対局に参加"),
    "join.joining": ("Taking your seat…", "席を取っています…"),
    "join.failed": ("This join link didn't work:", "この参加リンクは使えません："),
    "join.no_code": ("the link has no code.", "リンクにコードがありません。"),
    "join.already": ("This browser already holds a seat in this game. Send the link to the "
                     "other person instead.",
                     "このブラウザはすでにこの対局の席を持っています。"
                     "リンクは相手に送ってください。"),
    "join.open": ("Open the game", "対局を開く"),
    "timeout.title": ("Time-out", "時間切れ"),
    "timeout.choose": ("You win on time. Choose:", "時間切れ勝ちです。選んでください："),
    "timeout.3331": ("Win 33–31", "33–31で勝ち"),
    "timeout.choosing": ("wins on time and chooses: 33–31 or play-out 勝手打ち",
                         "が時間切れ勝ち：33–31か勝手打ちかを選んでいます"),
    "timeout.playout": ("Play-out 勝手打ち", "勝手打ち (play-out)"),
    "playout.note": ("Play-out 勝手打ち: play both colours on your remaining time; stop "
                     "when you like (empties then go to the loser).",
                     "勝手打ち：残り時間で両方の色を打ち、好きな所で止められます（空きマスは負けた側へ）。"),
    "playout.stop": ("Stop and count", "ここで終了して数える"),
    "term.normal": ("game over", "終局"),
    "term.resignation": ("by resignation", "投了"),
    "term.timeout": ("on time (33–31 to the winner)", "時間切れ（勝者33石）"),
    "term.playout": ("on time, play-out 勝手打ち", "時間切れ・勝手打ち"),
    "term.both-flags": ("both flags down", "両者時間切れ"),
    "term.forfeit": ("by forfeit", "不戦"),
    "draw_win": ("draw-win right 引き分け勝ち", "引き分け勝ち"),
    "fuse.title": ("Colour by 伏せ石 fuse-ishi", "伏せ石で手番を決める"),
    "fuse.hidden": ("A disc is hidden under the hand.", "石が一つ伏せてあります。"),
    "fuse.call_draws": ("Call: will the top face be…", "上の面は？"),
    "fuse.call_nodraws": ("Call the colour on top:", "上の色を当ててください："),
    "fuse.top": ("Top (your colour = top face)", "表（上の面の色）"),
    "fuse.bottom": ("Bottom (your colour = bottom face)", "裏（下の面の色）"),
    "fuse.right": ("You won the call. Take a right:", "当たり。権利を選んでください："),
    "fuse.right.drawwin": ("Draw-win right 引き分け勝ち", "引き分け勝ちの権利"),
    "fuse.right.colour": ("Right to choose colour", "色を選ぶ権利"),
    "fuse.colour": ("Choose your colour:", "色を選んでください："),
    "fuse.revealed": ("The disc showed", "伏せ石の上の面"),
    "fuse.waiting": ("Waiting for", "待っています："),
    "fuse.drawwin_only": ("Colours are set. Draws are not allowed, so this 伏せ石 fuse-ishi "
                          "decides only who holds the draw-win right 引き分け勝ち: a right "
                          "call wins it for the caller, a wrong one for the hider.",
                          "色は決まっています。引き分けなしなので、この伏せ石は引き分け勝ちの"
                          "権利だけを決めます。当たれば呼んだ人、外れれば伏せた人が権利を持ちます。"),
    "counts": ("Discs", "石数"),
    "moves": ("Moves", "棋譜"),
    "opening": ("Opening", "定石"),
    "book": ("Book", "定石集"),
    "book.games": ("games", "局"),
    "book.games.one": ("game", "局"),
    "book.search": ("by search", "探索"),
    "hints.title": ("Hints (engine score per square)", "ヒント（各マスの評価値）"),
    "graph.title": ("Evaluation (Black's view, discs)", "評価値（黒から見た石差）"),
    "puzzles.title": ("Puzzles: find the best move", "詰めオセロ：最善手を探せ"),
    "puzzles.intro": ("Click the move you think best; the exact solver judges it (scores "
                      "in discs, from the side to move).",
                      "最善と思う手をクリックしてください。完全読みで判定します（手番側から見た石差）。"),
    "puzzles.to_move": ("{side} to move, {n} empties", "{side}の番、空き{n}"),
    "puzzles.to_move.one": ("{side} to move, {n} empty", "{side}の番、空き{n}"),
    "puzzles.judging": ("The solver is reading it out…", "完全読み中…"),
    "puzzles.right": ("The best move!", "最善手です！"),
    "puzzles.wrong": ("Not the best: {loss} discs lost.", "最善ではありません：{loss}石損。"),
    "puzzles.best": ("best:", "最善:"),
    "puzzles.prev": ("Previous", "前へ"),
    "puzzles.next": ("Next", "次へ"),
    "puzzles.pick": ("Puzzle", "問題"),
    "puzzles.retry": ("Try again", "もう一度"),
    "puzzles.link": ("Puzzles: find the best move in FFO endgames",
                     "詰めオセロ（FFOの終盤で最善手を探す）"),
    "notes.title": ("Notes", "解説"),
    "notes.move": ("The move", "この手"),
    "notes.position": ("The position", "この局面"),
    "notes.help": ("Measured on the board, in the words of the rules of thumb: stable discs "
                   "(確定石), X- and C-squares, mobility, openness (開放度), quiet moves "
                   "(中割り), single-disc flips (一石返し), parity (偶数理論), tempo "
                   "(手止まり), the opening.",
                   "盤面から測った事実を、確定石・X/C・着手可能数・開放度・中割り・一石返し・"
                   "偶数理論・手止まり・定石の言葉で示します。"),
    "library.title": ("Game library", "棋譜ライブラリ"),
    "library.empty": ("No games yet.", "まだ対局がありません。"),
    "library.players": ("Black – White", "黒 – 白"),
    "library.result": ("Result", "結果"),
    "library.moves": ("Moves", "手数"),
    "library.replay": ("Replay", "再生"),
    "library.continue": ("Continue", "続きから"),
    "library.transcript": ("Transcript", "棋譜テキスト"),
    "library.ggf": ("GGF", "GGF"),
    "library.yours": ("Your games (created or joined in this browser)",
                      "あなたの対局（このブラウザで作成・参加したもの）"),
    "library.public": ("Public games being played (観戦)", "公開中の対局（観戦）"),
    "library.public_empty": ("No public game is being played now.",
                             "いま公開中の対局はありません。"),
    "library.watch": ("Watch", "観戦する"),
    "public": ("public", "公開"),
    "replay.title": ("Replay", "棋譜再生"),
    "replay.first": ("Start", "最初"),
    "replay.prev": ("Back", "戻る"),
    "replay.next": ("Forward", "進む"),
    "replay.last": ("End", "最後"),
    "in_progress": ("in progress", "対局中"),
    "new.more": ("More options", "その他の設定"),
    "new.draws": ("Draws", "引き分け"),
    "new.more.note": ("handicap, board, start, draws, time-out claims, panels, watching",
                      "ハンデ・盤・初期配置・引き分け・時間切れ・表示・観戦"),
    "engine.warming": ("The engine is starting (first run only)…",
                       "エンジンを起動しています（初回のみ）…"),
    "move.gone": ("The position changed: {square} can no longer be played.",
                  "局面が変わりました：{square} にはもう打てません。"),
    "game.deleted": ("This game was deleted.", "この対局は削除されました。"),
    "replay.start": ("Start position", "開始局面"),
    "replay.help": ("Click a move or a point of the graph to go there; the arrow keys step "
                    "through the game.",
                    "手か評価値グラフの点をクリックするとその局面へ。矢印キーで一手ずつ進みます。"),
    "replay.position": ("Position", "局面"),
    "library.updated": ("Updated", "更新日時"),
    "library.filters": ("Filter", "絞り込み"),
    "library.all": ("All", "すべて"),
    "library.won": ("Won", "勝ち"),
    "library.lost": ("Lost", "負け"),
    "library.drawn": ("Drawn", "引き分け"),
    "library.black_won": ("Black won", "黒の勝ち"),
    "library.white_won": ("White won", "白の勝ち"),
    "library.in_progress": ("In progress", "対局中"),
    "library.since": ("From", "から"),
    "library.until": ("To", "まで"),
    "library.show_empty": ("Also games without a move", "一手もない対局も表示"),
    "library.apply": ("Apply", "適用"),
    "library.reset": ("Reset", "リセット"),
    "library.no_match": ("No game matches these filters.", "条件に合う対局がありません。"),
    "library.delete": ("Delete", "削除"),
    "library.delete.confirm": ("Delete this game for good? This cannot be undone.",
                               "この対局を完全に削除しますか？元に戻せません。"),
    "new_game_again": ("New game", "もう一局"),
    "casual": ("casual", "カジュアル"),
    "official": ("official", "公式"),
    "handicap": ("handicap", "ハンデ"),
    "error": ("Error", "エラー"),
    # the pages of refusals (errors.py; the API answers in JSON)
    "error.home": ("Home", "ホームへ"),
    "error.not_found": ("Page not found", "ページが見つかりません"),
    "error.not_found.body": ("There is nothing at this address: it may be mistyped, or what "
                             "it showed has been deleted.",
                             "このアドレスには何もありません。入力の誤りか、"
                             "削除された可能性があります。"),
    "error.no_game": ("Game not found", "対局が見つかりません"),
    "error.no_game.body": ("There is no game {id} here: the link may be mistyped, or the "
                           "game has been deleted.",
                           "対局 {id} はありません。リンクの誤りか、対局が削除された"
                           "可能性があります。"),
    "error.bad_request": ("This page cannot be shown", "このページは表示できません"),
    "error.bad_request.body": ("Something in the address is not what this page expects.",
                               "アドレスの一部が、このページで使えない値です。"),
    "error.server": ("Something went wrong", "問題が発生しました"),
    "error.server.body": ("The server could not show this page. Please try again in a "
                          "moment.",
                          "サーバーがこのページを表示できませんでした。"
                          "しばらくしてからもう一度お試しください。"),
    "lang.other": ("日本語", "English"),
    "connection": ("Reconnecting…", "再接続中…"),
}


# Areas keep their text in modules of their own, merged here (keys are prefixed by area).
for _area in (_record_strings, _tournament_strings, _study_strings, _review_strings,
              _editor_strings, _import_strings, _variation_strings, _warmup_strings):
    _clash = set(_area) & set(STRINGS)
    if _clash:  # pragma: no cover - a programming error, caught by any test
        raise RuntimeError(f"interface text keys defined twice: {sorted(_clash)}")
    STRINGS.update(_area)


def language_of(request: Request) -> Lang:
    """``?lang=`` first, then the ``lang`` cookie, then the browser's languages."""
    for value in (request.query_params.get("lang"), request.cookies.get("lang")):
        if value in LANGS:
            return "ja" if value == "ja" else "en"
    accept = request.headers.get("accept-language", "")
    return "ja" if accept.lower().startswith("ja") else "en"


def strings(lang: Lang) -> dict[str, str]:
    index = 0 if lang == "en" else 1
    return {key: pair[index] for key, pair in STRINGS.items()}
