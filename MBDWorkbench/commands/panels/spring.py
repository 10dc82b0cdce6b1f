"""Spring-damper panel: two points (or a joint) picked after opening, stiffness, damping, free length or angle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import qt_modules, record_set, translate
from .base import (
    FramePreview,
    NumberField,
    TaskPanel,
    ensure_simulation,
    enumeration,
    make,
    read_value,
    rounded,
    side_label,
    write_value,
)

if TYPE_CHECKING:
    import FreeCAD as App


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
        self.kind = self.combo("kind", [(k, k) for k in enumeration("SpringDamper", "Kind")], kind)
        self.kind.setEnabled(self.creating)
        self.fields.addRow(translate("MBD", "Kind"), self.kind)
        self.ends = [self.label(""), self.label("")]
        for k, end in enumerate(self.ends):
            end.setObjectName("end%d" % (k + 1))
            self.fields.addRow(translate("MBD", "Point %d") % (k + 1), end)
        value = (lambda prop, unit="": read_value(spring, prop, unit)) if spring is not None else None
        self.stiffness = NumberField("stiffness", value("Stiffness") if value else 1.0)
        self.damping = NumberField("damping", value("Damping") if value else 0.0)
        self.fields.addRow(translate("MBD", "Stiffness"), self.stiffness.widget)
        self.fields.addRow(translate("MBD", "Damping"), self.damping.widget)
        self.initial = QtWidgets.QCheckBox(translate("MBD", "Free length = initial distance"))
        self.initial.setObjectName("initial_length")
        self.initial.setChecked(bool(spring.UseInitialLength) if spring is not None else True)
        self.free_length = NumberField("free_length", value("FreeLength", "mm") if value else 0.0, "mm")
        self.free_angle = NumberField("free_angle", value("FreeAngle", "deg") if value else 0.0, "deg")
        self.fields.addRow(self.initial)
        self.fields.addRow(translate("MBD", "Free length"), self.free_length.widget)
        self.fields.addRow(translate("MBD", "Free angle (0: initial)"), self.free_angle.widget)
        self.layout.addWidget(self.error)
        if self.creating:
            self.layout.addWidget(
                self.label(
                    translate(
                        "MBD",
                        "Translational: pick a point on each of two parts. Rotational: pick a revolute or "
                        "cylindrical joint in the tree.",
                    )
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
        from ...cad.objects import find_objects, mbd_type
        from ...cad.picking import pick_frame

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
            return ["%s (%.4g, %.4g, %.4g) mm" % (side_label(b), *rounded(list(p))) for b, p in pairs]
        texts = ["%s (%.4g, %.4g, %.4g) mm" % (part.Label, *rounded(p)) for part, p in self.points]
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
        from ...cad.errors import CadError
        from ...cad.makers import check_part
        from ...cad.objects import body_of_part

        ensure_simulation(self.doc)
        if self.rotational():
            return make("make_spring_damper", self.doc, None, None, None, None, stiffness, damping, joint=self.joint)
        if len(self.points) != 2:
            raise CadError("spring-damper: pick a point on each of two parts (%d picked)" % len(self.points))
        if self.points[0][0] == self.points[1][0]:
            raise CadError("spring-damper: both points are on the part '%s'" % self.points[0][0].Label)
        for part, _ in self.points:
            check_part(part)
        (b1, p1), (b2, p2) = [
            (body_of_part(self.doc, part) or make("make_body", self.doc, part), p) for part, p in self.points
        ]
        return make("make_spring_damper", self.doc, b1, p1, b2, p2, stiffness, damping)

    def apply(self) -> App.DocumentObject:
        from ...cad.errors import CadError

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
            record_set(spring, "UseInitialLength", self.initial.isChecked())
            write_value(spring, "FreeLength", self.free_length.value(), "mm")
        return spring
