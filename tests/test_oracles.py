"""Self-checks of the hand-derived reference solutions in tests/oracles.

Every oracle is checked against something derived independently of it:
energy / momentum invariants, a second integrator, finite differences, an
exact closed-form special case, or a Newton-Euler formulation in redundant
coordinates that shares no code with the minimal-coordinate derivation.
"""

import os
import sys

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from scipy.spatial.transform import Rotation

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from oracles import four_bar, pendulum, rigid_body, slider_crank, two_link  # noqa: E402

G = 9.81


def _cross2(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _e(t):
    return np.array([np.cos(t), np.sin(t)])


def _n(t):
    return np.array([-np.sin(t), np.cos(t)])


# =============================================================== pendulum


def test_pendulum_ellipk_convention():
    # K(k = 1/sqrt(2)) = 1.8540746773013719 (tabulated); scipy takes m = k^2 = 1/2.
    T = pendulum.pendulum_period(np.pi / 2, m=1.0, L=1.0, g=G)
    assert T == pytest.approx(4 * np.sqrt(1.0 / G) * 1.8540746773013719, rel=1e-14)
    # small-amplitude limit
    T0 = pendulum.pendulum_period(1e-6, m=2.0, L=0.7, g=G, Jc=0.1)
    assert T0 == pytest.approx(pendulum.small_angle_period(2.0, 0.7, G, 0.1), rel=1e-12)


@pytest.mark.parametrize(
    "theta0,m,L,Jc", [(0.2, 1.0, 1.0, 0.0), (1.0, 2.0, 0.5, 0.0), (2.5, 1.0, 1.0, 1.0 / 12), (3.0, 0.3, 0.8, 0.05)]
)
def test_pendulum_period_matches_ode(theta0, m, L, Jc):
    T = pendulum.pendulum_period(theta0, m, L, G, Jc)
    sol = pendulum.pendulum_ode_solution(theta0, [1.3 * T], m=m, L=L, g=G, Jc=Jc).sol

    def omega(t):
        return sol(t)[1]

    # omega vanishes at T/2 and T (turning points); theta vanishes at T/4 and 3T/4
    t_half = brentq(omega, 0.4 * T, 0.6 * T, xtol=1e-15, rtol=1e-15)
    t_full = brentq(omega, 0.9 * T, 1.1 * T, xtol=1e-15, rtol=1e-15)
    t_q = brentq(lambda t: sol(t)[0], 0.15 * T, 0.35 * T, xtol=1e-15, rtol=1e-15)
    assert t_full == pytest.approx(T, rel=1e-9)
    assert 2 * t_half == pytest.approx(T, rel=1e-9)
    assert 4 * t_q == pytest.approx(T, rel=1e-9)
    # angular speed at the lowest point from energy
    w_bot = pendulum.pendulum_omega_bottom(theta0, m, L, G, Jc)
    assert abs(omega(t_q)) == pytest.approx(w_bot, rel=1e-9)
    assert sol(t_full)[0] == pytest.approx(theta0, abs=1e-9)


def test_pendulum_pivot_reaction_against_com_acceleration():
    m, L, Jc, th0 = 1.5, 0.8, 0.04, 1.2
    T = pendulum.pendulum_period(th0, m, L, G, Jc)
    t = np.linspace(0.05, 1.1 * T, 37)
    s = pendulum.pendulum_ode_solution(th0, t, m=m, L=L, g=G, Jc=Jc)
    # CoM acceleration by central differences of the dense CoM trajectory
    h = 1e-4
    pos = lambda tt: pendulum.pendulum_com_position(s.sol(tt)[0], L)  # noqa: E731
    acc = (pos(t + h) - 2 * pos(t) + pos(t - h)) / h**2
    F_fd = m * acc + np.array([0.0, m * G])
    F = s.pivot_reaction()
    assert np.allclose(F, F_fd, atol=1e-5 * m * G)
    # energy conservation
    E = s.energy()
    assert np.ptp(E) < 1e-10 * m * G * L
    # lowest point: vertical force m g + m L w^2
    t_q = brentq(lambda tt: s.sol(tt)[0], 0.15 * T, 0.35 * T, xtol=1e-15)
    th, w = s.sol(t_q)
    F_bot = pendulum.pivot_reaction(th, w, m, L, G, Jc)
    assert F_bot[0] == pytest.approx(0.0, abs=1e-8)
    assert F_bot[1] == pytest.approx(pendulum.pivot_reaction_bottom(th0, m, L, G, Jc), rel=1e-9)


# =============================================================== two link


def _redundant_accelerations(model, phi1, phi2, w1, w2):
    """Newton-Euler in redundant coordinates (x, y, angle per link) + revolute constraints.

    Unknowns: 6 accelerations + 4 joint-force components; independent of the
    minimal-coordinate Lagrange derivation (uses only kinematics of points).
    Body angle = absolute link angle; the link axis in the body frame is e(0).
    """
    m1, m2, L1, c1, c2 = model.m1, model.m2, model.L1, model.c1, model.c2
    e1, e2, n1, n2 = model.e(phi1), model.e(phi2), model.n(phi1), model.n(phi2)
    # revolute at base:  G1 - c1 e1 = P0 ;  middle: G1 + (L1 - c1) e1 = G2 - c2 e2
    # acceleration-level constraints  C qdd = gamma,  q = (x1, y1, a1, x2, y2, a2)
    C = np.zeros((4, 6))
    gam = np.zeros(4)
    # d2/dt2 (G1 - c1 e1) = aG1 - c1 (al1 n1 - w1^2 e1) = 0
    C[0:2, 0:2] = np.eye(2)
    C[0:2, 2] = -c1 * n1
    gam[0:2] = -c1 * w1**2 * e1
    # d2/dt2 (G1 + (L1-c1) e1 - G2 + c2 e2) = 0
    C[2:4, 0:2] = np.eye(2)
    C[2:4, 2] = (L1 - c1) * n1
    C[2:4, 3:5] = -np.eye(2)
    C[2:4, 5] = c2 * n2
    gam[2:4] = (L1 - c1) * w1**2 * e1 + c2 * w2**2 * e2
    M = np.diag([m1, m1, model.J1, m2, m2, model.J2])
    Q = np.array([m1 * model.g_vec[0], m1 * model.g_vec[1], 0.0, m2 * model.g_vec[0], m2 * model.g_vec[1], 0.0])
    K = np.block([[M, C.T], [C, np.zeros((4, 4))]])
    sol = np.linalg.solve(K, np.concatenate([Q, gam]))
    return sol[[2, 5]]


@pytest.mark.parametrize("convention", ["horizontal", "vertical"])
def test_two_link_lagrange_vs_redundant_newton_euler(convention):
    rng = np.random.default_rng(3)
    model = two_link.DoublePendulum(
        m1=1.3, m2=0.7, L1=1.1, L2=0.9, J1=0.2, J2=0.05, c1=0.4, c2=0.6, g=G, convention=convention
    )
    for _ in range(20):
        p1, p2 = rng.uniform(-np.pi, np.pi, 2)
        w1, w2 = rng.uniform(-5, 5, 2)
        a_min = model.accelerations(p1, p2, w1, w2)
        a_red = _redundant_accelerations(model, p1, p2, w1, w2)
        assert np.allclose(a_min, a_red, rtol=1e-12, atol=1e-12)


def test_two_link_energy_and_integrator_agreement():
    s = two_link.two_link_solution(t_end=10.0)
    t = np.linspace(0, 10, 2001)
    E = s.energy(t)
    assert np.ptp(E) < 1e-9
    # second integrator (implicit Radau) on the early part of the (chaotic) motion
    r = two_link.two_link_solution(t_end=2.0, method="Radau")
    t2 = np.linspace(0, 2, 201)
    assert np.max(np.abs(r.end_effector(t2) - s.end_effector(t2))) < 1e-9
    assert np.max(np.abs(r.angles(t2) - s.angles(t2))) < 1e-9
    # initial state
    assert np.allclose(s.angles([0.0])[0], two_link.TWO_LINK_Q0)
    assert np.allclose(s.rates([0.0])[0], 0.0)


def test_two_link_conventions_and_relative_are_consistent():
    h = two_link.two_link_solution(t_end=3.0, convention="horizontal")
    v = two_link.two_link_model("vertical").simulate(np.array(two_link.TWO_LINK_Q0) + np.pi / 2, t_end=3.0)
    rel = two_link.two_link_solution(t_end=3.0, q0=(0.3, -1.3), relative=True)
    t = np.linspace(0, 3, 301)
    assert np.max(np.abs(h.end_effector(t) - v.end_effector(t))) < 1e-9
    assert np.max(np.abs(h.angles(t) + np.pi / 2 - v.angles(t))) < 1e-9
    assert np.max(np.abs(h.energy(t) - v.energy(t))) < 1e-9
    assert np.max(np.abs(rel.angles(t) - h.angles(t))) < 1e-9
    # "vertical": hanging straight down at phi = 0
    m = two_link.two_link_model("vertical")
    assert np.allclose(m.points(0.0, 0.0)["P2"], [0.0, -2.0])
    m = two_link.two_link_model("horizontal")
    assert np.allclose(m.points(0.0, 0.0)["P2"], [2.0, 0.0])


def test_two_link_kinematics_and_reactions():
    s = two_link.two_link_solution(t_end=4.0)
    m = s.model
    t = np.linspace(0.01, 3.99, 157)
    P0, P1 = s.joint_positions(t)
    G1, G2 = s.com_positions(t)
    P2 = s.end_effector(t)
    assert np.allclose(np.linalg.norm(P1 - P0, axis=1), 1.0)
    assert np.allclose(np.linalg.norm(P2 - P1, axis=1), 1.0)
    assert np.allclose(G1, 0.5 * (P0 + P1)) and np.allclose(G2, 0.5 * (P1 + P2))
    # CoM velocities / accelerations vs central differences of positions
    h = 1e-5
    v1, v2 = s.com_velocities(t)
    Gp, Gm = s.com_positions(t + h), s.com_positions(t - h)
    assert np.allclose(v1, (Gp[0] - Gm[0]) / (2 * h), atol=1e-7)
    assert np.allclose(v2, (Gp[1] - Gm[1]) / (2 * h), atol=1e-7)
    h = 1e-4
    Gp, Gm = s.com_positions(t + h), s.com_positions(t - h)
    a2_fd = (Gp[1] - 2 * G2 + Gm[1]) / h**2
    al = s.angular_accelerations(t)
    y = s.state(t)
    _, aG2 = m.com_accelerations(y[:, 0], y[:, 1], y[:, 2], y[:, 3], al[:, 0], al[:, 1])
    assert np.allclose(aG2, a2_fd, atol=1e-5)
    # reactions satisfy the rotational Newton-Euler equations of each link
    F_base, F_mid = s.reactions(t)
    M1 = _cross2(P0 - G1, F_base) + _cross2(P1 - G1, -F_mid)
    M2 = _cross2(P1 - G2, F_mid)
    assert np.allclose(m.J1 * al[:, 0], M1, atol=1e-10)
    assert np.allclose(m.J2 * al[:, 1], M2, atol=1e-10)
    # at release (rest, no centripetal terms) the middle-joint force is m2 (aG2 - g)
    Fb0, Fm0 = s.reactions([0.0])
    a0 = s.angular_accelerations([0.0])[0]
    n1, n2 = m.n(0.3), m.n(-1.0)
    aG2_0 = m.L1 * a0[0] * n1 + m.c2 * a0[1] * n2
    assert np.allclose(Fm0[0], m.m2 * (aG2_0 - m.g_vec), atol=1e-12)


# =============================================================== slider crank


def _sc_models():
    return [
        slider_crank.SliderCrank(r=0.5, l=1.5, e=0.0, mc=1.0, mr=1.0, ms=1.0, k=20.0, x0=1.2),
        slider_crank.SliderCrank(
            r=0.3,
            l=1.0,
            e=0.12,
            mc=2.0,
            rc=0.1,
            Jc=0.03,
            mr=0.8,
            Jr=0.09,
            rod_com=0.35,
            ms=1.7,
            k=35.0,
            x0=0.9,
            c_damp=2.5,
            F_slider=-3.0,
            g=9.81,
            g_dir=(0.3, -1.0),
        ),
        slider_crank.SliderCrank(
            r=0.25, l=0.9, e=-0.1, mc=0.5, rc=-0.05, mr=1.2, ms=0.4, k=5.0, x0=-0.6, c_damp=0.7, branch=-1
        ),
    ]


@pytest.mark.parametrize("idx", [0, 1, 2])
def test_slider_crank_derivatives_vs_finite_differences(idx):
    sc = _sc_models()[idx]
    th = np.linspace(-np.pi, np.pi, 73)
    h = 1e-5
    fd1 = lambda f: (f(th + h) - f(th - h)) / (2 * h)  # noqa: E731
    fd2 = lambda f: (f(th + h) - 2 * f(th) + f(th - h)) / h**2  # noqa: E731
    assert np.allclose(sc.dx_dtheta(th), fd1(sc.slider_position), atol=1e-8)
    assert np.allclose(sc.d2x_dtheta2(th), fd1(sc.dx_dtheta), atol=1e-8)
    h2 = 1e-4
    fd2 = lambda f: (f(th + h2) - 2 * f(th) + f(th - h2)) / h2**2  # noqa: E731
    assert np.allclose(sc.d2x_dtheta2(th), fd2(sc.slider_position), atol=1e-5)
    wrap = lambda x: np.angle(np.exp(1j * x))  # noqa: E731
    rod_fd = wrap(sc.rod_angle(th + h) - sc.rod_angle(th - h)) / (2 * h)
    assert np.allclose(sc.drod_dtheta(th), rod_fd, atol=1e-8)
    assert np.allclose(sc.d2rod_dtheta2(th), fd1(sc.drod_dtheta), atol=1e-8)
    assert np.allclose(sc.generalized_inertia_derivative(th), fd1(sc.generalized_inertia), atol=1e-8)
    assert np.allclose(sc.dV_dtheta(th), fd1(sc.potential_energy), atol=1e-7)
    assert np.allclose(sc.static_torque(th) + sc.F_slider * sc.dx_dtheta(th), fd1(sc.potential_energy), atol=1e-7)
    # velocity coefficients of every point vs finite differences of the points
    P, Pp, Pm = sc.points(th), sc.points(th + h), sc.points(th - h)
    vc = sc.velocity_coefficients(th)
    vcp, vcm = sc.velocity_coefficients(th + h), sc.velocity_coefficients(th - h)
    for name in ("B", "C", "Gc", "Gr", "Gs"):
        assert np.allclose(vc[name + "1"], (Pp[name] - Pm[name]) / (2 * h), atol=1e-8), name
        assert np.allclose(vc[name + "2"], (vcp[name + "1"] - vcm[name + "1"]) / (2 * h), atol=1e-8)
    # closure: |C - B| = l, slider on the guide, rod angle points from B to C
    assert np.allclose(np.linalg.norm(P["C"] - P["B"], axis=-1), sc.l)
    assert np.allclose(P["C"][:, 1], sc.e)
    phi = sc.rod_angle(th)
    assert np.allclose(P["B"] + sc.l * np.stack([np.cos(phi), np.sin(phi)], -1), P["C"])
    assert np.all(sc.branch * (P["C"][:, 0] - P["B"][:, 0]) > 0)


def _sc_newton_euler_torque(sc, th, wd, wdd):
    """Independent inverse dynamics: planar Newton-Euler of crank, rod, slider.

    Kinematics from the loop equation B + l e(phi) = (x, e) solved as linear
    systems for the rates/accelerations (no closed-form derivatives used).
    Unknowns u = [F_O(2), F_B(2), F_C(2), N, tau]:
      F_O  ground -> crank at O,  F_B crank -> rod at B,  F_C rod -> slider at C,
      N    guide normal force on slider (along y),  tau motor torque on crank.
    """
    r, l, e = sc.r, sc.l, sc.e
    sphi = (e - r * np.sin(th)) / l
    phi = np.arcsin(sphi) if sc.branch == 1 else np.pi - np.arcsin(sphi)
    B = r * _e(th)
    C = B + l * _e(phi)
    # velocity: r wd n(th) + l phid n(phi) - (xd, 0) = 0
    A = np.column_stack([l * _n(phi), [-1.0, 0.0]])
    phid, xd = np.linalg.solve(A, -r * wd * _n(th))
    rhs = -(r * wdd * _n(th) - r * wd**2 * _e(th) - l * phid**2 * _e(phi))
    phidd, xdd = np.linalg.solve(A, rhs)
    aB = r * wdd * _n(th) - r * wd**2 * _e(th)
    aC = np.array([xdd, 0.0])
    Gc = sc.rc * _e(th)
    aGc = sc.rc * (wdd * _n(th) - wd**2 * _e(th))
    Gr = B + sc.rod_com * (C - B)
    aGr = aB + sc.rod_com * (aC - aB)
    gv = sc.g_vec
    F_guide = -sc.k * (C[0] - sc.x0) - sc.c_damp * xd + sc.F_slider
    K = np.zeros((8, 8))
    b = np.zeros(8)

    def cross_row(rvec):  # z-moment of a force f at arm rvec: rvec x f = [-ry, rx] . f
        return np.array([-rvec[1], rvec[0]])

    # crank: mc aGc = F_O - F_B + mc g ;  Jc al = (O-Gc) x F_O + (B-Gc) x (-F_B) + tau
    K[0:2, 0:2] = np.eye(2)
    K[0:2, 2:4] = -np.eye(2)
    b[0:2] = sc.mc * aGc - sc.mc * gv
    K[2, 0:2] = cross_row(-Gc)
    K[2, 2:4] = -cross_row(B - Gc)
    K[2, 7] = 1.0
    b[2] = sc.Jc * wdd
    # rod: mr aGr = F_B - F_C + mr g ;  Jr phidd = (B-Gr) x F_B + (C-Gr) x (-F_C)
    K[3:5, 2:4] = np.eye(2)
    K[3:5, 4:6] = -np.eye(2)
    b[3:5] = sc.mr * aGr - sc.mr * gv
    K[5, 2:4] = cross_row(B - Gr)
    K[5, 4:6] = -cross_row(C - Gr)
    b[5] = sc.Jr * phidd
    # slider (particle): ms aC = F_C + (F_guide, N) + ms g
    K[6:8, 4:6] = np.eye(2)
    K[7, 6] = 1.0
    b[6:8] = sc.ms * aC - sc.ms * gv - np.array([F_guide, 0.0])
    u = np.linalg.solve(K, b)
    return u[7], dict(xd=xd, xdd=xdd, phid=phid, phidd=phidd, F_O=u[0:2], F_B=u[2:4], F_C=u[4:6], N=u[6])


@pytest.mark.parametrize("idx", [0, 1, 2])
def test_slider_crank_virtual_work_vs_newton_euler(idx):
    sc = _sc_models()[idx]
    t = np.linspace(0.0, 2.0, 81)
    # non-uniform prescribed motion
    th = 0.4 + np.pi * t + 0.3 * np.sin(2.1 * t)
    wd = np.pi + 0.63 * np.cos(2.1 * t)
    wdd = -1.323 * np.sin(2.1 * t)
    tau = sc.motor_torque(th, wd, wdd)
    kin = sc.kinematics(th, wd, wdd)
    for i in range(len(t)):
        tau_ne, d = _sc_newton_euler_torque(sc, th[i], wd[i], wdd[i])
        assert tau[i] == pytest.approx(tau_ne, abs=1e-9 * max(1.0, abs(tau_ne)))
        assert kin["xd"][i] == pytest.approx(d["xd"], abs=1e-12)
        assert kin["xdd"][i] == pytest.approx(d["xdd"], abs=1e-10)
        assert kin["phid"][i] == pytest.approx(d["phid"], abs=1e-12)
        assert kin["phidd"][i] == pytest.approx(d["phidd"], abs=1e-10)
    # constant speed ([R3] section 6: theta = pi t) and statics
    tc = np.linspace(0, 2, 21)
    tau_c = sc.torque_constant_speed(tc, omega=np.pi)
    for i, ti in enumerate(tc):
        assert tau_c[i] == pytest.approx(
            _sc_newton_euler_torque(sc, np.pi * ti, np.pi, 0.0)[0], abs=1e-9 * max(1.0, abs(tau_c[i]))
        )
    for thi in np.linspace(0.4, 2.2, 10):
        ts = sc.static_torque(thi)
        assert ts == pytest.approx(_sc_newton_euler_torque(sc, thi, 0.0, 0.0)[0], abs=1e-9)


def test_slider_crank_power_balance():
    sc = _sc_models()[1]
    thf = lambda t: 0.4 + np.pi * t + 0.3 * np.sin(2.1 * t)  # noqa: E731
    wf = lambda t: np.pi + 0.63 * np.cos(2.1 * t)  # noqa: E731
    af = lambda t: -1.323 * np.sin(2.1 * t)  # noqa: E731

    # integral of motor power + non-conservative power = change in mechanical energy
    def rhs(t, y):
        th, w = thf(t), wf(t)
        p_motor = sc.motor_torque(th, w, af(t)) * w
        p_nc = sc.generalized_nonconservative_force(th, w) * w
        return [p_motor + p_nc]

    res = solve_ivp(rhs, (0, 2.0), [0.0], method="DOP853", rtol=1e-12, atol=1e-12)
    dE = sc.mechanical_energy(thf(2.0), wf(2.0)) - sc.mechanical_energy(thf(0.0), wf(0.0))
    assert res.y[0, -1] == pytest.approx(dE, abs=1e-9)


# =============================================================== four bar


def test_four_bar_positions_closure_and_branches():
    fb = four_bar.FourBar(d=1.0, a=0.3, b=1.1, c=0.8)
    assert fb.grashof() and fb.crank_fully_rotates()
    th2 = np.linspace(0, 2 * np.pi, 721)
    for br in (1, -1):
        th3, th4 = fb.positions(th2, branch=br)
        assert np.max(np.abs(fb.loop_residual(th2, th3, th4))) < 1e-13
        # continuity over a full turn (no toggle for a crank-rocker)
        assert np.max(np.abs(np.diff(np.unwrap(th4)))) < 0.05
        assert np.max(np.abs(np.diff(np.unwrap(th3)))) < 0.05
    th3p, th4p = fb.positions(th2, 1)
    th3m, th4m = fb.positions(th2, -1)
    assert np.all(np.abs(np.angle(np.exp(1j * (th4p - th4m)))) > 1e-3)
    # parallelogram a = c, b = d: open branch gives theta3 = 0, theta4 = theta2 for theta2 in (0, pi)
    par = four_bar.FourBar(d=1.0, a=0.4, b=1.0, c=0.4)
    t = np.linspace(0.1, np.pi - 0.1, 30)
    t3, t4 = par.positions(t, branch=1)
    assert np.allclose(t3, 0.0, atol=1e-12) and np.allclose(t4, t, atol=1e-12)
    with pytest.raises(ValueError):
        four_bar.FourBar(d=1.0, a=0.9, b=0.2, c=0.2).positions(np.pi)


@pytest.mark.parametrize("br", [1, -1])
def test_four_bar_velocities_accelerations_vs_finite_differences(br):
    fb = four_bar.FourBar(d=1.0, a=0.3, b=1.1, c=0.8, branch=br)
    t = np.linspace(0.0, 3.0, 61)
    thf = lambda t: 0.2 + 2.0 * t + 0.4 * np.sin(1.7 * t)  # noqa: E731
    wf = lambda t: 2.0 + 0.68 * np.cos(1.7 * t)  # noqa: E731
    af = lambda t: -1.156 * np.sin(1.7 * t)  # noqa: E731
    th3, th4, w3, w4, a3, a4 = fb.accelerations(thf(t), wf(t), af(t))
    h = 1e-5
    p_plus, p_minus = fb.positions(thf(t + h)), fb.positions(thf(t - h))
    p0 = fb.positions(thf(t))
    wrap = lambda x: np.angle(np.exp(1j * x))  # noqa: E731
    assert np.allclose(w3, wrap(p_plus[0] - p_minus[0]) / (2 * h), atol=1e-7)
    assert np.allclose(w4, wrap(p_plus[1] - p_minus[1]) / (2 * h), atol=1e-7)
    h2 = 1e-4
    q_plus, q_minus = fb.positions(thf(t + h2)), fb.positions(thf(t - h2))
    a3_fd = (wrap(q_plus[0] - p0[0]) - wrap(p0[0] - q_minus[0])) / h2**2
    a4_fd = (wrap(q_plus[1] - p0[1]) - wrap(p0[1] - q_minus[1])) / h2**2
    assert np.allclose(a3, a3_fd, atol=1e-5)
    assert np.allclose(a4, a4_fd, atol=1e-5)
    # point kinematics: B reached through the rocker must match B through the coupler
    pk = fb.point_kinematics(thf(t), wf(t), af(t))
    e4 = np.stack([np.cos(th4), np.sin(th4)], -1)
    n4 = np.stack([-np.sin(th4), np.cos(th4)], -1)
    assert np.allclose(pk["B"], np.array([1.0, 0.0]) + 0.8 * e4, atol=1e-13)
    assert np.allclose(pk["B_vel"], 0.8 * w4[:, None] * n4, atol=1e-12)
    assert np.allclose(pk["B_acc"], 0.8 * (a4[:, None] * n4 - (w4**2)[:, None] * e4), atol=1e-10)


# =============================================================== rigid body


def test_rigid_body_symmetric_top_exact():
    """Axisymmetric body: exact body rates and attitude (regular precession)."""
    I1, I3 = 2.0, 0.7
    J = np.array([I1, I1, I3])
    w0 = np.array([0.9, -0.4, 3.0])
    R0 = Rotation.from_rotvec([0.3, -0.2, 0.5]).as_matrix()
    t = np.linspace(0, 10, 201)
    for att in ("quaternion", "matrix"):
        s = rigid_body.simulate_torque_free(J, w0, 10.0, R0=R0, attitude=att)
        Om = (I3 - I1) / I1 * w0[2]
        w_perp0 = w0[0] + 1j * w0[1]
        w_perp = w_perp0 * np.exp(1j * Om * t)
        w_ex = np.column_stack([w_perp.real, w_perp.imag, np.full_like(t, w0[2])])
        assert np.max(np.abs(s.omega(t) - w_ex)) < 1e-10
        H = R0 @ (J * w0)
        wp = np.linalg.norm(H) / I1
        R_ex = (
            Rotation.from_rotvec(np.outer(t * wp, H / np.linalg.norm(H))).as_matrix()
            @ R0
            @ Rotation.from_rotvec(np.outer(-t * Om, [0, 0, 1.0])).as_matrix()
        )
        assert np.max(np.abs(s.rotation(t) - R_ex)) < 1e-9


def test_rigid_body_invariants_and_attitude_representations():
    J = np.array([1.0, 2.0, 3.0])
    w0 = rigid_body.intermediate_axis_spin(J, 5.0, eps=1e-2)
    R0 = Rotation.from_rotvec([0.1, 0.7, -0.4]).as_matrix()
    T = 15.0
    sq = rigid_body.simulate_torque_free(J, w0, T, R0=R0, attitude="quaternion")
    sm = rigid_body.simulate_torque_free(J, w0, T, R0=R0, attitude="matrix")
    t = np.linspace(0, T, 601)
    H0 = rigid_body.angular_momentum_world(R0, w0, J)
    E0 = rigid_body.kinetic_energy(w0, J)
    for s in (sq, sm):
        assert np.max(np.abs(s.angular_momentum_world(t) - H0)) < 1e-9 * np.linalg.norm(H0)
        assert np.max(np.abs(s.energy(t) - E0)) < 1e-9 * E0
        R = s.rotation(t)
        assert np.max(np.abs(np.einsum("nji,njk->nik", R, R) - np.eye(3))) < 1e-9
    assert np.max(np.abs(sq.rotation(t) - sm.rotation(t))) < 1e-8
    assert np.max(np.abs(sq.omega(t) - sm.omega(t))) < 1e-8
    q = sq.quaternion(t)
    assert np.allclose(rigid_body.quat_to_matrix(q), sq.rotation(t))
    # matrix_to_quat round-trip
    for Rk in R[::50]:
        assert np.allclose(rigid_body.quat_to_matrix(rigid_body.matrix_to_quat(Rk)), Rk)
    # full inertia matrix input is equivalent to rotated principal frame
    Q = Rotation.from_rotvec([0.2, 0.3, -0.1]).as_matrix()
    Jfull = Q @ np.diag(J) @ Q.T
    assert np.allclose(rigid_body.euler_rhs(Q @ w0, Jfull), Q @ rigid_body.euler_rhs(w0, J))


def _zero_crossings(f, t0, t1, n=4000):
    ts = np.linspace(t0, t1, n)
    v = f(ts)
    idx = np.nonzero(np.sign(v[:-1]) * np.sign(v[1:]) < 0)[0]
    return np.array([brentq(lambda x: f(np.array([x]))[0], ts[i], ts[i + 1], xtol=1e-14) for i in idx])


@pytest.mark.parametrize(
    "J,w0",
    [
        ((1.0, 2.0, 3.0), None),  # Dzhanibekov: intermediate axis, eps=1e-3
        ((3.0, 1.0, 2.0), None),  # unsorted axes
        ((1.0, 2.0, 3.0), (0.5, 1.0, 2.0)),  # around the major axis (H^2 > 2T Ib)
        ((1.0, 2.0, 3.0), (3.0, 1.0, 0.4)),  # around the minor axis (H^2 < 2T Ib)
    ],
)
def test_rigid_body_flip_period_vs_numerics(J, w0):
    J = np.array(J)
    if w0 is None:
        w0 = rigid_body.intermediate_axis_spin(J, 4.0, eps=1e-3)
    w0 = np.asarray(w0, dtype=float)
    P = rigid_body.body_rate_period(J, w0)
    dt = rigid_body.dzhanibekov_flip_interval(J, w0)
    assert dt == pytest.approx(P / 2)
    s = rigid_body.simulate_torque_free(J, w0, 2.6 * P)
    ib = int(np.argsort(J)[1])
    z = _zero_crossings(lambda tt: s.omega(tt)[:, ib], 0.0, 2.6 * P)
    assert len(z) >= 4
    assert np.allclose(np.diff(z), dt, rtol=1e-8)
    # omega returns to its initial value after one period
    assert np.allclose(s.omega([P])[0], w0, atol=1e-8 * np.linalg.norm(w0))
