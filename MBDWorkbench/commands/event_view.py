"""Events and contacts in Animate: the hit at a rigid stop and the contact forces, drawn in the
3D view only (Coin3D nodes added to the view's scene graph and removed on close: the document is
never changed, as the rest of the animation).

- **Stop impacts** (summary.json's ``stop_events``): for FLASH_SAMPLES samples from the event's
  time on, the parts of the joint's two bodies flash: a red outline around each part's box, and
  the joint's name with the impact speed.
- **Contact forces** (contacts.csv): while a pair is in contact (normal force > 0), an arrow at its
  contact point along the force on body_a, ``scale`` [mm/N] long per newton (a panel setting,
  by default the typical force in contact drawn at a quarter of the motion's size, the largest at
  most that size: report/contacts.arrow_scale)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .common import translate
from .free_body import ArrowNode

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults

FLASH_SAMPLES = 4  # samples a stop impact stays shown
FLASH_COLOUR = (0.95, 0.1, 0.1)


def contact_pairs(results: StoredResults) -> list[str]:
    """The contact pairs of contacts.csv (none: an empty list)."""
    from ..report.contacts import pair_names

    return pair_names(results)


def contact_forces(results: StoredResults, pair: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(force on body_a [N] (K, 3), contact point [m] (K, 3), normal force [N] (K,)) of a pair."""
    from ..solver.results.contacts import contact_headers
    from ..solver.results.files import CONTACTS

    h = contact_headers(pair)
    col = lambda k: results.col(CONTACTS, h[k])  # noqa: E731
    return np.column_stack([col(0), col(1), col(2)]), np.column_stack([col(6), col(7), col(8)]), col(3)


def impact_samples(results: StoredResults) -> dict[int, list[dict]]:
    """{sample index: the stop impacts shown there}: each impact from the first sample at or after
    its time, for FLASH_SAMPLES samples."""
    out: dict[int, list[dict]] = {}
    t = np.asarray(results.t)
    for e in results.summary.get("stop_events") or []:
        if e.get("kind") != "impact":
            continue
        first = int(np.searchsorted(t, float(e["t"]) - 1e-12))
        for k in range(first, min(first + FLASH_SAMPLES, len(t))):
            out.setdefault(k, []).append(e)
    return out


class EventView:
    """The 'Events and contacts' group of the Animate panel (none for ``QtWidgets`` None: the
    report's frames) and its 3D nodes."""

    def __init__(self, doc: App.Document, results: StoredResults, QtWidgets: Any, size_mm: float) -> None:
        self.doc, self.results = doc, results
        self.pairs = contact_pairs(results)
        self.forces = {p: contact_forces(results, p) for p in self.pairs}
        self.impacts = impact_samples(results)
        self.joint_parts = self._joint_parts()
        self.boxes: dict[str, Any] = {}
        self.size_mm = max(size_mm, 1.0)
        from ..report.contacts import arrow_scale

        self.default_scale = arrow_scale([F for F, _, _ in self.forces.values()], self.size_mm) or 1.0
        self.arrows: ArrowNode | None = None
        self.flash: Any = None
        self.active = bool(self.pairs or self.impacts)
        self.group = self._build(QtWidgets) if self.active and QtWidgets is not None else None
        self.index, self.shown_impacts = 0, []

    def _build(self, QtWidgets: Any) -> Any:
        group = QtWidgets.QGroupBox(translate("MBD", "Events and contacts"))
        group.setObjectName("events")
        form = QtWidgets.QFormLayout(group)
        self.scale_box = QtWidgets.QDoubleSpinBox()
        self.scale_box.setObjectName("contact_scale")
        self.scale_box.setDecimals(6)
        self.scale_box.setRange(1e-6, 1e6)
        self.scale_box.setValue(self.default_scale)
        self.scale_box.setSuffix(" mm/N")
        self.scale_box.setToolTip(translate("MBD", "Length of the contact force arrows per newton"))
        self.scale_box.valueChanged.connect(lambda _: self.show(self.index))
        form.addRow(translate("MBD", "Contact force scale"), self.scale_box)
        self.note = QtWidgets.QLabel()
        self.note.setObjectName("event_note")
        self.note.setWordWrap(True)
        form.addRow(self.note)
        self.note.setText(
            translate("MBD", "Stop impacts: %d (their joint's parts flash). Contact pairs: %d (force arrows).")
            % (
                sum(1 for e in self.results.summary.get("stop_events") or [] if e.get("kind") == "impact"),
                len(self.pairs),
            )
        )
        if not self.pairs:
            self.scale_box.setEnabled(False)
        return group

    @property
    def scale(self) -> float:
        """Arrow length per newton [mm/N] (the panel's setting, or the default without a panel)."""
        return float(self.scale_box.value()) if self.group is not None else self.default_scale

    def _joint_parts(self) -> dict[str, list[str]]:
        """{joint: the document parts of its bodies (those still in the document with a shape)}."""
        model = getattr(self.results, "model", None) or {}
        bodies = self.results.mapping.get("bodies", {})
        out = {}
        for j in model.get("joints", []):
            names = [j.get("body_i"), j.get("body_j")]
            parts = [bodies[n]["part"] for n in names if n in bodies and bodies[n].get("part")]
            out[j["name"]] = [p for p in parts if getattr(self.doc.getObject(p), "Shape", None) is not None]
        return out

    # ------------------------------------------------------------------ one sample
    def show(self, k: int, since: float | None = None) -> None:
        """Draw sample ``k``'s contact arrows and stop flashes: the impacts of the FLASH_SAMPLES
        samples before, or (``since`` [s], sparse frames) those after ``since`` up to sample k."""
        self.index = int(k)
        if not self.active:
            return
        if since is None:
            self.shown_impacts = self.impacts.get(self.index, [])
        else:
            t = float(self.results.t[self.index])
            every = {id(e): e for events in self.impacts.values() for e in events}.values()
            self.shown_impacts = [e for e in every if since < float(e["t"]) <= t + 1e-12]
        self._show_arrows(self.index)
        self._show_flash(self.index)

    def contact_arrows(self, k: int) -> list:
        """The arrows of sample k: one per pair in contact, at its contact point along the force."""
        from ..loads.diagram import Arrow

        out = []
        for pair, (F, p, Fn) in self.forces.items():
            if Fn[k] > 0 and np.any(F[k]):
                vector = F[k] * self.scale * 1e-3  # [m]
                out.append(Arrow(pair, "contact", False, p[k].copy(), vector, F[k].copy()))
        return out

    def _show_arrows(self, k: int) -> None:
        if not self.pairs:
            return
        if self.arrows is None:
            self.arrows = ArrowNode(self.doc)
            self.arrows.switch.setName("MBD_ContactForces")
        self.arrows.draw(self.contact_arrows(k), 0.1 * self.size_mm, labels=True)

    def arrow_lengths_mm(self) -> list[float]:
        """The drawn arrows' lengths [mm] (shaft plus head, read from the Coin nodes)."""
        if self.arrows is None:
            return []
        out = []
        for i in range(self.arrows.root.getNumChildren()):
            arrow = self.arrows.root.getChild(i)
            shaft, head = arrow.getChild(2).getChild(1), arrow.getChild(3).getChild(1)
            out.append(float(shaft.height.getValue() + head.height.getValue()))
        return out

    def flashed(self) -> list[str]:
        """The names of the joints flashing at the shown sample."""
        return [e["joint"] for e in self.shown_impacts]

    def _show_flash(self, k: int) -> None:
        from pivy import coin

        if self.flash is None:
            self.flash = ArrowNode(self.doc)  # its root: a node of the view drawn over the geometry
            self.flash.switch.setName("MBD_StopImpacts")
        self.flash.root.removeAllChildren()
        placements = None
        for e in self.shown_impacts:
            placements = placements or self.results.part_placements(k)
            for n, part in enumerate(self.joint_parts.get(e["joint"], [])):
                unit = "rad/s" if e.get("coordinate") == "angle" else "m/s"
                speed = abs(float(e["impact_speed"]))
                text = translate("MBD", "%s: impact at %.3g %s") % (e["joint"], speed, unit)
                self.flash.root.addChild(self._outline(coin, part, placements, text if n == 0 else None))

    def _outline(self, coin: Any, part: str, placements: dict, text: str | None) -> Any:
        """A red box outline around a part at its shown placement, with ``text`` at a corner."""
        from ..cad.document_model import global_placement

        obj = self.doc.getObject(part)
        box = self._local_box(obj)
        plc = placements.get(part) or global_placement(obj)
        sep, move, material, style = coin.SoSeparator(), coin.SoTransform(), coin.SoMaterial(), coin.SoDrawStyle()
        move.translation.setValue(plc.Base.x, plc.Base.y, plc.Base.z)
        move.rotation.setValue(*plc.Rotation.Q)
        material.diffuseColor = material.emissiveColor = FLASH_COLOUR
        style.style, style.lineWidth = coin.SoDrawStyle.LINES, 3.0
        center, cube = coin.SoTranslation(), coin.SoCube()
        center.translation.setValue(box.Center.x, box.Center.y, box.Center.z)
        cube.width, cube.height, cube.depth = (max(x, 1e-3) * 1.08 for x in (box.XLength, box.YLength, box.ZLength))
        for node in (move, material, style, center, cube):
            sep.addChild(node)
        if text:
            corner, label = coin.SoTranslation(), coin.SoText2()
            corner.translation.setValue(box.XLength / 2, box.YLength / 2, box.ZLength / 2)
            label.string.setValue(text)
            sep.addChild(corner)
            sep.addChild(label)
        return sep

    def _local_box(self, obj: App.DocumentObject) -> Any:
        if obj.Name not in self.boxes:
            import FreeCAD

            bare = obj.Shape.copy()
            bare.Placement = FreeCAD.Placement()
            self.boxes[obj.Name] = bare.BoundBox
        return self.boxes[obj.Name]

    def close(self) -> None:
        """Remove the 3D nodes (idempotent)."""
        for node in (self.arrows, self.flash):
            if node is not None:
                node.remove()
        self.arrows = self.flash = None
