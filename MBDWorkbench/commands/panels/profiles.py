"""Driver and Force panels: profiles checked as you type with the solver's compiler, preview plot."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from ...solver.model.catalog import COORDINATES, DRIVERS, joints_driven_by
from ..common import catalog_text, qt_modules, record_set, translate
from .base import (
    PREVIEW_SAMPLES,
    UNIT_WIDTH,
    FramePreview,
    NumberField,
    PreviewPlot,
    TaskPanel,
    end_time,
    enumeration,
    make,
    read_value,
    write_value,
)

if TYPE_CHECKING:
    import FreeCAD as App


class _ProfilePanel(TaskPanel):
    """A panel with fields checked as you type and a preview plot of the profile(s)."""

    def add_preview(self) -> None:
        self.plot = PreviewPlot("preview")
        self.layout.addWidget(self.plot.canvas)
        self.layout.addWidget(self.error)

    def preview_times(self) -> np.ndarray:
        return np.linspace(0.0, max(end_time(self.doc), 1e-6), PREVIEW_SAMPLES)


def _profile_values(spec: Any, path: str, times: np.ndarray) -> np.ndarray:
    """f(t) of a profile spec (number, expression or dict) at ``times``; ExpressionError names ``path``."""
    from ...solver.model.profiles import compile_profile

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
        self.joint_label = self.label("", "joint")
        self.fields.addRow(translate("MBD", "Joint"), self.joint_label)
        dtype = driver.DriverType if driver is not None else "rotational"
        self.type = self.combo("type", [(n, catalog_text(d.label)) for n, d in DRIVERS.items()], dtype)
        profile = driver.Profile if driver is not None else "constant_speed"
        names = enumeration("Driver", "Profile")
        self.profile = self.combo("profile", [(p, p.replace("_", " ")) for p in names], profile)
        self.fields.addRow(translate("MBD", "Type"), self.type)
        self.fields.addRow(translate("MBD", "Profile"), self.profile)
        defaults = {"Rate": 360.0, "Amplitude": 30.0, "Frequency": 1.0}
        self.values = {}
        for prop, name, unit in self.VALUES:
            unit = unit.replace("%s", self.unit_of(dtype))
            value = read_value(driver, prop, unit) if driver is not None else defaults[prop]
            self.values[prop] = NumberField(name, value, unit, self.update)
            self.fields.addRow(prop, self.values[prop].widget)
        self.phase = NumberField("phase", read_value(driver, "Phase", "deg") if driver else 0.0, "deg", self.update)
        self.fields.addRow(translate("MBD", "Phase"), self.phase.widget)
        self.expression = QtWidgets.QLineEdit(str(driver.Expression) if driver is not None else "0")
        self.expression.setObjectName("expression")
        self.expression.textChanged.connect(self.update)
        self.fields.addRow(translate("MBD", "f(t) ="), self.expression)
        self.add_preview()
        if self.creating:
            self.layout.addWidget(self.label(translate("MBD", "Pick the joint to drive (in the tree or its frame).")))
            self.watch_selection()
        self.type.currentIndexChanged.connect(self.update)
        self.profile.currentIndexChanged.connect(self.update)
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ...cad.objects import mbd_type

        if mbd_type(root) == "Joint":
            self.joint = root
            self.update()

    @staticmethod
    def unit_of(driver_type: str) -> str:
        """Unit of a driver's value: deg (rotational) or mm (linear)."""
        from ...cad.force_fields import driver_unit

        return driver_unit(driver_type)[0]

    def unit(self) -> str:
        return self.unit_of(self.type.currentData())

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
        from ...cad.document_model import solver_driver
        from ...cad.errors import CadError
        from ...cad.force_fields import driver_unit

        pending = self.pending()
        if self.joint is None:
            raise CadError("driver: pick the joint to drive")
        allowed = joints_driven_by(pending.DriverType)
        if self.joint.JointType not in allowed:
            raise CadError(
                "joint '%s' is %s: a %s driver needs a %s joint"
                % (self.joint.Label, self.joint.JointType, pending.DriverType, " or ".join(allowed))
            )
        spec = solver_driver(pending, {"driver": "driver", "joint": "joint"}, {"joint"}).profile
        scale = driver_unit(pending.DriverType)[1]
        pending.values = _profile_values(
            spec, "Expression" if pending.Profile == "expression" else "profile", self.times
        )
        pending.values = pending.values / scale
        return pending

    def update(self, *args: object) -> None:
        unit, profile = self.unit(), self.profile.currentData()
        for prop, _, pattern in self.VALUES:
            self.values[prop].set_unit(pattern.replace("%s", unit))
        self.expression.setToolTip(translate("MBD", "f(t) in %s, t in s, e.g. 90*sin(2*pi*t)") % unit)
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
        quantity = next(c.name for c in COORDINATES.values() if c.driver == pending.DriverType)
        self.plot.show(self.times, [("f(t)", pending.values)], "%s [%s]" % (quantity, unit))

    def apply(self) -> App.DocumentObject:
        pending = self.check()
        if self.creating:
            driver = make("make_driver", self.doc, self.joint, pending.Profile, pending.DriverType)
        else:
            driver = self.obj
            for prop in ("Joint", "DriverType", "Profile"):
                record_set(driver, prop, self.joint if prop == "Joint" else getattr(pending, prop))
        for prop, field in self.values.items():
            write_value(driver, prop, getattr(pending, prop), field.unit)
        write_value(driver, "Phase", pending.Phase, "deg")
        record_set(driver, "Expression", pending.Expression)
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
        self.body_label = self.label("", "body")
        self.fields.addRow(translate("MBD", "Body"), self.body_label)
        kind = force.Kind if force is not None else "point_force"
        self.kind = self.combo("kind", [(k, k.replace("_", " ")) for k in enumeration("Force", "Kind")], kind)
        axes = force.Axes if force is not None else "global"
        self.axes = self.combo("axes", [(a, a) for a in enumeration("Force", "Axes")], axes)
        self.fields.addRow(translate("MBD", "Kind"), self.kind)
        self.fields.addRow(translate("MBD", "Axes"), self.axes)
        point = force.Point if force is not None else (body.CenterOfGravity if body is not None else (0, 0, 0))
        self.point = [NumberField("point_" + c, float(point[k]), "mm", self.update) for k, c in enumerate("xyz")]
        for c, field in zip("xyz", self.point):
            self.fields.addRow(translate("MBD", "Point %s") % c, field.widget)
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
            self.layout.addWidget(
                self.label(translate("MBD", "Pick the point of application on a part (or a body in the tree)."))
            )
            self.watch_selection()
        self.kind.currentIndexChanged.connect(self.update)
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ...cad.errors import CadError
        from ...cad.objects import body_of_part, find_objects, mbd_type
        from ...cad.picking import pick_frame

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
                self.show_error(translate("MBD", "part '%s' is not a body yet: make it a body first") % part.Label)
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
        from ...cad.document_model import force_component
        from ...cad.errors import CadError

        if self.body is None:
            raise CadError("force: pick a point on a body's part, or a body")
        [field.value() for field in self.point]
        out = {}
        for c, edit in self.components.items():
            spec = force_component(edit.text(), 1.0)
            out[c] = np.full_like(self.times, spec) if isinstance(spec, float) else _profile_values(spec, c, self.times)
        return out

    def update(self, *args: object) -> None:
        unit = self.unit()
        for label in self.component_units:
            label.setText(unit)
        self.show_marker()
        for c, edit in self.components.items():
            edit.setToolTip(translate("MBD", "%s component [%s]: number or expression in t [s]") % (c, unit))
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
            return make(
                "make_force", self.doc, self.body, texts, point, self.kind.currentData(), self.axes.currentData()
            )
        force = self.obj
        values = {"Body": self.body, "Kind": self.kind.currentData(), "Axes": self.axes.currentData()}
        values.update(Point=App.Vector(*point), X=texts[0], Y=texts[1], Z=texts[2])
        for prop, value in values.items():
            record_set(force, prop, value)
        return force
