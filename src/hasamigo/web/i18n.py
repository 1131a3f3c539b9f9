"""Interface text in English and Japanese, through gettext catalogs kept with Babel.

English is the source language: the text written in the templates (``{{ _("New game") }}``,
Jinja2's ``jinja2.ext.i18n``) and in the code (:func:`N_`) is the msgid, and
``locale/ja/LC_MESSAGES/hasamigo.po`` beside this module gives the Japanese as its msgstr.
Where one English text reads two ways in Japanese (``Moves``: 棋譜, the move list; 合法手,
the legal moves), the rarer reading has a context (``pgettext("legal moves", "Moves")``);
a text that follows a count has its plural (``ngettext``; :func:`NN_` in the code).
Official terms keep their Japanese names beside the English (伏せ石 fuse-ishi, 勝手打ち
play-out, ...). Texts with placeholders use ``{name}``, filled in by the page or its
script, never ``%``.

The catalog ships as the ``.po`` and is compiled in memory the first time a language is
asked for (:func:`translations`: Babel reads it, :func:`~babel.messages.mofile.write_mo`
compiles it, :class:`gettext.GNUTranslations` loads it). So a plain ``pip install -e .``,
a wheel and a checkout all work with no build step and no compiled ``.mo`` to keep in step;
reading about 650 messages takes milliseconds, once per process.

To refresh the catalog after changing texts (``babel.cfg`` at the repository's root says
where they are)::

    pybabel extract -F babel.cfg -k NP_:1c,2 -o hasamigo.pot src/hasamigo/web
    pybabel update -D hasamigo -i hasamigo.pot -d src/hasamigo/web/locale --no-fuzzy-matching

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
from fastapi import Request
from jinja2 import Environment, pass_context
from jinja2.runtime import Context

Lang = Literal["en", "ja"]
LANGS: tuple[Lang, ...] = ("en", "ja")

DOMAIN = "hasamigo"
LOCALE_DIR = Path(__file__).parent / "locale"
#: the extraction keywords: Babel's own, :func:`NP_` (a context, then the message) and
#: :func:`NN_` (singular, plural)
KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "NP_": ((1, "c"), 2), "NN_": (1, 2)}


class Plural(NamedTuple):
    """A text whose words follow a count (``ngettext``): its English singular and plural."""

    singular: str
    plural: str


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


def language_of(request: Request) -> Lang:
    """``?lang=`` first, then the ``lang`` cookie, then the browser's languages."""
    for value in (request.query_params.get("lang"), request.cookies.get("lang")):
        if value in LANGS:
            return "ja" if value == "ja" else "en"
    accept = request.headers.get("accept-language", "")
    return "ja" if accept.lower().startswith("ja") else "en"


def lang_code(value: object) -> Lang:
    """``ja`` for ``"ja"``, else English (the source language)."""
    return "ja" if value == "ja" else "en"


@functools.cache
def translations(lang: Lang) -> gettext.NullTranslations:
    """The catalog of ``lang``, compiled from its ``.po`` on first use; English is the
    msgid itself."""
    if lang == "en":
        return gettext.NullTranslations()
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def translate(lang: Lang, message: Message, n: int = 1) -> str:
    """A message marked with :func:`N_`, :func:`NP_` or :func:`NN_` (for a count of ``n``),
    in ``lang``."""
    catalog = translations(lang)
    if isinstance(message, Plural):
        return catalog.ngettext(message.singular, message.plural, n)
    if isinstance(message, tuple):
        return catalog.pgettext(*message)
    return catalog.gettext(message)


# ---- templates ---------------------------------------------------------------------------------
# The page's language is the ``lang`` of the template's context (every page passes it), so the
# callables are the environment's globals and read it from the context they are called in.
def page_lang(context: Context) -> Lang:
    """The language of the page a template is rendering."""
    return lang_code(context.get("lang"))


def _catalog(context: Context) -> gettext.NullTranslations:
    return translations(page_lang(context))


@pass_context
def _gettext(context: Context, message: str) -> str:
    return _catalog(context).gettext(message)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return _catalog(context).ngettext(singular, plural, n)


@pass_context
def _pgettext(context: Context, ctx: str, message: str) -> str:
    return _catalog(context).pgettext(ctx, message)


@pass_context
def _npgettext(context: Context, ctx: str, singular: str, plural: str, n: int) -> str:
    return _catalog(context).npgettext(ctx, singular, plural, n)


def install(env: Environment) -> None:
    """Give ``env`` Jinja2's i18n extension (``{% trans %}``, ``_()``, ``ngettext``) over
    these catalogs. (:func:`hasamigo.web.keyed_text.install` adds the keyed texts on top.)"""
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext,
                       npgettext=_npgettext)
