"""Computed-torque tracking on the Franka Panda: wall time against Drake's figures.

The Panda (panda_description/urdf/panda.urdf of example-robot-data: 7 revolute arm joints
and 2 prismatic finger joints, joint damping 0.003 and 0.3, the hand welded to link 7) is
built by hand from the URDF's numbers (or loaded with the Parser when it exists), with an
actuator on every joint (the URDF has no transmissions). An InverseDynamicsController
(kp = 100, ki = 0, kd = 20, no reference acceleration) whose model is a second copy of the
robot makes it track a joint trajectory for 5 s: every joint follows
q_home + 0.3 sin(2π 0.5 t + φ_j) (fingers 0.02 + 0.01 sin), a cubic spline through samples
every 50 ms, starting on the trajectory. Two setups:

(a) continuous plant, runge_kutta3 at accuracy 1e-4 (SimulatorConfig defaults otherwise);
(b) discrete plant with time_step 1e-3 (5000 plant updates). With ki = 0 the controller
    declares no PID integral state, so nothing is integrated between the updates (Drake's
    controller carries the integral regardless and integrates it).

It prints, per setup, the median and the best wall time of the 5 s simulation over repeated
runs (the first run, which compiles the numba kernels, is not counted), the real-time
factor (5 s / median wall time), the simulator steps and derivative evaluations, the final
tracking error, and the ratio of the median to Drake's figures for the same task on this
machine kind: (a) 8.4 ms, (b) 162 ms (the issue's goals: (a) <= 1.5x, (b) <= 1x). pydrake
is not a dependency of this project, so Drake is not run here.

Run: ``.venv/bin/python benchmarks/bench_panda_tracking.py``
"""

import statistics
import time
from pathlib import Path

import numpy as np

from controllers import InverseDynamicsController
from framework import (DiagramBuilder, PiecewisePolynomial, Simulator, SimulatorConfig,
                       TrajectorySource, apply_simulator_config)
from geometry import RigidTransform, RollPitchYaw
from multibody import (FixedOffsetFrame, MultibodyPlant, PrismaticJoint, RevoluteJoint,
                       SpatialInertia)

URDF = (Path(__file__).resolve().parents[1] / "tests" / "data" / "models" / "example-robot-data"
        / "robots" / "panda_description" / "urdf" / "panda.urdf")
T_FINAL = 5.0
REPEATS = 7
DRAKE_SECONDS = {"a": 8.4e-3, "b": 162e-3}
GOAL_RATIO = {"a": 1.5, "b": 1.0}
KP, KI, KD = 100.0, 0.0, 20.0
HALF_PI = np.pi / 2

# Arm links of panda.urdf: (parent-to-joint origin xyz, rpy, mass, center of mass,
# central inertia [ixx, iyy, izz, ixy, ixz, iyz]); every joint rotates about its z axis.
ARM = (
    ((0, 0, 0.333), (0, 0, 0), 4.970684, (0.003875, 0.002081, -0.04762),
     (0.70337, 0.70661, 0.009117, -0.000139, 0.006772, 0.019169)),
    ((0, 0, 0), (-HALF_PI, 0, 0), 0.646926, (-0.003141, -0.02872, 0.003495),
     (0.007962, 0.02811, 0.025995, -0.003925, 0.010254, 0.000704)),
    ((0, -0.316, 0), (HALF_PI, 0, 0), 3.228604, (2.7518e-02, 3.9252e-02, -6.6502e-02),
     (0.037242, 0.036155, 0.01083, -0.004761, -0.011396, -0.012805)),
    ((0.0825, 0, 0), (HALF_PI, 0, 0), 3.587895, (-5.317e-02, 1.04419e-01, 2.7454e-02),
     (0.025853, 0.019552, 0.028323, 0.007796, -0.001332, 0.008641)),
    ((-0.0825, 0.384, 0), (-HALF_PI, 0, 0), 1.225946, (-1.1953e-02, 4.1065e-02, -3.8437e-02),
     (0.035549, 0.029474, 0.008627, -0.002117, -0.004037, 0.000229)),
    ((0, 0, 0), (HALF_PI, 0, 0), 1.666555, (6.0149e-02, -1.4117e-02, -1.0517e-02),
     (0.001964, 0.004354, 0.005433, 0.000109, -0.001158, 0.000341)),
    ((0.088, 0, 0), (HALF_PI, 0, 0), 0.735522, (1.0517e-02, -4.252e-03, 6.1597e-02),
     (0.012516, 0.010027, 0.004815, -0.000428, -0.001196, -0.000741)),
)
Q_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02, 0.02])


def _inertia(mass, com, moments):
    ixx, iyy, izz, ixy, ixz, iyz = moments
    I_SScm = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    return SpatialInertia.make_from_central_inertia(mass, list(com), I_SScm)


def _add_panda_by_hand(plant):
    link0 = plant.add_rigid_body("panda_link0", _inertia(
        0.629769, (-0.041018, -0.00014, 0.049974),
        (0.00315, 0.00388, 0.004285, 8.2904e-07, 0.00015, 8.2299e-06)))
    plant.weld_frames(plant.world_frame(), link0.body_frame())
    parent = link0
    for k, (xyz, rpy, mass, com, moments) in enumerate(ARM, start=1):
        link = plant.add_rigid_body(f"panda_link{k}", _inertia(mass, com, moments))
        frame = plant.add_frame(FixedOffsetFrame(
            f"panda_joint{k}_parent", parent.body_frame(),
            RigidTransform(RollPitchYaw(*rpy), list(xyz))))
        plant.add_joint(RevoluteJoint(f"panda_joint{k}", frame, link.body_frame(), [0, 0, 1],
                                      damping=0.003))
        parent = link
    hand = plant.add_rigid_body("panda_hand", _inertia(0.73, (-0.01, 0, 0.03),
                                                       (0.001, 0.0025, 0.0017, 0, 0, 0)))
    plant.weld_frames(parent.body_frame(), hand.body_frame(),
                      RigidTransform(RollPitchYaw(0, 0, -np.pi / 4), [0, 0, 0.107]))
    for k, axis in ((1, [0, 1, 0]), (2, [0, -1, 0])):
        finger = plant.add_rigid_body(
            ("panda_leftfinger", "panda_rightfinger")[k - 1],
            _inertia(0.015, (0, 0, 0), (2.375e-06, 2.375e-06, 7.5e-07, 0, 0, 0)))
        frame = plant.add_frame(FixedOffsetFrame(f"panda_finger_joint{k}_parent",
                                                 hand.body_frame(),
                                                 RigidTransform([0, 0, 0.0584])))
        plant.add_joint(PrismaticJoint(f"panda_finger_joint{k}", frame, finger.body_frame(),
                                       axis, damping=0.3))


def make_panda(time_step):
    """The Panda, every joint actuated; via the Parser when available."""
    plant = MultibodyPlant(time_step)
    try:
        from multibody import Parser
    except ImportError:
        _add_panda_by_hand(plant)
    else:
        parser = Parser(plant)
        parser.package_map().add("example-robot-data", str(URDF.parents[3]))
        [panda] = parser.add_models(str(URDF))
        # The URDF has no joint to the world: weld its base as Drake users do.
        plant.weld_frames(plant.world_frame(),
                          plant.get_body_by_name("panda_link0", panda).body_frame())
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        if joint.num_velocities() == 1:
            plant.add_joint_actuator(joint.name(), joint)
    plant.finalize()
    return plant


def reference_trajectory():
    """q_d(t) (9, 1) on [0, 5] s: a cubic spline through samples every 50 ms."""
    t = np.linspace(0.0, T_FINAL, 101)
    phase = np.linspace(0.0, np.pi, 9)[:, None]
    amplitude = np.array([0.3] * 7 + [0.01, 0.01])[:, None]
    samples = Q_HOME[:, None] + amplitude * np.sin(2 * np.pi * 0.5 * t[None, :] + phase)
    return PiecewisePolynomial.cubic_with_continuous_second_derivatives(t, samples)


def build(time_step):
    builder = DiagramBuilder()
    plant = builder.add_named_system("panda", make_panda(time_step))
    trajectory = reference_trajectory()
    desired = builder.add_named_system("desired", TrajectorySource(trajectory, 1))
    controller = builder.add_named_system(
        "controller", InverseDynamicsController(make_panda(0.0), KP, KI, KD, False))
    builder.connect(plant.get_state_output_port(), controller.get_input_port("estimated_state"))
    builder.connect(desired.get_output_port(), controller.get_input_port("desired_state"))
    builder.connect(controller.get_output_port("actuation"), plant.get_actuation_input_port())
    return builder.build(), plant, trajectory


def run(setup):
    """One 5 s simulation; returns (seconds, steps, derivative evaluations, max error)."""
    diagram, plant, trajectory = build(0.0 if setup == "a" else 1e-3)
    context = diagram.create_default_context()
    x0 = np.concatenate([trajectory.value(0.0).ravel(),
                         trajectory.eval_derivative(0.0, 1).ravel()])
    plant.set_positions_and_velocities(plant.get_my_context_from_root(context), x0)
    simulator = Simulator(diagram, context)
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-4),
                           simulator)
    start = time.perf_counter()
    simulator.advance_to(T_FINAL)
    elapsed = time.perf_counter() - start
    integrator = simulator.get_integrator()
    q = plant.get_positions(plant.get_my_context_from_root(simulator.get_context()))
    error = float(np.max(np.abs(q - trajectory.value(T_FINAL).ravel())))
    return (elapsed, simulator.get_num_steps_taken(),
            integrator.get_num_derivative_evaluations(), error)


def main():
    labels = {"a": "(a) continuous, runge_kutta3 1e-4",
              "b": "(b) discrete, time_step 1e-3     "}
    for setup in ("a", "b"):
        run(setup)                                   # compile and warm up
        runs = [run(setup) for _ in range(REPEATS)]
        wall = statistics.median(r[0] for r in runs)
        best = min(r[0] for r in runs)
        _, steps, nfev, error = runs[0]
        ratio = wall / DRAKE_SECONDS[setup]
        print(f"{labels[setup]}: median wall {wall * 1e3:6.1f} ms (best {best * 1e3:6.1f} ms), "
              f"real-time factor "
              f"{T_FINAL / wall:7.1f}, {steps} steps, {nfev} derivative evaluations, final "
              f"tracking error {error:.2e} rad")
        print(f"    Drake on this machine kind: {DRAKE_SECONDS[setup] * 1e3:.1f} ms; ratio "
              f"{ratio:.2f} (goal <= {GOAL_RATIO[setup]})")


if __name__ == "__main__":
    main()
