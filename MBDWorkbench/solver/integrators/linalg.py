"""Band LU with partial pivoting of the index-3 integrators' iteration matrices (real for
generalized-alpha, complex for CROS): the band layout after a reverse Cuthill-McKee ordering of
the pattern (:func:`band_layout`), the factorisation (:func:`band_lu`, as LAPACK's gbtrf, skipping
the zeros inside the band), the solves, and :class:`BandLU`, the factors held for Python. For a
chain the bandwidth does not grow with the number of bodies, so a step costs O(N)."""

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import reverse_cuthill_mckee

from ..kernels import fast_call
from ..numerics.jit import njit


def band_layout(rows: np.ndarray, cols: np.ndarray, n: int) -> tuple[np.ndarray, int, int]:
    """(position of each unknown in the band order, lower and upper bandwidth) of the n x n
    pattern (rows, cols) after a reverse Cuthill-McKee ordering of its symmetric part."""
    if n == 0:
        return np.zeros(0, np.int64), 0, 0
    A = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    order = reverse_cuthill_mckee((abs(A) + abs(A.T)).tocsr(), symmetric_mode=True)
    position = np.empty(n, np.int64)
    position[order] = np.arange(n)
    d = position[np.asarray(rows)] - position[np.asarray(cols)]
    return position, int(max(d.max(), 0)), int(max(-d.min(), 0))


class BandLU:
    """Band LU factors of an n x n matrix in the order ``position`` (see :func:`band_layout`); the
    same object is refilled by every factorisation. ``solve`` as scipy's ``splu(...).solve``."""

    def __init__(self, n: int, position: np.ndarray, kl: int, ku: int) -> None:
        self.AB = np.zeros((n, 2 * kl + ku + 1))
        self.piv = band_pivots(n)
        self.position, self.kl, self.ku = position, kl, ku
        self.band = np.array([kl, ku], np.int64)
        self._buf = np.zeros(n)

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        """A^-1 rhs with the current factors."""
        x = np.empty(len(rhs))
        rhs = np.ascontiguousarray(rhs, float)
        fast_call(solve_permuted, self.AB, self.kl, self.ku, self.piv, self.position, rhs, x, self._buf)
        return x


@njit(cache=True, inline="always")
def _magnitude(v):
    """|Re v| + |Im v|: LAPACK's pivot measure (cabs1; |v| for a real v), no square root."""
    return abs(v.real) + abs(v.imag)


def band_pivots(n: int) -> np.ndarray:
    """Integer work array of :func:`band_lu` for n unknowns (row interchanges and reaches)."""
    return np.zeros((3, n), np.int64)


@njit(cache=True)
def band_lu(AB, kl, ku, piv):
    """In-place LU with partial pivoting of the band matrix AB (entry (i, j) at AB[i, j - i + kl],
    width 2 kl + ku + 1: room for the fill-in of the row interchanges). False if singular.
    piv (3, n, :func:`band_pivots`) receives the row interchanges (piv[0]), the last column of
    each row of U that may be nonzero (piv[1]) and the last row of each column of L (piv[2]).

    The elimination follows LAPACK's gbtf2 (pivot by |Re| + |Im|, multipliers times the
    reciprocal of the pivot) but skips what is zero inside the band: a row's update stops at its
    pivot row's reach (the last column it may hold a nonzero in, grown by each update and fill),
    and rows with a zero entry below the pivot are left alone. Only subtractions of exact zeros are
    skipped. A chain's matrix has about 8 % of its band nonzero (reverse Cuthill-McKee order)."""
    n = AB.shape[0]
    width = AB.shape[1]
    reach, lower = piv[1], piv[2]
    for i in range(n):
        reach[i] = i
        for d in range(width - 1, kl - 1, -1):
            if AB[i, d] != 0.0:
                reach[i] = min(n - 1, i + d - kl)
                break
    for k in range(n):
        p, best = k, _magnitude(AB[k, kl])
        for i in range(k + 1, min(n, k + kl + 1)):
            v = _magnitude(AB[i, k - i + kl])
            if v > best:
                p, best = i, v
        piv[0, k] = p
        if best == 0.0:
            return False
        if p != k:
            for j in range(k, max(reach[k], reach[p]) + 1):
                tmp = AB[k, j - k + kl]
                AB[k, j - k + kl] = AB[p, j - p + kl]
                AB[p, j - p + kl] = tmp
            reach[k], reach[p] = reach[p], reach[k]
        inverse = 1.0 / AB[k, kl]
        rk = reach[k]
        lower[k] = k
        for i in range(k + 1, min(n, k + kl + 1)):
            if AB[i, k - i + kl] != 0.0:
                f = AB[i, k - i + kl] * inverse
                AB[i, k - i + kl] = f
                lower[k] = i
                for j in range(k + 1, rk + 1):
                    AB[i, j - i + kl] -= f * AB[k, j - k + kl]
                if rk > reach[i]:
                    reach[i] = rk
    return True


@njit(cache=True)
def band_solve(AB, kl, ku, piv, b):
    """Solve in place with the factors of :func:`band_lu` (L's columns and U's rows up to their
    reaches)."""
    n = AB.shape[0]
    for k in range(n):
        p = piv[0, k]
        if p != k:
            b[k], b[p] = b[p], b[k]
        for i in range(k + 1, piv[2, k] + 1):
            b[i] -= AB[i, k - i + kl] * b[k]
    for k in range(n - 1, -1, -1):
        s = b[k]
        for j in range(k + 1, piv[1, k] + 1):
            s -= AB[k, j - k + kl] * b[j]
        b[k] = s / AB[k, kl]


@njit(cache=True, inline="always")
def band_add(AB, position, kl, i, j, value):
    """A[i, j] += value in the band storage AB of :func:`band_lu` (order ``position``)."""
    pi = position[i]
    AB[pi, position[j] - pi + kl] += value


@njit(cache=True)
def solve_permuted(AB, kl, ku, piv, position, rhs, x, buf):
    """x = A^-1 rhs in the original order of the unknowns."""
    for i in range(rhs.shape[0]):
        buf[position[i]] = rhs[i]
    band_solve(AB, kl, ku, piv, buf)
    for i in range(rhs.shape[0]):
        x[i] = buf[position[i]]
