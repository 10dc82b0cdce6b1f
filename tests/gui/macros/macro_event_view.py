# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): stop impacts and contact forces
# in Animate (commands/event_view.py), at FreeCAD's default window and task-dock size.
# A copy of examples/pendulum.FCStd (a 200 mm steel bar on a pivot, released from the horizontal),
# its model given rigid stops at +-0.5 rad (e = 0.5) and a ball at the bar's tip against a floor
# plane (contact pair, stiffness 2e4 N/m): the bar lands on the floor, then hits its stop.
# The run is stored with the document, which is saved. Then:
# 1. Animate has an 'Events and contacts' group; at the samples after a stop impact the joint's
#    part flashes (a node of the view's scene graph), not before.
# 2. While the pair is in contact an arrow sits at the contact point, its length |F| x scale
#    (|F| from contacts.csv read from the stored archive with the csv module); no arrow out of
#    contact; doubling the scale doubles the length.
# 3. The plot dock marks the stop impacts on the joint's plot at their times and plots the pair's
#    contact force (contacts.csv's column).
# 4. Closing Animate removes the nodes; the document's objects, placements, modified flag and undo
#    list are unchanged.
# Screenshots: mbd_event_impact.png, mbd_event_contact.png, mbd_plot_events.png (the whole window).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window, wait_for_warm_up,
# open_example_copy are provided by the runner.
import csv
import io
import zipfile

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.cad.document_model import document_model  # noqa: E402
from MBDWorkbench.cad.objects import find_simulation  # noqa: E402
from MBDWorkbench.cad.results_store import store_results  # noqa: E402
from MBDWorkbench.commands import animate  # noqa: E402
from MBDWorkbench.solver.model import from_dict  # noqa: E402
from MBDWorkbench.solver.simulate import simulate  # noqa: E402

wait_for_warm_up()
doc = open_example_copy("pendulum.FCStd", "event_view.FCStd")
floor = doc.addObject("Part::Box", "Floor")  # the contact plane drawn (not a body of the model)
floor.Length, floor.Width, floor.Height = 300, 80, 3
floor.Placement.Base = App.Vector(-40, -40, -105)
doc.recompute()
model, mapping = document_model(doc)
d = model.to_dict()
body = d["bodies"][0]["name"]
JOINT = d["joints"][0]["name"]
d["joints"][0].update(angle_min=-0.5, angle_max=0.5, angle_stop={"model": "rigid", "restitution": 0.5})
d["contacts"] = [
    {
        "name": "tip_floor",
        "body_a": body,
        "body_b": "ground",
        "shape_a": {"type": "sphere", "center": [0.1, 0, -0.01], "radius": 0.01},
        "shape_b": {"type": "plane", "point": [0, 0, -0.102], "normal": [0, 0, 1]},
        "stiffness": 2e4,
        "restitution": 0.5,
        "law": "restitution",
        "mu_s": 0.3,
    }
]
d["settings"].update(t_end=0.6, output_step=0.005)
res = simulate(from_dict(d))
store_results(find_simulation(doc), res, mapping)
App.setActiveDocument(doc.Name)
Gui.runCommand("Std_Save")
wait(200)
gdoc = Gui.getDocument(doc.Name)
view = gdoc.activeView()
view.viewFront()
view.fitAll()
mw = Gui.getMainWindow()
result["window_size"] = [mw.width(), mw.height()]
impacts = [e for e in res.stop_events if e["kind"] == "impact"]
check("the run has stop impacts", len(impacts) > 0, res.stop_events)
result["impacts"] = impacts

with zipfile.ZipFile(find_simulation(doc).ResultsArchive) as archive:
    rows = list(csv.DictReader(io.StringIO(archive.read("contacts.csv").decode())))
force = [[float(r["tip_floor.F%s [N]" % c]) for c in "xyz"] for r in rows]
normal = [float(r["tip_floor.normal_force [N]"]) for r in rows]
touching = [k for k, n in enumerate(normal) if n > 0]
check("the pair touches the floor", len(touching) > 0)


def placements():
    return {
        o.Name: (tuple(o.Placement.Base), tuple(o.Placement.Rotation.Q)) for o in doc.Objects if hasattr(o, "Placement")
    }


def scene_nodes(name):
    graph = view.getSceneGraph()
    return [graph.getChild(i) for i in range(graph.getNumChildren()) if graph.getChild(i).getName().getString() == name]


objects_before, placements_before = [o.Name for o in doc.Objects], placements()
undo_before, modified_before = list(doc.UndoNames), gdoc.Modified
check("saved: not modified before Animate", not modified_before)
Gui.runCommand("MBD_Animate")
wait(200)
anim = animate.active_panel()
check("animation open", anim is not None)
events = anim.events
check("events group shown", events.group is not None and events.group.isVisible())

# 1. the hit
first = next(k for k, t in enumerate(res.t) if t >= impacts[0]["t"] - 1e-12)
anim.show_index(max(first - 1, 0))
check(
    "no flash before the impact",
    events.flashed() == [] and scene_nodes("MBD_StopImpacts")[0].getChild(0).getNumChildren() == 0,
)
anim.show_index(first)
wait(100)
flash = scene_nodes("MBD_StopImpacts")
check("the joint flashes at the impact", events.flashed() == [JOINT], events.flashed())
check("one outline in the view's scene graph", len(flash) == 1 and flash[0].getChild(0).getNumChildren() == 1)
result["impact_screenshot"] = save_window("mbd_event_impact")

# 2. contact arrows
k = max(touching, key=lambda i: normal[i])
anim.show_index(k)
wait(100)
magnitude = sum(x * x for x in force[k]) ** 0.5
lengths = events.arrow_lengths_mm()
check("one arrow in contact", len(lengths) == 1, lengths)
check("arrow length = |F| x scale", abs(lengths[0] - magnitude * events.scale) <= 1e-6 * magnitude * events.scale,
      (lengths, magnitude, events.scale))  # fmt: skip
result["arrow"] = dict(sample=k, force_N=magnitude, scale_mm_per_N=events.scale, length_mm=lengths[0])
events.scale_box.setValue(2 * events.scale)
wait(50)
check("doubling the scale doubles the arrow", abs(events.arrow_lengths_mm()[0] - 2 * lengths[0]) <= 1e-6 * lengths[0])
events.scale_box.setValue(events.scale / 2)
free = next(i for i, n in enumerate(normal) if n == 0)
anim.show_index(free)
check("no arrow out of contact", events.arrow_lengths_mm() == [])
rest = touching[-1]
anim.show_index(rest)
wait(100)
result["contact_screenshot"] = save_window("mbd_event_contact")

# 3. the plot dock: the stop impacts marked on the joint's plot, the pair's contact force
from MBDWorkbench.commands import plot_dock  # noqa: E402
from MBDWorkbench.report.event_marks import mark_times  # noqa: E402

Gui.runCommand("MBD_Plot")
wait(300)
dock = plot_dock.plot_dock()
dock.select(JOINT, "Joint coordinate")
wait(100)
marks = mark_times(dock.figure.axes[0])
check("dock: impacts marked at their times", sorted(marks.get("impact", [])) == sorted(e["t"] for e in impacts), marks)
check("dock lists the contact pair", dock.element.findText("tip_floor") >= 0)
dock.select("tip_floor", "Contact force")
wait(100)
curves = {line.get_label(): list(line.get_ydata()) for line in dock.figure.axes[0].get_lines()}
check("dock: the pair's normal force is contacts.csv's", curves.get("normal") == normal)
dock.select(JOINT, "Joint coordinate rate")
anim.show_index(first)
wait(300)
result["dock_screenshot"] = save_window("mbd_plot_events")
dock.dock.close()

# 4. closing
anim.reject()
wait(200)
check("nodes removed", not scene_nodes("MBD_StopImpacts") and not scene_nodes("MBD_ContactForces"))
check("objects unchanged", [o.Name for o in doc.Objects] == objects_before)
check("placements unchanged", placements() == placements_before)
check("document not modified", not gdoc.Modified)
check("undo list unchanged", list(doc.UndoNames) == undo_before)

# 5. the report's 3D frames: the impact and the contact drawn the same way, then removed
from MBDWorkbench.cad.results_store import load_results  # noqa: E402
from MBDWorkbench.commands.report_command import render_frames  # noqa: E402

frames = render_frames(doc, load_results(find_simulation(doc)), [max(first - 1, 0), first, k], OUT_DIR)
result["report_frames"] = frames
check("report frames: nodes removed", not scene_nodes("MBD_StopImpacts") and not scene_nodes("MBD_ContactForces"))
check(
    "report frames: placements and undo list unchanged",
    placements() == placements_before and list(doc.UndoNames) == undo_before,
)
check("report frames: document not modified", not gdoc.Modified)
