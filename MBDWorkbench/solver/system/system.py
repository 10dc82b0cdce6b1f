"""Compile a Model into the flat arrays the Numba kernels use (done once per run).

Each moving body gets a principal, centroidal frame (so its mass matrix is constant and
diagonal); ``R_principal`` maps it back to the user's frame for results.

A point mass keeps its own frame and carries its rotation as a frozen coordinate: every joint
and force attaches to it at its centre (exactly: its local points are 0) and no equation
depends on its rotation (model.geometry.joint_rows), so no torque ever acts on it, its angular velocity
stays exactly 0 and the placeholder inertia of its rotation (``POINT_MASS_GYRATION``) never
enters the motion, the multipliers or the energy, with every integrator.
"""

from collections import namedtuple

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import reverse_cuthill_mckee

from .. import kernels
from ..model.catalog import COORDINATES, DRIVERS, JOINTS
from ..model.expressions import pack_args, pack_programs
from ..model.geometry import (
    axis_angle,
    axis_distance,
    body_dofs,
    coupler_coefficients,
    distance_anchors,
    frame_axes,
    joint_rows,
)
from ..model.joint_stops import compliant_limits, coordinate_inertia, stop_laws
from ..model.profiles import compile_profile
from ..model.schema import GROUND
from ..model.shape_points import VECTORS
from ..numerics import forces, quaternion
from ..numerics.joints import COEFFS, COUPLERS, ROW_IS_ANGULAR, ROW_VECS, UNWRAP, eval_row, row_vectors
from .broad_phase import FIELDS as BROAD_PHASE_FIELDS
from .broad_phase import broad_phase_arrays
from .contact_packing import contact_elements
from .friction import joint_friction

POINT_MASS_GYRATION = 1.0  # radius of gyration [m] of the placeholder inertia of a point mass's frozen rotation

_STATIC_FIELDS = (
    "nb minv mass inertia gravity row_kind row_bi row_bj row_vecs row_prog "
    "pair_r pair_s pair_side_r pair_side_s pair_body perm bw alpha beta rank_w row_scale "
    "force_start force_bi force_bj force_vecs force_par force_prog force_flag "
    "p_code p_code_start p_consts p_const_start p_table_x p_table_y p_table_start p_table_base p_stack "
    + BROAD_PHASE_FIELDS
).split()
Static = namedtuple("Static", _STATIC_FIELDS)
Work = namedtuple(
    "Work", "A Q acc phi jac gamma rate lam band rhs bvec u res u_prev keep keep_prev ratio ref sine2 ctl y_near"
)


def principal_frame(inertia):
    """Principal moments (3,) and rotation R (columns = principal axes in the body's
    own frame, det +1) of a symmetric inertia tensor."""
    J, R = np.linalg.eigh(0.5 * (np.asarray(inertia, float) + np.asarray(inertia, float).T))
    if np.linalg.det(R) < 0:
        R[:, 2] = -R[:, 2]
    return J, R


class ForceElement:
    """One force element as the kernels see it (numerics/forces.py): kernel code, moving-body indices
    of its two sides (-1: ground or none), local vectors [m or unit], numbers, profile
    program indices (-1: none) and a flag."""

    VECS, PAR, PROG = VECTORS, 8, 6

    def __init__(self, code: int, bi: int, bj: int = -1, flag: int = 0) -> None:
        self.code, self.bi, self.bj, self.flag = code, bi, bj, flag
        self.vecs = np.zeros((self.VECS, 3))
        self.par = np.zeros(self.PAR)
        self.prog = np.full(self.PROG, -1, dtype=np.int64)


class System:
    """A model compiled for the kernels: index maps, static arrays, initial state Y0."""

    def __init__(self, model, dropped: tuple[tuple[int, int], ...] = ()):
        """``dropped``: (joint index, equation index in its catalogue rows) of the joint equations
        left out (tolerant assembly, :mod:`..tolerant`): the run solves the others only."""
        self.model = model
        self.dropped = tuple(dropped)
        self.moving = [b for b in model.bodies if not b.grounded]
        self.index = {b.name: k for k, b in enumerate(self.moving)}
        self.nb = len(self.moving)
        self._poses()
        self.programs = []
        rows = self._joint_rows() + self._driver_rows()
        rows = [r for r in rows if (r["owner"], r.get("index")) not in set(self.dropped)]
        self.rows = rows
        self.m = len(rows)
        self.row_owner = np.array([r["owner"] for r in rows], dtype=np.int64)
        self.row_angular = np.array([ROW_IS_ANGULAR[r["kind"]] for r in rows], dtype=bool)
        force_arrays = self._force_arrays()
        pack = pack_programs(self.programs)
        self.pack = pack
        pairs, perm, bw = self._schur_structure(rows)
        self.Y0 = self._initial_state()
        p = self.params = model.settings
        sizes = self.body_sizes()
        self.static = Static(
            nb=self.nb,
            minv=1.0 / self.mass6,
            mass=self.mass,
            inertia=self.J,
            gravity=np.asarray(model.gravity, float),
            row_kind=np.array([r["kind"] for r in rows], dtype=np.int64).reshape(-1),
            row_bi=np.array([r["bi"] for r in rows], dtype=np.int64).reshape(-1),
            row_bj=np.array([r["bj"] for r in rows], dtype=np.int64).reshape(-1),
            row_vecs=np.array([r["vecs"] for r in rows], dtype=float).reshape(-1, ROW_VECS, 3),
            row_prog=np.array([r["prog"] for r in rows], dtype=np.int64).reshape(-1),
            pair_r=pairs[0],
            pair_s=pairs[1],
            pair_side_r=pairs[2],
            pair_side_s=pairs[3],
            pair_body=pairs[4],
            perm=perm,
            bw=bw,
            alpha=float(p.baumgarte_alpha),
            beta=float(p.baumgarte_beta),
            rank_w=self._rank_metric(sizes),
            row_scale=np.where(self.row_angular, 1.0, 1.0 / float(np.max(sizes, initial=1.0))),
            **force_arrays,
            **broad_phase_arrays(force_arrays, self.contact_pair),
            **dict(
                zip(
                    [
                        "p_code",
                        "p_code_start",
                        "p_consts",
                        "p_const_start",
                        "p_table_x",
                        "p_table_y",
                        "p_table_start",
                        "p_table_base",
                        "p_stack",
                    ],
                    pack_args(pack),
                )
            ),
        )
        self._set_coupler_constants()
        self.work = self.new_work()
        if self.stop_laws:
            self._size_stops()
        self.friction = joint_friction(self)  # joint friction (system/friction.py), None without

    def _set_coupler_constants(self) -> None:
        """Each coupler row's constant: its value at the initial configuration (as FreeCAD's
        Assembly solver); its angles start on atan2's principal branch and then follow the
        evaluations (joints.py: consecutive evaluations less than half a turn apart)."""
        vecs, jac = self.static.row_vecs, np.zeros((self.m, 2, 6))
        for r, row in enumerate(self.rows):
            if row["kind"] in COUPLERS:
                vecs[r, UNWRAP] = np.nan
                vecs[r, COEFFS, 2] = 0.0
                vecs[r, COEFFS, 2] = eval_row(
                    r, row["kind"], row["bi"], row["bj"], vecs, self.Y0, self.nb, self.A0, jac
                )[0]

    # ------------------------------------------------------------------ bodies
    def _poses(self):
        """Principal frames, masses and initial global poses of the moving bodies."""
        nb = self.nb
        self.mass = np.array([b.mass for b in self.moving], dtype=float)
        self.point_mass = np.array([b.point_mass for b in self.moving], dtype=bool)
        self.dofs = sum(body_dofs(b) for b in self.moving)
        frozen = [6 * k + 3 + c for k in np.nonzero(self.point_mass)[0] for c in range(3)]
        columns = np.arange(6 * nb)
        self.free_columns = np.setdiff1d(columns, frozen) if frozen else columns  # velocity columns that are dofs
        self.J = np.zeros((nb, 3))
        self.R_principal = np.zeros((nb, 3, 3))
        self.A0 = np.zeros((nb, 3, 3))
        self.r0 = np.zeros((nb, 3))
        for k, b in enumerate(self.moving):
            if b.point_mass:
                self.J[k], self.R_principal[k] = b.mass * POINT_MASS_GYRATION**2, np.eye(3)
            else:
                self.J[k], self.R_principal[k] = principal_frame(b.inertia)
            A_user = quaternion.matrix(np.asarray(b.orientation, float))
            self.A0[k] = A_user @ self.R_principal[k]
            self.r0[k] = b.position
        self.mass6 = np.column_stack([self.mass, self.mass, self.mass, self.J]) if nb else np.zeros((0, 6))
        self.fixed_pose = {GROUND: (np.zeros(3), np.eye(3))}
        for b in self.model.bodies:
            if b.grounded:
                self.fixed_pose[b.name] = (
                    np.asarray(b.position, float),
                    quaternion.matrix(np.asarray(b.orientation, float)),
                )

    def weight(self) -> float:
        """Total weight [N] of the moving bodies: sum(m) |g|."""
        return float(np.sum(self.mass) * np.linalg.norm(self.static.gravity))

    def body_index(self, name):
        """Moving-body index of ``name``, or -1 for the ground and grounded bodies."""
        return self.index.get(name, -1)

    def to_local_point(self, name, p_global):
        """Global point at the initial configuration -> coordinates used by the kernels
        (principal body frame about the CoG, or global for fixed bodies; 0 on a point mass,
        whose points are at its centre: model validation)."""
        k = self.body_index(name)
        if k < 0:
            return np.asarray(p_global, float)
        if self.point_mass[k]:
            return np.zeros(3)
        return self.A0[k].T @ (np.asarray(p_global, float) - self.r0[k])

    def to_local_vector(self, name, v_global):
        """Global direction at the initial configuration -> kernel coordinates."""
        k = self.body_index(name)
        return np.asarray(v_global, float) if k < 0 else self.A0[k].T @ np.asarray(v_global, float)

    def _user_local(self, name, frame, path, what):
        """A frame given locally on a body (user frame about the CoG) -> kernel coordinates."""
        x, y, z = frame_axes(frame, path, what)
        o = np.asarray(frame.origin, float)
        k = self.body_index(name)
        if k >= 0:
            R = self.R_principal[k]
            return (np.zeros(3) if self.point_mass[k] else R.T @ o), R.T @ x, R.T @ y, R.T @ z
        r, A = self.fixed_pose[name]
        return r + A @ o, A @ x, A @ y, A @ z

    def joint_local_frames(self, j, path):
        """{'oi','xi','yi','zi','oj','xj','yj','zj'} for joint j in kernel coordinates;
        distance joints: 'oi', 'oj' are their anchors, 'length' their length [m]."""
        what = f"joint '{j.name}'"
        out = {}
        for side, body in (("i", j.body_i), ("j", j.body_j)):
            if j.frame is not None:
                x, y, z = frame_axes(j.frame, f"{path}.frame", what)
                o = np.asarray(j.frame.origin, float)
                vals = (
                    self.to_local_point(body, o),
                    self.to_local_vector(body, x),
                    self.to_local_vector(body, y),
                    self.to_local_vector(body, z),
                )
            else:
                fr = j.frame_i if side == "i" else j.frame_j
                vals = self._user_local(body, fr, f"{path}.frame_{side}", what)
            for key, v in zip("oxyz", vals):
                out[key + side] = v
        if j.type == "distance":
            self._distance_anchors(j, out)
        elif JOINTS[j.type].takes_length:
            out["length"] = axis_distance(self.model, j) if j.length is None else float(j.length)
        if JOINTS[j.type].takes_angle:
            out["cos_angle"] = float(np.cos(axis_angle(self.model, j) if j.angle is None else j.angle))
        if JOINTS[j.type].parameters:
            out["coupler"] = coupler_coefficients(j)
        return out

    def _distance_anchors(self, j, local):
        """A distance joint's anchor on body_j (point_j with a global frame) and its length
        (default: the initial distance of its anchors, model.geometry.distance_anchors)."""
        p_i, p_j = distance_anchors(self.model, j)
        if j.frame is not None:
            local["oj"] = self.to_local_point(j.body_j, p_j)
        local["length"] = float(np.linalg.norm(p_j - p_i)) if j.length is None else float(j.length)

    # ------------------------------------------------------------------ rows
    def _joint_rows(self):
        rows = []
        self.joint_frames = []
        for jk, j in enumerate(self.model.joints):
            local = self.joint_local_frames(j, f"joints[{jk}]")
            self.joint_frames.append(local)
            for index in joint_rows(self.model, j, f"joints[{jk}]"):
                spec = JOINTS[j.type].rows[index]
                rows.append(
                    dict(
                        kind=spec[0],
                        bi=self.body_index(j.body_i),
                        bj=self.body_index(j.body_j),
                        vecs=row_vectors(spec, local),
                        prog=-1,
                        owner=jk,
                        index=index,
                    )
                )
        return rows

    def add_program(self, spec, path):
        """Compile a profile and return its index in the program pack."""
        self.programs.append(compile_profile(spec, path))
        return len(self.programs) - 1

    def _driver_rows(self):
        rows = []
        names = [j.name for j in self.model.joints]
        for dk, d in enumerate(self.model.drivers):
            jk = names.index(d.joint)
            j = self.model.joints[jk]
            spec = DRIVERS[d.type].row
            rows.append(
                dict(
                    kind=spec[0],
                    bi=self.body_index(j.body_i),
                    bj=self.body_index(j.body_j),
                    vecs=row_vectors(spec, self.joint_frames[jk]),
                    prog=self.add_program(d.profile, f"drivers[{dk}].profile"),
                    owner=len(self.model.joints) + dk,
                )
            )
        return rows

    # ------------------------------------------------------------------ forces
    def _force_arrays(self) -> dict:
        """The force elements (see numerics/forces.py), sorted by kernel code, as the force_* arrays
        of Static."""
        elements = [self._FORCE_PACKERS[f.type](self, f, f"forces[{fk}]") for fk, f in enumerate(self.model.forces)]
        elements += self._joint_stop_elements()  # after the model's forces: force_order >= len(forces)
        contact, self.contact_pair, self.contact_laws = contact_elements(self)  # in pair order, after the stops
        # model force index of each packed element (stable sort: model order within a kernel); the
        # joint stops follow the model's forces, in the order of self.stop_laws, the contacts last
        codes = np.array([e.code for e in elements], dtype=np.int64).reshape(-1)
        self.force_order = np.append(np.argsort(codes, kind="stable"), len(codes) + np.arange(len(self.contact_pair)))
        elements = [elements[k] for k in self.force_order[: len(elements)]]
        codes = np.append(codes, np.full(len(self.contact_pair), forces.CONTACT, dtype=np.int64))
        counts = np.bincount(codes, minlength=forces.FORCE_KERNELS)
        contact["prog"] = np.full((len(self.contact_pair), ForceElement.PROG), -1, dtype=np.int64)
        shapes = {"vecs": (ForceElement.VECS, 3), "par": (ForceElement.PAR,), "prog": (ForceElement.PROG,)}
        arrays = {"force_start": np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)}
        for key in ("bi", "bj", "vecs", "par", "prog", "flag"):
            packed = np.array([getattr(e, key) for e in elements], dtype=contact[key].dtype)
            arrays[f"force_{key}"] = np.concatenate([packed.reshape(-1, *shapes.get(key, ())), contact[key]])
        return arrays

    def _pack_load(self, f, path: str) -> ForceElement:
        """point_force or torque: profiles of a force at a point and of a torque on one body."""
        b = self.body_index(f.body)
        e = ForceElement(forces.LOAD, b, flag=1 if f.frame == "body" else 0)
        e.vecs[0] = self.to_local_point(f.body, self.r0[b] if f.point is None else f.point)
        key, first = ("force", 0) if f.type == "point_force" else ("torque", 3)
        for i, c in enumerate(getattr(f, key)):
            e.prog[first + i] = self.add_program(c, f"{path}.{key}[{i}]")
        return e

    def _pack_spring_damper(self, f, path: str) -> ForceElement:
        """Translational spring-damper: end points, stiffness, damping, free length."""
        pi, pj = np.asarray(f.point_i, float), np.asarray(f.point_j, float)
        e = ForceElement(forces.SPRING_DAMPER, self.body_index(f.body_i), self.body_index(f.body_j))
        e.vecs[0], e.vecs[1] = self.to_local_point(f.body_i, pi), self.to_local_point(f.body_j, pj)
        l0 = np.linalg.norm(pj - pi) if f.free_length is None else f.free_length
        e.par[:3] = f.stiffness, f.damping, l0
        return e

    def _pack_rotational_spring_damper(self, f, path: str) -> ForceElement:
        """Rotational spring-damper: the joint's ANGLE row vectors, stiffness, damping, free angle."""
        jk = [j.name for j in self.model.joints].index(f.joint)
        j = self.model.joints[jk]
        e = ForceElement(forces.ROTATIONAL_SPRING_DAMPER, self.body_index(j.body_i), self.body_index(j.body_j))
        e.vecs[:] = row_vectors(DRIVERS["rotational"].row, self.joint_frames[jk])[: ForceElement.VECS]
        e.par[:3] = f.stiffness, f.damping, f.free_angle
        return e

    def _joint_stop_elements(self) -> list[ForceElement]:
        """One JOINT_STOP element per limited or damped joint coordinate (model.joint_stops):
        the coordinate's row vectors and (lower, upper, k, e, c_max, d_full, c_viscous)."""
        self.stop_laws = []
        elements = []
        for jk, j in enumerate(self.model.joints):
            for law in stop_laws(self.model, j):
                linear = law.coordinate == "displacement"
                e = ForceElement(forces.JOINT_STOP, self.body_index(j.body_i), self.body_index(j.body_j), int(linear))
                e.vecs[:] = row_vectors(COORDINATES[law.coordinate].row, self.joint_frames[jk])[: ForceElement.VECS]
                e.vecs[3] = np.nan  # the last angle (numerics.forces.joint_stop)
                e.par[:] = (
                    *compliant_limits(law),
                    law.stiffness,
                    law.exponent,
                    law.damping,
                    law.penetration,
                    law.viscous,
                    0.0,
                )
                self.stop_laws.append(law)
                elements.append(e)
        return elements

    def _size_stops(self) -> None:
        """Resize the stops on the effective inertia of their coordinates (:meth:`coordinate_inertia`)."""
        joints = {j.name: jk for jk, j in enumerate(self.model.joints)}
        first = int(self.static.force_start[forces.JOINT_STOP])
        laws = []
        for j in self.model.joints:
            laws += stop_laws(self.model, j, lambda joint, c: self.coordinate_inertia(joints[joint.name], c))
        for k, law in enumerate(laws):
            self.static.force_par[first + k, :7] = (
                *compliant_limits(law), law.stiffness, law.exponent, law.damping, law.penetration, law.viscous
            )  # fmt: skip
        self.stop_laws = laws

    def coordinate_inertia(self, jk: int, coordinate: str) -> float:
        """Effective inertia [kg m^2 or kg] of joint jk's coordinate in the constrained mechanism at
        the initial state: 1 / (j M_c^-1 j^T), j the coordinate's Jacobian row and M_c^-1 the
        mobility with every joint and driver equation held; the body estimate
        (model.joint_stops.coordinate_inertia) where it is not defined or the model is large."""
        j = self.model.joints[jk]
        fallback = coordinate_inertia(self.model, j, coordinate)
        if 6 * self.nb > 3000 or not self.m:
            return fallback
        kind = COORDINATES[coordinate].row[0]
        vecs = row_vectors(COORDINATES[coordinate].row, self.joint_frames[jk])[None]
        jac = np.zeros((1, 2, 6))
        bi, bj = self.body_index(j.body_i), self.body_index(j.body_j)
        eval_row(0, kind, bi, bj, vecs, self.Y0, self.nb, self.A0, jac)
        row = np.zeros(6 * self.nb)
        for b, side in ((bi, 0), (bj, 1)):
            if b >= 0:
                row[6 * b : 6 * b + 6] += jac[0, side]
        minv = self.static.minv.reshape(-1)
        G = self.constraint_jacobian(0.0, self.Y0)[1]
        GM = G * minv
        C = GM @ G.T
        x = np.linalg.lstsq(C, GM @ row, rcond=1e-12)[0]
        mobility = float(row @ (minv * row) - (GM @ row) @ x)
        scale = float(row @ (minv * row))
        return 1.0 / mobility if mobility > 1e-9 * scale else fallback

    _FORCE_PACKERS = {
        "point_force": _pack_load,
        "torque": _pack_load,
        "spring_damper": _pack_spring_damper,
        "rotational_spring_damper": _pack_rotational_spring_damper,
    }

    # ------------------------------------------------------------------ Schur structure
    def body_sizes(self) -> np.ndarray:
        """Size [m] of each moving body: the largest distance from its CoG to the origin of one
        of its joints; a body jointed at its CoG only (size below 1e-6 of the largest) takes the
        largest size (1 m if no body has one)."""
        size = np.zeros(self.nb)
        for j, f in zip(self.model.joints, self.joint_frames):
            for side, body in (("i", j.body_i), ("j", j.body_j)):
                b = self.body_index(body)
                if b >= 0:
                    size[b] = max(size[b], float(np.linalg.norm(f["o" + side])))
        largest = float(np.max(size, initial=0.0)) or 1.0
        return np.where(size > 1e-6 * largest, size, largest)

    def _rank_metric(self, sizes: np.ndarray) -> np.ndarray:
        """Weights (nb, 6) of the metric in which the kept constraint rows are decided: J W J^T
        with W = (s^2, s^2, s^2, 1, 1, 1) per body of size s (``sizes``: :meth:`body_sizes`), i.e. every
        body with unit mass and a radius of gyration equal to its size; dimensionless, free of masses and units."""
        s2 = sizes**2
        return np.column_stack([s2, s2, s2, np.ones((self.nb, 3))]) if self.nb else np.zeros((0, 6))

    def _schur_structure(self, rows):
        """Pairs of rows sharing a moving body, a bandwidth-reducing ordering (reverse
        Cuthill-McKee) and the resulting bandwidth of the Schur complement."""
        touching = [[] for _ in range(self.nb)]
        for r, row in enumerate(rows):
            for side, b in ((0, row["bi"]), (1, row["bj"])):
                if b >= 0:
                    touching[b].append((r, side))
        pr, ps, sr, ss, pb = [], [], [], [], []
        for b, lst in enumerate(touching):
            for a in range(len(lst)):
                for c in range(a + 1):
                    pr.append(lst[a][0]), sr.append(lst[a][1])
                    ps.append(lst[c][0]), ss.append(lst[c][1])
                    pb.append(b)
        m = len(rows)
        if m:
            pattern = coo_matrix((np.ones(len(pr)), (pr, ps)), shape=(m, m)).tocsr()
            pattern = pattern + pattern.T
            order = reverse_cuthill_mckee(pattern, symmetric_mode=True)
            perm = np.empty(m, dtype=np.int64)
            perm[order] = np.arange(m)
            bw = int(max(abs(perm[a] - perm[c]) for a, c in zip(pr, ps))) if pr else 0
        else:
            perm, bw = np.zeros(0, dtype=np.int64), 0
        return tuple(np.array(v, dtype=np.int64) for v in (pr, ps, sr, ss, pb)), perm, bw

    def new_work(self):
        """Fresh work arrays for the kernels."""
        nb, m = self.nb, self.m
        return Work(
            A=np.zeros((nb, 3, 3)),
            Q=np.zeros(6 * nb),
            acc=np.zeros(6 * nb),
            phi=np.zeros(m),
            jac=np.zeros((m, 2, 6)),
            gamma=np.zeros(m),
            rate=np.zeros(m),
            lam=np.zeros(m),
            band=np.zeros((m, self.static.bw + 1 if m else 1)),
            rhs=np.zeros(m),
            bvec=np.zeros(m),
            u=np.zeros(6 * nb),
            res=np.zeros(m),
            u_prev=np.zeros(6 * nb),
            keep=np.ones(m, dtype=np.int64),
            keep_prev=np.ones(m, dtype=np.int64),
            ratio=np.zeros(m),
            ref=np.zeros(m),
            sine2=np.zeros(m),
            ctl=kernels.new_rank_state(m),
            y_near=np.zeros(13 * nb),
        )

    # ------------------------------------------------------------------ state
    def _initial_state(self):
        nb = self.nb
        Y = np.zeros(13 * nb)
        for k, b in enumerate(self.moving):
            Y[7 * k : 7 * k + 3] = b.position
            Y[7 * k + 3 : 7 * k + 7] = quaternion.from_matrix(self.A0[k])
            o = 7 * nb + 6 * k
            Y[o : o + 3] = b.velocity
            Y[o + 3 : o + 6] = self.A0[k].T @ np.asarray(b.angular_velocity, float)
        return Y

    def derivative(self, t, Y):
        """dY/dt (a new array) for SciPy's integrators; raises on a singular system."""
        Y = np.ascontiguousarray(Y, dtype=float)
        if self.friction is not None:
            return self.friction.derivative(t, Y)
        Ydot = np.empty_like(Y)
        status = kernels.fast_call(kernels.derivatives, float(t), Y, self.static, self.work, Ydot)[0]
        if status == kernels.SINGULAR:
            raise FloatingPointError("singular constraint Schur complement")
        return Ydot

    def evaluate(self, t: float, Y: np.ndarray) -> dict:
        """Everything at one instant: Ydot, multipliers, Phi, Phi rate, energies, powers. The
        kept rows are decided again at (t, Y) from the stepper's kept set (a dropped row returns
        above ODE_RANK_RETURN_TOL), the stepper's rank state left as it was; the multipliers of
        a redundant set are the minimum-norm split (:meth:`min_norm_multipliers`)."""
        Y = np.array(Y, dtype=float)
        kernels.fast_call(kernels.normalize_quaternions_arrays, self.nb, Y)  # not the Static tuple: unboxed per call
        if self.friction is not None:
            return self._evaluate_with_friction(t, Y)
        Ydot = np.empty_like(Y)
        w = self.work
        saved = [a.copy() for a in (w.keep, w.keep_prev, w.ref, w.ctl, w.y_near)]
        w.ctl[kernels.CTL_DECIDE] = 1.0
        try:
            status, V, Pnc, Pdrv = kernels.fast_call(kernels.derivatives, float(t), Y, self.static, w, Ydot)
            if self.m and status == kernels.OK and not self.kept_rows().all():
                w.lam[:] = self.min_norm_multipliers(w.lam)
        finally:
            for a, b in zip((w.keep, w.keep_prev, w.ref, w.ctl, w.y_near), saved):
                a[:] = b
        return dict(
            status=status,
            Ydot=Ydot,
            lam=w.lam.copy(),
            phi=w.phi.copy(),
            rate=w.rate.copy(),
            V=V,
            T=kernels.fast_call(kernels.kinetic_energy, self.static, Y),
            Pnc=Pnc,
            Pdrv=Pdrv,
        )

    def _evaluate_with_friction(self, t: float, Y: np.ndarray) -> dict:
        """:meth:`evaluate` of a model with joint friction (its dense solve); ``friction``: the
        friction.Evaluation; the one the stepper kept at the state it reached, when it is (t, Y))."""
        ev = self.friction.solve_current(t, Y)
        self.work.lam[:] = ev.lam
        T = kernels.fast_call(kernels.kinetic_energy, self.static, Y)
        return dict(status=kernels.OK, Ydot=ev.Ydot.copy(), lam=ev.lam.copy(), phi=ev.phi, rate=ev.constraint_rate,
                    V=ev.V, T=T, Pnc=ev.Pnc, Pdrv=ev.Pdrv, friction=ev)  # fmt: skip

    def kept_rows(self) -> np.ndarray:
        """Mask of the constraint rows in the ODE-form solve (False: dropped as dependent)."""
        return self.work.keep[self.static.perm] == 1

    def min_norm_multipliers(self, lam: np.ndarray) -> np.ndarray:
        """The multipliers with the same constraint load J^T lam as ``lam`` (dropped rows 0, as
        the kernels return them) that minimise sum_r C_rr lam_r^2, C = J M^-1 J^T: the
        minimum-norm split of a redundant set, each row weighted by the acceleration its unit
        load alone would cause (unit-consistent). Uses the Jacobian and the factor of the kept
        rows left in the work arrays by the last evaluation."""
        S, w = self.static, self.work
        keep = self.kept_rows()
        dropped = np.nonzero(~keep)[0]
        J = self._dense_jacobian()
        JM = J * S.minv.reshape(-1)
        Z = np.zeros((self.m, len(dropped)))
        rhs, x = np.zeros(self.m), np.zeros(self.m)
        for c, r in enumerate(dropped):  # null vectors of J^T: row r minus its combination of kept rows
            kernels.solve_kept(w.band, S.bw, S.perm, w.keep, J @ JM[r], x, rhs)
            Z[:, c] = -x
            Z[r, c] = 1.0
        ZD = Z.T * np.einsum("ij,ij->i", JM, J)
        return lam - Z @ np.linalg.lstsq(ZD @ Z, ZD @ lam, rcond=None)[0]

    def _jacobian_entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows, columns, values) of Phi_q [m x 6N] from the work arrays, side i's entries first."""
        rows, cols, vals = [], [], []
        for side, bodies in ((0, self.static.row_bi), (1, self.static.row_bj)):
            r = np.nonzero(bodies >= 0)[0]
            rows.append(np.repeat(r, 6))
            cols.append((6 * bodies[r][:, None] + np.arange(6)).reshape(-1))
            vals.append(self.work.jac[r, side].reshape(-1))
        return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)

    def _dense_jacobian(self) -> np.ndarray:
        """Dense Phi_q [m x 6N] from the work arrays."""
        Jd = np.zeros((self.m, 6 * self.nb))
        rows, cols, vals = self._jacobian_entries()
        np.add.at(Jd, (rows, cols), vals)
        return Jd

    def constraint_residual(self, t, Y) -> np.ndarray:
        """Phi [m] at (t [s], Y) (m, rad), without assembling Phi_q."""
        Y = np.ascontiguousarray(Y, dtype=float)
        kernels.fast_call(kernels.update_rotations, self.static, Y, self.work.A)
        kernels.fast_call(kernels.constraints, float(t), Y, self.static, self.work)
        return self.work.phi.copy()

    def constraint_jacobian(self, t, Y, sparse: bool = False):
        """(Phi [m], Phi_q [m x 6N], gamma [m], rate [m]) at (t, Y); Phi_q dense, or a sparse
        matrix (at most 12 entries a row) if ``sparse``: large models never build the m x 6N array."""
        phi = self.constraint_residual(t, Y)
        w = self.work
        if sparse:
            rows, cols, vals = self._jacobian_entries()
            J = csr_matrix((vals, (rows, cols)), shape=(self.m, 6 * self.nb))
        else:
            J = self._dense_jacobian()
        return phi, J, w.gamma.copy(), w.rate.copy()

    def owner_name(self, owner):
        """Name of the joint or driver owning a constraint row."""
        nj = len(self.model.joints)
        return self.model.joints[owner].name if owner < nj else self.model.drivers[owner - nj].name

    def worst_joints(self, phi, count=3):
        """Names of the joints/drivers with the largest position violation."""
        if not self.m:
            return []
        viol = np.zeros(len(self.model.joints) + len(self.model.drivers))
        np.maximum.at(viol, self.row_owner, np.abs(phi))
        order = np.argsort(-viol)[:count]
        return [(self.owner_name(k), float(viol[k])) for k in order if viol[k] > 0 or not np.isfinite(viol[k])]

    # ------------------------------------------------------------------ user frames
    def user_pose(self, Y):
        """CoG positions (nb, 3) and user-frame quaternions (nb, 4) from a state."""
        nb = self.nb
        q = Y[: 7 * nb].reshape(nb, 7)
        A = quaternion.matrices(q[:, 3:])
        A_user = A @ np.transpose(self.R_principal, (0, 2, 1))
        return q[:, :3].copy(), np.array([quaternion.from_matrix(a) for a in A_user])
