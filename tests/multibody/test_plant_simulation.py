"""MultibodyPlant in simulation: energy conservation of a continuous pendulum, the
discrete (time_step > 0) plant's semi-implicit Euler step and its convergence to the
continuous solution, a torque-free spinning free body (angular momentum and energy
conservation, quaternion normalization of the discrete plant), and the exact
linearization against finite differences."""

import numpy as np
import pytest

from merganser.framework import Simulator
from merganser.framework.analysis import first_order_taylor_approximation, linearize
from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody.math import SpatialInertia, SpatialVelocity
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint

LENGTH = 0.8


def pendulum(time_step=0.0):
    """A point-like bob (mass 1, small inertia) LENGTH below a pivot about world y."""
    plant = MultibodyPlant(time_step)
    bob = plant.add_rigid_body("bob", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, -LENGTH], np.diag([1e-3, 1e-3, 1e-3])))
    joint = plant.add_joint(RevoluteJoint("pivot", plant.world_frame(), bob.body_frame(),
                                          [0, 1, 0]))
    plant.add_joint_actuator("pivot", joint)
    plant.finalize()
    return plant


def spinning_body(time_step=0.0):
    plant = MultibodyPlant(time_step)
    plant.gravity_field().set_gravity_vector([0.0, 0.0, 0.0])
    I_cm = np.array([[0.05, 0.004, 0.0], [0.004, 0.12, -0.006], [0.0, -0.006, 0.16]])
    plant.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        3.0, [0.02, -0.01, 0.05], I_cm))
    plant.finalize()
    context = plant.create_default_context()
    body = plant.get_body_by_name("body")
    plant.set_free_body_pose(context, body, RigidTransform(RollPitchYaw(0.2, -0.4, 1.0),
                                                           [0.0, 0.0, 1.0]))
    plant.set_free_body_spatial_velocity(context, body, SpatialVelocity([0.3, 4.0, 0.5],
                                                                        [0.1, -0.2, 0.3]))
    return plant, context


def energy(plant, context):
    return plant.calc_kinetic_energy(context) + plant.calc_potential_energy(context)


def test_continuous_pendulum_conserves_energy_to_the_integrator_accuracy():
    plant = pendulum()
    context = plant.create_default_context()
    plant.set_positions(context, [1.2])
    e0 = energy(plant, context)
    simulator = Simulator(plant, context)
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.advance_to(2.0)
    assert abs(energy(plant, context) - e0) < 1e-7 * abs(e0)
    assert abs(plant.get_positions(context)[0]) < 1.2 + 1e-6     # never swings higher


def test_discrete_step_is_semi_implicit_euler():
    h = 1e-3
    plant = pendulum(time_step=h)
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, [0.5, -0.3])
    plant.get_actuation_input_port().fix_value(context, [0.2])
    vdot = plant.calc_forward_dynamics(context)[0]
    Simulator(plant, context).advance_to(h)
    v1 = -0.3 + h * vdot
    np.testing.assert_allclose(plant.get_positions_and_velocities(context),
                               [0.5 + h * v1, v1], rtol=1e-14)
    np.testing.assert_allclose(plant.get_generalized_acceleration_output_port().eval(context),
                               plant.calc_forward_dynamics(context))


def test_discrete_pendulum_approximates_the_continuous_one():
    results = {}
    for h in (0.0, 1e-3):
        plant = pendulum(time_step=h)
        context = plant.create_default_context()
        plant.set_positions(context, [1.0])
        simulator = Simulator(plant, context)
        simulator.get_mutable_integrator().set_target_accuracy(1e-8)
        simulator.advance_to(1.0)
        results[h] = plant.get_positions_and_velocities(context)
    # First-order method: error O(h) over a unit time span.
    np.testing.assert_allclose(results[1e-3], results[0.0], atol=2e-2)
    assert not np.allclose(results[1e-3], results[0.0], atol=1e-6)


def test_torque_free_body_conserves_angular_momentum_and_energy():
    plant, context = spinning_body()

    def momentum_about_com():
        p_com = plant.calc_center_of_mass_position_in_world(context)
        return plant.calc_spatial_momentum_in_world_about_point(context, p_com).get_coeffs()

    L0, e0 = momentum_about_com(), energy(plant, context)
    simulator = Simulator(plant, context)
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    simulator.advance_to(1.5)
    L1 = momentum_about_com()
    np.testing.assert_allclose(L1, L0, atol=1e-7 * np.abs(L0).max())
    assert abs(energy(plant, context) - e0) < 1e-7 * e0
    w = plant.get_velocities(context)[:3]
    assert np.abs(w - [0.3, 4.0, 0.5]).max() > 0.1      # the angular velocity did change


def test_discrete_free_body_keeps_unit_quaternions():
    plant, context = spinning_body(time_step=1e-2)
    Simulator(plant, context).advance_to(0.5)
    q = plant.get_positions(context)
    assert abs(np.linalg.norm(q[:4]) - 1.0) < 1e-14


def cart_pole():
    plant = MultibodyPlant(0.0)
    cart = plant.add_rigid_body("cart", SpatialInertia.point_mass(10.0, [0.0, 0.0, 0.0]))
    pole = plant.add_rigid_body("pole", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, 0.0], np.diag([1e-3, 1e-3, 1e-3])))
    slider = plant.add_joint(PrismaticJoint("slider", plant.world_frame(), cart.body_frame(),
                                            [1, 0, 0], damping=0.5))
    pin_M = plant.add_frame(FixedOffsetFrame("pin", pole.body_frame(),
                                             RigidTransform([0.0, 0.0, 0.5])))
    plant.add_joint(RevoluteJoint("pin", cart.body_frame(), pin_M, [0, -1, 0], damping=0.1))
    plant.add_joint_actuator("slider", slider)
    plant.finalize()
    return plant


def test_exact_linearization_of_the_upright_cart_pole_matches_finite_differences():
    plant = cart_pole()
    context = plant.create_default_context()
    plant.set_positions(context, [0.3, np.pi])
    plant.get_actuation_input_port().fix_value(context, [0.0])
    u = plant.get_actuation_input_port().get_index()
    y = plant.get_state_output_port().get_index()
    exact = linearize(plant, context, u, y, method="exact")
    assert exact.linearization_method == "exact"
    numeric = linearize(plant, context, u, y, method="finite_difference")
    np.testing.assert_allclose(exact.A(), numeric.A(), atol=1e-6)
    np.testing.assert_allclose(exact.B(), numeric.B(), atol=1e-6)
    np.testing.assert_array_equal(exact.C(), np.eye(4))
    # Unstable upright pendulum: one eigenvalue with a positive real part.
    assert np.max(np.linalg.eigvals(exact.A()).real) > 1.0


def test_exact_taylor_approximation_of_a_free_body_matches_finite_differences():
    plant = MultibodyPlant(0.0)
    plant.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        2.0, [0.05, 0.0, -0.1], np.diag([0.02, 0.05, 0.07])))
    plant.finalize()
    context = plant.create_default_context()
    body = plant.get_body_by_name("body")
    plant.set_free_body_pose(context, body, RigidTransform(RollPitchYaw(0.4, 0.1, -0.7),
                                                           [0, 0, 1]))
    plant.set_free_body_spatial_velocity(context, body, SpatialVelocity([1.0, -2.0, 0.5],
                                                                        [0.3, 0.0, -0.4]))
    g = plant.get_applied_generalized_force_input_port()
    g.fix_value(context, [0.1, 0.2, -0.3, 1.0, 0.0, 2.0])
    y = plant.get_generalized_acceleration_output_port().get_index()
    exact = first_order_taylor_approximation(plant, context, g.get_index(), y, method="exact")
    assert exact.linearization_method == "exact"
    numeric = first_order_taylor_approximation(plant, context, g.get_index(), y,
                                               method="finite_difference")
    for name in ("A", "B", "C", "D", "f0", "y0"):
        np.testing.assert_allclose(getattr(exact, name)(), getattr(numeric, name)(), atol=2e-6,
                                   err_msg=name)


@pytest.mark.parametrize("time_step", [0.0, 1e-3])
def test_state_output_follows_the_simulation(time_step):
    plant = pendulum(time_step)
    context = plant.create_default_context()
    plant.set_positions(context, [0.4])
    Simulator(plant, context).advance_to(0.05)
    np.testing.assert_array_equal(plant.get_state_output_port().eval(context),
                                  plant.get_positions_and_velocities(context))
    assert plant.get_positions(context)[0] < 0.4
