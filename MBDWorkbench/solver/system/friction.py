"""Coulomb joint friction with true stiction in the ODE form (docs/joint-friction.md).

Each joint with friction is a *contact*: a load N [N] from the joint's own reaction
(model.joint_friction) and one or more *channels*, relative rates with a lever arm a (the
radius of a rotation, 1 for a translation): the slip velocity at the contact is
s_k = a_k rate_k [m/s] and the friction force there F (|F| <= mu N) acts on the channel
coordinate as the effort e_k = a_k F_k [N m or N].

Every evaluation solves the KKT system M acc + J^T lam = Q + G^T e, J acc = gamma* (the
kernels' Baumgarte gamma*, [R1]) densely, with the contact's mode:

* slip: e from F = mu_k N d. A one-channel contact (revolute angle, prismatic slide) slips in
  a fixed sense, its mode's (:attr:`JointFriction.senses`: d = -sense, kept through the slip
  velocity's zero so the solve is smooth up to the located event); a contact of several channels
  (cylindrical, spherical) has d = -s / |s|, or -u once s has turned against u, its direction
  when last seen moving (:attr:`JointFriction.refs`). At |s| <= REST_SPEED without a sense, d is opposite
  to the tendency, the slip acceleration without friction. N depends on the friction through the
  reaction, so the solve is a fixed point on e, iterated until it converges (FIXED_POINT_TOL),
  else a SimulationError naming the joint.
* stick: the channels are locked by extra rows G acc = gamma_G - 2 alpha G v (the rate held
  at 0, Baumgarte's velocity term removing round-off), their multipliers giving the friction
  needed, F = lam / a with e = -lam.

The modes change only at events located in time by solver/events.py (solver/friction_events.py:
slip -> stick where the slip velocity reaches zero, stick -> slip where the friction needed
reaches mu_s N); :meth:`JointFriction.project` then sets the stopped channels' rates to zero,
mass-orthogonally (a loss of kinetic energy counted as non-conservative work).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import kernels
from ..errors import SimulationError
from ..model.catalog import COORDINATES
from ..model.contacts import has_stiction
from ..model.joint_friction import GEOMETRY, has_friction, kinetic_coefficient
from ..numerics import friction_solve as compiled
from ..numerics.friction_solve import FIXED_POINT_ITER, FIXED_POINT_TOL, REST_SPEED, SLIP, STICK, STICK_SLACK
from ..numerics.jit import interpreting
from ..numerics.joints import eval_row, row_vectors
from .contact_friction import contact_patches
from .friction_pack import pack


@dataclass
class Contact:
    """One joint's friction: coefficients, lengths [m], its channels (indices into the channel
    arrays) and their lever arms [m or 1]."""

    joint: str  # the joint's name (a contact patch: its pair's)
    jk: int  # the joint's index (a contact patch: its index in ContactPatches)
    type: str
    mu_s: float
    mu_k: float
    length: float  # pin or contact length [m]; 0: the moment term is left out
    channels: np.ndarray
    arms: np.ndarray
    rows: np.ndarray  # the joint's constraint rows
    bi: int  # body_i's index (-1: ground)
    side: int  # the side (0 body_i, 1 body_j) whose load is the reaction: body_j's unless it is ground
    b: int  # that side's body index
    origin: np.ndarray  # the joint origin in that body's frame [m]
    axis: np.ndarray  # the joint z axis in body_i's frame


@dataclass
class Evaluation:
    """The friction-consistent solve at one state: Ydot, multipliers of the m constraint rows,
    potential [J], non-conservative power incl. friction [W], driver power [W], and per channel
    the friction effort [N m or N] and rate; per contact the load N [N], the power [W] and the
    mode."""

    Ydot: np.ndarray
    lam: np.ndarray
    V: float
    Pnc: float
    Pdrv: float
    effort: np.ndarray
    rate: np.ndarray
    rate_dot: np.ndarray
    normal: np.ndarray
    power: np.ndarray
    modes: np.ndarray
    phi: np.ndarray
    constraint_rate: np.ndarray


class JointFriction:
    """The friction contacts of a System and their modes (STICK or SLIP)."""

    compiled = True  # False: every solve takes the NumPy reference path (:meth:`reference_solve`)

    def __init__(self, system) -> None:
        self.system = system
        self.contacts: list[Contact] = []
        self.rotation_channels: list[tuple[int, int, int, np.ndarray]] = []  # (channel, bi, bj, axis on body i)
        self.row_channels: list[tuple[int, int, int, int, np.ndarray]] = []  # (channel, kind, bi, bj, row vectors)
        n = 0
        for jk, j in enumerate(system.model.joints):
            if has_friction(j):
                n = self._add_contact(jk, j, n)
        self.patches = contact_patches(system, n)  # contact pairs with stiction (system/contact_friction.py)
        if self.patches is not None:
            n = self._add_patches(self.patches)
        self.n_channels = n
        self.modes = np.full(len(self.contacts), SLIP, dtype=np.int64)
        self.senses = np.zeros(len(self.contacts))  # +-1: a one-channel contact's slip sense; 0: from s
        # several channels: the unit slip direction u when last seen moving (None: not yet)
        self.refs: list[np.ndarray | None] = [None] * len(self.contacts)
        self.started = False  # the modes were set at the start (:meth:`start`)
        self._last: tuple[float, np.ndarray, Evaluation] | None = None  # a solve to reuse (:meth:`solve_current`)
        self.arrays = pack(self)  # the compiled solve's arrays (numerics/friction_solve.py)
        self._multi = [k for k, c in enumerate(self.contacts) if len(c.channels) > 1]  # contacts with refs

    def _add_contact(self, jk: int, j, n: int) -> int:
        sys, geometry, f = self.system, GEOMETRY[j.type], j.friction
        frames = sys.joint_frames[jk]
        bi, bj = sys.body_index(j.body_i), sys.body_index(j.body_j)
        radius = float(getattr(f, geometry.radius)) if geometry.radius else 1.0
        length = getattr(f, geometry.length) if geometry.length else None
        channels, arms = [], []
        for name in geometry.channels:
            if name == "displacement":
                row = COORDINATES["displacement"].row
                self.row_channels.append((n, row[0], bi, bj, row_vectors(row, frames)[None]))
                channels.append(n), arms.append(1.0)
                n += 1
                continue
            for axis in ("zi",) if name == "angle" else ("xi", "yi", "zi"):
                self.rotation_channels.append((n, bi, bj, np.asarray(frames[axis], float)))
                channels.append(n), arms.append(radius)
                n += 1
        self.contacts.append(
            Contact(
                j.name,
                jk,
                j.type,
                float(f.mu_s),
                kinetic_coefficient(f),
                float(length or 0.0),
                np.array(channels),
                np.array(arms),
                np.nonzero(sys.row_owner == jk)[0],
                bi,
                1 if bj >= 0 else 0,
                bj if bj >= 0 else bi,
                np.asarray(frames["oj" if bj >= 0 else "oi"], float),
                np.asarray(frames["zi"], float),
            )  # fmt: skip
        )
        return n

    def _add_patches(self, patches) -> int:
        """The contact patches as contacts (type ``contact``, unit lever arms); returns the channel count."""
        for k, p in enumerate(patches.patches):
            none = np.zeros(0, dtype=int)
            self.contacts.append(
                Contact(
                    p.name,
                    k,
                    "contact",
                    p.mu_s,
                    p.mu_k,
                    0.0,
                    p.channels,
                    np.ones(len(p.channels)),
                    none,
                    p.bi,
                    0,
                    p.bi,
                    np.zeros(3),
                    np.zeros(3),
                )  # fmt: skip
            )
        return patches.n_channels

    # ------------------------------------------------------------------ kinematics of the channels
    def _channels(self, Y: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(G [n x 6N], gamma_G [n], rate [n]) of the channel rates at Y (rotations A)."""
        nb = self.system.nb
        G, gam, rate = np.zeros((self.n_channels, 6 * nb)), np.zeros(self.n_channels), np.zeros(self.n_channels)
        off = 7 * nb
        eye = np.eye(3)
        for c, bi, bj, u_local in self.rotation_channels:
            Ai = A[bi] if bi >= 0 else eye
            u = Ai @ u_local
            wi = Ai @ Y[off + 6 * bi + 3 : off + 6 * bi + 6] if bi >= 0 else np.zeros(3)
            wj = A[bj] @ Y[off + 6 * bj + 3 : off + 6 * bj + 6] if bj >= 0 else np.zeros(3)
            if bi >= 0:
                G[c, 6 * bi + 3 : 6 * bi + 6] -= u_local
            if bj >= 0:
                G[c, 6 * bj + 3 : 6 * bj + 6] += A[bj].T @ u
            gam[c] = -np.dot(_cross(wi, u), wj - wi)
            rate[c] = np.dot(u, wj - wi)
        jac = np.zeros((1, 2, 6))
        for c, kind, bi, bj, vecs in self.row_channels:
            _, gam[c], rate[c] = eval_row(0, kind, bi, bj, vecs, Y, nb, A, jac)
            for b, side in ((bi, 0), (bj, 1)):
                if b >= 0:
                    G[c, 6 * b : 6 * b + 6] += jac[0, side]
        if self.patches is not None:
            self.patches.evaluate(Y, A, G, gam, rate)
        return G, gam, rate

    def _load_map(self) -> np.ndarray:
        """P (6 contacts x m): the reactions [F; M in body frame] of the contacts' joints are
        P @ lam (the work arrays' Jacobian at the current state)."""
        jac, m = self.system.work.jac, len(self.system.row_owner)
        P = np.zeros((len(self.contacts), 6, m))
        for k, c in enumerate(self.contacts):
            P[k][:, c.rows] = -jac[c.rows, c.side, :].T
        return P.reshape(6 * len(self.contacts), m)

    def _normals(self, P: np.ndarray, lam: np.ndarray, A: np.ndarray) -> np.ndarray:
        """The contacts' loads N [N] from the multipliers lam (their first m: the joints' rows)."""
        loads = (P @ lam[: P.shape[1]]).reshape(-1, 6)
        return np.array([self._normal(c, load, A) for c, load in zip(self.contacts, loads)])

    def _normal(self, c: Contact, load: np.ndarray, A: np.ndarray) -> float:
        """The contact's load N [N] from its joint's reaction ``load`` [F; M in body frame]."""
        if c.type == "contact":  # the patch's normal force (contact_friction.py), not a reaction
            return float(self.patches.normals[c.jk])
        F, Ab = load[:3], A[c.b]
        M = Ab @ load[3:] - _cross(Ab @ c.origin, F)
        if c.type == "spherical":
            return math.sqrt(F @ F)
        z = A[c.bi] @ c.axis if c.bi >= 0 else c.axis
        F_perp = F - (F @ z) * z
        M_arm = M if c.type == "prismatic" else M - (M @ z) * z
        N = math.sqrt(F_perp @ F_perp)
        if c.length > 0.0:
            N += 2.0 * math.sqrt(M_arm @ M_arm) / c.length
        return N

    # ------------------------------------------------------------------ the solve
    def solve(self, t: float, Y: np.ndarray, modes: np.ndarray | None = None) -> Evaluation:
        """The friction-consistent accelerations at (t [s], Y) with the contacts' ``modes``
        (default: the current ones): the compiled solve (numerics/friction_solve.py), or the
        reference one while the kernels run interpreted, when :attr:`compiled` is off or when the
        Gram matrix needs a pseudo-inverse. Raises SimulationError when the fixed point fails."""
        modes = np.ascontiguousarray(self.modes if modes is None else modes, dtype=np.int64)
        Y = np.ascontiguousarray(Y, dtype=float)
        if self.compiled and not interpreting():
            ev = self._compiled_solve(t, Y, modes)
            if ev is not None:
                return ev
        return self.reference_solve(t, Y, modes)

    def _compiled_solve(self, t: float, Y: np.ndarray, modes: np.ndarray) -> Evaluation | None:
        """The compiled solve; None when it leaves the Gram matrix to the reference's pseudo-inverse."""
        sys = self.system
        state = self.kernel_state(modes)
        out = kernels.fast_call(compiled.friction_solve, float(t), Y, sys.static, sys.work, self.arrays, *state)
        return self.evaluation(out, t, modes)

    def kernel_state(self, modes: np.ndarray | None = None) -> tuple:
        """The modes' arguments of the compiled solve: (modes, senses, refs (contacts, 3), has_ref,
        and the stiction patches' arrays it fills: loads [N], frames, centres [m], radii [m])."""
        modes = self.modes if modes is None else modes
        refs, has_ref = np.zeros((len(self.contacts), 3)), np.zeros(len(self.contacts), np.int64)
        for k in self._multi:
            if self.refs[k] is not None:
                refs[k, : len(self.refs[k])], has_ref[k] = self.refs[k], 1
        p = self.patches
        kept = (p.normals, p.frames, p.centres, p.radii) if p is not None else _NO_PATCHES
        return (modes, self.senses, refs, has_ref, *kept)

    def evaluation(self, out: tuple, t: float, modes: np.ndarray) -> Evaluation | None:
        """The Evaluation of the compiled solve's output ``out`` at t [s] with ``modes``; None when
        it left the Gram matrix to the reference; SimulationError when its fixed point failed."""
        status, worst, V, Pnc, Pdrv, Ydot, lam, effort, rate, rate_dot, normal, power, phi, crate = out
        if status == compiled.ILL_CONDITIONED:
            return None
        if status == compiled.NOT_CONVERGED:
            raise _not_converged(self.contacts[worst], t)
        return Evaluation(Ydot, lam, V, Pnc, Pdrv, effort, rate, rate_dot, normal, power, modes.copy(), phi, crate)

    def reference_solve(self, t: float, Y: np.ndarray, modes: np.ndarray) -> Evaluation:
        """The solve of :meth:`solve` in NumPy (the reference of the compiled one)."""
        sys, S, W = self.system, self.system.static, self.system.work
        Y = np.ascontiguousarray(Y, dtype=float)
        phi, J, gamma, rate = sys.constraint_jacobian(t, Y)
        V, Pnc = kernels.fast_call(kernels.forces, float(t), Y, S, W, W.Q)
        Q, A, minv = W.Q.copy(), W.A, S.minv.reshape(-1)
        G, gam_g, rate_g = self._channels(Y, A)
        locked = np.concatenate([c.channels for c, m in zip(self.contacts, modes) if m == STICK] or [np.zeros(0, int)])
        R = np.vstack([J, G[locked]])
        target = np.concatenate(
            [gamma - 2.0 * S.alpha * rate - S.beta**2 * phi, gam_g[locked] - 2.0 * S.alpha * rate_g[locked]]
        )
        RM = R * minv
        Cp = _gram_inverse(RM @ R.T)

        def accelerations(e):
            Qt = Q + G.T @ e
            lam = Cp @ (RM @ Qt - target)
            return minv * (Qt - R.T @ lam), lam

        e = np.zeros(self.n_channels)
        acc, lam = accelerations(e)
        m = len(J)
        P = self._load_map()
        e = self._fixed_point(t, P, A, modes, G, rate_g, acc, lam, accelerations)
        acc, lam = accelerations(e)
        e[locked] = -lam[m:]
        power = np.array([float(e[c.channels] @ rate_g[c.channels]) for c in self.contacts])
        normal = self._normals(P, lam, A)
        return Evaluation(
            Ydot=_state_rates(sys.nb, Y, acc), lam=lam[:m], V=float(V), Pnc=float(Pnc + power.sum()),
            Pdrv=self._driver_power(t, lam[:m], rate), effort=e, rate=rate_g, rate_dot=G @ acc, normal=normal,
            power=power, modes=np.array(modes), phi=phi, constraint_rate=rate,
        )  # fmt: skip

    def _fixed_point(self, t, P, A, modes, G, rate_g, acc, lam, accelerations) -> np.ndarray:
        """The slip efforts consistent with the loads they cause (fixed-point iteration)."""
        slipping = [(k, c) for k, (c, mode) in enumerate(zip(self.contacts, modes)) if mode == SLIP]
        e = np.zeros(self.n_channels)
        if not slipping:
            return e
        tendency = G @ acc
        directions = []
        for k, c in slipping:
            s = c.arms * rate_g[c.channels]
            sense = self.senses[k]
            ref = self.refs[k]
            if sense != 0.0 and len(c.channels) == 1:
                directions.append(np.array([-sense]))
                continue
            if ref is not None and (float(ref @ s) <= 0.0 or np.linalg.norm(s) <= REST_SPEED):  # smooth extension
                directions.append(-ref)
                continue
            if np.linalg.norm(s) <= REST_SPEED:
                s = c.arms * tendency[c.channels]
            norm = np.linalg.norm(s)
            directions.append(-s / norm if norm > 0.0 else np.zeros_like(s))
        for _ in range(FIXED_POINT_ITER):
            new = np.zeros(self.n_channels)
            normal = self._normals(P, lam, A)
            for (k, c), d in zip(slipping, directions):
                new[c.channels] = c.arms * c.mu_k * normal[k] * d
            change = np.abs(new - e)
            if np.all(change <= FIXED_POINT_TOL * (np.max(np.abs(new)) + 1e-300)):
                return new
            e = new
            acc, lam = accelerations(e)
        worst = slipping[int(np.argmax([np.max(change[c.channels]) for _, c in slipping]))][1]
        raise _not_converged(worst, t)

    def _driver_power(self, t: float, lam: np.ndarray, rate: np.ndarray) -> float:
        """Driver power [W] of the multipliers (as numerics.schur.solve_multipliers)."""
        sys = self.system
        P = 0.0
        for r in np.nonzero(sys.static.row_prog >= 0)[0]:
            P -= lam[r] * (rate[r] + sys.programs[sys.static.row_prog[r]](t)[1])
        return float(P)

    # ------------------------------------------------------------------ modes
    def start(self, t: float, Y: np.ndarray) -> None:
        """Initial modes: a contact at rest (|s| <= REST_SPEED) that can stick sticks, the others
        slip (a one-channel one in the sense of its slip or its tendency); Y's stuck rates are
        projected to zero (no work of the run)."""
        self.modes[:], self.senses[:], self._last = SLIP, 0.0, None
        self.refs[:] = [None] * len(self.contacts)
        ev = self.solve(t, Y)
        for k, c in enumerate(self.contacts):
            if np.linalg.norm(self.slip(c, ev)) <= REST_SPEED and self.holds(k, t, Y):
                self.modes[k] = STICK
        if np.any(self.modes == STICK):
            self.project(t, Y)
        for k in np.nonzero(self.modes == SLIP)[0]:
            self.set_sense(int(k), t, Y)
        self.started = True

    def holds(self, k: int, t: float, Y: np.ndarray) -> bool:
        """Whether contact k, locked at (t, Y), needs at most mu_s N."""
        trial = self.modes.copy()
        trial[k] = STICK
        held = self.solve(t, Y, trial)
        return self.needed(self.contacts[k], held) <= self.contacts[k].mu_s * held.normal[k]

    def set_sense(self, k: int, t: float, Y: np.ndarray) -> None:
        """Contact k's slip sense (one channel): its slip's, or at rest its tendency's."""
        c = self.contacts[k]
        self.senses[k], self._last = 0.0, None
        if len(c.channels) > 1:
            return
        ev = self.solve(t, Y)
        s, e = float(self.slip(c, ev)[0]), float(ev.effort[c.channels][0])
        self.senses[k] = np.sign(s) if abs(s) > REST_SPEED or e == 0.0 else -np.sign(e)

    def margin(self, k: int, ev: Evaluation) -> float:
        """mu_s N - |F| [N] of sticking contact k (negative: it breaks away), with a round-off slack."""
        c = self.contacts[k]
        return c.mu_s * ev.normal[k] * (1.0 + STICK_SLACK) + 1e-12 - self.needed(c, ev)

    def solve_current(self, t: float, Y: np.ndarray) -> Evaluation:
        """:meth:`solve` with the current modes, reusing the last one kept (:meth:`keep`) when
        (t, Y) is its state and no mode changed since."""
        last = self._last
        if last is not None and last[0] == t and np.array_equal(last[1], Y):
            return last[2]
        return self.solve(t, Y)

    def keep(self, t: float, Y: np.ndarray, ev: Evaluation) -> None:
        """Keep ev, the solve at (t, Y) with the current modes, for :meth:`solve_current`."""
        self._last = (float(t), Y.copy(), ev)

    @staticmethod
    def slip(c: Contact, ev: Evaluation) -> np.ndarray:
        """Slip velocity [m/s] of contact c at the contact, per channel."""
        return c.arms * ev.rate[c.channels]

    @staticmethod
    def needed(c: Contact, ev: Evaluation) -> float:
        """|F| [N]: the friction force at the contact of its efforts."""
        return float(np.linalg.norm(ev.effort[c.channels] / c.arms))

    def project(self, t: float, Y: np.ndarray, extra: np.ndarray | None = None) -> float:
        """Velocities onto zero rate of the locked channels and ``extra`` channels, the constraint
        rates kept, mass-orthogonally (in place); returns the kinetic energy change [J] (<= 0)."""
        sys, S = self.system, self.system.static
        nb, minv = sys.nb, S.minv.reshape(-1)
        _, J, _, _ = sys.constraint_jacobian(t, Y)
        G = self._channels(Y, sys.work.A)[0]
        chosen = [c.channels for c, m in zip(self.contacts, self.modes) if m == STICK]
        locked = np.unique(np.concatenate([*chosen, np.zeros(0, int) if extra is None else extra]).astype(int))
        R = np.vstack([J, G[locked]])
        v = Y[7 * nb :]
        T0 = kernels.fast_call(kernels.kinetic_energy, S, Y)
        residual = np.concatenate([np.zeros(len(J)), G[locked] @ v])
        v -= minv * (R.T @ (_gram_inverse((R * minv) @ R.T) @ residual))
        self._last = None
        return float(kernels.fast_call(kernels.kinetic_energy, S, Y) - T0)

    def derivative(self, t: float, Y: np.ndarray) -> np.ndarray:
        """dY/dt (a new array) with the current modes."""
        return self.solve(t, Y).Ydot


_NO_PATCHES = (np.zeros(0), np.zeros((0, 3, 3)), np.zeros((0, 3)), np.zeros(0))


def _not_converged(worst: Contact, t: float) -> SimulationError:
    """The error of a fixed point that did not converge, naming the contact ``worst``."""
    return SimulationError(
        f"{described(worst)}: the friction load and the joint reaction did not converge "
        f"({FIXED_POINT_ITER} fixed-point iterations at t = {t:.6g} s); a smaller mu_k, pin radius or "
        "a longer pin makes the friction depend less on itself",
        time=float(t),
    )


def _gram_inverse(C: np.ndarray) -> np.ndarray:
    """The (pseudo-)inverse of the symmetric positive semi-definite matrix C = R M^-1 R^T: by
    inverse of its Cholesky factor when that shows it well conditioned (cond < 1e12), else the
    pseudo-inverse (redundant rows; rcond 1e-12, LAPACK's eigh: ten times the cost)."""
    if not len(C):
        return np.zeros((0, 0))
    try:
        L = np.linalg.cholesky(C)
    except np.linalg.LinAlgError:
        L = None
    d = np.diag(L) if L is not None else None
    if d is None or d.min() <= 1e-6 * d.max():
        return np.linalg.pinv(C, rcond=1e-12, hermitian=True)
    Linv = np.zeros_like(L)  # L^-1 by forward substitution: LAPACK's threaded getri spins on a busy machine
    for i in range(len(L)):
        Linv[i, i] = 1.0 / L[i, i]
        Linv[i, :i] = -(L[i, :i] @ Linv[:i, :i]) / L[i, i]
    return Linv.T @ Linv


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b of two 3-vectors (np.cross costs ~20 us a call)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _state_rates(nb: int, Y: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """dY/dt from the accelerations acc (6N): positions, quaternion rates 0.5 q (x) (0, w), acc."""
    Ydot = np.empty_like(Y)
    q = Y[: 7 * nb].reshape(nb, 7)
    v = Y[7 * nb :].reshape(nb, 6)
    d = Ydot[: 7 * nb].reshape(nb, 7)
    d[:, :3] = v[:, :3]
    w, qw, qv = v[:, 3:], q[:, 3], q[:, 4:]
    d[:, 3] = -0.5 * np.einsum("ij,ij->i", qv, w)
    cross = np.empty_like(w)  # qv x w (np.cross costs ~70 us a call here)
    cross[:, 0] = qv[:, 1] * w[:, 2] - qv[:, 2] * w[:, 1]
    cross[:, 1] = qv[:, 2] * w[:, 0] - qv[:, 0] * w[:, 2]
    cross[:, 2] = qv[:, 0] * w[:, 1] - qv[:, 1] * w[:, 0]
    d[:, 4:] = 0.5 * (qw[:, None] * w + cross)
    Ydot[7 * nb :] = acc
    return Ydot


def joint_friction(system) -> JointFriction | None:
    """The System's friction contacts, or None when no joint has friction and no contact pair
    has stiction."""
    stiction = any(has_stiction(c) for c in getattr(system.model, "contacts", []))
    return JointFriction(system) if stiction or any(has_friction(j) for j in system.model.joints) else None


def described(c: Contact) -> str:
    """``joint 'name'`` or ``contact 'name'`` (a contact patch), for messages."""
    return f"contact '{c.joint}'" if c.type == "contact" else f"joint '{c.joint}'"


def packed(ev: Evaluation) -> np.ndarray:
    """One results sample of the friction: [efforts (channels), N, mode, power (contacts)]."""
    return np.concatenate([ev.effort, ev.normal, ev.modes.astype(float), ev.power])


def unpacked(friction: JointFriction, rows: np.ndarray, joint: str) -> dict[str, np.ndarray]:
    """{effort (K, channels) [N m or N], normal (K,) [N], state (K,) 1 stick 0 slip, power (K,) [W]}
    of ``joint`` from packed samples (K, ...)."""
    names = [c.joint for c in friction.contacts]
    if joint not in names:
        raise KeyError(f"joint '{joint}' has no friction")
    k, n, nc = names.index(joint), friction.n_channels, len(friction.contacts)
    c = friction.contacts[k]
    return dict(
        effort=rows[:, c.channels], normal=rows[:, n + k], state=rows[:, n + nc + k], power=rows[:, n + 2 * nc + k]
    )
