"""The free-body diagram of a load set: one arrow per force and one double-headed arrow per
moment, as the Animate view draws them (Coin3D); the report's picture (matplotlib) draws the
same arrows projected on its plane, the moments as curved arrows.

Scale rule: the largest force over the cases given is drawn :data:`LENGTH_FACTOR` times the
reference length long and every other force in proportion; moments likewise with the largest
moment, separately. The reference length is the largest distance from a body's CoG to one of
its load points over the cases (at least :data:`MIN_LENGTH`). Arrows start at the load's
point (forces) and lie along the moment's axis (moments, right-hand rule). A load below
:data:`NEGLIGIBLE` of the largest of its kind is listed in the table but not drawn."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LENGTH_FACTOR = 1.0  # the largest force (moment) is drawn this many reference lengths long
MIN_LENGTH = 0.02  # shortest reference length [m]
NEGLIGIBLE = 1e-6  # loads below this fraction of the largest of their kind are not drawn

COLOURS = {  # RGB 0..1 per load kind
    "joint": (0.85, 0.1, 0.1),
    "driver": (0.9, 0.5, 0.0),
    "gravity": (0.1, 0.6, 0.1),
    "inertia": (0.55, 0.2, 0.75),
    "spring": (0.0, 0.55, 0.85),
    "damper": (0.0, 0.75, 0.75),
    "applied": (0.15, 0.15, 0.9),
    "stop": (0.6, 0.3, 0.1),
    "contact": (0.75, 0.1, 0.45),
}


@dataclass(frozen=True)
class Scale:
    """Arrow length per unit load: ``force`` [m/N] and ``moment`` [m/(N m)]."""

    force: float
    moment: float


@dataclass
class Arrow:
    """One arrow: ``tail`` [m] and ``vector`` [m] (global), the load it shows and its value."""

    name: str
    kind: str
    moment: bool
    tail: np.ndarray
    vector: np.ndarray
    value: np.ndarray  # the force [N] or moment [N m]

    @property
    def unit(self) -> str:
        return "N m" if self.moment else "N"

    @property
    def label(self) -> str:
        """'pivot force 12.3 N' style text for hover and legends."""
        what = "moment" if self.moment else "force"
        return "%s %s %.4g %s" % (self.name, what, float(np.linalg.norm(self.value)), self.unit)


def diagram_scale(cases: list) -> Scale:
    """The arrow scale of a set of load cases of one body (module docstring)."""
    length = max([MIN_LENGTH] + [c.size() for c in cases]) * LENGTH_FACTOR
    forces = [np.linalg.norm(ld.force) for c in cases for ld in c.loads]
    moments = [np.linalg.norm(ld.moment) for c in cases for ld in c.loads]
    F, M = max(forces, default=0.0), max(moments, default=0.0)
    return Scale(length / F if F > 0 else 0.0, length / M if M > 0 else 0.0)


def diagram_arrows(case, scale: Scale) -> list[Arrow]:
    """The arrows of load case ``case`` drawn with ``scale`` (negligible loads left out)."""
    F_max = max([np.linalg.norm(ld.force) for ld in case.loads], default=0.0)
    M_max = max([np.linalg.norm(ld.moment) for ld in case.loads], default=0.0)
    out = []
    for ld in case.loads:
        for is_moment, value, factor, largest in (
            (False, ld.force, scale.force, F_max),
            (True, ld.moment, scale.moment, M_max),
        ):
            if np.linalg.norm(value) > NEGLIGIBLE * largest and largest > 0:
                vec = np.asarray(value, float) * factor
                out.append(Arrow(ld.name, ld.kind, is_moment, np.asarray(ld.point, float), vec, np.array(value)))
    return out


TABLE_HEADERS = ("load", "kind", "F [N]", "Fx, Fy, Fz [N]", "M [N m]", "Mx, My, Mz [N m]", "at x, y, z [mm]")


def table_rows(case) -> list[tuple[str, ...]]:
    """One row of text per load (:data:`TABLE_HEADERS`), global axes, moment about the load's point;
    then the residual row: the sum of the forces and of the moments about the CoG."""
    rows = []
    for ld in case.loads:
        rows.append(
            (
                ld.name,
                ld.kind,
                "%.4g" % np.linalg.norm(ld.force),
                _components(ld.force),
                "%.4g" % np.linalg.norm(ld.moment),
                _components(ld.moment),
                _components(np.asarray(ld.point) * 1e3),
            )
        )
    F, M = case.resultant()
    cog = _components(case.cog * 1e3)
    rows.append(("sum", "", "%.3g" % np.linalg.norm(F), _components(F), "%.3g" % np.linalg.norm(M),
                 _components(M), cog))  # fmt: skip
    return rows


def _components(v) -> str:
    return ", ".join("%.4g" % x for x in v)
