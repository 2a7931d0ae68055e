"""PendulumPlant: Drake's simple pendulum (``drake/examples/pendulum``) as a LeafSystem.

A point mass m at the end of a massless rod of length l, hinged at the origin, with
viscous damping b and gravity g; θ is measured from the downward vertical:

    m l² θ̈ = τ − m g l sin θ − b θ̇

Input port ``tau`` (1: τ, N m); output port ``state`` (2: [θ, θ̇]); one numeric
parameter group [mass, length, damping, gravity] = [1 kg, 0.5 m, 0.1 N m s, 9.81 m/s²].
`get_state` / `get_parameters` view the context's values as `PendulumState` /
`PendulumParams` (named accessors, writing through with the ``get_mutable_*`` forms).
"""

from __future__ import annotations

import math

from ..leaf_system import LeafSystem
from .named_vector import NamedVectorViews, named_vector

__all__ = ["PendulumInput", "PendulumParams", "PendulumPlant", "PendulumState"]


PendulumState = named_vector("PendulumState", ("theta", "thetadot"), (0.0, 0.0),
                              "[θ, θ̇] of the pendulum (rad, rad/s).")
PendulumInput = named_vector("PendulumInput", ("tau",), (0.0,),
                              "[τ], the torque at the hinge (N m).")
PendulumParams = named_vector("PendulumParams", ("mass", "length", "damping", "gravity"),
                               (1.0, 0.5, 0.1, 9.81),
                               "[m, l, b, g] (kg, m, N m s, m/s²), Drake's defaults.")


class PendulumPlant(NamedVectorViews, LeafSystem):
    """See the module docstring."""

    state_vector, params_vector = PendulumState, PendulumParams

    def __init__(self):
        super().__init__()
        self._tau = self.declare_vector_input_port("tau", 1)
        self.declare_continuous_state(1, 1, 0)
        self.declare_numeric_parameter(PendulumParams())
        self._state = self.declare_vector_output_port(
            "state", 2, lambda context, output: output.set_value(
                context.get_continuous_state_vector()),
            prerequisites_of_calc={self.xc_ticket()})       # no direct feedthrough

    def get_input_port(self, port_index=0):
        """The ``tau`` input (the only one)."""
        return super().get_input_port(port_index)

    def get_state_output_port(self):
        return self._state

    # ---- dynamics and energy ------------------------------------------------------------
    def do_calc_time_derivatives(self, context, derivatives):
        theta, thetadot = context.get_continuous_state_vector()
        m, length, b, g = context.get_numeric_parameter(0)
        tau = self._tau.eval(context)[0]
        ml2 = m * length * length
        thetaddot = (tau - m * g * length * math.sin(theta) - b * thetadot) / ml2
        derivatives.get_mutable_vector().set_value([thetadot, thetaddot])

    def calc_kinetic_energy(self, context):
        m, length, _, _ = context.get_numeric_parameter(0)
        thetadot = context.get_continuous_state_vector()[1]
        return float(0.5 * m * length * length * thetadot * thetadot)

    def calc_potential_energy(self, context):
        m, length, _, g = context.get_numeric_parameter(0)
        return float(-m * g * length * math.cos(context.get_continuous_state_vector()[0]))
