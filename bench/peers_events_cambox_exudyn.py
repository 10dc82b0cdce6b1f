"""The cam-follower and the settling box of bench/peers_events_cambox.py in Exudyn 1.13.6, through
the same path as bench/peers_events_exudyn.py: RK44 at the others' fixed step, the module without
range checks, no files, sensors in memory, no step reduction at contacts.

* cam: one ObjectKinematicTree of two links from the ground (minimal coordinates, which Exudyn's
  explicit solvers take): the cam on a revolute z (a flywheel, so that it keeps its speed: Exudyn's
  explicit solvers take no driving constraint), the follower on a prismatic y with the preloaded
  spring an ObjectConnectorCoordinateSpringDamper on its coordinate; the contact an
  ObjectContactSphereTriangle between the cam's circle (a sphere of the cam's radius at the
  eccentric point, markers MarkerKinematicTreeRigid) and a triangle of the follower's face.
* box: a rigid body (rotation-vector node, Lie-group RK44) with a contact sphere inside each of
  its 8 corners (touching the corner's three faces) against the floor triangle (as the block of
  bench/peers_events.py, which has 4).
"""

from __future__ import annotations

import exudyn as exu
import numpy as np
from exudyn.utilities import (
    MarkerBodyRigid,
    MarkerKinematicTreeRigid,
    MarkerNodeCoordinate,
    NodeGenericData,
    NodeGenericODE2,
    NodePointGround,
    ObjectConnectorCoordinateSpringDamper,
    ObjectContactSphereTriangle,
    ObjectGround,
    ObjectKinematicTree,
    RigidBodyInertia,
    SensorBody,
    SensorNode,
    SensorObject,
)

from bench.peers_events_exudyn import FLOOR, HIDDEN, OUT, settings, solve

FACE = exu.Vector3DList([[-1.0, 0.0, -1.0], [2.0, 0.0, -1.0], [-1.0, 0.0, 2.0]])  # normal -y: the face looks down


def cam(c: dict, w: float, h: float, t_end: float, law: dict, sample: float) -> dict:
    """The cam (c: R, E, m, k, P, I_cam) turning at w [rad/s] from its lowest point (centre at (0, -E)),
    the follower's face at y0 (c: y0) at rest: t, cam angle [rad], face height y [m], normal force [N]."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0.0, 0.0], initialCoordinates=[0.0, c["y0"]],
                                       initialCoordinates_t=[w, 0.0], numberOfODE2Coordinates=2))  # fmt: skip
    inertias = exu.Matrix3DList([np.diag([1.0, 1.0, c["I_cam"]]), np.diag([1e-4] * 3)])
    tree = mbs.AddObject(ObjectKinematicTree(nodeNumber=node, gravity=[0.0] * 3, linkParents=[-1, -1],
                                             jointTypes=[exu.JointType.RevoluteZ, exu.JointType.PrismaticY],
                                             jointTransformations=exu.Matrix3DList([np.eye(3)] * 2),
                                             jointOffsets=exu.Vector3DList([[0.0] * 3] * 2),
                                             linkInertiasCOM=inertias, linkCOMs=exu.Vector3DList([[0.0] * 3] * 2),
                                             linkMasses=[2.0, c["m"]], visualization=HIDDEN))  # fmt: skip
    ground = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
    lift = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=node, coordinate=1))
    offset = c["R"] - c["E"] - c["P"] / c["k"]  # the spring pushes P down at the lowest face height R - E
    mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[ground, lift], stiffness=c["k"], damping=0.0,
                                                        offset=offset))  # fmt: skip
    centre = mbs.AddMarker(MarkerKinematicTreeRigid(objectNumber=tree, linkNumber=0, localPosition=[0.0, -c["E"], 0.0]))
    face = mbs.AddMarker(MarkerKinematicTreeRigid(objectNumber=tree, linkNumber=1, localPosition=[0.0] * 3))
    data = mbs.AddNode(NodeGenericData(initialCoordinates=[0.1, 0.0, 0.0, 0.0], numberOfDataCoordinates=4))
    contact = mbs.AddObject(ObjectContactSphereTriangle(markerNumbers=[centre, face], nodeNumber=data,
                                                        trianglePoints=FACE, includeEdges=0, sphereRadius=c["R"],
                                                        **law))  # fmt: skip
    sq = mbs.AddSensor(SensorNode(nodeNumber=node, outputVariableType=OUT.Coordinates, storeInternal=True))
    sf = mbs.AddSensor(SensorObject(objectNumber=contact, outputVariableType=OUT.Force, storeInternal=True))
    mbs.Assemble()
    cpu = solve(mbs, settings(h, t_end, sample))
    q, f = mbs.GetSensorStoredData(sq), mbs.GetSensorStoredData(sf)  # the first sample: no force evaluated yet
    force = np.linalg.norm(f[1:, 1:4], axis=1)
    return {"t": q[1:, 0], "theta": q[1:, 1], "y": q[1:, 2], "force": force, "cpu": cpu, "steps": int(round(t_end / h))}


def box(b: dict, h: float, t_end: float, law: dict, radius: float) -> dict:
    """The box (b: size [m], m, inertia (principal), position, rotation matrix A, angular velocity
    (global), g) dropped onto the floor on 8 corner spheres (radius [m]): t, position, velocity,
    angular velocity (global), rotation matrices, samples every 1 ms."""
    mbs = exu.SystemContainer().AddSystem()
    floor = mbs.AddMarker(MarkerBodyRigid(bodyNumber=mbs.AddObject(ObjectGround())))
    body = mbs.CreateRigidBody(inertia=RigidBodyInertia(b["m"], np.diag(b["inertia"]), inertiaTensorAtCOM=True),
                               referencePosition=b["position"], referenceRotationMatrix=b["A"],
                               initialAngularVelocity=list(b["omega"]), gravity=[0.0, 0.0, -b["g"]],
                               nodeType=exu.NodeType.RotationRotationVector, show=False)  # fmt: skip
    half = np.asarray(b["size"]) / 2 - radius
    for corner in [[sx * half[0], sy * half[1], sz * half[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]:
        marker = mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=corner))
        data = mbs.AddNode(NodeGenericData(initialCoordinates=[0.1, 0.0, 0.0, 0.0], numberOfDataCoordinates=4))
        mbs.AddObject(ObjectContactSphereTriangle(markerNumbers=[marker, floor], nodeNumber=data, trianglePoints=FLOOR,
                                                  includeEdges=0, sphereRadius=radius, **law))  # fmt: skip
    sensors = [mbs.AddSensor(SensorBody(bodyNumber=body, outputVariableType=v, storeInternal=True))
               for v in (OUT.Position, OUT.Velocity, OUT.AngularVelocity, OUT.RotationMatrix)]  # fmt: skip
    mbs.Assemble()
    cpu = solve(mbs, settings(h, t_end, 1e-3))
    x, v, w, A = (mbs.GetSensorStoredData(s) for s in sensors)
    return {"t": x[:, 0], "x": x[:, 1:4], "v": v[:, 1:4], "w": w[:, 1:4], "A": A[:, 1:10].reshape(-1, 3, 3),
            "cpu": cpu, "steps": int(round(t_end / h))}  # fmt: skip
