"""Coulomb joint friction with true stiction in the ODE form (docs/joint-friction.md).

Each joint with friction is a *contact*: a load N [N] from the joint's own reaction
(model.joint_friction) and one or more *channels*, relative rates with a lever arm a (the
radius of a rotation, 1 for a translation): the slip velocity at the contact is
s_k = a_k rate_k [m/s] and the friction force there F (|F| <= mu N) acts on the channel
coordinate as the effort e_k = a_k F_k [N m or N].

Every evaluation solves the KKT system M acc + J^T lam = Q + G^T e, J acc = gamma* (the
kernels' Baumgarte gamma*, [R1]) densely, with the contact's mode:

* slip: e from F = mu_k N d, d = -s / |s| (at |s| <= REST_SPEED: opposite to the tendency,
  the slip acceleration without friction). N depends on the friction through the reaction,
  so the solve is a fixed point on e, iterated until it converges (FIXED_POINT_TOL), else a
  SimulationError naming the joint.
* stick: the channels are locked by extra rows G acc = gamma_G - 2 alpha G v (the rate held
  at 0, Baumgarte's velocity term removing round-off), their multipliers giving the friction
  needed, F = lam / a with e = -lam.

The modes change only at accepted states (:meth:`JointFriction.accepted`, Leine's switch
model with a state): a sticking contact slips when |F| > mu_s N; a slipping one sticks when
its slip velocity has reversed (or is at rest) and the friction needed to hold it is at most
mu_s N: the velocities are then projected mass-orthogonally onto the locked rates (a loss of
kinetic energy counted as non-conservative work, :attr:`JointFriction.projection_work`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import kernels
from ..errors import SimulationError
from ..model.catalog import COORDINATES
from ..model.joint_friction import GEOMETRY, has_friction, kinetic_coefficient
from ..numerics.joints import eval_row, row_vectors

STICK, SLIP = 1, 0
REST_SPEED = 1e-9  # [m/s] slip speed below which a contact is at rest
FIXED_POINT_TOL = 1e-10  # relative change of the friction efforts at which the fixed point has converged
FIXED_POINT_ITER = 100
STICK_SLACK = 1e-9  # relative margin on mu_s N before a sticking contact breaks away


@dataclass
class Contact:
    """One joint's friction: coefficients, lengths [m], its channels (indices into the channel
    arrays) and their lever arms [m or 1]."""

    joint: str
    jk: int
    type: str
    mu_s: float
    mu_k: float
    length: float  # pin or contact length [m]; 0: the moment term is left out
    channels: np.ndarray
    arms: np.ndarray
    rows: np.ndarray  # the joint's constraint rows
    last_slip: np.ndarray | None = field(default=None)


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

    def __init__(self, system) -> None:
        self.system = system
        self.contacts: list[Contact] = []
        self._rot: list[tuple[int, int, int, np.ndarray]] = []  # (channel, bi, bj, axis on body i)
        self._rows: list[tuple[int, int, int, int, np.ndarray]] = []  # (channel, kind, bi, bj, row vectors)
        n = 0
        for jk, j in enumerate(system.model.joints):
            if has_friction(j):
                n = self._add_contact(jk, j, n)
        self.n_channels = n
        self.modes = np.full(len(self.contacts), SLIP, dtype=np.int64)
        self.projection_work = 0.0  # [J] kinetic energy removed by stick projections, not yet accounted
        self._last: tuple[float, np.ndarray, Evaluation] | None = None  # the last accepted state's solve

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
                self._rows.append((n, row[0], bi, bj, row_vectors(row, frames)[None]))
                channels.append(n), arms.append(1.0)
                n += 1
                continue
            for axis in ("zi",) if name == "angle" else ("xi", "yi", "zi"):
                self._rot.append((n, bi, bj, np.asarray(frames[axis], float)))
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
            )  # fmt: skip
        )
        return n

    # ------------------------------------------------------------------ kinematics of the channels
    def _channels(self, Y: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(G [n x 6N], gamma_G [n], rate [n]) of the channel rates at Y (rotations A)."""
        nb = self.system.nb
        G, gam, rate = np.zeros((self.n_channels, 6 * nb)), np.zeros(self.n_channels), np.zeros(self.n_channels)
        off = 7 * nb
        eye = np.eye(3)
        for c, bi, bj, u_local in self._rot:
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
        for c, kind, bi, bj, vecs in self._rows:
            _, gam[c], rate[c] = eval_row(0, kind, bi, bj, vecs, Y, nb, A, jac)
            for b, side in ((bi, 0), (bj, 1)):
                if b >= 0:
                    G[c, 6 * b : 6 * b + 6] += jac[0, side]
        return G, gam, rate

    def _normal(self, c: Contact, lam: np.ndarray, Y: np.ndarray, A: np.ndarray) -> float:
        """The contact's load N [N] from the multipliers of its joint's rows (work arrays' Jacobian)."""
        sys, W = self.system, self.system.work
        j, frames = sys.model.joints[c.jk], sys.joint_frames[c.jk]
        bi, bj = sys.body_index(j.body_i), sys.body_index(j.body_j)
        side, b = (1, bj) if bj >= 0 else (0, bi)
        load = -(W.jac[c.rows, side, :] * lam[c.rows, None]).sum(axis=0)
        F, Ab = load[:3], A[b]
        M = Ab @ load[3:] - _cross(Ab @ np.asarray(frames["oj" if side else "oi"], float), F)
        if c.type == "spherical":
            return float(np.linalg.norm(F))
        z = (A[bi] @ frames["zi"]) if bi >= 0 else np.asarray(frames["zi"], float)
        F_perp = F - np.dot(F, z) * z
        M_arm = M if c.type == "prismatic" else M - np.dot(M, z) * z
        N = float(np.linalg.norm(F_perp))
        if c.length > 0.0:
            N += 2.0 * float(np.linalg.norm(M_arm)) / c.length
        return N

    # ------------------------------------------------------------------ the solve
    def solve(self, t: float, Y: np.ndarray, modes: np.ndarray | None = None) -> Evaluation:
        """The friction-consistent accelerations at (t [s], Y) with the contacts' ``modes``
        (default: the current ones). Raises SimulationError when the fixed point fails."""
        sys, S, W = self.system, self.system.static, self.system.work
        modes = self.modes if modes is None else modes
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
        Cp = np.linalg.pinv(RM @ R.T, rcond=1e-12, hermitian=True) if len(R) else np.zeros((0, 0))

        def accelerations(e):
            Qt = Q + G.T @ e
            lam = Cp @ (RM @ Qt - target)
            return minv * (Qt - R.T @ lam), lam

        e = np.zeros(self.n_channels)
        acc, lam = accelerations(e)
        m = len(J)
        e = self._fixed_point(t, Y, A, modes, G, rate_g, acc, lam, m, locked, accelerations)
        acc, lam = accelerations(e)
        e[locked] = -lam[m:]
        power = np.array([float(e[c.channels] @ rate_g[c.channels]) for c in self.contacts])
        normal = np.array([self._normal(c, lam, Y, A) for c in self.contacts])
        return Evaluation(
            Ydot=_state_rates(sys.nb, Y, acc), lam=lam[:m], V=float(V), Pnc=float(Pnc + power.sum()),
            Pdrv=self._driver_power(t, lam[:m], rate), effort=e, rate=rate_g, rate_dot=G @ acc, normal=normal,
            power=power, modes=np.array(modes), phi=phi, constraint_rate=rate,
        )  # fmt: skip

    def _fixed_point(self, t, Y, A, modes, G, rate_g, acc, lam, m, locked, accelerations) -> np.ndarray:
        """The slip efforts consistent with the loads they cause (fixed-point iteration)."""
        slipping = [c for c, mode in zip(self.contacts, modes) if mode == SLIP]
        e = np.zeros(self.n_channels)
        if not slipping:
            return e
        tendency = G @ acc
        directions = []
        for c in slipping:
            s = c.arms * rate_g[c.channels]
            if np.linalg.norm(s) <= REST_SPEED:
                s = c.arms * tendency[c.channels]
            norm = np.linalg.norm(s)
            directions.append(-s / norm if norm > 0.0 else np.zeros_like(s))
        for _ in range(FIXED_POINT_ITER):
            new = np.zeros(self.n_channels)
            for c, d in zip(slipping, directions):
                new[c.channels] = c.arms * c.mu_k * self._normal(c, lam, Y, A) * d
            change = np.abs(new - e)
            if np.all(change <= FIXED_POINT_TOL * (np.max(np.abs(new)) + 1e-300)):
                return new
            e = new
            acc, lam = accelerations(e)
        worst = slipping[int(np.argmax([np.max(change[c.channels]) for c in slipping]))]
        raise SimulationError(
            f"joint '{worst.joint}': the friction load and the joint reaction did not converge "
            f"({FIXED_POINT_ITER} fixed-point iterations at t = {t:.6g} s); a smaller mu_k, pin radius or "
            "a longer pin makes the friction depend less on itself",
            time=float(t),
        )

    def _driver_power(self, t: float, lam: np.ndarray, rate: np.ndarray) -> float:
        """Driver power [W] of the multipliers (as numerics.schur.solve_multipliers)."""
        sys = self.system
        P = 0.0
        for r in np.nonzero(sys.static.row_prog >= 0)[0]:
            P -= lam[r] * (rate[r] + sys.programs[sys.static.row_prog[r]](t)[1])
        return float(P)

    # ------------------------------------------------------------------ modes
    def start(self, t: float, Y: np.ndarray) -> None:
        """Initial modes: every contact slipping, then those at rest that can stick stick."""
        self.modes[:] = SLIP
        for c in self.contacts:
            c.last_slip = None
        self.accepted(t, Y)
        self.projection_work = 0.0  # the start's projection is no work of the run

    def accepted(self, t: float, Y: np.ndarray, horizon: float = 0.0) -> bool:
        """Switch the modes at the accepted state (t [s], Y) and project Y's velocities onto the
        newly locked rates (in place). A slipping contact is tested for stick when its slip
        velocity has reversed since the last accepted state, is at rest, or would reverse within
        ``horizon`` [s] (the next fixed step: a fixed-step scheme's stages could otherwise straddle
        the reversal at every step and never see it). Returns whether a mode changed."""
        ev = self.solve(t, Y)
        changed, newly = False, []
        for k, c in enumerate(self.contacts):
            s = c.arms * ev.rate[c.channels]
            if self.modes[k] == STICK:
                if self._needed(c, ev) > c.mu_s * ev.normal[k] * (1.0 + STICK_SLACK) + 1e-12:
                    self.modes[k], changed = SLIP, True
            elif self._reverses(c, s, ev, horizon):
                trial = self.modes.copy()
                trial[k] = STICK
                held = self.solve(t, Y, trial)
                if self._needed(c, held) <= c.mu_s * held.normal[k]:
                    self.modes[k], changed = STICK, True
                    newly.append(c)
            c.last_slip = s
        if newly:
            self._project(t, Y)
        self._last = None if changed else (float(t), Y.copy(), ev)
        return changed

    def solve_current(self, t: float, Y: np.ndarray) -> Evaluation:
        """:meth:`solve` with the current modes, reusing the last accepted state's solve when (t, Y)
        is that state and no mode changed since."""
        last = self._last
        if last is not None and last[0] == t and np.array_equal(last[1], Y):
            return last[2]
        return self.solve(t, Y)

    @staticmethod
    def _reverses(c: Contact, s: np.ndarray, ev: Evaluation, horizon: float) -> bool:
        """Whether slip velocity s of contact c is at rest, has reversed, or reverses within horizon [s]."""
        if np.linalg.norm(s) <= REST_SPEED or (c.last_slip is not None and np.dot(c.last_slip, s) <= 0.0):
            return True
        return horizon > 0.0 and np.dot(s, s + horizon * c.arms * ev.rate_dot[c.channels]) <= 0.0

    @staticmethod
    def _needed(c: Contact, ev: Evaluation) -> float:
        """|F| [N]: the friction force at the contact of its efforts."""
        return float(np.linalg.norm(ev.effort[c.channels] / c.arms))

    def _project(self, t: float, Y: np.ndarray) -> None:
        """Velocities onto the locked channels (rates 0), the constraint rates kept, mass-orthogonally."""
        sys, S = self.system, self.system.static
        nb, minv = sys.nb, S.minv.reshape(-1)
        _, J, _, _ = sys.constraint_jacobian(t, Y)
        G = self._channels(Y, sys.work.A)[0]
        locked = np.concatenate([c.channels for c, m in zip(self.contacts, self.modes) if m == STICK])
        R = np.vstack([J, G[locked]])
        v = Y[7 * nb :]
        T0 = kernels.fast_call(kernels.kinetic_energy, S, Y)
        residual = np.concatenate([np.zeros(len(J)), G[locked] @ v])
        v -= minv * (R.T @ (np.linalg.pinv((R * minv) @ R.T, rcond=1e-12, hermitian=True) @ residual))
        self.projection_work += kernels.fast_call(kernels.kinetic_energy, S, Y) - T0

    def take_projection_work(self) -> float:
        """The work [J] (<= 0) of the stick projections since the last call."""
        w, self.projection_work = self.projection_work, 0.0
        return w

    def derivative(self, t: float, Y: np.ndarray) -> np.ndarray:
        """dY/dt (a new array) with the current modes."""
        return self.solve(t, Y).Ydot


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
    d[:, 4:] = 0.5 * (qw[:, None] * w + np.cross(qv, w))
    Ydot[7 * nb :] = acc
    return Ydot


def joint_friction(system) -> JointFriction | None:
    """The System's friction contacts, or None when no joint has friction."""
    return JointFriction(system) if any(has_friction(j) for j in system.model.joints) else None


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
