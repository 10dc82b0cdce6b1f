"""The Markdown page a benchmark writes to bench/results/ (bench/README.md): its heading, the note
on how it was measured (the command, the machine's load, what was timed), its table and notes
below; one writer for the scripts that write only that page, and the commit stamp of the
scripts that record it."""

from __future__ import annotations

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")


def commit() -> str:
    """The checkout's short commit, '+changes' when MBDWorkbench/ has uncommitted changes."""
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "MBDWorkbench"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def load_note() -> str:
    """The load now, as the pages give it: 'load average 1.2, 1.0, 0.9 (2 cores)' (1, 5, 15 min)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f}, {five:.1f}, {fifteen:.1f} ({os.cpu_count()} cores)"


def page_text(title: str, note: str, table: list[str], notes: tuple[str, ...] = ()) -> str:
    """'# title', the note, the table's lines, then each further note as a paragraph."""
    return "\n\n".join([f"# {title}", note, "\n".join(table), *notes]) + "\n"


def write_page(name: str, title: str, note: str, table: list[str], notes: tuple[str, ...] = (), folder=RESULTS) -> str:
    """Write ``folder``/``name``.md (:func:`page_text`) and print it; returns its text."""
    text = page_text(title, note, table, notes)
    with open(os.path.join(folder, f"{name}.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, end="")
    return text
