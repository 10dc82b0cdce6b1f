"""solver.numerics.jit: kernels are compiled once per argument types, not once per literal value, and
state their reference-counting setting."""

from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core.runtime import _nrt_python, rtsys

from MBDWorkbench.solver import simulate
from MBDWorkbench.solver.model import load
from MBDWorkbench.solver.numerics.jit import njit

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _callee_and_caller(decorator):
    @decorator
    def scale(x, k):
        return x * (k + 1)

    @decorator
    def caller(x):
        return scale(x, 0) + scale(x, 1) + scale(x, True)

    return scale, caller


def test_constant_arguments_share_one_specialisation():
    scale, caller = _callee_and_caller(njit)
    assert caller(2.0) == 2.0 + 4.0 + 4.0
    assert [str(s) for s in scale.signatures] == ["(float64, int64)", "(float64, bool)"]


def test_plain_numba_would_compile_one_per_literal():
    """The behaviour solver.numerics.jit removes (if Numba changes it, the test above stays valid)."""
    scale, caller = _callee_and_caller(numba.njit)
    assert caller(2.0) == 10.0
    assert len(scale.signatures) >= 3


def _allocating_callee_and_counting_free_caller(decorator):
    @decorator
    def total_of_copy(x):
        y = x.copy()  # allocates: needs Numba's reference counting
        return y.sum()

    @njit(refcounts=False)
    def caller(x):
        return total_of_copy(x) + x[0]

    return caller


def test_a_kernel_without_reference_counts_can_call_one_that_allocates():
    """solver.numerics.jit states every kernel's setting, so a callee compiled on the way keeps its own."""
    caller = _allocating_callee_and_counting_free_caller(njit)
    assert caller(np.arange(4.0)) == 6.0


def test_plain_numba_callee_would_inherit_no_reference_counts():
    """The behaviour numerics.jit's explicit setting prevents (if Numba changes it, the test above stays valid)."""
    caller = _allocating_callee_and_counting_free_caller(numba.njit)
    with pytest.raises(numba.core.errors.NumbaError):  # TypingError (0.56), NumbaRuntimeError (0.61)
        caller(np.arange(4.0))


def _live_compiled_arrays() -> int:
    stats = rtsys.get_allocation_stats()
    return stats.mi_alloc - stats.mi_free


@pytest.fixture
def allocation_stats():
    """Numba's allocation counters (Numba >= 0.57 keeps them only when asked)."""
    enable = getattr(_nrt_python, "memsys_enable_stats", None)
    if enable is not None:
        enable()
    yield
    if enable is not None:
        _nrt_python.memsys_disable_stats()


@pytest.mark.parametrize("integrator", ["rk4", "symplectic_euler", "galpha", "cros"])
def test_step_loops_without_reference_counts_leak_no_array(integrator, allocation_stats):
    """run_fixed, galpha's advance/step/_try_step/_factorize, cros's advance/step/solve and
    jacobians.prepare_kernel are compiled without reference counts: an array they received from a
    callee would never be freed, one per step. The slider-crank has a driver and a spring (every
    branch of prepare_kernel)."""
    model = load(str(EXAMPLES / "slider_crank.json"))
    simulate(model, integrator=integrator, t_end=0.01, step=1e-3, output_step=0.01)  # compiled, warm
    for t_end in (0.1, 0.3):
        before = _live_compiled_arrays()
        result = simulate(model, integrator=integrator, t_end=t_end, step=1e-3, output_step=0.05)
        assert result.status == "completed"
        assert _live_compiled_arrays() == before, f"{integrator}, {t_end} s"
