"""Mechanism analyses on the constraint Jacobian: mobility, redundancy, relaxations,
singular configurations (assembly itself: ``solver.system.assembly.assemble``).

Jacobian columns are 6 per moving body (global linear velocity, body-frame angular
velocity), rows are the primitive joint equations in joint order, then one row per
driver (see joints.py). A point mass has 3 degrees of freedom: no equation involves its
rotation, whose 3 columns are zero (model.geometry.joint_rows). Rank decisions use the *dimensionless* Jacobian of
``solver.system.assembly.scaling`` (length rows divided by the model's length scale ``L``, linear
columns multiplied by ``L``), so metres and radians weigh alike. A singular value counts
when it exceeds ``tol * sigma_max`` (``tolerances.RANK_TOL`` by default); an equation is
redundant when its scaled row lies within ``tol`` (relative) of the span of the
equations before it.

Kinematic analysis, inverse dynamics and statics live in :mod:`.kinematics`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.linalg

from ..errors import AssemblyError, ModelError
from ..model.catalog import COORDINATES, JOINTS
from ..model.geometry import body_dofs, frame_axes, joint_rows
from ..model.schema import Driver, Frame, Model
from ..model.validate import validate
from ..numerics.joints import DISTANCE, DISTXY, DP1, DP2, GEAR, LEAD, POINT
from ..system.assembly import assemble, length_scale, scaling
from ..system.scaled_rank import independent_rows
from ..system.system import System
from ..tolerances import CAD_REDUNDANCY_TOL, RANK_TOL, SAMPLED_RANK_TOL

if TYPE_CHECKING:
    from ..results.results import Results


def singular_values(A: np.ndarray) -> np.ndarray:
    """Singular values of a (possibly empty) matrix, descending."""
    if A.size == 0:
        return np.zeros(0)
    return scipy.linalg.svdvals(A)


def numerical_rank(A: np.ndarray, tol: float = RANK_TOL) -> int:
    """Number of singular values above ``tol * sigma_max``."""
    s = singular_values(A)
    return int(np.sum(s > tol * s[0])) if len(s) and s[0] > 0 else 0


def _pivoted_rows(A, rank):
    """Independent rows by QR with column pivoting on A^T (fallback selection)."""
    if rank == 0:
        return [], list(range(A.shape[0]))
    piv = scipy.linalg.qr(A.T, pivoting=True, mode="r")[1]
    return sorted(piv[:rank].tolist()), sorted(piv[rank:].tolist())


# ----------------------------------------------------------------------------- row labels
_AXIS = "xyz"


def _vector_name(v):
    return f"{v[0]}_{v[1]}"


def row_label(system: System, r: int) -> str:
    """Human-readable description of constraint row r (joint/driver, type, equation)."""
    owner = int(system.row_owner[r])
    nj = len(system.model.joints)
    if owner >= nj:
        d = system.model.drivers[owner - nj]
        what = next(c.name for c in COORDINATES.values() if c.driver == d.type)  # angle, displacement
        return f"driver '{d.name}' ({d.type} on joint '{d.joint}'): prescribed {what}"
    j = system.model.joints[owner]
    k = system.rows[r]["index"]
    spec = JOINTS[j.type].rows[k]
    if spec[0] == DISTANCE:
        desc = "the two points stay at the joint's length"
    elif spec[0] == DISTXY:
        desc = f"origin_j stays at the joint's length from the axis along {_vector_name(spec[1])}"
    elif spec[0] == POINT:
        desc = f"origins coincide along global {_AXIS[spec[1]]}"
    elif spec[0] == DP1:
        desc = f"{_vector_name(spec[1])} perpendicular to {_vector_name(spec[2])}"
    elif spec[0] == DP2:
        desc = f"origin_j stays in the plane normal to {_vector_name(spec[1])}"
    elif spec[0] == GEAR:
        desc = "the pitch circles roll on each other (angles of the line of centres)"
    elif spec[0] == LEAD:
        desc = f"translation along {_vector_name(spec[1])} follows the rotation about z_i"
    else:
        desc = "angle"
    return f"joint '{j.name}' ({j.type}) equation {k + 1}: {desc}"


def owner_kind(system: System, r: int) -> tuple[str, str]:
    """('joint' | 'driver', name) owning row r."""
    owner = int(system.row_owner[r])
    nj = len(system.model.joints)
    return (
        ("driver", system.model.drivers[owner - nj].name) if owner >= nj else ("joint", system.model.joints[owner].name)
    )


# ----------------------------------------------------------------------------- mobility
@dataclass
class Relaxation:
    """Replace joint ``joint`` of type ``old`` by ``new``: removes ``removes`` equations."""

    joint: str
    old: str
    new: str
    removes: int


@dataclass
class MobilityReport:
    """Mobility and redundancy of a mechanism at one configuration (see module doc)."""

    model: str
    n_moving: int
    n_point_masses: int
    n_joint_equations: int
    n_driver_equations: int
    grubler: int
    grubler_driven: int
    rank_joints: int
    rank: int
    mobility: int
    mobility_driven: int
    redundant: list
    over_driving: list
    independent: list
    relaxations: list = field(default_factory=list)
    relaxed_redundancy: int = 0
    singular_values: np.ndarray | None = None
    tol: float = RANK_TOL
    length_scale: float = 1.0
    t: float = 0.0
    relaxed_model: Model | None = field(default=None, repr=False)  # the model with ``relaxations`` applied

    @property
    def redundant_rows(self) -> list[int]:
        """Row indices of the redundant joint equations."""
        return [e["row"] for e in self.redundant]

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        d = {
            k: getattr(self, k)
            for k in (
                "model",
                "n_moving",
                "n_point_masses",
                "n_joint_equations",
                "n_driver_equations",
                "grubler",
                "grubler_driven",
                "rank_joints",
                "rank",
                "mobility",
                "mobility_driven",
                "redundant",
                "over_driving",
                "tol",
                "length_scale",
                "t",
                "relaxed_redundancy",
            )
        }
        d["relaxations"] = [vars(r) for r in self.relaxations]
        d["singular_values"] = [] if self.singular_values is None else self.singular_values.tolist()
        return d

    def text(self) -> str:
        """Readable multi-line report."""
        nb, npm = self.n_moving, self.n_point_masses
        dofs = dof_terms(nb, npm)
        lines = [
            f"Mechanism '{self.model}' at t = {self.t:g} s: {nb} moving bodies"
            + (f" ({npm} point masses)" if npm else "")
            + f", {self.n_joint_equations} joint equations, {self.n_driver_equations} driver equations",
            f"Grubler-Kutzbach count: {dofs} - {self.n_joint_equations} = {self.grubler}"
            + (f" ({self.grubler_driven} with drivers)" if self.n_driver_equations else ""),
            f"Jacobian rank (relative tol {self.tol:g}, length scale {self.length_scale:.4g} m): "
            f"{self.rank_joints} of {self.n_joint_equations} joint equations independent",
            f"Mobility (degrees of freedom): {self.mobility}"
            + (f"; {self.mobility_driven} left free by the drivers" if self.n_driver_equations else ""),
        ]
        if self.redundant:
            lines.append(
                f"Redundant joint equations ({len(self.redundant)}): the mechanism is "
                "over-constrained, some reactions are statically indeterminate"
            )
            lines += [f"  - {e['label']}" for e in self.redundant]
        else:
            lines.append("No redundant joint equations.")
        if self.relaxations:
            lines.append(
                "To remove the redundancy without changing the mobility, relax: "
                + "; ".join(f"'{r.joint}' {r.old} -> {r.new} (-{r.removes})" for r in self.relaxations)
                + (
                    ""
                    if self.relaxed_redundancy == 0
                    else f" ({self.relaxed_redundancy} redundant equations would remain)"
                )
            )
        if self.over_driving:
            lines.append("Over-driven: these drivers conflict with the joints and the other drivers:")
            lines += [f"  - {e['label']}" for e in self.over_driving]
        return "\n".join(lines)


def _row_entries(system, rows):
    return [
        dict(row=int(r), kind=owner_kind(system, r)[0], name=owner_kind(system, r)[1], label=row_label(system, r))
        for r in rows
    ]


def rank_structure(
    system: System, Y: np.ndarray, t: float = 0.0, tol: float = RANK_TOL
) -> tuple[np.ndarray, list[int], list[int], np.ndarray, int, float]:
    """(scaled Jacobian, kept rows, dropped rows, singular values, rank, length scale [m])
    at the state Y and time t [s]."""
    L = length_scale(system, Y)
    rs, cs = scaling(system, L)
    J = system.constraint_jacobian(t, Y)[1] * rs[:, None] * cs[None, :]
    s = singular_values(J)
    rank = int(np.sum(s > tol * s[0])) if len(s) and s[0] > 0 else 0
    kept, dropped = independent_rows(J, tol)
    if len(kept) != rank:
        kept, dropped = _pivoted_rows(J, rank)
    return J, kept, dropped, s, rank, L


def dof_terms(n_moving: int, n_point_masses: int = 0) -> str:
    """The degrees of freedom of the free bodies as the Grubler count writes them:
    '6 x 4', or '6 x 3 + 3 x 2' with point masses (3 each)."""
    rigid = n_moving - n_point_masses
    if not n_point_masses:
        return f"6 x {rigid}"
    return (f"6 x {rigid} + " if rigid else "") + f"3 x {n_point_masses}"


def point_mass_count(model: Model) -> int:
    """Moving bodies of ``model`` that are point masses."""
    return sum(1 for b in model.bodies if not b.grounded and b.point_mass)


def grubler_count(model: Model) -> tuple[int, int, int, int]:
    """Grubler-Kutzbach count of a Model without any numerics: (moving bodies, joint
    equations, driver equations, 6 per moving body (3 per point mass) - joint equations =
    degrees of freedom without the drivers)."""
    moving = [b for b in model.bodies if not b.grounded]
    equations = sum(len(joint_rows(model, j)) for j in model.joints)
    return len(moving), equations, len(model.drivers), sum(body_dofs(b) for b in moving) - equations


def mobility(
    model: Model | System,
    Y: np.ndarray | None = None,
    t: float = 0.0,
    tol: float = RANK_TOL,
    assemble_first: bool = True,
    relax: bool = True,
) -> MobilityReport:
    """Mobility report of a Model (or System) at the configuration Y (default: the
    initial placements, assembled at time t [s] with the drivers at their t values)."""
    system = model if isinstance(model, System) else System(model)
    if Y is None:
        Y = system.Y0.copy()
        if assemble_first:
            Y = assemble(system, Y, t)
    Js, kept, dropped, s, rank, L = rank_structure(system, Y, t, tol)
    nj_rows = int(np.sum(system.row_owner < len(system.model.joints)))
    rank_j = sum(1 for r in kept if r < nj_rows)
    dofs = system.dofs
    rep = MobilityReport(
        model=system.model.name,
        n_moving=system.nb,
        n_point_masses=int(np.sum(system.point_mass)),
        n_joint_equations=nj_rows,
        n_driver_equations=system.m - nj_rows,
        grubler=dofs - nj_rows,
        grubler_driven=dofs - system.m,
        rank_joints=rank_j,
        rank=rank,
        mobility=dofs - rank_j,
        mobility_driven=dofs - rank,
        redundant=_row_entries(system, [r for r in dropped if r < nj_rows]),
        over_driving=_row_entries(system, [r for r in dropped if r >= nj_rows]),
        independent=list(kept),
        singular_values=s,
        tol=tol,
        length_scale=L,
        t=t,
    )
    if relax and rep.redundant:
        rep.relaxations, rep.relaxed_redundancy, rep.relaxed_model = suggest_relaxations(system, Y, t, rep, tol)
    return rep


# ----------------------------------------------------------------------------- relaxations
def _swapped(fr):
    """Frame with x and z exchanged (a revolute axis becomes a universal's first cross axis)."""
    if fr is None:
        return None
    x, y, z = frame_axes(fr)
    return Frame(origin=list(fr.origin), z_axis=list(x), x_axis=list(z))


_FRAME_TRANSFORMS = {None: None, "swap_xz": _swapped}  # names used by catalog.Relaxation


def _relaxed_model(model, jk, new_type, transform):
    m = copy.deepcopy(model)
    j = m.joints[jk]
    j.type = new_type
    if transform is not None:
        j.frame, j.frame_i, j.frame_j = transform(j.frame), transform(j.frame_i), transform(j.frame_j)
    validate(m)
    return m


def suggest_relaxations(
    system: System, Y: np.ndarray, t: float, report: MobilityReport, tol: float = RANK_TOL
) -> tuple[list[Relaxation], int, Model]:
    """Greedy joint relaxations (e.g. revolute -> cylindrical / universal / spherical)
    that remove redundant equations while keeping the rank (hence the mobility).
    Joints owning redundant rows are tried first. Returns ([Relaxation], remaining, the
    relaxed model)."""
    model = system.model
    owners = [model.joints.index(model.joint(e["name"])) for e in report.redundant]
    order = list(dict.fromkeys(reversed(owners))) + [k for k in reversed(range(len(model.joints))) if k not in owners]
    current, steps, redundancy = model, [], len(report.redundant)
    for jk in order:
        if redundancy == 0:
            break
        for relaxation in JOINTS[current.joints[jk].type].relaxations:
            new_type, tf = relaxation.type, _FRAME_TRANSFORMS[relaxation.frame]
            try:
                cand = _relaxed_model(current, jk, new_type, tf)
                sys2 = System(cand)
            except (ModelError, KeyError, ValueError):
                continue
            _, kept, _, _, rank, _ = rank_structure(sys2, Y, t, tol)
            nj_rows = int(np.sum(sys2.row_owner < len(cand.joints)))
            rank_j = sum(1 for r in kept if r < nj_rows)
            if rank_j == report.rank_joints and rank == report.rank:
                removed = JOINTS[current.joints[jk].type].equations - JOINTS[new_type].equations
                steps.append(Relaxation(cand.joints[jk].name, current.joints[jk].type, new_type, removed))
                current, redundancy = cand, nj_rows - rank_j
                break
    return steps, redundancy, current


def relax(model: Model, t: float = 0.0) -> tuple[Model, list[Relaxation]]:
    """(a copy of ``model`` with the relaxations :func:`mobility` proposes applied, so that its
    reactions are unique; those relaxations). Decided at the assembled initial pose at t [s], or,
    when the CAD geometry does not assemble strictly, at the nominal pose with the CAD tolerance
    of tolerant assembly (``CAD_REDUNDANCY_TOL``). The copy's ``relaxations`` lists them as text
    ("joint 'Slider': prismatic -> cylindrical") for summary.json, the CLI and the report."""
    try:
        rep = mobility(model, t=t)
    except AssemblyError:
        rep = mobility(model, t=t, assemble_first=False, tol=CAD_REDUNDANCY_TOL)
    if rep.relaxed_model is None or not rep.relaxations:
        return model, []
    relaxed = copy.copy(rep.relaxed_model)
    relaxed.relaxations = [relaxation_text(r) for r in rep.relaxations]
    return relaxed, rep.relaxations


def relaxation_text(r: Relaxation) -> str:
    """ "joint 'name': old -> new" of one relaxation."""
    return f"joint '{r.joint}': {r.old} -> {r.new}"


# ----------------------------------------------------------------------------- singularities
@dataclass
class SingularityScan:
    """Rank monitoring along a run. ``ratio[k]`` = sigma_min / sigma_max of the scaled
    Jacobian rows found independent at the highest-rank sample; ``singular`` lists sample times
    where it falls below ``tol``, ``crossings`` times (linear interpolation) where the
    determinant of that square Jacobian changes sign between samples."""

    t: np.ndarray
    ratio: np.ndarray
    singular: list
    crossings: list
    rows: list
    tol: float

    @property
    def times(self) -> list[float]:
        """All detected singular times [s], sorted."""
        return sorted(self.singular + self.crossings)


def _with_inputs(model, inputs):
    """Copy of model whose drivers are replaced by constant drivers on joints ``inputs``."""
    m = copy.deepcopy(model)
    types = {"revolute": "rotational", "prismatic": "linear", "cylindrical": "rotational"}
    m.drivers = []
    for name in inputs:
        try:
            j = m.joint(name)
        except KeyError:
            raise ModelError("inputs", f"unknown joint '{name}'") from None
        if j.type not in types:
            raise ModelError(
                "inputs", f"joint '{name}' is {j.type}: only revolute, prismatic or cylindrical joints can be inputs"
            )
        m.drivers.append(Driver(name=f"input_{name}", type=types[j.type], joint=name, profile=0.0))
    return m


def singular_configurations(
    results: Results, inputs: list[str] | None = None, tol: float = SAMPLED_RANK_TOL
) -> SingularityScan:
    """Scan a Results for configurations where the constraint Jacobian (joints + the
    model's drivers, or + the motions of the joints named in ``inputs`` taken as
    actuated) loses rank. Returns a SingularityScan."""
    model = results.model if inputs is None else _with_inputs(results.model, inputs)
    system = System(model)
    Ys, ts = results.Y, results.t
    if not len(ts):
        return SingularityScan(ts, np.zeros(0), [], [], [], tol)
    ranks = [rank_structure(system, Y, t)[4] for t, Y in zip(ts, Ys)]
    ref = int(np.argmax(ranks))  # a generic (full-rank) sample fixes the kept rows
    _, kept = rank_structure(system, Ys[ref], ts[ref])[:2]
    L = length_scale(system, Ys[ref])
    rs, cs = scaling(system, L)
    ratio, dets = np.zeros(len(ts)), np.zeros(len(ts))
    cols = system.free_columns  # point masses: not their (zero) rotation columns
    square = len(kept) == len(cols)
    for k, (t, Y) in enumerate(zip(ts, Ys)):
        J = (system.constraint_jacobian(t, Y)[1][kept] * rs[kept, None] * cs[None, :])[:, cols]
        s = singular_values(J)
        ratio[k] = s[-1] / s[0] if len(s) and s[0] > 0 else 0.0
        dets[k] = np.linalg.det(J) if square else 0.0
    sing = [float(t) for t, r in zip(ts, ratio) if r < tol]
    cross = []
    for k in range(len(ts) - 1):
        if square and ratio[k] >= tol and ratio[k + 1] >= tol and dets[k] * dets[k + 1] < 0:
            cross.append(float(ts[k] + (ts[k + 1] - ts[k]) * dets[k] / (dets[k] - dets[k + 1])))
    return SingularityScan(ts, ratio, sing, cross, list(kept), tol)


def dependent_equations(system: System, J_scaled: np.ndarray, rows: list[int], count: int = 4) -> list[str]:
    """Names of the joints/drivers whose equations (among ``rows``) form the
    near-dependency of the scaled Jacobian J_scaled[rows] (left singular vector of its
    smallest singular value), largest weight first."""
    U = scipy.linalg.svd(J_scaled[rows], full_matrices=False)[0]
    u = np.abs(U[:, -1])
    weights = {}
    for w, r in zip(u, rows):
        name = system.owner_name(int(system.row_owner[r]))
        weights[name] = max(weights.get(name, 0.0), float(w))
    top = sorted(weights.items(), key=lambda x: -x[1])
    return [n for n, w in top if w > 0.05 * top[0][1]][:count]
