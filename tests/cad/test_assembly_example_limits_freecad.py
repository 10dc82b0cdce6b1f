"""FreeCAD 1.0's own AssemblyExample.FCStd (Debian's freecad package, examples folder) imports with
its joint limits (Revolute001, Revolute003, Revolute005: angle; Slider, Slider001, Slider002:
length) and, falling under gravity with the default (rigid) stops, no part passes a stop (beyond
1e-6 rad or m: the located event's and the start's tolerance), the stops' events are located and
the energy balance stays closed (the impact losses are non-conservative work). With compliant
stops, no part passes a stop by more than a compliant stop's penetration at its impact speed v,
v t_c / pi (t_c its contact time; half again for the weight it then carries).
Skipped where the file or the Assembly workbench is missing (FreeCAD 0.20, the host)."""

import glob
import math
import os

import numpy as np
import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def example_file(App) -> str:
    candidates = [os.path.join(App.getResourceDir(), "examples", "AssemblyExample.FCStd")]
    candidates += glob.glob("/usr/share/freecad*/examples/**/AssemblyExample.FCStd", recursive=True)
    found = [c for c in candidates if os.path.isfile(c)]
    if not found:
        pytest.skip("AssemblyExample.FCStd is not installed (FreeCAD 1.0's examples)")
    return found[0]


@pytest.mark.parametrize("stop", ["default", "compliant"])
def test_assembly_example_parts_stay_within_their_limits(App, tmp_path, stop):
    try:
        import JointObject  # noqa: F401
    except ImportError as exc:
        pytest.skip("no Assembly workbench (needs FreeCAD 1.0+): %s" % exc)
    from MBDWorkbench.cad.document_model import model_from_document_file
    from MBDWorkbench.solver import simulate
    from MBDWorkbench.solver.model.joint_stops import LIMITED
    from MBDWorkbench.solver.model.schema import Stop
    from MBDWorkbench.solver.quality import energy_error

    model = model_from_document_file(example_file(App))
    limited = {
        j.name: j
        for j in model.joints
        if any(getattr(j, c.low) is not None or getattr(j, c.high) is not None for c in LIMITED.values())
    }
    assert len(limited) >= 5, sorted(limited)
    for j in limited.values():
        for c in LIMITED.values():
            if stop == "compliant" and (getattr(j, c.low) is not None or getattr(j, c.high) is not None):
                setattr(j, c.stop, Stop(model="compliant"))
    model.settings.t_end, model.settings.output_step, model.settings.integrator = 1.0, 1e-3, "bdf"
    res = simulate(model)
    assert res.status in ("completed", "completed_with_warnings"), (res.status, res.warnings)
    assert all(law.rigid == (stop == "default") for law in res.system.stop_laws if law.has_stop)
    if stop == "default":
        assert res.stop_events and not [w for w in res.warnings if w.kind in ("energy_drift", "stop_model")]
        assert energy_error(res)[0] < res.settings.energy_tol
    hit = 0
    contact = {(law.joint, law.coordinate): law.contact_time for law in res.system.stop_laws}
    for name, j in limited.items():
        names = res.joint_coordinate_names(name)
        q = res.joint_coordinate(name)
        for c in LIMITED.values():
            low, high = getattr(j, c.low), getattr(j, c.high)
            if c.coordinate not in names or (low is None and high is None):
                continue
            values = q[:, names.index(c.coordinate)]
            speed = np.abs(res.joint_coordinate_rate(name)[:, names.index(c.coordinate)]).max()
            tol = 1e-6 if stop == "default" else 1.5 * speed * contact[name, c.coordinate] / math.pi + 1e-6
            assert low is None or values.min() > low - tol, (name, c.low, values.min(), low)
            assert high is None or values.max() < high + tol, (name, c.high, values.max(), high)
            hit += bool(np.any(res.joint_stop_effort(name)[:, names.index(c.coordinate)] != 0))
            hit += any(e["joint"] == name and e["coordinate"] == c.coordinate for e in res.stop_events)
    assert hit >= 1  # gravity brings at least one part onto a stop
