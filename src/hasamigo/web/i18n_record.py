"""Interface text for record entry, record sheets and the chess-clock page, in English and Japanese
(merged into :data:`hasamigo.web.i18n.STRINGS`; keys start with ``record.``)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
}
