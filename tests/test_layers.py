"""The layers of ``src/hasamigo``: imports point one way, from the front ends (``cli``,
``web``) down through the services (``tournament``, ``study``, ``jobs``, ``analysis``,
``storage``) and the game's procedure (``game``) and the engine (``engine``) to the core
(``squares``, ``move``, ``errors``, ``board``, ``rules``, ``variants``, ``notation``,
``multi``), whose moves are the compiled kernels (``_kernels``; ``multi`` moves through the
board's grid functions, the one flipping definition of each grid).

The same rules are given to ruff (TID251, the ``ruff.toml`` beside each layer's modules) so
an editor flags a wrong import as it is written; this test reads every import (at module
level, in functions and under ``TYPE_CHECKING``) with :mod:`ast`, so it holds without ruff
too, for modules ruff's lists do not name yet, and checks that ruff's lists ban nothing
the table here allows.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "hasamigo"

CORE = ("squares", "move", "errors", "board", "rules", "variants", "notation", "multi",
        # beside the core, importing nothing above it: the password hashes (tournament,
        # study), the settings' base (storage, web), a player's spec (engine and up) and the
        # two-language text's catalog (study, web)
        "passwords", "settings", "player_spec", "text")
ABOVE_CORE = ("engine", "game", "analysis", "storage", "accounts", "ratings", "lobby",
              "tournament", "study", "jobs", "web", "cli")

#: the layers a layer may not import (a layer: a top-level module or package of hasamigo)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    **{core: ABOVE_CORE for core in CORE},
    "__init__": ABOVE_CORE,  # ``import hasamigo`` gives the core only
    "engine": ("game", "analysis", "storage", "accounts", "ratings", "lobby", "tournament",
               "study", "web", "cli"),
    "game": ("engine", "analysis", "storage", "accounts", "ratings", "lobby", "tournament",
             "study", "jobs", "web", "cli"),
    "storage": ("analysis", "accounts", "ratings", "lobby", "tournament", "study", "jobs",
                "web", "cli"),
    # the people who come back: an account is a name and its sessions; a rating is a
    # subject's (an account's, a program's) number in a pool, knowing no account; the lobby
    # pairs accounts by their ratings; a tournament may enter accounts and seed by rating
    "accounts": ("ratings", "lobby", "tournament", "study", "jobs", "web", "cli"),
    "ratings": ("accounts", "lobby", "tournament", "study", "jobs", "web", "cli"),
    "lobby": ("tournament", "study", "jobs", "web", "cli"),
    "analysis": ("web", "cli"),
    "tournament": ("lobby", "web", "cli"),
    "study": ("web", "cli"),
    "jobs": ("web", "cli"),
    "web": ("cli",),
}
#: the modules of a forbidden layer a layer may import all the same, and why
EXCEPTIONS: dict[str, dict[str, str]] = {
    "engine": {"hasamigo.game.clock": "the players keep time with the game's Clock"},
}
#: who may import the compiled kernels: the board and the engine call them; the front ends
#: only start and watch their compile (``_kernels.warm``)
KERNEL_USERS = ("_kernels", "board", "engine")
KERNEL_WARMERS = ("cli", "web")
#: who may import the command line: itself and ``python -m hasamigo``
CLI_USERS = ("cli", "__main__")


def layer_of(path: Path) -> str:
    """``src/hasamigo/engine/core.py`` -> ``engine``; ``src/hasamigo/board.py`` -> ``board``."""
    first = path.relative_to(SRC).parts[0]
    return first.removesuffix(".py")


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """Every ``hasamigo`` module a module imports, with the line: ``from hasamigo import
    board`` and ``from hasamigo.board import Board`` both name ``hasamigo.board``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "hasamigo":
                found += [(node.lineno, f"hasamigo.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return [(line, name) for line, name in found
            if name == "hasamigo" or name.startswith("hasamigo.")]


def target_layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def why_not(layer: str, module: str) -> str | None:
    """Why ``layer`` may not import ``module``, or ``None`` if it may."""
    target = target_layer(module)
    if target is None or target == layer:
        return None
    if target == "_kernels":
        if layer in KERNEL_USERS:
            return None
        if layer in KERNEL_WARMERS and under(module, "hasamigo._kernels.warm"):
            return None
        return ("the compiled kernels are called only by the board and the engine "
                "(the front ends may import hasamigo._kernels.warm)")
    if target == "cli" and layer not in CLI_USERS:
        return "nothing but the command line imports the command line"
    if target in FORBIDDEN.get(layer, ()):
        if any(under(module, allowed) for allowed in EXCEPTIONS.get(layer, {})):
            return None
        return f"{layer} is below {target}: imports point down the layers"
    return None


def violations() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        layer = layer_of(path)
        tree = ast.parse(path.read_text(), filename=str(path))
        for line, module in imported(tree):
            reason = why_not(layer, module)
            if reason:
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {module}: {reason}")
    return found


def test_imports_keep_the_layers() -> None:
    found = violations()
    assert not found, "imports across the layers:\n" + "\n".join(found)


@pytest.mark.parametrize(("layer", "module", "allowed"), [
    ("board", "hasamigo._kernels.moves", True),
    ("variants", "hasamigo._kernels.moves", False),
    ("rules", "hasamigo._kernels.moves", False),
    ("rules", "hasamigo.engine", False),
    ("web", "hasamigo._kernels.warm", True),
    ("web", "hasamigo._kernels.search", False),
    ("notation", "hasamigo.engine", False),
    ("move", "hasamigo.game.result", False),
    ("engine", "hasamigo.game.clock", True),
    ("engine", "hasamigo.game.state", False),
    ("engine", "hasamigo.tournament.match", False),
    ("storage", "hasamigo.web.app", False),
    ("web", "hasamigo.cli", False),
    ("__main__", "hasamigo.cli", True),
    ("tournament", "hasamigo.engine", True),
])
def test_the_rules_read_as_meant(layer: str, module: str, allowed: bool) -> None:
    assert (why_not(layer, module) is None) is allowed


def _ruff_config(config: Path) -> tuple[set[str], set[str]]:
    """The modules a ``ruff.toml`` bans and its per-file exemptions from TID251."""
    data = tomllib.loads(config.read_text())
    assert data.get("extend"), f"{config} must extend the root configuration"
    lint = data.get("lint", {})
    assert "TID251" in lint.get("extend-select", []), f"{config} must select TID251"
    return (set(lint.get("flake8-tidy-imports", {}).get("banned-api", {})),
            set(lint.get("per-file-ignores", {})))


def test_ruff_bans_only_what_the_layers_forbid() -> None:
    """Each ``ruff.toml`` bans, for the layers it configures, every whole layer this table
    forbids them and the command line, and no layer they may import. (Of the kernels, the
    lists name the modules as they are now; the core's list leaves out the board's own
    three, which the other core modules may not import either: the test above holds that.)"""
    configs = sorted(SRC.rglob("ruff.toml"))
    assert configs, "no ruff.toml under src/hasamigo"
    for config in configs:
        bans, exempt = _ruff_config(config)
        where = config.relative_to(ROOT)
        if config.parent == SRC:  # the package's own modules and the packages without one
            layers = [p.stem for p in SRC.glob("*.py")]
            layers += [p.name for p in SRC.iterdir()
                       if p.is_dir() and (p / "__init__.py").exists()
                       and not (p / "ruff.toml").exists()]
        else:
            layers = [config.parent.name]
        for layer in layers:
            if any(pattern.split("/")[0].removesuffix(".py") == layer for pattern in exempt):
                continue  # left to test_imports_keep_the_layers
            legal = sorted(ban for ban in bans if target_layer(ban) != "_kernels"
                           and why_not(layer, ban) is None)
            assert not legal, f"{where} bans {legal}, which {layer} may import"
            if layer in KERNEL_WARMERS:
                assert "hasamigo._kernels.warm" not in bans, where
            whole = {f"hasamigo.{target}" for target in FORBIDDEN.get(layer, ())
                     if not any(under(allowed, f"hasamigo.{target}")
                                for allowed in EXCEPTIONS.get(layer, {}))}
            if layer not in CLI_USERS:
                whole.add("hasamigo.cli")
            if layer not in (*KERNEL_USERS, *KERNEL_WARMERS):
                whole.add("hasamigo._kernels")
            missing = sorted(whole - bans)
            if layer in CORE or layer == "__init__":  # one list for the core, the board's
                missing = [m for m in missing if m != "hasamigo._kernels"]  # kernels allowed
            assert not missing, f"{where} does not ban {missing} for {layer}"
