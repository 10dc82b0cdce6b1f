"""A picture of a stress field on a tetrahedral mesh (docs/fem.md): the mesh's outer triangles
coloured by the nodal values, drawn with matplotlib in an isometric view. Pure numpy and
matplotlib: no FreeCAD."""

from __future__ import annotations

from collections import Counter

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

TET_FACES = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
THIN_AXIS = 0.25  # an axis shorter than this fraction of the longest has no ticks (they would overlap)


def boundary_triangles(elements) -> np.ndarray:
    """(k, 3) node ids of the outer faces of tetrahedra ``elements`` (node id tuples, corners
    first): the corner triangles that belong to one element only."""
    faces = [tuple(el[i] for i in f) for el in elements for f in TET_FACES]
    count = Counter(tuple(sorted(f)) for f in faces)
    return np.array([f for f in faces if count[tuple(sorted(f))] == 1], dtype=int).reshape(-1, 3)


def draw_stress(
    fig: Figure, rect, coords: dict, triangles: np.ndarray, values: dict, label: str, title: str = "", top=None
):
    """Draw the triangles (node ids) coloured by the mean of ``values`` ({node: value}) at their
    nodes, with a colour bar labelled ``label``, into ``rect`` (figure fractions) of ``fig``.
    ``top``: the colour scale's upper end (values above it in magenta: the stress peaks next to
    the loads, which would otherwise leave the rest of the field in one colour)."""
    from matplotlib import cm, colormaps, colors
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    ax = fig.add_axes(rect, projection="3d")
    xyz = np.array([[coords[n] for n in tri] for tri in triangles])
    v = np.array([np.mean([values[n] for n in tri]) for tri in triangles])
    high = max(values.values()) if top is None else top
    norm = colors.Normalize(vmin=min(min(values.values()), high), vmax=high)
    cmap = colormaps["jet"].with_extremes(over="magenta")
    ax.add_collection3d(Poly3DCollection(xyz, facecolors=cmap(norm(v)), edgecolors="none"))
    lo, hi = xyz.reshape(-1, 3).min(axis=0), xyz.reshape(-1, 3).max(axis=0)
    for setter, a, b in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), lo, hi):
        setter(a, b)
    ax.set_box_aspect(np.maximum(hi - lo, 1e-3 * (hi - lo).max()))
    ax.view_init(elev=30, azim=-60)
    _label_axes(fig, ax, lo, hi)
    if title:
        ax.set_title(title, fontsize=9)
    extend = "max" if max(values.values()) > high else "neither"
    bar = fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.6, pad=0.12, extend=extend)
    bar.set_label(label)
    return ax


def _label_axes(fig: Figure, ax, lo: np.ndarray, hi: np.ndarray) -> None:
    """Ticks and labels on the axes at least THIN_AXIS of the longest; a thin axis (its ticks and
    label would be drawn over each other and over the other axes') gets its range in a line of
    text under the picture instead."""
    axes = (ax.xaxis, ax.yaxis, ax.zaxis)
    thin = [k for k in range(3) if hi[k] - lo[k] < THIN_AXIS * (hi - lo).max()]
    ax.tick_params(labelsize=7, pad=1)
    for k, (axis, name) in enumerate(zip(axes, "xyz")):
        ticks = MaxNLocator(4).tick_values(lo[k], hi[k])
        axis.set_ticks([] if k in thin else ticks[(ticks >= lo[k]) & (ticks <= hi[k])])
        if k not in thin:
            axis.set_label_text("%s [mm]" % name, fontsize=8)
    if thin:
        ranges = ", ".join("%s from %.4g to %.4g mm" % ("xyz"[k], lo[k], hi[k]) for k in thin)
        fig.text(0.02, 0.02, "Thin axes (no ticks): %s" % ranges, fontsize=7, color="0.3")


def drawn_texts(fig: Figure, renderer) -> list:
    """[(text, window extent)] of every text the figure draws (visible, not blank; of the tick
    labels those of the major ticks inside their axis' view interval)."""
    from matplotlib.text import Text

    tick_labels, drawn = set(), set()
    for axes in fig.axes:
        for axis in [getattr(axes, name) for name in ("xaxis", "yaxis", "zaxis") if hasattr(axes, name)]:
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                tick_labels |= {id(tick.label1), id(tick.label2)}
            for tick, loc in zip(axis.get_major_ticks(), axis.get_ticklocs()):
                if lo - 1e-9 * (hi - lo) <= loc <= hi + 1e-9 * (hi - lo):
                    drawn |= {id(tick.label1)} | ({id(tick.label2)} if tick.label2.get_visible() else set())
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return [(t, t.get_window_extent(renderer)) for t in texts if id(t) not in tick_labels or id(t) in drawn]


def _drop_overlapping_ticks(fig: Figure, ax) -> None:
    """Remove, one at a time, each tick of ``ax`` whose label overlaps another text (an axis
    label sits at its axis' middle, where a tick label may be; tick labels of a short axis
    crowd): the figure is drawn again after each removal."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    for _ in range(12):
        canvas.draw()
        texts = drawn_texts(fig, canvas.get_renderer())
        ticks = {id(tick.label1): (axis, loc) for axis in (ax.xaxis, ax.yaxis, ax.zaxis)
                 for tick, loc in zip(axis.get_major_ticks(), axis.get_ticklocs())}  # fmt: skip
        clash = next((ticks[id(a)] for i, (a, A) in enumerate(texts) for b, B in texts[:i]
                      if id(a) in ticks and A.overlaps(B)), None)  # fmt: skip
        if clash is None:
            return
        axis, loc = clash
        axis.set_ticks([x for x in axis.get_ticklocs() if x != loc])


def stress_figure(coords: dict, triangles: np.ndarray, values: dict, title: str, top=None) -> Figure:
    """The picture of the von Mises field ``values`` [MPa] (7.2 x 4.8 in, drawn on an Agg canvas,
    no text over another)."""
    fig = Figure(figsize=(7.2, 4.8), dpi=100)
    ax = draw_stress(fig, (0.03, 0.1, 0.9, 0.82), coords, triangles, values, "von Mises [MPa]", title, top)
    _drop_overlapping_ticks(fig, ax)
    return fig


def write_stress_png(path: str, coords: dict, triangles: np.ndarray, values: dict, title: str, top=None) -> str:
    """The picture of the von Mises field ``values`` [MPa] as a PNG file; returns ``path``."""
    stress_figure(coords, triangles, values, title, top).savefig(path, metadata={"Software": None})
    return path
