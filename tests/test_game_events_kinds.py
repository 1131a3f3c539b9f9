"""Every kind of event is known wherever it must be, from its one list: registered where it
is defined (:data:`~hasamigo.game.events.kinds.EVENT_TYPES`, which the codec reads),
exported by :mod:`hasamigo.game.events`, given a rule by the fold, its fields coded in
JSON. A new event class left out of any of these fails here."""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import ClassVar

import pytest

import hasamigo.game.controller  # noqa: F401  (every module that defines events is loaded)
from hasamigo import BLACK, Board
from hasamigo.game import events
from hasamigo.game.events import (
    EVENT_TYPES,
    FIELD_CODECS,
    Event,
    MovePlayed,
    event_from_json,
    event_to_json,
    register,
)
from hasamigo.game.state import RULES


def defined_events() -> set[type[Event]]:
    """Every class derived from :class:`Event` that a loaded module defines under its own
    name (``dataclass(slots=True)`` leaves the class it replaced among the subclasses)."""
    found: set[type[Event]] = set()
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        module = sys.modules.get(cls.__module__)
        if module is not None and getattr(module, cls.__qualname__, None) is cls:
            found.add(cls)
    return found


def forgotten(known: set[type[Event]]) -> set[type[Event]]:
    """The event classes defined but not in ``known``."""
    return defined_events() - known


def test_every_event_class_is_registered() -> None:
    assert len(EVENT_TYPES) >= 28
    assert not forgotten(set(EVENT_TYPES.values()))
    assert all(kind == cls.kind for kind, cls in EVENT_TYPES.items())


def test_the_package_exports_every_kind() -> None:
    for cls in EVENT_TYPES.values():
        assert cls.__name__ in events.__all__ and getattr(events, cls.__name__) is cls


def test_the_fold_has_a_rule_for_every_kind_and_no_other() -> None:
    assert set(RULES) == set(EVENT_TYPES.values())


@pytest.mark.parametrize("kind", sorted(EVENT_TYPES))
def test_every_field_has_a_codec(kind: str) -> None:
    cls = EVENT_TYPES[kind]
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in FIELD_CODECS]
    assert not missing, f"{cls.__name__}: no codec for {missing}"


def test_an_unregistered_event_class_is_found_forgotten() -> None:
    module = types.ModuleType("hasamigo_test_events")
    sys.modules[module.__name__] = module
    try:
        @dataclasses.dataclass(frozen=True, slots=True)
        class Forgotten(Event):
            kind: ClassVar[str] = "forgotten"

        Forgotten.__module__, Forgotten.__qualname__ = module.__name__, "Forgotten"
        module.Forgotten = Forgotten  # type: ignore[attr-defined]
        assert forgotten(set(EVENT_TYPES.values())) == {Forgotten}
    finally:
        del sys.modules[module.__name__]


def test_a_registered_kind_reads_back_and_a_taken_kind_is_refused() -> None:
    @register
    @dataclasses.dataclass(frozen=True, slots=True)
    class Knock(Event):
        kind: ClassVar[str] = "test-knock"
        colour: object

    try:
        knock = Knock(BLACK, at=1.0)
        assert event_from_json(event_to_json(knock, Board), Board) == knock
        with pytest.raises(ValueError, match="taken"):
            register(Knock)
        with pytest.raises(ValueError, match="taken"):
            @register
            @dataclasses.dataclass(frozen=True, slots=True)
            class Again(Event):
                kind: ClassVar[str] = MovePlayed.kind
    finally:
        del EVENT_TYPES[Knock.kind]
