"""Tests for framework.analysis: linearize, first_order_taylor_approximation, controllability."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, LeafSystem, PortError
from merganser.framework.analysis import (InputPortSelection, controllability_matrix,
                                first_order_taylor_approximation, is_controllable,
                                is_detectable, is_observable, is_stabilizable, linearize,
                                observability_matrix)
from merganser.framework.primitives import (Adder, ConstantVectorSource, Demultiplexer, DiscreteDerivative,
                                  FirstOrderLowPassFilter, Gain, Integrator, LinearSystem,
                                  MatrixGain, Multiplexer, PassThrough, ZeroOrderHold)

A_PLANT = np.array([[0.0, 1.0], [-4.0, -0.8]])
B_PLANT = np.array([[0.0], [1.0]])


class Pendulum(LeafSystem):
    """A damped pendulum: θ̈ = −(g/l) sin θ − b θ̇ + τ/(m l²); y = [θ, θ̇, sin θ]."""

    def __init__(self, m=1.3, l=0.7, b=0.25, g=9.81):
        super().__init__()
        self.m, self.l, self.b, self.g = m, l, b, g
        self.declare_continuous_state(1, 1, 0)
        self.declare_vector_input_port("tau", 1)
        self.declare_vector_output_port("y", 3, self._calc_y, [self.xc_ticket()])

    def do_calc_time_derivatives(self, context, derivatives):
        theta, omega = context.get_continuous_state_vector()
        tau = self.get_input_port(0).eval(context)[0]
        alpha = (-self.g / self.l * np.sin(theta) - self.b * omega
                 + tau / (self.m * self.l ** 2))
        derivatives.set_value([omega, alpha])

    def _calc_y(self, context, output):
        theta, omega = context.get_continuous_state_vector()
        output.set_value([theta, omega, np.sin(theta)])


def _primitive_diagram():
    """u ─▶ Gain(2) ─▶ Adder ─▶ plant ─▶ Demux ─▶ x1 ─▶ low-pass (τ = 0.5) ─▶ Gain(-1) ─▶ Adder;
    exported output [x1; 3u] through a Multiplexer and a MatrixGain.

    State x = [x1, x2, z]: ẋ1 = x2, ẋ2 = −4x1 − 0.8x2 + 2u − z, ż = 2x1 − 2z;
    y = [x1, 3u].
    """
    builder = DiagramBuilder()
    plant = builder.add_named_system("plant", LinearSystem(A_PLANT, B_PLANT, np.eye(2),
                                                           np.zeros((2, 1))))
    lpf = builder.add_named_system("lpf", FirstOrderLowPassFilter(0.5))
    demux = builder.add_system(Demultiplexer([1, 1]))
    gain_u = builder.add_system(Gain(2.0, 1))
    neg = builder.add_system(Gain(-1.0, 1))
    adder = builder.add_system(Adder(2, 1))
    through = builder.add_system(PassThrough(1))
    scale = builder.add_system(MatrixGain([[3.0]]))
    mux = builder.add_system(Multiplexer([1, 1]))
    builder.export_input(through.get_input_port(), "u")
    builder.connect(through.get_output_port(), gain_u.get_input_port())
    builder.connect(through.get_output_port(), scale.get_input_port())
    builder.connect(gain_u.get_output_port(), adder.get_input_port(0))
    builder.connect(neg.get_output_port(), adder.get_input_port(1))
    builder.connect(adder.get_output_port(), plant.get_input_port())
    builder.connect(plant.get_output_port(), demux.get_input_port())
    builder.connect(demux.get_output_port(0), lpf.get_input_port())
    builder.connect(lpf.get_output_port(), neg.get_input_port())
    builder.connect(demux.get_output_port(0), mux.get_input_port(0))
    builder.connect(scale.get_output_port(), mux.get_input_port(1))
    builder.export_output(mux.get_output_port(), "y")
    return builder.build()


A_DIAGRAM = np.array([[0.0, 1.0, 0.0], [-4.0, -0.8, -1.0], [2.0, 0.0, -2.0]])
B_DIAGRAM = np.array([[0.0], [2.0], [0.0]])
C_DIAGRAM = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
D_DIAGRAM = np.array([[0.0], [3.0]])


def _equilibrium_context(diagram, u0):
    ctx = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(ctx, [u0])
    x_eq = np.linalg.solve(A_DIAGRAM, -B_DIAGRAM @ [u0])
    ctx.set_continuous_state(x_eq)
    return ctx


# ---- LinearSystem and primitives ----------------------------------------------------------------

def test_linearize_linear_system_returns_its_matrices():
    C = np.array([[1.0, 2.0]])
    D = np.array([[0.5]])
    sys = LinearSystem(A_PLANT, B_PLANT, C, D)
    ctx = sys.create_default_context()
    sys.get_input_port().fix_value(ctx, [0.0])
    lin = linearize(sys, ctx)
    assert lin.linearization_method == "exact"
    for got, want in ((lin.A(), A_PLANT), (lin.B(), B_PLANT), (lin.C(), C), (lin.D(), D)):
        np.testing.assert_array_equal(got, want)
    assert lin.time_period() == 0.0
    fd = linearize(sys, ctx, method="finite_difference")
    assert fd.linearization_method == "finite_difference"
    for got, want in ((fd.A(), A_PLANT), (fd.B(), B_PLANT), (fd.C(), C), (fd.D(), D)):
        np.testing.assert_allclose(got, want, atol=1e-9)


def test_linearize_discrete_linear_system_keeps_period():
    A = np.array([[0.9, 0.1], [0.0, 0.5]])
    sys = LinearSystem(A, [[0.0], [1.0]], [[1.0, 0.0]], [[0.0]], time_period=0.05)
    ctx = sys.create_default_context()
    sys.get_input_port().fix_value(ctx, [0.0])
    lin = linearize(sys, ctx)
    assert lin.time_period() == 0.05
    np.testing.assert_array_equal(lin.A(), A)
    fd = linearize(sys, ctx, method="finite_difference")
    np.testing.assert_allclose(fd.A(), A, atol=1e-9)
    assert fd.time_period() == 0.05


# ---- diagrams -----------------------------------------------------------------------------------

def test_diagram_of_primitives_linearizes_exactly_to_hand_composition():
    diagram = _primitive_diagram()
    ctx = _equilibrium_context(diagram, 0.0)
    lin = linearize(diagram, ctx)
    assert lin.linearization_method == "exact"
    np.testing.assert_allclose(lin.A(), A_DIAGRAM, atol=1e-15)
    np.testing.assert_allclose(lin.B(), B_DIAGRAM, atol=1e-15)
    np.testing.assert_allclose(lin.C(), C_DIAGRAM, atol=1e-15)
    np.testing.assert_allclose(lin.D(), D_DIAGRAM, atol=1e-15)


def test_exact_diagram_linearization_matches_finite_differences():
    diagram = _primitive_diagram()
    ctx = _equilibrium_context(diagram, 0.7)
    exact = linearize(diagram, ctx, method="exact")
    fd = linearize(diagram, ctx, method="finite_difference")
    for name in ("A", "B", "C", "D"):
        np.testing.assert_allclose(getattr(fd, name)(), getattr(exact, name)(), atol=1e-8)


def test_nested_diagram_linearizes_exactly():
    inner = _primitive_diagram()
    builder = DiagramBuilder()
    builder.add_named_system("inner", inner)
    pre = builder.add_system(Gain(0.5, 1))
    builder.export_input(pre.get_input_port(), "v")
    builder.connect(pre.get_output_port(), inner.get_input_port(0))
    builder.export_output(inner.get_output_port(0), "y")
    outer = builder.build()
    ctx = outer.create_default_context()
    outer.get_input_port(0).fix_value(ctx, [0.0])
    lin = linearize(outer, ctx)
    assert lin.linearization_method == "exact"
    np.testing.assert_allclose(lin.A(), A_DIAGRAM, atol=1e-15)
    np.testing.assert_allclose(lin.B(), 0.5 * B_DIAGRAM, atol=1e-15)
    np.testing.assert_allclose(lin.D(), 0.5 * D_DIAGRAM, atol=1e-15)


def test_closed_loop_without_inputs_has_empty_B():
    builder = DiagramBuilder()
    integ = builder.add_system(Integrator(1))
    gain = builder.add_system(Gain(-3.0, 1))
    builder.connect(integ.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), integ.get_input_port())
    diagram = builder.build()
    lin = linearize(diagram, diagram.create_default_context())
    np.testing.assert_array_equal(lin.A(), [[-3.0]])
    assert lin.B().shape == (1, 0) and lin.C().shape == (0, 1)


def test_input_and_output_port_selection():
    diagram = _primitive_diagram()
    ctx = _equilibrium_context(diagram, 0.0)
    lin = linearize(diagram, ctx, input_port_index=InputPortSelection.NO_INPUT,
                    output_port_index="y")
    assert lin.B().shape == (3, 0) and lin.D().shape == (2, 0)
    np.testing.assert_allclose(lin.C(), C_DIAGRAM, atol=1e-15)


def test_linearize_leaves_the_context_untouched():
    diagram = _primitive_diagram()
    ctx = _equilibrium_context(diagram, 0.7)
    x_before = np.array(ctx.get_continuous_state_vector())
    linearize(diagram, ctx, method="finite_difference")
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), x_before)
    np.testing.assert_array_equal(diagram.get_input_port(0).eval(ctx), [0.7])


def test_subsystem_linearized_in_a_diagram_context_uses_connected_input():
    builder = DiagramBuilder()
    src = builder.add_system(ConstantVectorSource([3.0]))
    pend = builder.add_named_system("pendulum", Pendulum())
    builder.connect(src.get_output_port(), pend.get_input_port())
    diagram = builder.build()
    ctx = diagram.create_default_context()
    pend_ctx = pend.get_my_context_from_root(ctx)
    theta = np.arcsin(3.0 / (pend.m * pend.g * pend.l))    # holding torque 3 N·m
    pend_ctx.set_continuous_state([theta, 0.0])
    lin = linearize(pend, pend_ctx, output_port_index=None)
    expected_A = [[0.0, 1.0], [-pend.g / pend.l * np.cos(theta), -pend.b]]
    np.testing.assert_allclose(lin.A(), expected_A, atol=1e-6)


# ---- nonlinear systems and finite differences ---------------------------------------------------

@pytest.mark.parametrize("theta0", [np.pi, 0.3])
def test_pendulum_falls_back_to_finite_differences_and_matches_analytic_jacobian(theta0):
    pend = Pendulum()
    m, l, b, g = pend.m, pend.l, pend.b, pend.g
    ctx = pend.create_default_context()
    ctx.set_continuous_state([theta0, 0.0])
    pend.get_input_port().fix_value(ctx, [m * g * l * np.sin(theta0)])   # holding torque
    lin = linearize(pend, ctx)
    assert lin.linearization_method == "finite_difference"
    A = np.array([[0.0, 1.0], [-g / l * np.cos(theta0), -b]])
    B = np.array([[0.0], [1.0 / (m * l ** 2)]])
    C = np.array([[1.0, 0.0], [0.0, 1.0], [np.cos(theta0), 0.0]])
    np.testing.assert_allclose(lin.A(), A, atol=1e-6)
    np.testing.assert_allclose(lin.B(), B, atol=1e-6)
    np.testing.assert_allclose(lin.C(), C, atol=1e-6)
    np.testing.assert_allclose(lin.D(), np.zeros((3, 1)), atol=1e-6)


def test_exact_method_names_the_leaf_without_protocol():
    pend = Pendulum()
    pend.set_name("pend")
    ctx = pend.create_default_context()
    pend.get_input_port().fix_value(ctx, [0.0])
    with pytest.raises(ValueError, match="'pend' \\(Pendulum\\) does not implement "
                                         "do_calc_linearization"):
        linearize(pend, ctx, method="exact")


def test_diagram_with_user_leaf_falls_back_to_finite_differences():
    builder = DiagramBuilder()
    pend = builder.add_system(Pendulum())
    demux = builder.add_system(Demultiplexer([1, 2]))
    gain = builder.add_system(Gain(-2.0, 1))
    builder.connect(pend.get_output_port(), demux.get_input_port())
    builder.connect(demux.get_output_port(0), gain.get_input_port())
    builder.connect(gain.get_output_port(), pend.get_input_port())
    diagram = builder.build()
    ctx = diagram.create_default_context()
    lin = linearize(diagram, ctx)
    assert lin.linearization_method == "finite_difference"
    k = 2.0 / (pend.m * pend.l ** 2)
    np.testing.assert_allclose(lin.A(), [[0.0, 1.0], [-pend.g / pend.l - k, -pend.b]], atol=1e-6)


def test_off_equilibrium_raises_with_derivative_norm():
    pend = Pendulum()
    ctx = pend.create_default_context()
    ctx.set_continuous_state([0.5, 0.0])
    pend.get_input_port().fix_value(ctx, [0.0])
    norm = pend.g / pend.l * np.sin(0.5)
    with pytest.raises(ValueError, match=f"not an equilibrium.*norm {norm:.6g}"):
        linearize(pend, ctx)
    lin = linearize(pend, ctx, equilibrium_check_tolerance=None)
    assert lin.A()[1, 0] == pytest.approx(-pend.g / pend.l * np.cos(0.5), abs=1e-6)


def test_first_order_taylor_approximation_reproduces_dynamics_at_point():
    pend = Pendulum()
    ctx = pend.create_default_context()
    x0, u0 = np.array([0.5, -0.2]), np.array([0.4])
    ctx.set_continuous_state(x0)
    pend.get_input_port().fix_value(ctx, u0)
    affine = first_order_taylor_approximation(pend, ctx)
    xdot0 = np.array(pend.eval_time_derivatives(ctx))
    np.testing.assert_allclose(affine.A() @ x0 + affine.B() @ u0 + affine.f0(), xdot0, atol=1e-12)
    y0 = np.array(pend.get_output_port().eval(ctx))
    np.testing.assert_allclose(affine.C() @ x0 + affine.D() @ u0 + affine.y0(), y0, atol=1e-12)
    np.testing.assert_allclose(affine.A()[1], [-pend.g / pend.l * np.cos(0.5), -pend.b], atol=1e-6)


def test_unfixed_input_raises_naming_the_port():
    pend = Pendulum()
    pend.set_name("pend")
    ctx = pend.create_default_context()
    with pytest.raises(PortError, match="input port 'tau' of system 'pend' has no value"):
        linearize(pend, ctx)


# ---- discrete systems ---------------------------------------------------------------------------

def test_discrete_diagram_linearizes_exactly_and_matches_finite_differences():
    h = 0.1
    Ad = np.array([[1.0, h], [-0.2, 0.9]])
    Bd = np.array([[0.0], [h]])
    builder = DiagramBuilder()
    zoh = builder.add_system(ZeroOrderHold(h, 1))
    plant = builder.add_system(LinearSystem(Ad, Bd, np.eye(2), np.zeros((2, 1)), time_period=h))
    builder.export_input(zoh.get_input_port(), "u")
    builder.connect(zoh.get_output_port(), plant.get_input_port())
    builder.export_output(plant.get_output_port(), "y")
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(ctx, [0.0])
    lin = linearize(diagram, ctx)
    assert lin.linearization_method == "exact" and lin.time_period() == h
    # x = [held u, x1, x2]: held' = u, plant' = Ad x + Bd held
    A = np.zeros((3, 3))
    A[1:, 0] = Bd[:, 0]
    A[1:, 1:] = Ad
    np.testing.assert_allclose(lin.A(), A, atol=1e-15)
    np.testing.assert_allclose(lin.B(), [[1.0], [0.0], [0.0]], atol=1e-15)
    np.testing.assert_allclose(lin.C(), np.hstack([np.zeros((2, 1)), np.eye(2)]), atol=1e-15)
    fd = linearize(diagram, ctx, method="finite_difference")
    np.testing.assert_allclose(fd.A(), A, atol=1e-9)


def test_discrete_derivative_exact_linearization():
    h = 0.5
    dd = DiscreteDerivative(1, h, suppress_initial_transient=False)
    ctx = dd.create_default_context()
    dd.get_input_port().fix_value(ctx, [0.0])
    lin = linearize(dd, ctx)
    np.testing.assert_array_equal(lin.A(), [[0.0, 0.0], [1.0, 0.0]])
    np.testing.assert_array_equal(lin.B(), [[1.0], [0.0]])
    np.testing.assert_array_equal(lin.C(), [[1.0 / h, -1.0 / h]])
    fd = linearize(dd, ctx, method="finite_difference")
    np.testing.assert_allclose(fd.C(), lin.C(), atol=1e-9)


def test_mixed_continuous_and_discrete_state_is_rejected():
    builder = DiagramBuilder()
    zoh = builder.add_system(ZeroOrderHold(0.1, 1))
    integ = builder.add_system(Integrator(1))
    builder.connect(zoh.get_output_port(), integ.get_input_port())
    builder.connect(integ.get_output_port(), zoh.get_input_port())
    diagram = builder.build()
    with pytest.raises(ValueError, match=r"both continuous state \(1\) and discrete state \(1\)"):
        linearize(diagram, diagram.create_default_context())


# ---- controllability and observability ----------------------------------------------------------

def test_controllability_and_observability_matrices():
    sys = LinearSystem(A_PLANT, B_PLANT, [[1.0, 0.0]], [[0.0]])
    np.testing.assert_allclose(controllability_matrix(sys), np.hstack([B_PLANT, A_PLANT @ B_PLANT]))
    np.testing.assert_allclose(observability_matrix(sys), np.vstack([[1.0, 0.0], A_PLANT[0]]))
    assert is_controllable(sys) and is_observable(sys)


def test_uncontrollable_and_unobservable_modes():
    A = np.diag([-1.0, 2.0])
    sys = LinearSystem(A, [[1.0], [0.0]], [[1.0, 0.0]], [[0.0]])
    assert not is_controllable(sys) and not is_observable(sys)
    assert not is_stabilizable(sys) and not is_detectable(sys)     # the mode at +2
    stable = LinearSystem(np.diag([2.0, -1.0]), [[1.0], [0.0]], [[1.0, 0.0]], [[0.0]])
    assert not is_controllable(stable) and is_stabilizable(stable) and is_detectable(stable)
