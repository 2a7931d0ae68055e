"""Simulator and integrators as pydrake has them (Drake's documented behaviour, snake_case)."""

import math

import numpy as np
import pytest

from merganser.framework import (BogackiShampine3Integrator, EventStatus,
                                 ExplicitEulerIntegrator, ImplicitEulerIntegrator,
                                 InitializeParams, LeafSystem,
                                 PiecewisePolynomial, PublishEvent, RadauIntegrator,
                                 ReturnReason,
                                 RungeKutta2Integrator, RungeKutta3Integrator,
                                 RungeKutta5Integrator, SemiExplicitEulerIntegrator, Simulator,
                                 SimulatorConfig, SimulatorStatus,
                                 VelocityImplicitEulerIntegrator, WitnessFunctionDirection,
                                 apply_simulator_config, extract_simulator_config,
                                 get_integration_schemes, print_simulator_statistics,
                                 reset_integrator_from_flags)


class Decay(LeafSystem):
    """x' = -a x (x(t) = x0 exp(-a t))."""

    def __init__(self, a=1.0, x0=1.0):
        super().__init__()
        self._a = a
        self.declare_continuous_state(model_vector=[x0])

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value(-self._a * context.get_continuous_state_vector())


class Oscillator(LeafSystem):
    """q' = v, v' = -q; from (1, 0): q = cos t, v = -sin t."""

    def __init__(self):
        super().__init__()
        self.declare_continuous_state(1, 1, 0)

    def set_default_state_and_parameters(self, context):
        context.set_continuous_state([1.0, 0.0])

    def map_velocity_to_qdot(self, context, v):
        return np.asarray(v, dtype=float)

    def do_calc_time_derivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector()
        derivatives.set_value([v, -q])


class Counter(LeafSystem):
    """x[n+1] = x[n] + 1 every second from t = 0; counts publishes every 0.5 s and makes
    an unrestricted update every 2 s."""

    def __init__(self):
        super().__init__()
        self.declare_discrete_state(1)
        self.declare_abstract_state(0)
        self.declare_periodic_discrete_update_event(1.0, 0.0, self._step)
        self.declare_periodic_unrestricted_update_event(2.0, 0.0, self._tick)
        self.publishes = 0
        self.declare_periodic_publish_event(0.5, 0.0, self._publish)

    def _step(self, context, discrete_state):
        discrete_state.set_value(context.get_discrete_state(0) + 1.0)

    def _tick(self, context, state):
        state.set_abstract_state(0, context.get_abstract_state(0).get_value() + 1)

    def _publish(self, context):
        self.publishes += 1


# ---- SimulatorStatus ----------------------------------------------------------------------
def test_return_reason_has_drakes_names_and_the_projects():
    reason = SimulatorStatus.ReturnReason
    assert reason is ReturnReason
    assert reason.kReachedBoundaryTime is reason.REACHED_BOUNDARY_TIME
    assert reason.kReachedTerminationCondition is reason.REACHED_TERMINATION_CONDITION
    assert reason.kEventHandlerFailed is reason.EVENT_HANDLER_FAILED
    assert SimulatorStatus.kReachedBoundaryTime is reason.kReachedBoundaryTime   # exported
    assert [m.name for m in reason] == ["kReachedBoundaryTime", "kReachedTerminationCondition",
                                        "kEventHandlerFailed"]


def test_advance_to_reports_the_boundary_time():
    simulator = Simulator(Decay())
    status = simulator.advance_to(0.5)
    assert status.reason() is ReturnReason.kReachedBoundaryTime
    assert status.boundary_time() == status.return_time() == 0.5
    assert status.succeeded() and status.system() is None
    assert "successfully reached the boundary time (0.5)" in status.format_message()


def test_a_monitor_terminating_early_is_reported_with_its_system_and_message():
    system = Decay()
    system.set_name("decay")
    simulator = Simulator(system)
    simulator.set_monitor(lambda ctx: EventStatus.reached_termination(system, "small enough")
                          if ctx.get_continuous_state_vector()[0] < 0.5 else None)
    status = simulator.advance_to(10.0)
    assert status.reason() is ReturnReason.kReachedTerminationCondition
    assert status.boundary_time() == 10.0
    assert math.log(2.0) <= status.return_time() < 1.0     # x = exp(-t) < 0.5 after ln 2
    assert status.system() is system and status.message() == "small enough"
    assert "requested termination" in status.format_message() and status.succeeded()


def test_status_setters_and_identity():
    a, b = SimulatorStatus(2.0), SimulatorStatus(2.0)
    assert a.is_identical_status(b)
    a.set_event_handler_failed(1.5, None, "bad")
    assert not a.succeeded() and a.return_time() == 1.5 and a.message() == "bad"
    assert not a.is_identical_status(b)
    a.set_reached_termination(1.0, None, "done")
    assert a.reason() is ReturnReason.kReachedTerminationCondition
    a.set_reached_boundary_time()
    assert a.is_identical_status(b)


# ---- context and monitor ------------------------------------------------------------------
def test_reset_context_none_leaves_no_context_and_a_new_one_restarts():
    system = Decay()
    simulator = Simulator(system)
    assert simulator.has_context()
    simulator.advance_to(1.0)
    simulator.reset_context(None)
    assert not simulator.has_context()
    with pytest.raises(RuntimeError, match="no context"):
        simulator.get_context()
    fresh = system.create_default_context()
    fresh.set_continuous_state([2.0])
    simulator.reset_context(fresh)
    assert simulator.get_context() is fresh
    simulator.advance_to(1.0)
    np.testing.assert_allclose(fresh.get_continuous_state_vector(), [2.0 * math.exp(-1.0)],
                               rtol=1e-3)
    assert simulator.release_context() is fresh and not simulator.has_context()


def test_get_and_clear_monitor():
    simulator = Simulator(Decay())
    calls = []
    monitor = calls.append
    simulator.set_monitor(monitor)
    # Drake's get_monitor returns a callable that calls the user's monitor and turns its
    # None into EventStatus.did_nothing().
    status = simulator.get_monitor()(simulator.get_context())
    assert calls == [simulator.get_context()] and status.did_nothing()
    simulator.advance_to(0.1)
    assert len(calls) > 1
    simulator.clear_monitor()
    assert simulator.get_monitor() is None
    n = len(calls)
    simulator.advance_to(0.2)
    assert len(calls) == n


# ---- events and counters ------------------------------------------------------------------
def test_update_at_the_boundary_waits_for_advance_pending_events():
    system = Counter()
    simulator = Simulator(system)
    context = simulator.get_context()
    simulator.advance_to(3.0)
    # updates at t = 0, 1, 2 were applied; the one due at t = 3 is pending (Drake)
    assert context.get_discrete_state(0)[0] == 3.0
    status = simulator.advance_pending_events()
    assert context.get_time() == 3.0 and status.return_time() == 3.0
    assert context.get_discrete_state(0)[0] == 4.0
    simulator.advance_pending_events()               # nothing left pending
    assert context.get_discrete_state(0)[0] == 4.0


def test_counters_count_updates_publishes_and_steps_and_reset():
    system = Counter()
    simulator = Simulator(system)
    simulator.advance_to(3.0)
    assert simulator.get_num_discrete_updates() == 3            # t = 0, 1, 2
    assert simulator.get_num_unrestricted_updates() == 2        # t = 0, 2
    # publishes at 0 (initialization), 0.5, 1.0, ..., 3.0; initialize() resets the counters
    # before its own events, so the one at t = 0 counts (as pydrake's counters do)
    assert system.publishes == 7
    assert simulator.get_num_publishes() == 7
    assert simulator.get_num_steps_taken() == 6                 # one per 0.5 s event
    simulator.reset_statistics()
    assert (simulator.get_num_discrete_updates(), simulator.get_num_publishes(),
            simulator.get_num_steps_taken(), simulator.get_num_unrestricted_updates()) == (
        0, 0, 0, 0)


# ---- integrators by Drake's names and constructors ----------------------------------------
FIXED = [(ExplicitEulerIntegrator, 1e-3, 1), (RungeKutta2Integrator, 1e-2, 2),
         (SemiExplicitEulerIntegrator, 1e-3, 1)]
CONTROLLED = [(RungeKutta3Integrator, 3), (RungeKutta5Integrator, 5),
              (BogackiShampine3Integrator, 3), (ImplicitEulerIntegrator, 2),
              (RadauIntegrator, 3), (VelocityImplicitEulerIntegrator, 2)]


@pytest.mark.parametrize("cls, h, order", FIXED)
def test_fixed_step_integrators_take_system_max_step_size_context(cls, h, order):
    system = Oscillator()
    simulator = Simulator(system)
    integrator = cls(system, h, simulator.get_mutable_context())
    assert simulator.reset_integrator(integrator) is integrator
    assert simulator.get_integrator() is integrator
    assert not integrator.supports_error_estimation()
    assert integrator.get_error_estimate_order() == 0
    assert integrator.get_fixed_step_mode() and integrator.get_maximum_step_size() == h
    with pytest.raises(RuntimeError, match="fixed-step"):
        integrator.set_fixed_step_mode(False)
    simulator.advance_to(1.0)
    q = simulator.get_context().get_continuous_state_vector()[0]
    assert abs(q - math.cos(1.0)) < 10 * h ** order
    assert integrator.get_num_steps_taken() == pytest.approx(1.0 / h, abs=1)


@pytest.mark.parametrize("cls, order", CONTROLLED)
def test_error_controlled_integrators_take_system_and_context(cls, order):
    system = Oscillator()
    simulator = Simulator(system)
    integrator = cls(system, simulator.get_mutable_context())     # Drake's (system, context)
    assert integrator.get_context() is simulator.get_context()
    simulator.reset_integrator(integrator)
    assert integrator.supports_error_estimation()
    assert integrator.get_error_estimate_order() == order
    integrator.set_target_accuracy(1e-6)
    assert integrator.get_target_accuracy() == 1e-6
    assert not integrator.get_fixed_step_mode()
    simulator.advance_to(2.0)
    q, v = simulator.get_context().get_continuous_state_vector()
    tol = 1e-3 if order >= 3 else 5e-3          # first-order schemes at accuracy 1e-6
    assert abs(q - math.cos(2.0)) < tol and abs(v + math.sin(2.0)) < tol
    assert integrator.get_largest_step_size_taken() <= integrator.get_maximum_step_size()
    # NaN when every step was the maximum step (none was chosen by error control)
    assert not integrator.get_smallest_adapted_step_size_taken() <= 0.0


def test_reset_integrator_refuses_an_integrator_of_another_system():
    simulator = Simulator(Decay())
    with pytest.raises(ValueError, match="not this simulator's system"):
        simulator.reset_integrator(RungeKutta3Integrator(Decay()))


def test_initial_step_target_and_shrinkages_from_error_control():
    system = Decay(a=50.0)
    simulator = Simulator(system)
    integrator = simulator.get_mutable_integrator()
    integrator.set_target_accuracy(1e-8)
    integrator.request_initial_step_size_target(0.05)
    simulator.advance_to(0.1)
    # a first step of 0.05 is far too large for x' = -50 x at 1e-8: error control shrinks it
    assert integrator.get_num_step_shrinkages_from_error_control() >= 1
    assert integrator.get_actual_initial_step_size_taken() < 0.05
    np.testing.assert_allclose(simulator.get_context().get_continuous_state_vector(),
                               [math.exp(-5.0)], rtol=1e-5)


def test_initial_step_target_is_the_first_step_when_accurate_enough():
    simulator = Simulator(Decay(a=1.0))
    integrator = simulator.get_mutable_integrator()
    integrator.request_initial_step_size_target(1e-3)
    simulator.advance_to(0.01)
    assert integrator.get_actual_initial_step_size_taken() == pytest.approx(1e-3)
    assert integrator.get_num_step_shrinkages_from_error_control() == 0


# ---- dense output -------------------------------------------------------------------------
@pytest.mark.parametrize("accuracy", [1e-4, 1e-7])
def test_dense_output_interpolates_between_steps(accuracy):
    simulator = Simulator(Oscillator())
    integrator = simulator.get_mutable_integrator()
    integrator.set_target_accuracy(accuracy)
    assert integrator.get_dense_output() is None
    integrator.start_dense_integration()
    dense = integrator.get_dense_output()
    assert isinstance(dense, PiecewisePolynomial) and dense.get_number_of_segments() == 0
    simulator.advance_to(2.0 * math.pi)
    assert dense.get_number_of_segments() == integrator.get_num_steps_taken()
    assert dense.start_time() == 0.0 and dense.end_time() == pytest.approx(2.0 * math.pi)
    times = np.linspace(0.0, 2.0 * math.pi, 997)     # mostly between steps
    values = np.hstack([dense.value(t) for t in times])
    assert values.shape == (2, times.size)
    error = np.max(np.abs(values - np.vstack([np.cos(times), -np.sin(times)])))
    assert error < 20 * accuracy
    # at the last break it is the integrator's state
    np.testing.assert_allclose(dense.value(dense.end_time())[:, 0],
                               simulator.get_context().get_continuous_state_vector(),
                               rtol=1e-12, atol=1e-15)
    assert integrator.stop_dense_integration() is dense
    assert integrator.get_dense_output() is None


def test_dense_output_error_shrinks_with_the_step_in_fixed_step_mode():
    errors = []
    for h in (0.1, 0.05):
        system = Oscillator()
        simulator = Simulator(system)
        integrator = RungeKutta5Integrator(system, simulator.get_mutable_context())
        simulator.reset_integrator(integrator)
        integrator.set_maximum_step_size(h)
        integrator.set_fixed_step_mode(True)
        integrator.start_dense_integration()
        simulator.advance_to(1.0)
        dense = integrator.stop_dense_integration()
        mid = np.arange(h / 2, 1.0, h)
        errors.append(max(abs(dense.value(t)[0, 0] - math.cos(t)) for t in mid))
    # a cubic Hermite interpolant of a 5th-order solution: error ~ h^4 between breaks
    assert errors[1] < errors[0] / 10.0


def test_dense_integration_cannot_start_twice_or_stop_unstarted():
    integrator = Simulator(Decay()).get_mutable_integrator()
    with pytest.raises(RuntimeError, match="no dense integration in progress"):
        integrator.stop_dense_integration()
    integrator.start_dense_integration()
    with pytest.raises(RuntimeError, match="already in progress"):
        integrator.start_dense_integration()


# ---- configuration ------------------------------------------------------------------------
def test_integration_schemes_are_drakes_names_and_each_resets_the_integrator():
    schemes = get_integration_schemes()
    for name in ("explicit_euler", "runge_kutta2", "runge_kutta3", "runge_kutta5",
                 "bogacki_shampine3", "implicit_euler", "radau3", "semi_explicit_euler",
                 "velocity_implicit_euler"):
        assert name in schemes
    simulator = Simulator(Oscillator())
    for name in schemes:
        integrator = reset_integrator_from_flags(simulator, name, 0.01)
        assert simulator.get_integrator() is integrator
        assert integrator.get_maximum_step_size() == 0.01
        assert extract_simulator_config(simulator).integration_scheme == name


def test_extract_simulator_config_round_trips():
    config = SimulatorConfig(integration_scheme="runge_kutta5", max_step_size=0.01,
                             accuracy=1e-6, use_error_control=False, start_time=0.0,
                             target_realtime_rate=0.0, publish_every_time_step=True)
    simulator = Simulator(Oscillator())
    apply_simulator_config(config, simulator)
    assert extract_simulator_config(simulator) == config
    other = Simulator(Oscillator())
    apply_simulator_config(extract_simulator_config(simulator), other)
    assert extract_simulator_config(other) == config


def test_extract_simulator_config_of_a_fixed_step_scheme_has_no_error_control():
    simulator = Simulator(Oscillator())
    reset_integrator_from_flags(simulator, "explicit_euler", 0.002)
    config = extract_simulator_config(simulator)
    assert config.integration_scheme == "explicit_euler" and config.max_step_size == 0.002
    assert config.use_error_control is False


def test_simulator_config_keywords_are_drakes_and_a_typo_lists_them():
    config = SimulatorConfig()
    assert (config.integration_scheme, config.max_step_size, config.accuracy,
            config.use_error_control, config.start_time, config.target_realtime_rate,
            config.publish_every_time_step) == ("runge_kutta3", 0.1, 1e-4, True, 0.0, 0.0,
                                                False)
    with pytest.raises(ValueError, match="unknown field.*'integrator'.*valid fields: "
                                         "integration_scheme, max_step_size"):
        SimulatorConfig(integrator="runge_kutta3")


class HalfLife(Decay):
    """Decay whose witness x - 1/2 publishes the time it crossed (at t = ln 2)."""

    def __init__(self):
        super().__init__()
        self.crossings = []
        self.make_witness_function(
            "half", WitnessFunctionDirection.CROSSES_ZERO,
            lambda ctx: ctx.get_continuous_state_vector()[0] - 0.5,
            PublishEvent(lambda ctx, event: self.crossings.append(ctx.get_time())))


def test_dense_output_stays_accurate_across_a_localized_witness():
    system = HalfLife()
    simulator = Simulator(system)
    integrator = simulator.get_mutable_integrator()
    integrator.set_target_accuracy(1e-6)
    integrator.start_dense_integration()
    simulator.advance_to(2.0)
    assert system.crossings == [pytest.approx(math.log(2.0), abs=1e-6)]   # accuracy 1e-6
    dense = integrator.stop_dense_integration()
    times = np.linspace(0.0, 2.0, 401)
    error = max(abs(dense.value(t)[0, 0] - math.exp(-t)) for t in times)
    assert error < 2e-5


def test_dense_output_grows_in_place_and_a_retaken_step_replaces_its_segment():
    system = Oscillator()
    context = system.create_default_context()
    integrator = RungeKutta2Integrator(system, 0.1, context)
    integrator.initialize()
    integrator.start_dense_integration()
    dense = integrator.get_dense_output()
    assert integrator.integrate_with_single_fixed_step_to_time(0.1)
    assert dense.get_number_of_segments() == 1
    assert integrator.integrate_with_single_fixed_step_to_time(0.2)
    assert dense.get_number_of_segments() == 2 and dense.end_time() == pytest.approx(0.2)
    x_at_01 = dense.value(0.1)[:, 0].copy()
    context.set_time_and_continuous_state(0.1, x_at_01)       # go back and step again
    assert integrator.integrate_with_single_fixed_step_to_time(0.15)
    assert dense.get_number_of_segments() == 2 and dense.end_time() == pytest.approx(0.15)
    np.testing.assert_array_equal(dense.value(0.15)[:, 0], context.get_continuous_state_vector())


class Initialized(LeafSystem):
    """Counts its initialization events."""

    def __init__(self):
        super().__init__()
        self.count = 0
        self.declare_initialization_discrete_update_event(self._init)
        self.declare_discrete_state(1)

    def _init(self, context, discrete_state):
        self.count += 1


def test_initialize_params_suppress_initialization_events():
    system = Initialized()
    simulator = Simulator(system)
    simulator.initialize()
    assert system.count == 1
    params = InitializeParams(suppress_initialization_events=True)
    assert repr(params) == "InitializeParams(suppress_initialization_events=True)"
    simulator.initialize(params=params)
    assert system.count == 1
    simulator.initialize(InitializeParams())
    assert system.count == 2


def test_advance_to_takes_pydrakes_keywords():
    simulator = Simulator(Decay())
    simulator.advance_to(boundary_time=0.1, interruptible=False)
    simulator.set_target_realtime_rate(realtime_rate=0.0)
    assert simulator.get_context().get_time() == 0.1
    assert isinstance(simulator.get_actual_realtime_rate(), float)


def test_integrator_settings_take_pydrakes_keywords_and_reset_restores_defaults():
    system = Decay()
    context = system.create_default_context()
    integrator = RungeKutta3Integrator(system=system)
    integrator.reset_context(context=context)
    integrator.set_target_accuracy(accuracy=1e-6)
    integrator.set_maximum_step_size(max_step_size=0.2)
    integrator.set_requested_minimum_step_size(min_step_size=2e-2)
    integrator.request_initial_step_size_target(step_size=0.05)
    integrator.set_throw_on_minimum_step_size_violation(throws=True)
    integrator.set_fixed_step_mode(flag=True)
    assert (integrator.get_target_accuracy(), integrator.get_maximum_step_size(),
            integrator.get_requested_minimum_step_size(),
            integrator.get_initial_step_size_target()) == (1e-6, 0.2, 2e-2, 0.05)
    integrator.initialize()
    assert integrator.get_num_derivative_evaluations() == 0
    assert integrator.get_num_steps_taken() == 0
    for stat in (integrator.get_actual_initial_step_size_taken(),
                 integrator.get_smallest_adapted_step_size_taken(),
                 integrator.get_largest_step_size_taken()):
        assert math.isnan(stat)
    integrator.reset()
    assert integrator.get_target_accuracy() is None and not integrator.get_fixed_step_mode()
    assert integrator.get_requested_minimum_step_size() == 0.0
    assert integrator.get_context() is context and not integrator.is_initialized()


def test_print_simulator_statistics(capsys):
    simulator = Simulator(Decay())
    simulator.advance_to(1.0)
    print_simulator_statistics(simulator)
    text = capsys.readouterr().out
    integrator = simulator.get_integrator()
    steps = integrator.get_num_steps_taken()
    lines = text.splitlines()
    # Drake's format: the simulator's counts, the integrator's, then JSON
    assert lines[0] == "General stats regarding discrete updates:"
    assert "Stats for integrator RungeKutta3Integrator with error control:" in lines
    assert f"Number of time steps taken (integrator stats) = {steps}" in lines
    assert f"Initial time step taken = {1e-4:10.6g} s" in lines     # Drake's first step
    stats = __import__("json").loads(text[text.index("JSON Statistics:") + 17:])
    assert stats["integrator_num_steps_taken"] == steps
    assert stats["integrator_num_derivative_evaluations"] == \
        integrator.get_num_derivative_evaluations()


def test_first_error_controlled_step_follows_drake():
    # Drake: the Simulator's own integrator asks for a first step of 1e-4 s; a fresh
    # integrator without a request starts from a tenth of its maximum step
    from merganser.framework import LinearSystem, reset_integrator_from_flags
    system = LinearSystem(A=[[-1.0]], B=[[1.0]], C=[[1.0]], D=[[0.0]])
    for fresh in (False, True):
        simulator = Simulator(system)
        system.get_input_port(0).fix_value(simulator.get_mutable_context(), [0.0])
        integrator = (reset_integrator_from_flags(simulator, "runge_kutta3", 0.1) if fresh
                      else simulator.get_integrator())
        simulator.advance_to(0.5)
        assert integrator.get_actual_initial_step_size_taken() == pytest.approx(
            0.01 if fresh else 1e-4, rel=1e-12)
        # the step counts pydrake 1.51 takes on this system
        assert integrator.get_num_steps_taken() == (7 if fresh else 10)
