"""BatchedPlant with contact: N envs stepped in one kernel equal N plants stepped one at a
time with their own discrete SAP-family contact step (same plant, same config), to 1e-12,
for a quadruped on flat ground, a gripper pushing a box and spheres and capsules piled on
each other; the envs are independent (one env's contact does not touch the others')."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (Box, Capsule, CoulombFriction, HalfSpace, RigidTransform,
                                RollPitchYaw, Sphere)
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant
from merganser.multibody.batched import BatchedPlant
from merganser.multibody.contact.errors import ContactSolverError
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint

H = 1e-3
FRICTION = CoulombFriction(0.8, 0.8)


def _plant(approximation="sap", **config):
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant(MultibodyPlantConfig(
        time_step=H, contact_model="point", discrete_contact_approximation=approximation,
        **config), builder)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", FRICTION)
    return builder, plant


def _frame(plant, body, name, p):
    return plant.add_frame(FixedOffsetFrame(name, body.body_frame(), RigidTransform(p)))


def quadruped(approximation="sap"):
    """A 4 kg box trunk (free) on four two-link legs (hip and knee about y, actuated),
    capsule shins ending in sphere feet."""
    builder, plant = _plant(approximation)
    trunk = plant.add_rigid_body("trunk", SpatialInertia.solid_box_with_mass(
        4.0, 0.4, 0.2, 0.08))
    plant.register_collision_geometry(trunk, RigidTransform(), Box(0.4, 0.2, 0.08), "trunk",
                                      FRICTION)
    for i, (x, y) in enumerate([(0.18, 0.12), (0.18, -0.12), (-0.18, 0.12), (-0.18, -0.12)]):
        thigh = plant.add_rigid_body(f"thigh{i}", SpatialInertia.solid_capsule_with_mass(
            0.3, 0.02, 0.16, [0, 0, 1]))
        shin = plant.add_rigid_body(f"shin{i}", SpatialInertia.solid_capsule_with_mass(
            0.2, 0.015, 0.16, [0, 0, 1]))
        hip = plant.add_joint(RevoluteJoint(
            f"hip{i}", _frame(plant, trunk, f"hip{i}_f", [x, y, 0.0]),
            _frame(plant, thigh, f"thigh{i}_top", [0, 0, 0.1]),
            [0, 1, 0], damping=0.1))
        knee = plant.add_joint(RevoluteJoint(
            f"knee{i}", _frame(plant, thigh, f"thigh{i}_bot", [0, 0, -0.1]),
            _frame(plant, shin, f"shin{i}_top", [0, 0, 0.1]),
            [0, 1, 0], damping=0.1))
        plant.add_joint_actuator(f"hip{i}", hip)
        plant.add_joint_actuator(f"knee{i}", knee)
        plant.register_collision_geometry(shin, RigidTransform(), Capsule(0.015, 0.16),
                                          f"shin{i}", FRICTION)
        plant.register_collision_geometry(shin, RigidTransform([0, 0, -0.1]), Sphere(0.02),
                                          f"foot{i}", FRICTION)
    plant.finalize()
    return builder.build(), plant
