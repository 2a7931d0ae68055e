"""JointStiffnessController: joint-space spring-damper with gravity compensation (Drake's
JointStiffnessController)."""

from ._joint_torque_controller import JointTorqueController
from ._validation import as_gains


class JointStiffnessController(JointTorqueController):
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
        n = self._check_plant(fn, plant)
        self._kp, self._kd = (as_gains(fn, name, k, n) for name, k in (("kp", kp), ("kd", kd)))
        self._declare_state_inputs()
        self._declare_model(fn, plant)
        self._declare_torque_outputs([self.all_input_ports_ticket()])

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
