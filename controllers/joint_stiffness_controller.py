"""JointStiffnessController: joint-space spring-damper with gravity compensation (Drake's
JointStiffnessController)."""

import functools

import numpy as np

from merganser.framework import LeafSystem

from ._control_model import ControlModel
from ._validation import as_gains, check_finalized_plant, check_fully_actuated


class JointStiffnessController(LeafSystem):
    """A joint stiffness controller (Drake's JointStiffnessController).

    ::

        estimated_state ──▶ ┌──────────────────────────┐ ──▶ actuation
          desired_state ──▶ │ JointStiffnessController │
                            └──────────────────────────┘ ──▶ generalized_force

    With x = [q; v] and the desired [q_d; v_d]::

        generalized_force = −τ_g(q) − τ_app(q, v) + kp ⊙ (q_d − q) + kd ⊙ (v_d − v)
        actuation = B⁻¹ generalized_force

    where τ_g is gravity and τ_app the model's force elements and joint damping (−D v),
    both cancelled, so that the closed loop is M(q) v̇ + C(q, v) v + kp ⊙ (q − q_d) +
    kd ⊙ (v − v_d) = τ_ext: a spring-damper about the set point. Without force elements
    other than gravity and without joint damping, generalized_force = −τ_g(q) + kp ⊙
    (q_d − q) + kd ⊙ (v_d − v). Direct feedthrough from both inputs.

    Parameters
    ----------
    plant : MultibodyPlant
        The finalized control model; fully actuated (nq = nv = number of actuators, each
        driving its own coordinate).
    kp, kd : array_like, shape (nq,)
        Joint stiffness and damping (a scalar is broadcast).

    Raises
    ------
    ValueError
        If the plant is not fully actuated or a gain has the wrong size.
    """

    def __init__(self, plant, kp, kd):
        super().__init__()
        fn = "JointStiffnessController"
        check_finalized_plant(fn, plant)
        self._v_of_actuator = check_fully_actuated(fn, plant)
        n = self._n = plant.num_positions()
        self._kp, self._kd = (as_gains(fn, name, k, n) for name, k in (("kp", kp), ("kd", kd)))

        self._estimated = self.declare_vector_input_port("estimated_state", 2 * n)
        self._desired = self.declare_vector_input_port("desired_state", 2 * n)
        self._model = ControlModel(fn, self, plant, self._estimated)
        self._tau = self.declare_cache_entry(
            "generalized_force", functools.partial(np.zeros, n), self._calc_tau,
            [self.all_input_ports_ticket()])
        self._actuation = self.declare_vector_output_port(
            "actuation", n, self._calc_actuation, [self._tau.ticket()])
        self._generalized_force = self.declare_vector_output_port(
            "generalized_force", n, self._calc_generalized_force, [self._tau.ticket()])


    def get_input_port_estimated_state(self):
        """Input x = [q; v] (2 nq,)."""
        return self._estimated

    def get_input_port_desired_state(self):
        """Input [q_d; v_d] (2 nq,)."""
        return self._desired

    def get_output_port_actuation(self):
        """Output u = B⁻¹ τ (nu,)."""
        return self._actuation

    def get_output_port_generalized_force(self):
        """Output τ (nv,)."""
        return self._generalized_force

    def get_multibody_plant(self):
        """The control model."""
        return self._model.plant

    def _calc_tau(self, context, tau):
        n = self._n
        tau[:] = self._model.passive_compensation(context)
        x = self._estimated.eval(context)
        x_d = self._desired.eval(context)
        tau += self._kp * (x_d[:n] - x[:n])
        tau += self._kd * (x_d[n:] - x[n:])

    def _calc_actuation(self, context, output):
        np.take(self._tau.eval(context), self._v_of_actuator, out=output.get_mutable_value())

    def _calc_generalized_force(self, context, output):
        output.set_value(self._tau.eval(context))
