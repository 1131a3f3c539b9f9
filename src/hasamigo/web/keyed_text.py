"""The texts looked up by a key instead of written out where they are shown: by the page
scripts, which read them from the page (``T["your_turn"]``, ``T[`term.${r.termination}`]``,
``static/js/api.js`` ``strings()``), and by the name of a value of some kind (a termination,
a tournament's format or state, a program) in the templates' ``label(kind, value)``.

This is a table of gettext messages, nothing more: each is marked for the catalog with
:func:`~hasamigo.web.i18n.N_` (:func:`~hasamigo.web.i18n.NP_` with a context,
:func:`~hasamigo.web.i18n.NN_` for a text that follows a count) and translated from the one
catalog when a page is rendered (:func:`keyed_text`). A key here is a name for the scripts;
the catalog's msgid is the English. A text that follows a count reaches the scripts as its
two forms, ``{"one": …, "other": …}`` (``ngettext`` for 1 and for 2: English and Japanese
tell only one from many), and ``forCount(T, key, n)`` in ``api.js`` picks one.
``tests/test_i18n.py`` checks that every key the scripts read is here.

This module builds on :mod:`hasamigo.web.i18n` (never the other way round):
:func:`install` gives the templates gettext and then ``label()`` and ``keyed_text()``.
"""

from __future__ import annotations

import functools

from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from hasamigo.ratings.outcome import (
    BOTH_FLAGS,
    LATE_FORFEIT,
    MARKED_NOT_RATED,
    NOT_PLAYED,
    SAME_PLAYER,
)
from hasamigo.tournament.rated import NOT_ENTRANT_ACCOUNTS, RATED_AS_ENTERED
from hasamigo.web import i18n
from hasamigo.web.i18n import N_, NN_, NP_, Lang, Message, Plural, page_lang, translate

KEYED: dict[str, Message] = {
    "app": N_("hasamigo — Othello"),
    "opp.victory": N_("Victory-oriented program"),
    "opp.victory.note": N_("plays to win (5-ply minimax)"),
    "opp.amusement": N_("Amusement-oriented program"),
    "opp.amusement.note": N_("gives you chances and surprises"),
    "opp.entertainer": N_("Entertainer"),
    "opp.entertainer.note": N_("keeps the game close and lively"),
    "opp.engine": N_("Engine"),
    "opp.engine.note": N_("strength by level 1–10"),
    "opp.weakest": N_("Weakest"),
    "opp.weakest.note": N_("tries its best to lose"),
    "opp.random": N_("Random"),
    "opp.random.note": N_("plays any legal move"),
    "opp.external.note": N_("an engine installed on this server (NBoard/GTP)"),
    "opp.person": N_("Another person"),
    "opp.person.note": N_("two players: one screen or two browsers"),
    "level": N_("Level"),
    "minutes": N_("minutes"),
    "choose.one": N_("{square}: click the disc to turn."),
    "choose.some": N_("{square}: click the discs to turn (at least one), then confirm."),
    "choose.none": N_("Choose at least one disc."),
    "black": N_("Black"),
    "white": N_("White"),
    "you": N_("You"),
    "to_move": N_("to move"),
    "your_turn": N_("Your turn"),
    "corr.title": N_("Your move"),
    "corr.yours": N_("Your move — {left} left"),
    "corr.theirs": N_("{name} to move — {left} left"),
    "corr.by": N_("deadline {when}"),
    "corr.overdue": N_("The deadline has passed."),
    "corr.days": NN_("{n} day", "{n} days"),
    "corr.hours": NN_("{n} hour", "{n} hours"),
    "corr.minutes": NN_("{n} minute", "{n} minutes"),
    "corr.days_hours": N_("{days} {hours}"),
    "corr.per_move": NN_("correspondence: {n} day per move",
                         "correspondence: {n} days per move"),
    # the lobby (lobby.js)
    "lobby.accept": N_("Accept"),
    "lobby.cancel": N_("Cancel the challenge"),
    "lobby.refused": N_("Not done:"),
    "lobby.minutes": N_("{n} min a side"),
    "lobby.rated": N_("rated"),
    "lobby.unrated": N_("unrated"),
    "lobby.private": N_("not watched"),
    "lobby.colour.black": N_("poster plays Black"),
    "lobby.colour.white": N_("poster plays White"),
    "lobby.colour.random": N_("colours at random"),
    "lobby.colour.fuse-ishi": N_("colours by fuse-ishi 伏せ石"),
    "lobby.watch": N_("Watch"),
    "lobby.open": N_("Open"),
    "lobby.your_move": N_("Your move"),
    "lobby.their_move": N_("Their move"),
    "lobby.correspondence": N_("correspondence"),
    "lobby.against": N_("against {name}"),
    "lobby.no_challenges": N_("No open challenges right now: post one."),
    "lobby.no_live": N_("Nobody is playing a public game right now."),
    "lobby.no_games": N_("No unfinished games."),
    "lobby.waiting_count": N_("Waiting now: {n}"),
    "lobby.waiting_near": N_("Waiting for someone near {rating} (±{window})…"),
    "lobby.provisional": N_("? provisional: the rating is still uncertain after few "
                            "rated games"),
    "lobby.waiting_any": N_("Waiting for anyone (your rating {rating})…"),
    "thinking": N_("is thinking…"),
    "pass_notice": N_("has no legal move and passes (パス)"),
    "win": N_("You win"),
    "lose": N_("You lose"),
    "draw": N_("Draw"),
    "wins": N_("{name} wins"),
    "resign": N_("Resign"),
    "resign.confirm": N_("Resign this game?"),
    "undo": N_("Take back 待った"),
    "undo.asks": N_("asks to take back their move (待った):"),
    "claim": N_("Claim time-out 時間切れ"),
    "claim.self": N_("Report my own time-out 時間切れ"),
    "accept": N_("Accept result"),
    "waiting.opponent": N_("waiting for the opponent"),
    "clock.stopped": N_("The clocks are stopped."),
    "status.awaiting_join": N_("Waiting for the other player"),
    "clock.awaiting_join": N_("Waiting for the other player to open the link: the clocks start "
                              "when they arrive."),
    "official.no_help": N_("Official game: no hints or evaluation graph until it ends."),
    "loading": N_("Loading…"),
    "offline.action": N_("The server cannot be reached, so this did not go through. Try again "
                         "once it is back."),
    "private.title": N_("This game is private"),
    "watching": N_("Watching 観戦"),
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    "join.failed": N_("This join link didn't work:"),
    "join.no_code": N_("the link has no code."),
    "join.already": N_("This browser already holds a seat in this game. Send the link to the "
                       "other person instead."),
    "timeout.title": N_("Time-out"),
    "timeout.choose": N_("You win on time. Choose:"),
    "timeout.3331": N_("Win 33–31"),
    "timeout.choosing": N_("wins on time and chooses: 33–31 or play-out 勝手打ち"),
    "timeout.playout": N_("Play-out 勝手打ち"),
    "playout.note": N_("Play-out 勝手打ち: play both colours on your remaining time; stop when "
                       "you like (empties then go to the loser)."),
    "term.normal": N_("game over"),
    "term.resignation": N_("by resignation"),
    "term.timeout": N_("on time (33–31 to the winner)"),
    "term.playout": N_("on time, play-out 勝手打ち"),
    "term.both-flags": N_("both flags down"),
    "term.forfeit": N_("by forfeit"),
    "term.penalty": N_("loss by penalty 反則負け"),
    "draw_win": N_("draw-win right 引き分け勝ち"),
    # a rated game's result (game.js renderRating)
    "rating.change": N_("Rating {before} → {after} ({delta})"),
    "rating.not_rated": N_("Not rated: {reason}"),
    "scoring.jof-pre-2014": N_("scored by the JOF rule before June 2014 (empties split)"),
    "scoring.discs": N_("discs on the board (no empties given)"),
    "scoring.today": N_("with the empties to the winner:"),
    "fuse.title": N_("Colour by 伏せ石 fuse-ishi"),
    "fuse.hidden": N_("A disc is hidden under the hand."),
    "fuse.call_draws": N_("Call: will the top face be…"),
    "fuse.call_nodraws": N_("Call the colour on top:"),
    "fuse.top": N_("Top (your colour = top face)"),
    "fuse.bottom": N_("Bottom (your colour = bottom face)"),
    "fuse.right": N_("You won the call. Take a right:"),
    "fuse.right.drawwin": N_("Draw-win right 引き分け勝ち"),
    "fuse.right.colour": N_("Right to choose colour"),
    "fuse.colour": N_("Choose your colour:"),
    "fuse.revealed": N_("The disc showed"),
    "fuse.waiting": N_("Waiting for"),
    "fuse.drawwin_only": N_("Colours are set. Draws are not allowed, so this 伏せ石 fuse-ishi "
                            "decides only who holds the draw-win right 引き分け勝ち: a right "
                            "call wins it for the caller, a wrong one for the hider."),
    "counts": N_("Discs"),
    "moves": N_("Moves"),
    # the length of a game, as the library counts it: every move and every pass
    "moves.plies": NN_("{n} ply", "{n} plies"),
    "moves.passes": NN_("{n} pass", "{n} passes"),
    "opening": N_("Opening"),
    "book": N_("Book"),
    "book.games": NN_("{n} game", "{n} games"),
    "book.search": N_("by search"),
    "graph.title": N_("Evaluation (Black's view, discs)"),
    "puzzles.to_move": NN_("{side} to move, {n} empty", "{side} to move, {n} empties"),
    "puzzles.judging": N_("The solver is reading it out…"),
    "puzzles.right": N_("The best move!"),
    "puzzles.wrong": N_("Not the best: {loss} discs lost."),
    "puzzles.best": N_("best:"),
    "notes.move": N_("The move"),
    "notes.position": N_("The position"),
    "library.continue": N_("Continue"),
    "public": N_("public"),
    "in_progress": N_("in progress"),
    "engine.warming": N_("The engine is starting (first run only)…"),
    "move.gone": N_("The position changed: {square} can no longer be played."),
    "game.deleted": N_("This game was deleted."),
    "replay.start": NP_("replay", "Start position"),
    "library.black_won": N_("Black won"),
    "library.white_won": N_("White won"),
    "library.delete.confirm": N_("Delete this game for good? This cannot be undone."),
    "casual": N_("casual"),
    "handicap": N_("handicap"),
    "error": N_("Error"),
    "record.none": N_("none"),
    "record.no_faults": N_("No fault so far."),
    "record.decision.corrected": N_("corrected"),
    "record.decision.kept": N_("kept"),
    "record.decision.undecided": N_("undecided"),
    "record.decision.claimed": N_("claimed after the end (rule 10), corrected"),
    "record.click_square": N_("Click the square where the disc was put first."),
    "record.status.colours": N_("Colours are not decided yet."),
    "record.status.over": N_("The game is over."),
    "record.status.pending": N_("Move {n} has faults: correct it or keep the board."),
    "record.status.move": N_("Move {n}: {colour} to move"),
    "record.card.in": N_("card"),
    "record.not_rated": N_("not rated"),
    "record.illegal.claimed": N_("{claimant} claimed an illegal move: {offender}'s clock runs "
                                 "again. {offender} puts the move right, then presses."),
    "record.illegal.last": N_("{claimant} claimed {offender}'s last move illegal (rule 10): "
                              "the record has it corrected."),
    "record.illegal.timeout": N_("{claimant} claimed an illegal move in {offender}'s byo-yomi "
                                 "秒読み: a time-out for {offender}."),
    "record.absent": N_("{name} is absent"),
    "record.forfeit.confirm": N_("The late player takes a forfeit loss (64–0, not rated)?"),
    "record.flag": N_("Flag down"),
    "record.byoyomi_on": N_("Byo-yomi 秒読み"),
    "record.passed": N_("passed"),
    "record.no_clock": N_("This game has no clock."),
    "record.late": N_("{name} is late: their time runs."),
    "record.start": N_("{colour} presses to start the clock (space bar or tap)."),
    "record.sheet.ok": N_("A legal game."),
    "record.sheet.bad": N_("Not a legal game."),
    "tournament.format.meijin": N_("Meijin open division (名人戦 無差別)"),
    "tournament.format.master": N_("Meijin master division (40 and over)"),
    "tournament.format.student": N_("Meijin student division"),
    "tournament.format.elementary": N_("Meijin elementary school division"),
    "tournament.format.swiss": N_("Swiss"),
    "tournament.format.round-robin": N_("Round robin"),
    "tournament.format.knockout": N_("Knockout"),
    "tournament.state.registration": N_("Registration"),
    "tournament.state.playing": N_("In play"),
    "tournament.state.finished": N_("Finished"),
    "tournament.round_n": N_("Round {n}"),
    "tournament.round_of": N_("round {n} of {total}"),
    "tournament.in_play": N_("in play"),
    "tournament.complete": N_("complete"),
    "tournament.not_paired": N_("No round is paired yet."),
    "tournament.board": N_("Board"),
    "tournament.black": N_("Black"),
    "tournament.white": N_("White"),
    "tournament.bye": N_("bye"),
    "tournament.not_played_draw": N_("not played: a draw"),
    "tournament.forfeit": N_("forfeit"),
    "tournament.fuse_ishi": N_("colours by fuse-ishi 伏せ石"),
    "tournament.draw_win": N_("draw-win 引き分け勝ち"),
    "tournament.woman": N_("woman"),
    "tournament.withdrawn": N_("withdrawn"),
    "tournament.stage.swiss": NP_("stage", "Swiss"),
    "tournament.stage.placement": N_("Placement"),
    "tournament.stage.round_robin": N_("Round robin"),
    "tournament.stage.knockout": NP_("stage", "Knockout"),
    "tournament.stage.semifinal": N_("Semifinal"),
    "tournament.stage.final": N_("Final"),
    "tournament.stage.third_place": N_("Third place"),
    "tournament.stage.women_final": N_("Women's final"),
    "tournament.seed": N_("seed"),
    "tournament.director.withdraw": N_("Withdraw"),
    "tournament.director.withdraw.confirm": N_("Withdraw from the next round on"),
    "tournament.director.reason": N_("Reason"),
    "tournament.director.cancel": NP_("tournament", "Cancel"),
    "tournament.director.penalty_loser": N_("Loses by penalty"),
    "tournament.student": N_("student"),
    "tournament.school_year": N_("school year {n}"),
    "tournament.director.penalty_declare": N_("Declare the loss by penalty"),
    "tournament.director.penalty_rated": N_("The project's reading: rule 21 does not say how a "
                                            "loss by penalty is scored or whether it is rated; it"
                                            " is scored 64–0, like a forfeit, and rated."),
    "tournament.director.sanctions.title": N_("Caution, warning, removal (rule 21)"),
    "tournament.director.sanctions.rule": N_("Rule 21: the arbiter may caution, warn and remove a"
                                             " person who disturbs the smooth and fair running of"
                                             " the tournament: an entrant or anyone else."),
    "tournament.director.sanctions.caution": N_("Caution 注意"),
    "tournament.director.sanctions.warning": N_("Warning 警告"),
    "tournament.director.sanctions.removal": N_("Removal 退場"),
    "tournament.director.sanctions.kind": N_("Sanction"),
    "tournament.director.sanctions.entrant": N_("Entrant"),
    "tournament.director.sanctions.person": N_("or another person (name)"),
    "tournament.director.sanctions.round": N_("Round (if any)"),
    "tournament.director.sanctions.board": N_("Board (if any)"),
    "tournament.director.sanctions.give": N_("Give the sanction"),
    "tournament.director.sanctions.none": N_("No sanction given."),
    "tournament.director.sanctions.removal_note": N_("The project's reading: removing an entrant "
                                                     "also withdraws them from the next round; a "
                                                     "game of theirs already paired is entered as"
                                                     " usual. The rule does not say."),
    "tournament.director.pair": N_("Pair round {n}"),
    "tournament.director.unpair": N_("Take back round {n}"),
    "tournament.director.waiting": N_("Boards waiting for a result: {n}"),
    "tournament.director.enter": N_("Enter"),
    "tournament.director.from_game": N_("Or take the result from a game recorded over the board:"),
    "tournament.director.game": N_("game id or link"),
    "tournament.director.take_result": N_("Take the result"),
    "tournament.director.record_board": N_("Record this game over the board"),
    "tournament.director.correct": N_("Correct"),
    "tournament.director.save_correction": N_("Save the correction"),
    "tournament.director.played_black": N_("Played Black"),
    "tournament.director.forfeit_by": N_("Forfeit by"),
    "tournament.director.none": N_("—"),
    "tournament.director.late": N_("late (not rated)"),
    "tournament.director.audit.before": N_("Before"),
    "tournament.director.audit.after": N_("After"),
    "tournament.director.session_ended": N_("Your session has ended: log in again."),
    "tournament.director.entrants_count": NN_("{n} entrant", "{n} entrants"),
    "tournament.director.boards": NN_("{n} board", "{n} boards"),
    "tournament.action.create": N_("created"),
    "tournament.action.password": N_("password changed"),
    "tournament.action.register": N_("registered"),
    "tournament.action.withdraw": N_("withdrew"),
    "tournament.action.pair": N_("paired"),
    "tournament.action.unpair": N_("pairing taken back"),
    "tournament.action.result": N_("result"),
    "tournament.action.correct": N_("correction"),
    "study.protocol.paper": N_("the amusement paper's (§4.1)"),
    "study.protocol.extended": N_("extended (the richer questionnaire)"),
    "study.window.midgame": N_("the project's reading: surprise move at moves 30–35 in "
                               "the midgame phase only"),
    "study.window.moves": N_("the paper's: surprise move at moves 30–35 of the game"),
    "tournament.action.penalty": N_("loss by penalty (rule 21)"),
    "tournament.action.sanction": N_("sanction (rule 21)"),
    "review.practise": N_("practise"),
    "review.start": N_("Review this game"),
    "review.queued": N_("Waiting for the engine…"),
    "review.running": N_("Reviewing move {n} of {total}…"),
    "review.failed": N_("The review stopped:"),
    "review.retry": N_("Continue the review"),
    "review.not_over": N_("The game can be reviewed once it is over."),
    "review.unavailable": N_("The engine cannot review games on this board."),
    "review.depth": N_("Depth {depth}, exact from {exact} empties; scores in discs."),
    "review.graph": N_("Evaluation by the review (Black's view, discs)"),
    "review.average": N_("average loss {avg} discs a move ({total} in all)"),
    "review.worst": N_("worst: move {n} {move} (−{loss})"),
    "review.turning": N_("Turning point: move {n}, {colour} {move} (best {best}, −{loss} discs)"),
    "review.no_turning": N_("No move lost a disc."),
    "review.label.best": N_("best"),
    "review.label.good": N_("good"),
    "review.label.inaccuracy": N_("inaccuracy"),
    "review.label.mistake": N_("mistake"),
    "review.label.blunder": N_("blunder"),
    "review.count.best": NN_("{n} best move", "{n} best moves"),
    "review.count.good": NN_("{n} good move", "{n} good moves"),
    "review.count.inaccuracy": NN_("{n} inaccuracy", "{n} inaccuracies"),
    "review.count.mistake": NN_("{n} mistake", "{n} mistakes"),
    "review.count.blunder": NN_("{n} blunder", "{n} blunders"),
    "review.forced": N_("forced"),
    "editor.title": N_("Board editor"),
    "editor.link": N_("Set up a position in the board editor"),
    "editor.help": N_("Click a square: empty, black, white, empty again."),
    "editor.variant": N_("Board"),
    "editor.turn": N_("Side to move"),
    "editor.black": N_("Black"),
    "editor.white": N_("White"),
    "editor.to_move": NP_("editor", "{side} to move"),
    "editor.discs": N_("Discs"),
    "editor.empty": N_("empty"),
    "editor.clear": NP_("editor", "Clear"),
    "editor.start": N_("Start position"),
    "editor.board_string": N_("Board string"),
    "editor.load": N_("Load"),
    "editor.copy_board": N_("Copy board string"),
    "editor.copy_link": N_("Copy link"),
    "editor.copied": N_("Copied"),
    "editor.copy_failed": N_("Select the text and copy it"),
    "editor.share": N_("Share"),
    "editor.check": N_("Position"),
    "editor.legal": NP_("legal moves", "Moves"),
    "editor.none": N_("none"),
    "editor.must_pass": N_("must pass"),
    "editor.game_over": N_("The game is over"),
    "editor.winner": N_("{side} wins"),
    "editor.draw": N_("Draw"),
    "editor.reachable": N_("No sign that a game cannot reach it (the checks are not complete)"),
    "editor.unreachable": N_("No game from the start can reach this position"),
    "editor.notes": N_("Notes"),
    "editor.analyse": N_("Analyse"),
    "editor.analysing": N_("Analysing…"),
    "editor.analysis": N_("Scores in discs for the side to move, searched to depth"),
    "editor.no_analysis": N_("The engine does not analyse this board."),
    "editor.play": N_("Play from here"),
    "editor.opponent": N_("Opponent"),
    "editor.you_play": N_("You play"),
    "editor.bad_link": N_("The link's board could not be read; the start is shown instead."),
    "import.working": N_("Importing…"),
    "import.empty": N_("Paste a game or choose a file first."),
    "import.too_large": N_("The file is too large to import (at most {size})."),
    "var.tag": N_("variation"),
    "var.none": N_("No variations yet."),
    "var.from": N_("Variation from move {n}:"),
    "var.line_from": N_("from move {n}"),
    "var.delete": N_("Delete"),
    "var.delete_title": N_("Delete this variation and everything after it"),
    "var.open": N_("Open this variation"),
    "var.count": N_("{count} of {max} moves stored"),
    "var.stale": NN_("{n} stored move no longer follows the game and is hidden.",
                     "{n} stored moves no longer follow the game and are hidden."),
    "var.unavailable": N_("No variations during an official game in progress."),
    "var.notes": N_("The notes follow the main line: back to it to read them."),
    "warmup.getting": N_("Getting {what} ready (first run only)"),
    "warmup.colon": N_(": "),
    "warmup.compiling": N_("compiling {kernel}…"),
    "warmup.compiling_any": N_("compiling…"),
    "warmup.loading": N_("loading…"),
    "warmup.waiting": N_("waiting for the kernels before it…"),
    "warmup.left.seconds": N_("about {n} s left"),
    "warmup.left.minutes": N_("about {n} min left"),
    "warmup.status": N_("is getting ready (first run only)"),
    "warmup.casual": N_("{name}'s clock does not run until it can move; you may move meanwhile."),
    "warmup.official": N_("This official game begins once {name} can move: neither clock runs "
                          "until then."),
    "warmup.paused": N_("The game begins once {name} is ready"),
    "warmup.form": N_("You can start a game now: a program that is not ready yet plays as "
                      "soon as it is, and its clock waits until then."),
    "warmup.hints": N_("Hints and the graph come once the engine is ready."),
    "warmup.program": N_("the program"),
    "warmup.group.rules": N_("the rules"),
    "warmup.group.players": N_("the programs"),
    "warmup.group.engine": N_("the engine"),
    "warmup.group.wide-rules": N_("the 10×10 board"),
    "warmup.group.wide": N_("the 10×10 engine"),
    "warmup.group.smallboard": N_("the small boards' solver"),
    "warmup.kernel.moves": N_("the move generator"),
    "warmup.kernel.weighted": N_("the weighted-square search"),
    "warmup.kernel.search": N_("the midgame search"),
    "warmup.kernel.endgame": N_("the endgame solver"),
    "warmup.kernel.evaluate": N_("the evaluation"),
    "warmup.kernel.patterns": N_("the evaluation's patterns"),
    "warmup.kernel.stability": N_("the stable-disc count"),
    "warmup.kernel.hashtable": N_("the hash table"),
    "warmup.kernel.wide": N_("the 10×10 move generator"),
    "warmup.kernel.wide_search": N_("the 10×10 search"),
    "warmup.kernel.smallboard": N_("the small boards' solver"),
    # a board's one name on every page (board_name()): "board.<the variant's name>", and
    # "board.option.<option>" for what a name adds after "+"
    "board.standard": N_("8×8"),
    "board.parallel": N_("8×8, parallel start"),
    "board.original": N_("Reversi 8×8, original start"),
    "board.reversi-32": N_("Reversi 8×8, 32 discs"),
    "board.6x6": N_("6×6"),
    "board.4x4": N_("4×4"),
    "board.octagon": N_("Octagonal (52 squares)"),
    "board.grand": N_("10×10"),
    "board.eight-stars": N_("Eight Stars"),
    "board.hasegawa-8x9": N_("8×9"),
    "board.hasegawa-9x10": N_("9×10"),
    "board.nip-octagon": N_("Nip (octagon)"),
    "board.nip-circle": N_("Nip (circle)"),
    "board.option.one": N_("one disc turned"),
    "board.option.choose": N_("turned discs chosen"),
    "board.option.nip": N_("Nip's rule"),
    "board.option.capture": N_("capture 挟み碁"),
    "board.separator": N_(", "),
    "colon": N_(": "),
    "multi.colour.red": N_("red"),
    "multi.colour.yellow": N_("yellow"),
    "multi.colour.green": N_("green"),
    "multi.colour.blue": N_("blue"),
    "multi.colour.black": N_("black"),
    "multi.colour.white": N_("white"),
    "multi.game.rolit": N_("Rolit"),
    "multi.game.othello4": N_("4-player Othello (our reading)"),
    "multi.random_first": N_("Drawn at random"),
    "multi.pass": N_("pass"),
    "multi.program": N_("program"),
    "multi.waiting": N_("waiting for their link to be opened"),
    "multi.over": N_("Game over:"),
    "multi.rated_sign_in": N_("A seat of a rated game is taken signed in: sign in (or sign "
                              "up), then open your link again."),
    "acct.invalid_name": N_("A name is 2 to 20 letters of one script (Japanese may mix "
                            "with Latin letters), digits, _ or -."),
    "acct.invalid_password": N_("A password is 8 to 256 characters, and not your name."),
    "acct.name_taken": N_("That name is taken: choose another."),
    "acct.wrong_login": N_("Wrong name or password."),
    "acct.wrong_password": N_("Wrong password: the account was not deleted."),
    "acct.rate_limited": N_("Too many attempts: wait a minute and try again."),
    "acct.rate_limited_for": NN_("Too many attempts: try again in {n} minute.",
                                 "Too many attempts: try again in {n} minutes."),
    "acct.invalid_request": N_("Fill in the name and the password."),
    "acct.claimed": NN_("{n} game is now yours.", "{n} games are now yours."),
    "acct.confirm_delete": N_("Delete your account for good? This cannot be undone."),
    # tournaments by account (issue 67): why a result is not rated (the ratings' and the
    # tournament's reasons, by code), a correction that keeps the ratings
    "tournament.not_rated": N_("not rated"),
    "tournament.unrated": N_("unrated"),
    "tournament.rating_note": RATED_AS_ENTERED,
    **{f"tournament.not_rated.{e.code}": e.en for e in (
        LATE_FORFEIT, BOTH_FLAGS, MARKED_NOT_RATED, NOT_PLAYED, SAME_PLAYER,
        NOT_ENTRANT_ACCOUNTS)},
    # a multi-player game's seat whose person deleted their account before the end
    "multi.left": N_("left the game (account deleted)"),
}


#: what a page script reads: a text, or the two forms of a text that follows a count
Keyed = str | dict[str, str]


def _keyed(lang: Lang, message: Message) -> Keyed:
    if isinstance(message, Plural):
        return {"one": translate(lang, message, 1), "other": translate(lang, message, 2)}
    return translate(lang, message)


@functools.cache
def keyed_text(lang: Lang) -> dict[str, Keyed]:
    """:data:`KEYED` in ``lang``."""
    return {key: _keyed(lang, message) for key, message in KEYED.items()}


def label_of(lang: Lang, prefix: str, value: object) -> str:
    """The text that names ``value`` of a kind (``label_of(lang, "term", "timeout")``);
    the value itself, its underscores as spaces, when it has none."""
    if value is None:
        return ""
    message = KEYED.get(f"{prefix}.{value}")
    if message is None:
        return str(value).replace("_", " ")
    return translate(lang, message)


def board_name(lang: Lang, variant: str) -> str:
    """A board's name as every page shows it (``8×8``, ``8×9, one disc turned``), from the
    variant's name or an alias of it (``standard``, ``8x8``, ``hasegawa-8x9+one``); a name
    no board has is shown as it is."""
    from hasamigo.errors import HasamigoError
    from hasamigo.variants import find_variant

    try:
        name = find_variant(variant).name
    except HasamigoError:
        return variant
    base, *options = name.split("+")
    words = [label_of(lang, "board", base)]
    words += [label_of(lang, "board.option", option) for option in options]
    return translate(lang, KEYED["board.separator"]).join(words)


@pass_context
def _board_name(context: Context, variant: str) -> str:
    return board_name(page_lang(context), variant)


@pass_context
def _label(context: Context, prefix: str, value: object) -> str:
    return label_of(page_lang(context), prefix, value)


@pass_context
def _keyed_text(context: Context) -> dict[str, Keyed]:
    return keyed_text(page_lang(context))


def install(env: Environment) -> None:
    """Give ``env`` gettext over the catalogs (:func:`hasamigo.web.i18n.install`),
    ``label(kind, value)`` for a value's name, ``board_name(variant)`` for a board's and
    ``keyed_text()`` for the page scripts."""
    i18n.install(env)
    env.globals.update(label=_label, board_name=_board_name, keyed_text=_keyed_text)
