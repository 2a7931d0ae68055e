"""The discrete update of a MultibodyPlant with time_step h > 0.

The seam for the contact solvers: `DiscreteStepper` is the interface the plant calls once
per period; `SemiExplicitEulerStepper` (no contact, no constraints) is the default. A
contact solver (TAMSI, SAP, LCP) is a stepper that solves for v_{n+1} from the same
inputs (the plant's forward-dynamics cache gives the free-motion acceleration, the
mass-matrix cache gives M(q)); the plant chooses one at ``finalize()`` from the registry
of `multibody.plant.discrete_solvers` and calls only it, from its periodic update.
Steppers keep no per-step state of their own: what a step computes lives in the
Context (cache entries), so one plant steps many contexts from many threads.

The default step (symplectic Euler)::

    v̇_n     = ABA(q_n, v_n, τ(q_n, v_n, u_n))
    v_{n+1} = v_n + h v̇_n
    q_{n+1} = q_n + h N(q_n) v_{n+1},   then every quaternion is re-normalized

(the position update is `multibody.kernels.position_update`, shared by every stepper).
"""

import numpy as np

__all__ = ["DiscreteStepper", "SemiExplicitEulerStepper"]


class DiscreteStepper:
    """Interface: compute the next discrete state x_{n+1} = [q_{n+1}; v_{n+1}].

    Parameters
    ----------
    core : PlantCore
        The plant's core (`multibody.plant.plant_core`).
    """

    def __init__(self, core):
        self.core = core

    def calc_next_state(self, context, x_next):
        """Write x_{n+1} (nq + nv,) into `x_next` for the plant's own `context`."""
        raise NotImplementedError


class SemiExplicitEulerStepper(DiscreteStepper):
    """The contact-free symplectic Euler step (see the module docstring)."""

    def calc_next_state(self, context, x_next):
        core = self.core
        h = core.time_step
        state = core.cache.state.eval(context)
        vdot = core.cache.forward_dynamics.eval(context).vdot
        v_next = x_next[core.tables.nq:]
        np.multiply(vdot, h, out=v_next)
        v_next += state.v
        locked = core.eval_locked_velocities(context)
        if locked is not None:              # locked joints: held at zero
            v_next[locked] = 0.0
        core.dyn.next_state(state.q, v_next, h, x_next)
