"""Helpers of the FEM tests that read back a written analysis (not tests themselves): the stress
fit over a cross-section and the re-solve of an analysis with FreeCAD's own FEM tools."""

import shutil

import numpy as np


def section_fit(App, path: str, analysis_name: str, x_mm: float, centroid_yz) -> np.ndarray:
    """(a, b, c) of the plane fit sigma_xx = a + b (y - y0) + c (z - z0) [MPa, MPa/mm] to the
    nodes of the analysis' result within 2 mm of the cut x = x_mm: a the axial stress at the
    section's centroid (y0, z0), b and c the bending gradients."""
    doc = App.openDocument(path)
    try:
        analysis = doc.getObject(analysis_name)
        result = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemResultObjectPython"))
        mesh = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemMeshObject"))
        nodes = mesh.FemMesh.Nodes
        X = np.array([[nodes[n].x, nodes[n].y, nodes[n].z] for n in result.NodeNumbers])
        sxx = np.array(result.NodeStressXX)
    finally:
        App.closeDocument(doc.Name)
    near = np.abs(X[:, 0] - x_mm) < 2.0
    assert near.sum() > 10
    A = np.column_stack([np.ones(near.sum()), X[near, 1] - centroid_yz[0], X[near, 2] - centroid_yz[1]])
    return np.linalg.lstsq(A, sxx[near], rcond=None)[0]


def resolve_from_objects(App, out: str, analysis_name: str, copy: str, mesh_size: float, workdir: str) -> list:
    """Copy ``out`` to ``copy`` and solve its analysis again with FreeCAD's tools alone: results
    removed, Gmsh remesh at ``mesh_size`` [mm], FreeCAD's pre-check (must pass), its CalculiX
    writer (the loads from the FEM objects, none of ours), run and results loaded; returns the
    type names of the analysis' constraint objects."""
    from femmesh.gmshtools import GmshTools
    from femtools import ccxtools, femutils

    shutil.copyfile(out, copy)
    doc = App.openDocument(copy)
    try:
        analysis = doc.getObject(analysis_name)
        kinds = [
            femutils.type_of_obj(o) for o in analysis.Group if femutils.type_of_obj(o).startswith("Fem::Constraint")
        ]
        for o in [o for o in analysis.Group if o.isDerivedFrom("Fem::FemResultObjectPython")]:
            doc.removeObject(o.Name)
        mesh = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemMeshObject"))
        mesh.CharacteristicLengthMax = mesh_size
        doc.recompute()
        assert not GmshTools(mesh).create_mesh()
        solver = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemSolverObjectPython"))
        fea = ccxtools.FemToolsCcx(analysis, solver)
        fea.update_objects()
        fea.setup_working_dir(workdir)
        assert fea.check_prerequisites() == ""
        fea.write_inp_file()
        fea.setup_ccx()
        fea.ccx_run()
        fea.load_results()
        doc.save()
    finally:
        App.closeDocument(doc.Name)
    return kinds
