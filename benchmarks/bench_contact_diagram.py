"""Benchmark: a discrete contact plant inside a diagram, compiled vs block by block vs Drake.

Diagrams (time step 1 ms, point contact, the plant's state logged every 10 ms by a
VectorLogSink):

- box: a 1 kg, 0.1 m box dropped from 0.3 m onto a half space, 1 s;
- arm: a two-link arm (actuated, damped revolute joints) under a PidController whose
  torque goes through a ZeroOrderHold (5 ms), its sphere tip pressed into the ground, 1 s.

For each diagram and solver (sap, tamsi) it prints the median wall time per plant step of
``Simulator.advance_to`` over the repeats, interleaved: merganser with the compiled
simulation loop (the plant's compiled contact step, `multibody.plant.compiled_contact_form`),
merganser block by block (``unfuse_compiled_dynamics``) and, when pydrake is installed,
Drake on the same diagram; ratios are against Drake (and compiled against block by block).
Compilation happens before the timed runs.

Run: ``.venv/bin/python benchmarks/bench_contact_diagram.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import os
import re
import pathlib
import statistics
import sys
import time
import types

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from merganser.framework import Simulator, log_vector_output  # noqa: E402
from merganser.framework.compiled_diagram import (compile_diagram_dynamics,  # noqa: E402
                                                  compiled_dynamics_status,
                                                  unfuse_compiled_dynamics)
from merganser.multibody import RevoluteJoint, add_multibody_plant  # noqa: E402

DURATION = 1.0
LINKS = [(1.0, 0.2), (0.5, 0.1)]        # (mass, joint damping)


def _m(obj, name):
    """``obj.name``, or its snake_case spelling (merganser's API for Drake's name)."""
    if hasattr(obj, name):
        return getattr(obj, name)
    return getattr(obj, re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower())


def _scene(api, solver):
    """(builder, plant) of a 1 ms point-contact plant with the ground, for merganser or
    pydrake (`api` is a namespace of the classes)."""
    builder = api.DiagramBuilder()
    config = api.MultibodyPlantConfig(time_step=1e-3, contact_model="point",
                                      discrete_contact_approximation=solver)
    plant = api.AddMultibodyPlant(config, builder)[0]
    _m(plant, "RegisterCollisionGeometry")(plant.world_body(), api.RigidTransform(), api.HalfSpace(),
                                    "ground", api.CoulombFriction(0.5, 0.5))
    return builder, plant


def _build(api, name, solver):
    """The diagram, the plant and the initial state setter of diagram `name`."""
    builder, plant = _scene(api, solver)
    friction = api.CoulombFriction(0.5, 0.5)
    if name == "box":
        box = _m(plant, "AddRigidBody")("box", _m(api.SpatialInertia, "SolidBoxWithMass")(
            1.0, 0.1, 0.1, 0.1))
        _m(plant, "RegisterCollisionGeometry")(box, api.RigidTransform(), api.Box(0.1, 0.1, 0.1),
                                        "box", friction)
        _m(plant, "Finalize")()

        def initial(context):
            _m(plant, "SetFreeBodyPose")(context, box, api.RigidTransform([0.0, 0.0, 0.3]))
    else:
        parent = _m(plant, "AddFrame")(api.FixedOffsetFrame("pivot", plant.world_frame(),
                                                     api.RigidTransform([0, 0, 0.5])))
        for i, (mass, damping) in enumerate(LINKS):
            link = _m(plant, "AddRigidBody")(f"link{i}", _m(api.SpatialInertia, "SolidBoxWithMass")(
                mass, 0.05, 0.05, 0.3))
            joint = _m(plant, "AddJoint")(api.RevoluteJoint(f"joint{i}", parent, link.body_frame(),
                                                     [0, 1, 0], damping))
            _m(plant, "AddJointActuator")(f"motor{i}", joint)
            parent = _m(plant, "AddFrame")(api.FixedOffsetFrame(f"end{i}", link.body_frame(),
                                                         api.RigidTransform([0, 0, -0.3])))
        _m(plant, "RegisterCollisionGeometry")(link, api.RigidTransform([0, 0, -0.3]),
                                        api.Sphere(0.03), "tip", friction)
        _m(plant, "Finalize")()
        pid = _m(builder, "AddSystem")(api.PidController(np.full(2, 20.0), np.full(2, 1.0),
                                                  np.full(2, 2.0)))
        desired = _m(builder, "AddSystem")(api.ConstantVectorSource([0.2, 0.1, 0.0, 0.0]))
        zoh = _m(builder, "AddSystem")(api.ZeroOrderHold(0.005, 2))
        _m(builder, "Connect")(plant.get_state_output_port(), pid.get_input_port_estimated_state())
        _m(builder, "Connect")(desired.get_output_port(), pid.get_input_port_desired_state())
        _m(builder, "Connect")(pid.get_output_port_control(), zoh.get_input_port())
        _m(builder, "Connect")(zoh.get_output_port(), plant.get_actuation_input_port())

        def initial(context):
            _m(plant, "SetPositions")(context, [0.8, 0.6])
    logger = api.LogVectorOutput(plant.get_state_output_port(), builder, 0.01)
    return _m(builder, "Build")(), plant, logger, initial


#: the classes `_build` takes from its namespace (merganser's and pydrake's names agree)
_CLASSES = ("DiagramBuilder", "MultibodyPlantConfig", "RigidTransform", "HalfSpace", "Box",
            "Sphere", "CoulombFriction", "SpatialInertia", "FixedOffsetFrame", "PidController",
            "ConstantVectorSource", "ZeroOrderHold")


def _merganser_api():
    import merganser.controllers as mc
    import merganser.framework as mf
    import merganser.geometry as mg
    import merganser.multibody as mm
    found = {name: next(getattr(m, name) for m in (mf, mg, mm, mc) if hasattr(m, name))
             for name in _CLASSES}
    return types.SimpleNamespace(
        **found, AddMultibodyPlant=add_multibody_plant,
        RevoluteJoint=lambda name, parent, child, axis, damping: RevoluteJoint(
            name, parent, child, axis, damping=damping),
        LogVectorOutput=lambda port, builder, period: log_vector_output(
            port, builder, publish_period=period))


def _drake_api():
    try:
        from pydrake import all as drake
    except ImportError:
        return None
    return types.SimpleNamespace(
        **{name: getattr(drake, name) for name in _CLASSES},
        AddMultibodyPlant=drake.AddMultibodyPlant, LogVectorOutput=drake.LogVectorOutput,
        RevoluteJoint=lambda name, parent, child, axis, damping: drake.RevoluteJoint_[float](
            name, parent, child, axis, damping))


def _merganser_run(name, solver, compiled):
    """A function running the diagram once (new context), returning (seconds, z or q)."""
    diagram, plant, logger, initial = _build(_merganser_api(), name, solver)

    def run():
        ctx = diagram.create_default_context()
        if compiled:
            assert compile_diagram_dynamics(diagram, ctx), compiled_dynamics_status(ctx)
        else:
            unfuse_compiled_dynamics(ctx)
        initial(plant.get_my_context_from_root(ctx))
        simulator = Simulator(diagram, ctx)
        start = time.perf_counter()
        simulator.advance_to(DURATION)
        seconds = time.perf_counter() - start
        status = compiled_dynamics_status(ctx)
        assert not compiled or status.python_events == (), status.python_events
        return seconds, ctx.get_discrete_state_vector().copy()

    return run


def _drake_run(api, name, solver):
    diagram, plant, logger, initial = _build(api, name, solver)
    from pydrake.all import Simulator as DrakeSimulator

    def run():
        simulator = DrakeSimulator(diagram)
        ctx = simulator.get_mutable_context()
        initial(plant.GetMyMutableContextFromRoot(ctx))
        simulator.Initialize()
        start = time.perf_counter()
        simulator.AdvanceTo(DURATION)
        seconds = time.perf_counter() - start
        return seconds, plant.GetPositionsAndVelocities(plant.GetMyContextFromRoot(ctx))

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--drake-arm", action="store_true",
                        help="also run pydrake on the arm rows (left out by default: on this "
                             "2-core machine pydrake's arm did not finish 1 s within 300 s)")
    args = parser.parse_args(argv)
    drake = _drake_api()
    steps = DURATION / 1e-3
    print(f"load average {os.getloadavg()[0]:.2f}; us per plant step, median of "
          f"{args.repeats} interleaved runs of {DURATION} s")
    for name in ("box", "arm"):
        for solver in ("sap", "tamsi"):
            runs = {"compiled": _merganser_run(name, solver, True),
                    "block_by_block": _merganser_run(name, solver, False)}
            if drake is not None and (name == "box" or args.drake_arm):
                runs["drake"] = _drake_run(drake, name, solver)
            finals = {key: run()[1] for key, run in runs.items()}      # warm-up, compile
            assert np.array_equal(finals["compiled"], finals["block_by_block"])
            times = {key: [] for key in runs}
            for _ in range(args.repeats):
                for key, run in runs.items():
                    times[key].append(run()[0])
            us = {key: 1e6 * statistics.median(t) / steps for key, t in times.items()}
            row = (f"{name:4s} {solver:6s} compiled {us['compiled']:8.1f}  block_by_block "
                   f"{us['block_by_block']:8.1f}  (x{us['block_by_block'] / us['compiled']:.1f})")
            if "drake" in us:
                row += (f"  drake {us['drake']:8.1f}  compiled/drake "
                        f"{us['compiled'] / us['drake']:.2f}  block/drake "
                        f"{us['block_by_block'] / us['drake']:.2f}")
            elif drake is not None:
                row += "  drake not run (--drake-arm)"
            print(row, flush=True)


if __name__ == "__main__":
    main()
