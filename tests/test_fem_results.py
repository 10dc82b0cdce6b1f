"""Stress figures of the structural check without FreeCAD: outer faces of a tetrahedral mesh,
nodes away from the loads, safety factors, the envelope over load cases, the stress picture
and the report section that shows them (MBDWorkbench.cad.fem_results, report.stress_picture,
report.structural)."""

import numpy as np
import pytest

from MBDWorkbench.cad.fem_results import case_stresses, envelope, nodes_away, stress_picture
from MBDWorkbench.report.plots import Plot
from MBDWorkbench.report.stress_picture import boundary_triangles
from MBDWorkbench.report.structural import structural_blocks

CORNERS = {1: [0, 0, 0], 2: [10, 0, 0], 3: [0, 10, 0], 4: [0, 0, 10], 5: [10, 10, 10]}
COORDS = {n: np.array(x, float) for n, x in CORNERS.items()}


def test_outer_faces_of_two_tetrahedra_sharing_a_face():
    """Two tetrahedra glued on face (2, 3, 4): 8 faces, the shared one inside, 6 outside."""
    tris = boundary_triangles([(1, 2, 3, 4), (2, 3, 4, 5)])
    assert len(tris) == 6
    assert {tuple(sorted(t)) for t in tris} == {(1, 2, 3), (1, 2, 4), (1, 3, 4), (2, 3, 5), (2, 4, 5), (3, 4, 5)}
    assert len(boundary_triangles([(1, 2, 3, 4, 11, 12, 13, 14, 15, 16)])) == 4  # midside nodes ignored


def test_nodes_away_from_the_loads():
    assert nodes_away(COORDS, {1}, 10.5) == [5]  # 2, 3, 4 are 10 mm from node 1, node 5 17.3 mm
    assert nodes_away(COORDS, {1}, 9.5) == [2, 3, 4, 5]
    assert nodes_away(COORDS, set(), 1.0) == [1, 2, 3, 4, 5]


def test_safety_factors_and_envelope():
    """Yield 250 MPa: the factors are 250 / von Mises; the envelope takes each node's largest
    stress and names the case of its maximum."""
    a = {1: 100.0, 2: 10.0, 3: 20.0, 4: 5.0, 5: 50.0}
    b = {1: 10.0, 2: 125.0, 3: 20.0, 4: 40.0, 5: 25.0}
    record = case_stresses(a, COORDS, [4, 5], 250.0)
    assert record["safety_factor"] == pytest.approx(2.5) and record["safety_factor_away"] == pytest.approx(5.0)
    assert record["max_von_mises_away_MPa"] == 50.0 and record["max_von_mises_away_at_mm"] == [10, 10, 10]
    assert case_stresses(a, COORDS, [4, 5], None)["safety_factor"] is None
    env, field = envelope([a, b], ["A", "B"], COORDS, [4, 5], 250.0)
    assert field == {1: 100.0, 2: 125.0, 3: 20.0, 4: 40.0, 5: 50.0}
    assert (
        env["max_von_mises_MPa"] == 125.0 and env["governing_case"] == "B" and env["max_von_mises_at_mm"] == [10, 0, 0]
    )
    assert env["safety_factor"] == pytest.approx(2.0) and env["max_von_mises_away_MPa"] == 50.0


def test_stress_picture_and_report_section(tmp_path):
    """The picture is a PNG with the field's colours; the report section lists each case with
    its load case and safety factor, the envelope row, and a figure per picture."""
    from matplotlib.image import imread

    vm = {1: 0.0, 2: 1.0, 3: 2.0, 4: 3.0, 5: 10.0}
    path = stress_picture(str(tmp_path / "vm.png"), COORDS, [(1, 2, 3, 4), (2, 3, 4, 5)], vm, "test", top=3.0)
    image = imread(path)
    assert image.shape[0] > 100 and len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)) > 20
    factors = dict(max_von_mises_away_MPa=1.5, safety_factor=76.9, safety_factor_away=166.7, stress_picture=path)
    case = dict(time_s=0.5, largest_load_N=12.5, max_von_mises_MPa=3.25, max_von_mises_at_mm=[1, 2, 3],
                max_displacement_mm=0.0125, support_reaction_relative=1e-7, analysis="FEM_A", load_case="peak X",
                **factors)  # fmt: skip
    env = dict(max_von_mises_MPa=3.25, max_von_mises_at_mm=[1, 2, 3], governing_case="FEM_A", **factors)
    summary = dict(body="rod", copy="c.FCStd", youngs_modulus_MPa=2e5, poisson_ratio=0.3, yield_strength_MPa=250.0,
                   yield_strength_source="given", cases=[case], envelope=env)  # fmt: skip
    blocks = structural_blocks([summary])
    table = next(b for b in blocks if hasattr(b, "rows"))
    assert table.rows[0][1] == "peak X" and table.rows[0][7] == "76.9" and table.rows[1][1] == "envelope (FEM_A)"
    assert "yield strength 250 MPa" in table.caption
    figures = [b for b in blocks if isinstance(b, Plot)]
    assert len(figures) == 2 and "envelope" in figures[0].title
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4))
    figures[1].draw(fig, (0.0, 0.0, 6.0, 3.6))
    assert len(fig.axes) == 1


def box_mesh(dims):
    """Outer triangles and nodes {id: (3,) mm} of a box 0..dims [mm] cut into tetrahedra."""
    from scipy.spatial import Delaunay

    grid = np.stack(np.meshgrid(*[np.linspace(0, d, 5) for d in dims], indexing="ij"), -1).reshape(-1, 3)
    coords = {k + 1: p for k, p in enumerate(grid)}
    return coords, boundary_triangles([tuple(int(n) + 1 for n in t) for t in Delaunay(grid).simplices])


@pytest.mark.parametrize("dims", [(160, 16, 8), (120, 10, 30), (200, 20, 20), (50, 50, 50), (10, 10, 100), (1, 1, 1)])
def test_stress_picture_texts_do_not_overlap(dims):
    """On a slender rod (the slider-crank's, whose axis labels overlapped its tick labels), a
    lug, a bar, a cube, a column and a 1 mm cube: no two texts drawn overlap (window extents
    from the renderer) and every text is inside the picture; the long axes keep their labels,
    the thin ones are named under the picture."""
    from matplotlib.text import Text

    from MBDWorkbench.report.stress_picture import THIN_AXIS, stress_figure

    coords, triangles = box_mesh(dims)
    fig = stress_figure(coords, triangles, {n: float(p[0]) for n, p in coords.items()}, "rod: von Mises envelope")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    clashes = [(a, b) for k, (a, A) in enumerate(boxes) for b, B in boxes[:k] if A.overlaps(B)]
    assert not clashes, clashes
    width, height = fig.canvas.get_width_height()
    assert all(0 <= A.x0 and A.x1 <= width and 0 <= A.y0 and A.y1 <= height for _, A in boxes), boxes
    names = [t for t, _ in boxes]
    long_axes = [k for k in range(3) if dims[k] >= THIN_AXIS * max(dims)]
    assert all("%s [mm]" % "xyz"[k] in names for k in long_axes), names
    assert ("Thin axes" in " ".join(names)) == (len(long_axes) < 3)
