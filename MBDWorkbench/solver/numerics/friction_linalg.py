"""The dense linear algebra of the compiled friction solve (numerics/friction_solve.py), in loops
into the work arrays of :class:`FrictionWork` sized once per System (system/friction_pack.py):
no LAPACK (whose threads spin on a busy machine), no allocation and no reference counts
(numerics/jit.py) per evaluation. The sums run in the order of the NumPy reference's
(system/friction.py) compiled twin before the work arrays: the same results to the last bit."""

from collections import namedtuple

import numpy as np

from .jit import njit

GRAM_PIVOT_RATIO = 1e-6  # smallest over largest Cholesky pivot of R M^-1 R^T solved by its inverse factor

FrictionWork = namedtuple(
    "FrictionWork",
    "G gam_g rate_g rate_dot chjac R RM target locked C L Linv Cp acc lam Qt b "
    "e new change d tendency slip normal power ydot y0 stage k g g0",
)


def friction_work(nb: int, m: int, n_channels: int, n_contacts: int) -> FrictionWork:
    """The work arrays of the friction solve of nb bodies, m constraint rows, n_channels friction
    channels and n_contacts contacts: the channels' rows G, the stacked rows R = [J; G stuck] (at
    most m + n_channels) and their Gram matrix, factor and inverse, the accelerations and
    multipliers, the fixed point's efforts, dY/dt, and a step's start, stage states and rates and
    the event functions (integrators/friction_kernel.py)."""
    n, cols, ny = m + n_channels, 6 * nb, 13 * nb
    z = np.zeros
    return FrictionWork(
        G=z((n_channels, cols)), gam_g=z(n_channels), rate_g=z(n_channels), rate_dot=z(n_channels),
        chjac=z((n_channels, 2, 6)), R=z((n, cols)), RM=z((n, cols)), target=z(n), locked=z(n_channels, np.int64),
        C=z((n, n)), L=z((n, n)), Linv=z((n, n)), Cp=z((n, n)), acc=z(cols), lam=z(n), Qt=z(cols), b=z(n),
        e=z(n_channels), new=z(n_channels), change=z(n_channels), d=z(n_channels), tendency=z(n_channels),
        slip=z(n_channels), normal=z(n_contacts), power=z(n_contacts), ydot=z(ny), y0=z(ny), stage=z(ny),
        k=z((3, ny)), g=z(n_contacts), g0=z(n_contacts),
    )  # fmt: skip


@njit(cache=True)
def dot(a, b):
    """a . b of two 1-D arrays (the sum in order)."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit(cache=True, refcounts=False)  # writes into out: no reference counts (jit.py)
def mv_into(M, v, out):
    """out = M @ v, in loops (the sums in order)."""
    for i in range(M.shape[0]):
        out[i] = 0.0
        for j in range(M.shape[1]):
            out[i] += M[i, j] * v[j]


@njit(cache=True, refcounts=False)  # writes into C: no reference counts (jit.py)
def gram(RM, R, n, C):
    """C[:n, :n] = RM[:n] @ R[:n]^T (symmetric), in loops."""
    for i in range(n):
        for j in range(i + 1):
            C[i, j] = dot(RM[i], R[j])
            C[j, i] = C[i, j]


@njit(cache=True, refcounts=False)  # writes into L: no reference counts (jit.py)
def _cholesky(C, n, L):
    """Whether C[:n, :n] is positive definite with pivots within GRAM_PIVOT_RATIO; its Cholesky
    factor into L's lower triangle."""
    for j in range(n):
        s = 0.0
        for k in range(j):
            s += L[j, k] * L[j, k]
        s = C[j, j] - s
        if not s > 0.0:
            return False
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            s = 0.0
            for k in range(j):
                s += L[i, k] * L[j, k]
            L[i, j] = (C[i, j] - s) / L[j, j]
    smallest, largest = np.inf, 0.0
    for j in range(n):
        smallest, largest = min(smallest, L[j, j]), max(largest, L[j, j])
    return not (n and smallest <= GRAM_PIVOT_RATIO * largest)


@njit(cache=True, refcounts=False)  # writes into L, Linv and Cp: no reference counts (jit.py)
def gram_inverse(C, n, L, Linv, Cp):
    """Whether C[:n, :n] (symmetric positive definite) was inverted into Cp[:n, :n] by its Cholesky
    factor's inverse; not when it is not positive definite or its pivots span more than
    GRAM_PIVOT_RATIO (the caller then takes the reference path's pseudo-inverse)."""
    if not _cholesky(C, n, L):
        return False
    for i in range(n):
        Linv[i, i] = 1.0 / L[i, i]
        for k in range(i):
            s = 0.0
            for j in range(k, i):  # Linv[j, k] = 0 above the diagonal: the terms left out are zeros
                s += L[i, j] * Linv[j, k]
            Linv[i, k] = -s / L[i, i]
    for i in range(n):
        for j in range(i + 1):
            s = 0.0
            for k in range(i, n):
                s += Linv[k, i] * Linv[k, j]
            Cp[i, j] = s
            Cp[j, i] = s
    return True


@njit(cache=True, refcounts=False)  # writes into K: no reference counts (jit.py)
def accelerations(Q, minv, K, n, with_acc):
    """K.lam[:n] and, ``with_acc``, K.acc (6 nb) with the channel efforts K.e: M acc + R^T lam =
    Q + G^T e, R acc = target, for the first n stacked rows K.R (Qt, b: scratch)."""
    G, e, R, RM, Cp, Qt, b, lam = K.G, K.e, K.R, K.RM, K.Cp, K.Qt, K.b, K.lam
    cols = Qt.shape[0]
    for j in range(cols):
        Qt[j] = Q[j]
    for c in range(G.shape[0]):
        if e[c] != 0.0:
            for j in range(cols):
                Qt[j] += G[c, j] * e[c]
    for i in range(n):
        b[i] = -K.target[i]
        for j in range(cols):
            b[i] += RM[i, j] * Qt[j]
    for i in range(n):
        lam[i] = 0.0
        for j in range(n):
            lam[i] += Cp[i, j] * b[j]
    if not with_acc:
        return
    for j in range(cols):
        f = Qt[j]
        for i in range(n):
            f -= R[i, j] * lam[i]
        K.acc[j] = minv[j] * f
