"""Tests for framework.primitives: ports, values, direct feedthrough, discrete timing."""

import inspect

import numpy as np
import pytest

import merganser.framework.primitives as primitives
from merganser.framework import DiagramBuilder, LeafSystem, Simulator, Value
from merganser.framework.primitives import (Adder, AffineSystem, ConstantValueSource,
                                  ConstantVectorSource, Demultiplexer, DiscreteDerivative,
                                  FirstOrderLowPassFilter, Gain, Integrator, LinearSystem,
                                  MatrixGain, Multiplexer, PassThrough, RandomSource, Saturation,
                                  Sine, StateInterpolatorWithDiscreteDerivative,
                                  TrajectorySource, ZeroOrderHold)
from merganser.framework.trajectories import PiecewisePolynomial


def _fixed_context(system, *inputs):
    """A default context of ``system`` with input port i fixed to inputs[i]."""
    ctx = system.create_default_context()
    for i, value in enumerate(inputs):
        system.get_input_port(i).fix_value(ctx, value)
    return ctx


def _source_into(source, system, input_index=0):
    """Diagram source -> system; returns (diagram, system)."""
    builder = DiagramBuilder()
    builder.add_system(source)
    builder.add_system(system)
    builder.connect(source.get_output_port(0), system.get_input_port(input_index))
    return builder.build(), system


# ---- docstrings ---------------------------------------------------------------------------------

# Every primitive system but SharedPointerSystem (it has no ports).
@pytest.mark.parametrize("name", [n for n in primitives.__all__
                                  if isinstance(getattr(primitives, n), type)
                                  and issubclass(getattr(primitives, n), LeafSystem)
                                  and n != "SharedPointerSystem"])
def test_primitive_docstring_opens_with_port_block(name):
    doc = inspect.getdoc(getattr(primitives, name))
    head = doc.split("Parameters")[0]
    assert "──▶" in head and "│" in head


# ---- stateless vector primitives ----------------------------------------------------------------

def test_adder_sums_inputs_and_is_direct_feedthrough():
    adder = Adder(3, 2)
    assert adder.num_input_ports() == 3
    assert [adder.get_input_port(i).get_name() for i in range(3)] == ["u0", "u1", "u2"]
    assert adder.get_output_port().get_name() == "sum"
    assert adder.get_output_port().size() == 2
    ctx = _fixed_context(adder, [1.0, 2.0], [10.0, 20.0], [-0.5, 0.25])
    np.testing.assert_array_equal(adder.get_output_port().eval(ctx), [10.5, 22.25])
    assert all(adder.has_direct_feedthrough(i, 0) for i in range(3))


def test_adder_with_no_inputs_outputs_zero_and_rejects_negative_counts():
    # Drake's Adder accepts zero inputs; the sum of nothing is zero.
    adder = Adder(0, 2)
    assert adder.num_input_ports() == 0
    np.testing.assert_array_equal(adder.get_output_port().eval(adder.create_default_context()),
                                  [0.0, 0.0])
    with pytest.raises(ValueError, match="Adder: num_inputs must be >= 0, got -1"):
        Adder(-1, 2)


def test_gain_scales_elementwise():
    gain = Gain([2.0, -3.0])
    assert gain.get_input_port().size() == gain.get_output_port().size() == 2
    ctx = _fixed_context(gain, [1.5, 2.0])
    np.testing.assert_array_equal(gain.get_output_port().eval(ctx), [3.0, -6.0])
    assert gain.has_direct_feedthrough(0, 0)
    with pytest.raises(RuntimeError, match="different gain per element"):
        gain.get_gain()
    assert Gain(4.0, 3).get_gain() == 4.0
    assert Gain(4.0, 3).get_output_port().size() == 3


def test_matrix_gain_multiplies_and_exposes_D():
    D = np.array([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
    mg = MatrixGain(D)
    assert mg.get_input_port().size() == 3 and mg.get_output_port().size() == 2
    ctx = _fixed_context(mg, [1.0, 1.0, 2.0])
    np.testing.assert_array_equal(mg.get_output_port().eval(ctx), D @ [1.0, 1.0, 2.0])
    np.testing.assert_array_equal(mg.D(), D)
    assert mg.has_direct_feedthrough(0, 0)
    np.testing.assert_array_equal(MatrixGain(2).D(), np.eye(2))


def test_pass_through_vector_copies_input():
    pt = PassThrough(3)
    ctx = _fixed_context(pt, [1.0, -2.0, 3.0])
    np.testing.assert_array_equal(pt.get_output_port().eval(ctx), [1.0, -2.0, 3.0])
    assert pt.has_direct_feedthrough(0, 0)
    assert PassThrough([0.0] * 4).get_output_port().size() == 4


def test_pass_through_abstract_copies_object():
    pt = PassThrough(Value({"a": 1}))
    assert pt.is_abstract()
    ctx = pt.create_default_context()
    pt.get_input_port().fix_value(ctx, {"a": 7, "b": [1, 2]})
    assert pt.get_output_port().eval(ctx) == {"a": 7, "b": [1, 2]}
    assert pt.has_direct_feedthrough(0, 0)


def test_multiplexer_stacks_inputs():
    mux = Multiplexer([2, 1])
    assert mux.get_output_port().size() == 3
    ctx = _fixed_context(mux, [1.0, 2.0], [3.0])
    np.testing.assert_array_equal(mux.get_output_port().eval(ctx), [1.0, 2.0, 3.0])
    assert mux.has_direct_feedthrough(0, 0) and mux.has_direct_feedthrough(1, 0)
    assert Multiplexer(4).get_input_sizes() == (1, 1, 1, 1)


def test_demultiplexer_splits_input():
    demux = Demultiplexer([1, 3])
    assert [demux.get_output_port(i).size() for i in range(2)] == [1, 3]
    ctx = _fixed_context(demux, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(demux.get_output_port(0).eval(ctx), [1.0])
    np.testing.assert_array_equal(demux.get_output_port(1).eval(ctx), [2.0, 3.0, 4.0])
    assert demux.has_direct_feedthrough(0, 0) and demux.has_direct_feedthrough(0, 1)
    assert Demultiplexer(6, 2).get_output_ports_sizes() == (2, 2, 2)
    with pytest.raises(ValueError, match="size 5 is not a multiple of output_ports_size 2"):
        Demultiplexer(5, 2)


def test_saturation_constant_limits():
    sat = Saturation([-1.0, 0.0], [1.0, 0.5])
    ctx = _fixed_context(sat, [3.0, 0.25])
    np.testing.assert_array_equal(sat.get_output_port().eval(ctx), [1.0, 0.25])
    sat.get_input_port().fix_value(ctx, [-3.0, -1.0])
    np.testing.assert_array_equal(sat.get_output_port().eval(ctx), [-1.0, 0.0])
    assert sat.has_direct_feedthrough(0, 0)
    with pytest.raises(ValueError, match=r"min_value\[1\] = 2.0 exceeds max_value\[1\] = 1.0"):
        Saturation([0.0, 2.0], [1.0, 1.0])


def test_saturation_variable_limits():
    sat = Saturation(input_size=2)
    assert [sat.get_input_port(i).get_name() for i in range(3)] == ["u0", "max_value", "min_value"]
    ctx = _fixed_context(sat, [5.0, -5.0], [2.0, 2.0], [-3.0, -3.0])
    np.testing.assert_array_equal(sat.get_output_port().eval(ctx), [2.0, -3.0])
    assert all(sat.has_direct_feedthrough(i, 0) for i in range(3))
    sat.get_min_value_port().fix_value(ctx, [3.0, 0.0])
    with pytest.raises(ValueError, match=r"min_value\[0\] = 3.0 greater than max_value\[0\]"):
        sat.get_output_port().eval(ctx)


# ---- sources ------------------------------------------------------------------------------------

def test_constant_vector_source_value_is_a_per_context_parameter():
    src = ConstantVectorSource([1.0, 2.0])
    assert src.num_input_ports() == 0 and src.get_output_port().get_name() == "y0"
    ctx = src.create_default_context()
    other = ctx.clone()
    src.set_source_value(other, [5.0, 6.0])
    np.testing.assert_array_equal(src.get_output_port().eval(ctx), [1.0, 2.0])
    np.testing.assert_array_equal(src.get_output_port().eval(other), [5.0, 6.0])
    np.testing.assert_array_equal(src.get_source_value(other), [5.0, 6.0])
    src.get_mutable_source_value(ctx).set_value([7.0, 8.0])
    np.testing.assert_array_equal(src.get_output_port().eval(ctx), [7.0, 8.0])


def test_constant_value_source_outputs_copy_of_value():
    src = ConstantValueSource(Value([1, 2, 3]))
    ctx = src.create_default_context()
    assert src.get_output_port().get_data_type() == "abstract"
    assert src.get_output_port().eval(ctx) == [1, 2, 3]


def test_sine_time_based_outputs_value_and_two_derivatives():
    a, w, phi = np.array([2.0, 0.5]), np.array([3.0, 1.0]), np.array([0.1, -0.4])
    sine = Sine(a, w, phi)
    assert sine.num_input_ports() == 0 and sine.num_output_ports() == 3
    ctx = sine.create_default_context()
    t = 0.7
    ctx.set_time(t)
    angle = w * t + phi
    np.testing.assert_allclose(sine.get_output_port(0).eval(ctx), a * np.sin(angle), rtol=1e-15)
    np.testing.assert_allclose(sine.get_output_port(1).eval(ctx), a * w * np.cos(angle), rtol=1e-15)
    np.testing.assert_allclose(sine.get_output_port(2).eval(ctx), -a * w**2 * np.sin(angle),
                               rtol=1e-15)


def test_sine_input_based_is_direct_feedthrough():
    sine = Sine(1.5, 2.0, 0.0, size=1, is_time_based=False)
    ctx = _fixed_context(sine, [0.3])
    assert sine.get_output_port(0).eval(ctx)[0] == pytest.approx(1.5 * np.sin(0.6), rel=1e-15)
    assert all(sine.has_direct_feedthrough(0, j) for j in range(3))
    assert Sine(1.0, 1.0, 0.0).num_input_ports() == 0    # time-based: no input at all


def test_trajectory_source_outputs_value_and_derivative():
    breaks = [0.0, 1.0, 2.0]
    samples = np.array([[0.0, 1.0, 4.0]])
    traj = PiecewisePolynomial.first_order_hold(breaks, samples)
    src = TrajectorySource(traj, output_derivative_order=1)
    assert src.get_output_port().size() == 2
    ctx = src.create_default_context()
    ctx.set_time(1.5)
    np.testing.assert_allclose(src.get_output_port().eval(ctx), [2.5, 3.0], rtol=1e-14)
    ctx.set_time(3.0)   # beyond the end: value held, derivative zeroed
    np.testing.assert_allclose(src.get_output_port().eval(ctx), [4.0, 0.0], atol=1e-14)


def test_trajectory_source_rejects_matrix_trajectory():
    traj = PiecewisePolynomial.zero_order_hold([0.0, 1.0], np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="TrajectorySource: trajectory must have one column"):
        TrajectorySource(traj)


def test_random_source_is_piecewise_constant_and_reproducible():
    h = 0.1
    diagram_builder = DiagramBuilder()
    src = diagram_builder.add_system(RandomSource("gaussian", 3, h, seed=42))
    diagram = diagram_builder.build()
    ctx = diagram.create_default_context()
    first = np.array(src.get_output_port().eval(ctx))
    sim = Simulator(diagram, ctx)
    sim.advance_to(0.05)
    np.testing.assert_array_equal(src.get_output_port().eval(ctx), first)  # held until h
    sim.advance_to(0.15)
    second = np.array(src.get_output_port().eval(ctx))
    assert not np.array_equal(first, second)
    # the same seed reproduces the same stream
    rng = np.random.default_rng(42)
    np.testing.assert_array_equal(first, rng.standard_normal(3))
    np.testing.assert_array_equal(second, rng.standard_normal(3))


def test_random_source_reseeds_from_set_random_context():
    src = RandomSource("uniform", 2, 0.5, seed=1)
    a, b = src.create_default_context(), src.create_default_context()
    src.set_random_context(a, np.random.default_rng(7))
    src.set_random_context(b, np.random.default_rng(7))
    np.testing.assert_array_equal(src.get_output_port().eval(a), src.get_output_port().eval(b))
    src.set_random_context(b, np.random.default_rng(8))
    assert not np.array_equal(src.get_output_port().eval(a), src.get_output_port().eval(b))
    assert np.all((src.get_output_port().eval(a) >= 0.0) & (src.get_output_port().eval(a) < 1.0))


def test_random_source_exponential_samples_are_positive():
    src = RandomSource("exponential", 200, 1.0, seed=3)
    y = src.get_output_port().eval(src.create_default_context())
    assert np.all(y >= 0.0) and 0.7 < y.mean() < 1.3


def test_random_source_rejects_unknown_distribution():
    with pytest.raises(ValueError, match="RandomSource: distribution must be one of"):
        RandomSource("poisson", 1, 0.1)


# ---- continuous-state primitives ----------------------------------------------------------------

def test_integrator_of_constant_is_linear_in_time():
    c = np.array([1.5, -2.0])
    diagram, integ = _source_into(ConstantVectorSource(c), Integrator(2))
    assert not integ.has_direct_feedthrough(0, 0)
    ctx = diagram.create_default_context()
    integ.set_integral_value(integ.get_my_context_from_root(ctx), [0.5, 1.0])
    Simulator(diagram, ctx).advance_to(2.0)
    np.testing.assert_allclose(integ.get_output_port().eval(integ.get_my_context_from_root(ctx)),
                               [0.5 + 3.0, 1.0 - 4.0], atol=1e-12)


def test_first_order_low_pass_filter_step_response():
    from merganser.framework.simulator_config import SimulatorConfig

    tau = np.array([0.5, 2.0])
    diagram, lpf = _source_into(ConstantVectorSource([1.0, -3.0]), FirstOrderLowPassFilter(tau))
    assert not lpf.has_direct_feedthrough(0, 0)
    result = diagram.simulate(3.0, config=SimulatorConfig(integration_scheme="runge_kutta5",
                                                          accuracy=1e-10),
                              record={"y": lpf.get_output_port()})
    t = result.time
    exact = np.array([1.0, -3.0])[:, None] * (1.0 - np.exp(-t[None, :] / tau[:, None]))
    np.testing.assert_allclose(result.outputs["y"], exact, atol=1e-8)


def test_first_order_low_pass_filter_rejects_nonpositive_time_constant():
    with pytest.raises(ValueError, match=r"time_constant\[1\] must be > 0, got 0.0"):
        FirstOrderLowPassFilter([1.0, 0.0])


def test_continuous_linear_system_derivatives_and_output():
    A = np.array([[0.0, 1.0], [-2.0, -0.3]])
    B = np.array([[0.0], [1.0]])
    C = np.array([[1.0, 0.5]])
    D = np.array([[2.0]])
    sys = LinearSystem(A, B, C, D)
    assert sys.has_direct_feedthrough(0, 0)
    assert (sys.get_input_port().get_name(), sys.get_output_port().get_name()) == ("u0", "y0")
    ctx = _fixed_context(sys, [0.7])
    sys.set_state(ctx, [1.0, -1.0])
    np.testing.assert_allclose(sys.eval_time_derivatives(ctx), A @ [1.0, -1.0] + B @ [0.7])
    np.testing.assert_allclose(sys.get_output_port().eval(ctx), C @ [1.0, -1.0] + D @ [0.7])
    assert sys.time_period() == 0.0


def test_linear_system_without_D_is_not_feedthrough():
    sys = LinearSystem([[-1.0]], [[1.0]], [[1.0]], [[0.0]])
    assert not sys.has_direct_feedthrough(0, 0)


def test_affine_system_offsets_and_default_state():
    sys = AffineSystem([[-1.0]], [[2.0]], [0.5], [[3.0]], [[0.0]], [1.0])
    sys.configure_default_state([4.0])
    ctx = _fixed_context(sys, [1.0])
    assert sys.get_state(ctx)[0] == 4.0
    assert sys.eval_time_derivatives(ctx)[0] == pytest.approx(-4.0 + 2.0 + 0.5)
    assert sys.get_output_port().eval(ctx)[0] == pytest.approx(3.0 * 4.0 + 1.0)
    np.testing.assert_array_equal(sys.f0(), [0.5])
    np.testing.assert_array_equal(sys.y0(), [1.0])


def test_linear_system_rejects_inconsistent_shapes():
    with pytest.raises(ValueError, match=r"LinearSystem: B has shape \(3, 1\), expected \(2, 1\)"):
        LinearSystem(np.eye(2), np.ones((3, 1)), np.eye(2), np.zeros((2, 1)))


# ---- discrete primitives ------------------------------------------------------------------------

def _sine_value(t):
    return 2.0 * np.sin(3.0 * t + 0.3)


def test_zero_order_hold_samples_at_period_and_holds():
    h = 0.1
    diagram, zoh = _source_into(Sine(2.0, 3.0, 0.3, 1), ZeroOrderHold(h, 1))
    assert not zoh.has_direct_feedthrough(0, 0)
    ctx = diagram.create_default_context()
    sim = Simulator(diagram, ctx)
    sim.advance_to(0.35)      # samples taken at 0, 0.1, 0.2, 0.3
    y = zoh.get_output_port().eval(zoh.get_my_context_from_root(ctx))[0]
    assert y == pytest.approx(_sine_value(0.3), abs=1e-14)
    sim.advance_to(0.4)       # an update due at 0.4 is not applied by advance_to(0.4)
    y = zoh.get_output_port().eval(zoh.get_my_context_from_root(ctx))[0]
    assert y == pytest.approx(_sine_value(0.3), abs=1e-14)


def test_zero_order_hold_with_offset():
    diagram, zoh = _source_into(Sine(2.0, 3.0, 0.3, 1), ZeroOrderHold(0.2, 1, offset_sec=0.05))
    ctx = diagram.create_default_context()
    Simulator(diagram, ctx).advance_to(0.3)     # samples at 0.05 and 0.25
    y = zoh.get_output_port().eval(zoh.get_my_context_from_root(ctx))[0]
    assert y == pytest.approx(_sine_value(0.25), abs=1e-14)


@pytest.mark.parametrize("suppress", [True, False])
def test_discrete_derivative_backward_difference(suppress):
    h = 0.1
    diagram, dd = _source_into(Sine(2.0, 3.0, 0.3, 1), DiscreteDerivative(1, h, suppress))
    assert not dd.has_direct_feedthrough(0, 0)
    assert dd.get_output_port().get_name() == "dudt"
    ctx = diagram.create_default_context()
    dd_ctx = dd.get_my_context_from_root(ctx)
    sim = Simulator(diagram, ctx)
    sim.advance_to(0.05)      # one sample (t = 0)
    first = dd.get_output_port().eval(dd_ctx)[0]
    assert first == pytest.approx(0.0 if suppress else _sine_value(0.0) / h, abs=1e-13)
    sim.advance_to(0.35)      # samples at 0, 0.1, 0.2, 0.3
    expected = (_sine_value(0.3) - _sine_value(0.2)) / h
    assert dd.get_output_port().eval(dd_ctx)[0] == pytest.approx(expected, abs=1e-12)


def test_discrete_derivative_input_history_ends_suppression():
    dd = DiscreteDerivative(2, 0.5)
    ctx = dd.create_default_context()
    dd.set_input_history(ctx, [1.0, 2.0], [0.0, 3.0])
    np.testing.assert_allclose(dd.get_output_port().eval(ctx), [2.0, -2.0])


def test_discrete_linear_system_after_advance_to():
    A = np.array([[1.0, 0.1], [0.0, 0.9]])
    B = np.array([[0.0], [0.1]])
    C = np.array([[1.0, 0.0]])
    h = 0.1
    diagram, sys = _source_into(ConstantVectorSource([2.0]),
                                LinearSystem(A, B, C, np.zeros((1, 1)), time_period=h))
    assert sys.time_period() == h and not sys.has_direct_feedthrough(0, 0)
    ctx = diagram.create_default_context()
    sys.set_state(sys.get_my_context_from_root(ctx), [1.0, 0.0])
    Simulator(diagram, ctx).advance_to(0.35)    # four updates: t = 0, 0.1, 0.2, 0.3
    x = np.array([1.0, 0.0])
    for _ in range(4):
        x = A @ x + B @ [2.0]
    sub = sys.get_my_context_from_root(ctx)
    np.testing.assert_allclose(sys.get_state(sub), x, rtol=1e-15)
    np.testing.assert_allclose(sys.get_output_port().eval(sub), C @ x, rtol=1e-15)


def test_state_interpolator_outputs_position_and_difference():
    h = 0.1
    diagram, si = _source_into(Sine(2.0, 3.0, 0.3, 1),
                               StateInterpolatorWithDiscreteDerivative(1, h))
    assert si.has_direct_feedthrough(0, 0)
    ctx = diagram.create_default_context()
    Simulator(diagram, ctx).advance_to(0.25)    # samples at 0, 0.1, 0.2
    y = si.get_output_port().eval(si.get_my_context_from_root(ctx))
    np.testing.assert_allclose(y, [_sine_value(0.25), (_sine_value(0.2) - _sine_value(0.1)) / h],
                               atol=1e-12)


def test_state_interpolator_set_initial_state():
    si = StateInterpolatorWithDiscreteDerivative(2, 0.01)
    ctx = _fixed_context(si, [1.0, 2.0])
    si.set_initial_state(ctx, [1.0, 2.0], [0.5, -4.0])
    np.testing.assert_allclose(si.get_output_port().eval(ctx), [1.0, 2.0, 0.5, -4.0], atol=1e-12)
    si.set_initial_position(ctx, [1.0, 2.0])
    np.testing.assert_allclose(si.get_output_port().eval(ctx)[2:], [0.0, 0.0])


def test_saturation_linearization_follows_active_branch():
    sat = Saturation(input_size=3)
    ctx = _fixed_context(sat, [0.5, 5.0, -5.0], [1.0, 1.0, 1.0], [-1.0, -1.0, -1.0])
    A, B, C, D = sat.do_calc_linearization(ctx)
    assert A.shape == (0, 0) and C.shape == (3, 0)
    np.testing.assert_array_equal(D[:, 0:3], np.diag([1.0, 0.0, 0.0]))   # ∂y/∂u0
    np.testing.assert_array_equal(D[:, 3:6], np.diag([0.0, 1.0, 0.0]))   # ∂y/∂max_value
    np.testing.assert_array_equal(D[:, 6:9], np.diag([0.0, 0.0, 1.0]))   # ∂y/∂min_value
    _, _, _, D_u = sat.do_calc_linearization(ctx, input_port_index="u0")
    np.testing.assert_array_equal(D_u, np.diag([1.0, 0.0, 0.0]))


def test_diagram_and_context_pickle_and_continue_identically():
    import pickle

    builder = DiagramBuilder()
    noise = builder.add_system(RandomSource("gaussian", 1, 0.1, seed=5))
    zoh = builder.add_system(ZeroOrderHold(0.05, 1))
    integ = builder.add_system(Integrator(1))
    builder.connect(noise.get_output_port(), zoh.get_input_port())
    builder.connect(zoh.get_output_port(), integ.get_input_port())
    diagram = builder.build()
    ctx = diagram.create_default_context()
    Simulator(diagram, ctx).advance_to(0.5)
    diagram2, ctx2 = pickle.loads(pickle.dumps((diagram, ctx)))
    Simulator(diagram, ctx).advance_to(1.0)
    Simulator(diagram2, ctx2).advance_to(1.0)
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(),
                                  ctx2.get_continuous_state_vector())
    np.testing.assert_array_equal(ctx.get_discrete_state_vector(), ctx2.get_discrete_state_vector())


def test_affine_system_random_state_is_gaussian_about_default():
    sys = LinearSystem(-np.eye(2), np.zeros((2, 0)), np.eye(2), np.zeros((2, 0)))
    sys.configure_default_state([1.0, -1.0])
    cov = np.array([[4.0, 1.0], [1.0, 2.0]])
    sys.configure_random_state(cov)
    ctx = sys.create_default_context()
    sys.set_random_context(ctx, np.random.default_rng(11))
    w = np.random.default_rng(11).standard_normal(2)
    np.testing.assert_allclose(sys.get_state(ctx), [1.0, -1.0] + np.linalg.cholesky(cov) @ w,
                               rtol=1e-15)
    with pytest.raises(ValueError, match="covariance must be symmetric positive definite"):
        sys.configure_random_state(-np.eye(2))
