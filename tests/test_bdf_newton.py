"""bdf's Newton iteration (integrators/scipy_ivp.quiet_newton): round-off corrections far below its
tolerance are converged, where SciPy's rate test takes them for divergence; a real divergence is
still one; and a SciPy failure at a finite state is reported as such, not as a NaN."""

import numpy as np
import pytest
import scipy.linalg
from scipy.integrate._ivp import bdf as scipy_bdf

from MBDWorkbench.solver import SimulationError, from_dict, simulate
from MBDWorkbench.solver.integrators.scipy_ivp import NEWTON_NOISE, QuietBDF, quiet_newton

C, TOL, N = 1e-3, 1e-3, 3  # c = h / alpha [s], SciPy's Newton tolerance (rtol 1e-6), unknowns


def solve(newton, fun, jac_sign=-1.0):
    """(converged, y) of one Newton solve of y = c f(y) (psi = 0, y_predict = 0, scale 1e-9) with the
    iteration matrix I - c J, J = jac_sign I."""
    LU = scipy.linalg.lu_factor(np.eye(N) - C * jac_sign * np.eye(N))
    converged, _, y, _ = newton(fun, 1.0, np.zeros(N), C, np.zeros(N), LU, scipy.linalg.lu_solve, np.full(N, 1e-9), TOL)
    return converged, y


def noisy_decay():
    """f(y) = -y + r, r alternating +-1e-15 from call to call: round-off of a state at rest."""
    calls = []

    def fun(t, y):
        calls.append(1)
        return -y + (1e-15 if len(calls) % 2 else -1e-15)

    return fun


def test_round_off_is_converged_where_scipy_gives_up():
    """The corrections are about 1e-9 of the scale, below NEWTON_NOISE * tol: quiet_newton converges
    to y = 0 within that round-off, SciPy's solve_bdf_system reports divergence (correction ratio 2)."""
    assert not solve(scipy_bdf.solve_bdf_system, noisy_decay())[0]
    converged, y = solve(quiet_newton, noisy_decay())
    assert converged and np.abs(y).max() < NEWTON_NOISE * TOL * 1e-9


def test_a_smooth_solve_is_scipys_and_a_divergence_stays_one():
    """f(y) = 1 - y: both iterations converge to the same y = c / (1 + c); with a Jacobian of the wrong
    sign and f(y) = 1 + 3 y / c (corrections growing from 1e3 of the scale), both give up."""
    for newton in (scipy_bdf.solve_bdf_system, quiet_newton):
        converged, y = solve(newton, lambda t, y: 1.0 - y)
        assert converged and y == pytest.approx(np.full(N, C / (1 + C)), rel=1e-12)
        assert not solve(newton, lambda t, y: 1.0 + 3.0 * y / C, jac_sign=1.0)[0]


def test_a_scipy_failure_at_a_finite_state_is_named(monkeypatch):
    """SciPy's BDF stopping with its own message (its step too small) at a finite state: the run fails
    with that message, not 'the state became NaN/infinite'."""
    message = "Required step size is less than spacing between numbers."
    monkeypatch.setattr(QuietBDF, "_step_impl", lambda self: (False, message))
    body = {"name": "b", "mass": 1.0, "inertia": [1.0, 1.0, 1.0]}
    settings = {"t_end": 0.1, "step": 1e-3, "output_step": 1e-2, "integrator": "bdf", "accuracy": False}
    with pytest.raises(SimulationError, match="bdf gave up at a finite state: Required step size") as error:
        simulate(from_dict({"name": "fall", "bodies": [body], "settings": settings}))
    assert "NaN" not in str(error.value)
