"""rk4_tree on a model with joint friction on revolute and prismatic joints (docs/joint-friction.md).

The same friction law and modes as the body-coordinate path (system/friction.py): the contacts'
modes and senses are those of ``system.friction``, set at the start and switched only at the events
located by solver/events.py (solver/friction_events.py, on the bodies' state this stepper writes),
after which the monitor starts a fresh stepper. Per mode:

* slip: the Coulomb effort -sense a mu_k N on the joint coordinate, N from the joint's reaction in
  the articulated-body algorithm, consistent with the accelerations it causes
  (:mod:`.tree_friction_kernel`);
* stick: the joint held at its coordinate, as a fixed joint of a copy of the tree (its rate 0:
  nothing creeps); the holding effort and the breakaway margin are the events' (the body path's
  solve at the written state).

The compiled loop stops after the step where a slipping joint's slip turns against its sense, so
the monitor checks in chunks while every contact slips (one step at a time while one sticks).
Contact pairs with stiction and friction on a driven joint are refused (use rk4)."""

from __future__ import annotations

import numpy as np

from .. import kernels
from ..errors import ModelError, SimulationError
from ..numerics.friction_solve import FIXED_POINT_ITER, STICK
from ..system.friction import described
from .base import equal_steps
from .tree import TreeRK4Stepper, joint_state, set_drive_offsets, tree_parents
from .tree_friction_kernel import TREE_NOT_CONVERGED, TreeFriction, new_friction_work, run_tree_friction
from .tree_kernel import FIXED, PRISMATIC, tree_static

_USE = "rk4_tree handles friction on revolute and prismatic joints that are not driven (use rk4)"


def _contact_bodies(system) -> list[int]:
    """Per friction contact, the tree body its joint moves; ModelError naming what rk4_tree refuses."""
    _, joint, _ = tree_parents(system)
    body_of = {int(jk): b for b, jk in enumerate(joint)}
    driven = {d.joint for d in system.model.drivers}
    out = []
    for c in system.friction.contacts:
        if c.type == "contact":
            raise ModelError("settings.integrator", f"contact '{c.joint}' has friction with stiction: {_USE}")
        if c.joint in driven:
            raise ModelError("settings.integrator", f"joint '{c.joint}' has friction and a driver: {_USE}")
        out.append(body_of[c.jk])
    return out


class TreeFrictionRK4(TreeRK4Stepper):
    """rk4_tree with joint friction (module docstring)."""

    def __init__(self, system, settings, t0: float, Y0: np.ndarray) -> None:
        self.bodies = _contact_bodies(system)
        if not system.friction.started:
            system.friction.start(t0, Y0)  # the stuck rates of Y0 projected to zero
        super().__init__(system, settings, t0, Y0)
        self.free_tree = self.tree
        self._take_modes()

    @property
    def can_stop_at_friction_events(self) -> bool:
        """Whether advance stops after the step where a friction event function changes sign: while
        every contact slips (the compiled loop checks the slip senses, not a stuck joint's margin)."""
        return not np.any(self.system.friction.modes == STICK)

    stops_at_friction_events = False  # set by the events' monitor (events.py) around its chunks
    stopped_early = False  # the last advance stopped at a friction event's step, before t_next

    def _take_modes(self) -> None:
        """The slipping contacts' arrays and the tree with the sticking joints held where they are."""
        friction, T = self.system.friction, self.free_tree
        slipping, kind, GT, op = [], T.kind.copy(), T.GT.copy(), T.op.copy()
        for k, (c, b) in enumerate(zip(friction.contacts, self.bodies)):
            if friction.modes[k] != STICK:
                slipping.append((k, c, b))
                continue
            self.qd[b] = 0.0
            if T.kind[b] == PRISMATIC:
                op[b] += self.q[b] * T.Fp[b][:, 2]
            else:
                cs, sn = np.cos(self.q[b]), np.sin(self.q[b])
                GT[b] = np.array([[cs, -sn, 0.0], [sn, cs, 0.0], [0.0, 0.0, 1.0]]) @ GT[b]
            kind[b] = FIXED
        self.tree = tree_static(
            T.order,
            T.parent,
            kind,
            T.Fp,
            op,
            GT,
            T.oc,
            T.mass,
            T.inertia,
            T.gravity,
            T.drive,
            T.drive_sign,
            T.drive_offset,
        )  # the kernels read its packed rows (geo, topo)
        self.slipping = [k for k, _, _ in slipping]
        self.friction_arrays = TreeFriction(
            body=np.array([b for _, _, b in slipping], dtype=np.int64),
            sense=np.array([T.drive_sign[b] * friction.senses[k] for k, _, b in slipping], dtype=float),
            arm=np.array([c.arms[0] for _, c, _ in slipping], dtype=float),
            mu_k=np.array([c.mu_k for _, c, _ in slipping], dtype=float),
            length=np.array([c.length for _, c, _ in slipping], dtype=float),
            prismatic=np.array([T.kind[b] == PRISMATIC for _, _, b in slipping], dtype=np.bool_),
            on_child=np.array([c.b == b for _, c, b in slipping], dtype=np.bool_),
        )
        self.friction_work = new_friction_work(self.system.nb, len(slipping))

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate from t to t_next [s] (or to the end of the step where a slip turned against its
        sense, with :attr:`stops_at_friction_events`: :attr:`stopped_early`), then write the bodies'
        state into Y; returns (time reached [s], status)."""
        n, h = equal_steps(t_next - t, self.h)
        args = (float(t), self.q, self.qd, float(h), n, self.tree, self.work, self.system.static,
                self.friction_arrays, self.friction_work, acc, Y, bool(self.stops_at_friction_events))  # fmt: skip
        done, status, worst = kernels.fast_call(run_tree_friction, *args)
        self.steps += done
        if status == TREE_NOT_CONVERGED:
            at, c = t + done * h, self.system.friction.contacts[self.slipping[worst]]
            raise SimulationError(
                f"{described(c)}: the friction load and the joint reaction did not converge ({FIXED_POINT_ITER} "
                f"fixed-point iterations at t = {at:.6g} s); a smaller mu_k, pin radius or a longer pin makes the "
                "friction depend less on itself",
                time=float(at),
            )
        self.stopped_early = status == kernels.OK and done < n
        return (t_next if status == kernels.OK and done == n else t + done * h), status

    def restart(self, t: float, Y: np.ndarray):
        """Continue from a state Y changed from outside (joint coordinates, modes taken anew)."""
        self.q, self.qd = joint_state(self.free_tree, Y)
        set_drive_offsets(self.free_tree, self.system, t, self.q)
        self._take_modes()
        return self
