"""The documentation: the CLI reference is generated from every command (docs/gen_cli.py),
the README keeps the test command CI runs, and no page points outside the repository."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer.main

from hasamigo.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _gen_cli() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference() -> str:
    page: str = _gen_cli().render()
    return page


def _commands(command: Any, ctx: Any) -> list[tuple[Any, Any]]:
    found = [(command, ctx)]
    for name in getattr(command, "list_commands", lambda _ctx: [])(ctx):
        sub = command.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            found += _commands(sub, sub.context_class(sub, info_name=name, parent=ctx))
    return found


def test_the_cli_reference_has_every_command_and_option(reference: str) -> None:
    root = typer.main.get_command(app)
    commands = _commands(root, root.context_class(root, info_name="hasamigo"))
    assert len(commands) > 40
    for command, ctx in commands:
        section = reference.split(f"`{ctx.command_path}`\n", 1)
        assert len(section) == 2, f"no section for {ctx.command_path}"
        body = section[1].split("\n#", 1)[0]
        for param in command.params:
            if getattr(param, "hidden", False) or param.param_type_name != "option":
                continue
            assert param.opts[0] in body, (ctx.command_path, param.opts)


def test_the_cli_reference_is_markdown_not_rich_markup(reference: str) -> None:
    assert "[bold" not in reference
    # Rich's escaped \[ in the help, read as a bracket, then escaped for Markdown
    assert "'hasamigo\\[cluster\\]'" in reference


def test_the_readme_keeps_the_commands_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = ".venv/bin/pip install -e '.[dev]' && .venv/bin/python -m pytest"
    assert f"python3 -m venv .venv && {test_command}" in readme
    assert test_command in ci
    assert ("python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/hasamigo serve"
            in readme)
    assert "mkdocs build --strict" in ci


def test_no_page_points_outside_the_repository() -> None:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"\.\./shared|SPEC §|\bseeds?'s? (?:rules|text)", text), page.name


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        assert f" {page.name}" in nav, page.name
    assert " cli.md" in nav  # generated at build time, not stored


def test_the_commands_the_readme_and_pages_name_exist() -> None:
    root = typer.main.get_command(app)
    paths = {ctx.command_path for _, ctx in
             _commands(root, root.context_class(root, info_name="hasamigo"))}
    groups = {path for path in paths if any(p.startswith(path + " ") for p in paths)}
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    for page in pages:
        for first, second in re.findall(r"`hasamigo ([a-z][\w-]*)(?: ([a-z][\w-]*))?",
                                        page.read_text(encoding="utf-8")):
            name = f"hasamigo {first}"
            assert name in paths, (page.name, name)
            if name in groups and second:
                assert f"{name} {second}" in paths, (page.name, name, second)


def test_the_architecture_page_names_every_top_level_module() -> None:
    """docs/architecture.md's floors name every module and package of src/hasamigo (a new
    one must be placed on a floor there), and the page is in the site's navigation."""
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    src = ROOT / "src" / "hasamigo"
    names = {p.stem for p in src.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in src.iterdir() if (p / "__init__.py").exists()}
    missing = sorted(n for n in names if f"`{n}`" not in page)
    assert not missing, f"docs/architecture.md does not place {missing} on a floor"
    assert "architecture.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
