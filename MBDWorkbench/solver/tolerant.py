"""Tolerant assembly: CAD geometry that leaves redundant joint equations slightly open.

A planar mechanism built from spatial joints carries redundant equations, and drawn geometry
rarely closes them exactly (a slider rail 1 deg off square to the crank axis): then no pose
satisfies every equation and the strict assembly fails. As mature multibody codes do, the
redundant equations are decided at the nominal (CAD) pose, by the in-order rank-revealing
selection of :func:`.system.scaled_rank.independent_rows` on the dimensionless Jacobian with
the loose ``CAD_REDUNDANCY_TOL``; the run then assembles and integrates the independent set only
(``System(model, dropped=...)``: every integrator solves the reduced set) and a
``cad_tolerance`` warning says how far the CAD leaves each dropped equation open. The dropped
equations carry no load: their joints' reactions are those of the equations kept.
A model whose independent equations do not close still fails, naming the joint.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import scipy.linalg

from .analyses.mobility import row_label
from .errors import AssemblyError
from .model.catalog import JOINTS
from .numerics import quaternion
from .quality import constraint_rank
from .results.status import RunWarning
from .system.assembly import BodyMove, apply_increment, assemble, assemble_initial_state, length_scale, scaling
from .system.scaled_rank import independent_rows, scaled_constraint_jacobian
from .system.system import System
from .tolerances import CAD_REDUNDANCY_TOL

MISALIGNMENT_MOVES = (
    4  # moves along the free motion at most, to leave a dead centre where the rail's bodies stand still
)
MOVE = 0.05  # size of one move (the largest dimensionless coordinate: about 3 deg)
STILL = 1e-6  # bodies whose share of the free motion is below this stand still
HINT = "relax it with --relax / 'Make statically determinate', or fix the CAD"


def cad_redundant_equations(system: System, Y: np.ndarray, t: float, tol: float = CAD_REDUNDANCY_TOL) -> list:
    """(joint index, catalogue equation index) of the joint equations redundant within ``tol``
    (sine) at the pose Y, time t [s]; [] when only driver equations depend (an over-driven model is
    no matter of CAD tolerance). Which joint's equations go does not depend on the joints' order:
    :func:`blamed_joint` picks the odd one out when one joint can carry them all, else the
    in-order selection of :func:`.system.scaled_rank.independent_rows` decides."""
    if system.m == 0:
        return []
    J = scaled_constraint_jacobian(system, t, Y)
    dropped = _joint_equations(system, independent_rows(J, tol)[1])
    carriers = _carriers(system, J, tol, len(dropped)) if dropped else {}
    return carriers[blamed_joint(system, Y, carriers)] if carriers else dropped


def _joint_equations(system: System, rows) -> list:
    """(joint index, equation index) of the joint rows among ``rows`` (driver rows left out)."""
    n_joints = len(system.model.joints)
    return [(int(system.row_owner[r]), int(system.rows[r]["index"])) for r in rows if system.row_owner[r] < n_joints]


def _carriers(system: System, J: np.ndarray, tol: float, count: int) -> dict:
    """{joint index: its equations to drop} of each joint of the dependent set whose own equations
    can carry all ``count`` redundant ones: with its rows last, the in-order selection drops
    ``count`` rows, all of that joint."""
    out = {}
    for k in _dependent_joints(system, J, tol):
        mine = system.row_owner == k
        order = np.r_[np.nonzero(~mine)[0], np.nonzero(mine)[0]]
        rows = [int(order[i]) for i in independent_rows(J[order], tol)[1]]
        if len(rows) == count and all(system.row_owner[r] == k for r in rows):
            out[k] = sorted(_joint_equations(system, rows))
    return out


def _dependent_joints(system: System, J: np.ndarray, tol: float) -> list:
    """Indices of the joints whose rows take part in the near-dependencies of J (the left singular
    vectors of singular values below ``tol``, relative to the largest)."""
    U, sv = scipy.linalg.svd(J, full_matrices=True)[:2]
    s = np.zeros(J.shape[0])
    s[: len(sv)] = sv
    weak = U[:, s <= tol * max(float(s[0]), 1e-300)]
    rows = np.nonzero(np.linalg.norm(weak, axis=1) > STILL)[0]
    n_joints = len(system.model.joints)
    return sorted({int(system.row_owner[r]) for r in rows if system.row_owner[r] < n_joints})


def blamed_joint(system: System, Y: np.ndarray, carriers: dict) -> int:
    """The joint among ``carriers`` whose axis is the odd one out: without it, the axes of the
    others agree best on one plane of motion (revolute-like axes along its normal, slide directions
    in it; the least eigenvalue of their misfit). Ties go to the first name in alphabetical order."""
    axes = {k: a for k in carriers if (a := _planar_axis(system, k, Y)) is not None}
    others = [_misfit([a for j, a in axes.items() if j != k]) for k in carriers]
    best = min(others)
    tied = [k for k, m in zip(carriers, others) if m <= best + 1e-12]
    return min(tied, key=lambda k: system.model.joints[k].name)


def _planar_axis(system: System, k: int, Y: np.ndarray):
    """('normal' or 'in_plane', the world z axis of joint k's frame on body_i at Y) for a joint
    turning about its z axis (normal to a planar motion) or sliding along it (in that plane);
    None for other joints."""
    j = system.model.joints[k]
    coordinates = JOINTS[j.type].coordinates
    kind = "normal" if "angle" in coordinates else "in_plane" if coordinates == ("displacement",) else None
    if kind is None:
        return None
    z = system.joint_local_frames(j, f"joints[{k}]")["zi"]
    b = system.body_index(j.body_i)
    if b >= 0:
        z = quaternion.matrix(Y[7 * b + 3 : 7 * b + 7]) @ z
    return kind, z / np.linalg.norm(z)


def _misfit(axes: list) -> float:
    """How far the axes miss one common plane: the least eigenvalue of sum (I - a a^T) over the
    normal axes plus sum d d^T over the in-plane ones (0 when they all fit; sin^2 of a tilt)."""
    M = np.zeros((3, 3))
    for kind, a in axes:
        M += np.eye(3) - np.outer(a, a) if kind == "normal" else np.outer(a, a)
    return float(np.linalg.eigvalsh(M)[0])


def misalignments(system: System, reduced: System, Y: np.ndarray, t: float) -> dict:
    """{(joint index, equation index): angle [rad]} of each dropped equation: the largest sine,
    over the motions the kept joint equations allow, of the dropped equation's rate relative to
    the speed of the bodies it binds (their 6 velocity columns each, dimensionless) and to its
    own gradient (its linear columns for a length equation, angular ones for an angle equation). A slider rail
    1 deg off the plane of a planar mechanism gives 1 deg. Measured at the assembled state Y, or,
    where those bodies do not move there (a dead centre), a few small moves along the free motion
    further (drivers released)."""
    free = System(dataclasses.replace(system.model, drivers=[]), dropped=reduced.dropped)
    for _ in range(MISALIGNMENT_MOVES):
        out, N = _misalignments_at(system, free, Y, t)
        if out is not None or N.shape[1] == 0:
            break
        try:
            Y = assemble(
                free, apply_increment(free, Y, MOVE * N[:, 0] / np.max(np.abs(N[:, 0])) * _columns(free, Y)), t
            )
        except AssemblyError:
            break
    return out if out is not None else {key: 0.0 for key in reduced.dropped}


def _columns(system: System, Y: np.ndarray) -> np.ndarray:
    """Column scale of the dimensionless coordinates (L for linear, 1 for angular)."""
    return scaling(system, length_scale(system, Y))[1]


def _misalignments_at(system: System, free: System, Y: np.ndarray, t: float) -> tuple:
    """(misalignments at Y, or None where no dropped equation's bodies move; the free motions N)."""
    N = scipy.linalg.null_space(scaled_constraint_jacobian(free, t, Y))
    J = scaled_constraint_jacobian(system, t, Y)
    out, moving = {}, False
    for r, row in enumerate(system.rows):
        key = (int(row["owner"]), row.get("index"))
        if key not in free.dropped:
            continue
        cols = [6 * b + c for b in (row["bi"], row["bj"]) if b >= 0 for c in range(6)]
        a, B = N.T @ J[r], N[cols]
        sine = 0.0
        if N.shape[1] and np.linalg.norm(B) > STILL * np.linalg.norm(N):
            moving = True
            c = np.linalg.lstsq(B.T @ B, a, rcond=1e-12)[0]
            sine = math.sqrt(max(0.0, float(a @ c))) / max(_own_norm(J[r], cols, system.row_angular[r]), 1e-300)
        out[key] = math.asin(min(1.0, sine))
    return (out if moving else None), N


def _own_norm(row: np.ndarray, cols: list, angular: bool) -> float:
    """Norm of a dimensionless Jacobian row over its own kind of columns: angular velocity for an
    angle row, linear velocity for a length row (whose lever-arm terms would understate the sine)."""
    own = [c for c in cols if (c % 6 >= 3) == bool(angular)]
    return float(np.linalg.norm(row[own]))


def locked_by_tolerance(system: System, Y_nominal: np.ndarray, Y: np.ndarray, t: float) -> bool:
    """Whether the assembled state Y at t [s] only holds because of CAD imprecision: more joint
    equations are redundant at the CAD tolerance (at the nominal pose) than exactly, and the strict
    equations lock the joints (no degree of freedom left) or over-drive the model."""
    rank = constraint_rank(system, Y, t)
    n_joint_rows = int(np.sum(system.row_owner < len(system.model.joints)))
    joint_rank = sum(1 for r in rank.independent if r < n_joint_rows)
    if not (rank.over_driving or (system.dofs > 0 and joint_rank == system.dofs)):
        return False
    return len(cad_redundant_equations(system, Y_nominal, t)) > len(rank.redundant)


def tolerant_start(system: System, Y: np.ndarray, t: float) -> tuple[System, np.ndarray, list[BodyMove], RunWarning]:
    """(the System without the CAD-redundant equations, its assembled initial state at t [s], how
    far assembly moved the bodies, the 'cad_tolerance' warning) for a model whose strict assembly
    failed. Raises AssemblyError when no equation is redundant at the CAD tolerance or the
    independent ones do not close (naming the joints)."""
    dropped = cad_redundant_equations(system, Y, t)
    if not dropped:
        raise AssemblyError("no redundant joint equation to leave out", [])
    reduced = System(system.model, dropped=tuple(dropped))
    try:
        Y1, moves = assemble_initial_state(reduced, Y, t)
    except AssemblyError as e:
        raise AssemblyError(
            f"{e} (with the {len(dropped)} redundant equation{'s' if len(dropped) > 1 else ''} of "
            f"{_joint_list(system, dropped)} left out: the independent equations do not close)",
            e.worst,
        ) from None
    too_open = _beyond_tolerance(system, dropped, Y1, t)
    if too_open:
        raise AssemblyError(
            f"the mechanism does not assemble at t = {t:g} s: {too_open} is left open by more than the CAD "
            f"tolerance (sine {CAD_REDUNDANCY_TOL:g}) with its redundant equations left out; check its geometry",
            [(too_open, 0.0)],
        )
    skew = misalignments(system, reduced, Y1, t)
    reduced.cad_open = left_open(system, skew, Y1, t)
    return reduced, Y1, moves, open_warning(system, skew, Y1, t)


def left_open(system: System, skew: dict, Y: np.ndarray, t: float) -> list[dict]:
    """One record per dropped equation (summary.json 'dropped_equations', the report's mobility
    section): joint, equation (its description), misalignment [deg] and how far the CAD leaves it
    open at the assembled start (t [s], Y): 'open' in 'unit' (m or rad)."""
    phi = system.constraint_residual(t, Y)
    out = []
    for r, row in enumerate(system.rows):
        key = (int(row["owner"]), row.get("index"))
        if key in skew:
            out.append(
                dict(
                    joint=system.model.joints[key[0]].name,
                    equation=row_label(system, r),
                    misalignment_deg=_small(math.degrees(skew[key])),
                    open=abs(float(phi[r])),
                    unit="rad" if system.row_angular[r] else "m",
                )
            )
    return out


def _beyond_tolerance(system: System, dropped, Y: np.ndarray, t: float) -> str:
    """The first joint (quoted) whose dropped equations are open by more than CAD_REDUNDANCY_TOL
    (length rows divided by the model's length scale), or ''."""
    L = length_scale(system, Y)
    for name, (lin, ang) in equation_openings(system, set(dropped), Y, t).items():
        if max(lin / L, ang) > CAD_REDUNDANCY_TOL:
            return f"'{name}'"
    return ""


def _joint_list(system: System, dropped) -> str:
    names = dict.fromkeys(system.model.joints[k].name for k, _ in dropped)
    return ", ".join(f"'{n}'" for n in names)


def equation_openings(system: System, dropped, Y: np.ndarray, t: float) -> dict:
    """{joint name: (largest opening of its dropped length equations [m], of its angle ones [rad])}
    at (t [s], Y), measured by the full ``system``."""
    phi = system.constraint_residual(t, Y)
    out = {}
    for r, row in enumerate(system.rows):
        key = (int(row["owner"]), row.get("index"))
        if key not in dropped:
            continue
        name = system.model.joints[key[0]].name
        lin, ang = out.get(name, (0.0, 0.0))
        if system.row_angular[r]:
            ang = max(ang, abs(float(phi[r])))
        else:
            lin = max(lin, abs(float(phi[r])))
        out[name] = (lin, ang)
    return out


def open_warning(system: System, dropped: dict, Y: np.ndarray, t: float) -> RunWarning:
    """The 'cad_tolerance' warning: each joint whose equations were left out, the geometry it was
    made from, its misalignment (deg), how far the CAD leaves them open (mm, deg) at the assembled
    state Y, and the hint."""
    parts = []
    for name, (lin, ang) in equation_openings(system, set(dropped), Y, t).items():
        skew = max(a for (k, _), a in dropped.items() if system.model.joints[k].name == name)
        joint = system.model.joint(name)
        source = system.model.sources.get(name)
        made = f", made from {source}" if source else ""
        count = sum(1 for k, _ in dropped if system.model.joints[k].name == name)
        parts.append(
            f"'{name}' ({JOINTS[joint.type].label.lower()}{made}): {count} redundant equation"
            f"{'s' if count > 1 else ''}, misaligned by {_small(math.degrees(skew)):.3g} deg, "
            f"open by {_small(lin * 1e3):.3g} mm and {_small(math.degrees(ang)):.3g} deg at the start"
        )
    names = tuple(dict.fromkeys(system.model.joints[k].name for k, _ in dropped))
    return RunWarning(
        "cad_tolerance",
        "the CAD geometry does not close the redundant joint equations, so the run solves the independent "
        f"ones only: {'; '.join(parts)}. Those equations carry no load (the reactions are split as the kept "
        f"equations take them); {HINT}",
        t,
        names,
    )


def _small(value: float) -> float:
    """``value`` [mm or deg] with rounding noise (below 1e-6) shown as 0."""
    return value if abs(value) > 1e-6 else 0.0
