"""Task panels (FreeCAD's FEM/Assembly manner) to create and edit bodies, joints, drivers,
forces, springs and the simulation settings.

Every panel edits copies of the values and writes nothing to the document until OK, which
applies everything in one undoable transaction; Cancel leaves the document as it was. The
create panels take their references from picks in the 3D view or tree AFTER they opened
(a ``Gui.Selection`` observer). Type lists come from :mod:`MBDWorkbench.solver.model.catalog`;
the profile fields are checked as you type with the solver's own profile compiler.

Values are shown in the unit each field states (mm, deg, kg, kg/m^3, s, mm/s^2, Hz); the typed
properties (Quantities in FreeCAD's internal units, e.g. a density in kg/mm^3) are converted by
:func:`read_value` / :func:`write_value` with the helpers of :mod:`MBDWorkbench.cad.objects`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import view_providers
from .common import show_task_panel
from .panels.base import TaskPanel, close_dialogs, forget_open_panel, open_panel, parse_number, read_value, write_value
from .panels.body import BodyPanel
from .panels.contact import ContactPanel
from .panels.force_element import ForceElementPanel
from .panels.joint import JointPanel
from .panels.profiles import DriverPanel, ForcePanel
from .panels.simulation import SimulationPanel
from .panels.spring import SpringPanel

if TYPE_CHECKING:
    import FreeCAD as App

__all__ = [
    "BodyPanel",
    "ContactPanel",
    "DriverPanel",
    "ForceElementPanel",
    "ForcePanel",
    "JointPanel",
    "SimulationPanel",
    "SpringPanel",
    "TaskPanel",
    "close_dialogs",
    "edit",
    "open_panel",
    "panel_for",
    "parse_number",
    "read_value",
    "show",
    "write_value",
]


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
    if kind == "ForceElement":
        return ForceElementPanel(obj.Document, obj.ForceType, obj)
    if kind == "SpringDamper":
        return SpringPanel(obj.Document, obj)
    if kind == "Contact":
        return ContactPanel(obj.Document, obj)
    if kind == "Simulation":
        return SimulationPanel(obj.Document, obj)
    return None


def show(panel: TaskPanel) -> TaskPanel:
    """Show ``panel`` in the task view, laid out to fit the dock."""
    show_task_panel(panel)
    return panel


def edit(obj: App.DocumentObject) -> bool:
    """Open the edit panel of ``obj`` (ViewProvider.setEdit); False if it has none."""
    try:
        panel = panel_for(obj)
    except Exception:
        forget_open_panel()  # a panel that failed to build is not open
        raise
    if panel is None:
        return False
    show(panel)
    return True


view_providers.EDIT_HOOK[:] = [edit]  # double-click / setEdit on our objects opens these panels
