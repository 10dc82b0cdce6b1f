"""Stick-figure drawing of the mechanism and the CLI animation (GIF via Pillow, or a
strip of PNG frames when Pillow is missing). Bodies are lines between their joint
points, projected on the best-fitting plane of the motion or on a chosen view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from . import derived
from .animation_events import EventLayer
from .data import ReportData, ReportError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

View = str | Sequence[float] | None  # 'xy', 'xz', ... a plane normal, or None: the best-fitting plane

VIEWS = {"xy": (0, 1), "yx": (1, 0), "xz": (0, 2), "zx": (2, 0), "yz": (1, 2), "zy": (2, 1)}
AXES = np.eye(3)
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
MAX_FRAMES = 100


class StickFigure:
    """Global paths of every body's joint points and their 2-D projection."""

    def __init__(self, data: ReportData, view: View = None) -> None:
        self.data = data
        local, fixed = derived.body_points(data)
        self.paths = {}
        for b in data.body_names:
            pts = [p for _, p in local[b]]
            pos, R = data.position(b), data.rotation(b)
            P = [pos + R @ p for p in pts]
            self.paths[b] = np.stack([pos] + P, axis=1)  # (K, 1 + n, 3): CoG first
        self.fixed = np.array([p for _, p in fixed]).reshape(-1, 3)
        self.u, self.v, self.labels, self.view_text = projection(self._cloud(), view)
        c = self.project(self._cloud())
        self.lo, self.hi = c.min(axis=0), c.max(axis=0)
        self.scale = max(float(np.max(self.hi - self.lo)), 1e-9)

    def _cloud(self):
        K = len(self.data)
        ks = np.unique(np.linspace(0, K - 1, min(K, 200)).round().astype(int))
        parts = [p[ks].reshape(-1, 3) for p in self.paths.values()] + [self.fixed]
        return np.concatenate(parts, axis=0)

    def project(self, P: np.ndarray) -> np.ndarray:
        """(..., 3) global points [m] -> (..., 2) view coordinates [m]."""
        return np.stack([P @ self.u, P @ self.v], axis=-1)

    def body_lines(self, k: int) -> list[tuple[str, np.ndarray | None, np.ndarray, np.ndarray]]:
        """Per body at sample k: (name, outline (n, 2) or None, joint points (n, 2), CoG (2,));
        the outline is None when all points coincide with the CoG (drawn as a square)."""
        out = []
        for b, path in self.paths.items():
            xy = self.project(path[k])
            cog, pts = xy[0], _distinct(xy[1:])
            if len(pts) == 0 or (len(pts) == 1 and np.allclose(pts[0], cog, atol=self.scale * 1e-3)):
                out.append((b, None, pts, cog))
            else:
                out.append((b, _outline(pts, cog), pts, cog))
        return out

    def draw_frame(
        self, ax: Axes, k: int, alpha: float = 1.0, labels: bool = True
    ) -> list[tuple[Line2D, Line2D, Line2D]]:
        """Draw sample k: bodies as lines/polygons through their points, CoG dots, ground.
        Returns the artists as [(outline line, points, CoG marker)] per body."""
        artists = []
        for c, (b, line, pts, cog) in enumerate(self.body_lines(k)):
            col = COLORS[c % len(COLORS)]
            label = b if labels else None
            if line is None:
                (ln,) = ax.plot([], [], "-", color=col, lw=2.0, alpha=alpha, solid_capstyle="round")
                (mk,) = ax.plot([cog[0]], [cog[1]], "s", color=col, ms=7, alpha=alpha, label=label)
            else:
                (ln,) = ax.plot(
                    line[:, 0], line[:, 1], "-", color=col, lw=2.0, alpha=alpha, label=label, solid_capstyle="round"
                )
                (mk,) = ax.plot([cog[0]], [cog[1]], ".", color=col, ms=5, alpha=alpha)
            (pt,) = ax.plot(pts[:, 0], pts[:, 1], "o", color=col, ms=3, alpha=alpha, mfc="white")
            artists.append((ln, pt, mk))
        if len(self.fixed):
            g = self.project(self.fixed)
            ax.plot(g[:, 0], g[:, 1], "^", color="k", ms=7, label="ground" if labels else None)
        return artists

    def update(self, artists: list[tuple[Line2D, Line2D, Line2D]], k: int) -> None:
        """Move the artists of draw_frame to sample k."""
        for (ln, pt, mk), (_, line, pts, cog) in zip(artists, self.body_lines(k)):
            if line is not None:
                ln.set_data(line[:, 0], line[:, 1])
            pt.set_data(pts[:, 0], pts[:, 1])
            mk.set_data([cog[0]], [cog[1]])

    def decorate(self, ax: Axes, font: float = 8) -> None:
        """Equal aspect, limits covering the whole motion, axis labels with units."""
        lo, hi = self.lo, self.hi
        pad = 0.08 * max(self.scale, 1e-6)
        ax.set_xlim(lo[0] - pad, hi[0] + pad)
        ax.set_ylim(lo[1] - pad, hi[1] + pad)
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_xlabel(self.labels[0], fontsize=font)
        ax.set_ylabel(self.labels[1], fontsize=font)
        ax.grid(True, lw=0.4, alpha=0.5)


def _distinct(pts, tol=1e-9):
    out = []
    for p in pts:
        if not any(np.allclose(p, q, atol=tol) for q in out):
            out.append(p)
    return np.array(out).reshape(-1, 2)


def _outline(pts, cog):
    """A body's drawing: CoG-point line (1 point), a segment (2), a closed polygon (3+)."""
    if len(pts) == 1:
        return np.array([pts[0], cog])
    if len(pts) == 2:
        return pts
    c = pts.mean(axis=0)
    order = np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))
    return np.vstack([pts[order], pts[order[:1]]])


def projection(cloud: np.ndarray, view: View = None) -> tuple[np.ndarray, np.ndarray, tuple[str, str], str]:
    """(u, v, axis labels, description) of the view plane. ``view``: None (best-fitting
    plane of the motion, snapped to a global plane when within ~10 degrees), 'xy', 'xz',
    'yz', ... or a normal vector."""
    if isinstance(view, str):
        if view not in VIEWS:
            raise ReportError("view", f"unknown view '{view}' (one of {', '.join(VIEWS)} or a normal vector)")
        a, b = VIEWS[view]
        return AXES[a], AXES[b], (f"{'xyz'[a]} [m]", f"{'xyz'[b]} [m]"), f"projected on the {view[0]}-{view[1]} plane"
    if view is not None:
        n = np.asarray(view, float)
        if n.shape != (3,) or not np.all(np.isfinite(n)) or np.linalg.norm(n) < 1e-12:
            raise ReportError("view", f"a view normal must be 3 numbers, not all zero, got {view!r}")
        return _plane_axes(n / np.linalg.norm(n), "the plane normal to")
    X = cloud - cloud.mean(axis=0)
    n = np.linalg.svd(X, full_matrices=False)[2][-1] if len(X) >= 3 else AXES[2]
    return _plane_axes(n, "the best-fitting plane, normal")


def _plane_axes(n, what):
    k = int(np.argmax(np.abs(n)))
    if abs(n[k]) > 0.985:
        a, b = {2: (0, 1), 1: (0, 2), 0: (1, 2)}[k]
        return AXES[a], AXES[b], (f"{'xyz'[a]} [m]", f"{'xyz'[b]} [m]"), f"projected on the {'xyz'[a]}-{'xyz'[b]} plane"
    up = AXES[2] if abs(n[2]) < 0.9 else AXES[1]
    v = up - (up @ n) * n
    v /= np.linalg.norm(v)
    u = np.cross(v, n)

    def d(w: np.ndarray) -> str:
        return "(" + ", ".join(f"{x:.2f}" for x in w) + ")"

    return u, v, (f"u [m] along {d(u)}", f"v [m] along {d(v)}"), f"projected on {what} {d(n)}"


# ----------------------------------------------------------------------------- files
def have_pillow() -> bool:
    """True if Pillow (python3-pil) can be imported."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


def frame_indices(data: ReportData, n: int = MAX_FRAMES) -> np.ndarray:
    """At most n evenly spaced sample indices, first and last included."""
    return np.unique(np.linspace(0, len(data) - 1, min(len(data), n)).round().astype(int))


def write_gif(data: ReportData, path: str, view: View = None) -> str:
    """Animated GIF of the stick figure, played at about real time (5-25 frames/s)."""
    from matplotlib.animation import FuncAnimation, PillowWriter
    from matplotlib.figure import Figure

    stick = StickFigure(data, view)
    ks = frame_indices(data)
    duration = float(data.t[-1] - data.t[0])
    fps = int(np.clip(round(len(ks) / duration) if duration > 0 else 10, 5, 25))
    fig = Figure(figsize=(5.5, 4.5), dpi=80)
    ax = fig.add_axes([0.13, 0.12, 0.62, 0.8])
    artists = stick.draw_frame(ax, ks[0])
    events = EventLayer(data, stick)
    events.draw(ax)
    stick.decorate(ax)
    title = ax.set_title("", fontsize=9, loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7, frameon=False)

    def frame(n: int) -> list:
        stick.update(artists, ks[n])
        hit = events.update(ks[n], impact_window(data, ks, n))
        impacts = f"   impact: {', '.join(hit)}" if hit else ""
        title.set_text(f"{data.model.name}   t = {data.t[ks[n]]:.3f} s{impacts}")
        return []

    FuncAnimation(fig, frame, frames=len(ks), blit=False).save(path, writer=PillowWriter(fps=fps))
    return path


def impact_window(data: ReportData, ks: np.ndarray, n: int) -> float:
    """The time after which a stop impact is shown at frame n: those since the frame before the
    previous one (each impact stays for two frames; none before the first frame)."""
    return float(data.t[ks[n - 2]]) if n >= 2 else float(data.t[0]) - 1.0


def write_strip(data: ReportData, path: str, view: View = None, panels: int = 8) -> str:
    """One PNG with up to ``panels`` stick-figure frames side by side (no Pillow needed)."""
    from matplotlib.figure import Figure

    stick = StickFigure(data, view)
    ks = frame_indices(data, panels)
    cols = min(4, len(ks))
    rows = int(np.ceil(len(ks) / cols))
    fig = Figure(figsize=(3.0 * cols, 2.8 * rows + 0.3), dpi=90)
    for n, k in enumerate(ks):
        ax = fig.add_subplot(rows, cols, n + 1)
        ax.tick_params(labelsize=7)
        stick.draw_frame(ax, k, labels=(n == 0))
        stick.decorate(ax, font=7)
        ax.set_title(f"t = {data.t[k]:.3f} s", fontsize=8)
    fig.legend(*fig.axes[0].get_legend_handles_labels(), loc="lower center", ncol=6, fontsize=7, frameon=False)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.93, bottom=0.12, wspace=0.35, hspace=0.45)
    fig.savefig(path)
    return path
