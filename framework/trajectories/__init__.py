"""Trajectories: matrix-valued functions of time (pure numpy/scipy).

- :class:`Trajectory`: abstract base (value, eval_derivative, make_derivative, ...).
- :class:`PiecewisePolynomial`: splines through samples (zero/first order hold, cubic
  shape-preserving, C2 cubic, cubic Hermite, Lagrange), as Drake's.
"""

from merganser.framework.trajectories.piecewise_polynomial import PiecewisePolynomial
from merganser.framework.trajectories.trajectory import Trajectory

__all__ = ["PiecewisePolynomial", "Trajectory"]
