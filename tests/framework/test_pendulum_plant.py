"""PendulumPlant (pydrake's examples.PendulumPlant): dynamics, energy, named views."""

import math

import numpy as np
import pytest

from merganser.controllers import PidController
from merganser.framework import (DiagramBuilder, PendulumParams, PendulumPlant, PendulumState,
                                 Simulator)


def test_pendulum_dynamics_and_energy_are_the_closed_forms():
    plant = PendulumPlant()
    context = plant.create_default_context()
    params = plant.get_mutable_parameters(context)
    assert (params.mass(), params.length(), params.damping(), params.gravity()) == (
        1.0, 0.5, 0.1, 9.81)
    params.set_damping(0.05)
    state = plant.get_mutable_state(context)
    state.set_theta(1.0)
    state.set_thetadot(0.5)
    plant.get_input_port().fix_value(context, [0.3])
    theta_ddot = (0.3 - 9.81 * 0.5 * math.sin(1.0) - 0.05 * 0.5) / 0.25
    np.testing.assert_allclose(plant.eval_time_derivatives(context).copy_to_vector(),
                               [0.5, theta_ddot], rtol=1e-15)
    assert plant.eval_kinetic_energy(context) == pytest.approx(0.5 * 0.25 * 0.25)
    assert plant.eval_potential_energy(context) == pytest.approx(-9.81 * 0.5 * math.cos(1.0))
    assert plant.get_state(context).theta() == 1.0
    assert plant.get_state_output_port().eval(context).tolist() == [1.0, 0.5]
    assert PendulumParams().with_mass(2.0).mass() == 2.0
    with pytest.raises(ValueError, match="PendulumState: expected 2 values"):
        PendulumState([1.0])


def test_an_undamped_pendulum_conserves_energy_and_pid_closes_the_loop():
    plant = PendulumPlant()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.get_mutable_parameters(context).set_damping(0.0)
    plant.get_mutable_state(context).set_theta(0.3)
    plant.get_input_port().fix_value(context, [0.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    energy = plant.eval_kinetic_energy(context) + plant.eval_potential_energy(context)
    simulator.advance_to(2.0)
    assert plant.eval_kinetic_energy(context) + plant.eval_potential_energy(context) == \
        pytest.approx(energy, abs=1e-7)
    # the tutorial's wiring: the state output feeds the controller without a loop
    builder = DiagramBuilder()
    pendulum = builder.add_named_system("pendulum", PendulumPlant())
    controller = builder.add_named_system("controller", PidController(kp=[10.0], ki=[5.0],
                                                                       kd=[1.0]))
    builder.connect(pendulum.get_state_output_port(), controller.get_input_port_estimated_state())
    builder.connect(controller.get_output_port_control(), pendulum.get_input_port())
    builder.export_input(controller.get_input_port_desired_state())
    diagram = builder.build()
    simulator = Simulator(diagram)
    root = simulator.get_mutable_context()
    diagram.get_input_port(0).fix_value(root, [math.pi / 4, 0.0])
    simulator.advance_to(20.0)
    theta = pendulum.get_state(pendulum.get_my_context_from_root(root)).theta()
    assert theta == pytest.approx(math.pi / 4, abs=1e-3)       # integral action: no offset


def test_acrobot_matches_drakes_values_and_conserves_energy():
    from merganser.framework import AcrobotParams, AcrobotPlant

    plant = AcrobotPlant()
    context = plant.create_default_context()
    context.set_continuous_state([0.1, 0.2, 0.3, 0.4])
    plant.get_input_port().fix_value(context, [0.5])
    # pydrake 1.51's AcrobotPlant at this state and input (Drake's default parameters)
    np.testing.assert_allclose(plant.eval_time_derivatives(context).copy_to_vector(),
                               [0.3, 0.4, -0.08383435, -1.70170718], rtol=1e-7)
    assert plant.eval_potential_energy(context) == pytest.approx(-24.013337250388346,
                                                                  rel=1e-14)
    assert plant.eval_kinetic_energy(context) == pytest.approx(0.5916489813466608, rel=1e-14)
    assert AcrobotParams().Ic2() == 0.33
    # without damping or input the energy is conserved
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    params = plant.get_mutable_parameters(context)
    params.set_b1(0.0)
    params.set_b2(0.0)
    plant.get_mutable_state(context).set_theta1(1.0)
    plant.get_input_port().fix_value(context, [0.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    energy = plant.eval_kinetic_energy(context) + plant.eval_potential_energy(context)
    simulator.advance_to(2.0)
    assert plant.eval_kinetic_energy(context) + plant.eval_potential_energy(context) == \
        pytest.approx(energy, abs=1e-6)
    assert plant.get_state(context).theta1() != 1.0                 # it moved
