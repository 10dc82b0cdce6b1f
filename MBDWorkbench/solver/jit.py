"""The Numba decorator of the solver kernels: ``numba.njit`` with NumPy's float semantics, so
that after a blow-up a division by 0 gives inf/NaN (which the derivative and step checks turn
into the NOT_FINITE status, a SimulationError naming the time) instead of a ZeroDivisionError."""

from functools import partial

import numba

njit = partial(numba.njit, error_model="numpy")
