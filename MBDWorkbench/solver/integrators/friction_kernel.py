"""The fixed-step schemes on the compiled friction solve (integrators/friction.py): euler,
symplectic_euler and rk4 steps with the contacts' modes frozen, in one compiled call per
advance, so the solver's arrays are handed over once rather than once per evaluation (each
hand-over unboxes about a hundred arrays: ~30 us, five times the solve of a small model)."""

import numpy as np

from ..kernels import NOT_FINITE, OK, normalize_quaternions_arrays
from ..numerics.friction_solve import SOLVED, event_values, friction_solve
from ..numerics.jit import njit
from ..numerics.quaternion import rotate_by_body_vector
from .power import account_power


@njit(cache=True)
def _rates(t, Y, S, W, F, state):
    """(status, worst contact, Pnc [W], Pdrv [W], dY/dt) of the friction solve at (t, Y)."""
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    out = friction_solve(t, Y, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)
    return out[0], out[1], out[3], out[4], out[5]


@njit(cache=True)
def symplectic_euler_update(Y, h, k0, nb):
    """Symplectic Euler: velocities first, then positions and rotations with the new velocities."""
    off = 7 * nb
    Y[off:] += h * k0[off:]
    for b in range(nb):
        Y[7 * b : 7 * b + 3] += h * Y[off + 6 * b : off + 6 * b + 3]
        q = Y[7 * b + 3 : 7 * b + 7].copy()
        rotate_by_body_vector(q, h * Y[off + 6 * b + 3 : off + 6 * b + 6], Y[7 * b + 3 : 7 * b + 7])


@njit(cache=True)
def _rk4(t, h, Y, S, W, F, state, k0):
    """(status, worst contact, the rk4 increment of Y) from k0, its rate at (t, Y)."""
    status, worst, _, _, k1 = _rates(t + 0.5 * h, Y + 0.5 * h * k0, S, W, F, state)
    if status != SOLVED:
        return status, worst, k0
    status, worst, _, _, k2 = _rates(t + 0.5 * h, Y + 0.5 * h * k1, S, W, F, state)
    if status != SOLVED:
        return status, worst, k0
    status, worst, _, _, k3 = _rates(t + h, Y + h * k2, S, W, F, state)
    return status, worst, h / 6.0 * (k0 + 2.0 * k1 + 2.0 * k2 + k3)


@njit(cache=True)
def _crossed(g0, g1):
    """Whether an event function went from >= 0 to < 0 (the events' check: sign changes only)."""
    for k in range(g1.shape[0]):
        if g1[k] < 0.0 <= g0[k]:
            return True
    return False


@njit(cache=True)
def friction_steps(t, t_next, n, h, method, Y, S, W, F, state, acc, stop_at_events):
    """``n`` steps of ``h`` [s] of euler (method 0), symplectic_euler (1) or rk4 (2) from t to
    t_next [s] on the friction solve (state: the modes, senses, refs, has_ref and the patches'
    arrays of friction_solve); Y and the work integrals ``acc`` updated in place. With
    ``stop_at_events``, it stops after the first step at whose end a contact's event function
    changed sign (or needs the events' check: :func:`.event_values`). Returns (status, worst
    contact, steps done, time reached [s], the friction solve's output there): status OK,
    NOT_FINITE, or the solve's (ILL_CONDITIONED, NOT_CONVERGED at that time) with Y at the
    start of the step it stopped in."""
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    cur = friction_solve(t, Y, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)
    return steps_from(cur, t, t_next, n, h, method, Y, S, W, F, state, acc, stop_at_events)


@njit(cache=True)
def steps_from(cur, t, t_next, n, h, method, Y, S, W, F, state, acc, stop_at_events):
    """:func:`friction_steps` given ``cur``, the friction solve's output at (t, Y) (the last
    call's at the state it reached: integrators/friction_samples.py)."""
    nb = S.nb
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    done, g0 = 0, np.zeros(0)
    while True:
        if done > 0:
            cur = friction_solve(t, Y, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)
        if cur[0] != SOLVED:
            return cur[0], cur[1], done, t, cur
        if stop_at_events:
            g, unset = event_values(F, modes, senses, refs, has_ref, cur[7], cur[8], cur[10])
            if done > 0 and (unset or _crossed(g0, g)):
                return OK, -1, done, t, cur
            g0 = g
        if done == n:
            return OK, -1, done, t, cur
        account_power(acc, t, cur[4], cur[3])
        k0 = cur[5]
        if method == 0:
            Y += h * k0
        elif method == 1:
            symplectic_euler_update(Y, h, k0, nb)
        else:
            status, worst, dY = _rk4(t, h, Y, S, W, F, state, k0)
            if status != SOLVED:
                return status, worst, done, t, cur
            Y += dY
        normalize_quaternions_arrays(nb, Y)
        if not np.all(np.isfinite(Y)):
            return NOT_FINITE, -1, done, t, cur
        done += 1
        t = t + h if done < n else t_next
