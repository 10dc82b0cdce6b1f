"""Coulomb joint friction with true stiction (model.joint_friction, system.friction) against
closed forms and an independent SciPy solution of the 1-DoF friction pendulum."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from MBDWorkbench.solver import ModelError, from_dict, simulate

G = 9.81
MASS = 2.0


def incline_model(theta, mu_s, mu_k, integrator="rk4", t_end=2.0, step=1e-2, force=None):
    """A block on a prismatic joint down an incline of angle theta [rad] (joint z axis downhill,
    origin at the block's centre: the joint carries no moment), with an optional point force."""
    down = [np.cos(theta), 0.0, -np.sin(theta)]
    frame = {"origin": [0, 0, 0], "z_axis": down, "x_axis": [np.sin(theta), 0.0, np.cos(theta)]}
    slide = {"name": "slide", "type": "prismatic", "body_i": "ground", "body_j": "block", "frame": frame,
             "friction": {"mu_s": mu_s, "mu_k": mu_k}}  # fmt: skip
    block = {"name": "block", "mass": MASS, "inertia": [0.1, 0.1, 0.1]}
    settings = {"t_end": t_end, "step": step, "output_step": 0.05, "integrator": integrator, "accuracy": False}
    forces = [{"name": "push", "type": "point_force", "body": "block", "force": force}] if force else []
    return from_dict({"gravity": [0, 0, -G], "bodies": [block], "joints": [slide], "forces": forces,
                      "settings": settings})  # fmt: skip


@pytest.mark.parametrize("integrator", ["rk4", "bdf"])
def test_no_creep_below_the_friction_angle(integrator):
    """tan(20 deg) = 0.36 < mu_s = 0.5: the block sticks; it moves less than 1e-9 m in 10 s, the
    friction holds m g sin(theta) and the joint reports stick."""
    theta = np.radians(20.0)
    res = simulate(incline_model(theta, 0.5, 0.4, integrator, t_end=10.0, step=0.05))
    assert res.status == "completed"
    assert np.abs(res.joint_coordinate("slide")[:, 0]).max() < 1e-9
    fr = res.joint_friction("slide")
    assert np.all(fr["state"] == 1)
    assert fr["effort"][:, 0] == pytest.approx(-MASS * G * np.sin(theta), rel=1e-9)  # uphill: against z
    assert fr["normal"] == pytest.approx(MASS * G * np.cos(theta), rel=1e-9)


@pytest.mark.parametrize("integrator", ["rk4", "symplectic_euler", "bdf", "radau", "lsoda"])
def test_sliding_above_the_friction_angle(integrator):
    """tan(30 deg) = 0.58 > mu_s = 0.5: the block slides with a = g (sin t - mu_k cos t); the
    friction work balances the energy."""
    theta, mu_k = np.radians(30.0), 0.4
    res = simulate(incline_model(theta, 0.5, mu_k, integrator))
    assert res.status == "completed"
    a = G * (np.sin(theta) - mu_k * np.cos(theta))
    x = res.joint_coordinate("slide")[:, 0]
    lag = 1e-2 if integrator == "symplectic_euler" else 0.0  # its x_n = a h^2 n (n + 1) / 2, h = 1e-2
    assert x[1:] == pytest.approx(0.5 * a * res.t[1:] * (res.t[1:] + lag), abs=1e-6 * x[-1])
    fr = res.joint_friction("slide")
    assert np.all(fr["state"][1:] == 0)
    assert fr["effort"][1:, 0] == pytest.approx(-mu_k * MASS * G * np.cos(theta), rel=1e-9)
    e = res.energy()
    tol = 2e-2 if integrator == "symplectic_euler" else 1e-4  # first order: its work lags by h / t
    assert e["work_nonconservative"][-1] == pytest.approx(-mu_k * MASS * G * np.cos(theta) * x[-1], rel=tol)
    assert np.abs(e["balance"]).max() < tol * abs(e["work_nonconservative"][-1])


def test_breakaway_under_a_ramped_force():
    """A block on a level slide pushed by F = k t: it sticks until k t = mu_s m g, then slides
    with m x'' = k t - mu_k m g (closed form x = k (t - tb)^3 / 6m + (mu_s - mu_k) g (t - tb)^2 / 2)."""
    k, mu_s, mu_k, h = 4.0, 0.5, 0.3, 1e-3
    res = simulate(incline_model(0.0, mu_s, mu_k, "rk4", t_end=4.0, step=h, force=[f"{k}*t", 0, 0]))
    assert res.status == "completed"
    tb = mu_s * MASS * G / k
    x, t = res.joint_coordinate("slide")[:, 0], res.t
    assert np.abs(x[t < tb - h]).max() < 1e-12
    state = res.joint_friction("slide")["state"]
    assert np.all(state[t < tb - h] == 1) and np.all(state[t > tb + h] == 0)
    after = t > tb + 0.1
    s = t[after] - tb
    closed = k * s**3 / (6 * MASS) + (mu_s - mu_k) * G * s**2 / 2
    assert np.abs(x[after] - closed).max() < 1e-3 * closed.max()  # the breakaway found within one step


# ----------------------------------------------------------------------------- friction pendulum
L_ARM, M_ARM, I_CG, THETA0 = 0.5, 1.0, 0.02, 0.5
I_PIVOT = I_CG + M_ARM * L_ARM**2


def pendulum_model(mu_s, mu_k, radius, integrator="rk4", t_end=5.0, step=1e-3, joint="revolute"):
    """A bar swinging about a z axle at the origin (gravity -y), its CoG L_ARM from the axle, released
    at THETA0 from the downward vertical, with Coulomb pin (or ball) friction of the given radius."""
    key = "ball_radius" if joint == "spherical" else "pin_radius"
    pin = {"name": "pin", "type": joint, "body_i": "ground", "body_j": "arm",
           "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
           "friction": {"mu_s": mu_s, "mu_k": mu_k, key: radius}}  # fmt: skip
    arm = {"name": "arm", "mass": M_ARM, "inertia": [0.01, 0.01, I_CG],
           "position": [L_ARM * np.sin(THETA0), -L_ARM * np.cos(THETA0), 0.0]}  # fmt: skip
    settings = {"t_end": t_end, "step": step, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    return from_dict({"gravity": [0, -G, 0], "bodies": [arm], "joints": [pin], "settings": settings})


def pin_load(theta, rate, acc):
    """|F| [N]: the pin's reaction on the bar, m (a_cg - g) with a_cg = L (acc t - rate^2 p), in the
    tangent/radial components (t = (cos, sin), p = (sin, -cos), g = (0, -G))."""
    f_t = M_ARM * (L_ARM * acc + G * np.sin(theta))
    f_p = -M_ARM * (L_ARM * rate**2 + G * np.cos(theta))
    return float(np.hypot(f_t, f_p))


def reference_turning_points(mu_s, mu_k, radius, t_end):
    """Independent 1-DoF solution: I theta'' = -m g L sin(theta) - s mu_k r N(theta, theta', theta'')
    in each half swing (s its direction; N solved for with theta''), ended at theta' = 0; it sticks
    at a turning point where m g L |sin theta| <= mu_s r m g (at rest N = m g). Returns the turning
    points [(t, theta)] and the angle it sticks at (None if it does not within t_end)."""

    def rhs(t, y, s):
        acc = 0.0
        for _ in range(12):  # a contraction by mu r m L / I ~ 0.03
            acc = (-M_ARM * G * L_ARM * np.sin(y[0]) - s * mu_k * radius * pin_load(y[0], y[1], acc)) / I_PIVOT
        return [y[1], acc]

    t, theta, points = 0.0, THETA0, []
    while t < t_end:
        if L_ARM * abs(np.sin(theta)) <= mu_s * radius:
            return points, theta
        s = -np.sign(theta)
        turn = lambda t, y, s: y[1]  # noqa: E731 - the rate back at 0 (not the start's 0: direction)
        turn.terminal, turn.direction = True, -s
        sol = solve_ivp(rhs, (t, t_end), [theta, 0.0], args=(s,), events=turn, rtol=1e-12, atol=1e-14,
                        first_step=1e-6)  # fmt: skip
        if not sol.t_events[0].size:
            break
        t, theta = sol.t_events[0][0], sol.y_events[0][0][0]
        points.append((t, theta))
    return points, None


def simulated_turning_points(res, joint="pin"):
    """[(t, theta)] at the sign changes of the angle rate (parabola through the three samples)."""
    q = THETA0 + res.joint_coordinate(joint)[:, 0]
    w = res.joint_coordinate_rate(joint)[:, 0]
    out = []
    for k in np.nonzero((w[1:-1] * w[2:] < 0) | ((w[1:-1] != 0) & (w[2:] == 0)))[0] + 1:
        a, b, c = q[k - 1 : k + 2]
        d = a - 2 * b + c
        shift = 0.5 * (a - c) / d if d else 0.0
        out.append((res.t[k] + shift * (res.t[1] - res.t[0]), b - 0.25 * (a - c) * shift))
    return out


@pytest.mark.parametrize("integrator", ["rk4", "bdf"])
def test_pendulum_amplitude_loss(integrator):
    """Pin friction (mu 0.3, r 20 mm): the turning points agree with the independent solution to
    1e-4 rad; the loss per half swing is near 2 T_f / (m g L) with T_f = mu r m g (constant-torque
    estimate, within 20 %); the friction work (work_nonconservative) equals the loss of potential
    energy between turning points, and the energy balance holds."""
    mu, r = 0.3, 0.02
    res = simulate(pendulum_model(mu, mu, r, integrator, t_end=3.0, step=2e-3))
    assert res.status == "completed"
    ref, _ = reference_turning_points(mu, mu, r, 3.0)
    sim = simulated_turning_points(res)
    assert len(sim) == len(ref) >= 3
    for (ts, qs), (tr, qr) in zip(sim, ref):
        assert abs(qs - qr) < 1e-4 and abs(ts - tr) < 2e-3
    loss = np.abs(np.diff(np.abs([THETA0] + [q for _, q in ref])))
    assert loss == pytest.approx(2 * mu * r * G * M_ARM / (M_ARM * G * L_ARM), rel=0.2)
    e = res.energy()
    t_last, q_last = ref[-1]  # at rest there: the friction work is the loss of potential energy
    work = e["work_nonconservative"][np.argmin(np.abs(res.t - t_last))]
    assert work == pytest.approx(M_ARM * G * L_ARM * (np.cos(THETA0) - np.cos(q_last)), rel=1e-3)
    assert np.abs(e["balance"]).max() < 1e-4 * abs(work)


def test_pendulum_sticks_and_holds():
    """Large pin friction (mu_s 0.8, mu_k 0.6, r 50 mm): the bar stops at the turning point the
    independent solution stops at (l |sin theta| <= mu_s r), and then stays within 1e-9 rad."""
    mu_s, mu_k, r = 0.8, 0.6, 0.05
    res = simulate(pendulum_model(mu_s, mu_k, r, "rk4", t_end=3.5, step=2e-3))
    assert res.status == "completed"
    points, stuck_at = reference_turning_points(mu_s, mu_k, r, 3.5)
    assert stuck_at is not None
    t_stick = points[-1][0]
    q = THETA0 + res.joint_coordinate("pin")[:, 0]
    state = res.joint_friction("pin")["state"]
    held = res.t > t_stick + 0.01
    assert np.all(state[held] == 1)
    assert abs(q[held][0] - stuck_at) < 1e-4
    assert np.ptp(q[held]) < 1e-9


def test_ball_joint_friction_matches_the_pin():
    """A ball joint of radius r swinging in a plane loads its friction with |F|, as the pin of the
    same radius does when the bar has no axial or bending load: the same motion."""
    pin = simulate(pendulum_model(0.3, 0.3, 0.02, "rk4", t_end=1.5, step=2e-3))
    ball = simulate(pendulum_model(0.3, 0.3, 0.02, "rk4", t_end=1.5, step=2e-3, joint="spherical"))
    assert ball.status == "completed"
    assert ball.position("arm") == pytest.approx(pin.position("arm"), abs=1e-9)


def test_cylindrical_friction_cone():
    """A ring (I = m r^2 about its axis) spinning at w0 and sliding at v0 on a level cylindrical
    joint: the slip velocity (r w, v) shrinks along its own direction at mu_k g, so both stop
    together at t = |(r w0, v0)| / (mu_k g), then stick."""
    m, r, w0, v0, mu = 1.5, 0.05, 20.0, 0.8, 0.2
    frame = {"origin": [0, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]}
    joint = {"name": "shaft", "type": "cylindrical", "body_i": "ground", "body_j": "ring", "frame": frame,
             "friction": {"mu_s": mu, "pin_radius": r}}  # fmt: skip
    ring = {"name": "ring", "mass": m, "inertia": [m * r**2, 0.6 * m * r**2, 0.6 * m * r**2],
            "velocity": [v0, 0, 0], "angular_velocity": [w0, 0, 0]}  # fmt: skip
    settings = {"t_end": 1.0, "step": 1e-3, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    res = simulate(from_dict({"gravity": [0, 0, -G], "bodies": [ring], "joints": [joint], "settings": settings}))
    assert res.status == "completed"
    speed0 = np.hypot(r * w0, v0)
    t_stop = speed0 / (mu * G)
    v, w = res.velocity("ring")[:, 0], res.angular_velocity("ring")[:, 0]
    moving = res.t < t_stop - 2e-3
    frac = 1 - mu * G * res.t[moving] / speed0
    assert v[moving] == pytest.approx(v0 * frac, abs=1e-6)
    assert w[moving] == pytest.approx(w0 * frac, abs=1e-6 / r)
    stopped = res.t > t_stop + 2e-3
    assert np.abs(v[stopped]).max() < 1e-12 and np.abs(w[stopped]).max() < 1e-12
    assert np.all(res.joint_friction("shaft")["state"][stopped] == 1)


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("integrator", ["galpha", "cros", "rk4_tree"])
def test_index3_and_tree_integrators_refuse_friction(integrator):
    with pytest.raises(ModelError, match=r"joint 'slide' has friction.*rk4"):
        simulate(incline_model(0.3, 0.5, 0.4, integrator, t_end=0.1))


@pytest.mark.parametrize(
    "friction, field, words",
    [
        ({"mu_s": -0.1}, "mu_s", "must lie in"),
        ({"mu_s": 0.3, "mu_k": 0.5}, "mu_k", "must not exceed mu_s"),
        ({"mu_k": 0.3}, "mu_s", "needs the static"),
        ({"mu_s": 0.3, "pin_radius": 0.0}, "pin_radius", "must be positive"),
        ({"mu_s": 0.3}, "pin_radius", "needs the pin_radius"),
        ({"mu_s": 0.3, "pin_radius": 0.01, "ball_radius": 0.01}, "ball_radius", "has no ball_radius"),
        ({"mu_s": 0.3, "grip": 1}, "grip", "unknown field"),
    ],
)
def test_bad_friction_is_refused_naming_joint_and_field(friction, field, words):
    model = pendulum_model(0.1, 0.1, 0.01).to_dict()
    model["joints"][0]["friction"] = friction
    with pytest.raises(ModelError, match=words) as info:
        simulate(from_dict(model))
    assert info.value.path == f"joints[0].friction.{field}"
    assert "joint 'pin'" in str(info.value)


def test_friction_on_a_joint_without_it_is_refused():
    model = pendulum_model(0.1, 0.1, 0.01).to_dict()
    model["joints"][0]["type"] = "fixed"
    with pytest.raises(ModelError, match="friction is modelled on revolute"):
        simulate(from_dict(model))


def test_a_fixed_point_that_diverges_stops_the_run_naming_the_joint():
    """mu r m L / I ~ 9 (mu 10 on a 0.5 m pin): the friction feeds back on its own load faster than
    it converges (no consistent slip load, Painleve-like); the run stops with a message naming the joint."""
    from MBDWorkbench.solver import SimulationError

    model = pendulum_model(10.0, 10.0, 0.5, "rk4", t_end=0.05)
    model.bodies[0].angular_velocity = [0.0, 0.0, 5.0]
    with pytest.raises(SimulationError, match="joint 'pin': the friction load and the joint reaction did not converge"):
        simulate(model)


def test_zero_kinetic_friction_solve_matches_the_kernels():
    """The dense friction solve with no friction load (slipping, mu_k = 0) gives the kernels' dY/dt."""
    from MBDWorkbench.solver.system.system import System

    model = pendulum_model(0.3, 0.0, 0.02)
    model.bodies[0].angular_velocity = [0.0, 0.0, 1.5]
    system = System(model)
    Y = system.Y0.copy()
    with_friction = system.derivative(0.0, Y)
    system.friction = None
    assert with_friction == pytest.approx(system.derivative(0.0, Y), abs=1e-12)


def test_results_files_and_report_table(tmp_path):
    """joints.csv holds the friction columns (read back from the folder), and the report's
    'Joint friction' table gives the friction work of energy.csv (sliding: power linear in t)."""
    from MBDWorkbench.report.data import load_results_dir
    from MBDWorkbench.report.document import friction_blocks
    from MBDWorkbench.report.friction import friction_losses

    theta, mu_k = np.radians(30.0), 0.4
    res = simulate(incline_model(theta, 0.5, mu_k, "rk4", t_end=1.0))
    res.write(str(tmp_path / "run"))
    data = load_results_dir(str(tmp_path / "run"))
    headers = list(data.tables["joints.csv"])
    for h in ("displacement_friction [N]", "friction_normal [N]", "friction_state [-]", "friction_power [W]"):
        assert f"slide.{h}" in headers
    (loss,) = friction_losses(data)
    assert loss["peak"] == pytest.approx(-mu_k * MASS * G * np.cos(theta), rel=1e-9)
    assert loss["normal"] == pytest.approx(MASS * G * np.cos(theta), rel=1e-9)
    assert loss["stick"] == 0.0
    assert loss["work"] == pytest.approx(res.energy()["work_nonconservative"][-1], rel=1e-6)
    assert friction_blocks(data)[0].text == "Joint friction"


@pytest.mark.parametrize(
    "friction, integrator, words",
    [
        ({"mu_s": 0.2, "mu_k": 0.3, "pin_radius": 0.01}, "rk4", "joints[0].friction.mu_k"),
        ({"mu_s": 0.2, "pin_radius": 0.01}, "galpha", "joint 'pin' has friction"),
    ],
)
def test_cli_exit_2_in_one_line(tmp_path, friction, integrator, words):
    """The command line answers bad friction and an integrator without friction in one line, exit 2."""
    import json
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    model = pendulum_model(0.1, 0.1, 0.01, integrator, t_end=0.1).to_dict()
    model["joints"][0]["friction"] = friction
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model))
    cmd = [sys.executable, "-m", "MBDWorkbench", "simulate", str(path), "--out", str(tmp_path / "o"), "--quiet"]
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    assert p.returncode == 2 and words in p.stderr and len(p.stderr.strip().splitlines()) == 1
