"""The command-line reference, written from the commands themselves so it cannot go stale.

Walks :data:`hasamigo.cli.app` (its Click commands, as Typer builds them) and writes one
Markdown page: for every command and group its usage, its help (the docstring, as
``hasamigo COMMAND --help`` shows it, JSON shapes included) and its arguments and options
with their defaults. Hidden commands and options (kept for old scripts) are left out.

Two ways to run it:

- as a MkDocs hook (``hooks:`` in ``mkdocs.yml``): every ``mkdocs build``/``serve`` adds
  the page ``cli.md`` to the site, generated, never stored in ``docs/``;
- as a script: ``python docs/gen_cli.py [OUT.md]`` prints the page (or writes it).

The sources documented are the checkout's (``src/`` beside this folder comes first on the
path), whichever hasamigo the interpreter has installed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = "cli.md"

_CODE = re.compile(r"(`[^`\n]+`)")
_SPECIAL = re.compile(r"([\\*_\[\]|#])")


def _import_app() -> Any:
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    import typer.main

    from hasamigo.cli import app

    return typer.main.get_command(app)


def _plain(text: str) -> str:
    """Rich markup (``[bold]``, ``\\[``) as the words a terminal shows."""
    from rich.text import Text

    return Text.from_markup(text).plain


def _escape(text: str) -> str:
    """Markdown-safe text, keeping `code spans` as code."""
    parts = _CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part)
        else:
            part = part.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            out.append(_SPECIAL.sub(r"\\\1", part))
    return "".join(out)


def _help_markdown(help_text: str | None) -> list[str]:
    """A command's help as paragraphs; one that starts with Click's ``\\b`` keeps its
    lines (a preformatted block)."""
    if not help_text:
        return []
    lines: list[str] = []
    for paragraph in re.split(r"\n[ \t]*\n", _plain(help_text).strip()):
        if paragraph.lstrip().startswith("\b"):
            block = paragraph.lstrip().removeprefix("\b").strip("\n")
            lines += ["```text", block, "```", ""]
        else:
            lines += [_escape(" ".join(paragraph.split())), ""]
    return lines


def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def _is_option(param: Any) -> bool:
    return bool(param.param_type_name == "option")


def _anchor(path: str) -> str:
    """The id MkDocs gives the heading `` `PATH` `` (its toc extension's slug)."""
    return path.replace(" ", "-")


def _walk(command: Any, ctx: Any) -> Iterator[tuple[Any, Any]]:
    # Duck-typed: Typer builds its commands on its own copy of Click (typer._click)
    # in recent versions, on Click itself in older ones.
    yield command, ctx
    if _is_group(command):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            yield from _walk(sub, sub.context_class(sub, info_name=name, parent=ctx))


def _param_lines(command: Any, ctx: Any) -> list[str]:
    arguments: list[str] = []
    options: list[str] = []
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        raw_help = getattr(param, "help", None) or ""
        # an option's help record; Typer gives its arguments one too
        record = param.get_help_record(ctx) if hasattr(param, "get_help_record") else None
        if record is None:
            if _is_option(param):
                continue
            record = (param.make_metavar(ctx), raw_help)
        names, text = record
        extra = text[len(raw_help):].strip() if text.startswith(raw_help) else ""
        entry = f"- `{names}`"
        described = " ".join(_plain(raw_help).split())
        if described:
            entry += f": {_escape(described)}"
        if extra:
            entry += f" {_escape(extra)}"
        (options if _is_option(param) else arguments).append(entry)
    lines: list[str] = []
    if arguments:
        lines += ["**Arguments**", "", *arguments, ""]
    if options:
        lines += ["**Options**", "", *options, ""]
    return lines


def render() -> str:
    """The reference page's Markdown."""
    root = _import_app()
    root_ctx = root.context_class(root, info_name="hasamigo")
    lines = [
        "# Command-line reference",
        "",
        "Generated from the commands at every build of this site (`docs/gen_cli.py`): "
        "it is `hasamigo [COMMAND…] --help`, for every command. Every command that "
        "prints results takes `--json`; the help of each says the JSON's shape. "
        "[The command overview](commands.md) sums the commands up in one table.",
        "",
    ]
    for command, ctx in _walk(root, root_ctx):
        path = ctx.command_path
        depth = min(path.count(" ") + 1, 4)
        lines += [f"{'#' * (depth + 1) if path != 'hasamigo' else '##'} `{path}`", ""]
        lines += ["```text", command.get_usage(ctx).strip(), "```", ""]
        lines += _help_markdown(command.help)
        if _is_group(command):
            subs = [(name, command.get_command(ctx, name))
                    for name in command.list_commands(ctx)]
            rows = [f"- [`{path} {name}`](#{_anchor(f'{path} {name}')}): "
                    + _escape(" ".join(_plain(sub.get_short_help_str(limit=120)).split()))
                    for name, sub in subs if sub is not None and not sub.hidden]
            lines += ["**Commands**", "", *rows, ""]
        lines += _param_lines(command, ctx)
    return "\n".join(lines).rstrip() + "\n"


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: add the generated page to the site."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=render()))
    return files


if __name__ == "__main__":
    page = render()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(page, encoding="utf-8")
    else:
        sys.stdout.write(page)
