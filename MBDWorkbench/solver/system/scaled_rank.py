"""The one rank decision on constraint Jacobians during and after a run (index-3 integrators,
:mod:`.integrators.dae`; post-run quality gate, :mod:`.quality`): singular values of the
dimensionless Phi_q of :func:`.assembly.scaling` (length rows / L, linear-velocity columns x L;
masses do not enter), relative to the largest one. The same model in millimetres, or with all
masses multiplied by a factor, gets the same decisions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.linalg
import scipy.sparse
from scipy.sparse.csgraph import reverse_cuthill_mckee

from ..tolerances import RANK_TOL
from .assembly import length_scale, scaling

if TYPE_CHECKING:
    from .system import System

DENSE_RANK_SIZE = 40_000  # Jacobian entries (m x 6N) up to which a rank is decided by a dense SVD at once
FULL_RANK_MARGIN = 100.0  # the sparse certificate of full rank asks sigma_min / sigma_max > this x the tolerance


def scaled_jacobian(system: System, J: np.ndarray, L: float) -> np.ndarray:
    """The dimensionless Phi_q (m x 6N) of the raw Jacobian J for the length scale L [m] (or of
    each of a stack of them, K x m x 6N)."""
    rs, cs = scaling(system, L)
    return J * rs[:, None] * cs[None, :]


def scaled_constraint_jacobian(system: System, t: float, Y: np.ndarray, L: float | None = None) -> np.ndarray:
    """The dimensionless Phi_q at (t [s], Y); L [m] defaults to the length scale of Y."""
    L = length_scale(system, Y) if L is None else L
    return scaled_jacobian(system, system.constraint_jacobian(t, Y)[1], L)


def scaled_sparse_jacobian(system: System, t: float, Y: np.ndarray, L: float | None = None) -> scipy.sparse.csr_matrix:
    """:func:`scaled_constraint_jacobian` as a sparse matrix (no m x 6N array: large models)."""
    L = length_scale(system, Y) if L is None else L
    rs, cs = scaling(system, L)
    return scipy.sparse.diags(rs) @ system.constraint_jacobian(t, Y, sparse=True)[1] @ scipy.sparse.diags(cs)


def is_large(system: System) -> bool:
    """Whether rank decisions on this model's Jacobian start from the sparse full-rank certificate."""
    return system.m * 6 * system.nb > DENSE_RANK_SIZE


def jacobian_for_rank(system: System, t: float, Y: np.ndarray, tol: float) -> tuple:
    """(the scaled Phi_q at (t, Y), whether full rank at ``tol`` is certified): for a large model
    the sparse one, certified without any m x 6N array when :func:`certainly_full_rank` shows it,
    else that same matrix made dense for the dense decision; for a small one the dense one."""
    if not is_large(system):
        return scaled_constraint_jacobian(system, t, Y), False
    Js = scaled_sparse_jacobian(system, t, Y)
    return (Js, True) if certainly_full_rank(Js, tol) else (Js.toarray(), False)


def singular_structure(Js: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(U (m x m), singular values padded with zeros to m) of the scaled Jacobian Js."""
    m = Js.shape[0]
    U, s, _ = scipy.linalg.svd(Js, full_matrices=True, lapack_driver="gesvd")
    sv = np.zeros(m)
    sv[: len(s)] = s
    return U, sv


def relative_singular_values(Js: np.ndarray) -> np.ndarray:
    """Singular values of the scaled Jacobian Js divided by the largest (all zero if Js is 0)."""
    s = scipy.linalg.svdvals(Js) if Js.size else np.zeros(0)
    return s / s[0] if len(s) and s[0] > 0 else np.zeros(len(s))


def relative_singular_values_of(stack: np.ndarray) -> np.ndarray:
    """:func:`relative_singular_values` of each scaled Jacobian in ``stack`` (K x m x n), in one
    LAPACK call over the stack: (K x min(m, n)), rows of zeros where a Jacobian is 0."""
    if stack.shape[0] == 0 or stack.shape[1] == 0 or stack.shape[2] == 0:
        return np.zeros((stack.shape[0], 0))
    s = np.linalg.svd(stack, compute_uv=False)
    top = s[:, :1]
    return np.divide(s, top, out=np.zeros_like(s), where=top > 0)


def conditioning_of(stack: np.ndarray) -> np.ndarray:
    """sigma_min / sigma_max of each set of scaled rows in ``stack`` (K x m x n): 0 where
    the rows are dependent (m > n) or zero, 1 where there are none."""
    K, m, n = stack.shape
    if m == 0:
        return np.ones(K)
    if m > n:
        return np.zeros(K)
    return relative_singular_values_of(stack)[:, -1]


def independent_rows(A: np.ndarray, tol: float = RANK_TOL) -> tuple[list[int], list[int]]:
    """Greedy in-order selection: (kept, dropped) row indices; a row is dropped when it
    lies within ``tol`` (relative to its norm) of the span of the rows kept before it."""
    basis = np.zeros((0, A.shape[1]))
    kept, dropped = [], []
    for r, row in enumerate(A):
        n = np.linalg.norm(row)
        v = row.copy()
        for _ in range(2):
            v -= basis.T @ (basis @ v)
        nv = np.linalg.norm(v)
        if n > 0 and nv > tol * max(n, 1.0):
            basis = np.vstack([basis, v / nv])
            kept.append(r)
        else:
            dropped.append(r)
    return kept, dropped


def relative_rank(rel: np.ndarray, tol: float) -> int:
    """Number of relative singular values ``rel`` (largest first, = 1) above ``tol``."""
    return int(np.sum(rel > tol))


def sampled_rank_tolerances(system: System, phis: np.ndarray, L: float, tol: float) -> np.ndarray:
    """Relative singular-value tolerance for each state off the constraints by a row of ``phis``
    (K x m): a state off by a scaled violation d (length rows / L [m], angle rows [rad]) blurs an
    exact dependency to a singular value of 0.02-0.06 d (Bricard's linkage after explicit Euler,
    measured), so values below max(tol, d) count as zero."""
    if phis.shape[1] == 0:
        return np.full(phis.shape[0], float(tol))
    return np.maximum(tol, np.max(np.abs(phis * scaling(system, L)[0]), axis=1))


def certainly_full_rank(J, tol: float, margin: float = FULL_RANK_MARGIN) -> bool:
    """True when J (m x n, dense or sparse) certainly has full row rank at relative tolerance
    ``tol``: sigma_min / sigma_max > margin x tol. G = J J^T is sparse; its largest eigenvalue is
    at most its largest absolute row sum g (Gershgorin), and G - mu I is positive definite, so
    sigma_min^2 > mu = (margin tol)^2 g, when its Cholesky factorisation (banded, in reverse
    Cuthill-McKee order: O(m) for a chain) succeeds with mu raised by a bound of the rounding
    error. False when that cannot be shown: the caller then decides densely."""
    Js = scipy.sparse.csr_matrix(J)
    m = Js.shape[0]
    if m == 0 or m > Js.shape[1]:
        return m == 0
    G = (Js @ Js.T).tocsr()
    g = float(abs(G).sum(axis=1).max())
    if not (np.isfinite(g) and g > 0):
        return False
    order = reverse_cuthill_mckee(G, symmetric_mode=True)
    Gp = G[order][:, order].tocoo()
    bw = int(np.abs(Gp.row - Gp.col).max())
    rounding = 2.0 * (bw + 1) ** 2 * np.finfo(float).eps * g  # backward error bound of the band Cholesky
    upper = Gp.row <= Gp.col
    band = np.zeros((bw + 1, m))
    band[bw + Gp.row[upper] - Gp.col[upper], Gp.col[upper]] = Gp.data[upper]
    band[bw] -= (margin * tol) ** 2 * g + rounding
    try:
        scipy.linalg.cholesky_banded(band, lower=False, check_finite=True)
    except (np.linalg.LinAlgError, ValueError):
        return False
    return True
