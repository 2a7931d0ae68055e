"""Tests for VectorLog, VectorLogSink and log_vector_output."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.framework.primitives import ConstantValueSource, ConstantVectorSource, Integrator, Sine
from merganser.framework.simulator_config import SimulatorConfig
from merganser.framework.vector_log import VectorLog
from merganser.framework.vector_log_sink import VectorLogSink, log_vector_output


def test_vector_log_accumulates_columns():
    log = VectorLog(2)
    for k in range(40):           # beyond the initial capacity
        log.add_data(0.1 * k, [k, -k])
    assert log.num_samples() == 40
    assert log.data().shape == (2, 40) and log.sample_times().shape == (40,)
    np.testing.assert_allclose(log.sample_times(), 0.1 * np.arange(40))
    np.testing.assert_array_equal(log.data()[1], -np.arange(40))
    log.clear()
    assert log.num_samples() == 0 and log.data().shape == (2, 0)


def test_vector_log_rejects_wrong_sample_size():
    with pytest.raises(ValueError, match="VectorLog.add_data: sample has size 3, expected 2"):
        VectorLog(2).add_data(0.0, [1.0, 2.0, 3.0])


def _sine_logged(publish_period):
    builder = DiagramBuilder()
    sine = builder.add_system(Sine(1.0, 2.0, 0.5, 2))
    sink = log_vector_output(sine.get_output_port(0), builder, publish_period)
    return builder.build(), sink


def test_periodic_logging_samples_at_multiples_of_period():
    diagram, sink = _sine_logged(0.25)
    ctx = diagram.create_default_context()
    Simulator(diagram, ctx).advance_to(1.0)
    log = sink.find_log(ctx)
    np.testing.assert_allclose(log.sample_times(), [0.0, 0.25, 0.5, 0.75, 1.0], atol=1e-15)
    t = log.sample_times()
    np.testing.assert_allclose(log.data(), np.vstack([np.sin(2.0 * t + 0.5)] * 2), atol=1e-15)


def test_per_step_logging_matches_simulate_record():
    builder = DiagramBuilder()
    src = builder.add_system(ConstantVectorSource([1.0, -2.0]))
    integ = builder.add_system(Integrator(2))
    builder.connect(src.get_output_port(), integ.get_input_port())
    sink = log_vector_output(integ.get_output_port(), builder)
    diagram = builder.build()
    assert sink.publish_period() == 0.0
    result = diagram.simulate(1.0, config=SimulatorConfig(max_step_size=0.05),
                              record={"x": integ.get_output_port()})
    log = sink.find_log(result.context)
    np.testing.assert_array_equal(log.sample_times(), result.time)
    np.testing.assert_allclose(log.data(), result.outputs["x"], rtol=1e-15)
    np.testing.assert_allclose(log.data()[:, -1], [1.0, -2.0], atol=1e-12)
    assert log.num_samples() == result.simulator.get_num_steps_taken() + 1


def test_forced_publish_logs_current_value():
    diagram, sink = _sine_logged(0.5)
    ctx = diagram.create_default_context()
    ctx.set_time(0.3)
    diagram.forced_publish(ctx)
    log = sink.find_log(ctx)
    assert log.num_samples() == 1
    np.testing.assert_allclose(log.data()[:, 0], np.sin(2.0 * 0.3 + 0.5))


def test_logs_are_per_context():
    diagram, sink = _sine_logged(0.1)
    ctx = diagram.create_default_context()
    clone = ctx.clone()
    Simulator(diagram, clone).advance_to(0.5)
    assert sink.find_log(clone).num_samples() == 6
    assert sink.find_log(ctx).num_samples() == 0
    sink_ctx = sink.get_my_context_from_root(clone)
    assert sink.get_log(sink_ctx) is sink.find_log(clone)
    diagram.set_default_context(clone)
    assert sink.find_log(clone).num_samples() == 0


def test_log_vector_output_rejects_abstract_port():
    builder = DiagramBuilder()
    src = builder.add_system(ConstantValueSource("text"))
    with pytest.raises(ValueError, match="log_vector_output: .* is abstract"):
        log_vector_output(src.get_output_port(), builder)


def test_sink_rejects_negative_period():
    with pytest.raises(ValueError, match="VectorLogSink: publish_period must be >= 0, got -1"):
        VectorLogSink(2, -1.0)
