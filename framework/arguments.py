"""Argument checks shared by the simulation entry points (simulate, Monte Carlo, sweeps):
each message names the function, the argument, what was expected and what was given."""

import math
import numbers


def as_finite_float(fn, arg, value):
    """``value`` as a finite float, or raise naming ``fn`` and ``arg``.

    Raises
    ------
    TypeError
        If ``value`` is not a number.
    ValueError
        If it is NaN or infinite.
    """
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be a number, got {type(value).__name__}") from None
    if not math.isfinite(x):
        raise ValueError(f"{fn}: {arg} must be finite, got {value!r}")
    return x


def as_nonnegative_int(fn, arg, value):
    """``value`` as an int >= 0 (bools refused), or raise naming ``fn`` and ``arg``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{fn}: {arg} must be an integer, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{fn}: {arg} must be >= 0, got {value}")
    return int(value)
