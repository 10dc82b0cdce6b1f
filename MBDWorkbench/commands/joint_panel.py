"""Task panel to adjust a joint's frame: flip the axis, offset along it, rotate about it.

The frame shown in the 3D view updates live; OK keeps the change as one undoable step,
Cancel restores the frame the joint had when the panel opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cad.joint_references import set_joint_frame
from ..cad.placement import adjusted_frame
from .common import dialog_buttons, qt_modules, record_call, translate

if TYPE_CHECKING:
    import FreeCAD as App

_open: list[JointFramePanel] = []


def open_panel() -> JointFramePanel | None:
    """The open JointFramePanel, or None."""
    return _open[0] if _open else None


class JointFramePanel:
    """Flip / offset / rotate the frame of one joint."""

    def __init__(self, joint: App.DocumentObject) -> None:
        _, _, QtWidgets = qt_modules()
        self.joint = joint
        self.doc = joint.Document
        import FreeCAD as App

        self.original = App.Placement(joint.Frame)
        self.form = QtWidgets.QWidget()
        self.form.setObjectName("MBD_JointFramePanel")
        self.form.setWindowTitle(translate("MBD", "Joint frame: %s") % joint.Label)
        outer = QtWidgets.QVBoxLayout(self.form)
        sides = [b.Label if b is not None else "ground" for b in (joint.Body1, joint.Body2)]
        title = QtWidgets.QLabel("%s (%s)\n%s - %s" % (joint.Label, joint.JointType, sides[0], sides[1]))
        title.setWordWrap(True)
        outer.addWidget(title)
        layout = QtWidgets.QFormLayout()
        outer.addLayout(layout)
        self.flip = QtWidgets.QCheckBox(translate("MBD", "Reverse the z axis"))
        self.flip.setObjectName("flip")
        self.offset = QtWidgets.QDoubleSpinBox()
        self.offset.setObjectName("offset")
        self.offset.setRange(-1e6, 1e6)
        self.offset.setDecimals(3)
        self.offset.setSuffix(" mm")
        self.rotation = QtWidgets.QDoubleSpinBox()
        self.rotation.setObjectName("rotation")
        self.rotation.setRange(-360.0, 360.0)
        self.rotation.setDecimals(2)
        self.rotation.setSuffix(" deg")
        layout.addRow(translate("MBD", "Flip"), self.flip)
        layout.addRow(translate("MBD", "Offset"), self.offset)
        layout.addRow(translate("MBD", "Rotation"), self.rotation)
        self.info = QtWidgets.QLabel()
        self.info.setWordWrap(True)
        outer.addWidget(self.info)
        self.flip.toggled.connect(self.update)
        self.offset.valueChanged.connect(self.update)
        self.rotation.valueChanged.connect(self.update)
        self.doc.openTransaction("Edit joint frame")
        _open[:] = [self]
        self.update()

    def set_values(
        self, flip: bool | None = None, offset_mm: float | None = None, rotation_deg: float | None = None
    ) -> None:
        """Set the controls (as the user would) and update the frame."""
        if flip is not None:
            self.flip.setChecked(bool(flip))
        if offset_mm is not None:
            self.offset.setValue(float(offset_mm))
        if rotation_deg is not None:
            self.rotation.setValue(float(rotation_deg))
        self.update()

    def update(self, *args: object) -> None:
        frame = adjusted_frame(self.original, self.flip.isChecked(), self.offset.value(), self.rotation.value())
        set_joint_frame(self.joint, frame)  # a parametric joint: its Offset1
        z = frame.Rotation.multVec(type(frame.Base)(0, 0, 1))
        self.info.setText(
            translate("MBD", "Origin (%.2f, %.2f, %.2f) mm\nz axis (%.3f, %.3f, %.3f)")
            % (frame.Base.x, frame.Base.y, frame.Base.z, z.x, z.y, z.z)
        )

    def getStandardButtons(self) -> int:
        return dialog_buttons("Ok", "Cancel")

    def accept(self) -> bool:
        frame = adjusted_frame(self.original, self.flip.isChecked(), self.offset.value(), self.rotation.value())
        record_call("MBDWorkbench.cad.joint_references", "set_joint_frame", self.joint, frame)  # for macros
        self.doc.commitTransaction()
        self._close()
        return True

    def reject(self) -> bool:
        set_joint_frame(self.joint, self.original)
        self.doc.abortTransaction()
        self._close()
        return True

    def _close(self):
        import FreeCADGui

        _open[:] = []
        self.doc.recompute()
        FreeCADGui.Control.closeDialog()
        gui_doc = FreeCADGui.getDocument(self.doc.Name)
        if gui_doc is not None and gui_doc.getInEdit() is not None:
            gui_doc.resetEdit()
