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
