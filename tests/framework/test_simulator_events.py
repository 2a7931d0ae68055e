"""Simulator event timing (Drake's contract), witness functions, monitors, NaN detection."""

import math

import numpy as np
import pytest

from merganser.framework import (EventStatus, LeafSystem, NonFiniteStateError, SimulationError, Simulator,
                       UnrestrictedUpdateEvent, WitnessFunctionDirection)


class Clocked(LeafSystem):
    """x_{n+1} = x_n + 1 every 0.25 s; a publish every 0.25 s records (t, x)."""

    def __init__(self):
        super().__init__()
        self.declare_discrete_state([0.0])
        self.updates = []
        self.publishes = []
        self.declare_periodic_discrete_update_event(0.25, 0.0, self.update)
        self.declare_periodic_publish_event(0.25, 0.0, self.publish)

    def update(self, context, discrete_state):
        self.updates.append(context.get_time())
        discrete_state.set_value(context.get_discrete_state_vector() + 1.0)

    def publish(self, context):
        self.publishes.append((context.get_time(), context.get_discrete_state_vector()[0]))


def test_periodic_update_and_publish_follow_drake_timing():
    system = Clocked()
    simulator = Simulator(system)
    simulator.advance_to(1.0)
    assert system.updates == [0.0, 0.25, 0.5, 0.75]
    # A publish at t sees the state after the update at the start of the step leaving t
    # ... except that the publish at t runs at the end of the step arriving at t, i.e.
    # before the update at t: values 0, 1, 2, 3, 4.
    assert system.publishes == [(0.0, 0.0), (0.25, 1.0), (0.5, 2.0), (0.75, 3.0), (1.0, 4.0)]
    assert simulator.get_context().get_discrete_state_vector()[0] == 4.0
    # The update scheduled at 1.0 runs at the start of the next advance.
    simulator.advance_to(1.1)
    assert system.updates[-1] == 1.0
    assert simulator.get_context().get_discrete_state_vector()[0] == 5.0


class BouncingBall(LeafSystem):
    """Height z and velocity v under gravity; a witness on z reverses v with restitution e."""

    def __init__(self, e=0.8, g=9.81):
        super().__init__()
        self.e, self.g = e, g
        self.declare_continuous_state(1, 1, 0)
        self.declare_state_output_port("state", 0)
        self.bounce_times = []
        self.witness = self.make_witness_function(
            "ground", WitnessFunctionDirection.POSITIVE_THEN_NON_POSITIVE,
            lambda context: context.get_continuous_state_vector()[0],
            UnrestrictedUpdateEvent(callback=lambda context, event, state: self.bounce(context, state)))

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value([context.get_continuous_state_vector()[1], -self.g])

    def bounce(self, context, state):
        self.bounce_times.append(context.get_time())
        z, v = context.get_continuous_state_vector()
        state.get_mutable_continuous_state().set_value([0.0, -self.e * v])


def test_bouncing_ball_hits_analytic_bounce_times():
    h0, e, g = 1.0, 0.8, 9.81
    ball = BouncingBall(e, g)
    simulator = Simulator(ball)
    simulator.get_mutable_context().set_continuous_state([h0, 0.0])
    simulator.advance_to(2.5)
    t1 = math.sqrt(2 * h0 / g)
    v1 = g * t1
    expected = [t1]
    v = v1
    while True:
        v *= e
        nxt = expected[-1] + 2 * v / g
        if nxt > 2.5:
            break
        expected.append(nxt)
    assert len(ball.bounce_times) == len(expected)
    np.testing.assert_allclose(ball.bounce_times, expected, atol=1e-8, rtol=0)


def test_monitor_termination_stops_advance():
    ball = BouncingBall()
    simulator = Simulator(ball)
    simulator.get_mutable_context().set_continuous_state([1.0, 0.0])

    def monitor(context):
        if context.get_continuous_state_vector()[0] < 0.5:
            return EventStatus.reached_termination(ball, "below half")
        return None

    simulator.set_monitor(monitor)
    status = simulator.advance_to(10.0)
    assert status.reached_termination()
    assert "below half" in status.message()
    assert status.return_time() < math.sqrt(2 * 0.5 / 9.81) + 0.11


def test_failed_event_raises_naming_the_system():
    class Failing(LeafSystem):
        def __init__(self):
            super().__init__()
            self.set_name("breaker")
            self.declare_periodic_publish_event(0.1, 0.0, self.publish)

        def publish(self, context):
            if context.get_time() >= 0.2:
                return EventStatus.failed(self, "boom")
            return None

    simulator = Simulator(Failing())
    with pytest.raises(SimulationError, match="'breaker' failed at time 0.2.*boom"):
        simulator.advance_to(1.0)


def test_nan_in_state_stops_with_subsystem_and_index():
    class Blowup(LeafSystem):
        def __init__(self):
            super().__init__()
            self.set_name("blowup")
            self.declare_continuous_state(3)

        def do_calc_time_derivatives(self, context, derivatives):
            t = context.get_time()
            derivatives.set_value([0.0, 0.0, np.nan if t > 0.3 else 1.0])

    simulator = Simulator(Blowup())
    with pytest.raises(NonFiniteStateError, match="index 2 of subsystem 'blowup'"):
        simulator.advance_to(1.0)


def test_per_step_publish_runs_every_step_and_at_initialization():
    class Stepper(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_continuous_state(1)
            self.times = []
            self.declare_per_step_publish_event(lambda c: self.times.append(c.get_time()))

        def do_calc_time_derivatives(self, context, derivatives):
            derivatives.set_value([1.0])

    system = Stepper()
    simulator = Simulator(system)
    simulator.get_mutable_integrator().set_fixed_step_mode(True)
    simulator.get_mutable_integrator().set_maximum_step_size(0.1)
    simulator.advance_to(0.5)
    np.testing.assert_allclose(system.times, [0.0, 0.1, 0.2, 0.3, 0.4, 0.5], atol=1e-12)
    assert simulator.get_num_steps_taken() == 5
