"""Joint friction in the joint-coordinate RK4 of open trees (rk4_tree), in Numba: the slipping
joints' Coulomb efforts consistent with the loads they cause (docs/joint-friction.md).

A slipping joint b's friction is an effort tau_b [N m or N] on its coordinate, applied as a pair of
spatial forces on b and its parent (a couple about the axis z for a revolute joint; a force along
the line through the joint point P along z for a prismatic one, the body path's line of action).
Its magnitude a mu_k N comes from the joint's reaction: the spatial force its parent transmits to
b's subtree, f_b = IA_b a_b + pA_b after the articulated-body passes (the friction counted as an
external force on b, so f_b is the constraint force alone), read as force F and moment M about
the joint origin of the body whose load the body path takes (body_j's unless it is the ground):

    N = |F_perp| + 2 |M_arm| / L     (F_perp: F without its z part; M_arm: M without its z part,
                                      all of M on a prismatic joint; L = 0: no moment term)

Every quantity of the passes is affine in the efforts tau, so a stage runs them once without
friction and once per slipping joint with a unit effort, and the fixed point tau = -sense a mu_k
N(f(tau)) is iterated on the superposed reactions (the body path's convergence rule, FIXED_POINT_TOL,
at most FIXED_POINT_ITER iterations); the accelerations, drivers' power and friction power follow
by the same superposition. A sticking joint is not here: the stepper holds it as a fixed joint at
its angle (integrators/tree_friction.py)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import kernels
from ..numerics.friction_solve import FIXED_POINT_ITER, FIXED_POINT_TOL
from ..numerics.jit import njit
from .power import account_power
from .tree_kernel import articulated_passes, place_tree, write_body_state

TREE_NOT_CONVERGED = 3  # run status: a friction fixed point did not converge (after kernels' OK, SINGULAR, NOT_FINITE)

# per slipping contact: its tree body, its sense on the tree coordinate (+-1; 0: no friction), lever
# arm a [m, 1 for a slide], mu_k, length L [m] (0: no moment term), prismatic (bool), whether the
# body whose load counts is the tree's child (else its parent)
TreeFriction = namedtuple("TreeFriction", "body sense arm mu_k length prismatic on_child")
TreeFrictionWork = namedtuple("TreeFrictionWork", "IA0 pA0 C0 base resp qdd0 qddr drv tau new")


def new_friction_work(nb: int, ns: int) -> TreeFrictionWork:
    """Work arrays of :func:`friction_accelerations` for nb bodies and ns slipping contacts."""
    return TreeFrictionWork(
        IA0=np.zeros((nb, 6, 6)),
        pA0=np.zeros((nb, 6)),
        C0=np.zeros((nb, 6)),
        base=np.zeros((ns, 6)),
        resp=np.zeros((ns, ns, 6)),
        qdd0=np.zeros(nb),
        qddr=np.zeros((ns, nb)),
        drv=np.zeros(ns),
        tau=np.zeros(ns),
        new=np.zeros(ns),
    )


@njit(cache=True, inline="always")
def _axis_point(b, prismatic, TW, oc):
    """(z, P): joint b's unit axis and its point (the child's joint origin) [m]."""
    off = 3 if prismatic else 0
    z = (TW.S[b, off], TW.S[b, off + 1], TW.S[b, off + 2])
    A, x = TW.A, TW.x
    P = (
        x[b, 0] + A[b, 0, 0] * oc[b, 0] + A[b, 0, 1] * oc[b, 1] + A[b, 0, 2] * oc[b, 2],
        x[b, 1] + A[b, 1, 0] * oc[b, 0] + A[b, 1, 1] * oc[b, 1] + A[b, 1, 2] * oc[b, 2],
        x[b, 2] + A[b, 2, 0] * oc[b, 0] + A[b, 2, 1] * oc[b, 1] + A[b, 2, 2] * oc[b, 2],
    )
    return z, P


@njit(cache=True)
def _apply_effort(k, tau, F, T, TW) -> None:
    """Contact k's effort tau [N m or N] as external forces: +tau on its body, -tau on the parent."""
    b, prismatic = F.body[k], F.prismatic[k]
    (z0, z1, z2), (p0, p1, p2) = _axis_point(b, prismatic, TW, T.oc)
    if prismatic:  # a force tau z along the line through P: [P x tau z; tau z]
        f = (tau * (p1 * z2 - p2 * z1), tau * (p2 * z0 - p0 * z2), tau * (p0 * z1 - p1 * z0), tau * z0, tau * z1,
             tau * z2)  # fmt: skip
    else:  # a couple tau z
        f = (tau * z0, tau * z1, tau * z2, 0.0, 0.0, 0.0)
    p = T.parent[b]
    for r in range(6):
        TW.pA[b, r] -= f[r]
        if p >= 0:
            TW.pA[p, r] += f[r]


@njit(cache=True)
def _reaction(k, F, TW, out) -> None:
    """out = f_b = IA_b a_b + pA_b of contact k's body after the passes: the spatial force [n_O; f]
    its joint transmits to it (without the friction)."""
    b = F.body[k]
    for r in range(6):
        s = TW.pA[b, r]
        for c in range(6):
            s += TW.IA[b, r, c] * TW.a[b, c]
        out[r] = s


@njit(cache=True)
def _normal(k, F, T, TW, q, f) -> float:
    """Contact k's load N [N] from its joint's reaction f (the module docstring)."""
    b, prismatic = F.body[k], F.prismatic[k]
    (z0, z1, z2), (p0, p1, p2) = _axis_point(b, prismatic, TW, T.oc)
    if prismatic and not F.on_child[k]:  # the parent's joint origin: P less the displacement
        p0, p1, p2 = p0 - q[b] * z0, p1 - q[b] * z1, p2 - q[b] * z2
    f0, f1, f2 = f[3], f[4], f[5]
    m0 = f[0] - (p1 * f2 - p2 * f1)
    m1 = f[1] - (p2 * f0 - p0 * f2)
    m2 = f[2] - (p0 * f1 - p1 * f0)
    fz = f0 * z0 + f1 * z1 + f2 * z2
    r0, r1, r2 = f0 - fz * z0, f1 - fz * z1, f2 - fz * z2
    N = np.sqrt(r0 * r0 + r1 * r1 + r2 * r2)
    if F.length[k] > 0.0:
        mz = 0.0 if prismatic else m0 * z0 + m1 * z1 + m2 * z2
        m0, m1, m2 = m0 - mz * z0, m1 - mz * z1, m2 - mz * z2
        N += 2.0 * np.sqrt(m0 * m0 + m1 * m1 + m2 * m2) / F.length[k]
    return N


@njit(cache=True)
def _restore(TW, FW) -> None:
    """IA, pA, C as they were before the passes (the passes accumulate into them)."""
    TW.IA[:], TW.pA[:], TW.C[:] = FW.IA0, FW.pA0, FW.C0


@njit(cache=True)
def _responses(F, T, TW, FW, xv) -> float:
    """The passes without friction (FW.qdd0, FW.base: the reactions) and with each slipping
    contact's unit effort (FW.qddr, FW.resp, FW.drv: the changes per unit effort); returns the
    drivers' power without friction [W]."""
    ns = F.body.shape[0]
    FW.IA0[:], FW.pA0[:], FW.C0[:] = TW.IA, TW.pA, TW.C
    Pdrv = articulated_passes(T, TW, xv, FW.qdd0)
    for k in range(ns):
        _reaction(k, F, TW, FW.base[k])
    for j in range(ns):
        _restore(TW, FW)
        _apply_effort(j, 1.0, F, T, TW)
        FW.drv[j] = articulated_passes(T, TW, xv, FW.qddr[j]) - Pdrv
        for i in range(FW.qdd0.shape[0]):
            FW.qddr[j, i] -= FW.qdd0[i]
        for k in range(ns):
            _reaction(k, F, TW, FW.resp[j, k])
            for r in range(6):
                FW.resp[j, k, r] -= FW.base[k, r]
    return Pdrv


@njit(cache=True)
def _fixed_point(F, T, TW, FW, q) -> int:
    """The slipping efforts FW.tau consistent with their loads; returns -1, or the contact that
    changed most when FIXED_POINT_ITER iterations did not converge."""
    ns = F.body.shape[0]
    tau, new = FW.tau, FW.new
    f = np.empty(6)
    tau[:] = 0.0
    for _ in range(FIXED_POINT_ITER):
        largest = 0.0
        for k in range(ns):
            for r in range(6):
                s = FW.base[k, r]
                for j in range(ns):
                    s += FW.resp[j, k, r] * tau[j]
                f[r] = s
            new[k] = -F.sense[k] * F.arm[k] * F.mu_k[k] * _normal(k, F, T, TW, q, f)
            largest = max(largest, abs(new[k]))
        worst, change = -1, 0.0
        for k in range(ns):
            d = abs(new[k] - tau[k])
            if d > FIXED_POINT_TOL * (largest + 1e-300) and d > change:
                worst, change = k, d
        tau[:] = new
        if worst < 0:
            return -1
    return worst


@njit(cache=True)
def friction_accelerations(t, xq, xv, T, TW, S, F, FW, qdd) -> tuple[float, float, int]:
    """qdd of the tree at (t, xq, xv) with the slipping contacts' friction (module docstring);
    returns (non-conservative power incl. the friction's [W], drivers' power [W], -1 or the
    contact whose fixed point did not converge)."""
    Pnc = place_tree(t, xq, xv, T, TW, S)
    Pdrv = _responses(F, T, TW, FW, xv)
    worst = _fixed_point(F, T, TW, FW, xq)
    qdd[:] = FW.qdd0
    for j in range(F.body.shape[0]):
        tau = FW.tau[j]
        for i in range(qdd.shape[0]):
            qdd[i] += FW.qddr[j, i] * tau
        Pdrv += FW.drv[j] * tau
        Pnc += tau * xv[F.body[j]]
    return Pnc, Pdrv, worst


@njit(cache=True)
def _crossed(F, qd) -> bool:
    """Whether a slipping contact's slip along its sense turned negative (its event function)."""
    for k in range(F.body.shape[0]):
        if F.sense[k] * qd[F.body[k]] < 0.0:
            return True
    return False


@njit(cache=True)
def run_tree_friction(t, q, qd, h, nsteps, T, TW, S, F, FW, acc, Y, stop_at_events) -> tuple[int, int, int]:
    """Advance q, qd in place by ``nsteps`` RK4 steps of h [s] (as tree_kernel.run_tree) with the
    slipping contacts' friction, then write the bodies' state Y; with ``stop_at_events``, stop after
    the step where a slipping contact's slip turns against its sense. Returns (steps done, status,
    -1 or the contact whose fixed point did not converge)."""
    n = q.shape[0]
    kq, kv = np.empty((4, n)), np.empty((4, n))
    xq, xv = np.empty(n), np.empty(n)
    driven = np.any(T.drive >= 0)
    for step in range(nsteps):
        for stage in range(4):
            f = 0.0 if stage == 0 else (1.0 if stage == 3 else 0.5)
            for i in range(n):
                xq[i] = q[i] + f * h * kq[stage - 1, i] if stage > 0 else q[i]
                xv[i] = qd[i] + f * h * kv[stage - 1, i] if stage > 0 else qd[i]
            Pnc, Pdrv, worst = friction_accelerations(t + f * h, xq, xv, T, TW, S, F, FW, kv[stage])
            for i in range(n):
                kq[stage, i] = xv[i]
                if not np.isfinite(kv[stage, i]) or worst >= 0:
                    write_body_state(q, qd, T, TW, Y)
                    return step, (kernels.NOT_FINITE if worst < 0 else TREE_NOT_CONVERGED), worst
            if stage == 0:
                account_power(acc, t, Pdrv, Pnc)
        for i in range(n):
            q[i] += h / 6.0 * (kq[0, i] + 2.0 * kq[1, i] + 2.0 * kq[2, i] + kq[3, i])
            qd[i] += h / 6.0 * (kv[0, i] + 2.0 * kv[1, i] + 2.0 * kv[2, i] + kv[3, i])
        t += h
        if driven:  # their coordinates exactly on their profiles
            place_tree(t, q, qd, T, TW, S)
        if stop_at_events and _crossed(F, qd):
            write_body_state(q, qd, T, TW, Y)
            return step + 1, kernels.OK, -1
    write_body_state(q, qd, T, TW, Y)
    return nsteps, kernels.OK, -1
