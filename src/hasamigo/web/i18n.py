"""Interface text in English and Japanese (SPEC §7). Official terms keep their Japanese
names beside the English in both languages (伏せ石 fuse-ishi, 勝手打ち play-out, ...)."""

from __future__ import annotations

from typing import Literal

from fastapi import Request

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
    "opp.person": ("Another person", "もう一人の人"),
    "opp.person.note": ("two players on this screen", "この画面で二人で対局"),
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
    "win": ("WIN", "勝ち"),
    "lose": ("LOSE", "負け"),
    "draw": ("DRAW", "引き分け"),
    "wins": ("wins", "の勝ち"),
    "resign": ("Resign", "投了"),
    "resign.confirm": ("Resign this game?", "投了しますか？"),
    "undo": ("Undo", "待った"),
    "claim": ("Claim time-out", "時間切れを申告"),
    "timeout.title": ("Time-out", "時間切れ"),
    "timeout.choose": ("You win on time. Choose:", "時間切れ勝ちです。選んでください："),
    "timeout.3331": ("Win 33–31", "33–31で勝ち"),
    "timeout.playout": ("Play-out 勝手打ち", "勝手打ち (play-out)"),
    "playout.note": ("Play-out 勝手打ち: play both colours on your remaining time; stop "
                     "when you like (empties then go to the loser).",
                     "勝手打ち：残り時間で両方の色を打ち、好きな所で止められます（空きマスは負けた側へ）。"),
    "playout.stop": ("Stop and count", "ここで終了して数える"),
    "term.normal": ("game over", "終局"),
    "term.resignation": ("by resignation", "投了"),
    "term.timeout": ("on time (33–31)", "時間切れ（33–31）"),
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
    "counts": ("Discs", "石数"),
    "moves": ("Moves", "棋譜"),
    "opening": ("Opening", "定石"),
    "hints.title": ("Hints (engine score per square)", "ヒント（各マスの評価値）"),
    "graph.title": ("Evaluation (Black's view, discs)", "評価値（黒から見た石差）"),
    "library.title": ("Game library", "棋譜ライブラリ"),
    "library.empty": ("No games yet.", "まだ対局がありません。"),
    "library.date": ("Date", "日付"),
    "library.players": ("Black – White", "黒 – 白"),
    "library.result": ("Result", "結果"),
    "library.moves": ("Moves", "手数"),
    "library.replay": ("Replay", "再生"),
    "library.continue": ("Continue", "続きから"),
    "library.transcript": ("Transcript", "棋譜テキスト"),
    "library.ggf": ("GGF", "GGF"),
    "replay.title": ("Replay", "棋譜再生"),
    "replay.first": ("Start", "最初"),
    "replay.prev": ("Back", "戻る"),
    "replay.next": ("Forward", "進む"),
    "replay.last": ("End", "最後"),
    "in_progress": ("in progress", "対局中"),
    "new_game_again": ("New game", "もう一局"),
    "casual": ("casual", "カジュアル"),
    "official": ("official", "公式"),
    "handicap": ("handicap", "ハンデ"),
    "error": ("Error", "エラー"),
    "lang.other": ("日本語", "English"),
    "connection": ("Reconnecting…", "再接続中…"),
}


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
