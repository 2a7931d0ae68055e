"""Pick and place with an arm built from a Denavit-Hartenberg table and CCD inverse
kinematics.

Shows `add_dh_chain` (the PUMA 560's standard DH table, with joint limits and a 10 cm
tool), `solve_waypoints_ik` with cyclic coordinate descent (`solve_ik_ccd`, joint limits
enforced, each solve seeded with the previous solution) through the waypoint sequence
home → above → descend → grasp → lift → over the obstacle → above target → descend → release →
lift, a stop-at-every-waypoint cubic joint trajectory (1 s per move),
and a kinematic animation in which the cube rides with the tool between grasp and
release. A wall stands between the pick and the place positions; the intermediate
waypoint over it makes the tool clear it.

Checks: every waypoint is reached within 1 mm with the joints inside their limits; the
tool point, sampled every 10 ms along the whole trajectory, stays at least 3 cm from the
wall (the cube's half size plus a margin); the cube ends at the place position; a target
2 m away (out of reach) is reported as unreachable with the distance left.
``--quick`` samples the trajectory every 50 ms instead.

Run: ``python examples/pick_and_place.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys

import numpy as np

import _support
from merganser.framework import DiagramBuilder
from merganser.geometry import Box, Cylinder, RigidTransform, RotationMatrix, Sphere
from merganser.multibody import SpatialInertia, add_multibody_plant_scene_graph
from merganser.multibody.dh_chain import add_dh_chain, dh_transform
from merganser.multibody.inverse_kinematics import solve_ik_ccd
from merganser.multibody.planning import CartesianWaypoint, solve_waypoints_ik

PUMA_560 = np.array([[0.0, np.pi / 2, 0.0, 0.0],
                     [0.4318, 0.0, 0.0, 0.0],
                     [0.0203, -np.pi / 2, 0.15005, 0.0],
                     [0.0, np.pi / 2, 0.4318, 0.0],
                     [0.0, -np.pi / 2, 0.0, 0.0],
                     [0.0, 0.0, 0.0, 0.0]])
LIMITS = [(-2.8, 2.8), (-0.8, 3.9), (-0.8, 3.9), (-1.9, 2.9), (-1.7, 1.7), (-4.6, 4.6)]
Q_START = np.array([0.0, 0.8, 3.0, 0.0, -0.6, 0.0])
TOOL = 0.1
PICK = np.array([0.55, 0.25, -0.25])
PLACE = np.array([0.5, -0.25, -0.25])
WALL_CENTER, WALL_SIZE = np.array([0.55, 0.0, -0.2]), np.array([0.3, 0.04, 0.2])
CUBE = 0.04
CLEARANCE = CUBE / 2 + 0.01
UNREACHABLE = np.array([2.0, 0.0, 0.0])


def waypoints():
    """The Cartesian waypoint sequence (positions of the tool point, world frame)."""
    up = np.array([0.0, 0.0, 0.2])
    over_wall = np.array([0.5, 0.0, WALL_CENTER[2] + WALL_SIZE[2] / 2 + 0.15])
    return [CartesianWaypoint("home", np.array([0.45, 0.1, 0.1]), False),
            CartesianWaypoint("above_pick", PICK + up, False),
            CartesianWaypoint("descend", PICK, False),
            CartesianWaypoint("grasp", PICK, True),
            CartesianWaypoint("lift", PICK + up, True),
            CartesianWaypoint("over_wall", over_wall, True),
            CartesianWaypoint("above_place", PLACE + up, True),
            CartesianWaypoint("descend_place", PLACE, True),
            CartesianWaypoint("release", PLACE, False),
            CartesianWaypoint("retreat", PLACE + up, False)]


def _cylinder_between(p, r):
    """(X_BG, length) of a cylinder whose axis runs from p to r (both in B)."""
    axis = np.asarray(r, float) - np.asarray(p, float)
    length = np.linalg.norm(axis)
    z = axis / length
    x = np.cross([0.0, 1.0, 0.0], z) if abs(z[1]) < 0.9 else np.cross([1.0, 0.0, 0.0], z)
    x /= np.linalg.norm(x)
    R = np.column_stack([x, np.cross(z, x), z])
    return RigidTransform(RotationMatrix(R), (np.asarray(p) + r) / 2), length


def make_scene(builder):
    """Arm (model instance "arm"), the cube (a free body) and the anchored wall and table."""
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    arm = plant.add_model_instance("arm")
    chain = add_dh_chain(plant, PUMA_560, position_limits=LIMITS, model_instance=arm,
                         tool_transform=RigidTransform([0.0, 0.0, TOOL]))
    grey, orange = [0.6, 0.6, 0.65, 1.0], [0.95, 0.55, 0.1, 1.0]
    for i, (body, row) in enumerate(zip(chain.bodies, PUMA_560)):
        X_i_prev = np.linalg.inv(dh_transform(*row))      # DH frame i-1 seen from frame i
        points = [X_i_prev[:3, 3], np.array([-row[0], 0.0, 0.0]), np.zeros(3)]
        for k, (p, r) in enumerate(zip(points[:-1], points[1:])):
            if np.linalg.norm(r - p) > 1e-6:
                X, length = _cylinder_between(p, r)
                plant.register_visual_geometry(body, X, Cylinder(0.03, length),
                                               f"link{i + 1}_segment{k}", grey)
        plant.register_visual_geometry(body, RigidTransform(), Sphere(0.045), f"joint{i + 1}",
                                       orange)
    plant.register_visual_geometry(chain.bodies[-1], RigidTransform([0.0, 0.0, TOOL / 2]),
                                   Cylinder(0.015, TOOL), "tool", [0.2, 0.2, 0.2, 1.0])
    cube = plant.add_rigid_body("cube", SpatialInertia.solid_box_with_mass(0.1, CUBE, CUBE,
                                                                           CUBE))
    plant.register_visual_geometry(cube, RigidTransform(), Box(CUBE, CUBE, CUBE), "cube",
                                   [0.1, 0.7, 0.2, 1.0])
    world = plant.world_body()
    plant.register_visual_geometry(world, RigidTransform(WALL_CENTER), Box(*WALL_SIZE), "wall",
                                   [0.7, 0.2, 0.2, 1.0])
    table_top = PICK[2] - CUBE / 2
    plant.register_visual_geometry(world, RigidTransform([0.5, 0.0, table_top - 0.01]),
                                   Box(0.6, 0.9, 0.02), "table", [0.45, 0.35, 0.25, 1.0])
    plant.finalize()
    return plant, scene_graph, arm, chain, cube


def tool_positions(plant, context, arm, frame, q_samples):
    """Tool-point positions (3, N) for arm configurations q_samples (6, N)."""
    out = np.empty((3, q_samples.shape[1]))
    for k in range(q_samples.shape[1]):
        plant.set_positions(context, arm, q_samples[:, k])
        out[:, k] = plant.calc_relative_transform(context, plant.world_frame(),
                                                  frame).translation()
    return out


def distance_to_box(p, center, size):
    """Distance (m) from points p (3, N) to an axis-aligned box; 0 inside."""
    d = np.maximum(np.abs(p - center[:, None]) - size[:, None] / 2, 0.0)
    return np.linalg.norm(d, axis=0)


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    builder = DiagramBuilder()
    plant, scene_graph, arm, chain, cube = make_scene(builder)
    replay = _support.Replay(args.html, builder, scene_graph,
                             camera=((0.7, -2.2, 0.7), (0.45, 0.0, -0.1)))
    diagram = builder.build()
    context = diagram.create_default_context()
    plant_context = plant.get_my_context_from_root(context)
    frame = chain.end_effector_frame

    ik_context = plant.create_default_context()
    plant.set_positions(ik_context, arm, Q_START)
    plan = solve_waypoints_ik(plant, frame, waypoints(), context=ik_context, solver="ccd",
                              tolerance=1e-3, max_iterations=2000)
    errors = [r.position_error for r in plan.results]
    print("pick_and_place: waypoint errors (mm): " + ", ".join(
        f"{n} {1e3 * e:.2f}" for n, e in zip(plan.names, errors)))
    assert plan.success, f"pick_and_place: waypoints not reached: {plan.failed}"
    arm_q = np.array([plant.get_positions(_with_q(plant, ik_context, plan.q[:, k]), arm)
                      for k in range(plan.q.shape[1])]).T
    lower, upper = np.array(LIMITS).T
    assert np.all((arm_q >= lower[:, None] - 1e-9) & (arm_q <= upper[:, None] + 1e-9)), \
        "pick_and_place: a waypoint violates the joint limits"

    trajectory = _arm_trajectory(arm_q)
    dt = 0.05 if args.quick else 0.01
    times = np.arange(trajectory.start_time(), trajectory.end_time() + 1e-9, dt)
    q_samples = np.column_stack([trajectory.value(t).ravel() for t in times])
    p_tool = tool_positions(plant, plant.create_default_context(), arm, frame, q_samples)
    clearance = distance_to_box(p_tool, WALL_CENTER, WALL_SIZE).min()
    print(f"pick_and_place: {len(times)} samples over {times[-1]:.1f} s, smallest "
          f"tool-wall distance {100 * clearance:.1f} cm")
    assert clearance > CLEARANCE, f"pick_and_place: the tool comes {clearance:.3f} m from the wall"

    far = solve_ik_ccd(plant, frame, UNREACHABLE, context=ik_context, max_iterations=200)
    print(f"pick_and_place: target {UNREACHABLE} unreachable: success={far.success}, "
          f"{far.position_error:.3f} m left ({far.message})")
    assert not far.success and far.position_error > 0.9, \
        "pick_and_place: the out-of-reach target was not reported"

    # Kinematic replay: the cube rides with the tool while the gripper is closed.
    grasp_t, release_t = _knot_time(plan, "grasp"), _knot_time(plan, "release")
    frames_t = np.arange(0.0, times[-1] + 1e-9, 1.0 / 30.0)
    p_cube = PICK.copy()
    replay.start()
    for t in frames_t:
        context.set_time(t)
        plant.set_positions(plant_context, arm, trajectory.value(t).ravel())
        if grasp_t <= t < release_t:
            p_cube = plant.calc_relative_transform(plant_context, plant.world_frame(),
                                                   frame).translation()
        plant.set_free_body_pose(plant_context, cube, RigidTransform(p_cube))
        replay.publish(context)
    replay.finish()
    assert np.linalg.norm(p_cube - PLACE) < 2e-3, f"pick_and_place: the cube ended at {p_cube}"

    if args.plots:
        from merganser.framework.plotting import plot_signals

        fig = plot_signals(times, {**{f"q{j + 1}": q_samples[j] for j in range(6)},
                                   "tool x": p_tool[0], "tool y": p_tool[1],
                                   "tool z": p_tool[2]},
                           groups={"joint angles (rad)": [f"q{j + 1}" for j in range(6)],
                                   "tool point (m)": ["tool x", "tool y", "tool z"]},
                           title="pick and place: joint trajectory through the CCD waypoints")
        _support.save_plots(args.plots, "pick_and_place", {"trajectory": fig})
    return {"waypoint_errors": errors, "wall_clearance": clearance,
            "unreachable_error": far.position_error}


def _with_q(plant, context, q):
    plant.set_positions(context, q)
    return context


def _arm_trajectory(arm_q):
    """Stop-at-every-waypoint cubic (6, 1) through the waypoints, 1 s per move."""
    from merganser.framework import PiecewisePolynomial

    q = arm_q
    breaks = np.arange(q.shape[1], dtype=float)
    return PiecewisePolynomial.cubic_hermite(breaks, q, np.zeros_like(q))


def _knot_time(plan, name):
    return float(plan.names.index(name))


if __name__ == "__main__":
    main(sys.argv[1:])
