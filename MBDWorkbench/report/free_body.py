"""The report's "Free-body diagrams" section: the load set of each moving body
(:mod:`MBDWorkbench.loads`) at each of its critical instants (the peak of each joint reaction,
of each driver's effort and of its d'Alembert force and moment: ``critical_instants``), as a
table and a picture (arrows projected on the plane of the report's motion pictures)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..loads import body_load_case
from ..loads.body_loads import critical_instants
from ..loads.diagram import COLOURS, MIN_LENGTH, diagram_arrows, diagram_scale
from ..loads.replay import replayed
from .animation import View, projection
from .document import Block, Heading, Para, Table, g, vec
from .plots import BOTTOM, FONT, LEFT, RIGHT_LEGEND, TOP, Plot

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..loads import LoadCase
    from .data import ReportData

MAX_BODIES = 12  # bodies given free-body diagrams (the first ones of the model)
MAX_DIAGRAMS = 24  # diagrams in the report at most (two a page; bodies in model order, instants in time order)
HEIGHT = 2.8  # picture height [in]: a table and its picture take half a page


def free_body_cases(data: ReportData) -> tuple[list, int]:
    """([(load case, reasons)] drawn, number of (body, critical instant) pairs of the bodies
    considered): every critical instant of each of the first MAX_BODIES moving bodies, at most
    MAX_DIAGRAMS, from the run's samples evaluated again by the solver."""
    res = replayed(data).results()
    pairs = [(b, k, why) for b in data.body_names[:MAX_BODIES] for k, why in critical_instants(res, b)]
    return [(body_load_case(res, b, k), why) for b, k, why in pairs[:MAX_DIAGRAMS]], len(pairs)


def free_body_blocks(data: ReportData, view: View = None) -> list[Block]:
    """Heading, method note, and per moving body its table and picture at each critical instant."""
    if not data.body_names or not data.joint_names:
        return []
    blocks: list[Block] = [Heading("Free-body diagrams", 1)]
    try:
        cases, pairs = free_body_cases(data)
    except (ArithmeticError, ValueError) as exc:  # a state the solver cannot evaluate again
        return blocks + [
            Para(_method_text(len(data.body_names), 0, 0)),
            Para("No free-body diagrams: %s" % exc, "warning"),
        ]
    blocks.append(Para(_method_text(len(data.body_names), len(cases), pairs)))
    plane = _view_plane(data, view)
    body = None
    for case, reasons in cases:
        if case.body != body:
            body = case.body
            blocks.append(Heading(body, 2))
        blocks += [Heading("t = %s s: %s" % (g(case.time), "; ".join(reasons)), 3), _table(case), _picture(case, plane)]
    return blocks


def _method_text(n_bodies: int, drawn: int, pairs: int) -> str:
    text = (
        "Every load on each moving body at each of its critical instants (the samples of the peak of each "
        "joint's reaction force on it, of each driver's effort on it and of its d'Alembert force and moment; "
        "an instant shared by several peaks is drawn once): joint reactions and driver efforts at the joint, "
        "springs, dampers and applied loads at their points, gravity at the centre of gravity and the "
        "d'Alembert inertial force -m a and moment -(I alpha + w x I w). Global axes; each moment is about its "
        "load's point. The loads are those of the run's state at that sample evaluated again by the solver; "
        "the last row, their sum (moments about the centre of gravity), is zero to round-off for a body in "
        "dynamic equilibrium. The same load set is what the FEM check applies (docs/fem.md). In the pictures, "
        "forces are straight arrows from their points (the largest as long as the body's largest distance from its "
        "CoG to a load point), moments curved arrows (their component normal to the picture, counter-clockwise "
        "positive, radius growing with it); grey: the body as lines from its CoG to its load points. The tables "
        "give every component."
    )
    if n_bodies > MAX_BODIES:
        text += " Shown for the first %d of the %d moving bodies." % (MAX_BODIES, n_bodies)
    if pairs > drawn:
        text += " The first %d of the %d diagrams are drawn (bodies in the model's order)." % (drawn, pairs)
    return text


def _table(case: LoadCase) -> Table:
    rows = [
        [ld.name, ld.kind, g(np.linalg.norm(ld.force)), vec(ld.force), g(np.linalg.norm(ld.moment)), vec(ld.moment),
         vec(np.asarray(ld.point) * 1e3)]
        for ld in case.loads
    ]  # fmt: skip
    F, M = case.resultant()
    rows.append(["sum", "", g(np.linalg.norm(F), 2), vec(F, 2), g(np.linalg.norm(M), 2), vec(M, 2),
                 "CoG " + vec(case.cog * 1e3)])  # fmt: skip
    nm = "N\u00a0m"
    head = ["load", "kind", "|F| [N]", "F [N]", f"|M| [{nm}]", f"M [{nm}]", "at [mm]"]
    caption = "Loads on %s at t = %s s (sample %d), global axes." % (case.body, g(case.time), case.index)
    return Table(head, rows, caption, numeric=[2, 4])


def _view_plane(data: ReportData, view: View) -> tuple[np.ndarray, np.ndarray, tuple[str, str], str]:
    """The plane the report's motion pictures are projected on: (u, v, axis labels, text)."""
    cloud = np.vstack([data.position(b) for b in data.body_names])
    return projection(cloud, view)


def _picture(case: LoadCase, plane: tuple) -> Plot:
    u, v, labels, view_text = plane
    normal = np.cross(u, v)
    arrows = diagram_arrows(case, diagram_scale([case]))
    length = max(MIN_LENGTH, case.size())
    M_max = max([abs(float(a.value @ normal)) for a in arrows if a.moment], default=0.0)

    def flat(p: np.ndarray) -> np.ndarray:
        return np.array([p @ u, p @ v])

    def draw(fig: Figure, box: tuple) -> None:
        x0, y0, w, h = box
        W, H = fig.get_size_inches()
        ax = fig.add_axes([(x0 + LEFT) / W, (y0 + BOTTOM) / H, (w - LEFT - RIGHT_LEGEND) / W, (h - TOP - BOTTOM) / H])
        ax.tick_params(labelsize=FONT)
        ends = [flat(case.cog)]
        for ld in case.loads:  # the body as lines from its CoG to its load points
            ax.plot(*np.transpose([flat(case.cog), flat(ld.point)]), color="0.65", lw=2.5, zorder=1)
        ax.plot(*flat(case.cog), "o", color="0.4", ms=5, zorder=2)
        kinds = []
        for a in arrows:
            colour = COLOURS.get(a.kind, (0.3, 0.3, 0.3))
            if a.moment:
                ends += _moment_arc(ax, flat(a.tail), float(a.value @ normal), M_max, length, colour)
            else:
                tip = flat(a.tail + a.vector)
                ax.annotate("", xy=tip, xytext=flat(a.tail), arrowprops=dict(arrowstyle="-|>", lw=1.6, color=colour))
                ends += [flat(a.tail), tip]
            if a.kind not in kinds:
                kinds.append(a.kind)
                ax.plot([], [], color=colour, lw=2, label=a.kind)
        ax.update_datalim(np.array(ends))  # arrows (annotations) are not in the data limits by themselves
        ax.margins(0.08)
        ax.autoscale_view()
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_xlabel(labels[0], fontsize=FONT)
        ax.set_ylabel(labels[1], fontsize=FONT)
        ax.grid(True, lw=0.4, alpha=0.5)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=FONT - 1, frameon=False)

    caption = "Loads on %s at t = %s s, %s (arrows as described at the top of this section)." % (
        case.body,
        g(case.time),
        view_text,
    )
    return Plot("Free-body diagram: %s at t = %s s" % (case.body, g(case.time)), caption, HEIGHT, draw)


def _moment_arc(ax, centre: np.ndarray, moment: float, largest: float, length: float, colour) -> list:
    """A 3/4 circle around ``centre`` turning with the sign of ``moment``; returns its extent."""
    if largest <= 0 or abs(moment) <= 1e-6 * largest:
        return []
    r = length * (0.08 + 0.17 * abs(moment) / largest)
    turn = np.linspace(0.0, 1.5 * np.pi, 40) * np.sign(moment)
    pts = centre + r * np.column_stack([np.cos(turn), np.sin(turn)])
    ax.plot(pts[:-1, 0], pts[:-1, 1], color=colour, lw=1.4)
    ax.annotate("", xy=pts[-1], xytext=pts[-3], arrowprops=dict(arrowstyle="-|>", lw=1.4, color=colour))
    return [centre - r, centre + r]
