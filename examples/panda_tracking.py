"""The Franka Panda tracking a joint trajectory with an InverseDynamicsController, then
pushing a box across a table under SAP contact.

Shows how to load a robot with meshes through a package map (``example-robot-data`` ->
the copy in the repository's test data), weld its base to the world, actuate every
joint, and close the loop with computed torque: an InverseDynamicsController (kp = 100,
kd = 20) whose model is a second, control-only copy of the robot, fed by a
TrajectorySource with the trajectory's derivative as desired velocity and a second one
with its second derivative as reference acceleration.

The trajectory sweeps every arm joint by 0.3 rad around the home posture,
q_home + 0.3 sin(π t + φ_j), a cubic spline through samples every 50 ms; the robot
starts on it. Checks: the largest joint tracking error stays below 1e-4 rad (the
controller's model matches the plant and the reference acceleration is fed forward, so
the error comes only from integration), and the hand moves by more than 0.1 m.

Push: the same controller on a discrete plant (time step 1 ms, SAP contact, the finger
mimic kept as a coupler constraint) with a 0.5 kg, 10 cm box on the table (μ = 0.3) and
a 3 cm collision sphere between the fingers. Joint waypoints from damped-least-squares
inverse kinematics (hand pointing down) take the sphere behind the box, down to the box's
mid-height and 25 cm forward, then up. Checks: the box slides forward by more than 8 cm,
stays on the table (height within 2 mm), upright (tilt < 0.1 rad) and nearly on its line
(|Δy| < 4 cm); the sphere pressed on it (contact force seen).

``--quick`` runs 1 s of tracking instead of 5 s and stops the push before the final lift;
``--html`` replays the push with its contact forces.

Run: ``python examples/panda_tracking.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys
import warnings

import numpy as np

import _support
from merganser.controllers import InverseDynamicsController
from merganser.framework import DiagramBuilder, PiecewisePolynomial, Simulator, TrajectorySource
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, RotationMatrix, Sphere
from merganser.multibody import (MultibodyPlant, MultibodyPlantConfig, SpatialInertia, add_multibody_plant,
                       add_multibody_plant_scene_graph)
from merganser.multibody.inverse_kinematics import solve_ik_jacobian
from merganser.multibody.parsing import ParseWarning, Parser

URDF = ("example-robot-data", "robots", "panda_description", "urdf", "panda.urdf")
Q_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02, 0.02])
KP, KD = 100.0, 20.0
TIME_STEP = 0.0
TIME_STEP_PUSH = 1e-3


def add_panda(plant, scene_graph=None):
    """Parse the Panda into `plant`, weld panda_link0 to the world, actuate every joint."""
    parser = Parser(plant, scene_graph, geometry_roles=("visual",))
    _support.add_package_paths(parser)
    with warnings.catch_warnings():            # mu_viscous etc.: listed in the import report
        warnings.simplefilter("ignore", ParseWarning)
        [panda] = parser.add_models(_support.model_path(*URDF))
    plant.weld_frames(plant.world_frame(), plant.get_frame_by_name("panda_link0", panda))
    for j in plant.get_joint_indices(panda):
        joint = plant.get_joint(j)
        if joint.num_velocities() == 1:
            plant.add_joint_actuator(joint.name(), joint)
    return parser, panda


def make_control_model():
    """A continuous, geometry-free copy of the Panda for the controller."""
    plant = MultibodyPlant(0.0)
    add_panda(plant)
    plant.finalize()
    return plant


def reference_trajectory(t_final):
    """q_d(t) (9, 1): every joint q_home + A sin(π t + φ_j), spline samples every 50 ms."""
    t = np.linspace(0.0, t_final, int(round(t_final / 0.05)) + 1)
    phase = np.linspace(0.0, np.pi, 9)[:, None]
    amplitude = np.array([0.3] * 7 + [0.01, 0.01])[:, None]
    samples = Q_HOME[:, None] + amplitude * np.sin(np.pi * t[None, :] + phase)
    return PiecewisePolynomial.cubic_with_continuous_second_derivatives(t, samples)


# ---------------------------------------------------------------- push
BOX_SIZE, BOX_MASS, MU = 0.1, 0.5, 0.3
P_BOX = np.array([0.5, 0.0, BOX_SIZE / 2])
SPHERE_RADIUS = 0.03
P_HAND_SPHERE = np.array([0.0, 0.0, 0.1])        # sphere center in panda_hand, between fingers


def push_waypoints(control, quick):
    """(times (N,), joint waypoints (9, N)) of the push, from IK on the control model."""
    hand = control.get_body_by_name("panda_hand").body_frame()
    down = RotationMatrix.make_x_rotation(np.pi)
    x_behind = P_BOX[0] - BOX_SIZE / 2 - SPHERE_RADIUS - 0.05
    targets = [(0.0, [x_behind, 0.0, 0.25]), (0.8, [x_behind, 0.0, P_BOX[2]]),
               (2.3, [x_behind + 0.25, 0.0, P_BOX[2]])]
    if not quick:
        targets.append((3.0, [x_behind + 0.25, 0.0, 0.25]))
    q, columns = Q_HOME.copy(), []
    for _, p in targets:
        result = solve_ik_jacobian(control, hand, RigidTransform(down, p), p_EQ=P_HAND_SPHERE,
                                   q_initial=q, tolerance=1e-5, max_iterations=500)
        assert result.success, f"panda_tracking: no IK solution for the push target {p}"
        q = result.q
        columns.append(q)
    return np.array([t for t, _ in targets]), np.column_stack(columns)


def push_box(quick=False, html=None):
    """Simulate the push; returns a dict of the box trajectory and the checks' values."""
    control = make_control_model()
    times, q_knots = push_waypoints(control, quick)
    trajectory = PiecewisePolynomial.cubic_hermite(times, q_knots, np.zeros_like(q_knots))

    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant(MultibodyPlantConfig(
        time_step=TIME_STEP_PUSH, contact_model="point", discrete_contact_approximation="sap"),
        builder)
    parser, panda = add_panda(plant, scene_graph)
    _support.register_parsed_geometry(plant, parser, roles=("visual",))
    friction = CoulombFriction(MU, MU)
    hand = plant.get_body_by_name("panda_hand", panda)
    plant.register_collision_geometry(hand, RigidTransform(P_HAND_SPHERE),
                                      Sphere(SPHERE_RADIUS), "pusher", friction)
    plant.register_visual_geometry(hand, RigidTransform(P_HAND_SPHERE), Sphere(SPHERE_RADIUS),
                                   "pusher_visual", [0.9, 0.3, 0.1, 1.0])
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(
        BOX_MASS, BOX_SIZE, BOX_SIZE, BOX_SIZE))
    shape = Box(BOX_SIZE, BOX_SIZE, BOX_SIZE)
    plant.register_collision_geometry(box, RigidTransform(), shape, "box", friction)
    plant.register_visual_geometry(box, RigidTransform(), shape, "box_visual",
                                   [0.2, 0.6, 0.9, 1.0])
    world = plant.world_body()
    plant.register_collision_geometry(world, RigidTransform(), HalfSpace(), "table", friction)
    plant.register_visual_geometry(world, RigidTransform([0.4, 0.0, -0.01]),
                                   Box(1.2, 1.0, 0.02), "table_visual", [0.55, 0.4, 0.3, 1.0])
    plant.finalize()

    desired = builder.add_named_system("desired", TrajectorySource(trajectory, 1))
    acceleration = builder.add_named_system(
        "desired_acceleration", TrajectorySource(trajectory.make_derivative(2)))
    controller = builder.add_named_system(
        "controller", InverseDynamicsController(control, KP, 0.0, KD, True))
    builder.connect(plant.get_state_output_port(panda),
                    controller.get_input_port("estimated_state"))
    builder.connect(desired.get_output_port(), controller.get_input_port("desired_state"))
    builder.connect(acceleration.get_output_port(),
                    controller.get_input_port("desired_acceleration"))
    builder.connect(controller.get_output_port("actuation"),
                    plant.get_actuation_input_port(panda))
    replay = _support.Replay(html, builder, scene_graph, plant=plant, contact_forces=True,
                             camera=((0.45, -1.4, 0.5), (0.45, 0.0, 0.1)),
                             newtons_per_meter=200.0)
    diagram = builder.build()

    context = diagram.create_default_context()
    plant_context = plant.get_my_context_from_root(context)
    plant.set_positions_and_velocities(plant_context, panda, np.concatenate(
        [q_knots[:, 0], np.zeros(9)]))
    plant.set_free_body_pose(plant_context, box, RigidTransform(P_BOX))
    samples, forces = [], []

    def monitor(root_context):
        samples.append((root_context.get_time(),
                        plant.eval_body_pose_in_world(plant_context, box).get_as_matrix4()))
        results = plant.get_contact_results_output_port().eval(plant_context)
        f = 0.0
        for i in range(results.num_point_pair_contacts()):
            info = results.point_pair_contact_info(i)
            if {info.bodyA_index, info.bodyB_index} == {hand.index(), box.index()}:
                f += np.linalg.norm(info.contact_force)
        forces.append(f)

    simulator = Simulator(diagram, context)
    simulator.set_monitor(monitor)
    replay.start()
    simulator.advance_to(float(times[-1]) + 0.2)
    replay.finish()

    t = np.array([s[0] for s in samples])
    X = np.array([s[1] for s in samples])
    p_box = X[:, :3, 3].T
    tilt = np.arccos(np.clip(X[:, 2, 2], -1.0, 1.0)).max()
    out = {"time": t, "box": p_box, "force": np.array(forces),
           "displacement": p_box[0, -1] - P_BOX[0], "lateral": abs(p_box[1, -1]),
           "height_error": np.abs(p_box[2] - P_BOX[2]).max(), "tilt": tilt}
    print(f"panda_tracking: push: box moved {100 * out['displacement']:.1f} cm forward, "
          f"{100 * out['lateral']:.2f} cm sideways, height error {1e3 * out['height_error']:.2f} "
          f"mm, tilt {tilt:.3f} rad, largest sphere-box force {out['force'].max():.1f} N")
    assert out["force"].max() > 0.1, "panda_tracking: the sphere never touched the box"
    assert out["displacement"] > 0.08, "panda_tracking: the box was not pushed far enough"
    assert out["lateral"] < 0.04, "panda_tracking: the box left its line"
    assert out["height_error"] < 2e-3, "panda_tracking: the box left the table"
    assert tilt < 0.1, f"panda_tracking: the box tipped ({tilt:.3f} rad)"
    return out


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    t_final = 1.0 if args.quick else 5.0

    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, TIME_STEP)
    parser, panda = add_panda(plant, scene_graph)
    _support.register_parsed_geometry(plant, parser, roles=("visual",))
    plant.finalize()

    trajectory = reference_trajectory(t_final)
    desired = builder.add_named_system("desired", TrajectorySource(trajectory, 1))
    controller = builder.add_named_system(
        "controller", InverseDynamicsController(make_control_model(), KP, 0.0, KD, True))
    acceleration = builder.add_named_system(
        "desired_acceleration", TrajectorySource(trajectory.make_derivative(2)))
    builder.connect(plant.get_state_output_port(panda),
                    controller.get_input_port("estimated_state"))
    builder.connect(desired.get_output_port(), controller.get_input_port("desired_state"))
    builder.connect(acceleration.get_output_port(),
                    controller.get_input_port("desired_acceleration"))
    builder.connect(controller.get_output_port("actuation"),
                    plant.get_actuation_input_port(panda))
    diagram = builder.build()

    context = diagram.create_default_context()
    plant_context = plant.get_my_context_from_root(context)
    x0 = np.concatenate([trajectory.value(0.0).ravel(),
                         trajectory.eval_derivative(0.0, 1).ravel()])
    plant.set_positions_and_velocities(plant_context, panda, x0)
    hand = plant.get_body_by_name("panda_hand", panda)
    p_start = plant.eval_body_pose_in_world(plant_context, hand).translation()
    result = diagram.simulate(t_final, context=context,
                              record={"q": desired.get_output_port(),
                                      "x": plant.get_state_output_port(panda),
                                      "u": controller.get_output_port("actuation")})

    q_desired, q = result.outputs["q"][:9], result.outputs["x"][:9]
    error = np.abs(q - q_desired).max()
    hand_travel = np.linalg.norm(
        plant.eval_body_pose_in_world(plant_context, hand).translation() - p_start)
    print(f"panda_tracking: {t_final:.0f} s, {result.time.size} samples, largest tracking "
          f"error {error:.2e} rad, hand moved {hand_travel:.3f} m, largest torque "
          f"{np.abs(result.outputs['u']).max():.1f} N·m")
    assert error < 1e-4, f"panda_tracking: tracking error {error:.2e} rad >= 1e-4"
    assert hand_travel > 0.1, f"panda_tracking: the hand moved only {hand_travel:.3f} m"

    push = push_box(quick=args.quick, html=args.html)

    if args.plots:
        from merganser.framework.plotting import plot_signals

        fig = plot_signals(result.time, {f"joint {j + 1}": q[j] - q_desired[j]
                                         for j in range(7)},
                           groups={"tracking error (rad)": [f"joint {j + 1}"
                                                            for j in range(7)]},
                           title="Panda: computed-torque tracking error")
        fig2 = plot_signals(push["time"], {"box x": push["box"][0], "box z": push["box"][2],
                                           "contact force": push["force"]},
                            groups={"box position (m)": ["box x", "box z"],
                                    "sphere-box force (N)": ["contact force"]},
                            title="Panda pushing a box (SAP)")
        _support.save_plots(args.plots, "panda_tracking", {"tracking_error": fig,
                                                           "push": fig2})
    return {"tracking_error": error, "hand_travel": hand_travel,
            "box_displacement": push["displacement"], "box_height_error": push["height_error"],
            "box_tilt": push["tilt"], "max_contact_force": push["force"].max()}


if __name__ == "__main__":
    main(sys.argv[1:])
