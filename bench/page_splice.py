"""Rerun one section of a bench results page: splice its new lines and its goals row into the page."""

from __future__ import annotations

import os


def splice(page_path: str, lines: list[str], goal_row: str | None = None) -> None:
    """Replace the section of ``page_path`` whose header is ``lines[0]`` (up to the next '## ' header)
    by ``lines``, with a note of the load average; and the table row that starts as ``goal_row``
    (up to its first ':') by ``goal_row``. The other sections are kept as they were."""
    lines = [*lines, "", f"(This section rerun alone; load average (1 min) {os.getloadavg()[0]:.1f} at its end.)"]
    with open(page_path, encoding="utf-8") as f:
        page = f.read().rstrip("\n").split("\n")
    start = page.index(lines[0])
    end = next((k for k in range(start + 1, len(page)) if page[k].startswith("## ")), len(page))
    page[start:end] = lines + ([""] if end < len(page) else [])
    if goal_row is not None:
        key = goal_row.split(":")[0] + ":"
        page = [goal_row if line.startswith(key) else line for line in page]
    with open(page_path, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")
