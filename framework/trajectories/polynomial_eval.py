"""Compiled point evaluation of a piecewise polynomial and its derivatives.

One kernel serves ``PiecewisePolynomial.value``, ``eval_derivative`` and the one-pass
evaluation of TrajectorySource, so all three give the same numbers bit for bit. The
derivative coefficients are precomputed per order and stacked, zero padded, into

    stack[k, i, j, e]   (K + 1, S, D + 1, R C)

the coefficient of tau**j of derivative order k on segment i for the flattened entry e
(row-major); ``counts[k]`` is the number of nonzero powers of order k. Evaluation finds
the segment by bisection (t clamped to the breaks; at an interior break the segment that
starts there), then sums ``stack[k, i, j, e] * tau**j`` over ascending j with the powers
formed by repeated multiplication.
"""

from __future__ import annotations

import numpy as np
from merganser.framework.compilation import kernel


@kernel(allocates=True, inline=False)
def find_segment(breaks, t):
    """(segment, local time tau, inside) of the time ``t``.

    Parameters
    ----------
    breaks : ndarray, shape (S + 1,)
        Strictly increasing break times (seconds), S >= 1.
    t : float
        Time (seconds); clamped to [breaks[0], breaks[S]].

    Returns
    -------
    segment : int
        The last segment whose start is <= t (clamped to 0 .. S - 1).
    tau : float
        t - breaks[segment] after clamping.
    inside : bool
        True when t lies within [breaks[0], breaks[S]].
    """
    last = breaks.shape[0] - 1
    if t <= breaks[0]:
        return 0, 0.0, t == breaks[0]
    if t >= breaks[last]:
        segment = last - 1
        return segment, breaks[last] - breaks[segment], t == breaks[last]
    lo, hi = 0, last            # breaks[lo] <= t < breaks[hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if breaks[mid] <= t:
            lo = mid
        else:
            hi = mid
    return lo, t - breaks[lo], True


@kernel(allocates=True, inline=False)
def eval_orders(breaks, stack, counts, t, first, last, out):
    """Write derivative orders ``first`` .. ``last`` at ``t`` into ``out``.

    Parameters
    ----------
    breaks : ndarray, shape (S + 1,)
    stack : ndarray, shape (K + 1, S, D + 1, E)
        Stacked derivative coefficients (module docstring), K >= last.
    counts : ndarray of int64, shape (K + 1,)
        Number of powers of each order.
    t : float
        Time (seconds).
    first, last : int
        Range of derivative orders, 0 <= first <= last <= K.
    out : ndarray, shape ((last - first + 1) E,)
        Order k goes to ``out[(k - first) E:(k - first + 1) E]``.

    Returns
    -------
    bool
        True when t lies within [breaks[0], breaks[S]].
    """
    segment, tau, inside = find_segment(breaks, t)
    size = stack.shape[3]
    for k in range(first, last + 1):
        base = (k - first) * size
        n = counts[k]
        for e in range(size):
            out[base + e] = 0.0
        power = 1.0
        for j in range(n):
            for e in range(size):
                out[base + e] += stack[k, segment, j, e] * power
            power *= tau
    return inside


def stack_derivatives(coefficients, differentiate, max_order):
    """The ``stack`` and ``counts`` arrays of `eval_orders` for orders 0 .. max_order.

    Parameters
    ----------
    coefficients : ndarray, shape (S, D + 1, R, C)
    differentiate : callable
        ``differentiate(coefficients, k)`` -> coefficients of the k-th derivative.
    max_order : int

    Returns
    -------
    stack : ndarray, shape (max_order + 1, S, D + 1, R C)
    counts : ndarray of int64, shape (max_order + 1,)
    """
    num_segments, num_coefficients, rows, cols = coefficients.shape
    stack = np.zeros((max_order + 1, num_segments, num_coefficients, rows * cols))
    counts = np.zeros(max_order + 1, dtype=np.int64)
    for k in range(max_order + 1):
        derivative = differentiate(coefficients, k)
        n = derivative.shape[1]
        stack[k, :, :n, :] = derivative.reshape(num_segments, n, rows * cols)
        counts[k] = n
    return stack, counts
