"""Body panel: part (picked), material, density, explicit mass, grounded; mass properties shown."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING

import numpy as np

from ..common import qt_modules, record_set, translate
from .base import (
    NumberField,
    TaskPanel,
    ensure_simulation,
    make,
    read_value,
    rounded,
    write_value,
)

if TYPE_CHECKING:
    import FreeCAD as App


class BodyPanel(TaskPanel):
    """Part (picked), material, density, explicit mass, grounded; shows the mass properties."""

    KIND = "Body"

    def __init__(self, doc: App.Document, body: App.DocumentObject | None = None, grounded: bool = False) -> None:
        from ...cad.objects import DENSITY_UNIT, MATERIALS, density_kg_m3

        super().__init__(doc, body, "Body: %s" % body.Label if body is not None else "New body")
        _, _, QtWidgets = qt_modules()
        self.part = body.Part if body is not None else None
        self.part_label = self.label("", "part")
        self.fields.addRow(translate("MBD", "Part"), self.part_label)
        current = body.Material if body is not None else "Steel"
        self.material = self.combo("material", [(m, m) for m in MATERIALS], current)
        self.density = NumberField(
            "density", density_kg_m3(body) if body else MATERIALS["Steel"], DENSITY_UNIT, self.update
        )
        self.mass = NumberField("mass", read_value(body, "Mass", "kg") if body else 0.0, "kg", self.update)
        self.grounded = QtWidgets.QCheckBox(translate("MBD", "Fixed to the ground"))
        self.grounded.setObjectName("grounded")
        self.grounded.setChecked(bool(body.Grounded) if body is not None else grounded)
        self.fields.addRow(translate("MBD", "Material"), self.material)
        self.fields.addRow(translate("MBD", "Density"), self.density.widget)
        self.fields.addRow(translate("MBD", "Mass (0: from density)"), self.mass.widget)
        self.fields.addRow(translate("MBD", "Grounded"), self.grounded)
        self.info = self.label("", "info")
        self.layout.addWidget(self.info)
        self.layout.addWidget(self.error)
        self.material.currentIndexChanged.connect(self.material_changed)
        if self.creating:
            self.layout.addWidget(
                self.label(translate("MBD", "Pick a part (any face, edge or the object in the tree)."))
            )
            self.watch_selection()
        self.update()

    def picked(self, root: App.DocumentObject, sub: str) -> None:
        from ...cad.objects import find_objects
        from ...cad.picking import pick_part

        known = [b.Part for b in find_objects(self.doc, "Body") if b.Part is not None]
        self.part = pick_part(root, sub, known) if sub else root
        self.update()

    def material_changed(self, *args: object) -> None:
        from ...cad.objects import MATERIALS

        density = MATERIALS.get(self.material.currentData())
        if density is not None:
            self.density.set(density)

    def pending(self) -> SimpleNamespace:
        """The body as the panel would write it (for the mass-properties preview): Density and Mass
        in FreeCAD's internal units, as the typed properties hold them (kg/mm^3, kg)."""
        from ...cad.objects import DENSITY_UNIT, unit_scale

        label = self.obj.Label if self.obj is not None else "new body"
        density = self.density.value() * unit_scale(DENSITY_UNIT)
        return SimpleNamespace(Label=label, Part=self.part, Density=density, Mass=self.mass.value())

    def update(self, *args: object) -> None:
        from ...cad.objects import body_mass_properties

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
        c, inertia = rounded(mp.cog * 1e3), rounded(mp.inertia * 1e6)
        self.info.setText(
            translate(
                "MBD",
                "Mass %.6g kg\nCoG (%.4g, %.4g, %.4g) mm\nInertia about the CoG [kg mm^2]:\n"
                "Ixx %.5g  Iyy %.5g  Izz %.5g\nIxy %.5g  Ixz %.5g  Iyz %.5g",
            )
            % (mp.mass, c[0], c[1], c[2], *np.diag(inertia), inertia[0, 1], inertia[0, 2], inertia[1, 2])
        )

    def apply(self) -> App.DocumentObject:
        from ...cad.errors import CadError
        from ...cad.objects import DENSITY_UNIT, MATERIALS, unit_scale

        if self.part is None:
            raise CadError("body: pick a part first")
        material = self.material.currentData()
        density, mass = self.density.value(), self.mass.value()
        if self.creating:
            ensure_simulation(self.doc)
            body = make(
                "make_body", self.doc, self.part, density=density, mass=mass, grounded=self.grounded.isChecked()
            )
        else:
            body = self.obj
            record_set(body, "Part", self.part)
            record_set(body, "Density", density * unit_scale(DENSITY_UNIT))
            write_value(body, "Mass", mass, "kg")
            record_set(body, "Grounded", self.grounded.isChecked())
        if MATERIALS.get(material) == density or material == "Custom":
            record_set(body, "Material", material)  # a named material with another density becomes Custom
        return body
