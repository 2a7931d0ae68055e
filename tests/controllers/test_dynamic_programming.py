"""Linear-programming approximate dynamic programming against closed forms."""

import math

import numpy as np
import pytest

from merganser.controllers import (DynamicProgrammingOptions, PeriodicBoundaryCondition,
                                   linear_programming_approximate_dynamic_programming)
from merganser.framework import Integrator, LinearSystem, Simulator


def test_discounted_quadratic_cost_to_go_of_a_stable_system():
    # x' = -x, cost x², J(x) = θ x²: the largest θ with θx² <= h x² + γ θ (x e^-h)² is
    # θ = h / (1 - γ e^(-2h))
    h, gamma = 0.2, 0.9
    system = LinearSystem(A=[[-1.0]], B=[[0.0]], C=[[1.0]], D=[[0.0]])
    simulator = Simulator(system)
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    options = DynamicProgrammingOptions()
    options.discount_factor = gamma
    theta = linear_programming_approximate_dynamic_programming(
        simulator, lambda ctx: ctx.get_continuous_state_vector()[0] ** 2,
        lambda x, p: p[0] * x[0] ** 2, 1, np.array([[-2.0, -1.0, 0.5, 3.0]]),
        np.array([[0.0]]), h, options)
    assert theta[0] == pytest.approx(h / (1.0 - gamma * math.exp(-2.0 * h)), rel=1e-6)


def test_minimum_time_integrator_reaches_drakes_solution():
    simulator = Simulator(Integrator(1))
    theta = linear_programming_approximate_dynamic_programming(
        simulator,
        lambda ctx: 1.0 if abs(ctx.get_continuous_state_vector()[0]) > 0.1 else 0.0,
        lambda x, p: p[0] * abs(x[0]), 1, np.array([np.arange(-4.0, 5.0)]),
        np.array([[-1.0, 0.0, 1.0]]), 1.0, DynamicProgrammingOptions())
    assert theta[0] == pytest.approx(1.0, abs=1e-6)


def test_periodic_boundary_condition_wraps_and_options_default_as_drake():
    b = PeriodicBoundaryCondition(state_index=0, low=0.0, high=2.0 * math.pi)
    assert b.wrap(2.5 * math.pi) == pytest.approx(0.5 * math.pi)
    assert b.wrap(-0.5 * math.pi) == pytest.approx(1.5 * math.pi)
    assert DynamicProgrammingOptions.PeriodicBoundaryCondition is PeriodicBoundaryCondition
    options = DynamicProgrammingOptions()
    assert (options.discount_factor, options.convergence_tol) == (1.0, 1e-4)
    with pytest.raises(ValueError):
        PeriodicBoundaryCondition(0, 1.0, 1.0)


def test_nonlinear_parameterization_and_bad_sizes_are_rejected():
    simulator = Simulator(Integrator(1))
    with pytest.raises(ValueError, match="not linear"):
        linear_programming_approximate_dynamic_programming(
            simulator, lambda ctx: 1.0, lambda x, p: p[0] ** 2, 1, [[1.0]], [[0.0]], 0.1)
    with pytest.raises(ValueError, match="continuous state"):
        linear_programming_approximate_dynamic_programming(
            simulator, lambda ctx: 1.0, lambda x, p: p[0], 1, [[1.0], [2.0]], [[0.0]], 0.1)
    options = DynamicProgrammingOptions()
    options.discount_factor = 1.5
    with pytest.raises(ValueError, match="discount_factor"):
        linear_programming_approximate_dynamic_programming(
            simulator, lambda ctx: 1.0, lambda x, p: p[0], 1, [[1.0]], [[0.0]], 0.1, options)


def test_fitted_value_iteration_minimum_time_on_a_grid_the_dynamics_map_onto():
    # x' = u, u in {-1, 0, 1}, h = 1: grid points map onto grid points, and the cost
    # 1 per step away from 0 gives J(x) = |x| with the policy -sign(x)
    from merganser.controllers import fitted_value_iteration
    simulator = Simulator(Integrator(1))
    calls = []
    options = DynamicProgrammingOptions()
    options.visualization_callback = lambda it, mesh, J, pi: calls.append(it)
    policy, J = fitted_value_iteration(
        simulator, lambda ctx: 1.0 if abs(ctx.get_continuous_state_vector()[0]) > 0.1 else 0.0,
        [set(np.arange(-4.0, 5.0))], [{-1.0, 0.0, 1.0}], 1.0, options)
    np.testing.assert_allclose(J, np.abs(np.arange(-4.0, 5.0)), atol=1e-9)
    assert calls[-1] == len(calls) and len(calls) >= 5
    ctx = policy.create_default_context()
    for x, u in ((-3.0, 1.0), (2.0, -1.0), (0.0, 0.0), (2.5, -1.0)):
        policy.get_input_port().fix_value(ctx, [x])
        assert policy.get_output_port().eval(ctx)[0] == pytest.approx(u)


def test_fitted_value_iteration_checks_its_arguments():
    from merganser.controllers import fitted_value_iteration
    simulator = Simulator(Integrator(1))
    with pytest.raises(ValueError, match="continuous state"):
        fitted_value_iteration(simulator, lambda ctx: 0.0, [{0.0, 1.0}, {0.0}], [{0.0}], 0.1)
    with pytest.raises(ValueError, match="input port"):
        fitted_value_iteration(simulator, lambda ctx: 0.0, [{0.0, 1.0}], [{0.0}, {1.0}], 0.1)
    options = DynamicProgrammingOptions()
    options.periodic_boundary_conditions = [PeriodicBoundaryCondition(0, -5.0, 5.0)]
    with pytest.raises(ValueError, match="periodic"):
        fitted_value_iteration(simulator, lambda ctx: 0.0, [{0.0, 1.0}], [{0.0}], 0.1, options)
