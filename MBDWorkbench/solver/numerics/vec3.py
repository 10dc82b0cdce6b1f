"""3-vector algebra on tuples, for the Numba kernels.

Tuples live in registers (no heap allocation inside the element loops). Every helper is
generic over real and complex entries: Numba compiles one specialisation per type, so
the element formulas of :mod:`.joints` and :mod:`.kernels` serve both the real kernels
and the complex-step Jacobians of :mod:`.integrators.jacobians`.

Rotation matrices are body ``b`` of an (n, 3, 3) array, where ``b < 0`` stands for the
ground (identity rotation): :func:`body_mv`, :func:`body_mtv`.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

Scalar = float | complex
Vec3 = tuple  # (x, y, z), Scalar entries


def _row_py(a: np.ndarray, k: int) -> Vec3:
    """:func:`row` for the interpreted start (Python numbers)."""
    return tuple(a[k, :3].tolist())


@njit(cache=True, interpreted=_row_py)
def row(a: np.ndarray, k: int) -> Vec3:
    """Row k of an (n, 3) array as a tuple."""
    return (a[k, 0], a[k, 1], a[k, 2])


@njit(cache=True)
def dot(a: Vec3, b: Vec3) -> Scalar:
    """a . b"""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def cross(a: Vec3, b: Vec3) -> Vec3:
    """a x b"""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True)
def add(a: Vec3, b: Vec3) -> Vec3:
    """a + b"""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@njit(cache=True)
def sub(a: Vec3, b: Vec3) -> Vec3:
    """a - b"""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@njit(cache=True)
def scale(s: Scalar, a: Vec3) -> Vec3:
    """s a for a scalar s."""
    return (s * a[0], s * a[1], s * a[2])


@njit(cache=True)
def div(a: Vec3, s: Scalar) -> Vec3:
    """a / s for a scalar s."""
    return (a[0] / s, a[1] / s, a[2] / s)


# The interpreted start (solver/numerics/cold_start.py) runs the kernels as Python; there, arithmetic on
# NumPy scalars costs several times that on Python numbers. These versions of the accessors read
# their array elements as Python numbers (tolist: the same doubles, so the same results).
def _rows_times(rows: list, x: Vec3) -> Vec3:
    """(r0 . x, r1 . x, r2 . x) of three rows given as Python lists."""
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = rows
    x0, x1, x2 = x
    return (a00 * x0 + a01 * x1 + a02 * x2, a10 * x0 + a11 * x1 + a12 * x2, a20 * x0 + a21 * x1 + a22 * x2)


def _body_mv_py(A: np.ndarray, b: int, x: Vec3) -> Vec3:
    """:func:`body_mv` for the interpreted start."""
    return (x[0], x[1], x[2]) if b < 0 else _rows_times(A[b].tolist(), x)


def _body_mtv_py(A: np.ndarray, b: int, x: Vec3) -> Vec3:
    """:func:`body_mtv` for the interpreted start (the rows of A_b^T, summed in the same order)."""
    return (x[0], x[1], x[2]) if b < 0 else _rows_times(A[b].T.tolist(), x)


@njit(cache=True, interpreted=_body_mv_py, refcounts=False)
def body_mv(A: np.ndarray, b: int, x: Vec3) -> Vec3:
    """A_b x for body b of an (n, 3, 3) array (x itself if b < 0: the ground)."""
    if b < 0:
        return (x[0], x[1], x[2])
    return (
        A[b, 0, 0] * x[0] + A[b, 0, 1] * x[1] + A[b, 0, 2] * x[2],
        A[b, 1, 0] * x[0] + A[b, 1, 1] * x[1] + A[b, 1, 2] * x[2],
        A[b, 2, 0] * x[0] + A[b, 2, 1] * x[1] + A[b, 2, 2] * x[2],
    )


@njit(cache=True, interpreted=_body_mtv_py, refcounts=False)
def body_mtv(A: np.ndarray, b: int, x: Vec3) -> Vec3:
    """A_b^T x for body b of an (n, 3, 3) array (x itself if b < 0: the ground)."""
    if b < 0:
        return (x[0], x[1], x[2])
    return (
        A[b, 0, 0] * x[0] + A[b, 1, 0] * x[1] + A[b, 2, 0] * x[2],
        A[b, 0, 1] * x[0] + A[b, 1, 1] * x[1] + A[b, 2, 1] * x[2],
        A[b, 0, 2] * x[0] + A[b, 1, 2] * x[1] + A[b, 2, 2] * x[2],
    )
