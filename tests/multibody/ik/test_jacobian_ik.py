"""Damped least-squares IK: reaches position targets of the planar 3R arm (closed-form
check) and position and full-pose targets of the Panda to 1 mm, respects joint limits,
reports unreachable targets (arm stretched toward them), and the null-space objective
moves a redundant arm toward a preferred posture without disturbing the task."""

import numpy as np
import pytest
from ik_models import LINKS, PANDA_HOME, panda, planar_arm, planar_tip

from merganser.geometry import RigidTransform
from merganser.multibody.inverse_kinematics import solve_ik_jacobian
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant

MM = 1e-3


@pytest.fixture(scope="module")
def arm():
    return planar_arm()


@pytest.fixture(scope="module")
def panda_model():
    plant, tcp, arm_q = panda()
    q_home = np.zeros(plant.num_positions())
    q_home[arm_q] = PANDA_HOME
    return plant, tcp, arm_q, q_home


def panda_goals(plant, tcp, arm_q, q_home, count, seed):
    """(q_goal, X_WTcp) pairs around the home posture, inside the limits."""
    ctx = plant.create_default_context()
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    rng = np.random.default_rng(seed)
    for _ in range(count):
        q = q_home.copy()
        q[arm_q] = np.clip(PANDA_HOME + rng.uniform(-0.6, 0.6, 7), lower[arm_q], upper[arm_q])
        plant.set_positions(ctx, q)
        yield q, plant.calc_relative_transform(ctx, plant.world_frame(), tcp)


def tcp_pose(plant, tcp, q):
    ctx = plant.create_default_context()
    plant.set_positions(ctx, q)
    return plant.calc_relative_transform(ctx, plant.world_frame(), tcp)


def test_reaches_planar_targets_to_1mm(arm):
    plant, tip = arm
    rng = np.random.default_rng(0)
    for _ in range(10):
        target = planar_tip(rng.uniform(-2.0, 2.0, 3))
        result = solve_ik_jacobian(plant, tip, target, q_initial=[0.2, 0.2, 0.2])
        assert result.success, result.message
        assert np.linalg.norm(planar_tip(result.q) - target) <= MM
        assert np.isnan(result.orientation_error)


def test_reaches_panda_position_targets_to_1mm(panda_model):
    plant, tcp, arm_q, q_home = panda_model
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    for _, X_goal in panda_goals(plant, tcp, arm_q, q_home, 5, seed=4):
        result = solve_ik_jacobian(plant, tcp, X_goal.translation(), q_initial=q_home)
        assert result.success, result.message
        assert np.all(result.q >= lower) and np.all(result.q <= upper)
        reached = tcp_pose(plant, tcp, result.q).translation()
        assert np.linalg.norm(reached - X_goal.translation()) <= MM


def test_reaches_panda_pose_targets(panda_model):
    plant, tcp, arm_q, q_home = panda_model
    for _, X_goal in panda_goals(plant, tcp, arm_q, q_home, 5, seed=5):
        result = solve_ik_jacobian(plant, tcp, X_goal, q_initial=q_home)
        assert result.success, result.message
        X = tcp_pose(plant, tcp, result.q)
        assert np.linalg.norm(X.translation() - X_goal.translation()) <= MM
        angle, _ = (X_goal.rotation().inverse() @ X.rotation()).to_angle_axis()
        assert angle <= 1e-3
        assert result.orientation_error == pytest.approx(angle, abs=1e-9)


def test_respects_joint_limits():
    plant, tip = planar_arm(limits=(-0.6, 0.6))
    target = planar_tip([0.5, 0.5, 0.5])
    result = solve_ik_jacobian(plant, tip, target, q_initial=np.zeros(3))
    assert result.success, result.message
    assert np.all(np.abs(result.q) <= 0.6)
    # Out of the limits' reach: reported, and the limits hold.
    result = solve_ik_jacobian(plant, tip, planar_tip([1.5, 1.0, 0.5]), q_initial=np.zeros(3))
    assert not result.success
    assert "not reached" in result.message
    assert np.all(np.abs(result.q) <= 0.6 + 1e-15)


def test_unreachable_target_is_reported_and_the_arm_stretched_toward_it(arm):
    plant, tip = arm
    target = np.array([-1.2, 1.6, 0.0])
    result = solve_ik_jacobian(plant, tip, target, q_initial=[0.9, 0.3, -0.2])
    assert not result.success
    direction = target / np.linalg.norm(target)
    np.testing.assert_allclose(planar_tip(result.q), sum(LINKS) * direction, atol=1e-4)
    assert result.position_error == pytest.approx(np.linalg.norm(target) - sum(LINKS),
                                                  abs=1e-4)


def test_null_space_objective_pulls_toward_the_preferred_posture(panda_model):
    plant, tcp, arm_q, q_home = panda_model
    q_goal, X_goal = next(panda_goals(plant, tcp, arm_q, q_home, 1, seed=6))
    q_start = q_home.copy()
    q_start[arm_q[2]] += 0.5            # elbow rotation the task does not need
    plain = solve_ik_jacobian(plant, tcp, X_goal.translation(), q_initial=q_start)
    nominal = solve_ik_jacobian(plant, tcp, X_goal.translation(), q_initial=q_start,
                                secondary_objective=q_home, max_iterations=400)
    for result in (plain, nominal):
        assert result.success, result.message
        reached = tcp_pose(plant, tcp, result.q).translation()
        assert np.linalg.norm(reached - X_goal.translation()) <= MM
    assert np.linalg.norm(nominal.q - q_home) < 0.5 * np.linalg.norm(plain.q - q_home)


def test_callable_secondary_objective_and_planar_redundancy(arm):
    plant, tip = arm
    target = planar_tip([0.3, 0.8, -0.4])
    # Push the first joint toward -0.5 only: z = [-(q0 + 0.5), 0, 0].
    result = solve_ik_jacobian(plant, tip, target, q_initial=np.zeros(3),
                               secondary_objective=lambda q: np.array([-(q[0] + 0.5), 0, 0]),
                               max_iterations=400)
    assert result.success, result.message
    free = solve_ik_jacobian(plant, tip, target, q_initial=np.zeros(3))
    assert abs(result.q[0] + 0.5) < abs(free.q[0] + 0.5)
    assert np.linalg.norm(planar_tip(result.q) - target) <= 1e-4


def test_floating_body_pose_target_keeps_a_unit_quaternion():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.2, 0.3))
    plant.finalize()
    X_goal = RigidTransform(np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
                            [0.3, -0.2, 1.0])
    result = solve_ik_jacobian(plant, body.body_frame(), X_goal, p_EQ=[0.1, 0.0, 0.0])
    assert result.success, result.message
    assert np.linalg.norm(result.q[:4]) == pytest.approx(1.0, abs=1e-12)
    X = tcp_pose(plant, body.body_frame(), result.q)
    np.testing.assert_allclose(X.rotation().matrix(), X_goal.rotation().matrix(), atol=1e-3)
    np.testing.assert_allclose(X @ np.array([0.1, 0.0, 0.0]), X_goal.translation(), atol=1e-4)


def test_bad_arguments_raise(arm):
    plant, tip = arm
    with pytest.raises(ValueError, match=r"solve_ik_jacobian: target has shape \(2,\)"):
        solve_ik_jacobian(plant, tip, [0.1, 0.2])
    with pytest.raises(ValueError, match="solve_ik_jacobian: damping must be finite and >= 0"):
        solve_ik_jacobian(plant, tip, [0.5, 0.5, 0.0], damping=-1.0)
    with pytest.raises(ValueError, match=r"secondary_objective\(q\) returned shape \(2,\)"):
        solve_ik_jacobian(plant, tip, [0.5, 0.5, 0.0], secondary_objective=lambda q: q[:2])
    with pytest.raises(TypeError, match="solve_ik_jacobian: plant must be a MultibodyPlant"):
        solve_ik_jacobian(None, tip, [0.5, 0.5, 0.0])
