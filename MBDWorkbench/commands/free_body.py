"""The free-body diagram in Animate: pick a body (in the panel's list, the 3D view or the tree)
and see an arrow for every load on it at the shown instant, with their values in a table.

The loads are the body's load set (:mod:`MBDWorkbench.loads`: joint reactions, driver efforts,
springs, dampers, applied forces and torques, gravity, d'Alembert force and moment), evaluated
again from the stored states (:class:`~MBDWorkbench.loads.replay.ReplayedRun`), drawn by
:mod:`MBDWorkbench.loads.diagram`'s scale rule (fixed for the body over the run, so the arrows
grow and shrink with the loads). The arrows live in a Coin3D node added to the 3D view's scene
graph, not in the document, and removed when Animate closes: the document is never changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..loads.diagram import COLOURS, MIN_LENGTH, TABLE_HEADERS, diagram_arrows, diagram_scale, table_rows
from .common import translate

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults
    from ..loads.diagram import Arrow

SCALE_SAMPLES = 60  # samples (evenly spread, plus the largest joint load) the arrow scale is taken from
SHAFT, HEAD = 0.02, 0.12  # shaft radius and head length as fractions of the reference length
NONE = "(none)"


class ArrowNode:
    """Coin3D arrows drawn on top of the geometry in the active 3D view of ``doc`` (a node of
    the view's scene graph, not of the document)."""

    def __init__(self, doc: App.Document) -> None:
        import FreeCADGui
        from pivy import coin

        self.coin = coin
        self.switch = coin.SoSwitch()
        self.switch.setName("MBD_FreeBodyDiagram")
        self.root = coin.SoAnnotation() if hasattr(coin, "SoAnnotation") else coin.SoSeparator()
        self.switch.addChild(self.root)
        self.switch.whichChild = 0
        view = FreeCADGui.getDocument(doc.Name).activeView()
        self.graph = view.getSceneGraph() if hasattr(view, "getSceneGraph") else None
        if self.graph is not None:
            self.graph.addChild(self.switch)
        self.arrows: list[Arrow] = []

    def draw(self, arrows: list[Arrow], length_mm: float, labels: bool = False) -> None:
        """Replace the arrows; ``length_mm`` sets their thickness (reference length [mm]);
        ``labels``: each arrow's value as text at its tip."""
        self.root.removeAllChildren()
        self.arrows = list(arrows)
        for arrow in arrows:
            node = self._arrow(arrow, length_mm)
            if labels:
                node.addChild(self._label(arrow))
            self.root.addChild(node)

    def _label(self, arrow: Arrow) -> Any:
        """'name 12.3 N' at the arrow's tip (in the arrow's frame: along its +y)."""
        coin = self.coin
        sep, move, text = coin.SoSeparator(), coin.SoTranslation(), coin.SoText2()
        colour, font = coin.SoBaseColor(), coin.SoFont()
        colour.rgb = tuple(0.35 + 0.65 * c for c in COLOURS.get(arrow.kind, (0.3, 0.3, 0.3)))  # light on the view
        font.size = 14
        move.translation.setValue(0, float(np.linalg.norm(arrow.vector)) * 1e3, 0)
        value = "%s %.3g %s" % (arrow.name, float(np.linalg.norm(arrow.value)), arrow.unit)
        text.string.setValues(0, 2, ["", value] if arrow.moment else [value, ""])  # a moment's a line lower
        for node in (colour, font, move, text):
            sep.addChild(node)
        return sep

    def labels(self) -> list[str]:
        """The texts shown at the arrows' tips (what the GUI test reads)."""
        out = []
        for i in range(self.root.getNumChildren()):
            arrow = self.root.getChild(i)
            last = arrow.getChild(arrow.getNumChildren() - 1)
            text = last.getChild(last.getNumChildren() - 1) if last.getNumChildren() else None
            if text is not None and text.isOfType(self.coin.SoText2.getClassTypeId()):
                out.append("".join(text.string.getValues()))
        return out

    def _arrow(self, arrow: Arrow, length_mm: float) -> Any:
        coin = self.coin
        sep = coin.SoSeparator()
        material = coin.SoMaterial()
        material.diffuseColor = material.emissiveColor = COLOURS.get(arrow.kind, (0.3, 0.3, 0.3))
        sep.addChild(material)
        vec = np.asarray(arrow.vector, float) * 1e3
        size = float(np.linalg.norm(vec))
        transform = coin.SoTransform()
        transform.translation.setValue(*(np.asarray(arrow.tail, float) * 1e3))
        transform.rotation.setValue(coin.SbRotation(coin.SbVec3f(0, 1, 0), coin.SbVec3f(*(vec / size))))
        sep.addChild(transform)
        radius = SHAFT * length_mm
        heads = 2 if arrow.moment else 1
        head = min(HEAD * length_mm, 0.8 * size / heads)
        shaft = max(size - heads * head, 1e-6)
        sep.addChild(self._piece(coin.SoCylinder(), (0, shaft / 2, 0), radius=radius, height=shaft))
        for h in range(heads):  # a moment: two heads, one behind the other
            tip = size - h * 0.8 * head
            sep.addChild(self._piece(coin.SoCone(), (0, tip - head / 2, 0), bottomRadius=2.5 * radius, height=head))
        return sep

    def _piece(self, shape: Any, offset: tuple, **fields: float) -> Any:
        sep = self.coin.SoSeparator()
        move = self.coin.SoTranslation()
        move.translation.setValue(*offset)
        for name, value in fields.items():
            getattr(shape, name).setValue(value)
        sep.addChild(move)
        sep.addChild(shape)
        return sep

    def tails_mm(self) -> list[tuple[float, float, float]]:
        """The drawn arrows' start points [mm] (what the GUI test follows)."""
        out = []
        for i in range(self.root.getNumChildren()):
            t = self.root.getChild(i).getChild(1).translation.getValue()
            out.append((t[0], t[1], t[2]))
        return out

    def remove(self) -> None:
        """Take the node out of the view (idempotent; the view may be gone already)."""
        if self.graph is not None:
            try:
                self.graph.removeChild(self.switch)
            except (RuntimeError, ReferenceError):
                pass
            self.graph = None


class FreeBodyPanel:
    """The 'Free-body diagram' group of the Animate panel: body list, scale line, load table."""

    def __init__(self, doc: App.Document, results: StoredResults, QtWidgets: Any) -> None:
        self.doc, self.results = doc, results
        self.run, self._data = None, None  # ReplayedRun and ReportData, read when a body is first picked
        self.body, self.index, self.scale, self.length_mm = None, 0, None, 0.0
        self.node: ArrowNode | None = None
        self.parts = {  # document object (part or MBD Body) name -> moving body
            obj: name
            for name, info in results.mapping.get("bodies", {}).items()
            if not info.get("grounded") and name in results.body_names
            for obj in (info.get("part"), info.get("body_object"))
            if obj
        }
        self.group = self._build(QtWidgets)
        self.observer = _PartPicks(self)
        import FreeCADGui

        FreeCADGui.Selection.addObserver(self.observer)

    def _build(self, QtWidgets: Any) -> Any:
        group = QtWidgets.QGroupBox(translate("MBD", "Free-body diagram"))
        group.setObjectName("free_body")
        layout = QtWidgets.QVBoxLayout(group)
        self.combo = QtWidgets.QComboBox()
        self.combo.setObjectName("fbd_body")
        self.combo.setToolTip(translate("MBD", "The body whose loads are drawn (or pick its part in the 3D view)"))
        self.combo.addItems([NONE] + list(self.results.body_names))
        self.combo.currentIndexChanged.connect(lambda _: self.select_body(self.combo.currentText()))
        layout.addWidget(self.combo)
        self.scale_label = QtWidgets.QLabel(translate("MBD", "Pick a body to see the loads on it."))
        self.scale_label.setObjectName("fbd_scale")
        self.scale_label.setWordWrap(True)
        layout.addWidget(self.scale_label)
        self.values = QtWidgets.QCheckBox(translate("MBD", "Values at the arrows"))
        self.values.setObjectName("fbd_values")
        self.values.setToolTip(translate("MBD", "Show each load's magnitude [N or N m] at its arrow's tip"))
        self.values.toggled.connect(lambda _: self.show(self.index))
        layout.addWidget(self.values)
        self.table = QtWidgets.QTableWidget(0, 3)
        self.table.setObjectName("fbd_table")
        self.table.setHorizontalHeaderLabels([TABLE_HEADERS[i] for i in (0, 2, 4)])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table)
        from PySide import QtGui

        self.QtWidgets, self.QtGui = QtWidgets, QtGui
        return group

    # ------------------------------------------------------------------ body and instant
    def select_body(self, name: str | None) -> None:
        """Draw the loads of moving body ``name`` (None or '(none)': no diagram)."""
        name = None if name in (None, "", NONE) else name
        if name is not None and name not in self.results.body_names:
            raise ValueError("no moving body '%s' in the results" % name)
        if self.combo.currentText() != (name or NONE):
            self.combo.blockSignals(True)
            self.combo.setCurrentIndex(self.combo.findText(name or NONE))
            self.combo.blockSignals(False)
        self.body = name
        if name is None:
            self._clear()
            return
        try:
            self._take_scale(name)
        except Exception as exc:  # a diagram that cannot be made never stops the animation
            self._failed(exc)
            return
        self.show(self.index)

    def _failed(self, exc: Exception) -> None:
        self.body = None
        self._clear()
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(0)  # (none)
        self.combo.blockSignals(False)
        self.scale_label.setText(translate("MBD", "No free-body diagram: %s") % exc)

    def data(self):
        """The run as read back from the stored archive (ReportData: tables, model, states)."""
        if self._data is None:
            from ..report.data import load_results_dir

            self._data = load_results_dir(self.results.path)
        return self._data

    def _replayed(self):
        if self.run is None:
            from ..loads.replay import replayed

            self.run = replayed(self.data())
        return self.run

    def _take_scale(self, body: str) -> None:
        from ..loads import worst_instants

        run = self._replayed()
        K = len(run)
        picks = set(np.linspace(0, K - 1, min(K, SCALE_SAMPLES)).round().astype(int).tolist())
        picks.add(worst_instants(self.data(), body)[0])
        cases = [run.load_case(body, k) for k in sorted(picks)]
        self.scale = diagram_scale(cases)
        self.length_mm = 1e3 * max([MIN_LENGTH] + [c.size() for c in cases])  # as diagram_scale's
        F = max(np.linalg.norm(ld.force) for c in cases for ld in c.loads)
        M = max(np.linalg.norm(ld.moment) for c in cases for ld in c.loads)
        drawn = 1e3 * (self.scale.force * F if F else self.scale.moment * M)
        self.scale_label.setText(
            translate(
                "MBD",
                "Scale: %.0f mm = %.4g N (the largest force over the run) and %.4g N m (the largest moment: "
                "double heads). Hover a row for its components.",
            )
            % (drawn, F, M)
        )

    def show(self, k: int) -> None:
        """Follow the playback: the loads at sample ``k``."""
        self.index = int(k)
        if self.body is None:
            return
        try:
            case = self._replayed().load_case(self.body, self.index)
            if self.node is None:
                self.node = ArrowNode(self.doc)
            self.node.draw(diagram_arrows(case, self.scale), self.length_mm, self.values.isChecked())
            self._fill_table(case)
        except Exception as exc:
            self._failed(exc)

    def _fill_table(self, case) -> None:
        rows = table_rows(case)
        QtWidgets = self.QtWidgets
        self.table.setRowCount(len(rows))
        QtGui = self.QtGui
        for r, row in enumerate(rows):
            tip = "%s (%s)\nF = [%s] N\nM = [%s] N m (about the point)\nat [%s] mm" % (
                row[0], row[1] or "residual, moments about the CoG", row[3], row[5], row[6]
            )  # fmt: skip
            for c, text in enumerate((row[0], row[2], row[4])):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(tip)
                if c == 0 and row[1] in COLOURS:  # the arrow's colour: the table is the legend
                    rgb = [int(255 * (0.55 + 0.45 * x)) for x in COLOURS[row[1]]]
                    item.setBackground(QtGui.QColor(*rgb))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def _clear(self) -> None:
        if self.node is not None:
            self.node.draw([], 0.0)
        self.table.setRowCount(0)
        self.scale_label.setText(translate("MBD", "Pick a body to see the loads on it."))

    def close(self) -> None:
        """Remove the arrows and the selection observer."""
        import FreeCADGui

        FreeCADGui.Selection.removeObserver(self.observer)
        if self.node is not None:
            self.node.remove()
            self.node = None


class _PartPicks:
    """Selection observer: picking a moving body's part shows its free-body diagram."""

    def __init__(self, panel: FreeBodyPanel) -> None:
        self.panel = panel

    def addSelection(self, doc_name: str, obj_name: str, sub: str = "", pnt: Any = None) -> None:
        if doc_name != getattr(self.panel.doc, "Name", None):
            return
        body = self.panel.parts.get(obj_name)
        if body is None:  # a sub-object path through a container: its last part
            names = [n for n in (sub or "").split(".") if n in self.panel.parts]
            body = self.panel.parts[names[-1]] if names else None
        if body is not None and body != self.panel.body:
            self.panel.select_body(body)
