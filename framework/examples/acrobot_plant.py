"""AcrobotPlant: Drake's acrobot (``drake/examples/acrobot``, Spong's double pendulum
actuated at the elbow) as a LeafSystem.

With q = [θ1, θ2] (θ1 from the downward vertical, θ2 of the second link relative to the
first) the dynamics are M(q) q̈ + bias(q, q̇) = B u, B = [0, 1]ᵀ, with I1 = Ic1 + m1 lc1²,
I2 = Ic2 + m2 lc2², c2 = cos θ2 and

    M = [[I1 + I2 + m2 l1² + 2 m2 l1 lc2 c2,  I2 + m2 l1 lc2 c2],
         [I2 + m2 l1 lc2 c2,                  I2               ]]
    bias = [−2 m2 l1 lc2 s2 θ̇2 θ̇1 − m2 l1 lc2 s2 θ̇2² + g m1 lc1 s1 + g m2 (l1 s1 + lc2 s12)
            + b1 θ̇1,
            m2 l1 lc2 s2 θ̇1² + g m2 lc2 s12 + b2 θ̇2].

Input port ``elbow_torque`` (1); output port ``acrobot_state`` (4: [θ1, θ2, θ̇1, θ̇2]);
one numeric parameter group, `AcrobotParams` with Drake's defaults.
"""

from __future__ import annotations

import math

import numpy as np

from ..leaf_system import LeafSystem
from .named_vector import NamedVectorViews, named_vector

__all__ = ["AcrobotInput", "AcrobotParams", "AcrobotPlant", "AcrobotState"]

AcrobotState = named_vector("AcrobotState", ("theta1", "theta2", "theta1dot", "theta2dot"),
                            (0.0, 0.0, 0.0, 0.0), "[θ1, θ2, θ̇1, θ̇2] of the acrobot.")
AcrobotInput = named_vector("AcrobotInput", ("tau",), (0.0,), "[τ], the elbow torque (N m).")
AcrobotParams = named_vector(
    "AcrobotParams", ("m1", "m2", "l1", "lc1", "lc2", "Ic1", "Ic2", "b1", "b2", "gravity"),
    (1.0, 1.0, 1.0, 0.5, 1.0, 0.083, 0.33, 0.1, 0.1, 9.81),
    "The acrobot's masses (kg), first link length and centre-of-mass distances (m), "
    "moments of inertia about the centres of mass (kg m²), joint damping (N m s) and "
    "gravity (m/s²): Drake's defaults.")


class AcrobotPlant(NamedVectorViews, LeafSystem):
    """See the module docstring."""

    state_vector, params_vector = AcrobotState, AcrobotParams

    def __init__(self):
        super().__init__()
        self._tau = self.declare_vector_input_port("elbow_torque", 1)
        self.declare_continuous_state(2, 2, 0)
        self.declare_numeric_parameter(AcrobotParams())
        self._state = self.declare_vector_output_port(
            "acrobot_state", 4, lambda context, output: output.set_value(
                context.get_continuous_state_vector()),
            prerequisites_of_calc={self.xc_ticket()})       # no direct feedthrough

    def get_input_port(self, port_index=0):
        """The ``elbow_torque`` input (the only one)."""
        return super().get_input_port(port_index)

    # ---- dynamics -----------------------------------------------------------------------
    @staticmethod
    def mass_matrix(context):
        """M(q), shape (2, 2) (Drake's MassMatrix)."""
        m1, m2, l1, lc1, lc2, Ic1, Ic2, _, _, _ = context.get_numeric_parameter(0)
        c2 = math.cos(context.get_continuous_state_vector()[1])
        I1, I2 = Ic1 + m1 * lc1 * lc1, Ic2 + m2 * lc2 * lc2
        m12 = I2 + m2 * l1 * lc2 * c2
        return np.array([[I1 + I2 + m2 * l1 * l1 + 2.0 * m2 * l1 * lc2 * c2, m12], [m12, I2]])

    @staticmethod
    def dynamics_bias_term(context):
        """bias(q, q̇) = C(q, q̇) q̇ − τ_g(q) + damping, shape (2,) (Drake's
        DynamicsBiasTerm)."""
        m1, m2, l1, lc1, lc2, _, _, b1, b2, g = context.get_numeric_parameter(0)
        t1, t2, w1, w2 = context.get_continuous_state_vector()
        s1, s2, s12 = math.sin(t1), math.sin(t2), math.sin(t1 + t2)
        k = m2 * l1 * lc2
        return np.array([
            -2.0 * k * s2 * w2 * w1 - k * s2 * w2 * w2
            + g * m1 * lc1 * s1 + g * m2 * (l1 * s1 + lc2 * s12) + b1 * w1,
            k * s2 * w1 * w1 + g * m2 * lc2 * s12 + b2 * w2])

    def do_calc_time_derivatives(self, context, derivatives):
        x = context.get_continuous_state_vector()
        u = self._tau.eval(context)[0]
        vdot = np.linalg.solve(self.mass_matrix(context),
                               np.array([0.0, u]) - self.dynamics_bias_term(context))
        derivatives.get_mutable_vector().set_value([x[2], x[3], vdot[0], vdot[1]])

    def calc_kinetic_energy(self, context):
        qdot = np.array(context.get_continuous_state_vector())[2:]
        return float(0.5 * qdot @ self.mass_matrix(context) @ qdot)

    def calc_potential_energy(self, context):
        m1, m2, l1, lc1, lc2, _, _, _, _, g = context.get_numeric_parameter(0)
        t1, t2 = context.get_continuous_state_vector()[:2]
        c1, c12 = math.cos(t1), math.cos(t1 + t2)
        return float(-m1 * g * lc1 * c1 - m2 * g * (l1 * c1 + lc2 * c12))
