"""Generate examples/ankle.json: the 2-DoF parallel humanoid ankle from AnkleGeometry.

    /usr/bin/python3 examples/make_ankle.py [--out examples/ankle.json]
        [--motor-y 0.035] [--motor-height 0.25] [--bar 0.05] [--foot-back 0.05]
        [--foot-drop 0.01] [--roll 0.15] [--pitch 0.25] [--frequency 0.5] [--sines]

Lengths in metres, amplitudes in rad, frequency in Hz. The geometry is left/right
symmetric (leg 1 at +y, leg 2 at -y). The foot follows a roll/pitch trajectory that starts
and ends at rest in the neutral pose,
    roll(t) = roll_amp sin^2(2 pi f t),   pitch(t) = pitch_amp sin^2(pi f t) ... (one cycle 1/f),
and each motor is driven by the actuator map a robot controller would use: a degree-5
polynomial fit of the closed-form inverse kinematics ([R2] section 2) composed with the
trajectory (``--sines`` drives the motors by phase-shifted sines instead).
See MBDWorkbench/showcase/ankle_model.py (model) and ankle.py (closed form); references in
docs/references.md.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import numpy as np  # noqa: E402

from MBDWorkbench.showcase.ankle import AnkleGeometry, fit_actuator_map  # noqa: E402
from MBDWorkbench.showcase.ankle_model import DRIVES, ankle_model_dict  # noqa: E402


def geometry(motor_y=0.035, motor_height=0.25, bar=0.05, foot_back=0.05, foot_drop=0.01):
    """Symmetric AnkleGeometry: motors at (0, +/-motor_y, motor_height), bars pointing
    backwards (-x) by ``bar``, foot points at (-foot_back, +/-motor_y, -foot_drop)."""

    def pt(x, y, z):
        return [x, y, z]

    return AnkleGeometry(
        A1=pt(0.0, motor_y, motor_height),
        A2=pt(0.0, -motor_y, motor_height),
        B1_0=pt(-bar, motor_y, motor_height),
        B2_0=pt(-bar, -motor_y, motor_height),
        C1_0=pt(-foot_back, motor_y, -foot_drop),
        C2_0=pt(-foot_back, -motor_y, -foot_drop),
    )


def foot_trajectory(roll_amp, pitch_amp, frequency):
    """Expressions in t of the foot roll and pitch [rad]: both start and end at rest."""
    return (f"{roll_amp!r}*sin({2 * frequency!r}*pi*t)^2", f"{pitch_amp!r}*sin({frequency!r}*pi*t)^2")


def _power(x, e):
    return f"({x})" if e == 1 else f"({x})^{e}"


def trajectory_profiles(geom, roll_amp, pitch_amp, frequency, degree=5):
    """Motor-angle profiles: the fitted actuator map (IK polynomial) of the trajectory."""
    lim = 1.1 * max(roll_amp, pitch_amp, 0.05)
    grid = np.linspace(-lim, lim, 23)
    fit = fit_actuator_map(geom, grid, grid, degree=degree)
    roll, pitch = foot_trajectory(roll_amp, pitch_amp, frequency)
    profiles = {}
    for k, name in enumerate(DRIVES):
        terms = [
            "*".join([repr(float(c))] + [_power(x, e) for x, e in ((roll, i), (pitch, j)) if e])
            for (i, j), c in zip(fit.exponents, fit.coeffs[:, k])
            if abs(c) > 1e-12
        ]
        profiles[name] = {
            "type": "expression",
            "expr": " + ".join(terms).replace("+ -", "- "),
            "description": f"motor {k + 1} angle [rad]: degree-{degree} fit of the closed-form IK "
            f"(max fit error {fit.max_error[k]:.1e} rad) of roll = {roll}, "
            f"pitch = {pitch}",
        }
    return profiles


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "ankle.json"))
    p.add_argument("--motor-y", type=float, default=0.035)
    p.add_argument("--motor-height", type=float, default=0.25)
    p.add_argument("--bar", type=float, default=0.05)
    p.add_argument("--foot-back", type=float, default=0.05)
    p.add_argument("--foot-drop", type=float, default=0.01)
    p.add_argument("--roll", type=float, default=0.15, help="roll amplitude [rad]")
    p.add_argument("--pitch", type=float, default=0.25, help="pitch amplitude [rad]")
    p.add_argument("--frequency", type=float, default=0.5)
    p.add_argument("--sines", action="store_true", help="drive the motors by phase-shifted sines")
    a = p.parse_args(argv)
    geom = geometry(a.motor_y, a.motor_height, a.bar, a.foot_back, a.foot_drop)
    if a.sines:
        sine = {"type": "harmonic", "amplitude": a.pitch, "frequency": a.frequency}
        profiles = {DRIVES[0]: sine, DRIVES[1]: dict(sine, phase=1.5707963267948966)}
    else:
        profiles = trajectory_profiles(geom, a.roll, a.pitch, a.frequency)
    with open(a.out, "w") as f:
        json.dump(ankle_model_dict(geom, profiles), f, indent=2)
        f.write("\n")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
