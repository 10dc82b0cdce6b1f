"""Every bound on the input of the solver, in one place (docs/model-format.md, "Limits").

Two kinds of bound:

* **Ranges** (:data:`RANGES`) of the numbers of a model: outside them the solver's float64
  arithmetic breaks down (overflow, rounding above the tolerances, steps that do not advance
  time). They always apply; the model validation names the field that leaves its range.
* **Run sizes**: the integration steps, the output samples and the memory the results need,
  estimated from the settings before anything is solved (:func:`estimate_run`). A run beyond
  :data:`MAX_STEPS`, :data:`MAX_SAMPLES` or :data:`MAX_RESULT_BYTES` is refused with the
  estimate in the message unless the limits are switched off (setting ``check_limits =
  false``, CLI ``--no-limits``). Sizes of the input itself (file, nesting, names,
  expressions, profile tables) always apply.

This module is a leaf: it imports nothing of the package, so the catalogue, the model and the
expression compiler all read their bounds from here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Range:
    """Allowed values ``low <= x <= high`` of a kind of model number, in SI ``unit``;
    ``why`` says where the bound comes from (the docs' Limits table)."""

    low: float
    high: float
    unit: str
    why: str

    def contains(self, value: float) -> bool:
        """True when ``low <= value <= high``."""
        return self.low <= value <= self.high


_ROUNDING = "float64 rounding of coordinates (2e-12 m at 1e4 m) stays 50x below the assembly tolerance 1e-10 m"
_PRODUCTS = "products of any two stay far from float64 overflow"

# Kinds of model number (model/fields.py and catalog.ForceField name them); `number` is the default.
RANGES: dict[str, Range] = {
    "number": Range(-1e12, 1e12, "-", _PRODUCTS),
    "length": Range(-1e4, 1e4, "m", _ROUNDING),
    "nonneg_length": Range(0.0, 1e4, "m", _ROUNDING),
    "velocity": Range(-1e4, 1e4, "m/s", "initial speeds beyond any mechanism (Mach 30) only blow up or stall a run"),
    "angular_velocity": Range(-1e5, 1e5, "rad/s", "1 million rpm: beyond any rotor; faster only blows up or stalls"),
    "acceleration": Range(-1e6, 1e6, "m/s^2", _PRODUCTS),
    "mass": Range(1e-12, 1e12, "kg", "the mass matrix and its inverse stay within float64 (1 ng .. 1 Gt)"),
    "inertia": Range(-1e12, 1e12, "kg m^2", _PRODUCTS + " (tensor entries)"),
    "direction": Range(-1e6, 1e6, "-", "axis and quaternion components, normalised by the solver"),
    "angle": Range(-1e6, 1e6, "rad", _PRODUCTS),
    "stiffness": Range(0.0, 1e12, "N/m or N m/rad", _PRODUCTS),
    "damping": Range(0.0, 1e12, "N s/m or N m s/rad", _PRODUCTS),
    "time": Range(1e-12, 1e9, "s", "t_end, step and output_step: 1 ps to 30 years"),
    "instant": Range(-1e9, 1e9, "s", "the time of a static analysis or a mobility report"),
    "rtol": Range(1e-14, 1.0, "-", "SciPy raises smaller relative tolerances to 100 machine epsilons"),
    "atol": Range(1e-20, 1e6, "-", _PRODUCTS),
    "rate": Range(0.0, 1e6, "1/s", "Baumgarte feedback gains; beta^2 stays far from overflow"),
    "fraction": Range(0.0, 1.0, "-", "Tikhonov eps and rho_inf are fractions"),
    "profile_number": Range(-1e15, 1e15, "-", "numbers in profile objects; " + _PRODUCTS),
}
MIN_PRINCIPAL_INERTIA = 1e-20  # kg m^2: the smallest principal moment (its inverse enters the mass matrix)
MIN_AXIS_NORM = 1e-12  # a joint axis shorter than this is degenerate
MIN_AXIS_ANGLE = 1e-3  # [rad] an angle joint's angle from 0 and pi (its equation's gradient is sin(angle))
MIN_QUATERNION_NORM = 1e-9  # an orientation quaternion shorter than this is degenerate
PROFILE_MAGNITUDE = 1e15  # |f|, |f'|, |f''| of a profile over the run
PROFILE_CHECK_POINTS = 1001  # profiles are checked at this many times over [0, t_end] when a model is loaded

# Sizes of the input (always checked)
MAX_MODEL_FILE_BYTES = 64 * 2**20  # a JSON model file
MAX_JSON_DEPTH = 32  # nesting levels of a model (a profile table inside a driver is 5)
MAX_NAME_LENGTH = 256  # characters of a name (bodies, joints, forces, drivers, the model)
MAX_TEXT_LENGTH = 100_000  # characters of the description and of a body's source
MAX_EXPRESSION_LENGTH = 2000  # characters of an expression in t
MAX_EXPRESSION_DEPTH = 100  # nesting levels of an expression (parentheses, unary signs, powers, calls)
MAX_POLYNOMIAL_COEFFICIENTS = 64  # coefficients of a polynomial profile
MAX_TABLE_POINTS = 100_000  # points of a table profile
MAX_ARCHIVE_ENTRIES = 10_000  # files inside a FreeCAD document or a results zip
MAX_ARCHIVE_ENTRY_BYTES = 512 * 2**20  # uncompressed size of one of them
MAX_ARCHIVE_BYTES = 2 * 2**30  # uncompressed size of all of them

# Run sizes (refused beyond these unless check_limits is false / --no-limits)
MAX_STEPS = 10_000_000  # integration steps: t_end / step (adaptive integrators: step is the largest step)
MAX_SAMPLES = 2_000_000  # output samples: t_end / output_step + 1
MAX_RESULT_BYTES = 4 * 2**30  # memory of the samples and of the result tables written from them
MAX_MATRIX_BYTES = 4 * 2**30  # dense matrices of the static analysis (its tangent stiffness is (6 x bodies)^2)
# Step budget of a running integrator (adaptive ones may shrink their step far below `step`): a run
# stops (failed, samples so far kept) once its steps exceed STEP_BUDGET_FACTOR x t_end / step, but
# never below MIN_STEP_BUDGET nor above MAX_STEPS (step_budget)
STEP_BUDGET_FACTOR = 100
MIN_STEP_BUDGET = 100_000

# Memory model of the results (Results keeps one array per quantity, a row per sample; the writer
# holds one chunk of rows of the CSVs, as numbers and text, whatever the run's length):
STORED_NUMBER_BYTES = 8  # a float64 kept per sample
SAMPLE_COPIES = 2  # the samples themselves and the temporaries over all samples (quality gate, derived quantities)
WRITTEN_COLUMN_BYTES = 80  # a result column per sample in the chunk being written: table entry and CSV text
CHUNK_VALUES = 1 << 18  # numbers per chunk of CSV rows (results_files writes a chunk at a time)
# Per sample, Results keeps the state and its rate (2 x 13 per body), the multipliers, violations and
# rates of every constraint equation, a wrench (12) and up to two coordinates and their rates (4) per
# joint, an effort and a power per driver, and the time, energies and work integrals (5):
STORED_NUMBERS = {"moving body": 26, "constraint equation": 3, "joint": 16, "driver": 2, "run": 5}
# the writer's columns: bodies.csv (13 per body), joints.csv (at most 18 per joint), drivers.csv
# (2 per driver), violations.csv (4 per joint and driver) and energy.csv (7):
WRITTEN_COLUMNS = {"moving body": 13, "joint": 22, "driver": 6, "run": 7}
# The static analysis holds dense n x n tangent stiffnesses (n = 6 x moving bodies: the matrix, its
# scaled copy and the copy reduced to the free coordinates) and rows x n constraint Jacobians at once:
STATICS_MATRIX_COPIES = 3


@dataclass(frozen=True)
class RunSize:
    """Estimated size of a run: integration ``steps``, output ``samples`` and the memory
    ``result_bytes`` of its results (samples x (stored numbers and written columns))."""

    steps: int
    samples: int
    result_bytes: int
    matrix_bytes: int = 0  # dense matrices of the static analysis (estimate_statics)

    def excess(self) -> str:
        """Why the run is too large for the limits (empty when it is not)."""
        reasons = []
        if self.steps > MAX_STEPS:
            reasons.append(f"{self.steps:.3g} integration steps (limit {MAX_STEPS:.3g})")
        if self.samples > MAX_SAMPLES:
            reasons.append(f"{self.samples:.3g} output samples (limit {MAX_SAMPLES:.3g})")
        if self.result_bytes > MAX_RESULT_BYTES:
            reasons.append(f"{self.result_bytes / 2**30:.3g} GiB of results (limit {MAX_RESULT_BYTES / 2**30:.3g} GiB)")
        if self.matrix_bytes > MAX_MATRIX_BYTES:
            reasons.append(
                f"{self.matrix_bytes / 2**30:.3g} GiB of dense matrices (limit {MAX_MATRIX_BYTES / 2**30:.3g} GiB)"
            )
        return "; ".join(reasons)


def sample_count(t_end: float, output_step: float) -> int:
    """Output samples of a run over [0, t_end] every output_step [s], the initial one included."""
    return _count(t_end / output_step) + 1


def step_count(t_end: float, step: float) -> int:
    """Integration steps over [0, t_end] with ``step`` [s] (a lower bound for adaptive integrators)."""
    return _count(t_end / step)


def step_budget(t_end: float, step: float) -> int:
    """Accepted integration steps a run over [0, t_end] with the (largest) ``step`` [s] may take
    before it is stopped as stalled: STEP_BUDGET_FACTOR x t_end / step within [MIN_STEP_BUDGET,
    MAX_STEPS]. Fixed-step integrators take t_end / step steps and never reach it."""
    return min(MAX_STEPS, max(MIN_STEP_BUDGET, STEP_BUDGET_FACTOR * step_count(t_end, step)))


def _count(ratio: float) -> int:
    """max(1, round(ratio)) for a positive float ratio (capped at 1e30: no overflow for inf)."""
    return max(1, round(min(ratio, 1e30)))


def estimate_run(
    t_end: float, step: float | None, output_step: float, bodies: int, rows: int, joints: int, drivers: int
) -> RunSize:
    """RunSize of a run to ``t_end`` [s] with ``step`` [s] (None: no time integration, as the
    kinematic analysis) and ``output_step`` [s], for ``bodies`` moving bodies, ``rows``
    constraint equations (drivers included), ``joints`` joints and ``drivers`` drivers; the
    memory is SAMPLE_COPIES x the STORED_NUMBERS of every sample plus the WRITTEN_COLUMNS of one
    chunk of rows (at most CHUNK_VALUES numbers)."""
    samples = sample_count(t_end, output_step)
    steps = 0 if step is None else step_count(t_end, step)
    counts = {"moving body": bodies, "constraint equation": rows, "joint": joints, "driver": drivers, "run": 1}
    stored = sum(n * counts[k] for k, n in STORED_NUMBERS.items())
    written = sum(n * counts[k] for k, n in WRITTEN_COLUMNS.items())
    chunk = min(samples, max(1, CHUNK_VALUES // written))
    kept = samples * SAMPLE_COPIES * STORED_NUMBER_BYTES * stored
    return RunSize(steps=steps, samples=samples, result_bytes=kept + chunk * WRITTEN_COLUMN_BYTES * written)


def estimate_statics(bodies: int, rows: int, joints: int, drivers: int) -> RunSize:
    """RunSize of a static analysis (one sample) of ``bodies`` moving bodies and ``rows``
    constraint equations: ``matrix_bytes`` are STATICS_MATRIX_COPIES x its dense tangent
    stiffness (n x n, n = 6 x bodies) and constraint Jacobian (rows x n)."""
    n = 6 * bodies
    one = estimate_run(1.0, None, 1.0, bodies, rows, joints, drivers)
    matrices = STATICS_MATRIX_COPIES * STORED_NUMBER_BYTES * (n * n + rows * n)
    return RunSize(steps=0, samples=1, result_bytes=one.result_bytes // one.samples, matrix_bytes=matrices)


def limits_table() -> str:
    """The Limits tables of docs/model-format.md (tools/catalog_docs.py writes them there):
    the ranges, the input sizes and the run limits."""
    ranges = [f"| {kind} | {r.low:g} | {r.high:g} | {r.unit} | {r.why} |" for kind, r in RANGES.items()]
    sizes = [f"| {what} | {_integer(value)} |" for what, value in _SIZES]
    bounds = [f"| {what} | {value:g} |" for what, value in _BOUNDS]
    return "\n".join(
        ["| kind | min | max | unit | why |", "|---|---|---|---|---|", *ranges, ""]
        + ["| bound | value |", "|---|---|", *bounds, ""]
        + ["| input | at most |", "|---|---|", *sizes, ""]
        + [run_limits_table()]
    )


def run_limits_table() -> str:
    """The run limits (steps, samples, result memory, step budget) as a Markdown table
    (docs/model-format.md and docs/results-format.md)."""
    runs = [f"| {what} | {_integer(value)} |" for what, value in _RUN_LIMITS]
    return "\n".join(["| run estimate (refused beyond, unless check_limits is false) | limit |", "|---|---|", *runs])


def _integer(n: int) -> str:
    """10 000 000: digits in groups of three."""
    return f"{n:,}".replace(",", " ")


def _per(counts: dict[str, int]) -> str:
    return " + ".join(f"{n} per {k}" if k != "run" else str(n) for k, n in counts.items())


_BOUNDS = (
    ("smallest principal moment of inertia [kg m^2]", MIN_PRINCIPAL_INERTIA),
    ("shortest joint axis", MIN_AXIS_NORM),
    ("angle joint: smallest angle from 0 and pi [rad]", MIN_AXIS_ANGLE),
    ("shortest orientation quaternion", MIN_QUATERNION_NORM),
    ("largest |f|, |f'|, |f''| of a profile over the run", PROFILE_MAGNITUDE),
    ("times at which profiles are checked when a model is read", PROFILE_CHECK_POINTS),
)
_SIZES = (
    ("bytes of a JSON model file (UTF-8)", MAX_MODEL_FILE_BYTES),
    ("nesting levels of a model", MAX_JSON_DEPTH),
    ("characters of a name", MAX_NAME_LENGTH),
    ("characters of a description or a body's source", MAX_TEXT_LENGTH),
    ("characters of an expression", MAX_EXPRESSION_LENGTH),
    ("nesting levels of an expression", MAX_EXPRESSION_DEPTH),
    ("coefficients of a polynomial profile", MAX_POLYNOMIAL_COEFFICIENTS),
    ("points of a table profile", MAX_TABLE_POINTS),
    ("files in a FreeCAD document or results zip", MAX_ARCHIVE_ENTRIES),
    ("bytes of one of them, unpacked", MAX_ARCHIVE_ENTRY_BYTES),
    ("bytes of all of them, unpacked", MAX_ARCHIVE_BYTES),
)
_RUN_LIMITS = (
    ("integration steps, t_end / step (adaptive integrators: a lower bound, step is their largest step)", MAX_STEPS),
    ("output samples, t_end / output_step + 1", MAX_SAMPLES),
    (
        f"bytes of the static analysis' dense matrices: {STATICS_MATRIX_COPIES} x {STORED_NUMBER_BYTES} x (n^2 + "
        "rows x n), n = 6 per moving body, rows = constraint equations",
        MAX_MATRIX_BYTES,
    ),
    (
        f"integration steps taken while the run goes (an adaptive integrator shrinking its step): "
        f"{STEP_BUDGET_FACTOR} x t_end / step, at least this, at most {_integer(MAX_STEPS)}; beyond, the run "
        f"stops as failed with its samples so far",
        MIN_STEP_BUDGET,
    ),
    (
        f"bytes of results: samples x {SAMPLE_COPIES} x {STORED_NUMBER_BYTES} x ({_per(STORED_NUMBERS)}) "
        f"+ the chunk being written, min(samples, {CHUNK_VALUES} / columns) x {WRITTEN_COLUMN_BYTES} x columns, "
        f"columns = {_per(WRITTEN_COLUMNS)}",
        MAX_RESULT_BYTES,
    ),
)
