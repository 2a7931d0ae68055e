"""Events as Drake dispatches them: EventStatus and its severities, forced events run by
the System, initialization events (with and without a Simulator) and per-step events."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, EventStatus, LeafSystem, Simulator


def test_event_status_factories_and_severity_order():
    Severity = EventStatus.Severity
    assert EventStatus.did_nothing().severity() == Severity.DID_NOTHING
    assert EventStatus.succeeded().severity() == Severity.SUCCEEDED
    system = LeafSystem()
    system.set_name("sys")
    done = EventStatus.reached_termination(system, "goal reached")
    assert done.severity() == Severity.REACHED_TERMINATION
    assert done.system() is system and done.message() == "goal reached"
    bad = EventStatus.failed(system, "broken")
    assert bad.severity() == Severity.FAILED
    assert (Severity.DID_NOTHING < Severity.SUCCEEDED < Severity.REACHED_TERMINATION
            < Severity.FAILED)
    assert bad.severity() is Severity.kFailed and done.severity() is Severity.kReachedTermination
    status = EventStatus.succeeded()
    status.keep_more_severe(EventStatus.did_nothing())
    assert status.severity() == Severity.SUCCEEDED
    status.keep_more_severe(done)
    assert status.severity() == Severity.REACHED_TERMINATION and status.message() == "goal reached"
    with pytest.raises(RuntimeError, match="my_function.*'sys'.*broken"):
        bad.throw_on_failure("my_function")
    done.throw_on_failure("my_function")            # not a failure: no exception


class Forced(LeafSystem):
    def __init__(self):
        super().__init__()
        self.declare_discrete_state(num_state_variables=1)
        self.declare_abstract_state("start")
        self.published = []
        self.declare_forced_publish_event(self._publish)
        self.declare_forced_discrete_update_event(self._discrete)
        self.declare_forced_unrestricted_update_event(self._unrestricted)

    def _publish(self, context):
        self.published.append((context.get_discrete_state(0)[0],
                               context.get_abstract_state(0).get_value()))
        return EventStatus.succeeded()

    def _discrete(self, context, discrete_state):
        discrete_state.set_value([context.get_discrete_state(0)[0] + 1.0])

    def _unrestricted(self, context, state):
        state.get_mutable_abstract_state(0).set_value("updated")
        return EventStatus.succeeded()


def test_forced_publish_runs_only_publish_events():
    system = Forced()
    ctx = system.create_default_context()
    status = system.forced_publish(ctx)
    assert status.severity() == EventStatus.Severity.SUCCEEDED
    assert system.published == [(0.0, "start")]
    assert ctx.get_discrete_state(0)[0] == 0.0


def test_execute_forced_events_updates_then_publishes():
    system = Forced()
    ctx = system.create_default_context()
    system.execute_forced_events(ctx)
    # unrestricted, then discrete, then publish (which sees both updates)
    assert system.published == [(1.0, "updated")]
    system.execute_forced_events(ctx, publish=False)
    assert ctx.get_discrete_state(0)[0] == 2.0 and len(system.published) == 1


class Initialized(LeafSystem):
    def __init__(self, fail=False):
        super().__init__()
        self.declare_discrete_state(num_state_variables=1)
        self.order = []
        self._fail = fail
        self.declare_initialization_publish_event(self._publish)
        self.declare_initialization_discrete_update_event(self._discrete)
        self.declare_initialization_unrestricted_update_event(self._unrestricted)

    def _publish(self, context):
        self.order.append(("publish", context.get_discrete_state(0)[0]))

    def _discrete(self, context, discrete_state):
        self.order.append(("discrete", context.get_discrete_state(0)[0]))
        discrete_state.set_value([context.get_discrete_state(0)[0] * 10.0])

    def _unrestricted(self, context, state):
        self.order.append(("unrestricted", context.get_discrete_state(0)[0]))
        state.get_mutable_discrete_state(0).set_value([3.0])
        if self._fail:
            return EventStatus.failed(self, "cannot initialize")
        return None


def test_execute_initialization_events_without_a_simulator():
    system = Initialized()
    ctx = system.create_default_context()
    system.execute_initialization_events(ctx)
    assert system.order == [("unrestricted", 0.0), ("discrete", 3.0), ("publish", 30.0)]
    assert ctx.get_discrete_state(0)[0] == 30.0


def test_simulator_initialize_runs_the_same_initialization_events():
    system = Initialized()
    simulator = Simulator(system)
    simulator.initialize()
    assert system.order == [("unrestricted", 0.0), ("discrete", 3.0), ("publish", 30.0)]


def test_failed_initialization_raises_naming_the_system():
    system = Initialized(fail=True)
    system.set_name("init_sys")
    with pytest.raises(RuntimeError, match="'init_sys'.*cannot initialize"):
        system.execute_initialization_events(system.create_default_context())


def test_initialization_events_of_a_diagram_run_in_every_leaf():
    builder = DiagramBuilder()
    a = builder.add_named_system("a", Initialized())
    b = builder.add_named_system("b", Initialized())
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.execute_initialization_events(ctx)
    for leaf in (a, b):
        assert leaf.get_my_context_from_root(ctx).get_discrete_state(0)[0] == 30.0


class Counter(LeafSystem):
    """Per-step events: a discrete count and an unrestricted step log; a publish."""

    def __init__(self):
        super().__init__()
        self.declare_continuous_state(num_state_variables=1)
        self.declare_discrete_state(num_state_variables=1)
        self.declare_abstract_state(0)
        self.publishes = 0
        self.declare_per_step_discrete_update_event(self._count)
        self.declare_per_step_unrestricted_update_event(self._log)
        self.declare_per_step_publish_event(self._publish)

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value([1.0])

    def _count(self, context, discrete_state):
        discrete_state.set_value([context.get_discrete_state(0)[0] + 1.0])

    def _log(self, context, state):
        state.get_mutable_abstract_state(0).set_value(context.get_abstract_state(0).get_value() + 1)

    def _publish(self, context):
        self.publishes += 1


def test_per_step_events_run_once_per_simulator_step():
    system = Counter()
    simulator = Simulator(system)
    simulator.get_mutable_integrator().set_fixed_step_mode(True)
    simulator.get_mutable_integrator().set_maximum_step_size(0.1)
    simulator.advance_to(1.0)
    steps = simulator.get_num_steps_taken()
    ctx = simulator.get_context()
    assert steps >= 10
    # updates run at the start of each step; the publish at initialization and after each step
    assert ctx.get_discrete_state(0)[0] == steps
    assert ctx.get_abstract_state(0).get_value() == steps
    assert system.publishes == steps + 1
    np.testing.assert_allclose(ctx.get_continuous_state_vector(), [1.0])
