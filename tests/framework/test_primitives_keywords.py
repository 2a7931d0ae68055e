"""Primitives take pydrake's keyword arguments (and API.md's); a typo lists the valid ones."""

import math

import numpy as np
import pytest

from merganser.framework import (Adder, AffineSystem, ConstantVectorSource, Demultiplexer,
                                 DiscreteTimeDelay, PortError, PortSwitch,
                                 DiagramBuilder, DiscreteDerivative, FirstOrderLowPassFilter,
                                 Gain, Integrator, LinearSystem, MatrixGain, Multiplexer,
                                 PassThrough, Saturation, Simulator, Sine, TriggerType, Value,
                                 VectorLog, VectorLogSink, ZeroOrderHold, log_vector_output)


def _output(system, inputs=(), t=0.0, port=0):
    context = system.create_default_context()
    context.set_time(t)
    for i, u in enumerate(inputs):
        system.get_input_port(i).fix_value(context, u)
    return system.get_output_port(port).eval(context)


def test_integrator_size_or_initial_value():
    assert Integrator(size=3).num_continuous_states() == 3
    system = Integrator(initial_value=[1.0, 2.0])
    np.testing.assert_array_equal(
        system.create_default_context().get_continuous_state_vector(), [1.0, 2.0])
    assert Integrator(2).num_continuous_states() == 2                    # API.md positional
    with pytest.raises(TypeError, match="exactly one of size"):
        Integrator(size=2, initial_value=[1.0, 2.0])


def test_pass_through_vector_size_value_and_abstract_model():
    assert PassThrough(vector_size=2).get_input_port().size() == 2
    assert PassThrough(value=np.zeros(3)).get_output_port().size() == 3
    assert PassThrough(size=4).get_input_port().size() == 4              # API.md name
    abstract = PassThrough(abstract_model_value=Value("model"))
    assert abstract.is_abstract()
    assert _output(abstract, ["hello"]) == "hello"


def test_multiplexer_three_forms():
    assert Multiplexer(num_scalar_inputs=3).num_input_ports() == 3
    mux = Multiplexer(input_sizes=[2, 1])
    np.testing.assert_array_equal(_output(mux, [[1.0, 2.0], [3.0]]), [1.0, 2.0, 3.0])
    model = Multiplexer(model_vector=np.zeros(4))
    assert model.num_input_ports() == 4 and model.get_output_port().size() == 4
    assert Multiplexer(sizes=[1, 1]).num_input_ports() == 2              # API.md name


def test_demultiplexer_size_and_output_ports_size_or_sizes():
    demux = Demultiplexer(size=6, output_ports_size=2)
    assert demux.num_output_ports() == 3
    np.testing.assert_array_equal(_output(demux, [np.arange(6.0)], port=2), [4.0, 5.0])
    assert Demultiplexer(output_ports_sizes=[1, 2]).get_output_ports_sizes() == (1, 2)
    assert Demultiplexer(6, 3).num_output_ports() == 2


def test_sine_vector_keywords_and_scalar_keywords():
    sine = Sine(amplitudes=[1.0, 2.0], frequencies=[3.0, 1.0], phases=[0.0, 0.5],
                is_time_based=True)
    t = 0.3
    np.testing.assert_allclose(_output(sine, t=t), [math.sin(0.9), 2.0 * math.sin(0.3 + 0.5)])
    scalar = Sine(amplitude=2.0, frequency=3.0, phase=0.5, size=2)
    np.testing.assert_allclose(_output(scalar, t=t), [2.0 * math.sin(1.4)] * 2)
    driven = Sine([1.0], [2.0], [0.0], False)                 # pydrake's positional vector form
    assert driven.num_input_ports() == 1
    np.testing.assert_allclose(_output(driven, [[0.25]]), [math.sin(0.5)])


def test_first_order_low_pass_filter_time_constant_or_time_constants():
    filt = FirstOrderLowPassFilter(time_constant=0.5, size=2)
    np.testing.assert_array_equal(filt.get_time_constants_vector(), [0.5, 0.5])
    assert filt.get_time_constant() == 0.5
    filt = FirstOrderLowPassFilter(time_constants=[0.1, 0.2])
    np.testing.assert_array_equal(filt.get_time_constants_vector(), [0.1, 0.2])


def test_zero_order_hold_vector_size_and_offset():
    zoh = ZeroOrderHold(period_sec=0.1, vector_size=2, offset_sec=0.05)
    assert (zoh.period(), zoh.offset()) == (0.1, 0.05)
    context = zoh.create_default_context()
    zoh.get_input_port().fix_value(context, [1.0, 2.0])
    simulator = Simulator(zoh, context)
    simulator.advance_to(0.04)
    np.testing.assert_array_equal(zoh.get_output_port().eval(context), [0.0, 0.0])
    simulator.advance_to(0.06)
    np.testing.assert_array_equal(zoh.get_output_port().eval(context), [1.0, 2.0])
    assert ZeroOrderHold(0.1, size=3).get_input_port().size() == 3      # API.md name


def test_zero_order_hold_of_an_abstract_value_holds_it():
    zoh = ZeroOrderHold(period_sec=0.1, abstract_model_value=Value("none"))
    context = zoh.create_default_context()
    zoh.get_input_port().fix_value(context, "sampled")
    assert zoh.get_output_port().eval(context) == "none"
    Simulator(zoh, context).advance_to(0.05)     # the sample at t = 0 was latched
    assert zoh.get_output_port().eval(context) == "sampled"


def test_gain_adder_constant_source_saturation_keywords():
    np.testing.assert_array_equal(_output(Gain(k=2.0, size=3), [[1.0, 2.0, 3.0]]),
                                  [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(_output(Gain(k=[1.0, -1.0]), [[3.0, 3.0]]), [3.0, -3.0])
    np.testing.assert_array_equal(
        _output(Adder(num_inputs=3, size=2), [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), [9.0, 12.0])
    np.testing.assert_array_equal(_output(ConstantVectorSource(source_value=[1.0, 2.0])),
                                  [1.0, 2.0])
    np.testing.assert_array_equal(
        _output(Saturation(min_value=[-1.0, 0.0], max_value=[1.0, 2.0]), [[5.0, -3.0]]),
        [1.0, 0.0])


def test_linear_system_accepts_one_element_lists_for_1x1_matrices():
    system = LinearSystem(A=[1], B=[1], C=[1], D=[0], time_period=0.0)
    for matrix in (system.A(), system.B(), system.C(), system.D()):
        assert matrix.shape == (1, 1)
    assert system.A()[0, 0] == 1.0 and system.D()[0, 0] == 0.0
    # a 1-D array is a column, as pydrake's matrix conversion makes it
    column = LinearSystem(A=[[0.0, 1.0], [-1.0, 0.0]], B=[0.0, 1.0], C=[[1.0, 0.0]], D=[0.0])
    assert column.B().shape == (2, 1) and column.D().shape == (1, 1)


def test_linear_system_with_empty_matrices_is_a_pure_gain():
    system = LinearSystem(A=np.zeros((0, 0)), B=np.zeros((0, 2)), C=np.zeros((1, 0)),
                          D=[[1.0, 2.0]])
    assert system.num_states() == 0 and system.num_inputs() == 2 and system.num_outputs() == 1
    np.testing.assert_array_equal(_output(system, [[3.0, 4.0]]), [11.0])


def test_empty_output_matrix_means_no_output():
    system = LinearSystem(A=[[-1.0]], B=[[1.0]], C=np.zeros((0, 0)), D=np.zeros((0, 0)))
    assert system.num_outputs() == 0 and system.num_output_ports() == 0


def test_affine_system_keywords_and_discrete_period():
    system = AffineSystem(A=[[-1.0]], B=[[1.0]], f0=[2.0], C=[[1.0]], D=[[0.0]], y0=[3.0])
    context = system.create_default_context()
    system.get_input_port().fix_value(context, [1.0])
    np.testing.assert_array_equal(system.eval_time_derivatives(context), [3.0])
    np.testing.assert_array_equal(system.get_output_port().eval(context), [3.0])
    discrete = AffineSystem(A=[1], B=[1], f0=[0], C=[1], D=[0], y0=[0], time_period=0.5)
    assert discrete.time_period() == 0.5
    assert MatrixGain(D=[[2.0]]).D()[0, 0] == 2.0


def test_discrete_derivative_keywords():
    system = DiscreteDerivative(num_inputs=2, time_step=0.1)
    context = system.create_default_context()
    system.get_input_port().fix_value(context, [1.0, 2.0])
    system.set_input_history(context, [1.0, 2.0], [0.0, 0.0])
    np.testing.assert_allclose(system.get_output_port().eval(context), [10.0, 20.0])


def test_log_vector_output_and_vector_log_sink_keywords():
    builder = DiagramBuilder()
    source = builder.add_system(ConstantVectorSource([1.0, 2.0]))
    logger = log_vector_output(src=source.get_output_port(), builder=builder,
                               publish_period=0.25)
    sink = builder.add_system(VectorLogSink(input_size=2, publish_period=0.5))
    builder.connect(source.get_output_port(), sink.get_input_port())
    diagram = builder.build()
    simulator = Simulator(diagram)
    simulator.advance_to(1.0)
    context = simulator.get_context()
    log = logger.find_log(context)
    np.testing.assert_allclose(log.sample_times(), [0.0, 0.25, 0.5, 0.75, 1.0])
    assert log.num_samples() == 5 and log.get_input_size() == 2
    np.testing.assert_array_equal(log.data()[:, -1], [1.0, 2.0])
    assert sink.find_log(context).num_samples() == 3
    assert sink.find_mutable_log(context) is sink.get_log(sink.get_my_context_from_root(context))
    assert logger.get_publish_triggers() == {TriggerType.FORCED, TriggerType.PERIODIC}


def test_vector_log_sink_publish_triggers_forced_only():
    builder = DiagramBuilder()
    source = builder.add_system(ConstantVectorSource([1.0]))
    sink = log_vector_output(source.get_output_port(), builder, {TriggerType.FORCED})
    diagram = builder.build()
    simulator = Simulator(diagram)
    simulator.advance_to(1.0)
    context = simulator.get_context()
    assert sink.find_log(context).num_samples() == 0
    diagram.forced_publish(context)
    assert sink.find_log(context).num_samples() == 1


def test_vector_log_api():
    log = VectorLog(2)
    log.add_data(0.5, [1.0, 2.0])
    log.add_data(1.0, [3.0, 4.0])
    assert log.num_samples() == 2 and log.get_input_size() == 2
    np.testing.assert_array_equal(log.sample_times(), [0.5, 1.0])
    np.testing.assert_array_equal(log.data(), [[1.0, 3.0], [2.0, 4.0]])
    log.clear()
    assert log.num_samples() == 0 and log.data().shape == (2, 0)


@pytest.mark.parametrize("make", [
    lambda: Integrator(sise=2), lambda: PassThrough(bogus=2), lambda: Gain(gain=2.0),
    lambda: Sine(amplitude=1, frequency=1, phase=0, sizes=2),
    lambda: ZeroOrderHold(period=0.1, vector_size=1),
    lambda: LinearSystem(A=[1], B=[1], C=[1], D=[0], period=0.1),
    lambda: VectorLogSink(input_size=1, period=0.1),
    lambda: Demultiplexer(size=4, output_port_size=2),
])
def test_an_unknown_keyword_lists_the_valid_ones(make):
    with pytest.raises(TypeError, match=r"unknown keyword argument '\w+'.*; valid keywords: \w+"):
        make()


def test_matrix_gain_of_a_size_is_the_identity():
    np.testing.assert_array_equal(MatrixGain(size=2).D(), np.eye(2))


def test_discrete_time_delay_outputs_the_input_n_periods_late():
    delay = DiscreteTimeDelay(update_sec=0.1, delay_time_steps=2, vector_size=1)
    builder = DiagramBuilder()
    clock = builder.add_system(Integrator(1))            # u = t (integrates a constant 1)
    one = builder.add_system(ConstantVectorSource([1.0]))
    builder.connect(one.get_output_port(), clock.get_input_port())
    builder.add_system(delay)
    builder.connect(clock.get_output_port(), delay.get_input_port())
    diagram = builder.build()
    simulator = Simulator(diagram)
    context = delay.get_my_context_from_root(simulator.get_context())
    outputs = []
    for k in range(6):
        simulator.advance_to(0.1 * k + 0.05)              # between samples
        outputs.append(delay.get_output_port().eval(context)[0])
    # samples u(0), u(0.1), ...: the output lags by two samples, zero at first
    np.testing.assert_allclose(outputs, [0.0, 0.0, 0.0, 0.1, 0.2, 0.3], atol=1e-9)


def test_port_switch_passes_the_selected_input():
    switch = PortSwitch(vector_size=2)
    a = switch.declare_input_port("a")
    b = switch.declare_input_port("b")
    assert (a.get_index(), b.get_index()) == (1, 2)
    context = switch.create_default_context()
    a.fix_value(context, [1.0, 2.0])
    b.fix_value(context, [3.0, 4.0])
    switch.get_port_selector_input_port().fix_value(context, 2)
    np.testing.assert_array_equal(switch.get_output_port().eval(context), [3.0, 4.0])
    switch.get_port_selector_input_port().fix_value(context, 1)
    np.testing.assert_array_equal(switch.get_output_port().eval(context), [1.0, 2.0])
    switch.get_port_selector_input_port().fix_value(context, 0)
    with pytest.raises(PortError, match="port_selector = 0; expected the index of a "
                                        "switched input, 1 .. 2"):
        switch.get_output_port().eval(context)
