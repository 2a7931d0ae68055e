"""Hydroelastic contact cost: µs per step against point contact for the same scenes.

Scenes (discrete plant, time_step 1 ms, SAP): a 1 kg, 0.1 m box resting on the ground and
a sphere (R = 0.05 m) rolling on it at 0.5 m/s. Each scene runs once with
``contact_model = "point"`` and once with ``"hydroelastic"`` (compliant body, rigid
half-space; modulus 1e6 Pa, resolution hint R/4 or 0.025 m). Prints the median µs per step
of each, the ratio hydroelastic / point, and the outcome (height and normal force), all
measured in this run.

Run: ``.venv/bin/python benchmarks/bench_hydroelastic.py``
"""

import statistics
import time

import numpy as np

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (Box, CoulombFriction, HalfSpace, ProximityProperties, RigidTransform,
                      Sphere, add_compliant_hydroelastic_properties, add_contact_material,
                      add_rigid_hydroelastic_properties)
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant

STEPS = 1000
REPEATS = 5
E = 1e6


def build(shape_name, model):
    builder = DiagramBuilder()
    config = MultibodyPlantConfig(time_step=1e-3, contact_model=model,
                                  discrete_contact_approximation="sap")
    plant, _ = add_multibody_plant(config, builder)
    friction = CoulombFriction(0.5, 0.5)
    if shape_name == "box":
        shape, hint = Box(0.1, 0.1, 0.1), 0.025
        M = SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1)
    else:
        shape, hint = Sphere(0.05), 0.0125
        M = SpatialInertia.solid_sphere_with_mass(1.0, 0.05)
    body = plant.add_rigid_body("body", M)
    props = ProximityProperties()
    add_contact_material(friction=friction, properties=props)
    if model != "point":
        add_compliant_hydroelastic_properties(hint, E, props)
    plant.register_collision_geometry(body, RigidTransform(), shape, "body", props)
    ground = ProximityProperties()
    add_contact_material(friction=friction, properties=ground)
    if model != "point":
        add_rigid_hydroelastic_properties(1.0, ground)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", ground)
    plant.finalize()
    diagram = builder.build()
    simulator = Simulator(diagram)
    ctx = plant.get_my_context_from_root(simulator.get_mutable_context())
    z0 = 0.05 if shape_name == "box" else 0.05
    plant.set_free_body_pose(ctx, body, RigidTransform([0.0, 0.0, z0 - 1e-4]))
    if shape_name == "sphere":
        from merganser.multibody import SpatialVelocity
        plant.set_free_body_spatial_velocity(ctx, body, SpatialVelocity([0, 0.5 / 0.05, 0],
                                                                        [0.5, 0, 0]))
    return simulator, plant, body, ctx


def run(shape_name, model):
    simulator, plant, body, ctx = build(shape_name, model)
    simulator.advance_to(0.2)                       # settle and warm up
    times = []
    t = simulator.get_context().get_time()
    for _ in range(REPEATS):
        start = time.perf_counter()
        t += STEPS * 1e-3
        simulator.advance_to(t)
        times.append((time.perf_counter() - start) / STEPS * 1e6)
    X_WB = plant.eval_body_pose_in_world(ctx, body)
    return statistics.median(times), X_WB.translation()


def main():
    print(f"{'scene':16s}{'point µs':>10s}{'hydro µs':>10s}{'ratio':>8s}   outcome (hydroelastic)")
    for shape_name in ("box", "sphere"):
        point, _ = run(shape_name, "point")
        hydro, p = run(shape_name, "hydroelastic")
        label = "box resting" if shape_name == "box" else "sphere rolling"
        print(f"{label:16s}{point:10.1f}{hydro:10.1f}{hydro / point:8.2f}   "
              f"p_WBo = {np.round(p, 4)}")


if __name__ == "__main__":
    main()
