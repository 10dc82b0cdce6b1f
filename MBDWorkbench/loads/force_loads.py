"""The loads of the force elements (springs, dampers, applied forces and torques) on one body at
one sample of a Results, each computed by the solver's own element kernel
(:func:`~MBDWorkbench.solver.numerics.forces.force_elements_arrays` run on that element alone),
so the load set holds exactly what the run applied. A spring-damper gives two loads, its spring
part (damping set to 0) and its damper part (stiffness set to 0), each only when its
coefficient is not zero. SI units, global axes; each load's moment is about its point."""

from __future__ import annotations

import numpy as np

from ..solver import kernels
from ..solver.numerics.forces import CONTACT, JOINT_STOP, LOAD, SPRING_DAMPER
from ..solver.system.contact_friction import patch_friction_loads

STIFFNESS, DAMPING = 0, 1  # columns of Static.force_par of the spring-dampers (see System._pack_*)
FORCE_ELEMENT_KINDS = ("applied", "spring", "damper", "stop", "contact")  # the kinds of the loads made here


def element_kernel(system, k: int) -> int:
    """Kernel code of packed force element ``k`` (elements are sorted by code)."""
    return int(np.searchsorted(system.static.force_start, k, side="right") - 1)


def element_wrench(system, t: float, Y: np.ndarray, k: int, par: np.ndarray) -> np.ndarray:
    """Generalized force (nb, 6) of packed force element ``k`` alone at (t [s], Y) with numbers
    ``par``: per moving body the global force [N] at its CoG and the torque [N m] about the CoG
    in its principal frame."""
    S, W = system.static, system.work
    Y = np.ascontiguousarray(Y, dtype=float)
    kernels.update_rotations(S, Y, W.A)
    code = element_kernel(system, k)
    start = np.where(np.arange(len(S.force_start)) <= code, k, k + 1).astype(np.int64)
    Q = np.zeros(6 * S.nb)
    kernels.force_elements_arrays(
        float(t), 0, S.nb, Y, W.A, Q, 0.0, 0.0, start, S.force_bi, S.force_bj, S.force_vecs,
        np.ascontiguousarray(par, dtype=float), S.force_prog, S.force_flag, S.p_code, S.p_code_start, S.p_consts,
        S.p_const_start, S.p_table_x, S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack,
    )  # fmt: skip
    return Q.reshape(S.nb, 6)


def _parts(system, k: int) -> list:
    """[(kind, numbers)] of packed element ``k``: one applied load, or its spring and damper parts."""
    par = system.static.force_par
    code = element_kernel(system, k)
    if code == LOAD:
        return [("applied", par)]
    if code == JOINT_STOP:
        return [("stop", par)]  # the end stops and viscous damping of one joint coordinate
    if code == CONTACT:
        return [("contact", par)]  # one contact point of a contact pair
    out = []
    for kind, zeroed, kept in (("spring", DAMPING, STIFFNESS), ("damper", STIFFNESS, DAMPING)):
        if par[k, kept] != 0.0:
            p = par.copy()
            p[k, zeroed] = 0.0
            out.append((kind, p))
    return out


def _local_point(system, k: int, force, body: str) -> np.ndarray:
    """Where element ``k`` acts on ``body``: body-local point [m] (principal frame, from the CoG)."""
    S, code = system.static, element_kernel(system, k)
    if code == LOAD:
        return S.force_vecs[k, 0]
    if code == SPRING_DAMPER:
        return S.force_vecs[k, 0 if system.body_index(body) == S.force_bi[k] else 1]
    if code == CONTACT:  # its force and moment about the CoG (the contact point moves over the body)
        return np.zeros(3)
    j = next(x for x in system.model.joints if x.name == force.joint)  # rotational or a stop: at the joint
    frame = system.joint_frames[system.model.joints.index(j)]
    return frame["oi"] if body == j.body_i else frame["oj"]


def force_element_loads(res, body: str, index: int) -> list:
    """[dict(name, kind, point, force, moment)] of every force element acting on moving body
    ``body`` at sample ``index`` of Results ``res`` (point [m], force [N], moment [N m] about
    the point, global axes); kinds in :data:`FORCE_ELEMENT_KINDS`."""
    system = res.system
    b = system.body_index(body)
    S = system.static
    A = res.rotation(body)[index] @ system.R_principal[b]
    cog = np.asarray(res.position(body)[index], float)
    out = []
    for k, fk in enumerate(system.force_order):
        if b not in (S.force_bi[k], S.force_bj[k]):
            continue
        force = _element_source(system, int(fk))
        point = cog + A @ _local_point(system, k, force, body)
        for kind, par in _parts(system, k):
            q = element_wrench(system, float(res.t[index]), res.Y[index], k, par)[b]
            if kind == "stop" and force.law.rigid and getattr(res, "stops", None) is not None:  # held: events.py
                q = q + res.stops.held_wrench(force.joint, force.law.coordinate, float(res.t[index]), res.Y[index])[b]
            F, T_cog = q[:3].copy(), A @ q[3:]
            name = force.name if kind in ("applied", "stop", "contact") else "%s (%s)" % (force.name, kind)
            out.append(dict(name=name, kind=kind, point=point, force=F, moment=T_cog - np.cross(point - cog, F)))
    if getattr(system, "friction", None) is not None:  # contact pairs with stiction: their patch's friction
        out += patch_friction_loads(system, res.Y[index], res._stack("friction")[index], body)
    return out


class _StopSource:
    """A joint's end stops and damping seen as a force element: its name and joint."""

    def __init__(self, law) -> None:
        self.joint, self.law = law.joint, law
        self.name = "%s %s stop" % (law.joint, law.coordinate)


def _element_source(system, fk: int):
    """The model force of packed element index ``fk`` (System.force_order), or the joint stop
    or contact pair that follows the model's forces (name: the pair's, per contact point)."""
    n, stops = len(system.model.forces), len(system.stop_laws)
    if fk >= n + stops:
        return system.model.contacts[system.contact_pair[fk - n - stops]]
    return system.model.forces[fk] if fk < n else _StopSource(system.stop_laws[fk - n])
