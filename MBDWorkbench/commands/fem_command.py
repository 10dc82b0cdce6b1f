"""'FEM check of a body': the selected body's motion loads into a FreeCAD FEM analysis solved by
CalculiX (docs/fem.md), written into a copy of the (saved) document, which is then opened with
the von Mises stress shown on the mesh.

:func:`run_fem_check` (what the command runs after asking for the copy's file name; scripts and
tests call it directly) calls :func:`MBDWorkbench.cad.fem_loads.fem_loads` and
:func:`show_result`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .common import (
    QT_TRANSLATE_NOOP,
    Command,
    active_document,
    main_window,
    message,
    qt_modules,
    selected_objects,
    show_error,
    translate,
)

if TYPE_CHECKING:
    import FreeCAD as App

FEM_BOX = "MBD_FemCheckDone"


def selected_body(doc: App.Document | None) -> App.DocumentObject | None:
    """The selected Body object (or the Body of a selected part), or None."""
    from ..cad.objects import body_of_part, mbd_type

    for obj in selected_objects():
        if mbd_type(obj) == "Body":
            return obj
        body = body_of_part(doc, obj) if doc is not None else None
        if body is not None:
            return body
    return None


def show_result(copy: App.Document, analysis_name: str) -> None:
    """Show the analysis' von Mises stress on its mesh and hide everything else."""
    import FreeCADGui

    analysis = copy.getObject(analysis_name)
    result = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemResultObjectPython"))
    mesh = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemMeshObject"))
    for obj in copy.Objects:
        if getattr(obj, "ViewObject", None) is not None:
            obj.ViewObject.Visibility = False
    mesh.ViewObject.Visibility = True
    mesh.ViewObject.setNodeColorByScalars(result.NodeNumbers, result.vonMises)
    gui_doc = FreeCADGui.getDocument(copy.Name)
    gui_doc.activeView().viewIsometric()
    gui_doc.activeView().fitAll()


def run_fem_check(
    doc: App.Document, body: App.DocumentObject, out: str, overwrite: bool = False, critical: bool = False
) -> tuple:
    """Run fem-loads on the saved file of ``doc`` (unsaved changes are not seen) for ``body``
    into ``out`` (``critical``: every critical instant as a load case, as ``--critical``, else the
    largest joint reaction); open the copy and show the analysis of the largest stress (the
    envelope's governing case). Returns (summary, copy document)."""
    import FreeCAD

    from ..cad.errors import CadError
    from ..cad.fem_loads import FemRequest, fem_loads

    if not doc.FileName:
        raise CadError("save the document first: the FEM check works on its saved file and writes a copy")
    summary = fem_loads(FemRequest(doc.FileName, body.Label, out=out, overwrite=overwrite, critical=critical))
    copy = FreeCAD.openDocument(out)
    _, _, QtWidgets = qt_modules()
    QtWidgets.QApplication.processEvents()  # the view providers' after-restore step shows parts again
    show_result(copy, shown_analysis(summary))
    return summary, copy


def shown_analysis(summary: dict) -> str:
    """The analysis to show: the load case of the largest von Mises stress."""
    return max(summary["cases"], key=lambda c: c["max_von_mises_MPa"])["analysis"]


def summary_text(summary: dict) -> str:
    lines = ["Copy with the analysis: %s" % summary["copy"]]
    for c in summary["cases"]:
        lines.append(
            "t = %.4g s (%s): max von Mises %.4g MPa at %s mm, max displacement %.4g mm; support reactions %.2g of "
            "the largest load%s" % (
                c["time_s"], c.get("load_case", ""), c["max_von_mises_MPa"],
                [round(v, 1) for v in c["max_von_mises_at_mm"]], c["max_displacement_mm"],
                c["support_reaction_relative"],
                "" if c.get("safety_factor") is None else "; safety factor %.3g" % c["safety_factor"],
            )
        )  # fmt: skip
    env = summary.get("envelope")
    if env:
        lines.append(
            "Envelope over %d load cases: max von Mises %.4g MPa (%s)%s" % (
                len(summary["cases"]), env["max_von_mises_MPa"], env["governing_case"],
                "" if env.get("safety_factor") is None else "; safety factor %.3g" % env["safety_factor"],
            )
        )  # fmt: skip
    lines += ["Warning: %s" % w for w in summary.get("warnings", [])]
    return "\n".join(lines)


def _ask_output(doc: App.Document) -> str:
    """The copy's file name from a save dialog ('' when cancelled)."""
    _, _, QtWidgets = qt_modules()
    default = os.path.splitext(doc.FileName)[0] + "_fem.FCStd"
    path, _ = QtWidgets.QFileDialog.getSaveFileName(main_window(), "FEM check: copy to write", default, "*.FCStd")
    return path


INSTANT_CHOICES = (
    QT_TRANSLATE_NOOP("MBD", "Every critical instant (load cases and their envelope)"),
    QT_TRANSLATE_NOOP("MBD", "The largest joint reaction only"),
)


def _ask_critical() -> bool | None:
    """Whether to analyse every critical instant (True), the largest joint reaction only (False)
    or nothing (None: cancelled), from a choice dialog."""
    _, _, QtWidgets = qt_modules()
    items = [translate("MBD", text) for text in INSTANT_CHOICES]
    item, ok = QtWidgets.QInputDialog.getItem(
        main_window(), translate("MBD", "FEM check"), translate("MBD", "Load cases to analyse:"), items, 0, False
    )
    return items.index(item) == 0 if ok else None


class FemCheckCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_FemCheck", "FEM check of a body")
    TIP = QT_TRANSLATE_NOOP(
        "MBD_FemCheck",
        "The selected body's joint, gravity and inertial loads at every critical instant (or at its largest joint "
        "reaction) into FEM analyses solved by CalculiX, written into a copy of the saved document (docs/fem.md)",
    )
    ICON = "fem_check"
    last = None  # (summary, copy document) of the last run (for scripts and tests)

    def IsActive(self) -> bool:
        doc = active_document()
        return doc is not None and bool(doc.FileName) and selected_body(doc) is not None

    def Activated(self) -> None:
        doc = active_document()
        body = selected_body(doc)
        out = _ask_output(doc)
        if not out:
            return
        critical = _ask_critical()
        if critical is None:
            return
        if not out.lower().endswith(".fcstd"):
            out += ".FCStd"
        QtCore, QtGui, QtWidgets = qt_modules()
        QtWidgets.QApplication.setOverrideCursor(QtGui.QCursor(QtCore.Qt.WaitCursor))
        try:
            summary, _ = run_fem_check(doc, body, out, overwrite=os.path.exists(out), critical=critical)
        except Exception as exc:
            QtWidgets.QApplication.restoreOverrideCursor()
            show_error(translate("MBD", "FEM check"), exc)
            return
        QtWidgets.QApplication.restoreOverrideCursor()
        FemCheckCommand.last = summary
        message(translate("MBD", "FEM check"), summary_text(summary), name=FEM_BOX)
