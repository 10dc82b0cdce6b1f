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


CATALOG = "MBD_Catalog"  # translation context of the element catalogue's texts (tools/translations.py)


def catalog_text(text: str) -> str:
    """A label, tooltip or field text of the element catalogue, translated."""
    return translate(CATALOG, text) if text else text


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


RESULT_NAME = "mbd_made"  # the recorded commands' result variable (in FreeCAD's Python console)


def py_value(value: Any) -> str:
    """Python text rebuilding ``value`` in a recorded command: documents and document objects by
    name, Vectors, Rotations, Placements, Quantities (their value in FreeCAD's internal unit),
    numbers, strings, None, and lists, tuples and dicts of those."""
    import FreeCAD as App

    if isinstance(value, App.Document):
        return py_document(value)
    if isinstance(value, App.DocumentObject):
        return py_object(value)
    if isinstance(value, App.Vector):
        return "App.Vector(%r, %r, %r)" % (value.x, value.y, value.z)
    if isinstance(value, App.Rotation):
        return "App.Rotation(%r, %r, %r, %r)" % tuple(value.Q)
    if isinstance(value, App.Placement):
        return "App.Placement(%s, %s)" % (py_value(value.Base), py_value(value.Rotation))
    if isinstance(value, App.Units.Quantity):
        return repr(float(value.Value))
    if isinstance(value, (list, tuple)):
        items = ", ".join(py_value(v) for v in value)
        return "[%s]" % items if isinstance(value, list) else "(%s%s)" % (items, "," if len(value) == 1 else "")
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%r: %s" % (k, py_value(v)) for k, v in value.items())
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise TypeError("cannot record a value of type %s" % type(value).__name__)


def record_call(module: str, function: str, *args: Any, **kwargs: Any) -> Any:
    """Run ``module.function(*args, **kwargs)`` through FreeCADGui.doCommand, so that it shows in
    the Python console and is recorded in macros (``import module as mbd_<name>`` then
    ``mbd_made = mbd_<name>.function(...)``, as FreeCAD's own workbenches do); its result.
    Exceptions are raised here unchanged (doCommand re-raises them)."""
    import FreeCADGui

    import __main__

    alias = "mbd_" + module.rsplit(".", 1)[-1]
    texts = [py_value(a) for a in args] + ["%s=%s" % (k, py_value(v)) for k, v in kwargs.items()]
    FreeCADGui.doCommand("import %s as %s" % (module, alias))
    FreeCADGui.doCommand("%s = %s.%s(%s)" % (RESULT_NAME, alias, function, ", ".join(texts)))
    return getattr(__main__, RESULT_NAME)


def record_set(obj: App.DocumentObject, prop: str, value: Any) -> None:
    """``obj.prop = value`` through FreeCADGui.doCommand (recorded in macros)."""
    import FreeCADGui

    FreeCADGui.doCommand("%s.%s = %s" % (py_object(obj), prop, py_value(value)))


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


COMBO_MAX_CHARS = 14  # a combo box asks room for its longest item up to this many characters
# A form's content width [px] in FreeCAD 0.20's default task dock: the Combo View is 264 px wide
# on a first start (1228x983 main window on a 1280x1024 screen); the task view's frame, the task
# box's margins and a vertical scroll bar leave 200 px.
FORM_WIDTH = 200


def fit_to_dock(form: Any) -> Any:
    """Lay ``form`` out to fit FreeCAD's default task dock: a form whose labels and fields do
    not fit side by side in FORM_WIDTH puts every label above its field, labels other than a form
    row's own wrap words, a combo box asks room for its longest item up to COMBO_MAX_CHARS
    characters (elided beyond, the text in its tooltip)."""
    _, _, QtWidgets = qt_modules()
    for combo in form.findChildren(QtWidgets.QComboBox):
        longest = max((len(combo.itemText(i)) for i in range(combo.count())), default=1)
        combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(min(longest, COMBO_MAX_CHARS))
        if not combo.toolTip():
            combo.setToolTip(combo.currentText())
    row_labels = []
    for layout in form.findChildren(QtWidgets.QFormLayout):
        labels = [layout.itemAt(row, QtWidgets.QFormLayout.LabelRole) for row in range(layout.rowCount())]
        row_labels += [item.widget() for item in labels if item is not None]
        wide = side_by_side_width(layout, QtWidgets.QFormLayout) > FORM_WIDTH
        layout.setRowWrapPolicy(QtWidgets.QFormLayout.WrapAllRows if wide else QtWidgets.QFormLayout.DontWrapRows)
        layout.setFieldGrowthPolicy(QtWidgets.QFormLayout.AllNonFixedFieldsGrow)
    for label in form.findChildren(QtWidgets.QLabel):
        if label not in row_labels and " " in label.text().strip():
            label.setWordWrap(True)
    return form


def side_by_side_width(layout: Any, QFormLayout: Any) -> int:  # noqa: N803 -- the Qt class
    """Width [px] a QFormLayout needs with its labels beside their fields (rows spanning both
    columns count alone)."""
    label_width = field_width = span_width = 0
    for row in range(layout.rowCount()):
        label = layout.itemAt(row, QFormLayout.LabelRole)
        field = layout.itemAt(row, QFormLayout.FieldRole)
        span = layout.itemAt(row, QFormLayout.SpanningRole)
        if label is not None:
            label_width = max(label_width, label.sizeHint().width())
        if field is not None:
            field_width = max(field_width, field.minimumSize().width())
        if span is not None:
            span_width = max(span_width, span.minimumSize().width())
    spacing = max(layout.horizontalSpacing(), 6)
    return max(label_width + spacing + field_width, span_width)


def show_task_panel(panel: Any) -> Any:
    """Show ``panel`` (an object with a ``form``) in FreeCAD's task view, laid out to fit it."""
    import FreeCADGui

    fit_to_dock(panel.form)
    FreeCADGui.Control.showDialog(panel)
    return panel


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
        message(title, translate("MBD", "No results yet: run Solve first."), "error")
        return None
    return results
