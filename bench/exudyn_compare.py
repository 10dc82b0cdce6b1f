"""Side-by-side wall time of our solver and Exudyn (C++ multibody code) on the same mechanisms.

Cases: the N-link spatial pendulum chain of bench/solver_speed.py (N = 2, 10, 50, 200;
h = 1e-3 s, 1 s simulated) and the slider-crank example (h = 1e-3 s, 2 s).
Ratios are wall time ours / Exudyn for the same simulated time and step.

* Table 1, explicit RK4: ours 'rk4' (redundant coordinates, Baumgarte ODE form) against
  Exudyn RK44. Exudyn's explicit solvers cannot solve joint constraints (its docs, section
  "Constraints with explicit solvers": only CoordinateConstraints to ground are eliminated;
  SolveDynamic aborts on a JointRevoluteZ, which this script checks), so the Exudyn model
  for RK44 is an ObjectKinematicTree (minimal coordinates, one joint angle per link).
* Table 2, Exudyn's default implicit generalized-alpha (rho_inf = 0.9, Euler-parameter
  rigid bodies + JointRevoluteZ, index 3) against ours 'rk4', and ours 'galpha' for reference
  (ours is adaptive, so its step count differs).

Both codes must produce the same motion: the tip of the last link (slider position and
driver torque for the slider-crank) at t_end is compared between them.
Each time is the best of 3 (of up to 9 for short cases) after a short warm-up; ours is ``res.wall_time`` (assembly
excluded), Exudyn's the time of ``mbs.SolveDynamic`` (file output off, no renderer).
The measurements of the two codes are interleaved so that machine load affects both alike.

Run: /usr/bin/python3 bench/exudyn_compare.py [--sizes 2 10 50 200] [--no-galpha]
If exudyn is not importable the script creates .venv-bench/ in the repo root
(``/usr/bin/python3 -m venv --system-site-packages .venv-bench && .venv-bench/bin/pip install
exudyn==1.13.6``) and re-runs itself with that interpreter.
Writes bench/results/exudyn_compare.{md,json}. Not part of the test suite.
"""

import argparse
import json
import os
import platform
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
EXUDYN_VERSION = "1.13.6"


if __name__ == "__main__":
    if "--exudyn-fast" in sys.argv:
        sys.exudynFast = True  # exudyn's module without range checks (needs AVX2)
    from bench.peer_venv import ensure_modules

    ensure_modules({"exudyn": f"exudyn=={EXUDYN_VERSION}"}, __file__)

import exudyn as exu  # noqa: E402
import numpy as np  # noqa: E402
from exudyn.utilities import (  # noqa: E402
    MarkerBodyPosition,
    MarkerNodeCoordinate,
    NodeGenericODE2,
    NodePointGround,
    ObjectConnectorCoordinate,
    ObjectConnectorSpringDamper,
    ObjectGround,
    ObjectKinematicTree,
    RigidBodyInertia,
)

from bench.solver_speed import chain  # noqa: E402
from MBDWorkbench.solver import load, simulate  # noqa: E402

LINK, MASS = 0.2, 0.5  # chain link length [m] and mass [kg], as in solver_speed.chain
J_LINK = MASS * LINK**2 / 12
I_LINK = np.diag([1e-4, J_LINK, J_LINK])
GRAVITY = [0.0, 0.0, -9.81]


# ----------------------------------------------------------------------------- Exudyn models
def exu_settings(t_end, steps, sparse=False):
    """SimulationSettings: fixed step t_end/steps, no solution/sensor files, quiet."""
    s = exu.SimulationSettings()
    s.solution.file.write = False
    s.solution.sensors.writePeriod = t_end
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = t_end
    s.timeIntegration.verboseMode = 0
    s.show.computationTime = False
    s.show.statistics = False
    s.timeIntegration.explicit.useLieGroupIntegration = True  # only affects Lie-group nodes
    s.timeIntegration.explicit.eliminateConstraints = True  # only CoordinateConstraints
    if sparse:
        s.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    return s


def _rotation(k, angle):
    """Rotation of chain joint k (axis y for even k, z for odd k) by ``angle`` [rad]."""
    c, s = np.cos(angle), np.sin(angle)
    if k % 2 == 0:
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def exu_chain_tree(n):
    """The chain as an Exudyn ObjectKinematicTree (minimal coordinates); returns
    (SystemContainer, mbs, tip()) with tip() the global tip of the last link [m]."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    node = mbs.AddNode(
        NodeGenericODE2(
            referenceCoordinates=[0.0] * n,
            initialCoordinates=[0.0] * n,
            initialCoordinates_t=[0.0] * n,
            numberOfODE2Coordinates=n,
        )
    )
    mbs.AddObject(
        ObjectKinematicTree(
            nodeNumber=node,
            gravity=GRAVITY,
            jointTypes=[exu.JointType.RevoluteY if k % 2 == 0 else exu.JointType.RevoluteZ for k in range(n)],
            linkParents=list(range(-1, n - 1)),
            jointTransformations=exu.Matrix3DList([np.eye(3)] * n),
            jointOffsets=exu.Vector3DList([[0.0, 0.0, 0.0]] + [[LINK, 0.0, 0.0]] * (n - 1)),
            linkInertiasCOM=exu.Matrix3DList([I_LINK] * n),
            linkCOMs=exu.Vector3DList([[LINK / 2, 0.0, 0.0]] * n),
            linkMasses=[MASS] * n,
            visualization={
                "show": False,
                "showLinks": False,
                "showJoints": False,
                "color": [-1.0] * 4,
                "graphicsDataList": [],
            },
        )
    )
    mbs.Assemble()

    def tip():
        q = mbs.GetNodeOutput(node, exu.OutputVariableType.Coordinates)
        R, p = np.eye(3), np.zeros(3)
        for k in range(n):
            if k:
                p = p + R @ [LINK, 0.0, 0.0]
            R = R @ _rotation(k, q[k])
        return p + R @ [LINK, 0.0, 0.0]

    return SC, mbs, tip


def exu_chain_bodies(n, node_type=exu.NodeType.RotationEulerParameters):
    """The chain as Exudyn rigid bodies (default: Euler parameters, Exudyn's default node)
    joined by JointRevoluteZ; returns (SystemContainer, mbs, tip())."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    prev = mbs.AddObject(ObjectGround())
    for k in range(n):
        body = mbs.CreateRigidBody(
            inertia=RigidBodyInertia(MASS, I_LINK, inertiaTensorAtCOM=True),
            referencePosition=[(k + 0.5) * LINK, 0, 0],
            gravity=GRAVITY,
            nodeType=node_type,
            show=False,
        )
        axis = [0, 1, 0] if k % 2 == 0 else [0, 0, 1]
        mbs.CreateRevoluteJoint(itemNumbers=[prev, body], position=[k * LINK, 0, 0], axis=axis, show=False)
        prev = body
    mbs.Assemble()
    return (
        SC,
        mbs,
        lambda: np.array(
            mbs.GetObjectOutputBody(prev, exu.OutputVariableType.Position, localPosition=[LINK / 2, 0, 0])
        ),
    )


def _tensor(inertia):
    """3x3 inertia tensor [kg m^2] from a tensor or its 3 principal moments."""
    a = np.asarray(inertia, float)
    return np.diag(a) if a.ndim == 1 else a


def exu_slider_crank(model):
    """examples/slider_crank.json in Exudyn: the crank uses Tait-Bryan (Rxyz) coordinates so that
    the constant-speed motor is a velocity-level CoordinateConstraint on its z angle; the
    spherical joint constrains x, y only (its z row is redundant with the planar loop, which
    our solver regularises). Returns (SC, mbs, observe()) with observe() = (slider x [m],
    motor torque on the crank [N m])."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    g = model.gravity
    body = {}
    for b in model.bodies:
        node_type = exu.NodeType.RotationRxyz if b.name == "crank" else exu.NodeType.RotationEulerParameters
        body[b.name] = mbs.CreateRigidBody(
            inertia=RigidBodyInertia(b.mass, _tensor(b.inertia), inertiaTensorAtCOM=True),
            referencePosition=b.position,
            gravity=g,
            nodeType=node_type,
            returnDict=True,
            show=False,
        )
    ob = {k: v["bodyNumber"] for k, v in body.items()}
    mbs.CreateRevoluteJoint(itemNumbers=[ground, ob["crank"]], position=[0, 0, 0], axis=[0, 0, 1], show=False)
    mbs.CreateRevoluteJoint(itemNumbers=[ob["crank"], ob["rod"]], position=[0.5, 0, 0], axis=[0, 0, 1], show=False)
    mbs.CreateSphericalJoint(
        itemNumbers=[ob["rod"], ob["slider"]], position=[2.0, 0, 0], constrainedAxes=[1, 1, 0], show=False
    )
    mbs.CreatePrismaticJoint(itemNumbers=[ground, ob["slider"]], position=[2.0, 0, 0], axis=[1, 0, 0], show=False)
    n_ground = mbs.AddNode(NodePointGround())
    m0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n_ground, coordinate=0))
    m1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=body["crank"]["nodeNumber"], coordinate=5))
    speed = model.drivers[0].profile["speed"]
    motor = mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[m0, m1], offset=speed, velocityLevel=True))
    spring = model.forces[0]
    ms0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=spring.point_i))
    ms1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ob["slider"], localPosition=[0, 0, 0]))
    mbs.AddObject(
        ObjectConnectorSpringDamper(
            markerNumbers=[ms0, ms1],
            referenceLength=spring.free_length,
            stiffness=spring.stiffness,
            damping=spring.damping,
        )
    )
    mbs.Assemble()

    def observe():
        x = mbs.GetObjectOutputBody(ob["slider"], exu.OutputVariableType.Position)[0]
        lam = float(np.ravel(mbs.GetObjectOutput(motor, exu.OutputVariableType.Force))[0])
        return x, -lam  # Exudyn: M q'' + C_q^T lam = f, so the torque on the crank is -lam

    return SC, mbs, observe


def exu_joint_model_rk44_error():
    """Exudyn's message when RK44 (Lie-group integration on, rotation-vector Lie-group
    nodes as its docs require) meets a JointRevoluteZ; empty string if it ran."""
    SC, mbs, _ = exu_chain_bodies(2, exu.NodeType.RotationRotationVector)
    print("(expected: Exudyn RK44 refuses the joint model)", flush=True)
    try:
        mbs.SolveDynamic(exu_settings(0.01, 10), solverType=exu.DynamicSolverType.RK44)
    except Exception as e:  # exudyn raises its own ModelError
        return str(e).split("[")[0].strip()
    return ""


# ----------------------------------------------------------------------------- timing
class Runner:
    """One timed code path: ``warm()`` once, ``run()`` -> seconds; ``best`` / ``obs``
    keep the best time and the observation of the last run."""

    def __init__(self, warm, run):
        self.warm, self.run_once, self.best, self.obs = warm, run, float("inf"), None

    def run(self):
        t, self.obs = self.run_once()
        self.best = min(self.best, t)


def ours_runner(model, integrator, observe, **kw):
    def warm():
        simulate(model, integrator=integrator, t_end=min(0.01, model.settings.t_end), **kw)

    def run():
        res = simulate(model, integrator=integrator, **kw)
        return res.wall_time, (observe(res), res.steps)

    return Runner(warm, run)


def exu_runner(mbs, observe, t_end, steps, solver, sparse=False):
    def warm():
        mbs.SolveDynamic(exu_settings(t_end * 10 / steps, 10, sparse), solverType=solver)

    def run():
        s = exu_settings(t_end, steps, sparse)
        t0 = time.perf_counter()
        mbs.SolveDynamic(s, solverType=solver)
        return time.perf_counter() - t0, (observe(), steps)

    return Runner(warm, run)


def ga_runners(mbs, observe, t_end, steps, dense):
    """Exudyn generalized-alpha with EigenSparse and (if ``dense``) its default EXUdense."""
    out = dict(exu_ga_sparse=exu_runner(mbs, observe, t_end, steps, exu.DynamicSolverType.GeneralizedAlpha, True))
    if dense:
        out["exu_ga_dense"] = exu_runner(mbs, observe, t_end, steps, exu.DynamicSolverType.GeneralizedAlpha)
    return out


def pick_ga(runners):
    """runners['exu_ga'] = the faster Exudyn GA linear solver (labelled)."""
    for key, label in (("exu_ga_sparse", "EigenSparse"), ("exu_ga_dense", "EXUdense (default)")):
        if key in runners:
            runners[key].label = label
    runners["exu_ga"] = min((r for k, r in runners.items() if k.startswith("exu_ga_")), key=lambda r: r.best)


def measure(runners, repeats, cheap=0.5):
    """Warm every runner up, then run them interleaved ``repeats`` times, or up to
    3 * ``repeats`` times while one round takes less than ``cheap`` seconds (short runs are
    the ones most disturbed by other processes)."""
    for r in runners.values():
        r.warm()
    for k in range(3 * repeats):
        if k >= repeats and sum(r.best for r in runners.values()) >= cheap:
            break
        for r in runners.values():
            r.run()


# ----------------------------------------------------------------------------- cases
def chain_case(n, repeats, galpha):
    model = chain(n)
    t_end, h = model.settings.t_end, model.settings.step
    steps = int(round(t_end / h))

    def tip(res):
        return res.point(f"L{n - 1}", [LINK / 2, 0, 0])[-1]

    _, tree, tree_tip = exu_chain_tree(n)
    _, bodies, bodies_tip = exu_chain_bodies(n)
    runners = dict(
        ours=ours_runner(model, "rk4", tip),
        ours_noout=ours_runner(model, "rk4", tip, output_step=t_end),
        exu_rk44=exu_runner(tree, tree_tip, t_end, steps, exu.DynamicSolverType.RK44),
        **ga_runners(bodies, bodies_tip, t_end, steps, dense=n <= 10),
    )
    if galpha:
        runners["ours_galpha"] = ours_runner(model, "galpha", tip)
    measure(runners, repeats)
    pick_ga(runners)
    ours_tip = runners["ours"].obs[0]
    row = dict(
        case=f"chain N={n}",
        steps=steps,
        t_end=t_end,
        h=h,
        ours_s=runners["ours"].best,
        ours_noout_s=runners["ours_noout"].best,
        exu_rk44_s=runners["exu_rk44"].best,
        exu_ga_s=runners["exu_ga"].best,
        exu_ga_solver=runners["exu_ga"].label,
        tip_ours=ours_tip.tolist(),
        tip_diff_rk44=float(np.linalg.norm(runners["exu_rk44"].obs[0] - ours_tip)),
        tip_diff_ga=float(np.linalg.norm(runners["exu_ga"].obs[0] - ours_tip)),
    )
    if galpha:
        r = runners["ours_galpha"]
        row.update(
            ours_galpha_s=r.best,
            ours_galpha_steps=r.obs[1],
            tip_diff_galpha_vs_exu_ga=float(np.linalg.norm(r.obs[0] - runners["exu_ga"].obs[0])),
        )
    return row


def slider_crank_case(repeats):
    model = load(os.path.join(ROOT, "examples", "slider_crank.json"))
    t_end, h = model.settings.t_end, model.settings.step
    steps = int(round(t_end / h))

    def observe(res):
        return res.position("slider")[-1][0], float(res.driver_effort("motor")[-1])

    _, mbs, exu_observe = exu_slider_crank(model)
    runners = dict(
        ours=ours_runner(model, "rk4", observe),
        ours_noout=ours_runner(model, "rk4", observe, output_step=t_end),
        **ga_runners(mbs, exu_observe, t_end, steps, dense=True),
    )
    measure(runners, repeats)
    pick_ga(runners)
    (x_o, tau_o), (x_e, tau_e) = runners["ours"].obs[0], runners["exu_ga"].obs[0]
    return dict(
        case="slider-crank",
        steps=steps,
        t_end=t_end,
        h=h,
        ours_s=runners["ours"].best,
        ours_noout_s=runners["ours_noout"].best,
        exu_ga_s=runners["exu_ga"].best,
        exu_ga_solver=runners["exu_ga"].label,
        slider_x_diff=abs(x_o - x_e),
        motor_torque_ours=tau_o,
        motor_torque_exu=tau_e,
    )


def model_check(sizes, refine=10):
    """Tip difference of Exudyn's joint model (generalized-alpha) against ours rk4 at h and
    at h/refine: it must shrink (second order), showing the gap is integration error."""
    out = []
    for n in sizes:
        model = chain(n)
        ours = simulate(model, integrator="rk4").point(f"L{n - 1}", [LINK / 2, 0, 0])[-1]
        steps = int(round(model.settings.t_end / model.settings.step))
        row = dict(case=f"chain N={n}")
        for label, k in (("h", steps), ("h_fine", steps * refine)):
            _, mbs, tip = exu_chain_bodies(n)
            mbs.SolveDynamic(exu_settings(model.settings.t_end, k, sparse=True))
            row[f"tip_diff_ga_{label}"] = float(np.linalg.norm(tip() - ours))
        row["h_fine"] = model.settings.step / refine
        out.append(row)
    return out


# ----------------------------------------------------------------------------- report
def _f(v, fmt=".4f"):
    return "-" if v is None else format(v, fmt)


def write_report(out, meta, rows, check):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "exudyn_compare.json"), "w") as f:
        json.dump(dict(meta=meta, rows=rows, model_check=check), f, indent=2)
    chains = [r for r in rows if "exu_rk44_s" in r]
    L = [
        f"# Ours vs Exudyn {meta['exudyn']} (wall time, best of {meta['repeats']}; of up to "
        f"{3 * meta['repeats']} for cases whose round takes < 0.5 s)",
        "",
        f"{meta['date']}, Python {meta['python']}, {meta['cpus']} CPUs, load average at start "
        f"{meta['load_start']}, at end {meta['load_end']}; Exudyn module `{meta['exudyn_module']}`, "
        f"1 thread. Ours: `res.wall_time` (assembly excluded), output every 0.01 s "
        f'("no output": output_step = t_end). Exudyn: `mbs.SolveDynamic`, no solution file.',
        "",
        "## 1. Explicit RK4: ours `rk4` vs Exudyn RK44 (ObjectKinematicTree)",
        "",
        "Exudyn's explicit solvers do not solve joint constraints; on the joint model RK44 stops "
        f'with: "{meta["rk44_joint_error"]}". The Exudyn RK44 model is therefore its '
        "minimal-coordinate kinematic tree (one angle per link; O(N^3) dense mass matrix per "
        "stage), ours is redundant coordinates (6 per body) + constraints. Same h, same steps.",
        "",
        "| case | steps | ours [s] | ours, no output [s] | Exudyn RK44 [s] | ratio | ratio (no output) "
        "| tip difference [m] |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in chains:
        L.append(
            f"| {r['case']} | {r['steps']} | {_f(r['ours_s'])} | {_f(r['ours_noout_s'])} | "
            f"{_f(r['exu_rk44_s'])} | {r['ours_s'] / r['exu_rk44_s']:.2f} | "
            f"{r['ours_noout_s'] / r['exu_rk44_s']:.2f} | {r['tip_diff_rk44']:.1e} |"
        )
    L += [
        "",
        "## 2. Exudyn default implicit generalized-alpha (rigid bodies + joints) vs ours",
        "",
        "Exudyn: Euler-parameter rigid bodies, JointRevoluteZ / joints, generalized-alpha "
        "(spectral radius 0.9, modified Newton), fixed step h; the faster of its dense (default) and "
        "EigenSparse linear solvers (dense is tried for N <= 10 and the slider-crank only). "
        "Ours: `rk4` (ratio column) and, for reference, our adaptive `galpha` (its own steps). "
        "Tip difference: ours rk4 vs Exudyn GA (GA's O(h^2) error; see section 3).",
        "",
        "| case | steps | ours rk4 [s] | ours rk4, no output [s] | Exudyn GA [s] | Exudyn linear solver "
        "| ratio rk4/GA | ratio (no output) | tip difference [m] | ours galpha [s] (steps) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        diff = (
            f"{r['tip_diff_ga']:.1e}"
            if "tip_diff_ga" in r
            else f"slider x {r['slider_x_diff']:.1e}; motor torque {r['motor_torque_ours']:.4f} vs "
            f"{r['motor_torque_exu']:.4f} N m"
        )
        ga = f"{r['ours_galpha_s']:.3f} ({r['ours_galpha_steps']})" if "ours_galpha_s" in r else "-"
        L.append(
            f"| {r['case']} | {r['steps']} | {_f(r['ours_s'])} | {_f(r['ours_noout_s'])} | "
            f"{_f(r['exu_ga_s'])} | {r['exu_ga_solver']} | {r['ours_s'] / r['exu_ga_s']:.2f} | "
            f"{r['ours_noout_s'] / r['exu_ga_s']:.2f} | {diff} | {ga} |"
        )
    if check:
        L += [
            "",
            "## 3. Same motion: Exudyn joint model (GA) vs ours rk4 at h and at h/10",
            "",
            "| case | tip diff, GA at h [m] | tip diff, GA at h/10 [m] |",
            "|---|---|---|",
        ]
        for c in check:
            L.append(f"| {c['case']} | {c['tip_diff_ga_h']:.1e} | {c['tip_diff_ga_h_fine']:.1e} |")
    L += [
        "",
        "## Reading the numbers",
        "",
        "- Ours integrates 6 redundant coordinates per body with m constraint rows (Schur "
        "complement, banded Cholesky) in one Numba loop per output interval; each output "
        "sample then costs several Python-level calls (Numba dispatch of the system tuple, "
        "evaluate/record), visible as the gap between the two 'ours' columns for small N.",
        "- Exudyn's kinematic tree has N coordinates but builds and factorises a dense N x N "
        "mass matrix per stage (O(N^3)), so it wins for short chains and loses for long ones.",
        "- Exudyn's generalized-alpha does Newton iterations with a Jacobian per step; ours "
        "`rk4` is explicit, so table 2 compares two different ways of simulating the same motion "
        "with the same step, not the same algorithm.",
        "",
        f"Versions: {meta['versions']}",
        "",
    ]
    with open(os.path.join(out, "exudyn_compare.md"), "w") as f:
        f.write("\n".join(L))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 10, 50, 200])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-galpha", action="store_true", help="skip our galpha reference column")
    ap.add_argument("--no-slider-crank", action="store_true")
    ap.add_argument("--exudyn-fast", action="store_true", help="load exudynCPPfast (no range checks)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = ap.parse_args()
    import numba
    import scipy

    meta = dict(
        date=time.strftime("%Y-%m-%d"),
        python=platform.python_version(),
        cpus=os.cpu_count(),
        repeats=args.repeats,
        exudyn=exu.__version__,
        exudyn_module=getattr(exu, "_compiledModuleName", "exudynCPP"),
        load_start=round(os.getloadavg()[0], 2),
        versions=f"exudyn {exu.__version__}, numpy {np.__version__}, numba {numba.__version__}, "
        f"scipy {scipy.__version__}, Python {platform.python_version()}",
    )
    meta["rk44_joint_error"] = exu_joint_model_rk44_error()
    rows = []
    for n in args.sizes:
        rows.append(chain_case(n, args.repeats, not args.no_galpha))
        r = rows[-1]
        print(
            f"{r['case']:13s} ours {r['ours_s']:.4f} s (no output {r['ours_noout_s']:.4f}), Exudyn RK44 "
            f"{r['exu_rk44_s']:.4f} s, GA {r['exu_ga_s']:.4f} s; tip diff RK44 {r['tip_diff_rk44']:.1e}, "
            f"GA {r['tip_diff_ga']:.1e} m",
            flush=True,
        )
    if not args.no_slider_crank:
        rows.append(slider_crank_case(args.repeats))
        r = rows[-1]
        print(
            f"slider-crank  ours {r['ours_s']:.4f} s, Exudyn GA {r['exu_ga_s']:.4f} s; slider x diff "
            f"{r['slider_x_diff']:.1e} m, torque {r['motor_torque_ours']:.4f} / {r['motor_torque_exu']:.4f}",
            flush=True,
        )
    check = model_check([n for n in args.sizes if n <= 10])
    meta["load_end"] = round(os.getloadavg()[0], 2)
    write_report(args.out, meta, rows, check)
    print(f"wrote {os.path.join(args.out, 'exudyn_compare.md')}")


if __name__ == "__main__":
    main()
