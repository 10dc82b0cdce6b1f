"""Quantities the report derives from ReportData: peak loads, kinematics of user points,
mobility and redundancy of the constraint equations, and the warnings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from scipy.integrate import trapezoid

from ..solver.analyses import mobility as analysis
from ..solver.model.catalog import BODY_KINDS, DRIVERS, FORCES, JOINTS
from ..solver.numerics import quaternion
from ..solver.numerics.joints import ROW_IS_ANGULAR
from ..solver.results.status import COMPLETED, COMPLETED_WITH_WARNINGS, RunWarning
from ..solver.tolerances import ENERGY_TOL, REPORT_NEAR_SINGULAR, SAMPLED_RANK_TOL, VIOLATION_ANGLE_TOL, VIOLATION_TOL
from .data import ReportData, ReportError

if TYPE_CHECKING:
    from ..solver.model import Model

UserPoint = tuple[str, Sequence[float]]  # (body name, point [m] in the body's own frame about its CoG)
CheckedPoint = tuple[str, str, np.ndarray]  # (label 'P1'.., body name, point (3,) [m])


# ----------------------------------------------------------------------------- peaks
def peak_loads(data: ReportData) -> list[dict]:
    """Per joint: max |F| [N] and max |T| [N m], their times [s] and the joint-frame
    components at those times. List of dicts (keys joint, type, F_max, t_F, F, T_max,
    t_T, T)."""
    out = []
    for j in data.model.joints:
        F, T = data.reaction(j.name)
        nF, nT = np.linalg.norm(F, axis=1), np.linalg.norm(T, axis=1)
        kF, kT = int(np.argmax(nF)), int(np.argmax(nT))
        out.append(
            dict(
                joint=j.name,
                type=j.type,
                F_max=float(nF[kF]),
                t_F=float(data.t[kF]),
                F=F[kF].copy(),
                T_max=float(nT[kT]),
                t_T=float(data.t[kT]),
                T=T[kT].copy(),
            )
        )
    return out


def coupling_peaks(data: ReportData) -> list[dict]:
    """Per coupler joint (gear, belt, rack_pinion, screw): the coupling force [N] (tooth or belt
    force, rack force, screw thrust) of largest magnitude, signed, and its time [s]. List of
    dicts (keys joint, type, force, t)."""
    out = []
    for j in data.model.joints:
        if data.is_coupler(j.name):
            f = data.coupling_force(j.name)
            k = int(np.argmax(np.abs(f)))
            out.append(dict(joint=j.name, type=j.type, force=float(f[k]), t=float(data.t[k])))
    return out


def driver_peaks(data: ReportData) -> list[dict]:
    """Per driver: max |effort| and max |power| with their times."""
    out = []
    for d in data.driver_names:
        e, p = data.driver_effort(d), data.driver_power(d)
        ke, kp = int(np.argmax(np.abs(e))), int(np.argmax(np.abs(p)))
        out.append(
            dict(
                driver=d,
                unit=data.driver_unit(d),
                effort=float(e[ke]),
                t_effort=float(data.t[ke]),
                power=float(p[kp]),
                t_power=float(data.t[kp]),
                energy=float(trapezoid(p, data.t)),
            )
        )
    return out


# ----------------------------------------------------------------------------- points
def check_points(data: ReportData, points: Sequence[UserPoint] | None) -> list[CheckedPoint]:
    """Validate [(body, local_point), ...]; returns [(label 'P1'.., body, array(3))]."""
    out = []
    fixed = {b.name for b in data.model.bodies if b.grounded} | {"ground"}
    for k, item in enumerate(points or []):
        try:
            body, local = item
        except (TypeError, ValueError):
            raise ReportError(f"points[{k}]", f"expected (body, [x, y, z]), got {item!r}") from None
        if body not in data.body_names and body not in fixed:
            raise ReportError(f"points[{k}]", f"unknown body '{body}' (bodies: {', '.join(data.body_names)})")
        p = np.asarray(local, dtype=float) if _is_vector(local) else None
        if p is None:
            raise ReportError(
                f"points[{k}]", f"local point of body '{body}' must be 3 finite numbers [m], got {local!r}"
            )
        out.append((f"P{k + 1}", body, p))
    return out


def _is_vector(v):
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        return False
    return a.shape == (3,) and bool(np.all(np.isfinite(a)))


def point_kinematics(data: ReportData, body: str, local: np.ndarray) -> dict[str, np.ndarray]:
    """Global position [m], velocity [m/s] and acceleration [m/s^2] (K, 3) of a point
    given in the body's own frame relative to its CoG. The acceleration is the
    second-order finite difference (numpy.gradient) of the velocity."""
    K = len(data)
    if body not in data.body_names:
        pos = np.tile(_fixed_point(data.model, body, local), (K, 1))
        return dict(position=pos, velocity=np.zeros((K, 3)), acceleration=np.zeros((K, 3)))
    rp = data.rotation(body) @ local
    pos = data.position(body) + rp
    vel = data.velocity(body) + np.cross(data.angular_velocity(body), rp)
    acc = np.gradient(vel, data.t, axis=0, edge_order=2) if K >= 3 else np.zeros((K, 3))
    return dict(position=pos, velocity=vel, acceleration=acc)


def _fixed_point(model, body, local):
    if body == "ground":
        return np.asarray(local, float)
    b = model.body(body)
    return np.asarray(b.position, float) + quaternion.matrix(np.asarray(b.orientation, float)) @ local


# ----------------------------------------------------------------------------- geometry
def body_points(data: ReportData) -> tuple[dict, list]:
    """Local attachment points of every moving body (user frame about the CoG, [m]):
    joint origins and spring ends; and the global fixed points (ground side). Returns
    ({body: [(label, local (3,))]}, [(label, global (3,))])."""
    system = data.system
    local = {b: [] for b in data.body_names}
    fixed = []
    for j, f in zip(data.model.joints, system.joint_frames):
        for side, body in (("i", j.body_i), ("j", j.body_j)):
            k = system.body_index(body)
            if k >= 0:
                local[body].append((j.name, system.R_principal[k] @ f["o" + side]))
            else:
                fixed.append((j.name, np.asarray(f["o" + side], float)))
    for frc in data.model.forces:
        for body, p in _linking_anchors(frc):
            k = system.body_index(body)
            if k >= 0:
                local[body].append((frc.name, system.R_principal[k] @ system.to_local_point(body, p)))
            else:
                fixed.append((frc.name, system.to_local_point(body, p)))
    return local, fixed


def _linking_anchors(frc) -> list[tuple[str, list]]:
    """(body, global point [m]) of a force element linking two or more bodies at points (its
    record's body fields, each followed by its point field); [] for other elements."""
    pairs, body = [], None
    for spec in FORCES[frc.type].fields:
        if spec.kind in BODY_KINDS:
            body = getattr(frc, spec.name)
        elif spec.kind == "point" and body is not None and getattr(frc, spec.name) is not None:
            pairs.append((body, getattr(frc, spec.name)))
    return pairs if len(pairs) > 1 else []


# ----------------------------------------------------------------------------- mobility
def row_kinds(model: Model, name: str) -> set[bool]:
    """Set of booleans 'is angular' of the equations of joint or driver ``name``."""
    for j in model.joints:
        if j.name == name:
            return {ROW_IS_ANGULAR[spec[0]] for spec in JOINTS[j.type].rows}
    return {ROW_IS_ANGULAR[DRIVERS[d.type].row[0]] for d in model.drivers if d.name == name}


def mobility(data: ReportData) -> dict:
    """Mobility and redundancy at the first sample and the singular-configuration scan of
    the solver's mobility analysis (tolerance SAMPLED_RANK_TOL: the sampled states carry the run's
    constraint drift). Returns dict(report (MobilityReport, with the Grubler count),
    scan (SingularityScan), involved {redundant row: sorted joint/driver names sharing its load},
    dropped (summary.json's 'dropped_equations': the equations a tolerant start left out))."""
    system, Y, t0 = data.system, data.Y, float(data.t[0])
    rep = analysis.mobility(system, Y=Y[0], t=t0, tol=SAMPLED_RANK_TOL)
    scan = analysis.singular_configurations(data, tol=SAMPLED_RANK_TOL)
    J, kept = analysis.rank_structure(system, Y[0], t0, SAMPLED_RANK_TOL)[:2]
    involved = {
        r: sorted(
            {system.owner_name(int(system.row_owner[i])) for i in _involved(J, kept, r)}
            | {system.owner_name(int(system.row_owner[r]))}
        )
        for r in rep.redundant_rows
    }
    dropped = data.summary.get("dropped_equations") or []
    return dict(report=rep, scan=scan, involved=involved, dropped=dropped)


def _involved(J, kept, r, tol=1e-6):
    """Kept rows that row r is a combination of (least-squares coefficients)."""
    if not kept:
        return []
    c = np.linalg.lstsq(J[kept].T, J[r], rcond=None)[0]
    big = np.abs(c) > tol * max(np.abs(c).max(), 1e-300)
    return [kept[k] for k in np.nonzero(big)[0]]


# ----------------------------------------------------------------------------- warnings
def run_warnings(data: ReportData) -> list[RunWarning]:
    """The warnings the solver's quality gate recorded in summary.json (none for older results)."""
    return [RunWarning.from_dict(w) for w in data.summary.get("warnings", []) or []]


def status_text(summary: dict) -> str:
    """The run status with its warning count and, for a stopped run, the message."""
    status = summary.get("status", "?")
    n = len(summary.get("warnings", []) or [])
    text = status + (f" ({n} warning{'s' if n != 1 else ''})" if n else "")
    return text + (f": {summary['message']}" if summary.get("message") else "")


def warnings(data: ReportData, mob: dict) -> list[tuple[str, str]]:
    """List of (title, text) warnings: run status, every warning of the run (kind, time,
    elements), redundant constraints and how their reactions were distributed, over-driving,
    singular configurations, drift (the report's own checks, for results without a quality
    gate, are not repeated when the run reports the same kind)."""
    out = []
    s = data.summary
    status = s.get("status", COMPLETED)
    run = run_warnings(data)
    if status == COMPLETED_WITH_WARNINGS:
        out.append(("Run status", f"'{status}': the run reached its end with {len(run)} warning(s), listed below"))
    elif status != COMPLETED:
        out.append(("Run did not complete", f"status '{status}': {s.get('message', '')}"))
    out += [(_run_warning_title(w), w.message) for w in run]
    kinds = {w.kind for w in run}
    rep, scan = mob["report"], mob["scan"]
    if rep.redundant:
        out.append(("Redundant constraints", _redundancy_text(data, mob)))
    if rep.over_driving and "overdriven" not in kinds:
        out.append(
            (
                "Over-driven",
                "these drivers conflict with the joints and the other drivers: "
                + "; ".join(e["label"] for e in rep.over_driving),
            )
        )
    if scan.times:
        out.append(
            (
                "Singular configurations",
                f"the constraint Jacobian loses rank at t = {_times(scan.times)} s: "
                "the mechanism passes a singular (dead-centre / locked) position; reactions and efforts near "
                "these instants are unreliable.",
            )
        )
    elif len(scan.ratio) and float(np.min(scan.ratio)) < REPORT_NEAR_SINGULAR and "near_singular" not in kinds:
        k = int(np.argmin(scan.ratio))
        out.append(
            (
                "Near-singular configuration",
                f"the constraint Jacobian is nearly rank deficient at "
                f"t = {data.t[k]:.4g} s (smallest / largest singular value {scan.ratio[k]:.2e}): "
                "reactions there are sensitive to small errors.",
            )
        )
    return out + _drift_warnings(data, rep.length_scale, kinds)


def _run_warning_title(w: RunWarning) -> str:
    when = f"t = {w.time:.6g} s" if w.time is not None else "whole run"
    elements = f"; {', '.join(repr(e) for e in w.elements)}" if w.elements else ""
    return f"Run warning [{w.kind}] ({when}{elements})"


def _times(ts, n=6):
    shown = ", ".join(f"{t:.4g}" for t in ts[:n])
    return shown + (", ..." if len(ts) > n else "")


def redundant_joints(mob: dict) -> list[str]:
    """Names of the joints/drivers whose reactions share a redundant load."""
    return sorted({n for names in mob["involved"].values() for n in names})


def _redundancy_text(data, mob):
    rows = "; ".join(e["label"] for e in mob["report"].redundant)
    return (
        f"{len(mob['report'].redundant)} constraint equation(s) repeat others ({rows}). The reactions along "
        f"these directions are statically indeterminate: the multipliers of the redundant set are not unique "
        f"(any split of the load among the joints involved satisfies the equations of motion), and the results "
        f"report the minimum-norm distribution of the load among the joints involved "
        f"({', '.join(redundant_joints(mob))}). The total is right; the split between these "
        f"joints depends on part compliance and clearances and is not a prediction. Reactions marked * in the "
        f"peak-load table are affected."
    )


def gate_tolerances(summary: dict) -> tuple[float, float, float]:
    """(violation_tol, violation_angle_tol [rad], energy_tol) of the run's settings, or the defaults."""
    st = summary.get("settings", {}) or {}
    return (
        float(st.get("violation_tol", VIOLATION_TOL)),
        float(st.get("violation_angle_tol", VIOLATION_ANGLE_TOL)),
        float(st.get("energy_tol", ENERGY_TOL)),
    )


def _drift_warnings(data, L, kinds=frozenset()):
    """Drift warnings from the summary figures (results written before the quality gate; skipped
    for a kind the run reported itself). Tolerances: the run's settings."""
    out = []
    s = data.summary
    rel_tol, angle_tol, energy_tol = gate_tolerances(s)
    vpos = s.get("max_position_violation_m", 0.0) or 0.0
    vang = s.get("max_angle_violation_rad", 0.0) or 0.0
    if (vpos > rel_tol * L or vang > angle_tol) and "violation" not in kinds:
        worst = _worst_violation(data)
        out.append(
            (
                "Large constraint drift",
                f"max violation {vpos:.3e} m ({vpos / L:.1e} of the mechanism size "
                f"{L:.3g} m) and {vang:.3e} rad, worst in {worst}; reduce the step or raise the Baumgarte "
                "gains / enable projection.",
            )
        )
    drift = s.get("energy_drift", 0.0) or 0.0
    if drift > energy_tol and "energy_drift" not in kinds:
        out.append(
            (
                "Energy balance drift",
                f"relative energy-balance error {drift:.2e} (> {energy_tol:g}): the "
                "integration error is visible in the loads; reduce the step or use a tighter tolerance.",
            )
        )
    return out


def _worst_violation(data):
    names = data.joint_names + data.driver_names
    worst = max(names, key=lambda n: float(np.max(data.violation(n)["position"])), default=None)
    return f"'{worst}'" if worst else "no joint"
