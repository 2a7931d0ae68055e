"""Local check (run by hand): PD-controlled actuators of a discrete plant vs pydrake.

The UR5 of tests/data (6 revolute joints, effort limits 150 / 28 N m) with the same
gains on every actuator, loaded by both; from random states, desired states and
feed-forward actuations (large enough that some actuators saturate), both simulate
0.2 s at h = 1 ms (Drake's default discrete approximation, SAP family) and the final
states are compared. Prints one line per trial and the largest difference.

    python benchmarks/check_pd_actuators_vs_drake.py [--trials 5] [--kp 300] [--kd 30]
"""

from __future__ import annotations

import argparse
import pathlib
import warnings

import numpy as np

UR5 = (pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "models"
       / "example-robot-data" / "robots" / "ur_description" / "urdf" / "ur5_robot.urdf")
H, T = 1e-3, 0.2


def _drake(kp, kd, x0, x_d, u_ff):
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant
    from pydrake.multibody.tree import PdControllerGains
    from pydrake.systems.analysis import Simulator

    plant = MultibodyPlant(H)
    Parser(plant).AddModels(str(UR5))
    for index in plant.GetJointActuatorIndices():
        plant.get_mutable_joint_actuator(index).set_controller_gains(
            PdControllerGains(p=kp, d=kd))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x0)
    plant.get_desired_state_input_port(plant.GetModelInstanceByName("ur5")).FixValue(
        context, x_d)
    plant.get_actuation_input_port().FixValue(context, u_ff)
    Simulator(plant, context).AdvanceTo(T)
    return plant.GetPositionsAndVelocities(context)


def _ours(kp, kd, x0, x_d, u_ff):
    from merganser.framework import Simulator
    from merganser.multibody import MultibodyPlant, Parser, PdControllerGains
    from merganser.multibody.parsing import ParseWarning

    plant = MultibodyPlant(H)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        Parser(plant).add_models(str(UR5))
    for index in plant.get_joint_actuator_indices():
        plant.get_joint_actuator(index).set_controller_gains(PdControllerGains(p=kp, d=kd))
    plant.finalize()
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x0)
    plant.get_desired_state_input_port(plant.get_model_instance_by_name("ur5")).fix_value(
        context, x_d)
    plant.get_actuation_input_port().fix_value(context, u_ff)
    u0 = plant.get_net_actuation_output_port().eval(context).copy()
    Simulator(plant, context).advance_to(T)
    return plant.get_positions_and_velocities(context), u0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--kp", type=float, default=300.0)
    ap.add_argument("--kd", type=float, default=30.0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    worst = 0.0
    for trial in range(args.trials):
        x0, x_d = rng.uniform(-1, 1, 12), rng.uniform(-1, 1, 12)
        u_ff = rng.uniform(-5, 5, 6)
        xd = _drake(args.kp, args.kd, x0, x_d, u_ff)
        xm, u0 = _ours(args.kp, args.kd, x0, x_d, u_ff)
        limits = np.array([150.0, 150.0, 150.0, 28.0, 28.0, 28.0])
        saturated = int(np.sum(np.isclose(np.abs(u0), limits)))
        diff = float(np.abs(xd - xm).max())
        worst = max(worst, diff)
        print(f"trial {trial}: max |x_drake - x_merganser| after {T} s = {diff:.2e} "
              f"(|x| <= {np.abs(xd).max():.2f}; {saturated} of 6 actuators saturated at "
              f"the first step)")
    print(f"largest difference over {args.trials} trials: {worst:.2e}")


if __name__ == "__main__":
    main()
