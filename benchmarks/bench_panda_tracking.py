"""Computed-torque tracking on the Franka Panda: wall time against Drake.

The Panda (panda_description/urdf/panda.urdf of example-robot-data: 7 revolute arm joints
and 2 prismatic finger joints, joint damping 0.003 and 0.3, the hand welded to link 7, the
right finger mimicking the left) is loaded with the Parser, its base welded to the world and
an actuator added on every joint (the URDF has no transmissions). An
InverseDynamicsController (kp = 100, ki = 0, kd = 20, no reference acceleration) whose model
is a second copy of the robot makes it track a joint trajectory for 5 s: every joint
follows q_home + 0.3 sin(2π 0.5 t + φ_j) (fingers 0.02 + 0.01 sin), a cubic spline through
samples every 50 ms, starting on the trajectory. Two setups:

(a) continuous plant, runge_kutta3 at accuracy 1e-4 (SimulatorConfig defaults otherwise).
    A continuous plant cannot enforce the finger <mimic> (a coupler constraint): merganser
    ignores it with a warning, Drake refuses to simulate, so Drake's model is loaded without
    it. Both then simulate the same robot.
(b) discrete plant with time_step 1e-3 (5000 plant updates), SAP in both (the mimic is a
    coupler constraint). With ki = 0 merganser's controller declares no PID integral state,
    so nothing is integrated between the updates; Drake's controller carries the integral
    regardless and integrates it (its derivative evaluations below).

It prints, per setup, the median and the best wall time of the 5 s simulation over repeated
runs (the first run, which compiles the numba kernels, is not counted), the real-time
factor (5 s / median wall time), the simulator steps and derivative evaluations, the final
tracking error, and the ratio of the median to Drake's figures for the same task quoted
by the issue for this machine kind ((a) 8.4 ms, (b) 162 ms; goals (a) <= 1.5x, (b) <= 1x).
When pydrake is installed (the ``bench`` extra) the same task runs in Drake in the same
process, interleaved with merganser's runs, and the ratio to that measurement is printed too.

The figures are of the steady state: a diagram whose blocks all have a compiled form
evaluates its derivatives in one compiled function once its wiring has been compiled on
this machine (cached across processes); a wiring never compiled before runs block by
block for its first 2 s of evaluation (``MERGANSER_COMPILE_DIAGRAM_AFTER``), longer than
these 5 s runs take, so this script sets that threshold to 0 unless it is set already
(``MERGANSER_COMPILE_DIAGRAM_AFTER=2`` measures a first run's block-by-block path; the
path is printed).

Run: ``.venv/bin/python benchmarks/bench_panda_tracking.py``
"""

import os

os.environ.setdefault("MERGANSER_COMPILE_DIAGRAM_AFTER", "0")   # before merganser's import

import logging
import re
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

from merganser.controllers import InverseDynamicsController
from merganser.framework import (DiagramBuilder, PiecewisePolynomial, Simulator, SimulatorConfig,
                       TrajectorySource, apply_simulator_config)
from merganser.framework.compiled_diagram import compiled_dynamics_status
from merganser.multibody import MultibodyPlant, Parser

URDF = (Path(__file__).resolve().parents[1] / "tests" / "data" / "models" / "example-robot-data"
        / "robots" / "panda_description" / "urdf" / "panda.urdf")
T_FINAL = 5.0
REPEATS = 7
ISSUE_DRAKE_SECONDS = {"a": 8.4e-3, "b": 162e-3}
GOAL_RATIO = {"a": 1.5, "b": 1.0}
#: setup -> the evaluation path of its last run (framework.compiled_diagram)
PATHS = {}
KP, KI, KD = 100.0, 0.0, 20.0
Q_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02, 0.02])


def _samples():
    """(times (101,), joint samples (9, 101)) of the reference trajectory."""
    t = np.linspace(0.0, T_FINAL, 101)
    phase = np.linspace(0.0, np.pi, 9)[:, None]
    amplitude = np.array([0.3] * 7 + [0.01, 0.01])[:, None]
    return t, Q_HOME[:, None] + amplitude * np.sin(2 * np.pi * 0.5 * t[None, :] + phase)


# ---- merganser ----------------------------------------------------------------------------
def make_panda(time_step):
    """The Panda with every joint actuated (the mimic is ignored, with a warning, by a
    continuous plant)."""
    plant = MultibodyPlant(time_step)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", str(URDF.parents[3]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # unsupported <dynamics> attributes, the mimic
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
    return PiecewisePolynomial.cubic_with_continuous_second_derivatives(*_samples())


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
    simulator.initialize()
    start = time.perf_counter()
    simulator.advance_to(T_FINAL)
    elapsed = time.perf_counter() - start
    PATHS[setup] = compiled_dynamics_status(context)
    integrator = simulator.get_integrator()
    q = plant.get_positions(plant.get_my_context_from_root(simulator.get_context()))
    error = float(np.max(np.abs(q - trajectory.value(T_FINAL).ravel())))
    return (elapsed, simulator.get_num_steps_taken(),
            integrator.get_num_derivative_evaluations(), error)


# ---- Drake (pydrake), the same task ----------------------------------------------------------
def drake_run(setup):
    """The same simulation in Drake; returns what `run` returns."""
    from pydrake.all import (DiagramBuilder as DrakeBuilder, DiscreteContactApproximation,
                             InverseDynamicsController as DrakeIDC,
                             MultibodyPlant as DrakePlant, Parser as DrakeParser,
                             PiecewisePolynomial as DrakePP, Simulator as DrakeSimulator,
                             SimulatorConfig as DrakeConfig, ApplySimulatorConfig,
                             TrajectorySource as DrakeSource)

    def panda(time_step):
        plant = DrakePlant(time_step)
        if time_step > 0.0:
            plant.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)
        parser = DrakeParser(plant)
        parser.package_map().Add("example-robot-data", str(URDF.parents[3]))
        text = URDF.read_text()
        if time_step == 0.0:
            text = re.sub(r"<mimic[^>]*/>", "", text)   # see (a) in the module docstring
        [model] = parser.AddModelsFromString(text, "urdf")
        plant.WeldFrames(plant.world_frame(),
                         plant.GetBodyByName("panda_link0", model).body_frame())
        for j in plant.GetJointIndices():
            joint = plant.get_joint(j)
            if joint.num_velocities() == 1:
                plant.AddJointActuator(joint.name(), joint)
        plant.Finalize()
        return plant

    builder = DrakeBuilder()
    plant = builder.AddSystem(panda(0.0 if setup == "a" else 1e-3))
    trajectory = DrakePP.CubicWithContinuousSecondDerivatives(*_samples())
    desired = builder.AddSystem(DrakeSource(trajectory, 1))
    controller = builder.AddSystem(DrakeIDC(panda(0.0), [KP] * 9, [KI] * 9, [KD] * 9, False))
    builder.Connect(plant.get_state_output_port(), controller.get_input_port_estimated_state())
    builder.Connect(desired.get_output_port(), controller.get_input_port_desired_state())
    builder.Connect(controller.get_output_port_control(), plant.get_actuation_input_port())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    x0 = np.concatenate([trajectory.value(0.0).ravel(),
                         trajectory.EvalDerivative(0.0, 1).ravel()])
    plant.SetPositionsAndVelocities(plant.GetMyContextFromRoot(context), x0)
    simulator = DrakeSimulator(diagram, context)
    ApplySimulatorConfig(DrakeConfig(integration_scheme="runge_kutta3", accuracy=1e-4),
                         simulator)
    simulator.Initialize()
    start = time.perf_counter()
    simulator.AdvanceTo(T_FINAL)
    elapsed = time.perf_counter() - start
    q = plant.GetPositions(plant.GetMyContextFromRoot(simulator.get_context()))
    error = float(np.max(np.abs(q - trajectory.value(T_FINAL).ravel())))
    return (elapsed, simulator.get_num_steps_taken(),
            simulator.get_integrator().get_num_derivative_evaluations(), error)


def _drake_available():
    try:
        import pydrake.all  # noqa: F401
    except ImportError:
        return False
    logging.getLogger("drake").setLevel(logging.ERROR)    # its parser's URDF warnings
    return True


def _describe(name, runs):
    wall = statistics.median(r[0] for r in runs)
    best = min(r[0] for r in runs)
    _, steps, nfev, error = runs[0]
    print(f"    {name:10s}: median wall {wall * 1e3:6.1f} ms (best {best * 1e3:6.1f} ms), "
          f"real-time factor {T_FINAL / wall:6.1f}, {steps} steps, {nfev} derivative "
          f"evaluations, final tracking error {error:.2e} rad")
    return wall


def main():
    labels = {"a": "(a) continuous, runge_kutta3 1e-4", "b": "(b) discrete, time_step 1e-3"}
    with_drake = _drake_available()
    if not with_drake:
        print("pydrake is not installed (pip install -e '.[bench]'): Drake is not run here")
    for setup in ("a", "b"):
        run(setup)                                   # compile and warm up
        ours, theirs = [], []
        if with_drake:
            drake_run(setup)
        for _ in range(REPEATS):                     # interleaved: same machine load
            ours.append(run(setup))
            if with_drake:
                theirs.append(drake_run(setup))
        print(labels[setup])
        print(f"    merganser's derivative evaluation: {PATHS[setup]}")
        wall = _describe("merganser", ours)
        if with_drake:
            drake_wall = _describe("Drake", theirs)
            print(f"    ratio to Drake measured in this run: {wall / drake_wall:.2f}")
        print(f"    ratio to the issue's Drake figure "
              f"({ISSUE_DRAKE_SECONDS[setup] * 1e3:.1f} ms): "
              f"{wall / ISSUE_DRAKE_SECONDS[setup]:.2f} (goal <= {GOAL_RATIO[setup]})")


if __name__ == "__main__":
    main()
