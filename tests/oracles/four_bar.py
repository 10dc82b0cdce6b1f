r"""Planar four-bar linkage oracle: closed-form position, velocity, acceleration analysis.

Geometry and conventions
------------------------
* Ground link of length ``d`` from pivot A0 = (0, 0) to pivot B0 = (d, 0)
  (along +x).
* Crank (input) of length ``a`` at A0, angle ``theta2`` from +x (CCW +);
  crank tip ``A = a e(theta2)``, ``e(t) = (cos t, sin t)``.
* Coupler of length ``b`` from A to B, absolute angle ``theta3`` of A -> B.
* Rocker (output) of length ``c`` at B0, absolute angle ``theta4`` of B0 -> B.
* Loop-closure equation::

      a e(theta2) + b e(theta3) = d e(0) + c e(theta4)

Position (circle intersection).  With ``s = |B0 - A|``, ``u = (B0 - A)/s`` and
``v = u rotated +90 deg``::

      p = (b^2 - c^2 + s^2) / (2 s),   h = sqrt(b^2 - p^2)
      B = A + p u + branch * h v

``branch = +1``: B lies to the LEFT of the directed line A -> B0 (for the
usual drawing with the crank above the ground link this is the "open"
configuration); ``branch = -1``: the "crossed" configuration.  Assembly is
possible iff ``|b - c| <= s <= b + c``; otherwise ValueError.  A continuous
motion that never passes a toggle position (sin(theta3 - theta4) = 0, i.e.
s = b + c or s = |b - c|) stays on one branch, so for a Grashof crank-rocker
``positions(theta2, branch)`` is continuous over a full crank turn.

Velocities (differentiate the loop once; n(t) = e(t + pi/2))::

      b w3 n3 - c w4 n4 = -a w2 n2
      w3 = a w2 sin(theta4 - theta2) / (b sin(theta3 - theta4))
      w4 = a w2 sin(theta3 - theta2) / (c sin(theta3 - theta4))

Accelerations (differentiate twice)::

      b al3 n3 - c al4 n4 = rhs,
      rhs = -a al2 n2 + a w2^2 e2 + b w3^2 e3 - c w4^2 e4
      al3 = -(rhs . e4) / (b sin(theta3 - theta4))
      al4 = -(rhs . e3) / (c sin(theta3 - theta4))

(derivation: dot the equation with e4 (n4.e4 = 0, n3.e4 = sin(theta4 - theta3))
and with e3 (n3.e3 = 0, n4.e3 = sin(theta3 - theta4)).)  The transmission
angle is ``mu = theta4 - theta3`` (mod 2 pi); the formulas are singular when
sin(mu) = 0 (toggle / change points).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FourBar"]


def _e(t):
    t = np.asarray(t, dtype=float)
    return np.stack([np.cos(t), np.sin(t)], axis=-1)


def _n(t):
    t = np.asarray(t, dtype=float)
    return np.stack([-np.sin(t), np.cos(t)], axis=-1)


class FourBar:
    """Four-bar with ground d, crank a, coupler b, rocker c (lengths in m)."""

    def __init__(self, d, a, b, c, branch=1):
        if branch not in (1, -1):
            raise ValueError("branch must be +1 or -1")
        self.d, self.a, self.b, self.c, self.branch = float(d), float(a), float(b), float(c), branch

    # ------------------------------------------------------------ classification
    def grashof(self):
        """True if s + l <= p + q (some link can fully rotate)."""
        L = sorted([self.a, self.b, self.c, self.d])
        return L[0] + L[3] <= L[1] + L[2]

    def crank_fully_rotates(self):
        """Crank-rocker or double-crank: Grashof with the crank or ground shortest."""
        return self.grashof() and min(self.a, self.b, self.c, self.d) in (self.a, self.d)

    # ----------------------------------------------------------------- positions
    def positions(self, theta2, branch=None):
        """(theta3, theta4) in (-pi, pi] for crank angle(s) theta2."""
        br = self.branch if branch is None else branch
        A = self.a * _e(theta2)
        B0 = np.array([self.d, 0.0])
        D = B0 - A
        s = np.linalg.norm(D, axis=-1)
        if np.any(s > self.b + self.c + 1e-15) or np.any(s < abs(self.b - self.c) - 1e-15):
            raise ValueError("four-bar cannot be assembled at this crank angle")
        u = D / s[..., None]
        v = np.stack([-u[..., 1], u[..., 0]], axis=-1)
        p = (self.b**2 - self.c**2 + s**2) / (2 * s)
        h = np.sqrt(np.maximum(self.b**2 - p**2, 0.0))
        B = A + p[..., None] * u + br * h[..., None] * v
        AB = B - A
        BB = B - B0
        return np.arctan2(AB[..., 1], AB[..., 0]), np.arctan2(BB[..., 1], BB[..., 0])

    def points(self, theta2, branch=None):
        """dict of (…,2) positions: A0, B0 (ground pivots), A (crank tip), B (coupler/rocker joint)."""
        th3, th4 = self.positions(theta2, branch)
        A = self.a * _e(theta2)
        B = A + self.b * _e(th3)
        return dict(A0=np.zeros_like(A), B0=np.broadcast_to([self.d, 0.0], A.shape).copy(), A=A, B=B)

    def loop_residual(self, theta2, theta3, theta4):
        """a e2 + b e3 - d e(0) - c e4 (should vanish), (...,2)."""
        return self.a * _e(theta2) + self.b * _e(theta3) - np.array([self.d, 0.0]) - self.c * _e(theta4)

    # ---------------------------------------------------------------- velocities
    def velocities(self, theta2, omega2, branch=None):
        """(theta3, theta4, omega3, omega4)."""
        th3, th4 = self.positions(theta2, branch)
        den = np.sin(th3 - th4)
        w3 = self.a * omega2 * np.sin(th4 - theta2) / (self.b * den)
        w4 = self.a * omega2 * np.sin(th3 - theta2) / (self.c * den)
        return th3, th4, w3, w4

    def accelerations(self, theta2, omega2, alpha2=0.0, branch=None):
        """(theta3, theta4, omega3, omega4, alpha3, alpha4)."""
        theta2 = np.asarray(theta2, dtype=float)
        omega2 = np.asarray(omega2, dtype=float)
        alpha2 = np.asarray(alpha2, dtype=float)
        th3, th4, w3, w4 = self.velocities(theta2, omega2, branch)
        e2, e3, e4, n2 = _e(theta2), _e(th3), _e(th4), _n(theta2)
        rhs = (
            -self.a * alpha2[..., None] * n2
            + self.a * (omega2**2)[..., None] * e2
            + self.b * (w3**2)[..., None] * e3
            - self.c * (w4**2)[..., None] * e4
        )
        den = np.sin(th3 - th4)
        al3 = -np.sum(rhs * e4, axis=-1) / (self.b * den)
        al4 = -np.sum(rhs * e3, axis=-1) / (self.c * den)
        return th3, th4, w3, w4, al3, al4

    def point_kinematics(self, theta2, omega2, alpha2=0.0, branch=None):
        """Positions, velocities, accelerations of A and B: dict with A, A_vel, A_acc, B, ...

        (B computed along the crank + coupler path.)
        """
        theta2 = np.asarray(theta2, dtype=float)
        omega2 = np.asarray(omega2, dtype=float)
        alpha2 = np.asarray(alpha2, dtype=float)
        th3, th4, w3, w4, al3, al4 = self.accelerations(theta2, omega2, alpha2, branch)
        a, b = self.a, self.b
        e2, n2, e3, n3 = _e(theta2), _n(theta2), _e(th3), _n(th3)
        A = a * e2
        Av = a * omega2[..., None] * n2
        Aa = a * (alpha2[..., None] * n2 - (omega2**2)[..., None] * e2)
        B = A + b * e3
        Bv = Av + b * w3[..., None] * n3
        Ba = Aa + b * (al3[..., None] * n3 - (w3**2)[..., None] * e3)
        return dict(
            A=A,
            A_vel=Av,
            A_acc=Aa,
            B=B,
            B_vel=Bv,
            B_acc=Ba,
            theta3=th3,
            theta4=th4,
            omega3=w3,
            omega4=w4,
            alpha3=al3,
            alpha4=al4,
        )
