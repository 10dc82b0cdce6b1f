"""fem-loads' options are checked like simulate's: a bad --worst, --time, --mesh-size or material
constant is an exit 2 naming the option, before anything is written; the mesh is estimated before
meshing and refused beyond the limit; the JSON it writes is strict (no Infinity/NaN)."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from MBDWorkbench.loads.body_loads import json_ready, write_json
from MBDWorkbench.loads.nodal import MAX_MESH_ELEMENTS, estimated_elements

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PENDULUM = os.path.join(REPO, "examples", "pendulum.FCStd")


def fem_loads_cli(tmp_path, *options):
    out = str(tmp_path / "copy.FCStd")
    cmd = [sys.executable, "-m", "MBDWorkbench", "fem-loads", PENDULUM, "--body", "Bar", "--out", out, *options]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    "option, value, message",
    [("--worst", "0", "--worst: .*at least 1"), ("--worst", "-1", "--worst: .*at least 1"),
     ("--worst", "1e6", "--worst: not an integer"), ("--worst", "1000000", "--worst: .*at most 20"),
     ("--mesh-size", "0", "--mesh-size: must be at least 0.001"), ("--mesh-size", "-2", "--mesh-size: must be"),
     ("--mesh-size", "inf", "--mesh-size: must be at least"), ("--mesh-size", "nan", "--mesh-size: must be at least"),
     ("--mesh-size", "1e308", "--mesh-size: .*at most 1e\\+06 mm"), ("--mesh-size", "1e-308", "--mesh-size: must be"),
     ("--time", "inf", "--time: must be a finite"), ("--youngs-modulus", "-1", "--youngs-modulus: must be at least"),
     ("--youngs-modulus", "1e308", "--youngs-modulus: .*at most 1e\\+07 MPa"),
     ("--youngs-modulus", "1e-308", "--youngs-modulus: must be at least 0.001"),
     ("--poisson", "nan", "--poisson: must be a finite")],
)  # fmt: skip
def test_bad_option_exits_2_naming_it_and_writes_nothing(tmp_path, option, value, message):
    import re

    run = fem_loads_cli(tmp_path, option, value)
    assert run.returncode == 2, run.stderr
    assert re.search(message, run.stderr), run.stderr
    assert os.listdir(tmp_path) == []


def test_mesh_estimate_is_a_regular_tetrahedron_count():
    """A cube of side 10 h holds 1000 cubes h^3, each 6 sqrt(2) regular tetrahedra of edge h
    (volume h^3 / (6 sqrt 2))."""
    h = 2.0
    assert math.isclose(estimated_elements((10 * h) ** 3, h), 1000 * 6 * math.sqrt(2))


def test_tiny_mesh_size_is_refused_before_meshing(fem, tmp_path):
    """--mesh-size 0.002 on the 200 x 20 x 20 mm bar: ~7e13 elements, refused with exit 2 naming the
    body, the estimate and the smallest size allowed; nothing written (``fem``: the CLI checks
    the FEM tools before it opens the document)."""
    run = fem_loads_cli(tmp_path, "--mesh-size", "0.002")
    assert run.returncode == 2, run.stderr
    assert "mesh size of 0.002 mm" in run.stderr and "--mesh-size" in run.stderr, run.stderr
    smallest = (6 * math.sqrt(2) * 200 * 20 * 20 / MAX_MESH_ELEMENTS) ** (1 / 3)
    assert "give --mesh-size %.3g or more" % smallest in run.stderr
    assert os.listdir(tmp_path) == []


def test_api_refuses_what_the_command_line_refuses(tmp_path):
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.fem_loads import FemRequest, check_request

    out = str(tmp_path / "copy.FCStd")
    bad_requests = [(dict(worst=0), "--worst"), (dict(worst=10**6), "--worst"), (dict(time=math.nan), "--time"),
                    (dict(mesh_size=math.inf), "--mesh-size"), (dict(mesh_size=-1.0), "--mesh-size"),
                    (dict(mesh_size=1e308), "--mesh-size"), (dict(youngs_modulus=1e308), "--youngs-modulus"),
                    (dict(youngs_modulus=1e-308), "--youngs-modulus")]  # fmt: skip
    for bad, message in bad_requests:
        with pytest.raises(CadError, match=message):
            check_request(FemRequest(PENDULUM, "Bar", out=out, **bad))


def test_report_below_a_file_is_refused_before_the_run(tmp_path):
    """--report under an existing file: refused up front (it failed at the end, after CalculiX, exit 70)."""
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.fem_loads import FemRequest, check_outputs

    (tmp_path / "existing").write_text("keep me")
    out = str(tmp_path / "copy.FCStd")
    for report in (tmp_path / "existing", tmp_path / "existing" / "out" / "deeper"):
        with pytest.raises(CadError, match="--report .*existing is a file, not a folder"):
            check_outputs(FemRequest(PENDULUM, "Bar", out=out, report=str(report)))
    check_outputs(FemRequest(PENDULUM, "Bar", out=out, report=str(tmp_path / "new" / "report")))  # made later


def test_written_json_is_strict(tmp_path):
    """Non-finite numbers become null: the file parses with a strict parser."""
    path = str(tmp_path / "x.json")
    write_json(dict(a=math.inf, b=[np.float64("nan"), np.int64(3)], c=np.array([1.0, -math.inf])), path)
    text = open(path).read()
    assert "Infinity" not in text and "NaN" not in text

    def refuse(name):
        raise ValueError(name)

    assert json.loads(text, parse_constant=refuse) == dict(a=None, b=[None, 3], c=[1.0, None])
    assert json_ready((1, 2.5)) == [1, 2.5]
