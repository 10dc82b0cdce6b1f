"""Stress figures of fem-loads' load cases (docs/fem.md): the largest von Mises stress away from
the loaded surfaces and the support nodes (Saint-Venant: next to them the stress depends on how
the load is spread), the safety factors against the yield strength, the envelope over the load
cases (the cases share one mesh) and the pictures of the fields."""

from __future__ import annotations

import os

import numpy as np

from ..report.stress_picture import boundary_triangles, write_stress_png


def von_mises_by_node(result) -> dict:
    """{node id: von Mises [MPa]} of a FreeCAD FEM result object."""
    return dict(zip((int(n) for n in result.NodeNumbers), (float(v) for v in result.vonMises)))


def nodes_away(coords: dict, excluded: set, distance: float) -> list:
    """Node ids farther than ``distance`` [mm] from every node of ``excluded``."""
    from scipy.spatial import cKDTree

    ids = list(coords)
    if not excluded:
        return ids
    tree = cKDTree(np.array([coords[n] for n in excluded]))
    gaps, _ = tree.query(np.array([coords[n] for n in ids]))
    return [n for n, gap in zip(ids, gaps) if gap > distance]


def _safety(yield_mpa: float | None, stress: float | None) -> float | None:
    return yield_mpa / stress if yield_mpa and stress else None


def case_stresses(vm: dict, coords: dict, away: list, yield_mpa: float | None) -> dict:
    """Largest von Mises [MPa] away from the loads and where [mm], and the safety factors
    (yield / largest von Mises, overall and away from the loads; None without a yield strength)."""
    top = max(vm.values())
    far = max(away, key=lambda n: vm[n]) if away else None
    return dict(
        max_von_mises_away_MPa=vm[far] if far is not None else None,
        max_von_mises_away_at_mm=coords[far].tolist() if far is not None else None,
        safety_factor=_safety(yield_mpa, top),
        safety_factor_away=_safety(yield_mpa, vm[far] if far is not None else None),
    )


def envelope(fields: list, labels: list, coords: dict, away: list, yield_mpa: float | None) -> dict:
    """Per node the largest von Mises over the cases' ``fields`` ({node: MPa}, one mesh), its
    maximum, where and in which case (``labels``), the same away from the loads, the safety factors."""
    nodes = list(fields[0])
    stack = np.array([[f[n] for n in nodes] for f in fields])
    worst = stack.max(axis=0)
    field = dict(zip(nodes, worst.tolist()))
    k = int(np.argmax(worst))
    record = dict(
        max_von_mises_MPa=float(worst[k]),
        max_von_mises_at_mm=coords[nodes[k]].tolist(),
        governing_case=labels[int(np.argmax(stack[:, k]))],
    )
    record.update(case_stresses(field, coords, away, yield_mpa))
    return record, field


def stress_picture(path: str, coords: dict, elements: list, vm: dict, title: str, top=None) -> str:
    """The PNG of the von Mises field on the mesh's outer faces (colour scale up to ``top``
    [MPa], the largest stress away from the loads); returns its absolute path."""
    write_stress_png(path, coords, boundary_triangles(elements), vm, title, top)
    return os.path.abspath(path)
