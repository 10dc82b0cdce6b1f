"""Stop impacts and contact forces over the report's stick-figure animation (report/animation.py):
a red star at a joint's point in the frames that follow one of its rigid-stop impacts
(summary.json's stop_events), and an arrow per contact pair in contact (contacts.csv), from its
contact point along the force on body_a, projected on the view plane, ``scale`` [m/N] long per
newton (contacts.arrow_scale: the typical contact force of the run drawn at a quarter of the
figure's size, the largest at most that size)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..solver.results import files as fmt
from ..solver.results.contacts import contact_headers
from . import derived
from .contacts import arrow_scale, pair_names

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .data import ReportData

IMPACT_COLOR, CONTACT_COLOR = "#d62728", "#e377c2"


class EventLayer:
    """The impact stars and contact arrows of one axes, moved frame by frame with ``update``."""

    def __init__(self, data: ReportData, stick: Any) -> None:
        """``stick``: the animation's StickFigure (its ``project`` and ``scale`` [m])."""
        self.data, self.stick = data, stick
        self.impacts = [e for e in data.summary.get("stop_events") or [] if e.get("kind") == "impact"]
        self.points = joint_points(data) if self.impacts else {}
        table = data.tables.get(fmt.CONTACTS) or {}
        self.pairs = {}
        for pair in pair_names(data):
            h = contact_headers(pair)
            F = np.column_stack([table[x] for x in h[0:3]])
            self.pairs[pair] = (F, np.column_stack([table[x] for x in h[6:9]]), table[h[3]])
        self.scale = arrow_scale([F for F, _, _ in self.pairs.values()], stick.scale)  # [m/N]
        self.arrows: dict = {}
        self.stars = None

    def __bool__(self) -> bool:
        return bool(self.impacts or self.pairs)

    def draw(self, ax: Axes, labels: bool = True) -> None:
        """Create the artists (hidden until ``update``)."""
        for pair in self.pairs:
            self.arrows[pair] = ax.quiver(
                [0.0], [0.0], [0.0], [0.0], angles="xy", scale_units="xy", scale=1.0, color=CONTACT_COLOR,
                width=0.006, zorder=5,
            )  # fmt: skip
            self.arrows[pair].set_visible(False)
        if self.pairs and labels:  # a quiver has no legend handle: a line stands for it
            ax.plot([], [], "-", color=CONTACT_COLOR, lw=2.0, label="contact force")
        if self.impacts:
            (self.stars,) = ax.plot(
                [], [], "*", color=IMPACT_COLOR, ms=14, zorder=6, label="stop impact" if labels else None
            )

    def update(self, k: int, since: float) -> list[str]:
        """Show sample k: the arrows of the pairs in contact, a star at each joint with an impact
        in (since, t_k]; returns those joints' names."""
        for pair, (F, p, Fn) in self.pairs.items():
            arrow = self.arrows[pair]
            on = bool(Fn[k] > 0)
            arrow.set_visible(on)
            if on:
                arrow.set_offsets(self.stick.project(p[k])[None, :])
                uv = self.stick.project(F[k] * self.scale)
                arrow.set_UVC([uv[0]], [uv[1]])
        t = float(self.data.t[k])
        hit = [e["joint"] for e in self.impacts if since < e["t"] <= t + 1e-12 and e["joint"] in self.points]
        if self.stars is not None:
            xy = np.array([self.stick.project(self.points[j][k]) for j in hit]).reshape(-1, 2)
            self.stars.set_data(xy[:, 0], xy[:, 1])
        return hit


def joint_points(data: ReportData) -> dict[str, np.ndarray]:
    """{joint: its point's global path (K, 3) [m]}: its origin on the first moving body it joins,
    or its fixed ground point."""
    local, fixed = derived.body_points(data)
    out: dict[str, np.ndarray] = {}
    for b, points in local.items():
        pos, R = data.position(b), data.rotation(b)
        for name, p in points:
            out.setdefault(name, pos + R @ p)
    for name, p in fixed:
        out.setdefault(name, np.tile(p, (len(data), 1)))
    return out
