"""Scalar math functions with C's semantics (pydrake.math's ``log``, ``sqrt``, ``min``, ...).

pydrake.math offers the C library's functions on floats so that code written for Drake's
scalar types also runs on plain floats: ``log(0.1)``, ``atan2(y, x)``, ``isnan(x)``. They
follow C, not Python's ``math`` module: a domain error gives NaN and an overflow gives
infinity instead of raising (``log(-1.0)`` is nan, ``log(0.0)`` is -inf, ``exp(1e3)`` is
inf), and ``ceil`` / ``floor`` return floats. ``inv`` inverts a square matrix.

These names shadow Python built-ins (``abs``, ``min``, ``max``, ``pow``), so
``merganser.framework`` keeps them out of its ``import *``; import them by name, or
through ``merganser.pydrake_spelling`` (whose ``import *`` brings them, as
``from pydrake.all import *`` does).
"""

import math

import numpy as np

__all__ = [
    "abs", "acos", "arccos", "arcsin", "arctan", "arctan2", "asin", "atan", "atan2", "ceil",
    "cos", "cosh", "exp", "floor", "inv", "isnan", "log", "max", "min", "pow", "sin", "sinh",
    "sqrt", "tan", "tanh",
]


def _c_semantics(name, python_function, numpy_function):
    """The float function `name`: Python's `python_function`, with NumPy's C-library value
    where Python raises for a domain error or an overflow."""

    def function(x):
        x = _as_float(name, "x", x)
        try:
            return float(python_function(x))
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return float(numpy_function(np.float64(x)))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"{name}(x): C's ``{numpy_function.__name__}`` of the float x "
                        f"(NaN on a domain error, ±inf on overflow).")
    return function


def _as_float(function, argument, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{function}: {argument} must be a float, got "
                        f"{type(value).__name__} {value!r}") from None


log = _c_semantics("log", math.log, np.log)
exp = _c_semantics("exp", math.exp, np.exp)
sqrt = _c_semantics("sqrt", math.sqrt, np.sqrt)
sin = _c_semantics("sin", math.sin, np.sin)
cos = _c_semantics("cos", math.cos, np.cos)
tan = _c_semantics("tan", math.tan, np.tan)
asin = _c_semantics("asin", math.asin, np.arcsin)
acos = _c_semantics("acos", math.acos, np.arccos)
atan = _c_semantics("atan", math.atan, np.arctan)
sinh = _c_semantics("sinh", math.sinh, np.sinh)
cosh = _c_semantics("cosh", math.cosh, np.cosh)
tanh = _c_semantics("tanh", math.tanh, np.tanh)
abs = _c_semantics("abs", math.fabs, np.fabs)
ceil = _c_semantics("ceil", np.ceil, np.ceil)
floor = _c_semantics("floor", np.floor, np.floor)
arcsin, arccos, arctan = asin, acos, atan


def isnan(x):
    """True when the float x is NaN (bool)."""
    return math.isnan(_as_float("isnan", "x", x))


def min(x, y):
    """The smaller of the floats x and y (C++'s ``std::min``: x unless y < x)."""
    x, y = _as_float("min", "x", x), _as_float("min", "y", y)
    return y if y < x else x


def max(x, y):
    """The larger of the floats x and y (C++'s ``std::max``: x unless x < y)."""
    x, y = _as_float("max", "x", x), _as_float("max", "y", y)
    return y if x < y else x


def pow(x, y):
    """x to the power y, floats (C's ``pow``: NaN for a negative base and a fractional
    exponent, inf on overflow)."""
    x, y = _as_float("pow", "x", x), _as_float("pow", "y", y)
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(x), np.float64(y)))


def atan2(y, x):
    """The angle of the point (x, y), in (−π, π] (float)."""
    return math.atan2(_as_float("atan2", "y", y), _as_float("atan2", "x", x))


arctan2 = atan2


def inv(X):
    """The inverse of the square matrix X, shape (n, n).

    Raises
    ------
    ValueError
        When X is not square.
    numpy.linalg.LinAlgError
        When X is singular.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] != X.shape[1]:
        raise ValueError(f"inv: X must be a square matrix, got shape {X.shape}")
    return np.linalg.inv(X)

