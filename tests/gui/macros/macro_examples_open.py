# GUI macro (run by tests/gui/test_examples_open_gui.py): open each shipped example document of
# $MBD_EXAMPLES (copies; paths separated by os.pathsep) as a user would, and record whether it is
# marked modified after opening (and which of our objects are touched), after a recompute (and which properties the
# recompute changed: all, and those of our objects), and the camera it opened with.
# Names App, Gui, result, wait, save_view come from the runner.
import os

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)
opened = result.setdefault("opened", {})


class Changes:
    """Document observer: the (object, property) changes while it is recording."""

    def __init__(self):
        self.seen = []

    def slotChangedObject(self, obj, prop):
        ours = "MbdType" in obj.PropertiesList
        self.seen.append(("%s.%s" % (obj.Name, prop), ours))


changes = Changes()
App.addDocumentObserver(changes)
for path in os.environ["MBD_EXAMPLES"].split(os.pathsep):
    doc = App.openDocument(path)
    wait(500)  # the restore hooks run from the event loop
    gui_doc = Gui.getDocument(doc.Name)
    touched = [o for o in doc.Objects if "Touched" in o.State]
    entry = {
        "modified_at_open": gui_doc.Modified,
        "touched": [o.Name for o in touched if "MbdType" in o.PropertiesList],  # ours
        "touched_by_freecad": [o.Name for o in touched if "MbdType" not in o.PropertiesList],
    }
    changes.seen = []
    doc.recompute()
    wait(200)
    entry["modified_after_recompute"] = gui_doc.Modified
    entry["changed_by_recompute"] = sorted({name for name, _ in changes.seen})[:20]
    entry["ours_changed_by_recompute"] = sorted({name for name, ours in changes.seen if ours})[:20]
    entry["has_assembly"] = any(o.TypeId == "Assembly::AssemblyObject" for o in doc.Objects)
    entry["camera"] = gui_doc.activeView().getCamera()
    save_view(os.path.splitext(os.path.basename(path))[0])  # what the saved camera shows
    opened[os.path.basename(path)] = entry
    App.closeDocument(doc.Name)
    wait(100)
App.removeDocumentObserver(changes)
result["ok"] = True
