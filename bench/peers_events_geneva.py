"""The Geneva drive of issue 33 item 6: ours beside MuJoCo and Exudyn (item 7).

A 4-slot external Geneva drive (tests/test_contact_face.py's model: centre distance 0.1 m, a pin of
radius 5 mm in slots with 0.05 mm of play to each wall, the pin's line contact K 1e8 N/m (linear),
e 0.5, no friction; the wheel 3.5e-3 kg m^2 on a bearing of 0.02 N m s/rad) turning its driver at
one turn per second for three turns. Closed form (tests/oracles/geneva.py): while the pin is in a
slot the wheel's angle is the slot's beta(phi), during the dwell it is still; it ends 270 deg round.
Error: the largest distance of the wheel from the closed form over the samples, over the oracle's
bound (the play plus the contact's compression, over the pin's distance from the wheel's centre:
at most 1 passes); and the final angle's distance from -270 deg.

Ours: the driver on a revolute joint driven at w (the test's model), and the peers' model (the
driver a flywheel of 1e4 kg m^2, as neither peer's explicit integrator takes a driving constraint)
with rk4 and with rk4_tree (its two joint coordinates, as Exudyn's kinematic tree). Ours' slot walls
are bounded faces (a cylinder against a face: its line contact's slices). MuJoCo: the pin a capsule,
each wall a box whose inner face is the wall, a soft contact with ours' natural frequency on the
wheel at the pin's mid-index radius and damping ratio 1. Exudyn: one ObjectKinematicTree of two
revolute links (the driver a flywheel), the pin a sphere of its radius in the walls' mid plane
against two triangles per wall (ObjectContactSphereTriangle, faces only), ours' K and e.

Timing as bench/peers_events.py: CPU time, best of ``--repeats``, the same step in the three codes.

    /usr/bin/python3 bench/peers_events_geneva.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))  # the Geneva model and its oracle
from bench.peer_venv import ensure_modules  # noqa: E402

if __name__ == "__main__":
    sys.exudynFast = True  # Exudyn's module without range checks (its fastest documented path)
    ensure_modules({"mujoco": "mujoco==4.0.0", "exudyn": "exudyn==1.13.6"}, __file__)

import exudyn as exu  # noqa: E402
import mujoco  # noqa: E402
import test_contact_face as model  # noqa: E402
from exudyn.utilities import (  # noqa: E402
    MarkerKinematicTreeRigid,
    MarkerNodeCoordinate,
    NodeGenericData,
    NodeGenericODE2,
    NodePointGround,
    ObjectConnectorCoordinateSpringDamper,
    ObjectContactSphereTriangle,
    ObjectKinematicTree,
    SensorNode,
)
from oracles.geneva import HALF_INDEX, crank, driver_phase, wheel_rotation  # noqa: E402

from bench import peers_events as pe  # noqa: E402
from bench.page_splice import splice  # noqa: E402
from bench.peers_events_exudyn import HIDDEN, OUT, settings, solve  # noqa: E402

A, R = model.A_CENTRES, crank(model.A_CENTRES)
TURNS, SAMPLE, FLYWHEEL, E = 3.0, 2e-3, 1e4, 0.5  # driver turns; output step [s]; its inertia [kg m^2]; e
T_END, H = TURNS * 2 * math.pi / model.OMEGA, model.STEP
WHEEL = {"m": 1.5, "inertia": (2e-3, 2e-3, model.J_WHEEL)}  # as the test's model [kg, kg m^2]


def walls() -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """(centre of the wall's face [m], its unit normal into the slot, its unit direction along the
    slot, its length [m]) of the 8 slot walls, in the wheel's frame (tests/test_contact_face.py's)."""
    out = []
    for k in range(4):
        psi = math.pi / 4 + k * math.pi / 2
        s, p = np.array([math.cos(psi), math.sin(psi), 0.0]), np.array([-math.sin(psi), math.cos(psi), 0.0])
        middle, half = 0.5 * (model.SLOT_IN + model.WHEEL_OUT) * s, model.R_PIN + model.CLEARANCE
        out += [(middle + side * half * p, -side * p, s, model.WHEEL_OUT - model.SLOT_IN) for side in (1, -1)]
    return out


# ----------------------------------------------------------------------------- ours
def ours(flywheel: bool, integrator: str = "rk4") -> dict:
    """Ours on the test's model (the driver driven), or the peers' (the driver a flywheel)."""
    data = model.geneva_model(TURNS, integrator).to_dict()
    if flywheel:
        data["drivers"] = []
        driver = next(b for b in data["bodies"] if b["name"] == "driver")
        driver.update(inertia=[FLYWHEEL / 2, FLYWHEEL / 2, FLYWHEEL], angular_velocity=[0.0, 0.0, model.OMEGA])
    res, cpu = pe.run_ours(data)
    return {"t": res.t, "beta": model.wheel_angle(res), "cpu": cpu, "steps": res.steps}


# ----------------------------------------------------------------------------- MuJoCo
def solref() -> str:
    """(-stiffness, -damping): ours' natural frequency sqrt(K / m) on the wheel's inertia at the pin's
    mid-index radius a - r (m = J / (a - r)^2), damping ratio 1 (the default solimp's d 0.9, d_max 0.95)."""
    d, d_max, w_n = 0.9, 0.95, math.sqrt(model.K_LINE * (A - R) ** 2 / model.J_WHEEL)
    return f"-{w_n**2 * d_max**2 / d:.6g} -{2 * w_n * d_max / d:.6g}"


def wall_boxes(depth: float = 0.002) -> str:
    """The walls as box geoms of the wheel (their inner faces the walls; ``depth`` [m] behind them)."""
    geoms = []
    for c, n, s, length in walls():
        centre = c - 0.5 * depth * n
        psi = math.atan2(s[1], s[0])
        geoms.append(
            f'<geom type="box" size="{length / 2} {depth / 2} {model.THICKNESS / 2}" '
            f'pos="{centre[0]} {centre[1]} 0" quat="{math.cos(psi / 2)} 0 0 {math.sin(psi / 2)}" '
            f'condim="1" solref="{solref()}"/>'
        )
    return "".join(geoms)


def mujoco_run() -> dict:
    """MuJoCo's RK4: the driver a flywheel with the pin a capsule, the wheel's walls boxes."""
    J = WHEEL["inertia"]
    xml = (
        f'<mujoco><option timestep="{H}" integrator="RK4" gravity="0 0 0"/><worldbody>'
        f'<body><joint type="hinge" axis="0 0 1" armature="{FLYWHEEL}"/>'
        f'<geom type="capsule" size="{model.R_PIN} {model.PIN_LENGTH / 2}" pos="0 {-R} 0" condim="1" '
        f'solref="{solref()}"/><inertial pos="0 0 0" mass="0.5" diaginertia="2e-4 2e-4 4e-4"/></body>'
        f'<body pos="{A} 0 0"><joint type="hinge" axis="0 0 1" damping="{model.C_WHEEL}"/>{wall_boxes()}'
        f'<inertial pos="0 0 0" mass="{WHEEL["m"]}" diaginertia="{J[0]} {J[1]} {J[2]}"/></body>'
        "</worldbody></mujoco>"
    )
    m = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(m)
    data.qvel[0] = model.OMEGA
    out = pe.mujoco_run_from(m, data, T_END, int(round(SAMPLE / H)), coordinate=1)  # the wheel's hinge
    return {"t": out["rows"][:, 0], "beta": out["rows"][:, 1], "cpu": out["cpu"], "steps": out["steps"]}


# ----------------------------------------------------------------------------- Exudyn
def wall_triangles(c: np.ndarray, n: np.ndarray, s: np.ndarray, length: float) -> list:
    """The wall's rectangle (its length along s, the wheel's thickness along z) as two triangles whose
    normal (p1 - p0) x (p2 - p0) is n, the side Exudyn's ContactSphereTriangle pushes a sphere to."""
    z = np.array([0.0, 0.0, 1.0])
    a, b = 0.5 * length * s, 0.5 * model.THICKNESS * z
    corners = [c - a - b, c + a - b, c + a + b, c - a + b]
    triangles = [[corners[0], corners[1], corners[2]], [corners[0], corners[2], corners[3]]]
    if np.dot(np.cross(corners[1] - corners[0], corners[2] - corners[0]), n) < 0:
        triangles = [[t[0], t[2], t[1]] for t in triangles]
    return [exu.Vector3DList([list(p) for p in t]) for t in triangles]


def exudyn_run() -> dict:
    """Exudyn's RK44: a kinematic tree of the driver (a flywheel) and the wheel, the pin a sphere against
    the walls' triangles, the bearing a coordinate damper."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0.0, 0.0], initialCoordinates=[0.0, 0.0],
                                       initialCoordinates_t=[model.OMEGA, 0.0], numberOfODE2Coordinates=2))  # fmt: skip
    inertias = exu.Matrix3DList([np.diag([FLYWHEEL / 2, FLYWHEEL / 2, FLYWHEEL]), np.diag(WHEEL["inertia"])])
    tree = mbs.AddObject(ObjectKinematicTree(nodeNumber=node, gravity=[0.0] * 3, linkParents=[-1, -1],
                                             jointTypes=[exu.JointType.RevoluteZ, exu.JointType.RevoluteZ],
                                             jointTransformations=exu.Matrix3DList([np.eye(3)] * 2),
                                             jointOffsets=exu.Vector3DList([[0.0] * 3, [A, 0.0, 0.0]]),
                                             linkInertiasCOM=inertias, linkCOMs=exu.Vector3DList([[0.0] * 3] * 2),
                                             linkMasses=[0.5, WHEEL["m"]], visualization=HIDDEN))  # fmt: skip
    ground = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
    hub = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=node, coordinate=1))
    mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[ground, hub], stiffness=0.0,
                                                        damping=model.C_WHEEL))  # fmt: skip
    pin = mbs.AddMarker(MarkerKinematicTreeRigid(objectNumber=tree, linkNumber=0, localPosition=[0.0, -R, 0.0]))
    wheel = mbs.AddMarker(MarkerKinematicTreeRigid(objectNumber=tree, linkNumber=1, localPosition=[0.0] * 3))
    law = {"contactStiffness": model.K_LINE, "contactStiffnessExponent": 1.0, "restitutionCoefficient": E,
           "impactModel": 2, "dynamicFriction": 0.0}  # fmt: skip
    for wall in walls():
        for triangle in wall_triangles(*wall):
            data = mbs.AddNode(NodeGenericData(initialCoordinates=[0.1, 0.0, 0.0, 0.0], numberOfDataCoordinates=4))
            mbs.AddObject(ObjectContactSphereTriangle(markerNumbers=[pin, wheel], nodeNumber=data,
                                                      trianglePoints=triangle, includeEdges=0,
                                                      sphereRadius=model.R_PIN, **law))  # fmt: skip
    sensor = mbs.AddSensor(SensorNode(nodeNumber=node, outputVariableType=OUT.Coordinates, storeInternal=True))
    mbs.Assemble()
    cpu = solve(mbs, settings(H, T_END, SAMPLE))
    q = mbs.GetSensorStoredData(sensor)
    return {"t": q[:, 0], "beta": q[:, 2], "cpu": cpu, "steps": int(round(T_END / H))}


# ----------------------------------------------------------------------------- the page
def errors(out: dict) -> tuple[float, float, float]:
    """(largest |beta - closed form| over the oracle's bound, the same in the dwell over the play's
    CLEARANCE / r, |final angle + 270 deg| [deg])."""
    theta = -math.pi / 2 + model.OMEGA * out["t"]
    error = np.abs(out["beta"] - wheel_rotation(theta, A, R))
    phi = driver_phase(theta)
    dwell = np.abs(phi) > HALF_INDEX + 0.05
    final = abs(math.degrees(out["beta"][-1]) + 270.0)
    return float((error / model.index_tolerance(phi)).max()), float(error[dwell].max() / (model.CLEARANCE / R)), final


CODES = {
    "ours rk4 (pin on bounded faces, K 1e8 N/m, e 0.5; driver driven)": lambda: ours(False),
    "MuJoCo RK4 (capsule on boxes, ours' natural frequency, damping ratio 1)": mujoco_run,
    "Exudyn RK44 (ContactSphereTriangle, 16 triangles, K 1e8 N/m, impact model 2, e 0.5)": exudyn_run,
    f"ours rk4 (the driver a flywheel of {FLYWHEEL:g} kg m^2, as the peers')": lambda: ours(True),
    "ours rk4_tree (the flywheel driver, in joint coordinates)": lambda: ours(True, "rk4_tree"),
}


def section(repeats: int) -> list[str]:
    load = [os.getloadavg()[0]]
    outs = {name: pe.best(run, repeats) for name, run in CODES.items()}
    names, rows, err = list(CODES), [], {}
    for name, out in outs.items():
        err[name] = errors(out)
        e = err[name]
        rows.append(f"| {name} | {e[0]:.2f} | {e[1]:.2f} | {e[2]:.1e} | {out['steps'] / out['cpu']:,.0f} | "
                    f"{outs[names[0]]['cpu'] / out['cpu']:.2f} |")  # fmt: skip
        print(rows[-1], flush=True)
    bare = {name: pe.integration_only(CODES[name], repeats) for name in (names[0], names[4])}
    for name, out in bare.items():
        at = rows.index(next(r for r in rows if r.startswith(f"| {name} |"))) + 1
        rows.insert(at, pe.bare_row(name, out, 6, f"{outs[names[0]]['cpu'] / out['cpu']:.2f}"))
    load.append(os.getloadavg()[0])
    in_play = {name: e[:2] for name, e in err.items()}  # (the final angle: where the wheel rests in its play)
    fmt = lambda e: f"{e[0]:.2f}; {e[1]:.2f}"  # noqa: E731
    label = "geneva, ours rk4: wheel - closed form, over the bound; in the dwell, over the play"
    pe.goal(label, in_play, [names[0], names[1], names[2]], outs, bare[names[0]]["cpu"], fmt)
    label = "geneva, ours rk4_tree on the peers' flywheel model: the same"
    pe.goal(label, in_play, [names[4], names[1], names[2]], outs, bare[names[4]]["cpu"], fmt)
    return [
        "## A Geneva drive indexes a quarter turn per turn of its driver",
        "",
        __doc__.split("\n\n")[1].replace("\n", " ") + " " + __doc__.split("\n\n")[2].replace("\n", " "),
        "",
        f"h = {H} s, {TURNS:g} turns, samples every {SAMPLE * 1e3:g} ms. MuJoCo's solref {solref()}. The final "
        f"angle is where the wheel rests within its play (CLEARANCE / r = {math.degrees(model.CLEARANCE / R):.3f} "
        "deg either way), set by the pin's exit, not by the integration's accuracy: it is left out of the goals' "
        "errors. Load average "
        f"(1 min) {min(load):.1f}-{max(load):.1f} during this scene.",
        "",
        "| code | wheel - closed form, over the bound | in the dwell, over the play | final angle + 270 [deg] "
        "| steps/s (CPU) | CPU ours / this |",
        "|---|---|---|---|---|---|",
        *rows,
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    splice(os.path.join(HERE, "results", "peers_events.md"), section(args.repeats), pe.GOALS)


if __name__ == "__main__":
    main()
