# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the FreeCAD-native parts of the
# workbench. Typed properties in the real property editor (500 typed into StepMicroseconds and
# Enter keeps 500 µs, shown "500"; the output step, mass, damping and density texts), an older
# document (examples/slider_crank.FCStd with its steps as saved before the microsecond properties)
# opened with its values kept and not marked modified,
# the preferences page (Edit > Preferences > Multibody Dynamics) whose step becomes the default
# of a new Simulation, the one toolbar with drop-downs within 1600 px, About in the Help menu,
# Import assembly joints disabled on FreeCAD 0.20, commands recorded through Gui.doCommand,
# context-menu commands and per-type tree icons.
# Names App, Gui, QtCore, QtGui, QtWidgets, OUT_DIR, result, check, wait, save_window are provided by the runner.
import os
import shutil

import MBDWorkbench

App.ParamGet("User parameter:BaseApp/Preferences/Macro").SetBool("ScriptToPyConsole", True)
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(200)

from MBDWorkbench import commands  # noqa: E402
from MBDWorkbench.cad.objects import PREFERENCES, find_objects, find_simulation  # noqa: E402
from MBDWorkbench.commands.view_providers import icon_name  # noqa: E402

mw = Gui.getMainWindow()


def press(widget, key, text=""):
    """A key press and release sent to ``widget`` (QtTest is not installed with FreeCAD 0.20)."""
    for kind in (QtCore.QEvent.KeyPress, QtCore.QEvent.KeyRelease):
        QtWidgets.QApplication.sendEvent(widget, QtGui.QKeyEvent(kind, key, QtCore.Qt.NoModifier, text))


# ------------------------------------------------------------------ property editor helpers
def data_editor():
    """The property editor of the Data tab (the one listing the selected object's properties)."""
    editors = [w for w in mw.findChildren(QtWidgets.QTreeView) if w.metaObject().className().endswith("PropertyEditor")]
    for editor in editors:
        if find_row(editor, "StepMicroseconds") is not None or find_row(editor, "Density") is not None:
            return editor
    return editors[-1] if editors else None


def find_row(view, name, parent=None):
    model = view.model()
    parent = parent if parent is not None else QtCore.QModelIndex()
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        if str(model.data(index, QtCore.Qt.DisplayRole)).replace(" ", "") == name:  # shown as "End Time"
            return index
        found = find_row(view, name, index)
        if found is not None:
            return found
    return None


def shown_text(obj, name):
    """What the property editor shows for ``obj.name``."""
    Gui.Selection.clearSelection()
    Gui.Selection.addSelection(obj)
    wait(300)
    view = data_editor()
    index = find_row(view, name) if view is not None else None
    if index is None:
        return None
    return view.model().data(index.sibling(index.row(), 1), QtCore.Qt.DisplayRole)


def type_into(obj, name, text):
    """Type ``text`` into the editor of ``obj.name`` and press Enter, as a user does."""
    shown_text(obj, name)
    view = data_editor()
    index = find_row(view, name)
    value_index = index.sibling(index.row(), 1)
    view.scrollTo(value_index)
    view.setCurrentIndex(value_index)
    view.edit(value_index)
    wait(200)
    spin_boxes = [w for w in view.findChildren(QtWidgets.QAbstractSpinBox) if w.isVisible()]
    editor = spin_boxes[0] if spin_boxes else QtWidgets.QApplication.focusWidget()
    editor.setFocus()
    line = editor.lineEdit() if hasattr(editor, "lineEdit") else editor
    line.selectAll()
    for char in text:
        press(line, 0, char)
    typed = line.text()
    press(line, QtCore.Qt.Key_Return, "\r")
    wait(300)
    return type(editor).__name__, typed


# ------------------------------------------------------------------ typed properties
doc = App.newDocument("native")
box = doc.addObject("Part::Box", "Box")
box.Length, box.Width, box.Height = 50.0, 20.0, 10.0
doc.recompute()
Gui.Selection.clearSelection()
Gui.Selection.addSelection(box)
Gui.runCommand("MBD_Body")
wait(200)
sim = find_simulation(doc)
body = find_objects(doc, "Body")[0]
check("simulation and body made by the command", sim is not None and body is not None)

editor_kind = type_into(sim, "StepMicroseconds", "500")
check("500 typed into StepMicroseconds keeps 500 µs", sim.StepMicroseconds == 500, (sim.StepMicroseconds, editor_kind))
step_text = shown_text(sim, "StepMicroseconds")
check("StepMicroseconds shows 500", step_text == "500", step_text)
result["step_text"] = step_text
sim.OutputStepMicroseconds = 1000  # typing goes through the same integer editor as the step's, checked above
output_text = shown_text(sim, "OutputStepMicroseconds")  # a 1 ms quantity would read "0.00 s" at the default Decimals
check(
    "OutputStepMicroseconds 1 ms shown as 1000",
    output_text is not None and output_text.replace(",", "") == "1000",
    (sim.OutputStepMicroseconds, output_text),
)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(box)  # another object first: the editor opens again on the Simulation's row
wait(300)
typed = type_into(sim, "OutputStepMicroseconds", "2000000")  # 2 s: the editor's range holds it
check("2000000 typed into OutputStepMicroseconds keeps it", sim.OutputStepMicroseconds == 2000000, typed)
sim.OutputStepMicroseconds = 10000
Gui.Selection.clearSelection()
Gui.Selection.addSelection(box)
wait(300)
typed = type_into(sim, "EndTimeMilliseconds", "1500")  # a time quantity reads 5 ms as "0.01 s" at the default Decimals
check("1500 typed into EndTimeMilliseconds keeps 1.5 s", sim.EndTimeMilliseconds == 1500, typed)
end_text = shown_text(sim, "EndTimeMilliseconds")
check("EndTimeMilliseconds shows 1500", end_text is not None and end_text.replace(",", "") == "1500", end_text)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(box)
wait(300)
typed = type_into(sim, "AbsoluteTolerance", "2.5e-7")  # a number property read 0.0000000100000000
check("2.5e-7 typed into AbsoluteTolerance keeps it", sim.AbsoluteTolerance == "2.5e-7", (sim.AbsoluteTolerance, typed))
tolerance_texts = {name: shown_text(sim, name) for name in ("AbsoluteTolerance", "RelativeTolerance", "TikhonovEps")}
result["tolerance_texts"] = tolerance_texts
check(
    "tolerances read 2.5e-7, default and 1e-10",
    tolerance_texts == {"AbsoluteTolerance": "2.5e-7", "RelativeTolerance": "default", "TikhonovEps": "1e-10"},
    tolerance_texts,
)
from MBDWorkbench.cad.time_steps import end_time_seconds  # noqa: E402
from MBDWorkbench.cad.tolerance_texts import tolerance_value  # noqa: E402

read_back = [end_time_seconds(sim)] + [tolerance_value(sim, n) for n in ("AbsoluteTolerance", "RelativeTolerance")]
check("typed values reach the solver exactly", read_back == [1.5, 2.5e-7, None], read_back)
sim.AbsoluteTolerance = "1e-8"
gravity_text = shown_text(sim, "GravityZ")
check("gravity shows its unit", gravity_text is not None and "mm/s^2" in gravity_text, gravity_text)

body.Mass = 0.116  # kg
doc.recompute()
mass_text = shown_text(body, "Mass")
check("mass 0.116 kg shows as 116.00 g", mass_text is not None and mass_text.replace(",", "") == "116.00 g", mass_text)
density_text = shown_text(body, "Density")
check("density shows kg/m^3", density_text is not None and "kg/m^3" in density_text, density_text)
ixx_text = shown_text(body, "Ixx")
check("inertia shows its unit", ixx_text is not None and "kg" in ixx_text, ixx_text)
combo = [d for d in mw.findChildren(QtWidgets.QDockWidget) if d.objectName() in ("Combo View", "ComboView")]
Gui.Selection.clearSelection()
Gui.Selection.addSelection(sim)
wait(300)
if data_editor() is not None:  # FreeCAD's default window and dock: the time settings as a user first sees them
    data_editor().scrollTo(find_row(data_editor(), "OutputStepMicroseconds"))
wait(200)
save_window("window_simulation_properties_default")
if combo:
    combo[0].grab().save(os.path.join(OUT_DIR, "combo_simulation_properties_default.png"))
    result["combo_width_default"] = combo[0].width()
if combo:  # wide enough to read the property names in the screenshot
    mw.resizeDocks([combo[0]], [430], QtCore.Qt.Horizontal)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(sim)
wait(300)
if data_editor() is not None:
    data_editor().header().resizeSection(0, 190)
    data_editor().scrollToBottom()
wait(200)
save_window("window_simulation_properties")
if combo:
    combo[0].grab().save(os.path.join(OUT_DIR, "combo_simulation_properties.png"))

from MBDWorkbench.cad.makers import make_spring_damper  # noqa: E402

spring = make_spring_damper(doc, None, (0.0, 0.0, 100.0), body, (50.0, 0.0, 0.0))
type_into(spring, "Damping", "0.0005")
check("0.0005 typed into Damping keeps 0.0005", abs(float(spring.Damping) - 0.0005) < 1e-15, spring.Damping)
damping_text = shown_text(spring, "Damping")
check("Damping shows 0.0005", damping_text is not None and float(damping_text.replace(",", "")) == 0.0005, damping_text)

# ------------------------------------------------------------------ commands through Gui.doCommand
consoles = [w for w in mw.findChildren(QtWidgets.QPlainTextEdit) if "mbd_makers" in w.toPlainText()]
console_text = consoles[0].toPlainText() if consoles else ""
check("Body command recorded in the Python console", "mbd_makers.make_body(" in console_text, console_text[-400:])
check("Simulation recorded too", "mbd_makers.make_simulation(" in console_text)

# ------------------------------------------------------------------ icons and context menu
ground_box = doc.addObject("Part::Box", "Base")
doc.recompute()
from MBDWorkbench.cad.makers import make_body, make_joint  # noqa: E402

base = make_body(doc, ground_box, grounded=True)
joint = make_joint(doc, "revolute", base, body, ((0, 0, 0), (0, 1, 0), None))
prismatic = make_joint(doc, "prismatic", base, body, ((0, 0, 0), (1, 0, 0), None))
doc.recompute()
icons = {o.Label: os.path.basename(o.ViewObject.Proxy.getIcon()) for o in (body, base, joint, prismatic, spring)}
check("grounded body has its own icon", icons[base.Label] == "ground.svg" and icons[body.Label] == "body.svg", icons)
check(
    "each joint type has its icon",
    icons[joint.Label] == "joint_revolute.svg" and icons[prismatic.Label] == "joint_prismatic.svg",
    icons,
)
check("icon files exist", all(os.path.isfile(o.ViewObject.Proxy.getIcon()) for o in (body, base, joint, spring)))
base.Grounded = False
check("icon follows Grounded", icon_name(base) == "body")
base.Grounded = True
menu = commands.context_menu_commands([sim])
check("context menu of the Simulation offers Solve", "MBD_Solve" in menu and "MBD_Animate" in menu, menu)
check("context menu of a joint offers Driver", "MBD_Driver" in commands.context_menu_commands([joint]))
workbench = Gui.activeWorkbench()
appended = []
workbench.appendContextMenu = lambda name, names: appended.append((name, list(names)))  # record, not build
Gui.Selection.clearSelection()
Gui.Selection.addSelection(sim)
workbench.ContextMenu("Tree")
del workbench.appendContextMenu
check("the workbench's ContextMenu adds them", any("MBD_Solve" in names for _, names in appended), appended)

# ------------------------------------------------------------------ toolbar, Help menu, Import assembly
toolbars = [t for t in mw.findChildren(QtWidgets.QToolBar) if t.isVisible()]
ours = [t for t in toolbars if t.windowTitle().startswith("Multibody") or t.objectName().startswith("Multibody")]
check("one toolbar of ours", len(ours) == 1, [t.objectName() for t in toolbars])
old = [t.objectName() for t in toolbars if t.objectName() in ("MBD Model", "MBD Joints", "MBD Solve")]
check("no old toolbars", not old, old)
if ours:
    width = ours[0].sizeHint().width()
    check("toolbar fits 1600 px", width <= 1600, width)
    result["toolbar_width_px"] = width
    buttons = [b for b in ours[0].findChildren(QtWidgets.QToolButton) if b.isVisible()]
    drop_downs = [b for b in buttons if b.menu() is not None and len(b.menu().actions()) > 1]
    check("toolbar has drop-down groups", len(drop_downs) >= 3, len(drop_downs))
    joint_menu = [b for b in drop_downs if len(b.menu().actions()) == len(commands.JOINT_COMMANDS)]
    check("joint drop-down lists every joint type", len(joint_menu) == 1, [len(b.menu().actions()) for b in drop_downs])
    about_in_toolbar = [a for a in ours[0].actions() if "About" in a.text()]
    check("About is not a toolbar button", not about_in_toolbar)
    ours[0].grab().save(os.path.join(OUT_DIR, "toolbar.png"))
help_menus = [m for m in mw.menuBar().actions() if m.text().replace("&", "") == "Help"]
help_texts = [a.text() for a in help_menus[0].menu().actions()] if help_menus else []
check("About in the Help menu", any("About Multibody" in t for t in help_texts), help_texts)
Gui.updateGui()
wait(600)
import_actions = [a for a in mw.findChildren(QtWidgets.QAction) if a.objectName() == "MBD_ImportAssembly"]
active = Gui.Command.get("MBD_ImportAssembly").isActive() if hasattr(Gui, "Command") else None
from MBDWorkbench.commands.model_commands import assembly_available  # noqa: E402

has_assembly = App.Version()[0] != "0" and assembly_available()
enabled = active if active is not None else any(a.isEnabled() for a in import_actions)
# named for 0.20 (no Assembly workbench: disabled); on FreeCAD 1.x it must be enabled with a document open
check(
    "Import assembly joints disabled without the Assembly workbench",
    bool(enabled) == (has_assembly and App.ActiveDocument is not None),
    (App.Version()[:2], has_assembly, active, [a.isEnabled() for a in import_actions]),
)

# ------------------------------------------------------------------ preferences page
seen = {}


def on_preferences():
    widgets = QtWidgets.QApplication.topLevelWidgets()
    dialogs = [w for w in widgets if isinstance(w, QtWidgets.QDialog) and w.isVisible()]
    if not dialogs:
        QtCore.QTimer.singleShot(100, on_preferences)
        return
    dialog = dialogs[0]
    # the group list: a QListWidget on FreeCAD 0.20, a tree view over a model on 1.x
    for view in dialog.findChildren(QtWidgets.QAbstractItemView):
        model = view.model()
        if model is None or model.rowCount() == 0:
            continue
        flags = QtCore.Qt.MatchExactly | QtCore.Qt.MatchRecursive
        found = model.match(model.index(0, 0), QtCore.Qt.DisplayRole, "Multibody Dynamics", 1, flags)
        if found:
            view.setCurrentIndex(found[0])
            seen["group"] = True
            icon = model.data(found[0], QtCore.Qt.DecorationRole)
            seen["icon"] = icon is not None and not (hasattr(icon, "isNull") and icon.isNull())
            break
    wait(300)
    field = dialog.findChild(QtWidgets.QLineEdit, "MBD_Pref_Step")
    seen["field"] = field is not None
    if field is not None:
        seen["loaded"] = field.text()
        field.setText("0.0005")
        combo = dialog.findChild(QtWidgets.QComboBox, "MBD_Pref_Integrator")
        seen["integrators"] = combo.count() if combo is not None else 0
        if combo is not None:
            combo.setCurrentText("rk4")
        wait(100)
        dialog.resize(900, 700)
        wait(200)
        dialog.grab().save(os.path.join(OUT_DIR, "preferences_page.png"))
    dialog.accept()


QtCore.QTimer.singleShot(200, on_preferences)
Gui.runCommand("Std_DlgPreferences")
wait(300)
check("preferences group 'Multibody Dynamics' listed", seen.get("group"), seen)
check("preferences page has the step field", seen.get("field"), seen)
check("preferences group has our icon", seen.get("icon"), seen)
check("page shows the default step (0: the integrator's own)", seen.get("loaded") == "0.0", seen)
check("page lists the integrators", seen.get("integrators", 0) >= 5, seen)
stored = App.ParamGet(PREFERENCES).GetFloat("Step", -1.0)
check("OK stores the step", stored == 0.0005, stored)
doc2 = App.newDocument("prefs")
Gui.runCommand("MBD_Simulation")
wait(200)
sim2 = find_simulation(doc2)
check(
    "a new Simulation takes the preferred step",
    sim2 is not None and sim2.StepMicroseconds == 500,
    sim2 and sim2.StepMicroseconds,
)
App.ParamGet(PREFERENCES).RemFloat("Step")

# ------------------------------------------------------------------ an older document
example = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
path = os.path.join(OUT_DIR, "slider_crank_old.FCStd")
shutil.copy(os.path.join(example, "slider_crank.FCStd"), path)
built = App.openDocument(path)  # made as saved before the integer times and the tolerance texts
built_sim = find_simulation(built)
for name in ("StepMicroseconds", "OutputStepMicroseconds", "EndTimeMilliseconds", "AbsoluteTolerance"):
    built_sim.removeProperty(name)
built_sim.addProperty("App::PropertyPrecision", "Step", "Simulation", "Integration step [s]")
built_sim.addProperty("App::PropertyQuantity", "OutputStep", "Simulation", "Output step")
built_sim.addProperty("App::PropertyQuantity", "EndTime", "Simulation", "End time")
built_sim.addProperty("App::PropertyPrecision", "AbsoluteTolerance", "Simulation", "Absolute tolerance")
built_sim.Step, built_sim.OutputStep, built_sim.EndTime, built_sim.AbsoluteTolerance = 0.001, 0.01, 2.0, 1e-8
built.recompute()
built.save()
App.closeDocument(built.Name)
wait(200)
old_doc = App.openDocument(path)
wait(500)
old_sim = find_simulation(old_doc)
check(
    "old document: Step is whole microseconds now",
    old_sim.getTypeIdOfProperty("StepMicroseconds") == "App::PropertyInteger" and "Step" not in old_sim.PropertiesList,
)
check("old document: Step kept", old_sim.StepMicroseconds == 1000, old_sim.StepMicroseconds)
check(
    "old document: OutputStep (a quantity before) in µs and kept",
    old_sim.OutputStepMicroseconds == 10000 and "OutputStep" not in old_sim.PropertiesList,
    old_sim.OutputStepMicroseconds,
)
check(
    "old document: EndTime kept, in ms",
    old_sim.EndTimeMilliseconds == 2000 and "EndTime" not in old_sim.PropertiesList,
    old_sim.EndTimeMilliseconds,
)
check(
    "old document: AbsoluteTolerance (a number before) kept as text",
    old_sim.AbsoluteTolerance == "1e-8" and old_sim.getTypeIdOfProperty("AbsoluteTolerance") == "App::PropertyString",
    old_sim.AbsoluteTolerance,
)
check(
    "old document: gravity vector kept as components",
    (float(old_sim.GravityX), float(old_sim.GravityY), float(old_sim.GravityZ)) == (0.0, -9810.0, 0.0)
    and "Gravity" not in old_sim.PropertiesList,
)
old_body = find_objects(old_doc, "Body")[0]
rho = float(old_body.Density.getValueAs("kg/m^3"))
check("old document: density kept in kg/m^3", abs(rho - 7850.0) < 1e-9 and old_body.Material == "Steel", rho)
check("old document: inertia shown with units", float(old_body.Ixx) == old_body.Inertia[0] and old_body.Inertia[0] > 0)
# its only upgrades are the times' conversion to ms and µs and the tolerance's to text: done quietly
# on every opening until it is saved, so opening it does not mark it modified
check(
    "old document: the time and tolerance conversions leave it unmodified", not Gui.getDocument(old_doc.Name).Modified
)
from MBDWorkbench.cad.document_model import model_from_document  # noqa: E402

model = model_from_document(old_doc)
check("old document: solver gets SI gravity", list(model.gravity) == [0.0, -9.81, 0.0], model.gravity)
new_path = os.path.join(OUT_DIR, "slider_crank_new.FCStd")
old_doc.saveAs(new_path)
App.closeDocument(old_doc.Name)
new_doc = App.openDocument(new_path)
wait(500)
new_sim = find_simulation(new_doc)
check(
    "saved again: units back after reopening",
    new_sim.GravityY.UserString.endswith("mm/s^2") and new_sim.EndTimeMilliseconds == 2000,
    new_sim.GravityY.UserString,
)
check("saved again: not marked modified on opening", not Gui.getDocument(new_doc.Name).Modified)
