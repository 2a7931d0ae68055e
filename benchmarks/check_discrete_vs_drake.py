"""Discrete (SAP) simulations of the reference robots against pydrake's, state by state.

Each model of ``tests/data/models`` that has Drake reference values (Panda and UR5 from
example-robot-data, Drake's acrobot, cart-pole and pendulum) is loaded into a discrete
plant (h = 1 ms, the ``sap`` approximation, no geometry) by merganser and by pydrake,
started from the same state and simulated passively for `--seconds`; the script prints
the largest difference of q and v at the end, and which joints sat on a position limit
(the joint-limit constraints, the coupler of the Panda's fingers and the implicit joint
damping of Drake's SAP step are all in play).

Run: ``.venv/bin/python benchmarks/check_discrete_vs_drake.py [--seconds 1.0]`` (needs
pydrake, from the bench extra).
"""

import argparse
import pathlib
import sys
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from robot_models import MODELS, REFERENCE_MODELS  # noqa: E402


def _start(nq, nv, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-0.3, 0.3, nq), rng.uniform(-1.0, 1.0, nv)


def run_merganser(name, seconds, q0=None, v0=None):
    from merganser.framework import Simulator
    from merganser.multibody import MultibodyPlant, Parser

    path, weld = REFERENCE_MODELS[name]
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation("sap")
    parser = Parser(plant, geometry_roles=())
    parser.package_map().add("example-robot-data", str(MODELS / "example-robot-data"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.add_models(str(MODELS / path))
    if weld:
        plant.weld_frames(plant.world_frame(), plant.get_body_by_name(weld).body_frame())
    plant.finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    if q0 is not None:
        plant.set_positions(context, q0)
        plant.set_velocities(context, v0)
    simulator.advance_to(seconds)
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    return plant.get_positions(context), plant.get_velocities(context), lower, upper


def run_drake(name, seconds, q0=None, v0=None):
    from pydrake.all import DiscreteContactApproximation, MultibodyPlant, Parser, Simulator

    path, weld = REFERENCE_MODELS[name]
    plant = MultibodyPlant(1e-3)
    plant.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)
    parser = Parser(plant)
    parser.package_map().Add("example-robot-data", str(MODELS / "example-robot-data"))
    parser.AddModels(str(MODELS / path))
    if weld:
        plant.WeldFrames(plant.world_frame(), plant.GetBodyByName(weld).body_frame())
    plant.Finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    if q0 is not None:
        plant.SetPositions(context, q0)
        plant.SetVelocities(context, v0)
    simulator.AdvanceTo(seconds)
    return plant.GetPositions(context), plant.GetVelocities(context)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    try:
        import pydrake  # noqa: F401
    except ImportError:
        sys.exit("check_discrete_vs_drake: pydrake is not installed (pip install -e '.[bench]')")
    import logging
    logging.getLogger("drake").setLevel(logging.ERROR)
    print(f"discrete SAP, h = 1 ms, {args.seconds} s passive, merganser vs pydrake")
    print("| model | start | max abs dq | max abs dv | joints on a limit |")
    print("|---|---|---|---|---|")
    for name in ("panda", "ur5", "acrobot", "cart_pole", "pendulum"):
        for start in ("default", "random"):
            q0 = v0 = None
            if start == "random":
                q, v, _, _ = run_merganser(name, 0.0)
                q0, v0 = _start(q.size, v.size, 7)
            q, v, lower, upper = run_merganser(name, args.seconds, q0, v0)
            qd, vd = run_drake(name, args.seconds, q0, v0)
            on_limit = int(np.sum(np.isclose(q, lower, atol=1e-6)
                                  | np.isclose(q, upper, atol=1e-6)))
            print(f"| {name} | {start} | {np.abs(q - qd).max():.2e} | "
                  f"{np.abs(v - vd).max():.2e} | {on_limit} |")


if __name__ == "__main__":
    main()
