"""Drake-parity behaviour of the primitives added for pydrake users (Drake's documented
semantics, snake_case names)."""

import copy

import numpy as np
import pytest
import scipy.sparse

from merganser.framework import (Adder, DiagramBuilder, DiscreteTimeDelay,
                                 DiscreteTimeIntegrator, Integrator, PassThrough,
                                 RandomDistribution, RandomSource, Selector, SelectorParams,
                                 Simulator, SparseMatrixGain, Value, VectorLog, WrapToSystem)


def test_wrap_to_system_wraps_only_elements_with_an_interval():
    wrap = WrapToSystem(3)
    wrap.set_interval(0, -np.pi, np.pi)
    wrap.set_interval(2, 1.0, 2.0)
    ctx = wrap.create_default_context()
    wrap.get_input_port(0).fix_value(ctx, [3 * np.pi / 2, 7.5, 0.3])
    np.testing.assert_allclose(wrap.get_output_port(0).eval(ctx),
                               [-np.pi / 2, 7.5, 1.3], rtol=0, atol=1e-12)
    wrap.get_input_port(0).fix_value(ctx, [np.pi, 0.0, 2.0])   # half-open: high -> low
    np.testing.assert_allclose(wrap.get_output_port(0).eval(ctx), [-np.pi, 0.0, 1.0])
    assert wrap.has_direct_feedthrough(0, 0)
    with pytest.raises(ValueError, match="WrapToSystem.set_interval: need finite low < high"):
        wrap.set_interval(1, 2.0, 2.0)
    with pytest.raises(IndexError, match="WrapToSystem.set_interval: index must be in"):
        wrap.set_interval(3, 0.0, 1.0)


def _params():
    sel = SelectorParams.OutputSelection
    return SelectorParams(
        inputs=[SelectorParams.InputPortParams(name="x", size=3),
                SelectorParams.InputPortParams(name="y", size=2)],
        outputs=[SelectorParams.OutputPortParams(name="a", selections=[sel(1, 1), sel(0, 0)]),
                 SelectorParams.OutputPortParams(name="b", selections=[sel(0, 2)])])


def test_selector_picks_elements_and_feedthrough_follows_selections():
    dut = Selector(params=_params())
    ctx = dut.create_default_context()
    dut.get_input_port(0).fix_value(ctx, [1.0, 2.0, 3.0])
    dut.get_input_port(1).fix_value(ctx, [10.0, 20.0])
    np.testing.assert_array_equal(dut.get_output_port(0).eval(ctx), [20.0, 1.0])
    np.testing.assert_array_equal(dut.get_output_port(1).eval(ctx), [3.0])
    assert dut.get_input_port(1).get_name() == "y" and dut.get_output_port(1).get_name() == "b"
    assert dut.has_direct_feedthrough(1, 0) and not dut.has_direct_feedthrough(1, 1)


def test_selector_params_repr_and_copy_are_plain_data():
    params = _params()
    assert repr(params.inputs[0]) == "InputPortParams(name='x', size=3)"
    assert repr(params.outputs[1]) == ("OutputPortParams(name='b', selections=["
                                       "OutputSelection(input_port_index=0, input_offset=2)])")
    assert copy.deepcopy(params) == params


def test_selector_rejects_out_of_range_selection():
    params = _params()
    params.outputs[0].selections.append(SelectorParams.OutputSelection(1, 2))
    with pytest.raises(ValueError, match=r"outputs\[0\].selections\[2\] uses offset 2 of "
                                         "input port 1 of size 2"):
        Selector(params)


def test_sparse_matrix_gain_matches_dense_product_and_set_d():
    D = scipy.sparse.csc_matrix(np.array([[2.0, 0.0, 3.0], [1.0, 0.0, 0.0]]))
    dut = SparseMatrixGain(D=D)
    ctx = dut.create_default_context()
    dut.get_input_port(0).fix_value(ctx, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(dut.get_output_port(0).eval(ctx), [11.0, 1.0])
    dut.set_D(D=2 * D)
    np.testing.assert_array_equal(dut.D().toarray(), 2 * D.toarray())
    with pytest.raises(ValueError, match=r"set_D: D must have shape \(2, 3\), got \(3, 3\)"):
        dut.set_D(np.eye(3))
    empty = SparseMatrixGain(scipy.sparse.csc_matrix((1, 0)))
    ctx = empty.create_default_context()
    empty.get_input_port(0).fix_value(ctx, np.zeros(0))
    np.testing.assert_array_equal(empty.get_output_port(0).eval(ctx), [0.0])


def test_discrete_time_integrator_is_forward_euler():
    h = 0.1
    dut = DiscreteTimeIntegrator(size=2, time_step=h)
    assert dut.time_step() == h
    builder = DiagramBuilder()
    builder.add_system(dut)
    diagram = builder.build()
    simulator = Simulator(diagram)
    ctx = dut.get_my_context_from_root(simulator.get_mutable_context())
    dut.set_integral_value(ctx, [1.0, 2.0])
    dut.get_input_port(0).fix_value(ctx, [3.0, -4.0])
    simulator.advance_to(0.35)          # updates at t = 0, 0.1, 0.2, 0.3
    np.testing.assert_allclose(dut.get_output_port(0).eval(ctx),
                               [1.0 + 4 * h * 3.0, 2.0 - 4 * h * 4.0])


def test_integrator_default_integral_value_applies_to_new_contexts_only():
    dut = Integrator(size=2)
    old = dut.create_default_context()
    dut.set_default_integral_value([1.5, -2.0])
    np.testing.assert_array_equal(dut.get_output_port(0).eval(dut.create_default_context()),
                                  [1.5, -2.0])
    np.testing.assert_array_equal(dut.get_output_port(0).eval(old), [0.0, 0.0])
    with pytest.raises(ValueError, match="set_default_integral_value: value has size 3"):
        dut.set_default_integral_value([1.0, 2.0, 3.0])


def test_random_distribution_enum_equals_its_string():
    assert RandomDistribution.kGaussian == "gaussian"
    assert {RandomDistribution.kUniform: 1}["uniform"] == 1
    source = RandomSource(RandomDistribution.kExponential, num_outputs=500,
                          sampling_interval_sec=0.1, seed=3)
    assert source.get_distribution() is RandomDistribution.kExponential
    samples = source.get_output_port(0).eval(source.create_default_context())
    assert samples.min() >= 0.0 and 0.8 < samples.mean() < 1.2     # rate 1: mean 1


def test_vector_log_default_capacity_is_drakes():
    assert VectorLog.kDefaultCapacity == 1000
    log = VectorLog(2)
    log.reserve(3 * VectorLog.kDefaultCapacity)
    log.add_data(0.5, [1.0, 2.0])
    np.testing.assert_array_equal(log.data(), [[1.0], [2.0]])


def test_abstract_discrete_time_delay_delays_by_whole_periods():
    delay = DiscreteTimeDelay(update_sec=0.1, delay_time_steps=2,
                              abstract_model_value=Value("start"))
    builder = DiagramBuilder()
    builder.add_system(delay)
    simulator = Simulator(builder.build())
    ctx = delay.get_my_context_from_root(simulator.get_mutable_context())
    seen = []
    for k, word in enumerate(["a", "b", "c", "d"]):
        delay.get_input_port(0).fix_value(ctx, word)
        simulator.advance_to(0.1 * k + 0.05)          # one sample at t = 0.1 k
        seen.append(delay.get_output_port(0).eval(ctx))
    assert seen == ["start", "start", "a", "b"]


def test_pass_through_input_may_stay_unconnected():
    dut = PassThrough(value=[1.0, 2.0])
    ctx = dut.create_default_context()
    np.testing.assert_array_equal(dut.get_output_port(0).eval(ctx), [1.0, 2.0])
    dut.get_input_port(0).fix_value(ctx, [5.0, 6.0])
    np.testing.assert_array_equal(dut.get_output_port(0).eval(ctx), [5.0, 6.0])
    assert not dut.get_input_port(0).is_required()


def test_adder_with_zero_size_and_zero_inputs():
    adder = Adder(0, 0)
    assert adder.get_output_port(0).size() == 0


def test_linear_transform_density_of_gaussian_is_change_of_variables():
    from merganser.framework import LinearTransformDensity
    dut = LinearTransformDensity(distribution=RandomDistribution.kGaussian, input_size=2,
                                 output_size=2)
    assert dut.get_input_port_A().size() == 4 and dut.get_distribution() == "gaussian"
    ctx = dut.create_default_context()
    w_in = np.array([0.5, -1.0])
    A = np.array([[2.0, 1.0], [0.0, 3.0]])
    dut.get_input_port_w_in().fix_value(ctx, w_in)
    dut.fix_constant_a(ctx, A)
    np.testing.assert_allclose(dut.get_output_port_w_out().eval(ctx), A @ w_in)   # b = 0
    dut.fix_constant_b(ctx, [1.0, 2.0])
    np.testing.assert_allclose(dut.get_output_port_w_out().eval(ctx), A @ w_in + [1.0, 2.0])
    expected = np.exp(-0.5 * w_in @ w_in) / (2 * np.pi) / 6.0        # |det A| = 6
    assert dut.calc_density(ctx) == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(dut.get_output_port_w_out_density().eval(ctx), [expected])
    dut.fix_constant_a(ctx, [[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(ValueError, match="A must be square and invertible"):
        dut.calc_density(ctx)


def test_linear_transform_density_of_uniform_is_zero_off_support():
    from merganser.framework import LinearTransformDensity
    dut = LinearTransformDensity("uniform", 1, 1)
    ctx = dut.create_default_context()
    dut.fix_constant_a(ctx, [[0.5]])
    dut.get_input_port_w_in().fix_value(ctx, [0.3])
    assert dut.calc_density(ctx) == pytest.approx(2.0)
    dut.get_input_port_w_in().fix_value(ctx, [1.3])
    assert dut.calc_density(ctx) == 0.0


def test_shared_pointer_system_keeps_its_object_with_the_diagram():
    from merganser.framework import SharedPointerSystem
    held = [1, 2, 3]
    assert SharedPointerSystem(value_to_hold=held).get() is held
    assert SharedPointerSystem(value_to_hold=None).get() is None
    builder = DiagramBuilder()
    assert SharedPointerSystem.add_to_builder(builder=builder, value_to_hold=held) is held
    diagram = builder.build()
    (system,) = diagram.get_systems()
    assert system.get() is held and system.num_input_ports() == system.num_output_ports() == 0


def test_vector_log_sink_and_log_vector_output_take_pydrakes_positional_forms():
    from merganser.framework import TriggerType, VectorLogSink, log_vector_output
    sink = VectorLogSink(1, {TriggerType.kPeriodic}, 0.125)
    assert sink.publish_period() == 0.125
    assert sink.get_publish_triggers() == {TriggerType.PERIODIC}
    assert VectorLogSink(1, {TriggerType.kForced}).get_publish_triggers() == {TriggerType.FORCED}
    builder = DiagramBuilder()
    integrator = builder.add_system(Integrator(1))
    logger = log_vector_output(integrator.get_output_port(0), builder, {TriggerType.kPeriodic},
                               0.25)
    assert logger.publish_period() == 0.25
    diagram = builder.build()
    ctx = diagram.create_default_context()
    integrator.get_input_port(0).fix_value(integrator.get_my_context_from_root(ctx), [1.0])
    simulator = Simulator(diagram, ctx)
    simulator.advance_to(1.0)
    log = logger.find_log(simulator.get_context())
    np.testing.assert_allclose(log.sample_times(), [0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(log.data()[0], log.sample_times(), atol=1e-12)   # x = t


def test_add_random_inputs_feeds_unconnected_random_ports_only():
    from merganser.framework import LinearTransformDensity, add_random_inputs
    builder = DiagramBuilder()
    density = builder.add_system(LinearTransformDensity("gaussian", 2, 2))
    assert density.get_input_port_w_in().get_random_type() is RandomDistribution.kGaussian
    assert not density.get_input_port_A().is_random()
    assert add_random_inputs(sampling_interval_sec=0.01, builder=builder) == 1
    assert add_random_inputs(0.01, builder) == 0          # now connected
    sources = [s for s in builder.get_systems() if isinstance(s, RandomSource)]
    assert len(sources) == 1 and sources[0].get_distribution() == "gaussian"
    builder.export_input(density.get_input_port_A(), "A")
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(ctx, np.eye(2).reshape(-1))
    w_in = sources[0].get_output_port(0).eval(sources[0].get_my_context_from_root(ctx))
    np.testing.assert_allclose(
        density.get_output_port_w_out().eval(density.get_my_context_from_root(ctx)), w_in)


def test_zero_order_hold_set_vector_state_sets_the_held_value():
    from merganser.framework import ZeroOrderHold
    zoh = ZeroOrderHold(period_sec=0.1, vector_size=2)
    ctx = zoh.create_default_context()
    zoh.set_vector_state(ctx, [1.0, -2.0])
    np.testing.assert_array_equal(zoh.get_output_port().eval(ctx), [1.0, -2.0])
    with pytest.raises(ValueError):
        zoh.set_vector_state(ctx, [1.0])
    abstract = ZeroOrderHold(period_sec=0.1, abstract_model_value="x")
    with pytest.raises(TypeError, match="holds abstract values"):
        abstract.set_vector_state(abstract.create_default_context(), [1.0])
