"""Results.record_many's compiled loop on a model with joint friction (issue 33 item 7): each sample
evaluated by the compiled friction solve (numerics/friction_solve.py) at the modes of the run, as
Results.record evaluates it (System.evaluate: JointFriction.solve_current), then its columns
as record_samples fills them (results.sample_kernels.sampled) and the friction column
(system.friction.packed: efforts, loads N, modes, powers)."""

from __future__ import annotations

import numpy as np

from ..kernels import normalize_quaternions_arrays
from ..numerics.friction_solve import SOLVED, friction_solve
from ..numerics.jit import njit
from .sample_kernels import sampled


@njit(cache=True)
def _packed(ev, modes, row) -> None:
    """system.friction.packed of the friction solve's output ``ev`` with ``modes`` into ``row``."""
    effort, normal, power = ev[7], ev[10], ev[11]
    nch, nc = effort.shape[0], normal.shape[0]
    row[:nch] = effort
    row[nch : nch + nc] = normal
    for k in range(nc):
        row[nch + nc + k] = float(modes[k])
    row[nch + 2 * nc :] = power


@njit(cache=True)
def record_friction_samples(
    start, t, Y, acc, S, W, F, state, owners, reactions, coordinates, contacts, drivers, previous, memory, out,
    friction,
) -> int:  # fmt: skip
    """record_samples (results.sample_kernels) with each sample's evaluation the friction solve with
    the arrays F and the modes' ``state`` (JointFriction.kernel_state); ``friction`` (K, columns):
    the friction column. Stops before a sample whose solve is not SOLVED (record then takes the
    reference solve, or raises), the force elements' state as before it; returns its index (K
    when all are done)."""
    Ydot, lam, phi, rate, coordinate = out[0], out[1], out[2], out[3], out[8]
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    Yk = np.empty(Y.shape[1])
    force_vecs, row_vecs = S.force_vecs.copy(), S.row_vecs.copy()
    t_prev, prev = previous
    for k in range(start, t.shape[0]):
        Yk[:] = Y[k]
        normalize_quaternions_arrays(S.nb, Yk)
        if memory.shape[0]:
            S.force_vecs[:, 3:5, :] = memory[k]
        force_vecs[:], row_vecs[:] = S.force_vecs, S.row_vecs  # the elements' state before this sample
        ev = friction_solve(t[k], Yk, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)
        if ev[0] != SOLVED:
            S.force_vecs[:], S.row_vecs[:] = force_vecs, row_vecs
            return k
        W.lam[:] = ev[6]
        Ydot[k], lam[k], phi[k], rate[k] = ev[5], ev[6], ev[12], ev[13]
        powers = (ev[2], ev[3], ev[4])
        sampled(k, t, Y, Yk, acc, powers, S, W, owners, reactions, coordinates, contacts, drivers, t_prev, prev, out)
        t_prev, prev = t[k], coordinate[k]
        _packed(ev, modes, friction[k])
    return t.shape[0]
