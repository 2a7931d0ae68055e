"""A diagram whose continuous state is one leaf's, in order, returns that leaf's cached
derivatives (no copy): the values against the closed form, the evaluation count an
integrator sees, and no stale values when affine fusion is switched on and off or the
context is cloned."""

import numpy as np

from merganser.framework import ConstantVectorSource, DiagramBuilder, LeafSystem, Simulator
from merganser.framework.affine_fusion import fuse_affine_dynamics, unfuse_affine_dynamics


class Pendulum(LeafSystem):
    """θ̈ = −sin θ + u; counts its derivative computations."""

    def __init__(self):
        super().__init__()
        self.declare_continuous_state(1, 1, 0)
        self.declare_vector_input_port("u", 1)
        self.calls = 0

    def do_calc_time_derivatives(self, context, derivatives):
        self.calls += 1
        theta, omega = context.get_continuous_state_vector()
        u = self.get_input_port(0).eval(context)[0]
        derivatives.set_value([omega, -np.sin(theta) + u])


def _diagram():
    builder = DiagramBuilder()
    pendulum = builder.add_system(Pendulum())
    torque = builder.add_system(ConstantVectorSource([0.25]))
    builder.connect(torque.get_output_port(), pendulum.get_input_port(0))
    return builder.build(), pendulum


def _expected(x):
    return np.array([x[1], -np.sin(x[0]) + 0.25])


def test_values_come_from_the_leaf_and_are_cached():
    diagram, pendulum = _diagram()
    context = diagram.create_default_context()
    context.set_continuous_state([0.3, -0.2])
    first = diagram.eval_time_derivatives(context)
    np.testing.assert_allclose(first, _expected([0.3, -0.2]), rtol=1e-15)
    calls = pendulum.calls
    for _ in range(3):                                        # cached: not recomputed
        np.testing.assert_array_equal(diagram.eval_time_derivatives(context), first)
    assert pendulum.calls == calls
    context.set_continuous_state([1.0, 0.5])
    np.testing.assert_allclose(diagram.eval_time_derivatives(context), _expected([1.0, 0.5]),
                               rtol=1e-15)


def test_no_stale_values_when_affine_fusion_toggles_or_the_context_is_cloned():
    diagram, _ = _diagram()
    context = diagram.create_default_context()
    context.set_continuous_state([0.3, -0.2])
    fuse_affine_dynamics(diagram, context)
    np.testing.assert_allclose(diagram.eval_time_derivatives(context), _expected([0.3, -0.2]))
    unfuse_affine_dynamics(context)
    np.testing.assert_allclose(diagram.eval_time_derivatives(context), _expected([0.3, -0.2]))
    context.set_continuous_state([-0.7, 0.1])
    clone = context.clone()
    np.testing.assert_allclose(diagram.eval_time_derivatives(clone), _expected([-0.7, 0.1]))
    np.testing.assert_allclose(diagram.eval_time_derivatives(context), _expected([-0.7, 0.1]))


def test_integrator_counts_each_state_once():
    diagram, pendulum = _diagram()
    simulator = Simulator(diagram)
    simulator.get_mutable_context().set_continuous_state([0.3, 0.0])
    simulator.advance_to(2.0)
    integrator = simulator.get_integrator()
    assert integrator.get_num_derivative_evaluations() == pendulum.calls
    assert pendulum.calls > 0


def test_runge_kutta_stages_written_in_place_match_the_tableau():
    # Fixed-step Kutta RK3 through the simulator (stage states written straight into the
    # context) against the tableau applied by hand.
    from merganser.framework import SimulatorConfig, apply_simulator_config

    diagram, _ = _diagram()
    simulator = Simulator(diagram)
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3",
                                           use_error_control=False, max_step_size=0.01),
                           simulator)
    simulator.get_mutable_context().set_continuous_state([0.3, 0.0])
    simulator.advance_to(0.1)
    x, h = np.array([0.3, 0.0]), 0.01
    for _ in range(10):
        k1 = _expected(x)
        k2 = _expected(x + 0.5 * h * k1)
        k3 = _expected(x + h * (-k1 + 2.0 * k2))
        x = x + h * (k1 + 4.0 * k2 + k3) / 6.0
    np.testing.assert_allclose(simulator.get_context().get_continuous_state_vector(), x,
                               rtol=1e-13, atol=1e-15)
