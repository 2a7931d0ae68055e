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

As in Drake, the dense output is one PiecewisePolynomial that grows while the integrator
steps (``get_dense_output()`` returns the same object before and after the steps, and
``stop_dense_integration()`` returns it too); its polynomial pieces are rebuilt from the
samples the first time it is used after new steps.

A step that restarts from an earlier time (the Simulator's witness-function bisection
retakes a step from its start) replaces the samples recorded after that time; a step that
starts later than the last sample (the context was moved, e.g. to a localized witness
time) first records its start. A state changed by an event at a break is not a sample:
the interpolant is continuous, so it smooths over such a jump.
"""

import numpy as np

from ..trajectories import PiecewisePolynomial

#: Methods the integrator calls while stepping; they do not rebuild the pieces.
_RECORDING = frozenset(("record_step_start", "record_step_end"))


class DenseOutput(PiecewisePolynomial):
    """A PiecewisePolynomial (``value(t)`` of shape (n, 1)) that an integrator extends
    step by step; empty (no segments) until the first step ends."""

    def __init__(self):
        super().__init__()
        self._times = []
        self._x = []
        self._xdot = []
        self._stale = False

    def __getattribute__(self, name):
        if (name[0] != "_" and name not in _RECORDING
                and object.__getattribute__(self, "_stale")):
            object.__getattribute__(self, "_rebuild")()
        return object.__getattribute__(self, name)

    def _rebuild(self):
        self._stale = False
        if len(self._times) < 2:
            return
        pieces = PiecewisePolynomial.cubic_hermite(
            np.array(self._times), np.stack(self._x, axis=1), np.stack(self._xdot, axis=1))
        self._set_data(pieces._breaks, pieces._coefficients)

    def _append(self, integrator):
        ctx = integrator.get_context()
        self._times.append(ctx.get_time())
        self._x.append(np.array(ctx.get_continuous_state_vector(), dtype=float))
        self._xdot.append(np.array(integrator._eval_derivatives(), dtype=float))
        self._stale = True

    def record_step_start(self, integrator, t0):
        """Called with the integrator's context at a step's start (t0, x0)."""
        while self._times and self._times[-1] > t0:      # a step retaken from earlier
            self._times.pop()
            self._x.pop()
            self._xdot.pop()
            self._stale = True
        if not self._times or self._times[-1] < t0:     # first step, or the context moved
            self._append(integrator)

    def record_step_end(self, integrator):
        """Called with the integrator's context at an accepted step's end."""
        if self._times and integrator.get_context().get_time() <= self._times[-1]:
            return
        self._append(integrator)
