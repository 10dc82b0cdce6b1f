"""Plot dock: matplotlib (Qt canvas) plots of the stored results with a time cursor that
follows the animation. The dock follows the active document (its results, or a "no results"
note) and shows each new run after Solve; a closed document's plots are dropped.

For the selected joint: reaction force and torque (that Body1 exerts on Body2, in the joint
frame carried by Body1: x, y, z and magnitude) and drift (constraint violation); for a
driver: its effort (torque [N m] or force [N]) and drift; the joint's coordinates (angle,
displacement; see catalog.COORDINATES) and their rates; energy (kinetic, potential, total,
balance) for the whole model; for a contact pair: its normal and tangential force and its
penetration (contacts.csv); a joint's stop and friction efforts. A joint's located events (rigid
stops' impacts, holds and releases; friction stick/slip switches) are marked on its plots, every
joint's on the energy plot (report/event_marks.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .common import QT_TRANSLATE_NOOP, Command, active_document, qt_modules, stored_results_or_message, translate

if TYPE_CHECKING:
    from ..solver.results.files import ResultTables

DOCK_NAME = "MBD_PlotDock"
QUANTITIES = (
    "Reaction force",
    "Reaction torque",
    "Driver effort",
    "Joint coordinate",
    "Joint coordinate rate",
    "Drift",
    "Stop and friction effort",
    "Contact force",
    "Penetration",
    "Energy",
)
CONTACT_QUANTITIES = ("Contact force", "Penetration")


def legend_beside(ax, fontsize: float = 8, above: bool = False):
    """A legend outside the axes, so that it never covers the curves: to their right (with the
    figure's tight layout making room), or ``above`` them in one row (a small figure). None
    when nothing is labelled."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if above:
        return ax.legend(
            fontsize=fontsize,
            loc="lower left",
            bbox_to_anchor=(0.0, 1.0),
            ncol=len(labels),
            frameon=False,
            borderaxespad=0.2,
            handlelength=1.5,
            columnspacing=1.0,
        )
    return ax.legend(fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)


def figure_canvas_class() -> type:
    """FigureCanvasQTAgg for FreeCAD's Qt binding (qtagg on matplotlib >= 3.5, else qt5agg)."""
    try:
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
    except ImportError:
        from matplotlib.backends.backend_qt5agg import FigureCanvasQTAgg
    return FigureCanvasQTAgg


def effort_of_unit(unit: str) -> str:
    """'torque' for 'N m', 'force' for 'N' (catalog.EFFORT_UNITS)."""
    from ..solver.model.catalog import EFFORT_UNITS

    return next((name for name, u in EFFORT_UNITS.items() if u == unit), "effort")


def plot_series(results: ResultTables, element: str, quantity: str) -> tuple[str, str, list[tuple[str, np.ndarray]]]:
    """(title, y label, [(label, y array)]) of one plot; raises ValueError if not available."""
    if quantity == "Energy":
        e = results.energy()
        return ("Energy", "energy [J]", [(k, e[k]) for k in ("kinetic", "potential", "total", "balance") if k in e])
    if not element:
        raise ValueError("no joint or driver selected")
    pairs = contact_pairs(results)
    if quantity in CONTACT_QUANTITIES or element in pairs:
        return contact_series(results, element, quantity)
    if quantity == "Stop and friction effort":
        return joint_effort_series(results, element)
    is_driver = element in results.driver_names
    if quantity in ("Reaction force", "Reaction torque"):
        if is_driver:
            raise ValueError("'%s' is a driver: plot its effort" % element)
        F, T = results.reaction(element)
        data, unit, sym = (F, "N", "F") if quantity == "Reaction force" else (T, "N m", "T")
        series = [("%s%s" % (sym, c), data[:, k]) for k, c in enumerate("xyz")]
        series.append(("|%s|" % sym, np.linalg.norm(data, axis=1)))
        return ("%s of %s (joint frame)" % (quantity.lower(), element), "%s [%s]" % (quantity.split()[1], unit), series)
    if quantity == "Driver effort":
        if not is_driver:
            raise ValueError("'%s' is a joint: driver effort needs a driver" % element)
        unit = results.driver_unit(element)
        return (
            "Effort of %s" % element,
            "%s [%s]" % (effort_of_unit(unit), unit),
            [("effort", results.driver_effort(element))],
        )
    if quantity in ("Joint coordinate", "Joint coordinate rate"):
        return coordinate_series(results, element, quantity == "Joint coordinate rate")
    if quantity == "Drift":
        v = results.violation(element)
        return (
            "Constraint violation of %s" % element,
            "violation [m] / [rad]",
            [("position [m]", v["position"]), ("angle [rad]", v["angle"])],
        )
    raise ValueError("unknown quantity %r" % quantity)


def contact_pairs(results: ResultTables) -> list[str]:
    """The contact pairs with columns in contacts.csv (none: an empty list)."""
    from ..report.contacts import pair_names

    return pair_names(results)


def contact_series(results: ResultTables, pair: str, quantity: str) -> tuple[str, str, list[tuple[str, np.ndarray]]]:
    """Contact force (normal, tangential, |F|) [N] or penetration [m] of a contact pair."""
    from ..solver.results.contacts import contact_headers
    from ..solver.results.files import CONTACTS

    if pair not in contact_pairs(results):
        raise ValueError("'%s' is not a contact pair: pick one for %s" % (pair, quantity.lower()))
    if quantity not in CONTACT_QUANTITIES:
        raise ValueError("'%s' is a contact pair: plot its contact force or penetration" % pair)
    h = contact_headers(pair)
    col = lambda k: results.col(CONTACTS, h[k])  # noqa: E731
    if quantity == "Penetration":
        return ("Penetration of %s" % pair, "penetration [m]", [("penetration", col(5))])
    magnitude = np.linalg.norm(np.column_stack([col(0), col(1), col(2)]), axis=1)
    series = [("normal", col(3)), ("tangential", col(4)), ("|F|", magnitude)]
    return ("Contact force on body_a of %s" % pair, "force [N]", series)


def joint_effort_series(results: ResultTables, joint: str) -> tuple[str, str, list[tuple[str, np.ndarray]]]:
    """The stop and friction efforts [N m or N] of a joint (joints.csv); ValueError without any."""
    from ..solver.results.files import JOINTS

    if joint not in results.joint_names:
        raise ValueError("'%s' is not a joint: stop and friction efforts belong to joints" % joint)
    headers = [
        h
        for h in results.tables[JOINTS]
        if h.startswith(joint + ".") and ("_stop [" in h or "_friction [" in h or ".friction_T" in h)
    ]
    if not headers:
        raise ValueError("'%s' has no end stops or friction" % joint)
    series = [(h[len(joint) + 1 :], results.col(JOINTS, h)) for h in headers]
    return ("Stop and friction efforts of %s" % joint, "effort [N m or N]", series)


def plot_marks(results: ResultTables, element: str, quantity: str) -> list:
    """The events marked on a plot: the joint's own, every joint's on the energy plot, none for
    a driver or a contact pair (report/event_marks.py)."""
    from ..report.event_marks import event_marks

    if quantity == "Energy":
        return event_marks(results.summary)
    return event_marks(results.summary, [element]) if element in results.joint_names else []


def draw_plot(figure: object, results: ResultTables, element: str, quantity: str) -> object:
    """Draw one plot with its event marks into ``figure`` (cleared); returns its axes.
    ValueError or KeyError (the figure then empty) when it is not available."""
    from ..report.event_marks import draw_marks

    figure.clear()
    title, ylabel, series = plot_series(results, element, quantity)
    ax = figure.add_subplot(111)
    for label, y in series:
        ax.plot(results.t, y, label=label)
    draw_marks(ax, plot_marks(results, element, quantity))
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("time [s]")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    legend_beside(ax)
    ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4))
    return ax


def coordinate_series(results: ResultTables, joint: str, rates: bool) -> tuple[str, str, list[tuple[str, np.ndarray]]]:
    """Plot of a joint's coordinates (or their rates); ValueError for a driver, a joint type
    without coordinates or results written before joint coordinates existed."""
    from ..solver.model.catalog import COORDINATES

    names = results.joint_coordinate_names(joint) if joint in results.joint_names else ()
    if not names:
        raise ValueError("'%s' has no joint coordinates (revolute, prismatic, cylindrical joints have)" % joint)
    data = results.joint_coordinate_rate(joint) if rates else results.joint_coordinate(joint)
    units = [COORDINATES[n].rate_unit if rates else COORDINATES[n].unit for n in names]
    suffix = " rate" if rates else ""
    series = [("%s%s [%s]" % (n, suffix, u), data[:, k]) for k, (n, u) in enumerate(zip(names, units))]
    title = "Joint coordinate%s of %s" % ("s" if len(names) > 1 else "", joint) + (" (rates)" if rates else "")
    return title, " / ".join("[%s]" % u for u in units), series


class PlotDock:
    """The dock widget and its matplotlib figure."""

    def __init__(self, results: ResultTables | None, doc_name: str | None = None) -> None:
        from matplotlib.figure import Figure
        from PySide import QtCore

        _, _, QtWidgets = qt_modules()
        self.results = results
        self.doc_name = doc_name
        self.dock = QtWidgets.QDockWidget("MBD plots")
        self.dock.setObjectName(DOCK_NAME)
        body = QtWidgets.QWidget()
        layout = QtWidgets.QVBoxLayout(body)
        row = QtWidgets.QHBoxLayout()
        self.element = QtWidgets.QComboBox()
        self.element.setObjectName("element")
        self.quantity = QtWidgets.QComboBox()
        self.quantity.setObjectName("quantity")
        self.quantity.addItems(list(QUANTITIES))
        self.save_button = QtWidgets.QPushButton(translate("MBD", "Save PNG..."))
        self.save_button.setObjectName("save")
        for w in (self.element, self.quantity, self.save_button):
            row.addWidget(w)
        layout.addLayout(row)
        self.figure = Figure(figsize=(5.5, 3.8), dpi=100, tight_layout=True)
        self.canvas = figure_canvas_class()(self.figure)
        self.canvas.setMinimumSize(320, 260)
        layout.addWidget(self.canvas)
        self.dock.setWidget(body)
        self.cursor_time = None
        self.cursor = None
        self.set_results(results)
        self.element.currentIndexChanged.connect(self.redraw)
        self.quantity.currentIndexChanged.connect(self.redraw)
        self.save_button.clicked.connect(self._ask_save)
        from .animate import add_time_listener

        add_time_listener(self.set_time)
        _watch_documents(True)
        from .common import main_window

        window = main_window()
        window.addDockWidget(QtCore.Qt.RightDockWidgetArea, self.dock)
        if hasattr(window, "resizeDocks"):
            window.resizeDocks([self.dock], [440], QtCore.Qt.Horizontal)

    def set_results(self, results: ResultTables | None, doc_name: str | None = None) -> None:
        """Show another run's results (keeps the selection when possible); None: no results."""
        self.results = results
        if doc_name is not None:
            self.doc_name = doc_name
        self.dock.setWindowTitle("MBD plots - %s" % self.doc_name if self.doc_name else "MBD plots")
        current = self.element.currentText()
        self.element.blockSignals(True)
        self.element.clear()
        names = [] if results is None else list(results.joint_names) + list(results.driver_names)
        names += [] if results is None else contact_pairs(results)
        self.element.addItems(names)
        if current in names:
            self.element.setCurrentIndex(self.element.findText(current))
        self.element.blockSignals(False)
        self.redraw()

    def show_document(self, doc: object | None) -> None:
        """Show the stored results of ``doc`` (an App.Document), or nothing for None or a
        document without results."""
        if doc is None:
            self.doc_name = None
            self.set_results(None)
            return
        self.set_results(document_results(doc), doc.Name)

    def select(self, element: str | None = None, quantity: str | None = None) -> None:
        """Choose what to plot (as the user would in the combo boxes)."""
        if element is not None:
            self.element.setCurrentIndex(self.element.findText(element))
        if quantity is not None:
            self.quantity.setCurrentIndex(self.quantity.findText(quantity))
        self.redraw()

    def redraw(self, *args: object) -> None:
        try:
            if self.results is None:
                raise ValueError("No results for %s: run Solve." % (self.doc_name or "this document"))
            ax = draw_plot(self.figure, self.results, self.element.currentText(), self.quantity.currentText())
        except (ValueError, KeyError) as exc:
            self.figure.clear()
            ax = self.figure.add_subplot(111)
            ax.text(0.5, 0.5, str(exc), ha="center", va="center", transform=ax.transAxes, wrap=True)
            ax.set_axis_off()
            self.cursor = None
            self.canvas.draw_idle()
            return
        self.cursor = ax.axvline(self.results.t[0], color="k", lw=1.0, ls="--")
        self.set_time(self.cursor_time)

    def set_time(self, t: float | None) -> None:
        """Move the time cursor to ``t`` [s] (None hides it)."""
        self.cursor_time = t
        if self.cursor is not None:
            self.cursor.set_visible(t is not None)
            if t is not None:
                self.cursor.set_xdata([t, t])
            self.canvas.draw_idle()

    def save_png(self, path: str, dpi: int = 100) -> str:
        """Write the current plot to ``path``."""
        self.canvas.draw()
        self.figure.savefig(path, dpi=dpi)
        return path

    def _ask_save(self):
        from .common import main_window

        _, _, QtWidgets = qt_modules()
        path = QtWidgets.QFileDialog.getSaveFileName(main_window(), "Save plot", "plot.png", "PNG image (*.png)")[0]
        if path:
            self.save_png(path)


_docks: list[PlotDock] = []


def document_results(doc: object) -> ResultTables | None:
    """The stored results of the document's Simulation, or None (no message)."""
    from ..cad.objects import find_simulation
    from ..cad.results_store import load_results

    try:
        sim = find_simulation(doc)
        results = load_results(sim) if sim is not None else None
    except Exception:
        return None
    return results if results is not None and len(results) else None


def results_changed(doc: object) -> None:
    """A run was stored in ``doc``: the open plot dock shows it."""
    dock = plot_dock()
    if dock is not None:
        dock.show_document(doc)


class _DocumentObserver:
    """Keeps the plot dock on the active document (App document observer)."""

    def slotActivateDocument(self, doc: object) -> None:
        dock = plot_dock()
        if dock is not None and getattr(doc, "Name", None) != dock.doc_name:
            dock.show_document(doc)

    def slotDeletedDocument(self, doc: object) -> None:
        dock = plot_dock()
        if dock is not None and getattr(doc, "Name", None) == dock.doc_name:
            dock.show_document(None)


_observer: list[_DocumentObserver] = []


def _watch_documents(on: bool) -> None:
    import FreeCAD

    if on and not _observer:
        _observer.append(_DocumentObserver())
        FreeCAD.addDocumentObserver(_observer[0])
    elif not on and _observer:
        FreeCAD.removeDocumentObserver(_observer.pop())


def plot_dock() -> PlotDock | None:
    """The open PlotDock, or None."""
    return _docks[0] if _docks else None


class PlotCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Plot", "Plots")
    TIP = QT_TRANSLATE_NOOP("MBD_Plot", "Dock with reactions, driver efforts, drift and energy of the last run")
    ICON = "plot"

    def Activated(self) -> None:
        doc = active_document()
        results = stored_results_or_message(doc, translate("MBD", "Plots"))
        if results is None:
            return
        dock = plot_dock()
        if dock is not None:
            dock.set_results(results, doc.Name)
            dock.dock.show()
            return
        _docks.append(PlotDock(results, doc.Name))
