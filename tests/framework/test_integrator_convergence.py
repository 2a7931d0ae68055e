"""Measured convergence order of each scheme and accuracy of error control."""

import math

import numpy as np
import pytest
from fake_system import FakeSystem, mass_spring_damper

from merganser.framework.integrators import make_integrator

ORDER = {"explicit_euler": 1, "semi_explicit_euler": 1, "runge_kutta2": 2, "runge_kutta3": 3,
         "runge_kutta5": 5, "bogacki_shampine3": 3, "implicit_euler": 1, "radau1": 1, "radau3": 3,
         "velocity_implicit_euler": 1}


def nonlinear_qv():
    """q' = N(q) v with N(q) = q, v' = q^2 from (1, -1): q = 1/(1+t), v = -1/(1+t).

    Nonlinear, and N depends on q, so a scheme that used v for q' (or N at the wrong
    configuration) loses its order.
    """
    system = FakeSystem(lambda t, x: np.array([x[0] * x[1], x[0] ** 2]), nq=1, nv=1, nz=0,
                        velocity_to_qdot=lambda q: np.array([[q[0]]]))
    return system, [1.0, -1.0], lambda t: np.array([1 / (1 + t), -1 / (1 + t)])


def nonautonomous_z():
    """z' = -2 t z^2 from z = 1: z = 1/(1+t^2) (checks the stage times c_i)."""
    system = FakeSystem(lambda t, x: -2.0 * t * x**2, nz=1)
    return system, [1.0], lambda t: np.array([1 / (1 + t * t)])


def damped_oscillator():
    system, exact = mass_spring_damper(m=1.0, k=4.0, c=0.4)
    return system, [1.0, 0.0], exact


def global_error(problem, name, h, t_final):
    system, x0, exact = problem()
    context = system.create_default_context(x0)
    integrator = make_integrator(name, system, context, h)
    if integrator.supports_error_estimation():
        integrator.set_fixed_step_mode(True)
        integrator.set_target_accuracy(1e-12)     # Newton tolerance of the implicit schemes
    integrator.integrate_with_multiple_steps_to_time(t_final)
    assert integrator.get_num_steps_taken() == round(t_final / h)
    return np.max(np.abs(context.get_continuous_state_vector() - exact(t_final)))


# (problem, h, t_final) per scheme, with h in the asymptotic range and the error well above
# roundoff (Dormand-Prince's h^6 term still dominates the nonlinear problem at usable h,
# so its order is measured on the oscillator over 10 s).
CASES = [(name, nonlinear_qv, 0.01 if p == 1 else 0.025, 1.0) for name, p in ORDER.items()
         if name != "runge_kutta5"]
CASES += [(name, nonautonomous_z, 0.01 if p == 1 else 0.025, 1.0) for name, p in ORDER.items()
          if name != "runge_kutta5"]
CASES += [("runge_kutta5", damped_oscillator, 0.1, 10.0),
          ("runge_kutta5", nonautonomous_z, 0.05, 1.0)]


@pytest.mark.parametrize("name, problem, h, t_final", CASES,
                         ids=[f"{c[0]}-{c[1].__name__}" for c in CASES])
def test_halving_the_step_divides_the_error_by_two_to_the_order(name, problem, h, t_final):
    ratio = global_error(problem, name, h, t_final) / global_error(problem, name, h / 2,
                                                                   t_final)
    assert ratio == pytest.approx(2.0 ** ORDER[name], rel=0.10)


GLOBAL_ERROR_FACTOR = {"runge_kutta3": 10.0, "runge_kutta5": 10.0, "radau3": 10.0,
                       "bogacki_shampine3": 50.0}


@pytest.mark.parametrize("name", list(GLOBAL_ERROR_FACTOR))
@pytest.mark.parametrize("accuracy", [1e-6, 1e-8])
def test_error_control_meets_accuracy_on_mass_spring_damper(name, accuracy):
    # Over 10 s (3 periods) the global error stays within a small multiple of the
    # per-step tolerance, which is accuracy * (1 + |x|) per component (measured: about
    # 3x for runge_kutta3/5 and radau3; 23x for bogacki_shampine3, whose accurate embedded
    # pair allows longer steps).
    system, exact = mass_spring_damper(m=1.0, k=4.0, c=0.4)
    context = system.create_default_context([1.0, 0.0])
    integrator = make_integrator(name, system, context, 1.0)
    integrator.set_target_accuracy(accuracy)
    errors = []
    for t in np.linspace(0.5, 10.0, 20):
        integrator.integrate_with_multiple_steps_to_time(t)
        errors.append(np.max(np.abs(context.get_continuous_state_vector() - exact(t))))
    assert max(errors) < GLOBAL_ERROR_FACTOR[name] * accuracy


@pytest.mark.parametrize("name", ["implicit_euler", "velocity_implicit_euler"])
def test_first_order_error_control_error_scales_with_square_root_of_accuracy(name):
    # Local error ~ h^2 held at the tolerance gives h ~ sqrt(tol) and a global error
    # ~ sqrt(tol): 100x tighter accuracy, about 10x smaller error.
    errors = []
    for accuracy in (1e-4, 1e-6):
        system, exact = mass_spring_damper()
        context = system.create_default_context([1.0, 0.0])
        integrator = make_integrator(name, system, context, 1.0)
        integrator.set_target_accuracy(accuracy)
        integrator.integrate_with_multiple_steps_to_time(3.0)
        errors.append(np.max(np.abs(context.get_continuous_state_vector() - exact(3.0))))
        assert errors[-1] < 10.0 * math.sqrt(accuracy)
    assert 5.0 < errors[0] / errors[1] < 20.0


@pytest.mark.parametrize("name", ["runge_kutta3", "runge_kutta5", "bogacki_shampine3",
                                  "implicit_euler", "radau3", "velocity_implicit_euler"])
def test_looser_accuracy_takes_fewer_steps_and_tighter_is_more_accurate(name):
    steps, errors = [], []
    first_order = name in ("implicit_euler", "velocity_implicit_euler")
    for accuracy in (1e-2, 1e-4, 1e-6) if first_order else (1e-3, 1e-5, 1e-7):
        system, exact = mass_spring_damper()
        context = system.create_default_context([1.0, 0.0])
        integrator = make_integrator(name, system, context, 1.0)
        integrator.set_target_accuracy(accuracy)
        integrator.integrate_with_multiple_steps_to_time(5.0)
        steps.append(integrator.get_num_steps_taken())
        errors.append(np.max(np.abs(context.get_continuous_state_vector() - exact(5.0))))
    assert steps[0] < steps[1] < steps[2]
    assert errors[0] > errors[1] > errors[2]
    # Holding the local error ~ h^q at the tolerance gives a step count ~ accuracy^(-1/q),
    # q = error estimate order: a factor 100^(1/q) between the two tighter accuracies.
    q = integrator.get_error_estimate_order()
    assert steps[2] / steps[1] == pytest.approx(100.0 ** (1.0 / q), rel=0.35)
