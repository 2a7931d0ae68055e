"""JointActuator: a scalar actuation input applied to a single-dof joint."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.element import MultibodyElement
from merganser.multibody.tree.pd_controller_gains import PdControllerGains

__all__ = ["JointActuator"]


class JointActuator(MultibodyElement):
    """An actuator applying a generalized force u to the velocity of a 1-dof joint.

    Created by ``MultibodyTree.add_joint_actuator(name, joint, effort_limit)``. The
    actuator belongs to its joint's model instance; its input is entry
    ``input_start()`` of the plant's actuation vector u (actuator index order), and the
    actuation matrix B (nv, nu) has B[joint.velocity_start(), input_start()] = 1.

    Parameters
    ----------
    name : str
        Actuator name, unique within its model instance.
    joint : Joint
        The actuated joint; it must have exactly one velocity.
    effort_limit : float
        Maximum |u| (N·m or N), > 0; ``inf`` for none.
    """

    _kind = "actuator"

    def __init__(self, name: str, joint, effort_limit: float = np.inf):
        if not isinstance(name, str) or not name:
            raise ValueError(f"JointActuator: name must be a non-empty str, got {name!r}")
        effort_limit = float(effort_limit)
        if not effort_limit > 0.0:
            raise ValueError(
                f"JointActuator {name!r}: effort_limit must be > 0 (inf for none), "
                f"got {effort_limit!r}"
            )
        super().__init__(joint.model_instance())
        self._name = name
        self._joint = joint
        self._effort_limit = effort_limit
        self._rotor_inertia = 0.0
        self._gear_ratio = 1.0
        self._pd_gains = None

    def name(self) -> str:
        """The actuator's name."""
        return self._name

    def joint(self):
        """The actuated joint."""
        return self._joint

    def effort_limit(self) -> float:
        """Maximum |u| (inf when unlimited)."""
        return self._effort_limit

    def set_effort_limit(self, effort_limit: float) -> None:
        """Set the maximum |u| (> 0; inf for none), as pydrake's ``set_effort_limit``.
        The limit is descriptive (`effort_limit`, the plant's ``get_effort_*_limits``):
        the plant does not clamp its actuation input, as Drake."""
        effort_limit = float(effort_limit)
        if not effort_limit > 0.0:
            raise ValueError(f"JointActuator.set_effort_limit: actuator {self._name!r}: "
                             f"effort_limit must be > 0 (inf for none), got {effort_limit!r}")
        self._effort_limit = effort_limit

    def get_actuation_vector(self, u) -> np.ndarray:
        """This actuator's entry of the full actuation vector `u` (nu,), as an array of
        shape (1,) (pydrake's ``get_actuation_vector``)."""
        u = self._check_u(u, "get_actuation_vector", "u")
        start = self.input_start()
        return u[start:start + 1].copy()

    def set_actuation_vector(self, u_actuator, u) -> None:
        """Write `u_actuator` (1,) into this actuator's entry of `u` (nu,), in place
        (pydrake's ``set_actuation_vector``)."""
        u = self._check_u(u, "set_actuation_vector", "u")
        value = np.asarray(u_actuator, dtype=float).reshape(-1)
        if value.shape != (1,):
            raise ValueError(f"JointActuator.set_actuation_vector: actuator {self._name!r}: "
                             f"u_actuator must have 1 entry, got shape {value.shape}")
        u[self.input_start()] = value[0]

    def _check_u(self, u, func, arg):
        nu = self._require_tree(func).num_actuators()
        if not isinstance(u, np.ndarray) or u.shape != (nu,):
            raise ValueError(f"JointActuator.{func}: actuator {self._name!r}: {arg} must be "
                             f"an ndarray of shape ({nu},), got "
                             f"{getattr(u, 'shape', type(u).__name__)}")
        return u

    def rotor_inertia(self, context) -> float:
        """The rotor inertia Iᵣ held in `context` (the default until `set_rotor_inertia`),
        as Drake's Context parameter."""
        return self._state("rotor_inertia").get_actuator_rotor(context, self)[0]

    def set_rotor_inertia(self, context, rotor_inertia: float) -> None:
        """Set Iᵣ (>= 0) in `context` only; that Context's dynamics use ρ² Iᵣ (Drake's
        SetRotorInertia)."""
        value = float(rotor_inertia)
        if not (np.isfinite(value) and value >= 0.0):
            raise ValueError(f"JointActuator.set_rotor_inertia: actuator {self._name!r}: "
                             f"rotor_inertia must be finite and >= 0, got {rotor_inertia!r}")
        self._state("set_rotor_inertia").set_actuator_rotor(context, self, rotor_inertia=value)

    def set_gear_ratio(self, context, gear_ratio: float) -> None:
        """Set ρ (finite) in `context` only (Drake's SetGearRatio)."""
        value = float(gear_ratio)
        if not np.isfinite(value):
            raise ValueError(f"JointActuator.set_gear_ratio: actuator {self._name!r}: "
                             f"gear_ratio must be finite, got {gear_ratio!r}")
        self._state("set_gear_ratio").set_actuator_rotor(context, self, gear_ratio=value)

    def calc_reflected_inertia(self, context) -> float:
        """ρ² Iᵣ of the values held in `context` (Drake's calc_reflected_inertia)."""
        rotor_inertia, gear_ratio = self._state("calc_reflected_inertia").get_actuator_rotor(
            context, self)
        return gear_ratio ** 2 * rotor_inertia

    def gear_ratio(self, context) -> float:
        """The gear ratio ρ held in `context` (the default until `set_gear_ratio`)."""
        return self._state("gear_ratio").get_actuator_rotor(context, self)[1]

    def num_inputs(self) -> int:
        """Number of actuation inputs (always 1)."""
        return 1

    def input_start(self) -> int:
        """Index of this actuator's input in the plant's actuation vector u."""
        self._require_finalized("input_start")
        return self._input_start

    def set_controller_gains(self, gains) -> None:
        """Make this a PD-controlled actuator with `gains` (a PdControllerGains), before
        finalize, as pydrake's ``JointActuator.set_controller_gains``: a discrete plant
        applies u = clamp(-p (q - q_d) - d (v - v_d) + u_ff, -e, e) implicitly in its step,
        with [q_d; v_d] from ``get_desired_state_input_port(model_instance)``
        (`multibody.plant.pd_controlled_actuators`); a continuous plant refuses them at
        finalize, as Drake. Both gains zero removes the controller, as in Drake."""
        if not isinstance(gains, PdControllerGains):
            raise TypeError(f"JointActuator.set_controller_gains: actuator {self._name!r}: "
                            f"gains must be a PdControllerGains, got {type(gains).__name__}")
        tree = self._require_tree("set_controller_gains")
        tree._throw_if_finalized("JointActuator.set_controller_gains", "controller gains")
        self._pd_gains = (None if gains.p == 0.0 and gains.d == 0.0
                          else PdControllerGains(gains.p, gains.d))

    def get_controller_gains(self):
        """The PdControllerGains given to `set_controller_gains`.

        Raises
        ------
        RuntimeError
            If the actuator has no controller (as pydrake).
        """
        if self._pd_gains is None:
            raise RuntimeError(f"JointActuator.get_controller_gains: actuator {self._name!r} "
                               f"has no PD controller; call set_controller_gains first")
        return self._pd_gains

    def has_controller(self) -> bool:
        """True if `set_controller_gains` made this a PD-controlled actuator."""
        return self._pd_gains is not None

    def default_rotor_inertia(self) -> float:
        """Rotor inertia Iᵣ (kg·m²), 0 by default."""
        return self._rotor_inertia

    def default_gear_ratio(self) -> float:
        """Gear ratio ρ, 1 by default."""
        return self._gear_ratio

    def set_default_rotor_inertia(self, rotor_inertia: float) -> None:
        """Set the rotor inertia Iᵣ (>= 0)."""
        if not float(rotor_inertia) >= 0.0:
            raise ValueError(
                f"JointActuator.set_default_rotor_inertia: rotor_inertia must be >= 0, "
                f"got {rotor_inertia!r}"
            )
        self._rotor_inertia = float(rotor_inertia)

    def set_default_gear_ratio(self, gear_ratio: float) -> None:
        """Set the gear ratio ρ (finite)."""
        if not np.isfinite(gear_ratio):
            raise ValueError(
                "JointActuator.set_default_gear_ratio: gear_ratio must be finite, "
                f"got {gear_ratio!r}"
            )
        self._gear_ratio = float(gear_ratio)

    def default_reflected_inertia(self) -> float:
        """Reflected inertia ρ² Iᵣ added to the joint's mass-matrix diagonal entry."""
        return self._gear_ratio**2 * self._rotor_inertia

