"""Independent checks of MBDWorkbench.showcase.ankle (2-DoF parallel ankle, [R2] in docs/references.md).

Reference quantities are rebuilt here from first principles (own rotation
matrices, own point reconstruction, finite differences, static equilibrium),
never from numbers printed by the module.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from MBDWorkbench.showcase import ankle  # noqa: E402

EX, EY, EZ = np.eye(3)
GRID = np.linspace(-0.35, 0.35, 8)


def rodrigues(axis, angle):
    """Independent axis-angle rotation matrix."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    Kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * Kx + (1 - np.cos(angle)) * Kx @ Kx


def foot_R(roll, pitch):
    # first axis: ground Y (pitch); second: the foot's own X (roll)
    return rodrigues(EY, pitch) @ rodrigues(EX, roll)


def rebuild(geom_pts, theta, roll, pitch):
    """World B_k, C_k from raw geometry points (not from the module)."""
    A, B0, C0 = geom_pts
    B = np.array([A[k] + rodrigues(EY, theta[k]) @ (B0[k] - A[k]) for k in range(2)])
    C = np.array([foot_R(roll, pitch) @ C0[k] for k in range(2)])
    return B, C


DEFAULT_PTS = (
    np.array([[0.0, 0.035, 0.25], [0.0, -0.035, 0.25]]),
    np.array([[-0.05, 0.035, 0.25], [-0.05, -0.035, 0.25]]),
    np.array([[-0.05, 0.035, -0.01], [-0.05, -0.035, -0.01]]),
)
# asymmetric, bars not normal to the motor axis (AB0_y != 0)
SKEW_PTS = (
    np.array([[0.004, 0.037, 0.262], [-0.003, -0.033, 0.248]]),
    np.array([[-0.046, 0.040, 0.265], [-0.052, -0.031, 0.240]]),
    np.array([[-0.048, 0.041, -0.014], [-0.055, -0.030, -0.006]]),
)


def make(pts):
    A, B0, C0 = pts
    return ankle.AnkleGeometry(A1=A[0], A2=A[1], B1_0=B0[0], B2_0=B0[1], C1_0=C0[0], C2_0=C0[1])


@pytest.fixture(params=["default", "skew"])
def case(request):
    pts = DEFAULT_PTS if request.param == "default" else SKEW_PTS
    geom = ankle.AnkleGeometry() if request.param == "default" else make(pts)
    return geom, pts


def lengths(pts):
    A, B0, C0 = pts
    return np.linalg.norm(B0 - A, axis=1), np.linalg.norm(C0 - B0, axis=1)


# ---------------------------------------------------------------- mobility
def test_grubler_count_of_the_design_note():
    assert ankle.grubler_mobility(6, 7, 14) == 2  # [R2] section 1: 6(6-7-1)+14
    assert ankle.ankle_mobility() == 2
    assert ankle.grubler_mobility(4, 4, 8 - 1) == 1  # RSSR four-bar sanity


# ---------------------------------------------------------------- geometry
def test_default_geometry_matches_documented_points():
    g = ankle.AnkleGeometry()
    A, B0, C0 = DEFAULT_PTS
    np.testing.assert_array_equal(g.A, A)
    np.testing.assert_array_equal(g.B0, B0)
    np.testing.assert_array_equal(g.C0, C0)
    np.testing.assert_allclose(g.L_rod, [0.26, 0.26], atol=1e-15)
    np.testing.assert_allclose(g.L_bar, [0.05, 0.05], atol=1e-15)
    np.testing.assert_array_equal(g.motor_axis, EY)


def test_foot_rotation_convention():
    for r, p in [(0.3, -0.2), (-0.1, 0.33), (0.0, 0.0)]:
        R = ankle.foot_rotation(r, p)
        np.testing.assert_allclose(R, foot_R(r, p), atol=1e-15)
        # the roll axis is the foot X axis: R e_x = RotY(p) e_x (unaffected by roll)
        np.testing.assert_allclose(R @ EX, rodrigues(EY, p) @ EX, atol=1e-15)


def test_zero_pose_gives_zero_motor_angles(case):
    geom, _ = case
    np.testing.assert_allclose(ankle.inverse_kinematics(geom, 0.0, 0.0), [0, 0], atol=1e-12)
    np.testing.assert_allclose(ankle.forward_kinematics(geom, 0.0, 0.0), [0, 0], atol=1e-12)


# ---------------------------------------------------------------- IK
@pytest.mark.parametrize("branch", [+1, -1])
def test_ik_closes_loops(case, branch):
    geom, pts = case
    Lbar, Lrod = lengths(pts)
    A = pts[0]
    for r in GRID:
        for p in GRID:
            th = ankle.inverse_kinematics(geom, r, p, branch=branch)
            B, C = rebuild(pts, th, r, p)
            np.testing.assert_allclose(np.linalg.norm(B - C, axis=1), Lrod, rtol=0, atol=1e-12)
            np.testing.assert_allclose(np.linalg.norm(B - A, axis=1), Lbar, rtol=0, atol=1e-12)
            P = ankle.leg_points(geom, th, r, p)
            np.testing.assert_allclose(P["B"], B, atol=1e-14)
            np.testing.assert_allclose(P["C"], C, atol=1e-14)


def test_branches_are_the_two_assembly_modes(case):
    geom, pts = case
    A = pts[0]
    B0, C0 = rebuild(pts, (0.0, 0.0), 0.0, 0.0)
    home = np.sign([EY @ np.cross(B0[k] - A[k], C0[k] - B0[k]) for k in range(2)])
    for r, p in [(0.2, -0.3), (-0.35, 0.35), (0.0, 0.1)]:
        for branch in (+1, -1):
            th = ankle.inverse_kinematics(geom, r, p, branch=branch)
            B, C = rebuild(pts, th, r, p)
            s = np.sign([EY @ np.cross(B[k] - A[k], C[k] - B[k]) for k in range(2)])
            np.testing.assert_array_equal(s, branch * home)


def test_ik_solves_design_note_sin_quadratic(case):
    geom, _ = case
    for r, p in [(0.2, -0.3), (-0.35, 0.35), (0.1, 0.0)]:
        th = ankle.inverse_kinematics(geom, r, p)
        K, N, M = ankle.ik_coefficients(geom, r, p)
        for k in range(2):
            s = np.sin(th[k])
            q = 4 * (N[k] ** 2 + K[k] ** 2) * s * s - 4 * M[k] * K[k] * s + M[k] ** 2 - 4 * N[k] ** 2
            assert abs(q) < 1e-12 * (N[k] ** 2 + K[k] ** 2)
            assert np.min(np.abs(ankle.sin_quadratic_roots(K[k], N[k], M[k]) - s)) < 1e-9
            assert abs(K[k] * s + N[k] * np.cos(th[k]) - M[k] / 2) < 1e-15


def test_unreachable_poses_raise_naming_leg():
    g = ankle.AnkleGeometry()
    with pytest.raises(ValueError, match="leg 1"):
        ankle.inverse_kinematics(g, 0.7, 0.7)
    with pytest.raises(ValueError, match="leg 2"):  # mirror pose
        ankle.inverse_kinematics(g, -0.7, 0.7)
    with pytest.raises(ValueError, match="leg"):
        ankle.inverse_kinematics(g, 0.0, 1.4)
    with pytest.raises(ValueError):
        ankle.inverse_kinematics(g, 0.0, 0.0, branch=0)
    with pytest.raises(RuntimeError):
        ankle.forward_kinematics(g, 0.4, -0.3, max_iter=1)


# ---------------------------------------------------------------- Jacobians
POSES = [(0.0, 0.0), (0.2, -0.15), (-0.3, 0.3), (0.35, 0.35), (-0.1, -0.33)]


def test_jq_matches_angular_velocity_of_foot_rotation():
    h = 1e-6
    for r, p in POSES:
        qd = np.array([0.7, -1.3])
        Rd = (foot_R(r + h * qd[0], p + h * qd[1]) - foot_R(r - h * qd[0], p - h * qd[1])) / (2 * h)
        W = Rd @ foot_R(r, p).T
        w = np.array([W[2, 1], W[0, 2], W[1, 0]])
        _, Jq, _ = ankle.jacobian_parts(ankle.AnkleGeometry(), None, r, p)
        np.testing.assert_allclose(Jq @ qd, np.r_[0, 0, 0, w], atol=1e-8)


def test_jacobian_vs_fd_of_forward_kinematics(case):
    geom, _ = case
    h = 1e-5
    for r, p in POSES:
        th = np.array(ankle.inverse_kinematics(geom, r, p))
        J = ankle.jacobian(geom, th, r, p)
        Jfd = np.zeros((2, 2))
        for j in range(2):
            d = np.zeros(2)
            d[j] = h
            fp = ankle.forward_kinematics(geom, *(th + d), guess=(r, p))
            fm = ankle.forward_kinematics(geom, *(th - d), guess=(r, p))
            Jfd[:, j] = (np.array(fp) - np.array(fm)) / (2 * h)
        np.testing.assert_allclose(J, Jfd, rtol=0, atol=1e-7)


def test_inverse_jacobian_vs_fd_of_inverse_kinematics(case):
    geom, _ = case
    h = 1e-6
    for r, p in POSES:
        th = ankle.inverse_kinematics(geom, r, p)
        Jinv = np.linalg.inv(ankle.jacobian(geom, th, r, p))
        Jfd = np.column_stack(
            [
                (
                    np.array(ankle.inverse_kinematics(geom, r + h, p))
                    - np.array(ankle.inverse_kinematics(geom, r - h, p))
                )
                / (2 * h),
                (
                    np.array(ankle.inverse_kinematics(geom, r, p + h))
                    - np.array(ankle.inverse_kinematics(geom, r, p - h))
                )
                / (2 * h),
            ]
        )
        np.testing.assert_allclose(Jinv, Jfd, rtol=0, atol=1e-8)


def test_jacobian_parts_compose(case):
    geom, _ = case
    for r, p in POSES:
        th = ankle.inverse_kinematics(geom, r, p)
        Jx, Jq, Jt = ankle.jacobian_parts(geom, th, r, p)
        assert Jx.shape == (2, 6) and Jq.shape == (6, 2) and Jt.shape == (2, 2)
        J = ankle.jacobian(geom, th, r, p)
        np.testing.assert_allclose(Jx @ Jq @ J, Jt, atol=1e-15)


def test_force_jacobian_virtual_work_random_rates(case):
    """Motor power F.theta_dot equals foot power tau.q_dot, with q_dot from FD of FK."""
    geom, _ = case
    rng = np.random.default_rng(1)
    h = 1e-5
    for r, p in POSES:
        th = np.array(ankle.inverse_kinematics(geom, r, p))
        JT = ankle.force_jacobian(geom, th, r, p)
        for _ in range(3):
            thd = rng.normal(size=2)
            tau = rng.normal(size=2)
            qd = (
                np.array(ankle.forward_kinematics(geom, *(th + h * thd), guess=(r, p)))
                - np.array(ankle.forward_kinematics(geom, *(th - h * thd), guess=(r, p)))
            ) / (2 * h)
            F = JT @ tau
            assert abs(F @ thd - tau @ qd) < 1e-7 * (1 + np.abs(tau) @ np.abs(qd))
            np.testing.assert_allclose(ankle.foot_torque_from_motor_torque(geom, th, r, p, F), tau, atol=1e-12)


def test_force_jacobian_vs_static_equilibrium(case):
    """Motor torques from rod/U-joint statics equal -J^T tau_ext for a foot moment."""
    geom, pts = case
    A = pts[0]
    rng = np.random.default_rng(7)
    for r, p in POSES:
        th = ankle.inverse_kinematics(geom, r, p)
        B, C = rebuild(pts, th, r, p)
        u = (B - C) / np.linalg.norm(B - C, axis=1)[:, None]  # rod force on foot = t_k u_k
        xf = rodrigues(EY, p) @ EX  # foot-side Hooke axis
        n = np.cross(EY, xf)  # moment carried by the Hooke joint
        m_ext = rng.normal(size=3)
        Mat = np.column_stack([np.cross(C[0], u[0]), np.cross(C[1], u[1]), n])
        t1, t2, _ = np.linalg.solve(Mat, -m_ext)
        motor = np.array([EY @ np.cross(B[k] - A[k], t * u[k]) for k, t in enumerate((t1, t2))])
        tau_ext = np.array([m_ext @ xf, m_ext @ EY])
        np.testing.assert_allclose(ankle.euler_torque_from_moment(r, p, m_ext), tau_ext, atol=1e-15)
        F = ankle.force_jacobian(geom, th, r, p) @ (-tau_ext)
        np.testing.assert_allclose(F, motor, rtol=1e-10, atol=1e-13)


def test_far_from_singular_over_workspace():
    g = ankle.AnkleGeometry()
    Lbar, Lrod = lengths(DEFAULT_PTS)
    for r in GRID:
        for p in GRID:
            th = ankle.inverse_kinematics(g, r, p)
            B, C = rebuild(DEFAULT_PTS, th, r, p)
            for k in range(2):  # transmission: |sin(bar, rod) in the motor plane| > 0.75
                jt = EY @ np.cross(B[k] - DEFAULT_PTS[0][k], C[k] - B[k])
                assert abs(jt) > 0.75 * Lbar[k] * Lrod[k]
            assert np.linalg.cond(ankle.jacobian(g, th, r, p)) < 2.0


# ---------------------------------------------------------------- FK
def test_fk_inverts_ik_on_grid(case):
    geom, _ = case
    for r in GRID:
        for p in GRID:
            th = ankle.inverse_kinematics(geom, r, p)
            np.testing.assert_allclose(ankle.forward_kinematics(geom, *th), (r, p), rtol=0, atol=1e-10)


def test_fk_other_guess_and_branch():
    g = ankle.AnkleGeometry()
    th = ankle.inverse_kinematics(g, -0.25, 0.3)
    np.testing.assert_allclose(ankle.forward_kinematics(g, *th, guess=(0.3, -0.3)), (-0.25, 0.3), atol=1e-10)
    th = ankle.inverse_kinematics(g, 0.15, -0.2, branch=-1)
    np.testing.assert_allclose(ankle.forward_kinematics(g, *th, guess=(0.1, -0.1), branch=-1), (0.15, -0.2), atol=1e-10)


# ---------------------------------------------------------------- tables / fit
def test_actuator_map_table(case):
    geom, pts = case
    rg = np.linspace(-0.35, 0.35, 9)
    pg = np.linspace(-0.3, 0.3, 7)
    tab = ankle.actuator_map_table(geom, rg, pg)
    assert tab["theta1"].shape == (9, 7) and tab["J"].shape == (9, 7, 2, 2)
    assert tab["valid"].all()
    Lbar, Lrod = lengths(pts)
    for i, r in enumerate(rg):
        for j, p in enumerate(pg):
            th = (tab["theta1"][i, j], tab["theta2"][i, j])
            B, C = rebuild(pts, th, r, p)
            np.testing.assert_allclose(np.linalg.norm(B - C, axis=1), Lrod, atol=1e-12)
            np.testing.assert_allclose(tab["J"][i, j] @ tab["J_inv"][i, j], np.eye(2), atol=1e-12)
    bad = ankle.actuator_map_table(ankle.AnkleGeometry(), [0.0, 0.7], [0.7])
    assert bad["valid"].tolist() == [[True], [False]]
    assert np.isnan(bad["theta1"][1, 0])


def test_fit_actuator_map():
    g = ankle.AnkleGeometry()
    grid = np.linspace(-0.35, 0.35, 15)
    fit = ankle.fit_actuator_map(g, grid, grid, degree=3)
    assert len(fit.exponents) == 10 and fit.coeffs.shape == (10, 2)
    # recompute the reported grid error independently
    err = np.max([np.abs(fit(r, p) - np.array(ankle.inverse_kinematics(g, r, p))) for r in grid for p in grid], axis=0)
    np.testing.assert_allclose(fit.max_error, err, rtol=1e-9)
    assert np.all(fit.max_error < 5e-3)
    rng = np.random.default_rng(3)
    for r, p in rng.uniform(-0.35, 0.35, size=(20, 2)):
        e = np.abs(fit(r, p) - np.array(ankle.inverse_kinematics(g, r, p)))
        assert np.all(e <= 1.5 * np.maximum(fit.max_error, fit.max_error_check))
    fit5 = ankle.fit_actuator_map(g, grid, grid, degree=5)
    assert np.all(fit5.max_error < fit.max_error)
    np.testing.assert_allclose(fit(0.0, 0.0), [0, 0], atol=5e-3)
