"""Commands that build the model: simulation, bodies, joints from picked geometry, drivers,
springs, forces, the joint-frame editor, JSON export and the Assembly import.

The selection is checked here; the objects are then created by a call of :mod:`..cad.makers`
(or :mod:`..cad.picking`) run through ``FreeCADGui.doCommand`` (:func:`.common.run_recorded`),
so it shows in the Python console and is recorded in macros, as FEM's commands do.

With the references selected first, a command creates its object at once; with nothing
selected, the body, joint, driver, spring and force commands open their task panel
(:mod:`.task_panels`), where the references are picked after starting (FEM/Assembly manner)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..solver.model.catalog import JOINTS, joints_driven_by
from . import task_panels  # also makes double-click open the task panels (view_providers.EDIT_HOOK)
from .common import (
    QT_TRANSLATE_NOOP,
    Command,
    active_document,
    catalog_text,
    message,
    py_document,
    py_object,
    run_guarded,
    run_recorded,
    selected_objects,
    selected_picks,
    show_task_panel,
    translate,
)

MAKERS = ("MBDWorkbench.cad.makers", "mbd_makers")

if TYPE_CHECKING:
    import FreeCAD as App


def record(doc: App.Document, call: str) -> list[App.DocumentObject]:
    """Run ``call`` (using ``mbd_makers``) through FreeCADGui.doCommand; the objects created."""
    return run_recorded(doc, *MAKERS, call)


def ensure_simulation(doc: App.Document) -> App.DocumentObject:
    """The document's Simulation, created (recorded) when it has none."""
    from ..cad.objects import find_simulation

    return find_simulation(doc) or record(doc, "mbd_makers.make_simulation(%s)" % py_document(doc))[0]


class SimulationCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Simulation", "Simulation")
    TIP = QT_TRANSLATE_NOOP("MBD_Simulation", "Create the simulation container (end time, integrator, gravity)")
    ICON = "simulation"

    def Activated(self) -> None:
        from ..cad.objects import find_simulation

        doc = active_document()
        if find_simulation(doc) is not None:
            message(
                translate("MBD", "Simulation"),
                translate("MBD", "The document already has a simulation: '%s'.") % find_simulation(doc).Label,
            )
            return
        run_guarded("Create simulation", doc, ensure_simulation, doc)


def make_bodies(
    doc: App.Document, picks: list[tuple[App.DocumentObject, str]], grounded: bool = False
) -> list[App.DocumentObject]:
    """Bodies for the parts of the picked objects (checked first; all or nothing)."""
    from ..cad.errors import CadError
    from ..cad.makers import check_part
    from ..cad.objects import body_of_part, find_objects
    from ..cad.picking import pick_part

    if not picks:
        raise CadError("select one or more parts (objects with a solid) first")
    known = [b.Part for b in find_objects(doc, "Body") if b.Part is not None]
    parts = []
    for root, sub in picks:
        part = pick_part(root, sub.rsplit(".", 1)[0] + "." if "." in sub else "", known) if sub else root
        if part not in parts:
            parts.append(part)
    for part in parts:
        if body_of_part(doc, part) is not None:
            raise CadError("part '%s' already is body '%s'" % (part.Label, body_of_part(doc, part).Label))
        check_part(part)
    ensure_simulation(doc)
    call = "mbd_makers.make_body(%s, %s, grounded=%r)"
    return [record(doc, call % (py_document(doc), py_object(p), grounded))[0] for p in parts]


class BodyCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Body", "Body")
    TIP = QT_TRANSLATE_NOOP(
        "MBD_Body", "Make the selected parts rigid bodies (mass from their solids, steel by default)"
    )
    ICON = "body"
    GROUNDED = False

    def Activated(self) -> None:
        doc = active_document()
        picks = selected_picks()
        if not picks:
            task_panels.show(task_panels.BodyPanel(doc, grounded=self.GROUNDED))
            return
        run_guarded("Create body", doc, make_bodies, doc, picks, self.GROUNDED)


class GroundedBodyCommand(BodyCommand):
    MENU = QT_TRANSLATE_NOOP("MBD_GroundedBody", "Grounded body")
    TIP = QT_TRANSLATE_NOOP("MBD_GroundedBody", "Make the selected parts bodies fixed to the ground")
    ICON = "ground"
    GROUNDED = True


def make_joint_command(jtype: str) -> type:
    """The command class creating a ``jtype`` joint from the selection (text and icon from
    the joint's catalogue record)."""
    record = JOINTS[jtype]
    undo_name = "Create %s" % record.label.lower()  # English, as FreeCAD's own undo steps

    class JointCommand(Command):
        MENU, ICON = catalog_text(record.label), record.icon
        TIP = catalog_text(record.tooltip) + translate(
            "MBD", ". Select one element (joint to the ground) or two elements on two parts."
        )

        def Activated(self) -> None:
            doc = active_document()
            picks = selected_picks()
            if not picks:
                task_panels.show(task_panels.JointPanel(doc, jtype=jtype))
                return

            def create() -> App.DocumentObject:
                picks = ", ".join("(%s, %r)" % (py_object(root), sub) for root, sub in selected_picks())
                ensure_simulation(doc)
                call = "mbd_picking.make_joint_from_picks(%s, %r, [%s])" % (py_document(doc), jtype, picks)
                return run_recorded(doc, "MBDWorkbench.cad.picking", "mbd_picking", call)

            run_guarded(undo_name, doc, create)

    JointCommand.__name__ = "JointCommand_%s" % jtype
    return JointCommand


def make_group_command(menu: str, tip: str, members: tuple[str, ...], name: str = "") -> type:
    """A toolbar drop-down (FreeCAD group command ``name``, the texts' translation context) of
    the commands ``members``."""

    class GroupCommand:
        def GetCommands(self) -> tuple[str, ...]:
            return tuple(members)

        def GetDefaultCommand(self) -> int:
            return 0

        def GetResources(self) -> dict:
            return {"MenuText": translate(name, menu), "ToolTip": translate(name, tip)}

        def IsActive(self) -> bool:
            return active_document() is not None

    GroupCommand.__name__ = "GroupCommand_%s" % menu.replace(" ", "_")
    return GroupCommand


def _selected_of_type(kind):
    from ..cad.objects import mbd_type

    return [o for o in selected_objects() if mbd_type(o) == kind]


class EditJointFrameCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_EditJointFrame", "Edit joint frame")
    TIP = QT_TRANSLATE_NOOP("MBD_EditJointFrame", "Flip, offset or rotate the frame of the selected joint")
    ICON = "joint_frame"

    def Activated(self) -> None:
        joints = _selected_of_type("Joint")
        if len(joints) != 1:
            message(translate("MBD", "Edit joint frame"), translate("MBD", "Select one joint first."), "error")
            return

        from .joint_panel import JointFramePanel

        show_task_panel(JointFramePanel(joints[0]))


class DriverCommand(Command):
    MENU, ICON = QT_TRANSLATE_NOOP("MBD_Driver", "Driver"), "driver"
    TIP = QT_TRANSLATE_NOOP(
        "MBD_Driver", "Drive the selected joint (motor): angle or displacement as a function of time"
    )

    def Activated(self) -> None:
        from ..cad.errors import CadError
        from ..cad.makers import driven_joint_types, or_list

        doc = active_document()
        if not selected_objects():
            task_panels.show(task_panels.DriverPanel(doc))
            return

        def create() -> App.DocumentObject:
            joints = _selected_of_type("Joint")
            if not joints:
                raise CadError("a driver needs a joint: select a %s joint first" % or_list(driven_joint_types()))
            return [record(doc, "mbd_makers.make_driver(%s, %s)" % (py_document(doc), py_object(j)))[0] for j in joints]

        run_guarded("Create driver", doc, create)


def _pick_bodies(doc, picks):
    """[(Body or None for ground, point [mm])] of picks on parts (bodies made as needed)."""
    from ..cad.makers import check_part
    from ..cad.objects import body_of_part, find_objects
    from ..cad.picking import pick_frame

    known = [b.Part for b in find_objects(doc, "Body") if b.Part is not None]
    resolved = [pick_frame(root, sub, known) for root, sub in picks]
    for part, _ in resolved:
        if body_of_part(doc, part) is None:
            check_part(part)
    ensure_simulation(doc)
    call = "mbd_makers.make_body(%s, %s)"
    return [
        (body_of_part(doc, p) or record(doc, call % (py_document(doc), py_object(p)))[0], f.origin) for p, f in resolved
    ]


_SPRING_JOINTS = "/".join(joints_driven_by("rotational"))  # joints that take a rotational spring


@functools.cache
def assembly_available() -> bool:
    """True where FreeCAD has the Assembly workbench (1.0+; absent on 0.20): its JointObject.py
    in FreeCAD's Mod folder or on sys.path. Cached: ``IsActive`` asks it several times a second,
    and finding FreeCAD's folders runs dpkg (it blocked the GUI for most of a second)."""
    import importlib.util
    import os

    import FreeCAD

    from ..cad.freecad_env import find_freecad_mod_dir

    mod = find_freecad_mod_dir(FreeCAD)
    if mod is not None and os.path.isfile(os.path.join(mod, "Assembly", "JointObject.py")):
        return True
    return importlib.util.find_spec("JointObject") is not None


def _py_point(point) -> str:
    return "(%r, %r, %r)" % tuple(float(c) for c in point)


class SpringDamperCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_SpringDamper", "Spring-damper")
    TIP = QT_TRANSLATE_NOOP(
        "MBD_SpringDamper",
        "Spring-damper between two picked points on two parts, or a rotational one on the selected joint (%s)",
    )
    ICON = "spring"

    def GetResources(self) -> dict:
        return {**super().GetResources(), "ToolTip": translate("MBD_SpringDamper", self.TIP) % _SPRING_JOINTS}

    def Activated(self) -> None:
        from ..cad.errors import CadError

        doc = active_document()
        if not selected_objects():
            task_panels.show(task_panels.SpringPanel(doc))
            return

        def create() -> App.DocumentObject:
            joints = _selected_of_type("Joint")
            if joints:
                call = "mbd_makers.make_spring_damper(%s, None, None, None, None, joint=%s)"
                return record(doc, call % (py_document(doc), py_object(joints[0])))
            picks = selected_picks()
            if len(picks) != 2:
                raise CadError(
                    "a spring-damper needs two picked points (vertices, circle centres, ...) on two "
                    "parts, or a selected %s joint; got %d picks" % (_SPRING_JOINTS, len(picks))
                )
            (b1, p1), (b2, p2) = _pick_bodies(doc, picks)
            call = "mbd_makers.make_spring_damper(%s, %s, %s, %s, %s)"
            return record(doc, call % (py_document(doc), py_object(b1), _py_point(p1), py_object(b2), _py_point(p2)))

        run_guarded("Create spring-damper", doc, create)


class ForceCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Force", "Force")
    TIP = QT_TRANSLATE_NOOP("MBD_Force", "Point force at the picked point of a part (or at the CoG of a selected body)")
    ICON = "force"

    def Activated(self) -> None:
        from ..cad.errors import CadError

        doc = active_document()
        if not selected_objects():
            task_panels.show(task_panels.ForcePanel(doc))
            return

        def create() -> App.DocumentObject:
            bodies = _selected_of_type("Body")
            if bodies:
                return record(doc, "mbd_makers.make_force(%s, %s)" % (py_document(doc), py_object(bodies[0])))
            picks = selected_picks()
            if len(picks) != 1:
                raise CadError("a force needs one picked point on a part (or a selected body), got %d" % len(picks))
            ((body, point),) = _pick_bodies(doc, picks)
            call = "mbd_makers.make_force(%s, %s, point=%s)"
            return record(doc, call % (py_document(doc), py_object(body), _py_point(point)))

        run_guarded("Create force", doc, create)


class ContactCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Contact", "Contact")
    TIP = QT_TRANSLATE_NOOP(
        "MBD_Contact", "Contact between two bodies or two picked faces, or all pairs among bodies (a drop test, a cam)"
    )
    ICON = "contact"

    def Activated(self) -> None:
        doc = active_document()
        task_panels.show(task_panels.ContactPanel(doc, None, tuple(selected_picks())))


def make_force_command(ftype: str) -> type:
    """The command class creating a force element of catalogue type ``ftype`` through its task
    panel (text from the record; icon ``force_<name>.svg``, else the generic force or torque
    icon); selected bodies or joints fill its fields."""
    from ..solver.model.catalog import FORCES
    from .view_providers import force_icon

    record = FORCES[ftype]

    class ForceElementCommand(Command):
        MENU, TIP, ICON = catalog_text(record.label) or ftype, catalog_text(record.tooltip), force_icon(ftype)

        def Activated(self) -> None:
            doc = active_document()
            task_panels.show(task_panels.ForceElementPanel(doc, ftype, None, tuple(selected_objects())))

    ForceElementCommand.__name__ = "ForceElementCommand_%s" % ftype
    return ForceElementCommand


class ExportJsonCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_ExportJSON", "Export JSON model")
    TIP = QT_TRANSLATE_NOOP("MBD_ExportJSON", "Write the model as a JSON file for the command-line solver")
    ICON = "export"

    def Activated(self) -> None:
        from .common import main_window, qt_modules

        _, _, QtWidgets = qt_modules()
        doc = active_document()
        path = QtWidgets.QFileDialog.getSaveFileName(
            main_window(), "Export JSON model", doc.Label + ".json", "JSON model (*.json)"
        )[0]
        if path:
            call = "mbd_document_model.export_json(%s, %r)" % (py_document(doc), path)
            module = ("MBDWorkbench.cad.document_model", "mbd_document_model")
            run_guarded("Export JSON model", None, run_recorded, doc, *module, call)


class ImportAssemblyCommand(Command):
    MENU, ICON = QT_TRANSLATE_NOOP("MBD_ImportAssembly", "Import assembly joints"), "import_assembly"
    TIP = QT_TRANSLATE_NOOP(
        "MBD_ImportAssembly", "Create bodies and joints from a FreeCAD 1.0 Assembly (%s, planar Distance, Grounded)"
    ) % ", ".join(name for joint in JOINTS.values() for name in joint.assembly_names)

    def IsActive(self) -> bool:
        """Enabled only where the Assembly workbench exists (FreeCAD 1.0+), with a document open."""
        return active_document() is not None and assembly_available()

    def Activated(self) -> None:
        from ..cad.assembly_import import find_assemblies, import_assembly

        doc = active_document()
        assemblies = find_assemblies(doc)
        if not assemblies:
            message(
                translate("MBD", "Import assembly joints"),
                translate("MBD", "This document has no Assembly (FreeCAD 1.0 Assembly workbench)."),
                "error",
            )
            return
        report = run_guarded("Import assembly joints", doc, import_assembly, doc, assemblies[0])
        if report is not None:
            message(
                translate("MBD", "Import assembly joints"),
                report.text(),
                "error" if report.unsupported else "info",
                name="MBD_ImportReport",
            )
