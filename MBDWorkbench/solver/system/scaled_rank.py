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
    """The dimensionless Phi_q (m x 6N) of the raw Jacobian J for the length scale L [m]."""
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


def conditioning(Js: np.ndarray) -> float:
    """sigma_min / sigma_max of the scaled rows Js (0 when they are dependent or zero)."""
    if Js.shape[0] == 0:
        return 1.0
    rel = relative_singular_values(Js)
    return float(rel[-1]) if len(rel) == Js.shape[0] and len(rel) else 0.0


def scaled_violation(system: System, phi: np.ndarray, L: float) -> float:
    """Largest constraint violation of ``phi`` in the same units: length rows / L [m], angle rows [rad]."""
    return float(np.max(np.abs(phi * scaling(system, L)[0]))) if len(phi) else 0.0


def sampled_rank_tolerance(system: System, phi: np.ndarray, L: float, tol: float) -> float:
    """Relative singular-value tolerance for a state off the constraints by ``phi``: a state off by
    a scaled violation d blurs an exact dependency to a singular value of 0.02-0.06 d (Bricard's
    linkage after explicit Euler, measured), so values below max(tol, d) count as zero."""
    return max(tol, scaled_violation(system, phi, L))


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
