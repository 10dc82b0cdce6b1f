"""Task panels (FreeCAD's FEM/Assembly manner) to create and edit bodies, joints, drivers,
forces, springs and the simulation settings.

Every panel edits copies of the values and writes nothing to the document until OK, which
applies everything in one undoable transaction; Cancel leaves the document as it was. The
create panels take their references from picks in the 3D view or tree AFTER they opened
(a ``Gui.Selection`` observer). Type lists come from :mod:`MBDWorkbench.solver.catalog`;
the profile fields are checked as you type with the solver's own profile compiler.

Values are shown in the document's units (mm, deg, kg, s); properties may be floats or
FreeCAD Quantities (see :func:`read_value` / :func:`write_value`).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..solver.catalog import DRIVERS, JOINTS, joints_driven_by
from . import view_providers
from .common import dialog_buttons, qt_modules, transaction
from .view_providers import _axes_node, _coin, _set_transform

if TYPE_CHECKING:
    import FreeCAD as App

_open: list[TaskPanel] = []
PREVIEW_SAMPLES = 200
UNIT_WIDTH = 60  # px: the unit column, so that all fields line up


def open_panel() -> TaskPanel | None:
    """The open task panel of this module, or None."""
    return _open[0] if _open else None


# ----------------------------------------------------------------------------- values
def read_value(obj: App.DocumentObject, prop: str, unit: str = "") -> float:
    """``obj.prop`` as a float in ``unit`` (a float property is taken as already in it)."""
    value = getattr(obj, prop)
    if unit and hasattr(value, "getValueAs"):
        value = value.getValueAs(unit)
    return float(getattr(value, "Value", value))


def write_value(obj: App.DocumentObject, prop: str, value: float, unit: str = "") -> None:
    """Set ``obj.prop`` to ``value`` given in ``unit`` (float or Quantity property)."""
    if unit and hasattr(getattr(obj, prop), "getValueAs"):
        import FreeCAD as App

        setattr(obj, prop, App.Units.Quantity("%r %s" % (float(value), unit)))
    else:
        setattr(obj, prop, float(value))


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


def _enumeration(kind: str, prop: str) -> list[str]:
    """The enumeration of property ``prop`` of MBD objects of MbdType ``kind``."""
    from ..cad.objects import PROXIES

    cls = PROXIES[kind]
    for spec in cls.properties(cls.__new__(cls)):
        if spec[1] == prop:
            return list(spec[6])
    raise KeyError(prop)


def _rounded(values: np.ndarray, relative: float = 1e-12) -> np.ndarray:
    """``values`` with round-off noise (below ``relative`` times the largest) set to 0."""
    values = np.array(values, dtype=float)
    values[np.abs(values) < relative * max(np.abs(values).max(), 1e-300)] = 0.0
    return values


def _ensure_simulation(doc: App.Document) -> None:
    from ..cad.makers import make_simulation
    from ..cad.objects import find_simulation

    if find_simulation(doc) is None:
        make_simulation(doc)


def _end_time(doc: App.Document) -> float:
    from ..cad.objects import find_simulation

    sim = find_simulation(doc)
    return read_value(sim, "EndTime", "s") if sim is not None else 2.0


# ----------------------------------------------------------------------------- widgets
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
        self.unit_label = QtWidgets.QLabel(unit)
        self.unit_label.setMinimumWidth(UNIT_WIDTH)
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


class PreviewPlot:
    """A small matplotlib plot of f(t) (the profile preview)."""

    def __init__(self, name: str) -> None:
        from matplotlib.figure import Figure

        from .plot_dock import figure_canvas_class

        self.figure = Figure(figsize=(3.2, 1.9), dpi=90)
        self.figure.subplots_adjust(left=0.2, bottom=0.24, right=0.97, top=0.95)
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
            self.axes.legend(fontsize=7, loc="best")
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

        coin = _coin()
        self.root = coin.SoAnnotation() if hasattr(coin, "SoAnnotation") else coin.SoSeparator()
        self.switch = coin.SoSwitch()
        self.transform = coin.SoTransform()
        self.root.addChild(self.transform)
        self.root.addChild(_axes_node(length_mm, width=5.0))
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
        _set_transform(self.transform, placement)
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

    def label(self, text: str) -> Any:
        _, _, QtWidgets = qt_modules()
        widget = QtWidgets.QLabel(text)
        widget.setWordWrap(True)
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


# ----------------------------------------------------------------------------- body
class BodyPanel(TaskPanel):
    """Part (picked), material, density, explicit mass, grounded; shows the mass properties."""

    KIND = "Body"

    def __init__(self, doc: App.Document, body: App.DocumentObject | None = None, grounded: bool = False) -> None:
        from ..cad.objects import MATERIALS

        super().__init__(doc, body, "Body: %s" % body.Label if body is not None else "New body")
        _, _, QtWidgets = qt_modules()
        self.part = body.Part if body is not None else None
        self.part_label = self.label("")
        self.part_label.setObjectName("part")
        self.fields.addRow("Part", self.part_label)
        current = body.Material if body is not None else "Steel"
        self.material = self.combo("material", [(m, m) for m in MATERIALS], current)
        self.density = NumberField(
            "density", read_value(body, "Density", "kg/m^3") if body else MATERIALS["Steel"], "kg/m^3", self.update
        )
        self.mass = NumberField("mass", read_value(body, "Mass", "kg") if body else 0.0, "kg", self.update)
        self.grounded = QtWidgets.QCheckBox("Fixed to the ground")
        self.grounded.setObjectName("grounded")
        self.grounded.setChecked(bool(body.Grounded) if body is not None else grounded)
        self.fields.addRow("Material", self.material)
        self.fields.addRow("Density", self.density.widget)
        self.fields.addRow("Mass (0: from density)", self.mass.widget)
        self.fields.addRow("Grounded", self.grounded)
        self.info = self.label("")
        self.info.setObjectName("info")
        self.layout.addWidget(self.info)
        self.layout.addWidget(self.error)
        self.material.currentIndexChanged.connect(self.material_changed)
        if self.creating:
            self.layout.addWidget(self.label("Pick a part (any face, edge or the object in the tree)."))
            self.watch_selection()
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ..cad.objects import find_objects
        from ..cad.picking import pick_part

        known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
        self.part = pick_part(root, sub, known) if sub else root
        self.update()

    def material_changed(self, *args: object) -> None:
        from ..cad.objects import MATERIALS

        density = MATERIALS.get(self.material.currentData())
        if density is not None:
            self.density.set(density)

    def pending(self) -> SimpleNamespace:
        """The body as the panel would write it (for the mass-properties preview)."""
        label = self.obj.Label if self.obj is not None else "new body"
        return SimpleNamespace(Label=label, Part=self.part, Density=self.density.value(), Mass=self.mass.value())

    def update(self, *args: object) -> None:
        from ..cad.objects import body_mass_properties

        self.part_label.setText(self.part.Label if self.part is not None else "(none: pick a part)")
        if self.part is None:
            self.info.setText("")
            return
        try:
            mp = body_mass_properties(self.pending())
        except Exception as exc:
            self.info.setText("")
            self.show_error(str(exc))
            return
        self.show_error("")
        c, inertia = _rounded(mp.cog * 1e3), _rounded(mp.inertia * 1e6)
        self.info.setText(
            "Mass %.6g kg\nCoG (%.4g, %.4g, %.4g) mm\nInertia about the CoG [kg mm^2]:\n"
            "Ixx %.5g  Iyy %.5g  Izz %.5g\nIxy %.5g  Ixz %.5g  Iyz %.5g"
            % (mp.mass, c[0], c[1], c[2], *np.diag(inertia), inertia[0, 1], inertia[0, 2], inertia[1, 2])
        )

    def apply(self) -> App.DocumentObject:
        from ..cad.errors import CadError
        from ..cad.makers import make_body
        from ..cad.objects import MATERIALS

        if self.part is None:
            raise CadError("body: pick a part first")
        material = self.material.currentData()
        density, mass = self.density.value(), self.mass.value()
        if self.creating:
            _ensure_simulation(self.doc)
            body = make_body(self.doc, self.part, density=density, mass=mass, grounded=self.grounded.isChecked())
        else:
            body = self.obj
            body.Part = self.part
            write_value(body, "Density", density, "kg/m^3")
            write_value(body, "Mass", mass, "kg")
            body.Grounded = self.grounded.isChecked()
        if MATERIALS.get(material) == density or material == "Custom":
            body.Material = material  # a named material with another density becomes Custom
        return body


# ----------------------------------------------------------------------------- joint
class JointPanel(TaskPanel):
    """Type, references (picked after opening; when editing, new picks replace the joint's
    sides and frame), flip / offset / rotation with a live preview of the frame in the 3D view."""

    KIND = "Joint"

    def __init__(
        self,
        doc: App.Document,
        joint: App.DocumentObject | None = None,
        jtype: str = "revolute",
        picks: list | None = None,
    ) -> None:
        super().__init__(doc, joint, "Joint: %s" % joint.Label if joint is not None else "New joint")
        _, _, QtWidgets = qt_modules()
        self.picks = list(picks or [])
        self.base = None if joint is None else _copy_placement(joint.Frame)
        current = joint.JointType if joint is not None else jtype
        self.type = self.combo("type", [(name, record.label) for name, record in JOINTS.items()], current)
        self.type.setToolTip(JOINTS[current].tooltip)
        self.fields.addRow("Type", self.type)
        self.refs = [self.label(""), self.label("")]
        for k, ref in enumerate(self.refs):
            ref.setObjectName("reference%d" % (k + 1))
            self.fields.addRow("Reference %d" % (k + 1), ref)
        self.flip = QtWidgets.QCheckBox("Reverse the z axis")
        self.flip.setObjectName("flip")
        self.offset = NumberField("offset", 0.0, "mm", self.update)
        self.rotation = NumberField("rotation", 0.0, "deg", self.update)
        self.fields.addRow("Flip", self.flip)
        self.fields.addRow("Offset along z", self.offset.widget)
        self.fields.addRow("Rotation about z", self.rotation.widget)
        self.info = self.label("")
        self.info.setObjectName("info")
        self.layout.addWidget(self.info)
        self.layout.addWidget(self.error)
        clear = QtWidgets.QPushButton("Clear references" if self.creating else "Keep the joint's references")
        clear.setObjectName("clear")
        clear.clicked.connect(self.clear_picks)
        self.layout.addWidget(clear)
        hint = "one element (joint to the ground) or one element on each of two parts."
        self.layout.addWidget(self.label(("Pick " if self.creating else "To move the joint, pick ") + hint))
        self.watch_selection()
        self.preview = FramePreview(doc, 40.0)
        self.flip.toggled.connect(self.update)
        self.type.currentIndexChanged.connect(self.update)
        self.update()

    def clear_picks(self) -> None:
        self.picks = []
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        if not sub:
            return  # a whole object (e.g. a joint selected in the tree) is no reference
        if (root, sub) not in self.picks:
            self.picks = (self.picks + [(root, sub)])[-2:]
        self.update()

    def joint_type(self) -> str:
        return self.type.currentData()

    def resolved(self) -> tuple[list, App.Placement]:
        """([(part, ElementFrame)], frame before the adjustments) of the picks."""
        from ..cad.errors import CadError
        from ..cad.objects import find_objects
        from ..cad.picking import frame_from_elements, pick_frame

        known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
        resolved = [pick_frame(root, sub, known) for root, sub in self.picks]
        if len(resolved) == 2 and resolved[0][0] == resolved[1][0]:
            raise CadError("both references are on the same part '%s'" % resolved[0][0].Label)
        return resolved, frame_from_elements(self.joint_type(), [f for _, f in resolved], "joint")

    def frame(self) -> App.Placement:
        """The joint frame the panel would write (global, mm)."""
        from ..cad.errors import CadError
        from ..cad.placement import adjusted_frame

        if self.creating and not self.picks:
            raise CadError("joint: pick one or two references")
        base = self.resolved()[1] if self.picks else self.base
        return adjusted_frame(base, self.flip.isChecked(), self.offset.value(), self.rotation.value())

    def update(self, *args: object) -> None:
        self.type.setToolTip(JOINTS[self.joint_type()].tooltip)
        if self.picks or self.creating:
            from ..cad.picking import describe_pick, pick_part

            texts = [describe_pick(pick_part(r, s), s) for r, s in self.picks]
            if len(texts) == 1:
                texts = ["ground"] + texts
        else:
            texts = [self.obj.Reference1 or _side(self.obj.Body1), self.obj.Reference2 or _side(self.obj.Body2)]
        for ref, text in zip(self.refs, texts + ["(pick)"] * (2 - len(texts))):
            ref.setText(text)
        try:
            frame = self.frame()
        except Exception as exc:
            self.preview.show(None)
            self.info.setText("")
            self.show_error(str(exc))
            return
        self.show_error("")
        self.preview.show(frame)
        z = frame.Rotation.multVec(type(frame.Base)(0, 0, 1))
        origin, axis = _rounded(list(frame.Base)), _rounded(list(z), 1e-9)
        self.info.setText("Origin (%.4g, %.4g, %.4g) mm\nz axis (%.4f, %.4f, %.4f)" % (*origin, *axis))

    def apply(self) -> App.DocumentObject:
        from ..cad.makers import check_joint_bodies

        jtype, frame = self.joint_type(), self.frame()
        if self.creating:
            from ..cad.picking import make_joint_from_picks

            _ensure_simulation(self.doc)
            joint = make_joint_from_picks(self.doc, jtype, self.picks)
        else:
            joint = self.obj
            body1, body2, refs = self.sides() if self.picks else (joint.Body1, joint.Body2, None)
            check_joint_bodies(jtype, body1, body2, "joint '%s'" % joint.Label)
            joint.JointType, joint.Body1, joint.Body2 = jtype, body1, body2
            if refs is not None:
                joint.Reference1, joint.Reference2 = refs
        joint.Frame = frame
        return joint

    def sides(self) -> tuple:
        """(Body1 or None for the ground, Body2, (Reference1, Reference2)) of the picks; parts
        that are not bodies yet become bodies (checked first)."""
        from ..cad.makers import check_part, make_body
        from ..cad.objects import body_of_part

        resolved = self.resolved()[0]
        parts = [part for part, _ in resolved]
        for part in parts:
            if body_of_part(self.doc, part) is None:
                check_part(part)
        bodies = [body_of_part(self.doc, part) or make_body(self.doc, part) for part in parts]
        refs = [frame.description for _, frame in resolved]
        if len(bodies) == 1:
            return None, bodies[0], ("ground", refs[0])
        return bodies[0], bodies[1], tuple(refs)

    def cleanup(self) -> None:
        self.preview.remove()


def _side(body: App.DocumentObject | None) -> str:
    return body.Label if body is not None else "ground"


def _copy_placement(placement: App.Placement) -> App.Placement:
    import FreeCAD as App

    return App.Placement(placement)


# ----------------------------------------------------------------------------- profiles
class _ProfilePanel(TaskPanel):
    """A panel with fields checked as you type and a preview plot of the profile(s)."""

    def add_preview(self) -> None:
        self.plot = PreviewPlot("preview")
        self.layout.addWidget(self.plot.canvas)
        self.layout.addWidget(self.error)

    def preview_times(self) -> np.ndarray:
        return np.linspace(0.0, max(_end_time(self.doc), 1e-6), PREVIEW_SAMPLES)


def _profile_values(spec: Any, path: str, times: np.ndarray) -> np.ndarray:
    """f(t) of a profile spec (number, expression or dict) at ``times``; ExpressionError names ``path``."""
    from ..solver.expressions import compile_profile

    return compile_profile(spec, path).series(times)[:, 0]


class DriverPanel(_ProfilePanel):
    """Joint (picked), driver type, profile and its values, checked as you type, with a preview."""

    KIND = "Driver"
    VALUES = (("Rate", "rate", "%s/s"), ("Amplitude", "amplitude", "%s"), ("Frequency", "frequency", "Hz"))

    def __init__(
        self, doc: App.Document, driver: App.DocumentObject | None = None, joint: App.DocumentObject | None = None
    ) -> None:
        super().__init__(doc, driver, "Driver: %s" % driver.Label if driver is not None else "New driver")
        _, _, QtWidgets = qt_modules()
        self.joint = driver.Joint if driver is not None else joint
        self.joint_label = self.label("")
        self.joint_label.setObjectName("joint")
        self.fields.addRow("Joint", self.joint_label)
        dtype = driver.DriverType if driver is not None else "rotational"
        self.type = self.combo("type", [(n, d.label) for n, d in DRIVERS.items()], dtype)
        profile = driver.Profile if driver is not None else "constant_speed"
        names = _enumeration("Driver", "Profile")
        self.profile = self.combo("profile", [(p, p.replace("_", " ")) for p in names], profile)
        self.fields.addRow("Type", self.type)
        self.fields.addRow("Profile", self.profile)
        defaults = {"Rate": 360.0, "Amplitude": 30.0, "Frequency": 1.0}
        self.values = {}
        for prop, name, unit in self.VALUES:
            value = read_value(driver, prop) if driver is not None else defaults[prop]
            self.values[prop] = NumberField(name, value, unit.replace("%s", "deg"), self.update)
            self.fields.addRow(prop, self.values[prop].widget)
        self.phase = NumberField("phase", read_value(driver, "Phase", "deg") if driver else 0.0, "deg", self.update)
        self.fields.addRow("Phase", self.phase.widget)
        self.expression = QtWidgets.QLineEdit(str(driver.Expression) if driver is not None else "0")
        self.expression.setObjectName("expression")
        self.expression.textChanged.connect(self.update)
        self.fields.addRow("f(t) =", self.expression)
        self.add_preview()
        if self.creating:
            self.layout.addWidget(self.label("Pick the joint to drive (in the tree or its frame)."))
            self.watch_selection()
        self.type.currentIndexChanged.connect(self.update)
        self.profile.currentIndexChanged.connect(self.update)
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ..cad.objects import mbd_type

        if mbd_type(root) == "Joint":
            self.joint = root
            self.update()

    def unit(self) -> str:
        return "deg" if self.type.currentData() == "rotational" else "mm"

    def pending(self) -> SimpleNamespace:
        """The driver as the panel would write it (floats in the document's units)."""
        values = {prop: field.value() for prop, field in self.values.items()}
        label = self.obj.Label if self.obj is not None else "new driver"
        return SimpleNamespace(
            Label=label,
            Name="driver",
            Joint=SimpleNamespace(Name="joint"),
            DriverType=self.type.currentData(),
            Profile=self.profile.currentData(),
            Phase=self.phase.value(),
            Expression=self.expression.text(),
            **values,
        )

    def check(self) -> SimpleNamespace:
        """The pending driver after the checks the solver makes; raises naming the problem."""
        from ..cad.document_model import DEG, _driver
        from ..cad.errors import CadError

        pending = self.pending()
        if self.joint is None:
            raise CadError("driver: pick the joint to drive")
        allowed = joints_driven_by(pending.DriverType)
        if self.joint.JointType not in allowed:
            raise CadError(
                "joint '%s' is %s: a %s driver needs a %s joint"
                % (self.joint.Label, self.joint.JointType, pending.DriverType, " or ".join(allowed))
            )
        spec = _driver(pending, {"driver": "driver", "joint": "joint"}, {"joint"}).profile
        scale = DEG if pending.DriverType == "rotational" else 1e-3
        pending.values = _profile_values(
            spec, "Expression" if pending.Profile == "expression" else "profile", self.times
        )
        pending.values = pending.values / scale
        return pending

    def update(self, *args: object) -> None:
        unit, profile = self.unit(), self.profile.currentData()
        for prop, _, pattern in self.VALUES:
            self.values[prop].set_unit(pattern.replace("%s", unit))
        self.expression.setToolTip("f(t) in %s, t in s, e.g. 90*sin(2*pi*t)" % unit)
        self.joint_label.setText(
            "%s (%s)" % (self.joint.Label, self.joint.JointType) if self.joint is not None else "(pick a joint)"
        )
        used = {"constant_speed": ("Rate",), "harmonic": ("Amplitude", "Frequency", "Phase")}.get(profile, ())
        for prop, field in list(self.values.items()) + [("Phase", self.phase)]:
            field.edit.setEnabled(prop in used)
        self.expression.setEnabled(profile == "expression")
        self.times = self.preview_times()
        try:
            pending = self.check()
        except Exception as exc:
            self.show_error(str(exc))
            return
        self.show_error("")
        quantity = "angle" if pending.DriverType == "rotational" else "displacement"
        self.plot.show(self.times, [("f(t)", pending.values)], "%s [%s]" % (quantity, unit))

    def apply(self) -> App.DocumentObject:
        pending = self.check()
        if self.creating:
            from ..cad.makers import make_driver

            driver = make_driver(self.doc, self.joint, pending.Profile, pending.DriverType)
        else:
            driver = self.obj
            driver.Joint, driver.DriverType, driver.Profile = self.joint, pending.DriverType, pending.Profile
        for prop, _, _ in self.VALUES:
            write_value(driver, prop, getattr(pending, prop))
        write_value(driver, "Phase", pending.Phase, "deg")
        driver.Expression = pending.Expression
        return driver


class ForcePanel(_ProfilePanel):
    """Body (picked: a point on a part, or a body), kind, axes, point and the three
    components (numbers or expressions in t) checked as you type, with a preview."""

    KIND = "Force"

    def __init__(
        self, doc: App.Document, force: App.DocumentObject | None = None, body: App.DocumentObject | None = None
    ) -> None:
        super().__init__(doc, force, "Force: %s" % force.Label if force is not None else "New force")
        _, _, QtWidgets = qt_modules()
        self.body = force.Body if force is not None else body
        self.pick = None  # (root, sub) of a picked point on a part, when creating
        self.body_label = self.label("")
        self.body_label.setObjectName("body")
        self.fields.addRow("Body", self.body_label)
        kind = force.Kind if force is not None else "point_force"
        self.kind = self.combo("kind", [(k, k.replace("_", " ")) for k in _enumeration("Force", "Kind")], kind)
        axes = force.Axes if force is not None else "global"
        self.axes = self.combo("axes", [(a, a) for a in _enumeration("Force", "Axes")], axes)
        self.fields.addRow("Kind", self.kind)
        self.fields.addRow("Axes", self.axes)
        point = force.Point if force is not None else (body.CenterOfGravity if body is not None else (0, 0, 0))
        self.point = [NumberField("point_" + c, float(point[k]), "mm", self.update) for k, c in enumerate("xyz")]
        for c, field in zip("xyz", self.point):
            self.fields.addRow("Point %s" % c, field.widget)
        self.components, self.component_units = {}, []
        for c in "XYZ":
            edit = QtWidgets.QLineEdit(str(getattr(force, c)) if force is not None else "0")
            edit.setObjectName(c)
            edit.textChanged.connect(self.update)
            self.components[c] = edit
            row = QtWidgets.QWidget()
            box = QtWidgets.QHBoxLayout(row)
            box.setContentsMargins(0, 0, 0, 0)
            unit = QtWidgets.QLabel()
            unit.setMinimumWidth(UNIT_WIDTH)
            box.addWidget(edit, 1)
            box.addWidget(unit)
            self.component_units.append(unit)
            self.fields.addRow(c, row)
        self.marker = FramePreview(doc, 15.0)
        self.add_preview()
        if self.creating:
            self.layout.addWidget(self.label("Pick the point of application on a part (or a body in the tree)."))
            self.watch_selection()
        self.kind.currentIndexChanged.connect(self.update)
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ..cad.errors import CadError
        from ..cad.objects import body_of_part, find_objects, mbd_type
        from ..cad.picking import pick_frame

        if mbd_type(root) == "Body":
            self.body, self.pick = root, None
            root.recompute()
            origin = root.CenterOfGravity
        elif sub:
            known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
            try:
                part, frame = pick_frame(root, sub, known)
            except CadError as exc:
                self.show_error(str(exc))
                return
            self.body, self.pick, origin = body_of_part(self.doc, part), (root, sub), frame.origin
            if self.body is None:
                self.show_error("part '%s' is not a body yet: make it a body first" % part.Label)
                return
        else:
            return
        for field, value in zip(self.point, origin):
            field.set(float(value))
        self.update()

    def unit(self) -> str:
        return "N" if self.kind.currentData() == "point_force" else "N mm"

    def show_marker(self) -> None:
        """Axes at the point of application (point forces) in the 3D view."""
        import FreeCAD as App

        try:
            point = [field.value() for field in self.point]
        except ValueError:
            point = None
        shown = point is not None and self.kind.currentData() == "point_force"
        self.marker.show(App.Placement(App.Vector(*point), App.Rotation()) if shown else None)

    def cleanup(self) -> None:
        self.marker.remove()

    def check(self) -> dict[str, np.ndarray]:
        """{component: values [N or N mm] at the preview times}; raises naming the component."""
        from ..cad.document_model import _component
        from ..cad.errors import CadError

        if self.body is None:
            raise CadError("force: pick a point on a body's part, or a body")
        [field.value() for field in self.point]
        out = {}
        for c, edit in self.components.items():
            spec = _component(edit.text(), 1.0)
            out[c] = np.full_like(self.times, spec) if isinstance(spec, float) else _profile_values(spec, c, self.times)
        return out

    def update(self, *args: object) -> None:
        unit = self.unit()
        for label in self.component_units:
            label.setText(unit)
        self.show_marker()
        for c, edit in self.components.items():
            edit.setToolTip("%s component [%s]: number or expression in t [s]" % (c, unit))
        for field in self.point:
            field.edit.setEnabled(self.kind.currentData() == "point_force")
        self.body_label.setText(self.body.Label if self.body is not None else "(pick a point or a body)")
        self.times = self.preview_times()
        try:
            values = self.check()
        except Exception as exc:
            self.show_error(str(exc))
            return
        self.show_error("")
        self.plot.show(self.times, list(values.items()), "%s [%s]" % (self.kind.currentText(), unit))

    def apply(self) -> App.DocumentObject:
        import FreeCAD as App

        self.check()
        point = [field.value() for field in self.point]
        texts = [self.components[c].text().strip() or "0" for c in "XYZ"]
        if self.creating:
            from ..cad.makers import make_force

            force = make_force(self.doc, self.body, texts, point, self.kind.currentData(), self.axes.currentData())
        else:
            force = self.obj
            force.Body, force.Kind, force.Axes = self.body, self.kind.currentData(), self.axes.currentData()
            force.Point = App.Vector(*point)
            force.X, force.Y, force.Z = texts
        return force


# ----------------------------------------------------------------------------- spring
class SpringPanel(TaskPanel):
    """Kind, attachment (two picked points on two parts, or a picked joint for a rotational
    spring), stiffness, damping, free length or angle of a spring-damper (units by its kind)."""

    KIND = "Spring"

    def __init__(self, doc: App.Document, spring: App.DocumentObject | None = None) -> None:
        super().__init__(doc, spring, "Spring-damper: %s" % spring.Label if spring is not None else "New spring-damper")
        _, _, QtWidgets = qt_modules()
        self.points: list[tuple] = []  # [(part, global point [mm])] picked when creating
        self.joint = spring.Joint if spring is not None else None
        kind = spring.Kind if spring is not None else "translational"
        self.kind = self.combo("kind", [(k, k) for k in _enumeration("SpringDamper", "Kind")], kind)
        self.kind.setEnabled(self.creating)
        self.fields.addRow("Kind", self.kind)
        self.ends = [self.label(""), self.label("")]
        for k, end in enumerate(self.ends):
            end.setObjectName("end%d" % (k + 1))
            self.fields.addRow("Point %d" % (k + 1), end)
        value = (lambda prop, unit="": read_value(spring, prop, unit)) if spring is not None else None
        self.stiffness = NumberField("stiffness", value("Stiffness") if value else 1.0)
        self.damping = NumberField("damping", value("Damping") if value else 0.0)
        self.fields.addRow("Stiffness", self.stiffness.widget)
        self.fields.addRow("Damping", self.damping.widget)
        self.initial = QtWidgets.QCheckBox("Free length = initial distance")
        self.initial.setObjectName("initial_length")
        self.initial.setChecked(bool(spring.UseInitialLength) if spring is not None else True)
        self.free_length = NumberField("free_length", value("FreeLength", "mm") if value else 0.0, "mm")
        self.free_angle = NumberField("free_angle", value("FreeAngle", "deg") if value else 0.0, "deg")
        self.fields.addRow("", self.initial)
        self.fields.addRow("Free length", self.free_length.widget)
        self.fields.addRow("Free angle (0: initial)", self.free_angle.widget)
        self.layout.addWidget(self.error)
        if self.creating:
            self.layout.addWidget(
                self.label(
                    "Translational: pick a point on each of two parts. Rotational: pick a revolute or "
                    "cylindrical joint in the tree."
                )
            )
            self.watch_selection()
        self.initial.toggled.connect(self.update)
        self.kind.currentIndexChanged.connect(self.update)
        self.markers = [FramePreview(doc, 12.0), FramePreview(doc, 12.0)]
        self.update()

    def rotational(self) -> bool:
        return self.kind.currentData() == "rotational"

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ..cad.objects import find_objects, mbd_type
        from ..cad.picking import pick_frame

        if mbd_type(root) == "Joint":
            self.joint = root
        elif sub:
            known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
            try:
                part, frame = pick_frame(root, sub, known)
            except Exception as exc:
                self.show_error(str(exc))
                return
            self.points = (self.points + [(part, [float(c) for c in frame.origin])])[-2:]
        self.update()

    def end_texts(self) -> list[str]:
        if self.rotational():
            return ["joint '%s'" % self.joint.Label if self.joint is not None else "(pick a joint)", ""]
        if not self.creating:
            spring = self.obj
            pairs = [(spring.Body1, spring.Point1), (spring.Body2, spring.Point2)]
            return ["%s (%.4g, %.4g, %.4g) mm" % (_side(b), *_rounded(list(p))) for b, p in pairs]
        texts = ["%s (%.4g, %.4g, %.4g) mm" % (part.Label, *_rounded(p)) for part, p in self.points]
        return texts + ["(pick a point on a part)"] * (2 - len(texts))

    def update(self, *args: object) -> None:
        self.show_error("")  # an error of the last OK or pick is stale now
        rotational = self.rotational()
        self.stiffness.set_unit("N mm/deg" if rotational else "N/mm")
        self.damping.set_unit("N mm s/deg" if rotational else "N s/mm")
        self.initial.setEnabled(not rotational)
        self.free_length.edit.setEnabled(not rotational and not self.initial.isChecked())
        self.free_angle.edit.setEnabled(rotational)
        for end, text in zip(self.ends, self.end_texts()):
            end.setText(text)
        self.show_markers()

    def end_points(self) -> list:
        """The attachment points [mm] shown in the 3D view (translational springs)."""
        if self.rotational():
            return []
        if self.creating:
            return [p for _, p in self.points]
        return [list(self.obj.Point1), list(self.obj.Point2)]

    def show_markers(self) -> None:
        import FreeCAD as App

        points = self.end_points()
        for k, marker in enumerate(self.markers):
            shown = k < len(points)
            marker.show(App.Placement(App.Vector(*points[k]), App.Rotation()) if shown else None)

    def cleanup(self) -> None:
        for marker in self.markers:
            marker.remove()

    def create(self, stiffness: float, damping: float) -> App.DocumentObject:
        from ..cad.errors import CadError
        from ..cad.makers import check_part, make_body, make_spring_damper
        from ..cad.objects import body_of_part

        _ensure_simulation(self.doc)
        if self.rotational():
            return make_spring_damper(self.doc, None, None, None, None, stiffness, damping, joint=self.joint)
        if len(self.points) != 2:
            raise CadError("spring-damper: pick a point on each of two parts (%d picked)" % len(self.points))
        if self.points[0][0] == self.points[1][0]:
            raise CadError("spring-damper: both points are on the part '%s'" % self.points[0][0].Label)
        for part, _ in self.points:
            check_part(part)
        (b1, p1), (b2, p2) = [(body_of_part(self.doc, part) or make_body(self.doc, part), p) for part, p in self.points]
        return make_spring_damper(self.doc, b1, p1, b2, p2, stiffness, damping)

    def apply(self) -> App.DocumentObject:
        from ..cad.errors import CadError

        stiffness, damping = self.stiffness.value(), self.damping.value()
        label = self.obj.Label if self.obj is not None else "new"
        for name, value in (("stiffness", stiffness), ("damping", damping)):
            if value < 0:
                raise CadError("spring '%s': %s must be >= 0, got %g" % (label, name, value))
        spring = self.create(stiffness, damping) if self.creating else self.obj
        write_value(spring, "Stiffness", stiffness)
        write_value(spring, "Damping", damping)
        if spring.Kind == "rotational":
            write_value(spring, "FreeAngle", self.free_angle.value(), "deg")
        else:
            spring.UseInitialLength = self.initial.isChecked()
            write_value(spring, "FreeLength", self.free_length.value(), "mm")
        return spring


# ----------------------------------------------------------------------------- simulation
SIMULATION_FIELDS = (
    ("EndTime", "End time", "s"),
    ("OutputStep", "Output step", "s"),
    ("Step", "Step", "s"),
    ("RelativeTolerance", "Relative tolerance", ""),
    ("AbsoluteTolerance", "Absolute tolerance", ""),
    ("BaumgarteAlpha", "Baumgarte alpha", "1/s"),
    ("BaumgarteBeta", "Baumgarte beta", "1/s"),
    ("TikhonovEps", "Tikhonov epsilon", ""),
)


class SimulationPanel(TaskPanel):
    """Settings, gravity, a Solve button (applies the settings, then runs), the run's log and status."""

    KIND = "Simulation"

    def __init__(self, doc: App.Document, sim: App.DocumentObject) -> None:
        from ..solver import integrators

        super().__init__(doc, sim, "Simulation: %s" % sim.Label)
        _, _, QtWidgets = qt_modules()
        self.numbers = {}
        for prop, text, unit in SIMULATION_FIELDS:
            self.numbers[prop] = NumberField(prop, read_value(sim, prop, unit), unit)
            self.fields.addRow(text, self.numbers[prop].widget)
        self.integrator = self.combo("integrator", [(n, n) for n in integrators.names()], sim.Integrator)
        self.fields.addRow("Integrator", self.integrator)
        self.gravity = [NumberField("gravity_" + c, float(sim.Gravity[k]), "mm/s^2") for k, c in enumerate("xyz")]
        for c, field in zip("xyz", self.gravity):
            self.fields.addRow("Gravity %s" % c, field.widget)
        self.assemble = QtWidgets.QCheckBox("Close the joints first (assembly)")
        self.assemble.setObjectName("assemble")
        self.assemble.setChecked(bool(sim.Assemble))
        self.free = QtWidgets.QCheckBox("Allow nothing grounded")
        self.free.setObjectName("free_flight")
        self.free.setChecked(bool(sim.AllowFreeFlight))
        self.fields.addRow("", self.assemble)
        self.fields.addRow("", self.free)
        self.layout.addWidget(self.error)
        self.solve_button = QtWidgets.QPushButton("Solve (applies the settings)")
        self.solve_button.setObjectName("solve")
        self.solve_button.clicked.connect(self.solve)
        self.layout.addWidget(self.solve_button)
        self.status = self.label(_status_text(sim))
        self.status.setObjectName("status")
        self.layout.addWidget(self.status)
        self.log = QtWidgets.QPlainTextEdit()
        self.log.setObjectName("log")
        self.log.setReadOnly(True)
        self.log.setMinimumHeight(120)
        self.log.setPlainText("\n".join(sim.ResultsSummary))
        self.layout.addWidget(self.log)

    def apply(self) -> App.DocumentObject:
        import FreeCAD as App

        from ..cad.errors import CadError

        sim = self.obj
        values = {prop: field.value() for prop, field in self.numbers.items()}
        for prop in ("EndTime", "OutputStep", "Step"):
            if values[prop] <= 0:
                raise CadError("simulation '%s': %s must be > 0 s, got %g" % (sim.Label, prop, values[prop]))
        gravity = [field.value() for field in self.gravity]
        for prop, _, unit in SIMULATION_FIELDS:
            write_value(sim, prop, values[prop], unit)
        sim.Integrator = self.integrator.currentData()
        sim.Gravity = App.Vector(*gravity)
        sim.Assemble, sim.AllowFreeFlight = self.assemble.isChecked(), self.free.isChecked()
        return sim

    def solve(self) -> None:
        """Apply the settings (one undoable step), run the Solve worker, show log and status."""
        from ..cad.errors import CadError
        from .solve_commands import run_status, run_text, solve_document

        try:
            with transaction(self.doc, "Edit simulation"):
                self.apply()
                self.doc.recompute()
        except (CadError, ValueError) as exc:
            self.show_error(str(exc))
            return
        self.show_error("")
        self.status.setText("Status: solving...")
        self.solve_button.setEnabled(False)
        try:
            stored, text, error = solve_document(self.doc)
        except Exception as exc:
            stored, text, error = None, str(exc), exc
        finally:
            self.solve_button.setEnabled(True)
        status, warnings = run_status(stored, error)
        self.log.setPlainText(run_text(stored, text, error, warnings))
        self.status.setText("Status: %s" % (status or "failed"))


def _status_text(sim: App.DocumentObject) -> str:
    for line in sim.ResultsSummary:
        if line.strip().startswith("status"):
            return "Status of the last run: %s" % line.split(":", 1)[-1].strip()
    return "Status: not solved yet"


# ----------------------------------------------------------------------------- dispatch
def panel_for(obj: App.DocumentObject) -> TaskPanel | None:
    """The edit panel of an MBD object (None for other objects)."""
    from ..cad.objects import mbd_type

    kind = mbd_type(obj)
    if kind == "Joint":
        return JointPanel(obj.Document, obj)
    if kind == "Body":
        return BodyPanel(obj.Document, obj)
    if kind == "Driver":
        return DriverPanel(obj.Document, obj)
    if kind == "Force":
        return ForcePanel(obj.Document, obj)
    if kind == "SpringDamper":
        return SpringPanel(obj.Document, obj)
    if kind == "Simulation":
        return SimulationPanel(obj.Document, obj)
    return None


def close_dialogs() -> None:
    """Cancel an open panel of ours and close any other task dialog (before a new panel)."""
    import FreeCADGui

    if open_panel() is not None:
        open_panel().reject()
    if FreeCADGui.Control.activeDialog():
        FreeCADGui.Control.closeDialog()


def show(panel: TaskPanel) -> TaskPanel:
    """Show ``panel`` in the task view."""
    import FreeCADGui

    FreeCADGui.Control.showDialog(panel)
    return panel


def edit(obj: App.DocumentObject) -> bool:
    """Open the edit panel of ``obj`` (ViewProvider.setEdit); False if it has none."""
    try:
        panel = panel_for(obj)
    except Exception:
        _open[:] = []  # a panel that failed to build is not open
        raise
    if panel is None:
        return False
    show(panel)
    return True


view_providers.EDIT_HOOK[:] = [edit]  # double-click / setEdit on our objects opens these panels
