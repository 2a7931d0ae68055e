"""Cyclic coordinate descent: reaches targets of the planar 3R arm (checked against its
closed-form kinematics) and of the Panda to 1 mm, follows the CCD update rule, respects
joint limits, and reports unreachable targets with the arm stretched toward them."""

import numpy as np
import pytest
from ik_models import ARM_LIMIT, LINKS, PANDA_HOME, panda, planar_arm, planar_tip

from merganser.multibody.dh_chain import add_dh_chain
from merganser.multibody.inverse_kinematics import joint_chain_to_frame, solve_ik_ccd
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant

MM = 1e-3


@pytest.fixture(scope="module")
def arm():
    return planar_arm()


@pytest.fixture(scope="module")
def panda_model():
    return panda()


def test_reaches_planar_targets_to_1mm(arm):
    plant, tip = arm
    rng = np.random.default_rng(0)
    for _ in range(10):
        target = planar_tip(rng.uniform(-2.0, 2.0, 3))
        result = solve_ik_ccd(plant, tip, target, q_initial=[0.2, 0.2, 0.2])
        assert result.success, result.message
        assert np.linalg.norm(planar_tip(result.q) - target) <= MM
        assert result.position_error <= 1e-4


def test_one_sweep_turns_each_joint_by_the_angle_between_effector_and_target(arm):
    plant, tip = arm
    # Turning only the last joint reaches this target: the tip-to-base sweep takes the
    # whole rotation at the last joint and leaves the others untouched.
    target = planar_tip([0.0, 0.0, 0.9])
    result = solve_ik_ccd(plant, tip, target, q_initial=np.zeros(3))
    assert result.num_iterations == 1
    np.testing.assert_allclose(result.q, [0.0, 0.0, 0.9], atol=1e-12)


def test_respects_joint_limits_and_still_reaches_targets_inside_them():
    plant, tip = planar_arm(limits=(-0.6, 0.6))
    rng = np.random.default_rng(1)
    for _ in range(5):
        target = planar_tip(rng.uniform(-0.5, 0.5, 3))
        # Targets of a nearly straight arm are where CCD converges slowest.
        result = solve_ik_ccd(plant, tip, target, q_initial=np.zeros(3), tolerance=MM / 2,
                              max_iterations=3000)
        assert np.all(np.abs(result.q) <= 0.6)
        assert result.success, result.message
        assert np.linalg.norm(planar_tip(result.q) - target) <= MM
    # A target behind the arm needs more than the limits allow: reported, limits held.
    result = solve_ik_ccd(plant, tip, [-0.5, 0.2, 0.0], q_initial=np.zeros(3))
    assert not result.success
    assert np.all(np.abs(result.q) <= 0.6 + 1e-15)
    assert "not reached" in result.message


def test_unreachable_target_is_reported_and_the_arm_stretched_toward_it(arm):
    plant, tip = arm
    target = np.array([1.6, 1.2, 0.0])              # 2 m away, the arm reaches 1.2 m
    result = solve_ik_ccd(plant, tip, target, q_initial=[0.3, -0.2, 0.4])
    assert not result.success
    assert "not reached" in result.message
    reach = sum(LINKS)
    direction = target / np.linalg.norm(target)
    np.testing.assert_allclose(planar_tip(result.q), reach * direction, atol=1e-6)
    assert result.position_error == pytest.approx(np.linalg.norm(target) - reach, abs=1e-6)
    assert np.all(np.abs(result.q) <= ARM_LIMIT)


def test_reaches_panda_targets_to_1mm_within_limits(panda_model):
    plant, tcp, arm_q = panda_model
    ctx = plant.create_default_context()
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    q_home = plant.get_positions(ctx)
    q_home[arm_q] = PANDA_HOME
    rng = np.random.default_rng(2)
    for _ in range(5):
        q_goal = q_home.copy()
        q_goal[arm_q] = np.clip(PANDA_HOME + rng.uniform(-0.6, 0.6, 7), lower[arm_q],
                                upper[arm_q])
        plant.set_positions(ctx, q_goal)
        target = plant.calc_points_positions(ctx, tcp, np.zeros(3), plant.world_frame())[:, 0]
        result = solve_ik_ccd(plant, tcp, target, q_initial=q_home)
        assert result.success, result.message
        assert np.all(result.q >= lower) and np.all(result.q <= upper)
        plant.set_positions(ctx, result.q)
        reached = plant.calc_points_positions(ctx, tcp, np.zeros(3), plant.world_frame())
        assert np.linalg.norm(reached[:, 0] - target) <= MM


def test_panda_unreachable_target_is_reported(panda_model):
    plant, tcp, arm_q = panda_model
    q0 = np.zeros(plant.num_positions())
    q0[arm_q] = PANDA_HOME
    result = solve_ik_ccd(plant, tcp, [2.0, 0.5, 0.5], q_initial=q0)
    assert not result.success
    assert result.position_error > 0.5


def test_prismatic_joints_slide_toward_the_target():
    # A revolute base and a prismatic boom along x (standard DH: joint 2 slides along z1).
    plant = MultibodyPlant(0.0)
    chain = add_dh_chain(plant, [[0.0, np.pi / 2, 0.0, 0.0], [0.0, 0.0, 0.3, 0.0]],
                         joint_types=["revolute", "prismatic"],
                         position_limits=[(-3.0, 3.0), (0.0, 1.0)])
    plant.finalize()
    target = np.array([0.0, 0.0, 0.0])
    ctx = plant.create_default_context()
    plant.set_positions(ctx, [0.7, 0.45])
    target = plant.calc_points_positions(ctx, chain.end_effector_frame, np.zeros(3),
                                         plant.world_frame())[:, 0]
    result = solve_ik_ccd(plant, chain.end_effector_frame, target, q_initial=[0.0, 0.0])
    assert result.success, result.message
    np.testing.assert_allclose(result.q, [0.7, 0.45], atol=1e-4)


def test_chain_lists_the_joints_from_base_to_tip(arm):
    plant, tip = arm
    assert [j.name() for j in joint_chain_to_frame(plant, tip)] == ["joint1", "joint2",
                                                                     "joint3"]


def test_bad_arguments_raise_with_the_function_and_argument_names(arm):
    plant, tip = arm
    with pytest.raises(TypeError, match="solve_ik_ccd: frame_E must be a Frame"):
        solve_ik_ccd(plant, "tip", [0.5, 0.5, 0.0])
    with pytest.raises(ValueError, match=r"solve_ik_ccd: p_WQ_target has shape \(2,\), "
                                         r"expected \(3,\)"):
        solve_ik_ccd(plant, tip, [0.5, 0.5])
    with pytest.raises(ValueError, match="solve_ik_ccd: q_initial has shape"):
        solve_ik_ccd(plant, tip, [0.5, 0.5, 0.0], q_initial=[0.0])
    with pytest.raises(ValueError, match="solve_ik_ccd: tolerance must be finite and > 0"):
        solve_ik_ccd(plant, tip, [0.5, 0.5, 0.0], tolerance=0.0)
    free = MultibodyPlant(0.0)
    body = free.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    free.finalize()
    with pytest.raises(ValueError, match="QuaternionFloatingJoint; CCD handles"):
        solve_ik_ccd(free, body.body_frame(), [0.0, 0.0, 1.0])
