"""Every CSV the project writes, with each cell made safe for a spreadsheet.

A spreadsheet (Excel, LibreOffice, Google Sheets) that opens a CSV runs a cell beginning
with ``=``, ``+``, ``-`` or ``@`` as a formula, and a tab or a carriage return at the start
lets one through too: a name typed as ``=HYPERLINK("http://…","click")`` in a study's free
text or a tournament's entry would be a live link, or worse, in the researcher's or the
director's sheet (CSV or formula injection). So every cell is written by OWASP's rule:

* a cell whose first character is one of ``= + - @``, a tab or a carriage return, or is so
  after leading spaces, tabs, line breaks and quote marks (``"``, ``'``: some programs
  strip them before reading a formula), is written with a ``'`` in front, which the
  spreadsheet shows as text and does not display;
* a number stays a number: an ``int`` or ``float``, and text that reads as a plain number
  (``-3``, ``+1.5``, ``-2e3``), are written as they are.

:func:`restore` takes the ``'`` off again for a program that reads the file back.

Why not the ``defusedcsv`` package (3.0.0, 2025): it checks the first character only, so
``" =1+1"`` and a leading tab or carriage return pass; it also rewrites ``|`` inside the
cells it escapes (``\\|``), changing the text it keeps. The rule here is small enough to
hold in one module with its tests (``tests/test_csv_cells.py``).

>>> csv_text(("name", "wins"), [("=HYPERLINK(1)", 3), ("-2", -2.5), (" @SUM(A1)", None)])
"name,wins\\r\\n'=HYPERLINK(1),3\\r\\n-2,-2.5\\r\\n' @SUM(A1),\\r\\n"
>>> restore("'=HYPERLINK(1)"), restore("'tis"), restore("plain")
('=HYPERLINK(1)', "'tis", 'plain')
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Protocol

#: what makes a spreadsheet read a cell as a formula (OWASP's list)
FORMULA_START = frozenset("=+-@\t\r")
#: what may stand before it and still let the formula run
_LEADING = " \t\r\n\"'"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def dangerous(text: str) -> bool:
    """Whether a spreadsheet might read ``text`` as a formula (see the module docstring)."""
    if not text or _NUMBER.fullmatch(text):
        return False
    if text[0] in FORMULA_START:
        return True
    rest = text.lstrip(_LEADING)
    return bool(rest) and rest[0] in FORMULA_START and not _NUMBER.fullmatch(rest)


def safe_cell(value: object) -> str:
    """``value`` as a CSV cell: ``None`` empty, a bool ``1``/``0``, a number as it is, text
    with a ``'`` in front when :func:`dangerous`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    return "'" + text if dangerous(text) else text


def restore(cell: str) -> str:
    """A cell as it was before :func:`safe_cell`: the ``'`` taken off a dangerous text."""
    return cell[1:] if cell.startswith("'") and dangerous(cell[1:]) else cell


class _Writer(Protocol):
    def writerow(self, row: Iterable[object], /) -> object: ...


class SafeWriter:
    """A :func:`csv.writer` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, handle: io.TextIOBase | io.StringIO) -> None:
        self._out: _Writer = csv.writer(handle)

    def writerow(self, row: Iterable[object]) -> None:
        self._out.writerow([safe_cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_text(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    """A whole CSV file's text (``\\r\\n`` line ends, as :mod:`csv` writes): the header,
    then the rows, every cell made safe."""
    handle = io.StringIO(newline="")
    out = SafeWriter(handle)
    out.writerow(header)
    out.writerows(rows)
    return handle.getvalue()


__all__ = ["FORMULA_START", "SafeWriter", "csv_text", "dangerous", "restore", "safe_cell"]
