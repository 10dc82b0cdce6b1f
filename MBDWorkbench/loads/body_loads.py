"""Newton-Euler load set of one body at one output sample of a Results (SI units, global axes).

* A joint's reaction on the body: ``Results.reaction(joint, 'global')`` is the wrench body_i
  exerts on body_j, with its torque about the joint origin on the receiving side; on body_i
  the wrench is its opposite about the same point. ``side`` (1 or 2) says which of the joint's
  bodies (Body1/Body2 of the document) the body is, i.e. which reference picks its faces.
* A driver's effort: the constraint load ``-Phi_q^T lam`` of its rows on the body, applied
  at the driven joint's point.
* The force elements on the body (springs, dampers, applied forces and torques), each by the
  solver's own element kernel (:mod:`.force_loads`).
* Gravity ``m g`` and the d'Alembert loads ``-m a_G`` at the CoG and ``-(I alpha + w x I w)``.
The sum of all of them is zero for a rigid body in a consistent run (checked by
:meth:`LoadCase.check_equilibrium`)."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field

import numpy as np

from .force_loads import force_element_loads

EQUILIBRIUM_TOL = 1e-6  # largest allowed residual of the load set relative to its largest load


class BodyLoadError(ValueError):
    """A load set that cannot be built or is not in equilibrium (the message names why)."""


@dataclass
class Load:
    """One load on the body: force [N] at ``point`` [m] and moment [N m] about it, global axes.
    ``kind``: 'joint', 'driver', 'applied', 'spring', 'damper', 'gravity' or 'inertia';
    ``joint`` and ``side`` (1 = Body1, 2 = Body2 of the joint) for joint and driver loads."""

    name: str
    kind: str
    point: np.ndarray
    force: np.ndarray
    moment: np.ndarray
    joint: str | None = None
    side: int | None = None
    references: list = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready record (SI units)."""
        return dict(
            name=self.name,
            kind=self.kind,
            joint=self.joint,
            side=self.side,
            references=list(self.references),
            point_m=[float(v) for v in self.point],
            force_N=[float(v) for v in self.force],
            moment_Nm=[float(v) for v in self.moment],
        )


@dataclass
class LoadCase:
    """Loads on ``body`` at sample ``index`` (time ``time`` [s]) and the body's state there:
    CoG [m], rotation of its own frame, mass [kg], inertia about the CoG in global axes
    [kg m^2], angular velocity [rad/s], CoG acceleration [m/s^2], angular acceleration [rad/s^2]."""

    body: str
    index: int
    time: float
    loads: list
    cog: np.ndarray
    rotation: np.ndarray
    mass: float
    inertia: np.ndarray
    omega: np.ndarray
    acceleration: np.ndarray
    alpha: np.ndarray
    gravity: np.ndarray

    def resultant(self) -> tuple[np.ndarray, np.ndarray]:
        """Sum of the forces [N] and of the moments about the CoG [N m]."""
        F = sum((ld.force for ld in self.loads), np.zeros(3))
        M = sum((ld.moment + np.cross(ld.point - self.cog, ld.force) for ld in self.loads), np.zeros(3))
        return F, M

    def size(self) -> float:
        """Largest distance of a load point from the CoG [m] (at least 1 mm)."""
        return max([1e-3] + [float(np.linalg.norm(ld.point - self.cog)) for ld in self.loads])

    def largest_load(self) -> float:
        """Largest force [N] of the set (moments counted as force x body size)."""
        L = self.size()
        return max([1e-300] + [max(np.linalg.norm(ld.force), np.linalg.norm(ld.moment) / L) for ld in self.loads])

    def relative_residual(self) -> float:
        """|sum of loads| relative to the largest load (moments over the body size)."""
        F, M = self.resultant()
        return max(np.linalg.norm(F), np.linalg.norm(M) / self.size()) / self.largest_load()

    def check_equilibrium(self, tol: float = EQUILIBRIUM_TOL, unmodelled: list | None = None) -> float:
        """The relative residual; raises BodyLoadError when it exceeds ``tol`` (naming the force
        elements on the body, whose loads are not in the set, when there are any)."""
        r = self.relative_residual()
        if not np.isfinite(r) or r > tol:
            F, M = self.resultant()
            why = (
                " (force elements on it are not transferred: %s)" % ", ".join(unmodelled)
                if unmodelled
                else " (the run's accelerations and reactions disagree)"
            )
            raise BodyLoadError(
                "body '%s' at t = %.6g s: its loads are not in equilibrium: residual force %s N, moment %s N m, "
                "%.3g of the largest load%s" % (self.body, self.time, _fmt(F), _fmt(M), r, why)
            )
        return r


def _fmt(v) -> str:
    return "[%s]" % ", ".join("%.6g" % x for x in v)


def _accelerations(res, b: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """CoG acceleration and angular acceleration (global) of moving body b at sample k."""
    nb = res.system.nb
    Ydot = res.Ydot[k]
    acc = Ydot[7 * nb + 6 * b : 7 * nb + 6 * b + 6]
    A_principal = res.rotation(res.body_names[b])[k] @ res.system.R_principal[b]
    return np.array(acc[:3]), A_principal @ acc[3:]


def _joint_loads(res, body: str, k: int) -> list:
    """The reaction of every joint on ``body`` at sample k."""
    out = []
    for jk, j in enumerate(res.model.joints):
        if body not in (j.body_i, j.body_j) or j.body_i == j.body_j:
            continue
        F, T = (np.array(a[k]) for a in res.reaction(j.name, "global"))
        point = _joint_point(res, jk, k)
        side = 1 if body == j.body_i else 2
        if side == 1:
            F, T = -F, -T
        out.append(Load(j.name, "joint", point, F, T, joint=j.name, side=side))
    return out


def _joint_point(res, jk: int, k: int) -> np.ndarray:
    """Global point [m] about which the joint's reaction torque is given (its origin on the
    receiving side: body_j, or body_i when body_j is the ground)."""
    sys = res.system
    j, f = res.model.joints[jk], sys.joint_frames[jk]
    bj = sys.body_index(j.body_j)
    b, local = (bj, f["oj"]) if bj >= 0 else (sys.body_index(j.body_i), f["oi"])
    A_principal = res.rotation(res.body_names[b])[k] @ sys.R_principal[b]
    return res.position(res.body_names[b])[k] + A_principal @ local


def _driver_loads(res, body: str, k: int) -> list:
    """The effort of every driver whose joint involves ``body``: -Phi_q^T lam of its rows."""
    sys, nj = res.system, len(res.model.joints)
    b = sys.body_index(body)
    rows = np.nonzero(sys.row_owner >= nj)[0]
    if not len(rows):
        return []
    Y, lam = res.Y[k], res.multipliers[k]
    _, J, _, _ = sys.constraint_jacobian(float(res.t[k]), Y)
    A_principal = res.rotation(body)[k] @ sys.R_principal[b]
    cog = res.position(body)[k]
    out = []
    for d, drv in enumerate(res.model.drivers):
        mine = [r for r in rows if sys.row_owner[r] == nj + d]
        g = -J[mine, 6 * b : 6 * b + 6].T @ lam[mine]
        if not np.any(g):
            continue
        jk = [j.name for j in res.model.joints].index(drv.joint)
        j = res.model.joints[jk]
        point = _joint_point(res, jk, k)
        F, T_cog = g[:3], A_principal @ g[3:]
        out.append(
            Load(
                drv.name,
                "driver",
                point,
                F,
                T_cog - np.cross(point - cog, F),
                joint=j.name,
                side=1 if body == j.body_i else 2,
            )
        )
    return out


def body_load_case(res, body: str, index: int) -> LoadCase:
    """The load set of ``body`` at sample ``index`` of Results ``res`` (module docstring)."""
    if body not in res.body_names:
        raise BodyLoadError("no moving body '%s' in the run (bodies: %s)" % (body, ", ".join(res.body_names)))
    if not -len(res) <= index < len(res):
        raise BodyLoadError("sample %d is outside the run (%d samples)" % (index, len(res)))
    index %= len(res)
    mb = res.model.bodies[[x.name for x in res.model.bodies].index(body)]
    b = res.system.body_index(body)
    R = np.array(res.rotation(body)[index])
    inertia = R @ np.asarray(mb.inertia, float) @ R.T
    cog = np.array(res.position(body)[index])
    omega = np.array(res.angular_velocity(body)[index])
    a, alpha = _accelerations(res, b, index)
    g = np.asarray(res.model.gravity, float)
    m = float(mb.mass)
    loads = _joint_loads(res, body, index) + _driver_loads(res, body, index)
    loads += [Load(**ld) for ld in force_element_loads(res, body, index)]
    loads.append(Load("gravity", "gravity", cog, m * g, np.zeros(3)))
    loads.append(Load("inertia", "inertia", cog, -m * a, -(inertia @ alpha + np.cross(omega, inertia @ omega))))
    return LoadCase(body, index, float(res.t[index]), loads, cog, R, m, inertia, omega, a, alpha, g)


def unmodelled_forces(model, body: str) -> list:
    """Names of the force elements acting on ``body`` (their loads are not transferred)."""
    out = []
    for f in model.forces:
        names = {getattr(f, a, None) for a in ("body", "body_i", "body_j")}
        joint = getattr(f, "joint", None)
        if joint:
            j = next(x for x in model.joints if x.name == joint)
            names |= {j.body_i, j.body_j}
        if body in names:
            out.append(f.name)
    return out


def reaction_magnitude(res, body: str) -> np.ndarray:
    """Largest joint reaction force [N] on ``body`` at each sample."""
    mags = [
        np.linalg.norm(res.reaction(j.name, "global")[0], axis=1)
        for j in res.model.joints
        if body in (j.body_i, j.body_j)
    ]
    return np.max(mags, axis=0) if mags else np.zeros(len(res))


def worst_instants(res, body: str, count: int = 1) -> list:
    """Sample indices of the ``count`` largest joint reactions on ``body``: the largest local
    maxima of :func:`reaction_magnitude` first (then the largest other samples)."""
    if body not in res.body_names:
        raise BodyLoadError("no moving body '%s' in the run (bodies: %s)" % (body, ", ".join(res.body_names)))
    mag = reaction_magnitude(res, body)
    n = len(mag)
    peaks = [k for k in range(n) if (k == 0 or mag[k] >= mag[k - 1]) and (k == n - 1 or mag[k] >= mag[k + 1])]
    order = sorted(peaks, key=lambda k: -mag[k]) + [k for k in np.argsort(-mag) if k not in peaks]
    return [int(k) for k in order[: max(1, count)]]


TABLE_COLUMNS = "time_s body load kind joint side references px_m py_m pz_m Fx_N Fy_N Fz_N Mx_Nm My_Nm Mz_Nm".split()


def load_table_rows(cases: list) -> list:
    """One row (dict of TABLE_COLUMNS) per load of every case, SI units, global axes at the instant."""
    rows = []
    for case in cases:
        for ld in case.loads:
            rows.append(
                dict(
                    zip(
                        TABLE_COLUMNS,
                        [case.time, case.body, ld.name, ld.kind, ld.joint or "", ld.side or "", " ".join(ld.references)]
                        + [float(v) for v in (*ld.point, *ld.force, *ld.moment)],
                    )
                )
            )
    return rows


def write_load_table(cases: list, csv_path: str | None = None, json_path: str | None = None) -> None:
    """The load table as CSV and/or JSON (each case with the body's state at its instant)."""
    if csv_path:
        with open(csv_path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=TABLE_COLUMNS)
            w.writeheader()
            w.writerows(load_table_rows(cases))
    if json_path:
        doc = dict(
            units=dict(length="m", force="N", moment="N m", time="s"),
            axes="global, at the instant (moments about the load's point)",
            cases=[case_summary(c) for c in cases],
        )
        write_json(doc, json_path)


def json_ready(value):
    """``value`` with every non-finite float (inf, nan) replaced by None, numpy scalars and
    arrays as Python numbers and lists: strict JSON (no ``Infinity``/``NaN``)."""
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [json_ready(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


def write_json(value, path: str) -> None:
    """``value`` as strict JSON (:func:`json_ready`) into ``path``."""
    with open(path, "w") as fh:
        json.dump(json_ready(value), fh, indent=1, allow_nan=False)


def case_summary(case: LoadCase) -> dict:
    """JSON-ready load case: instant, body state and loads."""
    F, M = case.resultant()
    return dict(
        body=case.body,
        time_s=case.time,
        sample=case.index,
        mass_kg=case.mass,
        cog_m=case.cog.tolist(),
        omega_rad_s=case.omega.tolist(),
        acceleration_m_s2=case.acceleration.tolist(),
        alpha_rad_s2=case.alpha.tolist(),
        residual_force_N=F.tolist(),
        residual_moment_Nm=M.tolist(),
        relative_residual=case.relative_residual(),
        loads=[ld.as_dict() for ld in case.loads],
    )


def inertial_load_magnitudes(res, body: str) -> tuple[np.ndarray, np.ndarray]:
    """(|m a_G| [N], |I alpha + w x I w| [N m]) of ``body`` at each sample: its d'Alembert force and moment."""
    mb = res.model.bodies[[x.name for x in res.model.bodies].index(body)]
    b = res.system.body_index(body)
    forces, moments = np.zeros(len(res)), np.zeros(len(res))
    for k in range(len(res)):
        R = np.array(res.rotation(body)[k])
        inertia = R @ np.asarray(mb.inertia, float) @ R.T
        omega = np.array(res.angular_velocity(body)[k])
        a, alpha = _accelerations(res, b, k)
        forces[k] = float(mb.mass) * np.linalg.norm(a)
        moments[k] = np.linalg.norm(inertia @ alpha + np.cross(omega, inertia @ omega))
    return forces, moments


def driver_effort_magnitudes(res, body: str) -> list:
    """[(why, effort at each sample)] of the drivers acting on ``body``: |force| [N] of a
    force-type effort, else |torque| [N m]."""
    per_sample = [_driver_loads(res, body, k) for k in range(len(res))]
    out = []
    for name in dict.fromkeys(ld.name for loads in per_sample for ld in loads):
        pairs = [
            next(((ld.force, ld.moment) for ld in loads if ld.name == name), (np.zeros(3),) * 2) for loads in per_sample
        ]
        forces = np.array([np.linalg.norm(f) for f, _ in pairs])
        moments = np.array([np.linalg.norm(m) for _, m in pairs])
        out.append(("peak effort of driver '%s'" % name, forces if forces.max() > 0 else moments))
    return out


PEAK_TIE = 1e-6  # relative: samples this close to a peak are ties (the results files keep 10 digits)


def critical_instants(res, body: str) -> list:
    """[(sample, reasons)] in time order: the peak of each joint's reaction force on ``body``, of
    each driver's effort on it and the peaks of its d'Alembert force and moment (samples shared
    by several peaks listed once, with all their reasons; a load that stays below 1e-9 of the
    largest, moments in N m per N, is left out: its peak would be round-off; samples within
    PEAK_TIE of a peak are ties, the first is taken: a constant load, e.g. the inertial force of a
    crank turning at constant speed, peaks at the first sample, not at a round-off bump)."""
    if body not in res.body_names:
        raise BodyLoadError("no moving body '%s' in the run (bodies: %s)" % (body, ", ".join(res.body_names)))
    series = [
        ("peak reaction of joint '%s'" % j.name, np.linalg.norm(res.reaction(j.name, "global")[0], axis=1))
        for j in res.model.joints
        if body in (j.body_i, j.body_j) and j.body_i != j.body_j
    ]
    series += driver_effort_magnitudes(res, body)
    force, moment = inertial_load_magnitudes(res, body)
    series += [("peak inertial force", force), ("peak inertial moment", moment)]
    out: dict = {}
    scale = max(np.max(values) for _, values in series)
    for reason, values in series:
        top = np.max(values)
        if top > 1e-9 * scale:  # the first sample within PEAK_TIE of the peak: a flat series has no round-off peak
            out.setdefault(int(np.argmax(values >= (1.0 - PEAK_TIE) * top)), []).append(reason)
    return sorted(out.items())
