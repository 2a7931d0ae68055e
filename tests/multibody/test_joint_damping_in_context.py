"""Joint damping as a Context parameter (Drake's Joint::GetDampingVector /
SetDampingVector, RevoluteJoint::GetDamping / SetDamping): the Context's value drives the
forward dynamics, the force elements' contribution, computed torque, power and the
discrete steps (the fused and compiled paths, which have the default damping compiled
in, step aside), while other Contexts keep the default."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import (
    BallRpyJoint, MultibodyForces, MultibodyPlant, PrismaticJoint, RevoluteJoint,
    SpatialInertia, add_multibody_plant,
)
from merganser.multibody.plant import MultibodyPlantConfig

MASS, SIDE = 2.0, 0.1
IZZ = MASS * (2 * SIDE ** 2) / 12


def _spinner(time_step=0.0, damping=0.5):
    plant = MultibodyPlant(time_step)
    body = plant.add_rigid_body("b", SpatialInertia.solid_box_with_mass(MASS, SIDE, SIDE, SIDE))
    joint = plant.add_joint(RevoluteJoint("z", plant.world_frame(), body.body_frame(),
                                          [0, 0, 1], damping=damping))
    plant.finalize()
    return plant, joint


def test_context_damping_drives_the_dynamics_of_that_context_only():
    plant, joint = _spinner()
    ctx, other = plant.create_default_context(), plant.create_default_context()
    for c in (ctx, other):
        plant.set_velocities(c, [1.0])
    assert joint.get_damping(ctx) == 0.5 and joint.default_damping() == 0.5
    joint.set_damping(ctx, 3.0)
    assert joint.get_damping(ctx) == 3.0
    np.testing.assert_array_equal(joint.get_damping_vector(ctx), [3.0])
    assert joint.get_damping(other) == 0.5 and joint.default_damping() == 0.5
    np.testing.assert_allclose(plant.calc_forward_dynamics(ctx), [-3.0 / IZZ], rtol=1e-12)
    np.testing.assert_allclose(plant.calc_forward_dynamics(other), [-0.5 / IZZ], rtol=1e-12)
    np.testing.assert_allclose(plant.get_generalized_acceleration_output_port().eval(ctx),
                               [-3.0 / IZZ], rtol=1e-12)
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(ctx, forces)
    np.testing.assert_allclose(forces.generalized_forces(), [-3.0])
    np.testing.assert_allclose(
        plant.calc_generalized_forces_for_acceleration(ctx, np.array([0.0, 1.0]), np.zeros(1)),
        [3.0])
    assert plant.calc_non_conservative_power(ctx) == pytest.approx(-3.0)
    assert plant.calc_non_conservative_power(other) == pytest.approx(-0.5)
    with pytest.raises(ValueError, match="damping"):
        joint.set_damping(ctx, -1.0)
    assert joint.get_damping(ctx) == 3.0


def test_damping_vector_of_a_multi_dof_joint():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    ball = plant.add_joint(BallRpyJoint("ball", plant.world_frame(), body.body_frame(), 0.2))
    plant.finalize()
    ctx = plant.create_default_context()
    ball.set_damping_vector(ctx, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ball.get_damping_vector(ctx), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ball.default_damping_vector(), [0.2, 0.2, 0.2])
    with pytest.raises(ValueError, match="damping"):
        ball.set_damping_vector(ctx, [1.0, 2.0])


@pytest.mark.parametrize("contact", [False, True])
def test_discrete_steps_use_the_context_damping(contact):
    # v_{n+1} = v_n + h (-d v_n / I) for the contact-free step; the contact solvers see
    # the same free motion (the scene has no contact)
    h, d = 1e-3, 0.004
    if contact:
        builder = DiagramBuilder()
        plant, _ = add_multibody_plant(MultibodyPlantConfig(
            time_step=h, discrete_contact_approximation="sap"), builder)
    else:
        plant = MultibodyPlant(h)
    body = plant.add_rigid_body("b", SpatialInertia.solid_box_with_mass(MASS, SIDE, SIDE, SIDE))
    parent = plant.world_frame()
    if contact:     # collision geometry far apart: the contact solver's step, no contact
        rail = plant.add_rigid_body("rail", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
        plant.weld_frames(plant.world_frame(), rail.body_frame())
        parent = rail.body_frame()
        friction = CoulombFriction(0.5, 0.5)
        plant.register_collision_geometry(body, RigidTransform(), Sphere(0.05), "b", friction)
        plant.register_collision_geometry(plant.world_body(), RigidTransform([0, 0, -10.0]),
                                          HalfSpace(), "ground", friction)
    joint = plant.add_joint(PrismaticJoint("x", parent, body.body_frame(), [1, 0, 0],
                                           damping=0.0))
    plant.finalize()
    system = builder.build() if contact else plant
    root = system.create_default_context()
    ctx = plant.get_my_context_from_root(root)
    plant.set_velocities(ctx, [1.0])
    joint.set_damping(ctx, d)
    Simulator(system, root).advance_to(50 * h)
    np.testing.assert_allclose(plant.get_velocities(ctx), [(1.0 - h * d / MASS) ** 50],
                               rtol=1e-12)
