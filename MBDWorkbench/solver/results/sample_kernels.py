"""The compiled parts of an output sample (results.Results.record and record_many): the joints'
reaction wrenches, the joint coordinates, and :func:`record_samples`, which evaluates K samples
in one compiled loop with the arithmetic of K calls of Results.record (System.evaluate, the
wrenches, the drivers' effort and power, the work integrals, the coordinates, contacts.csv's
values)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import OK, derivatives, kinetic_energy, normalize_quaternions_arrays
from ..numerics.forces import CONTACT
from ..numerics.jets import eval_jet
from ..numerics.jit import njit, njit_python_errors
from ..numerics.joints import body_side, row_terms
from ..numerics.loop_copies import copy_flat, copy_into, put_memory
from ..numerics.schur import CTL_DECIDE
from .contacts import contact_rows

if TYPE_CHECKING:
    from ..system.system import Static, Work


@njit_python_errors(cache=True)
def joint_wrenches(
    A: np.ndarray,
    jac: np.ndarray,
    lam: np.ndarray,
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
    """Reaction wrench that body_i exerts on body_j for every joint, from the rotations A, the
    row Jacobians jac and the multipliers lam (the work arrays of an evaluation): out[k] = [F
    global (3), T global about the joint origin (3), F joint (3), T joint (3)] in N and N m;
    the joint frame is the one carried by body_i."""
    out[:, :] = 0.0
    for r in range(row_owner.shape[0]):
        k = row_owner[r]
        if k >= nj:
            continue
        s = recv_side[k]
        for c in range(6):
            out[k, c] -= recv_sign[k] * jac[r, s, c] * lam[r]
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


@njit_python_errors(cache=True)
def joint_coordinates(
    kinds: np.ndarray,
    body_i: np.ndarray,
    body_j: np.ndarray,
    vecs: np.ndarray,
    angle: np.ndarray,
    Y: np.ndarray,
    nb: int,
    A: np.ndarray,
    dt: float,
    previous: np.ndarray,
    out: np.ndarray,
) -> None:
    """Value and rate of each joint coordinate c at one state Y with rotations A (nb, 3, 3),
    measured by the primitive row of local vectors vecs[c]: out[c] = (phi [rad or m], its rate
    without Phi_t). Angles (``angle[c]``) given in (-pi, pi] are put on the branch nearest to
    previous[c] (value, rate) of the sample ``dt`` [s] earlier advanced by the trapezoidal
    integral of the rate, so a joint turning by more than pi between two samples is still
    counted right (dt < 0: no earlier sample)."""
    for c in range(kinds.shape[0]):
        terms = row_terms(kinds[c], vecs, c, A, body_side(Y, nb, body_i[c]), body_side(Y, nb, body_j[c]))
        value, rate = terms[0].real, terms[6].real
        if angle[c] and dt >= 0.0:
            predicted = previous[c, 0] + 0.5 * (previous[c, 1] + rate) * dt
            value += 2.0 * np.pi * np.rint((predicted - value) / (2.0 * np.pi))
        out[c, 0] = value
        out[c, 1] = rate


@njit(cache=True, refcounts=False)  # takes S and W once a sample: no reference counts (jit.py)
def _evaluate(t: float, Y: np.ndarray, S: Static, W: Work, Ydot: np.ndarray, saved: tuple) -> tuple:
    """System.evaluate's compiled part at (t, Y normalised in place): the derivatives with the kept
    rows decided again, the rank state (keep, keep_prev, ref, ctl, y_near: 1-d) left as it was.
    Returns (status, V [J], Pnc [W], Pdrv [W], whether every row was kept)."""
    keep, keep_prev, ref, ctl, y_near = saved
    copy_into(keep, W.keep)
    copy_into(keep_prev, W.keep_prev)
    copy_into(ref, W.ref)
    copy_into(ctl, W.ctl)
    copy_into(y_near, W.y_near)
    W.ctl[CTL_DECIDE] = 1.0
    status, V, Pnc, Pdrv = derivatives(t, Y, S, W, Ydot)
    all_kept = True
    for r in range(W.keep.shape[0]):
        if W.keep[r] != 1:
            all_kept = False
    copy_into(W.keep, keep)
    copy_into(W.keep_prev, keep_prev)
    copy_into(W.ref, ref)
    copy_into(W.ctl, ctl)
    copy_into(W.y_near, y_near)
    return status, V, Pnc, Pdrv, all_kept


@njit(cache=True, inline="always")
def sampled(k, t, Y, Yk, acc, powers, S, W, owners, reactions, coordinates, contacts, drivers, t_prev, prev, out):
    """Sample k's columns after its evaluation at (t[k] [s], Yk: Y[k] normalised), whose rotations,
    Jacobian, multipliers and constraint rates are in W: the energies (T, V [J] = powers[0], the work
    integrals with the powers Pnc, Pdrv [W] = powers[1:]), the joints' wrenches, the drivers' effort
    and power, the joint coordinates (against ``prev``, those at t_prev [s]) and contacts.csv's
    values, into ``out`` (:func:`record_samples`' layout)."""
    energies, wrench, effort, power, coordinate, contact = out[4:]
    row_owner, nj = owners
    pair_of, sign = contacts
    V, Pnc, Pdrv = powers
    energies[k, 0], energies[k, 1] = kinetic_energy(S, Yk), V
    joint_wrenches(W.A, W.jac, W.lam, row_owner, nj, *reactions, wrench[k])
    for d in range(drivers.shape[0]):
        r = drivers[d]
        fd = eval_jet(S.row_prog[r], t[k], S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                      S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)[1]  # fmt: skip
        effort[k, d] = -W.lam[r]
        power[k, d] = effort[k, d] * (W.rate[r] + fd)
    Wd, Wn = acc[k, 3], acc[k, 4]
    if acc[k, 5] > 0:
        Wd += 0.5 * (t[k] - acc[k, 0]) * (acc[k, 1] + Pdrv)
        Wn += 0.5 * (t[k] - acc[k, 0]) * (acc[k, 2] + Pnc)
    energies[k, 2], energies[k, 3] = Wd, Wn
    dt = t[k] - t_prev if t_prev == t_prev else -1.0
    joint_coordinates(*coordinates, Y[k], S.nb, W.A, dt, prev, coordinate[k])
    if pair_of.shape[0]:
        args = (S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag, S.force_start[CONTACT])
        contact_rows(Y[k], S.nb, W.A, *args, pair_of, sign, contact[k])


@njit(cache=True, refcounts=False)  # its inlined helpers take S and W once a sample: no reference counts (jit.py)
def record_samples(
    start, t, Y, acc, S, W, owners, reactions, coordinates, contacts, drivers, previous, memory, out, scratch
) -> int:
    """Samples start.. of (t (K,) [s], Y (K, n), acc (K, 6): the work integrals) evaluated as
    Results.record evaluates them without given multipliers, into ``out`` = (Ydot, lam, phi, rate,
    energies (K, 4): T, V, Wd, Wn [J], wrench (K, joints, 12), effort, power (K, drivers),
    coordinate (K, coordinates, 2), contact (K, pairs, 11) zeros on entry). ``owners`` =
    (row_owner, joints); ``reactions``, ``coordinates``, ``contacts``: the layouts of
    joint_wrenches, joint_coordinates and contact_rows; ``drivers``: the drivers' rows;
    ``previous`` = (t [s] of the sample before (NaN: none), its coordinates (c, 2)); ``memory``
    (K, elements, 2, 3) or (0, ...): the force elements' memory S.force_vecs[:, 3:5] at each sample's
    time (the fast path's, solver/sample_path.py), put in place before its evaluation. Stops before
    a sample whose evaluation is not the plain one (not OK, or rows dropped: the minimum-norm
    multipliers), the force elements' state (impact speeds, peaks, unwrapped angles) and the
    rank state as before it; returns that sample's index (K when all are done). ``scratch``
    (:func:`record_scratch`): nothing is allocated here."""
    Ydot, lam, phi, rate, coordinate = out[0], out[1], out[2], out[3], out[8]
    nb = S.nb
    saved, Yk, Ydot_k, force_vecs, row_vecs = scratch
    t_prev, prev = previous
    for k in range(start, t.shape[0]):
        copy_into(Yk, Y[k])
        normalize_quaternions_arrays(nb, Yk)
        if memory.shape[0]:
            put_memory(S.force_vecs, memory[k])
        copy_flat(force_vecs, S.force_vecs)  # the elements' state before this sample
        copy_flat(row_vecs, S.row_vecs)
        status, V, Pnc, Pdrv, all_kept = _evaluate(t[k], Yk, S, W, Ydot_k, saved)
        if status != OK or not all_kept:
            copy_flat(S.force_vecs, force_vecs)
            copy_flat(S.row_vecs, row_vecs)
            return k
        copy_into(Ydot[k], Ydot_k)
        copy_into(lam[k], W.lam)
        copy_into(phi[k], W.phi)
        copy_into(rate[k], W.rate)
        powers = (V, Pnc, Pdrv)
        sampled(k, t, Y, Yk, acc, powers, S, W, owners, reactions, coordinates, contacts, drivers, t_prev, prev, out)
        t_prev, prev = t[k], coordinate[k]
    return t.shape[0]


def record_scratch(S, W, n: int) -> tuple:
    """:func:`record_samples`' scratch for states of size n: copies of the rank state (W's keep,
    keep_prev, ref, ctl, y_near), a state and its derivative, copies of S.force_vecs and S.row_vecs."""
    saved = (W.keep.copy(), W.keep_prev.copy(), W.ref.copy(), W.ctl.copy(), W.y_near.copy())
    return saved, np.empty(n), np.empty(n), S.force_vecs.copy(), S.row_vecs.copy()


@njit(cache=True)
def first_bad_sample(Y: np.ndarray, lam: np.ndarray, phi: np.ndarray, limit: float) -> tuple[int, int]:
    """(the first row k of Y (K, n), lam (K, m), phi (K, m) whose state or multipliers are not finite
    (1) or whose constraint violation |phi| exceeds ``limit`` (2), that reason); (-1, 0) if none."""
    for k in range(Y.shape[0]):
        for i in range(Y.shape[1]):
            if not np.isfinite(Y[k, i]):
                return k, 1
        for i in range(lam.shape[1]):
            if not np.isfinite(lam[k, i]):
                return k, 1
        for i in range(phi.shape[1]):
            if abs(phi[k, i]) > limit:
                return k, 2
    return -1, 0
