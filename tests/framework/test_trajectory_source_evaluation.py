"""TrajectorySource on a PiecewisePolynomial: the one-pass evaluation of the value and its
derivatives gives exactly the numbers of the trajectory's own evaluation."""

import numpy as np
import pytest

from merganser.framework.primitives import TrajectorySource
from merganser.framework.trajectories import PiecewisePolynomial


@pytest.mark.parametrize("zero_beyond", [True, False])
def test_trajectory_source_equals_value_and_eval_derivative_bit_for_bit(zero_beyond):
    # The one-pass evaluation of a PiecewisePolynomial must give exactly the numbers of
    # value(t) and eval_derivative(t, k), before, inside, at the breaks of and after the range.
    t = np.linspace(0.0, 2.0, 9)
    samples = np.vstack([np.sin(3.0 * t), np.cos(2.0 * t), t ** 3])
    traj = PiecewisePolynomial.cubic_with_continuous_second_derivatives(t, samples)
    src = TrajectorySource(traj, output_derivative_order=4,
                           zero_derivatives_beyond_limits=zero_beyond)
    ctx = src.create_default_context()
    for time in np.concatenate([[-0.5, 0.0, 0.1234, 1.999, 2.0, 3.5], t]):
        ctx.set_time(time)
        y = src.get_output_port().eval(ctx)
        outside = time < 0.0 or time > 2.0
        expected = [traj.value(time).ravel()] + [
            np.zeros(3) if zero_beyond and outside else traj.eval_derivative(time, k).ravel()
            for k in range(1, 5)]
        np.testing.assert_array_equal(y, np.concatenate(expected))
    assert not np.any(y[3:9] == 0.0)          # the derivatives at t = 2 are not trivially zero


def test_trajectory_source_update_trajectory_switches_the_evaluation():
    first = PiecewisePolynomial.first_order_hold([0.0, 1.0], np.array([[0.0, 2.0]]))
    second = PiecewisePolynomial.first_order_hold([0.0, 1.0], np.array([[1.0, -1.0]]))
    src = TrajectorySource(first, output_derivative_order=1)
    ctx = src.create_default_context()
    ctx.set_time(0.25)
    np.testing.assert_allclose(src.get_output_port().eval(ctx), [0.5, 2.0], rtol=1e-15)
    src.update_trajectory(second)
    ctx.set_time(0.5)
    np.testing.assert_allclose(src.get_output_port().eval(ctx), [0.0, -2.0], atol=1e-15)


def test_trajectory_source_reevaluation_at_the_same_time():
    # An evaluation at the time of the previous one reuses the stored numbers; a changed
    # trajectory or another context's evaluation in between must not leak into it.
    first = PiecewisePolynomial.first_order_hold([0.0, 1.0], np.array([[0.0, 2.0]]))
    second = PiecewisePolynomial.first_order_hold([0.0, 1.0], np.array([[1.0, -1.0]]))
    src = TrajectorySource(first, output_derivative_order=1)
    a, b = src.create_default_context(), src.create_default_context()
    port = src.get_output_port()
    a.set_time(0.25)
    b.set_time(0.75)
    np.testing.assert_allclose(port.eval(a), [0.5, 2.0], rtol=1e-15)
    np.testing.assert_allclose(port.eval(b), [1.5, 2.0], rtol=1e-15)
    a.set_time(0.25)                                   # invalidates, same time
    np.testing.assert_allclose(port.eval(a), [0.5, 2.0], rtol=1e-15)
    src.update_trajectory(second)
    a.set_time(0.25)
    np.testing.assert_allclose(port.eval(a), [0.5, -2.0], rtol=1e-15)
    a.set_time(1.5)                                    # beyond the end: derivative zeroed
    np.testing.assert_allclose(port.eval(a), [-1.0, 0.0], atol=1e-15)
    a.set_time(1.5)
    np.testing.assert_allclose(port.eval(a), [-1.0, 0.0], atol=1e-15)
