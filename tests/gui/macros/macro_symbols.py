# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the 3D symbols of springs
# and forces, and how they follow the animation.
# The pendulum (examples/pendulum.FCStd, a saved copy) gets a translational spring from a ground
# point to the bar's tip, a rotational spring on the pivot, a point force (body axes) and a
# torque; it is solved and saved. Checked: the coin nodes exist; the coil's ends are the
# attachment points, the arrow starts at the application point, the spiral sits at the joint
# frame, before and at an animation frame where the bar has swung (expected points computed
# here from the bar's Placement, the shown coin transform and the local attachment points);
# Animate leaves the undo list and the modified flag alone; closing it draws the symbols at the
# document points again. A spring saved with the plain view provider (a document from before the
# symbols) gets the symbol one on opening, the document not modified.
# Screenshot: mbd_spring_force_symbols.png (the animation frame).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_view,
# close_message_boxes, wait_for_warm_up, open_example_copy are provided by the runner.
import math

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.cad.makers import make_force, make_spring_damper  # noqa: E402
from MBDWorkbench.cad.objects import find_objects  # noqa: E402
from MBDWorkbench.commands import animate  # noqa: E402
from MBDWorkbench.commands.view_providers import ViewProviderForce, ViewProviderSpringDamper  # noqa: E402

warm = wait_for_warm_up()
check("warm-up finished", warm.get("done"), warm)

doc = open_example_copy("pendulum.FCStd", "symbols.FCStd", 300)
path = doc.FileName
bar = doc.getObject("Bar")
body = find_objects(doc, "Body")[0]
pivot = find_objects(doc, "Joint")[0]
GROUND_POINT, TIP, FORCE_POINT = (200.0, 0.0, 150.0), (200.0, 0.0, 20.0), (100.0, 0.0, 20.0)
spring = make_spring_damper(doc, None, GROUND_POINT, body, TIP, stiffness=0.01, label="Spring")
coil = make_spring_damper(doc, None, None, None, None, stiffness=1.0, joint=pivot, label="PivotSpring")
force = make_force(doc, body, ("0", "0", "-2"), point=FORCE_POINT, axes="body", label="Push")
torque = make_force(doc, body, ("0", "100", "0"), kind="torque", label="Twist")
doc.recompute()
Gui.activeDocument().activeView().viewFront()
Gui.SendMsgToActiveView("ViewFit")

seen = []
close_message_boxes(seen, 300000)
Gui.runCommand("MBD_Solve")
wait(200)
check("pendulum with spring and forces solved", seen and "status: completed" in seen[0][2], seen)
App.setActiveDocument(doc.Name)
Gui.runCommand("Std_Save")  # the GUI save clears the modified flag (App save does not on 0.20)
wait(100)
gdoc = Gui.getDocument(doc.Name)
undo_before = doc.UndoCount
check("saved document not modified", not gdoc.Modified)


def coin_points(obj):
    """The symbol's polyline points [mm] as drawn (coin coordinates) and the line lengths."""
    proxy = obj.ViewObject.Proxy
    pts = [tuple(v.getValue()) for v in proxy.coords.point.getValues()]
    return pts, list(proxy.lines.numVertices.getValues())


def near(a, b, tol=1e-3):  # coin stores float32
    return all(abs(x - y) <= tol * max(1.0, abs(y)) for x, y in zip(a, b))


def vec(v):
    return (v.x, v.y, v.z)


# the attachment points in the bar's own frame, from its Placement at the document configuration
bar_plc = App.Placement(bar.Placement)  # a copy: nothing below is written back to the bar
to_bar = bar_plc.inverse()
local_tip, local_force = to_bar.multVec(App.Vector(*TIP)), to_bar.multVec(App.Vector(*FORCE_POINT))
local_cog, local_frame = to_bar.multVec(torque.Point), to_bar.multiply(pivot.Frame)


def check_symbols(tag, plc):
    """The symbols drawn for the bar shown at global placement ``plc``."""
    pts, counts = coin_points(spring)
    check(tag + ": coil from the ground point", near(pts[0], GROUND_POINT), (pts[:1], GROUND_POINT))
    expected = vec(plc.multVec(local_tip))
    check(tag + ": coil to the bar's tip", near(pts[counts[0] - 1], expected), (pts[counts[0] - 1], expected))
    check(tag + ": coil has turns", counts[0] > 20, counts)
    pts, counts = coin_points(force)
    expected = vec(plc.multVec(local_force))
    check(tag + ": arrow at the application point", near(pts[0], expected), (pts[0], expected))
    direction = plc.Rotation.multVec(App.Vector(0, 0, -1))  # -z of the bar, its body axes
    d = App.Vector(*pts[1]).sub(App.Vector(*pts[0]))
    check(tag + ": arrow along the force (body axes)", d.getAngle(direction) < 1e-3, (vec(d), vec(direction)))
    check(tag + ": arrow head shown", force.ViewObject.Proxy.head_switch.whichChild.getValue() == 0)
    pts, counts = coin_points(torque)
    centre = plc.multVec(local_cog)
    radii = [App.Vector(*p).sub(centre).Length for p in pts[: counts[0]]]
    check(tag + ": torque arc about the CoG", max(radii) - min(radii) < 1e-2 and min(radii) > 1.0, radii[:3])
    pts, counts = coin_points(coil)
    origin = vec(plc.multiply(local_frame).Base)
    check(tag + ": spiral at the joint frame", near(pts[0], origin), (pts[0], origin))


for obj, cls in ((spring, ViewProviderSpringDamper), (coil, ViewProviderSpringDamper), (force, ViewProviderForce)):
    proxy = obj.ViewObject.Proxy
    check("%s has the symbol view provider" % obj.Label, isinstance(proxy, cls), type(proxy))
    switch = obj.ViewObject.SwitchNode
    check("%s symbol shown" % obj.Label, switch.whichChild.getValue() >= 0 and obj.ViewObject.DisplayMode == "Symbol")
check_symbols("document", bar_plc)

Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("animation panel open", anim is not None)
anim.show_time(0.4)
wait(300)
node = animate.transform_node(bar)
shown = App.Placement(
    App.Vector(*node.translation.getValue().getValue()), App.Rotation(*node.rotation.getValue().getValue())
)
angle = shown.multiply(bar_plc.inverse()).Rotation.Angle
result["swing_deg"] = math.degrees(angle)
check("the bar has swung", angle > math.radians(20), result["swing_deg"])
check_symbols("animation", shown)
check("Placement untouched", bar.Placement.toMatrix() == bar_plc.toMatrix(), bar.Placement)
check("undo count unchanged while animating", doc.UndoCount == undo_before, (undo_before, doc.UndoCount))
check("not modified while animating", not gdoc.Modified)
view = Gui.activeDocument().activeView()  # from the front, turned a little to show depth
view.setCameraOrientation(App.Rotation(App.Vector(0, 0, 1), 20).multiply(App.Rotation(App.Vector(1, 0, 0), 75)))
Gui.SendMsgToActiveView("ViewFit")
wait(200)
result["screenshot"] = save_view("mbd_spring_force_symbols", 800, 600, "White")
check("screenshot saved", result["screenshot"].get("valid"), result["screenshot"])
anim.reject()
wait(200)
check("panel closed", animate.active_panel() is None)
check_symbols("closed", bar_plc)
check("undo count unchanged", doc.UndoCount == undo_before, (undo_before, doc.UndoCount))
check("modified flag unchanged", not gdoc.Modified)

# ------------------------------------------------------------------ a document saved before the symbols
# its spring has the plain view provider (GuiDocument.xml names ViewProviderMbd): on opening it
# gets the symbol one, without marking the document modified
from MBDWorkbench.commands import view_providers  # noqa: E402

old_vobj = spring.ViewObject
view_providers.ViewProviderMbd(old_vobj)
old_vobj.removeProperty("SymbolSize")
App.setActiveDocument(doc.Name)
Gui.runCommand("Std_Save")
wait(100)
check("old-style spring saved", type(old_vobj.Proxy) is view_providers.ViewProviderMbd, type(old_vobj.Proxy))
spring_name = spring.Name
App.closeDocument(doc.Name)
wait(200)
doc = App.openDocument(path)
wait(500)
spring = doc.getObject(spring_name)
check("old document: symbol view provider", isinstance(spring.ViewObject.Proxy, ViewProviderSpringDamper))
check("old document: not modified", not Gui.getDocument(doc.Name).Modified)
pts = coin_points(spring)[0] if hasattr(spring.ViewObject.Proxy, "coords") else []
check("old document: coil drawn to the tip", len(pts) > 20 and near(pts[-1], TIP), pts[-1:])
