"""Simulation results: sampled in memory (a row per sample; accessors return views), derived
quantities (joint reactions, coordinates, driver efforts, violations, energies); written by
:mod:`.results_files` (docs/results-format.md). A distance joint's frame follows the rod (z from
its end on body_j to its end on body_i): its reaction Fz is the rod tension [N], + when pulling."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..kernels import fast_call
from ..model.catalog import COORDINATES, JOINTS
from ..model.joint_stops import stop_effort
from ..numerics import quaternion
from ..numerics.jit import interpreting
from ..numerics.joints import ROW_VECS, row_vectors
from ..system.contact_friction import with_patch_friction
from ..system.friction import packed, unpacked
from .contacts import contact_layout, contact_sample
from .files import write_results
from .friction_rows import record_friction_samples
from .sample_kernels import joint_coordinates, joint_wrenches, record_samples, record_scratch
from .samples import SampleStore

if TYPE_CHECKING:
    from ..model.schema import Model, Settings
    from ..system.system import System


def coordinate_layout(system: System) -> dict:
    """Packed rows of every joint coordinate (joint order, then catalogue order within a
    joint): kinds, bodies, local vectors, which are angles, and each joint's column slice."""
    kinds, body_i, body_j, vecs, angle, columns = [], [], [], [], [], {}
    for k, joint in enumerate(system.model.joints):
        names = JOINTS[joint.type].coordinates
        columns[joint.name] = slice(len(kinds), len(kinds) + len(names))
        for name in names:
            spec = COORDINATES[name].row
            kinds.append(spec[0])
            body_i.append(system.body_index(joint.body_i))
            body_j.append(system.body_index(joint.body_j))
            vecs.append(row_vectors(spec, system.joint_frames[k]))
            angle.append(COORDINATES[name].unit == "rad")
    return dict(
        kinds=np.array(kinds, np.int64),
        body_i=np.array(body_i, np.int64),
        body_j=np.array(body_j, np.int64),
        vecs=np.array(vecs, float).reshape(len(kinds), ROW_VECS, 3),
        angle=np.array(angle, bool),
        columns=columns,
    )


def quaternions_of(A: np.ndarray) -> np.ndarray:
    """Quaternions (..., 4), qw >= 0, of proper rotation matrices A (..., 3, 3): the branches
    of quaternion.from_matrix, vectorised."""
    A = np.asarray(A, dtype=float)
    a = {(i, j): A[..., i, j] for i in range(3) for j in range(3)}
    tr = a[0, 0] + a[1, 1] + a[2, 2]
    b0 = tr > 0
    b1 = ~b0 & (a[0, 0] > a[1, 1]) & (a[0, 0] > a[2, 2])
    b2 = ~b0 & ~b1 & (a[1, 1] > a[2, 2])
    with np.errstate(invalid="ignore", divide="ignore"):
        s = 2.0 * np.sqrt(
            np.select(
                [b0, b1, b2],
                [tr + 1.0, 1.0 + a[0, 0] - a[1, 1] - a[2, 2], 1.0 + a[1, 1] - a[0, 0] - a[2, 2]],
                1.0 + a[2, 2] - a[0, 0] - a[1, 1],
            )
        )
        d21, d02, d10 = a[2, 1] - a[1, 2], a[0, 2] - a[2, 0], a[1, 0] - a[0, 1]
        s01, s02, s12 = a[0, 1] + a[1, 0], a[0, 2] + a[2, 0], a[1, 2] + a[2, 1]
        q = np.stack(
            [
                np.select([b0, b1, b2], [0.25 * s, d21 / s, d02 / s], d10 / s),
                np.select([b0, b1, b2], [d21 / s, 0.25 * s, s01 / s], s02 / s),
                np.select([b0, b1, b2], [d02 / s, s01 / s, 0.25 * s], s12 / s),
                np.select([b0, b1, b2], [d10 / s, s02 / s, s12 / s], 0.25 * s),
            ],
            axis=-1,
        )
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    return np.where(q[..., :1] >= 0, q, -q)


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


def _batch(t: np.ndarray, Y: np.ndarray, acc: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """(t (K,), Y (K, n), acc (K, 6)) as C-contiguous float arrays; a ValueError names a wrong shape."""
    t, Y, acc = (np.ascontiguousarray(a, dtype=float) for a in (t, Y, acc))
    K = len(t)
    for name, a, shape in (("t", t, (K,)), ("Y", Y, (K, n)), ("acc", acc, (K, 6))):
        if a.shape != shape:
            raise ValueError(f"record_many: {name} has the shape {a.shape}, not {shape}")
    return t, Y, acc


def software_versions() -> dict[str, str]:
    """Versions of Python and the numerical libraries used for a run."""
    import platform

    import numba
    import scipy

    from ... import __version__

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
        self.contact_names = [c.name for c in getattr(system.model, "contacts", [])]
        self._contact_layout = contact_layout(system)
        self._driver_rows = np.nonzero(system.row_owner >= len(self.joint_names))[0]  # the drivers' rows
        self._driver_programs = [system.programs[system.static.row_prog[r]] for r in self._driver_rows]
        self._layout = reaction_layout(system)
        self._rods = [k for k, j in enumerate(system.model.joints) if j.type == "distance"]
        self._coordinate_layout = coordinate_layout(system)
        self._samples = SampleStore()
        self._cache = None  # derived body quantities of the samples (see _poses)
        self._total0 = None  # total energy of a window's run at its first sample [J]
        self._last_coordinates = None  # (t [s], (value, rate) of each joint coordinate) of the last sample
        self.status = "running"
        self.message = ""
        self.steps = 0
        self.wall_time = 0.0
        self.assembly = []
        # (max position [m], max angular [rad]) violation of the integrated state where the samples
        # are its projection onto the constraints (cros), else None
        self.integrated_violation: tuple[float, float] | None = None
        self.accuracy: dict | None = None  # the accuracy estimate (solver/accuracy.py), None without one
        self.stops = None  # the events.StopMonitor of rigid stops and friction switches, None without

    @property
    def stop_events(self) -> list[dict]:
        """The located events of the rigid stops (solver/events.py): t [s], joint, coordinate, side,
        kind (impact, hold, release), impact and rebound speed, impulse, held effort."""
        return [] if self.stops is None else [e.as_dict() for e in self.stops.events]

    @property
    def friction_events(self) -> list[dict]:
        """The located switches of the joints' friction (solver/friction_events.py): time [s],
        joint, kind (stick, slip, reverse), slip speed [m/s], load [N] (friction needed), normal [N]."""
        return [] if self.stops is None else [e.as_dict() for e in self.stops.friction_events]

    @property
    def contact_events(self) -> list[dict]:
        """The located contact onsets (solver/contact_events.py): t [s], contact, point, speed [m/s]."""
        return [] if self.stops is None else [e.as_dict() for e in self.stops.contacts.events]

    # ------------------------------------------------------------------ sampling
    def record(
        self, t: float, Y: np.ndarray, acc: np.ndarray, lam: np.ndarray | None = None, Ydot: np.ndarray | None = None
    ) -> dict:
        """Evaluate and store one output sample at (t [s], Y); ``acc`` holds the work integrals
        (see integrators.power.account_power). ``lam`` (optional, all m rows) replaces the
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
            fast_call(joint_wrenches, sys.work.A, sys.work.jac, sys.work.lam, sys.row_owner, nj, *self._layout, wrench)
            self._rod_reactions(np.asarray(Y, dtype=float), wrench)
        drv_rows = self._driver_rows
        fd = np.array([program(t)[1] for program in self._driver_programs])
        effort = -ev["lam"][drv_rows]
        power = effort * (ev["rate"][drv_rows] + fd)
        if lam is not None:
            ev["Pdrv"] = float(power.sum())
        Wd, Wn = acc[3], acc[4]
        if acc[5] > 0:
            Wd += 0.5 * (t - acc[0]) * (acc[1] + ev["Pdrv"])
            Wn += 0.5 * (t - acc[0]) * (acc[2] + ev["Pnc"])
        coordinate, coordinate_rate = self._coordinates_at(t, Y)
        self._samples.append(
            dict(
                t=t,
                Y=Y,
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
                coordinate=coordinate,
                coordinate_rate=coordinate_rate,
                contact=with_patch_friction(sys, ev.get("friction"), contact_sample(sys, Y, self._contact_layout)),
                **({"friction": packed(ev["friction"])} if "friction" in ev else {}),
            )
        )
        self._cache = None
        return ev

    def record_many(self, t: np.ndarray, Y: np.ndarray, acc: np.ndarray, memory: np.ndarray | None = None) -> None:
        """The same as record() for each row, lam and Ydot from the evaluation: K samples at
        (t (K,) [s], Y (K, n)) with their work integrals acc (K, 6), in one compiled loop
        (results.sample_kernels.record_samples; with joint friction, results.friction_rows on the
        compiled friction solve); stiction patches and distance joints are recorded a row at a
        time, and so is a sample with rows dropped as redundant (their minimum-norm multipliers)
        or an evaluation that failed (or left to the friction's reference solve). ``memory`` (K, elements, 2,
        3), optional: the force elements' memory (S.force_vecs[:, 3:5]: contact impact speeds and
        peaks, unwrapped angles) at each sample's time, in place while it is recorded (the fast
        path's rows, recorded after their run); the memory as it was restored after."""
        t, Y, acc = _batch(t, Y, acc, 13 * self.system.nb)
        vecs = self.system.static.force_vecs
        rows = np.zeros((0, *vecs[:, 3:5].shape)) if memory is None else np.ascontiguousarray(memory, dtype=float)
        reached = vecs[:, 3:5].copy()
        try:
            self._record_rows(t, Y, acc, rows)
        finally:
            if memory is not None:
                vecs[:, 3:5] = reached
        self._cache = None

    def _record_rows(self, t: np.ndarray, Y: np.ndarray, acc: np.ndarray, memory: np.ndarray) -> None:
        """:meth:`record_many` after its checks (``memory``: (K, ...) rows, or none)."""

        def by_record(k: int) -> None:
            if len(memory):
                self.system.static.force_vecs[:, 3:5] = memory[k]
            self.record(t[k], Y[k], acc[k])

        if self._rods or not self._friction_compiled:
            for k in range(len(t)):
                by_record(k)
            return
        out = self._batch_arrays(len(t), Y.shape[1])
        start = 0
        while start < len(t):
            stop = self._record_compiled(start, t, Y, acc, memory, out)
            if stop < len(t):
                by_record(stop)
            start = stop + 1

    @property
    def _friction_compiled(self) -> bool:
        """Whether record_many's compiled loop records this model's samples: no joint friction, or
        joint friction without stiction patches on the compiled solve (JointFriction.solve's)."""
        f = self.system.friction
        return f is None or (f.patches is None and f.compiled and not interpreting())

    def _batch_arrays(self, K: int, n: int) -> tuple[np.ndarray, ...]:
        """record_samples' outputs for K samples of states of size n (and the friction column's)."""
        sys, nd, nc = self.system, len(self.driver_names), len(self._coordinate_layout["kinds"])
        m, nj, npairs = sys.m, len(self.joint_names), len(self.contact_names)
        f = sys.friction
        friction = () if f is None else (np.zeros((K, f.n_channels + 3 * len(f.contacts))),)
        return (np.zeros((K, n)), np.zeros((K, m)), np.zeros((K, m)), np.zeros((K, m)), np.zeros((K, 4)),
                np.zeros((K, nj, 12)), np.zeros((K, nd)), np.zeros((K, nd)), np.zeros((K, nc, 2)),
                np.zeros((K, npairs, 11)), *friction)  # fmt: skip

    def _record_compiled(self, start: int, t, Y, acc, memory: np.ndarray, out: tuple) -> int:
        """Samples start.. by record_samples up to the first one it leaves to :meth:`record`, stored;
        returns that one's index (len(t) when all are done)."""
        sys, lay = self.system, self._coordinate_layout
        coordinates = lay["kinds"], lay["body_i"], lay["body_j"], lay["vecs"], lay["angle"]
        last = self._last_coordinates
        previous = (float(last[0]), last[1]) if last else (np.nan, np.zeros((len(lay["kinds"]), 2)))
        owners = (sys.row_owner, len(self.joint_names))
        tail = (owners, self._layout, coordinates, self._contact_layout, self._driver_rows, previous, memory, out[:10])
        f = sys.friction
        if f is None:
            scratch = record_scratch(sys.static, sys.work, Y.shape[1])
            stop = fast_call(record_samples, start, t, Y, acc, sys.static, sys.work, *tail, scratch)
        else:
            state = f.kernel_state()
            stop = fast_call(record_friction_samples, start, t, Y, acc, sys.static, sys.work, f.arrays, state, *tail,
                             out[10])  # fmt: skip
        if stop > start:
            Ydot, lam, phi, rate, energy, wrench, effort, power, coordinate, contact = (a[start:stop] for a in out[:10])
            T, V, Wd, Wn = energy.T
            rows = dict(t=t[start:stop], Y=Y[start:stop], lam=lam, phi=phi, rate=rate, T=T, V=V, Wd=Wd, Wn=Wn,
                        wrench=wrench, effort=effort, power=power, Ydot=Ydot, coordinate=coordinate[:, :, 0],
                        coordinate_rate=coordinate[:, :, 1], contact=contact)  # fmt: skip
            if f is not None:
                rows["friction"] = out[10][start:stop]
            self._samples.extend(rows, stop - start)
            self._last_coordinates = (t[stop - 1], coordinate[-1].copy())
        return stop

    def contact(self, pair: str) -> np.ndarray:
        """(K, 10) columns of contact pair ``pair`` in contacts.csv (.contacts.CONTACT_COLUMNS)."""
        return self._stack("contact")[:, self.contact_names.index(pair)]

    def _rod_reactions(self, Y: np.ndarray, wrench: np.ndarray) -> None:
        """Joint-frame reactions of the distance joints in their rod frames (:func:`rod_axes`)
        at the state Y just evaluated (its rotation matrices are in the work arrays)."""
        sys = self.system
        for k in self._rods:
            j, f = self.model.joints[k], sys.joint_frames[k]
            ends = [_global(sys, Y, sys.body_index(b), f["o" + s]) for b, s in ((j.body_i, "i"), (j.body_j, "j"))]
            axes = rod_axes(*ends, _global(sys, Y, sys.body_index(j.body_i), f["xi"], vector=True))
            wrench[k, 6:9], wrench[k, 9:12] = axes @ wrench[k, 0:3], axes @ wrench[k, 3:6]

    def _coordinates_at(self, t: float, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Joint coordinates [rad or m] and their rates at (t, Y) (rotations: those system.evaluate
        left in the work arrays), angles unwrapped against the last sample."""
        lay = self._coordinate_layout
        out = np.zeros((len(lay["kinds"]), 2))
        if len(out):
            dt = float(t - self._last_coordinates[0]) if self._last_coordinates else -1.0
            previous = self._last_coordinates[1] if self._last_coordinates else out
            layout = lay["kinds"], lay["body_i"], lay["body_j"], lay["vecs"], lay["angle"]
            Y = np.ascontiguousarray(Y, dtype=float)
            fast_call(joint_coordinates, *layout, Y, self.system.nb, self.system.work.A, dt, previous, out)
        self._last_coordinates = (t, out)
        return out[:, 0], out[:, 1]

    def __len__(self) -> int:
        return len(self._samples)

    @property
    def _rows(self) -> SampleStore:
        """Sample k as ``_rows[k][quantity]`` (read-only views)."""
        return self._samples

    def _stack(self, key: str) -> np.ndarray:
        """Every sample of one recorded quantity, (K, ...), a read-only view."""
        return self._samples.column(key)

    def reserve(self, samples: int) -> None:
        """Make room for ``samples`` samples ahead (simulate knows how many it records); if
        that much memory cannot be had at once, the samples grow as they come."""
        with contextlib.suppress(MemoryError):
            self._samples.reserve(samples)

    def window(self, start: int, stop: int) -> Results:
        """Samples [start, stop) as a Results of their own, sharing this one's arrays, with its
        accessors (energy balance still measured from the run's first sample): what the
        results writer formats a chunk of rows at a time."""
        total0 = self._total0
        if total0 is None and len(self):
            total0 = float(self._view(0, 1).energy()["total"][0])
        w = self._view(start, stop)
        w._total0 = total0
        return w

    def _view(self, start: int, stop: int) -> Results:
        w = copy.copy(self)
        w._samples, w._cache = self._samples.window(start, stop), None
        return w

    # ------------------------------------------------------------------ accessors
    @property
    def t(self) -> np.ndarray:
        """Output times [s]."""
        return self._stack("t")

    @property
    def Y(self) -> np.ndarray:
        """Raw solver states (principal body frames), shape (K, 13 N)."""
        return self._stack("Y")

    @property
    def Ydot(self) -> np.ndarray:
        """Raw state derivatives dY/dt at the samples, shape (K, 13 N): first the rates of q (7 per
        body: CoG velocity [m/s] global, quaternion rate [1/s]), then the accelerations (6 per
        body: CoG [m/s^2] global, angular [rad/s^2] in the principal body frame)."""
        return self._stack("Ydot")

    @property
    def multipliers(self) -> np.ndarray:
        """Raw Lagrange multipliers of the constraint rows at the samples, shape (K, m) (the
        constraint load of the rows is -Phi_q^T lambda)."""
        return self._stack("lam")

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
                quaternion=quaternions_of(A_user),
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
        w = self._stack("wrench")[:, self.joint_names.index(joint)]  # a view: no copy per call
        return (w[:, 6:9], w[:, 9:12]) if frame == "joint" else (w[:, 0:3], w[:, 3:6])

    def is_coupler(self, joint: str) -> bool:
        """True for a coupler joint (gear, belt, rack_pinion, screw): it has a coupling force."""
        return bool(JOINTS[self.model.joints[self.joint_names.index(joint)].type].parameters)

    def coupling_force(self, joint: str) -> np.ndarray:
        """Coupling force [N] of a coupler joint (gear, belt, rack_pinion, screw), shape (K,): the
        multiplier of its one row, i.e. the tooth or belt force along the pitch line, the force
        between rack and pinion, the screw's thrust (signs: docs/model-format.md, couplers)."""
        k = self.joint_names.index(joint)
        if not self.is_coupler(joint):
            raise ValueError(f"joint '{joint}' ({self.model.joints[k].type}) is not a coupler joint")
        return self.multipliers[:, int(np.nonzero(self.system.row_owner == k)[0][0])]

    def joint_coordinate_names(self, joint: str) -> tuple[str, ...]:
        """Names of the joint's relative coordinates (keys of catalog.COORDINATES), from its
        type's catalogue record: ('angle',) for a revolute, () for a spherical joint."""
        return JOINTS[self.model.joints[self.joint_names.index(joint)].type].coordinates

    def joint_coordinate(self, joint: str) -> np.ndarray:
        """Relative coordinates of a joint, shape (K, n), n = len(joint_coordinate_names):
        angle [rad] of body_j about the frame z axis, unwrapped over time, and displacement
        [m] along it, measured as drivers measure them (zero at the initial configuration)."""
        return self._stack("coordinate")[:, self._coordinate_layout["columns"][joint]]

    def joint_coordinate_rate(self, joint: str) -> np.ndarray:
        """Rates [rad/s or m/s] of the joint's coordinates, shape (K, n)."""
        return self._stack("coordinate_rate")[:, self._coordinate_layout["columns"][joint]]

    def joint_stop_effort(self, joint: str) -> np.ndarray:
        """Effort [N m or N] of the end stops on each of the joint's coordinates, shape (K, n),
        positive when it increases the coordinate (0 without limits; model.joint_stops)."""
        return self._joint_efforts(joint)[0]

    def joint_damping_effort(self, joint: str) -> np.ndarray:
        """Effort [N m or N] of the viscous joint damping on each coordinate, shape (K, n)."""
        return self._joint_efforts(joint)[1]

    def limited_coordinates(self, joint: str) -> tuple[str, ...]:
        """The joint's coordinates with limits or damping (model.joint_stops)."""
        return tuple(law.coordinate for law in self.system.stop_laws if law.joint == joint)

    def _joint_efforts(self, joint: str) -> tuple[np.ndarray, np.ndarray]:
        names = self.joint_coordinate_names(joint)
        q, rate = self.joint_coordinate(joint), self.joint_coordinate_rate(joint)
        stop, damping = np.zeros_like(q), np.zeros_like(q)
        for law in self.system.stop_laws:
            if law.joint == joint:
                c = names.index(law.coordinate)
                stop[:, c], damping[:, c] = stop_effort(law, q[:, c], rate[:, c])
                if law.rigid and self.stops is not None:  # a held rigid stop's load (solver/events.py)
                    stop[:, c] = self.stops.held_effort(joint, law.coordinate, self.t)
        return stop, damping

    def joint_friction(self, joint: str) -> dict[str, np.ndarray]:
        """The joint's friction at each sample (system.friction.unpacked): ``effort`` (K, channels)
        [N m or N] on its angle/displacement (spherical: rotations about frame x, y, z), ``normal``
        N [N], ``state`` 1 stick 0 slip, ``power`` [W] (<= 0 while slipping)."""
        if self.system.friction is None:
            raise KeyError(f"joint '{joint}' has no friction")
        return unpacked(self.system.friction, self._stack("friction"), joint)

    def friction_joints(self) -> tuple[str, ...]:
        """The joints with friction."""
        contacts = self.system.friction.contacts if self.system.friction else []
        return tuple(c.joint for c in contacts if c.type != "contact")

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
        lin, ang = np.nonzero(rows & ~sys.row_angular)[0], np.nonzero(rows & sys.row_angular)[0]
        phi, rate = self._stack("phi").reshape(len(self), -1), self._stack("rate").reshape(len(self), -1)

        def mx(a: np.ndarray, sel: np.ndarray) -> np.ndarray:  # only the name's own rows are copied
            return np.abs(a[:, sel]).max(axis=1) if len(sel) else np.zeros(len(self))

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
        E0 = self._total0 if self._total0 is not None else (E[0] if len(E) else 0.0)
        bal = E - E0 - Wd - Wn
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
            integrated_violation=None if self.integrated_violation is None else list(self.integrated_violation),
            energy_drift=self.energy_drift(),
            assembly=self.assembly,
            bodies=self.body_names,
            joints=self.joint_names,
            drivers=self.driver_names,
            warnings=[w.to_dict() for w in getattr(self, "warnings", [])],
            accuracy=self.accuracy,
            **({"stop_events": self.stop_events} if self.stops is not None and self.stops.stops else {}),
            **({"friction_events": self.friction_events} if self.system.friction is not None else {}),
            **({"contact_events": self.contact_events} if self.stops is not None and self.stops.contacts.count else {}),
            relaxations=list(getattr(self.model, "relaxations", [])),
            dropped_equations=list(getattr(self.system, "cad_open", [])),
            versions=software_versions(),
        )

    # ------------------------------------------------------------------ files
    def write(self, directory: str, overwrite: bool = True, progress: Callable[[int, int], None] | None = None) -> str:
        """Write the CSV files, summary.json and model.json into the folder ``directory`` as a
        whole (results_files.write_results: an existing results folder is replaced unless
        ``overwrite`` is False); ``progress(written, samples)`` after each chunk. Returns its path."""
        return write_results(self, directory, overwrite, progress)
