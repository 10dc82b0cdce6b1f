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
this and fewer inlined copies cut the first solve's compile time).

Reference counts: every compiled call that receives an array touches its reference count
(an atomic increment on entry, a decrement on exit), and a namedtuple argument counts all its
arrays: the Static and Work tuples hold 58. For the step-loop functions that take S and W once
per step or per Newton iteration this was a third to a half of a small model's step
(docs/index3.md, "Reference counts"). Those are compiled with ``refcounts=False`` (Numba's
private ``_nrt`` option): no counting in them. Such a function must neither allocate an array
nor receive a new one from a callee, so it writes into arrays it is given: Numba refuses most
allocations there at compile time, but an array returned by a callee would never be freed
(tests/test_jit.py counts the runtime's live arrays around runs). Every other kernel states
``refcounts=True``, because a callee compiled on the way from a function without counting
would otherwise inherit that setting (Numba's nrt flag is inherited when not set) and fail
to compile its own allocations."""

from __future__ import annotations

import sys
import types as pytypes

import numba
import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

KERNELS: list = []  # every dispatcher made by njit / njit_python_errors, in definition order
_kernel_ids: set = set()
_kernel_modules: set = set()


class Dispatcher(CPUDispatcher):
    """A CPU dispatcher that types calls from other compiled functions by the plain types of
    their arguments (no literal-value specialisations)."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


class InterpretedDispatcher(Dispatcher):
    """The class of every kernel while :func:`interpreting`: a call from Python runs the
    kernel's Python function (its callees' Python functions too), compiling nothing."""

    def __call__(self, *args, **kws):
        return call_interpreted(self, args, kws)


def _decorator(error_model: str):
    def njit(func=None, interpreted=None, refcounts=True, **options):
        """``numba.njit(**options)`` with this error model unless given, and this module's
        Dispatcher. ``interpreted``: a NumPy function with the same contract that the
        interpreted start runs instead of the Python function (for loops that are slow in
        Python; checked against the compiled kernel in the tests). ``refcounts=False``: compiled
        without Numba's reference counting (see the module docstring)."""
        options.setdefault("error_model", error_model)
        options["_nrt"] = refcounts
        decorate = numba.njit(**options)

        def wrap(f):
            dispatcher = decorate(f)
            dispatcher.__class__ = Dispatcher
            dispatcher.interpreted = interpreted
            KERNELS.append(dispatcher)
            _kernel_ids.add(id(dispatcher))
            _kernel_modules.add(f.__module__)
            return dispatcher

        return wrap(func) if func is not None else wrap

    return njit


njit = _decorator("numpy")
njit_python_errors = _decorator("python")


# ----------------------------------------------------------------------------- interpreted start
# While a cold cache is being filled by a background process (solver/numerics/cold_start.py), the kernels
# run as plain Python ("twins": each kernel's Python function with its module globals rebound so
# that its callees are twins too). Same source, same arithmetic; the NumPy float semantics of
# error_model="numpy" are kept with np.errstate; a Python arithmetic error (a float division by
# zero that the compiled kernel would turn into inf) restores the arrays and compiles instead.
_twins: dict = {}
_shadows: dict = {}
_state = {"on": False, "done": None, "left": None}


def twin(dispatcher):
    """The Python twin of a kernel (built once)."""
    key = id(dispatcher)
    found = _twins.get(key)
    if found is None:
        f = dispatcher.py_func
        found = dispatcher.interpreted or pytypes.FunctionType(
            f.__code__, _shadow(f.__module__), f.__name__, f.__defaults__, f.__closure__
        )
        _twins[key] = found
    return found


class _ShadowModule:
    """A module as seen by twins (``kernels.derivatives`` inside a kernel): its shadow globals."""

    def __init__(self, globals_: dict) -> None:
        self.__dict__ = globals_


def _shadow(module: str) -> dict:
    """A copy of a module's globals with every kernel replaced by its twin, and every module
    that defines kernels by its shadow."""
    g = _shadows.get(module)
    if g is None:
        g = _shadows[module] = dict(sys.modules[module].__dict__)
        for name, value in list(g.items()):
            if isinstance(value, CPUDispatcher) and id(value) in _kernel_ids:
                g[name] = twin(value)
            elif isinstance(value, pytypes.ModuleType) and value.__name__ in _kernel_modules:
                g[name] = _ShadowModule(_shadow(value.__name__))
    return g


def interpreting() -> bool:
    """Whether kernels called from Python run interpreted now."""
    return _state["on"]


def start_interpreting(done) -> None:
    """Run kernels interpreted until ``done()`` returns True (checked at each call from Python)."""
    _state.update(on=True, done=done, left=None)
    for d in KERNELS:
        d.__class__ = InterpretedDispatcher


def stop_interpreting(reason: str = "stopped") -> None:
    """Back to the compiled kernels (loaded from the cache, or compiled on their first call)."""
    if _state["on"]:
        _state.update(on=False, done=None, left=reason)
    for d in KERNELS:
        d.__class__ = Dispatcher


def stop_reason():
    """Why the last interpreted start ended ("compiled", "stopped", an error text) or None."""
    return _state["left"]


def errstate():
    """NumPy's float semantics of error_model="numpy" for interpreted kernels (inf/NaN, no warnings)."""
    return np.errstate(all="ignore")


def _arrays(value, found: list) -> list:
    if isinstance(value, np.ndarray):
        found.append(value)
    elif isinstance(value, tuple):
        for v in value:
            _arrays(v, found)
    return found


def call_interpreted(dispatcher, args: tuple, kws: dict):
    """A call from Python while interpreting: the twin, or the compiled kernel once ``done()``."""
    done = _state["done"]
    if done is not None and done():
        stop_interpreting("compiled")
    if not _state["on"]:
        return Dispatcher.__call__(dispatcher, *args, **kws)
    arrays = _arrays(args, []) + _arrays(tuple(kws.values()), [])
    saved = [a.copy() for a in arrays]
    try:
        with errstate():
            return twin(dispatcher)(*args, **kws)
    except (ArithmeticError, ValueError) as exc:
        for a, copy in zip(arrays, saved):
            a[...] = copy
        stop_interpreting(f"{type(exc).__name__} in {dispatcher.py_func.__name__}: {exc}")
        return Dispatcher.__call__(dispatcher, *args, **kws)
