# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): Animate fits the 3D view to the
# whole motion. On a copy of examples/slider_crank.FCStd, solved, the view is zoomed in on the
# start pose (parts cut off); opening Animate fits the view so that, at every sample, every
# corner of every moving part's box projects inside the view (View3DInventor.getPointOnScreen).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, close_message_boxes,
# save_view, open_example_copy are provided by the runner.

from MBDWorkbench.commands import animate

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
doc = open_example_copy("slider_crank.FCStd", "slider_crank_fit.FCStd", 300)
seen = []
close_message_boxes(seen, 300000)
Gui.runCommand("MBD_Solve")
wait(300)
check("solved", seen and "status: completed" in seen[0][2], seen)
view = Gui.getDocument(doc.Name).activeView()
view.viewIsometric()
view.fitAll()
for _ in range(6):
    view.zoomIn()
wait(200)
width, height = view.getSize()
result["view_size"] = [width, height]


def corners_off_screen(k):
    """Corners of the moving parts' boxes at sample k (global, mm) that project outside the view."""
    out = []
    for name, placement in anim_results.part_placements(k).items():
        bare = doc.getObject(name).Shape.copy()
        bare.Placement = App.Placement()
        box = bare.BoundBox
        for i in range(8):
            x, y = view.getPointOnScreen(placement.multVec(box.getPoint(i)))
            if not (0 <= x <= width and 0 <= y <= height):
                out.append((k, name, x, y))
    return out


from MBDWorkbench.cad.objects import find_simulation  # noqa: E402
from MBDWorkbench.cad.results_store import load_results  # noqa: E402

anim_results = load_results(find_simulation(doc))
samples = range(0, len(anim_results), max(1, len(anim_results) // 40))
before = [c for k in samples for c in corners_off_screen(k)]
check("zoomed in: parts cut off before Animate", len(before) > 0, len(before))
Gui.runCommand("MBD_Animate")
wait(300)
anim = animate.active_panel()
check("animation open", anim is not None)
off = []
for k in samples:
    anim.show_index(k)
    off += corners_off_screen(k)
check("every pose of the motion is inside the view", not off, off[:10])
anim.show_time(1.0)
wait(200)
save_view("animate_fit", 640, 480)
anim.reject()
