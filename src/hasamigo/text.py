"""Text in English and Japanese: one gettext catalog, read with Babel, for every layer.

English is the source language: the text written in the code (marked with :func:`N_`,
:func:`NP_` with a context, :func:`NN_` or :func:`NNP_` for a text that follows a count) and
in the web pages' templates is the msgid, and ``locale/ja/LC_MESSAGES/hasamigo.po`` beside
this module gives the Japanese as its msgstr. The web pages (:mod:`hasamigo.web.i18n`, which
adds the request's language and the templates' gettext) and the study's report
(:mod:`hasamigo.study.report_text`) read this one catalog. Texts with placeholders use
``{name}``, never ``%``.

The catalog ships as the ``.po`` and is compiled in memory the first time a language is
asked for (:func:`translations`: Babel reads it, :func:`~babel.messages.mofile.write_mo`
compiles it, :class:`gettext.GNUTranslations` loads it). So a plain ``pip install -e .``,
a wheel and a checkout all work with no build step and no compiled ``.mo`` to keep in step;
reading about 800 messages takes milliseconds, once per process.

To refresh the catalog after changing texts (``babel.cfg`` at the repository's root says
where they are)::

    pybabel extract -F babel.cfg -k NP_:1c,2 -k NN_:1,2 -k NNP_:1c,2,3 -o hasamigo.pot \\
        src/hasamigo/web src/hasamigo/study
    pybabel update -D hasamigo -i hasamigo.pot -d src/hasamigo/locale --no-fuzzy-matching

``tests/test_i18n.py`` checks that every text in use is in the catalog, translated, not
fuzzy, with the same placeholders in both languages.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path
from typing import Any, Literal, NamedTuple

from babel.messages.extract import DEFAULT_KEYWORDS
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

Lang = Literal["en", "ja"]
LANGS: tuple[Lang, ...] = ("en", "ja")

DOMAIN = "hasamigo"
LOCALE_DIR = Path(__file__).parent / "locale"


def catalog_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``'s catalog."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


#: the extraction keywords: Babel's own, :func:`NP_` (a context, then the message),
#: :func:`NN_` (singular, plural) and :func:`NNP_` (a context, singular, plural)
KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "NP_": ((1, "c"), 2), "NN_": (1, 2),
                            "NNP_": ((1, "c"), 2, 3)}


class Plural(NamedTuple):
    """A text whose words follow a count (``ngettext``): its English singular and plural,
    and its context if it has one (``npgettext``)."""

    singular: str
    plural: str
    context: str | None = None


#: a text marked for translation, to be translated later: its English, (context, English),
#: or its two English forms for a count
Message = str | tuple[str, str] | Plural


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (``gettext_noop``)."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """:func:`N_` for a text with a context (``pgettext`` later)."""
    return context, message


def NN_(singular: str, plural: str) -> Plural:
    """:func:`N_` for a text that follows a count (``ngettext`` later): "{n} mistake",
    "{n} mistakes"."""
    return Plural(singular, plural)


def NNP_(context: str, singular: str, plural: str) -> Plural:
    """:func:`NN_` with a context (``npgettext`` later)."""
    return Plural(singular, plural, context)


def lang_code(value: object) -> Lang:
    """``ja`` for ``"ja"``, else English (the source language)."""
    return "ja" if value == "ja" else "en"


@functools.cache
def translations(lang: Lang) -> gettext.NullTranslations:
    """The catalog of ``lang``, compiled from its ``.po`` on first use; English is the
    msgid itself."""
    if lang == "en":
        return gettext.NullTranslations()
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def translate(lang: Lang, message: Message, n: int = 1) -> str:
    """A message marked with :func:`N_`, :func:`NP_`, :func:`NN_` or :func:`NNP_` (for a
    count of ``n``), in ``lang``."""
    catalog = translations(lang)
    if isinstance(message, Plural):
        if message.context is not None:
            return catalog.npgettext(message.context, message.singular, message.plural, n)
        return catalog.ngettext(message.singular, message.plural, n)
    if isinstance(message, tuple):
        return catalog.pgettext(*message)
    return catalog.gettext(message)


__all__ = [
    "DOMAIN",
    "KEYWORDS",
    "LANGS",
    "LOCALE_DIR",
    "NNP_",
    "NN_",
    "NP_",
    "N_",
    "Lang",
    "Message",
    "Plural",
    "catalog_path",
    "lang_code",
    "translate",
    "translations",
]
