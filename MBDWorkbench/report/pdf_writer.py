"""Render report blocks to an A4 PDF with matplotlib's PdfPages (text, tables with
wrapped cells and repeated headers, plots drawn directly on the page: vector output)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from .document import Block, Heading, Para, Table
from .plots import Plot

PAGE_W, PAGE_H = 8.27, 11.69  # A4 [in]
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 0.7, 0.75, 0.7
CONTENT_W = PAGE_W - 2 * MARGIN_X
BODY, SMALL, TABLE = 9.0, 7.5, 7.0  # font sizes [pt]
HEAD = {0: 16.0, 1: 13.0, 2: 10.5}
CELL_PAD = 0.06  # [in] each side of a cell
MIN_TABLE = 5.0  # [pt] smallest table font, used where a table's longest words do not fit at TABLE
LONG_WORD = 0.4 * CONTENT_W  # [in] a cell with a wider word (a long formula) is summarised in the PDF
_T2P = TextToPath()


def printable(s: object) -> str:
    """``s`` as text without the control characters the fonts have no glyph for (matplotlib
    warns "Glyph 10 missing" and draws a box): tabs and other white space become spaces,
    line breaks and no-break spaces are kept (wrap splits on the first, never on the second), other
    control characters are dropped."""
    text = str(s).replace("\r\n", "\n").replace("\r", "\n")
    return "".join(c if c in "\n\xa0" or c.isprintable() else (" " if c.isspace() else "") for c in text)


def text_width(s: str, size: float, bold: bool = False) -> float:
    """Width [in] of a string at font size ``size`` [pt]: its widest line."""
    lines = printable(s).split("\n")
    if len(lines) > 1:
        return max(text_width(line, size, bold) for line in lines)
    if not lines[0]:
        return 0.0
    prop = FontProperties(size=size, weight="bold" if bold else "normal")
    return _T2P.get_text_width_height_descent(lines[0], prop, ismath=False)[0] / 72.0


def wrap(s: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Lines of ``s`` that fit ``width`` [in] (greedy on measured widths; line breaks kept)."""
    lines = []
    for para in printable(s).split("\n"):
        words, line = para.split(" "), ""
        for w in words:
            cand = w if not line else line + " " + w
            if text_width(cand, size, bold) <= width or not line:
                line = cand
            else:
                lines.append(line)
                line = w
            while text_width(line, size, bold) > width and len(line) > 1:
                cut = _fit(line, width, size, bold)
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return lines


def _fit(s, width, size, bold):
    n = len(s)
    while n > 1 and text_width(s[:n], size, bold) > width:
        n -= 1
    return n


class PdfBuilder:
    """Lays blocks out top to bottom on A4 pages with a header and page numbers."""

    def __init__(self, path: str, title: str) -> None:
        self.pdf = PdfPages(path, metadata={"Title": title, "Creator": "MBD Workbench"})
        self.title = printable(title).replace("\n", " ")
        self.page = 0
        self.fig = None
        self.y = 0.0

    def new_page(self) -> None:
        self.finish_page()
        self.page += 1
        self.fig = Figure(figsize=(PAGE_W, PAGE_H))
        self.fig.text(MARGIN_X / PAGE_W, 1 - 0.4 / PAGE_H, self.title, fontsize=SMALL, color="0.4", va="center")
        self.fig.text(
            1 - MARGIN_X / PAGE_W,
            0.35 / PAGE_H,
            f"page {self.page}",
            fontsize=SMALL,
            color="0.4",
            ha="right",
            va="center",
        )
        self.y = MARGIN_TOP

    def finish_page(self) -> None:
        if self.fig is not None:
            self.pdf.savefig(self.fig)
            self.fig = None

    def close(self) -> None:
        self.finish_page()
        self.pdf.close()

    def room(self) -> float:
        return PAGE_H - MARGIN_BOTTOM - self.y

    def ensure(self, h: float) -> None:
        if self.fig is None or self.room() < h:
            self.new_page()

    def text(self, x: float, s: str, size: float, **kw: object) -> None:
        """One line at the cursor (top-aligned), x in inches (line breaks drawn as spaces)."""
        self.fig.text(x / PAGE_W, 1 - self.y / PAGE_H, printable(s).replace("\n", " "), fontsize=size, va="top", **kw)

    # ------------------------------------------------------------------ blocks
    def heading(self, b: Heading, keep: float = 0.6) -> None:
        """A heading kept on one page with ``keep`` inches of what follows it."""
        size = HEAD.get(b.level, 10.0)
        before = 0.0 if b.level == 0 else 0.18
        self.ensure(before + size / 72 * 1.6 + keep)
        self.y += before if self.y > MARGIN_TOP else 0.0
        self.text(MARGIN_X, b.text, size, weight="bold")
        self.y += size / 72 * 1.6

    def para(self, b: Para) -> None:
        size = BODY if b.style == "normal" else BODY - 0.5
        color = {"warning": "#9a1b1b", "note": "0.25"}.get(b.style, "black")
        indent = 0.15 if b.style == "warning" else 0.0
        lines = wrap(b.text, CONTENT_W - indent, size)
        lh = size / 72 * 1.4
        for k, line in enumerate(lines):
            self.ensure(lh)
            self.text(MARGIN_X + indent, line, size, color=color)
            if k == 0 and b.style == "warning":
                self.text(MARGIN_X, "!", size, color=color, weight="bold")
            self.y += lh
        self.y += 0.08

    def table(self, b: Table) -> None:
        header, cells = [unit_kept_whole(printable(h)) for h in b.header], pdf_cells(b)
        size = TABLE
        while sum(word_widths(header, cells, b.numeric, size)) > CONTENT_W and size > MIN_TABLE:
            size -= 0.5  # the longest words of all columns side by side do not fit: a smaller font
        widths = column_widths(header, cells, b.numeric, CONTENT_W, size)
        head = [wrap(h, widths[c] - 2 * CELL_PAD, size, True) for c, h in enumerate(header)]
        rows = [[wrap(cell, widths[c] - 2 * CELL_PAD, size) for c, cell in enumerate(r)] for r in cells]
        lh = size / 72 * 1.35
        head_h = max(len(h) for h in head) * lh + 0.06
        self.ensure(head_h + lh * 2 + 0.1)
        self._table_header(head, widths, head_h, lh, size)
        for r in rows:
            h = max(len(c) for c in r) * lh + 0.04
            if self.room() < h:
                self.new_page()
                self._table_header(head, widths, head_h, lh, size)
            self._row(r, widths, lh, b.numeric, size)
            self.y += h
            self._rule(0.3, "0.75")
        if b.caption:
            self.y += 0.04
            for line in wrap(b.caption, CONTENT_W, SMALL):
                self.ensure(SMALL / 72 * 1.35)
                self.text(MARGIN_X, line, SMALL, color="0.3", style="italic")
                self.y += SMALL / 72 * 1.35
        self.y += 0.15

    def _table_header(self, head, widths, head_h, lh, size):
        from matplotlib.patches import Rectangle

        top = 1 - self.y / PAGE_H
        self.fig.patches.append(
            Rectangle(
                (MARGIN_X / PAGE_W, top - head_h / PAGE_H),
                sum(widths) / PAGE_W,
                head_h / PAGE_H,
                transform=self.fig.transFigure,
                color="#e8edf3",
                zorder=0,
            )
        )
        self.y += 0.03
        self._row(head, widths, lh, [], size, bold=True)
        self.y += head_h - 0.03
        self._rule(0.6, "0.4")

    def _row(self, cells, widths, lh, numeric, size, bold=False):
        x = MARGIN_X
        y0 = self.y
        for c, lines in enumerate(cells):
            right = c in numeric
            for k, line in enumerate(lines):
                self.y = y0 + 0.02 + k * lh
                xx = x + widths[c] - CELL_PAD if right else x + CELL_PAD
                self.text(xx, line, size, ha="right" if right else "left", weight="bold" if bold else "normal")
            x += widths[c]
        self.y = y0

    def _rule(self, lw, color):
        y = 1 - self.y / PAGE_H
        self.fig.add_artist(
            matplotlib.lines.Line2D(
                [MARGIN_X / PAGE_W, 1 - MARGIN_X / PAGE_W], [y, y], lw=lw, color=color, transform=self.fig.transFigure
            )
        )

    def plot(self, b: Plot) -> None:
        cap = wrap(b.caption, CONTENT_W, SMALL)
        need = 0.3 + b.height + len(cap) * SMALL / 72 * 1.35 + 0.1
        self.ensure(need)
        self.text(MARGIN_X, b.title, 10.0, weight="bold")
        self.y += 0.3
        b.draw(self.fig, (MARGIN_X, PAGE_H - self.y - b.height, CONTENT_W, b.height))
        self.y += b.height
        for line in cap:
            self.text(MARGIN_X, line, SMALL, color="0.3", style="italic")
            self.y += SMALL / 72 * 1.35
        self.y += 0.2


def pdf_cells(table: Table) -> list[list[str]]:
    """The cells the PDF prints: ``table.pdf_rows`` (or its rows) as text, a cell still holding
    a word wider than ``LONG_WORD`` [in] summarised (the HTML report keeps the full text)."""
    out = []
    for row in table.pdf_rows or table.rows:
        texts = [unit_kept_whole(printable(cell)) for cell in row]
        out.append(
            [
                _summarised(t) if c not in table.numeric and _widest_word(t, TABLE) > LONG_WORD else t
                for c, t in enumerate(texts)
            ]
        )
    return out


def unit_kept_whole(text: str) -> str:
    """``text`` with the spaces inside its square brackets made no-break ('[N m]' never wraps)."""
    return re.sub(r"\[[^\[\]\n]*\]", lambda m: m.group(0).replace(" ", "\xa0"), text)


def _summarised(text: str) -> str:
    return "%d characters (full text in the HTML report): %s ..." % (
        len(text),
        " ".join(w for w in text.split()[:12] if text_width(w, TABLE) <= LONG_WORD),
    )


def _widest_word(text: str, size: float, bold: bool = False) -> float:
    """Width [in] of the widest word of ``text`` (words: split at white space)."""
    return max((text_width(w, size, bold) for w in text.replace("\n", " ").split(" ")), default=0.0)


def word_widths(header: list, cells: list[list[str]], numeric: list, size: float) -> list[float]:
    """Narrowest width [in] of each column: its widest word (header in bold), a numeric
    column's widest cell (numbers never wrap), plus the cell padding."""
    return [
        max(
            [_widest_word(printable(h), size, True)]
            + [text_width(r[c], size) if c in numeric else _widest_word(r[c], size) for r in cells]
        )
        + 2 * CELL_PAD
        + 0.02
        for c, h in enumerate(header)
    ]


def column_widths(header: list, cells: list[list[str]], numeric: list, avail: float, size: float) -> list[float]:
    """Column widths [in] from their content: each column's one-line width where they all fit
    in ``avail``; else each column gets its widest word (cells wrap only between words) plus a
    share of the room left in proportion to how much wider its one-line text is."""
    n = len(header)
    nat = [
        max([text_width(printable(header[c]), size, True)] + [text_width(r[c], size) for r in cells])
        + 2 * CELL_PAD
        + 0.02
        for c in range(n)
    ]
    if sum(nat) <= avail:
        if n <= 4:  # a short table spans the page: its last text column takes the room left
            text = [c for c in range(n) if c not in numeric]
            nat[text[-1] if text else -1] += avail - sum(nat)
        return nat
    least = word_widths(header, cells, numeric, size)
    want = [max(a - m, 0.0) for a, m in zip(nat, least)]
    spare = max(avail - sum(least), 0.0)
    return [m + spare * w / (sum(want) or 1.0) for m, w in zip(least, want)]


def _keep(following):
    """Height [in] a heading must keep with the blocks after it (no orphaned headings)."""
    h = 0.0
    for b in following:
        if isinstance(b, Plot):
            return h + 0.3 + b.height
        if isinstance(b, Heading):
            h += HEAD.get(b.level, 10.0) / 72 * 1.6 + 0.18
            continue
        return h + 0.6
    return h + 0.6


def write_pdf(blocks: Sequence[Block], path: str, title: str) -> int:
    """Write ``blocks`` to ``path``; returns the number of pages."""
    with matplotlib.rc_context({"pdf.fonttype": 42, "font.family": "DejaVu Sans"}):
        pb = PdfBuilder(path, title)
        pb.new_page()
        for k, b in enumerate(blocks):
            if isinstance(b, Heading):
                pb.heading(b, _keep(blocks[k + 1 : k + 3]))
            elif isinstance(b, Para):
                pb.para(b)
            elif isinstance(b, Table):
                pb.table(b)
            elif isinstance(b, Plot):
                pb.plot(b)
            else:
                raise TypeError(f"unknown report block {type(b).__name__}")
        pb.close()
    return pb.page
