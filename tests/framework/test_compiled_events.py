"""The compiled simulation loop of a compiled diagram (framework.compiled_diagram): periodic
discrete updates and VectorLogSink records in one compiled call, bit-for-bit equal to the
Simulator's block-by-block loop (states, logs, pending events and statistics)."""

import math

import numpy as np
import pytest
from random_diagrams import RandomDiagram, bits, prepared_context

from merganser.framework import (ConstantVectorSource, DiagramBuilder, DiscreteTimeDelay,
                                 DiscreteTimeIntegrator, Gain,
                                 LeafSystem, LinearSystem, NonFiniteStateError, Simulator,
                                 SimulatorConfig, ZeroOrderHold, apply_simulator_config,
                                 log_vector_output)
from merganser.framework.compilation import compile_statistics, kernel
from merganser.framework.compiled_diagram import (CompiledForm, compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  register_compiled_form,
                                                  unfuse_compiled_dynamics)


def simulation_loop_calls():
    """How many compiled simulation loops (of any wiring) this process has compiled or
    loaded."""
    return sum(v[0] for k, v in compile_statistics().items()
               if k.endswith("compiled_simulation_loop"))


def run(diagram, loggers, compiled, times=(1.0, 2.0), scheme="runge_kutta3", x0=None,
        **config):
    """Simulate a default context to each of ``times``; what the run leaves, as bytes and
    counts."""
    ctx = prepared_context(diagram, compiled)
    n = ctx.num_continuous_states()
    ctx.set_continuous_state(np.linspace(-1.0, 1.0, n) if x0 is None else x0)
    simulator = Simulator(diagram, ctx)
    apply_simulator_config(SimulatorConfig(integration_scheme=scheme, **config), simulator)
    for t in times:
        simulator.advance_to(t)
    integrator = simulator.get_integrator()
    logs = [logger.find_log(ctx) for logger in loggers]
    return (ctx.get_time(), bits(ctx.get_continuous_state_vector()),
            bits(ctx.get_discrete_state_vector()),
            [(bits(log.sample_times()), bits(log.data())) for log in logs],
            simulator.get_num_steps_taken(), simulator.get_num_publishes(),
            simulator.get_num_discrete_updates(),
            integrator.get_num_derivative_evaluations(), integrator.get_num_steps_taken(),
            repr(integrator.get_ideal_next_step_size()),
            [e[0].get_name() for e in simulator._pending]), ctx


def equal_runs(diagram, loggers, **kw):
    """Run compiled and block by block with the same settings, assert the same bits and
    counts; the compiled run's result and context."""
    compiled, ctx = run(diagram, loggers, True, **kw)
    plain, _ = run(diagram, loggers, False, **kw)
    assert compiled == plain
    return compiled, ctx


def random_discrete_diagram(seed, continuous=True, num_loggers=3):
    maker = RandomDiagram(seed, num_stateful=4, num_feedthrough=8, num_loggers=num_loggers)
    stateful, feedthrough = maker.discrete_makers()
    if continuous:
        maker.stateful_makers += stateful
    else:
        maker.stateful_makers = stateful
        maker.feedthrough_makers.remove(maker._affine_feedthrough)   # has continuous state
    maker.feedthrough_makers += feedthrough
    return maker.build(), maker.loggers


@pytest.mark.parametrize("seed", range(4))
def test_random_wirings_with_discrete_blocks_and_loggers_are_bitwise_equal(seed):
    diagram, loggers = random_discrete_diagram(seed)
    before = simulation_loop_calls()
    compiled, ctx = equal_runs(diagram, loggers, accuracy=1e-4, max_step_size=0.05)
    status = compiled_dynamics_status(ctx)
    assert status.path == "compiled" and status.python_events == ()
    assert simulation_loop_calls() == before + 1    # this wiring's loop ran
    assert compiled[5] > 0 or not loggers           # something was logged


@pytest.mark.parametrize("seed", range(2))
def test_random_discrete_only_wirings_are_bitwise_equal(seed):
    diagram, loggers = random_discrete_diagram(100 + seed, continuous=False)
    assert diagram.create_default_context().num_continuous_states() == 0
    before = simulation_loop_calls()
    compiled, ctx = equal_runs(diagram, loggers)
    assert simulation_loop_calls() == before + 1
    assert compiled_dynamics_status(ctx).path == "compiled"


def plant_with_discrete_controller():
    """A continuous plant ẋ = A x + B u under a discrete controller (a discrete
    LinearSystem with feedthrough), through a ZeroOrderHold with an offset and a
    DiscreteTimeDelay; loggers every step and every 0.05 s."""
    builder = DiagramBuilder()
    plant = builder.add_named_system("plant", LinearSystem(
        A=[[-1.0, 0.2], [0.0, -0.5]], B=np.eye(2), C=np.eye(2), D=np.zeros((2, 2))))
    controller = builder.add_named_system("controller", LinearSystem(
        A=[[0.9]], B=[[0.1, 0.2]], C=[[1.0], [0.5]], D=[[0.1, 0.0], [0.0, 0.2]],
        time_period=0.01))
    hold = builder.add_named_system("hold", ZeroOrderHold(0.03, 2, offset_sec=0.005))
    delay = builder.add_named_system("delay", DiscreteTimeDelay(0.02, 2, 2))
    gain = builder.add_named_system("gain", Gain(-1.0, 2))
    builder.connect(plant.get_output_port(), controller.get_input_port())
    builder.connect(controller.get_output_port(), hold.get_input_port())
    builder.connect(hold.get_output_port(), delay.get_input_port())
    builder.connect(delay.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), plant.get_input_port())
    loggers = [log_vector_output(plant.get_output_port(), builder, publish_period=0.05),
               log_vector_output(hold.get_output_port(), builder)]
    return builder.build(), loggers


@pytest.mark.parametrize("scheme", ["runge_kutta3", "runge_kutta5", "bogacki_shampine3",
                                    "runge_kutta2"])
def test_a_continuous_plant_under_a_discrete_controller_is_bitwise_equal(scheme):
    """Three advance_to calls (updates left pending at a boundary carry over), more
    per-step records than one log buffer holds (1024), and the log values themselves."""
    diagram, loggers = plant_with_discrete_controller()
    compiled, ctx = equal_runs(diagram, loggers, times=(0.5, 1.0, 12.0), scheme=scheme,
                               x0=[1.0, 2.0], accuracy=1e-5, max_step_size=0.004)
    assert compiled_dynamics_status(ctx).python_events == ()
    per_step = loggers[1].find_log(ctx)
    assert per_step.num_samples() > 2048
    periodic = loggers[0].find_log(ctx)
    np.testing.assert_allclose(periodic.sample_times(), np.arange(241) * 0.05, atol=1e-12)
    assert compiled[6] > 0                  # discrete updates ran


def test_a_record_at_a_sample_time_sees_the_value_held_before_that_sample():
    """A ZeroOrderHold (period 0.25 s, offset 0.125 s) of a ramp r(t) = t, logged every
    0.0625 s by the compiled loop: at time t the held value is the ramp at the latest
    sample time strictly before t (Drake's order: the update due at a sample time is
    applied at the start of the next step, after that time's publishes), 0 before the
    first sample."""
    from merganser.framework import TrajectorySource
    from merganser.framework.trajectories import PiecewisePolynomial

    builder = DiagramBuilder()
    ramp = builder.add_named_system("ramp", TrajectorySource(
        PiecewisePolynomial.first_order_hold([0.0, 10.0], [[0.0, 10.0]])))
    hold = builder.add_named_system("hold", ZeroOrderHold(0.25, 1, offset_sec=0.125))
    builder.connect(ramp.get_output_port(), hold.get_input_port())
    logger = log_vector_output(hold.get_output_port(), builder, publish_period=0.0625)
    diagram = builder.build()
    ctx = diagram.create_default_context()
    assert compile_diagram_dynamics(diagram, ctx)
    assert compiled_dynamics_status(ctx).python_events == ()
    Simulator(diagram, ctx).advance_to(2.0)
    log = logger.find_log(ctx)
    t = log.sample_times()
    np.testing.assert_array_equal(t, np.arange(33) * 0.0625)
    latest = 0.125 + 0.25 * (np.ceil((t - 0.125) / 0.25) - 1.0)
    np.testing.assert_allclose(log.data()[0], np.where(t > 0.125, latest, 0.0), atol=1e-12)


class Accumulator(LeafSystem):
    """x[n+1] = x[n] + h u[n] every h seconds; y = x (a user LeafSystem with discrete
    state)."""

    def __init__(self, h):
        super().__init__()
        self.h = h
        self.declare_vector_input_port("u", 1)
        self.declare_discrete_state(1)
        self.declare_periodic_discrete_update_event(h, 0.0, self._update)
        self.declare_state_output_port("y", 0)

    def _update(self, context, discrete_state):
        x = context.get_discrete_state(0)
        discrete_state.set_value(x + self.h * self.get_input_port(0).eval(context))


class CompiledAccumulator(Accumulator):
    """The same system, with a registered compiled form."""


@kernel(inline=False)
def accumulator_output(t, x, u, p, work, out):
    out[0] = x[0]


@kernel(inline=False)
def accumulator_update(t, x, u, p, work, out):
    out[0] = x[0] + p[0] * u[0]


register_compiled_form(CompiledAccumulator, lambda system: CompiledForm(
    outputs=(accumulator_output,), discrete_update=accumulator_update,
    parameters=lambda context: np.array([system.h])))


def accumulator_loop(cls):
    """A continuous first-order plant fed by an accumulator of its own output."""
    builder = DiagramBuilder()
    plant = builder.add_named_system("plant", LinearSystem([[-0.5]], [[1.0]], [[1.0]], [[0.0]]))
    acc = builder.add_named_system("acc", cls(0.02))
    gain = builder.add_named_system("gain", Gain(-2.0, 1))
    builder.connect(plant.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), acc.get_input_port())
    builder.connect(acc.get_output_port(), plant.get_input_port())
    loggers = [log_vector_output(acc.get_output_port(), builder, publish_period=0.1)]
    return builder.build(), loggers


def test_a_user_leaf_system_with_a_discrete_form_runs_in_the_compiled_loop():
    diagram, loggers = accumulator_loop(CompiledAccumulator)
    compiled, ctx = equal_runs(diagram, loggers, accuracy=1e-6, max_step_size=0.01)
    status = compiled_dynamics_status(ctx)
    assert status.python_events == () and status.python_systems == ()


def test_a_python_discrete_leaf_keeps_the_events_in_python_and_is_named():
    diagram, loggers = accumulator_loop(Accumulator)
    before = simulation_loop_calls()
    compiled, ctx = equal_runs(diagram, loggers, accuracy=1e-6, max_step_size=0.01)
    status = compiled_dynamics_status(ctx)
    assert status.path == "compiled"        # the derivatives still are
    assert any("'acc'" in reason for reason in status.python_events)
    assert any("'acc'" in reason for reason in status.python_systems)
    assert simulation_loop_calls() == before


def test_a_logger_of_a_python_port_keeps_the_events_in_python():
    diagram, loggers = accumulator_loop(Accumulator)
    ctx = diagram.create_default_context()
    assert compile_diagram_dynamics(diagram, ctx)
    assert any("logger" in r or "'acc'" in r
               for r in compiled_dynamics_status(ctx).python_events)


def test_a_non_finite_discrete_update_raises_as_block_by_block():
    """x[n+1] = 1e200 x[n] overflows at the third update: the compiled loop hands that
    update back, and the Python loop raises with the last finite state."""
    errors = []
    for compiled in (True, False):
        builder = DiagramBuilder()
        source = builder.add_named_system("c", ConstantVectorSource([1.0]))
        grow = builder.add_named_system("grow", LinearSystem(
            [[1e200]], [[1.0]], [[1.0]], [[0.0]], time_period=0.1))
        integ = builder.add_named_system("plant", LinearSystem([[-1.0]], [[1.0]], [[1.0]],
                                                               [[0.0]]))
        builder.connect(source.get_output_port(), grow.get_input_port())
        builder.connect(grow.get_output_port(), integ.get_input_port())
        logger = log_vector_output(grow.get_output_port(), builder, publish_period=0.05)
        diagram = builder.build()
        ctx = prepared_context(diagram, compiled)
        simulator = Simulator(diagram, ctx)
        with pytest.raises(NonFiniteStateError, match="grow") as info:
            simulator.advance_to(1.0)
        log = logger.find_log(ctx)
        errors.append((info.value.last_finite_time, bits(info.value.last_finite_discrete_state),
                       bits(log.data()), simulator.get_num_discrete_updates()))
    assert errors[0] == errors[1]
    assert math.isfinite(errors[0][0])


def test_a_simulator_compiles_a_discrete_diagram_once_its_python_loop_took_the_wait(
        tmp_path, monkeypatch):
    """A diagram without continuous state evaluates no derivatives: the time of its Python
    event loop counts toward the wait, and the next advance_to compiles."""
    monkeypatch.setenv("MERGANSER_CACHE_DIR", str(tmp_path))     # a wiring never compiled
    logs = []
    for compiled in (True, False):
        builder = DiagramBuilder()
        source = builder.add_named_system("c", ConstantVectorSource([0.5]))
        accumulate = builder.add_named_system("sum", DiscreteTimeIntegrator(1, 0.1))
        builder.connect(source.get_output_port(), accumulate.get_input_port())
        logger = log_vector_output(accumulate.get_output_port(), builder)
        diagram = builder.build()
        ctx = diagram.create_default_context()
        if compiled:
            assert compile_diagram_dynamics(diagram, ctx, wait=1e-9)
        else:
            unfuse_compiled_dynamics(ctx)
        simulator = Simulator(diagram, ctx)
        simulator.advance_to(0.5)
        if compiled:
            assert compiled_dynamics_status(ctx).path == "pending"
        simulator.advance_to(1.0)
        if compiled:
            assert compiled_dynamics_status(ctx).path == "compiled"
        logs.append((bits(logger.find_log(ctx).sample_times()),
                     bits(logger.find_log(ctx).data())))
    assert logs[0] == logs[1]
    np.testing.assert_allclose(logger.find_log(ctx).data()[0, -1], 0.5, rtol=1e-12)


def test_steps_handed_back_to_python_then_the_compiled_loop_goes_on():
    """A requested minimum step size larger than error control wants (not thrown on):
    the compiled loop hands each such step to the Python loop, which takes it, and goes
    on; the run is the block-by-block run bit for bit."""
    diagram, loggers = plant_with_discrete_controller()
    results = []
    for compiled in (True, False):
        ctx = prepared_context(diagram, compiled)
        ctx.set_continuous_state([1.0, 2.0])
        simulator = Simulator(diagram, ctx)
        apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3",
                                               accuracy=1e-9, max_step_size=0.004), simulator)
        integrator = simulator.get_mutable_integrator()
        integrator.set_requested_minimum_step_size(0.0035)
        integrator.set_throw_on_minimum_step_size_violation(False)
        simulator.advance_to(1.0)
        log = loggers[1].find_log(ctx)
        results.append((bits(ctx.get_continuous_state_vector()),
                        bits(ctx.get_discrete_state_vector()), bits(log.data()),
                        simulator.get_num_steps_taken(), simulator.get_num_discrete_updates(),
                        integrator.get_num_derivative_evaluations()))
    assert results[0] == results[1]
