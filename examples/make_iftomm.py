"""Generate the IFToMM multibody benchmark problems (and a fast heavy top) as JSON models (SI).

Run: /usr/bin/python3 examples/make_iftomm.py  (rewrites examples/iftomm_*.json)

A01 simple pendulum, A02 N four-bar (N = 2, from tests/oracles/n_four_bar.py's geometry), A03
Andrews' squeezer ([HW] section VII.7), A05 stiff flyball governor and the fast heavy top; A04
Bricard is examples/bricard.json. Each file's "description" gives the source and what we chose
where the statement is silent; bench/accuracy.py runs them all and docs/solver.md tables them.
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from MBDWorkbench.solver.model.builders import revolute_z, rod, rot_z  # noqa: E402

G = 9.81
RUN = {"output_step": 0.01}  # the integrator and its step: the defaults (bench/accuracy.py runs them)


def a01_pendulum():
    """IFToMM A01: 1 kg point mass on a 1 m massless link, gravity -y, released at rest from
    the horizontal (x = +1 m)."""
    return {
        "name": "iftomm_a01_pendulum",
        "description": "IFToMM A01 simple pendulum (lim.ii.udc.es/mbsbenchmark A01): a 1 kg point mass on "
        "a 1 m massless link (a distance joint from the origin), gravity 9.81 m/s^2 along -y, released "
        "at rest from the horizontal (P1 at x = +1 m). The statement runs 2000 s; we run 10 s.",
        "gravity": [0.0, -G, 0.0],
        "bodies": [{"name": "P1", "mass": 1.0, "point_mass": True, "position": [1.0, 0.0, 0.0]}],
        "joints": [
            {"name": "link", "type": "distance", "body_i": "ground", "body_j": "P1", "frame": {"origin": [0, 0, 0]}}
        ],
        "settings": dict(RUN, t_end=10.0),
    }


def n_four_bar_chain(n: int = 2, m: float = 1.0, L: float = 1.0, theta0: float = math.pi / 4, b0_speed: float = 1.0):
    """(bodies, joints) of IFToMM A02's ``n`` parallelogram four-bars: uniform rods of mass ``m``
    [kg] and length ``L`` [m], cranks at ``theta0`` [rad], B0 moving at ``b0_speed`` [m/s] along +x
    (every body with its exact initial velocity); tests/oracles/n_four_bar.py builds on it."""
    theta_dot = -b0_speed / (L * math.sin(theta0))
    c, s = math.cos(theta0), math.sin(theta0)
    bodies, joints = [], []
    for i in range(n + 1):
        crank = rod(f"crank{i}", m, L, (i * L, 0.0), theta0)
        crank["velocity"] = [-0.5 * L * s * theta_dot, 0.5 * L * c * theta_dot, 0.0]
        crank["angular_velocity"] = [0.0, 0.0, theta_dot]
        bodies.append(crank)
        joints.append(revolute_z(f"A{i}", "ground", f"crank{i}", (i * L, 0.0)))
    for i in range(n):
        coupler = rod(f"coupler{i}", m, L, (i * L + L * c, L * s), 0.0)
        coupler["velocity"] = [-L * s * theta_dot, L * c * theta_dot, 0.0]
        bodies.append(coupler)
        joints.append(revolute_z(f"B{i}_left", f"crank{i}", f"coupler{i}", (i * L + L * c, L * s)))
        joints.append(revolute_z(f"B{i + 1}_right", f"coupler{i}", f"crank{i + 1}", ((i + 1) * L + L * c, L * s)))
    return bodies, joints


def a02_four_bar():
    """IFToMM A02 with N = 2 (:func:`n_four_bar_chain`)."""
    bodies, joints = n_four_bar_chain()
    return {
        "name": "iftomm_a02_four_bar",
        "description": "IFToMM A02 N four-bar mechanism with N = 2 (lim.ii.udc.es/mbsbenchmark A02): five "
        "uniform 1 m, 1 kg rods, gravity -y, cranks at 45 deg with B0 moving at 1 m/s along +x; the cranks "
        "pass the horizontal, where all links are collinear (singular positions). 10 s as stated.",
        "gravity": [0.0, -G, 0.0],
        "bodies": bodies,
        "joints": joints,
        "settings": dict(RUN, t_end=10.0),
    }


# Andrews' squeezer, [HW] section VII.7 (data as in the CWI/Bari test set for IVP solvers)
AQ = dict(
    m=(0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498),
    i=(2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5),
    xa=-0.06934, ya=-0.00227, xb=-0.03635, yb=0.03273, xc=0.014, yc=0.072, c0=4530.0,
    d=28e-3, da=115e-4, e=2e-2, ea=1421e-5, rr=7e-3, ra=92e-5, l0=7785e-5, ss=35e-3, sa=1874e-5,
    sb=1043e-5, sc=18e-3, sd=2e-2, ta=2308e-5, tb=916e-5, u=4e-2, ua=1228e-5, ub=449e-5, zf=2e-2,
    zt=4e-2, fa=1421e-5, mom=33e-3,
)  # fmt: skip
AQ_Q0 = (  # beta, Theta, gamma, Phi, delta, Omega, epsilon at t = 0 [rad]
    -0.0617138900142764496358948458001,
    0.0,
    0.455279819163070380255912382449,
    0.222668390165885884674473185609,
    0.487364979543842550225598953530,
    -0.222668390165885884674473185609,
    1.23054744454982119249735015568,
)


def _e(a):
    return (math.cos(a), math.sin(a))


def _add(*vs):
    return [sum(v[0] for v in vs), sum(v[1] for v in vs)]


def _sc(k, v):
    return (k * v[0], k * v[1])


def andrews_points(q):
    """Joint points and CoGs (x, y) [m] of the squeezer at the [HW] angles ``q``; body k's
    absolute angle is angles[k]. CoG directions [HW] leave open (bodies 3, 5, 7: only their
    distances from the pivot enter) are our choice, stated in the model's description."""
    p = AQ
    be, th, ga, ph, de, om, ep = q
    down = lambda a: (math.sin(a), -math.cos(a))  # noqa: E731  e(a - pi/2)
    A, B = (p["xa"], p["ya"]), (p["xb"], p["yb"])
    F = _sc(p["rr"], _e(be))
    E = _add(F, _sc(-p["d"], _e(be + th)))
    H = _add(A, _sc(p["zt"], _e(de)))
    Gp = _add(A, _sc(p["u"], down(ep)))
    D = _add(B, _sc(p["sd"], _e(ga)), _sc(p["sc"], down(ga)))
    cogs = [
        _sc(p["ra"], _e(be)),
        _add(F, _sc(-p["da"], _e(be + th))),
        _add(B, _sc(p["sb"], _e(ga)), _sc(p["sa"], down(ga))),
        _add(H, _sc(p["e"] - p["ea"], down(ph + de))),
        _add(A, _sc(p["ta"], _e(de)), _sc(p["tb"], _e(de + math.pi / 2))),
        _add(Gp, _sc(p["zf"] - p["fa"], _e(om + ep))),
        _add(A, _sc(p["ua"], down(ep)), _sc(p["ub"], _e(ep))),
    ]
    angles = [be, be + th, ga, ph + de, de, om + ep, ep]
    return dict(A=A, B=B, C=(p["xc"], p["yc"]), D=D, E=E, F=F, H=H, G=Gp), cogs, angles


def a03_andrews():
    """Andrews' squeezer ([HW] VII.7): 7 bodies, 10 revolutes, a spring and a motor torque."""
    pts, cogs, angles = andrews_points(AQ_Q0)
    bodies = []
    for k in range(7):
        i = AQ["i"][k]
        bodies.append(
            {
                "name": f"K{k + 1}",
                "mass": AQ["m"][k],
                "inertia": [i / 2, i / 2, i],
                "position": [cogs[k][0], cogs[k][1], 0.0],
                "orientation": rot_z(angles[k]),
            }
        )
    joints = [
        revolute_z("O", "ground", "K1", (0.0, 0.0)),
        revolute_z("F", "K1", "K2", pts["F"]),
        revolute_z("E23", "K2", "K3", pts["E"]),
        revolute_z("E24", "K2", "K4", pts["E"]),
        revolute_z("E26", "K2", "K6", pts["E"]),
        revolute_z("B", "ground", "K3", pts["B"]),
        revolute_z("A5", "ground", "K5", pts["A"]),
        revolute_z("A7", "ground", "K7", pts["A"]),
        revolute_z("H", "K5", "K4", pts["H"]),
        revolute_z("G", "K7", "K6", pts["G"]),
    ]
    D, C = pts["D"], pts["C"]
    forces = [
        {"name": "motor", "type": "torque", "body": "K1", "torque": ["0", "0", repr(AQ["mom"])]},  # profiles
        {
            "name": "spring",
            "type": "spring_damper",
            "body_i": "K3",
            "point_i": [D[0], D[1], 0.0],
            "body_j": "ground",
            "point_j": [C[0], C[1], 0.0],
            "stiffness": AQ["c0"],
            "damping": 0.0,
            "free_length": AQ["l0"],
        },
    ]
    return {
        "name": "iftomm_a03_andrews",
        "description": "IFToMM A03 Andrews' squeezer mechanism, data of [HW] section VII.7 (Schiehlen; the "
        "CWI/Bari IVP test set 'andrews'): seven bodies K1..K7 in the x-y plane, no gravity, a constant "
        "motor torque of 0.033 N m on K1 and a spring (4530 N/m, free length 0.07785 m) from D on K3 to "
        "C, released at rest at the test set's initial angles; [HW] gives the angles at t = 0.03 s. "
        "Chosen where [HW] only gives a distance: the CoG of K3 at sb along its x axis and sa towards E, "
        "of K5 at ta along HA and tb across, of K7 at ua towards G and ub across; i_k about z, i_k/2 "
        "about x and y. Runs 0.03 s as stated.",
        "gravity": [0.0, 0.0, 0.0],
        "bodies": bodies,
        "joints": joints,
        "forces": forces,
        "settings": dict(RUN, t_end=0.03, output_step=1e-3),
    }


def _box(m, a, b, c):
    """Principal inertias [kg m^2] of a uniform box with edges a, b, c [m] along x, y, z."""
    return [m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12]


def a05_flyball():
    """IFToMM A05 stiff flyball governor."""
    rho, L, w, k, c = 3000.0, 1.0, 0.01, 8e5, 4e4
    m_rod, m_ball, alpha, omega, xab, s = rho * L * w * w, 5.0, math.radians(30), 2 * math.pi, 0.1, 0.5
    m_arm = m_rod + m_ball
    offset = m_ball * L / 2 / m_arm  # CoG of rod + ball from the rod's middle, along the rod [m]
    rod_inertia = _box(m_rod, L, w, w)
    lever = m_rod * offset**2 + m_ball * (L / 2 - offset) ** 2
    arm_inertia = [rod_inertia[0], rod_inertia[1] + lever, rod_inertia[2] + lever]
    m_slider = rho * 0.1**3
    bodies = [
        {"name": "shaft", "mass": rho * L * w * w, "inertia": _box(rho * L * w * w, w, w, L),
         "position": [0.0, 0.0, L / 2], "angular_velocity": [0.0, 0.0, omega]},
        {"name": "slider", "mass": m_slider, "inertia": _box(m_slider, 0.1, 0.1, 0.1),
         "position": [0.0, 0.0, s], "angular_velocity": [0.0, 0.0, omega]},
    ]  # fmt: skip
    joints = [
        {"name": "bearing", "type": "revolute", "body_i": "ground", "body_j": "shaft",
         "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}},
        {"name": "sleeve", "type": "prismatic", "body_i": "shaft", "body_j": "slider",
         "frame": {"origin": [0, 0, s], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}},
    ]  # fmt: skip
    forces = []
    for side, sign in (("right", 1.0), ("left", -1.0)):
        direction = (sign * math.cos(alpha), 0.0, -math.sin(alpha))  # along the arm, from its pin outwards
        pin = (sign * xab / 2, 0.0, L)
        cog = [pin[i] + (L / 2 + offset) * direction[i] for i in range(3)]
        middle = [pin[i] + L / 2 * direction[i] for i in range(3)]
        turn = alpha if sign > 0 else math.pi - alpha  # about y: the body x axis along the arm
        q = [math.cos(turn / 2), 0.0, math.sin(turn / 2), 0.0]
        bodies.append(
            {"name": f"arm_{side}", "mass": m_arm, "inertia": arm_inertia, "position": cog, "orientation": q,
             "velocity": [0.0, omega * cog[0], 0.0], "angular_velocity": [0.0, 0.0, omega]}
        )  # fmt: skip
        joints.append(
            {"name": f"pin_{side}", "type": "revolute", "body_i": "shaft", "body_j": f"arm_{side}",
             "frame": {"origin": list(pin), "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]}}
        )  # fmt: skip
        forces.append(
            {"name": f"spring_{side}", "type": "spring_damper", "body_i": "slider",
             "point_i": [sign * 0.05, 0.0, s], "body_j": f"arm_{side}", "point_j": middle,
             "stiffness": k, "damping": c, "free_length": 0.5}
        )  # fmt: skip
    return {
        "name": "iftomm_a05_flyball",
        "description": "IFToMM A05 stiff flyball governor (lim.ii.udc.es/mbsbenchmark A05): a vertical shaft "
        "(1 x 0.01 x 0.01 m, 3000 kg/m^3) on a revolute to the ground, a 0.1 m cube slider on it (prismatic, "
        "s = 0.5 m), two rods (1 x 0.01 x 0.01 m) pinned 0.1 m apart at the shaft's top, 30 deg below the "
        "horizontal, each with a 5 kg point mass at its end (rod and mass are one body here), and two "
        "spring-dampers (8e5 N/m, 4e4 N s/m, free length 0.5 m) from the slider's sides to the rods' "
        "middles; gravity -z. Chosen as in the Exudyn example of the benchmark: every body starts turning "
        "at 2 pi rad/s about the shaft, the springs relaxed; no drive torque. We run 10 s.",
        "gravity": [0.0, 0.0, -G],
        "bodies": bodies,
        "joints": joints,
        "forces": forces,
        "settings": dict(RUN, t_end=10.0, integrator="radau"),  # stiff: explicit integrators blow up at 1 ms
    }


# the fast heavy top: a thin disc on a stem
TOP = dict(m=1.0, radius=0.05, stem=0.1, tilt=math.radians(30), spin=200.0)


def heavy_top():
    """A thin disc (m = 1 kg, r = 0.05 m) whose CoG is 0.1 m from a spherical joint along its
    axis, the axis tilted 30 deg from the vertical, spinning at 200 rad/s, no initial precession."""
    m, r, l, tilt, spin = (TOP[k] for k in ("m", "radius", "stem", "tilt", "spin"))
    axis = [0.0, -math.sin(tilt), math.cos(tilt)]  # the body z axis: R_x(tilt) e_z
    return {
        "name": "heavy_top",
        "description": "A fast heavy top (built for issue 31): a thin uniform disc, m = 1 kg, r = 0.05 m "
        "(I = m r^2/2 about its axis, m r^2/4 across), its CoG 0.1 m from a spherical joint at the "
        "origin along the disc's axis (a massless stem), the axis tilted 30 deg from the vertical (about "
        "x), spinning at 200 rad/s about it with no precession at the start; gravity -z; 2 s. Reference: "
        "the Euler-angle equations (tests/oracles/heavy_top.py).",
        "gravity": [0.0, 0.0, -G],
        "bodies": [
            {
                "name": "disc",
                "mass": m,
                "inertia": [m * r * r / 4, m * r * r / 4, m * r * r / 2],
                "position": [l * a for a in axis],
                "orientation": [math.cos(tilt / 2), math.sin(tilt / 2), 0.0, 0.0],
                "angular_velocity": [spin * a for a in axis],
            }
        ],
        "joints": [
            {"name": "tip", "type": "spherical", "body_i": "ground", "body_j": "disc", "frame": {"origin": [0, 0, 0]}}
        ],
        "settings": dict(RUN, t_end=2.0, output_step=0.005),
    }


EXAMPLES = {
    "iftomm_a01_pendulum": a01_pendulum,
    "iftomm_a02_four_bar": a02_four_bar,
    "iftomm_a03_andrews": a03_andrews,
    "iftomm_a05_flyball": a05_flyball,
    "heavy_top": heavy_top,
}


def main():
    from make_examples import write_examples  # its sibling in examples/

    write_examples(EXAMPLES)


if __name__ == "__main__":
    main()
