"""Generate examples/ankle.json: the 2-DoF parallel humanoid ankle from AnkleGeometry.

    /usr/bin/python3 examples/make_ankle.py [--out examples/ankle.json]
        [--motor-y 0.035] [--motor-height 0.25] [--bar 0.05] [--foot-back 0.05]
        [--foot-drop 0.01] [--amplitude 0.25] [--frequency 0.5]

Lengths in metres, amplitude in rad, frequency in Hz. The geometry is left/right
symmetric (leg 1 at +y, leg 2 at -y); the motors are driven by phase-shifted sines.
See MBDWorkbench/solver/analysis_ankle.py (model) and ankle.py (closed form).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from MBDWorkbench.solver.ankle import AnkleGeometry  # noqa: E402
from MBDWorkbench.solver.analysis_ankle import ankle_model_dict, DRIVES  # noqa: E402


def geometry(motor_y=0.035, motor_height=0.25, bar=0.05, foot_back=0.05, foot_drop=0.01):
    """Symmetric AnkleGeometry: motors at (0, +/-motor_y, motor_height), bars pointing
    backwards (-x) by ``bar``, foot points at (-foot_back, +/-motor_y, -foot_drop)."""
    def pt(x, y, z):
        return [x, y, z]
    return AnkleGeometry(A1=pt(0.0, motor_y, motor_height), A2=pt(0.0, -motor_y, motor_height),
                         B1_0=pt(-bar, motor_y, motor_height), B2_0=pt(-bar, -motor_y, motor_height),
                         C1_0=pt(-foot_back, motor_y, -foot_drop), C2_0=pt(-foot_back, -motor_y, -foot_drop))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "ankle.json"))
    p.add_argument("--motor-y", type=float, default=0.035)
    p.add_argument("--motor-height", type=float, default=0.25)
    p.add_argument("--bar", type=float, default=0.05)
    p.add_argument("--foot-back", type=float, default=0.05)
    p.add_argument("--foot-drop", type=float, default=0.01)
    p.add_argument("--amplitude", type=float, default=0.25)
    p.add_argument("--frequency", type=float, default=0.5)
    a = p.parse_args(argv)
    geom = geometry(a.motor_y, a.motor_height, a.bar, a.foot_back, a.foot_drop)
    sine = {"type": "harmonic", "amplitude": a.amplitude, "frequency": a.frequency}
    profiles = {DRIVES[0]: sine, DRIVES[1]: dict(sine, phase=1.5707963267948966)}
    with open(a.out, "w") as f:
        json.dump(ankle_model_dict(geom, profiles), f, indent=2)
        f.write("\n")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
