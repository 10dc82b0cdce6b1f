"""The results directory: CSV files a spreadsheet opens plus summary.json and model.json
(format documented in docs/results-format.md)."""
import csv
import json
import os

import numpy as np

from .errors import ModelError

FILES = ("bodies.csv", "joints.csv", "drivers.csv", "violations.csv", "energy.csv")


def write_csv(path, header, columns):
    """A CSV with one header row and the columns zipped into rows (10 significant digits)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in zip(*columns):
            w.writerow([f"{v:.10g}" for v in row])


def write_results(res, directory):
    """Write every file of a Results object into ``directory`` (created if needed)."""
    os.makedirs(directory, exist_ok=True)
    t = res.t
    cols, head = [t], ["time [s]"]
    for b in res.body_names:
        for key, names, unit in (("position", "xyz", "m"), ("orientation", ("qw", "qx", "qy", "qz"), "-"),
                                 ("velocity", ("vx", "vy", "vz"), "m/s"),
                                 ("angular_velocity", ("wx", "wy", "wz"), "rad/s")):
            data = getattr(res, key)(b)
            for c, n in enumerate(names):
                head.append(f"{b}.{n} [{unit}]")
                cols.append(data[:, c])
    write_csv(os.path.join(directory, "bodies.csv"), head, cols)

    cols, head = [t], ["time [s]"]
    for j in res.joint_names:
        for frame, suffix in (("joint", ""), ("global", "_global")):
            F, T = res.reaction(j, frame)
            for c, n in enumerate("xyz"):
                head.append(f"{j}.F{n}{suffix} [N]")
                cols.append(F[:, c])
            for c, n in enumerate("xyz"):
                head.append(f"{j}.T{n}{suffix} [N m]")
                cols.append(T[:, c])
        F, T = res.reaction(j)
        head += [f"{j}.F_magnitude [N]", f"{j}.T_magnitude [N m]"]
        cols += [np.linalg.norm(F, axis=1), np.linalg.norm(T, axis=1)]
    write_csv(os.path.join(directory, "joints.csv"), head, cols)

    cols, head = [t], ["time [s]"]
    for d, drv in zip(res.driver_names, res.model.drivers):
        unit = "N m" if drv.type == "rotational" else "N"
        head += [f"{d}.effort [{unit}]", f"{d}.power [W]"]
        cols += [res.driver_effort(d), res.driver_power(d)]
    write_csv(os.path.join(directory, "drivers.csv"), head, cols)

    cols, head = [t], ["time [s]"]
    for name in res.joint_names + res.driver_names:
        v = res.violation(name)
        for key, unit in (("position", "m"), ("angle", "rad"), ("velocity", "m/s"), ("angular_velocity", "rad/s")):
            head.append(f"{name}.{key} [{unit}]")
            cols.append(v[key])
    write_csv(os.path.join(directory, "violations.csv"), head, cols)

    e = res.energy()
    keys = ("kinetic", "potential", "total", "work_drivers", "work_nonconservative", "balance")
    write_csv(os.path.join(directory, "energy.csv"), ["time [s]"] + [f"{k} [J]" for k in keys],
               [t] + [e[k] for k in keys])

    res.model.save(os.path.join(directory, "model.json"))
    summary = res.summary()
    summary["files"] = list(FILES) + ["model.json"]
    with open(os.path.join(directory, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2, default=float)
    return directory


def read_csv(path):
    """Read one results CSV into {column header: numpy array}; raises ModelError with the
    file name if it is missing, empty or ragged."""
    if not os.path.isfile(path):
        raise ModelError(path, "results file is missing")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ModelError(path, "results file is empty")
    header, data = rows[0], rows[1:]
    for k, row in enumerate(data):
        if len(row) != len(header):
            raise ModelError(path, f"line {k + 2} has {len(row)} values, the header has {len(header)} (truncated file?)")
    arr = np.array(data, dtype=float).reshape(len(data), len(header))
    return {h: arr[:, c] for c, h in enumerate(header)}


def read_summary(directory):
    """summary.json of a results directory."""
    path = os.path.join(directory, "summary.json")
    if not os.path.isfile(path):
        raise ModelError(path, "summary.json is missing: not a results directory")
    with open(path) as f:
        return json.load(f)
