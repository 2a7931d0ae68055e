"""The discrete update of a MultibodyPlant with time_step h > 0.

The seam for the contact solvers: `DiscreteStepper` is the interface the plant calls once
per period; `SemiExplicitEulerStepper` (no contact, no constraints) is the default. A
contact solver (TAMSI, SAP, LCP) replaces it with a stepper that solves for v_{n+1}
from the same inputs (the plant's forward-dynamics cache gives the free-motion
acceleration, the mass-matrix cache gives M(q)) and is installed with
``plant._set_discrete_stepper(stepper)``; it is only called by the periodic update.

The default step (symplectic Euler)::

    v̇_n     = ABA(q_n, v_n, τ(q_n, v_n, u_n))
    v_{n+1} = v_n + h v̇_n
    q_{n+1} = q_n + h N(q_n) v_{n+1},   then every quaternion is re-normalized
"""

import numpy as np

__all__ = ["DiscreteStepper", "SemiExplicitEulerStepper"]


class DiscreteStepper:
    """Interface: compute the next discrete state x_{n+1} = [q_{n+1}; v_{n+1}]."""

    def calc_next_state(self, plant, context, x_next):
        """Write x_{n+1} (nq + nv,) into `x_next` for the plant's own `context`."""
        raise NotImplementedError


class SemiExplicitEulerStepper(DiscreteStepper):
    """The contact-free symplectic Euler step (see the module docstring)."""

    def calc_next_state(self, plant, context, x_next):
        t = plant._tables
        h = t.time_step
        state = plant._cache.state.eval(context)
        vdot = plant._cache.forward_dynamics.eval(context).vdot
        nq = t.nq
        v_next = x_next[nq:]
        np.multiply(vdot, h, out=v_next)
        v_next += state.v
        if t.velocity_equals_qdot:
            qdot = v_next
        else:
            qdot = plant._dyn.map_velocity_to_qdot(state.q, np.ascontiguousarray(v_next))
        q_next = x_next[:nq]
        np.multiply(qdot, h, out=q_next)
        q_next += state.q
        for qs in t.quaternion_q_starts:
            quat = q_next[qs:qs + 4]
            quat /= np.sqrt(quat @ quat)
