"""Collision libraries for mesh contact (issue 33, item 2), measured against OpenCASCADE.

Tessellated CAD solids made with FreeCAD's Part API; for each pair and tessellation deflection:
the distance and the witness points of python-fcl, trimesh (on python-fcl) and manifold3d
against OCC's exact ``distToShape``, the penetration depth reported for an overlapping pair,
CPU time per query, and the broad phase's CPU time for 10, 100 and 1000 boxes. The libraries are
installed into the git-ignored .venv-contact (bench/peer_venv.py) with NumPy pinned to the
system's (Debian's SciPy and Numba need NumPy 1.x).

    /usr/bin/python3 bench/contact_libraries.py   # writes bench/results/contact_libraries.{md,json}
"""

from __future__ import annotations

import json
import os
import sys
import time
from functools import partial

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
PINS = {"fcl": "python-fcl==0.7.0.11", "trimesh": "trimesh==5.2.0", "manifold3d": "manifold3d==3.5.4"}
DEFLECTIONS_MM = (0.5, 0.1, 0.02)
BROAD_PHASE_COUNTS = (10, 100, 1000)
OUT = os.path.join(ROOT, "bench", "results", "contact_libraries")


def _ensure_libraries() -> None:
    from bench.peer_venv import ensure_modules

    constraint = os.path.join(ROOT, ".venv-contact", "numpy-constraint.txt")
    os.makedirs(os.path.dirname(constraint), exist_ok=True)
    with open(constraint, "w") as handle:
        handle.write(f"numpy=={np.__version__}\n")
    ensure_modules(PINS, __file__, os.path.join(ROOT, ".venv-contact"), ("-c", constraint))


def cpu_seconds_per_call(call, budget: float = 0.3) -> float:
    """CPU seconds of one ``call()``, averaged over repeats filling about ``budget`` s."""
    call()
    count, start = 0, time.process_time()
    while time.process_time() - start < budget:
        call()
        count += 1
    return (time.process_time() - start) / count


def geneva_pair(App, Part):
    """A 4-slot Geneva wheel (slots 8.4 mm wide, locking arcs r 20 mm) and its driver's pin
    (r 4 mm, on a crank disc below the wheel) sitting in a slot 0.1 mm from one wall."""
    V = App.Vector
    centre_distance, crank = 30.0 * np.sqrt(2.0), 30.0
    wheel = Part.makeCylinder(30, 10)
    for k in range(4):
        slot = Part.makeBox(21, 8.4, 12, V(10, -4.2, -1))
        slot.rotate(V(0, 0, 0), V(0, 0, 1), 90.0 * k)
        direction = np.radians(45.0 + 90.0 * k)
        arc = Part.makeCylinder(20, 12, V(centre_distance * np.cos(direction), centre_distance * np.sin(direction), -1))
        wheel = wheel.cut(slot).cut(arc)
    pin_x, pin_y = 25.0, 0.1
    # driver centre: crank length from the pin, centre distance from the wheel's centre
    along = (centre_distance**2 - crank**2 + pin_x**2 + pin_y**2) / (2 * np.hypot(pin_x, pin_y))
    across = np.sqrt(centre_distance**2 - along**2)
    unit = np.array([pin_x, pin_y]) / np.hypot(pin_x, pin_y)
    driver_xy = along * unit + across * np.array([-unit[1], unit[0]])
    driver = Part.makeCylinder(4, 20, V(pin_x, pin_y, -10)).fuse(Part.makeCylinder(34, 5, V(*driver_xy, -10)))
    return driver.removeSplitter(), wheel.removeSplitter()


def scene_pairs(App, Part) -> dict:
    """{name: (shape_a, shape_b)} in mm; every pair separated by a small gap."""
    V = App.Vector
    box = Part.makeBox(40, 40, 10, V(-20, -20, -10))
    block = Part.makeBox(40, 20, 20, V(-20, -10, -10)).cut(Part.makeBox(41, 10.4, 16, V(-20.5, -5.2, -5)))
    pin = Part.makeCylinder(5, 20, V(0, 0.1, -4))
    cam = Part.makeCylinder(30, 10, V(5, 0, 0))
    angle = np.radians(37.0)
    roller = Part.makeCylinder(8, 10, V(5 + 38.3 * np.cos(angle), 38.3 * np.sin(angle), 0))
    torus_b = Part.makeTorus(20, 4, V(20, 0, 8.5), V(0, 1, 0))
    return {
        "sphere on box": (Part.makeSphere(10, V(3, 2, 10.5), V(1, 0.3, 0.2)), box),
        "pin in slot": (pin, block),
        "roller on cam disc": (roller, cam),
        "two tori (chain links)": (Part.makeTorus(20, 4), torus_b),
        "Geneva pin in wheel slot": geneva_pair(App, Part),
    }


def tessellate(shape, deflection_mm: float):
    """Welded triangle mesh (vertices [mm], faces) of a FreeCAD solid."""
    import MeshPart
    import trimesh

    from MBDWorkbench.cad.contact_shapes import mesh_arrays

    vertices, faces = mesh_arrays(shape, deflection_mm, MeshPart)
    mesh = trimesh.Trimesh(vertices, faces, process=True)
    mesh.merge_vertices()
    return mesh


def fcl_object(mesh):
    import fcl

    model = fcl.BVHModel()
    model.beginModel(len(mesh.vertices), len(mesh.faces))
    model.addSubModel(mesh.vertices, mesh.faces)
    model.endModel()
    return fcl.CollisionObject(model, fcl.Transform())


def fcl_distance(obj_a, obj_b):
    import fcl

    result = fcl.DistanceResult()
    distance = fcl.distance(obj_a, obj_b, fcl.DistanceRequest(enable_nearest_points=True), result)
    return distance, np.array(result.nearest_points)


def manifold_of(mesh):
    import manifold3d

    data = manifold3d.Mesh(
        vert_properties=np.asarray(mesh.vertices, dtype=np.float32), tri_verts=np.asarray(mesh.faces, dtype=np.uint32)
    )
    return manifold3d.Manifold(data)


def surface_error(shape, point, Part, App) -> float:
    """Distance [mm] of a witness point from the exact boundary of ``shape`` (inside or out)."""
    return float(shape.Shells[0].distToShape(Part.Vertex(App.Vector(*point)))[0])


def measure_pair(name, shape_a, shape_b, App, Part) -> list[dict]:
    """One row per deflection: accuracy and CPU time of each library against OCC."""
    import trimesh

    exact = float(shape_a.distToShape(shape_b)[0])
    occ_time = cpu_seconds_per_call(lambda: shape_a.distToShape(shape_b), budget=0.5)
    rows = []
    for deflection in DEFLECTIONS_MM:
        mesh_a, mesh_b = tessellate(shape_a, deflection), tessellate(shape_b, deflection)
        obj_a, obj_b = fcl_object(mesh_a), fcl_object(mesh_b)
        fcl_gap, witnesses = fcl_distance(obj_a, obj_b)
        manager = trimesh.collision.CollisionManager()
        manager.add_object("b", mesh_b)
        trimesh_gap = manager.min_distance_single(mesh_a)
        man_a, man_b = manifold_of(mesh_a), manifold_of(mesh_b)
        manifold_gap = man_a.min_gap(man_b, 10.0)
        rows.append(
            {
                "pair": name,
                "deflection_mm": deflection,
                "triangles": int(len(mesh_a.faces) + len(mesh_b.faces)),
                "occ_distance_mm": exact,
                "occ_cpu_ms": occ_time * 1e3,
                "fcl_error_mm": fcl_gap - exact,
                "fcl_witness_error_mm": max(
                    surface_error(shape_a, witnesses[0], Part, App), surface_error(shape_b, witnesses[1], Part, App)
                ),
                "fcl_cpu_ms": cpu_seconds_per_call(partial(fcl_distance, obj_a, obj_b)) * 1e3,
                "trimesh_error_mm": trimesh_gap - exact,
                "trimesh_cpu_ms": cpu_seconds_per_call(partial(manager.min_distance_single, mesh_a)) * 1e3,
                "manifold_error_mm": manifold_gap - exact,
                "manifold_cpu_ms": cpu_seconds_per_call(partial(man_a.min_gap, man_b, 10.0)) * 1e3,
            }
        )
    return rows


def deepest_vertex_mm(mesh_a, mesh_b) -> float:
    """Penetration as the deepest vertex of either mesh inside the other (trimesh's signed
    distance, positive inside), a measure that converges with the deflection."""
    import trimesh

    depths = [trimesh.proximity.signed_distance(b, a.vertices).max() for a, b in ((mesh_a, mesh_b), (mesh_b, mesh_a))]
    return float(max(depths))


def analytic_sphere_box(App, Part) -> dict:
    """contact_geometry.sphere_box from the classified faces against OCC: error and CPU time."""
    from MBDWorkbench.cad.contact_shapes import classify_faces
    from MBDWorkbench.solver.numerics.contact_geometry import sphere_box

    ball = Part.makeSphere(10, App.Vector(3, 2, 10.5), App.Vector(1, 0.3, 0.2))
    box = Part.makeBox(40, 40, 10, App.Vector(-20, -20, -10))
    sphere = classify_faces(ball, "ball")[0][0].params
    query = partial(
        sphere_box, sphere["center"], sphere["radius"], np.array([0, 0, -0.005]), np.eye(3), [0.02] * 2 + [0.005]
    )
    return {
        "error_mm": query().distance * 1e3 - ball.distToShape(box)[0],
        "cpu_us": cpu_seconds_per_call(query) * 1e6,
    }


def measure_penetration(App, Part) -> list[dict]:
    """A sphere (r 10 mm) sunk 0.5 mm into a box: the depth each library reports."""
    import fcl

    V = App.Vector
    sphere, box = Part.makeSphere(10, V(3, 2, 9.5), V(1, 0.3, 0.2)), Part.makeBox(40, 40, 10, V(-20, -20, -10))
    rows = []
    for deflection in DEFLECTIONS_MM:
        mesh_a, mesh_b = tessellate(sphere, deflection), tessellate(box, deflection)
        result = fcl.CollisionResult()
        request = fcl.CollisionRequest(num_max_contacts=1000, enable_contact=True)
        fcl.collide(fcl_object(mesh_a), fcl_object(mesh_b), request, result)
        depths = [c.penetration_depth for c in result.contacts]
        overlap = manifold_of(mesh_a) ^ manifold_of(mesh_b)
        vertex_depth = partial(deepest_vertex_mm, mesh_a, mesh_b)
        rows.append(
            {
                "deflection_mm": deflection,
                "exact_depth_mm": 0.5,
                "fcl_contacts": len(depths),
                "fcl_max_depth_mm": max(depths, default=0.0),
                "vertex_depth_mm": vertex_depth(),
                "vertex_depth_cpu_ms": cpu_seconds_per_call(vertex_depth) * 1e3,
                "manifold_overlap_volume_mm3": overlap.volume(),
                "exact_overlap_volume_mm3": float(sphere.common(box).Volume),
            }
        )
    return rows


def measure_broad_phase(count: int, seed: int = 33) -> dict:
    """CPU time of fcl's dynamic AABB tree over ``count`` 10 mm boxes at a fixed density."""
    import fcl

    rng = np.random.default_rng(seed)
    side = 40.0 * count ** (1 / 3)
    objects = [fcl.CollisionObject(fcl.Box(10, 10, 10), fcl.Transform(rng.uniform(0, side, 3))) for _ in range(count)]
    manager = fcl.DynamicAABBTreeCollisionManager()
    manager.registerObjects(objects)
    manager.setup()

    def step():
        for obj in objects:
            obj.setTranslation(obj.getTranslation() + rng.normal(scale=0.1, size=3))
        manager.update()
        data = fcl.CollisionData(request=fcl.CollisionRequest(num_max_contacts=1))
        manager.collide(data, fcl.defaultCollisionCallback)

    seconds = cpu_seconds_per_call(step, budget=1.0)
    return {"bodies": count, "cpu_ms_per_step": seconds * 1e3, "cpu_us_per_body": seconds * 1e6 / count}


CHOICE = """## Choice: python-fcl (with exact pairs where the faces are analytic)

* **Distance and witness points**: all three agree to 1e-7 mm on the same mesh (trimesh's
  distance *is* python-fcl's; manifold3d's `min_gap` gives no witness points). The mesh error
  against OCC is the tessellation's: at most about the deflection, of either sign (concave faces
  such as the torus's inner side make the mesh gap smaller than the exact one).
* **Speed**: python-fcl's BVH query is the fastest by far: 6x to 60x faster than OCC's exact
  `distToShape` and 7x to 440x faster than manifold3d at the finest meshes; trimesh's
  `min_distance_single` rebuilds the query mesh's BVH on every call (about 90x slower than fcl at 20k
  triangles).
* **Penetration**: python-fcl's mesh-mesh contacts report a triangle-pair depth that does *not*
  converge to the true penetration (0.21 to 0.32 mm for 0.5 mm at any deflection), so mesh
  penetration must not come from fcl's `penetration_depth`. The deepest vertex of either mesh
  inside the other does converge (0.4965 mm at 0.02 mm deflection), but trimesh's signed distance
  takes 100 ms for 5000 triangles: the contact force needs it as a compiled query on fcl's or
  our own BVH (open). manifold3d's exact overlap volume converges to OCC's and could serve a
  volume-based law, at 10x-100x the cost of a distance query. Where both faces are analytic, the
  exact pairs of `solver/numerics/contact_geometry.py` are used: 18 us per query in NumPy, exact.
* **Broad phase**: python-fcl's dynamic AABB tree costs about the same per body for 10, 100 and
  1000 boxes (linear growth), so it is also the broad phase.
* **coal (hpp-fcl's successor)**: its wheels require NumPy 2; beside Debian 12's SciPy and Numba
  (built for NumPy 1.24) pip cannot resolve it (`ResolutionImpossible` with NumPy pinned), and
  installed unpinned it pulls NumPy 2, after which SciPy and Numba fail to import. Not usable in
  the solver's process on Debian 12 today; its convex EPA penetration would be the reason to
  revisit it on Debian 13.
"""


def _table(rows: list[dict], columns: list[tuple[str, str, str]]) -> list[str]:
    lines = ["| " + " | ".join(title for title, _, _ in columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(format(row[key], fmt) for _, key, fmt in columns) + " |")
    return lines


def write_markdown(results: dict, path: str) -> None:
    """The tables of ``results`` and the choice, as Markdown."""
    versions = ", ".join(f"{k} {v}" for k, v in results["versions"].items())
    lines = [
        "# Collision libraries for mesh contact (issue 33)",
        "",
        f"`/usr/bin/python3 bench/contact_libraries.py`; {versions}, NumPy {results['numpy']}, "
        f"FreeCAD {results['freecad']}. Times are CPU ms per query (the machine was shared). Errors: "
        "library distance minus OCC's exact `distToShape` [mm]; witness error: the farther of the two "
        "witness points from its exact surface [mm].",
        "",
        "## Distance between separated solids",
        "",
    ]
    lines += _table(
        results["pairs"],
        [
            ("pair", "pair", "s"),
            ("deflection mm", "deflection_mm", "g"),
            ("triangles", "triangles", "d"),
            ("OCC gap mm", "occ_distance_mm", ".4f"),
            ("OCC ms", "occ_cpu_ms", ".3f"),
            ("fcl error", "fcl_error_mm", ".2e"),
            ("fcl witness error", "fcl_witness_error_mm", ".1e"),
            ("fcl ms", "fcl_cpu_ms", ".3f"),
            ("trimesh error", "trimesh_error_mm", ".2e"),
            ("trimesh ms", "trimesh_cpu_ms", ".3f"),
            ("manifold error", "manifold_error_mm", ".2e"),
            ("manifold ms", "manifold_cpu_ms", ".3f"),
        ],
    )
    lines += ["", "## Penetration: sphere r 10 mm sunk 0.5 mm into a box", ""]
    lines += _table(
        results["penetration"],
        [
            ("deflection mm", "deflection_mm", "g"),
            ("exact depth mm", "exact_depth_mm", "g"),
            ("fcl contacts", "fcl_contacts", "d"),
            ("fcl max depth mm", "fcl_max_depth_mm", ".3f"),
            ("deepest vertex mm", "vertex_depth_mm", ".4f"),
            ("deepest vertex ms", "vertex_depth_cpu_ms", ".2f"),
            ("manifold overlap mm^3", "manifold_overlap_volume_mm3", ".3f"),
            ("OCC overlap mm^3", "exact_overlap_volume_mm3", ".3f"),
        ],
    )
    analytic = results["analytic_sphere_box"]
    lines += [
        "",
        f"Analytic pair for comparison (`contact_geometry.sphere_box` from the classified faces, NumPy): "
        f"error {analytic['error_mm']:.1e} mm, {analytic['cpu_us']:.1f} us CPU per query.",
    ]
    lines += ["", "## Broad phase: python-fcl dynamic AABB tree, 10 mm boxes, move + update + collide", ""]
    lines += _table(
        results["broad_phase"],
        [
            ("bodies", "bodies", "d"),
            ("CPU ms per step", "cpu_ms_per_step", ".3f"),
            ("CPU us per body", "cpu_us_per_body", ".2f"),
        ],
    )
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n\n" + CHOICE)


def main() -> None:
    _ensure_libraries()
    from MBDWorkbench.cad.freecad_env import import_freecad

    App = import_freecad()
    import Part

    pairs = [row for name, (a, b) in scene_pairs(App, Part).items() for row in measure_pair(name, a, b, App, Part)]
    results = {
        "pairs": pairs,
        "penetration": measure_penetration(App, Part),
        "broad_phase": [measure_broad_phase(n) for n in BROAD_PHASE_COUNTS],
        "analytic_sphere_box": analytic_sphere_box(App, Part),
        "versions": {module: requirement.split("==")[1] for module, requirement in PINS.items()},
        "numpy": np.__version__,
        "freecad": ".".join(App.Version()[:3]),
    }
    with open(OUT + ".json", "w") as handle:
        json.dump(results, handle, indent=1)
    write_markdown(results, OUT + ".md")
    print(f"wrote {OUT}.json and .md")


if __name__ == "__main__":
    main()
