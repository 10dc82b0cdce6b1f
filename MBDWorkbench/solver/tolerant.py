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

from .errors import AssemblyError
from .model.catalog import JOINTS
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
    """(joint index, catalogue equation index) of the joint equations within ``tol`` (sine) of the
    span of the equations before them at the pose Y, time t [s], in row order; [] when only driver
    equations depend (an over-driven model is no matter of CAD tolerance)."""
    if system.m == 0:
        return []
    dropped = independent_rows(scaled_constraint_jacobian(system, t, Y), tol)[1]
    n_joints = len(system.model.joints)
    return [(int(system.row_owner[r]), int(system.rows[r]["index"])) for r in dropped if system.row_owner[r] < n_joints]


def misalignments(system: System, reduced: System, Y: np.ndarray, t: float) -> dict:
    """{(joint index, equation index): angle [rad]} of each dropped equation: the largest sine,
    over the motions the kept joint equations allow, of the dropped equation's rate relative to
    the speed of the bodies it binds (their 6 velocity columns each, dimensionless). A slider rail
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
            sine = math.sqrt(max(0.0, float(a @ c))) / max(float(np.linalg.norm(J[r])), 1e-300)
        out[key] = math.asin(min(1.0, sine))
    return (out if moving else None), N


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
    return reduced, Y1, moves, open_warning(system, misalignments(system, reduced, Y1, t), Y1, t)


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
