"""Argument checks shared by the primitives; messages name the function and argument."""

import numbers

import numpy as np


def as_size(fn, name, value, minimum=1):
    """``value`` as an int >= ``minimum``, or raise naming ``fn`` and ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{fn}: {name} must be an int, got {type(value).__name__} {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{fn}: {name} must be >= {minimum}, got {value}")
    return value


def as_vector(fn, name, value, size=None):
    """``value`` as a float64 vector; a scalar is broadcast to ``size`` when given.

    Parameters
    ----------
    fn, name : str
        Function and argument names for error messages.
    value : float or array_like
    size : int or None
        Required size (a scalar is broadcast to it).

    Returns
    -------
    ndarray, shape (size,)
    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {name} must be numeric, got {type(value).__name__}") from None
    if arr.ndim == 0:
        arr = np.full(1 if size is None else size, float(arr))
    elif arr.ndim != 1:
        raise ValueError(f"{fn}: {name} must be a scalar or a 1-D array, got shape {arr.shape}")
    if size is not None and arr.size != size:
        raise ValueError(f"{fn}: {name} has size {arr.size}, expected {size}")
    return arr


def as_positive_float(fn, name, value):
    """``value`` as a finite float > 0."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {name} must be a number, got {type(value).__name__}") from None
    if not (value > 0.0 and np.isfinite(value)):
        raise ValueError(f"{fn}: {name} must be a finite number > 0, got {value}")
    return value
