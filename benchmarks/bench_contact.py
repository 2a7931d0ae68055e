"""Benchmark of the discrete contact solvers: µs per simulator step, against Drake.

Scenes (time step 1 ms, point contact):

- box drop: a 1 kg, 0.1 m box dropped from 0.3 m onto a half space, 2 s, modelled as a
  Box geometry (four corner contacts at rest) and as 8 corner spheres (r = 1 mm);
- ten spheres: ten 0.1 kg, 5 cm spheres dropped into a 0.25 m square bin, 2 s.

For each scene and solver (tamsi, sap, similar, lagged, lcp) it prints the median over
repeats of the wall time per step of ``Simulator.advance_to``, the outcome (the box's
resting height and normal force, the pile's largest penetration) and the ratio to
Drake's per-step cost quoted by the issue for this machine kind (box: SAP 74 µs, TAMSI
18 µs; ten spheres: SAP 146 µs, TAMSI 106 µs). When pydrake is installed (the ``bench``
extra), the same scenes also run in Drake in the same process (every solver but lcp, which
Drake does not have) and the ratio to that measurement is printed with Drake's outcome.
A contact-free plant (the same box in free fall) gives the framework's own per-step cost in
the same run, as a baseline for the noise of this shared machine.

With ``--observed`` a monitor watches every step of merganser's simulations, so that the
Simulator applies each update itself (the per-step Python path: cache entries, the
SceneGraph query, one compiled solve per step) instead of handing the plant's updates to
its compiled loop (`multibody.batched.plant_loop`); both give the same states.

Run: ``.venv/bin/python benchmarks/bench_contact.py [--quick] [--observed] [--solvers sap tamsi]``.
"""

from __future__ import annotations

import argparse
import logging
import pathlib
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from merganser.framework import DiagramBuilder, EventStatus, Simulator  # noqa: E402
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, Sphere  # noqa: E402
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant  # noqa: E402

SOLVERS = ["tamsi", "sap", "similar", "lagged", "lcp"]
ISSUE_DRAKE_US = {("box", "sap"): 74.0, ("box", "tamsi"): 18.0,
                  ("spheres", "sap"): 146.0, ("spheres", "tamsi"): 106.0}
# the 8 corner spheres' centers in the box frame, 2% inside the corners
CORNERS = [0.05 * (1 - 0.02) * np.array([1 if i & 1 else -1, 1 if i & 2 else -1,
                                          1 if i & 4 else -1]) for i in range(8)]
BIN_WALLS = [([0.175, 0, 0.25], (0.1, 0.45, 0.5)), ([-0.175, 0, 0.25], (0.1, 0.45, 0.5)),
             ([0, 0.175, 0.25], (0.45, 0.1, 0.5)), ([0, -0.175, 0.25], (0.45, 0.1, 0.5))]
FRICTION = CoulombFriction(0.5, 0.5)


def _plant(solver, builder):
    config = MultibodyPlantConfig(time_step=1e-3, contact_model="point",
                                  discrete_contact_approximation=solver)
    return add_multibody_plant(config, builder)[0]


def box_drop(solver, corner_spheres=False, with_ground=True):
    """(simulator, context, report) of the box drop scene."""
    builder = DiagramBuilder()
    plant = _plant(solver, builder)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
    if corner_spheres:
        for i, corner in enumerate(CORNERS):
            plant.register_collision_geometry(box, RigidTransform(corner), Sphere(1e-3),
                                              f"corner{i}", FRICTION)
    else:
        plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                          FRICTION)
    if with_ground:
        plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                          "ground", FRICTION)
    plant.finalize()
    simulator = Simulator(builder.build())
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(context, box, RigidTransform([0.0, 0.0, 0.3]))

    def report():
        z = plant.eval_body_pose_in_world(context, box).translation()[2]
        results = plant.get_contact_results_output_port().eval(context)
        fz = sum((1.0 if results.point_pair_contact_info(i).bodyB_index == box.index()
                  else -1.0) * results.point_pair_contact_info(i).contact_force[2]
                 for i in range(results.num_point_pair_contacts()))
        return f"z = {z:.5f} m, f_n = {fz:.3f} N"
    return simulator, report


def ten_spheres(solver):
    """(simulator, report) of the ten-sphere pile."""
    builder = DiagramBuilder()
    plant = _plant(solver, builder)
    balls = []
    for i in range(10):
        ball = plant.add_rigid_body(f"ball{i}", SpatialInertia.solid_sphere_with_mass(0.1, 0.05))
        plant.register_collision_geometry(ball, RigidTransform(), Sphere(0.05), "sphere",
                                          FRICTION)
        balls.append(ball)
    world = plant.world_body()
    plant.register_collision_geometry(world, RigidTransform(), HalfSpace(), "ground", FRICTION)
    for k, (p, size) in enumerate(BIN_WALLS):
        plant.register_collision_geometry(world, RigidTransform(p), Box(*size), f"wall{k}",
                                          FRICTION)
    plant.finalize()
    simulator = Simulator(builder.build())
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    rng = np.random.default_rng(0)
    for i, ball in enumerate(balls):
        plant.set_free_body_pose(context, ball, RigidTransform(
            [rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0.1 + 0.12 * i]))

    def report():
        results = plant.get_contact_results_output_port().eval(context)
        depth = max([results.point_pair_contact_info(i).point_pair.depth
                     for i in range(results.num_point_pair_contacts())] + [0.0])
        return f"max depth = {1e3 * depth:.3f} mm, {results.num_point_pair_contacts()} contacts"
    return simulator, report


# ---- Drake (pydrake), the same scenes -------------------------------------------------------
class _DrakeRun:
    """A pydrake Simulator behind the ``advance_to`` used by `time_per_step`."""

    def __init__(self, simulator):
        self.simulator = simulator

    def advance_to(self, t):
        self.simulator.AdvanceTo(t)


def _drake_plant(solver, builder):
    from pydrake.all import AddMultibodyPlant, MultibodyPlantConfig as DrakeConfig
    config = DrakeConfig(time_step=1e-3, contact_model="point",
                         discrete_contact_approximation=solver)
    return AddMultibodyPlant(config, builder)[0]


def drake_box_drop(solver, corner_spheres=False, with_ground=True):
    """`box_drop` in Drake."""
    from pydrake.all import (Box as DBox, CoulombFriction as DFriction, DiagramBuilder as DBuilder,
                             HalfSpace as DHalfSpace, RigidTransform as DTransform,
                             Simulator as DSimulator, SpatialInertia as DInertia,
                             Sphere as DSphere)
    friction = DFriction(0.5, 0.5)
    builder = DBuilder()
    plant = _drake_plant(solver, builder)
    box = plant.AddRigidBody("box", DInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    if corner_spheres:
        for i, corner in enumerate(CORNERS):
            plant.RegisterCollisionGeometry(box, DTransform(corner), DSphere(1e-3),
                                            f"corner{i}", friction)
    else:
        plant.RegisterCollisionGeometry(box, DTransform(), DBox(0.1, 0.1, 0.1), "box", friction)
    if with_ground:
        plant.RegisterCollisionGeometry(plant.world_body(), DTransform(), DHalfSpace(),
                                        "ground", friction)
    plant.Finalize()
    simulator = DSimulator(builder.Build())
    context = plant.GetMyContextFromRoot(simulator.get_mutable_context())
    plant.SetFreeBodyPose(context, box, DTransform([0.0, 0.0, 0.3]))

    def report():
        z = plant.EvalBodyPoseInWorld(context, box).translation()[2]
        results = plant.get_contact_results_output_port().Eval(context)
        fz = sum((1.0 if results.point_pair_contact_info(i).bodyB_index() == box.index()
                  else -1.0) * results.point_pair_contact_info(i).contact_force()[2]
                 for i in range(results.num_point_pair_contacts()))
        return f"z = {z:.5f} m, f_n = {fz:.3f} N"
    return _DrakeRun(simulator), report


def drake_ten_spheres(solver):
    """`ten_spheres` in Drake."""
    from pydrake.all import (Box as DBox, CoulombFriction as DFriction, DiagramBuilder as DBuilder,
                             HalfSpace as DHalfSpace, RigidTransform as DTransform,
                             Simulator as DSimulator, SpatialInertia as DInertia,
                             Sphere as DSphere)
    friction = DFriction(0.5, 0.5)
    builder = DBuilder()
    plant = _drake_plant(solver, builder)
    balls = []
    for i in range(10):
        ball = plant.AddRigidBody(f"ball{i}", DInertia.SolidSphereWithMass(0.1, 0.05))
        plant.RegisterCollisionGeometry(ball, DTransform(), DSphere(0.05), "sphere", friction)
        balls.append(ball)
    world = plant.world_body()
    plant.RegisterCollisionGeometry(world, DTransform(), DHalfSpace(), "ground", friction)
    for k, (p, size) in enumerate(BIN_WALLS):
        plant.RegisterCollisionGeometry(world, DTransform(p), DBox(*size), f"wall{k}", friction)
    plant.Finalize()
    simulator = DSimulator(builder.Build())
    context = plant.GetMyContextFromRoot(simulator.get_mutable_context())
    rng = np.random.default_rng(0)
    for i, ball in enumerate(balls):
        plant.SetFreeBodyPose(context, ball, DTransform(
            [rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0.1 + 0.12 * i]))

    def report():
        results = plant.get_contact_results_output_port().Eval(context)
        depth = max([results.point_pair_contact_info(i).point_pair().depth
                     for i in range(results.num_point_pair_contacts())] + [0.0])
        return f"max depth = {1e3 * depth:.3f} mm, {results.num_point_pair_contacts()} contacts"
    return _DrakeRun(simulator), report


def _drake_available():
    try:
        import pydrake.all  # noqa: F401
    except ImportError:
        return False
    logging.getLogger("drake").setLevel(logging.ERROR)   # TAMSI deprecation, deformables
    return True


def time_per_step(make, duration, repeats, observed=False):
    """Median µs per 1 ms step over `repeats` fresh simulations, and the last report;
    `observed`: a monitor watches every step (see the module docstring)."""
    samples, report = [], None
    for _ in range(repeats):
        simulator, report = make()
        if observed:
            simulator.set_monitor(lambda context: EventStatus.succeeded())
        simulator.advance_to(1e-3)          # initialization and first evaluations
        t0 = time.perf_counter()
        simulator.advance_to(duration)
        samples.append((time.perf_counter() - t0) / (duration / 1e-3 - 1) * 1e6)
    return statistics.median(samples), report()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="0.5 s scenes, one repeat")
    parser.add_argument("--solvers", nargs="+", default=SOLVERS, choices=SOLVERS)
    parser.add_argument("--observed", action="store_true",
                        help="a monitor on every merganser step (the per-step Python path)")
    args = parser.parse_args(argv)
    duration, repeats = (0.5, 1) if args.quick else (2.0, 3)
    observed = args.observed
    for solver in args.solvers:        # compile (or load) every kernel, contacts included
        time_per_step(lambda s=solver: box_drop(s), 0.3, 1, observed)
        time_per_step(lambda s=solver: box_drop(s, corner_spheres=True), 0.3, 1, observed)
        time_per_step(lambda s=solver: ten_spheres(s), 0.3, 1, observed)
    with_drake = _drake_available()
    if not with_drake:
        print("pydrake is not installed (pip install -e '.[bench]'): Drake is not run here")
    if observed:
        print("merganser's steps observed by a monitor: the per-step Python path")
    base, _ = time_per_step(lambda: box_drop("sap", with_ground=False), duration, repeats,
                            observed)
    print(f"baseline: contact-free free fall, {base:.1f} µs/step (framework and dynamics)")
    if with_drake:
        drake_base, _ = time_per_step(lambda: drake_box_drop("sap", with_ground=False),
                                      duration, repeats)
        print(f"          Drake in this run: {drake_base:.1f} µs/step")
    print(f"\n{'scene':22s} {'solver':8s} {'µs/step':>8s} {'Drake':>7s} {'ratio':>6s} "
          f"{'issue':>6s} {'ratio':>6s}  outcome (Drake's outcome)")
    scenes = [("box", "box (Box geometry)", lambda s: box_drop(s),
               lambda s: drake_box_drop(s)),
              ("box", "box (8 corner spheres)", lambda s: box_drop(s, corner_spheres=True),
               lambda s: drake_box_drop(s, corner_spheres=True)),
              ("spheres", "ten spheres", ten_spheres, drake_ten_spheres)]
    for key, label, make, make_drake in scenes:
        for solver in args.solvers:
            us, outcome = time_per_step(lambda s=solver, f=make: f(s), duration, repeats,
                                        observed)
            measured = f"{'-':>7s} {'-':>6s}"
            if with_drake and solver != "lcp":
                drake_us, drake_outcome = time_per_step(
                    lambda s=solver, f=make_drake: f(s), duration, repeats)
                measured = f"{drake_us:7.1f} {us / drake_us:6.2f}"
                outcome = f"{outcome} ({drake_outcome})"
            quoted = ISSUE_DRAKE_US.get((key, solver))
            issue = f"{quoted:6.0f} {us / quoted:6.2f}" if quoted else f"{'-':>6s} {'-':>6s}"
            print(f"{label:22s} {solver:8s} {us:8.1f} {measured} {issue}  {outcome}")


if __name__ == "__main__":
    main()
