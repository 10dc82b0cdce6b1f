"""Simulation results: sampled in memory, derived quantities (joint reactions in joint
and global axes, driver efforts, violations, energies); written by :mod:`.results_files`
(docs/results-format.md).

The joint frame of a distance joint (a rod) follows the rod: its z axis runs from the rod's end
on body_j to its end on body_i at every instant, so its reaction Fz is the rod tension [N],
positive when the rod pulls (Fx = Fy = 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit
from numpy.typing import ArrayLike

from . import quaternion
from .catalog import COORDINATES, JOINTS
from .joints import body_side, row_terms, row_vectors
from .kernels import fast_call
from .results_files import write_results

if TYPE_CHECKING:
    from .model import Model, Settings
    from .system import Static, System, Work


@njit(cache=True)
def joint_wrenches(
    S: Static,
    Y: np.ndarray,
    W: Work,
    row_owner: np.ndarray,
    nj: int,
    recv_side: np.ndarray,
    recv_body: np.ndarray,
    recv_sign: np.ndarray,
    recv_origin: np.ndarray,
    axes_body: np.ndarray,
    axes_local: np.ndarray,
    out: np.ndarray,
) -> None:
    """Reaction wrench that body_i exerts on body_j for every joint, from W.jac and
    W.lam: out[k] = [F global (3), T global about the joint origin (3), F joint (3),
    T joint (3)] in N and N m; the joint frame is the one carried by body_i."""
    out[:, :] = 0.0
    A = W.A
    for r in range(row_owner.shape[0]):
        k = row_owner[r]
        if k >= nj:
            continue
        s = recv_side[k]
        for c in range(6):
            out[k, c] -= recv_sign[k] * W.jac[r, s, c] * W.lam[r]
    for k in range(nj):
        b = recv_body[k]
        T = out[k, 3:6].copy()
        if b >= 0:
            Tg = A[b] @ T
            P = A[b] @ recv_origin[k]
            F = out[k, 0:3]
            out[k, 3] = Tg[0] - (P[1] * F[2] - P[2] * F[1])
            out[k, 4] = Tg[1] - (P[2] * F[0] - P[0] * F[2])
            out[k, 5] = Tg[2] - (P[0] * F[1] - P[1] * F[0])
        bi = axes_body[k]
        for a in range(3):
            axis = axes_local[k, a].copy()
            if bi >= 0:
                axis = A[bi] @ axis
            out[k, 6 + a] = axis[0] * out[k, 0] + axis[1] * out[k, 1] + axis[2] * out[k, 2]
            out[k, 9 + a] = axis[0] * out[k, 3] + axis[1] * out[k, 4] + axis[2] * out[k, 5]


@njit(cache=True)
def row_series(kind: int, bi: int, bj: int, vecs: np.ndarray, Y: np.ndarray, nb: int, A: np.ndarray, out: np.ndarray):
    """Value and rate of one primitive row (local vectors vecs[0]) between bodies bi and bj
    at every sample: out[k] = (phi, dphi/dt without Phi_t) at state Y[k], rotations A[k]."""
    for k in range(Y.shape[0]):
        terms = row_terms(kind, vecs, 0, A[k], body_side(Y[k], nb, bi), body_side(Y[k], nb, bj))
        out[k, 0] = terms[0].real
        out[k, 1] = terms[6].real


def unwrap_angle(t: np.ndarray, theta: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """Angles [rad] given in (-pi, pi] made continuous: each sample takes the branch nearest
    to the previous one advanced by the trapezoidal integral of the rate [rad/s], so a joint
    turning by more than pi between two output samples is still counted right."""
    out = np.array(theta, dtype=float)
    for k in range(1, len(out)):
        predicted = out[k - 1] + 0.5 * (rate[k - 1] + rate[k]) * (t[k] - t[k - 1])
        out[k] += 2.0 * np.pi * np.round((predicted - out[k]) / (2.0 * np.pi))
    return out


def reaction_layout(system: System) -> tuple[np.ndarray, ...]:
    """Static per-joint arrays for joint_wrenches: which side receives the reaction."""
    nj = len(system.model.joints)
    side = np.zeros(nj, np.int64)
    body = np.zeros(nj, np.int64)
    sign = np.ones(nj)
    origin = np.zeros((nj, 3))
    axes_body = np.zeros(nj, np.int64)
    axes = np.zeros((nj, 3, 3))
    for k, j in enumerate(system.model.joints):
        f = system.joint_frames[k]
        bi, bj = system.body_index(j.body_i), system.body_index(j.body_j)
        if bj >= 0:
            side[k], body[k], sign[k], origin[k] = 1, bj, 1.0, f["oj"]
        else:
            side[k], body[k], sign[k], origin[k] = 0, bi, -1.0, f["oi"]
        axes_body[k] = bi
        axes[k] = np.array([f["xi"], f["yi"], f["zi"]])
    return side, body, sign, origin, axes_body, axes


def rod_axes(p_i: np.ndarray, p_j: np.ndarray, x_hint: np.ndarray) -> np.ndarray:
    """Rows x, y, z of the frame of a rod from p_j to p_i [m]: z = (p_i - p_j) / |p_i - p_j|,
    x = ``x_hint`` (a global vector, or a perpendicular if it is along z) made normal to z."""
    z = (p_i - p_j) / np.linalg.norm(p_i - p_j)
    x = x_hint - np.dot(x_hint, z) * z
    if np.linalg.norm(x) < 1e-6:
        x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    x /= np.linalg.norm(x)
    return np.array([x, np.cross(z, x), z])


def _global(system: System, Y: np.ndarray, b: int, local: np.ndarray, vector: bool = False) -> np.ndarray:
    """A point [m] (or a ``vector``) of moving body b in kernel coordinates, in global axes at
    state Y whose rotation matrices are in system.work.A; fixed sides (b < 0) are global."""
    if b < 0:
        return np.asarray(local, float)
    A = system.work.A[b]
    return A @ local if vector else Y[7 * b : 7 * b + 3] + A @ local


def software_versions() -> dict[str, str]:
    """Versions of Python and the numerical libraries used for a run."""
    import platform

    import numba
    import scipy

    from .. import __version__

    return {
        "MBD Workbench": __version__,
        "Python": platform.python_version(),
        "NumPy": np.__version__,
        "SciPy": scipy.__version__,
        "Numba": numba.__version__,
    }


class Results:
    """Time series of one run. Arrays are indexed [sample, ...]; body quantities are
    given for the user's body frames (CoG position, orientation quaternion, global
    velocities)."""

    def __init__(self, system: System, settings: Settings) -> None:
        self.system = system
        self.model: Model = system.model
        self.settings = settings
        self.body_names = [b.name for b in system.moving]
        self.joint_names = [j.name for j in system.model.joints]
        self.driver_names = [d.name for d in system.model.drivers]
        self._layout = reaction_layout(system)
        self._rods = [k for k, j in enumerate(system.model.joints) if j.type == "distance"]
        self._rows = []
        self.status = "running"
        self.message = ""
        self.steps = 0
        self.wall_time = 0.0
        self.assembly = []

    # ------------------------------------------------------------------ sampling
    def record(
        self, t: float, Y: np.ndarray, acc: np.ndarray, lam: np.ndarray | None = None, Ydot: np.ndarray | None = None
    ) -> dict:
        """Evaluate and store one output sample at (t [s], Y); ``acc`` holds the work integrals
        (see integrators.explicit.account_power). ``lam`` (optional, all m rows) replaces the
        forward-dynamics multipliers: the reactions, driver efforts and driver power [W] are
        then those of ``lam`` (index-3 integrators, kinematic analysis, inverse dynamics and
        statics impose their own); ``Ydot`` likewise replaces the state derivative."""
        sys = self.system
        ev = sys.evaluate(t, Y)
        if lam is not None:
            sys.work.lam[:] = lam
            ev["lam"] = np.array(lam, dtype=float)
            if Ydot is not None:
                ev["Ydot"] = np.array(Ydot, dtype=float)
        nj = len(self.joint_names)
        wrench = np.zeros((nj, 12))
        if nj:
            fast_call(
                joint_wrenches,
                sys.static,
                np.ascontiguousarray(Y, dtype=float),
                sys.work,
                sys.row_owner,
                nj,
                *self._layout,
                wrench,
            )
            self._rod_reactions(np.asarray(Y, dtype=float), wrench)
        drv_rows = np.nonzero(sys.row_owner >= nj)[0]
        fd = np.array([sys.programs[sys.static.row_prog[r]](t)[1] for r in drv_rows])
        effort = -ev["lam"][drv_rows]
        power = effort * (ev["rate"][drv_rows] + fd)
        if lam is not None:
            ev["Pdrv"] = float(power.sum())
        Wd, Wn = acc[3], acc[4]
        if acc[5] > 0:
            Wd += 0.5 * (t - acc[0]) * (acc[1] + ev["Pdrv"])
            Wn += 0.5 * (t - acc[0]) * (acc[2] + ev["Pnc"])
        self._rows.append(
            dict(
                t=t,
                Y=np.array(Y),
                lam=ev["lam"],
                phi=ev["phi"],
                rate=ev["rate"],
                T=ev["T"],
                V=ev["V"],
                Wd=Wd,
                Wn=Wn,
                wrench=wrench,
                effort=effort,
                power=power,
                Ydot=ev["Ydot"],
            )
        )
        self._cache = None
        self._coordinates = None
        return ev

    def _rod_reactions(self, Y: np.ndarray, wrench: np.ndarray) -> None:
        """Joint-frame reactions of the distance joints in their rod frames (:func:`rod_axes`)
        at the state Y just evaluated (its rotation matrices are in the work arrays)."""
        sys = self.system
        for k in self._rods:
            j, f = self.model.joints[k], sys.joint_frames[k]
            ends = [_global(sys, Y, sys.body_index(b), f["o" + s]) for b, s in ((j.body_i, "i"), (j.body_j, "j"))]
            axes = rod_axes(*ends, _global(sys, Y, sys.body_index(j.body_i), f["xi"], vector=True))
            wrench[k, 6:9], wrench[k, 9:12] = axes @ wrench[k, 0:3], axes @ wrench[k, 3:6]

    def __len__(self) -> int:
        return len(self._rows)

    def _stack(self, key):
        return np.array([r[key] for r in self._rows])

    # ------------------------------------------------------------------ accessors
    @property
    def t(self) -> np.ndarray:
        """Output times [s]."""
        return self._stack("t")

    @property
    def Y(self) -> np.ndarray:
        """Raw solver states (principal body frames), shape (K, 13 N)."""
        return self._stack("Y")

    def _poses(self):
        if getattr(self, "_cache", None) is None:
            Y = self.Y
            nb = self.system.nb
            if len(Y) == 0:
                Y = np.zeros((0, 13 * nb))
            pos = Y[:, : 7 * nb].reshape(len(Y), nb, 7)
            A = quaternion.matrices(pos[:, :, 3:]) if len(Y) else np.zeros((0, nb, 3, 3))
            A_user = A @ np.transpose(self.system.R_principal, (0, 2, 1))[None]
            vel = Y[:, 7 * nb :].reshape(len(Y), nb, 6)
            self._cache = dict(
                position=pos[:, :, :3],
                A=A_user,
                quaternion=np.array([[quaternion.from_matrix(a) for a in row] for row in A_user]).reshape(
                    len(Y), nb, 4
                ),
                velocity=vel[:, :, :3],
                angular_velocity=np.einsum("kbij,kbj->kbi", A, vel[:, :, 3:]),
            )
        return self._cache

    def position(self, body: str) -> np.ndarray:
        """CoG position [m], shape (K, 3)."""
        return self._poses()["position"][:, self.body_names.index(body)]

    def rotation(self, body: str) -> np.ndarray:
        """Rotation matrices of the body's own frame, shape (K, 3, 3)."""
        return self._poses()["A"][:, self.body_names.index(body)]

    def orientation(self, body: str) -> np.ndarray:
        """Quaternions [qw, qx, qy, qz] of the body's own frame, shape (K, 4)."""
        return self._poses()["quaternion"][:, self.body_names.index(body)]

    def velocity(self, body: str) -> np.ndarray:
        """CoG velocity [m/s], global, shape (K, 3)."""
        return self._poses()["velocity"][:, self.body_names.index(body)]

    def angular_velocity(self, body: str) -> np.ndarray:
        """Angular velocity [rad/s], global axes, shape (K, 3)."""
        return self._poses()["angular_velocity"][:, self.body_names.index(body)]

    def point(self, body: str, local_point: ArrayLike) -> np.ndarray:
        """Global path [m] of a point given in the body's own frame relative to its CoG."""
        return self.position(body) + self.rotation(body) @ np.asarray(local_point, float)

    def reaction(self, joint: str, frame: str = "joint") -> tuple[np.ndarray, np.ndarray]:
        """Reaction (force [N], torque [N m] about the joint origin) that body_i exerts on
        body_j, in the joint frame (carried by body_i) or 'global' axes: two (K, 3) arrays."""
        w = self._stack("wrench")[:, self.joint_names.index(joint)]
        return (w[:, 6:9], w[:, 9:12]) if frame == "joint" else (w[:, 0:3], w[:, 3:6])

    def joint_coordinate_names(self, joint: str) -> tuple[str, ...]:
        """Names of the joint's relative coordinates (keys of catalog.COORDINATES), from its
        type's catalogue record: ('angle',) for a revolute, () for a spherical joint."""
        return JOINTS[self.model.joints[self.joint_names.index(joint)].type].coordinates

    def joint_coordinate(self, joint: str) -> np.ndarray:
        """Relative coordinates of a joint, shape (K, n), n = len(joint_coordinate_names):
        angle [rad] of body_j about the frame z axis, unwrapped over time, and displacement
        [m] along it, measured as drivers measure them (zero at the initial configuration)."""
        return self._joint_coordinates()[joint][0]

    def joint_coordinate_rate(self, joint: str) -> np.ndarray:
        """Rates [rad/s or m/s] of the joint's coordinates, shape (K, n)."""
        return self._joint_coordinates()[joint][1]

    def _joint_coordinates(self) -> dict:
        """{joint: (values (K, n), rates (K, n))}, computed once per set of samples."""
        if getattr(self, "_coordinates", None) is None:
            t, Y, nb = self.t, np.ascontiguousarray(self.Y, dtype=float), self.system.nb
            A = quaternion.matrices(Y[:, : 7 * nb].reshape(len(Y), nb, 7)[:, :, 3:]) if len(Y) else None
            A = np.ascontiguousarray(A) if A is not None else None
            self._coordinates = {j: self._coordinate_series(k, t, Y, A) for k, j in enumerate(self.joint_names)}
        return self._coordinates

    def _coordinate_series(self, k: int, t: np.ndarray, Y: np.ndarray, A: np.ndarray | None) -> tuple[np.ndarray, ...]:
        """Values and rates (K, n) of joint k's coordinates at the samples (t, Y), rotations A (K, nb, 3, 3)."""
        sys, joint = self.system, self.model.joints[k]
        names = self.joint_coordinate_names(joint.name)
        values, rates = np.zeros((len(Y), len(names))), np.zeros((len(Y), len(names)))
        if not len(Y) or not names:
            return values, rates
        bi, bj = sys.body_index(joint.body_i), sys.body_index(joint.body_j)
        series = np.zeros((len(Y), 2))
        for c, name in enumerate(names):
            spec = COORDINATES[name].row
            vecs = row_vectors(spec, sys.joint_frames[k])[None]
            row_series(spec[0], bi, bj, vecs, Y, sys.nb, A, series)
            rates[:, c] = series[:, 1]
            angle = COORDINATES[name].unit == "rad"
            values[:, c] = unwrap_angle(t, series[:, 0], series[:, 1]) if angle else series[:, 0]
        return values, rates

    def driver_effort(self, driver: str) -> np.ndarray:
        """Driver torque [N m] or force [N] applied to body_j, shape (K,)."""
        return self._stack("effort")[:, self.driver_names.index(driver)]

    def driver_power(self, driver: str) -> np.ndarray:
        """Mechanical power [W] delivered by the driver, shape (K,)."""
        return self._stack("power")[:, self.driver_names.index(driver)]

    def violation(self, name: str) -> dict[str, np.ndarray]:
        """Per-sample violations of a joint or driver: dict of position [m], angle [rad],
        velocity [m/s] and angular_velocity [rad/s] (max abs over its equations)."""
        sys = self.system
        names = self.joint_names + self.driver_names
        rows = sys.row_owner == names.index(name)
        phi = np.abs(self._stack("phi")).reshape(len(self), -1)
        rate = np.abs(self._stack("rate")).reshape(len(self), -1)
        ang, lin = rows & sys.row_angular, rows & ~sys.row_angular

        def mx(a: np.ndarray, sel: np.ndarray) -> np.ndarray:
            return a[:, sel].max(axis=1) if sel.any() else np.zeros(len(self))

        return dict(position=mx(phi, lin), angle=mx(phi, ang), velocity=mx(rate, lin), angular_velocity=mx(rate, ang))

    def max_violation(self) -> tuple[float, float]:
        """(max position violation [m], max angular violation [rad]) over the run."""
        if not len(self) or not self.system.m:
            return 0.0, 0.0
        phi = np.abs(self._stack("phi"))
        ang = self.system.row_angular
        return (float(phi[:, ~ang].max()) if (~ang).any() else 0.0, float(phi[:, ang].max()) if ang.any() else 0.0)

    def energy(self) -> dict[str, np.ndarray]:
        """Dict of kinetic, potential, total, work_drivers, work_nonconservative and
        balance = total - total(0) - works [J], each (K,)."""
        T, V, Wd, Wn = (self._stack(k) for k in ("T", "V", "Wd", "Wn"))
        E = T + V
        bal = E - (E[0] if len(E) else 0.0) - Wd - Wn
        return dict(kinetic=T, potential=V, total=E, work_drivers=Wd, work_nonconservative=Wn, balance=bal)

    def energy_drift(self) -> float:
        """max |balance| / max(|E0|, max kinetic energy, 1e-12): relative energy drift."""
        if not len(self):
            return 0.0
        e = self.energy()
        scale = max(abs(e["total"][0]), float(np.max(e["kinetic"])), float(np.max(np.abs(e["work_drivers"]))), 1e-12)
        return float(np.max(np.abs(e["balance"])) / scale)

    def summary(self) -> dict:
        """JSON-ready run summary."""
        vpos, vang = self.max_violation()
        s = self.settings
        return dict(
            model=self.model.name,
            status=self.status,
            message=self.message,
            integrator=s.integrator,
            settings=dict(vars(s)),
            steps=int(self.steps),
            wall_time_s=float(self.wall_time),
            samples=len(self),
            t_start=float(self.t[0]) if len(self) else None,
            t_end=float(self.t[-1]) if len(self) else None,
            max_position_violation_m=vpos,
            max_angle_violation_rad=vang,
            energy_drift=self.energy_drift(),
            assembly=self.assembly,
            bodies=self.body_names,
            joints=self.joint_names,
            drivers=self.driver_names,
            warnings=[w.to_dict() for w in getattr(self, "warnings", [])],
            versions=software_versions(),
        )

    # ------------------------------------------------------------------ files
    def write(self, directory: str) -> str:
        """Write the CSV files, summary.json and model.json into ``directory``; returns it."""
        return write_results(self, directory)
