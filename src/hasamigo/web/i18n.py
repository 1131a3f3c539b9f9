"""The web pages' text in English and Japanese: the one gettext catalog of
:mod:`hasamigo.text` (read with Babel; the study's report reads it too), given the
request's language and the templates' gettext.

English is the source language: the text written in the templates (``{{ _("New game") }}``,
Jinja2's ``jinja2.ext.i18n``) and in the code (:func:`N_`) is the msgid, and
``src/hasamigo/locale/ja/LC_MESSAGES/hasamigo.po`` gives the Japanese as its msgstr.
Where one English text reads two ways in Japanese (``Moves``: 棋譜, the move list; 合法手,
the legal moves), the rarer reading has a context (``pgettext("legal moves", "Moves")``);
a text that follows a count has its plural (``ngettext``; :func:`NN_` in the code).
Official terms keep their Japanese names beside the English (伏せ石 fuse-ishi, 勝手打ち
play-out, ...). Texts with placeholders use ``{name}``, filled in by the page or its
script, never ``%``. How to refresh the catalog: :mod:`hasamigo.text`.

``tests/test_i18n.py`` checks that every text in use is in the catalog, translated, not
fuzzy, with the same placeholders in both languages.
"""

from __future__ import annotations

import gettext

from fastapi import Request
from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from hasamigo.text import (
    DOMAIN,
    KEYWORDS,
    LANGS,
    LOCALE_DIR,
    N_,
    NN_,
    NNP_,
    NP_,
    Lang,
    Message,
    Plural,
    lang_code,
    translate,
    translations,
)


def language_of(request: Request) -> Lang:
    """``?lang=`` first, then the ``lang`` cookie, then the browser's languages."""
    for value in (request.query_params.get("lang"), request.cookies.get("lang")):
        if value in LANGS:
            return "ja" if value == "ja" else "en"
    accept = request.headers.get("accept-language", "")
    return "ja" if accept.lower().startswith("ja") else "en"


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
    "install",
    "lang_code",
    "language_of",
    "page_lang",
    "translate",
    "translations",
]
