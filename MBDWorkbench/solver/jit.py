"""The Numba decorators of the solver kernels.

``njit``: ``numba.njit`` with NumPy's float semantics, so that after a blow-up a division by 0
gives inf/NaN (which the derivative and step checks turn into the NOT_FINITE status, a
SimulationError naming the time) instead of a ZeroDivisionError; ``njit_python_errors`` keeps
Python's (ZeroDivisionError).

Both make dispatchers that compile one specialisation per argument *types*, not per literal
value: Numba types a constant argument of a call between compiled functions (``f(x, 0)``,
``g(..., True)``) as a literal and compiles the callee again for each value, with everything
it calls, unless told otherwise. Here every argument is widened to its plain type (int64,
bool, ...), so a kernel called with 0 and 1 is compiled once (bench/results/cold_start.md:
this and fewer inlined copies cut the first solve's compile time)."""

from __future__ import annotations

import numba
from numba.core import types
from numba.core.registry import CPUDispatcher


class Dispatcher(CPUDispatcher):
    """A CPU dispatcher that types calls from other compiled functions by the plain types of
    their arguments (no literal-value specialisations)."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def _decorator(error_model: str):
    def njit(func=None, **options):
        """``numba.njit(**options)`` with this error model unless given, and this module's Dispatcher."""
        options.setdefault("error_model", error_model)
        decorate = numba.njit(**options)

        def wrap(f):
            dispatcher = decorate(f)
            dispatcher.__class__ = Dispatcher
            return dispatcher

        return wrap(func) if func is not None else wrap

    return njit


njit = _decorator("numpy")
njit_python_errors = _decorator("python")
