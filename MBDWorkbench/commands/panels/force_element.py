"""The task panel of a ForceElement, built from its catalogue record (catalog.FORCES): one row
per field, by kind: a body or joint (combo; a pick in the tree or 3D view fills the next one),
a point [mm], a number with its unit, three profiles (numbers or expressions in t), a frame.
An optional field (absent: its default) has a check box saying whether it is given."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..common import catalog_text, qt_modules, translate
from .base import NumberField, TaskPanel, make

if TYPE_CHECKING:
    import FreeCAD as App

    from ...solver.model.catalog import ForceField

GROUND = ""  # combo data of the ground


def choices(doc: App.Document, spec: ForceField) -> list[tuple[str, str]]:
    """(object name, label) items a body or joint field may name (with the ground where allowed)."""
    from ...cad.objects import find_objects
    from ...solver.model.catalog import BODY_KINDS, joint_types_for

    if spec.kind in BODY_KINDS:
        items = [(GROUND, "ground")] if spec.kind != "moving_body" else []
        return items + [(b.Name, b.Label) for b in find_objects(doc, "Body") if not b.Grounded]
    allowed = joint_types_for(spec.kind)
    return [(j.Name, "%s (%s)" % (j.Label, j.JointType)) for j in find_objects(doc, "Joint") if j.JointType in allowed]


class FieldRow:
    """The editor of one field: ``widget`` for the form, ``value()`` in FreeCAD's units
    (force_fields.field_unit; None: an unset optional field), ``set(value)``."""

    def __init__(self, panel: ForceElementPanel, spec: ForceField, value: Any) -> None:
        from ...cad.force_fields import FRAMES, field_unit, optional
        from ...solver.model.catalog import BODY_KINDS, JOINT_KINDS, NUMBER_KINDS

        _, _, QtWidgets = qt_modules()
        self.spec, self.doc = spec, panel.doc
        self.widget = QtWidgets.QWidget()
        box = QtWidgets.QHBoxLayout(self.widget)
        box.setContentsMargins(0, 0, 0, 0)
        unit = field_unit(spec)[0]
        self.links = spec.kind in BODY_KINDS + JOINT_KINDS
        self.check = None
        if optional(spec):
            self.check = QtWidgets.QCheckBox()
            self.check.setObjectName("set_" + spec.name)
            self.check.setToolTip(translate("MBD", "given (unchecked: %s)") % (spec.absent or "the default"))
            self.check.setChecked(value is not None)
            box.addWidget(self.check)
        if self.links:
            current = value.Name if value is not None else GROUND
            self.edits = [panel.combo(spec.name, choices(panel.doc, spec), current)]
        elif spec.kind == "frame":
            self.edits = [panel.combo(spec.name, [(f, f) for f in FRAMES], value or "global")]
        elif spec.kind in NUMBER_KINDS:
            self.edits = [NumberField(spec.name, 0.0 if value is None else value, unit)]
        elif spec.kind == "point":
            value = value if value is not None else (0.0, 0.0, 0.0)
            self.edits = [NumberField("%s_%s" % (spec.name, c), float(value[k]), unit) for k, c in enumerate("xyz")]
        else:  # profiles3
            self.edits = []
            for c, text in zip("xyz", value or ("0", "0", "0")):
                edit = QtWidgets.QLineEdit(str(text))
                edit.setObjectName("%s_%s" % (spec.name, c))
                edit.setToolTip(translate("MBD", "%s component [%s]: number or expression in t [s]") % (c, spec.unit))
                self.edits.append(edit)
        for edit in self.edits:
            box.addWidget(getattr(edit, "widget", edit), 1)
        if spec.kind in ("profiles3",) and unit:
            box.addWidget(QtWidgets.QLabel(unit))
        self.widget.setToolTip(catalog_text(spec.doc))

    def value(self) -> Any:
        from ...cad.document_model import force_component

        if self.check is not None and not self.check.isChecked():
            return None
        if self.links:
            name = self.edits[0].currentData()
            return self.doc.getObject(name) if name else None
        if self.spec.kind == "frame":
            return self.edits[0].currentData()
        if self.spec.kind == "profiles3":
            texts = [e.text().strip() or "0" for e in self.edits]
            for text in texts:
                force_component(text, 1.0)
            return texts
        values = [e.value() for e in self.edits]
        return values if self.spec.kind == "point" else values[0]

    def pick(self, obj: App.DocumentObject) -> bool:
        """Take a picked Body/Joint if this row accepts it; True if it did."""
        if not self.links:
            return False
        index = self.edits[0].findData(obj.Name)
        if index < 0:
            return False
        self.edits[0].setCurrentIndex(index)
        return True


class ForceElementPanel(TaskPanel):
    """Create or edit a ForceElement of catalogue type ``ftype`` (fields from its record)."""

    KIND = "ForceElement"

    def __init__(
        self, doc: App.Document, ftype: str, force: App.DocumentObject | None = None, selected: tuple = ()
    ) -> None:
        from ...cad.force_fields import read_field
        from ...solver.model.catalog import FORCES

        self.record = FORCES[ftype]
        name = catalog_text(self.record.label) or ftype
        super().__init__(doc, force, "%s: %s" % (name, force.Label) if force is not None else name)
        self.layout.insertWidget(0, self.label(catalog_text(self.record.tooltip), "tooltip"))
        self.rows, self.next_link = [], 0
        for spec in self.record.fields:
            row = FieldRow(self, spec, read_field(force, spec) if force is not None else spec.value_when_absent)
            self.rows.append(row)
            self.fields.addRow(catalog_text(spec.name.replace("_", " ")), row.widget)
        for obj in selected:
            self.picked(obj, "")
        self.layout.addWidget(self.error)
        if self.creating:
            self.layout.addWidget(
                self.label(
                    translate("MBD", "Pick the bodies or joints in the tree or the 3D view, or choose them above.")
                )
            )
            self.watch_selection()

    def title(self) -> str:
        text = translate("MBD", "Create %s") if self.creating else translate("MBD", "Edit %s")
        return text % (catalog_text(self.record.label) or self.record.name).lower()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        """A picked Body or Joint fills the first row that takes it (a part: its body)."""
        from ...cad.objects import body_of_part, mbd_type

        obj = root if mbd_type(root) else body_of_part(self.doc, root)
        if obj is None:
            return
        links = [r for r in self.rows if r.links]
        for k in range(len(links)):
            row = links[(self.next_link + k) % len(links)]
            if row.pick(obj):
                self.next_link = (self.next_link + k + 1) % len(links)
                return

    def values(self) -> dict[str, Any]:
        """{field: value} in FreeCAD's units; ValueError/CadError naming a bad field."""
        return {row.spec.name: row.value() for row in self.rows}

    def apply(self) -> App.DocumentObject:
        from ...cad.force_fields import set_field

        values = self.values()
        if self.creating:
            return make("make_force_element", self.doc, self.record.name, **values)
        for row in self.rows:
            set_field(self.obj, row.spec, values[row.spec.name])
        return self.obj
