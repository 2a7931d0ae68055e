"""Drake-parity behaviour of the analysis and simulator additions (Drake's documented
semantics, snake_case names)."""

import numpy as np
import pytest
import scipy.linalg

from merganser.framework import (PeriodicEventData, AffineSystem, ConstantVectorSource, DiagramBuilder,
                                 DiscreteValues, Integrator, LinearSystem, Parallelism,
                                 BasicVector, Simulator, SimulatorConfig,
                                 batch_eval_time_derivatives,
                                 batch_eval_unique_periodic_discrete_update,
                                 discrete_time_approximation)
from merganser.framework.errors import DiagramBuildError, PortError


def test_discrete_time_approximation_of_double_integrator_is_exact():
    h = 0.25
    A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    C, D = np.array([[1.0, 0.0]]), np.array([[0.0]])
    dt = discrete_time_approximation(linear_system=LinearSystem(A, B, C, D), time_period=h)
    assert isinstance(dt, LinearSystem) and dt.time_period() == h
    np.testing.assert_allclose(dt.A(), [[1.0, h], [0.0, 1.0]])
    np.testing.assert_allclose(dt.B(), [[h * h / 2], [h]])
    np.testing.assert_array_equal(dt.C(), C)
    f0 = np.array([2.0, 1.0])
    adt = discrete_time_approximation(affine_system=AffineSystem(A, B, f0, C, D, [0.5]),
                                      time_period=h)
    # x[n+1] = Ad x + Bd u + f0d with f0d = ∫0^h expm(A s) ds f0.
    np.testing.assert_allclose(adt.f0(), [2 * h + h * h / 2, h])
    np.testing.assert_array_equal(adt.y0(), [0.5])


def test_discrete_time_approximation_matches_matrix_exponential_and_rejects_bad_input():
    A = np.array([[-1.0, 2.0], [-3.0, -0.5]])
    dt = discrete_time_approximation(LinearSystem(A, np.eye(2), np.eye(2), np.zeros((2, 2))),
                                     0.1)
    np.testing.assert_allclose(dt.A(), scipy.linalg.expm(0.1 * A), rtol=1e-12)
    with pytest.raises(ValueError, match="time_period must be a finite number > 0"):
        discrete_time_approximation(linear_system=LinearSystem(A, np.eye(2)), time_period=0.0)
    with pytest.raises(ValueError, match="is already discrete"):
        discrete_time_approximation(linear_system=dt, time_period=0.1)
    with pytest.raises(TypeError, match="integrator_config goes with system="):
        discrete_time_approximation(linear_system=LinearSystem(A, np.eye(2)), time_period=0.1,
                                    integrator_config=SimulatorConfig())


def test_discrete_time_approximation_of_a_system_samples_its_flow():
    from merganser.framework import (DiscreteTimeApproximationSystem,
                                     FirstOrderLowPassFilter)
    tau, h = 0.5, 0.1
    config = SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-10)
    dt = discrete_time_approximation(system=FirstOrderLowPassFilter(time_constant=tau, size=1),
                                     time_period=h, integrator_config=config)
    assert isinstance(dt, DiscreteTimeApproximationSystem) and dt.time_period() == h
    builder = DiagramBuilder()
    builder.add_system(dt)
    simulator = Simulator(builder.build())
    ctx = dt.get_my_context_from_root(simulator.get_mutable_context())
    assert ctx.num_discrete_state_groups() == 1 and ctx.num_continuous_states() == 0
    dt.get_input_port(0).fix_value(ctx, [1.0])
    simulator.advance_to(0.25)          # updates at t = 0, 0.1, 0.2: the state at 0.3
    np.testing.assert_allclose(dt.get_output_port(0).eval(ctx), [1 - np.exp(-0.3 / tau)],
                               rtol=1e-9)
    # Explicit Euler with one step per period is x + h u exactly for an integrator.
    euler = discrete_time_approximation(
        system=Integrator(2), time_period=h,
        integrator_config=SimulatorConfig(integration_scheme="explicit_euler", max_step_size=h))
    x = batch_eval_unique_periodic_discrete_update(
        euler, euler.create_default_context(), [[0.0]], [[1.0], [2.0]], [[3.0], [4.0]])
    np.testing.assert_allclose(x, [[1.0 + h * 3.0], [2.0 + h * 4.0]])


def test_batch_eval_matches_linear_dynamics_column_by_column():
    A = np.array([[0.1, 0.2], [0.3, 0.4]])
    B = np.array([[0.5, 0.6], [0.7, 0.8]])
    times = np.array([[1.0, 2.0, 3.0]])
    states = np.array([[1.2, 1.3, 1.4], [2.1, 2.2, 2.3]])
    inputs = np.array([[3.1, 3.2, 3.6], [4.6, 4.5, 4.2]])
    ct = LinearSystem(A, B)
    ctx = ct.create_default_context()
    xdot = batch_eval_time_derivatives(ct, ctx, times, states, inputs,
                                       parallelize=Parallelism(num_threads=2))
    np.testing.assert_allclose(xdot, A @ states + B @ inputs)
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [0.0, 0.0])   # untouched
    dt = LinearSystem(A, B, time_period=0.1)
    x2 = batch_eval_unique_periodic_discrete_update(dt, dt.create_default_context(), times,
                                                    states, inputs, num_time_steps=2)
    np.testing.assert_allclose(x2, A @ (A @ states + B @ inputs) + B @ inputs)
    with pytest.raises(ValueError, match=r"inputs must have shape \(2, 3\)"):
        batch_eval_time_derivatives(ct, ctx, times, states, inputs[:1])


def test_parallelism_counts_threads():
    assert Parallelism().num_threads() == 1
    assert Parallelism(num_threads=3).num_threads() == 3
    assert Parallelism.max().num_threads() >= 1
    with pytest.raises(ValueError, match="num_threads must be >= 1"):
        Parallelism(num_threads=0)


def test_discrete_values_constructors_and_set_from():
    assert DiscreteValues().num_groups() == 0
    values = DiscreteValues(data=[BasicVector(1), BasicVector([1.0, 2.0])])
    assert values.num_groups() == 2 and values.size() == 3
    values.set_value(1, [4.0, 5.0])
    np.testing.assert_array_equal(values.get_value(index=1), [4.0, 5.0])
    single = DiscreteValues(BasicVector([1.0, 2.0, 3.0]))
    clone = single.clone()
    single[1] = 7.0
    np.testing.assert_array_equal(clone.get_value(), [1.0, 2.0, 3.0])
    clone.set_from(single)
    np.testing.assert_array_equal(clone.get_value(), [1.0, 7.0, 3.0])
    with pytest.raises(ValueError, match=r"set_from: group sizes \[1, 2\], expected \[3\]"):
        clone.set_from(values)


def test_get_monitor_turns_none_into_did_nothing():
    simulator = Simulator(ConstantVectorSource([1.0]))
    assert simulator.get_monitor() is None
    calls = []
    simulator.set_monitor(lambda root_context: calls.append(root_context.get_time()))
    status = simulator.get_monitor()(simulator.get_context())
    assert status.did_nothing() and calls == [0.0]


def test_connect_input_takes_pydrakes_keywords():
    from merganser.framework import Adder
    builder = DiagramBuilder()
    adder = builder.add_system(Adder(3, 1))
    index = builder.export_input(adder.get_input_port(0), "in0")
    builder.connect_input(diagram_port_name="in0", input=adder.get_input_port(1))
    builder.connect_input(diagram_port_index=index, input=adder.get_input_port(2))
    builder.export_output(adder.get_output_port(0), "sum")
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(ctx, [2.0])
    np.testing.assert_array_equal(diagram.get_output_port(0).eval(ctx), [6.0])
    with pytest.raises(TypeError, match="connect_input: give one diagram input"):
        DiagramBuilder().connect_input(diagram_port_name="a", diagram_port_index=0,
                                       input=adder.get_input_port(0))


def test_framework_errors_are_runtime_errors_as_in_pydrake():
    for error in (PortError, DiagramBuildError):
        assert issubclass(error, RuntimeError) and issubclass(error, ValueError)
    source = Integrator(1)
    with pytest.raises(RuntimeError, match="has size 1, got a value of size 2"):
        source.get_input_port(0).fix_value(source.create_default_context(), [0.0, 1.0])


def test_integrator_statistics_summary_reports_the_counters():
    source = Integrator(1)
    ctx = source.create_default_context()
    source.get_input_port(0).fix_value(ctx, [1.0])
    simulator = Simulator(source, ctx)
    simulator.advance_to(1.0)
    integrator = simulator.get_integrator()
    summary = integrator.get_statistics_summary()
    assert f"num_steps_taken: {integrator.get_num_steps_taken()}\n" in summary
    assert integrator.get_num_steps_taken() > 0
    integrator.reset_statistics()
    assert "num_steps_taken: 0\n" in integrator.get_statistics_summary()


def test_eval_unique_periodic_discrete_update_leaves_the_context_alone():
    from merganser.framework import DiscreteTimeIntegrator
    dut = DiscreteTimeIntegrator(size=2, time_step=0.1)
    assert dut.get_unique_periodic_discrete_update_attribute() == PeriodicEventData(0.1, 0.0)
    ctx = dut.create_default_context()
    dut.set_integral_value(ctx, [1.0, 2.0])
    dut.get_input_port(0).fix_value(ctx, [3.0, 4.0])
    values = dut.eval_unique_periodic_discrete_update(ctx)
    np.testing.assert_allclose(values.get_value(0), [1.3, 2.4])
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [1.0, 2.0])
    with pytest.raises(ValueError, match="one single period and offset"):
        continuous = Integrator(1)
        continuous.eval_unique_periodic_discrete_update(continuous.create_default_context())


def test_diagram_periodic_update_queries_cover_the_leaves():
    from merganser.framework import DiscreteTimeIntegrator
    builder = DiagramBuilder()
    first = builder.add_system(DiscreteTimeIntegrator(size=2, time_step=0.1))
    second = builder.add_system(DiscreteTimeIntegrator(size=1, time_step=0.1))
    builder.connect(builder.add_system(ConstantVectorSource([3.0, 4.0])).get_output_port(),
                    first.get_input_port(0))
    builder.connect(builder.add_system(ConstantVectorSource([-1.0])).get_output_port(),
                    second.get_input_port(0))
    diagram = builder.build()
    assert diagram.get_unique_periodic_discrete_update_attribute() == PeriodicEventData(0.1, 0)
    assert diagram.is_difference_equation_system() == (False, 0.0)      # two groups
    assert not diagram.is_differential_equation_system()
    ctx = diagram.create_default_context()
    first.set_integral_value(first.get_my_context_from_root(ctx), [1.0, 2.0])
    values = diagram.eval_unique_periodic_discrete_update(ctx)
    clone = ctx.get_discrete_state().clone()
    assert values.num_groups() == 2 and clone.num_groups() == 2
    np.testing.assert_allclose(values.get_value(0), [1.3, 2.4])
    np.testing.assert_allclose(values.get_value(1), [-0.1])
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [1.0, 2.0])   # unchanged
    clone.get_mutable_value(0)[:] = 7.0                                     # independent
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [1.0, 2.0])
    assert diagram.get_witness_functions(ctx) == []

    single = DiagramBuilder()
    single.add_system(DiscreteTimeIntegrator(size=1, time_step=0.25))
    assert single.build().is_difference_equation_system() == (True, 0.25)
    continuous = DiagramBuilder()
    continuous.add_system(Integrator(2))
    continuous = continuous.build()
    assert continuous.is_differential_equation_system()
    assert continuous.get_unique_periodic_discrete_update_attribute() is None
    with pytest.raises(ValueError, match="one single period and offset"):
        continuous.eval_unique_periodic_discrete_update(continuous.create_default_context())


def test_eval_vector_and_abstract_input_and_trigger_type_spellings():
    from merganser.framework import PassThrough, TriggerType
    dut = PassThrough(vector_size=2)
    ctx = dut.create_default_context()
    dut.get_input_port(0).fix_value(ctx, [1.0, 2.0])
    np.testing.assert_array_equal(dut.eval_vector_input(ctx, 0).get_value(), [1.0, 2.0])
    np.testing.assert_array_equal(dut.eval_abstract_input(ctx, 0).get_value(), [1.0, 2.0])
    assert TriggerType.kForced is TriggerType.FORCED
    assert TriggerType.kPerStep is TriggerType.PER_STEP and len(TriggerType) == 7
