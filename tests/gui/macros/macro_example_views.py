# GUI macro (run by tools/save_example_views.py through tests/gui/gui_runner_macro.py inside
# FreeCAD's GUI): give each example document of $MBD_EXAMPLES (paths separated by os.pathsep) its
# view data (GuiDocument.xml: the view providers and an isometric camera fitted to the mechanism)
# by saving it from the GUI. Nothing else changes: the document is not recomputed.
# Names App, Gui, result, check, wait come from the runner.
import os

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)
for path in os.environ["MBD_EXAMPLES"].split(os.pathsep):
    doc = App.openDocument(path)
    wait(300)
    gui_doc = Gui.getDocument(doc.Name)
    result.setdefault("modified_at_open", {})[os.path.basename(path)] = gui_doc.Modified
    view = gui_doc.activeView()
    view.viewIsometric()
    view.fitAll()
    wait(200)
    Gui.setActiveDocument(doc.Name)
    Gui.runCommand("Std_Save")  # the GUI save: Document.xml and GuiDocument.xml, Modified cleared
    wait(100)
    check("saved with its view: %s" % os.path.basename(path), not gui_doc.Modified)
    result.setdefault("cameras", {})[os.path.basename(path)] = view.getCamera()
    App.closeDocument(doc.Name)
    wait(100)
result["ok"] = True
