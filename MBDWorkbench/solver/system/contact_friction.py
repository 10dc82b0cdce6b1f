"""True stiction of contact friction (docs/contact.md, "Friction"): each enabled pair with
``friction_law`` "stiction" (a sphere, a box, a cylinder or a mesh against a plane; two spheres, a
sphere and a cylinder: :mod:`.patch_geometry`) is one friction
contact of :mod:`.friction`, solved and switched exactly as a joint's (stick rows in the KKT
solve, stick/slip as located events of solver/friction_events.py).

The pair's *patch*: its touching points, with normal forces Fn_i [N] from the compliant law (the
force element applies them; its own friction is switched off), carry a load N = sum Fn_i at the
centre of pressure p = sum Fn_i x_i / N. Its channels are the slip velocity of body i's point at
p relative to body j (the plane's body) along two tangents t1, t2 fixed in the plane's frame, and,
for a pair of several points, r w_n: the spin rate w_n = n . (w_i - w_j) times the patch radius
r = sum Fn_i |x_i - p| / N. The friction F (|F| <= mu N, the cone of a cylindrical joint's
friction) acts on body i at p and, opposite, on body j: while the patch slips its force
mu_k N at p equals the sum of the points' forces mu_k Fn_i (the same slip at every point). While
it sticks, the channels' rates are held at 0: nothing slides or creeps; the patch can still rock
on the normal compliance, the elastic settling that stops when the rocking is damped out.

The channel rows G (on the bodies' [v global, w body-frame]) and their gamma = -Gdot v take p as a
point of body i during one evaluation (its drift over the body only enters through w x (p' - v_p),
zero at rest).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import kernels
from ..model.contacts import contact_law, has_stiction, ordered
from ..numerics.contact_patch import point_loads
from ..numerics.forces import CONTACT
from .patch_geometry import MOVING_KINDS, helper_axis, moving_rows


@dataclass
class Patch:
    """A pair's patch: its contact elements (indices of the force arrays), the bodies of its two
    sides (side i: the sphere, box or cylinder; side j: the plane; -1 the ground), the plane's
    tangents (2, 3) and normal in side j's frame, its channels' indices and its coefficients;
    ``helper``: a single point whose normal turns (two spheres, a sphere and a cylinder), the body
    and the direction in its frame of its tangents (:mod:`.patch_geometry`), else None."""

    name: str
    pair: int  # its index in model.contacts
    elements: np.ndarray
    bi: int
    bj: int
    tangents: np.ndarray
    normal: np.ndarray
    channels: np.ndarray
    mu_s: float
    mu_k: float
    helper: tuple[int, np.ndarray] | None = None


def _tangents(n: np.ndarray) -> np.ndarray:
    """Two unit tangents (2, 3) perpendicular to the unit normal n and to each other."""
    helper = np.eye(3)[int(np.argmin(np.abs(n)))]
    t1 = np.cross(n, helper)
    t1 /= np.linalg.norm(t1)
    return np.array([t1, np.cross(n, t1)])


class ContactPatches:
    """The stiction patches of a System, their channels from ``first_channel`` on."""

    def __init__(self, system, first_channel: int) -> None:
        self.system = system
        S = system.static
        first = int(S.force_start[CONTACT]) if len(getattr(system, "contact_pair", [])) else 0
        owner = np.asarray(getattr(system, "contact_pair", []), dtype=int)
        self.patches: list[Patch] = []
        n = first_channel
        for ck, c in enumerate(getattr(system.model, "contacts", [])):
            if not has_stiction(c):
                continue
            elements = first + np.nonzero(owner == ck)[0]
            k0 = int(elements[0])
            normal = np.array(S.force_vecs[k0, 2], float)
            count = 3 if len(elements) > 1 else 2
            law = contact_law(c)
            moving = count == 2 and int(S.force_flag[k0]) in MOVING_KINDS  # a normal turning with the shapes
            self.patches.append(
                Patch(
                    c.name,
                    ck,
                    elements.astype(np.int64),
                    int(S.force_bi[k0]),
                    int(S.force_bj[k0]),
                    np.zeros((2, 3)) if moving else _tangents(normal),
                    normal,
                    np.arange(n, n + count),
                    law.mu_s,
                    law.mu_k,
                    helper_axis(system, k0) if moving else None,
                )  # fmt: skip
            )
            n += count
        self.n_channels = n
        self.normals = np.zeros(len(self.patches))  # [N] each patch's load at the last evaluate
        self.frames = np.zeros((len(self.patches), 3, 3))  # global t1, t2, n (rows) there
        self.centres = np.zeros((len(self.patches), 3))  # [m] each centre of pressure there
        self.radii = np.zeros(len(self.patches))  # [m] each patch radius there

    def evaluate(self, Y: np.ndarray, A: np.ndarray, G: np.ndarray, gam: np.ndarray, rate: np.ndarray) -> None:
        """Fill the patches' rows of G, gamma_G and rate at state Y (A: the rotation matrices of
        Y, after the forces' evaluation) and keep their loads N [N] in :attr:`normals`."""
        S, nb = self.system.static, self.system.nb
        for k, patch in enumerate(self.patches):
            m = len(patch.elements)
            depth, x, fn = np.empty(m), np.empty((m, 3)), np.empty(m)
            point_loads(Y, nb, A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag,
                        patch.elements, depth, x, fn)  # fmt: skip
            N = float(fn.sum())
            if patch.helper is not None:  # a single point whose normal turns with the shapes
                self.centres[k], self.frames[k] = moving_rows(self.system, patch, Y, A, G, gam, rate)
                self.normals[k], self.radii[k] = N, 0.0
                continue
            p = fn @ x / N if N > 0.0 else x[int(np.argmax(depth))]
            radius = float(fn @ np.linalg.norm(x - p, axis=1)) / N if N > 0.0 else 0.0
            self.normals[k], self.centres[k], self.radii[k] = N, p, radius
            self._rows(patch, k, Y, A, p, radius, G, gam, rate)

    def _rows(self, patch: Patch, k: int, Y, A, p, radius: float, G, gam, rate) -> None:
        """Patch k's rows at its centre of pressure p [m] (module docstring)."""
        nb = self.system.nb
        sides = [_side(Y, A, nb, b, p) for b in (patch.bi, patch.bj)]
        (Ai, ri, vi, wi), (Aj, rj, vj, wj) = sides
        frame = Aj @ np.vstack([patch.tangents, patch.normal[None]]).T
        self.frames[k] = frame.T
        v_rel = (vi + np.cross(wi, ri)) - (vj + np.cross(wj, rj))
        channels = patch.channels
        for c, t in zip(channels[:2], frame.T[:2]):
            rate[c] = t @ v_rel
            gam[c] = -np.cross(wj, t) @ v_rel - t @ np.cross(wi, np.cross(wi, ri))
            gam[c] += t @ np.cross(wj, v_rel + np.cross(wj, rj))
            for (b, Ab, r), sign in (((patch.bi, Ai, ri), 1.0), ((patch.bj, Aj, rj), -1.0)):
                if b >= 0:
                    G[c, 6 * b : 6 * b + 3] += sign * t
                    G[c, 6 * b + 3 : 6 * b + 6] += sign * (Ab.T @ np.cross(r, t))
        if len(channels) == 3:
            c, n = channels[2], frame[:, 2]
            rate[c] = radius * n @ (wi - wj)
            gam[c] = -radius * np.cross(wj, n) @ wi
            for b, Ab, sign in ((patch.bi, Ai, 1.0), (patch.bj, Aj, -1.0)):
                if b >= 0:
                    G[c, 6 * b + 3 : 6 * b + 6] += sign * radius * (Ab.T @ n)

    def friction_force(self, k: int, effort: np.ndarray) -> np.ndarray:
        """Patch k's friction force on body i (global) [N] from the channel efforts at the last
        :meth:`evaluate`."""
        e = effort[self.patches[k].channels[:2]]
        return self.frames[k][0] * e[0] + self.frames[k][1] * e[1]


def with_patch_friction(system, ev, values: np.ndarray) -> np.ndarray:
    """contacts.csv's values (results.contacts.contact_sample: pairs x columns) with each stiction
    patch's friction (``ev``: the friction.Evaluation at the same state) added to the force on
    body_a (columns 0-2) and as the tangential force (column 4); ``values`` updated and returned."""
    friction = system.friction
    patches = friction.patches if friction is not None else None
    if patches is None or ev is None:
        return values
    for patch_index, patch in enumerate(patches.patches):
        c = system.model.contacts[patch.pair]
        F = patches.friction_force(patch_index, ev.effort)
        sign = 1.0 if ordered(c)[0] == c.body_a else -1.0
        values[patch.pair, :3] += sign * F
        values[patch.pair, 4] = float(np.linalg.norm(F))
    return values


def patch_friction_loads(system, Y: np.ndarray, effort: np.ndarray, body: str) -> list[dict]:
    """The stiction patches' friction on ``body`` at state Y with the channel ``effort`` of that
    sample (friction.packed's first entries): [dict(name, kind "contact", point [m], force [N],
    moment [N m] about the point: the spin friction)], global axes."""
    friction = system.friction
    patches = friction.patches if friction is not None else None
    b = system.body_index(body)
    if patches is None or not any(b in (p.bi, p.bj) for p in patches.patches):
        return []
    S, W = system.static, system.work
    Y = np.ascontiguousarray(Y, dtype=float)
    kernels.update_rotations(S, Y, W.A)
    n = friction.n_channels
    patches.evaluate(Y, W.A, np.zeros((n, 6 * system.nb)), np.zeros(n), np.zeros(n))
    out = []
    for k, patch in enumerate(patches.patches):
        if b not in (patch.bi, patch.bj):
            continue
        sign = 1.0 if b == patch.bi else -1.0
        spin = effort[patch.channels[2]] * patches.radii[k] if len(patch.channels) == 3 else 0.0
        force, moment = sign * patches.friction_force(k, effort), sign * spin * patches.frames[k][2]
        out.append(dict(name=f"{patch.name} (friction)", kind="contact", point=patches.centres[k].copy(),
                        force=force, moment=moment))  # fmt: skip
    return out


def _side(Y: np.ndarray, A: np.ndarray, nb: int, b: int, p: np.ndarray) -> tuple:
    """(rotation, p - its centre [m], velocity [m/s], angular velocity (global) [rad/s]) of body b
    (the ground: identity, p, zeros)."""
    if b < 0:
        return np.eye(3), p.copy(), np.zeros(3), np.zeros(3)
    o = 7 * nb + 6 * b
    return A[b], p - Y[7 * b : 7 * b + 3], Y[o : o + 3], A[b] @ Y[o + 3 : o + 6]


def contact_patches(system, first_channel: int) -> ContactPatches | None:
    """The System's stiction patches (None: no pair has friction_law 'stiction' with friction)."""
    if not any(has_stiction(c) for c in getattr(system.model, "contacts", [])):
        return None
    return ContactPatches(system, first_channel)
