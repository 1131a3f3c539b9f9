"""The external engines a user has installed: a TOML settings file, one table each.

The file is ``$HASAMIGO_ENGINES`` if set, else ``engines.toml`` in the user's config
directory (``$XDG_CONFIG_HOME/hasamigo/``, by default ``~/.config/hasamigo/``)::

    [engines.edax]                      # the key: a-z, 0-9, '-' and '_', 1-31 characters
    name = "Edax 4.4"                   # shown to people
    protocol = "nboard"                 # or "gtp"
    command = "/opt/edax/edax -nboard"  # split as a shell would, run without a shell
    depth = 10                          # optional: 'set depth' for NBoard engines
    timeout = 60                        # optional: seconds a move may take (no clock)

The web app offers exactly these engines and starts no other program.

>>> [e] = parse_engines('[engines.ours]\\nname = "Ours"\\nprotocol = "gtp"\\n'
...                     'command = "hasamigo gtp --level 2"\\n')
>>> e.key, e.name, e.spec
('ours', 'Ours', 'gtp:hasamigo gtp --level 2')
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hasamigo.engine.protocols.external import (
    MOVE_TIMEOUT,
    PROTOCOLS,
    ExternalPlayer,
    external_player,
    split_command,
)
from hasamigo.errors import HasamigoError, ParseError, shown

log = logging.getLogger("hasamigo.external")

ENV_VAR = "HASAMIGO_ENGINES"
FILE_NAME = "engines.toml"
_KEY = re.compile(r"[a-z0-9_-]{1,31}")
#: the largest settings file read (bytes)
MAX_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class ConfiguredEngine:
    """One engine of the settings file."""

    key: str
    name: str
    protocol: str
    command: str
    depth: int | None = None
    timeout: float = MOVE_TIMEOUT

    @property
    def spec(self) -> str:
        """Its player spec (``nboard:COMMAND`` or ``gtp:COMMAND``)."""
        return f"{self.protocol}:{self.command}"

    def player(self, seed: int | None = None) -> ExternalPlayer:
        """A player over this engine, named by its display name."""
        return external_player(self.protocol, self.command, seed=seed, name=self.name,
                               timeout=self.timeout, depth=self.depth)


def engines_path(env: Mapping[str, str] | None = None) -> Path:
    """Where the settings file is (it may not exist)."""
    env = os.environ if env is None else env
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR])
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hasamigo" / FILE_NAME


def parse_engines(text: str, *, source: str | None = None) -> list[ConfiguredEngine]:
    """The engines of a settings file's text; :class:`ParseError` naming the entry that is
    wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"not TOML: {exc}", source=source) from None
    tables = data.get("engines", {})
    if not isinstance(tables, dict):
        raise ParseError("'engines' must be a table of engines", source=source)
    out = []
    for key, entry in tables.items():
        where = f"engines.{key}"
        if not _KEY.fullmatch(key):
            raise ParseError(f"{shown(where)}: a key is 1-31 of a-z, 0-9, '-', '_'",
                             source=source)
        if not isinstance(entry, dict):
            raise ParseError(f"{where} must be a table", source=source)
        name, protocol, command = (entry.get(k) for k in ("name", "protocol", "command"))
        if not isinstance(command, str):
            raise ParseError(f"{where}: 'command' (a string) is missing", source=source)
        if protocol not in PROTOCOLS:
            raise ParseError(f"{where}: 'protocol' must be one of {', '.join(PROTOCOLS)}, "
                             f"not {shown(protocol)}", source=source)
        try:
            split_command(command)
        except HasamigoError as exc:
            raise ParseError(f"{where}: {exc}", source=source) from None
        if name is None:
            name = key
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            raise ParseError(f"{where}: 'name' must be a string of 1-40 characters",
                             source=source)
        depth = entry.get("depth")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                                  or not 1 <= depth <= 60):
            raise ParseError(f"{where}: 'depth' must be a whole number 1-60", source=source)
        timeout = entry.get("timeout", MOVE_TIMEOUT)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) \
                or not 0 < timeout <= 3600:
            raise ParseError(f"{where}: 'timeout' must be seconds, above 0 and at most 3600",
                             source=source)
        out.append(ConfiguredEngine(key, name, str(protocol), command.strip(), depth,
                                    float(timeout)))
    return out


def load_engines(path: Path | None = None) -> list[ConfiguredEngine]:
    """The engines of the settings file (``path``, else :func:`engines_path`); none when
    there is no file; :class:`ParseError` for one that cannot be used."""
    path = engines_path() if path is None else path
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ParseError(f"cannot read it: {exc.strerror or exc}", source=str(path)) from None
    if len(raw) > MAX_BYTES:
        raise ParseError(f"larger than {MAX_BYTES} bytes", source=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError("not UTF-8", source=str(path), offset=exc.start) from None
    return parse_engines(text, source=str(path))


def configured_engines(path: Path | None = None) -> list[ConfiguredEngine]:
    """:func:`load_engines`, with a broken file logged and read as none (for servers)."""
    try:
        return load_engines(path)
    except ParseError as exc:
        log.error("external engines ignored: %s", exc)
        return []


def find_engine(engines: Sequence[ConfiguredEngine], *, key: str | None = None,
                spec: str | None = None) -> ConfiguredEngine | None:
    """The engine of that key or spec, if the settings file lists it."""
    for engine in engines:
        if (key is not None and engine.key == key) or (spec is not None and engine.spec == spec):
            return engine
    return None
