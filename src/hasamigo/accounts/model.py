"""An account and the rules of its name and password.

A name is what other players see: 2 to 20 characters, letters of any script (Japanese
included), digits, ``_`` and ``-``, after NFKC normalisation (full-width ``ＡＢＣ`` is
``ABC``, half-width katakana become full-width). Two names that differ only by case are
the same name (:func:`name_key`). A password is 8 to 256 characters, and not the name.

>>> normalise_name("  Ｔａｒｏ_1 ")
'Taro_1'
>>> name_key("Taro_1") == name_key("tARO_1")
True
>>> normalise_name("たろう"), normalise_name("ﾀﾛｳ")
('たろう', 'タロウ')
>>> normalise_name("a b")
Traceback (most recent call last):
...
hasamigo.accounts.model.InvalidName: a name is letters, digits, '_' and '-' (not ' ')

The Hangul fillers are letters to Unicode but draw nothing (U+3164 three times would be a
name nobody sees), so they are refused; and a name has at least one letter or digit
(``---`` is not a name a person can be told by).

A name's letters are of one script, so that a Cyrillic ``а`` cannot pass for a Latin
``a`` in someone else's name (``аlice`` beside ``alice``); Japanese mixes its own scripts
(kanji, hiragana, katakana) and Latin letters freely:

>>> normalise_name("山田たろうTaro")
'山田たろうTaro'
>>> normalise_name("\u0430lice")
Traceback (most recent call last):
...
hasamigo.accounts.model.InvalidName: a name's letters are of one script (not Cyrillic and Latin)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from hasamigo.errors import HasamigoError

NAME_LENGTH = (2, 20)  # two: 山田, 花子 and many Japanese given names
PASSWORD_LENGTH = (8, 256)
#: a session unused this long ends; any session ends this long after sign-in
SESSION_IDLE_DAYS, SESSION_MAX_DAYS = 30, 90
#: a trusted browser (its device cookie) unused this long is trusted no more; an account
#: keeps at most this many (the least recently used forgotten first)
DEVICE_DAYS, DEVICES_KEPT = 365, 20


class AccountError(HasamigoError):
    """A refusal about accounts; ``code`` picks the web status (web/errors.py)."""

    code = "bad_request"


class InvalidName(AccountError, ValueError):
    code = "invalid_name"


class InvalidPassword(AccountError, ValueError):
    code = "invalid_password"


class NameTaken(AccountError):
    code = "name_taken"


class LoginFailed(AccountError):
    """A wrong name or password (which of the two is not said)."""

    code = "unauthorized"


class AccountNotFound(AccountError, LookupError):
    code = "not_found"


@dataclass(frozen=True, slots=True)
class Account:
    """A person's account: ``id`` (32 hex digits), ``name`` as shown, when it was made."""

    id: str
    name: str
    created_at: datetime

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


#: letters (category Lo) that draw nothing: the Hangul fillers (U+3164 and U+FFA0 are
#: U+1160 after NFKC, listed too for clarity)
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def _name_char(char: str) -> bool:
    if char in INVISIBLE_LETTERS:
        return False
    category = unicodedata.category(char)
    return category[0] == "L" or category == "Nd" or char in "_-"


#: the scripts Japanese writes a name in, which mix with one another and with Latin
JAPANESE = frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "IDEOGRAPHIC"})


def _script(letter: str) -> str:
    """A letter's script as the first word of its Unicode name (``LATIN``, ``CYRILLIC``,
    ``GREEK``, ``HIRAGANA``…); the Japanese scripts are one, ``JAPANESE``."""
    first = unicodedata.name(letter, "UNKNOWN").split(" ", 1)[0]
    return "JAPANESE" if first in JAPANESE else first


def _mixed_scripts(text: str) -> tuple[str, str] | None:
    """Two scripts a name's letters mix that may not be mixed, else ``None``."""
    scripts = sorted({_script(c) for c in text if unicodedata.category(c)[0] == "L"})
    if len(scripts) > 1 and set(scripts) != {"JAPANESE", "LATIN"}:
        pair = [s for s in scripts if s != "JAPANESE"] if "JAPANESE" in scripts \
            and len(scripts) > 2 else scripts
        return pair[0], pair[1]
    return None


def normalise_name(name: str) -> str:
    """``name`` as stored and shown (NFKC, surrounding spaces removed), or
    :class:`InvalidName` saying what is wrong."""
    if not isinstance(name, str):
        raise InvalidName("a name is text")
    text = unicodedata.normalize("NFKC", name[:200]).strip()
    low, high = NAME_LENGTH
    if not low <= len(text) <= high:
        raise InvalidName(f"a name is {low} to {high} characters long")
    bad = next((c for c in text if not _name_char(c)), None)
    if bad is not None:
        shown = repr(bad) if bad.isprintable() else f"U+{ord(bad):04X}"
        raise InvalidName(f"a name is letters, digits, '_' and '-' (not {shown})")
    if all(c in "_-" for c in text):
        raise InvalidName("a name has a letter or a digit")
    mixed = _mixed_scripts(text)
    if mixed is not None:
        one, other = (s.capitalize() for s in mixed)
        raise InvalidName(f"a name's letters are of one script (not {one} and {other})")
    return text


def name_key(name: str) -> str:
    """The key two names are compared by: NFKC, case-folded (``Straße`` and ``STRASSE``
    are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_password(password: str, name: str | None = None) -> str:
    """``password`` if it may be used (8 to 256 characters, not the name), else
    :class:`InvalidPassword`. The message never quotes the password."""
    if not isinstance(password, str):
        raise InvalidPassword("a password is text")
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise InvalidPassword(f"a password is {low} to {high} characters long")
    if not password.strip():
        raise InvalidPassword("a password is more than spaces")
    if name is not None and name_key(password.strip()) == name_key(name):
        raise InvalidPassword("a password is not the name")
    return password


__all__ = ["DEVICES_KEPT", "DEVICE_DAYS", "NAME_LENGTH", "PASSWORD_LENGTH",
           "SESSION_IDLE_DAYS", "SESSION_MAX_DAYS",
           "Account", "AccountError", "AccountNotFound", "InvalidName", "InvalidPassword",
           "LoginFailed", "NameTaken", "check_password", "name_key", "normalise_name"]
