"""The compiled point evaluation of piecewise polynomials (framework.trajectories
.polynomial_eval) against numpy's polynomial evaluation: values and derivatives, segment
search at and between the breaks, clamping outside the range, orders beyond the degree."""

import numpy as np
import pytest
from numpy.polynomial import polynomial as P

from merganser.framework.trajectories import PiecewisePolynomial, polynomial
from merganser.framework.trajectories.polynomial_eval import eval_orders, find_segment, stack_derivatives


def _random_pieces(seed, segments=5, degree=4, rows=2, cols=3):
    rng = np.random.default_rng(seed)
    breaks = np.cumsum(rng.uniform(0.2, 1.0, segments + 1)) - 1.0
    coefficients = rng.normal(size=(segments, degree + 1, rows, cols))
    return breaks, coefficients


def _expected(breaks, coefficients, t, order):
    """numpy: the `order`-th derivative of the segment polynomial at t (clamped)."""
    t = min(max(t, breaks[0]), breaks[-1])
    i = min(max(np.searchsorted(breaks, t, side="right") - 1, 0), len(breaks) - 2)
    _, _, rows, cols = coefficients.shape
    out = np.zeros((rows, cols))
    for r in range(rows):
        for c in range(cols):
            out[r, c] = P.polyval(t - breaks[i], P.polyder(coefficients[i, :, r, c], order))
    return out


def test_find_segment_follows_drakes_rule_at_the_breaks():
    breaks = np.array([0.0, 1.0, 2.5, 4.0])
    assert find_segment(breaks, -1.0) == (0, 0.0, False)
    assert find_segment(breaks, 0.0) == (0, 0.0, True)
    assert find_segment(breaks, 0.5) == (0, 0.5, True)
    assert find_segment(breaks, 1.0) == (1, 0.0, True)       # the segment starting there
    assert find_segment(breaks, 3.0) == (2, 0.5, True)
    assert find_segment(breaks, 4.0) == (2, 1.5, True)       # end: the last segment
    assert find_segment(breaks, 9.0) == (2, 1.5, False)


@pytest.mark.parametrize("seed", [0, 1])
def test_values_and_derivatives_match_numpy(seed):
    breaks, coefficients = _random_pieces(seed)
    stack, counts = stack_derivatives(coefficients, polynomial.differentiate, 6)
    np.testing.assert_array_equal(counts, [5, 4, 3, 2, 1, 1, 1])
    times = np.concatenate([[breaks[0] - 1.0, breaks[-1] + 2.0], breaks,
                            np.linspace(breaks[0], breaks[-1], 23)])
    out = np.empty(7 * 6)
    for t in times:
        inside = eval_orders(breaks, stack, counts, float(t), 0, 6, out)
        assert inside == (breaks[0] <= t <= breaks[-1])
        for k in range(7):
            expected = _expected(breaks, coefficients, t, k).ravel()
            np.testing.assert_allclose(out[6 * k:6 * (k + 1)], expected, rtol=1e-12,
                                       atol=1e-12 * np.max(np.abs(expected) + 1.0))
        part = np.empty(2 * 6)
        eval_orders(breaks, stack, counts, float(t), 2, 3, part)
        np.testing.assert_array_equal(part, out[12:24])       # a range of orders


def test_piecewise_polynomial_evaluates_through_the_kernel():
    breaks, coefficients = _random_pieces(5, rows=3, cols=1)
    trajectory = PiecewisePolynomial.from_coefficients(breaks, coefficients)
    for t in (breaks[0] - 0.3, breaks[2], 0.5 * (breaks[1] + breaks[2]), breaks[-1] + 1.0):
        np.testing.assert_allclose(trajectory.value(t), _expected(breaks, coefficients, t, 0),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(trajectory.eval_derivative(t, 3),
                                   _expected(breaks, coefficients, t, 3), rtol=1e-12,
                                   atol=1e-11)
        np.testing.assert_array_equal(trajectory.eval_derivative(t, 9), np.zeros((3, 1)))
