"""Integrators: analytic solutions, step semantics, evaluation counts, errors."""

import math

import numpy as np
import pytest
from fake_system import FakeSystem, exponential_decay, mass_spring_damper
from scipy.linalg import expm

from merganser.framework.errors import SimulationError
from merganser.framework.integrators import (INTEGRATION_SCHEMES, BogackiShampine3Integrator,
                                   ExplicitEulerIntegrator, ImplicitEulerIntegrator,
                                   Radau3Integrator, RungeKutta2Integrator,
                                   RungeKutta3Integrator, RungeKutta5Integrator,
                                   RungeKuttaIntegrator, StepResult,
                                   VelocityImplicitEulerIntegrator, make_integrator)

FIXED_STEP = ("explicit_euler", "semi_explicit_euler", "runge_kutta2")
ERROR_CONTROLLED = tuple(s for s in INTEGRATION_SCHEMES if s not in FIXED_STEP)
# Global error bounds: fixed-step schemes with h = 1e-3 (error ~ C h^p), error-controlled
# schemes at accuracy 1e-6 (order >= 3: a small multiple of the accuracy; first-order
# schemes: local error ~ h^2 <= tol gives a global error ~ sqrt(tol)).
FIXED_H = 1e-3
ACCURACY = 1e-6
BOUND = {"explicit_euler": 2e-3, "semi_explicit_euler": 2e-3, "runge_kutta2": 2e-6,
         "runge_kutta3": 2e-5, "runge_kutta5": 2e-5, "bogacki_shampine3": 5e-5,
         "radau3": 2e-5, "implicit_euler": 3e-2, "radau1": 3e-2, "velocity_implicit_euler": 3e-2}


def make(name, system, context, h=FIXED_H, accuracy=ACCURACY, max_step=0.1):
    integrator = make_integrator(name, system, context, h if name in FIXED_STEP else max_step)
    if integrator.supports_error_estimation():
        integrator.set_target_accuracy(accuracy)
    return integrator


# ---- analytic solutions -------------------------------------------------------------------

@pytest.mark.parametrize("name", INTEGRATION_SCHEMES)
def test_exponential_decay_matches_closed_form(name):
    system, exact = exponential_decay(rate=1.5)
    context = system.create_default_context([2.0])
    integrator = make(name, system, context)
    integrator.integrate_with_multiple_steps_to_time(2.0)
    assert context.get_time() == 2.0
    error = abs(context.get_continuous_state_vector()[0] - exact(2.0, 2.0))
    assert error < BOUND[name]


@pytest.mark.parametrize("name", INTEGRATION_SCHEMES)
def test_mass_spring_damper_matches_closed_form(name):
    system, exact = mass_spring_damper(m=1.0, k=4.0, c=0.4)
    context = system.create_default_context([1.0, 0.0])
    integrator = make(name, system, context)
    integrator.integrate_with_multiple_steps_to_time(5.0)
    error = np.max(np.abs(context.get_continuous_state_vector() - exact(5.0)))
    assert error < 5.0 * BOUND[name]


@pytest.mark.parametrize("name", INTEGRATION_SCHEMES)
def test_linear_system_step_response_matches_matrix_exponential(name):
    # x' = A x + B u, u = 1 from x = 0: x(t) = A^-1 (e^{At} - I) B.
    A = np.array([[0.0, 1.0], [-2.0, -3.0]])
    B = np.array([0.0, 1.0])
    system = FakeSystem(lambda t, x: A @ x + B, nq=1, nv=1, nz=0)
    context = system.create_default_context([0.0, 0.0])
    integrator = make(name, system, context)
    integrator.integrate_with_multiple_steps_to_time(3.0)
    exact = np.linalg.solve(A, (expm(3.0 * A) - np.eye(2)) @ B)
    error = np.max(np.abs(context.get_continuous_state_vector() - exact))
    assert error < BOUND[name]


def test_one_step_amplification_factors_on_linear_decay():
    # x' = lam x: RK3 -> 1 + z + z^2/2 + z^3/6, implicit Euler -> 1/(1-z),
    # Radau IIA(2) -> (1 + z/3) / (1 - 2z/3 + z^2/6), z = lam h.
    lam, h = -3.0, 0.2
    z = lam * h
    expected = {
        RungeKutta3Integrator: 1 + z + z**2 / 2 + z**3 / 6,
        ImplicitEulerIntegrator: 1 / (1 - z),
        VelocityImplicitEulerIntegrator: 1 / (1 - z),
        Radau3Integrator: (1 + z / 3) / (1 - 2 * z / 3 + z**2 / 6),
    }
    for cls, factor in expected.items():
        system = FakeSystem(lambda t, x: lam * x, nz=1)
        context = system.create_default_context([1.0])
        integrator = cls(system, max_step_size=h, context=context)
        integrator.set_target_accuracy(1e-12)
        assert integrator.integrate_with_single_fixed_step_to_time(h)
        assert context.get_continuous_state_vector()[0] == pytest.approx(factor, rel=1e-10)


def test_runge_kutta3_error_estimate_is_the_embedded_midpoint_difference():
    # On x' = lam x the embedded explicit midpoint gives 1 + z + z^2/2, so the error
    # estimate of one step from x0 = 1 is z^3 / 6.
    lam, h = -2.0, 0.05
    system = FakeSystem(lambda t, x: lam * x, nz=1)
    context = system.create_default_context([1.0])
    integrator = RungeKutta3Integrator(system, max_step_size=h, context=context)
    integrator.set_target_accuracy(1.0e-2)
    integrator.request_initial_step_size_target(h)    # (by default h / 10, as Drake)
    integrator.integrate_no_further_than_time(h, h, h)
    assert integrator.get_error_estimate()[0] == pytest.approx((lam * h) ** 3 / 6, rel=1e-12)


def test_velocity_implicit_euler_step_on_mass_spring_damper():
    # v1 = v0 + h (-k q1 - c v1) / m, q1 = q0 + h v1: a 2x2 linear solve.
    k, c, h = 4.0, 0.4, 0.1
    system, _ = mass_spring_damper(k=k, c=c)
    context = system.create_default_context([1.0, 0.5])
    integrator = VelocityImplicitEulerIntegrator(system, max_step_size=h, context=context)
    integrator.set_target_accuracy(1e-12)
    assert integrator.integrate_with_single_fixed_step_to_time(h)
    v1 = (0.5 - h * k * 1.0) / (1 + h * c + h * h * k)
    np.testing.assert_allclose(context.get_continuous_state_vector(), [1.0 + h * v1, v1],
                               rtol=1e-10)


def test_semi_explicit_euler_keeps_oscillator_energy_bounded_explicit_euler_does_not():
    # Undamped oscillator (k = 4) over ~32 periods with h = 0.01: symplectic Euler's energy
    # stays within O(h w) of E0; explicit Euler's grows by (1 + h^2 w^2)^N.
    w2, h, T = 4.0, 0.01, 100.0
    energies = {}
    for name in ("semi_explicit_euler", "explicit_euler"):
        system = FakeSystem(lambda t, x: np.array([x[1], -w2 * x[0]]), nq=1, nv=1, nz=0)
        context = system.create_default_context([1.0, 0.0])
        make_integrator(name, system, context, h).integrate_with_multiple_steps_to_time(T)
        q, v = context.get_continuous_state_vector()
        energies[name] = 0.5 * v * v + 0.5 * w2 * q * q
    e0 = 0.5 * w2
    assert abs(energies["semi_explicit_euler"] - e0) < h * math.sqrt(w2) * e0
    assert energies["explicit_euler"] == pytest.approx(e0 * (1 + h * h * w2) ** round(T / h),
                                                       rel=1e-6)


# ---- tableaus --------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [ExplicitEulerIntegrator, RungeKutta2Integrator,
                                 RungeKutta3Integrator, RungeKutta5Integrator,
                                 BogackiShampine3Integrator])
def test_tableau_rows_sum_to_nodes_and_weights_to_one(cls):
    assert issubclass(cls, RungeKuttaIntegrator)
    for c_i, row in zip(cls.tableau_c, cls.tableau_a):
        assert sum(row) == pytest.approx(c_i, abs=1e-14)
    assert sum(cls.tableau_b) == pytest.approx(1.0, abs=1e-14)
    if cls.tableau_b_hat is not None:
        assert sum(cls.tableau_b_hat) == pytest.approx(1.0, abs=1e-14)
    if cls.fsal:
        assert tuple(cls.tableau_a[-1]) + (0.0,) == pytest.approx(cls.tableau_b)


# ---- step semantics ----------------------------------------------------------------------------

def decay_integrator(name="runge_kutta2", h=0.1):
    system, _ = exponential_decay()
    context = system.create_default_context([1.0])
    return make_integrator(name, system, context, h), context


def test_step_is_limited_by_max_step_size_and_reports_time_has_advanced():
    integrator, context = decay_integrator()
    assert integrator.integrate_no_further_than_time(0.3, 0.5, 1.0) == \
        StepResult.TIME_HAS_ADVANCED
    assert context.get_time() == pytest.approx(0.1, abs=1e-15)
    assert integrator.get_num_steps_taken() == 1


def test_step_lands_exactly_on_the_earliest_event():
    integrator, context = decay_integrator()
    assert integrator.integrate_no_further_than_time(0.05, 0.5, 1.0) == \
        StepResult.REACHED_PUBLISH_TIME
    assert context.get_time() == 0.05
    assert integrator.integrate_no_further_than_time(0.5, 0.09, 1.0) == \
        StepResult.REACHED_UPDATE_TIME
    assert context.get_time() == 0.09
    assert integrator.integrate_no_further_than_time(1.0, 1.0, 0.12) == \
        StepResult.REACHED_BOUNDARY_TIME
    assert context.get_time() == 0.12


def test_simultaneous_events_prefer_update_then_publish():
    integrator, context = decay_integrator()
    assert integrator.integrate_no_further_than_time(0.07, 0.07, 0.07) == \
        StepResult.REACHED_UPDATE_TIME
    assert integrator.integrate_no_further_than_time(0.09, 0.5, 0.09) == \
        StepResult.REACHED_PUBLISH_TIME
    assert context.get_time() == 0.09


def test_step_stretches_up_to_one_percent_to_land_on_target():
    integrator, context = decay_integrator()
    assert integrator.integrate_no_further_than_time(0.1009, 1.0, 1.0) == \
        StepResult.REACHED_PUBLISH_TIME
    assert context.get_time() == 0.1009
    integrator, context = decay_integrator()
    assert integrator.integrate_no_further_than_time(0.102, 1.0, 1.0) == \
        StepResult.TIME_HAS_ADVANCED
    assert context.get_time() == pytest.approx(0.1, abs=1e-15)


@pytest.mark.parametrize("name", ERROR_CONTROLLED)
def test_error_controlled_step_never_passes_the_target(name):
    system, exact = exponential_decay()
    context = system.create_default_context([1.0])
    integrator = make(name, system, context, accuracy=1e-2, max_step=1.0)
    targets = [0.0123, 0.0124, 0.5, 0.5000001, 0.9]
    for target in targets:
        while context.get_time() < target:
            before = context.get_time()
            result = integrator.integrate_no_further_than_time(target, 2.0, 2.0)
            assert before < context.get_time() <= target
        assert context.get_time() == target
        assert result == StepResult.REACHED_PUBLISH_TIME
    assert context.get_continuous_state_vector()[0] == pytest.approx(exact(0.9, 1.0), rel=0.1)


def test_step_cut_short_by_an_event_keeps_the_ideal_step_size():
    system, _ = exponential_decay()
    context = system.create_default_context([1.0])
    integrator = make("runge_kutta3", system, context, accuracy=1e-4, max_step=1.0)
    integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    ideal = integrator.get_ideal_next_step_size()
    t = context.get_time()
    integrator.integrate_no_further_than_time(t + 1e-3, 2.0, 2.0)
    assert context.get_time() == t + 1e-3
    assert integrator.get_ideal_next_step_size() >= ideal


def test_zero_length_step_returns_without_stepping():
    integrator, context = decay_integrator()
    assert integrator.integrate_no_further_than_time(0.0, 1.0, 1.0) == \
        StepResult.REACHED_PUBLISH_TIME
    assert context.get_time() == 0.0
    assert integrator.get_num_steps_taken() == 0


def test_single_fixed_step_takes_exactly_one_step_without_error_control():
    system, _ = exponential_decay()
    context = system.create_default_context([1.0])
    integrator = make("runge_kutta3", system, context, accuracy=1e-10, max_step=0.01)
    assert integrator.integrate_with_single_fixed_step_to_time(0.5)
    assert context.get_time() == 0.5
    assert integrator.get_num_steps_taken() == 1
    assert integrator.get_num_step_shrinkages_from_error_control() == 0
    z = -0.5
    assert context.get_continuous_state_vector()[0] == pytest.approx(
        1 + z + z * z / 2 + z**3 / 6, rel=1e-14)


def test_fixed_step_mode_uses_max_step_size_without_rejections():
    system, exact = exponential_decay()
    context = system.create_default_context([1.0])
    integrator = make("runge_kutta5", system, context, accuracy=1e-12, max_step=0.25)
    integrator.set_fixed_step_mode(True)
    integrator.integrate_with_multiple_steps_to_time(1.0)
    assert integrator.get_num_steps_taken() == 4
    assert integrator.get_num_step_shrinkages_from_error_control() == 0
    assert integrator.get_num_derivative_evaluations() == 4 * 6


# ---- evaluation counts -----------------------------------------------------------------------

@pytest.mark.parametrize("name, new_stages, fsal", [("runge_kutta3", 3, False),
                                                    ("bogacki_shampine3", 3, True),
                                                    ("runge_kutta5", 6, True)])
def test_derivative_evaluation_counts_show_fsal_reuse(name, new_stages, fsal):
    system, _ = mass_spring_damper()
    context = system.create_default_context([1.0, 0.0])
    integrator = make(name, system, context, accuracy=1e-8)
    integrator.integrate_with_multiple_steps_to_time(5.0)
    steps = integrator.get_num_steps_taken()
    rejected = integrator.get_num_step_shrinkages_from_error_control()
    evals = integrator.get_num_derivative_evaluations()
    assert evals == system.num_calcs
    if fsal:   # k1 of each step is the previous step's last stage; retries reuse k1
        assert evals == 1 + new_stages * (steps + rejected)
    else:      # k1 at every step start, retries reuse it
        assert evals == new_stages * steps + (new_stages - 1) * rejected


def test_reset_statistics_and_step_size_records():
    system, _ = mass_spring_damper()
    context = system.create_default_context([1.0, 0.0])
    integrator = make("runge_kutta3", system, context, accuracy=1e-6, max_step=0.05)
    integrator.integrate_with_multiple_steps_to_time(1.0)
    assert integrator.get_num_steps_taken() > 0
    assert 0.0 < integrator.get_largest_step_size_taken() <= 0.05 * 1.01
    assert integrator.get_smallest_adapted_step_size_taken() <= \
        integrator.get_largest_step_size_taken()
    assert integrator.get_previous_integration_step_size() > 0.0
    integrator.reset_statistics()
    assert integrator.get_num_steps_taken() == 0
    assert integrator.get_num_derivative_evaluations() == 0
    assert math.isnan(integrator.get_largest_step_size_taken())


def test_accuracy_in_use_defaults_then_context_then_target():
    system, _ = exponential_decay()
    context = system.create_default_context([1.0])
    integrator = make_integrator("runge_kutta3", system, context, 0.1)
    integrator.initialize()
    assert integrator.get_accuracy_in_use() == 1e-3
    context.set_accuracy(1e-7)
    integrator.initialize()
    assert integrator.get_accuracy_in_use() == 1e-7
    integrator.set_target_accuracy(1e-5)
    assert integrator.get_target_accuracy() == 1e-5
    assert integrator.get_accuracy_in_use() == 1e-5
    integrator.set_target_accuracy(0.5)       # looser than 0.1 is tightened
    assert integrator.get_accuracy_in_use() == 0.1


# ---- minimum step size -------------------------------------------------------------------------

def test_error_control_below_minimum_step_size_raises():
    system, _ = exponential_decay(rate=50.0)
    context = system.create_default_context([1.0])
    integrator = make("runge_kutta3", system, context, accuracy=1e-12, max_step=0.1)
    integrator.set_requested_minimum_step_size(0.01)
    with pytest.raises(SimulationError, match="smaller than the minimum step size"):
        integrator.integrate_with_multiple_steps_to_time(1.0)


def test_minimum_step_size_without_throw_takes_unchecked_minimum_steps():
    rate = 2.0
    system, exact = exponential_decay(rate=rate)
    context = system.create_default_context([1.0])
    integrator = make("runge_kutta3", system, context, accuracy=1e-12, max_step=0.1)
    integrator.set_requested_minimum_step_size(0.01)
    integrator.set_throw_on_minimum_step_size_violation(False)
    integrator.integrate_with_multiple_steps_to_time(1.0)
    assert integrator.get_smallest_adapted_step_size_taken() >= 0.01
    assert integrator.get_num_steps_taken() <= 101
    # RK3 with h = 0.01: global error ~ (rate h)^3 / 24 * rate t x(t)
    assert context.get_continuous_state_vector()[0] == pytest.approx(exact(1.0, 1.0), rel=1e-5)


# ---- implicit solves ---------------------------------------------------------------------------

def blow_up_system():
    # x' = 10 x^2, x(t) = 1 / (1 - 10 t): an implicit Euler step of h from x0 = 1 solves
    # 10 h x^2 - x + 1 = 0, which has no real root for h > 0.025.
    return FakeSystem(lambda t, x: 10.0 * x * x, nz=1)


def test_fixed_step_newton_failure_raises_and_single_step_reports_false():
    system = blow_up_system()
    context = system.create_default_context([1.0])
    integrator = ImplicitEulerIntegrator(system, max_step_size=0.05, context=context)
    integrator.set_fixed_step_mode(True)
    with pytest.raises(SimulationError, match="failed to take a fixed step"):
        integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    assert context.get_time() == 0.0
    assert not integrator.integrate_with_single_fixed_step_to_time(0.05)
    assert context.get_time() == 0.0
    assert context.get_continuous_state_vector()[0] == 1.0


@pytest.mark.parametrize("cls", [ImplicitEulerIntegrator, Radau3Integrator,
                                 VelocityImplicitEulerIntegrator])
def test_error_control_recovers_from_newton_failure_by_shrinking(cls):
    system = blow_up_system()
    context = system.create_default_context([1.0])
    integrator = cls(system, max_step_size=0.05, context=context)
    integrator.set_target_accuracy(1e-6)
    integrator.request_initial_step_size_target(0.05)   # a first step Newton fails on
    integrator.integrate_with_multiple_steps_to_time(0.05)
    assert integrator.get_num_substep_failures() >= 1
    assert integrator.get_num_step_shrinkages_from_substep_failures() >= 1
    assert context.get_continuous_state_vector()[0] == pytest.approx(2.0, rel=1e-2)


@pytest.mark.parametrize("scheme, per_column", [("forward", 1), ("central", 2)])
def test_finite_difference_jacobian_evaluation_counts(scheme, per_column):
    A = np.array([[-1.0, 2.0, 0.0], [0.0, -3.0, 1.0], [0.5, 0.0, -2.0]])
    system = FakeSystem(lambda t, x: A @ x, nz=3)
    context = system.create_default_context([1.0, -1.0, 0.5])
    integrator = Radau3Integrator(system, max_step_size=0.1, context=context)
    integrator.set_jacobian_computation_scheme(scheme)
    integrator.set_target_accuracy(1e-6)
    integrator.integrate_with_multiple_steps_to_time(0.5)
    assert integrator.get_num_jacobian_evaluations() == 1
    assert integrator.get_num_derivative_evaluations_for_jacobian() == 3 * per_column
    np.testing.assert_allclose(integrator._J, A, atol=1e-6)
    np.testing.assert_allclose(context.get_continuous_state_vector(),
                               expm(0.5 * A) @ [1.0, -1.0, 0.5], atol=1e-5)


def test_jacobian_is_recomputed_every_step_without_reuse():
    system, _ = mass_spring_damper()
    context = system.create_default_context([1.0, 0.0])
    integrator = Radau3Integrator(system, max_step_size=0.1, context=context)
    integrator.set_fixed_step_mode(True)
    integrator.set_reuse(False)
    integrator.integrate_with_multiple_steps_to_time(1.0)
    assert integrator.get_num_jacobian_evaluations() == integrator.get_num_steps_taken() == 10


# ---- stiffness ---------------------------------------------------------------------------------

def stiff_system(lam=1000.0):
    """x' = -lam (x - cos t), x(0) = 0, and its closed-form solution."""
    system = FakeSystem(lambda t, x: -lam * (x - np.cos(t)), nz=1)

    def exact(t):
        a = lam / (lam * lam + 1.0)
        return a * (lam * np.cos(t) + np.sin(t)) - lam * a * np.exp(-lam * t)

    return system, exact


def test_implicit_schemes_take_far_fewer_steps_than_runge_kutta3_on_a_stiff_system():
    steps = {}
    for name in ("runge_kutta3", "implicit_euler", "radau3", "velocity_implicit_euler"):
        system, exact = stiff_system()
        context = system.create_default_context([0.0])
        integrator = make(name, system, context, accuracy=1e-4, max_step=1.0)
        integrator.integrate_with_multiple_steps_to_time(2.0)
        assert abs(context.get_continuous_state_vector()[0] - exact(2.0)) < 2e-4
        steps[name] = integrator.get_num_steps_taken()
    assert steps["runge_kutta3"] > 600          # stability bound h < 2.5 / 1000 (on [0, 2])
    assert steps["implicit_euler"] < steps["runge_kutta3"] / 4
    assert steps["velocity_implicit_euler"] < steps["runge_kutta3"] / 4
    assert steps["radau3"] < steps["runge_kutta3"] / 15


# ---- bad input ---------------------------------------------------------------------------------

def test_unknown_scheme_lists_the_valid_ones():
    system, _ = exponential_decay()
    with pytest.raises(ValueError, match="unknown integration scheme 'rk4'.*runge_kutta3"):
        make_integrator("rk4", system, None, 0.1)


@pytest.mark.parametrize("bad", [-0.1, 0.0, math.nan, math.inf])
def test_non_positive_step_sizes_are_rejected(bad):
    system, _ = exponential_decay()
    with pytest.raises(ValueError, match="max_step_size must be a finite number > 0"):
        make_integrator("runge_kutta3", system, None, bad)
    integrator = make_integrator("runge_kutta3", system, None, 0.1)
    with pytest.raises(ValueError, match="set_maximum_step_size: max_step_size must be"):
        integrator.set_maximum_step_size(bad)
    with pytest.raises(ValueError, match="set_requested_minimum_step_size: min_step_size must be"):
        integrator.set_requested_minimum_step_size(-1.0)


@pytest.mark.parametrize("bad", [0.0, -1e-6, math.nan])
def test_non_positive_accuracy_is_rejected(bad):
    system, _ = exponential_decay()
    integrator = make_integrator("runge_kutta3", system, None, 0.1)
    with pytest.raises(ValueError, match=r"set_target_accuracy: accuracy must be a finite "
                                         r"number > 0, got"):
        integrator.set_target_accuracy(bad)


def test_fixed_step_schemes_refuse_accuracy_and_error_control():
    system, _ = exponential_decay()
    integrator = make_integrator("explicit_euler", system, None, 0.1)
    assert not integrator.supports_error_estimation()
    assert integrator.get_fixed_step_mode()
    with pytest.raises(RuntimeError, match="explicit_euler does not estimate its error"):
        integrator.set_target_accuracy(1e-3)
    with pytest.raises(RuntimeError, match="always runs in fixed-step mode"):
        integrator.set_fixed_step_mode(False)


def test_times_in_the_past_are_rejected_with_their_name():
    integrator, context = decay_integrator()
    context.set_time(1.0)
    with pytest.raises(ValueError, match="update_time = 0.5 is earlier than the context time"):
        integrator.integrate_no_further_than_time(2.0, 0.5, 2.0)
    with pytest.raises(ValueError, match="t_target = 0.5 is earlier"):
        integrator.integrate_with_single_fixed_step_to_time(0.5)


def test_initialize_without_context_and_foreign_context_are_rejected():
    system, _ = exponential_decay()
    other, _ = exponential_decay()
    integrator = make_integrator("runge_kutta3", system, None, 0.1)
    with pytest.raises(RuntimeError, match="no context; call reset_context"):
        integrator.initialize()
    with pytest.raises(ValueError, match="reset_context: the context belongs to system"):
        integrator.reset_context(other.create_default_context([1.0]))
    with pytest.raises(ValueError, match="set_jacobian_computation_scheme: scheme must be"):
        make_integrator("radau3", system, None, 0.1).set_jacobian_computation_scheme("auto")


# ---- with real LeafSystems -----------------------------------------------------------------

def leaf_spring_damper():
    from merganser.framework import LeafSystem

    class SpringDamper(LeafSystem):
        """q'' = -k q - 0.4 q' with k a numeric parameter; counts its evaluations."""

        def __init__(self):
            super().__init__()
            self.declare_continuous_state(1, 1, 0)
            self.declare_numeric_parameter([4.0])
            self.calls = 0

        def do_calc_time_derivatives(self, context, derivatives):
            self.calls += 1
            q, v = context.get_continuous_state_vector()
            k = context.get_numeric_parameter(0)[0]
            derivatives.set_value([v, -k * q - 0.4 * v])

    system = SpringDamper()
    context = system.create_default_context()
    context.set_continuous_state([1.0, 0.0])
    return system, context


def test_fsal_reuse_on_a_leaf_system_counts_only_real_computations():
    system, context = leaf_spring_damper()
    integrator = make("runge_kutta5", system, context, accuracy=1e-8)
    integrator.integrate_with_multiple_steps_to_time(5.0)
    steps = integrator.get_num_steps_taken()
    rejected = integrator.get_num_step_shrinkages_from_error_control()
    assert integrator.get_num_derivative_evaluations() == system.calls
    assert system.calls == 1 + 6 * (steps + rejected)
    _, exact = mass_spring_damper()
    np.testing.assert_allclose(context.get_continuous_state_vector(), exact(5.0), atol=1e-7)


def test_parameter_change_between_steps_is_not_hidden_by_fsal_reuse():
    # Each accepted Dormand-Prince step computes 6 new stages after the first (7); changing
    # k invalidates the cached derivatives, so the next step computes k1 again (7) and
    # equals a step from a fresh context with the new k.
    system, context = leaf_spring_damper()
    integrator = make("runge_kutta5", system, context, accuracy=1e-3, max_step=0.01)
    integrator.request_initial_step_size_target(0.01)      # both runs step by 0.01
    integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    assert system.calls == 7 + 6
    context.set_numeric_parameter(0, [9.0])
    t1, x1 = context.get_time(), np.array(context.get_continuous_state_vector())
    integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    assert system.calls == 7 + 6 + 7 == integrator.get_num_derivative_evaluations()

    fresh_system, fresh = leaf_spring_damper()
    fresh.set_numeric_parameter(0, [9.0])
    fresh.set_time(t1)
    fresh.set_continuous_state(x1)
    fresh_integrator = make("runge_kutta5", fresh_system, fresh, accuracy=1e-3, max_step=0.01)
    fresh_integrator.request_initial_step_size_target(0.01)
    fresh_integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    assert fresh.get_time() == context.get_time()
    np.testing.assert_array_equal(fresh.get_continuous_state_vector(),
                                  context.get_continuous_state_vector())


def test_leaf_system_with_nontrivial_velocity_to_qdot_map():
    # q' = 2 v (N = 2), v' = -q: q = cos(t / sqrt(1/2)) ... with w^2 = 2.
    from merganser.framework import LeafSystem

    class Scaled(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_continuous_state(1, 1, 0)

        def do_calc_time_derivatives(self, context, derivatives):
            q, v = context.get_continuous_state_vector()
            derivatives.set_value([2.0 * v, -q])

        def do_map_velocity_to_qdot(self, context, v):
            return 2.0 * np.asarray(v)

        def do_map_qdot_to_velocity(self, context, qdot):
            return 0.5 * np.asarray(qdot)

    w = np.sqrt(2.0)
    for name, bound in (("semi_explicit_euler", 2e-3), ("velocity_implicit_euler", 1e-2),
                        ("radau3", 1e-5)):
        system = Scaled()
        context = system.create_default_context()
        context.set_continuous_state([1.0, 0.0])
        make(name, system, context).integrate_with_multiple_steps_to_time(2.0)
        exact = [np.cos(w * 2.0), -np.sin(w * 2.0) / w]
        np.testing.assert_allclose(context.get_continuous_state_vector(), exact, atol=bound)


def test_nan_derivatives_surface_as_a_nan_state_instead_of_a_step_size_error():
    # Error control shrinks on a NaN error estimate, then accepts the minimum step so the
    # caller (the Simulator) sees the non-finite state and can name it.
    system = FakeSystem(lambda t, x: np.array([np.nan if t > 0.3 else 1.0]), nz=1)
    context = system.create_default_context([0.0])
    integrator = make("runge_kutta3", system, context, accuracy=1e-4, max_step=0.1)
    while np.isfinite(context.get_continuous_state_vector()[0]):
        integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    assert context.get_time() == pytest.approx(0.3, abs=1e-12)
    assert integrator.get_num_step_shrinkages_from_error_control() >= 10


def test_implicit_failure_at_the_minimum_step_size_raises():
    # x' = 10 x^2 has no implicit Euler solution for h > 0.025 from x = 1; with a requested
    # minimum step of 0.04 error control cannot shrink below the failing sizes.
    system = blow_up_system()
    context = system.create_default_context([1.0])
    integrator = ImplicitEulerIntegrator(system, max_step_size=0.05, context=context)
    integrator.set_requested_minimum_step_size(0.04)
    integrator.set_throw_on_minimum_step_size_violation(False)
    with pytest.raises(SimulationError, match="failed to solve its implicit step equations "
                                              "even with the minimum step size"):
        integrator.integrate_no_further_than_time(1.0, 1.0, 1.0)
    assert context.get_time() == 0.0
