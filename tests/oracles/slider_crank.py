r"""Planar (offset) slider-crank oracle: closed-form kinematics and inverse dynamics.

Geometry and conventions
------------------------
* Crank pivot O at the origin; crank length ``r``; crank angle ``theta`` measured
  from +x, CCW positive.  Crank pin ``B = r (cos theta, sin theta)``.
* Connecting rod of length ``l`` from B to the slider pin C.
* Slider pin ``C = (x, e)`` moves on the horizontal guide y = e (offset ``e``).
* ``branch = +1`` (default): slider on the +x side of the crank pin,
  ``x = r cos theta + sqrt(l^2 - (r sin theta - e)^2)``;  ``branch = -1`` the
  mirror assembly (slider to the left).
* Rod angle ``phi`` = absolute angle of the vector B -> C from +x (CCW +):
  ``sin phi = (e - r sin theta)/l``, ``l cos phi = x - r cos theta``.
* Full crank rotation requires ``l > r + |e|`` (no dead-centre singularity).

Closed-form derivatives (prime = d/dtheta).  With
``s = r sin theta - e``, ``s' = r cos theta``, ``s'' = -r sin theta`` and
``w = branch sqrt(l^2 - s^2) = l cos phi``::

    w'  = -s s' / w
    w'' = -(s'^2 + s s'') / w - (s s')^2 / w^3
    x   = r cos theta + w
    x'  = -r sin theta + w'
    x'' = -r cos theta + w''
    phi'  = -s' / w
    phi'' = -s'' / w + s' w' / w^2

Time derivatives for a prescribed theta(t):  x_dot = x' theta_dot,
x_ddot = x'' theta_dot^2 + x' theta_ddot  (same pattern for phi and every point).

Mass properties
---------------
* crank: mass ``mc``, CoM ``Gc`` at distance ``rc`` from O along the crank
  (``Gc = rc (cos theta, sin theta)``; rc < 0 puts it behind the pivot),
  inertia ``Jc`` about its CoM.
* rod: mass ``mr``, CoM ``Gr = B + rod_com (C - B)`` (``rod_com = 0.5``:
  mid-length), inertia ``Jr`` about its CoM.
* slider: point mass ``ms`` at C (it does not rotate).
Defaults (``None``) are uniform bars: rc = r/2, Jc = mc r^2/12, Jr = mr l^2/12.

Velocity coefficients (d(position)/d theta, d(angle)/d theta)::

    Gc' = rc (-sin theta, cos theta)            crank angle'  = 1
    B'  = r  (-sin theta, cos theta)            B'' = -r (cos theta, sin theta)
    C'  = (x', 0)                               C'' = (x'', 0)
    Gr' = (1 - rod_com) B' + rod_com C'         rod angle' = phi'
    Gs' = C'                                    slider angle' = 0

Generalised inertia (T = 1/2 I(theta) theta_dot^2)::

    I(theta)  = Jc + mc rc^2 + mr |Gr'|^2 + Jr phi'^2 + ms x'^2
    dI/dtheta = 2 mr Gr'.Gr'' + 2 Jr phi' phi'' + 2 ms x' x''

Potential (gravity vector ``g_vec = g * g_dir``, default (0, -9.81); linear
spring on the slider along the guide, force ``-k (x - x0)``)::

    V(theta)  = -(mc g_vec.Gc + mr g_vec.Gr + ms g_vec.C) + 1/2 k (x - x0)^2
    dV/dtheta = -(mc g_vec.Gc' + mr g_vec.Gr' + ms g_vec.C') + k (x - x0) x'

Non-conservative generalised force: viscous damper on the slider (force
``-c_damp x_dot`` along x) and an optional constant external force
``F_slider`` along +x on the slider::

    Q_nc = (-c_damp x' theta_dot + F_slider) x'

Inverse dynamics (Lagrange / virtual work), motor torque applied BY THE GROUND
ON THE CRANK about +z (CCW positive, i.e. positive when it drives theta up)::

    tau = d/dt(dT/dtheta_dot) - dT/dtheta + dV/dtheta - Q_nc
        = I theta_ddot + 1/2 I' theta_dot^2 + dV/dtheta - Q_nc

Static torque (theta_dot = theta_ddot = 0): ``tau_static = dV/dtheta``
(minus ``F_slider x'`` if a constant slider force is given).

Power balance: ``tau theta_dot = dE/dt - Q_nc theta_dot`` with E = T + V.

Relation to a Lagrange multiplier: for a rotational driver constraint
``Phi = theta_crank - theta_ground - u(t)`` in ``M q'' + C^T lambda = Q`` the
constraint torque on the crank is ``-lambda``, so ``lambda = -tau``.  Check the
sign convention of the solver before comparing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SliderCrank"]


def _vec(x, y):
    return np.stack(np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float)), axis=-1)


@dataclass
class SliderCrank:
    r: float = 0.5
    l: float = 1.5
    e: float = 0.0
    mc: float = 1.0
    rc: float | None = None
    Jc: float | None = None
    mr: float = 1.0
    Jr: float | None = None
    rod_com: float = 0.5
    ms: float = 1.0
    k: float = 0.0
    x0: float = 0.0
    c_damp: float = 0.0
    F_slider: float = 0.0
    g: float = 9.81
    g_dir: tuple = (0.0, -1.0)
    branch: int = 1

    def __post_init__(self):
        if self.rc is None:
            self.rc = self.r / 2.0
        if self.Jc is None:
            self.Jc = self.mc * self.r**2 / 12.0
        if self.Jr is None:
            self.Jr = self.mr * self.l**2 / 12.0
        if self.branch not in (1, -1):
            raise ValueError("branch must be +1 or -1")
        d = np.asarray(self.g_dir, dtype=float)
        self.g_vec = self.g * d / np.linalg.norm(d)

    # ------------------------------------------------------------- kinematics
    def _sw(self, theta):
        theta = np.asarray(theta, dtype=float)
        s = self.r * np.sin(theta) - self.e
        rad = self.l**2 - s * s
        if np.any(rad <= 0):
            raise ValueError("slider-crank cannot be assembled (dead centre or beyond)")
        w = self.branch * np.sqrt(rad)
        sp = self.r * np.cos(theta)
        spp = -self.r * np.sin(theta)
        wp = -s * sp / w
        wpp = -(sp * sp + s * spp) / w - (s * sp) ** 2 / w**3
        return theta, s, sp, spp, w, wp, wpp

    def slider_position(self, theta):
        """x of the slider pin C = (x, e)."""
        theta, s, sp, spp, w, wp, wpp = self._sw(theta)
        return self.r * np.cos(theta) + w

    def dx_dtheta(self, theta):
        theta, s, sp, spp, w, wp, wpp = self._sw(theta)
        return -self.r * np.sin(theta) + wp

    def d2x_dtheta2(self, theta):
        theta, s, sp, spp, w, wp, wpp = self._sw(theta)
        return -self.r * np.cos(theta) + wpp

    def rod_angle(self, theta):
        """phi = atan2(e - r sin theta, x - r cos theta), absolute angle of B->C."""
        theta, s, sp, spp, w, wp, wpp = self._sw(theta)
        return np.arctan2(-s, w)

    def drod_dtheta(self, theta):
        theta, s, sp, spp, w, wp, wpp = self._sw(theta)
        return -sp / w

    def d2rod_dtheta2(self, theta):
        theta, s, sp, spp, w, wp, wpp = self._sw(theta)
        return -spp / w + sp * wp / w**2

    def points(self, theta):
        """dict of positions (..., 2): O, B (crank pin), C (slider pin), Gc, Gr, Gs."""
        theta = np.asarray(theta, dtype=float)
        ct, st = np.cos(theta), np.sin(theta)
        x = self.slider_position(theta)
        B = _vec(self.r * ct, self.r * st)
        C = _vec(x, np.full_like(x, self.e))
        return dict(
            O=np.zeros_like(B), B=B, C=C, Gc=_vec(self.rc * ct, self.rc * st), Gr=B + self.rod_com * (C - B), Gs=C
        )

    def velocity_coefficients(self, theta):
        """First and second theta-derivatives of every CoM position and body angle.

        Returns dict with keys ``Gc1, Gr1, Gs1, B1, C1`` (first derivatives,
        (..., 2)), ``Gc2, Gr2, Gs2, B2, C2`` (second derivatives), and the scalar
        angle coefficients ``crank1 = 1, crank2 = 0, rod1 = phi', rod2 = phi''``,
        ``slider1 = slider2 = 0``.
        """
        theta = np.asarray(theta, dtype=float)
        ct, st = np.cos(theta), np.sin(theta)
        xp, xpp = self.dx_dtheta(theta), self.d2x_dtheta2(theta)
        zero = np.zeros_like(xp)
        B1, B2 = _vec(-self.r * st, self.r * ct), _vec(-self.r * ct, -self.r * st)
        C1, C2 = _vec(xp, zero), _vec(xpp, zero)
        lam = self.rod_com
        return dict(
            Gc1=_vec(-self.rc * st, self.rc * ct),
            Gc2=_vec(-self.rc * ct, -self.rc * st),
            B1=B1,
            B2=B2,
            C1=C1,
            C2=C2,
            Gr1=(1 - lam) * B1 + lam * C1,
            Gr2=(1 - lam) * B2 + lam * C2,
            Gs1=C1,
            Gs2=C2,
            crank1=np.ones_like(xp),
            crank2=zero,
            rod1=self.drod_dtheta(theta),
            rod2=self.d2rod_dtheta2(theta),
            slider1=zero,
            slider2=zero,
        )

    def kinematics(self, theta, theta_dot, theta_ddot=0.0):
        """Positions, velocities and accelerations for a prescribed crank motion.

        Returns dict: ``x, xd, xdd`` (slider), ``phi, phid, phidd`` (rod),
        and for P in (B, C, Gc, Gr, Gs): ``P, P_vel, P_acc`` (each (..., 2)).
        """
        theta = np.asarray(theta, dtype=float)
        wd = np.asarray(theta_dot, dtype=float)
        wdd = np.asarray(theta_ddot, dtype=float)
        vc = self.velocity_coefficients(theta)
        pts = self.points(theta)
        out = dict(theta=theta, theta_dot=wd, theta_ddot=wdd)
        xp, xpp = vc["C1"][..., 0], vc["C2"][..., 0]
        out["x"] = pts["C"][..., 0]
        out["xd"] = xp * wd
        out["xdd"] = xpp * wd**2 + xp * wdd
        out["phi"] = self.rod_angle(theta)
        out["phid"] = vc["rod1"] * wd
        out["phidd"] = vc["rod2"] * wd**2 + vc["rod1"] * wdd
        for P in ("B", "C", "Gc", "Gr", "Gs"):
            out[P] = pts[P]
            out[P + "_vel"] = vc[P + "1"] * np.asarray(wd)[..., None]
            out[P + "_acc"] = vc[P + "2"] * np.asarray(wd**2)[..., None] + vc[P + "1"] * np.asarray(wdd)[..., None]
        return out

    # --------------------------------------------------------------- dynamics
    def generalized_inertia(self, theta):
        vc = self.velocity_coefficients(theta)
        Gr1 = vc["Gr1"]
        return (
            self.Jc
            + self.mc * self.rc**2
            + self.mr * np.sum(Gr1 * Gr1, axis=-1)
            + self.Jr * vc["rod1"] ** 2
            + self.ms * vc["C1"][..., 0] ** 2
        )

    def generalized_inertia_derivative(self, theta):
        vc = self.velocity_coefficients(theta)
        return 2.0 * (
            self.mr * np.sum(vc["Gr1"] * vc["Gr2"], axis=-1)
            + self.Jr * vc["rod1"] * vc["rod2"]
            + self.ms * vc["C1"][..., 0] * vc["C2"][..., 0]
        )

    def kinetic_energy(self, theta, theta_dot):
        return 0.5 * self.generalized_inertia(theta) * np.asarray(theta_dot) ** 2

    def potential_energy(self, theta):
        """Gravity (zero at the origin) + spring energy, J."""
        p = self.points(theta)
        gv = self.g_vec
        Vg = -(self.mc * p["Gc"] @ gv + self.mr * p["Gr"] @ gv + self.ms * p["Gs"] @ gv)
        return Vg + 0.5 * self.k * (p["C"][..., 0] - self.x0) ** 2

    def dV_dtheta(self, theta):
        vc = self.velocity_coefficients(theta)
        gv = self.g_vec
        x = self.slider_position(theta)
        dVg = -(self.mc * vc["Gc1"] @ gv + self.mr * vc["Gr1"] @ gv + self.ms * vc["Gs1"] @ gv)
        return dVg + self.k * (x - self.x0) * vc["C1"][..., 0]

    def static_torque(self, theta):
        """Motor torque holding the mechanism at rest at theta.

        ``dV/dtheta - F_slider x'``; with no constant slider force (the default)
        this is exactly dV/dtheta along the constraint manifold (gravity + spring).
        """
        theta = np.asarray(theta, dtype=float)
        return self.dV_dtheta(theta) - self.F_slider * self.dx_dtheta(theta)

    def generalized_nonconservative_force(self, theta, theta_dot):
        xp = self.dx_dtheta(theta)
        return (-self.c_damp * xp * np.asarray(theta_dot) + self.F_slider) * xp

    def motor_torque(self, theta, theta_dot, theta_ddot=0.0):
        """Motor torque [N m] on the crank (CCW +) for the prescribed theta(t)."""
        theta = np.asarray(theta, dtype=float)
        wd = np.asarray(theta_dot, dtype=float)
        wdd = np.asarray(theta_ddot, dtype=float)
        I = self.generalized_inertia(theta)
        dI = self.generalized_inertia_derivative(theta)
        return I * wdd + 0.5 * dI * wd**2 + self.dV_dtheta(theta) - self.generalized_nonconservative_force(theta, wd)

    def mechanical_energy(self, theta, theta_dot):
        return self.kinetic_energy(theta, theta_dot) + self.potential_energy(theta)

    def torque_constant_speed(self, t, omega=np.pi, theta0=0.0):
        """tau(t) for theta = theta0 + omega t ([R3] section 6 uses omega = pi rad/s)."""
        t = np.asarray(t, dtype=float)
        return self.motor_torque(theta0 + omega * t, np.full_like(t, omega), np.zeros_like(t))
