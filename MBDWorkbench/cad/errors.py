"""The error of the FreeCAD side: an object or a pick cannot be used as asked."""

from __future__ import annotations


class CadError(ValueError):
    """A FreeCAD object cannot be used as asked (no solid, zero volume, ...)."""
