"""The joint library: every joint type is a list of primitive constraint rows, written once.

Primitive rows (seed 000, hybrid formulation: Jacobian columns are the global linear
velocity v and the BODY-frame angular velocity w of each body; ``gamma`` is the
right-hand side of Phi_q qddot = gamma, i.e. minus the velocity-quadratic part of
Phi_ddot):

* POINT  e . (p_i - p_j) = 0 with p = r + A s (one global direction e per row)
* DP1    a_i . a_j = 0 (two body-fixed vectors stay perpendicular)
* DP2    a_i . (p_j - p_i) = 0 (the point of j stays in a plane of i)
* ANGLE  atan2(y_i . x_j, x_i . x_j) (the rotation of j about z_i; driver rows only)

Drivers subtract a time profile f(t) from their row: Phi_t = -f', gamma += f''.
"""
import numpy as np
from numba import njit

POINT, DP1, DP2, ANGLE = 0, 1, 2, 3

# Each row: (kind, vectors). Vector names refer to the joint frame axes carried by
# body i ("xi", "yi", "zi"), by body j ("xj", "yj"), or to the frame origin on each
# body ("oi", "oj"); POINT rows name the global direction index 0, 1, 2.
_POINT3 = [(POINT, 0), (POINT, 1), (POINT, 2)]
_AXES_PARALLEL = [(DP1, "zi", "xj"), (DP1, "zi", "yj")]
JOINT_ROWS = {
    "spherical": _POINT3,
    "revolute": _POINT3 + _AXES_PARALLEL,
    "cylindrical": _AXES_PARALLEL + [(DP2, "xi"), (DP2, "yi")],
    "prismatic": _AXES_PARALLEL + [(DP2, "xi"), (DP2, "yi"), (DP1, "xi", "yj")],
    "planar": _AXES_PARALLEL + [(DP2, "zi")],
    "fixed": _POINT3 + _AXES_PARALLEL + [(DP1, "xi", "yj")],
    "universal": _POINT3 + [(DP1, "xi", "yj")],
}
DRIVER_ROW = {"rotational": (ANGLE,), "linear": (DP2, "zi")}
# Which rows measure a length (metres) rather than an angle (radians).
ROW_IS_ANGULAR = {POINT: False, DP1: True, DP2: False, ANGLE: True}


def joint_dof_removed(jtype):
    """Number of scalar constraint equations of a joint type."""
    return len(JOINT_ROWS[jtype])


def row_vectors(spec, local):
    """Local vectors (4, 3) of one row; ``local`` maps frame names to (side, vector)."""
    kind = spec[0]
    out = np.zeros((4, 3))
    if kind == POINT:
        out[0], out[1] = local["oi"], local["oj"]
        out[2, spec[1]] = 1.0
    elif kind == DP1:
        out[0], out[1] = local[spec[1]], local[spec[2]]
    elif kind == DP2:
        out[0], out[1], out[2] = local[spec[1]], local["oi"], local["oj"]
    else:
        out[0], out[1], out[2], out[3] = local["xi"], local["yi"], local["xj"], local["zi"]
    return out


# ----------------------------------------------------------------------------- kernels
@njit(cache=True)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True)
def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@njit(cache=True)
def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@njit(cache=True)
def _scale(s, a):
    return (s * a[0], s * a[1], s * a[2])


@njit(cache=True)
def _mat(A, b, x):
    """A_b x (x if b is the ground)."""
    if b < 0:
        return (x[0], x[1], x[2])
    return (A[b, 0, 0] * x[0] + A[b, 0, 1] * x[1] + A[b, 0, 2] * x[2],
            A[b, 1, 0] * x[0] + A[b, 1, 1] * x[1] + A[b, 1, 2] * x[2],
            A[b, 2, 0] * x[0] + A[b, 2, 1] * x[1] + A[b, 2, 2] * x[2])


@njit(cache=True)
def _matT(A, b, x):
    """A_b^T x (x if b is the ground)."""
    if b < 0:
        return (x[0], x[1], x[2])
    return (A[b, 0, 0] * x[0] + A[b, 1, 0] * x[1] + A[b, 2, 0] * x[2],
            A[b, 0, 1] * x[0] + A[b, 1, 1] * x[1] + A[b, 2, 1] * x[2],
            A[b, 0, 2] * x[0] + A[b, 1, 2] * x[1] + A[b, 2, 2] * x[2])


@njit(cache=True)
def _vec(arr, r, i):
    return (arr[r, i, 0], arr[r, i, 1], arr[r, i, 2])


@njit(cache=True)
def _omega(vel, b):
    if b < 0:
        return (0.0, 0.0, 0.0)
    return (vel[6 * b + 3], vel[6 * b + 4], vel[6 * b + 5])


@njit(cache=True)
def _lin(vel, b):
    if b < 0:
        return (0.0, 0.0, 0.0)
    return (vel[6 * b], vel[6 * b + 1], vel[6 * b + 2])


@njit(cache=True)
def _pos(pos, b):
    if b < 0:
        return (0.0, 0.0, 0.0)
    return (pos[7 * b], pos[7 * b + 1], pos[7 * b + 2])


@njit(cache=True)
def _vector_kin(A, vel, b, abar):
    """Global vector a, its rate, and the quadratic part of its second derivative."""
    w = _omega(vel, b)
    wa = _cross(w, abar)
    return _mat(A, b, abar), _mat(A, b, wa), _mat(A, b, _cross(w, wa))


@njit(cache=True)
def _point_kin(pos, A, vel, b, sbar):
    """Global point p = r + A s, its velocity, and the quadratic part of its acceleration."""
    w = _omega(vel, b)
    ws = _cross(w, sbar)
    p = _add(_pos(pos, b), _mat(A, b, sbar))
    return p, _add(_lin(vel, b), _mat(A, b, ws)), _mat(A, b, _cross(w, ws))


@njit(cache=True)
def _put(jac, r, side, lin, ang):
    for k in range(3):
        jac[r, side, k] = lin[k]
        jac[r, side, 3 + k] = ang[k]


@njit(cache=True)
def _dp1(A, vel, bi, bj, ai_bar, aj_bar):
    """DP1 a_i.a_j: value, omega-Jacobians of i and j, gamma, rate."""
    ai, dai, qai = _vector_kin(A, vel, bi, ai_bar)
    aj, daj, qaj = _vector_kin(A, vel, bj, aj_bar)
    ji = _cross(ai_bar, _matT(A, bi, aj))
    jj = _cross(aj_bar, _matT(A, bj, ai))
    gamma = -(_dot(qai, aj) + 2.0 * _dot(dai, daj) + _dot(ai, qaj))
    rate = _dot(dai, aj) + _dot(ai, daj)
    return _dot(ai, aj), ji, jj, gamma, rate


@njit(cache=True)
def eval_row(r, kind, bi, bj, vecs, pos, A, vel, jac):
    """Evaluate primitive row r: fills jac[r] and returns (phi, gamma, rate)
    where rate = Phi_q qdot (without Phi_t)."""
    zero = (0.0, 0.0, 0.0)
    if kind == POINT:
        e = _vec(vecs, r, 2)
        pi, dpi, qpi = _point_kin(pos, A, vel, bi, _vec(vecs, r, 0))
        pj, dpj, qpj = _point_kin(pos, A, vel, bj, _vec(vecs, r, 1))
        _put(jac, r, 0, e, _cross(_vec(vecs, r, 0), _matT(A, bi, e)))
        _put(jac, r, 1, _scale(-1.0, e), _scale(-1.0, _cross(_vec(vecs, r, 1), _matT(A, bj, e))))
        return _dot(e, _sub(pi, pj)), -_dot(e, _sub(qpi, qpj)), _dot(e, _sub(dpi, dpj))
    if kind == DP1:
        phi, ji, jj, gamma, rate = _dp1(A, vel, bi, bj, _vec(vecs, r, 0), _vec(vecs, r, 1))
        _put(jac, r, 0, zero, ji)
        _put(jac, r, 1, zero, jj)
        return phi, gamma, rate
    if kind == DP2:
        ai_bar, si, sj = _vec(vecs, r, 0), _vec(vecs, r, 1), _vec(vecs, r, 2)
        ai, dai, qai = _vector_kin(A, vel, bi, ai_bar)
        pi, dpi, qpi = _point_kin(pos, A, vel, bi, si)
        pj, dpj, qpj = _point_kin(pos, A, vel, bj, sj)
        d, dd = _sub(pj, pi), _sub(dpj, dpi)
        _put(jac, r, 0, _scale(-1.0, ai), _sub(_cross(ai_bar, _matT(A, bi, d)), _cross(si, ai_bar)))
        _put(jac, r, 1, ai, _cross(sj, _matT(A, bj, ai)))
        gamma = -(_dot(qai, d) + 2.0 * _dot(dai, dd) + _dot(ai, _sub(qpj, qpi)))
        return _dot(ai, d), gamma, _dot(dai, d) + _dot(ai, dd)
    # ANGLE: theta = atan2(s, c), s = y_i.x_j, c = x_i.x_j
    s, jsi, jsj, gs, ds = _dp1(A, vel, bi, bj, _vec(vecs, r, 1), _vec(vecs, r, 2))
    c, jci, jcj, gc, dc = _dp1(A, vel, bi, bj, _vec(vecs, r, 0), _vec(vecs, r, 2))
    r2 = s * s + c * c
    _put(jac, r, 0, zero, _scale(1.0 / r2, _sub(_scale(c, jsi), _scale(s, jci))))
    _put(jac, r, 1, zero, _scale(1.0 / r2, _sub(_scale(c, jsj), _scale(s, jcj))))
    rate = (c * ds - s * dc) / r2
    gamma = (c * gs - s * gc) / r2 + 2.0 * rate * (s * ds + c * dc) / r2
    return np.arctan2(s, c), gamma, rate


@njit(cache=True)
def wrap_angle(x):
    """Wrap an angle difference to (-pi, pi]."""
    return x - 2.0 * np.pi * np.floor((x + np.pi) / (2.0 * np.pi))
