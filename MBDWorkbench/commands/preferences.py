"""Edit > Preferences > Multibody Dynamics: defaults of new Simulation objects, display colours
and sizes, report options.

Stored in FreeCAD's parameters under ``User parameter:BaseApp/Preferences/Mod/MultibodyDynamics``
(:data:`MBDWorkbench.cad.objects.PREFERENCES`). The simulation settings are read by the App side
when a Simulation is created (:func:`MBDWorkbench.cad.objects.simulation_defaults`); the display
and report options below by the view providers and the report command.
"""

from __future__ import annotations

from typing import Any

from ..cad.objects import PREFERENCES, SIMULATION_PREFERENCES
from .common import qt_modules, translate

PAGE_GROUP = "Multibody Dynamics"
PAGE_NAME = "MBD_PreferencesPage"
# name -> (kind, default, label, tooltip)
DISPLAY_PREFERENCES = {
    "CogColor": ("color", 0xF28000FF, "Centre-of-gravity marker", "Colour of the ball drawn at each body's CoG"),
    "JointAxisLength": ("float", 25.0, "Joint frame axis length [mm]", "Length of the axes drawn at new joints"),
}
REPORT_PREFERENCES = {
    "ReportGifFrames": ("int", 24, "GIF frames", "Frames of motion_3d.gif, evenly spaced over the run"),
    "ReportGifWidth": ("int", 640, "GIF width [px]", "Width of the frames rendered from the 3D view"),
    "ReportGifHeight": ("int", 480, "GIF height [px]", "Height of the frames rendered from the 3D view"),
}
SIMULATION_LABELS = {
    "Integrator": ("Integrator", "Integration method of new simulations"),
    "EndTime": ("End time [s]", "End time of new simulations, e.g. 2 (rounded to whole ms)"),
    "OutputStep": ("Output step [s]", "Interval between output samples, e.g. 0.01 (rounded to whole µs)"),
    "Step": (
        "Integration step [s]",
        "Step (maximum step for adaptive methods), e.g. 5e-4 (rounded to whole µs); 0: the integrator's default",
    ),
    "RelativeTolerance": (
        "Relative tolerance",
        "Relative tolerance of adaptive methods, e.g. 1e-6; 0: the integrator's default",
    ),
    "AbsoluteTolerance": ("Absolute tolerance", "Absolute tolerance of adaptive methods, e.g. 1e-8"),
}


def parameters() -> Any:
    """The workbench's parameter group."""
    import FreeCAD as App

    return App.ParamGet(PREFERENCES)


def preference(name: str) -> Any:
    """The value of a display or report preference (its default when unset or invalid)."""
    kind, default = {**DISPLAY_PREFERENCES, **REPORT_PREFERENCES}[name][:2]
    params = parameters()
    if kind == "float":
        value = params.GetFloat(name, default)
        return value if value > 0 else default
    if kind == "int":
        value = params.GetInt(name, default)
        return value if value > 0 else default
    return params.GetUnsigned(name, default)


def rgb(packed: int) -> tuple[float, float, float]:
    """(r, g, b) in 0..1 of a colour packed as FreeCAD stores it (0xRRGGBBAA)."""
    return tuple(((packed >> shift) & 0xFF) / 255.0 for shift in (24, 16, 8))


class PreferencesPage:
    """The preferences page (a Python page: ``form``, ``loadSettings``, ``saveSettings``)."""

    def __init__(self, parent: Any = None) -> None:
        _, _, QtWidgets = qt_modules()
        self.form = QtWidgets.QWidget(parent)
        self.form.setObjectName(PAGE_NAME)
        self.form.setWindowTitle(translate("MBD", "Multibody Dynamics"))
        layout = QtWidgets.QVBoxLayout(self.form)
        self.fields: dict[str, tuple[str, Any]] = {}
        layout.addWidget(self._simulation_box())
        layout.addWidget(self._box(translate("MBD", "Display"), DISPLAY_PREFERENCES))
        layout.addWidget(self._box(translate("MBD", "Motion-study report"), REPORT_PREFERENCES))
        layout.addStretch(1)

    def _simulation_box(self) -> Any:
        from ..solver import integrators

        _, _, QtWidgets = qt_modules()
        box, form = self._group(translate("MBD", "New simulations"))
        for name, (kind, _) in SIMULATION_PREFERENCES.items():
            label, tip = SIMULATION_LABELS[name]
            if kind == "string":
                widget = QtWidgets.QComboBox()
                widget.addItems(list(integrators.names()))
            else:
                widget = QtWidgets.QLineEdit()
            self._add_row(form, name, kind, widget, label, tip)
        return box

    def _box(self, title: str, specs: dict) -> Any:
        _, _, QtWidgets = qt_modules()
        box, form = self._group(title)
        for name, (kind, _, label, tip) in specs.items():
            if kind == "color":
                widget = _color_button()
            elif kind == "int":
                widget = QtWidgets.QSpinBox()
                widget.setRange(1, 10000)
            else:
                widget = QtWidgets.QLineEdit()
            self._add_row(form, name, kind, widget, label, tip)
        return box

    def _group(self, title: str) -> tuple[Any, Any]:
        _, _, QtWidgets = qt_modules()
        box = QtWidgets.QGroupBox(title)
        return box, QtWidgets.QFormLayout(box)

    def _add_row(self, form: Any, name: str, kind: str, widget: Any, label: str, tip: str) -> None:
        widget.setObjectName("MBD_Pref_" + name)
        widget.setToolTip(translate("MBD", tip))
        form.addRow(translate("MBD", label), widget)
        self.fields[name] = (kind, widget)

    def loadSettings(self) -> None:
        params = parameters()
        defaults = {n: d for n, (_, d) in SIMULATION_PREFERENCES.items()}
        defaults.update({n: spec[1] for n, spec in {**DISPLAY_PREFERENCES, **REPORT_PREFERENCES}.items()})
        for name, (kind, widget) in self.fields.items():
            if kind == "string":
                widget.setCurrentText(params.GetString(name, defaults[name]))
            elif kind == "float":
                widget.setText(repr(params.GetFloat(name, defaults[name])))
            elif kind == "int":
                widget.setValue(params.GetInt(name, defaults[name]))
            else:
                _set_color(widget, params.GetUnsigned(name, defaults[name]))

    def saveSettings(self) -> None:
        params = parameters()
        for name, (kind, widget) in self.fields.items():
            if kind == "string":
                params.SetString(name, widget.currentText())
            elif kind == "float":
                value = _positive_float(widget.text(), zero=name in ("Step", "RelativeTolerance"))
                if value is not None:  # an unreadable entry keeps the stored value
                    params.SetFloat(name, value)
            elif kind == "int":
                params.SetInt(name, int(widget.value()))
            else:
                params.SetUnsigned(name, _get_color(widget))


def _positive_float(text: str, zero: bool = False) -> float | None:
    """The number in ``text`` if it is finite and > 0 (or 0 with ``zero``: the integrator's default), else None."""
    try:
        value = float(str(text).strip().replace(",", "."))
    except ValueError:
        return None
    return value if (value > 0 or (zero and value == 0)) and value < float("inf") else None


def _color_button() -> Any:
    """FreeCAD's own colour button (Gui::ColorButton), else a plain Qt button with a dialog."""
    try:
        import FreeCADGui

        button = FreeCADGui.UiLoader().createWidget("Gui::ColorButton")  # PySide sees a QPushButton
        if button is not None and button.metaObject().indexOfProperty("color") >= 0:
            return button
    except Exception:
        pass
    _, QtGui, QtWidgets = qt_modules()
    button = QtWidgets.QPushButton()

    def pick() -> None:
        color = QtWidgets.QColorDialog.getColor(button.property("mbd_color") or QtGui.QColor(0, 0, 0))
        if color.isValid():
            _set_color(button, (color.red() << 24) | (color.green() << 16) | (color.blue() << 8) | 0xFF)

    button.clicked.connect(pick)
    return button


def _set_color(button: Any, packed: int) -> None:
    _, QtGui, _ = qt_modules()
    color = QtGui.QColor(*(int(round(c * 255)) for c in rgb(packed)))
    if button.metaObject().indexOfProperty("color") >= 0:  # Gui::ColorButton's Qt property
        button.setProperty("color", color)
    else:
        button.setProperty("mbd_color", color)
        button.setStyleSheet("background-color: %s" % color.name())


def _get_color(button: Any) -> int:
    native = button.metaObject().indexOfProperty("color") >= 0
    color = button.property("color" if native else "mbd_color")
    return (color.red() << 24) | (color.green() << 16) | (color.blue() << 8) | 0xFF


def register_page() -> None:
    """Add the page to Edit > Preferences (once per FreeCAD session). The group's icon is
    ``resources/icons/preferences-multibody_dynamics.svg`` (FreeCAD looks for
    "preferences-<group, lower case, spaces as _>" in its icon paths)."""
    import FreeCADGui

    from .common import ICON_DIR

    FreeCADGui.addIconPath(ICON_DIR)
    FreeCADGui.addPreferencePage(PreferencesPage, PAGE_GROUP)
