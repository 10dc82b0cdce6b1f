"""Render report blocks to one self-contained HTML file: inline CSS, figures as base64
PNG data URIs, no scripts, fonts, links or files outside the page."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence

from matplotlib.figure import Figure

from .document import Block, Heading, Para, Table
from .pdf_writer import CONTENT_W
from .plots import Plot

DPI = 110
CSS = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; max-width: 62em; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; border-bottom: 2px solid #345; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 1.6em; border-bottom: 1px solid #bbb; }
h3 { font-size: 1.05em; margin-top: 1.2em; }
table { border-collapse: collapse; margin: .5em 0; font-size: .85em; }
th { background: #e8edf3; text-align: left; }
th, td { border-bottom: 1px solid #ccc; padding: .2em .5em; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
caption { caption-side: bottom; text-align: left; font-style: italic; color: #555; font-size: .9em; padding-top: .3em; }
p.warning { background: #fbeaea; border-left: 4px solid #9a1b1b; padding: .4em .7em; }
p.note { color: #444; }
figure { margin: 1.2em 0; }
figure img { max-width: 100%; }
figcaption { font-style: italic; color: #555; font-size: .9em; }
"""


def png_data_uri(fig: Figure) -> str:
    """A Figure as a ``data:image/png;base64,...`` URI."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def render_plot(p: Plot) -> str:
    fig = Figure(figsize=(CONTENT_W, p.height))
    p.draw(fig, (0.0, 0.0, CONTENT_W, p.height))
    return (
        f'<figure><h3>{html.escape(p.title)}</h3><img alt="{html.escape(p.title)}" src="{png_data_uri(fig)}">'
        f"<figcaption>{html.escape(p.caption)}</figcaption></figure>"
    )


def render_table(t: Table) -> str:
    e = html.escape
    head = "".join(f"<th>{e(str(h))}</th>" for h in t.header)
    rows = []
    for r in t.rows:
        cells = "".join(
            f'<td class="num">{e(str(c))}</td>' if k in t.numeric else f"<td>{e(str(c))}</td>" for k, c in enumerate(r)
        )
        rows.append(f"<tr>{cells}</tr>")
    cap = f"<caption>{e(t.caption)}</caption>" if t.caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render(blocks: Sequence[Block], title: str) -> str:
    """The HTML document as a string."""
    parts = []
    for b in blocks:
        if isinstance(b, Heading):
            parts.append(f"<h{b.level + 1}>{html.escape(b.text)}</h{b.level + 1}>")
        elif isinstance(b, Para):
            parts.append(f'<p class="{b.style}">{html.escape(b.text)}</p>')
        elif isinstance(b, Table):
            parts.append(render_table(b))
        elif isinstance(b, Plot):
            parts.append(render_plot(b))
        else:
            raise TypeError(f"unknown report block {type(b).__name__}")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )


def write_html(blocks: Sequence[Block], path: str, title: str) -> str:
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(blocks, title))
    return path
