"""API schemas (pydantic), apart from the tables; websocket messages as a typed union.

Every request model is strict and bounded: unknown fields are refused, strings have a
maximum length, numbers a range and must be finite (``NaN``/``Infinity`` are refused).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from hasamigo.analysis.explain import Note

OpponentKind = Literal[
    "victory", "amusement", "entertainer", "engine", "weakest", "random", "person", "external"
]
ColourChoice = Literal["black", "white", "random", "fuse-ishi"]
ColourName = Literal["black", "white"]
#: the library's result filter, seen from the colour you played
LibraryResult = Literal["won", "lost", "drawn", "in_progress"]
#: the library's opponent filter: a program spec (``engine`` = every level) or ``person``
OpponentSpec = Annotated[str, StringConstraints(
    max_length=50, pattern=r"^[a-z][a-z0-9_-]{0,31}(:[a-z0-9_-]{1,16})?$")]
Name = Annotated[str, Field(min_length=1, max_length=40)]
Rank = Annotated[str, Field(max_length=12)]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class NewGame(Request):
    """The new-game form. ``clock_minutes=None`` plays without a clock.

    ``opponent="external"``: the external engine ``engine`` names (a key of the server's
    settings file). ``opponent="person"``: two people; ``same_screen`` (default) gives
    the creator one seat token for both seats, otherwise the answer carries a
    ``join_url`` for the other person's browser. ``public`` games can be watched by
    anyone (read-only)."""

    opponent: OpponentKind = "victory"
    level: int = Field(default=5, ge=1, le=10, description="engine level (opponent 'engine')")
    engine: str | None = Field(
        default=None, max_length=31, pattern=r"^[a-z0-9_-]{1,31}$",
        description="opponent 'external': the key of an engine of the server's settings "
        "file (engines.toml); nothing else starts a program")
    colour: ColourChoice = "black"
    handicap: int = Field(default=0, ge=0, le=4)
    clock_minutes: float | None = Field(default=20.0, gt=0, le=600)
    variant: Literal["8x8", "6x6", "4x4", "grand", "eight-stars", "hasegawa-8x9",
                     "hasegawa-9x10", "nip-circle"] = "8x8"
    start: Literal["cross", "parallel", "original"] = "cross"
    flip_rule: Literal["all", "one", "choose", "capture", "indirect", "osere", "osoro",
                       "osore", "esero", "esere", "esoro", "esore"] = Field(
        default="all", description="how a move treats the discs it brackets: 'all' turns "
        "every bracketed disc (Othello); 挟み碁's 'one' only one of them, 'choose' those the "
        "mover wants (at least one), the mover's choice, and 'capture' takes them off the "
        "board (stones placed anywhere, 30 a side); 'indirect' is Hasegawa's early 間接挟み "
        "(the turned discs bracket in their turn; our reading); a Fairy Othello word ('osere', the "
        "seed's オセレ, and our readings 'osoro'…'esore') says what is placed, turned and "
        "brackets (docs/rules.md); the game's variant is then named with it "
        "(hasegawa-8x9+one, standard+osere)")
    casual: bool = True
    draws_allowed: bool = True
    position: str | None = Field(
        default=None, max_length=200,
        description="a board string to start from (casual set-up positions)")
    names: tuple[Name, Name] | None = Field(
        default=None, description="player names (the person, or both people)"
    )
    ranks: tuple[Rank | None, Rank | None] | None = Field(
        default=None, description="dan/kyu ranks (3d, 1k, 三段…): fuse-ishi's hider is the "
        "higher rank, else the elder")
    birth_years: tuple[int | None, int | None] | None = Field(default=None)
    same_screen: bool = True
    public: bool = False
    auto_claim: bool = Field(default=False, description="claim a program's fallen flag "
                             "for me as soon as it falls")
    program_claims: bool = Field(default=True, description="the program claims my fallen "
                                 "flag, as an opponent would")
    scoring: Literal["jof-2014", "jof-pre-2014", "discs"] | None = Field(
        default=None, description="how a board that ends with empties is counted: "
        "'jof-2014' empties to the winner, 'jof-pre-2014' the JOF rule before 1 June 2014 "
        "(the discs' difference, empties split; a wipe-out 64–0), 'discs' the board as it "
        "stands; none: today's rule, jof-2014")
    days_per_move: int | None = Field(
        default=None, ge=1, le=14, strict=True, description="a correspondence game between "
        "two people: each move within so many days (1–14) instead of a chess clock (clock_minutes "
        "left out or null); the side to move loses on time (33–31) when its deadline passes")
    rated: bool = Field(default=False, description="a rated game (issue 67): between two "
                        "people's accounts in two browsers (the creator signed in), standard "
                        "8×8 Othello, no take-backs (casual is ignored); rated when it ends "
                        "if both seats are held by accounts (GET /api/games/{id}/rating)")


#: A square's name in a move request (``f5``, ``j10``).
TurnedSquare = Annotated[str, StringConstraints(pattern=r"^[a-jA-J](?:10|[1-9])$")]


class MoveRequest(Request):
    move: str = Field(max_length=8, description="a square (f5); passes are automatic")
    turned: list[TurnedSquare] | None = Field(
        default=None, min_length=1, max_length=40,
        description="under a 挟み碁 flip rule: the bracketed discs to turn (one under "
        "'one', any non-empty set under 'choose'); default every bracketed disc, which "
        "'one' allows only when the move brackets a single disc")
    colour: ColourName | None = None
    revision: int | None = Field(default=None, ge=0, le=1_000_000)


class ColourStep(Request):
    """A fuse-ishi step: ``call`` top/bottom (black/white without draws), ``right``
    draw-win/colour, ``colour`` black/white."""

    step: Literal["call", "right", "colour"]
    value: Literal["top", "bottom", "black", "white", "draw-win", "colour"]
    participant: int | None = Field(default=None, ge=0, le=1)


class TimeoutChoice(Request):
    choice: Literal["33-31", "playout"]


class ColourAction(Request):
    colour: ColourName | None = None


class ClaimRequest(Request):
    """``flagged``: whose flag (default the opponent's; your own is a self-report)."""

    colour: ColourName | None = None
    flagged: ColourName | None = None


class JoinRequest(Request):
    code: str = Field(min_length=8, max_length=64)


class PublicRequest(Request):
    public: bool


#: a :class:`~hasamigo.game.result.Scoring` code
ScoringCode = Literal["jof-2014", "jof-pre-2014", "discs"]


class ScoringRequest(Request):
    """How the game counts a board that ends with empties, from now on (its creator's
    choice; an imported record's count is its source's, or the JOF's of its date for a
    JOF event: :mod:`hasamigo.game.imported`)."""

    scoring: ScoringCode = Field(description="'jof-2014' empties to the winner (the JOF "
                                 "rules from 1 June 2014, and the international rule "
                                 "before), 'jof-pre-2014' the JOF rule before 1 June 2014 "
                                 "(the discs' difference, empties split; a wipe-out 64–0), "
                                 "'discs' the board as it stands")


class SeatView(BaseModel):
    name: str
    program: str | None
    person: bool


class ClockView(BaseModel):
    black: float
    white: float
    running: ColourName | None
    flagged: list[ColourName]


class ResultView(BaseModel):
    """A :class:`~hasamigo.game.result.GameResult` as the API shows it; made by
    :func:`hasamigo.web.views.result_view` only."""

    black: int
    white: int
    winner: ColourName | None
    termination: str
    score: str = Field(description="the counts under the game's own scoring ('38.5–25.5')")
    score_black: float = Field(description="score's Black count (may be x.5)")
    score_white: float = Field(description="score's White count (may be x.5)")
    scoring: str = Field(description="the scoring of score: jof-2014, jof-pre-2014, discs")
    today: str | None = Field(description="the counts with the empties to the winner "
                              "(jof-2014), when score gives others")
    by_draw_win: bool
    rated: bool


class FuseIshiView(BaseModel):
    step: Literal["call", "right", "colour"] | None
    by: int | None
    by_name: str | None
    draws_allowed: bool
    draw_win_only: bool = Field(description="colours are set; this fuse-ishi decides the "
                                "draw-win right alone")
    top: ColourName | None


class OpeningView(BaseModel):
    en: str | None
    ja: str | None
    moves: str


class GameView(BaseModel):
    id: str
    revision: int
    position_revision: int
    phase: str
    variant: str
    title: str
    rows: int
    cols: int
    cells: str
    analysable: bool = Field(
        description="the engine analyses this board (hints, evaluation graph): every "
        "board but those with a disc limit (on Nip's rule, a ring or a 挟み碁 flip rule it "
        "searches shallowly, by the Board API)")
    rings: list[list[str]] = Field(
        default_factory=list,
        description="lines that close on themselves, besides the grid's (the circular Nip "
        "board's circumference): each its squares in cyclic order")
    flip_rule: str = Field(default="all", description="how a move turns the discs it "
                           "brackets: 'all', or 挟み碁's 'one' or 'choose'")
    choices: dict[str, list[str]] = Field(
        default_factory=dict, description="under a 挟み碁 flip rule, the legal squares "
        "that bracket more than one disc, each with the discs to choose from")
    turn: ColourName
    legal: list[str]
    last_move: str | None
    flipped: list[str]
    passed: list[ColourName]
    counts: dict[str, int]
    seats: dict[str, SeatView] | None
    participants: list[SeatView]
    persons: list[ColourName]
    clock: ClockView | None
    casual: bool
    official: bool
    public: bool
    handicap: int
    you: list[int] = Field(description="participants your seat token acts for")
    your_colours: list[ColourName]
    can_undo: bool
    undo_request: ColourName | None
    claimable: ColourName | None = Field(description="a flag you may claim now")
    claim_for: ColourName | None = Field(description="the colour you would claim as")
    timeout_loser: ColourName | None
    draw_win: ColourName | None
    fuse_ishi: FuseIshiView | None
    result: ResultView | None
    scoring: str = Field(default="jof-2014", description="how the game counts a board "
                         "that ends with empties: jof-2014, jof-pre-2014, discs "
                         "(result.scoring once over)")
    result_final: bool
    accepted: list[ColourName]
    suspended: bool
    awaiting_join: bool = Field(description="the second person has not opened the join "
                                "link yet (their opponent's clock waits)")
    programs_waiting: list[Literal["black", "white"]] = Field(
        default_factory=list, description="the colours of programs that cannot move yet: "
        "their kernels are being compiled (a fresh server's first run); their clocks do "
        "not run meanwhile")
    paused: bool = Field(default=False, description="an official game waiting for its "
                         "program to be able to move: it begins (or goes on) once it can")
    days_per_move: int | None = Field(default=None, description="a correspondence game's "
                                      "days per move (no chess clock: clock is null)")
    rated: bool = Field(default=False, description="the game counts for the players' "
                        "ratings (GET /api/games/{id}/rating once it is over)")
    deadline: float | None = Field(default=None, description="a correspondence game: the "
                                   "instant (seconds since the epoch, UTC) by which the side "
                                   "to move must move, or it loses on time")
    waiting_for: list[str] = Field(default_factory=list, description="the kernel groups "
                                   "the waiting programs need (GET /api/status says how "
                                   "far each has come)")
    moves: list[str]
    seconds: list[float | None]
    first_colour: ColourName
    opening: OpeningView | None
    thinking: bool


class CreatedGame(GameView):
    """The new game, with the creator's seat token (send it as ``Authorization: Bearer``)
    and, for a second person in another browser, the link that gives them their seat."""

    seat_token: str
    join_url: str | None


class JoinedGame(BaseModel):
    seat_token: str
    game: GameView


class GameSummaryView(BaseModel):
    id: str
    created_at: str
    updated_at: str
    phase: str
    variant: str
    black: str
    white: str
    opponent: str
    casual: bool
    move_count: int
    score: str | None
    winner: str | None
    termination: str | None
    public: bool
    your_colour: ColourName | None = Field(
        default=None, description="the colour you played (the person against a program; "
        "between two people the seat this browser holds alone, else the creator's; null "
        "when one token holds both seats, as two people on one screen): what the result "
        "filter's won/lost/drawn refer to")
    scoring: str = Field(default="jof-2014", description="how the game counts a board "
                         "that ends with empties: jof-2014, jof-pre-2014, discs (score is "
                         "always jof-2014's)")


class PositionView(BaseModel):
    ply: int
    move: str | None
    colour: ColourName | None
    cells: str
    black: int
    white: int
    flipped: list[str]
    seconds: float | None = None


class HintView(BaseModel):
    move: str
    score: int


class BookMoveView(BaseModel):
    """A move of the opening book at this position: its value (discs, side to move), the
    games of the archive that played it, and whether it stays in the book (``False``: the
    best other move, valued by search)."""

    move: str
    value: int
    games: int
    in_book: bool


class HintsView(BaseModel):
    side: ColourName
    depth: int
    hints: list[HintView]
    book: list[BookMoveView] = Field(default_factory=list,
                                     description="the opening book's moves, best first")


class NoteView(BaseModel):
    """A note of :mod:`hasamigo.analysis.explain`: a measured fact and its rule of thumb,
    in English and Japanese, and the squares it is about."""

    kind: str
    rule: str
    rule_ja: str
    text: str
    text_ja: str
    squares: list[str]

    @classmethod
    def of(cls, note: Note) -> NoteView:
        return cls(kind=note.kind, rule=note.rule, rule_ja=note.rule_ja, text=note.en,
                   text_ja=note.ja, squares=list(note.squares))


class NotesView(BaseModel):
    """The notes of the position after ``ply`` moves and of the move that led to it."""

    ply: int
    move: str | None = Field(description="the move that led here (none at the start)")
    position: list[NoteView]
    move_notes: list[NoteView]


class EvaluationsView(BaseModel):
    """Evaluation after each ply, in discs from Black's point of view."""

    depth: int
    scores: list[int | None]


class ErrorBody(BaseModel):
    code: str
    message: str
    reason: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


# ---- over the board: record entry, record sheets, the chess clock ------------------------
SquareName = Annotated[str, Field(min_length=2, max_length=4)]


class OtbNewGame(Request):
    """A game played over the board: two people at a real board, the server keeping the
    clock and the record. One seat token acts for both (the recorder's or arbiter's
    screen). ``names``: participant 0 then 1 (with ``colour`` black, 0 plays Black);
    ``scheduled_start``: the round's start (seconds since the epoch) from which a late
    player's clock runs; ``byoyomi_seconds``: a player with at most this left is in
    byo-yomi (an illegal move claimed then is a time-out; 0: only once the flag fell)."""

    names: tuple[Name, Name] = ("Player 1", "Player 2")
    colour: ColourChoice = "black"
    clock_minutes: float | None = Field(default=20.0, gt=0, le=600)
    draws_allowed: bool = True
    handicap: int = Field(default=0, ge=0, le=4)
    casual: bool = False
    byoyomi_seconds: float = Field(default=0.0, ge=0, le=3600)
    scheduled_start: float | None = Field(default=None, ge=0, le=1e11)
    ranks: tuple[Rank | None, Rank | None] | None = None
    birth_years: tuple[int | None, int | None] | None = None
    public: bool = False


class PressRequest(Request):
    """``colour`` presses its clock button (``passed``: its turn ended with a pass)."""

    colour: ColourName
    passed: bool = False


class ParticipantRequest(Request):
    participant: int = Field(ge=0, le=1)


class IllegalClaimRequest(Request):
    """``colour`` claims, on its own turn, that the opponent's last move was illegal."""

    colour: ColourName


class PenaltyRequest(Request):
    """The arbiter's penalty (JOF rule 21) on ``colour``, for ``reason``: ``seconds``
    off its clock (持ち時間減), or with ``loss`` the game lost by penalty (反則負け)."""

    colour: ColourName
    reason: str = Field(min_length=1, max_length=500)
    seconds: float = Field(default=0.0, ge=0, le=3600)
    loss: bool = False


class PenaltyView(BaseModel):
    colour: ColourName
    reason: str
    seconds: float
    loss: bool


class EntryRequest(Request):
    """A move as played on the board: ``square`` where the disc was put (``null``: a
    pass), the ``colour`` it shows (default: the mover's), the discs ``turned``; or the
    whole ``board`` after the move (a board string's cells, row 1 first). ``by``: who
    moved (default: the side to move)."""

    square: SquareName | None = None
    colour: ColourName | None = None
    turned: list[SquareName] | None = Field(default=None, max_length=64, description=
                                            "the discs turned (default: what the disc "
                                            "brackets; [] for none)")
    board: str | None = Field(default=None, max_length=80)
    by: ColourName | None = None


class ResultCardRequest(Request):
    black: int = Field(ge=0, le=64)
    white: int = Field(ge=0, le=64)


class SheetCheckRequest(Request):
    """A record sheet as text: 8 lines of 8 fields (a move number or ``-``)."""

    text: str = Field(max_length=4000)
    handicap: int = Field(default=0, ge=0, le=4)
    first: ColourName | None = None


class FaultView(BaseModel):
    move_number: int
    kind: str
    squares: list[str]
    message: str
    decision: str | None = Field(default=None, description="corrected, kept, undecided; "
                                 "null while it awaits the recorder")


class SheetFaultView(BaseModel):
    move_number: int
    kind: str
    squares: list[str]
    message: str


class SuggestionView(BaseModel):
    description: str
    transcript: str


class SheetCheckView(BaseModel):
    """``hasamigo record check --json``'s shape."""

    ok: bool
    transcript: str
    faults: list[SheetFaultView]
    suggestion: SuggestionView | None


class MarkView(BaseModel):
    move_number: int
    board: str


class LateView(BaseModel):
    participant: int
    name: str
    since: float
    arrived: float | None


class PressView(BaseModel):
    colour: ColourName
    passed: bool


class OtbClockView(BaseModel):
    black: float
    white: float
    running: ColourName | None
    flagged: list[ColourName]
    started: bool = Field(description="the first press has been made")
    starter: ColourName = Field(description="who presses first (White; Black in a "
                                "handicap game)")
    byoyomi: float
    in_byoyomi: list[ColourName]


class OtbView(BaseModel):
    """A game over the board: the game as everywhere (``game``), with its clock as the
    players press it, a late player, the record's faults and marks, and the result card."""

    game: GameView
    over_the_board: bool
    clock: OtbClockView | None
    late: LateView | None
    scheduled: float | None
    pending: list[FaultView]
    pending_board: str | None = Field(default=None, description="the board as the faulty "
                                      "move left it (cells), while it awaits a decision")
    faults: list[FaultView]
    marks: list[MarkView]
    card: list[int] | None
    presses: int
    last_press: PressView | None
    names: dict[str, str] | None
    last_move_claimant: ColourName | None = Field(default=None, description="who may still "
                                                  "claim the last move illegal after the "
                                                  "game ended (rule 10)")
    penalties: list[PenaltyView] = Field(default_factory=list, description="the arbiter's, "
                                         "in order (rule 21)")


class CreatedOtb(BaseModel):
    seat_token: str
    game: OtbView


# ---- websocket messages --------------------------------------------------------------
class HelloMessage(Request):
    """The first message on a game socket: the seat token (``None`` to watch a public
    game)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)


class SyncMessage(Request):
    type: Literal["sync"]


class PingMessage(Request):
    type: Literal["ping"]


class MoveMessage(Request):
    type: Literal["move"]
    move: str = Field(max_length=8)
    colour: ColourName | None = None
    revision: int | None = Field(default=None, ge=0, le=1_000_000)


ClientMessage = Annotated[HelloMessage | SyncMessage | PingMessage | MoveMessage,
                          Field(discriminator="type")]


class StateMessage(BaseModel):
    type: Literal["state"] = "state"
    game: GameView


class PongMessage(BaseModel):
    type: Literal["pong"] = "pong"


class ErrorMessage(BaseModel):
    type: Literal["error"] = "error"
    error: ErrorBody


ServerMessage = Annotated[StateMessage | PongMessage | ErrorMessage, Field(discriminator="type")]
