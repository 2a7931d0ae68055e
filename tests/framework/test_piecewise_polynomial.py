"""Tests for PiecewisePolynomial: interpolation, references (scipy), calculus, errors."""

import pickle

import numpy as np
import pytest
from scipy.interpolate import CubicSpline, PchipInterpolator

from merganser.framework.trajectories import PiecewisePolynomial, Trajectory

BREAKS = np.array([0.0, 0.4, 1.0, 1.7, 2.1, 3.0])
SAMPLES = np.array([
    [0.0, 1.0, -0.5, 2.0, 2.5, 1.0],
    [1.0, 0.3, 0.8, -1.2, 0.0, 0.4],
    [-2.0, -1.0, 0.5, 0.7, 1.9, 3.0],
])  # (rows, N)
SAMPLES_DOT = np.array([
    [1.0, -2.0, 0.0, 0.5, 3.0, -1.0],
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5],
    [2.0, 2.0, -2.0, 2.0, -2.0, 2.0],
])
DENSE_TIMES = np.linspace(BREAKS[0], BREAKS[-1], 241)


def _interior_times(breaks, per_segment=7):
    """Times strictly inside each segment."""
    fractions = np.linspace(0.05, 0.95, per_segment)
    return np.concatenate([a + fractions * (b - a) for a, b in zip(breaks[:-1], breaks[1:])])


def _segment_derivative(trajectory, segment, local_time, order):
    """d^order/dt^order of one segment's polynomial at a local time, from the stored
    coefficients with numpy.polynomial (independent of the class's evaluation)."""
    coefficients = trajectory.get_coefficients()[segment]  # (D + 1, rows, cols)
    derivative = np.polynomial.polynomial.polyder(coefficients, order, axis=0)
    return np.polynomial.polynomial.polyval(local_time, derivative)


CONSTRUCTORS = {
    "zero_order_hold": lambda b, y: PiecewisePolynomial.zero_order_hold(b, y),
    "first_order_hold": lambda b, y: PiecewisePolynomial.first_order_hold(b, y),
    "cubic_shape_preserving": lambda b, y: PiecewisePolynomial.cubic_shape_preserving(b, y),
    "cubic_shape_preserving_zero_ends": lambda b, y: PiecewisePolynomial.cubic_shape_preserving(
        b, y, zero_end_point_derivatives=True),
    "cubic_not_a_knot": lambda b, y:
        PiecewisePolynomial.cubic_with_continuous_second_derivatives(b, y),
    "cubic_clamped": lambda b, y: PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        b, y, np.ones((y.shape[0], 1)), -np.ones((y.shape[0], 1))),
    "cubic_hermite": lambda b, y: PiecewisePolynomial.cubic_hermite(b, y, SAMPLES_DOT),
    "lagrange": lambda b, y: PiecewisePolynomial.lagrange_interpolating_polynomial(b, y),
}


# ---- interpolation of the samples ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
def test_constructor_interpolates_samples_at_breaks(name):
    trajectory = CONSTRUCTORS[name](BREAKS, SAMPLES)
    assert isinstance(trajectory, Trajectory)
    assert (trajectory.rows(), trajectory.cols()) == (3, 1)
    assert trajectory.start_time() == 0.0 and trajectory.end_time() == 3.0
    last = len(BREAKS) - 1 if name != "zero_order_hold" else len(BREAKS) - 2
    for i, t in enumerate(BREAKS[:last]):
        np.testing.assert_allclose(trajectory.value(t), SAMPLES[:, [i]], rtol=0, atol=1e-12)
    if name != "zero_order_hold":
        np.testing.assert_allclose(trajectory.value(3.0), SAMPLES[:, [-1]], rtol=0, atol=1e-12)


def test_zero_order_hold_holds_previous_sample_and_ignores_last():
    trajectory = PiecewisePolynomial.zero_order_hold(BREAKS, SAMPLES)
    times = _interior_times(BREAKS)
    expected_index = np.searchsorted(BREAKS, times, side="right") - 1
    np.testing.assert_array_equal(trajectory.vector_values(times), SAMPLES[:, expected_index])
    # As Drake: the last sample's value is never used, the end time holds sample N-2.
    np.testing.assert_array_equal(trajectory.value(BREAKS[-1]), SAMPLES[:, [-2]])
    np.testing.assert_array_equal(trajectory.eval_derivative(0.2, 1), np.zeros((3, 1)))


def test_first_order_hold_interpolates_linearly():
    trajectory = PiecewisePolynomial.first_order_hold(BREAKS, SAMPLES)
    for row in range(3):
        np.testing.assert_allclose(trajectory.vector_values(DENSE_TIMES)[row],
                                   np.interp(DENSE_TIMES, BREAKS, SAMPLES[row]), atol=1e-14)
    midpoint = 0.5 * (BREAKS[2] + BREAKS[3])
    np.testing.assert_allclose(trajectory.value(midpoint)[:, 0],
                               0.5 * (SAMPLES[:, 2] + SAMPLES[:, 3]), atol=1e-15)
    slope = (SAMPLES[:, 3] - SAMPLES[:, 2]) / (BREAKS[3] - BREAKS[2])
    np.testing.assert_allclose(trajectory.eval_derivative(midpoint)[:, 0], slope, atol=1e-14)


def test_scalar_samples_given_as_one_dimensional_array():
    trajectory = PiecewisePolynomial.first_order_hold([0.0, 2.0], [1.0, 5.0])
    assert (trajectory.rows(), trajectory.cols()) == (1, 1)
    assert trajectory.value(0.5)[0, 0] == pytest.approx(2.0, abs=1e-15)
    np.testing.assert_allclose(trajectory.vector_values([0.0, 1.0, 2.0]), [[1.0, 3.0, 5.0]])


# ---- C2 cubic spline against scipy ---------------------------------------------------------


def test_not_a_knot_spline_matches_scipy_cubic_spline():
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(BREAKS, SAMPLES)
    reference = CubicSpline(BREAKS, SAMPLES, axis=1, bc_type="not-a-knot")
    np.testing.assert_allclose(trajectory.vector_values(DENSE_TIMES), reference(DENSE_TIMES),
                               rtol=0, atol=1e-12)
    for order in (1, 2):
        values = np.stack([trajectory.eval_derivative(t, order)[:, 0] for t in DENSE_TIMES], 1)
        np.testing.assert_allclose(values, reference(DENSE_TIMES, order), rtol=0, atol=1e-11)


def test_clamped_spline_matches_scipy_cubic_spline():
    start, end = np.array([0.5, -1.0, 2.0]), np.array([-3.0, 0.0, 1.5])
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        BREAKS, SAMPLES, start, end)
    reference = CubicSpline(BREAKS, SAMPLES, axis=1, bc_type=((1, start), (1, end)))
    np.testing.assert_allclose(trajectory.vector_values(DENSE_TIMES), reference(DENSE_TIMES),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(trajectory.eval_derivative(BREAKS[0])[:, 0], start, atol=1e-12)
    np.testing.assert_allclose(trajectory.eval_derivative(BREAKS[-1])[:, 0], end, atol=1e-12)


def test_clamped_spline_with_two_breaks_is_hermite_cubic():
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        [0.0, 2.0], [[1.0, 3.0]], [[0.0]], [[0.0]])
    # y = 1 + 2 (3 s^2 - 2 s^3), s = t / 2.
    for t in (0.3, 1.0, 1.7):
        s = t / 2.0
        assert trajectory.value(t)[0, 0] == pytest.approx(1 + 2 * (3 * s**2 - 2 * s**3), abs=1e-14)


def test_not_a_knot_with_three_breaks_is_the_interpolating_parabola():
    breaks, samples = np.array([0.0, 1.0, 3.0]), np.array([2.0, 0.0, 8.0])
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(breaks, samples)
    parabola = np.polynomial.polynomial.Polynomial.fit(breaks, samples, 2).convert()
    times = np.linspace(0.0, 3.0, 31)
    np.testing.assert_allclose(trajectory.vector_values(times)[0], parabola(times), atol=1e-12)
    reference = CubicSpline(breaks, samples)
    np.testing.assert_allclose(trajectory.vector_values(times)[0], reference(times), atol=1e-12)
    np.testing.assert_allclose(trajectory.get_coefficients()[:, 3], 0.0, atol=1e-12)


def test_periodic_spline_matches_scipy_periodic_cubic_spline():
    samples = SAMPLES.copy()
    samples[:, -1] = samples[:, 0]
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        BREAKS, samples, periodic_end_condition=True)
    reference = CubicSpline(BREAKS, samples, axis=1, bc_type="periodic")
    np.testing.assert_allclose(trajectory.vector_values(DENSE_TIMES), reference(DENSE_TIMES),
                               rtol=0, atol=1e-12)
    for order in (1, 2):
        np.testing.assert_allclose(trajectory.eval_derivative(BREAKS[0], order),
                                   trajectory.eval_derivative(BREAKS[-1], order), atol=1e-11)


@pytest.mark.parametrize("clamped", [False, True])
def test_spline_has_continuous_first_and_second_derivatives(clamped):
    ends = (np.ones(3), np.zeros(3)) if clamped else (None, None)
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        BREAKS, SAMPLES, *ends)
    for i in range(1, len(BREAKS) - 1):
        duration = BREAKS[i] - BREAKS[i - 1]
        for order in (0, 1, 2):
            left = _segment_derivative(trajectory, i - 1, duration, order)
            right = _segment_derivative(trajectory, i, 0.0, order)
            np.testing.assert_allclose(left, right, rtol=0, atol=1e-11)
    # The third derivative jumps at a generic interior break (it is a cubic spline).
    jump = (_segment_derivative(trajectory, 2, 0.0, 3)
            - _segment_derivative(trajectory, 1, BREAKS[2] - BREAKS[1], 3))
    assert np.abs(jump).max() > 1e-3


def test_not_a_knot_third_derivative_is_continuous_at_second_and_penultimate_breaks():
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(BREAKS, SAMPLES)
    coefficients = trajectory.get_coefficients()
    np.testing.assert_allclose(coefficients[0, 3], coefficients[1, 3], atol=1e-11)
    np.testing.assert_allclose(coefficients[-2, 3], coefficients[-1, 3], atol=1e-11)


# ---- cubic Hermite --------------------------------------------------------------------------


def test_cubic_hermite_matches_given_derivatives_at_both_sides_of_breaks():
    trajectory = PiecewisePolynomial.cubic_hermite(BREAKS, SAMPLES, SAMPLES_DOT)
    for i in range(len(BREAKS) - 1):
        duration = BREAKS[i + 1] - BREAKS[i]
        np.testing.assert_allclose(trajectory.eval_derivative(BREAKS[i])[:, 0],
                                   SAMPLES_DOT[:, i], atol=1e-12)
        np.testing.assert_allclose(_segment_derivative(trajectory, i, duration, 1)[:, 0],
                                   SAMPLES_DOT[:, i + 1], atol=1e-12)
        np.testing.assert_allclose(_segment_derivative(trajectory, i, duration, 0)[:, 0],
                                   SAMPLES[:, i + 1], atol=1e-12)


def test_cubic_hermite_reproduces_a_cubic_exactly():
    cubic = np.polynomial.polynomial.Polynomial([1.0, -2.0, 0.5, 0.25])
    breaks = np.array([-1.0, 0.5, 2.0])
    trajectory = PiecewisePolynomial.cubic_hermite(
        breaks, cubic(breaks), cubic.deriv()(breaks))
    times = np.linspace(-1.0, 2.0, 37)
    np.testing.assert_allclose(trajectory.vector_values(times)[0], cubic(times), atol=1e-12)
    np.testing.assert_allclose(
        [trajectory.eval_derivative(t, 3)[0, 0] for t in times], 6 * 0.25, atol=1e-12)


# ---- shape-preserving cubic -------------------------------------------------------------------


def test_shape_preserving_matches_scipy_pchip():
    trajectory = PiecewisePolynomial.cubic_shape_preserving(BREAKS, SAMPLES)
    reference = PchipInterpolator(BREAKS, SAMPLES, axis=1)
    np.testing.assert_allclose(trajectory.vector_values(DENSE_TIMES), reference(DENSE_TIMES),
                               rtol=0, atol=1e-12)
    first = np.stack([trajectory.eval_derivative(t)[:, 0] for t in DENSE_TIMES], axis=1)
    np.testing.assert_allclose(first, reference(DENSE_TIMES, 1), rtol=0, atol=1e-11)


def test_shape_preserving_is_monotone_without_overshoot_on_monotone_data():
    rng = np.random.default_rng(3)
    breaks = np.cumsum(rng.uniform(0.05, 2.0, 12))
    samples = np.cumsum(rng.exponential(1.0, 12) * (rng.uniform(size=12) > 0.3))  # flats too
    trajectory = PiecewisePolynomial.cubic_shape_preserving(breaks, samples)
    times = np.linspace(breaks[0], breaks[-1], 4001)
    values = trajectory.vector_values(times)[0]
    assert np.all(np.diff(values) >= -1e-12)
    segment = np.clip(np.searchsorted(breaks, times, side="right") - 1, 0, 10)
    assert np.all(values >= samples[segment] - 1e-12)
    assert np.all(values <= samples[segment + 1] + 1e-12)
    # A C2 spline through the same data overshoots, so the property is not vacuous.
    spline = PiecewisePolynomial.cubic_with_continuous_second_derivatives(breaks, samples)
    assert np.any(np.diff(spline.vector_values(times)[0]) < -1e-6)


def test_shape_preserving_slopes_hand_computed():
    # Interior: weighted harmonic mean 3 (h0 + h1) / ((2 h1 + h0) / d0 + (h1 + 2 h0) / d1)
    # with h = (1, 2), d = (1, 2): 9 / (5 + 2) = 9/7. Start: three-point formula
    # ((2 h0 + h1) d0 - h0 d1) / (h0 + h1) = (4 - 2) / 3 = 2/3 (same sign as d0, kept).
    # End: ((2 h1 + h0) d1 - h1 d0) / (h0 + h1) = (10 - 2) / 3 = 8/3.
    trajectory = PiecewisePolynomial.cubic_shape_preserving([0.0, 1.0, 3.0], [0.0, 1.0, 5.0])
    assert trajectory.eval_derivative(1.0)[0, 0] == pytest.approx(9.0 / 7.0, abs=1e-14)
    assert trajectory.eval_derivative(0.0)[0, 0] == pytest.approx(2.0 / 3.0, abs=1e-14)
    assert trajectory.eval_derivative(3.0)[0, 0] == pytest.approx(8.0 / 3.0, abs=1e-14)


def test_shape_preserving_end_slope_limits():
    # d = (1, -5), h = (1, 1): three-point slope (3 + 5) / 2 = 4 exceeds 3 d0 where the
    # data turn, so it is limited to 3.
    limited = PiecewisePolynomial.cubic_shape_preserving([0.0, 1.0, 2.0], [0.0, 1.0, -4.0])
    assert limited.eval_derivative(0.0)[0, 0] == pytest.approx(3.0, abs=1e-14)
    # d = (1, 4): three-point slope (3 - 4) / 2 = -0.5 has the wrong sign, so it is 0.
    flipped = PiecewisePolynomial.cubic_shape_preserving([0.0, 1.0, 2.0], [0.0, 1.0, 5.0])
    assert flipped.eval_derivative(0.0)[0, 0] == 0.0
    # Drake counts |slope| <= 1e-10 as zero: d = (1, 3 - 1e-11) gives 5e-12, set to 0
    # (scipy's pchip keeps 5e-12 here; this is where the two differ).
    tiny = PiecewisePolynomial.cubic_shape_preserving([0.0, 1.0, 2.0], [0.0, 1.0, 4.0 - 1e-11])
    assert tiny.eval_derivative(0.0)[0, 0] == 0.0
    assert PchipInterpolator([0.0, 1.0, 2.0], [0.0, 1.0, 4.0 - 1e-11])(0.0, 1) > 0.0


def test_shape_preserving_with_zero_end_derivatives_and_two_samples_is_smoothstep():
    trajectory = PiecewisePolynomial.cubic_shape_preserving(
        [1.0, 3.0], [[2.0, 6.0]], zero_end_point_derivatives=True)
    for t in (1.0, 1.5, 2.0, 2.9, 3.0):
        s = (t - 1.0) / 2.0
        assert trajectory.value(t)[0, 0] == pytest.approx(2 + 4 * (3 * s**2 - 2 * s**3), abs=1e-14)
    assert trajectory.eval_derivative(1.0)[0, 0] == 0.0
    assert trajectory.eval_derivative(3.0)[0, 0] == pytest.approx(0.0, abs=1e-14)


def test_shape_preserving_local_extremum_has_zero_slope():
    trajectory = PiecewisePolynomial.cubic_shape_preserving(BREAKS, SAMPLES)
    # SAMPLES[0] has a local maximum at index 1 and a minimum at index 2.
    assert trajectory.eval_derivative(BREAKS[1])[0, 0] == 0.0
    assert trajectory.eval_derivative(BREAKS[2])[0, 0] == 0.0


# ---- derivatives -----------------------------------------------------------------------------


@pytest.mark.parametrize("order", [0, 1, 2, 3, 4])
def test_make_derivative_agrees_with_eval_derivative(order):
    trajectory = PiecewisePolynomial.cubic_hermite(BREAKS, SAMPLES, SAMPLES_DOT)
    derivative = trajectory.make_derivative(order)
    assert isinstance(derivative, PiecewisePolynomial)
    assert derivative.get_segment_times() == trajectory.get_segment_times()
    for t in np.concatenate([_interior_times(BREAKS, 3), BREAKS]):
        np.testing.assert_allclose(derivative.value(t), trajectory.eval_derivative(t, order),
                                   rtol=1e-13, atol=1e-13)
    if order == 4:
        np.testing.assert_array_equal(derivative.vector_values(DENSE_TIMES), 0.0)


def test_derivatives_agree_with_central_finite_differences():
    trajectory = PiecewisePolynomial.cubic_with_continuous_second_derivatives(BREAKS, SAMPLES)
    first, second = trajectory.make_derivative(1), trajectory.make_derivative(2)
    step = 1e-5
    for t in _interior_times(BREAKS, 4):
        difference = (trajectory.value(t + step) - trajectory.value(t - step)) / (2 * step)
        np.testing.assert_allclose(first.value(t), difference, rtol=0, atol=1e-8)
        difference2 = (first.value(t + step) - first.value(t - step)) / (2 * step)
        np.testing.assert_allclose(second.value(t), difference2, rtol=0, atol=1e-7)


def test_evaluation_clamps_time_to_the_span():
    trajectory = PiecewisePolynomial.cubic_hermite(BREAKS, SAMPLES, SAMPLES_DOT)
    np.testing.assert_array_equal(trajectory.value(-5.0), trajectory.value(BREAKS[0]))
    np.testing.assert_array_equal(trajectory.value(10.0), trajectory.value(BREAKS[-1]))
    # Derivatives are those of the end pieces at the clamped time (Drake), not zero.
    np.testing.assert_allclose(trajectory.eval_derivative(10.0)[:, 0], SAMPLES_DOT[:, -1],
                               atol=1e-12)
    np.testing.assert_allclose(trajectory.vector_values([-1.0, 4.0]), SAMPLES[:, [0, -1]],
                               rtol=0, atol=1e-14)
    assert trajectory.get_segment_index(-1.0) == 0
    assert trajectory.get_segment_index(BREAKS[2]) == 2
    assert trajectory.get_segment_index(BREAKS[-1]) == len(BREAKS) - 2
    assert trajectory.is_time_in_range(3.0) and not trajectory.is_time_in_range(3.0 + 1e-9)


# ---- matrix-valued trajectories --------------------------------------------------------------


def _matrix_samples():
    rng = np.random.default_rng(7)
    return [rng.normal(size=(2, 3)) for _ in BREAKS], [rng.normal(size=(2, 3)) for _ in BREAKS]


@pytest.mark.parametrize("name", ["first_order_hold", "cubic_shape_preserving",
                                  "cubic_with_continuous_second_derivatives", "cubic_hermite"])
def test_matrix_samples_match_entrywise_scalar_trajectories(name):
    samples, samples_dot = _matrix_samples()
    extra = (samples_dot,) if name == "cubic_hermite" else ()
    matrix_trajectory = getattr(PiecewisePolynomial, name)(BREAKS, samples, *extra)
    stacked = getattr(PiecewisePolynomial, name)(BREAKS, np.stack(samples),
                                                 *(np.stack(e) for e in extra))
    assert (matrix_trajectory.rows(), matrix_trajectory.cols()) == (2, 3)
    for i, t in enumerate(BREAKS):
        np.testing.assert_allclose(matrix_trajectory.value(t), samples[i], atol=1e-12)
    for r in range(2):
        for c in range(3):
            entry = np.array([s[r, c] for s in samples])[None, :]
            entry_extra = tuple(np.array([s[r, c] for s in e])[None, :] for e in extra)
            scalar = getattr(PiecewisePolynomial, name)(BREAKS, entry, *entry_extra)
            for t in _interior_times(BREAKS, 3):
                assert matrix_trajectory.value(t)[r, c] == pytest.approx(
                    scalar.value(t)[0, 0], abs=1e-12)
                assert matrix_trajectory.eval_derivative(t, 2)[r, c] == pytest.approx(
                    scalar.eval_derivative(t, 2)[0, 0], abs=1e-10)
    assert matrix_trajectory.is_approx(stacked, 0.0)


def test_vector_values_layout_follows_drake():
    row_trajectory = PiecewisePolynomial.first_order_hold(
        [0.0, 1.0], [np.array([[1.0, 2.0, 3.0]]), np.array([[3.0, 2.0, 1.0]])])
    values = row_trajectory.vector_values([0.0, 0.5, 1.0])
    np.testing.assert_allclose(values, [[1, 2, 3], [2, 2, 2], [3, 2, 1]])  # (n, cols)
    column = PiecewisePolynomial.first_order_hold(BREAKS, SAMPLES)
    assert column.vector_values(DENSE_TIMES).shape == (3, len(DENSE_TIMES))
    np.testing.assert_array_equal(column.vector_values(DENSE_TIMES)[:, 17],
                                  column.value(DENSE_TIMES[17])[:, 0])
    assert column.vector_values([]).shape == (3, 0)


# ---- constant, empty, editing, calculus, arithmetic --------------------------------------------


def test_constant_trajectory_is_defined_for_all_time():
    value = np.array([[1.0, -2.0], [3.0, 0.5]])
    trajectory = PiecewisePolynomial(value)
    assert trajectory.start_time() == -np.inf and trajectory.end_time() == np.inf
    for t in (-1e12, 0.0, 7.5, 1e12):
        np.testing.assert_array_equal(trajectory.value(t), value)
        np.testing.assert_array_equal(trajectory.eval_derivative(t, 1), np.zeros((2, 2)))
    np.testing.assert_array_equal(PiecewisePolynomial(np.array([1.0, 2.0])).value(0.0),
                                  [[1.0], [2.0]])


def test_empty_trajectory():
    trajectory = PiecewisePolynomial()
    assert trajectory.empty() and trajectory.get_number_of_segments() == 0
    with pytest.raises(RuntimeError, match="rows: PiecewisePolynomial is empty"):
        trajectory.rows()
    with pytest.raises(RuntimeError, match="value: PiecewisePolynomial is empty"):
        trajectory.value(0.0)
    other = PiecewisePolynomial.first_order_hold([0.0, 1.0], [[0.0, 2.0]])
    trajectory.concatenate_in_time(other)
    assert trajectory.value(0.5)[0, 0] == pytest.approx(1.0)


def test_integral_is_the_antiderivative():
    trajectory = PiecewisePolynomial.first_order_hold(BREAKS, SAMPLES)
    integral = trajectory.integral(np.array([1.0, 0.0, -1.0]))
    # Trapezoid rule is exact for piecewise-linear integrands.
    expected = np.array([1.0, 0.0, -1.0]) + np.trapezoid(SAMPLES, BREAKS, axis=1)
    np.testing.assert_allclose(integral.value(BREAKS[-1])[:, 0], expected, atol=1e-13)
    back = integral.make_derivative(1)
    np.testing.assert_allclose(back.vector_values(DENSE_TIMES),
                               trajectory.vector_values(DENSE_TIMES), atol=1e-13)
    for i in range(1, len(BREAKS) - 1):  # the integral is continuous
        left = _segment_derivative(integral, i - 1, BREAKS[i] - BREAKS[i - 1], 0)
        np.testing.assert_allclose(left, integral.value(BREAKS[i]), atol=1e-13)


def test_time_shift_scale_and_reversal():
    original = PiecewisePolynomial.cubic_hermite(BREAKS, SAMPLES, SAMPLES_DOT)
    times = _interior_times(BREAKS, 3)
    shifted = original.clone()
    shifted.shift_right(2.5)
    np.testing.assert_allclose(shifted.vector_values(times + 2.5), original.vector_values(times),
                               atol=1e-12)
    scaled = original.clone()
    scaled.scale_time(2.0)
    np.testing.assert_allclose(scaled.vector_values(2.0 * times), original.vector_values(times),
                               atol=1e-12)
    np.testing.assert_allclose(scaled.eval_derivative(2.0 * times[4]),
                               0.5 * original.eval_derivative(times[4]), atol=1e-12)
    reversed_ = original.clone()
    reversed_.reverse_time()
    assert reversed_.start_time() == -3.0 and reversed_.end_time() == 0.0
    np.testing.assert_allclose(reversed_.vector_values(-times), original.vector_values(times),
                               atol=1e-12)
    np.testing.assert_allclose(original.value(1.0), PiecewisePolynomial.cubic_hermite(
        BREAKS, SAMPLES, SAMPLES_DOT).value(1.0))  # clone left the original untouched


def test_append_concatenate_slice_and_remove_segments():
    trajectory = PiecewisePolynomial.zero_order_hold([0.0, 1.0], [[2.0, 7.0]])
    trajectory.append_first_order_segment(3.0, [[6.0]])
    assert trajectory.value(2.0)[0, 0] == pytest.approx(4.0)
    trajectory.append_cubic_hermite_segment(4.0, [[0.0]], [[1.0]])
    assert trajectory.get_segment_times() == [0.0, 1.0, 3.0, 4.0]
    assert trajectory.get_coefficients().shape == (3, 4, 1, 1)
    assert trajectory.eval_derivative(3.0)[0, 0] == pytest.approx(2.0)  # start slope of linear
    assert trajectory.value(4.0)[0, 0] == pytest.approx(0.0, abs=1e-14)
    assert trajectory.eval_derivative(4.0)[0, 0] == pytest.approx(1.0)
    tail = PiecewisePolynomial.first_order_hold([4.0, 5.0], [[0.0, 10.0]])
    trajectory.concatenate_in_time(tail)
    assert trajectory.value(4.5)[0, 0] == pytest.approx(5.0)
    middle = trajectory.slice(1, 2)
    assert middle.get_segment_times() == [1.0, 3.0, 4.0]
    assert middle.value(2.0)[0, 0] == pytest.approx(4.0)
    trajectory.remove_final_segment()
    assert trajectory.end_time() == 4.0 and trajectory.get_number_of_segments() == 3


def test_arithmetic():
    a = PiecewisePolynomial.cubic_hermite(BREAKS, SAMPLES, SAMPLES_DOT)
    b = PiecewisePolynomial.first_order_hold(BREAKS, 2.0 * SAMPLES)
    t = 1.3
    np.testing.assert_allclose((a + b).value(t), a.value(t) + b.value(t), atol=1e-13)
    np.testing.assert_allclose((a - b).value(t), a.value(t) - b.value(t), atol=1e-13)
    np.testing.assert_allclose((-a).value(t), -a.value(t))
    np.testing.assert_allclose((3.0 * a).value(t), 3.0 * a.value(t), atol=1e-13)
    offset = np.array([[1.0], [2.0], [3.0]])
    np.testing.assert_allclose((a + offset).value(t), a.value(t) + offset, atol=1e-13)
    np.testing.assert_allclose((offset - a).value(t), offset - a.value(t), atol=1e-13)
    shifted = PiecewisePolynomial.first_order_hold(BREAKS + 0.1, SAMPLES)
    with pytest.raises(ValueError, match="segment times are not equal"):
        a + shifted


def test_pickle_round_trip_preserves_values():
    trajectory = PiecewisePolynomial.cubic_shape_preserving(BREAKS, SAMPLES)
    trajectory.eval_derivative(1.0, 2)  # populate the derivative cache
    restored = pickle.loads(pickle.dumps(trajectory))
    np.testing.assert_array_equal(restored.vector_values(DENSE_TIMES),
                                  trajectory.vector_values(DENSE_TIMES))


# ---- errors ---------------------------------------------------------------------------------


def test_unsorted_breaks_are_rejected_naming_the_index():
    with pytest.raises(ValueError, match=r"first_order_hold: breaks must be strictly "
                                         r"increasing, but breaks\[3\] = 1.0 <= breaks\[2\]"):
        PiecewisePolynomial.first_order_hold([0.0, 1.0, 2.0, 1.0], [[0.0, 1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match=r"breaks\[1\] = 0.0 <= breaks\[0\] = 0.0"):
        PiecewisePolynomial.cubic_hermite([0.0, 0.0], [[0.0, 1.0]], [[0.0, 1.0]])


def test_size_mismatches_are_rejected():
    with pytest.raises(ValueError, match="number of break points 3 does not match number "
                                         "of samples 4"):
        PiecewisePolynomial.zero_order_hold([0.0, 1.0, 2.0], np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"samples\[1\] has shape \(2, 2\) but samples\[0\] "
                                         r"has shape \(2, 3\)"):
        PiecewisePolynomial.first_order_hold([0.0, 1.0], [np.zeros((2, 3)), np.zeros((2, 2))])
    with pytest.raises(ValueError, match="cubic_hermite: samples_dot has 2 samples but "
                                         "samples has 3"):
        PiecewisePolynomial.cubic_hermite([0.0, 1.0, 2.0], np.zeros((2, 3)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"cubic_hermite: samples_dot entries have shape "
                                         r"\(1, 1\) but samples entries have shape \(2, 1\)"):
        PiecewisePolynomial.cubic_hermite([0.0, 1.0], np.zeros((2, 2)), np.zeros((1, 2)))
    with pytest.raises(ValueError, match=r"sample_dot_at_start has shape \(2, 1\), "
                                         r"expected \(3, 1\)"):
        PiecewisePolynomial.cubic_with_continuous_second_derivatives(
            BREAKS, SAMPLES, np.zeros(2), np.zeros(3))
    with pytest.raises(ValueError, match="must be given together, but sample_dot_at_end is "
                                         "None"):
        PiecewisePolynomial.cubic_with_continuous_second_derivatives(BREAKS, SAMPLES,
                                                                     np.zeros(3))


@pytest.mark.parametrize("call, required", [
    (lambda: PiecewisePolynomial.zero_order_hold([0.0], [[1.0]]), 2),
    (lambda: PiecewisePolynomial.first_order_hold([0.0], [[1.0]]), 2),
    (lambda: PiecewisePolynomial.cubic_shape_preserving([0.0, 1.0], [[1.0, 2.0]]), 3),
    (lambda: PiecewisePolynomial.cubic_shape_preserving([0.0], [[1.0]], True), 2),
    (lambda: PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        [0.0, 1.0], [[1.0, 2.0]]), 3),
    (lambda: PiecewisePolynomial.cubic_with_continuous_second_derivatives(
        [0.0], [[1.0]], [[0.0]], [[0.0]]), 2),
    (lambda: PiecewisePolynomial.cubic_hermite([0.0], [[1.0]], [[0.0]]), 2),
])
def test_too_few_breaks_are_rejected(call, required):
    with pytest.raises(ValueError, match=rf"samples is not enough samples \(this method "
                                         rf"requires at least {required}\)"):
        call()


def test_bad_arguments_are_rejected():
    trajectory = PiecewisePolynomial.first_order_hold(BREAKS, SAMPLES)
    with pytest.raises(ValueError, match="eval_derivative: derivative_order must be >= 0, "
                                         "got -1"):
        trajectory.eval_derivative(0.5, -1)
    with pytest.raises(ValueError, match="make_derivative: derivative_order must be >= 0"):
        trajectory.make_derivative(-2)
    with pytest.raises(TypeError, match=r"value: t must be a scalar time in seconds, got an "
                                        r"array of shape \(2,\)"):
        trajectory.value(np.array([0.1, 0.2]))
    with pytest.raises(ValueError, match="value: t must be a time in seconds, got NaN"):
        trajectory.value(float("nan"))
    matrix = PiecewisePolynomial.zero_order_hold([0.0, 1.0], np.zeros((2, 2, 3)))
    with pytest.raises(ValueError, match="vector_values: this method only supports "
                                         "vector-valued trajectories"):
        matrix.vector_values([0.0])
    with pytest.raises(ValueError, match=r"breaks\[1\] = inf is not finite"):
        PiecewisePolynomial.first_order_hold([0.0, np.inf], [[0.0, 1.0]])
    with pytest.raises(ValueError, match=r"start_time: segment_index 5 out of range \[0, 5\)"):
        trajectory.start_time(5)
    with pytest.raises(ValueError, match="append_first_order_segment: time 2.0 must be "
                                         "greater than end_time"):
        trajectory.append_first_order_segment(2.0, np.zeros((3, 1)))
    with pytest.raises(ValueError, match="scale_time: scale must be finite and > 0"):
        trajectory.scale_time(0.0)


def test_from_coefficients_uses_local_time_and_is_read_only():
    # Segment 1 is 1 + 2 tau^2 with tau = t - 2.
    coefficients = np.zeros((2, 3, 1, 1))
    coefficients[0, :, 0, 0] = [0.0, 1.0, 0.0]
    coefficients[1, :, 0, 0] = [1.0, 0.0, 2.0]
    trajectory = PiecewisePolynomial.from_coefficients([1.0, 2.0, 4.0], coefficients)
    assert trajectory.value(3.5)[0, 0] == pytest.approx(1.0 + 2.0 * 1.5**2)
    assert trajectory.eval_derivative(3.5, 2)[0, 0] == pytest.approx(4.0)
    with pytest.raises(ValueError, match="read-only"):
        trajectory.get_coefficients()[0, 0, 0, 0] = 5.0
    with pytest.raises(ValueError, match="from_coefficients: 2 breaks given for 2 segments"):
        PiecewisePolynomial.from_coefficients([1.0, 2.0], coefficients)


def test_block_transpose_and_column_major_reshape():
    breaks = [0.0, 1.0, 2.0]
    samples = [np.arange(6.0).reshape(2, 3) + 10.0 * k for k in range(3)]
    pp = PiecewisePolynomial.first_order_hold(breaks, samples)
    t = 0.5
    value = pp.value(t)                                        # (2, 3)
    np.testing.assert_array_equal(pp.block(0, 1, 2, 2).value(t), value[:, 1:3])
    np.testing.assert_array_equal(pp.transpose().value(1.5), pp.value(1.5).T)
    with pytest.raises(ValueError, match=r"does not lie inside the \(2, 3\) value"):
        pp.block(1, 1, 2, 2)
    pp.reshape(3, 2)
    # Eigen's resize keeps the column-major order of the entries
    np.testing.assert_array_equal(pp.value(t),
                                  value.reshape(-1, order="F").reshape(3, 2, order="F"))
    assert (pp.rows(), pp.cols()) == (3, 2)
    with pytest.raises(ValueError, match="does not hold the 3 x 2 = 6 entries"):
        pp.reshape(4, 2)
