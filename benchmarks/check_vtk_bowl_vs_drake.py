"""Local check (run by hand): a compliant ``.vtk`` hydroelastic mesh, merganser vs pydrake.

Drake's ``dishes/evo_bowl_compliant.urdf`` (its collision geometry a 44,675-tetrahedron
``.vtk`` mesh, compliant hydroelastic) is dropped from 5 cm onto a rigid hydroelastic
half space under SAP with 1 ms steps for 0.5 s, in both; prints the final positions, the
largest difference, and the time merganser takes to build the pressure field.

    python benchmarks/check_vtk_bowl_vs_drake.py PATH/TO/RobotLocomotion/models

(the folder holding ``dishes/``; the ``drake_models`` package is mapped to it).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

URDF = "dishes/evo_bowl_compliant.urdf"


def _ours(models):
    from merganser.framework import DiagramBuilder, Simulator
    from merganser.geometry import (CoulombFriction, HalfSpace, ProximityProperties,
                                    RigidTransform, add_contact_material,
                                    add_rigid_hydroelastic_properties)
    from merganser.multibody import MultibodyPlantConfig, Parser, add_multibody_plant

    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation="sap",
        contact_model="hydroelastic_with_fallback"), builder)
    parser = Parser(plant)
    if parser.package_map().contains("drake_models"):
        parser.package_map().remove("drake_models")
    parser.package_map().add("drake_models", models)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.add_models(f"{models}/{URDF}")
    ground = add_contact_material(friction=CoulombFriction(0.5, 0.5), properties=(
        add_rigid_hydroelastic_properties(properties=ProximityProperties())))
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", ground)
    plant.finalize()
    simulator = Simulator(builder.build())
    context = plant.get_my_context_from_root(simulator.get_mutable_context())
    plant.set_free_body_pose(context, plant.get_body_by_name("bowl"), RigidTransform([0, 0, 0.05]))
    start = time.perf_counter()
    simulator.advance_to(1e-3)              # the first step builds the pressure field
    first = time.perf_counter() - start
    simulator.advance_to(0.5)
    return plant.get_positions(context), first


def _drake(models):
    from pydrake.all import (AddContactMaterial, AddMultibodyPlant, AddRigidHydroelasticProperties,
                             CoulombFriction, DiagramBuilder, HalfSpace, MultibodyPlantConfig,
                             Parser, ProximityProperties, RigidTransform, Simulator)

    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlant(MultibodyPlantConfig(
        time_step=1e-3, discrete_contact_approximation="sap",
        contact_model="hydroelastic_with_fallback"), builder)
    parser = Parser(plant)
    if parser.package_map().Contains("drake_models"):
        parser.package_map().Remove("drake_models")
    parser.package_map().Add("drake_models", models)
    parser.AddModels(f"{models}/{URDF}")
    ground = ProximityProperties()
    AddRigidHydroelasticProperties(properties=ground)
    AddContactMaterial(friction=CoulombFriction(0.5, 0.5), properties=ground)
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(), "ground",
                                    ground)
    plant.Finalize()
    simulator = Simulator(builder.Build())
    context = plant.GetMyContextFromRoot(simulator.get_mutable_context())
    plant.SetFreeBodyPose(context, plant.GetBodyByName("bowl"), RigidTransform([0, 0, 0.05]))
    simulator.AdvanceTo(0.5)
    return plant.GetPositions(context)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", help="a checkout of RobotLocomotion/models")
    args = ap.parse_args()
    mine, first = _ours(args.models)
    theirs = _drake(args.models)
    np.set_printoptions(precision=17)
    print(f"merganser q = {mine}\npydrake   q = {theirs}")
    print(f"max |difference| = {np.abs(mine - theirs).max():.2e}; merganser's first step "
          f"(building the pressure field) {first:.2f} s")


if __name__ == "__main__":
    main()
