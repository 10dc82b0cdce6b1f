"""The scenes of bench/peers_events.py in Exudyn 1.13.6, each through its fastest documented
explicit path: RK44 at the same fixed step as the others, the module without range checks
(``sys.exudynFast``, set by peers_events.py before the import), file output off, the samples
kept in memory by sensors (``storeInternal``) at the same sampling period as ours and MuJoCo's.

* stop: one link of an ObjectKinematicTree (minimal coordinate, as bench/exudyn_compare.py) with
  an ObjectConnectorCoordinateSpringDamperExt's limit stop: a linear spring-damper (stiffness,
  damping) on the joint angle past the stop;
* friction: the same connector's regularised Coulomb friction (``frictionProportionalZone``: its
  case for explicit integrators), a constant force parameter (no normal force in the model);
* ball, hertz, block: rigid bodies with rotation-vector nodes (Lie-group RK44: Euler parameters
  carry an algebraic constraint that Exudyn's explicit solvers refuse) and
  ObjectContactSphereTriangle against one large ground triangle: normal force K d^n with the
  restitution of its impact model 2 (Gonthier / Carvalho-Martins), friction through its Stribeck
  function (regularised at ``frictionProportionalZone``). Exudyn's default
  ``discontinuous.useRecommendedStepSize`` halves the step at the contact onset down to its minimum
  (1e-8 s) and aborts ("adaptive step reduction reached minimum step size"); it is turned off, so
  RK44 keeps the fixed step like the other codes.
"""

from __future__ import annotations

import math
import time

import exudyn as exu
import numpy as np
from exudyn.utilities import (
    MarkerBodyRigid,
    MarkerNodeCoordinate,
    NodeGenericData,
    NodeGenericODE2,
    NodePointGround,
    ObjectConnectorCoordinateSpringDamperExt,
    ObjectContactSphereTriangle,
    ObjectGround,
    ObjectKinematicTree,
    RigidBodyInertia,
    SensorBody,
    SensorNode,
    SensorObject,
)

HIDDEN = {"show": False, "showLinks": False, "showJoints": False, "color": [-1.0] * 4, "graphicsDataList": []}
FLOOR = exu.Vector3DList([[-5.0, -5.0, 0.0], [10.0, -5.0, 0.0], [-5.0, 10.0, 0.0]])  # one triangle, origin inside
OUT = exu.OutputVariableType


def module() -> str:
    """'fast (no range checks)' or 'regular': the compiled Exudyn module loaded."""
    import sys

    return "fast (no range checks)" if "exudyn.exudynCPPfast" in sys.modules else "regular"


def settings(h: float, t_end: float, sample: float) -> exu.SimulationSettings:
    """Fixed-step RK44 settings: no files, quiet, sensors every ``sample`` [s], no step reduction."""
    s = exu.SimulationSettings()
    s.solution.file.write = False
    s.solution.sensors.writePeriod = sample
    s.timeIntegration.numberOfSteps = int(round(t_end / h))
    s.timeIntegration.endTime = t_end
    s.timeIntegration.verboseMode = 0
    s.timeIntegration.explicit.useLieGroupIntegration = True
    s.timeIntegration.discontinuous.useRecommendedStepSize = False
    s.show.computationTime = False
    s.show.statistics = False
    return s


def solve(mbs, s: exu.SimulationSettings) -> float:
    """CPU time [s] of ``mbs.SolveDynamic`` with RK44."""
    start = time.process_time()
    mbs.SolveDynamic(s, solverType=exu.DynamicSolverType.RK44)
    return time.process_time() - start


# ----------------------------------------------------------------------------- one joint coordinate
def one_link(g: list, com: list, inertia: np.ndarray, mass: float, q0: float, connector: dict):
    """A one-link KinematicTree (revolute z at the origin) with a CoordinateSpringDamperExt from
    ground to its angle; returns (mbs, the angle and rate sensors)."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0.0], initialCoordinates=[q0], initialCoordinates_t=[0.0],
                                       numberOfODE2Coordinates=1))  # fmt: skip
    mbs.AddObject(ObjectKinematicTree(nodeNumber=node, gravity=g, jointTypes=[exu.JointType.RevoluteZ],
                                      linkParents=[-1],
                                      jointTransformations=exu.Matrix3DList([np.eye(3)]),
                                      jointOffsets=exu.Vector3DList([[0.0, 0.0, 0.0]]),
                                      linkInertiasCOM=exu.Matrix3DList([inertia]), linkCOMs=exu.Vector3DList([com]),
                                      linkMasses=[mass], visualization=HIDDEN))  # fmt: skip
    m0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
    m1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
    if connector.get("useLimitStops"):  # the stop's state lives in a data node (the regularised friction has none)
        data = NodeGenericData(initialCoordinates=[0.0, 0.0, 0.0], numberOfDataCoordinates=3)
        connector = {**connector, "nodeNumber": mbs.AddNode(data)}
    mbs.AddObject(ObjectConnectorCoordinateSpringDamperExt(markerNumbers=[m0, m1], **connector))
    sensors = [mbs.AddSensor(SensorNode(nodeNumber=node, outputVariableType=v, storeInternal=True))
               for v in (OUT.Coordinates, OUT.Coordinates_t)]  # fmt: skip
    mbs.Assemble()
    return mbs, sensors


def run_link(mbs, sensors, h: float, t_end: float, sample: float) -> dict:
    """Solve; (t, angle, rate) samples, CPU time and steps."""
    cpu = solve(mbs, settings(h, t_end, sample))
    q, w = (mbs.GetSensorStoredData(s) for s in sensors)
    return {"t": q[:, 0], "q": q[:, 1], "w": w[:, 1], "cpu": cpu, "steps": int(round(t_end / h))}


def stop(rod: dict, h: float, t_end: float, k: float, d: float) -> dict:
    """The rod pendulum (rod: m, L, g, angle_min) on a linear limit stop (k [N m/rad], d [N m s/rad])."""
    m, L = rod["m"], rod["L"]
    inertia = np.diag([1e-4, m * L**2 / 12, m * L**2 / 12])
    stop_ = {"useLimitStops": True, "limitStopsLower": rod["angle_min"], "limitStopsUpper": 10.0,
             "limitStopsStiffness": k, "limitStopsDamping": d}  # fmt: skip
    mbs, sensors = one_link([0.0, -rod["g"], 0.0], [L / 2, 0.0, 0.0], inertia, m, 0.0, stop_)
    return run_link(mbs, sensors, h, t_end, 1e-3)


def friction(bar: dict, h: float, t_end: float, torque: float, v_reg: float) -> dict:
    """The bar (m, L, I_cg, g, theta0) with a regularised constant friction torque [N m] (zone v_reg [rad/s])."""
    law = {"dynamicFrictionForce": torque, "frictionProportionalZone": v_reg}
    inertia = np.diag([0.01, 0.01, bar["I_cg"]])
    mbs, sensors = one_link([0.0, -bar["g"], 0.0], [0.0, -bar["L"], 0.0], inertia, bar["m"], bar["theta0"], law)
    return run_link(mbs, sensors, h, t_end, 1e-3)


# ----------------------------------------------------------------------------- contacts
def body_on_floor(mass: float, inertia: np.ndarray, position: list, velocity: list, g: float, spheres: list,
                  law: dict):  # fmt: skip
    """A rigid body (rotation-vector node) with contact spheres [(local centre [m], radius [m])] against
    the floor z = 0; returns (mbs, body, the contact objects)."""
    mbs = exu.SystemContainer().AddSystem()
    floor = mbs.AddMarker(MarkerBodyRigid(bodyNumber=mbs.AddObject(ObjectGround())))
    body = mbs.CreateRigidBody(inertia=RigidBodyInertia(mass, inertia, inertiaTensorAtCOM=True),
                               referencePosition=position, initialVelocity=velocity, gravity=[0.0, 0.0, -g],
                               nodeType=exu.NodeType.RotationRotationVector, show=False)  # fmt: skip
    contacts = []
    for centre, radius in spheres:
        marker = mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=centre))
        data = mbs.AddNode(NodeGenericData(initialCoordinates=[0.1, 0.0, 0.0, 0.0], numberOfDataCoordinates=4))
        contacts.append(mbs.AddObject(ObjectContactSphereTriangle(markerNumbers=[marker, floor], nodeNumber=data,
                                                                  trianglePoints=FLOOR, includeEdges=0,
                                                                  sphereRadius=radius, **law)))  # fmt: skip
    return mbs, body, contacts


def ball(b: dict, h: float, t_end: float, height: float, speed: float, g: float, law: dict, sample: float) -> dict:
    """The ball (b: R, m) from ``height`` [m] (its bottom) at ``speed`` [m/s] down onto the floor:
    t, bottom height z [m], normal force [N] samples."""
    J = 0.4 * b["m"] * b["R"] ** 2
    mbs, body, (contact,) = body_on_floor(b["m"], np.diag([J, J, J]), [0.0, 0.0, b["R"] + height],
                                          [0.0, 0.0, -speed], g, [([0.0, 0.0, 0.0], b["R"])], law)  # fmt: skip
    sz = mbs.AddSensor(SensorBody(bodyNumber=body, outputVariableType=OUT.Position, storeInternal=True))
    sf = mbs.AddSensor(SensorObject(objectNumber=contact, outputVariableType=OUT.Force, storeInternal=True))
    mbs.Assemble()
    cpu = solve(mbs, settings(h, t_end, sample))
    z, f = mbs.GetSensorStoredData(sz), mbs.GetSensorStoredData(sf)
    return {"t": z[:, 0], "z": z[:, 3] - b["R"], "force": np.abs(f[:, 3]), "cpu": cpu,
            "steps": int(round(t_end / h))}  # fmt: skip


def block(a: float, m: float, v0: float, g: float, h: float, t_end: float, law: dict, radius: float) -> dict:
    """A cube (edge a [m], mass m [kg]) on the floor on contact spheres (radius [m]) at its 4 bottom
    corners, pushed at v0 [m/s] along x: t, x [m], vx [m/s] samples every 1 ms."""
    J = m * a * a / 6.0
    corners = [([sx * a / 2, sy * a / 2, -a / 2 + radius], radius) for sx in (-1, 1) for sy in (-1, 1)]
    mbs, body, _ = body_on_floor(m, np.diag([J, J, J]), [0.0, 0.0, a / 2], [v0, 0.0, 0.0], g, corners, law)
    sx = mbs.AddSensor(SensorBody(bodyNumber=body, outputVariableType=OUT.Position, storeInternal=True))
    sv = mbs.AddSensor(SensorBody(bodyNumber=body, outputVariableType=OUT.Velocity, storeInternal=True))
    mbs.Assemble()
    cpu = solve(mbs, settings(h, t_end, 1e-3))
    x, v = mbs.GetSensorStoredData(sx), mbs.GetSensorStoredData(sv)
    return {"t": x[:, 0], "x": x[:, 1], "vx": v[:, 1], "cpu": cpu, "steps": int(round(t_end / h))}


def linear_stop(inertia: float, e: float, t_c: float) -> tuple[float, float]:
    """(stiffness, damping) of a linear spring-damper on inertia [kg m^2 or kg] whose contact lasts
    t_c [s] and rebounds at e."""
    zeta = -math.log(e) / math.sqrt(math.pi**2 + math.log(e) ** 2)
    w_n = math.pi / t_c / math.sqrt(1 - zeta**2)
    return inertia * w_n**2, 2 * zeta * inertia * w_n
