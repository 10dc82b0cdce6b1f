# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the task panels on a copy of
# examples/slider_crank.FCStd, driven as a user would. Each panel is opened by double-click
# (ViewProvider.doubleClicked / setEdit) or by its command with nothing selected (references
# picked AFTER starting, through Gui.Selection.addSelection), values are typed into its
# widgets, OK is one undo step with the expected values in the document, Cancel leaves values
# and the undo list unchanged, and a screenshot of each panel is saved (mbd_panel_<name>.png).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window,
# close_message_boxes are provided by the runner.
import math
import os
import shutil
import sys

import MBDWorkbench

REPO = os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__)))
sys.path.insert(0, os.path.join(REPO, "examples"))
from make_slider_crank_fcstd import R, hole_edge  # noqa: E402

from MBDWorkbench.cad.objects import density_kg_m3, find_objects, find_simulation  # noqa: E402
from MBDWorkbench.commands import task_panels  # noqa: E402

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
mw = Gui.getMainWindow()
for dock in mw.findChildren(QtWidgets.QDockWidget):
    if dock.objectName() in ("Report view", "Python console", "Selection view"):
        dock.setVisible(False)
combo = [d for d in mw.findChildren(QtWidgets.QDockWidget) if d.objectName() == "Combo View"]
if combo:  # wide enough for the panels' fields and units
    mw.resizeDocks(combo, [430], QtCore.Qt.Horizontal)
path = os.path.join(OUT_DIR, "slider_crank_copy.FCStd")
shutil.copy2(os.path.join(REPO, "examples", "slider_crank.FCStd"), path)
doc = App.openDocument(path)
wait(300)
gdoc = Gui.getDocument(doc.Name)
view = gdoc.activeView()
view.viewIsometric()
Gui.SendMsgToActiveView("ViewFit")
wait(200)

by_label = {o.Label: o for o in doc.Objects}
crank, rod, slider = (doc.getObject(n) for n in ("Crank", "Rod", "Slider"))
crank_body, pin, motor, guide = (by_label[n] for n in ("Crank_body", "CrankPin", "Motor", "Guide"))
sim = find_simulation(doc)


def state(objs, props):
    """Undo list and the values of ``props`` of ``objs`` (compared before/after Cancel)."""
    values = [(o.Name, p, str(getattr(o, p))) for o in objs for p in props if p in o.PropertiesList]
    return doc.UndoCount, list(doc.UndoNames), len(doc.Objects), values


def shot(name):
    wait(200)
    stats = save_window("mbd_panel_" + name)
    check("screenshot %s" % name, stats.get("distinct_colors", 0) > 50, stats)


def double_click(obj):
    """As a double click in the tree: the view provider's doubleClicked."""
    obj.ViewObject.Proxy.doubleClicked(obj.ViewObject)
    wait(100)
    return task_panels.open_panel()


def pick(obj, sub=""):
    Gui.Selection.addSelection(doc.Name, obj.Name, sub)
    wait(50)


def in_unit(quantity, unit):
    """A Quantity property's value as a float in ``unit``, with FreeCAD's own conversion."""
    return float(quantity.getValueAs(unit))


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


# ------------------------------------------------------------------ context menu
menu = QtWidgets.QMenu()
sim.ViewObject.Proxy.setupContextMenu(sim.ViewObject, menu)
entries = [a.text() for a in menu.actions()]
check("simulation context menu", entries[1:] == ["Solve", "Animate"] and entries[0].startswith("Edit"), entries)

# ------------------------------------------------------------------ body
BODY_PROPS = ("Material", "Density", "Mass", "Grounded", "ComputedMass")
before = state([crank_body], BODY_PROPS)
panel = double_click(crank_body)
check("body panel opens on double click", isinstance(panel, task_panels.BodyPanel) and Gui.Control.activeDialog())
check(
    "body panel shows the density in kg/m^3 and the mass in kg",
    close(float(panel.density.edit.text()), density_kg_m3(crank_body))
    and panel.density.unit == "kg/m^3"
    and close(float(panel.mass.edit.text()), float(crank_body.Mass))
    and panel.mass.unit == "kg",
    (panel.density.edit.text(), density_kg_m3(crank_body), panel.mass.edit.text(), crank_body.Mass),
)
panel.material.setCurrentIndex(panel.material.findData("Aluminium"))
check("material sets the density field", panel.density.edit.text() == "2700", panel.density.edit.text())
expected_mass = crank.Shape.Volume * 1e-9 * 2700.0  # mm^3 -> m^3, aluminium
shown = float(panel.info.text().split()[1])
check("panel shows the mass of the part in aluminium", close(shown, expected_mass, 1e-5), (shown, expected_mass))
shot("body")
panel.reject()
wait(100)
check(
    "body cancel leaves the document unchanged",
    state([crank_body], BODY_PROPS) == before and not Gui.Control.activeDialog(),
)
panel = double_click(crank_body)
panel.mass.edit.setText("0.25")
panel.grounded.setChecked(False)
panel.material.setCurrentIndex(panel.material.findData("Aluminium"))
panel.accept()
wait(100)
check(
    "body OK writes mass and material",
    in_unit(crank_body.Mass, "kg") == 0.25
    and close(float(crank_body.ComputedMass), 0.25)
    and crank_body.Material == "Aluminium"
    and close(density_kg_m3(crank_body), 2700.0, 1e-12)
    and close(in_unit(crank_body.Density, "kg/m^3"), 2700.0, 1e-12),
    (crank_body.Mass, crank_body.ComputedMass, crank_body.Material, crank_body.Density),
)
check("body OK is one undo step", doc.UndoCount == before[0] + 1 and doc.UndoNames[0] == "Edit body", doc.UndoNames)

# ------------------------------------------------------------------ simulation (Solve)
SIM_PROPS = (
    "EndTimeMilliseconds", "StepMicroseconds", "OutputStepMicroseconds", "Integrator", "GravityX", "GravityY",
    "GravityZ", "RelativeTolerance", "AbsoluteTolerance",
)  # fmt: skip
before = state([sim], SIM_PROPS)
panel = double_click(sim)
check("simulation panel opens on double click", isinstance(panel, task_panels.SimulationPanel))
shown = {prop: float(field.edit.text()) for prop, field in list(panel.numbers.items()) + list(panel.gravity.items())}
check(
    "simulation panel shows the values in ms, µs and mm/s^2, the tolerances as their text",
    shown["EndTimeMilliseconds"] == sim.EndTimeMilliseconds == 2000
    and shown["OutputStepMicroseconds"] == sim.OutputStepMicroseconds == 10000
    and shown["StepMicroseconds"] == sim.StepMicroseconds
    and panel.numbers["RelativeTolerance"].edit.text() == "0"
    and sim.RelativeTolerance == "default"
    and panel.numbers["AbsoluteTolerance"].edit.text() == sim.AbsoluteTolerance == "1e-8"
    and panel.numbers["TikhonovEps"].edit.text() == sim.TikhonovEps == "1e-10"
    and all(shown["Gravity" + c] == in_unit(getattr(sim, "Gravity" + c), "mm/s^2") for c in "XYZ")
    and [shown["Gravity" + c] for c in "XYZ"] == [0.0, -9810.0, 0.0]  # the example: gravity -y
    and shown["StepMicroseconds"] == 1000
    and panel.numbers["StepMicroseconds"].unit == panel.numbers["OutputStepMicroseconds"].unit == "µs"
    and panel.gravity["GravityZ"].unit == "mm/s^2"
    and panel.numbers["EndTimeMilliseconds"].unit == "ms",
    shown,
)
panel.numbers["EndTimeMilliseconds"].edit.setText("3000")
panel.numbers["StepMicroseconds"].edit.setText("100")
panel.gravity["GravityY"].edit.setText("-5000")
panel.reject()
wait(100)
check("simulation cancel leaves the document unchanged", state([sim], SIM_PROPS) == before)
panel = double_click(sim)
panel.numbers["EndTimeMilliseconds"].edit.setText("500")
panel.numbers["AbsoluteTolerance"].edit.setText("2.5e-07")
panel.numbers["StepMicroseconds"].edit.setText("500")
panel.numbers["StepMicroseconds"].edit.returnPressed.emit()
panel.gravity["GravityX"].edit.setText("0")
panel.gravity["GravityY"].edit.setText("-9806.65")  # standard gravity: not exact in binary, kept as typed
panel.gravity["GravityZ"].edit.setText("0")
panel.numbers["OutputStepMicroseconds"].edit.setText("abc")
panel.solve_button.click()
wait(100)
check(
    "bad number named, nothing applied",
    "OutputStepMicroseconds" in panel.error.text() and state([sim], SIM_PROPS) == before,
    panel.error.text(),
)
panel.numbers["OutputStepMicroseconds"].edit.setText("5000")
panel.numbers["StepMicroseconds"].edit.setText("500.5")
panel.solve_button.click()
wait(100)
check(
    "a step that is not whole µs named, nothing applied",
    "StepMicroseconds" in panel.error.text() and "whole" in panel.error.text() and state([sim], SIM_PROPS) == before,
    panel.error.text(),
)
panel.numbers["StepMicroseconds"].edit.setText("500")
panel.numbers["TikhonovEps"].edit.setText("0")
panel.solve_button.click()
wait(100)
check(
    "a tolerance of 0 named, nothing applied",
    "TikhonovEps" in panel.error.text() and "> 0" in panel.error.text() and state([sim], SIM_PROPS) == before,
    panel.error.text(),
)
panel.numbers["TikhonovEps"].edit.setText("1e-10")
seen = []
close_message_boxes(seen, 240000)
panel.solve_button.click()
wait(200)
check(
    "solve from the panel completes",
    "completed" in panel.status.text(),
    (panel.status.text(), panel.log.toPlainText(), seen),
)
check("solve log shows the summary", "completed" in panel.log.toPlainText(), panel.log.toPlainText())
check(
    "settings applied before the solve (small step kept, tolerance as short text)",
    sim.StepMicroseconds == 500
    and sim.EndTimeMilliseconds == 500
    and sim.AbsoluteTolerance == "2.5e-7"
    and sim.RelativeTolerance == "default"
    and sim.OutputStepMicroseconds == 5000
    and [in_unit(getattr(sim, "Gravity" + c), "mm/s^2") for c in "XYZ"] == [0.0, -9806.65, 0.0],
    (
        sim.StepMicroseconds,
        sim.EndTimeMilliseconds,
        sim.AbsoluteTolerance,
        sim.OutputStepMicroseconds,
        sim.GravityX,
        sim.GravityY,
        sim.GravityZ,
    ),
)
shot("simulation")
undo = doc.UndoCount
panel.accept()
wait(100)
check(
    "simulation OK is one undo step", doc.UndoCount == undo + 1 and doc.UndoNames[0] == "Edit simulation", doc.UndoNames
)

# ------------------------------------------------------------------ joint: create by picking after starting
JOINT_PROPS = ("JointType", "Frame", "Body1", "Body2")
Gui.Selection.clearSelection()
before = state(find_objects(doc, "Joint"), JOINT_PROPS)
Gui.runCommand("MBD_Joint_revolute")
wait(100)
panel = task_panels.open_panel()
check(
    "joint command with nothing selected opens the panel", isinstance(panel, task_panels.JointPanel) and panel.creating
)
check(
    "no reference yet: error and no preview", panel.error.text() != "" and not panel.preview.shown, panel.error.text()
)
pick(crank, hole_edge(crank, R, 8))
pick(rod, hole_edge(rod, R, 8))
check(
    "two picks listed",
    "Crank" in panel.refs[0].text() and "Rod" in panel.refs[1].text(),
    [r.text() for r in panel.refs],
)
check("preview shown", panel.preview.shown and panel.error.text() == "", panel.error.text())
panel.flip.setChecked(True)
panel.offset.edit.setText("5")
axis = crank.Shape.Edges[int(hole_edge(crank, R, 8)[4:]) - 1].Curve.Axis  # the hole's axis, independent of the panel
frame = panel.frame()
z = frame.Rotation.multVec(App.Vector(0, 0, 1))
expected_origin = App.Vector(R, 0, 8) - axis * 5  # flipped: z = -axis, moved 5 mm along it
check("flip reverses the axis", (z + axis).Length < 1e-9, (z, axis))
check("offset moves the origin along the new z", (frame.Base - expected_origin).Length < 1e-9, frame.Base)
shot("joint_create")
panel.reject()
wait(100)
check("joint cancel leaves the document unchanged", state(find_objects(doc, "Joint"), JOINT_PROPS) == before)
check("preview removed with the panel", not panel.preview.graph)
Gui.Selection.clearSelection()
Gui.runCommand("MBD_Joint_revolute")
wait(100)
panel = task_panels.open_panel()
pick(crank, hole_edge(crank, R, 8))
pick(rod, hole_edge(rod, R, 8))
panel.type.setCurrentIndex(panel.type.findData("cylindrical"))
panel.flip.setChecked(True)
panel.offset.edit.setText("5")
panel.accept()
wait(100)
joints = find_objects(doc, "Joint")
new = [j for j in joints if j.Name not in [v[0] for v in before[3]]]
check("OK creates one joint", len(new) == 1, [j.Label for j in joints])
if new:
    j = new[0]
    z = j.Frame.Rotation.multVec(App.Vector(0, 0, 1))
    check(
        "created joint: type, bodies, frame",
        j.JointType == "cylindrical"
        and j.Body1 == crank_body
        and j.Body2 is not None
        and j.Body2.Part == rod
        and (j.Frame.Base - expected_origin).Length < 1e-9
        and (z + axis).Length < 1e-9,
        (j.JointType, j.Body1, j.Body2, j.Frame),
    )
    check(
        "create is one undo step", doc.UndoCount == before[0] + 1 and doc.UndoNames[0] == "Create joint", doc.UndoNames
    )
    doc.undo()
    doc.recompute()
    check("undo removes the joint", len(find_objects(doc, "Joint")) == len(before[3]) // len(JOINT_PROPS))

# ------------------------------------------------------------------ joint: edit (type switch, rotation)
before = state([pin], JOINT_PROPS)
panel = double_click(pin)
check("joint panel opens on double click", isinstance(panel, task_panels.JointPanel) and not panel.creating)
panel.type.setCurrentIndex(panel.type.findData("cylindrical"))
panel.rotation.edit.setText("90")
shot("joint_edit")
panel.reject()
wait(100)
check("joint edit cancel leaves the document unchanged", state([pin], JOINT_PROPS) == before)
x0 = pin.Frame.Rotation.multVec(App.Vector(1, 0, 0))
z0 = pin.Frame.Rotation.multVec(App.Vector(0, 0, 1))
panel = double_click(pin)
panel.type.setCurrentIndex(panel.type.findData("cylindrical"))
panel.rotation.edit.setText("90")
panel.limits["EnableAngleMax"].setChecked(True)
panel.limits["AngleMax"].edit.setText("30")
panel.limits["AngleDamping"].edit.setText("0.5")
panel.limits["StopModel"].setCurrentIndex(panel.limits["StopModel"].findData("compliant"))
panel.limits["StopRestitution"].edit.setText("0.3")
panel.friction["EnableFriction"].setChecked(True)
panel.friction["StaticFriction"].edit.setText("0.2")
panel.friction["PinRadius"].edit.setText("4")
panel.accept()
wait(100)
x1 = pin.Frame.Rotation.multVec(App.Vector(1, 0, 0))
check(
    "edit OK: type and frame turned 90 deg about z",
    pin.JointType == "cylindrical" and (x1 - z0.cross(x0)).Length < 1e-9,
    (pin.JointType, x1, z0.cross(x0)),
)
check(
    "edit OK: the angle limit [deg] and damping written",
    pin.EnableAngleMax and abs(pin.AngleMax.Value - 30.0) < 1e-9 and pin.AngleDamping == 0.5,
    (pin.EnableAngleMax, pin.AngleMax, pin.AngleDamping),
)
check(
    "edit OK: the stop model and the restitution written",
    pin.StopModel == "compliant" and pin.StopRestitution == 0.3,
    (pin.StopModel, pin.StopRestitution),
)
check(
    "edit OK: the friction switch, mu_s and pin radius [mm] written",
    pin.EnableFriction and pin.StaticFriction == 0.2 and abs(pin.PinRadius.Value - 4.0) < 1e-9,
    (pin.EnableFriction, pin.StaticFriction, pin.PinRadius),
)
doc.undo()
doc.recompute()
check(
    "undo restores the joint",
    pin.JointType == "revolute" and (pin.Frame.Rotation.multVec(App.Vector(1, 0, 0)) - x0).Length < 1e-9,
)

# ------------------------------------------------------------------ joint: edit with new references
undo = doc.UndoCount
panel = double_click(pin)
pick(crank, hole_edge(crank, R, 0))  # the crank's other pin-hole edge (z = 0) ...
pick(rod, hole_edge(rod, R, 16))  # ... and the rod's top one (z = 16)
check("new references listed", "Crank" in panel.refs[0].text() and "Rod" in panel.refs[1].text(), panel.refs[0].text())
panel.accept()
wait(100)
rod_body = by_label["Rod_body"]
check(
    "edit with new references: frame on the new edge, same bodies",
    (pin.Frame.Base - App.Vector(R, 0, 0)).Length < 1e-9
    and pin.Body1 == crank_body
    and pin.Body2 == rod_body
    and pin.Reference1 == "%s of Crank" % hole_edge(crank, R, 0),
    (pin.Frame, pin.Reference1, pin.Reference2),
)
check("one undo step", doc.UndoCount == undo + 1 and doc.UndoNames[0] == "Edit joint", doc.UndoNames[:2])
doc.undo()
doc.recompute()
check("undo restores the references", (pin.Frame.Base - App.Vector(R, 0, 8)).Length < 1e-9, pin.Frame)

# ------------------------------------------------------------------ driver: edit (profile editor) and create
DRIVER_PROPS = ("Profile", "Expression", "Rate", "DriverType", "Joint")
before = state([motor], DRIVER_PROPS)
panel = double_click(motor)
check("driver panel opens on double click", isinstance(panel, task_panels.DriverPanel))
panel.profile.setCurrentIndex(panel.profile.findData("expression"))
panel.expression.setText("90*sin(2*pi*t")
check("unbalanced expression: error names the field", panel.error.text().startswith("Expression"), panel.error.text())
panel.expression.setText("90*sinh(2*pi*t) + q")
check("unknown name: error names it", "q" in panel.error.text(), panel.error.text())
panel.expression.setText("90*sin(2*pi*t)")
check("valid expression: no error", panel.error.text() == "", panel.error.text())
line = panel.plot.axes.lines[0]
ts, ys = line.get_xdata(), line.get_ydata()
err = max(abs(y - 90 * math.sin(2 * math.pi * t)) for t, y in zip(ts, ys))
check("preview plots f(t) in deg over the end time", err < 1e-9 and close(ts[-1], 0.5), (err, ts[-1]))
shot("driver")
panel.reject()
wait(100)
check("driver cancel leaves the document unchanged", state([motor], DRIVER_PROPS) == before)
panel = double_click(motor)
panel.profile.setCurrentIndex(panel.profile.findData("harmonic"))
panel.values["Amplitude"].edit.setText("45")
panel.values["Frequency"].edit.setText("2")
ys = panel.plot.axes.lines[0].get_ydata()
ts = panel.plot.axes.lines[0].get_xdata()
err = max(abs(y - 45 * math.sin(4 * math.pi * t)) for t, y in zip(ts, ys))
check("harmonic preview: 45 sin(4 pi t) deg", err < 1e-9, err)
panel.accept()
wait(100)
check(
    "driver OK writes the profile",
    motor.Profile == "harmonic" and close(float(motor.Amplitude), 45.0) and close(float(motor.Frequency), 2.0),
    (motor.Profile, motor.Amplitude, motor.Frequency),
)
doc.undo()
doc.recompute()
Gui.Selection.clearSelection()
count = len(doc.Objects)
Gui.runCommand("MBD_Driver")
wait(100)
panel = task_panels.open_panel()
check(
    "driver command with nothing selected opens the panel",
    isinstance(panel, task_panels.DriverPanel) and panel.creating,
)
pick(guide)
check("rotational driver on the prismatic guide refused", "prismatic" in panel.error.text(), panel.error.text())
panel.type.setCurrentIndex(panel.type.findData("linear"))
panel.values["Rate"].edit.setText("20")
check("linear driver accepted", panel.error.text() == "" and panel.values["Rate"].unit == "mm/s", panel.error.text())
panel.accept()
wait(100)
drivers = [d for d in find_objects(doc, "Driver") if d.Joint == guide]
check(
    "driver created on the picked joint",
    len(drivers) == 1 and drivers[0].DriverType == "linear" and close(float(drivers[0].Rate), 20.0),
    [(d.Label, d.DriverType, d.Rate) for d in drivers],
)
doc.undo()
doc.recompute()
check("undo removes the driver", len(doc.Objects) == count)

# ------------------------------------------------------------------ force: create by picking a point
Gui.Selection.clearSelection()
count, undo = len(doc.Objects), doc.UndoCount
Gui.runCommand("MBD_Force")
wait(100)
panel = task_panels.open_panel()
check(
    "force command with nothing selected opens the panel", isinstance(panel, task_panels.ForcePanel) and panel.creating
)
pick(slider, "Vertex1")
vertex = slider.Shape.Vertexes[0].Point
panel.components["X"].setText("10*t")
panel.components["Y"].setText("2*")
check("bad component: error names it", panel.error.text().startswith("Y"), panel.error.text())
panel.components["Y"].setText("-5")
check("valid components: no error", panel.error.text() == "", panel.error.text())
lines = {ln.get_label(): ln for ln in panel.plot.axes.lines}
xs = lines["X"].get_ydata()
check(
    "force preview: X = 10 t, Y = -5",
    max(abs(x - 10 * t) for t, x in zip(lines["X"].get_xdata(), xs)) < 1e-9 and set(lines["Y"].get_ydata()) == {-5.0},
)
shot("force")
panel.reject()
wait(100)
check("force cancel leaves the document unchanged", len(doc.Objects) == count and doc.UndoCount == undo)
check("the panel's picks are cleared on close", not Gui.Selection.getSelection())
Gui.runCommand("MBD_Force")
wait(100)
panel = task_panels.open_panel()
pick(slider, "Vertex1")
panel.components["X"].setText("10*t")
panel.accept()
wait(100)
forces = find_objects(doc, "Force")
check(
    "force created at the picked vertex",
    len(forces) == 1
    and forces[0].Body.Part == slider
    and (forces[0].Point - vertex).Length < 1e-9
    and forces[0].X == "10*t",
    [(f.Label, f.Point, f.X) for f in forces],
)

force = forces[0]
FORCE_PROPS = ("X", "Y", "Z", "Point", "Kind", "Axes")
before = state([force], FORCE_PROPS)
panel = double_click(force)
check("force panel opens on double click", isinstance(panel, task_panels.ForcePanel) and not panel.creating)
panel.components["Z"].setText("3*t")
panel.axes.setCurrentIndex(panel.axes.findData("body"))
panel.reject()
wait(100)
check("force edit cancel leaves the document unchanged", state([force], FORCE_PROPS) == before)
panel = double_click(force)
panel.components["Z"].setText("3*t")
panel.axes.setCurrentIndex(panel.axes.findData("body"))
panel.accept()
wait(100)
check(
    "force edit OK writes the components and axes",
    force.Z == "3*t" and force.X == "10*t" and force.Axes == "body" and (force.Point - vertex).Length < 1e-9,
    (force.X, force.Z, force.Axes, force.Point),
)

# ------------------------------------------------------------------ spring
Gui.Selection.clearSelection()
count, undo = len(doc.Objects), doc.UndoCount
Gui.runCommand("MBD_SpringDamper")
wait(100)
panel = task_panels.open_panel()
check(
    "spring command with nothing selected opens the panel",
    isinstance(panel, task_panels.SpringPanel) and panel.creating,
)
pick(crank, "Vertex1")
check(
    "one point: OK refused",
    not panel.accept() and "2 parts" not in panel.error.text() and "(1 picked)" in panel.error.text(),
    panel.error.text(),
)
pick(slider, "Vertex1")
ends = [crank.Shape.Vertexes[0].Point, slider.Shape.Vertexes[0].Point]
check(
    "both points listed",
    "Crank" in panel.ends[0].text() and "Slider" in panel.ends[1].text(),
    [e.text() for e in panel.ends],
)
check("both points marked in the view", all(m.shown for m in panel.markers) and panel.error.text() == "")
panel.stiffness.edit.setText("0.0005")
panel.damping.edit.setText("0.0002")
panel.initial.setChecked(False)
panel.free_length.edit.setText("12.5")
shot("spring")
panel.reject()
wait(100)
check("markers removed with the panel", not any(m.graph for m in panel.markers))
check("spring create cancel leaves the document unchanged", len(doc.Objects) == count and doc.UndoCount == undo)
Gui.runCommand("MBD_SpringDamper")
wait(100)
panel = task_panels.open_panel()
pick(crank, "Vertex1")
pick(slider, "Vertex1")
panel.accept()
wait(100)
springs = find_objects(doc, "SpringDamper")
check(
    "spring created between the picked points",
    len(springs) == 1
    and springs[0].Body1 == crank_body
    and springs[0].Body2.Part == slider
    and (springs[0].Point1 - ends[0]).Length < 1e-9
    and (springs[0].Point2 - ends[1]).Length < 1e-9
    and doc.UndoNames[0] == "Create spring",
    [(s.Body1, s.Body2, s.Point1, s.Point2) for s in springs] + [doc.UndoNames[:1]],
)
spring = springs[0]
SPRING_PROPS = ("Stiffness", "Damping", "UseInitialLength", "FreeLength")
before = state([spring], SPRING_PROPS)
panel = double_click(spring)
check("spring panel opens on double click", isinstance(panel, task_panels.SpringPanel))
panel.stiffness.edit.setText("0.0005")
panel.damping.edit.setText("0.0002")
panel.initial.setChecked(False)
panel.free_length.edit.setText("12.5")
panel.reject()
wait(100)
check("spring cancel leaves the document unchanged", state([spring], SPRING_PROPS) == before)
panel = double_click(spring)
panel.stiffness.edit.setText("0.0005")
panel.damping.edit.setText("-1")
panel.accept()
check(
    "negative damping refused, panel stays open",
    "damping" in panel.error.text() and Gui.Control.activeDialog(),
    panel.error.text(),
)
panel.damping.edit.setText("0.0002")
panel.initial.setChecked(False)
panel.free_length.edit.setText("12.5")
panel.accept()
wait(100)
check(
    "spring OK keeps small values",
    close(float(spring.Stiffness), 0.0005)
    and close(float(spring.Damping), 0.0002)
    and not spring.UseInitialLength
    and close(float(getattr(spring.FreeLength, "Value", spring.FreeLength)), 12.5),
    (spring.Stiffness, spring.Damping, spring.FreeLength),
)

# ------------------------------------------------------------------ body: create with a typed density
block = doc.addObject("Part::Box", "Block")
block.Length, block.Width, block.Height = 10.0, 20.0, 30.0  # mm
block.Placement.Base = App.Vector(0, 200, 0)
doc.recompute()
Gui.Selection.clearSelection()
undo = doc.UndoCount
Gui.runCommand("MBD_Body")
wait(100)
panel = task_panels.open_panel()
check("body command with nothing selected opens the panel", isinstance(panel, task_panels.BodyPanel) and panel.creating)
pick(block)
panel.density.edit.setText("1000")
block_mass = 10 * 20 * 30 * 1e-9 * 1000.0  # kg: a 10 x 20 x 30 mm box of 1000 kg/m^3
shown = float(panel.info.text().split()[1])
check("new body panel shows the mass of the picked box", close(shown, block_mass, 1e-5), (shown, block_mass))
panel.accept()
wait(100)
block_body = [b for b in find_objects(doc, "Body") if b.Part == block]
izz = block_mass * (10.0**2 + 20.0**2) / 12.0  # kg mm^2, about the CoG
check(
    "body created with density 1000 kg/m^3 (Custom), its mass and inertia",
    len(block_body) == 1
    and close(density_kg_m3(block_body[0]), 1000.0, 1e-12)
    and block_body[0].Material == "Custom"
    and close(in_unit(block_body[0].ComputedMass, "kg"), block_mass)
    and close(in_unit(block_body[0].Izz, "kg*mm^2"), izz)
    and doc.UndoCount == undo + 1
    and doc.UndoNames[0] == "Create body",
    [(b.Label, b.Density, b.Material, b.ComputedMass, b.Izz) for b in block_body] + doc.UndoNames[:1],
)
check("no panel left open", task_panels.open_panel() is None and not Gui.Control.activeDialog())
result["undo_names"] = list(doc.UndoNames)
