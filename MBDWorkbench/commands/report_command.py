"""Motion-study report from the stored results, plus a GIF of the motion rendered from the 3D view.

:func:`make_report` (what the command runs after asking for a folder; scripts and tests call
it directly) calls :func:`MBDWorkbench.report.write_report` on the Simulation's results
archive (the results reader reads the zip directly), and renders ``motion_3d.gif``: the
parts are placed at evenly spaced samples exactly as the Animate panel places them
(``animate.place_parts``), with the stop impacts since the previous frame flashing and the contact
force arrows of Animate (:mod:`.event_view`), each frame saved with the 3D view's offscreen render. The document
is left unchanged: original placements restored and the preview transaction aborted, so no
undo step remains. Without Pillow the PNG frames are kept in ``motion_3d_frames/`` instead.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .common import QT_TRANSLATE_NOOP, Command, active_document, main_window, message, qt_modules, show_error, translate

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults

GIF_NAME = "motion_3d.gif"
FRAMES_DIR = "motion_3d_frames"
REPORT_BOX = "MBD_ReportDone"


def has_stored_results(doc: App.Document | None) -> bool:
    """True when ``doc`` has a Simulation whose results archive exists (cheap: no parsing)."""
    from ..cad.objects import find_simulation

    sim = find_simulation(doc) if doc is not None else None
    path = (getattr(sim, "ResultsArchive", "") or "") if sim is not None else ""
    return bool(path) and os.path.isfile(path)


def frame_indices(n_samples: int, frames: int) -> list[int]:
    """``frames`` sample indices evenly spaced over 0 .. n_samples-1 (duplicates removed)."""
    if n_samples < 1:
        raise ValueError("the results have no samples")
    if frames < 1:
        raise ValueError("frames must be >= 1, got %r" % (frames,))
    return sorted(set(int(round(x)) for x in np.linspace(0, n_samples - 1, int(frames))))


def render_frames(
    doc: App.Document,
    results: StoredResults,
    indices: Sequence[int],
    frame_dir: str,
    size: tuple[int, int] = (640, 480),
    background: str = "White",
) -> list[str]:
    """Render the 3D view with the parts at each sample index; returns the PNG paths.

    The parts are restored and the preview transaction aborted afterwards (even on error)."""
    import FreeCADGui

    from . import animate
    from .event_view import EventView

    view = FreeCADGui.getDocument(doc.Name).activeView()
    if view is None or not hasattr(view, "saveImage"):
        raise ValueError("document '%s' has no 3D view to render" % doc.Label)
    parts = animate.result_parts(doc, results)
    camera = view.getCamera()
    panel = animate.active_panel()
    paused = panel is not None and panel.timer.isActive()
    if paused:
        panel.timer.stop()  # the animation must not move the parts between frames
    hidden = animate.hide_markers(doc)
    original = animate.begin_preview(doc, parts)
    paths = []
    events = None
    try:
        box = motion_bound_box(doc, results, indices)
        fit_camera(view, box, size[0] / size[1])
        events = EventView(doc, results, None, float(np.linalg.norm(np.subtract(box[3:], box[:3]))))
        for n, k in enumerate(indices):
            animate.place_parts(doc, results, k)
            events.show(k, float(results.t[indices[n - 1]]) if n else float(results.t[0]) - 1.0)
            FreeCADGui.updateGui()
            path = os.path.join(frame_dir, "frame_%03d.png" % n)
            view.saveImage(path, int(size[0]), int(size[1]), background)
            paths.append(path)
    finally:
        if events is not None:
            events.close()
        animate.end_preview(doc, original)
        animate.show_markers(doc, hidden)
        view.setCamera(camera)
        FreeCADGui.updateGui()
        if panel is not None and panel is animate.active_panel() and panel.doc_name == doc.Name:
            panel.show_index(panel.index)  # an open Animate panel shows its frame again
            if paused:
                panel.timer.start()
    return paths


def motion_bound_box(doc: App.Document, results: StoredResults, indices: Sequence[int]) -> tuple[float, ...]:
    """(xmin, ymin, zmin, xmax, ymax, zmax) [mm] holding every part at every sample in ``indices``:
    the corners of each part's bounding box moved from its document placement to the sampled one."""
    corners = {}
    for name in results.part_placements(0):
        obj = doc.getObject(name)
        box = obj.Shape.BoundBox  # in the frame of the part's container; the shape includes obj.Placement
        to_part = obj.Placement.inverse()
        corners[name] = [to_part.multVec(box.getPoint(i)) for i in range(8)]  # in the part's own frame
    points = []
    for k in indices:
        for name, plc in results.part_placements(k).items():
            points.extend(plc.multVec(p) for p in corners[name])
    xs, ys, zs = ([getattr(p, a) for p in points] for a in "xyz")
    return min(xs), min(ys), min(zs), max(xs), max(ys), max(zs)


def fit_camera(view, box: Sequence[float], aspect: float, slack: float = 1.05) -> None:
    """Point the 3D view's camera (keeping its direction) so that ``box`` [mm] fills the picture."""
    from pivy import coin

    camera = view.getCameraNode()
    camera.viewBoundingBox(coin.SbBox3f(*box), float(aspect), 1.0)
    if hasattr(camera, "height"):  # orthographic: a little margin around the motion
        camera.height.setValue(camera.height.getValue() * slack)
    else:
        camera.heightAngle.setValue(min(3.0, camera.heightAngle.getValue() * slack))


def write_gif(pngs: Sequence[str], path: str, duration_ms: float) -> str:
    """Assemble PNG frames into a looping GIF (Pillow)."""
    from PIL import Image

    images = [Image.open(p).convert("RGB") for p in pngs]
    frames = [im.quantize(colors=255) for im in images]
    frames[0].save(
        path, save_all=True, append_images=frames[1:], duration=int(duration_ms), loop=0, optimize=False, disposal=1
    )
    return path


def make_report(
    doc: App.Document,
    sim: App.DocumentObject,
    out_dir: str | os.PathLike,
    frames: int = 24,
    size: tuple[int, int] = (640, 480),
    overwrite: bool = False,
    keep_frames: bool = False,
) -> list[str]:
    """Write the motion-study report of ``sim``'s stored results and ``motion_3d.gif`` (rendered
    from the 3D view of ``doc``) into ``out_dir``; returns the written paths.

    frames: number of GIF frames evenly spaced over the run; size: (width, height) [px].
    keep_frames: also keep the PNG frames in ``motion_3d_frames/`` (always without Pillow).
    Existing files or frames are replaced only with ``overwrite``, checked before anything is written."""
    from ..cad.results_store import load_results
    from ..report import write_report
    from ..report.animation import have_pillow

    results = load_results(sim)
    if results is None or not len(results):
        raise ValueError("no results yet: run Solve first")
    out_dir = os.fspath(out_dir)
    gif = os.path.join(out_dir, GIF_NAME)
    target = os.path.join(out_dir, FRAMES_DIR)
    keep = keep_frames or not have_pillow()
    for path in (gif, target) if keep else (gif,):
        if os.path.exists(path) and not overwrite:
            raise ValueError("%s already exists; not overwritten" % path)
    tmp = tempfile.mkdtemp(prefix="mbd_report_")
    try:
        written = write_report(stored_report_data(doc, sim), out_dir, overwrite=overwrite)
        frame_dir = os.path.join(tmp, "frames")
        os.makedirs(frame_dir)
        indices = frame_indices(len(results), frames)
        pngs = render_frames(doc, results, indices, frame_dir, size)
        if have_pillow():
            span = float(results.t[indices[-1]] - results.t[indices[0]])
            duration = max(20.0, 1000.0 * span / max(1, len(indices) - 1))
            written.append(write_gif(pngs, gif, duration))
        if keep:
            if os.path.exists(target):
                shutil.rmtree(target)
            shutil.copytree(frame_dir, target)
            written.append(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written


def stored_report_data(doc: App.Document, sim: App.DocumentObject):
    """The report data of ``sim``'s stored results, its source named by the document and the
    Simulation (the archive itself lives in a temporary folder that FreeCAD deletes)."""
    from ..report.data import load_results_dir

    data = load_results_dir(sim.ResultsArchive)
    where = doc.FileName or "unsaved document '%s'" % doc.Label
    data.source = "%s, results stored in '%s' (%s)" % (where, sim.Label, os.path.basename(sim.ResultsArchive))
    return data


def _ask_folder():
    _, _, QtWidgets = qt_modules()
    return QtWidgets.QFileDialog.getExistingDirectory(main_window(), "Folder for the motion-study report")


def _confirm_overwrite(out_dir):
    """(overwrite, go): whether report files already exist there, and whether to go on
    (nothing to replace, or the user agreed to replace it)."""
    from ..report import report_files

    names = report_files() + [GIF_NAME, FRAMES_DIR]
    existing = [n for n in names if os.path.exists(os.path.join(out_dir, n))]
    if not existing:
        return False, True
    _, _, QtWidgets = qt_modules()
    answer = QtWidgets.QMessageBox.question(
        main_window(),
        translate("MBD", "Motion-study report"),
        translate("MBD", "%s already holds %s.\nReplace them?") % (out_dir, ", ".join(existing)),
    )
    return True, answer == QtWidgets.QMessageBox.Yes


class ReportCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Report", "Motion-study report")
    TIP = QT_TRANSLATE_NOOP(
        "MBD_Report", "Write an HTML/PDF report of the stored results and a GIF of the motion rendered from the 3D view"
    )
    ICON = "report"
    last = None  # paths written by the last run (for scripts and tests)

    def IsActive(self) -> bool:
        from .animate import active_panel

        doc = active_document()
        panel = active_panel()  # usable while animating: the panel's frame is shown again afterwards
        return doc is not None and (panel is None or panel.doc_name == doc.Name) and has_stored_results(doc)

    def Activated(self) -> None:
        from ..cad.objects import find_simulation

        doc = active_document()
        out_dir = _ask_folder()
        if not out_dir:
            return
        overwrite, go = _confirm_overwrite(out_dir)
        if not go:
            return
        from .preferences import preference

        size = (preference("ReportGifWidth"), preference("ReportGifHeight"))
        try:
            paths = make_report(
                doc, find_simulation(doc), out_dir, overwrite=overwrite, frames=preference("ReportGifFrames"), size=size
            )
        except Exception as exc:
            show_error(translate("MBD", "Motion-study report"), exc)
            return
        ReportCommand.last = paths
        message(
            translate("MBD", "Motion-study report"),
            translate("MBD", "Written:") + "\n" + "\n".join(paths),
            name=REPORT_BOX,
        )
