"""Independent reference solutions ("oracles") for MBD Workbench tests and benchmarks.

Every oracle here is derived by hand in *minimal* coordinates and uses only
numpy/scipy; nothing is imported from the ``MBDWorkbench`` package, so the
oracles share no code (and no modelling shortcuts) with the solver they check.

Common conventions (all modules)
--------------------------------
* SI units throughout: m, kg, s, rad, N, N m, J.
* Planar problems live in the world x-y plane; z points out of the plane and
  every planar angle / angular rate / torque is positive counter-clockwise
  (right-hand rule about +z).
* Gravity acts along -y with magnitude ``g`` (default 9.81 m/s^2) unless a
  module takes an explicit gravity direction.
* "Reaction force at joint X" always states *which body acts on which*; see the
  individual function docstrings.

Modules
-------
pendulum      simple / compound pendulum: exact period (elliptic K), energy
              speeds, pivot reactions, high-accuracy ODE solution.
two_link      planar double pendulum of [R3] sections 4-5 (docs/references.md) in absolute
              link angles; Lagrange equations, DOP853/Radau solution, points,
              energy, Newton-Euler joint reactions.
slider_crank  offset slider-crank: closed-form kinematics, velocity
              coefficients, inverse dynamics (motor torque) by virtual work.
rigid_body    torque-free 3D rigid body: Euler equations + quaternion, world
              angular momentum, energy, Dzhanibekov flip period (elliptic K).
four_bar      planar four-bar: closed-form position analysis (both branches),
              velocities, accelerations.
"""

from . import four_bar, pendulum, rigid_body, slider_crank, two_link  # noqa: F401

__all__ = ["pendulum", "two_link", "slider_crank", "rigid_body", "four_bar"]
