"""MBD Workbench: rigid multibody dynamics for FreeCAD (importable without FreeCAD)."""

__version__ = "0.1.0"
