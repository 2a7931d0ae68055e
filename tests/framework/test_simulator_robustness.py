"""The simulator refuses what it cannot do, by name, and never loses the last good state."""

import math
import warnings

import numpy as np
import pytest

from merganser.framework import (ConstantVectorSource, DiagramBuilder, EventStatus,
                                 ExplicitEulerIntegrator, Gain, ImplicitEulerIntegrator,
                                 Integrator, LeafSystem, NonFiniteStateError, PortError,
                                 SimulationError, Simulator, monte_carlo_simulation)


class Ramp(LeafSystem):
    """x' = 1 while t < t_bad, NaN from t_bad on (a model that breaks at a known time)."""

    def __init__(self, t_bad=5.0):
        super().__init__()
        self._t_bad = t_bad
        self.declare_continuous_state(1)

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value([1.0 if context.get_time() < self._t_bad else math.nan])


class Grower(LeafSystem):
    """x[n+1] = 10 x[n] every 0.1 s from x = 1: overflows to inf at the 309th update."""

    def __init__(self):
        super().__init__()
        self.declare_discrete_state([1.0])
        self.declare_periodic_discrete_update_event(0.1, 0.0, self._grow)

    def _grow(self, context, discrete_state):
        with np.errstate(over="ignore"):
            discrete_state.set_value(10.0 * context.get_discrete_state(0))


class Decay(LeafSystem):
    def __init__(self, a=1.0):
        super().__init__()
        self._a = a
        self.declare_continuous_state(model_vector=[1.0])

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value(-self._a * context.get_continuous_state_vector())


# ---- input types --------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [None, "plant", 3.0])
def test_simulator_of_a_non_system_is_a_type_error_naming_simulator(bad):
    with pytest.raises(TypeError, match=rf"Simulator: system must be a System .*got "
                                        rf"{type(bad).__name__}"):
        Simulator(bad)


def test_simulator_context_must_be_a_context():
    with pytest.raises(TypeError, match="Simulator: context must be a Context.*got int"):
        Simulator(Decay(), context=5)


def test_simulator_context_of_another_system_is_refused():
    with pytest.raises(ValueError, match="root context of system"):
        Simulator(Decay(), Decay().create_default_context())


# ---- bounded runs -------------------------------------------------------------------------
def test_advance_to_nan_names_advance_to():
    simulator = Simulator(Decay())
    with pytest.raises(ValueError, match=r"^Simulator\.advance_to: boundary_time must be a "
                                         r"number \(s\), got nan"):
        simulator.advance_to(float("nan"))
    assert simulator.get_context().get_time() == 0.0


def test_advance_to_a_non_number_names_advance_to():
    with pytest.raises(TypeError, match=r"Simulator\.advance_to: boundary_time must be a "
                                        r"number .*got str"):
        Simulator(Decay()).advance_to("soon")


@pytest.mark.parametrize("make", [Decay, Grower])
def test_advance_to_inf_with_state_is_refused(make):
    simulator = Simulator(make())
    with pytest.raises(ValueError, match="advance_to: boundary_time is inf.*never end"):
        simulator.advance_to(math.inf)
    assert simulator.get_context().get_time() == 0.0


def test_advance_to_inf_without_state_or_events_returns_at_once():
    status = Simulator(ConstantVectorSource([1.0])).advance_to(math.inf)
    assert status.return_time() == math.inf


def test_advance_to_inf_with_a_terminating_monitor_runs_until_it_stops():
    system = Integrator(1)
    context = system.create_default_context()
    system.get_input_port(0).fix_value(context, [1.0])
    simulator = Simulator(system, context)
    simulator.set_monitor(lambda ctx: EventStatus.reached_termination(system, "at 2")
                          if ctx.get_continuous_state_vector()[0] >= 2.0 else None)
    status = simulator.advance_to(math.inf)
    assert status.reached_termination()
    assert 2.0 <= context.get_time() <= 2.2     # the default maximum step is 0.1 s


# ---- non-finite states: the last finite state is kept -------------------------------------
def test_explicit_euler_blow_up_rolls_back_to_the_step_start():
    system = Ramp(t_bad=5.05)
    simulator = Simulator(system)
    simulator.reset_integrator(ExplicitEulerIntegrator(system, 0.1,
                                                       simulator.get_mutable_context()))
    with pytest.raises(NonFiniteStateError, match="continuous state index 0 of subsystem") as info:
        simulator.advance_to(10.0)
    context = simulator.get_context()
    exc = info.value
    # the step from t = 5.1 produced NaN; the context is back at its start, where x = t
    assert context.get_time() == pytest.approx(5.1, abs=1e-9)
    assert context.get_continuous_state_vector()[0] == pytest.approx(5.1, abs=1e-9)
    assert exc.last_finite_time == context.get_time()
    np.testing.assert_array_equal(exc.last_finite_continuous_state,
                                  context.get_continuous_state_vector())
    assert "last finite state" in str(exc)


def test_a_long_run_that_blows_up_keeps_its_last_good_state():
    system = Ramp(t_bad=5.0005)
    simulator = Simulator(system)
    simulator.reset_integrator(ExplicitEulerIntegrator(system, 1e-3,
                                                       simulator.get_mutable_context()))
    with pytest.raises(NonFiniteStateError) as info:       # 5001 good steps, then NaN
        simulator.advance_to(20.0)
    context = simulator.get_context()
    assert context.get_time() == pytest.approx(5.001, abs=1e-9)
    assert np.all(np.isfinite(context.get_continuous_state_vector()))
    assert context.get_continuous_state_vector()[0] == pytest.approx(5.001, abs=1e-9)
    assert info.value.last_finite_time == context.get_time()


def test_error_controlled_blow_up_leaves_a_finite_context_before_the_break():
    simulator = Simulator(Ramp(t_bad=1.0))
    with pytest.raises(NonFiniteStateError) as info:
        simulator.advance_to(2.0)
    context = simulator.get_context()
    x = context.get_continuous_state_vector()
    assert np.all(np.isfinite(x)) and context.get_time() <= 1.0
    assert x[0] == pytest.approx(context.get_time(), abs=1e-9)     # x = t up to the break
    assert info.value.last_finite_time == context.get_time()


def test_discrete_overflow_keeps_the_last_finite_discrete_state():
    simulator = Simulator(Grower())
    with pytest.raises(NonFiniteStateError, match="discrete state group 0 index 0") as info:
        simulator.advance_to(100.0)
    context = simulator.get_context()
    xd = context.get_discrete_state(0)
    assert xd[0] == pytest.approx(1e308, rel=1e-12)     # inf came with the next update
    np.testing.assert_array_equal(info.value.last_finite_discrete_state, xd)
    assert info.value.last_finite_time == context.get_time()


def test_non_finite_state_error_pickles_for_worker_processes():
    import pickle

    exc = NonFiniteStateError("x became nan", last_finite_time=1.0)
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == "x became nan" and isinstance(again, SimulationError)


# ---- unconnected inputs -------------------------------------------------------------------
def _two_open_gains():
    builder = DiagramBuilder()
    a = builder.add_named_system("a", Gain(k=2.0, size=1))
    b = builder.add_named_system("b", Gain(k=3.0, size=1))
    builder.export_output(a.get_output_port(), "ya")
    builder.export_output(b.get_output_port(), "yb")
    return builder.build(), a, b


def test_initialize_names_every_unconnected_required_input():
    diagram, a, b = _two_open_gains()
    simulator = Simulator(diagram)
    with pytest.raises(PortError, match="2 required input port.*input port 'u' of system "
                                        "'a'.*input port 'u' of system 'b'"):
        simulator.initialize()
    with pytest.raises(PortError, match="system 'a'"):
        diagram.simulate(1.0)


def test_fixing_the_inputs_lets_the_simulator_start():
    diagram, a, b = _two_open_gains()
    context = diagram.create_default_context()
    a.get_input_port().fix_value(a.get_my_context_from_root(context), [1.0])
    with pytest.raises(PortError) as info:
        Simulator(diagram, context).initialize()
    assert "system 'b'" in str(info.value) and "system 'a'" not in str(info.value)
    b.get_input_port().fix_value(b.get_my_context_from_root(context), [1.0])
    Simulator(diagram, context).advance_to(1.0)
    assert diagram.get_output_port(1).eval(context)[0] == 3.0


def test_evaluating_an_unconnected_input_names_it():
    diagram, a, _ = _two_open_gains()
    context = diagram.create_default_context()
    with pytest.raises(PortError, match="port 'u' of system 'a' is neither connected nor fixed"):
        diagram.get_output_port(0).eval(context)


class Actuated(LeafSystem):
    """An input that means zero while unconnected (like the plant's actuation port)."""

    def __init__(self):
        super().__init__()
        self.declare_vector_input_port("actuation", 1, required=False, default_value=[0.0])
        self.declare_continuous_state(1)

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value(self.get_input_port(0).eval(context) + 1.0)


def test_an_optional_input_with_a_default_does_not_block_the_start():
    builder = DiagramBuilder()
    builder.add_system(Actuated())
    diagram = builder.build()
    simulator = Simulator(diagram)
    simulator.advance_to(1.0)
    np.testing.assert_allclose(simulator.get_context().get_continuous_state_vector(), [1.0])


# ---- integrator advice --------------------------------------------------------------------
def _min_step_failure(integrator_cls):
    system = Decay(a=1.0)
    simulator = Simulator(system)
    if integrator_cls is not None:
        simulator.reset_integrator(integrator_cls(system, simulator.get_mutable_context()))
    integrator = simulator.get_mutable_integrator()
    integrator.set_target_accuracy(1e-12)
    integrator.set_requested_minimum_step_size(0.05)
    with pytest.raises(SimulationError, match="smaller than the minimum step size") as info:
        simulator.advance_to(1.0)
    return str(info.value)


def test_implicit_minimum_step_error_does_not_advise_an_implicit_scheme():
    message = _min_step_failure(ImplicitEulerIntegrator)
    assert "implicit_euler" in message and "use an implicit scheme" not in message
    assert "discontinuous" in message and "set_requested_minimum_step_size" in message


def test_explicit_minimum_step_error_advises_an_implicit_scheme():
    assert "use an implicit scheme" in _min_step_failure(None)


# ---- Monte Carlo ----------------------------------------------------------------------------
def make_overwritten_simulator(generator):
    """Draws x0 into the context, which set_random_context then resets (a user mistake)."""
    simulator = Simulator(Decay())
    simulator.get_mutable_context().set_continuous_state([generator.uniform(1.0, 2.0)])
    return simulator


def make_randomized_simulator(generator):
    """Draws the decay rate into the system itself, which survives set_random_context."""
    return Simulator(Decay(a=generator.uniform(0.5, 2.0)))


def final_state(system, context):
    return context.get_continuous_state_vector().copy()


def test_monte_carlo_warns_when_every_sample_is_identical():
    with pytest.warns(UserWarning, match="monte_carlo_simulation: all 4 successful samples "
                                         "produced identical outputs.*set_random_context"):
        results = monte_carlo_simulation(make_overwritten_simulator, final_state, 0.1, 4,
                                         progress=False)
    assert all(np.array_equal(r.output, results[0].output) for r in results)


def test_monte_carlo_does_not_warn_when_samples_differ():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = monte_carlo_simulation(make_randomized_simulator, final_state, 0.1, 4,
                                         progress=False)
    assert len({float(r.output[0]) for r in results}) == 4
