"""Joint panel: type, references picked after opening, flip / offset / rotation, live frame preview."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...solver.model.catalog import JOINTS
from ..common import catalog_text, qt_modules, record_call, record_set, translate
from .base import (
    FramePreview,
    NumberField,
    TaskPanel,
    ensure_simulation,
    make,
    rounded,
    side_label,
)

if TYPE_CHECKING:
    import FreeCAD as App


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
        self.type = self.combo("type", [(name, catalog_text(record.label)) for name, record in JOINTS.items()], current)
        self.type.setToolTip(catalog_text(JOINTS[current].tooltip))
        self.fields.addRow(translate("MBD", "Type"), self.type)
        self.refs = [self.label(""), self.label("")]
        for k, ref in enumerate(self.refs):
            ref.setObjectName("reference%d" % (k + 1))
            self.fields.addRow(translate("MBD", "Reference %d") % (k + 1), ref)
        self.flip = QtWidgets.QCheckBox(translate("MBD", "Reverse the z axis"))
        self.flip.setObjectName("flip")
        self.offset = NumberField("offset", 0.0, "mm", self.update)
        self.rotation = NumberField("rotation", 0.0, "deg", self.update)
        self.fields.addRow(translate("MBD", "Flip"), self.flip)
        self.fields.addRow(translate("MBD", "Offset along z"), self.offset.widget)
        self.fields.addRow(translate("MBD", "Rotation about z"), self.rotation.widget)
        self.limits = self._limit_rows(QtWidgets)
        self.friction = self._friction_rows(QtWidgets)
        self.info = self.label("", "info")
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

    def _limit_rows(self, QtWidgets) -> dict:
        """Rows of the joint's limits (a switch and a value in deg or mm each), damping and stop
        contact time (docs/joint-limits.md); {property: widget}."""
        from ...cad.joint_limits import ANGLE, CHOICES, EXTRAS, LIMITS, limit_values

        values = limit_values(self.obj)
        widgets = {}
        for field, switch, prop, ptype in LIMITS:
            box = QtWidgets.QCheckBox(field.replace("_", " "))
            box.setObjectName(switch)
            box.setChecked(values[switch])
            number = NumberField(prop, values[prop], "deg" if ptype == ANGLE else "mm")
            self.fields.addRow(box, number.widget)
            widgets[switch], widgets[prop] = box, number
        for prop, unit in EXTRAS:
            number = NumberField(prop, values[prop], unit)
            self.fields.addRow(prop, number.widget)
            widgets[prop] = number
        for prop, choices in CHOICES.items():  # the stop model (docs/joint-limits.md)
            widgets[prop] = self.combo(prop, [(choice, choice) for choice in choices], values[prop])
            self.fields.addRow(prop, widgets[prop])
        return widgets

    def _friction_rows(self, QtWidgets) -> dict:
        """Rows of the joint's Coulomb friction (a switch, mu_s, mu_k, lengths in mm;
        docs/joint-friction.md); {property: widget}."""
        from ...cad.joint_friction import PANEL, friction_values

        values = friction_values(self.obj)
        box = QtWidgets.QCheckBox(translate("MBD", "Friction"))
        box.setObjectName("EnableFriction")
        box.setChecked(values["EnableFriction"])
        self.fields.addRow(box, QtWidgets.QLabel(translate("MBD", "mu_s, mu_k, lengths")))
        widgets = {"EnableFriction": box}
        for prop, unit in PANEL:
            widgets[prop] = NumberField(prop, values[prop], unit)
            self.fields.addRow(prop, widgets[prop].widget)
        return widgets

    def friction_values(self) -> dict:
        """{property: value} of the friction rows (mm)."""
        return {k: w.isChecked() if hasattr(w, "isChecked") else w.value() for k, w in self.friction.items()}

    def limit_values(self) -> dict:
        """{property: value} of the limit rows (deg, mm, SI; the stop model's name)."""
        return {k: _value(w) for k, w in self.limits.items()}

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
        from ...cad.element_frames import frame_from_elements
        from ...cad.errors import CadError
        from ...cad.objects import find_objects
        from ...cad.picking import pick_frame

        known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
        resolved = [pick_frame(root, sub, known) for root, sub in self.picks]
        if len(resolved) == 2 and resolved[0][0] == resolved[1][0]:
            raise CadError("both references are on the same part '%s'" % resolved[0][0].Label)
        return resolved, frame_from_elements(self.joint_type(), [f for _, f in resolved], "joint")

    def frame(self) -> App.Placement:
        """The joint frame the panel would write (global, mm)."""
        from ...cad.errors import CadError
        from ...cad.placement import adjusted_frame

        if self.creating and not self.picks:
            raise CadError("joint: pick one or two references")
        base = self.resolved()[1] if self.picks else self.base
        return adjusted_frame(base, self.flip.isChecked(), self.offset.value(), self.rotation.value())

    def update(self, *args: object) -> None:
        self.type.setToolTip(catalog_text(JOINTS[self.joint_type()].tooltip))
        if self.picks or self.creating:
            from ...cad.picking import describe_pick, pick_part

            texts = [describe_pick(pick_part(r, s), s) for r, s in self.picks]
            if len(texts) == 1:
                texts = ["ground"] + texts
        else:
            texts = [
                self.obj.Reference1 or side_label(self.obj.Body1),
                self.obj.Reference2 or side_label(self.obj.Body2),
            ]
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
        origin, axis = rounded(list(frame.Base)), rounded(list(z), 1e-9)
        self.info.setText(
            translate("MBD", "Origin (%.4g, %.4g, %.4g) mm\nz axis (%.4f, %.4f, %.4f)") % (*origin, *axis)
        )

    def apply(self) -> App.DocumentObject:
        """Create or change the joint; picks become its references (its frame follows the CAD),
        the flip / offset / rotation its Offset1."""
        from ...cad.joint_friction import write_friction_values
        from ...cad.joint_limits import write_limit_values
        from ...cad.makers import check_joint_bodies

        references = "MBDWorkbench.cad.joint_references"
        jtype, frame = self.joint_type(), self.frame()
        self.limit_values(), self.friction_values()  # a bad number is refused before anything changes
        if self.creating:
            ensure_simulation(self.doc)
            joint = record_call("MBDWorkbench.cad.picking", "make_joint_from_picks", self.doc, jtype, self.picks)
        else:
            joint = self.obj
            body1, body2, refs = self.sides() if self.picks else (joint.Body1, joint.Body2, None)
            check_joint_bodies(jtype, body1, body2, "joint '%s'" % joint.Label)
            for prop, value in (("JointType", jtype), ("Body1", body1), ("Body2", body2)):
                record_set(joint, prop, value)
            if refs is not None:
                record_set(joint, "Reference1", refs[0])
                record_set(joint, "Reference2", refs[1])
                record_call(references, "set_joint_references", joint, self.picks)
        record_call(references, "set_joint_frame", joint, frame)
        write_limit_values(joint, self.limit_values())
        write_friction_values(joint, self.friction_values())
        return joint

    def sides(self) -> tuple:
        """(Body1 or None for the ground, Body2, (Reference1, Reference2)) of the picks; parts
        that are not bodies yet become bodies (checked first)."""
        from ...cad.makers import check_part
        from ...cad.objects import body_of_part

        resolved = self.resolved()[0]
        parts = [part for part, _ in resolved]
        for part in parts:
            if body_of_part(self.doc, part) is None:
                check_part(part)
        bodies = [body_of_part(self.doc, part) or make("make_body", self.doc, part) for part in parts]
        refs = [frame.description for _, frame in resolved]
        if len(bodies) == 1:
            return None, bodies[0], ("ground", refs[0])
        return bodies[0], bodies[1], tuple(refs)

    def cleanup(self) -> None:
        self.preview.remove()


def _copy_placement(placement: App.Placement) -> App.Placement:
    import FreeCAD as App

    return App.Placement(placement)


def _value(widget):
    """A panel row's value: a switch's state, a choice's name or a number."""
    if hasattr(widget, "isChecked"):
        return widget.isChecked()
    return widget.currentData() if hasattr(widget, "currentData") else widget.value()
