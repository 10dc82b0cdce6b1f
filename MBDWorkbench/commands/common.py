"""Shared by the GUI commands: the command base class, icons, Qt modules, message boxes,
transactions, selection, translation markers and commands recorded through
``FreeCADGui.doCommand``. Imports nothing of this package at import time."""

from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults

ICON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "resources", "icons")
ERROR_BOX = "MBD_ErrorBox"
INFO_BOX = "MBD_InfoBox"


def icon(name: str) -> str:
    """Absolute path of ``resources/icons/<name>.svg``."""
    return os.path.join(ICON_DIR, name if name.endswith(".svg") else name + ".svg")


def qt_modules() -> tuple[ModuleType, ModuleType, ModuleType]:
    """(QtCore, QtGui, QtWidgets) through FreeCAD's PySide shim.

    FreeCAD 0.20: ``from PySide import QtGui, QtCore`` works and QtGui holds the widgets;
    ``QtWidgets`` does not exist. FreeCAD 1.0+: ``QtWidgets`` exists.
    """
    from PySide import QtCore, QtGui

    try:
        from PySide import QtWidgets
    except ImportError:
        QtWidgets = QtGui
    return QtCore, QtGui, QtWidgets


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 -- Qt's name, found by lupdate
    """Mark ``text`` for translation in ``context`` (FreeCAD translates command texts itself)."""
    return text


def translate(context: str, text: str) -> str:
    """``text`` translated in ``context`` by the loaded Qt translators (unchanged without one)."""
    try:
        from PySide import QtCore

        return QtCore.QCoreApplication.translate(context, text)
    except Exception:
        return text


class Command:
    """Base of the workbench's commands: resources from MENU, TIP, ICON (MENU and TIP marked
    with QT_TRANSLATE_NOOP in the command's name as context); active when a document is open."""

    MENU, TIP, ICON = "", "", "workbench"

    def GetResources(self) -> dict:
        return {"Pixmap": icon(self.ICON), "MenuText": self.MENU, "ToolTip": self.TIP}

    def IsActive(self) -> bool:
        return active_document() is not None


def main_window() -> Any:
    import FreeCADGui

    return FreeCADGui.getMainWindow()


def _exec(dialog):
    run = getattr(dialog, "exec", None) or dialog.exec_
    return run()


def message(title: str, text: str, kind: str = "info", name: str | None = None, details: str | None = None) -> None:
    """A modal message box (objectName ``name``); also printed to FreeCAD's console."""
    import FreeCAD

    _, _, QtWidgets = qt_modules()
    printer = FreeCAD.Console.PrintError if kind == "error" else FreeCAD.Console.PrintMessage
    printer("%s: %s\n" % (title, text))
    box = QtWidgets.QMessageBox(main_window())
    box.setObjectName(name or (ERROR_BOX if kind == "error" else INFO_BOX))
    box.setWindowTitle(title)
    box.setIcon(QtWidgets.QMessageBox.Critical if kind == "error" else QtWidgets.QMessageBox.Information)
    box.setText(text)
    if details:
        box.setDetailedText(details)
    box.setStandardButtons(QtWidgets.QMessageBox.Ok)
    _exec(box)


def show_error(title: str, exc: BaseException) -> None:
    """Report an exception: its text in a dialog (the same text a headless call raises)."""
    from ..cad.mass_properties import CadError
    from ..solver.errors import AssemblyError, ModelError, SimulationError

    known = (CadError, ModelError, AssemblyError, SimulationError)
    details = None if isinstance(exc, known) else traceback.format_exc()
    message(title, str(exc), "error", details=details)


@contextlib.contextmanager
def transaction(doc: App.Document, name: str) -> Iterator[None]:
    """One undoable step; aborted (document unchanged) when the body raises."""
    doc.openTransaction(name)
    try:
        yield
    except BaseException:
        doc.abortTransaction()
        raise
    else:
        doc.commitTransaction()


def run_guarded(title: str, doc: App.Document | None, func: Callable, *args: Any, **kwargs: Any) -> Any:
    """Run ``func`` in a transaction; on error show it and leave the document unchanged.
    Returns func's result or None."""
    try:
        if doc is None:
            return func(*args, **kwargs)
        with transaction(doc, title):
            result = func(*args, **kwargs)
            doc.recompute()
            return result
    except Exception as exc:
        if doc is not None:
            doc.recompute()
        show_error(title, exc)
        return None


def py_document(doc: App.Document) -> str:
    """Python text naming ``doc`` (for recorded commands)."""
    return "App.getDocument(%r)" % doc.Name


def py_object(obj: App.DocumentObject | None) -> str:
    """Python text naming ``obj`` (None for None), for recorded commands."""
    return "None" if obj is None else "%s.getObject(%r)" % (py_document(obj.Document), obj.Name)


def run_recorded(doc: App.Document, module: str, alias: str, call: str) -> list[App.DocumentObject]:
    """Run ``call`` (Python text using ``alias`` for ``module``) through FreeCADGui.doCommand, so
    it shows in the Python console and is recorded in macros; return the objects it created.
    Its exceptions are raised here unchanged (doCommand re-raises them)."""
    import FreeCADGui

    FreeCADGui.doCommand("import %s as %s" % (module, alias))
    before = {o.Name for o in doc.Objects}
    FreeCADGui.doCommand(call)
    return [o for o in doc.Objects if o.Name not in before]


def active_document() -> App.Document | None:
    import FreeCAD

    return FreeCAD.ActiveDocument


def selected_picks() -> list[tuple[App.DocumentObject, str]]:
    """[(root object, full subname)] of the sub-elements selected, in selection order."""
    import FreeCADGui

    picks = []
    for sel in FreeCADGui.Selection.getSelectionEx("", 0):
        subs = list(sel.SubElementNames) or [""]
        for sub in subs:
            picks.append((sel.Object, sub))
    return picks


def selected_objects() -> list[App.DocumentObject]:
    """Selected objects (leaf objects, as FreeCAD resolves them)."""
    import FreeCADGui

    return list(FreeCADGui.Selection.getSelection())


def dialog_buttons(*names: str) -> int:
    """QDialogButtonBox flags (an int on PySide2, PySide6 accepts the enum value)."""
    _, _, QtWidgets = qt_modules()
    flags = None
    for name in names:
        flag = getattr(QtWidgets.QDialogButtonBox, name)
        flags = flag if flags is None else flags | flag
    try:
        return int(flags)
    except TypeError:
        return getattr(flags, "value", flags)


def stored_results_or_message(doc: App.Document, title: str) -> StoredResults | None:
    """The stored results of the document's Simulation, or None after telling the user to
    run Solve first."""
    from ..cad.objects import find_simulation
    from ..cad.results_store import load_results

    sim = find_simulation(doc)
    results = load_results(sim) if sim is not None else None
    if results is None or not len(results):
        message(title, "No results yet: run Solve first.", "error")
        return None
    return results
