"""BsplineBasis (Drake's math::BsplineBasis): knots, intervals, evaluation against closed
forms and scipy's B-splines, errors, copies and pickling."""

import math
import pickle

import numpy as np
import pytest
from scipy.interpolate import BSpline

from merganser.framework import BsplineBasis, KnotVectorType


def test_uniform_knots_and_intervals_follow_drakes_construction():
    basis = BsplineBasis(order=2, num_basis_functions=3, type=KnotVectorType.kUniform,
                         initial_parameter_value=5.0, final_parameter_value=6.0)
    assert (basis.order(), basis.degree(), basis.num_basis_functions()) == (2, 1, 3)
    np.testing.assert_array_equal(basis.knots(), [4.5, 5.0, 5.5, 6.0, 6.5])
    assert (basis.initial_parameter_value(), basis.final_parameter_value()) == (5.0, 6.0)
    assert basis.find_containing_interval(parameter_value=5.2) == 1
    assert basis.find_containing_interval(5.5) == 2
    assert basis.find_containing_interval(6.0) == 2          # the last interval ending there
    assert basis.compute_active_basis_function_indices(parameter_interval=[5.2, 5.7]) == [0, 1, 2]
    assert basis.compute_active_basis_function_indices(parameter_value=5.4) == [0, 1]


def test_clamped_uniform_is_the_default_and_repeats_the_end_knots():
    basis = BsplineBasis(4, 6)
    np.testing.assert_allclose(basis.knots(), [0, 0, 0, 0, 1 / 3, 2 / 3, 1, 1, 1, 1],
                               rtol=0, atol=1e-15)
    # clamped: the final parameter value sits among repeated knots; its interval is the
    # last non-empty one
    assert basis.find_containing_interval(1.0) == 5
    assert basis.compute_active_basis_function_indices(parameter_value=1.0) == [2, 3, 4, 5]


def test_one_segment_clamped_basis_is_bernstein():
    k = 4
    basis = BsplineBasis(order=k, knots=[0.0] * k + [1.0] * k)
    for t in (0.0, 0.2, 0.5, 0.9, 1.0):
        values = basis.evaluate_linear_in_control_points(t)
        bernstein = [math.comb(k - 1, i) * t**i * (1 - t)**(k - 1 - i) for i in range(k)]
        np.testing.assert_allclose(values, bernstein, rtol=0, atol=1e-15)


@pytest.mark.parametrize("order", [1, 2, 3, 5])
def test_curve_equals_scipys_bspline_and_the_basis_sums_to_one(order):
    rng = np.random.default_rng(order)
    knots = np.sort(rng.uniform(-1.0, 2.0, 2 * order + 4))
    knots[order + 1] = knots[order + 2]                 # a repeated interior knot
    basis = BsplineBasis(order, knots)
    n = basis.num_basis_functions()
    control_points = rng.normal(size=(n, 3))
    reference = BSpline(knots, control_points, order - 1, extrapolate=False)
    for t in np.linspace(basis.initial_parameter_value(), basis.final_parameter_value(), 41):
        value = basis.evaluate_curve(list(control_points), t)
        if t < basis.final_parameter_value():      # scipy's intervals are half-open
            np.testing.assert_allclose(value, reference(t), rtol=0, atol=1e-12)
        weights = basis.evaluate_linear_in_control_points(t)
        assert weights.shape == (n,)
        assert abs(weights.sum() - 1.0) < 1e-13
        assert np.all(weights >= -1e-15)
        np.testing.assert_allclose(weights @ control_points, value, rtol=0, atol=1e-12)
        active = basis.compute_active_basis_function_indices(parameter_value=t)
        inactive = np.setdiff1d(np.arange(n), active)
        assert np.all(weights[inactive] == 0.0)
        i = active[0]
        assert basis.evaluate_basis_function_i(i=i, parameter_value=t) == weights[i]


def test_order_two_curve_interpolates_linearly_between_control_points():
    basis = BsplineBasis(2, [0.0, 0.0, 1.0, 3.0, 3.0])
    value = basis.evaluate_curve(control_points=[[1, 2], [2, 3], [5, 4]], parameter_value=2.0)
    np.testing.assert_allclose(value, [3.5, 3.5])        # halfway between (2, 3) and (5, 4)
    assert value.shape == (2,)


def test_default_copy_equality_and_pickle():
    assert BsplineBasis().order() == 0
    basis = BsplineBasis(order=2, knots=[0, 1, 3, 5])
    copy = BsplineBasis(other=basis)
    assert copy == basis and not copy != basis
    assert basis != BsplineBasis(order=2, knots=[0, 1, 3, 6])
    assert basis != BsplineBasis(order=1, knots=[0, 1, 3, 5])
    restored = pickle.loads(pickle.dumps(basis))
    assert restored == basis
    np.testing.assert_array_equal(restored.knots(), [0, 1, 3, 5])
    knots = basis.knots()
    knots[0] = 99.0                                     # the knots returned are a copy
    assert basis.knots()[0] == 0.0


def test_bad_input_is_refused_naming_the_argument():
    with pytest.raises(ValueError, match="at least 2 \\* order = 4"):
        BsplineBasis(2, [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="non-decreasing"):
        BsplineBasis(2, [0.0, 2.0, 1.0, 3.0])
    with pytest.raises(ValueError, match="num_basis_functions must be at least order"):
        BsplineBasis(order=3, num_basis_functions=2)
    with pytest.raises(ValueError, match="must not exceed"):
        BsplineBasis(2, 3, initial_parameter_value=1.0, final_parameter_value=0.0)
    with pytest.raises(ValueError, match="order must be a positive integer"):
        BsplineBasis(0, [0.0, 1.0])
    basis = BsplineBasis(order=2, knots=[0, 1, 3, 5])
    with pytest.raises(ValueError, match="evaluate_curve: parameter_value must lie in "
                                         "\\[1.0, 3.0\\], got 4.0"):
        basis.evaluate_curve([[0.0], [1.0]], 4.0)
    with pytest.raises(ValueError, match="control_points needs num_basis_functions\\(\\) = 2"):
        basis.evaluate_curve([[0.0], [1.0], [2.0]], 2.0)
    with pytest.raises(ValueError, match="parameter_interval must be increasing"):
        basis.compute_active_basis_function_indices(parameter_interval=[2.5, 1.5])
    with pytest.raises(ValueError, match="i must be an index in \\[0, 2\\)"):
        basis.evaluate_basis_function_i(i=2, parameter_value=2.0)
