"""Quantities the report derives from ReportData: peak loads, kinematics of user points,
mobility and redundancy of the constraint equations, and the warnings."""
import numpy as np

from ..solver import quaternion
from ..solver.joints import JOINT_ROWS, POINT, DP1, DP2
from .data import ReportError

RANK_TOL = 1e-6          # relative singular-value tolerance of the scaled Jacobian
NEAR_SINGULAR = 1e-3     # smallest kept / largest singular value below this: warn
DRIFT_POSITION = 1e-5    # position violation warning, relative to the mechanism size
DRIFT_ANGLE = 1e-5       # angular violation warning [rad]
DRIFT_ENERGY = 1e-3      # relative energy-balance drift warning
MAX_RANK_SAMPLES = 400   # samples checked for singular configurations


# ----------------------------------------------------------------------------- peaks
def peak_loads(data):
    """Per joint: max |F| [N] and max |T| [N m], their times [s] and the joint-frame
    components at those times. List of dicts (keys joint, type, F_max, t_F, F, T_max,
    t_T, T)."""
    out = []
    for j in data.model.joints:
        F, T = data.reaction(j.name)
        nF, nT = np.linalg.norm(F, axis=1), np.linalg.norm(T, axis=1)
        kF, kT = int(np.argmax(nF)), int(np.argmax(nT))
        out.append(dict(joint=j.name, type=j.type, F_max=float(nF[kF]), t_F=float(data.t[kF]), F=F[kF].copy(),
                        T_max=float(nT[kT]), t_T=float(data.t[kT]), T=T[kT].copy()))
    return out


def driver_peaks(data):
    """Per driver: max |effort| and max |power| with their times."""
    out = []
    for d in data.driver_names:
        e, p = data.effort(d), data.power(d)
        ke, kp = int(np.argmax(np.abs(e))), int(np.argmax(np.abs(p)))
        out.append(dict(driver=d, unit=data.driver_unit(d), effort=float(e[ke]), t_effort=float(data.t[ke]),
                        power=float(p[kp]), t_power=float(data.t[kp]), energy=float(np.trapz(p, data.t))))
    return out


# ----------------------------------------------------------------------------- points
def check_points(data, points):
    """Validate [(body, local_point), ...]; returns [(label 'P1'.., body, array(3))]."""
    out = []
    fixed = {b.name for b in data.model.bodies if b.grounded} | {"ground"}
    for k, item in enumerate(points or []):
        try:
            body, local = item
        except (TypeError, ValueError):
            raise ReportError(f"points[{k}]", f"expected (body, [x, y, z]), got {item!r}") from None
        if body not in data.body_names and body not in fixed:
            raise ReportError(f"points[{k}]", f"unknown body '{body}' (bodies: {', '.join(data.body_names)})")
        p = np.asarray(local, dtype=float) if _is_vector(local) else None
        if p is None:
            raise ReportError(f"points[{k}]", f"local point of body '{body}' must be 3 finite numbers [m], got {local!r}")
        out.append((f"P{k + 1}", body, p))
    return out


def _is_vector(v):
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        return False
    return a.shape == (3,) and bool(np.all(np.isfinite(a)))


def point_kinematics(data, body, local):
    """Global position [m], velocity [m/s] and acceleration [m/s^2] (K, 3) of a point
    given in the body's own frame relative to its CoG. The acceleration is the
    second-order finite difference (numpy.gradient) of the velocity."""
    K = len(data)
    if body not in data.body_names:
        pos = np.tile(_fixed_point(data.model, body, local), (K, 1))
        return dict(position=pos, velocity=np.zeros((K, 3)), acceleration=np.zeros((K, 3)))
    rp = data.rotation(body) @ local
    pos = data.position(body) + rp
    vel = data.velocity(body) + np.cross(data.angular_velocity(body), rp)
    acc = np.gradient(vel, data.t, axis=0, edge_order=2) if K >= 3 else np.zeros((K, 3))
    return dict(position=pos, velocity=vel, acceleration=acc)


def _fixed_point(model, body, local):
    if body == "ground":
        return np.asarray(local, float)
    b = model.body(body)
    return np.asarray(b.position, float) + quaternion.matrix(np.asarray(b.orientation, float)) @ local


# ----------------------------------------------------------------------------- geometry
def body_points(data):
    """Local attachment points of every moving body (user frame about the CoG, [m]):
    joint origins and spring ends; and the global fixed points (ground side). Returns
    ({body: [(label, local (3,))]}, [(label, global (3,))])."""
    system = _system(data.model)
    local = {b: [] for b in data.body_names}
    fixed = []
    for j, f in zip(data.model.joints, system.joint_frames):
        for side, body in (("i", j.body_i), ("j", j.body_j)):
            k = system.body_index(body)
            if k >= 0:
                local[body].append((j.name, system.R_principal[k] @ f["o" + side]))
            else:
                fixed.append((j.name, np.asarray(f["o" + side], float)))
    for frc in data.model.forces:
        if frc.type == "spring_damper":
            for body, p in ((frc.body_i, frc.point_i), (frc.body_j, frc.point_j)):
                k = system.body_index(body)
                if k >= 0:
                    local[body].append((frc.name, system.R_principal[k] @ system.to_local_point(body, p)))
                else:
                    fixed.append((frc.name, system.to_local_point(body, p)))
    return local, fixed


def characteristic_length(data):
    """Size of the mechanism [m]: RMS distance of joint origins and CoGs from their mean."""
    pts = [np.asarray(b.position, float) for b in data.model.bodies]
    for j in data.model.joints:
        if j.frame is not None:
            pts.append(np.asarray(j.frame.origin, float))
    P = np.array(pts)
    L = float(np.sqrt(np.mean(np.sum((P - P.mean(axis=0)) ** 2, axis=1))))
    return L if L > 1e-9 else 1.0


def _system(model):
    from ..solver.system import System
    return System(model)


# ----------------------------------------------------------------------------- mobility
def grubler(model):
    """Grubler-Kutzbach count: 6 per moving body - joint equations - one per driver."""
    moving = sum(1 for b in model.bodies if not b.grounded)
    eqs = sum(len(JOINT_ROWS[j.type]) for j in model.joints)
    return dict(moving_bodies=moving, joint_equations=eqs, driver_equations=len(model.drivers),
                dof=6 * moving - eqs - len(model.drivers))


def row_labels(model):
    """(owner name, description) of every constraint row, in System order."""
    out = []
    for j in model.joints:
        for spec in JOINT_ROWS[j.type]:
            out.append((j.name, _describe(spec)))
    for d in model.drivers:
        out.append((d.name, f"{d.type} driver"))
    return out


def _describe(spec):
    if spec[0] == POINT:
        return f"origins coincide along global {'xyz'[spec[1]]}"
    if spec[0] == DP1:
        return f"{_axis(spec[1])} \u22a5 {_axis(spec[2])}"
    if spec[0] == DP2:
        return f"origin j in the plane \u22a5 {_axis(spec[1])}"
    return "joint angle"


def _axis(name):
    return f"{name[0]}_{name[1]}"


def state_vector(data, system, k):
    """Solver state Y (principal body frames) at sample k, rebuilt from the results."""
    nb = system.nb
    Y = np.zeros(13 * nb)
    for b, name in enumerate(data.body_names):
        A = quaternion.matrix(data.orientation(name)[k]) @ system.R_principal[b]
        Y[7 * b:7 * b + 3] = data.position(name)[k]
        Y[7 * b + 3:7 * b + 7] = quaternion.from_matrix(A)
        o = 7 * nb + 6 * b
        Y[o:o + 3] = data.velocity(name)[k]
        Y[o + 3:o + 6] = A.T @ data.angular_velocity(name)[k]
    return Y


def scaled_jacobian(system, t, Y, L):
    """Dimensionless constraint Jacobian: angular columns / L, angular rows * L."""
    J = system.constraint_jacobian(t, Y)[1]
    if not J.size:
        return J
    J = J.copy()
    cols = np.tile(np.r_[np.ones(3), np.full(3, 1.0 / L)], system.nb)
    J *= cols[None, :]
    J[system.row_angular] *= L
    return J


def dependent_rows(J, tol=RANK_TOL):
    """Rows of J that are linear combinations of earlier rows (Gram-Schmidt in model
    order, relative tolerance ``tol``). Returns (independent, redundant) index lists."""
    basis, indep, red = [], [], []
    scale = max(float(np.abs(J).max()) if J.size else 0.0, 1e-300)
    for r, row in enumerate(J):
        v = row / scale
        for q in basis:
            v = v - (q @ v) * q
        for q in basis:
            v = v - (q @ v) * q
        n = np.linalg.norm(v)
        if n > tol * max(np.linalg.norm(row / scale), 1e-300) and n > tol:
            basis.append(v / n)
            indep.append(r)
        else:
            red.append(r)
    return indep, red


def _involved(J, indep, r, tol=1e-6):
    """Independent rows that row r is a combination of (least-squares coefficients)."""
    A = J[indep].T
    c = np.linalg.lstsq(A, J[r], rcond=None)[0]
    big = np.abs(c) > tol * max(np.abs(c).max(), 1e-300)
    return [indep[k] for k in np.nonzero(big)[0]]


def mobility(data):
    """Numerical mobility and redundancy at the first sample plus singular-configuration
    scan over the run (scaled Jacobian rank, RANK_TOL). Returns a dict."""
    model = data.model
    system = _system(model)
    L = characteristic_length(data)
    nb, nj = system.nb, len(model.joints)
    labels = row_labels(model)
    joint_rows = system.row_owner < nj
    J0 = scaled_jacobian(system, float(data.t[0]), state_vector(data, system, 0), L)
    indep, red = dependent_rows(J0)
    rank_joints = len(dependent_rows(J0[joint_rows])[0]) if joint_rows.any() else 0
    involved = {}
    for r in red:
        involved[r] = _involved(J0, indep, r) if indep else []
    out = dict(grubler=grubler(model), equations=system.m, rank=len(indep), coordinates=6 * nb,
               dof_joints=6 * nb - rank_joints, dof=6 * nb - len(indep), length_scale=L,
               redundant=[dict(row=r, owner=labels[r][0], what=labels[r][1],
                               involved=sorted({labels[i][0] for i in involved[r]} | {labels[r][0]}))
                          for r in red])
    out.update(_singular_scan(data, system, L, len(indep)))
    out["external"] = _external_analysis(model)
    return out


def _singular_scan(data, system, L, rank0):
    """Samples where the rank drops below rank0, and the worst conditioning."""
    K = len(data)
    if not system.m:
        return dict(singular_times=[], min_ratio=1.0, t_min_ratio=float(data.t[0]), scanned=0)
    ks = np.unique(np.linspace(0, K - 1, min(K, MAX_RANK_SAMPLES)).round().astype(int))
    singular, worst, t_worst = [], np.inf, float(data.t[0])
    for k in ks:
        s = np.linalg.svd(scaled_jacobian(system, float(data.t[k]), state_vector(data, system, k), L), compute_uv=False)
        rank = int(np.sum(s > RANK_TOL * s[0])) if s.size and s[0] > 0 else 0
        if rank < rank0:
            singular.append(float(data.t[k]))
        elif rank0:
            ratio = s[rank0 - 1] / s[0]
            if ratio < worst:
                worst, t_worst = float(ratio), float(data.t[k])
    return dict(singular_times=singular, min_ratio=float(worst if np.isfinite(worst) else 1.0),
                t_min_ratio=t_worst, scanned=len(ks))


def _external_analysis(model):
    """Mobility from MBDWorkbench.solver.analysis if that module exists (else None)."""
    try:
        from ..solver import analysis
    except ImportError:
        return None
    fn = getattr(analysis, "mobility", None)
    if not callable(fn):
        return None
    try:
        res = fn(model)
    except Exception as e:  # an optional cross-check must not stop the report
        return {"error": f"{type(e).__name__}: {e}"}
    return res if isinstance(res, dict) else {"result": repr(res)}


# ----------------------------------------------------------------------------- warnings
def warnings(data, mob):
    """List of (title, text) warnings: run status, redundant constraints and how their
    reactions were distributed, singular configurations, constraint drift, energy drift."""
    out = []
    s = data.summary
    if s.get("status", "completed") != "completed":
        out.append(("Run did not complete", f"status '{s.get('status')}': {s.get('message', '')}"))
    if mob["redundant"]:
        out.append(("Redundant constraints", _redundancy_text(data, mob)))
    if mob["singular_times"]:
        ts = mob["singular_times"]
        out.append(("Singular configurations", f"the constraint Jacobian loses rank at {len(ts)} sample(s), "
                    f"t = {_times(ts)} s: the mechanism passes a singular (dead-centre / locked) position; "
                    "reactions and efforts there are unreliable."))
    elif mob["min_ratio"] < NEAR_SINGULAR:
        out.append(("Near-singular configuration", f"the constraint Jacobian is nearly rank deficient at "
                    f"t = {mob['t_min_ratio']:.4g} s (smallest/largest kept singular value "
                    f"{mob['min_ratio']:.2e}): reactions there are sensitive to small errors."))
    out += _drift_warnings(data, mob["length_scale"])
    return out


def _times(ts, n=6):
    shown = ", ".join(f"{t:.4g}" for t in ts[:n])
    return shown + (", ..." if len(ts) > n else "")


def _redundancy_text(data, mob):
    eps = data.summary.get("settings", {}).get("tikhonov_eps", data.model.settings.tikhonov_eps)
    rows = "; ".join(f"'{r['owner']}': {r['what']}" for r in mob["redundant"])
    joints = sorted({o for r in mob["redundant"] for o in r["involved"]})
    return (f"{len(mob['redundant'])} constraint equation(s) repeat others ({rows}). The reactions along these "
            f"directions are statically indeterminate: the solver regularises the constraint Schur complement "
            f"(Tikhonov eps = {eps:g}) and reports the minimum-norm distribution of the load among the joints "
            f"involved ({', '.join(joints)}). The total is right; the split between these joints depends on part "
            f"compliance and clearances and is not a prediction. Reactions marked * in the peak-load table are affected.")


def _drift_warnings(data, L):
    out = []
    s = data.summary
    vpos = s.get("max_position_violation_m", 0.0) or 0.0
    vang = s.get("max_angle_violation_rad", 0.0) or 0.0
    if vpos > DRIFT_POSITION * L or vang > DRIFT_ANGLE:
        worst = _worst_violation(data)
        out.append(("Large constraint drift", f"max violation {vpos:.3e} m ({vpos / L:.1e} of the mechanism size "
                    f"{L:.3g} m) and {vang:.3e} rad, worst in {worst}; reduce the step or raise the Baumgarte "
                    "gains / enable projection."))
    drift = s.get("energy_drift", 0.0) or 0.0
    if drift > DRIFT_ENERGY:
        out.append(("Energy balance drift", f"relative energy-balance error {drift:.2e} (> {DRIFT_ENERGY:g}): the "
                    "integration error is visible in the loads; reduce the step or use a tighter tolerance."))
    return out


def _worst_violation(data):
    names = data.joint_names + data.driver_names
    worst = max(names, key=lambda n: float(np.max(data.violation(n)["position"])), default=None)
    return f"'{worst}'" if worst else "no joint"
