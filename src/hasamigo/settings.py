"""Settings read from the environment: pydantic-settings with the ``HASAMIGO_`` prefix.

A field ``tick_seconds`` of a subclass is read from ``HASAMIGO_TICK_SECONDS`` (a field
may name its variable instead: ``HASAMIGO_DB``) unless given as a keyword; lists and
tuples are JSON (``HASAMIGO_FORWARDED_ALLOW_IPS='["10.0.0.1"]'``). A bad value raises
:class:`SettingsError` naming the variable (or the keyword) and what was wrong.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import pydantic_settings
from pydantic import ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from hasamigo.errors import HasamigoError, shown

PREFIX = "HASAMIGO_"


class SettingsError(HasamigoError, ValueError):
    """A setting's value that cannot be used (from the environment or a keyword)."""

    code = "settings"


class EnvSettings(BaseSettings):
    """The base of hasamigo's settings (see the module docstring); frozen."""

    # populate_by_name: a field with its own variable (``HASAMIGO_DB``) still takes its
    # name as a keyword (``db_url=``); pydantic 2.11's validate_by_name is newer than the
    # pydantic that pydantic-settings accepts
    model_config: ClassVar[SettingsConfigDict] = SettingsConfigDict(
        env_prefix=PREFIX, frozen=True, populate_by_name=True)

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise SettingsError(self._explain(exc, values)) from None
        except pydantic_settings.SettingsError as exc:  # a list or tuple that is not JSON
            found = re.search(r'field "(\w+)"', str(exc))
            name = found.group(1) if found else None
            where = (self.variable(name) if name is not None and name in type(self).model_fields
                     else "a variable")
            raise SettingsError(f"{where}: not JSON (a list in the environment is written "
                                '["a", "b"])') from None

    @classmethod
    def variable(cls, field: str) -> str:
        """The environment variable of ``field``."""
        alias = cls.model_fields[field].validation_alias
        return alias if isinstance(alias, str) else PREFIX + field.upper()

    @classmethod
    def _explain(cls, exc: ValidationError, values: dict[str, Any]) -> str:
        by_alias = {cls.variable(name): name for name in cls.model_fields}
        lines = []
        for error in exc.errors():
            key = str(error["loc"][0]) if error["loc"] else ""
            field = by_alias.get(key, key)
            where = field if field in values else cls.variable(field) \
                if field in cls.model_fields else key
            message = str(error["msg"]).removeprefix("Value error, ")
            lines.append(f"{where}={shown(error.get('input'))}: {message}")
        return "; ".join(lines)


__all__ = ["PREFIX", "EnvSettings", "SettingsError"]
