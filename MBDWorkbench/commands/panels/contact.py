"""Contact panel: two bodies or two faces picked after opening (a face picks its plane, sphere,
cylinder, cone or torus; a body its whole solid), or "all pairs among these bodies" (directly jointed
pairs skipped), whether plane faces count within their edges (BoundedFaces), and the law: stiffness
or Hertz from the materials, restitution, friction (regularised or with stiction)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import QT_TRANSLATE_NOOP, qt_modules, record_set, translate
from .base import NumberField, TaskPanel, ensure_simulation, make, read_value, write_value

if TYPE_CHECKING:
    import FreeCAD as App

# (property, panel label, unit of the number field, Qt object name)
NUMBERS = (
    ("Stiffness", QT_TRANSLATE_NOOP("MBD", "Stiffness"), "N/m^n", "stiffness"),
    ("Exponent", QT_TRANSLATE_NOOP("MBD", "Exponent n"), "", "exponent"),
    ("Restitution", QT_TRANSLATE_NOOP("MBD", "Restitution e"), "", "restitution"),
    ("StaticFriction", QT_TRANSLATE_NOOP("MBD", "mu static"), "", "mu_s"),
    ("KineticFriction", QT_TRANSLATE_NOOP("MBD", "mu kinetic"), "", "mu_k"),
    ("SlipSpeed", QT_TRANSLATE_NOOP("MBD", "Slip speed"), "mm/s", "slip_speed"),
    ("PenetrationTolerance", QT_TRANSLATE_NOOP("MBD", "Overlap tol."), "mm", "penetration_tol"),
    ("Deflection", QT_TRANSLATE_NOOP("MBD", "Deflection"), "mm", "deflection"),
)
ROW_ORDER = ("Stiffness", "Exponent", "Material1", "Material2", "Restitution", "Law", "StaticFriction")
ROW_ORDER += ("KineticFriction", "FrictionLaw", "SlipSpeed", "PenetrationTolerance", "Deflection")
CHOICES = (
    ("Material1", QT_TRANSLATE_NOOP("MBD", "Material 1"), "material1"),
    ("Material2", QT_TRANSLATE_NOOP("MBD", "Material 2"), "material2"),
    ("Law", QT_TRANSLATE_NOOP("MBD", "Law"), "law"),
    ("FrictionLaw", QT_TRANSLATE_NOOP("MBD", "Friction"), "friction_law"),
)
# the FrictionLaw values' texts (docs/contact.md, "Friction")
FRICTION_LAW_TEXTS = {
    "regularised": QT_TRANSLATE_NOOP("MBD", "regularised (creeps)"),
    "stiction": QT_TRANSLATE_NOOP("MBD", "stiction (sticks)"),
}


class ContactPanel(TaskPanel):
    """Create or edit a Contact: its sides (or the bodies of all pairs) and its law."""

    KIND = "Contact"

    def __init__(self, doc: App.Document, contact: App.DocumentObject | None = None, selected: tuple = ()) -> None:
        """``selected``: (root object, subname) picks made before the command (FreeCAD's selection)."""
        from ...cad.contact_objects import ContactProxy

        super().__init__(doc, contact, "Contact: %s" % contact.Label if contact is not None else "New contact")
        _, _, QtWidgets = qt_modules()
        self.sides: list[tuple] = []  # [(part, face)] picked when creating
        self.bodies: list = list(contact.Bodies) if contact is not None else []  # parts or bodies, all pairs
        self.all_pairs = QtWidgets.QCheckBox(translate("MBD", "All pairs among these bodies"))
        self.all_pairs.setObjectName("all_pairs")
        self.all_pairs.setToolTip(translate("MBD", "Every pair of the picked bodies, except pairs joined by a joint"))
        self.all_pairs.setChecked(bool(contact.AllPairs) if contact is not None else False)
        self.all_pairs.setEnabled(self.creating)
        self.fields.addRow(self.all_pairs)
        self.bounded = QtWidgets.QCheckBox(translate("MBD", "Plane faces end at edges"))
        self.bounded.setObjectName("bounded_faces")
        self.bounded.setToolTip(
            translate(
                "MBD",
                "A picked rectangular plane face counts within its edges only (a slot's wall), not as its whole plane",
            )
        )
        self.bounded.setChecked(bool(getattr(contact, "BoundedFaces", False)))
        self.fields.addRow(self.bounded)
        self.ends = [self.label("", "side%d" % k) for k in (1, 2)]
        for k, end in enumerate(self.ends):
            self.fields.addRow(translate("MBD", "Side %d") % (k + 1), end)
        specs = {spec[1]: spec for spec in ContactProxy.properties(None)}
        rows = {}
        self.numbers = {}
        for prop, text, unit, name in NUMBERS:
            value = read_value(contact, prop, unit) if contact is not None else specs[prop][4]  # the property default
            self.numbers[prop] = NumberField(name, value, unit)
            self.numbers[prop].widget.setToolTip(specs[prop][3])
            rows[prop] = (text, self.numbers[prop].widget)
        self.choices = {}
        for prop, text, name in CHOICES:
            items = [
                (v, translate("MBD", FRICTION_LAW_TEXTS[v]) if prop == "FrictionLaw" else v) for v in specs[prop][6]
            ]
            current = getattr(contact, prop, items[0][0]) if contact is not None else items[0][0]
            self.choices[prop] = self.combo(name, items, current)
            self.choices[prop].setToolTip(specs[prop][3])
            rows[prop] = (text, self.choices[prop])
        self.choices["FrictionLaw"].setToolTip(
            translate(
                "MBD",
                "regularised: friction below mu static holds by a slow creep (every integrator). stiction: it "
                "sticks, solved exactly (ODE-form integrators; pairs against a plane, two spheres, a sphere and "
                "a cylinder)",
            )
        )
        for prop in ROW_ORDER:
            self.fields.addRow(translate("MBD", rows[prop][0]), rows[prop][1])
        self.layout.addWidget(self.error)
        self.layout.addWidget(
            self.label(
                translate(
                    "MBD",
                    "Stiffness 0: Hertz from the materials. mu kinetic below 0: equal to mu static. "
                    "Deflection: the mesh of a solid that is not a plane, sphere, box or cylinder.",
                )
            )
        )
        if self.creating:
            self.layout.addWidget(
                self.label(
                    translate(
                        "MBD",
                        "Pick a face or a body on each of two parts (for all pairs: every body) in the 3D view "
                        "or the tree.",
                    )
                )
            )
            for root, sub in selected:
                self.picked(root, sub)
            self.watch_selection()
        self.all_pairs.toggled.connect(self.update)
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        """A pick: a body (or a part) for all pairs; else a side, a face when one was picked."""
        from ...cad.contact_import import face_in_part
        from ...cad.objects import find_objects, mbd_type
        from ...cad.picking import pick_part

        if mbd_type(root) == "Body":
            part, face = root.Part, ""
        elif mbd_type(root):
            return
        else:
            known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
            part = pick_part(root, sub, known)
            try:
                face = face_in_part(root, sub, part) if part is not None else ""
            except Exception as exc:
                self.show_error(str(exc))
                return
        if part is None:
            return
        if part not in self.bodies:
            self.bodies.append(part)
        self.sides = (self.sides + [(part, face)])[-2:]
        self.update()

    def side_texts(self) -> list[str]:
        if self.all_pairs.isChecked():
            names = ", ".join(getattr(b, "Label", "?") for b in self.bodies) or translate("MBD", "(pick the bodies)")
            return [names, ""]
        if not self.creating:
            pairs = [(self.obj.Body1, self.obj.Face1), (self.obj.Body2, self.obj.Face2)]
        else:
            pairs = self.sides
        texts = ["%s %s" % (getattr(b, "Label", "?"), face or translate("MBD", "(solid)")) for b, face in pairs]
        return texts + [translate("MBD", "(pick a face or a body)")] * (2 - len(texts))

    def update(self, *args: object) -> None:
        self.show_error("")
        for end, text in zip(self.ends, self.side_texts()):
            end.setText(text)

    def body_of(self, obj: App.DocumentObject) -> App.DocumentObject:
        """The Body of a picked part (made now when it has none) or the Body itself."""
        from ...cad.makers import check_part
        from ...cad.objects import body_of_part, mbd_type

        if mbd_type(obj) == "Body":
            return obj
        check_part(obj)
        return body_of_part(self.doc, obj) or make("make_body", self.doc, obj)

    def create(self) -> App.DocumentObject:
        from ...cad.errors import CadError

        ensure_simulation(self.doc)
        if self.all_pairs.isChecked():
            if len(self.bodies) < 2:
                raise CadError("contact: pick at least two bodies for all pairs (%d picked)" % len(self.bodies))
            return make("make_contact", self.doc, bodies=[self.body_of(b) for b in self.bodies])
        if len(self.sides) != 2:
            raise CadError("contact: pick a face or a body on each of two parts (%d picked)" % len(self.sides))
        (part1, face1), (part2, face2) = self.sides
        return make("make_contact", self.doc, self.body_of(part1), self.body_of(part2), face1, face2)

    def apply(self) -> App.DocumentObject:
        from ...cad.errors import CadError

        values = {prop: field.value() for prop, field in self.numbers.items()}
        label = self.obj.Label if self.obj is not None else "new"
        if not 0.0 < values["Restitution"] <= 1.0:
            raise CadError("contact '%s': restitution must lie in (0, 1], got %g" % (label, values["Restitution"]))
        for prop in ("Stiffness", "StaticFriction", "SlipSpeed", "PenetrationTolerance", "Deflection"):
            if values[prop] < 0:
                raise CadError("contact '%s': %s must be >= 0, got %g" % (label, prop, values[prop]))
        contact = self.create() if self.creating else self.obj
        for prop, _, unit, _ in NUMBERS:
            write_value(contact, prop, values[prop], unit)
        for prop, box in self.choices.items():
            record_set(contact, prop, box.currentData())
        record_set(contact, "BoundedFaces", self.bounded.isChecked())
        return contact
