"""Report figures. Each ``Plot`` draws into a box of a matplotlib Figure given in inches,
so the same drawing fills a PDF page region and a standalone PNG for the HTML."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..solver.results import files as fmt
from ..solver.results.contacts import contact_headers
from . import derived, event_marks

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .animation import View
    from .data import ReportData
    from .derived import CheckedPoint

Box = tuple[float, float, float, float]  # (x0, y0, width, height) [in] in a Figure

LEFT, RIGHT_LEGEND, RIGHT, TOP, BOTTOM, GAP = 0.85, 1.75, 0.25, 0.3, 0.5, 0.45
MAX_LINES = 8  # curves per axes before a plot is split
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
FONT = 8
H2, H3 = 4.15, 5.6  # heights [in] of two- and three-axes plots


@dataclass
class Plot:
    """A figure block: ``draw(fig, box)`` with box = (x0, y0, width, height) in inches."""

    title: str
    caption: str
    height: float
    draw: Callable


def axes_stack(fig: Figure, box: Box, n: int, legend: bool = True) -> list[Axes]:
    """n vertically stacked axes sharing x inside ``box``, legend space on the right."""
    x0, y0, w, h = box
    W, H = fig.get_size_inches()
    right = RIGHT_LEGEND if legend else RIGHT
    ah = (h - TOP - BOTTOM - (n - 1) * GAP) / n
    axes = []
    for k in range(n):
        bottom = y0 + BOTTOM + (n - 1 - k) * (ah + GAP)
        ax = fig.add_axes(
            [(x0 + LEFT) / W, bottom / H, (w - LEFT - right) / W, ah / H], sharex=axes[0] if axes else None
        )
        ax.tick_params(labelsize=FONT)
        ax.grid(True, lw=0.4, alpha=0.5)
        axes.append(ax)
    for ax in axes[:-1]:
        ax.tick_params(labelbottom=False)
    axes[-1].set_xlabel("time [s]", fontsize=FONT)
    return axes


def _legend(ax, title=None):
    if ax.get_legend_handles_labels()[0]:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize=FONT - 1,
            frameon=False,
            title=title,
            title_fontsize=FONT - 1,
            borderaxespad=0.0,
        )


def _short(name, n=22):
    return name if len(name) <= n else name[: n - 1] + "\u2026"


def _ylabel(ax, text):
    ax.set_ylabel(text, fontsize=FONT)


def _chunks(items, n=MAX_LINES):
    return [items[k : k + n] for k in range(0, len(items), n)] or [[]]


# ----------------------------------------------------------------------------- plots
def driver_plots(data: ReportData, peaks: list[dict]) -> list[Plot]:
    """Driver efforts and power."""
    if not data.driver_names:
        return []
    out = []
    for part, names in enumerate(_chunks(data.driver_names)):

        def draw(fig: Figure, box: Box, names: list[str] = names) -> None:
            a1, a2 = axes_stack(fig, box, 2)
            units = sorted({data.driver_unit(d) for d in names})
            for c, d in enumerate(names):
                col = COLORS[c % len(COLORS)]
                a1.plot(data.t, data.driver_effort(d), color=col, lw=1.2, label=f"{_short(d)} [{data.driver_unit(d)}]")
                a2.plot(data.t, data.driver_power(d), color=col, lw=1.2, label=_short(d))
            _ylabel(a1, f"effort [{' / '.join(units)}]")
            _ylabel(a2, "power [W]")
            a1.set_title("torque / force applied by the driver to body_j", fontsize=FONT, loc="left")
            _legend(a1), _legend(a2)

        out.append(
            Plot(
                "Driver efforts and power" + _part(part, data.driver_names),
                "Driver effort (torque or force it applies to body_j) and mechanical power delivered.",
                H2,
                draw,
            )
        )
    return out


def _part(k, items):
    return f" ({k + 1}/{len(_chunks(items))})" if len(items) > MAX_LINES else ""


def reaction_plots(data: ReportData, peaks: list[dict]) -> list[Plot]:
    """|F| and |T| per joint, with the peaks marked."""
    by_name = {p["joint"]: p for p in peaks}
    out = []
    for part, names in enumerate(_chunks(data.joint_names)):
        if not names:
            break

        def draw(fig: Figure, box: Box, names: list[str] = names) -> None:
            a1, a2 = axes_stack(fig, box, 2)
            for c, j in enumerate(names):
                col = COLORS[c % len(COLORS)]
                F, T = data.reaction(j)
                a1.plot(data.t, np.linalg.norm(F, axis=1), color=col, lw=1.2, label=_short(j))
                a2.plot(data.t, np.linalg.norm(T, axis=1), color=col, lw=1.2, label=_short(j))
                p = by_name[j]
                a1.plot([p["t_F"]], [p["F_max"]], "o", color=col, ms=4)
                a2.plot([p["t_T"]], [p["T_max"]], "o", color=col, ms=4)
            _ylabel(a1, "|F| [N]")
            _ylabel(a2, "|T| [N m]")
            a1.set_title("reaction of body_i on body_j (dots: peaks)", fontsize=FONT, loc="left")
            _legend(a1, "joint"), _legend(a2, "joint")

        out.append(
            Plot(
                "Joint reaction magnitudes" + _part(part, data.joint_names),
                "Magnitude of the reaction force and of the reaction torque about the joint origin.",
                H2,
                draw,
            )
        )
    return out


def point_plots(data: ReportData, points: Sequence[CheckedPoint]) -> list[Plot]:
    """Position, velocity and acceleration components of each user point."""
    out = []
    for label, body, local in points:
        kin = derived.point_kinematics(data, body, local)

        def draw(fig: Figure, box: Box, kin: dict[str, np.ndarray] = kin) -> None:
            axes = axes_stack(fig, box, 3)
            for ax, key, unit in zip(axes, ("position", "velocity", "acceleration"), ("m", "m/s", "m/s\u00b2")):
                v = kin[key]
                for c, n in enumerate("xyz"):
                    ax.plot(data.t, v[:, c], color=COLORS[c], lw=1.2, label=n)
                if key != "position":
                    ax.plot(data.t, np.linalg.norm(v, axis=1), color="k", lw=1.0, ls="--", label="magnitude")
                _ylabel(ax, f"{key} [{unit}]")
                _legend(ax, "global")

        out.append(
            Plot(
                f"Point {label}: body '{body}' {_fmt_vec(local)}",
                f"Point fixed to body '{body}' at {_fmt_vec(local)} m from its CoG (body frame); global "
                "components. Acceleration: second-order finite difference of the velocity.",
                H3,
                draw,
            )
        )
    return out


def _fmt_vec(v):
    return "(" + ", ".join(f"{x:.4g}" for x in v) + ")"


def violation_plots(data: ReportData) -> list[Plot]:
    """Constraint violation per joint and driver (log scale)."""
    names = data.joint_names + data.driver_names
    out = []
    for part, group in enumerate(_chunks(names)):
        if not group:
            break

        def draw(fig: Figure, box: Box, group: list[str] = group) -> None:
            a1, a2 = axes_stack(fig, box, 2)
            for c, n in enumerate(group):
                v = data.violation(n)
                col = COLORS[c % len(COLORS)]
                if np.any(v["position"] > 0):
                    a1.semilogy(data.t, np.maximum(v["position"], 1e-18), color=col, lw=1.1, label=_short(n))
                if np.any(v["angle"] > 0):
                    a2.semilogy(data.t, np.maximum(v["angle"], 1e-18), color=col, lw=1.1, label=_short(n))
            _ylabel(a1, "position [m]")
            _ylabel(a2, "angle [rad]")
            for ax, angular in ((a1, False), (a2, True)):
                if not ax.get_lines():
                    has = any(angular in derived.row_kinds(data.model, n) for n in group)
                    ax.text(
                        0.5,
                        0.5,
                        "exactly zero throughout" if has else "no equations of this kind",
                        transform=ax.transAxes,
                        ha="center",
                        va="center",
                        fontsize=FONT,
                    )
                    ax.set_yticks([])
            a1.set_title("max |violation| of each joint's / driver's equations", fontsize=FONT, loc="left")
            _legend(a1), _legend(a2)

        out.append(
            Plot(
                "Constraint violation" + _part(part, names),
                "Largest absolute violation of the position-level constraint equations of each joint and "
                "driver (lengths in m, angles in rad).",
                H2,
                draw,
            )
        )
    return out


def energy_plot(data: ReportData) -> list[Plot]:
    """Energies, works and the balance."""
    e = data.energy()

    def draw(fig: Figure, box: Box) -> None:
        a1, a2 = axes_stack(fig, box, 2)
        curves = (
            ("kinetic", "kinetic T", COLORS[0], "-"),
            ("potential", "potential V", COLORS[1], "-"),
            ("total", "T + V", "k", "-"),
            ("work_drivers", "work of drivers", COLORS[2], "--"),
            ("work_nonconservative", "work of dampers\n& applied loads", COLORS[3], "--"),
        )
        for key, label, col, ls in curves:
            a1.plot(data.t, e[key], color=col, ls=ls, lw=1.2, label=label)
        a2.plot(data.t, e["balance"], color=COLORS[4], lw=1.2, label="balance")
        _ylabel(a1, "energy / work [J]")
        _ylabel(a2, "balance [J]")
        _legend(a1), _legend(a2)

    drift = data.summary.get("energy_drift")
    cap = (
        "Energies and works; balance = T + V - (T + V)(t=0) - work of drivers - work of dampers and applied "
        "loads, zero for an exact solution: its deviation measures the integration error"
    )
    cap += f" (relative drift {drift:.2e})." if isinstance(drift, (int, float)) else "."
    return [Plot("Energy balance", cap, H2, draw)]


def motion_plot(data: ReportData, view: View = None, snapshots: int = 8) -> list[Plot]:
    """Stick figure of the mechanism at a few instants, projected on the view plane."""
    from .animation import StickFigure

    stick = StickFigure(data, view)

    def draw(fig: Figure, box: Box) -> None:
        x0, y0, w, h = box
        W, H = fig.get_size_inches()
        ax = fig.add_axes([(x0 + LEFT) / W, (y0 + BOTTOM) / H, (w - LEFT - RIGHT_LEGEND) / W, (h - TOP - BOTTOM) / H])
        ax.tick_params(labelsize=FONT)
        ks = np.unique(np.linspace(0, len(data) - 1, snapshots).round().astype(int))
        for n, k in enumerate(ks):
            alpha = 0.25 + 0.75 * n / max(len(ks) - 1, 1)
            stick.draw_frame(ax, k, alpha=alpha, labels=(n == len(ks) - 1))
        stick.decorate(ax)
        _legend(ax)

    samples = np.unique(np.linspace(0, len(data) - 1, snapshots).round().astype(int))
    times = ", ".join(f"{data.t[k]:.3g}" for k in samples)
    return [
        Plot(
            "Motion overview",
            f"Stick figure (bodies as lines between their joint points) at t = {times} s, "
            f"later instants darker; {stick.view_text}.",
            H2,
            draw,
        )
    ]


# ----------------------------------------------------------------------------- events and contacts
def event_joints(data: ReportData) -> list[str]:
    """Joints with limits, damping, friction or located events, in the model's order."""
    from .stops import limited_coordinates

    named = {j for j, _ in limited_coordinates(data)} | {m.joint for m in event_marks.event_marks(data.summary)}
    named |= {j for j in data.joint_names if f"{j}.friction_state [-]" in data.tables[fmt.JOINTS]}
    return [j for j in data.joint_names if j in named]


def joint_marks(data: ReportData, joint: str) -> list[event_marks.Mark]:
    """The joint's located events, plus the starts of its compliant stops' contacts (from the samples)."""
    from .stops import stop_events

    sampled = [event_marks.Mark(e["start"], joint, "contact") for e in stop_events(data) if e["joint"] == joint]
    return sorted(event_marks.event_marks(data.summary, [joint]) + sampled, key=lambda m: m.t)


def event_plots(data: ReportData) -> list[Plot]:
    """Per joint with stops or friction: its coordinates (limits dashed) and the stop and friction
    efforts, with its events marked."""
    return [_event_plot(data, j) for j in event_joints(data)]


def _event_plot(data: ReportData, joint: str) -> Plot:
    from ..solver.model.catalog import COORDINATES

    names = data.joint_coordinate_names(joint)
    marks = joint_marks(data, joint)
    efforts = _joint_efforts(data, joint)

    def draw(fig: Figure, box: Box) -> None:
        axes = axes_stack(fig, box, 3 if efforts else 2)
        q, rate = data.joint_coordinate(joint), data.joint_coordinate_rate(joint)
        for c, n in enumerate(names):
            spec = COORDINATES[n]
            axes[0].plot(data.t, q[:, c], color=COLORS[c], lw=1.2, label=f"{n} [{spec.unit}]")
            for key, value in _limits(data, joint, n):
                axes[0].axhline(value, color=COLORS[c], lw=0.8, ls="--", label=key)
            axes[1].plot(data.t, rate[:, c], color=COLORS[c], lw=1.2, label=f"{n} rate [{spec.rate_unit}]")
        for c, (label, y) in enumerate(efforts):
            axes[2].plot(data.t, y, color=COLORS[(c + 2) % len(COLORS)], lw=1.1, label=label)
        for ax in axes:
            event_marks.draw_marks(ax, marks, legend=ax is axes[0])
            _legend(ax)
        _ylabel(axes[0], "coordinate")
        _ylabel(axes[1], "rate")
        if efforts:
            _ylabel(axes[2], "effort [N m or N]")
        axes[0].set_title(f"{_short(joint, 40)}: coordinates and events", fontsize=FONT, loc="left")

    cap = (
        f"Joint '{joint}': its coordinates (its limits dashed), their rates"
        + (" and the efforts of its end stops and friction (positive: increasing the coordinate)" if efforts else "")
        + ". Vertical lines: its events (rigid stops' located impacts, holds and releases; friction stick/slip "
        "switches; compliant stops: the first sample of each contact)."
    )
    return Plot(f"Stops and friction: {joint}", cap, H3 if efforts else H2, draw)


def _limits(data: ReportData, joint: str, coordinate: str) -> list[tuple[str, float]]:
    """(field, value) of the coordinate's limits in the model."""
    from ..solver.model.joint_stops import LIMITED

    spec, j = LIMITED.get(coordinate), data.model.joint(joint)
    keys = (spec.low, spec.high) if spec else ()
    return [(k, getattr(j, k)) for k in keys if getattr(j, k, None) is not None]


def _joint_efforts(data: ReportData, joint: str) -> list[tuple[str, np.ndarray]]:
    """(label, values) of the joint's stop and friction effort columns that are not zero throughout."""
    prefix = f"{joint}."
    heads = [h for h in data.tables[fmt.JOINTS] if h.startswith(prefix)]
    heads = [h for h in heads if "_stop [" in h or "_friction [" in h or ".friction_T" in h]
    return [(_short(h[len(prefix) :], 30), data.col(fmt.JOINTS, h)) for h in heads if np.any(data.col(fmt.JOINTS, h))]


def contact_plots(data: ReportData) -> list[Plot]:
    """Per contact pair (up to MAX_LINES a plot): normal and tangential force, and penetration."""
    table = data.tables.get(fmt.CONTACTS) or {}
    pairs = [c.name for c in getattr(data.model, "contacts", None) or [] if contact_headers(c.name)[3] in table]
    if not pairs:
        return []
    out = []
    for part, names in enumerate(_chunks(pairs)):

        def draw(fig: Figure, box: Box, names: list[str] = names) -> None:
            a1, a2 = axes_stack(fig, box, 2)
            for c, pair in enumerate(names):
                col, h = COLORS[c % len(COLORS)], contact_headers(pair)
                a1.plot(data.t, table[h[3]], color=col, lw=1.2, label=f"{_short(pair)} normal")
                a1.plot(data.t, table[h[4]], color=col, lw=1.0, ls="--", label=f"{_short(pair)} tangential")
                a2.plot(data.t, table[h[5]], color=col, lw=1.2, label=_short(pair))
            _ylabel(a1, "force [N]")
            _ylabel(a2, "penetration [m]")
            a1.set_title("contact force on body_a at the output samples", fontsize=FONT, loc="left")
            _legend(a1, "pair"), _legend(a2, "pair")

        out.append(
            Plot(
                "Contact forces and penetration" + _part(part, pairs),
                "Normal and tangential contact force (magnitudes, summed over the pair's contact points) and the "
                "deepest penetration at the output samples (contacts.csv); an impact shorter than the output step "
                "shows in the report's peak table, not here.",
                H2,
                draw,
            )
        )
    return out
