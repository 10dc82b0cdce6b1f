"""A picture of a stress field on a tetrahedral mesh (docs/fem.md): the mesh's outer triangles
coloured by the nodal values, drawn with matplotlib in an isometric view. Pure numpy and
matplotlib: no FreeCAD."""

from __future__ import annotations

from collections import Counter

import numpy as np
from matplotlib.figure import Figure

TET_FACES = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))


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
    ax.locator_params(nbins=4)
    ax.tick_params(labelsize=7)
    ax.set_xlabel("x [mm]")
    ax.set_ylabel("y [mm]")
    ax.set_zlabel("z [mm]")
    if title:
        ax.set_title(title, fontsize=9)
    extend = "max" if max(values.values()) > high else "neither"
    bar = fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.6, pad=0.12, extend=extend)
    bar.set_label(label)
    return ax


def write_stress_png(path: str, coords: dict, triangles: np.ndarray, values: dict, title: str, top=None) -> str:
    """The picture of the von Mises field ``values`` [MPa] as a PNG file; returns ``path``."""
    fig = Figure(figsize=(7.2, 4.8), dpi=100)
    draw_stress(fig, (0.0, 0.0, 0.95, 0.95), coords, triangles, values, "von Mises [MPa]", title, top)
    fig.savefig(path, metadata={"Software": None})
    return path
