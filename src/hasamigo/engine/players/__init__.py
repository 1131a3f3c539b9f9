"""Players: one interface (:class:`Player`) for simple players, the amusement paper's two
programs, our entertainer, the strong engine's levels and a mode that tries to lose.

Specs for :func:`make_player`: ``random``, ``greedy``, ``victory``, ``amusement``,
``amusement:swing`` (the paper's future work: the surprise move where the evaluation
swings sharply), ``entertainer``, ``engine:N`` (N = 1 .. MAX_LEVEL, or ``engine:top``), ``weakest``;
a level on T search threads, ``engine:N@T`` or ``engine:top@T`` (T = 1 .. MAX_THREADS: see
:func:`spec_threads`); and external engines, ``nboard:COMMAND`` and ``gtp:COMMAND`` (a
program that speaks the NBoard protocol or GTP, started at the first move:
:mod:`hasamigo.engine.protocols.external`; the command keeps its case and is split as a
shell would, without a shell). A spec is one value, :class:`PlayerSpec`
(:mod:`hasamigo.player_spec`: its text read and written in one place), checked
against the registry by :func:`player_spec`; each function here takes it or its text.

``choose(board, clock)`` takes the game's clock (the player's own copy): on it every
program manages its time by the one rule of :mod:`hasamigo.engine.timing` and never moves
after its flag fell; without one (``None``) each plays exactly as it always has.

>>> from hasamigo import Board
>>> player = make_player("victory", seed=7)
>>> board = Board()
>>> move = player.choose(board)
>>> board.is_legal(move), player.last_kind
(True, 'normal')
>>> try:
...     make_player("nobody")
... except ValueError as exc:
...     print(exc)
unknown player 'nobody'; known: random, greedy, victory, amusement, amusement:swing,
amusement:moves, amusement:swing:moves, entertainer, engine:N (N = 1..10), engine:top,
engine:N@T (T threads, 1..64), weakest, nboard:COMMAND, gtp:COMMAND
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from hasamigo.board import Board
from hasamigo.engine import MAX_LEVEL
from hasamigo.engine.limits import MAX_THREADS
from hasamigo.engine.players.base import (
    EXPECTATION,
    FORCED,
    GIFT,
    GIFT_KINDS,
    NORMAL,
    SURPRISE,
    Choice,
    Kernels,
    Player,
    move_number,
)
from hasamigo.engine.players.entertainer import EntertainerPlayer
from hasamigo.engine.players.naturalness import Violation, move_losses, violations
from hasamigo.engine.players.paper import (
    MIDGAME_WINDOW,
    MOVES_WINDOW,
    SURPRISE_WINDOWS,
    SWING,
    WORST,
    AmusementPlayer,
    VictoryPlayer,
    phase,
    planned_moves_at,
)
from hasamigo.engine.players.simple import GreedyPlayer, RandomPlayer
from hasamigo.engine.players.strong import EnginePlayer, WeakestPlayer
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import Color
from hasamigo.player_spec import EXTERNAL_PREFIXES, THREADS_MARK, TOP, PlayerSpec


@dataclass(frozen=True, slots=True)
class Program:
    """A program of the registry (:data:`PROGRAMS`): the one place a program is named.

    ``spec`` is what :func:`make_player` reads (``engine`` is played as ``engine:N`` or
    ``engine:top``: ``levels``); ``en``/``ja`` are its names for people, English and
    Japanese (the terminal and the web app build their labels from them); ``offered``:
    whether a person is offered it as an opponent (the web app's new-game form); its
    kernel needs are its class's (:attr:`Player.kernels`, :meth:`kernel_groups`).
    ``choices``: the options a spec may name after it, each a name and the keyword
    argument it sets (``amusement:midgame``: the surprise's window; see
    :func:`program_for`).

    >>> PROGRAMS["victory"].en, PROGRAMS["victory"].ja, PROGRAMS["engine"].levels
    ('Victory', '勝利指向', True)
    """

    spec: str
    player: type[Player]
    en: str
    ja: str
    description: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    offered: bool = True
    levels: bool = False
    choices: tuple[tuple[str, tuple[str, Any]], ...] = ()

    def make(self, *, seed: int | None = None, level: int | None = None,
             threads: int = 1) -> Player:
        """A new player of this program (``level``: the engine's, 1..MAX_LEVEL;
        ``threads``: its search threads, the engine's levels only)."""
        make: Callable[..., Player] = self.player  # the engine's classes take a level first
        if self.levels:
            return make(MAX_LEVEL if level is None else level, seed=seed, threads=threads,
                        **dict(self.options))
        if threads != 1:
            raise InvalidOptionError(f"{self.spec} searches on one thread: only the "
                                     "engine's levels take threads")
        return make(seed=seed, **dict(self.options))

    def kernel_groups(self, variant: type[Board], level: int | None = None
                      ) -> tuple[frozenset[str], frozenset[str]]:
        """``(needed, better)`` kernel groups of its moves on ``variant`` (see
        :func:`program_kernels`)."""
        if self.levels:
            return EnginePlayer.kernel_groups(variant, level)
        return self.player.kernel_groups(variant)


#: the options an amusement program's spec may name: its surprise rule and its surprise's
#: window, each by the name the paper's module gives it (:data:`SURPRISE_WINDOWS`)
AMUSEMENT_CHOICES = (("worst", ("surprise", WORST)), ("swing", ("surprise", SWING)),
                     *((window, ("window", window)) for window in SURPRISE_WINDOWS))
#: Every named program, in the order people are offered them: the one registry that
#: :func:`make_player`, the terminal (:mod:`hasamigo.cli.play`) and the web app
#: (:mod:`hasamigo.web.services.players`) read.
PROGRAMS: dict[str, Program] = {p.spec: p for p in (
    Program("victory", VictoryPlayer, "Victory", "勝利指向",
            "the paper's victory-oriented program: 5-ply minimax over weighted squares"),
    Program("amusement", AmusementPlayer, "Amusement", "娯楽指向",
            "the paper's amusement-oriented program: victory with an expectation move and "
            "a surprise move in the midgame (the window is the project's reading: moves "
            "30-35 while the game is in its midgame phase)", choices=AMUSEMENT_CHOICES),
    Program("amusement:swing", AmusementPlayer, "Amusement (swing)", "娯楽指向（スイング）",
            "amusement whose surprise is where the evaluation swings sharply",
            options=(("surprise", SWING),), offered=False),
    Program("amusement:moves", AmusementPlayer, "Amusement (moves 30-35)",
            "娯楽指向（30〜35手目）",
            "amusement whose surprise comes at moves 30-35 of the game, the paper's own window "
            "(「意外性の手は３０～３５手で打つ」)",
            options=(("window", MOVES_WINDOW),), offered=False),
    Program("amusement:swing:moves", AmusementPlayer, "Amusement (swing, moves 30-35)",
            "娯楽指向（スイング・30〜35手目）",
            "amusement:swing whose surprise comes at moves 30-35 of the game, the paper's "
            "window",
            options=(("surprise", SWING), ("window", MOVES_WINDOW)), offered=False),
    Program("entertainer", EntertainerPlayer, "Entertainer", "エンターテイナー",
            "keeps the game close and winnable for the opponent"),
    Program("engine", EnginePlayer, "Engine", "エンジン",
            f"the strong engine at a level, 1..{MAX_LEVEL}", levels=True),
    Program("weakest", WeakestPlayer, "Weakest", "最弱", "tries to lose"),
    Program("random", RandomPlayer, "Random", "ランダム", "a legal move chosen at random"),
    Program("greedy", GreedyPlayer, "Greedy", "欲張り", "the move that flips the most discs",
            offered=False),
)}
#: the specs an error message lists, simplest first (every program of the registry)
KNOWN_SPECS = ("random", "greedy", "victory", "amusement", "amusement:swing", "amusement:moves",
               "amusement:swing:moves", "entertainer",
               f"engine:N (N = 1..{MAX_LEVEL})", "engine:top",
               f"engine:N@T (T threads, 1..{MAX_THREADS})", "weakest", "nboard:COMMAND",
               "gtp:COMMAND")


def _read(spec: PlayerSpec | str) -> PlayerSpec:
    return spec if isinstance(spec, PlayerSpec) else PlayerSpec.parse(spec)


def program_for(read: PlayerSpec) -> Program:
    """The registered program the spec ``read`` names, checked against it: a level (1 to
    :data:`MAX_LEVEL`, or ``top``) for a program played at levels and none for the
    others, threads (1 to :data:`MAX_THREADS`) for those alone;
    :class:`~hasamigo.errors.InvalidOptionError` naming the spec otherwise (an unknown
    program, an external engine's spec).

    >>> program_for(PlayerSpec("engine", level=6, threads=2)).spec
    'engine'
    >>> program_for(PlayerSpec("amusement", ("swing",))).en
    'Amusement (swing)'
    >>> program_for(PlayerSpec("victory", level=5))
    Traceback (most recent call last):
    ...
    hasamigo.errors.InvalidOptionError: 'victory:5': victory is played at no level
    """
    program = None if read.external else PROGRAMS.get(read.name) or _chosen(read)
    if program is None:
        raise InvalidOptionError(f"unknown player {shown(str(read))}; known: "
                                 f"{', '.join(KNOWN_SPECS)}")
    if program.levels and read.level is None:
        raise InvalidOptionError(f"{shown(str(read))}: {read.name} is played at a level: "
                                 f"{read.name}:N (N = 1..{MAX_LEVEL}) or {read.name}:top")
    if not program.levels and read.level is not None:
        raise InvalidOptionError(f"{shown(str(read))}: {read.name} is played at no level")
    if not program.levels and read.threads != 1:
        raise InvalidOptionError(f"{shown(str(read))}: only the engine's levels take threads "
                                 f"(engine:N@T, engine:top@T)")
    if isinstance(read.level, int) and read.level > MAX_LEVEL:
        raise InvalidOptionError(f"{shown(str(read))}: the level after ':' runs from 1 to "
                                 f"{MAX_LEVEL} or is {TOP!r}, not {shown(str(read.level))}")
    if read.threads > MAX_THREADS:
        raise InvalidOptionError(f"{shown(str(read))}: the threads after '@' run from 1 to "
                                 f"{MAX_THREADS}, not {shown(str(read.threads))}")
    return program


def _chosen(read: PlayerSpec) -> Program | None:
    """The program ``read`` names by its base and options that are its
    :attr:`Program.choices` (at most one for each keyword: ``amusement:midgame``,
    ``amusement:moves:swing``), named after them; ``None`` otherwise."""
    base = PROGRAMS.get(read.program)
    if base is None or not read.options:
        return None
    named = dict(base.choices)
    chosen = [named.get(option) for option in read.options]
    keywords = [choice[0] for choice in chosen if choice is not None]
    if None in chosen or len(set(keywords)) < len(keywords):
        return None
    options = {**dict(base.options), **dict(c for c in chosen if c is not None)}
    return replace(base, spec=read.name, options=tuple(options.items()), offered=False,
                   en=f"{base.en} ({', '.join(read.options)})",
                   ja=f"{base.ja}（{'・'.join(read.options)}）")


def level_of(spec: PlayerSpec) -> int | None:
    """The level of ``spec`` as a number (``top`` is :data:`MAX_LEVEL`); ``None``
    without one."""
    return MAX_LEVEL if spec.level == "top" else spec.level


def check_spec(spec: PlayerSpec) -> PlayerSpec:
    """``spec`` if the registry plays it (:func:`program_for`; an external engine's spec
    is not checked here: its command is, when it starts);
    :class:`~hasamigo.errors.InvalidOptionError` naming what is wrong otherwise."""
    if not spec.external:
        program_for(spec)
    return spec


def player_spec(text: PlayerSpec | str) -> PlayerSpec:
    """``text`` read as a spec (:meth:`PlayerSpec.parse`) and checked against the registry
    (:func:`check_spec`): what every front end reads a player with.

    >>> str(player_spec(" ENGINE:top @ 4")), player_spec("gtp:gnugo --mode gtp").command
    ('engine:top@4', 'gnugo --mode gtp')
    """
    return check_spec(_read(text))


def program_of(spec: PlayerSpec | str) -> tuple[Program, int | None] | None:
    """The registered program ``spec`` names and its level (``engine:N``, ``engine:top``,
    with or without its threads, ``@T``; ``None`` for the others), any case; ``None`` for
    an unknown or external spec, and for any spec :func:`program_for` refuses.

    >>> program_of("Engine:5")[0].spec, program_of("engine:top")[1], program_of("gtp:x")
    ('engine', 10, None)
    >>> program_of("engine:6@2")[1], program_of("engine:6@0"), program_of("victory@2")
    (6, None, None)
    """
    try:
        read = _read(spec)
        return program_for(read), level_of(read)
    except InvalidOptionError:
        return None


def spec_threads(spec: PlayerSpec | str) -> int:
    """The search threads the program ``spec`` asks for: T of ``engine:N@T`` or
    ``engine:top@T``, else 1 (an external engine's spec is its command: an ``@`` in it
    is the command's). :class:`~hasamigo.errors.InvalidOptionError` naming the spec for
    threads that are not 1..MAX_THREADS, for a program that takes none, and for an
    unknown one.

    >>> spec_threads("engine:6@2"), spec_threads("engine:top"), spec_threads("gtp:x@y")
    (2, 1, 1)
    >>> spec_threads("engine:5@65")
    Traceback (most recent call last):
    ...
    hasamigo.errors.InvalidOptionError: 'engine:5@65': the threads after '@' run from 1 to
    64, not '65'
    """
    return player_spec(spec).threads


def plays_every_grid(spec: PlayerSpec | str) -> bool:
    """Whether the program ``spec`` plays boards beyond the 8×8 grid (Grand Othello and
    its shapes), told without starting it (see :attr:`Player.every_grid`).

    >>> plays_every_grid("greedy"), plays_every_grid("engine:5"), plays_every_grid("victory")
    (True, True, False)
    """
    found = program_of(spec)
    return found is not None and found[0].player.every_grid


def plays_every_rule(spec: PlayerSpec | str) -> bool:
    """Whether the program ``spec`` plays the rules the search kernels do not know
    (:meth:`Board.rules_beyond_kernels`: Nip's, the circular board's ring, 挟み碁's flip
    rules), told without starting it (see :attr:`Player.every_rule`): the players of the
    Board API and the engine (which then searches through it).

    >>> plays_every_rule("random"), plays_every_rule("engine:5"), plays_every_rule("victory")
    (True, True, False)
    """
    found = program_of(spec)
    return found is not None and found[0].player.every_rule


def program_kernels(spec: PlayerSpec | str, variant: type[Board]
                    ) -> tuple[frozenset[str], frozenset[str]]:
    """``(needed, better)``: the compiled kernel groups (:data:`hasamigo._kernels.warm.GROUPS`)
    the program ``spec`` needs to move on ``variant``, the board's own included, and
    those it plays better with once they are loaded, told without starting it (see
    :attr:`Player.kernels`). An external engine (a process of its own) and an unknown
    spec need only the board's.

    >>> from hasamigo import Board
    >>> [sorted(groups) for groups in program_kernels("weakest", Board)]
    [['players', 'rules'], ['engine']]
    >>> sorted(program_kernels("engine:5", Board)[0]), sorted(program_kernels("random", Board)[0])
    (['engine', 'rules'], ['rules'])
    """
    found = program_of(spec)
    if found is None:
        return Player.kernel_groups(variant)
    program, level = found
    return program.kernel_groups(variant, level)


def external_spec(spec: PlayerSpec | str) -> tuple[str, str] | None:
    """``(protocol, command)`` of an external engine's spec, the command as written;
    ``None`` for any other spec (one that does not parse included).

    >>> external_spec("NBoard:/opt/Edax/edax -q"), external_spec("engine:4")
    (('nboard', '/opt/Edax/edax -q'), None)
    """
    try:
        read = _read(spec)
    except InvalidOptionError:
        return None
    return (read.program, read.command) if read.external else None


def treatment_of(spec: PlayerSpec | str, board: Board, colour: Color
                 ) -> tuple[int | None, int | None]:
    """``(expectation_at, surprise_at)``: the move numbers (:func:`move_number`) at which
    the program ``spec``, playing ``colour``, played the amusement program's expectation
    move and surprise move in ``board``'s record; ``None`` for each not played, and for
    every program without them. Read from the record by the program's own rules
    (:func:`~hasamigo.engine.players.paper.planned_moves_at`), as the program itself does.

    >>> treatment_of("victory", Board(), Color.BLACK)
    (None, None)
    """
    found = program_of(spec)
    if found is None or not issubclass(found[0].player, AmusementPlayer):
        return None, None
    options = dict(found[0].options)
    return planned_moves_at(board, colour, options.get("surprise", WORST),
                            options.get("window", MIDGAME_WINDOW))


def make_player(spec: PlayerSpec | str, *, seed: int | None = None) -> Player:
    """The player named by ``spec`` (see the module docstring), seeded for reproducibility;
    :class:`~hasamigo.errors.InvalidOptionError` naming what is wrong and listing the
    known specs for an unknown one (:func:`player_spec`)."""
    read = player_spec(spec)
    if read.external:
        from hasamigo.engine.protocols.external import external_player

        return external_player(read.program, read.command, seed=seed)
    return program_for(read).make(seed=seed, level=level_of(read), threads=read.threads)


__all__ = [
    "EXPECTATION",
    "EXTERNAL_PREFIXES",
    "FORCED",
    "GIFT",
    "GIFT_KINDS",
    "KNOWN_SPECS",
    "NORMAL",
    "PROGRAMS",
    "SURPRISE",
    "THREADS_MARK",
    "AmusementPlayer",
    "Choice",
    "EnginePlayer",
    "EntertainerPlayer",
    "GreedyPlayer",
    "Kernels",
    "Player",
    "PlayerSpec",
    "Program",
    "RandomPlayer",
    "VictoryPlayer",
    "Violation",
    "WeakestPlayer",
    "check_spec",
    "external_spec",
    "level_of",
    "make_player",
    "move_losses",
    "move_number",
    "phase",
    "player_spec",
    "plays_every_grid",
    "plays_every_rule",
    "program_for",
    "program_kernels",
    "program_of",
    "spec_threads",
    "treatment_of",
    "violations",
]
