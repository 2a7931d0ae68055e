"""Optimization-based InverseKinematics: position, orientation and gaze constraints and
position, orientation and quadratic costs reach their targets on the Panda, the planar arm
and a free body; joint limits hold; constraint gradients equal finite differences;
minimum-distance constraints need SceneGraph queries."""

import numpy as np
import pytest
from ik_models import LINKS, PANDA_HOME, panda, planar_arm, planar_tip

from merganser.geometry import RigidTransform, RollPitchYaw, RotationMatrix
from merganser.multibody.inverse_kinematics import (
    GazeTargetConstraint,
    InverseKinematics,
    OrientationConstraint,
    OrientationCost,
    PositionConstraint,
    PositionCost,
)
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant

MM = 1e-3


@pytest.fixture(scope="module")
def panda_model():
    plant, tcp, arm_q = panda()
    q_home = np.zeros(plant.num_positions())
    q_home[arm_q] = PANDA_HOME
    ctx = plant.create_default_context()
    rng = np.random.default_rng(7)
    q_goal = q_home.copy()
    q_goal[arm_q] = PANDA_HOME + rng.uniform(-0.5, 0.5, 7)
    plant.set_positions(ctx, q_goal)
    X_goal = plant.calc_relative_transform(ctx, plant.world_frame(), tcp)
    return plant, tcp, q_home, X_goal


def pose(plant, frame, q):
    ctx = plant.create_default_context()
    plant.set_positions(ctx, q)
    return plant.calc_relative_transform(ctx, plant.world_frame(), frame)


def angle_between(R_a, R_b):
    return (R_a.inverse() @ R_b).to_angle_axis()[0]


@pytest.mark.parametrize("method", ["SLSQP", "trust-constr"])
def test_panda_pose_by_position_and_exact_orientation_constraints(panda_model, method):
    plant, tcp, q_home, X_goal = panda_model
    W = plant.world_frame()
    ik = InverseKinematics(plant)
    p = X_goal.translation()
    ik.add_position_constraint(tcp, np.zeros(3), W, p - 1e-4, p + 1e-4)
    ik.add_orientation_constraint(W, X_goal.rotation(), tcp, RotationMatrix(), 0.0)
    result = ik.solve(q_home, method=method)
    assert result.is_success(), result.message
    X = pose(plant, tcp, result.get_solution())
    assert np.linalg.norm(X.translation() - p) <= MM
    assert angle_between(X.rotation(), X_goal.rotation()) <= 1e-5
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    assert np.all(result.q >= lower - 1e-12) and np.all(result.q <= upper + 1e-12)
    # solve() leaves the solution in the IK context, as Drake's does.
    np.testing.assert_allclose(plant.get_positions(ik.context()), result.q)


def test_orientation_bound_is_an_angle(panda_model):
    plant, tcp, q_home, X_goal = panda_model
    W = plant.world_frame()
    R_target = X_goal.rotation() @ RotationMatrix.make_x_rotation(0.4)
    ik = InverseKinematics(plant)
    ik.add_orientation_constraint(W, R_target, tcp, RotationMatrix(), 0.1)
    result = ik.solve(q_home)
    assert result.success, result.message
    angle = angle_between(pose(plant, tcp, result.q).rotation(), R_target)
    # Nearest feasible posture from a start outside the cone: on its boundary.
    assert angle == pytest.approx(0.1, abs=1e-5)


def test_gaze_target_constraint_points_the_hand_at_a_target(panda_model):
    plant, tcp, q_home, _ = panda_model
    W = plant.world_frame()
    p_WT = np.array([0.6, -0.3, 0.0])
    ik = InverseKinematics(plant)
    cone = 0.05
    # The tcp's z axis (from the tcp origin) must see the point p_WT within the cone.
    ik.add_gaze_target_constraint(tcp, np.zeros(3), [0, 0, 1], W, p_WT, cone)
    result = ik.solve(q_home)
    assert result.success, result.message
    X = pose(plant, tcp, result.q)
    p_TcpT = X.inverse() @ p_WT
    angle = np.arccos(p_TcpT[2] / np.linalg.norm(p_TcpT))
    # Tolerance 1e-6 on n·p - cos(α)|p| is about 1e-6 / (|p| sin α) < 1e-4 rad in angle.
    assert angle <= cone + 1e-4
    X_home = pose(plant, tcp, q_home)
    p_home = X_home.inverse() @ p_WT
    assert np.arccos(p_home[2] / np.linalg.norm(p_home)) > 0.5      # it had to move


def test_position_cost_reaches_a_reachable_target_and_stretches_toward_an_unreachable_one():
    plant, tip = planar_arm()
    W = plant.world_frame()
    for target, reachable in ((planar_tip([0.4, 0.6, -0.9]), True),
                              (np.array([1.2, -1.6, 0.0]), False)):
        ik = InverseKinematics(plant)
        ik.add_position_cost(W, target, tip, np.zeros(3), np.eye(3))
        result = ik.solve([0.1, 0.1, 0.1])
        assert result.success       # no constraints: always feasible
        reached = planar_tip(result.q)
        if reachable:
            assert np.linalg.norm(reached - target) <= 1e-4
            assert result.cost == pytest.approx(0.0, abs=1e-8)
        else:
            expected = sum(LINKS) * target / np.linalg.norm(target)
            np.testing.assert_allclose(reached, expected, atol=1e-4)
            assert result.cost == pytest.approx((np.linalg.norm(target) - sum(LINKS))**2,
                                                abs=1e-6)


def test_orientation_cost_and_quadratic_error_cost_on_the_planar_arm():
    plant, tip = planar_arm()
    W = plant.world_frame()
    ik = InverseKinematics(plant)
    # Tip heading 1.0 rad, and among those postures the one nearest q_d in W's metric.
    ik.add_orientation_cost(W, RotationMatrix.make_z_rotation(1.0), tip, RotationMatrix(),
                            100.0)
    q_d = np.array([0.2, 0.1, 0.4])
    Wq = np.diag([1.0, 2.0, 4.0])
    ik.add_quadratic_error_cost(Wq, q_d)
    result = ik.solve(np.zeros(3))
    assert result.success
    # Stationarity: 100 sin(Σq - 1) = 2 Wq_i (q_d - q)_i for every joint i (closed form of
    # the gradient of 100 (1 - cos(Σq - 1)) + (q - q_d)ᵀ Wq (q - q_d)).
    s = 100.0 * np.sin(result.q.sum() - 1.0)
    np.testing.assert_allclose(2.0 * Wq @ (q_d - result.q), np.full(3, s), atol=1e-5)


def test_joint_limits_bound_the_solution_only_when_asked():
    plant, tip = planar_arm(limits=(-0.6, 0.6))
    W = plant.world_frame()
    target = planar_tip([1.2, 0.9, -0.5])         # needs joints beyond 0.6 rad
    results = {}
    for with_limits in (True, False):
        ik = InverseKinematics(plant, with_joint_limits=with_limits)
        ik.add_position_constraint(tip, np.zeros(3), W, target, target)
        results[with_limits] = ik.solve(np.zeros(3))
    assert results[False].success
    assert np.linalg.norm(planar_tip(results[False].q) - target) <= 1e-5
    assert not results[True].success
    assert np.all(np.abs(results[True].q) <= 0.6 + 1e-12)
    assert results[True].constraint_violation > 1e-3


def test_free_body_pose_with_unit_quaternion():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.2, 0.3))
    plant.finalize()
    W, B = plant.world_frame(), body.body_frame()
    R_goal = RollPitchYaw(0.3, -0.8, 2.5).to_rotation_matrix()
    p_goal = np.array([0.5, 0.2, 1.0])
    ik = InverseKinematics(plant)
    ik.add_position_constraint(B, [0.1, 0.0, 0.0], W, p_goal, p_goal)
    ik.add_orientation_constraint(W, R_goal, B, RotationMatrix(), 0.0)
    result = ik.solve()
    assert result.success, result.message
    assert np.linalg.norm(result.q[:4]) == pytest.approx(1.0, abs=1e-12)
    X = pose(plant, B, result.q)
    assert angle_between(X.rotation(), R_goal) <= 1e-6
    np.testing.assert_allclose(X @ np.array([0.1, 0.0, 0.0]), p_goal, atol=1e-6)


def constraint_cases(plant, frame):
    W = plant.world_frame()
    R = RollPitchYaw(0.4, 0.3, -0.2).to_rotation_matrix()
    R2 = RollPitchYaw(-0.1, 0.5, 0.7).to_rotation_matrix()
    return [
        PositionConstraint(plant, W, -np.ones(3), np.ones(3), frame, [0.1, -0.2, 0.05]),
        OrientationConstraint(plant, W, R, frame, R2, 0.0),
        OrientationConstraint(plant, W, R, frame, R2, 0.3),
        GazeTargetConstraint(plant, frame, [0.0, 0.1, 0.0], [0.2, 0.0, 1.0], W,
                             [0.5, 0.4, 0.3], 0.2),
        PositionCost(plant, W, [0.3, 0.2, 0.1], frame, [0.0, 0.1, 0.0],
                     np.diag([1.0, 2.0, 3.0])),
        OrientationCost(plant, W, R, frame, R2, 2.0),
    ]


@pytest.mark.parametrize("model", ["panda", "free_body"])
def test_constraint_and_cost_gradients_equal_central_differences(model, panda_model):
    if model == "panda":
        plant, frame, q, _ = panda_model
        q = q + 0.1
    else:
        plant = MultibodyPlant(0.0)
        frame = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1)) \
            .body_frame()
        plant.finalize()
        quat = np.array([0.8, 0.2, -0.4, 0.4])
        q = np.concatenate([quat / np.linalg.norm(quat), [0.1, 0.2, 0.3]])
    ctx = plant.create_default_context()

    def value(c, x):
        plant.set_positions(ctx, x)
        out = c.evaluate(plant, ctx, x)[0]
        return np.atleast_1d(out)

    for c in constraint_cases(plant, frame):
        plant.set_positions(ctx, q)
        _, grad = c.evaluate(plant, ctx, q)
        grad = np.atleast_2d(grad)
        h = 1e-6
        # Directions tangent to the unit-quaternion sphere (the gradient w.r.t. q̇).
        for i in range(len(q)):
            dq = np.zeros(len(q))
            dq[i] = h
            if model == "free_body" and i < 4:
                dq[:4] -= (dq[:4] @ q[:4]) * q[:4]
            numeric = (value(c, q + dq) - value(c, q - dq)) / 2.0
            np.testing.assert_allclose(grad @ dq, numeric, atol=1e-9,
                                       err_msg=f"{c.description}, coordinate {i}")


def test_minimum_distance_needs_scene_graph_queries():
    plant, _ = planar_arm()
    ik = InverseKinematics(plant)
    if hasattr(plant, "get_body_from_frame_id"):
        error, match = RuntimeError, "the plant's geometry_query input is not connected"
    else:
        error, match = NotImplementedError, "needs MultibodyPlant.get_body_from_frame_id"
    with pytest.raises(error, match="add_minimum_distance_lower_bound_constraint: " + match):
        ik.add_minimum_distance_lower_bound_constraint(0.01)


@pytest.mark.skipif(not hasattr(MultibodyPlant, "register_collision_geometry"),
                    reason="MultibodyPlant has no SceneGraph registration in this build")
def test_minimum_distance_keeps_the_tip_off_an_obstacle():
    from merganser.framework import DiagramBuilder
    from merganser.geometry import ProximityProperties, Sphere
    from merganser.multibody.dh_chain import add_dh_chain
    from merganser.multibody.plant import add_multibody_plant_scene_graph

    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    if scene_graph is None:
        pytest.skip("add_multibody_plant_scene_graph gives no SceneGraph in this build")
    chain = add_dh_chain(plant, [[a, 0.0, 0.0, 0.0] for a in LINKS])
    center = np.array([0.6, 0.3, 0.0])
    plant.register_collision_geometry(chain.bodies[-1], RigidTransform(), Sphere(0.05), "tip",
                                      ProximityProperties())
    plant.register_collision_geometry(plant.world_body(), RigidTransform(center), Sphere(0.1),
                                      "obstacle", ProximityProperties())
    plant.finalize()
    diagram = builder.build()
    plant_context = plant.get_my_context_from_root(diagram.create_default_context())
    ik = InverseKinematics(plant, plant_context)
    # Pull the tip into the obstacle; keep the spheres 0.02 m apart.
    ik.add_position_cost(plant.world_frame(), center, chain.end_effector_frame, np.zeros(3),
                         np.eye(3))
    ik.add_minimum_distance_lower_bound_constraint(0.02, 0.05)
    result = ik.solve([0.3, 0.5, 0.5])
    assert result.success, result.message
    # Every point at 0.05 + 0.1 + 0.02 m from the center is an optimum.
    assert np.linalg.norm(planar_tip(result.q) - center) == pytest.approx(0.17, abs=1e-4)


def test_bad_arguments_raise_with_names():
    plant, tip = planar_arm()
    W = plant.world_frame()
    ik = InverseKinematics(plant)
    with pytest.raises(ValueError, match=r"add_position_constraint: p_AQ_lower .* exceeds"):
        ik.add_position_constraint(tip, np.zeros(3), W, np.ones(3), np.zeros(3))
    with pytest.raises(ValueError, match=r"add_orientation_constraint: theta_bound must be"):
        ik.add_orientation_constraint(W, RotationMatrix(), tip, RotationMatrix(), -0.1)
    with pytest.raises(ValueError, match=r"add_gaze_target_constraint: n_A must be a nonzero"):
        ik.add_gaze_target_constraint(tip, np.zeros(3), np.zeros(3), W, np.ones(3), 0.1)
    with pytest.raises(ValueError, match=r"add_position_cost: C must be symmetric"):
        ik.add_position_cost(W, np.zeros(3), tip, np.zeros(3), [[1, 2, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ValueError, match=r"add_quadratic_error_cost: q_desired has shape"):
        ik.add_quadratic_error_cost(np.eye(3), np.zeros(2))
    with pytest.raises(ValueError, match=r"InverseKinematics.solve: method must be one of"):
        ik.solve(method="ipopt")
    unfinalized = MultibodyPlant(0.0)
    with pytest.raises(RuntimeError, match="InverseKinematics: plant must be finalized"):
        InverseKinematics(unfinalized)


def test_pose_target_accepts_rigid_transform_rotation():
    plant, tip = planar_arm()
    ik = InverseKinematics(plant)
    with pytest.raises(TypeError, match="R_AbarA must be a RotationMatrix, got a RigidTransform"):
        ik.add_orientation_constraint(plant.world_frame(), RigidTransform(), tip,
                                      RotationMatrix(), 0.0)
