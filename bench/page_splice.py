"""Rerun one section of a bench results page: splice its new lines and its goals rows into the page."""

from __future__ import annotations

import os


def splice(page_path: str, lines: list[str], goal_rows: str | list[str] | None = None) -> None:
    """Replace the section of ``page_path`` whose header is ``lines[0]`` (up to the next '## ' header)
    by ``lines`` (a new one at the end), with a note of the load average; and each table row that starts as one of
    ``goal_rows`` (up to its first ':') by it, a new one put after the last row of its scene (the
    text before its first ',') or else at the end of the goals table. The other sections are kept."""
    lines = [*lines, "", f"(This section rerun alone; load average (1 min) {os.getloadavg()[0]:.1f} at its end.)"]
    with open(page_path, encoding="utf-8") as f:
        page = f.read().rstrip("\n").split("\n")
    if lines[0] in page:
        start = page.index(lines[0])
        end = next((k for k in range(start + 1, len(page)) if page[k].startswith("## ")), len(page))
        page[start:end] = lines + ([""] if end < len(page) else [])
    else:  # a new section: at the end
        page += ["", *lines]
    for row in [goal_rows] if isinstance(goal_rows, str) else goal_rows or []:
        page = _put_row(page, row)
    with open(page_path, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


def _put_row(page: list[str], row: str) -> list[str]:
    """``page`` with the table row keyed as ``row`` (up to its first ':') replaced by it, or inserted."""
    key = row.split(":")[0] + ":"
    if any(line.startswith(key) for line in page):
        return [row if line.startswith(key) else line for line in page]
    scene = row.split(",")[0].split(":")[0]
    at = [k for k, line in enumerate(page) if line.startswith(scene)]
    if not at:  # the goals table is the page's first table
        first = next(k for k, line in enumerate(page) if line.startswith("|"))
        at = [next((k for k in range(first, len(page)) if not page[k].startswith("|")), len(page)) - 1]
    return page[: at[-1] + 1] + [row] + page[at[-1] + 1 :]
