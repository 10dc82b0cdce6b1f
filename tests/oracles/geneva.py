r"""External Geneva drive of n = 4 slots: the wheel's angle against the driver's (the classic
closed form, e.g. Shigley & Uicker, Theory of Machines and Mechanisms).

The driver turns about O, its pin at radius r; the wheel turns about W, at the centre distance
a from O, with r = a sin(pi / n) so that the pin enters and leaves the slots tangentially (no
impact). phi is the driver's angle from the line O -> W (positive counter-clockwise). While
|phi| <= pi/2 - pi/n (45 deg) the pin is in a slot and the slot's angle from the line W -> O is

    beta = atan(sin(phi) / (a/r - cos(phi)))

(from -45 to +45 deg: the wheel turns clockwise by 90 deg per driver turn); during the rest of
the turn (the dwell) the wheel is still. The pin's distance from W is
rho = sqrt(a^2 + r^2 - 2 a r cos(phi)).
"""

import math

import numpy as np

SLOTS = 4
HALF_INDEX = np.pi / 2 - np.pi / SLOTS  # |phi| of the pin's entry and exit [rad]


def crank(a: float) -> float:
    """The pin's radius r = a sin(pi/n) [m] for the centre distance a [m]."""
    return a * np.sin(np.pi / SLOTS)


def slot_angle(phi, a: float, r: float):
    """beta [rad] while the pin is in the slot (|phi| <= HALF_INDEX)."""
    return np.arctan(np.sin(phi) / (a / r - np.cos(phi)))


def wheel_rotation(theta, a: float, r: float):
    """The wheel's rotation [rad] about +z (clockwise: negative) from its start, for the driver's
    angle theta [rad] from the line O -> W, counted from theta = -pi (the pin opposite the wheel:
    a dwell), every completed turn one index of -2 pi / n."""
    theta = np.asarray(theta, float)
    turns = np.floor((theta + np.pi) / (2 * np.pi))
    phi = theta - 2 * np.pi * turns
    inside = np.abs(phi) <= HALF_INDEX
    stage = np.where(phi < -HALF_INDEX, 0.0, -2 * np.pi / SLOTS)
    stage = np.where(inside, -(slot_angle(np.clip(phi, -HALF_INDEX, HALF_INDEX), a, r) + np.pi / SLOTS), stage)
    return -2 * np.pi / SLOTS * turns + stage


def pin_distance(phi, a: float, r: float):
    """rho [m]: the pin's distance from the wheel's centre."""
    return np.sqrt(a * a + r * r - 2 * a * r * np.cos(phi))


def index_tolerance(phi, a: float, r: float, play: float, stiffness: float, inertia: float, damping: float, omega):
    """How far [rad] a wheel of ``inertia`` [kg m^2] and bearing ``damping`` [N m s/rad], driven at
    ``omega`` [rad/s] through a pin with ``play`` [m] to each slot wall and a line contact of
    ``stiffness`` [N/m] (n = 1), may be from the rigid closed form with the pin at phi: the play plus
    the contact's compression, over the pin's distance rho from the wheel's centre.

    The compression: F / stiffness, F bounded by the wheel's torque J beta'' + c beta' (from the
    closed form) over rho; plus the impact where that torque changes sign and the wheel crosses the
    play (2 play) to the other wall: from rest under a relative acceleration growing as j t
    (j = rho d/dt(beta'' + c beta' / J) there) it meets the wall at v = j t^2 / 2,
    t = (12 play / j)^(1/3), and compresses it elastically by v sqrt(J / stiffness) / rho."""
    grid = np.linspace(-HALF_INDEX, HALF_INDEX, 20001)
    t = grid / omega
    rate = np.gradient(slot_angle(grid, a, r), t)
    torque = inertia * np.gradient(rate, t) + damping * rate
    rho = pin_distance(grid, a, r)
    squeeze = np.abs(torque).max() / rho.min() / stiffness
    switch = int(np.flatnonzero(np.diff(np.sign(torque)))[0])  # where the pin goes over to the other wall
    jerk = rho[switch] * abs(np.gradient(torque / inertia, t)[switch])
    speed = 0.5 * jerk * (12 * play / jerk) ** (2 / 3)
    impact = speed * math.sqrt(inertia / stiffness) / rho[switch]
    return (play + squeeze + impact) / pin_distance(np.clip(phi, -HALF_INDEX, HALF_INDEX), a, r)


def driver_phase(theta):
    """phi in [-pi, pi): the driver's angle theta [rad] from the line O -> W, less its whole turns."""
    return theta - 2 * np.pi * np.floor((theta + np.pi) / (2 * np.pi))
