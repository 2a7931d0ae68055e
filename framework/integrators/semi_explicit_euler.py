"""Semi-explicit (symplectic) Euler integrator (Drake's SemiExplicitEulerIntegrator).

With x = [q; v; z] and derivatives evaluated once at (t_n, x_n):

    v_{n+1} = v_n + h vdot(t_n, x_n)
    q_{n+1} = q_n + h N(q_n) v_{n+1}       (N maps velocities to qdot, at q_n)
    z_{n+1} = z_n + h zdot(t_n, x_n)

First order, fixed step, one derivative evaluation per step; for mechanical systems it
preserves the symplectic structure and so keeps energy bounded over long runs.
"""

import numpy as np

from .integrator_base import IntegratorBase


class SemiExplicitEulerIntegrator(IntegratorBase):
    """Semi-explicit Euler; see the module docstring. Requires
    ``system.map_velocity_to_qdot`` when the system has positions."""

    scheme_name = "semi_explicit_euler"

    def _do_step(self, t0, h, t1, want_error, retry):
        ctx = self._context
        nq, nqv = self._nq, self._nq + self._nv
        xdot = self._eval_derivatives_at_step_start()
        x0, x1 = self._x0, self._x1
        np.multiply(xdot[nq:], h, out=x1[nq:])
        x1[nq:] += x0[nq:]
        if nq:
            qdot = self._system.map_velocity_to_qdot(ctx, x1[nq:nqv])
            np.multiply(qdot, h, out=x1[:nq])
            x1[:nq] += x0[:nq]
        ctx.set_time_and_continuous_state(t1, x1)
        return True
