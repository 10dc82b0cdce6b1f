"""Event marks in the plots (the report's and the GUI plot dock's): a vertical line at each located
event of a joint, from summary.json's ``stop_events`` (rigid stops: impact, hold, release;
docs/joint-limits.md) and ``friction_events`` (stick, slip; docs/joint-friction.md) when present.

One line collection per kind of event, drawn beneath the curves (they stay visible over the
marks) and labelled once in the legend, which sits beside the axes (never over the curves)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection

# kind -> (legend text, colour, line style); the order is the legend's
KINDS = {
    "impact": ("stop impact", "#d62728", "-"),
    "hold": ("stop hold", "#ff7f0e", ":"),
    "release": ("stop release", "#2ca02c", "--"),
    "contact": ("stop contact (sampled)", "#d62728", "-"),
    "stick": ("friction: stick", "#9467bd", ":"),
    "slip": ("friction: slip", "#8c564b", "-."),
}
GID = "event:"  # gid prefix of the mark collections (what tests read back)


@dataclass(frozen=True)
class Mark:
    """One event: time [s], the joint it belongs to and its kind (a key of KINDS)."""

    t: float
    joint: str
    kind: str


def event_marks(summary: dict, joints: list[str] | None = None) -> list[Mark]:
    """The located events of ``summary`` (stop_events, friction_events) of the given joints (None:
    all), in time order. Entries without a time or of an unknown kind are skipped."""
    marks = []
    for key in ("stop_events", "friction_events"):
        for e in summary.get(key) or []:
            t = e.get("t", e.get("time"))
            if not isinstance(t, (int, float)) or e.get("kind") not in KINDS:
                continue
            if joints is None or e.get("joint") in joints:
                marks.append(Mark(float(t), str(e.get("joint")), e["kind"]))
    return sorted(marks, key=lambda m: m.t)


def draw_marks(ax: Axes, marks: list[Mark], legend: bool = True) -> list[LineCollection]:
    """Vertical lines over the whole height of ``ax`` at the marks' times, one collection per
    kind (gid ``event:<kind>``), beneath the curves; ``legend``: each kind labelled once with
    its count."""
    from matplotlib.collections import LineCollection

    out = []
    for kind, (text, colour, style) in KINDS.items():
        times = [m.t for m in marks if m.kind == kind]
        if not times:
            continue
        lines = LineCollection(
            [[(t, 0.0), (t, 1.0)] for t in times],
            transform=ax.get_xaxis_transform(),
            colors=colour,
            linestyles=style,
            linewidths=0.8,
            alpha=0.7,
            zorder=1.0,
            label=f"{text} ({len(times)})" if legend else None,
        )
        ax.add_collection(lines, autolim=False)
        lines.set_gid(GID + kind)
        out.append(lines)
    return out


def mark_times(ax: Axes) -> dict[str, list[float]]:
    """{kind: the times [s] of the drawn marks} read back from the axes' artists."""
    out: dict[str, list[float]] = {}
    for c in ax.collections:
        gid = c.get_gid() or ""
        if gid.startswith(GID):
            out[gid[len(GID) :]] = [float(seg[0][0]) for seg in c.get_segments()]
    return out
