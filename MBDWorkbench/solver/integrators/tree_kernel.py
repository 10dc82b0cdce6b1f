"""Joint-coordinate dynamics of an open tree of revolute, prismatic and fixed joints, in Numba:
Featherstone's articulated-body algorithm [Featherstone, Rigid Body Dynamics Algorithms,
2008, ch. 7] in global coordinates, and the RK4 step loop on the joint coordinates.

Spatial vectors are Plücker coordinates in the global frame at the global origin O: a motion
[w; v_O] (angular velocity [rad/s]; velocity [m/s] of the body point passing through O), a
force [n_O; f] (moment about O [N m]; force [N]). Working at one point for every body, the
articulated inertias of children add to their parent's without coordinate transforms.

Body b hangs from its parent p (-1: the ground) by its joint: the joint frame fixed in p
(rotation ``Fp[b]``, columns x, y, z; origin ``op[b]``, in p's principal frame, or global for
the ground) and the frame fixed in b (``G[b]``, origin ``oc[b]``) satisfy
``A_b G_b = A_p Fp_b Rz(theta)`` and ``x_b + A_b oc_b = x_p + A_p op_b + s z``, with theta the
revolute's angle [rad] (0 for the other kinds) and s the prismatic joint's displacement [m]
(0 for the other kinds); a fixed joint has neither (its coordinate stays 0). Tree arrays
(``TreeStatic``): ``order`` (parents before children), ``parent``, ``kind``, ``Fp``, ``op``,
``GT`` (= G transposed), ``oc``, and the bodies' mass
[kg], principal moments [kg m^2] and gravity [m/s^2]; the kernels read them packed, one row per body
(``geo``: the frames, origins, mass and moments at the columns G_*; ``topo``: order, parent, kind and
drive), and write the per-body work into one array ``TreeWork.W`` (columns W_*; the fields x, V, S, C,
IA, pA, U, D, u, a are views of it): a compiled call then takes a few arrays, not twenty (each array
crossing a call costs reference counts, more than a small tree's arithmetic).

A driven joint (``drive[b]``: the index of its driver's profile program f in the pack, -1: free)
has its coordinate prescribed, q = ``drive_offset[b]`` + ``drive_sign[b]`` f(t) (sign -1 where the
tree's child is the joint's body_i), and its rates from f' and f''. The articulated-body algorithm
then hands the child's whole articulated inertia to the parent with the bias of the prescribed
acceleration (hybrid dynamics, [RBDA] ch. 9), and the effort the joint must
supply is tau = S' (IA a + pA) [N m or N] (``TreeWork.tau``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import kernels
from ..numerics.jets import eval_jet
from ..numerics.jit import njit
from .power import account_power

REVOLUTE, PRISMATIC, FIXED = 0, 1, 2  # joint kinds (FIXED: no coordinate of its own, q = qd = 0)
# columns of TreeStatic.geo (per body): Fp (3x3, rows), op, GT (3x3, rows), oc, mass, principal moments
G_FP, G_OP, G_GT, G_OC, G_M, G_J, G_N = 0, 9, 12, 21, 24, 25, 28
T_ORDER, T_PARENT, T_KIND, T_DRIVE = 0, 1, 2, 3  # columns of TreeStatic.topo
# columns of TreeWork.W (per body): x, V, S, C, IA (6x6, rows), pA, U, D, u, a
W_X, W_V, W_S, W_C, W_I, W_P, W_U, W_D, W_UU, W_A, W_N = 0, 3, 9, 15, 21, 57, 63, 69, 70, 71, 77

TreeStatic = namedtuple(
    "TreeStatic", "order parent kind Fp op GT oc mass inertia gravity drive drive_sign drive_offset geo topo"
)
TreeWork = namedtuple("TreeWork", "x A V S C IA pA U D u a Yb Q qddp tau W kq kv xq xv")


def tree_static(order, parent, kind, Fp, op, GT, oc, mass, inertia, gravity, drive, drive_sign, drive_offset):
    """The :class:`TreeStatic` of these arrays (module docstring), with their packed rows geo and topo."""
    nb = parent.shape[0]
    geo = np.concatenate([Fp.reshape(nb, 9), op, GT.reshape(nb, 9), oc, mass.reshape(nb, 1), inertia], axis=1)
    topo = np.stack([order, parent, kind, drive], axis=1).astype(np.int64)
    return TreeStatic(order, parent, kind, Fp, op, GT, oc, mass, inertia, gravity, drive, drive_sign, drive_offset,
                      np.ascontiguousarray(geo), np.ascontiguousarray(topo))  # fmt: skip


def new_tree_work(nb: int) -> TreeWork:
    """Work arrays of :func:`tree_accelerations` for nb bodies (x, V, S, C, IA, pA, U, D, u, a: views of
    the packed W), and :func:`run_tree`'s stage buffers (kq, kv: the 4 stages' rates and
    accelerations; xq, xv: a stage's coordinates and rates)."""
    W = np.zeros((nb, W_N))
    return TreeWork(
        x=W[:, W_X : W_X + 3],
        A=np.zeros((nb, 3, 3)),
        V=W[:, W_V : W_V + 6],
        S=W[:, W_S : W_S + 6],
        C=W[:, W_C : W_C + 6],
        IA=W[:, W_I : W_I + 36].reshape(nb, 6, 6),
        pA=W[:, W_P : W_P + 6],
        U=W[:, W_U : W_U + 6],
        D=W[:, W_D],
        u=W[:, W_UU],
        a=W[:, W_A : W_A + 6],
        Yb=np.zeros(13 * nb),
        Q=np.zeros(6 * nb),
        qddp=np.zeros(nb),
        tau=np.zeros(nb),
        W=W,
        kq=np.zeros((4, nb)),
        kv=np.zeros((4, nb)),
        xq=np.zeros(nb),
        xv=np.zeros(nb),
    )


@njit(cache=True, inline="always")
def _place(b, q, qd, topo, geo, A, W):
    """Pose (x [m], A), spatial velocity V, joint axis S and velocity-product acceleration C
    of body b from its parent's (already placed) and its joint coordinate and rate."""
    p = topo[b, T_PARENT]
    if p >= 0:
        a00, a01, a02, a10, a11, a12 = A[p, 0, 0], A[p, 0, 1], A[p, 0, 2], A[p, 1, 0], A[p, 1, 1], A[p, 1, 2]
        a20, a21, a22, t0, t1, t2 = A[p, 2, 0], A[p, 2, 1], A[p, 2, 2], W[p, W_X], W[p, W_X + 1], W[p, W_X + 2]
    else:
        a00, a01, a02, a10, a11, a12 = 1.0, 0.0, 0.0, 0.0, 1.0, 0.0
        a20, a21, a22, t0, t1, t2 = 0.0, 0.0, 1.0, 0.0, 0.0, 0.0
    o0, o1, o2 = geo[b, G_OP], geo[b, G_OP + 1], geo[b, G_OP + 2]
    P0 = t0 + a00 * o0 + a01 * o1 + a02 * o2  # the joint point [m]
    P1 = t1 + a10 * o0 + a11 * o1 + a12 * o2
    P2 = t2 + a20 * o0 + a21 * o1 + a22 * o2
    f00, f01, f02 = geo[b, G_FP], geo[b, G_FP + 1], geo[b, G_FP + 2]
    f10, f11, f12 = geo[b, G_FP + 3], geo[b, G_FP + 4], geo[b, G_FP + 5]
    f20, f21, f22 = geo[b, G_FP + 6], geo[b, G_FP + 7], geo[b, G_FP + 8]
    # B = A_p Fp (rows), its third column is the joint axis z
    b00, b01, b02 = (
        a00 * f00 + a01 * f10 + a02 * f20,
        a00 * f01 + a01 * f11 + a02 * f21,
        a00 * f02 + a01 * f12 + a02 * f22,
    )
    b10, b11, b12 = (
        a10 * f00 + a11 * f10 + a12 * f20,
        a10 * f01 + a11 * f11 + a12 * f21,
        a10 * f02 + a11 * f12 + a12 * f22,
    )
    b20, b21, b22 = (
        a20 * f00 + a21 * f10 + a22 * f20,
        a20 * f01 + a21 * f11 + a22 * f21,
        a20 * f02 + a21 * f12 + a22 * f22,
    )
    kind = topo[b, T_KIND]
    theta = q[b] if kind == REVOLUTE else 0.0
    cs, sn = np.cos(theta), np.sin(theta)
    # A_b = B Rz(theta) G'
    c00, c01 = cs * b00 + sn * b01, -sn * b00 + cs * b01
    c10, c11 = cs * b10 + sn * b11, -sn * b10 + cs * b11
    c20, c21 = cs * b20 + sn * b21, -sn * b20 + cs * b21
    for k in range(3):
        g0, g1, g2 = geo[b, G_GT + k], geo[b, G_GT + 3 + k], geo[b, G_GT + 6 + k]
        A[b, 0, k] = c00 * g0 + c01 * g1 + b02 * g2
        A[b, 1, k] = c10 * g0 + c11 * g1 + b12 * g2
        A[b, 2, k] = c20 * g0 + c21 * g1 + b22 * g2
    z0, z1, z2 = b02, b12, b22
    if kind == PRISMATIC:
        P0, P1, P2 = P0 + q[b] * z0, P1 + q[b] * z1, P2 + q[b] * z2
    e0, e1, e2 = geo[b, G_OC], geo[b, G_OC + 1], geo[b, G_OC + 2]
    W[b, W_X] = P0 - (A[b, 0, 0] * e0 + A[b, 0, 1] * e1 + A[b, 0, 2] * e2)
    W[b, W_X + 1] = P1 - (A[b, 1, 0] * e0 + A[b, 1, 1] * e1 + A[b, 1, 2] * e2)
    W[b, W_X + 2] = P2 - (A[b, 2, 0] * e0 + A[b, 2, 1] * e1 + A[b, 2, 2] * e2)
    if kind == REVOLUTE:
        W[b, W_S], W[b, W_S + 1], W[b, W_S + 2] = z0, z1, z2
        W[b, W_S + 3], W[b, W_S + 4], W[b, W_S + 5] = P1 * z2 - P2 * z1, P2 * z0 - P0 * z2, P0 * z1 - P1 * z0
    else:
        z = 1.0 if kind == PRISMATIC else 0.0
        W[b, W_S], W[b, W_S + 1], W[b, W_S + 2] = 0.0, 0.0, 0.0
        W[b, W_S + 3], W[b, W_S + 4], W[b, W_S + 5] = z * z0, z * z1, z * z2
    for k in range(6):
        W[b, W_V + k] = (W[p, W_V + k] if p >= 0 else 0.0) + W[b, W_S + k] * qd[b]
    _cross_motion(b, W, qd[b])


@njit(cache=True, inline="always")
def _cross_motion(b, W, scale):
    """C[b] = V[b] x (scale S[b]) for motion vectors (Featherstone's crm)."""
    w0, w1, w2 = W[b, W_V], W[b, W_V + 1], W[b, W_V + 2]
    u0, u1, u2 = W[b, W_V + 3], W[b, W_V + 4], W[b, W_V + 5]
    a0, a1, a2 = scale * W[b, W_S], scale * W[b, W_S + 1], scale * W[b, W_S + 2]
    b0, b1, b2 = scale * W[b, W_S + 3], scale * W[b, W_S + 4], scale * W[b, W_S + 5]
    W[b, W_C] = w1 * a2 - w2 * a1
    W[b, W_C + 1] = w2 * a0 - w0 * a2
    W[b, W_C + 2] = w0 * a1 - w1 * a0
    W[b, W_C + 3] = w1 * b2 - w2 * b1 + u1 * a2 - u2 * a1
    W[b, W_C + 4] = w2 * b0 - w0 * b2 + u2 * a0 - u0 * a2
    W[b, W_C + 5] = w0 * b1 - w1 * b0 + u0 * a1 - u1 * a0


@njit(cache=True, inline="always")
def _body_inertia(b, geo, A, W):
    """IA[b] = the spatial inertia of body b about O (centre of gravity x[b], principal moments
    in the frame A[b])."""
    m = geo[b, G_M]
    j0, j1, j2 = geo[b, G_J], geo[b, G_J + 1], geo[b, G_J + 2]
    c0, c1, c2 = W[b, W_X], W[b, W_X + 1], W[b, W_X + 2]
    cc = c0 * c0 + c1 * c1 + c2 * c2
    c = (c0, c1, c2)
    for r in range(3):
        for k in range(3):
            s = A[b, r, 0] * j0 * A[b, k, 0] + A[b, r, 1] * j1 * A[b, k, 1]
            s += A[b, r, 2] * j2 * A[b, k, 2]
            W[b, W_I + 6 * r + k] = s + m * ((cc if r == k else 0.0) - c[r] * c[k])
            W[b, W_I + 6 * (3 + r) + 3 + k] = m if r == k else 0.0
    # m [c]x (upper right) and its transpose (lower left)
    o = W_I + 3
    W[b, o], W[b, o + 1], W[b, o + 2] = 0.0, -m * c2, m * c1
    W[b, o + 6], W[b, o + 7], W[b, o + 8] = m * c2, 0.0, -m * c0
    W[b, o + 12], W[b, o + 13], W[b, o + 14] = -m * c1, m * c0, 0.0
    for r in range(3):
        for k in range(3):
            W[b, W_I + 6 * (3 + k) + r] = W[b, W_I + 6 * r + 3 + k]


@njit(cache=True, inline="always")
def _bias_force(b, W):
    """pA[b] = V x* (I V): the velocity-product force of body b [N m; N]."""
    w0, w1, w2 = W[b, W_V], W[b, W_V + 1], W[b, W_V + 2]
    u0, u1, u2 = W[b, W_V + 3], W[b, W_V + 4], W[b, W_V + 5]
    i = W_I
    h0 = W[b, i] * w0 + W[b, i + 1] * w1 + W[b, i + 2] * w2 + W[b, i + 3] * u0 + W[b, i + 4] * u1 + W[b, i + 5] * u2
    i = W_I + 6
    h1 = W[b, i] * w0 + W[b, i + 1] * w1 + W[b, i + 2] * w2 + W[b, i + 3] * u0 + W[b, i + 4] * u1 + W[b, i + 5] * u2
    i = W_I + 12
    h2 = W[b, i] * w0 + W[b, i + 1] * w1 + W[b, i + 2] * w2 + W[b, i + 3] * u0 + W[b, i + 4] * u1 + W[b, i + 5] * u2
    i = W_I + 18
    h3 = W[b, i] * w0 + W[b, i + 1] * w1 + W[b, i + 2] * w2 + W[b, i + 3] * u0
    i = W_I + 24
    h4 = W[b, i] * w0 + W[b, i + 1] * w1 + W[b, i + 2] * w2 + W[b, i + 4] * u1
    i = W_I + 30
    h5 = W[b, i] * w0 + W[b, i + 1] * w1 + W[b, i + 2] * w2 + W[b, i + 5] * u2
    W[b, W_P] = w1 * h2 - w2 * h1 + u1 * h5 - u2 * h4
    W[b, W_P + 1] = w2 * h0 - w0 * h2 + u2 * h3 - u0 * h5
    W[b, W_P + 2] = w0 * h1 - w1 * h0 + u0 * h4 - u1 * h3
    W[b, W_P + 3] = w1 * h5 - w2 * h4
    W[b, W_P + 4] = w2 * h3 - w0 * h5
    W[b, W_P + 5] = w0 * h4 - w1 * h3


@njit(cache=True)
def _body_states(nb, A, W, Yb):
    """The body coordinates of the force elements (kernels.py) in Yb: position [m], global
    centre-of-gravity velocity [m/s], body-frame angular velocity [rad/s] (not the quaternions:
    the elements take the rotations from A)."""
    for b in range(nb):
        o = 7 * nb + 6 * b
        w0, w1, w2 = W[b, W_V], W[b, W_V + 1], W[b, W_V + 2]
        c0, c1, c2 = W[b, W_X], W[b, W_X + 1], W[b, W_X + 2]
        Yb[7 * b], Yb[7 * b + 1], Yb[7 * b + 2] = c0, c1, c2
        Yb[o] = W[b, W_V + 3] + w1 * c2 - w2 * c1
        Yb[o + 1] = W[b, W_V + 4] + w2 * c0 - w0 * c2
        Yb[o + 2] = W[b, W_V + 5] + w0 * c1 - w1 * c0
        for k in range(3):
            Yb[o + 3 + k] = A[b, 0, k] * w0 + A[b, 1, k] * w1 + A[b, 2, k] * w2


@njit(cache=True)
def _subtract_element_loads(nb, A, Q, W):
    """pA -= the force elements' loads Q (global force at the centre of gravity, body-frame
    torque per body) as forces at O."""
    for b in range(nb):
        F0, F1, F2 = Q[6 * b], Q[6 * b + 1], Q[6 * b + 2]
        T0, T1, T2 = Q[6 * b + 3], Q[6 * b + 4], Q[6 * b + 5]
        c0, c1, c2 = W[b, W_X], W[b, W_X + 1], W[b, W_X + 2]
        for r in range(3):
            W[b, W_P + r] -= A[b, r, 0] * T0 + A[b, r, 1] * T1 + A[b, r, 2] * T2
        W[b, W_P] -= c1 * F2 - c2 * F1
        W[b, W_P + 1] -= c2 * F0 - c0 * F2
        W[b, W_P + 2] -= c0 * F1 - c1 * F0
        W[b, W_P + 3] -= F0
        W[b, W_P + 4] -= F1
        W[b, W_P + 5] -= F2


@njit(cache=True, inline="always")
def _articulate(b, p, W, whole):
    """Backward pass at body b: its joint's U = IA S, D = S' U, u = -S' pA, and what it hands
    to its parent p (if any): IA - U U'/D and pA + (IA - U U'/D) C + U u/D. A ``whole`` joint
    (fixed, or driven: its acceleration known, in C) gets U = 0, u = 0, D = 1: it hands over IA
    and pA + IA C whole, and its formula gives qdd = 0."""
    d, uu, uc = 0.0, 0.0, 0.0
    s0, s1, s2, s3, s4, s5 = W[b, W_S], W[b, W_S + 1], W[b, W_S + 2], W[b, W_S + 3], W[b, W_S + 4], W[b, W_S + 5]
    c0, c1, c2, c3, c4, c5 = W[b, W_C], W[b, W_C + 1], W[b, W_C + 2], W[b, W_C + 3], W[b, W_C + 4], W[b, W_C + 5]
    for r in range(6):
        o = W_I + 6 * r
        i0, i1, i2, i3, i4, i5 = W[b, o], W[b, o + 1], W[b, o + 2], W[b, o + 3], W[b, o + 4], W[b, o + 5]
        ur = 0.0 if whole else i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3 + i4 * s4 + i5 * s5
        W[b, W_U + r] = ur
        d += W[b, W_S + r] * ur
        uu -= W[b, W_S + r] * W[b, W_P + r]
        uc += ur * W[b, W_C + r]
        if p >= 0:
            W[p, W_P + r] += W[b, W_P + r] + i0 * c0 + i1 * c1 + i2 * c2 + i3 * c3 + i4 * c4 + i5 * c5
    if whole:
        d, uu = 1.0, 0.0
    W[b, W_D], W[b, W_UU] = d, uu
    if p < 0:
        return
    g = (uu - uc) / d  # the rest of pA + IA C - U (U'C)/D + U u/D
    for r in range(6):
        ur = W[b, W_U + r] / d
        W[p, W_P + r] += W[b, W_U + r] * g
        for k in range(6):
            W[p, W_I + 6 * r + k] += W[b, W_I + 6 * r + k] - ur * W[b, W_U + k]


@njit(cache=True)
def _place_all(q, qd, topo, geo, A, W) -> None:
    """Place every body (:func:`_place`) and set its own spatial inertia and bias force."""
    for i in range(topo.shape[0]):
        b = topo[i, T_ORDER]
        _place(b, q, qd, topo, geo, A, W)
        _body_inertia(b, geo, A, W)
        _bias_force(b, W)


@njit(cache=True, inline="always")
def _element_loads(t, nb, A, W, Yb, Q, F, P) -> float:
    """Subtract the force elements' loads from the bias forces pA; returns their
    non-conservative power [W] (F, P: :func:`_force_arrays`, :func:`_programs`)."""
    _body_states(nb, A, W, Yb)
    Q[:] = 0.0
    _, Pnc = kernels.force_elements_arrays(
        t, 0, nb, Yb, A, Q, 0.0, 0.0, F[0], F[1], F[2], F[3], F[4], F[5], F[6], P[0], P[1], P[2], P[3], P[4], P[5],
        P[6], P[7], P[8],
    )  # fmt: skip
    _subtract_element_loads(nb, A, Q, W)
    return Pnc


@njit(cache=True)
def _joint_accelerations(topo, gravity, W, qd, qddp, qdd, tau) -> float:
    """The backward (articulated inertias) and forward (accelerations) passes: qdd; a driven
    joint's qdd is qddp, its effort tau [N m or N]. Returns the drivers' power sum tau qd [W]."""
    nb = topo.shape[0]
    for i in range(nb):
        b = topo[i, T_ORDER]
        if topo[b, T_DRIVE] >= 0:  # its prescribed acceleration's part of the bias
            for k in range(6):
                W[b, W_C + k] += W[b, W_S + k] * qddp[b]
    for i in range(nb - 1, -1, -1):
        b = topo[i, T_ORDER]
        _articulate(b, topo[b, T_PARENT], W, topo[b, T_KIND] == FIXED or topo[b, T_DRIVE] >= 0)
    for i in range(nb):
        b = topo[i, T_ORDER]
        p = topo[b, T_PARENT]
        for k in range(6):  # gravity as an acceleration of the ground: -g
            W[b, W_A + k] = (W[p, W_A + k] if p >= 0 else (-gravity[k - 3] if k >= 3 else 0.0)) + W[b, W_C + k]
        s = W[b, W_UU]
        for k in range(6):
            s -= W[b, W_U + k] * W[b, W_A + k]
        qdd[b] = s / W[b, W_D]
        for k in range(6):
            W[b, W_A + k] += W[b, W_S + k] * qdd[b]
    power = 0.0
    for b in range(nb):
        if topo[b, T_DRIVE] >= 0:
            qdd[b] = qddp[b]
            tau[b] = _joint_force(b, W)
            power += tau[b] * qd[b]
    return power


@njit(cache=True, inline="always")
def _joint_force(b, W) -> float:
    """S' (IA a + pA) of body b: the effort its joint transmits along its own axis [N m or N]."""
    f = 0.0
    for r in range(6):
        s = W[b, W_P + r]
        for k in range(6):
            s += W[b, W_I + 6 * r + k] * W[b, W_A + k]
        f += W[b, W_S + r] * s
    return f


@njit(cache=True, inline="always")
def _prescribe(t, q, qd, qddp, drive, drive_sign, drive_offset, P) -> None:
    """The driven coordinates' q, qd and qdd (qddp) at t [s] from their profiles (P: :func:`_programs`)."""
    for b in range(drive.shape[0]):
        k = drive[b]
        if k >= 0:
            f, fd, fdd = eval_jet(k, t, P[0], P[1], P[2], P[3], P[4], P[5], P[6], P[7], P[8])
            sign = drive_sign[b]
            q[b], qd[b], qddp[b] = drive_offset[b] + sign * f, sign * fd, sign * fdd


@njit(cache=True, inline="always")
def _programs(S) -> tuple:
    """The profile programs' arrays of S, in :func:`kernels.force_elements_arrays`' order. (S itself is
    not handed on in the step loop: binding a namedtuple of 45 arrays increfs every one, about half a
    microsecond a time.)"""
    return (S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x, S.p_table_y, S.p_table_start,
            S.p_table_base, S.p_stack)  # fmt: skip


@njit(cache=True, inline="always")
def _force_arrays(S) -> tuple:
    """The force elements' arrays of S, in :func:`kernels.force_elements_arrays`' order."""
    return S.force_start, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_prog, S.force_flag


@njit(cache=True)
def tree_accelerations(t, q, qd, T, TW, S, qdd) -> tuple[float, float]:
    """qdd [rad/s^2 or m/s^2] of the joint coordinates at (t, q, qd) (the driven ones' q and qd set
    from their profiles first, their efforts in TW.tau); returns the force elements'
    non-conservative power and the drivers' power [W] (what :func:`run_tree` does at each stage)."""
    P = _programs(S)
    _prescribe(t, q, qd, TW.qddp, T.drive, T.drive_sign, T.drive_offset, P)
    _place_all(q, qd, T.topo, T.geo, TW.A, TW.W)
    Pnc = 0.0
    if S.force_bi.shape[0] > 0:
        Pnc = _element_loads(t, q.shape[0], TW.A, TW.W, TW.Yb, TW.Q, _force_arrays(S), P)
    Pdrv = _joint_accelerations(T.topo, T.gravity, TW.W, qd, TW.qddp, qdd, TW.tau)
    return Pnc, Pdrv


@njit(cache=True, refcounts=False)  # per output interval with T, TW and S: no reference counts (jit.py)
def run_tree(t, q, qd, h, nsteps, T, TW, S, acc, Y) -> tuple[int, int]:
    """Advance the joint coordinates q and rates qd in place by ``nsteps`` RK4 steps of size
    h [s] (the driven ones set from their profiles at each stage and step), then write the bodies'
    state Y (:func:`write_body_state`). Returns (steps done, status): a step whose accelerations
    are not finite is not taken. (The stage is :func:`tree_accelerations` written out, the force
    pass inlined: passing the namedtuples to a compiled call costs about a microsecond in
    reference counts, more than a small tree's stage; see kernels.derivatives. S's arrays are taken
    out once (:func:`_programs`); nothing is allocated here: the stage buffers are TW's.)"""
    n = q.shape[0]
    kq, kv, xq, xv = TW.kq, TW.kv, TW.xq, TW.xv
    topo, geo, gravity, A, W, Yb, Q, qddp, tau = T.topo, T.geo, T.gravity, TW.A, TW.W, TW.Yb, TW.Q, TW.qddp, TW.tau
    drive, drive_sign, drive_offset = T.drive, T.drive_sign, T.drive_offset
    loads, P, F = S.force_bi.shape[0] > 0, _programs(S), _force_arrays(S)
    for step in range(nsteps):
        for stage in range(4):
            f = 0.0 if stage == 0 else (1.0 if stage == 3 else 0.5)
            for i in range(n):
                xq[i] = q[i] + f * h * kq[stage - 1, i] if stage > 0 else q[i]
                xv[i] = qd[i] + f * h * kv[stage - 1, i] if stage > 0 else qd[i]
            _prescribe(t + f * h, xq, xv, qddp, drive, drive_sign, drive_offset, P)
            for i in range(n):
                kq[stage, i] = xv[i]
            _place_all(xq, xv, topo, geo, A, W)
            Pnc = _element_loads(t + f * h, n, A, W, Yb, Q, F, P) if loads else 0.0
            Pdrv = _joint_accelerations(topo, gravity, W, xv, qddp, kv[stage], tau)
            for i in range(n):
                if not np.isfinite(kv[stage, i]):
                    write_body_state(q, qd, T, TW, Y)
                    return step, kernels.NOT_FINITE
            if stage == 0:
                account_power(acc, t, Pdrv, Pnc)
        for i in range(n):
            q[i] += h / 6.0 * (kq[0, i] + 2.0 * kq[1, i] + 2.0 * kq[2, i] + kq[3, i])
            qd[i] += h / 6.0 * (kv[0, i] + 2.0 * kv[1, i] + 2.0 * kv[2, i] + kv[3, i])
        t += h
        _prescribe(t, q, qd, qddp, drive, drive_sign, drive_offset, P)  # exactly on the profile
    write_body_state(q, qd, T, TW, Y)
    return nsteps, kernels.OK


@njit(cache=True)
def _matrix_to_quaternion(A, out):
    """The unit quaternion of the rotation A (Shepperd's method), with the sign of ``out``'s
    previous value (continuous samples)."""
    tr = A[0, 0] + A[1, 1] + A[2, 2]
    w, x, y, z = 0.0, 0.0, 0.0, 0.0
    if tr >= A[0, 0] and tr >= A[1, 1] and tr >= A[2, 2]:
        s = 2.0 * np.sqrt(1.0 + tr)
        w, x, y, z = 0.25 * s, (A[2, 1] - A[1, 2]) / s, (A[0, 2] - A[2, 0]) / s, (A[1, 0] - A[0, 1]) / s
    elif A[0, 0] >= A[1, 1] and A[0, 0] >= A[2, 2]:
        s = 2.0 * np.sqrt(1.0 + A[0, 0] - A[1, 1] - A[2, 2])
        w, x, y, z = (A[2, 1] - A[1, 2]) / s, 0.25 * s, (A[0, 1] + A[1, 0]) / s, (A[0, 2] + A[2, 0]) / s
    elif A[1, 1] >= A[2, 2]:
        s = 2.0 * np.sqrt(1.0 + A[1, 1] - A[0, 0] - A[2, 2])
        w, x, y, z = (A[0, 2] - A[2, 0]) / s, (A[0, 1] + A[1, 0]) / s, 0.25 * s, (A[1, 2] + A[2, 1]) / s
    else:
        s = 2.0 * np.sqrt(1.0 + A[2, 2] - A[0, 0] - A[1, 1])
        w, x, y, z = (A[1, 0] - A[0, 1]) / s, (A[0, 2] + A[2, 0]) / s, (A[1, 2] + A[2, 1]) / s, 0.25 * s
    n = np.sqrt(w * w + x * x + y * y + z * z)
    if w * out[0] + x * out[1] + y * out[2] + z * out[3] < 0.0:
        n = -n
    out[0], out[1], out[2], out[3] = w / n, x / n, y / n, z / n


@njit(cache=True)
def write_body_state(q, qd, T, TW, Y) -> None:
    """Y = [q, v] in body coordinates (solver/system.py) of the tree at joint coordinates q
    and rates qd; the quaternions keep the signs they had in Y."""
    nb = q.shape[0]
    topo, geo, A, W = T.topo, T.geo, TW.A, TW.W
    for i in range(nb):
        _place(topo[i, T_ORDER], q, qd, topo, geo, A, W)
    _body_states(nb, A, W, TW.Yb)
    for b in range(nb):
        for k in range(3):
            Y[7 * b + k] = TW.Yb[7 * b + k]
        _matrix_to_quaternion(A[b], Y[7 * b + 3 : 7 * b + 7])
    Y[7 * nb :] = TW.Yb[7 * nb :]
