"""SimulatorConfig validation and apply_simulator_config / reset_integrator_from_flags."""

import numpy as np
import pytest
from fake_system import mass_spring_damper
from pydantic import ValidationError

from merganser.framework.integrators import (INTEGRATION_SCHEMES, ExplicitEulerIntegrator,
                                   RungeKutta3Integrator, RungeKutta5Integrator)
from merganser.framework.simulator_config import (SimulatorConfig, apply_simulator_config,
                                        reset_integrator_from_flags)


class RecordingSimulator:
    """Implements exactly the Simulator methods the config functions may call."""

    def __init__(self):
        self.system, _ = mass_spring_damper()
        self.context = self.system.create_default_context([1.0, 0.0])
        self.integrator = None
        self.realtime_rate = None
        self.publish_every_time_step = None

    def get_system(self):
        return self.system

    def get_mutable_context(self):
        return self.context

    def reset_integrator(self, integrator):
        self.integrator = integrator
        return integrator

    def set_target_realtime_rate(self, rate):
        self.realtime_rate = rate

    def set_publish_every_time_step(self, flag):
        self.publish_every_time_step = flag


def test_defaults_match_drake():
    config = SimulatorConfig()
    assert config.integration_scheme == "runge_kutta3"
    assert config.max_step_size == 0.1
    assert config.accuracy == 1e-4
    assert config.use_error_control is True
    assert config.start_time == 0.0
    assert config.target_realtime_rate == 0.0
    assert config.publish_every_time_step is False


def test_unknown_scheme_is_rejected_with_the_valid_names():
    with pytest.raises(ValidationError, match="integration_scheme 'rk45' is not a known scheme; "
                                              "valid schemes: explicit_euler"):
        SimulatorConfig(integration_scheme="rk45")


@pytest.mark.parametrize("field, value", [("max_step_size", 0.0), ("max_step_size", -0.1),
                                          ("accuracy", 0.0), ("accuracy", -1e-3),
                                          ("target_realtime_rate", -1.0),
                                          ("max_step_size", float("nan")),
                                          ("start_time", float("inf"))])
def test_out_of_range_numbers_are_rejected(field, value):
    with pytest.raises(ValidationError, match=field):
        SimulatorConfig(**{field: value})


def test_unknown_fields_are_forbidden():
    with pytest.raises(ValidationError, match="max_stepsize"):
        SimulatorConfig(max_stepsize=0.01)


def test_assignment_is_validated():
    config = SimulatorConfig()
    with pytest.raises(ValidationError, match="integration_scheme"):
        config.integration_scheme = "euler"
    config.integration_scheme = "radau3"
    assert config.integration_scheme == "radau3"


def test_config_round_trips_through_a_dict():
    config = SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-8, start_time=2.0)
    assert SimulatorConfig(**config.model_dump()) == config


def test_reset_integrator_from_flags_installs_the_named_scheme():
    simulator = RecordingSimulator()
    integrator = reset_integrator_from_flags(simulator, "runge_kutta5", 0.02)
    assert isinstance(integrator, RungeKutta5Integrator)
    assert simulator.integrator is integrator
    assert integrator.get_maximum_step_size() == 0.02
    assert integrator.get_context() is simulator.context
    with pytest.raises(ValueError, match="unknown integration scheme 'rk4'"):
        reset_integrator_from_flags(simulator, "rk4", 0.02)


def test_apply_sets_integrator_accuracy_time_and_pacing():
    simulator = RecordingSimulator()
    config = SimulatorConfig(integration_scheme="runge_kutta3", max_step_size=0.05,
                             accuracy=1e-7, start_time=1.5, target_realtime_rate=2.0,
                             publish_every_time_step=True)
    apply_simulator_config(config, simulator)
    integrator = simulator.integrator
    assert isinstance(integrator, RungeKutta3Integrator)
    assert integrator.get_maximum_step_size() == 0.05
    assert integrator.get_target_accuracy() == 1e-7
    assert not integrator.get_fixed_step_mode()
    assert simulator.context.get_time() == 1.5
    assert simulator.realtime_rate == 2.0
    assert simulator.publish_every_time_step is True


def test_apply_without_error_control_runs_fixed_steps():
    simulator = RecordingSimulator()
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta5",
                                           max_step_size=0.25, use_error_control=False),
                           simulator)
    integrator = simulator.integrator
    assert integrator.get_fixed_step_mode()
    integrator.integrate_with_multiple_steps_to_time(1.0)
    assert integrator.get_num_steps_taken() == 4


def test_apply_with_a_fixed_step_scheme_ignores_accuracy():
    simulator = RecordingSimulator()
    apply_simulator_config(SimulatorConfig(integration_scheme="explicit_euler",
                                           max_step_size=0.01, accuracy=1e-9), simulator)
    assert isinstance(simulator.integrator, ExplicitEulerIntegrator)
    assert simulator.integrator.get_fixed_step_mode()
    assert simulator.integrator.get_target_accuracy() is None


def test_apply_rejects_a_non_config():
    with pytest.raises(TypeError, match="config must be a SimulatorConfig, got dict"):
        apply_simulator_config({"integration_scheme": "radau3"}, RecordingSimulator())


# ---- with the real Simulator -------------------------------------------------------------------

def spring_damper_diagram():
    from merganser.framework import DiagramBuilder, LeafSystem

    class SpringDamper(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_continuous_state(1, 1, 0)
            self.declare_state_output_port("y", 0)

        def do_calc_time_derivatives(self, context, derivatives):
            q, v = context.get_continuous_state_vector()
            derivatives.set_value([v, -4.0 * q - 0.4 * v])

    builder = DiagramBuilder()
    plant = builder.add_named_system("spring", SpringDamper())
    return builder.build(), plant


# Fixed-step schemes take h = 0.01; error-controlled ones hold accuracy 1e-6 per step
# (first-order ones then reach ~sqrt(1e-6) globally).
ACCURACY_BOUND = {"explicit_euler": 5e-2, "semi_explicit_euler": 2e-2, "runge_kutta2": 1e-3,
                  "implicit_euler": 1e-2, "radau1": 1e-2, "velocity_implicit_euler": 1e-2}


@pytest.mark.parametrize("scheme", INTEGRATION_SCHEMES)
def test_every_scheme_simulates_the_spring_damper_through_the_simulator(scheme):
    from merganser.framework import Simulator

    diagram, plant = spring_damper_diagram()
    simulator = Simulator(diagram)
    plant_context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant_context.set_continuous_state([1.0, 0.0])
    apply_simulator_config(SimulatorConfig(integration_scheme=scheme, max_step_size=0.01,
                                           accuracy=1e-6, start_time=1.0), simulator)
    assert simulator.get_integrator().scheme_name == scheme
    simulator.advance_to(4.0)
    _, exact = mass_spring_damper()
    error = np.max(np.abs(plant_context.get_continuous_state_vector() - exact(3.0)))
    assert error < ACCURACY_BOUND.get(scheme, 5e-6)
