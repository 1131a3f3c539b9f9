"""Interface text for the tournament pages (director's area and public pages), in English
and Japanese (merged into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``tournament.``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
}
