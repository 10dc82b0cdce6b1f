"""Motion loads into a FreeCAD FEM analysis solved by CalculiX (docs/fem.md).

For one body of a document's mechanism and one or more instants of its simulated motion:
the load set of :mod:`MBDWorkbench.loads` (joint reactions, driver efforts, gravity,
d'Alembert loads; refused unless in equilibrium) is moved from the body's pose at the instant
to its pose in the document, and an Analysis is built with FreeCAD's objects (solid material,
Gmsh mesh, CalculiX ccxtools solver). FemToolsCcx writes the .inp; the exact nodal loads and a
3-2-1 support are added to it (:mod:`MBDWorkbench.loads.nodal`), CalculiX runs and the results
(von Mises, displacement) are loaded into the Analysis. The support reactions are read back and
must be ~0. The user's document is never written: the analysis goes into a copy."""

from __future__ import annotations

import contextlib
import glob
import io
import math
import os
import re
import shutil
from dataclasses import dataclass

import numpy as np

from ..loads import BodyLoadError, body_load_case, worst_instants, write_load_table
from ..loads.body_loads import case_summary, critical_instants, unmodelled_forces, write_json
from ..loads.force_loads import FORCE_ELEMENT_KINDS
from ..loads.nodal import (
    MAX_MESH_ELEMENTS,
    MESH_SIZE_RANGE_MM,
    TETS_PER_CUBE,
    WORST_MAX,
    YOUNGS_MODULUS_RANGE_MPA,
    bearing_forces,
    body_force_loads,
    estimated_elements,
    inp_additions,
    rbe3_forces,
    resultant,
    support_321,
    support_reactions,
)
from .errors import CadError
from .fem_objects import OBJECTS_TOL, add_load_objects
from .fem_results import case_stresses, envelope, nodes_away, stress_picture, von_mises_by_node
from .fem_surfaces import joint_surfaces, outward_normals, surface_centroid, surface_nodes
from .objects import MATERIALS

MATERIAL_DIR = "/usr/share/freecad/Mod/Material/StandardMaterial"
MATERIAL_CARDS = {  # Body.Material -> FreeCAD material card with E and Poisson's ratio
    "Steel": "Steel-Generic",
    "Aluminium": "Aluminum-Generic",
    "Copper": "Copper-Generic",
    "ABS": "ABS-Generic",
    "PLA": "PLA-Generic",
    "Nylon": "PA6-Generic",
}
SUPPORT_TOL = 0.01  # support reactions allowed, relative to the largest load
AWAY_FROM_LOADS = 2.0  # "away from the loads": farther than this many mesh sizes from loaded and supported nodes


@dataclass
class FemRequest:
    """What to analyse: document, body (label or model name), instants (``time`` [s], or the
    ``worst`` N instants of the largest joint reaction; default the worst one), output copy
    ``out``; ``critical``: every critical instant (the peak of each joint's reaction and of the
    inertial force and moment) as load cases; Young's modulus [MPa], Poisson's ratio and the
    yield strength [MPa] override the material card; ``mesh_size``
    [mm] the largest element (default: half the part's smallest bounding-box side); ``report``: a
    folder for the motion-study report with its "Structural check" section."""

    document: str
    body: str
    out: str
    time: float | None = None
    worst: int | None = None
    overwrite: bool = False
    youngs_modulus: float | None = None
    poisson: float | None = None
    mesh_size: float | None = None
    report: str | None = None
    critical: bool = False
    yield_strength: float | None = None


def check_request(req: FemRequest) -> None:
    """CadError naming the field when a number of the request is out of range (before anything is done)."""
    if req.time is not None and not math.isfinite(req.time):
        raise CadError("--time must be a finite number, got %r" % req.time)
    if req.worst is not None and not (isinstance(req.worst, int) and 1 <= req.worst <= WORST_MAX):
        raise CadError("--worst must be a whole number from 1 to %d, got %r" % (WORST_MAX, req.worst))
    if req.mesh_size is not None and not MESH_SIZE_RANGE_MM[0] <= req.mesh_size <= MESH_SIZE_RANGE_MM[1]:
        raise CadError("--mesh-size must be from %g to %g mm, got %r" % (*MESH_SIZE_RANGE_MM, req.mesh_size))
    low, high = YOUNGS_MODULUS_RANGE_MPA
    if req.youngs_modulus is not None and not low <= req.youngs_modulus <= high:
        raise CadError("--youngs-modulus must be from %g to %g MPa, got %r" % (low, high, req.youngs_modulus))
    if req.yield_strength is not None and not (math.isfinite(req.yield_strength) and req.yield_strength > 0):
        raise CadError("--yield-strength must be a finite stress above 0 MPa, got %r" % req.yield_strength)
    if req.critical and (req.time is not None or req.worst is not None):
        raise CadError("--critical analyses every critical instant: give it without --time or --worst")


def mesh_size(req: FemRequest, body_obj, shape) -> float:
    """The largest element size [mm] (``req.mesh_size``, default half the part's thinnest
    bounding-box side, at least 0.5 mm); CadError when the estimated mesh exceeds MAX_MESH_ELEMENTS."""
    bb = shape.BoundBox
    size = req.mesh_size or max(0.5, min(bb.XLength, bb.YLength, bb.ZLength) / 2.0)
    volume = float(sum(s.Volume for s in shape.Solids))
    count = estimated_elements(volume, size)
    if count > MAX_MESH_ELEMENTS:
        smallest = (TETS_PER_CUBE * volume / MAX_MESH_ELEMENTS) ** (1.0 / 3.0)
        raise CadError(
            "body '%s': a mesh size of %g mm gives at least %.3g elements on its part '%s' (%.4g mm^3), more "
            "than the limit of %d: give --mesh-size %.3g or more"
            % (body_obj.Label, size, count, body_obj.Part.Label, volume, MAX_MESH_ELEMENTS, smallest)
        )
    return size


def output_paths(out: str) -> dict:
    """Files written next to the copy ``out``: summary, load table, CalculiX folder."""
    stem = os.path.splitext(out)[0]
    return dict(
        document=out,
        summary=stem + "_fem.json",
        loads_csv=stem + "_loads.csv",
        loads_json=stem + "_loads.json",
        ccx=stem + "_ccx",
    )


def check_outputs(req: FemRequest) -> dict:
    """The output paths; CadError when one exists (without ``overwrite``) or ``out`` is the document."""
    if not req.out.lower().endswith(".fcstd"):
        raise CadError("--out must be a .FCStd file, got %r" % req.out)
    if os.path.realpath(req.out) == os.path.realpath(req.document):
        raise CadError("--out %s is the document itself: the analysis goes into a copy" % req.out)
    paths = output_paths(req.out)
    existing = [p for p in paths.values() if os.path.exists(p)]
    if req.report:
        from ..report import report_files

        existing += [p for p in (os.path.join(req.report, n) for n in report_files()) if os.path.exists(p)]
    if existing and not req.overwrite:
        raise CadError("%s exists (give --overwrite to replace it)" % ", ".join(existing))
    if req.report and _file_in_the_way(req.report):
        raise CadError("--report %s: %s is a file, not a folder" % (req.report, _file_in_the_way(req.report)))
    if not os.path.isdir(os.path.dirname(os.path.abspath(req.out))):
        raise CadError("folder of --out %s does not exist" % req.out)
    return paths


def _file_in_the_way(folder: str) -> str:
    """The existing file (not folder) at ``folder`` or above it, else ''."""
    path = os.path.abspath(folder)
    while not os.path.exists(path):
        path = os.path.dirname(path)
    return "" if os.path.isdir(path) else path


# ----------------------------------------------------------------------------- document side
def find_body(doc, mapping: dict, name: str):
    """(model name, Body object) of a body given by its label, model name or part label."""
    for model_name, info in mapping["bodies"].items():
        obj = doc.getObject(info["body_object"])
        if name in (model_name, obj.Label, obj.Name, getattr(obj.Part, "Label", None)):
            return model_name, obj
    raise CadError("no body '%s' in the document (bodies: %s)" % (name, ", ".join(sorted(mapping["bodies"]))))


def body_solid(body_obj):
    """The part's shape (global, mm) with at least one solid; CadError naming the body otherwise."""
    part = body_obj.Part
    shape = getattr(part, "Shape", None)
    if shape is None or shape.isNull() or not shape.Solids:
        raise CadError("body '%s': its part '%s' has no solid to mesh" % (body_obj.Label, getattr(part, "Label", "?")))
    return shape


def read_material_card(path: str) -> dict:
    """Key = value lines of a FreeCAD .FCMat card."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if "=" in line and not line.lstrip().startswith((";", "[", "#")):
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    return out


def _mpa(text: str) -> float:
    """A card's pressure value ('200000 MPa', '210 GPa') in MPa."""
    m = re.match(r"\s*([-+0-9.eE]+)\s*(\w*)", text)
    factor = {"": 1.0, "MPa": 1.0, "GPa": 1e3, "kPa": 1e-3, "Pa": 1e-6}.get(m.group(2), None) if m else None
    if factor is None:
        raise ValueError(text)
    return float(m.group(1)) * factor


def yield_strength(body_obj, req: FemRequest) -> tuple[float | None, str]:
    """(yield strength [MPa] or None, source): ``req.yield_strength``, else the YieldStrength of
    the material card of the body's Material (FreeCAD 0.20's Steel-Generic has none)."""
    if req.yield_strength is not None:
        return float(req.yield_strength), "given"
    card_name = MATERIAL_CARDS.get(body_obj.Material)
    path = os.path.join(MATERIAL_DIR, "%s.FCMat" % card_name)
    if card_name and os.path.isfile(path):
        with contextlib.suppress(KeyError, ValueError):
            return _mpa(read_material_card(path)["YieldStrength"]), "card " + card_name
    return None, "none: the material card '%s' has no YieldStrength (give --yield-strength MPA)" % card_name


def material_constants(body_obj, req: FemRequest) -> tuple[float, float, str]:
    """(E [MPa], Poisson's ratio, source) from the request or the material card of the body's
    Material; CadError naming the body when they are missing."""
    if req.youngs_modulus is not None and req.poisson is not None:
        return float(req.youngs_modulus), float(req.poisson), "given"
    card_name = MATERIAL_CARDS.get(body_obj.Material)
    card = {}
    if card_name and os.path.isfile(os.path.join(MATERIAL_DIR, card_name + ".FCMat")):
        card = read_material_card(os.path.join(MATERIAL_DIR, card_name + ".FCMat"))
    try:
        E = req.youngs_modulus if req.youngs_modulus is not None else _mpa(card["YoungsModulus"])
        nu = req.poisson if req.poisson is not None else float(card["PoissonRatio"])
    except (KeyError, ValueError):
        raise CadError(
            "body '%s': no Young's modulus and Poisson's ratio for its material '%s' (materials with a card: %s); "
            "give --youngs-modulus MPA and --poisson NU"
            % (body_obj.Label, body_obj.Material, ", ".join(MATERIAL_CARDS))
        ) from None
    low, high = YOUNGS_MODULUS_RANGE_MPA
    if not (low <= E <= high and -1 < nu < 0.5):
        raise CadError(
            "body '%s': Young's modulus %g MPa / Poisson's ratio %g are not valid (E from %g to %g MPa, "
            "Poisson's ratio above -1 and below 0.5)" % (body_obj.Label, E, nu, low, high)
        )
    return float(E), float(nu), ("card " + card_name if card_name and req.youngs_modulus is None else "given")


# ----------------------------------------------------------------------------- load cases
def instants(res, body: str, req: FemRequest) -> list:
    """[(sample index, why)] to analyse."""
    if req.time is not None:
        t = np.asarray(res.t)
        if not t[0] - 1e-12 <= req.time <= t[-1] + 1e-12:
            raise CadError("--time %g s is outside the run [%g, %g] s" % (req.time, t[0], t[-1]))
        return [(int(np.argmin(np.abs(t - req.time))), "requested time")]
    if req.critical:
        return [(k, "; ".join(why)) for k, why in critical_instants(res, body)]
    worst = worst_instants(res, body, req.worst or 1)
    return [(k, "largest joint reaction" + (" #%d" % (i + 1) if req.worst else "")) for i, k in enumerate(worst)]


def to_document_pose(case, p0: np.ndarray, R0: np.ndarray) -> tuple:
    """(map of points, map of vectors) from the body's pose at the instant to its document pose (m)."""
    Q = R0 @ case.rotation.T
    return (lambda x: p0 + Q @ (np.asarray(x) - case.cog)), (lambda v: Q @ np.asarray(v))


# ----------------------------------------------------------------------------- FEM
def _mesh_arrays(fem_mesh) -> tuple[dict, list]:
    """Node coordinates {id: (3,) mm} and volume elements (node id tuples)."""
    coords = {n: np.array([v.x, v.y, v.z]) for n, v in fem_mesh.Nodes.items()}
    elements = [tuple(fem_mesh.getElementNodes(e)) for e in fem_mesh.Volumes]
    return coords, elements


def joint_nodal_forces(surface, fem_mesh, shape, coords: dict, P: np.ndarray, F: np.ndarray, M: np.ndarray):
    """(node ids, forces (n, 3) [N]) of a joint's wrench (F at P [m], M about P) on its surface:
    a bearing pressure on a bore or shaft, else RBE3-like; CadError naming the joint when the
    nodes cannot carry it (a moment about a hinge line)."""
    node_ids = surface_nodes(surface, fem_mesh, shape)
    X = np.array([coords[n] for n in node_ids]) * 1e-3
    if surface.bearing:
        normals = outward_normals(surface, fem_mesh, shape, coords)
        forces = bearing_forces(X, np.array([normals[n] for n in node_ids]), P, F, M)
    else:
        forces = rbe3_forces(X, P, F, M)
    sF, sM = resultant(X, forces, P)
    size = np.ptp(X, axis=0).max() if len(X) > 1 else 0.0
    scale = max(np.linalg.norm(F), np.linalg.norm(M) / max(size, 1e-3), 1e-300)
    if max(np.linalg.norm(sF - F), np.linalg.norm(sM - M) / max(size, 1e-3)) > 1e-6 * scale:
        raise CadError(
            "joint '%s': its load (moment %s N m) cannot be carried by %s alone; pick the joint on faces"
            % (surface.joint, np.round(M, 6).tolist(), ", ".join(surface.references))
        )
    return node_ids, forces


def nodal_loads(case, faces: dict, fem_mesh, shape, p0_mm: np.ndarray, R0: np.ndarray, volume_mm3: float) -> tuple:
    """{node: force [N]} of the case on the mesh in the document pose (``faces``: {joint:
    LoadSurface}), the node coordinates [mm], the body-force correction size and the loads as
    :func:`MBDWorkbench.cad.fem_objects.add_load_objects` takes them (document pose)."""
    point, vector = to_document_pose(case, p0_mm * 1e-3, R0)
    coords, elements = _mesh_arrays(fem_mesh)
    loads: dict = {}

    def add(node_ids, forces):
        for n, f in zip(node_ids, forces):
            loads[n] = loads.get(n, np.zeros(3)) + f

    forces = []
    for ld in case.loads:
        if ld.kind not in ("joint", "driver"):
            continue
        centroid = surface_centroid(faces[ld.joint], shape)
        moment = vector(ld.moment) + np.cross(point(ld.point) - centroid * 1e-3, vector(ld.force))
        forces.append((ld.name, faces[ld.joint], vector(ld.force), centroid, moment))
        add(*joint_nodal_forces(faces[ld.joint], fem_mesh, shape, coords, point(ld.point), vector(ld.force),
                                vector(ld.moment)))  # fmt: skip
    rho = case.mass / (volume_mm3 * 1e-9)
    g, a, al, w = (vector(v) for v in (case.gravity, case.acceleration, case.alpha, case.omega))
    c = p0_mm * 1e-3
    I = vector(np.eye(3)) @ case.inertia @ vector(np.eye(3)).T

    def body_force(x_mm):
        r = x_mm * 1e-3 - c
        return rho * (g - a - np.cross(al, r) - np.cross(w, np.cross(w, r))) * 1e-9  # N per mm^3

    rigid_F = case.mass * (g - a)
    rigid_M = -(I @ al + np.cross(w, I @ w))
    inertial, correction = body_force_loads(coords, elements, body_force, rigid_F, rigid_M * 1e3, p0_mm)
    add(list(inertial), list(inertial.values()))
    field = dict(g_eff=g - a, omega=w, cog=p0_mm, mass=case.mass, gyroscopic=-np.cross(w, I @ w), size=case.size(),
                 largest=case.largest_load())  # fmt: skip
    return loads, coords, correction, (forces, field)


def make_analysis(doc, part, label: str, E: float, nu: float, rho: float, mesh_size: float, workdir: str, shared=None):
    """Analysis with solver, solid material and Gmsh mesh of ``part`` (meshed, or a copy of the
    FemMesh ``shared``: the load cases of one request share one mesh)."""
    import ObjectsFem
    from femmesh.gmshtools import GmshTools

    analysis = ObjectsFem.makeAnalysis(doc, label)
    make_solver = getattr(ObjectsFem, "makeSolverCalculiXCcxTools", None)  # FreeCAD 1.x; 0.20: ...Calculix...
    solver = (make_solver or ObjectsFem.makeSolverCalculixCcxTools)(doc, label + "_CalculiX")
    solver.WorkingDir = workdir
    solver.AnalysisType = "static"
    solver.GeometricalNonlinearity = "linear"
    solver.SplitInputWriter = False
    analysis.addObject(solver)
    material = ObjectsFem.makeMaterialSolid(doc, label + "_Material")
    card = material.Material
    card.update(
        Name=label + " material",
        YoungsModulus="%r MPa" % float(E),
        PoissonRatio=repr(float(nu)),
        Density="%r kg/m^3" % float(rho),
    )
    material.Material = card
    analysis.addObject(material)
    mesh = ObjectsFem.makeMeshGmsh(doc, label + "_Mesh")
    setattr(mesh, "Shape" if hasattr(mesh, "Shape") else "Part", part)  # FreeCAD 1.x: Shape; 0.20: Part
    mesh.CharacteristicLengthMax = mesh_size
    mesh.ElementOrder = "2nd"
    analysis.addObject(mesh)
    doc.recompute()
    if shared is not None:
        mesh.FemMesh = shared.copy()
        return analysis, solver, mesh
    error = GmshTools(mesh).create_mesh()
    if error or mesh.FemMesh.VolumeCount == 0:
        raise CadError("Gmsh could not mesh part '%s': %s" % (part.Label, error or "no volume elements"))
    return analysis, solver, mesh


def solve(analysis, solver, loads: dict, coords: dict, workdir: str) -> dict:
    """Write the .inp (FemToolsCcx) with our loads and support, run CalculiX, load its results."""
    from femtools import ccxtools

    fea = ccxtools.FemToolsCcx(analysis, solver)
    fea.update_objects()
    fea.setup_working_dir(workdir)
    with contextlib.redirect_stdout(io.StringIO()):  # the writer prints its material sets
        fea.write_inp_file()
    if not fea.inp_file_name:
        raise CadError("FreeCAD's CalculiX writer wrote no input file")
    support = support_321(coords)
    with open(fea.inp_file_name) as fh:
        text = fh.read()
    with open(fea.inp_file_name, "w") as fh:
        fh.write(inp_additions(text, loads, support))
    fea.setup_ccx()
    fea.ccx_run()
    base = os.path.splitext(fea.inp_file_name)[0]
    if not os.path.isfile(base + ".frd"):
        raise CadError("CalculiX did not solve (see %s.dat and the ccx output)" % base)
    fea.load_results()
    with open(base + ".dat") as fh:
        reactions = support_reactions(fh.read(), loads, support)
    result = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemResultObjectPython"))
    return dict(result=result, reactions=reactions, support=support, inp=fea.inp_file_name)


def result_summary(result, coords: dict) -> dict:
    """Max von Mises [MPa] and max displacement [mm], with where (document pose, mm)."""
    ids = list(result.NodeNumbers)
    vm = np.array(result.vonMises)
    disp = np.array(result.DisplacementLengths)
    k, d = int(np.argmax(vm)), int(np.argmax(disp))
    return dict(
        max_von_mises_MPa=float(vm[k]),
        max_von_mises_at_mm=coords[ids[k]].tolist(),
        max_displacement_mm=float(disp[d]),
        max_displacement_at_mm=coords[ids[d]].tolist(),
    )


# ----------------------------------------------------------------------------- the command
def prepare(req: FemRequest):
    """Everything checked before anything is kept: a private copy of the document
    (``<out>.part.FCStd``, removed on error; the user's document, even when open in the GUI, is
    not touched) opened headless, its model, body, solid, material constants and joint faces.
    Raises CadError naming what is wrong."""
    import FreeCAD as App

    from .archive import check_document_file
    from .document_model import document_model
    from .freecad_env import import_freecad

    check_request(req)
    paths = check_outputs(req)
    import_freecad()
    check_fem_tools()
    if not os.path.isfile(req.document):
        raise CadError("%s: file not found" % req.document)
    check_document_file(req.document)
    work = paths["document"] + ".part.FCStd"
    shutil.copyfile(req.document, work)
    doc = None
    try:
        doc = App.openDocument(work)
        doc.recompute()
        model, mapping = document_model(doc)
        body, body_obj = find_body(doc, mapping, req.body)
        shape = body_solid(body_obj)
        size = mesh_size(req, body_obj, shape)
        E, nu, source = material_constants(body_obj, req)
        yield_mpa, yield_source = yield_strength(body_obj, req)
        faces = joint_surfaces(doc, model, body, body_obj, shape)
    except Exception:
        discard(doc, work)
        raise
    return dict(
        doc=doc, work=work, model=model, body=body, body_obj=body_obj, shape=shape, faces=faces, E=E, nu=nu,
        material_source=source, paths=paths, mesh_size=size, yield_strength=yield_mpa, yield_source=yield_source,
    )  # fmt: skip


def check_fem_tools() -> None:
    """CadError unless FreeCAD's FEM module, Gmsh and CalculiX are there."""
    try:
        import ObjectsFem  # noqa: F401
        from femtools import ccxtools  # noqa: F401
    except ImportError as exc:
        raise CadError("FreeCAD's FEM module is not available: %s" % exc) from None
    missing = [f"{tool} (Debian package {pkg})" for tool, pkg in (("gmsh", "gmsh"), ("ccx", "calculix-ccx"))]
    missing = [m for m in missing if shutil.which(m.split()[0]) is None]
    if missing:
        raise CadError("the FEM check needs %s: not found on PATH" % " and ".join(missing))


def discard(doc, work: str) -> None:
    """Close the private copy and delete its file."""
    import FreeCAD as App

    if doc is not None:
        App.closeDocument(doc.Name)
    for path in [work] + glob.glob(glob.escape(work) + "[0-9]*"):  # and FreeCAD's backups of it
        if os.path.exists(path):
            os.remove(path)


def load_cases(ctx: dict, req: FemRequest, results=None) -> tuple:
    """(Results, load cases) of the request, each checked for equilibrium (BodyLoadError -> CadError)."""
    from ..solver.results.status import COMPLETED, COMPLETED_WITH_WARNINGS
    from ..solver.simulate import simulate

    res = results if results is not None else simulate(ctx["model"])
    if res.status not in (COMPLETED, COMPLETED_WITH_WARNINGS):
        raise CadError("the simulation did not complete (%s): %s" % (res.status, res.message))
    try:
        chosen = instants(res, ctx["body"], req)
        cases = [body_load_case(res, ctx["body"], k) for k, _ in chosen]
        ctx["reasons"] = [why for _, why in chosen]
        for case in cases:
            case.check_equilibrium(unmodelled=unmodelled_forces(res.model, ctx["body"]))
    except BodyLoadError as exc:
        raise CadError(str(exc)) from None
    acting = [ld for c in cases for ld in c.loads if ld.kind in FORCE_ELEMENT_KINDS]
    untransferred = sorted({ld.name for ld in acting if ld.force.any() or ld.moment.any()})
    if untransferred:  # the nodal loads take joints, drivers, gravity and inertia only
        raise CadError(
            "force elements act on body '%s': %s; the FEM check does not transfer their loads to the mesh"
            % (ctx["body"], ", ".join(untransferred))
        )
    for case in cases:
        for ld in case.loads:
            ld.references = ctx["faces"][ld.joint].references if ld.joint in ctx["faces"] else []
    return res, cases


def fem_loads(req: FemRequest, results=None) -> dict:
    """Run the request (module docstring); returns the summary written to ``<out>_fem.json``."""
    ctx = prepare(req)
    try:
        res, cases = load_cases(ctx, req, results)
        summary = _analyse(ctx, req, cases)
    finally:
        discard(ctx["doc"], ctx["work"])
    if req.report:
        from ..report import write_report

        summary["report"] = write_report(res, req.report, overwrite=req.overwrite, structural=[summary])
    return summary


def _analyse(ctx: dict, req: FemRequest, cases: list) -> dict:
    """Build, solve and save; the document copy is written last (renamed into place)."""
    paths, doc, body_obj, shape = ctx["paths"], ctx["doc"], ctx["body_obj"], ctx["shape"]
    mb = next(b for b in ctx["model"].bodies if b.name == ctx["body"])
    p0_mm = np.asarray(mb.position) * 1e3
    from ..solver.numerics.quaternion import matrices

    R0 = matrices(np.asarray([mb.orientation], float))[0]
    volume = float(sum(s.Volume for s in shape.Solids))
    size = ctx["mesh_size"]
    if os.path.isdir(paths["ccx"]) and req.overwrite:
        shutil.rmtree(paths["ccx"])
    os.makedirs(paths["ccx"])
    summary = dict(
        document=os.path.abspath(req.document),
        copy=os.path.abspath(paths["document"]),
        body=ctx["body"],
        part=body_obj.Part.Label,
        youngs_modulus_MPa=ctx["E"],
        poisson_ratio=ctx["nu"],
        material_source=ctx["material_source"],
        yield_strength_MPa=ctx["yield_strength"],
        yield_strength_source=ctx["yield_source"],
        mesh_size_mm=size,
        support="3-2-1 (statically determinate); its reactions are checked to be below %g of the largest load"
        % SUPPORT_TOL,
        load_surfaces={j: dict(references=sf.references, bearing=sf.bearing) for j, sf in ctx["faces"].items()},
        warnings=[sf.warning for sf in ctx["faces"].values() if sf.warning],
        cases=[],
    )
    shared, fields, labels = None, [], []
    for case, reason in zip(cases, ctx.get("reasons") or [""] * len(cases)):
        label = "FEM_%s_t%s" % (body_obj.Label, ("%.4f" % case.time).replace(".", "_"))
        workdir = os.path.join(paths["ccx"], label)
        os.makedirs(workdir)
        rho = case.mass / (volume * 1e-9)
        analysis, solver, mesh = make_analysis(
            doc, body_obj.Part, label, ctx["E"], ctx["nu"], rho, size, workdir, shared
        )
        shared = shared or mesh.FemMesh
        loads, coords, correction, for_objects = nodal_loads(case, ctx["faces"], mesh.FemMesh, shape, p0_mm, R0, volume)
        X = np.array([coords[n] for n in loads])
        F = np.array(list(loads.values()))
        sum_F, sum_M = resultant(X * 1e-3, F, p0_mm * 1e-3)
        solved = solve(analysis, solver, loads, coords, workdir)
        largest = case.largest_load()
        worst_reaction = float(np.abs(solved["reactions"]).max())
        record = case_summary(case)
        record.update(
            analysis=analysis.Name,
            mesh_nodes=mesh.FemMesh.NodeCount,
            mesh_volumes=mesh.FemMesh.VolumeCount,
            nodal_load_sum_N=sum_F.tolist(),
            nodal_moment_sum_Nm=sum_M.tolist(),
            body_force_correction=correction,
            support_nodes=[[int(n), int(d)] for n, d in solved["support"]],
            support_reactions_N=solved["reactions"].tolist(),
            support_reaction_relative=worst_reaction / largest,
            largest_load_N=largest,
            inp=solved["inp"],
            **result_summary(solved["result"], coords),
            **add_load_objects(doc, analysis, label, body_obj.Part, shape, *for_objects),
            load_case=reason,
        )
        vm = von_mises_by_node(solved["result"])
        excluded = {n for sf in ctx["faces"].values() for n in surface_nodes(sf, mesh.FemMesh, shape)}
        away = nodes_away(coords, excluded | {n for n, _ in solved["support"]}, AWAY_FROM_LOADS * size)
        record.update(case_stresses(vm, coords, away, ctx["yield_strength"]))
        title = "%s, t = %.4g s: %s" % (body_obj.Label, case.time, reason)
        record["stress_picture"] = stress_picture(
            os.path.join(workdir, "von_mises.png"), coords, _mesh_arrays(mesh.FemMesh)[1], vm, title,
            record["max_von_mises_away_MPa"],
        )  # fmt: skip
        fields.append(vm)
        labels.append(label)
        if worst_reaction > SUPPORT_TOL * largest:
            record["warning"] = "support reaction %.3g N exceeds %g of the largest load" % (worst_reaction, SUPPORT_TOL)
        if record["objects_residual_relative"] > OBJECTS_TOL:
            record["objects_note"] = (
                "the FEM objects leave out %.3g of the largest load (the angular-acceleration field, a moment about "
                "a hinge line): a re-solve in the FEM workbench differs" % record["objects_residual_relative"]
            )
        summary["cases"].append(record)
    if len(fields) > 1:
        summary["envelope"], field = envelope(fields, labels, coords, away, ctx["yield_strength"])
        summary["envelope"]["stress_picture"] = stress_picture(
            os.path.join(paths["ccx"], "envelope_von_mises.png"), coords, _mesh_arrays(shared)[1], field,
            "%s: von Mises envelope over %d load cases" % (body_obj.Label, len(fields)),
            summary["envelope"]["max_von_mises_away_MPa"],
        )  # fmt: skip
    doc.save()
    shutil.copyfile(ctx["work"], paths["document"])
    write_load_table(cases, paths["loads_csv"], paths["loads_json"])
    write_json(summary, paths["summary"])
    return summary


__all__ = ["MATERIALS", "FemRequest", "fem_loads", "output_paths", "prepare"]
