"""Hydroelastic contact cost, against point contact and against Drake, measured in one run.

Rows:

1. compliant box on rigid ground, discrete SAP step (time_step 1 ms): a 1 kg, 0.1 m
   box (modulus 1e6 Pa, resolution hint 0.025 m) resting on a rigid half space, µs per
   step of merganser with ``contact_model = "point"`` and ``"hydroelastic"`` and of Drake
   (pydrake) hydroelastic, interleaved repeat by repeat;
2. compliant sphere (R = 0.05 m, hint R/4) rolling on the ground at 0.5 m/s, point vs
   hydroelastic in merganser (and Drake hydroelastic);
3. two compliant spheres (R = 0.05 m, hint R/8, modulus 1e6 Pa) overlapping by 0.2 R
   on a SceneGraph with fixed poses: ms per ``compute_contact_surfaces()`` call of
   merganser and Drake (``ComputeContactSurfaces``, polygon representation),
   interleaved, wall-clock and CPU time of the process (less sensitive to other loads
   on the machine); also the first call (meshes, trees and kernels loaded).

Every row prints the medians, the ratio merganser / Drake and the outcome (height and
normal force, or the surface's polygon count, area and force) of both.

Run: ``.venv/bin/python benchmarks/bench_hydroelastic.py [--quick]``
"""

import argparse
import logging
import statistics
import time

import numpy as np

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (
    Box, CoulombFriction, FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace,
    ProximityProperties, RigidTransform, SceneGraph, Sphere, add_compliant_hydroelastic_properties,
    add_contact_material, add_rigid_hydroelastic_properties,
)
from merganser.multibody import (
    MultibodyPlantConfig, SpatialInertia, SpatialVelocity, add_multibody_plant,
)

E = 1e6
R_BALL = 0.05


def _scene(shape_name):
    """(shape size, hint, start height, spatial velocity) of the plant scenes."""
    if shape_name == "box":
        return 0.1, 0.025, 0.05 - 1e-4, None
    return R_BALL, R_BALL / 4, R_BALL - 1e-4, ([0, 0.5 / R_BALL, 0], [0.5, 0, 0])


def build(shape_name, model):
    """(simulator, report) of a merganser plant scene with contact_model `model`."""
    size, hint, z0, V0 = _scene(shape_name)
    builder = DiagramBuilder()
    config = MultibodyPlantConfig(time_step=1e-3, contact_model=model,
                                  discrete_contact_approximation="sap")
    plant, _ = add_multibody_plant(config, builder)
    friction = CoulombFriction(0.5, 0.5)
    if shape_name == "box":
        shape, M = Box(size, size, size), SpatialInertia.solid_box_with_mass(1.0, size, size, size)
    else:
        shape, M = Sphere(size), SpatialInertia.solid_sphere_with_mass(1.0, size)
    body = plant.add_rigid_body("body", M)
    props = add_contact_material(friction=friction, properties=ProximityProperties())
    if model != "point":
        add_compliant_hydroelastic_properties(hint, E, props)
    plant.register_collision_geometry(body, RigidTransform(), shape, "body", props)
    ground = add_contact_material(friction=friction, properties=ProximityProperties())
    if model != "point":
        add_rigid_hydroelastic_properties(properties=ground)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", ground)
    plant.finalize()
    simulator = Simulator(builder.build())
    ctx = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(ctx, body, RigidTransform([0.0, 0.0, z0]))
    if V0 is not None:
        plant.set_free_body_spatial_velocity(ctx, body, SpatialVelocity(*V0))

    def report():
        p = plant.eval_body_pose_in_world(ctx, body).translation()
        res = plant.get_contact_results_output_port().eval(ctx)
        if model == "point":
            fz = sum(abs(res.point_pair_contact_info(i).contact_force[2])
                     for i in range(res.num_point_pair_contacts()))
            return f"z = {p[2]:.5f} m, f_z = {fz:.3f} N"
        info = res.hydroelastic_contact_info(0)
        return (f"z = {p[2]:.5f} m, f_z = {abs(info.F_Ac_W.translational()[2]):.3f} N, "
                f"{info.contact_surface.num_faces()} faces")
    return simulator.advance_to, simulator.get_context().get_time, report


def build_drake(shape_name):
    """The same plant scene in Drake, hydroelastic."""
    from pydrake.all import (
        AddCompliantHydroelasticProperties, AddContactMaterial, AddMultibodyPlant,
        AddRigidHydroelasticProperties, Box as DBox, CoulombFriction as DFriction,
        DiagramBuilder as DBuilder, HalfSpace as DHalfSpace,
        MultibodyPlantConfig as DConfig, ProximityProperties as DProps,
        RigidTransform as DTransform, Simulator as DSimulator, SpatialInertia as DInertia,
        SpatialVelocity as DVelocity, Sphere as DSphere,
    )
    size, hint, z0, V0 = _scene(shape_name)
    builder = DBuilder()
    plant, _ = AddMultibodyPlant(DConfig(time_step=1e-3, contact_model="hydroelastic",
                                         discrete_contact_approximation="sap"), builder)
    friction = DFriction(0.5, 0.5)
    if shape_name == "box":
        shape, M = DBox(size, size, size), DInertia.SolidBoxWithMass(1.0, size, size, size)
    else:
        shape, M = DSphere(size), DInertia.SolidSphereWithMass(1.0, size)
    body = plant.AddRigidBody("body", M)
    props = DProps()
    AddContactMaterial(friction=friction, properties=props)
    AddCompliantHydroelasticProperties(hint, E, props)
    plant.RegisterCollisionGeometry(body, DTransform(), shape, "body", props)
    ground = DProps()
    AddContactMaterial(friction=friction, properties=ground)
    AddRigidHydroelasticProperties(ground)
    plant.RegisterCollisionGeometry(plant.world_body(), DTransform(), DHalfSpace(), "ground",
                                    ground)
    plant.Finalize()
    simulator = DSimulator(builder.Build())
    ctx = plant.GetMyContextFromRoot(simulator.get_mutable_context())
    plant.SetFreeBodyPose(ctx, body, DTransform([0.0, 0.0, z0]))
    if V0 is not None:
        plant.SetFreeBodySpatialVelocity(ctx, body, DVelocity(np.array(V0[0], float),
                                                              np.array(V0[1], float)))

    def report():
        p = plant.EvalBodyPoseInWorld(ctx, body).translation()
        res = plant.get_contact_results_output_port().Eval(ctx)
        info = res.hydroelastic_contact_info(0)
        return (f"z = {p[2]:.5f} m, f_z = {abs(info.F_Ac_W().translational()[2]):.3f} N, "
                f"{info.contact_surface().num_faces()} faces")
    return simulator.AdvanceTo, simulator.get_context().get_time, report


def interleaved_steps(makers, steps, repeats, settle=0.2):
    """Median µs per step of each (advance_to, time, report) maker, the repeats of the
    makers interleaved, and each one's report."""
    runs = [make() for make in makers]
    for advance, _now, _ in runs:
        advance(settle)
    samples = [[] for _ in runs]
    for _ in range(repeats):
        for k, (advance, now, _) in enumerate(runs):
            t = now()
            start = time.perf_counter()
            advance(t + steps * 1e-3)
            samples[k].append((time.perf_counter() - start) / steps * 1e6)
    return [statistics.median(s) for s in samples], [r() for _, _, r in runs]


def spheres_query():
    """(query, report) of two compliant spheres overlapping by 0.2 R in merganser."""
    sg = SceneGraph()
    source = sg.register_source("bench")
    poses = FramePoseVector()
    for k, z in enumerate((0.0, 1.8 * R_BALL)):
        f = sg.register_frame(source, GeometryFrame(f"f{k}"))
        g = GeometryInstance(RigidTransform(), Sphere(R_BALL), f"ball{k}")
        g.set_proximity_properties(add_compliant_hydroelastic_properties(R_BALL / 8, E, None))
        sg.register_geometry(source, f, g)
        poses.set_value(f, RigidTransform([0.0, 0.0, z]))
    ctx = sg.create_default_context()
    sg.get_source_pose_port(source).fix_value(ctx, poses)
    query = sg.get_query_output_port().eval(ctx)

    def report(surfaces):
        s = surfaces[0]
        return (f"{s.num_faces()} faces, area {s.area * 1e4:.3f} cm², "
                f"|f| = {np.linalg.norm(s.total_normal_force()):.2f} N")
    return query.compute_contact_surfaces, report


def spheres_query_drake():
    """The same query in Drake."""
    from pydrake.all import (
        AddCompliantHydroelasticProperties, FramePoseVector as DPoses,
        GeometryFrame as DFrame, GeometryInstance as DInstance,
        HydroelasticContactRepresentation, ProximityProperties as DProps,
        RigidTransform as DTransform, SceneGraph as DSceneGraph, Sphere as DSphere,
    )
    sg = DSceneGraph()
    source = sg.RegisterSource("bench")
    poses = DPoses()
    for k, z in enumerate((0.0, 1.8 * R_BALL)):
        f = sg.RegisterFrame(source, DFrame(f"f{k}"))
        g = DInstance(DTransform(), DSphere(R_BALL), f"ball{k}")
        props = DProps()
        AddCompliantHydroelasticProperties(R_BALL / 8, E, props)
        g.set_proximity_properties(props)
        sg.RegisterGeometry(source, f, g)
        poses.set_value(f, DTransform([0.0, 0.0, z]))
    ctx = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(ctx, poses)
    query = sg.get_query_output_port().Eval(ctx)

    def compute(keep=(sg, ctx)):        # the query refers to both
        return query.ComputeContactSurfaces(HydroelasticContactRepresentation.kPolygon)

    def report(surfaces):
        s = surfaces[0]
        force = sum(s.area(f) * s.poly_e_MN().EvaluateCartesian(f, s.centroid(f))
                    * s.face_normal(f) for f in range(s.num_faces()))
        return (f"{s.num_faces()} faces, area {s.total_area() * 1e4:.3f} cm², "
                f"|f| = {np.linalg.norm(force):.2f} N")
    return compute, report


def interleaved_queries(makers, calls, repeats):
    """(first-call ms, median ms per call, median CPU ms per call, report) of each
    (compute, report) maker."""
    out = []
    runs = []
    for make in makers:
        start = time.perf_counter()
        compute, report = make()
        surfaces = compute()
        runs.append((compute, report, surfaces, (time.perf_counter() - start) * 1e3))
    samples = [[] for _ in runs]
    cpu = [[] for _ in runs]
    for _ in range(repeats):
        for k, (compute, _, _, _) in enumerate(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(calls):
                compute()
            cpu[k].append((time.process_time() - start_cpu) / calls * 1e3)
            samples[k].append((time.perf_counter() - start) / calls * 1e3)
    for (_compute, report, surfaces, first), s, c in zip(runs, samples, cpu):
        out.append((first, statistics.median(s), statistics.median(c), report(surfaces)))
    return out


def _drake_available():
    try:
        import pydrake.all  # noqa: F401
    except ImportError:
        return False
    logging.getLogger("drake").setLevel(logging.ERROR)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps and repeats")
    args = parser.parse_args(argv)
    steps, repeats = (200, 3) if args.quick else (500, 7)
    drake = _drake_available()
    if not drake:
        print("pydrake is not installed (pip install -e '.[bench]'): Drake is not run here")
    print(f"{'scene':16s}{'point µs':>10s}{'hydro µs':>10s}{'h/p':>6s}{'Drake µs':>10s}"
          f"{'h/Drake':>8s}   outcome: hydroelastic | Drake")
    for shape_name in ("box", "sphere"):
        makers = [lambda s=shape_name: build(s, "point"),
                  lambda s=shape_name: build(s, "hydroelastic")]
        if drake:
            makers.append(lambda s=shape_name: build_drake(s))
        us, reports = interleaved_steps(makers, steps, repeats)
        label = "box resting" if shape_name == "box" else "sphere rolling"
        peer = f"{us[2]:10.1f}{us[1] / us[2]:8.2f}" if drake else f"{'-':>10s}{'-':>8s}"
        print(f"{label:16s}{us[0]:10.1f}{us[1]:10.1f}{us[1] / us[0]:6.2f}{peer}   "
              f"{reports[1]}" + (f" | {reports[2]}" if drake else ""))
    makers = [spheres_query] + ([spheres_query_drake] if drake else [])
    rows = interleaved_queries(makers, 3 if args.quick else 10, repeats)
    print("\ntwo compliant spheres, hint R/8: one contact-surface query")
    print(f"{'':16s}{'first ms':>10s}{'ms/query':>10s}{'cpu ms':>10s}   outcome")
    for name, (first, ms, cpu, report) in zip(("merganser", "Drake"), rows):
        print(f"{name:16s}{first:10.1f}{ms:10.2f}{cpu:10.2f}   {report}")
    if drake:
        print(f"{'ratio':16s}" + "".join(f"{rows[0][c] / rows[1][c]:10.2f}" for c in range(3)))


if __name__ == "__main__":
    main()
