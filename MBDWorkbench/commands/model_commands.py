"""Commands that build the model: simulation, bodies, joints from picked geometry, drivers,
springs, forces, the joint-frame editor, JSON export and the Assembly import.

With the references selected first, a command creates its object at once; with nothing
selected, the body, joint, driver, spring and force commands open their task panel
(:mod:`.task_panels`), where the references are picked after starting (FEM/Assembly manner)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..solver.catalog import JOINTS, joints_driven_by
from . import task_panels  # also makes double-click open the task panels (view_providers.EDIT_HOOK)
from .common import Command, active_document, message, run_guarded, selected_objects, selected_picks

if TYPE_CHECKING:
    import FreeCAD as App


def ensure_simulation(doc: App.Document) -> App.DocumentObject:
    """The document's Simulation, created when it has none."""
    from ..cad.makers import make_simulation
    from ..cad.objects import find_simulation

    return find_simulation(doc) or make_simulation(doc)


class SimulationCommand(Command):
    MENU, TIP, ICON = "Simulation", "Create the simulation container (end time, integrator, gravity)", "simulation"

    def Activated(self) -> None:
        from ..cad.makers import make_simulation
        from ..cad.objects import find_simulation

        doc = active_document()
        if find_simulation(doc) is not None:
            message("Simulation", "The document already has a simulation: '%s'." % find_simulation(doc).Label)
            return
        run_guarded("Create simulation", doc, make_simulation, doc)


def make_bodies(
    doc: App.Document, picks: list[tuple[App.DocumentObject, str]], grounded: bool = False
) -> list[App.DocumentObject]:
    """Bodies for the parts of the picked objects (checked first; all or nothing)."""
    from ..cad.errors import CadError
    from ..cad.makers import check_part, make_body
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
    return [make_body(doc, p, grounded=grounded) for p in parts]


class BodyCommand(Command):
    MENU, TIP, ICON = "Body", "Make the selected parts rigid bodies (mass from their solids, steel by default)", "body"
    GROUNDED = False

    def Activated(self) -> None:
        doc = active_document()
        picks = selected_picks()
        if not picks:
            task_panels.show(task_panels.BodyPanel(doc, grounded=self.GROUNDED))
            return
        run_guarded("Create body", doc, make_bodies, doc, picks, self.GROUNDED)


class GroundedBodyCommand(BodyCommand):
    MENU, TIP, ICON = "Grounded body", "Make the selected parts bodies fixed to the ground", "ground"
    GROUNDED = True


def make_joint_command(jtype: str) -> type:
    """The command class creating a ``jtype`` joint from the selection (text and icon from
    the joint's catalogue record)."""
    record = JOINTS[jtype]
    menu = record.label

    class JointCommand(Command):
        MENU, ICON = menu, record.icon
        TIP = record.tooltip + ". Select one element (joint to the ground) or two elements on two parts."

        def Activated(self) -> None:
            from ..cad.picking import make_joint_from_picks

            doc = active_document()
            picks = selected_picks()
            if not picks:
                task_panels.show(task_panels.JointPanel(doc, jtype=jtype))
                return

            def create() -> App.DocumentObject:
                ensure_simulation(doc)
                return make_joint_from_picks(doc, jtype, picks)

            run_guarded("Create %s" % menu.lower(), doc, create)

    JointCommand.__name__ = "JointCommand_%s" % jtype
    return JointCommand


def _selected_of_type(kind):
    from ..cad.objects import mbd_type

    return [o for o in selected_objects() if mbd_type(o) == kind]


class EditJointFrameCommand(Command):
    MENU, TIP, ICON = "Edit joint frame", "Flip, offset or rotate the frame of the selected joint", "joint_frame"

    def Activated(self) -> None:
        joints = _selected_of_type("Joint")
        if len(joints) != 1:
            message("Edit joint frame", "Select one joint first.", "error")
            return
        import FreeCADGui

        from .joint_panel import JointFramePanel

        FreeCADGui.Control.showDialog(JointFramePanel(joints[0]))


class DriverCommand(Command):
    MENU, ICON = "Driver", "driver"
    TIP = "Drive the selected joint (motor): angle or displacement as a function of time"

    def Activated(self) -> None:
        from ..cad.errors import CadError
        from ..cad.makers import driven_joint_types, make_driver, or_list

        doc = active_document()
        if not selected_objects():
            task_panels.show(task_panels.DriverPanel(doc))
            return

        def create() -> App.DocumentObject:
            joints = _selected_of_type("Joint")
            if not joints:
                raise CadError("a driver needs a joint: select a %s joint first" % or_list(driven_joint_types()))
            return [make_driver(doc, j) for j in joints]

        run_guarded("Create driver", doc, create)


def _pick_bodies(doc, picks):
    """[(Body or None for ground, point [mm])] of picks on parts (bodies made as needed)."""
    from ..cad.makers import check_part, make_body
    from ..cad.objects import body_of_part, find_objects
    from ..cad.picking import pick_frame

    known = [b.Part for b in find_objects(doc, "Body") if b.Part is not None]
    resolved = [pick_frame(root, sub, known) for root, sub in picks]
    for part, _ in resolved:
        if body_of_part(doc, part) is None:
            check_part(part)
    ensure_simulation(doc)
    return [(body_of_part(doc, p) or make_body(doc, p), f.origin) for p, f in resolved]


_SPRING_JOINTS = "/".join(joints_driven_by("rotational"))  # joints that take a rotational spring


class SpringDamperCommand(Command):
    MENU, TIP, ICON = (
        "Spring-damper",
        (
            "Spring-damper between two picked points on two parts, or a rotational "
            "one on the selected %s joint" % _SPRING_JOINTS
        ),
        "spring",
    )

    def Activated(self) -> None:
        from ..cad.errors import CadError
        from ..cad.makers import make_spring_damper

        doc = active_document()
        if not selected_objects():
            task_panels.show(task_panels.SpringPanel(doc))
            return

        def create() -> App.DocumentObject:
            joints = _selected_of_type("Joint")
            if joints:
                return make_spring_damper(doc, None, None, None, None, joint=joints[0])
            picks = selected_picks()
            if len(picks) != 2:
                raise CadError(
                    "a spring-damper needs two picked points (vertices, circle centres, ...) on two "
                    "parts, or a selected %s joint; got %d picks" % (_SPRING_JOINTS, len(picks))
                )
            (b1, p1), (b2, p2) = _pick_bodies(doc, picks)
            return make_spring_damper(doc, b1, p1, b2, p2)

        run_guarded("Create spring-damper", doc, create)


class ForceCommand(Command):
    MENU, TIP, ICON = "Force", "Point force at the picked point of a part (or at the CoG of a selected body)", "force"

    def Activated(self) -> None:
        from ..cad.errors import CadError
        from ..cad.makers import make_force

        doc = active_document()
        if not selected_objects():
            task_panels.show(task_panels.ForcePanel(doc))
            return

        def create() -> App.DocumentObject:
            bodies = _selected_of_type("Body")
            if bodies:
                return make_force(doc, bodies[0])
            picks = selected_picks()
            if len(picks) != 1:
                raise CadError("a force needs one picked point on a part (or a selected body), got %d" % len(picks))
            ((body, point),) = _pick_bodies(doc, picks)
            return make_force(doc, body, point=point)

        run_guarded("Create force", doc, create)


class ExportJsonCommand(Command):
    MENU, TIP, ICON = "Export JSON model", "Write the model as a JSON file for the command-line solver", "export"

    def Activated(self) -> None:
        from ..cad.document_model import export_json
        from .common import main_window, qt_modules

        _, _, QtWidgets = qt_modules()
        doc = active_document()
        path = QtWidgets.QFileDialog.getSaveFileName(
            main_window(), "Export JSON model", doc.Label + ".json", "JSON model (*.json)"
        )[0]
        if path:
            run_guarded("Export JSON model", None, export_json, doc, path)


class ImportAssemblyCommand(Command):
    MENU, ICON = "Import assembly joints", "import_assembly"
    TIP = "Create bodies and joints from a FreeCAD 1.0 Assembly (%s, planar Distance, Grounded)" % ", ".join(
        name for joint in JOINTS.values() for name in joint.assembly_names
    )

    def Activated(self) -> None:
        from ..cad.assembly_import import find_assemblies, import_assembly

        doc = active_document()
        assemblies = find_assemblies(doc)
        if not assemblies:
            message(
                "Import assembly joints", "This document has no Assembly (FreeCAD 1.0 Assembly workbench).", "error"
            )
            return
        report = run_guarded("Import assembly joints", doc, import_assembly, doc, assemblies[0])
        if report is not None:
            message(
                "Import assembly joints",
                report.text(),
                "error" if report.unsupported else "info",
                name="MBD_ImportReport",
            )
