"""A recompute error the user can fix (CadError from a Body's or Joint's execute) reaches
FreeCAD's console with its message under a one-frame traceback, not the internal stack, and the
object is still marked invalid with the message as its status (FreeCAD 0.20 prints a traceback
for any exception of a Python feature's execute; only an exception marks the object invalid)."""

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent


SCRIPT = """
import sys
sys.path.insert(0, %r)
import FreeCAD as App
import Part
from MBDWorkbench.cad import makers
doc = App.newDocument("RecomputeError")
box = doc.addObject("Part::Box", "Box")
doc.recompute()
body = makers.make_body(doc, box)
doc.recompute()
print("=== BEGIN")
body.Part = None
body.touch()
doc.recompute()
print("=== END", "Invalid" in body.State, "|%%s|" %% body.getStatusString())
"""


def test_body_without_part_reports_one_frame_and_stays_invalid(tmp_path):
    """FreeCAD's own console (freecadcmd), as the Report view gets it."""
    freecadcmd = shutil.which("freecadcmd") or shutil.which("FreeCADCmd")
    if freecadcmd is None:
        pytest.skip("freecadcmd not found")
    script = tmp_path / "recompute.py"
    script.write_text(SCRIPT % str(REPO))
    run = subprocess.run([freecadcmd, str(script)], capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr
    printed = run.stderr  # FreeCAD's console errors (the script's prints go to stdout)
    message = "body 'Box_body' has no part (set its Part property)"
    assert "=== END True |%s|" % message in output, output  # still invalid, the message as its status
    lines = [line.strip() for line in printed.replace("\t", "\n").splitlines() if line.strip()]
    assert any(line.endswith(message) for line in lines), printed
    assert sum(line.startswith("File ") for line in lines) == 1, printed  # was 2: execute, then the internal call


@pytest.mark.parametrize("error", ["CadError", "other"])
def test_only_cad_errors_are_shortened(error):
    from MBDWorkbench.cad.errors import CadError, concise_errors

    class Proxy:
        @concise_errors
        def execute(self, obj):
            raise CadError("body 'B': bad") if error == "CadError" else KeyError("a bug")

    with pytest.raises(CadError if error == "CadError" else KeyError) as info:
        Proxy().execute(None)
    if error == "CadError":
        assert str(info.value) == "body 'B': bad" and info.value.__suppress_context__
        assert info.traceback[-1].name == "wrapper"  # raised from the wrapper: no internal frame below
    else:
        assert info.traceback[-1].name == "execute"  # a bug keeps its whole traceback
