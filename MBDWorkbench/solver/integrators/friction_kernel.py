"""The fixed-step schemes on the compiled friction solve (integrators/friction.py): euler,
symplectic_euler and rk4 steps with the contacts' modes frozen, in one compiled call per
advance, so the solver's arrays are handed over once rather than once per evaluation (each
hand-over unboxes about a hundred arrays: ~30 us, five times the solve of a small model)."""

import numpy as np

from ..kernels import NOT_FINITE, OK, normalize_quaternions_arrays
from ..numerics.friction_solve import SOLVED, evaluate, event_values_into, friction_derivative, packed
from ..numerics.jit import njit
from ..numerics.quaternion import rotate_by_body_vector
from .power import account_power


@njit(cache=True)
def symplectic_euler_update(Y, h, k0, nb):
    """Symplectic Euler: velocities first, then positions and rotations with the new velocities."""
    off = 7 * nb
    Y[off:] += h * k0[off:]
    for b in range(nb):
        Y[7 * b : 7 * b + 3] += h * Y[off + 6 * b : off + 6 * b + 3]
        q = Y[7 * b + 3 : 7 * b + 7].copy()
        rotate_by_body_vector(q, h * Y[off + 6 * b + 3 : off + 6 * b + 6], Y[7 * b + 3 : 7 * b + 7])


@njit(cache=True, refcounts=False)  # per step with S, W and F: no reference counts (jit.py)
def _rk4(t, h, Y, S, W, F, state, k0):
    """(status, worst contact) of an rk4 step of h [s] from k0, the rate at (t, Y): Y advanced in
    place when every stage solved (the stages' states and rates in the work arrays F.work)."""
    x, k = F.work.stage, F.work.k
    for stage in range(3):
        f = 1.0 if stage == 2 else 0.5  # stage i + 1 at Y + f h k_i, t + f h
        for i in range(Y.shape[0]):
            x[i] = Y[i] + f * h * (k0[i] if stage == 0 else k[stage - 1, i])
        status, worst = friction_derivative(t + f * h, x, S, W, F, state, k[stage])
        if status != SOLVED:
            return status, worst
    for i in range(Y.shape[0]):
        Y[i] += h / 6.0 * (k0[i] + 2.0 * k[0, i] + 2.0 * k[1, i] + k[2, i])
    return SOLVED, -1


@njit(cache=True)
def _crossed(g0, g1):
    """Whether an event function went from >= 0 to < 0 (the events' check: sign changes only)."""
    for k in range(g1.shape[0]):
        if g1[k] < 0.0 <= g0[k]:
            return True
    return False


@njit(cache=True, refcounts=False)  # allocates nothing: no reference counts (jit.py)
def _finite(Y):
    """Whether every entry of Y is finite."""
    for i in range(Y.shape[0]):
        if not np.isfinite(Y[i]):
            return False
    return True


@njit(cache=True)
def friction_steps(t, t_next, n, h, method, Y, S, W, F, state, acc, stop_at_events):
    """``n`` steps of ``h`` [s] of euler (method 0), symplectic_euler (1) or rk4 (2) from t to
    t_next [s] on the friction solve (state: the modes, senses, refs, has_ref and the patches'
    arrays of friction_solve); Y and the work integrals ``acc`` updated in place. With
    ``stop_at_events``, it stops after the first step at whose end a contact's event function
    changed sign (or needs the events' check: :func:`.event_values`). Returns (status, worst
    contact, steps done, time reached [s], the friction solve's output there): status OK,
    NOT_FINITE, or the solve's (ILL_CONDITIONED, NOT_CONVERGED at that time) with Y at the
    start of the step it stopped in (:func:`steps_from`, its output packed into new arrays)."""
    ev = evaluate(t, Y, S, W, F, state)
    status, worst, done, t, ev = steps_from(ev, t, t_next, n, h, method, Y, S, W, F, state, acc, stop_at_events)
    return status, worst, done, t, packed(ev, F.work, W.phi, W.rate)


@njit(cache=True)
def steps_from(ev, t, t_next, n, h, method, Y, S, W, F, state, acc, stop_at_events):
    """:func:`friction_steps` from (t, Y) given ``ev``, :func:`.evaluate`'s return at (t, Y) whose
    evaluation is still in the work arrays F.work and W (the last call's at the state it reached:
    integrators/friction_samples.py, one friction solve a sample less). Returns (status, worst
    contact, steps done, time reached [s], the evaluation there: in F.work and W, ``ev`` its
    return). The evaluations stay in the work arrays (no allocation per step); after a failed
    rk4 stage or a step that did not stay finite, the step's start is evaluated again."""
    nb, K = S.nb, F.work
    modes, senses, refs, has_ref = state[:4]
    done = 0
    while True:
        if done > 0:
            ev = evaluate(t, Y, S, W, F, state)
        if ev[0] != SOLVED:
            return ev[0], ev[1], done, t, ev
        if stop_at_events:
            unset = event_values_into(F, modes, senses, refs, has_ref, K.e, K.rate_g, K.normal, K.g)
            if done > 0 and (unset or _crossed(K.g0, K.g)):
                return OK, -1, done, t, ev
            K.g0[:] = K.g
        if done == n:
            return OK, -1, done, t, ev
        account_power(acc, t, ev[4], ev[3])
        K.y0[:] = Y
        if method == 0:
            Y += h * K.ydot
        elif method == 1:
            symplectic_euler_update(Y, h, K.ydot, nb)
        else:
            status, worst = _rk4(t, h, Y, S, W, F, state, K.ydot)
            if status != SOLVED:
                return status, worst, done, t, evaluate(t, Y, S, W, F, state)
        normalize_quaternions_arrays(nb, Y)
        if not _finite(Y):
            return NOT_FINITE, -1, done, t, evaluate(t, K.y0, S, W, F, state)
        done += 1
        t = t + h if done < n else t_next
