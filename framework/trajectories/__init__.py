"""Trajectories: matrix-valued functions of time (pure numpy/scipy).

- :class:`Trajectory`: abstract base (value, eval_derivative, make_derivative, ...).
- :class:`PiecewisePolynomial`: splines through samples (zero/first order hold, cubic
  shape-preserving, C2 cubic, cubic Hermite, Lagrange), as Drake's.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".piecewise_polynomial": ("PiecewisePolynomial",),
    ".trajectory": ("Trajectory",),
})
