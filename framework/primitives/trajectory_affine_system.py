"""TrajectoryAffineSystem and TrajectoryLinearSystem: affine systems whose coefficients
are trajectories of time (Drake's)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..trajectories import PiecewisePolynomial, Trajectory
from .linear_system import AffineState, checked_time_period, declare_affine_ports


def _trajectory(fn, name, value, shape):
    """``value`` (a Trajectory, or a constant matrix) as a Trajectory of ``shape``."""
    if value is None:
        return PiecewisePolynomial(np.zeros(shape))
    if not isinstance(value, Trajectory):
        value = PiecewisePolynomial(np.atleast_1d(np.asarray(value, dtype=float)))
    if (value.rows(), value.cols()) != shape:
        raise ValueError(f"{fn}: {name} has shape {(value.rows(), value.cols())}, expected "
                         f"{shape}")
    return value


class TrajectoryAffineSystem(AffineState, LeafSystem):
    """An affine system whose coefficients vary with time t.

    ::

        u0 ──▶ ┌────────────────────────┐
               │ TrajectoryAffineSystem │ ──▶ y0
               └────────────────────────┘

    Continuous (``time_period == 0``): ẋ = A(t) x + B(t) u + f0(t),
    y = C(t) x + D(t) u + y0(t). Discrete (``time_period = h > 0``):
    x[n+1] = A(t) x[n] + B(t) u[n] + f0(t) at t = n·h, with the same output.

    Parameters
    ----------
    A, B, f0, C, D, y0 : Trajectory
        Of shapes (n, n), (n, m), (n, 1), (p, n), (p, m), (p, 1), e.g.
        PiecewisePolynomial; f0, C, D and y0 may be None (zero).
    time_period : float
        0 for continuous time, else the update period h (s).
    """

    @lists_valid_keywords
    def __init__(self, A, B, f0=None, C=None, D=None, y0=None, time_period=0.0):
        super().__init__()
        fn = type(self).__name__
        if not isinstance(A, Trajectory) or not isinstance(B, Trajectory):
            raise TypeError(f"{fn}: A and B must be Trajectory objects (e.g. "
                            f"PiecewisePolynomial), got {type(A).__name__} and "
                            f"{type(B).__name__}")
        n, m = A.rows(), B.cols()
        p = C.rows() if isinstance(C, Trajectory) else (
            D.rows() if isinstance(D, Trajectory) else 0)
        self._A = _trajectory(fn, "A", A, (n, n))
        self._B = _trajectory(fn, "B", B, (n, m))
        self._f0 = _trajectory(fn, "f0", f0, (n, 1))
        self._C = _trajectory(fn, "C", C, (p, n))
        self._D = _trajectory(fn, "D", D, (p, m))
        self._y0 = _trajectory(fn, "y0", y0, (p, 1))
        self._sizes = (n, m, p)
        self._time_period = checked_time_period(fn, time_period)
        declare_affine_ports(self, n, m, p, True, self._calc_output, self._update,
                             time_varying=True)

    # ---- coefficients at time t -----------------------------------------------------------
    def A(self, t):
        """A(t), shape (n, n)."""
        return self._A.value(t)

    def B(self, t):
        """B(t), shape (n, m)."""
        return self._B.value(t)

    def f0(self, t):
        """f0(t), shape (n,)."""
        return self._f0.value(t).reshape(-1)

    def C(self, t):
        """C(t), shape (p, n)."""
        return self._C.value(t)

    def D(self, t):
        """D(t), shape (p, m)."""
        return self._D.value(t)

    def y0(self, t):
        """y0(t), shape (p,)."""
        return self._y0.value(t).reshape(-1)

    def num_states(self):
        return self._sizes[0]

    def num_inputs(self):
        return self._sizes[1]

    def num_outputs(self):
        return self._sizes[2]

    # ---- dynamics ---------------------------------------------------------------------------
    def _affine(self, context, x, M, N, offset):
        t = context.get_time()
        out = M(t) @ x + offset(t)
        if self._sizes[1]:
            out = out + N(t) @ self.get_input_port(0).eval(context)
        return out

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value(self._affine(context, context.get_continuous_state_vector(),
                                           self.A, self.B, self.f0))

    def _update(self, context, discrete_state):
        discrete_state.set_value(0, self._affine(context, context.get_discrete_state(0),
                                                 self.A, self.B, self.f0))

    def _calc_output(self, context, output):
        output.set_value(self._affine(context, self.get_state(context), self.C, self.D,
                                      self.y0))


class TrajectoryLinearSystem(TrajectoryAffineSystem):
    """A linear system whose coefficients vary with time (Drake's TrajectoryLinearSystem).

    ::

        u0 ──▶ ┌────────────────────────┐
               │ TrajectoryLinearSystem │ ──▶ y0
               └────────────────────────┘

    ẋ = A(t) x + B(t) u (or the discrete update with ``time_period`` h > 0),
    y = C(t) x + D(t) u.

    Parameters
    ----------
    A, B, C, D : Trajectory
        Of shapes (n, n), (n, m), (p, n), (p, m).
    time_period : float
    """

    @lists_valid_keywords
    def __init__(self, A, B, C, D, time_period=0.0):
        super().__init__(A, B, None, C, D, None, time_period)
