"""Wrapping a periodic value into an interval (Drake's math::wrap_to)."""

import math

__all__ = ["wrap_to"]


def wrap_to(value, low, high):
    """``value + k (high - low)`` for the unique integer k that lands it in [low, high).

    Parameters
    ----------
    value : float
    low, high : float
        Finite bounds with low < high.

    Returns
    -------
    float
        The wrapped value, low <= result < high (up to rounding).
    """
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"wrap_to: argument low, high: expected finite low < high, "
                         f"got low={low!r}, high={high!r}")
    span = high - low
    return value - span * math.floor((value - low) / span)
