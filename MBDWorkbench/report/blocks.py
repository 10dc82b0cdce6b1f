"""The report's building blocks (headings, paragraphs, tables, plots) and the number formats
every section uses; rendered by :mod:`.html_writer` and :mod:`.pdf_writer`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from . import plots


@dataclass
class Heading:
    text: str
    level: int = 1


@dataclass
class Para:
    text: str
    style: str = "normal"  # normal | note | warning


@dataclass
class Table:
    header: list
    rows: list
    caption: str = ""
    numeric: list = field(default_factory=list)  # column indices aligned right
    pdf_rows: list | None = None  # the rows as the PDF prints them (long expressions summarised), else rows


Block = Heading | Para | Table | plots.Plot  # one element of the report, rendered by html_writer and pdf_writer


def g(x: float | None, digits: int = 4) -> str:
    """A number in compact engineering-friendly form."""
    if x is None:
        return "-"
    x = float(x)
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


def vec(v: Sequence[float], digits: int = 4) -> str:
    return "(" + ", ".join(g(x, digits) for x in v) + ")"
