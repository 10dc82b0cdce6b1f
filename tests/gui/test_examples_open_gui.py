"""The shipped FreeCAD examples open as saved (tests/gui/macros/macro_examples_open.py): each
carries its view data (GuiDocument.xml with a camera, written by tools/save_example_views.py),
opens with that camera, and is not marked modified (nor any of our objects touched: FreeCAD 1.x
touches its Assembly, and the shapes of a 0.20 document, by itself) after opening. A recompute by
the FreeCAD that wrote the document changes none of our objects, and leaves a document without
an Assembly unmodified (FreeCAD 1.x's Assembly solves again on each recompute and sets its own
joints' placements; a newer FreeCAD rebuilds the shapes of an older document). Only the
documents this FreeCAD can read (their ProgramVersion not newer) are opened."""

import os
import re
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def saved_camera(path: Path) -> dict:
    """{'position': (x, y, z), 'height': h} of the Camera in the document's GuiDocument.xml."""
    with zipfile.ZipFile(path) as z:
        text = z.read("GuiDocument.xml").decode("utf-8").replace("&#10;", " ")
    return camera_numbers(re.search(r'<Camera settings="([^"]*)"', text).group(1))


def camera_numbers(text: str) -> dict:
    position = re.search(r"position\s+(\S+)\s+(\S+)\s+(\S+)", text).groups()
    return {"position": tuple(float(v) for v in position), "height": float(re.search(r"height\s+(\S+)", text).group(1))}


def program_major_minor(path: Path) -> tuple:
    with zipfile.ZipFile(path) as z:
        version = re.search(rb'ProgramVersion="(\d+)\.(\d+)', z.read("Document.xml"))
    return int(version.group(1)), int(version.group(2))


def freecad_version() -> tuple:
    from MBDWorkbench.cad.freecad_env import import_freecad

    App = import_freecad()
    return int(App.Version()[0]), int(App.Version()[1])


def test_shipped_examples_open_with_their_camera_and_unmodified(tmp_path):
    documents = sorted(EXAMPLES.glob("*.FCStd"))
    readable = [p for p in documents if program_major_minor(p) <= freecad_version()]
    assert readable
    copies = []
    for p in readable:
        copies.append(tmp_path / p.name)
        shutil.copy(p, copies[-1])
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(
        MACROS / "macro_examples_open.py",
        tmp_path / "out",
        user_home=home,
        timeout=60 + 20 * len(copies),
        extra_env={"MBD_EXAMPLES": os.pathsep.join(str(p) for p in copies)},
    )
    run.keep_artifacts("examples_open")
    run.assert_finished()
    opened = run.result["opened"]
    assert sorted(opened) == sorted(p.name for p in readable), run.describe()
    wrong = {}
    for p in readable:
        entry = opened[p.name]
        same_version = program_major_minor(p) == freecad_version()
        bad = entry["modified_at_open"] or entry["touched"]
        bad = bad or (same_version and entry["ours_changed_by_recompute"])
        bad = bad or (same_version and not entry["has_assembly"] and entry["modified_after_recompute"])
        if bad:
            wrong[p.name] = entry
        saved, shown = saved_camera(p), camera_numbers(entry["camera"])
        assert shown["position"] == pytest.approx(saved["position"], rel=1e-5, abs=1e-6), p.name
        assert shown["height"] == pytest.approx(saved["height"], rel=1e-5), p.name
    assert not wrong, wrong
