"""Help written in the source, shown for a terminal.

The commands' docstrings are wrapped at 90 columns and may quote names as reST does
(double backquotes, ``:mod:`` roles); Typer's Rich help prints a docstring's line breaks
as they are and its markup as it is. :class:`Typer` (the app and each sub-app) builds its
groups and commands as :class:`TerminalGroup` and :class:`TerminalCommand`, which take
their help and their options' help through :func:`terminal_text`, and show no ``<bool>``
placeholder on a flag (a flag takes no value). Rich markup (``[bold]``, ``\\[``) is left
to Rich. An option's help goes in a column as narrow as 18 columns (``tournament new
--help`` on an 80-column terminal), where Rich cuts a longer word with an ellipsis: write
long paths and URLs in shorter words.

Only :mod:`typer` is imported here, for the help to come up at once; two costs of Typer's
own are avoided as well (see :func:`_help_option` and :func:`_resolve_annotations`).
"""

from __future__ import annotations

import contextlib
import re
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

if TYPE_CHECKING:
    from typer._click import Context, Parameter

_Function = TypeVar("_Function", bound=Callable[..., Any])

_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
#: ``:role:`target```, ``:role:`~pkg.mod.Name``` (shown as ``Name``) and
#: ``:role:`title <target>``` (shown as ``title``); ``:py:class:`` too.
_ROLE = re.compile(r":(?:[a-z]+:)?[a-z]+:`(~?)([^`<]+?)\s*(?:<[^`>]*>)?`")
_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


def _role(match: re.Match[str]) -> str:
    tilde, target = match.group(1), match.group(2)
    return target.rsplit(".", 1)[-1] if tilde else target


def terminal_text(text: str | None) -> str | None:
    """``text`` for a terminal: reST literals and roles as their words, and each
    paragraph on one line, for Rich to wrap to the terminal's width (paragraphs stay
    apart; one that starts with Click's ``\\b`` keeps its lines).

    >>> terminal_text('''Suffixes (``+one``,
    ...     ``+nip``) of :class:`~hasamigo.board.Board` names,
    ...     see :mod:`hasamigo.variants`.
    ...
    ...     JSON: {name}.''')
    'Suffixes (+one, +nip) of Board names, see hasamigo.variants.\\n\\nJSON: {name}.'
    """
    if text is None:
        return None
    text = _ROLE.sub(_role, _LITERAL.sub(r"\1", text))
    paragraphs = _PARAGRAPHS.split(text.strip())
    return "\n\n".join(p.strip() if p.lstrip().startswith("\b") else " ".join(p.split())
                       for p in paragraphs)


def _for_terminal(command: TyperCommand | TyperGroup) -> None:
    command.help = terminal_text(command.help)
    command.short_help = terminal_text(command.short_help)
    for param in command.params:
        _param_for_terminal(param)


def _param_for_terminal(param: Parameter) -> None:
    if isinstance(param, TyperOption | TyperArgument):
        param.help = terminal_text(param.help)
    if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
        param.metavar = ""  # Typer shows a flag's type as <bool>; it takes no value
    if (isinstance(param, TyperOption) and param.metavar is None
            and param.type_descriptor.is_ranged):
        # <int range> [1<=x<=64] says no more than <int> [1<=x<=64]; the columns saved go
        # to the help's column, narrow on an 80-column terminal
        param.metavar = f"<{param.type_descriptor.ranged_type_name}>"


def _help_option(option: TyperOption | None) -> TyperOption | None:
    """``--help`` as the other flags, and off (``False``) when absent: Typer leaves it
    ``None``, a value it hands to pydantic to coerce, and importing pydantic for that
    took a tenth of a second of every ``hasamigo COMMAND --help``."""
    if option is not None:
        _param_for_terminal(option)
        if option.default is None:
            option.default = False
    return option


class TerminalCommand(TyperCommand):
    """A command whose help reads well in a terminal (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _for_terminal(self)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        return _help_option(super().get_help_option(ctx))


class TerminalGroup(TyperGroup):
    """A group whose help, and its list of commands, read well in a terminal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _for_terminal(self)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        return _help_option(super().get_help_option(ctx))


def _resolve_annotations(function: Callable[..., Any]) -> None:
    """Evaluate a command's annotations once, as it is defined. Under ``from __future__
    import annotations`` they are strings, which Typer evaluates twice over for every
    command whenever it builds the app, running each ``typer.Option(...)`` again: half
    the building (35 of 70 ms of CPU, a tenth of ``hasamigo --help``)."""
    # A name the module defines further down is left to Typer, which evaluates it later.
    with contextlib.suppress(NameError):
        function.__annotations__ = typing.get_type_hints(function, include_extras=True)


class Typer(typer.Typer):
    """:class:`typer.Typer` whose group is a :class:`TerminalGroup` and whose commands
    are :class:`TerminalCommand` (unless given another ``cls``), their annotations
    evaluated once."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", TerminalGroup)
        kwargs.setdefault("rich_markup_mode", "rich")
        super().__init__(**kwargs)

    def command(self, name: str | None = None, **kwargs: Any
                ) -> Callable[[_Function], _Function]:
        kwargs.setdefault("cls", TerminalCommand)
        register = super().command(name, **kwargs)

        def decorator(function: _Function) -> _Function:
            _resolve_annotations(function)
            return register(function)

        return decorator
