"""Dense output of an integrator: the continuous state between the steps it took.

While dense integration is on (``IntegratorBase.start_dense_integration``), every accepted
step [t_k, t_k+1] records the state x and its time derivative xdot = f(t, x) at the step's
end (and, before the first step, at its start). The dense output is the piecewise cubic
Hermite interpolant through these samples::

    x(t) = h00(s) x_k + h10(s) h xdot_k + h01(s) x_k+1 + h11(s) h xdot_k+1,
    s = (t - t_k) / h,  h = t_k+1 - t_k

which matches x and xdot at every break, so its error inside a step is O(h^4) plus the
integrator's own error at the breaks (Hairer, Norsett & Wanner, *Solving Ordinary
Differential Equations I*, Sec. II.6). The derivative at a step's end is the value the
next step starts from, so recording it costs no extra evaluation when the context's
derivative cache is current (and none at all for first-same-as-last schemes).

A step that restarts from an earlier time (the Simulator's witness-function bisection
retakes a step from its start) replaces the samples recorded after that time.
"""

import numpy as np

from ..trajectories import PiecewisePolynomial


class DenseOutputRecorder:
    """Samples (t, x, xdot) of accepted steps and their Hermite interpolant."""

    def __init__(self):
        self._times = []
        self._x = []
        self._xdot = []
        self._trajectory = None

    def _append(self, integrator):
        ctx = integrator.get_context()
        self._times.append(ctx.get_time())
        self._x.append(np.array(ctx.get_continuous_state_vector(), dtype=float))
        self._xdot.append(np.array(integrator._eval_derivatives(), dtype=float))
        self._trajectory = None

    def begin_step(self, integrator, t0):
        """Called with the context at the step's start (t0, x0)."""
        while self._times and self._times[-1] > t0:      # a step retaken from earlier
            self._times.pop()
            self._x.pop()
            self._xdot.pop()
            self._trajectory = None
        if not self._times:
            self._append(integrator)

    def end_step(self, integrator):
        """Called with the context at the accepted step's end."""
        if self._times and integrator.get_context().get_time() <= self._times[-1]:
            return
        self._append(integrator)

    def trajectory(self):
        """The interpolant (PiecewisePolynomial, value(t) of shape (n, 1)); None before
        two samples exist."""
        if len(self._times) < 2:
            return None
        if self._trajectory is None:
            self._trajectory = PiecewisePolynomial.cubic_hermite(
                np.array(self._times), np.stack(self._x, axis=1), np.stack(self._xdot, axis=1))
        return self._trajectory
