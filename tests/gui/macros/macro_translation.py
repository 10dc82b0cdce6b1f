# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the workbench's German
# translation is found through FreeCADGui.addLanguagePath (InitGui.py): with FreeCAD's language
# set to German, the panels' strings, catalogue labels and the command texts come out in German, and in English
# again after switching back. Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait are
# provided by the runner.
from MBDWorkbench.commands.common import translate

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
check("English first", translate("MBD", "Density") == "Density", translate("MBD", "Density"))
Gui.setLocale("German")
wait(300)
result["german"] = [
    translate("MBD", "Density"),
    translate("MBD_Body", "Body"),
    translate("MBD", "Keep this frame when closing"),
]
result["menu"] = [a.text() for a in Gui.Command.get("MBD_Body").getAction()]
check("German: panel strings", translate("MBD", "Density") == "Dichte", result["german"])
check("German: command text", translate("MBD_Body", "Body") == "Körper", result["german"])
check("German: the toolbar/menu entry", result["menu"] == ["Körper"], result["menu"])
from MBDWorkbench.commands.panels.joint import JointPanel  # noqa: E402

doc = App.newDocument("translated")
panel = JointPanel(doc, jtype="revolute")
shown = panel.type.itemText(panel.type.currentIndex())
result["joint_type"] = shown
check("German: a catalogue label in a panel (the joint type)", shown == "Drehgelenk", shown)
App.closeDocument(doc.Name)
check("untranslated strings stay English", translate("MBD", "Seed") == "Seed", translate("MBD", "Seed"))
Gui.setLocale("English")
wait(300)
check("English again", translate("MBD", "Density") == "Density", translate("MBD", "Density"))
