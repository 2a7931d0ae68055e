"""InverseDynamicsController: computed-torque control, PID on the state error plus inverse
dynamics (Drake's InverseDynamicsController)."""

import numpy as np

from ._joint_torque_controller import JointTorqueController
from ._validation import as_gains, as_vector

_EMPTY = np.zeros(0)


class InverseDynamicsController(JointTorqueController):
    """Computed-torque control of a fully actuated robot (Drake's InverseDynamicsController).

    ::

             estimated_state ──▶ ┌───────────────────────────┐ ──▶ actuation
               desired_state ──▶ │ InverseDynamicsController │
        desired_acceleration ──▶ └───────────────────────────┘ ──▶ generalized_force

    With x = [q; v] from ``estimated_state``, [q_d; v_d] from ``desired_state``, v̇_d from
    ``desired_acceleration`` (zero when the port is not declared) and the integral state z::

        ż = q_d − q
        v̇_c = kp ⊙ (q_d − q) + kd ⊙ (v_d − v) + ki ⊙ z + v̇_d
        generalized_force = M(q) v̇_c + C(q, v) v − τ_g(q) − τ_app(q, v)
        actuation = B⁻¹ generalized_force

    τ_app are the model's force elements and joint damping, as in `InverseDynamics`; B is
    the model's actuation matrix (a permutation of the identity, so B⁻¹ = Bᵀ). On a plant
    matching the model, the error e = q_d − q then obeys ë + kd ė + kp e + ki ∫e = 0.
    Both outputs have direct feedthrough from every input.

    The integral z (nq continuous states, starting at zero) exists only when some ki is
    nonzero: with ki = 0 it cannot affect the outputs, and leaving it out (Drake declares
    it regardless) spares the simulator integrating it, e.g. between the updates of a
    discrete plant.

    Drake builds this as a Diagram of a PidController, an Adder and InverseDynamics; here
    it is one LeafSystem computing the same outputs (one evaluation instead of four), with
    the PID integral as its continuous state and the plant context in its cache.

    Parameters
    ----------
    robot : MultibodyPlant
        The finalized control model. It must be fully actuated: nq = nv = number of
        actuators, and every actuator drives its own joint coordinate.
    kp, ki, kd : array_like, shape (nq,)
        Position, integral and velocity gains (a scalar is broadcast to every joint).
    has_reference_acceleration : bool
        Whether to declare the ``desired_acceleration`` input port.
    plant_context : Context, optional
        A context of ``robot`` whose parameters the model uses.

    Raises
    ------
    ValueError
        If the robot is not fully actuated (the message names the counts) or a gain has
        the wrong size.
    """

    def __init__(self, robot, kp, ki, kd, has_reference_acceleration, plant_context=None):
        super().__init__()
        fn = "InverseDynamicsController"
        n = self._check_plant(fn, robot)
        self._kp, self._ki, self._kd = (as_gains(fn, name, k, n) for name, k in
                                        (("kp", kp), ("ki", ki), ("kd", kd)))
        self._has_reference_acceleration = bool(has_reference_acceleration)
        self._has_integral = bool(np.any(self._ki))
        self._kp_kd = np.concatenate([self._kp, self._kd])
        self._ki_fused = self._ki if self._has_integral else _EMPTY
        self._weighted_error = np.zeros(2 * n)
        self._vdot = np.zeros(n)

        if self._has_integral:
            self.declare_continuous_state(n)
        self._declare_state_inputs()
        self._reference = (self.declare_vector_input_port("desired_acceleration", n)
                           if self._has_reference_acceleration else None)
        self._declare_model(fn, robot, plant_context)
        self._declare_torque_outputs([self.xc_ticket(), self.all_input_ports_ticket()],
                                     straight_into_actuation=True)

    # ---- accessors -----------------------------------------------------------------------------
    def get_input_port_desired_acceleration(self):
        """Input v̇_d (nv,); raises when built without a reference acceleration."""
        if self._reference is None:
            raise RuntimeError(
                "InverseDynamicsController.get_input_port_desired_acceleration: this controller "
                "was built with has_reference_acceleration=False")
        return self._reference

    get_output_port_control = JointTorqueController.get_output_port_actuation

    def get_multibody_plant_for_control(self):
        """The control model."""
        return self._model.plant

    def set_integral_value(self, context, value):
        """Set the PID integral state z (nq,) in ``context``; raises when every ki is zero
        (there is no integral state then)."""
        ctx = self._context_from(context, "set_integral_value")
        if not self._has_integral:
            raise RuntimeError(
                "InverseDynamicsController.set_integral_value: every ki is zero, so the "
                "controller has no integral state")
        ctx.set_continuous_state(as_vector("set_integral_value", "value", value, self._n))

    # ---- computation ---------------------------------------------------------------------------
    def do_calc_time_derivatives(self, context, derivatives):
        n = self._n
        if not self._has_integral:
            return
        np.subtract(self._desired.eval(context)[:n], self._estimated.eval(context)[:n],
                    out=derivatives.get_mutable_value())

    def _calc_tau(self, context, tau):
        n = self._n
        x = self._estimated.eval(context)
        x_d = self._desired.eval(context)
        reference = self._reference.eval(context) if self._reference is not None else None
        vdot = self._vdot
        if self._model.computed_torque_into(
                x, x_d, self._kp, self._kd, self._ki_fused,
                context.get_continuous_state_vector() if self._has_integral else _EMPTY,
                _EMPTY if reference is None else reference, vdot, tau):
            return
        # [kp ⊙ (q_d − q); kd ⊙ (v_d − v)] in three vectorized operations.
        error = self._weighted_error
        np.subtract(x_d, x, out=error)
        error *= self._kp_kd
        np.add(error[:n], error[n:], out=vdot)
        if self._has_integral:
            vdot += self._ki * context.get_continuous_state_vector()
        if reference is not None:
            vdot += reference
        self._model.inverse_dynamics_into(context, vdot, tau, x)
