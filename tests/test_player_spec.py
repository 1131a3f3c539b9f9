"""A player's spec is one value (:class:`~hasamigo.engine.players.spec.PlayerSpec`), read
from its text and written back in one place: every spec round-trips, the texts stored
before it read as they did, and bad specs are refused naming what and where."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hasamigo.engine.limits import MAX_LEVEL, MAX_THREADS
from hasamigo.engine.players import (
    PROGRAMS,
    AmusementPlayer,
    check_spec,
    level_of,
    make_player,
    player_spec,
    program_for,
)
from hasamigo.engine.players.paper import SURPRISE_WINDOWS, SWING
from hasamigo.errors import InvalidOptionError
from hasamigo.player_spec import (
    EXTERNAL_PREFIXES,
    LEVEL_DIGITS,
    NAME_CHARS,
    THREADS_DIGITS,
    TOP,
    PlayerSpec,
)

names = st.from_regex(rf"[a-z][a-z0-9_-]{{0,{NAME_CHARS - 1}}}", fullmatch=True).filter(
    lambda name: name != TOP and name not in EXTERNAL_PREFIXES)
levels = st.none() | st.just(TOP) | st.integers(1, 10 ** LEVEL_DIGITS - 1)
programs = st.builds(PlayerSpec, names, st.lists(names, max_size=3).map(tuple), levels,
                     st.integers(1, 10 ** THREADS_DIGITS - 1))
commands = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1,
                   max_size=40).map(str.strip).filter(bool)
externals = st.builds(lambda protocol, command: PlayerSpec(protocol, command=command),
                      st.sampled_from(EXTERNAL_PREFIXES), commands)


@given(programs | externals)
def test_every_spec_round_trips_through_its_text(spec: PlayerSpec) -> None:
    assert PlayerSpec.parse(str(spec)) == spec
    assert str(PlayerSpec.parse(str(spec))) == str(spec)


@given(programs)
def test_case_and_spaces_around_the_threads_do_not_matter(spec: PlayerSpec) -> None:
    text = str(spec).upper().replace("@", " @ ")
    assert PlayerSpec.parse(f"  {text} ") == spec


@given(st.text(max_size=60))
def test_any_text_is_a_spec_or_a_clear_refusal(text: str) -> None:
    try:
        spec = PlayerSpec.parse(text)
    except InvalidOptionError as exc:
        assert str(exc)
    else:
        assert PlayerSpec.parse(str(spec)) == spec


@pytest.mark.parametrize("text", [
    # every text a game, journal, tournament or study stored before the value type
    *sorted(PROGRAMS.keys() - {"engine"}), "engine:1", "engine:10", "engine:top", "engine:6@2",
    "engine:top@64", "nboard:/opt/Edax/edax -q", "gtp:gnugo --mode gtp",
    "nboard:ssh me@host edax",
])
def test_the_stored_texts_read_and_write_back_the_same(text: str) -> None:
    assert str(PlayerSpec.parse(text)) == text
    assert str(player_spec(text)) == text


def test_the_parts_are_named() -> None:
    assert PlayerSpec.parse("amusement:swing:moves") == PlayerSpec("amusement",
                                                                   ("swing", "moves"))
    assert PlayerSpec.parse("amusement:swing:moves").name == "amusement:swing:moves"
    level = PlayerSpec.parse("engine:top@3")
    assert (level.name, level.level, level_of(level), level.threads) == (
        "engine", TOP, MAX_LEVEL, 3)
    external = PlayerSpec.parse("GTP: gnugo --mode GTP ")
    assert (external.external, external.program, external.command) == (
        True, "gtp", "gnugo --mode GTP")
    assert str(PlayerSpec.parse("engine:5").with_threads(4)) == "engine:5@4"


@pytest.mark.parametrize("window", SURPRISE_WINDOWS)
def test_every_surprise_window_is_an_option_by_its_own_name(window: str) -> None:
    """The surprise's window is a named option like any other, read from the paper's own
    list of windows: a window added there (or a default changed) needs no edit here."""
    spec = player_spec(f"amusement:{window}")
    assert spec.options == (window,)
    player = make_player(spec)
    assert isinstance(player, AmusementPlayer) and player.window == window
    swing = make_player(f"amusement:{window}:swing")
    assert isinstance(swing, AmusementPlayer)
    assert (swing.window, swing.surprise) == (window, SWING)
    assert program_for(spec).spec == f"amusement:{window}"  # named after its options


def test_the_registry_s_own_entries_keep_their_names_and_options_are_checked() -> None:
    assert program_for(PlayerSpec.parse("amusement:swing:moves")).en == (
        "Amusement (swing, moves 30-35)")
    assert dict(program_for(PlayerSpec.parse("amusement:moves:swing")).options) == dict(
        program_for(PlayerSpec.parse("amusement:swing:moves")).options)
    for bad in ("amusement:late", "amusement:moves:midgame", "amusement:swing:worst",
                "victory:moves", "engine:moves:5"):
        with pytest.raises(InvalidOptionError, match="unknown player"):
            check_spec(PlayerSpec.parse(bad))


@pytest.mark.parametrize(("text", "said"), [
    ("", "empty"),
    ("   ", "empty"),
    ("engine:5@0", "'engine:5@0': the threads after '@' are a whole number from 1, not '0'"),
    ("engine:5@", "the threads after '@'"),
    ("engine:5@x", "not 'x'"),
    ("engine:5@1000", "not '1000'"),
    ("engine:0", "'engine:0': the level after ':' is a whole number from 1 or 'top', not '0'"),
    ("engine:999", "not '999'"),
    ("engine:5:swing", "the level comes last, not '5'"),
    ("amusement::moves", "an option's name"),
    ("amusement:sw ing", "not 'sw ing'"),
    ("9lives", "a program's name"),
    ("engine:top:5", "not 'top'"),
    ("nboard:", "an external engine needs a command after 'nboard:'"),
    ("x" * (NAME_CHARS + 1), "at most 32"),
])
def test_bad_specs_are_refused_naming_what_and_where(text: str, said: str) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        PlayerSpec.parse(text)
    assert said in str(caught.value).replace("\n", " ")


@pytest.mark.parametrize("fields", [
    {"program": "engine", "level": 0}, {"program": "engine", "threads": 0},
    {"program": "Victory"}, {"program": "victory", "options": ("",)},
    {"program": "nboard"}, {"program": "nboard", "command": "x", "threads": 2},
    {"program": "victory", "command": "x"},
])
def test_a_value_made_by_hand_is_checked_too(fields: dict[str, object]) -> None:
    with pytest.raises(InvalidOptionError):
        PlayerSpec(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "said"), [
    ("minimax", "unknown player 'minimax'; known: random"),
    ("nobody@2", "known: random"),
    ("engine", "engine is played at a level"),
    ("victory:3", "victory is played at no level"),
    ("victory@2", "only the engine's levels take threads"),
    (f"engine:{MAX_LEVEL + 1}", f"runs from 1 to {MAX_LEVEL} or is 'top', not '{MAX_LEVEL + 1}'"),
    (f"engine:5@{MAX_THREADS + 1}", f"run from 1 to {MAX_THREADS}, not '{MAX_THREADS + 1}'"),
])
def test_the_registry_refuses_what_it_does_not_hold(text: str, said: str) -> None:
    spec = PlayerSpec.parse(text)  # good grammar
    with pytest.raises(InvalidOptionError, match=said):
        player_spec(spec)
    with pytest.raises(InvalidOptionError, match=said):
        make_player(text)


def test_the_player_is_the_same_from_the_value_or_its_text() -> None:
    spec = player_spec("engine:2@2")
    assert make_player(spec).name == make_player("engine:2@2").name == str(spec)
    assert make_player(PlayerSpec("greedy"), seed=1).name == "greedy"
