"""Every numerical tolerance of the solver and the report, named by purpose.

Rank tolerances are relative: a singular value of the dimensionless constraint Jacobian
(see ``assembly.scaling``) counts when it exceeds ``tol * sigma_max``. Each value differs
from its neighbours for the reason given on its line; changing one changes results.
"""

# Residuals max |Phi| [m, rad]
ASSEMBLY_TOL = 1e-10  # a state counts as assembled: simulate start, analyses, kinematic positions
PROJECTION_TOL = 1e-11  # projection of ODE-form runs: repeated at every output time, one decade below ASSEMBLY_TOL

# Rank decisions
RANK_TOL = 1e-8  # mobility/redundancy of an assembled state (|Phi| < ASSEMBLY_TOL); a diagnosis, `--tol` overrides
REDUNDANCY_TOL = 1e-9  # rows an index-3 run drops at its start: only exactly redundant ones may leave the solve
INDEX3_RANK_DROP = 1e-5  # index-3 run: a direction this weak now, or by the end of the next step, leaves the solve
INDEX3_RANK_NEWTON = 1e-3  # ... after a step failed: one this weak at the step's predicted end (the iterations stall)
INDEX3_RANK_RESTORE = 1e-4  # ... and comes back once it grows past this (the solve is well conditioned again)
INDEX3_ROW_CHOICE = 0.05  # index-3 run: other rows are left out when these no longer carry the dependencies this well
SCHUR_PIVOT_TOL = 1e-6  # ODE-form Schur complement (mass metric): a smaller pivot (x its diagonal) -> refine the solve
CAD_REDUNDANCY_TOL = (
    0.05  # a CAD pose that does not assemble: a joint equation this close (sine, ~3 deg) to the span of
)
# the equations before it counts as redundant, left out of the run and its opening reported (tolerant assembly)
SAMPLED_RANK_TOL = 1e-6  # states sampled from a run carry its constraint drift, which blurs exact dependencies

# ODE-form constraint solve (numerics/schur.py): sine of the angle between a constraint row and the span of the rows
# kept before it (reverse Cuthill-McKee order), in the dimensionless metric where every body has unit mass and a radius
# of gyration equal to its size; no mass, inertia or unit enters
ODE_RANK_TOL = 1e-5  # a smaller sine: the row depends on the kept ones and leaves the solve (multiplier 0)
ODE_RANK_RETURN_TOL = 1e-3  # a dropped row comes back above this sine only: off the constraints (drift) a redundant
# row is only nearly dependent (sine ~ the violation), and taking it back near 1e-5 made C nearly singular (Bricard
# with explicit Euler blew up at 0.24 s); leaving a singular position the sine grows past 1e-3 within a step
ODE_NEAR_SINGULAR = 1e-2  # a smaller sine of a kept row: rank re-decided and state projected after every step
ODE_PROJECTION_TOL = 1e-12  # near-singular projection: max |Phi| (length rows / model length scale, angle rows)

# Singular configurations: sigma_min / sigma_max of the independent rows (1 / condition number)
SINGULAR_TOL = 1e-4  # the kinematic analysis stops: the drivers no longer determine the motion
INDEX3_NEAR_SINGULAR = 1e-4  # an index-3 run warns (and keeps going) near a singular or locking position
REPORT_NEAR_SINGULAR = 1e-3  # the report warns earlier: reactions there are already sensitive to small errors

# Statics
STATICS_FORCE_TOL = 1e-9  # force residual of static equilibrium, relative to (force scale x length scale)

# Geometry [m]
COINCIDENT_TOL = 1e-9  # points this close coincide: joints and forces at a point mass's centre, the ends of a rod

# Quality gate of a run (solver/quality.py; defaults of the Settings fields, measured on every example with every
# integrator, bench/results/quality_gate.md; the reasons in docs/solver.md "Run status and quality gate")
VIOLATION_TOL = 1e-3  # position violation [m] / model length scale L: ~9x the worst good run (cros, 1.1e-4 L)
VIOLATION_ANGLE_TOL = 1e-3  # angular violation [rad]: the tilt that moves a point at distance L by 1e-3 L
ENERGY_TOL = 1e-2  # energy error / energy exchanged, conservative models: ~10x the worst good run (galpha, 1.0e-3)
ENERGY_FLOOR = (
    1e-9  # least energy exchanged, x the model's energy scale sum(m) |g| L: a model at rest has rounding only
)
ILL_SCALED_RATIO = 1e10  # mass-matrix diagonal (inertias / L^2) max / min: ODE-form results degrade beyond ~1e11
