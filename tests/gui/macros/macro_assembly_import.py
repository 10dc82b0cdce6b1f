# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD 1.x): the Import assembly
# joints command on a real Assembly built with the Assembly workbench's Python API (as its
# commands do: Assembly::AssemblyObject, JointGroup, GroundedJoint on box A, Revolute A-B with
# their view providers), then Check and Solve. The bodies, the grounding, the joint type and
# its frame (A's corner (20, 20, 0) and A's +y face normal) are checked, and the solved bar
# must swing about that axis: its distance from the axis stays the same.
# Names App, Gui, result, check, wait, save_view, close_message_boxes come from the runner.
import JointObject

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)

from MBDWorkbench.cad.objects import find_objects, find_simulation
from MBDWorkbench.commands.solve_commands import SolveCommand


def vertex_at(part, local):
    p = part.Placement.multVec(App.Vector(*local))
    return next(
        "%s.Vertex%d" % (part.Name, k) for k, v in enumerate(part.Shape.Vertexes, 1) if (v.Point - p).Length < 1e-9
    )


doc = App.newDocument("AsmImport")
asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
asm.Type = "Assembly"
joints = asm.newObject("Assembly::JointGroup", "Joints")
a = asm.newObject("Part::Box", "A")
a.Length = a.Width = a.Height = 20
a.Placement = App.Placement(App.Vector(5, -3, 7), App.Rotation(App.Vector(0, 0, 1), 30))
b = asm.newObject("Part::Box", "B")
b.Length, b.Width, b.Height = 200, 20, 20
b.Placement.Base = App.Vector(40, 30, 0)
doc.recompute()
ground = joints.newObject("App::FeaturePython", "GroundedJoint")
JointObject.GroundedJoint(ground, a)
JointObject.ViewProviderGroundedJoint(ground.ViewObject)
hinge = joints.newObject("App::FeaturePython", "Joint")
JointObject.Joint(hinge, JointObject.JointTypes.index("Revolute"))
JointObject.ViewProviderJoint(hinge.ViewObject)
hinge.Label = "Hinge"
hinge.Proxy.setJointConnectors(
    hinge, [[asm, ["A.Face4", vertex_at(a, (20, 20, 0))]], [asm, ["B.Face3", vertex_at(b, (0, 0, 0))]]]
)
doc.recompute()
wait(100)

seen = run_with_boxes("MBD_ImportAssembly")
check(
    "import report",
    seen and seen[0][0] == "MBD_ImportReport" and "1 joints imported" in seen[0][2] and "grounded: A" in seen[0][2],
    seen,
)
bodies = {o.Part.Name: o for o in find_objects(doc, "Body")}
check(
    "two bodies, A grounded",
    sorted(bodies) == ["A", "B"] and bodies["A"].Grounded and not bodies["B"].Grounded,
    sorted(bodies),
)
ours = find_objects(doc, "Joint")
check("one revolute", len(ours) == 1 and ours[0].JointType == "revolute", [o.Label for o in ours])
corner = a.Placement.multVec(App.Vector(20, 20, 0))
normal = a.Placement.Rotation.multVec(App.Vector(0, 1, 0))
if ours:
    frame = ours[0].Frame
    z = frame.Rotation.multVec(App.Vector(0, 0, 1))
    check(
        "frame at A's corner, z = face normal",
        (frame.Base - corner).Length < 1e-9 and (z - normal).Length < 1e-12,
        (frame, corner, normal),
    )

sim = find_simulation(doc)
sim.EndTimeMilliseconds = 500
doc.recompute()
seen = run_with_boxes("MBD_Check")
check("check: one degree of freedom", seen and "Mobility (degrees of freedom): 1" in seen[0][2], seen)
seen = run_with_boxes("MBD_Solve", timeout_ms=240000)
check("solve completed", seen and seen[0][0] == "MBD_SolveSummary" and "status: completed" in seen[0][2], seen)
stored = SolveCommand.last[0] if SolveCommand.last else None
if stored is not None:
    pivot = App.Vector(corner) * 1e-3
    dist = []
    for p in stored.position(bodies["B"].Label):
        r = App.Vector(*p) - pivot
        dist.append((r - normal * r.dot(normal)).Length)
    check("bar swings about the hinge axis", max(dist) - min(dist) < 1e-9 and len(dist) > 10, (min(dist), max(dist)))
    result["arm_m"] = dist[0]
Gui.SendMsgToActiveView("ViewFit")
save_view("assembly_imported", 800, 600, "White")
