"""Loads on one body of a run, for a structural (FEM) check: joint reactions, driver efforts,
gravity and d'Alembert inertial loads at an instant, their equilibrium and the load table
(docs/fem.md). Pure Python on a solver Results: no FreeCAD here."""

from .body_loads import BodyLoadError, Load, LoadCase, body_load_case, load_table_rows, worst_instants, write_load_table

__all__ = [
    "BodyLoadError",
    "Load",
    "LoadCase",
    "body_load_case",
    "load_table_rows",
    "worst_instants",
    "write_load_table",
]
