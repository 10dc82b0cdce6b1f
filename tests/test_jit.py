"""solver.jit: kernels are compiled once per argument types, not once per literal value."""

import numba

from MBDWorkbench.solver.jit import njit


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
    """The behaviour solver.jit removes (if Numba changes it, the test above stays valid)."""
    scale, caller = _callee_and_caller(numba.njit)
    assert caller(2.0) == 10.0
    assert len(scale.signatures) >= 3
