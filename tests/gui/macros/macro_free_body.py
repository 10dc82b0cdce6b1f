# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the free-body diagram of
# Animate (commands/free_body.py) on a solved copy of examples/slider_crank.FCStd, at FreeCAD's
# default window and task-dock size.
# 1. Picking the Rod part in the 3D view during Animate draws one Coin3D arrow per load of its
#    load set in a node of the view's scene graph (not the document): its tails are the load
#    points, gravity and inertia start at the rod's CoG as stored in the results.
# 2. The arrows follow the playback (slider and Play); the table lists every load plus the sum;
#    "Values at the arrows" writes each load's magnitude at its arrow's tip.
# 3. The body list switches to the slider and to "(none)" (no arrows); picking the crank's MBD
#    Body object (tree) shows the crank's loads.
# 4. Closing Animate removes the node; the document stays unmodified, its undo list unchanged.
# Screenshot: mbd_free_body.png (the whole window).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window,
# close_message_boxes, wait_for_warm_up, open_example_copy are provided by the runner.


Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.commands import animate  # noqa: E402
from MBDWorkbench.loads.diagram import diagram_arrows  # noqa: E402

wait_for_warm_up()
doc = open_example_copy("slider_crank.FCStd", "free_body.FCStd")
Gui.activeDocument().activeView().viewTop()
Gui.SendMsgToActiveView("ViewFit")
seen = []
close_message_boxes(seen, 300000)
Gui.runCommand("MBD_Solve")
wait(100)
check("slider-crank solved", seen and "status: completed" in seen[0][2], seen)
App.setActiveDocument(doc.Name)
Gui.runCommand("Std_Save")
wait(100)
gdoc = Gui.getDocument(doc.Name)
undo_before = list(doc.UndoNames)
mw = Gui.getMainWindow()
result["window_size"] = [mw.width(), mw.height()]


def diagram_nodes():
    graph = gdoc.activeView().getSceneGraph()
    children = [graph.getChild(i) for i in range(graph.getNumChildren())]
    return [c for c in children if c.getName().getString() == "MBD_FreeBodyDiagram"]


def near(a, b, tol=1e-3):
    return all(abs(x - y) <= tol * max(1.0, abs(y)) for x, y in zip(a, b))


Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("animation panel open", anim is not None)
fb = anim.free_body
check("free-body group in the panel", anim.form.findChild(QtWidgets.QGroupBox, "free_body") is not None)
check("no diagram before a body is picked", not diagram_nodes())
result["task_panel_size"] = [anim.form.width(), anim.form.height()]

# ------------------------------------------------------------------ 1. pick the rod
anim.show_time(0.3)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, "Rod")
wait(300)
ROD, SLIDER = fb.parts["Rod"], fb.parts["Slider"]
check("picking the Rod part selects body 'rod'", fb.body == ROD, fb.body)
check("one diagram node in the view's scene graph", len(diagram_nodes()) == 1)
k1 = anim.index
case1 = fb.run.load_case(ROD, k1)
tails1 = fb.node.tails_mm()
expected = diagram_arrows(case1, fb.scale)
check("one arrow per drawn load", len(tails1) == len(expected) >= 4, (len(tails1), len(expected)))
check(
    "arrow tails at the load points",
    all(near(t, tuple(a.tail * 1e3)) for t, a in zip(tails1, expected)),
    (tails1, [tuple(a.tail * 1e3) for a in expected]),
)
cog_mm = tuple(anim.results.position(ROD)[k1] * 1e3)
gravity = [t for t, a in zip(tails1, expected) if a.kind in ("gravity", "inertia")]
check(
    "gravity and inertia at the stored CoG", gravity and all(near(t, cog_mm, 1e-3) for t in gravity), (gravity, cog_mm)
)
names = {ld.name for ld in case1.loads}
check(
    "reactions of both pins, gravity, inertia",
    len([n for n in names if n not in ("gravity", "inertia")]) >= 2 and {"gravity", "inertia"} <= names,
    names,
)
check("table: every load and the sum", fb.table.rowCount() == len(case1.loads) + 1, fb.table.rowCount())
check("the loads balance", case1.relative_residual() < 1e-9, case1.relative_residual())
check("no values shown by default", fb.node.labels() == [])
fb.values.setChecked(True)
anim.show_time(0.42)
wait(200)
case42 = fb.run.load_case(ROD, anim.index)
shown = fb.node.labels()
drawn = diagram_arrows(case42, fb.scale)
check(
    "values at the arrows",
    shown == ["%s %.3g %s" % (a.name, float((a.value**2).sum() ** 0.5), a.unit) for a in drawn],
    shown,
)
result["screenshot"] = save_window("mbd_free_body")
fb.values.setChecked(False)

# ------------------------------------------------------------------ 2. follow the playback
anim.slider.setValue(anim.index + 25)
wait(200)
tails2 = fb.node.tails_mm()
check(
    "the arrows follow the slider",
    tails2 != tails1 and near(tails2[-1], tuple(anim.results.position(ROD)[anim.index] * 1e3)),
)
before_play = anim.index
anim.toggle()
wait(800)
anim.toggle()
check("played", anim.index != before_play, (before_play, anim.index))
tails3 = fb.node.tails_mm()
cog3 = tuple(anim.results.position(ROD)[anim.index] * 1e3)
check("the arrows follow the playback", tails3 != tails2 and near(tails3[-1], cog3), (tails3[-1], cog3))

# ------------------------------------------------------------------ 3. the body list
fb.combo.setCurrentIndex(fb.combo.findText(SLIDER))
wait(200)
case_s = fb.run.load_case(SLIDER, anim.index)
kinds = {ld.kind for ld in case_s.loads}
check("slider chosen in the list", fb.body == SLIDER and "joint" in kinds, kinds)
check("slider arrows drawn", len(fb.node.tails_mm()) == len(diagram_arrows(case_s, fb.scale)))
fb.combo.setCurrentIndex(fb.combo.findText("(none)"))
wait(100)
check("'(none)': no arrows", fb.body is None and fb.node.tails_mm() == [])

crank = fb.parts["Crank"]
crank_object = anim.results.mapping["bodies"][crank]["body_object"]
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, crank_object)
wait(200)
check("picking the crank's MBD Body object selects it", fb.body == crank and len(fb.node.tails_mm()) >= 4, fb.body)

# ------------------------------------------------------------------ 4. close
check("undo list unchanged while animating", list(doc.UndoNames) == undo_before, doc.UndoNames)
anim.reject()
wait(200)
check("panel closed", animate.active_panel() is None)
check("diagram node removed", not diagram_nodes())
check("document not modified", not gdoc.Modified)
check("undo list unchanged", list(doc.UndoNames) == undo_before, doc.UndoNames)
