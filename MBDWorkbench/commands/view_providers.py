"""View providers: tree icons, the joint frame, the body's CoG and the symbols of springs and
forces (geometry in :mod:`.symbols`) drawn with Coin3D.

Stateless for pickling (``__getstate__``/``dumps`` return None); the Coin nodes and the
object reference are rebuilt in ``attach`` after a document is reopened. Saved documents
name these classes by module path (``MBDWorkbench.commands.view_providers.<Class>``): keep
them here. The document objects get them through the hooks of
:mod:`MBDWorkbench.cad.gui_hooks`, which InitGui.py points at :data:`HOOKS` at GUI start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cad.objects import mbd_type
from .common import icon

if TYPE_CHECKING:
    import FreeCAD as App
    import FreeCADGui as Gui

ICONS = {
    "Simulation": "simulation",
    "Body": "body",
    "Joint": "joint",
    "Driver": "driver",
    "SpringDamper": "spring",
    "Force": "force",
    "Contact": "contact",
}
AXIS_COLORS = ((0.9, 0.1, 0.1), (0.1, 0.75, 0.1), (0.1, 0.3, 0.95))  # x red, y green, z blue
ICON_PROPERTIES = ("JointType", "Grounded", "Kind", "ForceType")  # properties that choose the tree icon


def icon_name(obj: App.DocumentObject | None) -> str:
    """Tree icon of an MBD object: grounded bodies, each joint type (the catalogue's ``icon``),
    rotational springs and torques have their own."""
    from ..solver.model.catalog import JOINTS

    kind = mbd_type(obj)
    if kind == "Body" and getattr(obj, "Grounded", False):
        return "ground"
    if kind == "Joint" and getattr(obj, "JointType", None) in JOINTS:
        return JOINTS[obj.JointType].icon
    if kind == "SpringDamper" and getattr(obj, "Kind", "") == "rotational":
        return "spring_rotational"
    if kind == "Force" and getattr(obj, "Kind", "") == "torque":
        return "torque"
    if kind == "ForceElement":
        return force_icon(getattr(obj, "ForceType", ""))
    return ICONS.get(kind, "workbench")


def force_icon(ftype: str) -> str:
    """Icon of a catalogue force type: its ``force_<name>.svg`` when present, else the generic
    force or torque icon (by what it applies)."""
    import os

    from ..solver.model.catalog import FORCES

    record = FORCES.get(ftype)
    if record is None:
        return "force"
    return record.icon if os.path.isfile(icon(record.icon)) else record.effort


def _refresh_icon(obj: App.DocumentObject) -> None:
    """Ask the tree to fetch the object's icon again (after a property choosing it changed)."""
    vobj = getattr(obj, "ViewObject", None)
    if vobj is not None and hasattr(vobj, "signalChangeIcon"):
        vobj.signalChangeIcon()


def attach_new(obj: App.DocumentObject) -> None:
    """Give an object a maker just created its view provider (no-op without a ViewObject)."""
    if getattr(obj, "ViewObject", None) is not None:
        attach(obj)


def attach_after_restore(obj: App.DocumentObject) -> None:
    """Once loading has finished, give a restored object our view provider if it has none
    (a document written headless has no GuiDocument.xml)."""
    doc_name, name = obj.Document.Name, obj.Name

    def check() -> None:
        import FreeCAD as App

        doc = App.listDocuments().get(doc_name)
        target = doc.getObject(name) if doc is not None else None
        vobj = getattr(target, "ViewObject", None) if target is not None else None
        if vobj is None:
            return
        if isinstance(getattr(vobj, "Proxy", None), ViewProviderMbd):
            _upgrade_symbol(target)
            return
        attach(target)
        # FreeCAD 0.20 shows a document written headless with everything hidden
        for shown in (target, getattr(target, "Part", None)):
            if shown is not None and mbd_type(shown) != "Simulation" and shown.ViewObject is not None:
                shown.ViewObject.Visibility = True

    try:
        from PySide import QtCore

        QtCore.QTimer.singleShot(0, check)
    except Exception:
        pass


def _upgrade_symbol(obj: App.DocumentObject) -> None:
    """A spring or force saved with the plain view provider (before the symbols) gets its
    symbol one; the document's modified flag is kept."""
    if mbd_type(obj) not in ("SpringDamper", "Force") or isinstance(obj.ViewObject.Proxy, ViewProviderSymbol):
        return
    vobj = obj.ViewObject
    quiet = [name for name in ("Proxy", "DisplayMode") if name in vobj.PropertiesList]
    for name in quiet:  # the Gui document's Modified is read-only: do not set it at all
        vobj.setPropertyStatus(name, "NoModify")
    try:
        attach(obj)
    finally:
        for name in quiet:
            vobj.setPropertyStatus(name, "-NoModify")


def attach(obj: App.DocumentObject) -> None:
    """Give an MBD object its view provider (GUI only)."""
    kind = mbd_type(obj)
    cls = {
        "Joint": ViewProviderJoint,
        "Body": ViewProviderBody,
        "Simulation": ViewProviderSimulation,
        "SpringDamper": ViewProviderSpringDamper,
        "Force": ViewProviderForce,
    }.get(kind, ViewProviderMbd)
    vobj = obj.ViewObject
    proxy = cls(vobj)
    if not hasattr(proxy, "Object"):
        # FreeCAD attaches a view provider once; one that existed without our proxy (a
        # document written headless) is not attached again when the proxy is set
        proxy.attach(vobj)
        modes = proxy.getDisplayModes(vobj)
        if modes:
            try:
                vobj.DisplayMode = list(modes)  # the enumeration was built without our modes
                vobj.DisplayMode = modes[0]
            except Exception:
                pass
        if hasattr(vobj, "signalChangeIcon"):
            vobj.signalChangeIcon()


EDIT_HOOK: list = []  # [callable(obj) -> bool opening obj's task panel], set by task_panels (no import cycle)
HOOKS = {"created": attach_new, "restored": attach_after_restore}  # see cad.gui_hooks.EVENTS


class ViewProviderMbd:
    """Icon, double-click editing and stateless pickling."""

    def __init__(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        vobj.Proxy = self

    def attach(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        self.Object = vobj.Object
        vobj.addDisplayMode(coin_module().SoSeparator(), "Default")  # nothing drawn, shown as visible

    def getIcon(self) -> str:
        return icon(icon_name(getattr(self, "Object", None)))

    def updateData(self, obj: App.DocumentObject, prop: str) -> None:
        if prop in ICON_PROPERTIES:
            _refresh_icon(obj)

    def onChanged(self, vobj: Gui.ViewProviderDocumentObject, prop: str) -> None:
        pass

    def getDisplayModes(self, vobj: Gui.ViewProviderDocumentObject) -> list[str]:
        return ["Default"]

    def getDefaultDisplayMode(self) -> str:
        return "Default"

    def setDisplayMode(self, mode: str) -> str:
        return mode

    def setEdit(self, vobj: Gui.ViewProviderDocumentObject, mode: int = 0) -> bool | None:
        if mode != 0:
            return None
        return bool(EDIT_HOOK) and EDIT_HOOK[0](vobj.Object)

    def unsetEdit(self, vobj: Gui.ViewProviderDocumentObject, mode: int = 0) -> bool:
        import FreeCADGui

        FreeCADGui.Control.closeDialog()
        return True

    def doubleClicked(self, vobj: Gui.ViewProviderDocumentObject) -> bool:
        vobj.Document.setEdit(vobj.Object.Name)
        return True

    def setupContextMenu(self, vobj: Gui.ViewProviderDocumentObject, menu: object) -> None:
        _menu_action(menu, "Edit %s..." % vobj.Object.Label, lambda: vobj.Document.setEdit(vobj.Object.Name))

    def __getstate__(self) -> None:
        return None

    def __setstate__(self, state: object) -> None:
        return None

    def dumps(self) -> None:
        return None

    def loads(self, state: object) -> None:
        return None


class ViewProviderSimulation(ViewProviderMbd):
    """The Simulation container: double click opens the animation when results exist."""

    def attach(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        self.Object = vobj.Object

    def getDisplayModes(self, vobj: Gui.ViewProviderDocumentObject) -> list[str]:
        return []

    def claimChildren(self) -> list[App.DocumentObject]:
        return list(getattr(self.Object, "Group", []))

    def setupContextMenu(self, vobj: Gui.ViewProviderDocumentObject, menu: object) -> None:
        super().setupContextMenu(vobj, menu)
        _menu_action(menu, "Solve", lambda: _run("MBD_Solve"))
        _menu_action(menu, "Animate", lambda: _run("MBD_Animate"))


def _menu_action(menu: object, text: str, callback) -> None:
    """Add an entry to a tree context menu."""
    action = menu.addAction(text)
    action.triggered.connect(callback)


def _run(command: str) -> None:
    import FreeCADGui

    FreeCADGui.runCommand(command)


def coin_module():
    """pivy.coin, imported on first use (the GUI only)."""
    from pivy import coin

    return coin


def _material(color):
    """A material that keeps its colour under any lighting (emissive)."""
    coin = coin_module()
    mat = coin.SoMaterial()
    mat.diffuseColor.setValue(*color)
    mat.emissiveColor.setValue(*[0.7 * c for c in color])
    return mat


def axes_node(length, width=3.0):
    """A separator with three coloured axis lines of ``length`` [mm] and an origin ball."""
    coin = coin_module()
    sep = coin.SoSeparator()
    style = coin.SoDrawStyle()
    style.lineWidth = width
    sep.addChild(style)
    for k, color in enumerate(AXIS_COLORS):
        part = coin.SoSeparator()
        mat = _material(color)
        coords = coin.SoCoordinate3()
        end = [0.0, 0.0, 0.0]
        end[k] = length
        coords.point.setValues(0, 2, [[0.0, 0.0, 0.0], end])
        line = coin.SoLineSet()
        line.numVertices.setValue(2)
        part.addChild(mat)
        part.addChild(coords)
        part.addChild(line)
        tip = coin.SoSeparator()
        move = coin.SoTransform()
        move.translation.setValue(*end)
        # SoCone points along +y: rotate it onto the axis
        if k == 0:
            move.rotation.setValue(coin.SbVec3f(0, 0, 1), -1.5707963)
        elif k == 2:
            move.rotation.setValue(coin.SbVec3f(1, 0, 0), 1.5707963)
        cone = coin.SoCone()
        cone.bottomRadius = length * 0.08
        cone.height = length * 0.25
        tip.addChild(move)
        tip.addChild(cone)
        part.addChild(tip)
        sep.addChild(part)
    ball = coin.SoSeparator()
    mat = _material((1.0, 0.85, 0.0))
    sphere = coin.SoSphere()
    sphere.radius = length * 0.08
    ball.addChild(mat)
    ball.addChild(sphere)
    sep.addChild(ball)
    return sep


def set_transform(transform, placement):
    """Set a coin SoTransform to a FreeCAD Placement (translation [mm], rotation)."""
    m = placement.toMatrix()
    transform.translation.setValue(m.A14, m.A24, m.A34)
    q = placement.Rotation.Q
    transform.rotation.setValue(q[0], q[1], q[2], q[3])


class ViewProviderJoint(ViewProviderMbd):
    """Draws the joint frame (x red, y green, z blue) on top of the geometry."""

    def __init__(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        from .preferences import preference

        vobj.addProperty("App::PropertyLength", "AxisLength", "Joint frame", "Length of the drawn axes")
        vobj.AxisLength = preference("JointAxisLength")
        super().__init__(vobj)

    def attach(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        coin = coin_module()
        self.Object = vobj.Object
        self.root = coin.SoAnnotation() if hasattr(coin, "SoAnnotation") else coin.SoSeparator()
        self.transform = coin.SoTransform()
        self.root.addChild(self.transform)
        self.axes = coin.SoSeparator()
        self.root.addChild(self.axes)
        self._rebuild(vobj)
        vobj.addDisplayMode(self.root, "Frame")
        self.updateData(vobj.Object, "Frame")

    def _rebuild(self, vobj):
        length = float(getattr(getattr(vobj, "AxisLength", 25.0), "Value", getattr(vobj, "AxisLength", 25.0)))
        self.axes.removeAllChildren()
        self.axes.addChild(axes_node(max(length, 1e-3)))

    def getDisplayModes(self, vobj: Gui.ViewProviderDocumentObject) -> list[str]:
        return ["Frame"]

    def getDefaultDisplayMode(self) -> str:
        return "Frame"

    def updateData(self, obj: App.DocumentObject, prop: str) -> None:
        super().updateData(obj, prop)
        if prop == "Frame" and hasattr(self, "transform"):
            set_transform(self.transform, obj.Frame)

    def onChanged(self, vobj: Gui.ViewProviderDocumentObject, prop: str) -> None:
        if prop == "AxisLength" and hasattr(self, "axes"):
            self._rebuild(vobj)


class ViewProviderBody(ViewProviderMbd):
    """Marks the body's centre of gravity with a small ball."""

    def attach(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        coin = coin_module()
        self.Object = vobj.Object
        self.root = coin.SoSeparator()
        self.transform = coin.SoTransform()
        from .preferences import preference, rgb

        mat = _material(rgb(preference("CogColor")))
        self.sphere = coin.SoSphere()
        self.sphere.radius = 2.0
        for node in (self.transform, mat, self.sphere):
            self.root.addChild(node)
        vobj.addDisplayMode(self.root, "CoG")
        self.updateData(vobj.Object, "CenterOfGravity")

    def getDisplayModes(self, vobj: Gui.ViewProviderDocumentObject) -> list[str]:
        return ["CoG"]

    def getDefaultDisplayMode(self) -> str:
        return "CoG"

    def updateData(self, obj: App.DocumentObject, prop: str) -> None:
        super().updateData(obj, prop)
        if prop in ("CenterOfGravity", "Volume") and hasattr(self, "transform"):
            c = obj.CenterOfGravity
            self.transform.translation.setValue(c.x, c.y, c.z)
            self.sphere.radius = max(0.5, 0.05 * max(float(obj.Volume), 0.0) ** (1.0 / 3.0))

    def claimChildren(self) -> list[App.DocumentObject]:
        return []


def follow_parts(doc: App.Document, shown: dict | None, t: float | None = None) -> None:
    """Redraw the spring and force symbols of ``doc`` with the parts shown at ``shown`` ({part
    name: global Placement [mm]}; None: at their document placements) at time ``t`` [s].
    View only: the document is not touched."""
    from ..cad.objects import find_objects

    for obj in find_objects(doc):
        proxy = getattr(getattr(obj, "ViewObject", None), "Proxy", None)
        if isinstance(proxy, ViewProviderSymbol):
            proxy.show(shown, t)


class ViewProviderSymbol(ViewProviderMbd):
    """Draws a spring, damper, force or torque symbol (:func:`.symbols.symbol`): polylines and
    an arrow head in global coordinates, on top of the geometry. ``SymbolSize`` 0 scales it to
    the model (a fifth of the bodies' bounding box diagonal)."""

    def __init__(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        if "SymbolSize" not in vobj.PropertiesList:
            vobj.addProperty(
                "App::PropertyLength", "SymbolSize", "Symbol", "Size of the drawn symbol (0: from the model size)"
            )
        super().__init__(vobj)

    def attach(self, vobj: Gui.ViewProviderDocumentObject) -> None:
        coin = coin_module()
        self.Object = vobj.Object
        self.shown, self.time, self.size = None, None, None
        self.root = coin.SoAnnotation() if hasattr(coin, "SoAnnotation") else coin.SoSeparator()
        style = coin.SoDrawStyle()
        style.lineWidth = 2.0
        self.material = coin.SoMaterial()
        self.coords = coin.SoCoordinate3()
        self.lines = coin.SoLineSet()
        self.head_switch = coin.SoSwitch()
        head = coin.SoSeparator()
        self.head_transform = coin.SoTransform()
        self.cone = coin.SoCone()
        head.addChild(self.head_transform)
        head.addChild(self.cone)
        self.head_switch.addChild(head)
        for node in (style, self.material, self.coords, self.lines, self.head_switch):
            self.root.addChild(node)
        vobj.addDisplayMode(self.root, "Symbol")
        self.redraw()

    def getDisplayModes(self, vobj: Gui.ViewProviderDocumentObject) -> list[str]:
        return ["Symbol"]

    def getDefaultDisplayMode(self) -> str:
        return "Symbol"

    def updateData(self, obj: App.DocumentObject, prop: str) -> None:
        super().updateData(obj, prop)
        if hasattr(self, "root"):
            self.size = None
            self.redraw()

    def onChanged(self, vobj: Gui.ViewProviderDocumentObject, prop: str) -> None:
        if prop == "SymbolSize" and hasattr(self, "root"):
            self.size = None
            self.redraw()

    def symbol_size(self) -> float:
        """SymbolSize [mm], or a fifth of the model size when it is 0."""
        from .preferences import preference
        from .symbols import SIZE_FRACTION, model_size

        if self.size is None:
            given = getattr(getattr(self.Object, "ViewObject", None), "SymbolSize", 0.0)
            given = float(getattr(given, "Value", given) or 0.0)
            fallback = 2.0 * preference("JointAxisLength") / SIZE_FRACTION
            self.size = given if given > 0 else SIZE_FRACTION * model_size(self.Object.Document, fallback)
        return self.size

    def show(self, shown: dict | None, t: float | None = None) -> None:
        """Draw with the parts shown at ``shown`` (see :func:`follow_parts`) at time ``t`` [s]."""
        self.shown, self.time = shown, t
        self.redraw()

    def redraw(self) -> None:
        """Rebuild the coin nodes from the object's properties (an object still being set up
        draws nothing)."""
        from .symbols import Symbol, symbol

        try:
            sym = symbol(self.Object, self.symbol_size(), self.shown, self.time)
        except Exception:
            sym = Symbol()
        self.material.diffuseColor.setValue(*sym.color)
        self.material.emissiveColor.setValue(*[0.7 * c for c in sym.color])
        points = [p for line in sym.lines for p in line]
        self.coords.point.setNum(len(points))
        if points:
            self.coords.point.setValues(0, len(points), points)
        self.lines.numVertices.setNum(len(sym.lines))
        if sym.lines:
            self.lines.numVertices.setValues(0, len(sym.lines), [len(line) for line in sym.lines])
        self._draw_head(sym.head)

    def _draw_head(self, head) -> None:
        """Cone of the arrow head with its tip at ``head[0]`` along ``head[1]`` (or none)."""
        coin = coin_module()
        if head is None:
            self.head_switch.whichChild = -1
            return
        tip, unit = head
        h = 0.2 * self.symbol_size()
        self.cone.height, self.cone.bottomRadius = h, 0.3 * h
        # SoCone is centred on the origin along +y: shift it back by half its height
        self.head_transform.translation.setValue(*[tip[i] - 0.5 * h * unit[i] for i in range(3)])
        self.head_transform.rotation.setValue(coin.SbRotation(coin.SbVec3f(0, 1, 0), coin.SbVec3f(*unit)))
        self.head_switch.whichChild = 0


class ViewProviderSpringDamper(ViewProviderSymbol):
    """A translational spring-damper as a coil between its points, a rotational one as a spiral
    about its joint's axis."""


class ViewProviderForce(ViewProviderSymbol):
    """A point force as an arrow from its point, a torque as a curved arrow about its vector."""
