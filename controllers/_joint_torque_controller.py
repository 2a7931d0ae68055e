"""The shared shape of the joint-space torque controllers (`InverseDynamicsController`,
`JointStiffnessController`): state inputs, a cached generalized force τ and its two
outputs, τ itself and the actuation u = B⁻¹ τ of a fully actuated control model."""

import functools

import numpy as np

from merganser.framework import LeafSystem

from ._control_model import ControlModel
from ._validation import check_finalized_plant, check_fully_actuated


class JointTorqueController(LeafSystem):
    """A LeafSystem that computes a generalized force τ (nv,) for a fully actuated model.

    Subclasses call `_declare_state_inputs`, declare any further inputs and state, then
    `_declare_model` and `_declare_torque_outputs`, and implement ``_calc_tau(context, tau)``.
    """

    def _check_plant(self, fn, plant):
        """Check ``plant`` is a finalized, fully actuated model; returns nq."""
        check_finalized_plant(fn, plant)
        self._v_of_actuator = check_fully_actuated(fn, plant)
        self._actuation_is_identity = bool(
            np.array_equal(self._v_of_actuator, np.arange(self._v_of_actuator.size)))
        self._n = plant.num_positions()
        return self._n

    def _declare_state_inputs(self):
        """Input ports 0 and 1: ``estimated_state`` x = [q; v] and ``desired_state``."""
        self._estimated = self.declare_vector_input_port("estimated_state", 2 * self._n)
        self._desired = self.declare_vector_input_port("desired_state", 2 * self._n)

    def _declare_model(self, fn, plant, plant_context=None):
        """The control model, evaluated at the estimated state."""
        self._model = ControlModel(fn, self, plant, self._estimated, plant_context)

    def _declare_torque_outputs(self, tau_prerequisites, straight_into_actuation=False):
        """The τ cache entry (on ``tau_prerequisites``), and the ``actuation`` and
        ``generalized_force`` outputs; with ``straight_into_actuation`` and an identity
        actuation matrix, u = τ is computed into the port's value without the cache."""
        n = self._n
        self._tau = self.declare_cache_entry(
            "generalized_force", functools.partial(np.zeros, n), self._calc_tau,
            tau_prerequisites)
        if straight_into_actuation and self._actuation_is_identity:
            self._actuation = self.declare_vector_output_port(
                "actuation", n, self._calc_actuation_identity, tau_prerequisites)
        else:
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
        """Output u = B⁻¹ τ (nu,), for the plant's actuation input."""
        return self._actuation

    def get_output_port_generalized_force(self):
        """Output τ (nv,), for the plant's applied generalized force input."""
        return self._generalized_force

    def _calc_tau(self, context, tau):
        raise NotImplementedError(f"{type(self).__name__} must implement _calc_tau")

    def _calc_actuation_identity(self, context, output):
        self._calc_tau(context, output.get_mutable_value())

    def _calc_actuation(self, context, output):
        np.take(self._tau.eval(context), self._v_of_actuator, out=output.get_mutable_value())

    def _calc_generalized_force(self, context, output):
        output.set_value(self._tau.eval(context))
