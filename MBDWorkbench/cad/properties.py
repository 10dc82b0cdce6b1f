"""Reading FreeCAD object properties that differ between versions (FreeCAD 0.20 and 1.0, the
Assembly workbench's renamings): the first property present, and a Quantity's value."""

from __future__ import annotations


def first_property(obj, *names, default=None):
    """The value of the first of ``names`` that ``obj`` has, else ``default``."""
    for name in names:
        if hasattr(obj, name):
            return getattr(obj, name)
    return default


def quantity_value(value) -> float:
    """A Quantity's value in FreeCAD's internal unit (mm, s, deg as stored), or a plain number."""
    return float(getattr(value, "Value", value))
