"""The study export's data dictionary: every column of every table (:data:`TABLES
<hasamigo.study.records.TABLES>`) with its type, what it means and its codes, written as
``data_dictionary.csv`` beside the tables, so that the data can be read without the
software that made it. A test checks that every field of every record class is here.
"""

from __future__ import annotations

from hasamigo.notation.csv_cells import csv_text

TEXT, INT, NUMBER, BOOL = "text", "integer", "number", "boolean (1 yes, 0 no)"
LIST = "list (';'-separated in CSV)"
TIME = "ISO 8601 instant, UTC"
ARM = "a program's name (victory, amusement, amusement:swing, entertainer, engine:N…)"
OUTCOME = "win / lose / draw, from the subject's side"

#: table → column → (type, meaning, codes); empty cells are missing values
DICTIONARY: dict[str, dict[str, tuple[str, str, str]]] = {
    "subjects": {
        "study": (TEXT, "the study's id", ""),
        "subject": (TEXT, "the subject's pseudonym, by arrival (S01 first); the login code "
                          "is not exported", ""),
        "order": (LIST, "the programs in the order the subject played them "
                        "(counterbalanced: Williams' Latin square)", ARM),
        "language": (TEXT, "the language of the pages", "ja, en"),
        "simulated": (BOOL, "a simulated subject (hasamigo study simulate)", "1, 0"),
        "consented_at": (TIME, "when the subject consented", ""),
        "strength": (INT, "self-rated Othello strength (before the games)",
                     "5 強い strong … 1 弱い weak (paper); 5 strong … 1 never played "
                     "(extended)"),
        "play_frequency": (TEXT, "how often the subject plays (extended protocol only)",
                           "never, rarely, monthly, weekly, daily"),
        "strategies": (LIST, "strategies the subject knows, ticked (extended protocol "
                             "only)", "corners, x_squares, c_squares, edges, mobility, "
                                      "stable_discs, quiet_moves, parity, openings"),
        "more_fun": (TEXT, "the program whose game was more fun (どちらがおもしろかったか)",
                     ARM),
        "more_fun_why": (TEXT, "what was fun about it (それはどこがおもしろかったか)", ""),
        "what_makes_fun": (TEXT, "what makes a board game fun "
                                 "(あなたの思うボードゲームのおもしろさとは何か)", ""),
        "finished_at": (TIME, "when the subject finished the after questionnaire", ""),
        "protocol": (TEXT, "the study's protocol", "paper, extended"),
        "strategies_text": (TEXT, "Othello strategies the subject knows, free text "
                                  "(あなたの知っているオセロゲームの戦略はあるか; paper "
                                  "protocol)", ""),
    },
    "games": {
        "study": (TEXT, "the study's id", ""),
        "subject": (TEXT, "the subject's pseudonym", ""),
        "index": (INT, "the game's place in the subject's order (1 first)", ""),
        "program": (TEXT, "the program played (the arm)", ARM),
        "game_id": (TEXT, "the stored game's id", ""),
        "subject_colour": (TEXT, "the subject's colour, drawn at random", "black, white"),
        "outcome": (TEXT, "the game's result", OUTCOME),
        "subject_discs": (INT, "the subject's discs at the end", ""),
        "program_discs": (INT, "the program's discs at the end", ""),
        "moves": (INT, "plies played, passes included", ""),
        "felt": (INT, "how the game felt (extended protocol only)", "1 dull … 5 fun"),
        "felt_note": (TEXT, "the subject's note on the game (extended protocol only)", ""),
        "reported_outcome": (TEXT, "the result as the subject reported it "
                                   "(それぞれ対戦した勝敗結果; paper protocol)", OUTCOME),
        "expectation_at": (INT, "move number (1 = first disc placed, passes not counted) "
                                "of the program's expectation move; empty: not played", ""),
        "surprise_at": (INT, "move number of the program's surprise move; empty: not "
                             "played (the treatment did not happen)", ""),
        "gifts": (INT, "moves the program reported as gifts (the entertainer's)", ""),
    },
    "answers": {
        "study": (TEXT, "the study's id", ""),
        "subject": (TEXT, "the subject's pseudonym", ""),
        "game_index": (INT, "the game's place in the subject's order", ""),
        "program": (TEXT, "the program played", ARM),
        "game_id": (TEXT, "the stored game's id", ""),
        "move_number": (INT, "the ply after which the questions were asked (1 = the "
                             "game's first, passes counted)", ""),
        "program_move": (TEXT, "the program's move move_felt is about; empty: none",
                         "a1…h8, pass"),
        "move_kind": (TEXT, "what the program reported of that move",
                      "normal, expectation, surprise, gift"),
        "position": (TEXT, "the board after move_number (hasamigo board string: 64 "
                           "squares X black, O white, - empty, then the side to move)", ""),
        "can_win": (TEXT, "いま勝てそうですか: can the subject win now",
                    "win 勝てそう, unknown わからない, lose 負けそう"),
        "move_felt": (TEXT, "相手はどんな手を打ってきましたか: the program's move as the "
                            "subject felt it; empty: not asked (no program move yet)",
                      "surprising 意外な手, unknown わからない, expected 予想通り"),
        "seconds": (NUMBER, "seconds from the questions shown to the last answer", ""),
        "evaluation": (NUMBER, "the strong engine's evaluation of position, in discs from "
                               "the subject's side (positive: ahead); empty: not computed",
                       ""),
        "exact": (BOOL, "the evaluation is the exact final result (solved)", "1, 0"),
        "answered_at": (TIME, "when the last answer was given", ""),
        "timing": (TEXT, "when the questions were asked",
                   "subject-move (after each subject move, the paper's), program-move "
                   "(after each program move)"),
        "about_move": (INT, "the ply number of program_move; empty: none", ""),
        "subject_moves": (INT, "the subject's moves so far (at subject-move this one "
                               "included): the x-axis of the paper's Figure 7", ""),
    },
    "study": {
        "study": (TEXT, "the study's id", ""),
        "name": (TEXT, "the study's name", ""),
        "protocol": (TEXT, "the questions, their words, timing and scales",
                     "paper (the amusement paper's §4.1), extended"),
        "arms": (LIST, "the programs compared", ARM),
        "surprise_window": (TEXT, "when the amusement program may play its surprise move",
                            "moves (the paper's: moves 30-35 of the game), midgame (the "
                            "project's reading: those moves in the midgame phase only)"),
        "clock_minutes": (NUMBER, "minutes a side; empty: no clock", ""),
        "languages": (LIST, "the languages offered", "ja, en"),
        "created_at": (TIME, "when the study was created", ""),
        "archived_at": (TIME, "when it was archived (read-only); empty: open", ""),
        "withdrawn": (INT, "subjects who withdrew (their data is deleted)", ""),
        "software_version": (TEXT, "the hasamigo version that exported the data", ""),
        "exported_at": (TIME, "when the data was exported", ""),
    },
}

HEADER = ("table", "column", "type", "meaning", "codes")


def dictionary_csv() -> str:
    """The dictionary as CSV: one row per column of every table (:data:`HEADER`)."""
    return csv_text(HEADER, ((table, column, kind, meaning, codes)
                             for table, entries in DICTIONARY.items()
                             for column, (kind, meaning, codes) in entries.items()))


__all__ = ["DICTIONARY", "HEADER", "dictionary_csv"]
