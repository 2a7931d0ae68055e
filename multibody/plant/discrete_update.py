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

from merganser.multibody.plant.pd_controlled_actuators import implicit_pd_step

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
    """The contact-free symplectic Euler step (see the module docstring); with armed
    PD-controlled actuators, the implicit controller step
    (`multibody.plant.pd_controlled_actuators`)."""

    def calc_next_state(self, context, x_next):
        core = self.core
        h = core.time_step
        state = core.cache.state.eval(context)
        vdot = core.cache.forward_dynamics.eval(context).vdot
        v_next = x_next[core.tables.nq:]
        terms = core.eval_pd_terms(context)
        if terms is None:
            np.multiply(vdot, h, out=v_next)
            v_next += state.v
        else:
            v_next[:] = self._pd_step(context, state, vdot, terms)[0]
        locked = core.eval_locked_velocities(context)
        if locked is not None:              # locked joints: held at zero
            v_next[locked] = 0.0
        core.dyn.next_state(state.q, v_next, h, x_next)

    def _pd_step(self, context, state, vdot, terms):
        core = self.core
        h, v0 = core.time_step, state.v
        return implicit_pd_step(terms, core.eval_step_mass_matrix(context), vdot, state.q, v0,
                                core.eval_actuation_input(context), h,
                                lambda M_hat, vdot_hat: v0 + h * vdot_hat, context.get_time())

    def eval_pd_actuation(self, context, terms):
        """The PD-controlled actuators' actuation (n,) of the step from `context`."""
        core = self.core
        return self._pd_step(context, core.cache.state.eval(context),
                             core.cache.forward_dynamics.eval(context).vdot, terms)[1]
