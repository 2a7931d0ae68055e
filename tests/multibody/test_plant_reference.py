"""The acrobot and the cart-pole, built by hand with the plant's construction API from the
numbers in their model files (tests/data/models/drake/acrobot/Acrobot.urdf and
cart_pole/cart_pole.sdf), compared through the plant API with the values Drake 1.51
computes for them (tests/data/reference/*.npz) at ten random states."""

from pathlib import Path

import numpy as np
import pytest
from robot_models import add_acrobot

from merganser.geometry import RigidTransform
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import JacobianWrtVariable, MultibodyForces, MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference"
TOL = 1e-10


def make_acrobot():
    """Acrobot.urdf: base_link welded to world, shoulder and elbow revolute about y with
    damping 0.1, the elbow actuated."""
    plant = MultibodyPlant(0.0)
    add_acrobot(plant)
    plant.finalize()
    return plant


def make_cart_pole():
    """cart_pole.sdf: the cart slides along world x (actuated), the pole (a point mass
    0.5 m below the pin) swings about -y at the cart origin."""
    plant = MultibodyPlant(0.0)
    tiny = np.diag([1e-20, 1e-20, 1e-20])
    cart = plant.add_rigid_body("Cart", SpatialInertia.make_from_central_inertia(
        10.0, np.zeros(3), tiny))
    pole = plant.add_rigid_body("Pole", SpatialInertia.make_from_central_inertia(
        1.0, np.zeros(3), tiny))
    slider = plant.add_joint(PrismaticJoint("CartSlider", plant.world_frame(),
                                            cart.body_frame(), [1, 0, 0]))
    pin_M = plant.add_frame(FixedOffsetFrame("PolePin_child", pole.body_frame(),
                                             RigidTransform([0.0, 0.0, 0.5])))
    plant.add_joint(RevoluteJoint("PolePin", cart.body_frame(), pin_M, [0, -1, 0]))
    plant.add_joint_actuator("CartSlider", slider)
    plant.finalize()
    return plant


CASES = {"acrobot": make_acrobot, "cart_pole": make_cart_pole}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    plant = CASES[request.param]()
    ref = dict(np.load(REFERENCE / f"{request.param}.npz"))
    return plant, ref


def states(plant, ref):
    """Yield (k, context) with the reference state k set in a fresh context."""
    context = plant.create_default_context()
    for k in range(ref["q"].shape[0]):
        plant.set_positions(context, ref["q"][k])
        plant.set_velocities(context, ref["v"][k])
        yield k, context


def test_coordinate_names_match_drake(case):
    plant, ref = case
    assert plant.get_position_names(add_model_instance_prefix=False) == list(
        ref["position_names"])
    assert plant.get_velocity_names(add_model_instance_prefix=False) == list(
        ref["velocity_names"])
    assert plant.num_positions() == int(ref["nq"])
    assert plant.num_velocities() == int(ref["nv"])


def test_mass_matrix_bias_and_gravity_match_reference(case):
    plant, ref = case
    for k, context in states(plant, ref):
        np.testing.assert_allclose(plant.calc_mass_matrix(context), ref["M"][k], atol=TOL)
        np.testing.assert_allclose(plant.calc_mass_matrix_via_inverse_dynamics(context),
                                   ref["M"][k], atol=TOL)
        np.testing.assert_allclose(plant.calc_bias_term(context), ref["Cv"][k], atol=TOL)
        np.testing.assert_allclose(plant.calc_gravity_generalized_forces(context),
                                   ref["tau_g"][k], atol=TOL)


def test_inverse_dynamics_matches_reference(case):
    plant, ref = case
    forces = MultibodyForces(plant)
    for k, context in states(plant, ref):
        tau = plant.calc_inverse_dynamics(context, ref["vdot"][k], forces)
        np.testing.assert_allclose(tau, ref["id"][k], atol=TOL)
        # Adding gravity and damping through the force elements gives the torque that
        # produces vdot in the full model: M vdot + C v - tau_g + D v.
        plant.calc_force_elements_contribution(context, forces)
        damping = np.array([plant.get_joint(j).damping() for j in plant.get_joint_indices()
                            if plant.get_joint(j).num_velocities() == 1])
        full = plant.calc_inverse_dynamics(context, ref["vdot"][k], forces)
        np.testing.assert_allclose(full, ref["id"][k] - ref["tau_g"][k] + damping * ref["v"][k],
                                   atol=TOL)
        forces.set_zero()


def test_forward_dynamics_through_the_inputs_matches_reference(case):
    plant, ref = case
    B = plant.make_actuation_matrix()
    damping = np.zeros(plant.num_velocities())
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        if joint.num_velocities() == 1:
            damping[joint.velocity_start()] = joint.damping()
    for k, context in states(plant, ref):
        tau = ref["tau"][k]
        u = B.T @ tau                      # the actuated part through "actuation"
        plant.get_actuation_input_port().fix_value(context, u)
        plant.get_applied_generalized_force_input_port().fix_value(context, tau - B @ u)
        # The reference has no joint damping; the plant applies -D v.
        expected = ref["fd"][k] - np.linalg.solve(ref["M"][k], damping * ref["v"][k])
        np.testing.assert_allclose(plant.calc_forward_dynamics(context), expected, atol=TOL)
        xdot = plant.eval_time_derivatives(context)
        np.testing.assert_allclose(xdot[plant.num_positions():], expected, atol=TOL)
        np.testing.assert_allclose(
            plant.get_generalized_acceleration_output_port().eval(context), expected, atol=TOL)


def test_body_poses_and_jacobians_match_reference(case):
    plant, ref = case
    W = plant.world_frame()
    bodies = [plant.get_body_by_name(str(name)) for name in ref["body_names"]]
    for k, context in states(plant, ref):
        poses = plant.get_body_poses_output_port().eval(context)
        for b, body in enumerate(bodies):
            X_WB = plant.eval_body_pose_in_world(context, body).get_as_matrix4()
            np.testing.assert_allclose(X_WB, ref["X_WB"][k, b], atol=TOL)
            np.testing.assert_allclose(poses[body.index()].get_as_matrix4(), ref["X_WB"][k, b],
                                       atol=TOL)
            J = plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kV,
                                                     body.body_frame(), np.zeros(3), W, W)
            np.testing.assert_allclose(J, ref["J_WB"][k, b], atol=TOL)
            V_WB = plant.eval_body_spatial_velocity_in_world(context, body).get_coeffs()
            np.testing.assert_allclose(V_WB, ref["J_WB"][k, b] @ ref["v"][k], atol=TOL)


def test_energy_and_center_of_mass_match_reference(case):
    plant, ref = case
    for k, context in states(plant, ref):
        assert abs(plant.calc_kinetic_energy(context) - ref["ke"][k]) < TOL
        assert abs(plant.calc_potential_energy(context) - ref["pe"][k]) < TOL
        np.testing.assert_allclose(plant.calc_center_of_mass_position_in_world(context),
                                   ref["com"][k], atol=TOL)
