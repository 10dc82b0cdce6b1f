"""Unit-quaternion helpers (scalar first: q = [qw, qx, qy, qz])."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .jit import njit


@njit(cache=True)
def quat_to_matrix(q: np.ndarray, out: np.ndarray) -> None:
    """Rotation matrix A (body -> global) of a quaternion, normalised on the fly."""
    n = np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    w, x, y, z = q[0] / n, q[1] / n, q[2] / n, q[3] / n
    out[0, 0] = 1.0 - 2.0 * (y * y + z * z)
    out[0, 1] = 2.0 * (x * y - w * z)
    out[0, 2] = 2.0 * (x * z + w * y)
    out[1, 0] = 2.0 * (x * y + w * z)
    out[1, 1] = 1.0 - 2.0 * (x * x + z * z)
    out[1, 2] = 2.0 * (y * z - w * x)
    out[2, 0] = 2.0 * (x * z - w * y)
    out[2, 1] = 2.0 * (y * z + w * x)
    out[2, 2] = 1.0 - 2.0 * (x * x + y * y)


@njit(cache=True)
def quat_rate(q: np.ndarray, w_body: np.ndarray, out: np.ndarray) -> None:
    """Quaternion derivative 0.5 * q (x) (0, w) for a body-frame angular velocity [rad/s]."""
    out[0] = -0.5 * (q[1] * w_body[0] + q[2] * w_body[1] + q[3] * w_body[2])
    out[1] = 0.5 * (q[0] * w_body[0] + q[2] * w_body[2] - q[3] * w_body[1])
    out[2] = 0.5 * (q[0] * w_body[1] + q[3] * w_body[0] - q[1] * w_body[2])
    out[3] = 0.5 * (q[0] * w_body[2] + q[1] * w_body[1] - q[2] * w_body[0])


@njit(cache=True)
def quat_mul(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """Hamilton product a (x) b."""
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3]
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2]
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1]
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]


@njit(cache=True)
def rotate_by_body_vector(q: np.ndarray, phi_body: np.ndarray, out: np.ndarray) -> None:
    """out = q (x) exp(phi/2): rotate a pose by a body-frame rotation vector [rad], normalised."""
    ang = np.sqrt(phi_body[0] ** 2 + phi_body[1] ** 2 + phi_body[2] ** 2)
    dq = np.empty(4)
    if ang < 1e-12:
        dq[0] = 1.0
        dq[1] = 0.5 * phi_body[0]
        dq[2] = 0.5 * phi_body[1]
        dq[3] = 0.5 * phi_body[2]
    else:
        s = np.sin(0.5 * ang) / ang
        dq[0] = np.cos(0.5 * ang)
        dq[1] = s * phi_body[0]
        dq[2] = s * phi_body[1]
        dq[3] = s * phi_body[2]
    quat_mul(q, dq, out)
    n = np.sqrt(out[0] ** 2 + out[1] ** 2 + out[2] ** 2 + out[3] ** 2)
    for k in range(4):
        out[k] /= n


def matrix(q: ArrayLike) -> np.ndarray:
    """Rotation matrix of quaternion ``q`` (numpy convenience)."""
    out = np.empty((3, 3))
    quat_to_matrix(np.asarray(q, dtype=float), out)
    return out


def from_matrix(A: ArrayLike) -> np.ndarray:
    """Quaternion (qw >= 0) of a proper rotation matrix."""
    A = np.asarray(A, dtype=float)
    tr = np.trace(A)
    if tr > 0:
        s = 2.0 * np.sqrt(tr + 1.0)
        q = [0.25 * s, (A[2, 1] - A[1, 2]) / s, (A[0, 2] - A[2, 0]) / s, (A[1, 0] - A[0, 1]) / s]
    elif A[0, 0] > A[1, 1] and A[0, 0] > A[2, 2]:
        s = 2.0 * np.sqrt(1.0 + A[0, 0] - A[1, 1] - A[2, 2])
        q = [(A[2, 1] - A[1, 2]) / s, 0.25 * s, (A[0, 1] + A[1, 0]) / s, (A[0, 2] + A[2, 0]) / s]
    elif A[1, 1] > A[2, 2]:
        s = 2.0 * np.sqrt(1.0 + A[1, 1] - A[0, 0] - A[2, 2])
        q = [(A[0, 2] - A[2, 0]) / s, (A[0, 1] + A[1, 0]) / s, 0.25 * s, (A[1, 2] + A[2, 1]) / s]
    else:
        s = 2.0 * np.sqrt(1.0 + A[2, 2] - A[0, 0] - A[1, 1])
        q = [(A[1, 0] - A[0, 1]) / s, (A[0, 2] + A[2, 0]) / s, (A[1, 2] + A[2, 1]) / s, 0.25 * s]
    q = np.array(q)
    q /= np.linalg.norm(q)
    return q if q[0] >= 0 else -q


def from_axis_angle(axis: ArrayLike, angle: float) -> np.ndarray:
    """Quaternion of a rotation by ``angle`` [rad] about ``axis``."""
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def matrices(Q: ArrayLike) -> np.ndarray:
    """Rotation matrices (k, 3, 3) of quaternions (k, 4), vectorised; a (k, 4) array in one
    compiled call (:func:`rows_to_matrices`, the same arithmetic: the event functions call this at
    every check)."""
    Q = np.asarray(Q, dtype=float)
    if Q.ndim == 2 and Q.shape[1] == 4:
        A = np.empty((Q.shape[0], 3, 3))
        rows_to_matrices(Q, A)
        return A
    Q = Q / np.linalg.norm(Q, axis=-1, keepdims=True)
    w, x, y, z = Q[..., 0], Q[..., 1], Q[..., 2], Q[..., 3]
    A = np.empty(Q.shape[:-1] + (3, 3))
    A[..., 0, 0] = 1 - 2 * (y * y + z * z)
    A[..., 0, 1] = 2 * (x * y - w * z)
    A[..., 0, 2] = 2 * (x * z + w * y)
    A[..., 1, 0] = 2 * (x * y + w * z)
    A[..., 1, 1] = 1 - 2 * (x * x + z * z)
    A[..., 1, 2] = 2 * (y * z - w * x)
    A[..., 2, 0] = 2 * (x * z - w * y)
    A[..., 2, 1] = 2 * (y * z + w * x)
    A[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return A


@njit(cache=True)
def rows_to_matrices(Q: np.ndarray, A: np.ndarray) -> None:
    """A[k]: the rotation matrix of quaternion Q[k] (k, 4) normalised, with the arithmetic of
    :func:`matrices`' NumPy path to the last bit (its norm summed in order)."""
    for k in range(Q.shape[0]):
        w, x, y, z = Q[k, 0], Q[k, 1], Q[k, 2], Q[k, 3]
        norm = np.sqrt(((w * w + x * x) + y * y) + z * z)
        w, x, y, z = w / norm, x / norm, y / norm, z / norm
        A[k, 0, 0] = 1 - 2 * (y * y + z * z)
        A[k, 0, 1] = 2 * (x * y - w * z)
        A[k, 0, 2] = 2 * (x * z + w * y)
        A[k, 1, 0] = 2 * (x * y + w * z)
        A[k, 1, 1] = 1 - 2 * (x * x + z * z)
        A[k, 1, 2] = 2 * (y * z - w * x)
        A[k, 2, 0] = 2 * (x * z - w * y)
        A[k, 2, 1] = 2 * (y * z + w * x)
        A[k, 2, 2] = 1 - 2 * (x * x + y * y)
