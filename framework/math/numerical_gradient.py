"""Finite-difference Jacobians (Drake's ComputeNumericalGradient, NumericalGradientOption
and NumericalGradientMethod).

In each coordinate the step is Δxᵢ = h · max(1, |xᵢ|), with h = √accuracy for the
first-order forward and backward differences and h = ∛accuracy for the second-order
central difference (Gill, Murray and Wright, *Practical Optimization*, §8.6).
"""

import enum

import numpy as np

__all__ = ["NumericalGradientMethod", "NumericalGradientOption", "compute_numerical_gradient"]


class NumericalGradientMethod(enum.Enum):
    """Which difference quotient ``compute_numerical_gradient`` uses."""

    kForward = 0    # (f(x + Δx) − f(x)) / Δx
    kBackward = 1   # (f(x) − f(x − Δx)) / Δx
    kCentral = 2    # (f(x + Δx) − f(x − Δx)) / (2Δx)


class NumericalGradientOption:
    """The difference method and the relative step it implies.

    Parameters
    ----------
    method : NumericalGradientMethod
    function_accuracy : float, > 0
        The accuracy to which f is evaluated (about 1e-15 for double-valued f of size 1).
    """

    def __init__(self, method, function_accuracy=1e-15):
        if not isinstance(method, NumericalGradientMethod):
            raise TypeError(f"NumericalGradientOption: argument method: expected a "
                            f"NumericalGradientMethod, got {method!r}")
        if not function_accuracy > 0:
            raise ValueError(f"NumericalGradientOption: argument function_accuracy: expected "
                             f"> 0, got {function_accuracy!r}")
        self._method = method
        root = 3.0 if method is NumericalGradientMethod.kCentral else 2.0
        self._h = float(function_accuracy) ** (1.0 / root)

    def method(self):
        """The NumericalGradientMethod."""
        return self._method

    def perturbation_size(self):
        """The relative step h (Δxᵢ = h · max(1, |xᵢ|))."""
        return self._h

    def __repr__(self):
        return f"NumericalGradientOption(method={self._method}, perturbation_size={self._h:g})"


def compute_numerical_gradient(calc_func, x, option=None):
    """The Jacobian ∂f/∂x of ``calc_func`` at ``x`` by finite differences.

    Parameters
    ----------
    calc_func : callable
        ``calc_func(x)`` -> array_like, shape (m,), for x of shape (n,).
    x : array_like, shape (n,)
    option : NumericalGradientOption, optional
        Central differences with accuracy 1e-15 when None.

    Returns
    -------
    ndarray, shape (m, n)
        Entry (i, j) is ∂fᵢ/∂xⱼ.
    """
    if option is None:
        option = NumericalGradientOption(NumericalGradientMethod.kCentral)
    x = np.asarray(x, dtype=float).reshape(-1)

    def f(z):
        return np.asarray(calc_func(z), dtype=float).reshape(-1)

    method = option.method()
    f0 = None if method is NumericalGradientMethod.kCentral else f(x)
    columns = []
    for j in range(x.size):
        dx = option.perturbation_size() * max(1.0, abs(x[j]))
        plus, minus = x.copy(), x.copy()
        plus[j] += dx
        minus[j] -= dx
        if method is NumericalGradientMethod.kForward:
            columns.append((f(plus) - f0) / dx)
        elif method is NumericalGradientMethod.kBackward:
            columns.append((f0 - f(minus)) / dx)
        else:
            columns.append((f(plus) - f(minus)) / (2 * dx))
    if not columns:
        return np.zeros((f(x).size, 0))
    return np.column_stack(columns)
