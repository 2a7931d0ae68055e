"""FiniteHorizonLqrController: the time-varying affine state feedback of a finite-horizon
LQR (the System returned by Drake's MakeFiniteHorizonLinearQuadraticRegulator)."""

import numpy as np

from merganser.framework import LeafSystem


class FiniteHorizonLqrController(LeafSystem):
    """u = u₀(t) − K(t) (x − x₀(t)) − k₀(t).

    ::

        plant_state ──▶ ┌────────────────────────────┐ ──▶ control
                        │ FiniteHorizonLqrController │
                        └────────────────────────────┘

    The trajectories are evaluated at the context time; outside their time range they
    hold their end values (PiecewisePolynomial's clamping). ``control`` has direct
    feedthrough from ``plant_state``. Usually made by
    `make_finite_horizon_linear_quadratic_regulator`.

    Parameters
    ----------
    x0 : Trajectory, (n, 1)
        Nominal state.
    u0 : Trajectory, (m, 1)
        Nominal input.
    K : Trajectory, (m, n)
        Feedback gain.
    k0 : Trajectory, (m, 1)
        Feedforward offset.
    """

    def __init__(self, x0, u0, K, k0):
        super().__init__()
        fn = "FiniteHorizonLqrController"
        m, n = K.rows(), K.cols()
        for name, traj, shape in (("x0", x0, (n, 1)), ("u0", u0, (m, 1)), ("k0", k0, (m, 1))):
            if (traj.rows(), traj.cols()) != shape:
                raise ValueError(f"{fn}: {name} has shape ({traj.rows()}, {traj.cols()}), "
                                 f"expected {shape} to match K ({m}, {n})")
        self._x0, self._u0, self._K, self._k0 = x0, u0, K, k0
        self._n, self._m = n, m
        self._state = self.declare_vector_input_port("plant_state", n)
        self._control = self.declare_vector_output_port(
            "control", m, self._calc_control,
            [self.time_ticket(), self.input_port_ticket(self._state)])

    def get_input_port_plant_state(self):
        """Input x (n,)."""
        return self._state

    def get_output_port_control(self):
        """Output u (m,)."""
        return self._control

    def _calc_control(self, context, output):
        t = context.get_time()
        xbar = self._state.eval(context) - self._x0.value(t).reshape(self._n)
        u = output.get_mutable_value()
        np.dot(self._K.value(t), xbar, out=u)
        np.subtract(self._u0.value(t).reshape(self._m), u, out=u)
        u -= self._k0.value(t).reshape(self._m)
