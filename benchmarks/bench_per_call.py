"""The cost of one Python-level call: merganser's plant API against Pinocchio and pydrake.

For each robot, each query is timed as a user calls it after changing the state (the
state alternates between two random configurations so that no cache answers): forward
kinematics (`eval_body_pose_in_world`), the spatial Jacobian of the last link
(`calc_jacobian_spatial_velocity`; each peer's Jacobian is of the same body), the mass
matrix, forward dynamics, and inverse dynamics
as a Drake user writes it (`calc_force_elements_contribution` + `calc_inverse_dynamics`),
plus the cost of setting the state alone. The "FK, pose" row times the same merganser and
pydrake calls as "FK" against Pinocchio's ``forwardKinematics`` followed by
``updateFramePlacement`` of the body's frame (which returns the pose as an SE3 object, as
`eval_body_pose_in_world` returns a RigidTransform); the "FK" row's Pinocchio call places
the joints only and returns nothing. Pinocchio's Python calls (`forwardKinematics`,
`computeFrameJacobian`, `crba`, `aba`, `rnea`) and pydrake's same API calls are timed in
the same run, interleaved with merganser's, and the printed ratios are per call,
merganser / peer (medians of the repetitions).

Robots: example-robot-data's Panda (base welded, as Pinocchio's fixed-base model) from the
repository's test data; Talos (free base, 32+ dof) with ``--talos PATH/talos_reduced.urdf``
from a checkout of example-robot-data.

Run: ``.venv/bin/python benchmarks/bench_per_call.py [--talos PATH] [--calls N] [--repeats R]
[--cpu-time]``.
Peers come from the ``bench`` extra (``pip install -e '.[bench]'``); a missing peer is skipped.
"""

from __future__ import annotations

import argparse
import datetime
import re
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

from merganser.multibody import JacobianWrtVariable, MultibodyForces, MultibodyPlant, Parser

ROOT = Path(__file__).resolve().parents[1]
PANDA = ROOT / "tests/data/models/example-robot-data/robots/panda_description/urdf/panda.urdf"


#: The clock of the timings: wall time, or with ``--cpu-time`` the process's CPU time
#: (which does not count the time the process waits for a core on a loaded machine).
CLOCK = time.perf_counter


def per_call_us(fn, args_cycle, calls):
    """Mean µs of `fn(*args)` over `calls` calls cycling through `args_cycle`."""
    n = len(args_cycle)
    start = CLOCK()
    for i in range(calls):
        fn(*args_cycle[i % n])
    return (CLOCK() - start) / calls * 1e6


# ---- merganser ---------------------------------------------------------------------------
class Merganser:
    name = "merganser"

    def __init__(self, urdf, weld_root):
        plant = MultibodyPlant(0.0)
        parser = Parser(plant)
        parser.package_map().add("example-robot-data", str(Path(urdf).parents[3]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [model] = parser.add_models(str(urdf))
        bodies = [plant.get_body(i) for i in plant.get_body_indices(model)]
        if weld_root:
            plant.weld_frames(plant.world_frame(), bodies[0].body_frame())
        plant.finalize()
        self.plant, self.ctx = plant, plant.create_default_context()
        self.ee = bodies[-1]
        self.nq, self.nv = plant.num_positions(), plant.num_velocities()
        self.forces = MultibodyForces(plant)

    def random_q(self, rng):
        q = rng.uniform(-1.0, 1.0, self.nq)
        for body in self.plant.get_floating_base_bodies():
            i = self.plant.get_body(body).floating_positions_start()
            q[i:i + 4] /= np.linalg.norm(q[i:i + 4])
        return q

    def calls(self):
        p, ctx, ee, forces = self.plant, self.ctx, self.ee, self.forces
        frame, world, zero = ee.body_frame(), p.world_frame(), np.zeros(3)
        vdot = np.zeros(self.nv)

        def set_q(q, v):
            p.set_positions(ctx, q)

        def fk(q, v):
            p.set_positions(ctx, q)
            p.eval_body_pose_in_world(ctx, ee)

        def jac(q, v):
            p.set_positions(ctx, q)
            p.calc_jacobian_spatial_velocity(ctx, JacobianWrtVariable.kV, frame, zero, world, world)

        def mass(q, v):
            p.set_positions(ctx, q)
            p.calc_mass_matrix(ctx)

        def aba(q, v):
            p.set_positions(ctx, q)
            p.set_velocities(ctx, v)
            p.calc_forward_dynamics(ctx)

        def rnea(q, v):
            p.set_positions(ctx, q)
            p.set_velocities(ctx, v)
            p.calc_force_elements_contribution(ctx, forces)
            p.calc_inverse_dynamics(ctx, vdot, forces)

        return {"set q": set_q, "FK": fk, "FK, pose": fk, "Jacobian": jac, "M": mass,
                "ABA": aba, "RNEA": rnea}


# ---- Pinocchio ---------------------------------------------------------------------------
class Pinocchio:
    name = "Pinocchio"

    def __init__(self, urdf, free_base, body_name):
        import pinocchio as pin
        self.pin = pin
        self.model = (pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer()) if free_base
                      else pin.buildModelFromUrdf(str(urdf)))
        self.data = self.model.createData()
        self.nq, self.nv = self.model.nq, self.model.nv
        self.fid = self.model.getFrameId(body_name)    # the Jacobian of the same body

    def random_q(self, rng):
        return self.pin.randomConfiguration(self.model, -np.ones(self.model.nq), np.ones(self.model.nq))

    def calls(self):
        pin, m, d, fid = self.pin, self.model, self.data, self.fid
        zero = np.zeros(m.nv)
        return {
            "set q": None,
            "FK": lambda q, v: pin.forwardKinematics(m, d, q),
            # the body's pose as an object, as eval_body_pose_in_world returns it
            "FK, pose": lambda q, v: (pin.forwardKinematics(m, d, q),
                                      pin.updateFramePlacement(m, d, fid)),
            "Jacobian": lambda q, v: pin.computeFrameJacobian(m, d, q, fid, pin.LOCAL_WORLD_ALIGNED),
            "M": lambda q, v: pin.crba(m, d, q),
            "ABA": lambda q, v: pin.aba(m, d, q, v, zero),
            "RNEA": lambda q, v: pin.rnea(m, d, q, v, zero),
        }


# ---- pydrake -----------------------------------------------------------------------------
class Drake:
    name = "pydrake"

    def __init__(self, urdf, weld_root):
        from pydrake.multibody.parsing import Parser as DParser
        from pydrake.multibody.tree import MultibodyForces as DForces
        from pydrake.multibody.plant import MultibodyPlant as DPlant
        from pydrake.multibody.tree import JacobianWrtVariable as DJ
        self.DJ = DJ
        plant = DPlant(0.0)
        parser = DParser(plant)
        parser.package_map().Add("example-robot-data", str(Path(urdf).parents[3]))
        # Drake refuses to evaluate a continuous plant with constraints: drop URDF mimics.
        text = re.sub(r"<mimic[^>]*/>", "", Path(urdf).read_text())
        [model] = parser.AddModelsFromString(text, "urdf")
        bodies = [plant.get_body(i) for i in plant.GetBodyIndices(model)]
        if weld_root:
            plant.WeldFrames(plant.world_frame(), bodies[0].body_frame())
        plant.Finalize()
        self.plant, self.ctx, self.ee = plant, plant.CreateDefaultContext(), bodies[-1]
        self.forces = DForces(plant)
        self.nq, self.nv = plant.num_positions(), plant.num_velocities()

    def random_q(self, rng):
        q = rng.uniform(-1.0, 1.0, self.nq)
        for index in self.plant.GetFloatingBaseBodies():
            i = self.plant.get_body(index).floating_positions_start()
            q[i:i + 4] /= np.linalg.norm(q[i:i + 4])
        return q

    def calls(self):
        p, ctx, ee, forces, DJ = self.plant, self.ctx, self.ee, self.forces, self.DJ
        frame, world, zero, vdot = ee.body_frame(), p.world_frame(), np.zeros(3), np.zeros(self.nv)
        accel = p.get_generalized_acceleration_output_port()     # pydrake binds no CalcForwardDynamics

        def rnea(q, v):
            p.SetPositions(ctx, q)
            p.SetVelocities(ctx, v)
            p.CalcForceElementsContribution(ctx, forces)
            p.CalcInverseDynamics(ctx, vdot, forces)

        return {
            "set q": lambda q, v: p.SetPositions(ctx, q),
            "FK": lambda q, v: (p.SetPositions(ctx, q), p.EvalBodyPoseInWorld(ctx, ee)),
            "FK, pose": lambda q, v: (p.SetPositions(ctx, q), p.EvalBodyPoseInWorld(ctx, ee)),
            "Jacobian": lambda q, v: (p.SetPositions(ctx, q), p.CalcJacobianSpatialVelocity(
                ctx, DJ.kV, frame, zero, world, world)),
            "M": lambda q, v: (p.SetPositions(ctx, q), p.CalcMassMatrix(ctx)),
            "ABA": lambda q, v: (p.SetPositions(ctx, q), p.SetVelocities(ctx, v),
                                 accel.Eval(ctx)),
            "RNEA": rnea,
        }


def peers(urdf, free_base, body_name):
    out = []
    for make in (lambda: Pinocchio(urdf, free_base, body_name),
                 lambda: Drake(urdf, not free_base)):
        try:
            out.append(make())
        except ImportError as exc:
            print(f"  (peer skipped: {exc})")
    return out


def bench_robot(label, urdf, free_base, calls, repeats):
    rng = np.random.default_rng(0)
    mine = Merganser(urdf, weld_root=not free_base)
    libs = [mine] + peers(urdf, free_base, mine.ee.name())
    tables = []
    for lib in libs:
        states = [(lib.random_q(rng), rng.uniform(-1.0, 1.0, lib.nv)) for _ in range(2)]
        tables.append((lib, lib.calls(), states))
    names = ["set q", "FK", "FK, pose", "Jacobian", "M", "ABA", "RNEA"]
    times = {(lib.name, n): [] for lib, _, _ in tables for n in names}
    for _ in range(repeats):                       # interleaved: each repeat runs every library
        for lib, fns, states in tables:
            for n in names:
                if fns.get(n) is not None:
                    fns[n](*states[0])             # warm (compilation, caches)
                    times[(lib.name, n)].append(per_call_us(fns[n], states, calls))
    m = tables[0][0]
    print(f"\n{label}: nq {m.nq}, nv {m.nv}; Jacobian of body {m.ee.name()!r}; "
          f"µs per call, median of {repeats} x {calls} calls")
    header = f"  {'call':<10}{'merganser':>11}" + "".join(
        f"{lib.name:>12}{'ratio':>8}" for lib, _, _ in tables[1:])
    print(header)
    for n in names:
        mine = statistics.median(times[("merganser", n)])
        row = f"  {n:<10}{mine:>11.2f}"
        for lib, _, _ in tables[1:]:
            vals = times[(lib.name, n)]
            if vals:
                theirs = statistics.median(vals)
                row += f"{theirs:>12.2f}{mine / theirs:>8.2f}"
            else:
                row += f"{'-':>12}{'-':>8}"
        print(row)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--talos", type=Path, help="path of example-robot-data's talos_reduced.urdf")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--cpu-time", action="store_true",
                    help="time with the process's CPU time instead of wall time (a loaded, "
                         "shared machine)")
    args = ap.parse_args()
    global CLOCK
    if args.cpu_time:
        CLOCK = time.process_time
    clock = "CPU time" if args.cpu_time else "wall time"
    print(f"bench_per_call {datetime.date.today()}: per-call cost after a state change "
          f"({clock})")
    bench_robot("Panda (base welded)", PANDA, False, args.calls, args.repeats)
    if args.talos:
        bench_robot("Talos (free base)", args.talos, True, args.calls, args.repeats)


if __name__ == "__main__":
    main()
