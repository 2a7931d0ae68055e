"""Pick and place: the waypoint sequence, joint waypoints of a PUMA 560 (built from its DH
table) reaching every pose to 1 mm with each solve seeded by the previous solution, CCD
for position waypoints, unreachable waypoints reported, and the timed trajectory."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RotationMatrix
from merganser.multibody.dh_chain import add_dh_chain
from merganser.multibody.inverse_kinematics import solve_ik_jacobian
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.planning import (
    CartesianWaypoint,
    make_pick_and_place_waypoints,
    plan_pick_and_place,
    solve_waypoints_ik,
)

PUMA_560 = [[0.0, np.pi / 2, 0.0, 0.0],
            [0.4318, 0.0, 0.0, 0.0],
            [0.0203, -np.pi / 2, 0.15005, 0.0],
            [0.0, np.pi / 2, 0.4318, 0.0],
            [0.0, -np.pi / 2, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0]]
# Elbow up, wrist pointing down: the posture family of the waypoints (a local solver
# cannot flip the wrist across joint 4's limit).
Q_NOMINAL = np.array([0.0, 0.8, 3.0, 0.0, -0.6, 0.0])
PICK, PLACE = np.array([0.55, 0.1, -0.25]), np.array([0.45, -0.35, -0.2])
DOWN = RotationMatrix.make_y_rotation(np.pi)      # tool z axis pointing down


@pytest.fixture(scope="module")
def puma():
    plant = MultibodyPlant(0.0)
    limits = [(-2.8, 2.8), (-0.8, 3.9), (-0.8, 3.9), (-1.9, 2.9), (-1.7, 1.7), (-4.6, 4.6)]
    chain = add_dh_chain(plant, PUMA_560, position_limits=limits,
                         tool_transform=RigidTransform([0.0, 0.0, 0.1]))
    plant.finalize()
    return plant, chain.end_effector_frame


def tool_pose(plant, frame, q):
    ctx = plant.create_default_context()
    plant.set_positions(ctx, q)
    return plant.calc_relative_transform(ctx, plant.world_frame(), frame)


def test_waypoint_sequence():
    waypoints = make_pick_and_place_waypoints(PICK, PLACE, approach_height=0.12)
    assert [w.name for w in waypoints] == ["above_pick", "grasp", "lift", "above_place",
                                          "release", "retreat"]
    up = np.array([0.0, 0.0, 0.12])
    expected = [PICK + up, PICK, PICK + up, PLACE + up, PLACE, PLACE + up]
    for w, p in zip(waypoints, expected):
        np.testing.assert_array_equal(w.target, p)
    assert [w.gripper_closed for w in waypoints] == [False, True, True, True, False, False]
    posed = make_pick_and_place_waypoints(PICK, PLACE, R_WE=DOWN)
    assert isinstance(posed[1].target, RigidTransform)
    np.testing.assert_array_equal(posed[1].target.translation(), PICK)


def test_puma_reaches_every_pose_to_1mm_and_moves_little_between_waypoints(puma):
    plant, tool = puma
    plan = plan_pick_and_place(plant, tool, PICK, PLACE, R_WE=DOWN, q_initial=Q_NOMINAL)
    assert plan.success, [r.message for r in plan.results]
    assert plan.q.shape == (6, 6)
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    waypoints = make_pick_and_place_waypoints(PICK, PLACE, R_WE=DOWN)
    for i, w in enumerate(waypoints):
        q = plan.q[:, i]
        assert np.all(q >= lower) and np.all(q <= upper)
        X = tool_pose(plant, tool, q)
        assert np.linalg.norm(X.translation() - w.target.translation()) <= 1e-3
        assert (X.rotation().inverse() @ DOWN).to_angle_axis()[0] <= 1e-3
    # Seeded solves keep the arm in one posture family: small joint moves between steps.
    assert np.max(np.abs(np.diff(plan.q, axis=1))) < 1.0


def test_each_solve_is_seeded_with_the_previous_solution(puma):
    plant, tool = puma
    seeds = []

    def recording_solver(plant, frame, target, q_initial, context, **options):
        seeds.append(np.array(q_initial))
        return solve_ik_jacobian(plant, frame, target, q_initial=q_initial, context=context,
                                 **options)

    waypoints = make_pick_and_place_waypoints(PICK, PLACE)
    plan = solve_waypoints_ik(plant, tool, waypoints, q_initial=Q_NOMINAL,
                              solver=recording_solver, tolerance=1e-5)
    assert plan.success
    np.testing.assert_array_equal(seeds[0], Q_NOMINAL)
    for i in range(1, len(waypoints)):
        np.testing.assert_array_equal(seeds[i], plan.q[:, i - 1])


def test_ccd_position_waypoints(puma):
    plant, tool = puma
    plan = plan_pick_and_place(plant, tool, PICK, PLACE, q_initial=Q_NOMINAL, solver="ccd",
                               tolerance=5e-4, max_iterations=2000)
    assert plan.success, [r.message for r in plan.results]
    for i, w in enumerate(make_pick_and_place_waypoints(PICK, PLACE)):
        reached = tool_pose(plant, tool, plan.q[:, i]).translation()
        assert np.linalg.norm(reached - w.target) <= 1e-3


def test_unreachable_waypoints_are_named(puma):
    plant, tool = puma
    far = np.array([2.0, 0.0, 0.0])
    plan = plan_pick_and_place(plant, tool, PICK, far, q_initial=Q_NOMINAL)
    assert not plan.success
    assert plan.failed == ["above_place", "release", "retreat"]
    assert plan.results[1].success and not plan.results[4].success


def test_trajectory_rests_at_every_waypoint(puma):
    plant, tool = puma
    plan = solve_waypoints_ik(plant, tool, [CartesianWaypoint("a", PICK),
                                            CartesianWaypoint("b", PLACE)],
                              q_initial=Q_NOMINAL)
    trajectory = plan.make_trajectory(segment_duration=[1.0, 2.0], q_start=Q_NOMINAL)
    np.testing.assert_allclose(trajectory.value(0.0)[:, 0], Q_NOMINAL, atol=1e-12)
    np.testing.assert_allclose(trajectory.value(1.0)[:, 0], plan.q[:, 0], atol=1e-12)
    np.testing.assert_allclose(trajectory.value(3.0)[:, 0], plan.q[:, 1], atol=1e-12)
    for t in (0.0, 1.0, 3.0):
        np.testing.assert_allclose(trajectory.eval_derivative(t, 1)[:, 0], 0.0, atol=1e-12)
    with pytest.raises(ValueError, match="segment_duration must be > 0"):
        plan.make_trajectory(segment_duration=0.0)


def test_bad_solver_raises(puma):
    plant, tool = puma
    with pytest.raises(ValueError, match="solve_waypoints_ik: solver must be one of"):
        solve_waypoints_ik(plant, tool, [PICK], solver="newton")
    with pytest.raises(ValueError, match="solve_waypoints_ik: waypoints is empty"):
        solve_waypoints_ik(plant, tool, [])
