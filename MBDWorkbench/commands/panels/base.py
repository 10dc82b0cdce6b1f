"""Common parts of the task panels: reading and writing values (floats or FreeCAD Quantities),
the number field with its unit, the preview plot, the frame preview in the 3D view, the
selection observer and the TaskPanel base class (OK = one transaction, Cancel = no change)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..common import dialog_buttons, qt_modules, record_call, record_set, transaction
from ..view_providers import axes_node, coin_module, set_transform

if TYPE_CHECKING:
    import FreeCAD as App

_open: list[TaskPanel] = []
PREVIEW_SAMPLES = 200
UNIT_WIDTH = 48  # px: the unit column, so that all fields line up (wide enough for mm/s^2)
NUMBER_DIGITS = "-0.00000001"  # a number field is at least as wide as this text


def open_panel() -> TaskPanel | None:
    """The open task panel of this module, or None."""
    return _open[0] if _open else None


def forget_open_panel() -> None:
    """Forget the open panel (one that failed to build)."""
    _open[:] = []


# ----------------------------------------------------------------------------- values
def read_value(obj: App.DocumentObject, prop: str, unit: str = "") -> float:
    """``obj.prop`` as a float in ``unit``: a Quantity property is converted from FreeCAD's internal
    unit (mm, kg, s based: kg/mm^3 for a density), a float property is taken as already in ``unit``."""
    from ...cad.objects import value_in

    value = getattr(obj, prop)
    if unit and hasattr(value, "Value"):
        return value_in(value, unit)
    return float(getattr(value, "Value", value))


def write_value(obj: App.DocumentObject, prop: str, value: float, unit: str = "") -> None:
    """Set ``obj.prop`` to ``value`` given in ``unit``: a Quantity property gets it converted to
    FreeCAD's internal unit (its own unit kept), a float property gets ``value`` unchanged.
    Recorded in macros (FreeCADGui.doCommand)."""
    from ...cad.objects import unit_scale

    if unit and hasattr(getattr(obj, prop), "Value"):
        record_set(obj, prop, float(value) * unit_scale(unit))
    else:
        record_set(obj, prop, float(value))


MAKERS = "MBDWorkbench.cad.makers"


def make(function: str, *args: Any, **kwargs: Any) -> Any:
    """``MBDWorkbench.cad.makers.<function>(*args, **kwargs)``, recorded in macros."""
    return record_call(MAKERS, function, *args, **kwargs)


def parse_number(text: str, what: str, unit: str = "") -> float:
    """A finite number from a field's text ('0.0005', '2 mm' when ``unit`` is given).
    Raises ValueError naming ``what``."""
    text = text.strip()
    try:
        value = float(text)
    except ValueError:
        value = None
        if unit and text:
            try:
                import FreeCAD as App

                q = App.Units.Quantity(text).getValueAs(unit)
                value = float(getattr(q, "Value", q))
            except Exception:
                value = None
    if value is None or not np.isfinite(value):
        raise ValueError("%s: %r is not a number%s" % (what, text, " [%s]" % unit if unit else ""))
    return value


def enumeration(kind: str, prop: str) -> list[str]:
    """The enumeration of property ``prop`` of MBD objects of MbdType ``kind``."""
    from ...cad.objects import PROXIES

    cls = PROXIES[kind]
    for spec in cls.properties(cls.__new__(cls)):
        if spec[1] == prop:
            return list(spec[6])
    raise KeyError(prop)


def rounded(values: np.ndarray, relative: float = 1e-12) -> np.ndarray:
    """``values`` with round-off noise (below ``relative`` times the largest) set to 0."""
    values = np.array(values, dtype=float)
    values[np.abs(values) < relative * max(np.abs(values).max(), 1e-300)] = 0.0
    return values


def ensure_simulation(doc: App.Document) -> None:
    """Make the document's Simulation (recorded) when it has none."""
    from ...cad.objects import find_simulation

    if find_simulation(doc) is None:
        make("make_simulation", doc)


def end_time(doc: App.Document) -> float:
    """The Simulation's end time [s] (2 s without one), for previews."""
    from ...cad.objects import find_simulation
    from ...cad.time_steps import END_TIME, MILLISECONDS_PER_SECOND

    sim = find_simulation(doc)
    return int(getattr(sim, END_TIME)) / MILLISECONDS_PER_SECOND if sim is not None else 2.0


# ----------------------------------------------------------------------------- widgets
def text_width(widget: Any, text: str) -> int:
    """Width [px] of ``text`` in ``widget``'s font."""
    metrics = widget.fontMetrics()
    return (metrics.horizontalAdvance if hasattr(metrics, "horizontalAdvance") else metrics.width)(text)


class NumberField:
    """A line edit for a number with its unit shown after it (no rounding of small values)."""

    def __init__(self, name: str, value: float, unit: str = "", on_change=None) -> None:
        _, _, QtWidgets = qt_modules()
        self.name, self.unit = name, unit
        self.widget = QtWidgets.QWidget()
        row = QtWidgets.QHBoxLayout(self.widget)
        row.setContentsMargins(0, 0, 0, 0)
        self.edit = QtWidgets.QLineEdit("%.10g" % value)
        self.edit.setObjectName(name)
        self.edit.setMinimumWidth(text_width(self.edit, NUMBER_DIGITS) + 12)
        self.unit_label = QtWidgets.QLabel(unit)
        self.unit_label.setMinimumWidth(unit_width(self.unit_label))
        row.addWidget(self.edit, 1)
        row.addWidget(self.unit_label)
        if on_change is not None:
            self.edit.textChanged.connect(on_change)

    def value(self) -> float:
        return parse_number(self.edit.text(), self.name, self.unit)

    def set(self, value: float | str) -> None:
        self.edit.setText(value if isinstance(value, str) else "%.10g" % value)

    def set_unit(self, unit: str) -> None:
        self.unit = unit
        self.unit_label.setText(unit)
        self.unit_label.setMinimumWidth(unit_width(self.unit_label))


def unit_width(label: Any) -> int:
    """Minimum width [px] of a unit label: UNIT_WIDTH, so that fields line up, or its text's."""
    return max(UNIT_WIDTH, text_width(label, label.text()) + 2)


class PreviewPlot:
    """A small matplotlib plot of f(t) (the profile preview)."""

    def __init__(self, name: str) -> None:
        from matplotlib.figure import Figure

        from ..plot_dock import figure_canvas_class

        self.figure = Figure(figsize=(3.2, 1.9), dpi=90)
        self.figure.subplots_adjust(left=0.2, bottom=0.24, right=0.97, top=0.86)  # room for a legend above
        self.axes = self.figure.add_subplot(111)
        self.canvas = figure_canvas_class()(self.figure)
        self.canvas.setObjectName(name)
        self.canvas.setMinimumHeight(170)
        self.lines = 0

    def show(self, times: np.ndarray, series: list[tuple[str, np.ndarray]], ylabel: str) -> None:
        self.axes.clear()
        for label, values in series:
            self.axes.plot(times, values, label=label)
        if len(series) > 1:
            from ..plot_dock import legend_beside

            legend_beside(self.axes, fontsize=7, above=True)
        self.axes.set_xlabel("t [s]", fontsize=8)
        self.axes.set_ylabel(ylabel, fontsize=8)
        self.axes.tick_params(labelsize=7)
        self.axes.grid(True, alpha=0.3)
        self.lines = len(series)
        self.canvas.draw_idle()


class FramePreview:
    """A joint frame drawn in the active 3D view while a panel is open (not a document object)."""

    def __init__(self, doc: App.Document, length_mm: float = 30.0) -> None:
        import FreeCADGui

        coin = coin_module()
        self.root = coin.SoAnnotation() if hasattr(coin, "SoAnnotation") else coin.SoSeparator()
        self.switch = coin.SoSwitch()
        self.transform = coin.SoTransform()
        self.root.addChild(self.transform)
        self.root.addChild(axes_node(length_mm, width=5.0))
        self.switch.addChild(self.root)
        self.switch.whichChild = -1
        gui_doc = FreeCADGui.getDocument(doc.Name)
        view = gui_doc.activeView() if gui_doc is not None else None
        self.graph = view.getSceneGraph() if view is not None and hasattr(view, "getSceneGraph") else None
        if self.graph is not None:
            self.graph.addChild(self.switch)

    def show(self, placement: App.Placement | None) -> None:
        if placement is None:
            self.switch.whichChild = -1
            return
        set_transform(self.transform, placement)
        self.switch.whichChild = 0

    @property
    def shown(self) -> bool:
        return self.switch.whichChild.getValue() == 0

    def remove(self) -> None:
        if self.graph is not None:
            self.graph.removeChild(self.switch)
            self.graph = None


class _SelectionObserver:
    """Forwards picks in the 3D view or tree to ``callback(root object, subname)``."""

    def __init__(self, callback) -> None:
        self.callback = callback

    def addSelection(self, doc_name: str, obj_name: str, sub: str, pnt: Any = None) -> None:
        import FreeCAD as App

        doc = App.getDocument(doc_name)
        obj = doc.getObject(obj_name) if doc is not None else None
        if obj is not None:
            self.callback(obj, sub or "")


# ----------------------------------------------------------------------------- base
class TaskPanel:
    """Common task-panel behaviour: form, error line, observer, OK (one transaction) / Cancel."""

    KIND = ""

    def __init__(self, doc: App.Document, obj: App.DocumentObject | None, title: str) -> None:
        _, _, QtWidgets = qt_modules()
        close_dialogs()
        self.doc, self.obj = doc, obj
        self.form = QtWidgets.QWidget()
        self.form.setObjectName("MBD_%sPanel" % self.KIND)
        self.form.setWindowTitle(title)
        self.layout = QtWidgets.QVBoxLayout(self.form)
        self.fields = QtWidgets.QFormLayout()
        self.layout.addLayout(self.fields)
        self.error = QtWidgets.QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00000")
        self.observer = None
        self.closed = False
        _open[:] = [self]

    @property
    def creating(self) -> bool:
        return self.obj is None

    def label(self, text: str, name: str | None = None) -> Any:
        """A word-wrapping QLabel, with Qt object name ``name`` when given (tests find it by that)."""
        _, _, QtWidgets = qt_modules()
        widget = QtWidgets.QLabel(text)
        widget.setWordWrap(True)
        if name is not None:
            widget.setObjectName(name)
        return widget

    def combo(self, name: str, items: list[tuple[str, str]], current: str) -> Any:
        """A combo box of (data, text) items with ``current`` data selected."""
        _, _, QtWidgets = qt_modules()
        box = QtWidgets.QComboBox()
        box.setObjectName(name)
        for data, text in items:
            box.addItem(text, data)
        index = box.findData(current)
        box.setCurrentIndex(max(index, 0))
        return box

    def watch_selection(self) -> None:
        import FreeCADGui

        self.observer = _SelectionObserver(self.picked)
        FreeCADGui.Selection.addObserver(self.observer)

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        """A pick made while the panel is open (override)."""

    def show_error(self, text: str) -> None:
        self.error.setText(text)

    def getStandardButtons(self) -> int:
        return dialog_buttons("Ok", "Cancel")

    def apply(self) -> App.DocumentObject:
        """Write the panel's values to the document (inside the OK transaction; override)."""
        raise NotImplementedError

    def title(self) -> str:
        return ("Create %s" if self.creating else "Edit %s") % self.KIND.lower()

    def accept(self) -> bool:
        """Apply in one transaction; on an error keep the panel open with the error shown."""
        try:
            with transaction(self.doc, self.title()):
                self.obj = self.apply()
                self.doc.recompute()
        except Exception as exc:
            self.doc.recompute()
            self.show_error(str(exc))
            return False
        self.close()
        return True

    def reject(self) -> bool:
        self.close()
        return True

    def cleanup(self) -> None:
        """Remove what the panel added to the view (override)."""

    def close(self) -> None:
        import FreeCADGui

        if self.closed:
            return
        self.closed = True
        if self.observer is not None:
            FreeCADGui.Selection.removeObserver(self.observer)
            self.observer = None
            FreeCADGui.Selection.clearSelection()  # the picks belonged to the panel
        self.cleanup()
        _open[:] = []
        FreeCADGui.Control.closeDialog()
        gui_doc = FreeCADGui.getDocument(self.doc.Name)
        if gui_doc is not None and gui_doc.getInEdit() is not None:
            gui_doc.resetEdit()


def side_label(body: App.DocumentObject | None) -> str:
    return body.Label if body is not None else "ground"


def close_dialogs() -> None:
    """Cancel an open panel of ours and close any other task dialog (before a new panel)."""
    import FreeCADGui

    if open_panel() is not None:
        open_panel().reject()
    if FreeCADGui.Control.activeDialog():
        FreeCADGui.Control.closeDialog()
