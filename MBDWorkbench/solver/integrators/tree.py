"""rk4_tree: RK4 in joint coordinates for open trees of revolute, prismatic and fixed joints.

Every moving body hangs from the ground (or a grounded body) through a chain of revolute,
prismatic and fixed joints, one joint per body and no closed loop; a revolute or prismatic joint
may be driven (one driver each: its coordinate follows the profile). The state is then the
joint angles [rad] and displacements [m] and their rates, with no constraint equation left:
the accelerations come from the articulated-body algorithm (:mod:`.tree_kernel`, O(N) per
evaluation; the driven joints' by hybrid dynamics), the joints never drift apart and no
Baumgarte feedback is needed. The bodies'
coordinates Y (solver/system.py) are written at every output time, so the results, the
multipliers (the index-1 KKT solve at the sample, :mod:`..results`), the reaction loads and the
plots are those of the body-coordinate integrators.
"""

from __future__ import annotations

import weakref
from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from .. import kernels
from ..errors import ModelError
from ..numerics import quaternion
from .base import Stepper, equal_steps, own_settings
from .tree_kernel import FIXED, PRISMATIC, REVOLUTE, TreeStatic, new_tree_work, run_tree, tree_static
from .tree_state import joint_state_into

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System

KINDS = {"revolute": REVOLUTE, "prismatic": PRISMATIC, "fixed": FIXED}
_USE = "rk4_tree integrates open trees of revolute, prismatic and fixed joints (use rk4)"
_BUILT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # System -> its tree (tree_of)


def tree_parents(system: System) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(parent, joint, order): per moving body the moving-body index of its parent (-1: fixed)
    and the index of the joint to it, found outwards from the fixed bodies, and the bodies in
    the order they were reached (every parent before its children). ModelError naming the
    element when the model is not such a tree."""
    model = system.model
    sides = []
    for jk, j in enumerate(model.joints):
        if j.type not in KINDS:
            raise ModelError(f"joints[{jk}].type", f"joint '{j.name}' is {j.type}: {_USE}")
        bi, bj = system.body_index(j.body_i), system.body_index(j.body_j)
        if bi < 0 and bj < 0:
            raise ModelError(f"joints[{jk}]", f"joint '{j.name}' joins two fixed bodies: {_USE}")
        sides.append((bi, bj))
    driven = set()
    for dk, d in enumerate(model.drivers):  # its type is its joint's one coordinate (catalog.JOINTS)
        if d.joint in driven:
            raise ModelError(f"drivers[{dk}]", f"driver '{d.name}': joint '{d.joint}' has a driver already: {_USE}")
        driven.add(d.joint)
    for k, b in enumerate(system.moving):
        if system.point_mass[k]:
            raise ModelError("settings.integrator", f"body '{b.name}' is a point mass: {_USE}")
    parent = np.full(system.nb, -2, dtype=np.int64)  # -2: not reached yet
    joint = np.full(system.nb, -1, dtype=np.int64)
    at = {}  # body (-1: any fixed body) -> its joints
    for jk, (bi, bj) in enumerate(sides):
        at.setdefault(bi, []).append(jk)
        at.setdefault(bj, []).append(jk)
    order, queue, used = [], deque([-1]), set()
    while queue:
        b = queue.popleft()
        for jk in at.get(b, []):
            if jk in used:
                continue
            used.add(jk)
            bi, bj = sides[jk]
            child = bj if bi == b else bi
            if child < 0 or parent[child] != -2:
                raise ModelError(f"joints[{jk}]", f"joint '{model.joints[jk].name}' closes a loop: {_USE}")
            parent[child], joint[child] = b, jk
            order.append(child)
            queue.append(child)
    for k in np.nonzero(parent == -2)[0]:
        raise ModelError("settings.integrator", f"body '{system.moving[k].name}' is not joined to a fixed body: {_USE}")
    return parent, joint, np.array(order, dtype=np.int64)


def _poses(Y: np.ndarray, nb: int, parent: np.ndarray) -> tuple:
    """Per body, from the body state Y: (A, x, w, v) of the body and of its parent (identity,
    zeros for a fixed parent): rotations, positions [m], global angular velocities [rad/s],
    velocities [m/s]."""
    A = quaternion.matrices(Y[: 7 * nb].reshape(nb, 7)[:, 3:])
    x = Y[: 7 * nb].reshape(nb, 7)[:, :3]
    vel = Y[7 * nb :].reshape(nb, 6)
    w = np.einsum("bij,bj->bi", A, vel[:, 3:])
    own = (A, x, w, vel[:, :3])
    fixed = parent < 0
    up = [np.where(fixed[:, None, None], np.eye(3), A[parent])]
    up += [np.where(fixed[:, None], 0.0, a[parent]) for a in (x, w, vel[:, :3])]
    return own, tuple(up)


def _nearest_rotations(M: np.ndarray) -> np.ndarray:
    """The rotations nearest to the matrices M (k, 3, 3)."""
    U, _, Vt = np.linalg.svd(M)
    U[:, :, 2] *= np.sign(np.linalg.det(U @ Vt))[:, None]
    return U @ Vt


def build_tree(system: System, Y: np.ndarray) -> TreeStatic:
    """The tree arrays of :mod:`.tree_kernel` for ``system``; each joint's child frame G is
    taken so that the joint coordinate theta is 0 in the state Y (the assembled start)."""
    parent, joint, order = tree_parents(system)
    nb = system.nb
    joints, frames = system.model.joints, system.joint_frames
    kind = np.array([KINDS[joints[jk].type] for jk in joint], dtype=np.int64).reshape(nb)
    child_is_j = np.array([system.body_index(joints[jk].body_j) == b for b, jk in enumerate(joint)], dtype=bool)

    def side(key: str, child: bool) -> np.ndarray:
        picks = [frames[jk][key + ("j" if cj == child else "i")] for jk, cj in zip(joint, child_is_j)]
        return np.array(picks, dtype=float).reshape(nb, 3)

    def axes(child: bool) -> np.ndarray:
        return np.stack([side("x", child), side("y", child), side("z", child)], axis=2)

    Fp, Fc = axes(False), axes(True)
    (A, _, _, _), (Ap, _, _, _) = _poses(Y, nb, parent)
    M0 = np.transpose(Fp, (0, 2, 1)) @ np.transpose(Ap, (0, 2, 1)) @ A @ Fc  # Rz(theta0) in a consistent state
    G = Fc @ np.transpose(_nearest_rotations(M0), (0, 2, 1))
    return tree_static(
        order=order,
        parent=parent,
        kind=kind,
        Fp=Fp,
        op=side("o", False),
        GT=np.ascontiguousarray(np.transpose(G, (0, 2, 1))),
        oc=side("o", True),
        mass=system.mass.copy(),
        inertia=system.J.copy(),
        gravity=np.asarray(system.static.gravity, float).copy(),
        **_drives(system, joint, child_is_j),
    )


def tree_of(system: System, Y: np.ndarray) -> TreeStatic:
    """The tree of ``system`` (:func:`build_tree`), built once per System from the first state Y
    [m, rad] it is asked with and kept for the steppers made later on it (the stop monitor makes one
    at each event and at each trial of its search): their joint coordinates are then read from their
    own start relative to that first one. Each call gets drive offsets of its own (zeros)."""
    T = _BUILT.get(system)
    if T is None:
        T = _BUILT[system] = build_tree(system, Y)
    return T._replace(drive_offset=np.zeros(len(T.drive_offset)))


def _drives(system: System, joint: np.ndarray, child_is_j: np.ndarray) -> dict:
    """The drive arrays of :class:`.tree_kernel.TreeStatic` per body: its joint's driver's profile
    program (-1: not driven), the sign from the driver's coordinate to the tree's (-1 where the
    child is the joint's body_i), and offsets 0 (set by :func:`set_drive_offsets`)."""
    nb, nj = system.nb, len(system.model.joints)
    drive = np.full(nb, -1, dtype=np.int64)
    by_joint = {row["owner"] - nj: row["prog"] for row in system.rows if row["owner"] >= nj}
    names = {d.joint: dk for dk, d in enumerate(system.model.drivers)}
    for b, jk in enumerate(joint):
        dk = names.get(system.model.joints[jk].name)
        if dk is not None:
            drive[b] = by_joint[dk]
    sign = np.where(child_is_j, 1.0, -1.0).reshape(nb)
    return dict(drive=drive, drive_sign=sign, drive_offset=np.zeros(nb))


def set_drive_offsets(T: TreeStatic, system: System, t: float, q: np.ndarray) -> None:
    """Set the driven joints' offsets so that their coordinates q [rad or m] at time t [s] are
    offset + sign f(t) (their profiles f; an angle read modulo a turn stays on the same pose)."""
    for b in np.nonzero(T.drive >= 0)[0]:
        T.drive_offset[b] = q[b] - T.drive_sign[b] * system.programs[T.drive[b]](t)[0]


def joint_state(T: TreeStatic, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Joint coordinates q [rad or m] and rates qd of the body state Y (exact when Y satisfies
    the joints; otherwise their nearest values: the angle of the relative rotation about the
    joint axis, the displacement and the rates along it)."""
    nb = T.parent.shape[0]
    (A, x, w, v), (Ap, xp, wp, vp) = _poses(Y, nb, T.parent)
    B = Ap @ T.Fp
    z = B[:, :, 2]
    M = np.transpose(B, (0, 2, 1)) @ A @ np.transpose(T.GT, (0, 2, 1))
    angle, angle_rate = np.arctan2(M[:, 1, 0], M[:, 0, 0]), np.einsum("bi,bi->b", z, w - wp)
    arm = np.einsum("bij,bj->bi", A, T.oc)
    Pc = x + arm
    Pp = xp + np.einsum("bij,bj->bi", Ap, T.op)
    slide = np.einsum("bi,bi->b", z, Pc - Pp)
    slide_rate = np.einsum("bi,bi->b", z, v + np.cross(w, arm) - vp - np.cross(wp, Pc - xp))
    kinds = [T.kind == REVOLUTE, T.kind == PRISMATIC]
    return np.select(kinds, [angle, slide], 0.0), np.select(kinds, [angle_rate, slide_rate], 0.0)


class TreeRK4Stepper(Stepper):
    """Classical RK4 on the joint coordinates of an open tree (see the module docstring); the
    step settings.step is shortened so that output times are hit exactly."""

    name = "rk4_tree"
    entry_kernel = run_tree  # compiled entry point (solver/numerics/cold_start.py probes its cache)

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray) -> None:
        settings = own_settings(settings, self.name)
        super().__init__(system, settings, t0, Y0)
        self.h = settings.step
        self.tree = tree_of(system, Y0)
        self.work = new_tree_work(system.nb)
        self.q, self.qd = np.zeros(system.nb), np.zeros(system.nb)
        self.restart(t0, Y0)

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate from t to t_next [s], then write the bodies' state into Y; returns (time
        reached [s], status)."""
        n, h = equal_steps(t_next - t, self.h)
        q, qd = self.q, self.qd
        args = (float(t), q, qd, float(h), n, self.tree, self.work, self.system.static, acc, Y)
        done, status = kernels.fast_call(run_tree, *args)  # Y written from q, qd at its end
        self.steps += done
        return (t_next if status == kernels.OK else t + done * h), status

    def restart(self, t: float, Y: np.ndarray) -> Stepper:
        """Continue from a state Y changed from outside: its joint coordinates (the output
        projection leaves this stepper alone; the contract of :mod:`.base` asks for it)."""
        T, Y = self.tree, np.ascontiguousarray(Y, dtype=float)
        kernels.fast_call(joint_state_into, Y, T.parent, T.kind, T.Fp, T.op, T.GT, T.oc, self.work.A, self.q, self.qd)
        set_drive_offsets(T, self.system, t, self.q)
        return self
