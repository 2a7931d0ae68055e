"""Joint armature (a merganser extension, MuJoCo's joint ``armature``): the per-velocity
term added to the diagonal of M(q), the same term an actuator's reflected inertia adds,
in the mass matrix, inverse and forward dynamics, energy and the discrete step (issue 14)."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform
from merganser.multibody import (
    BallQuaternionJoint, FixedOffsetFrame, MultibodyForces, MultibodyPlant, PrismaticJoint,
    QuaternionFloatingJoint, RevoluteJoint, SpatialInertia,
)

I_ZZ = 0.3          # kg·m² of the hinge body about its axis (z, through its centre of mass)
ARMATURE = 0.05


def _hinge(time_step=0.0, armature=ARMATURE):
    plant = MultibodyPlant(time_step)
    body = plant.add_rigid_body("rotor", SpatialInertia.make_from_central_inertia(
        2.0, np.zeros(3), np.diag([0.1, 0.2, I_ZZ])))
    joint = plant.add_joint(RevoluteJoint("hinge", plant.world_frame(), body.body_frame(),
                                          [0.0, 0.0, 1.0]))
    joint.set_default_armature(armature)
    plant.finalize()
    return plant, joint


def test_single_hinge_mass_matrix_is_inertia_plus_armature():
    plant, joint = _hinge()
    assert joint.default_armature() == ARMATURE
    np.testing.assert_array_equal(joint.default_armature_vector(), [ARMATURE])
    context = plant.create_default_context()
    plant.set_velocities(context, [3.0])
    assert plant.calc_mass_matrix(context)[0, 0] == pytest.approx(I_ZZ + ARMATURE, abs=1e-15)
    assert plant.calc_kinetic_energy(context) == pytest.approx(
        0.5 * (I_ZZ + ARMATURE) * 9.0, abs=1e-14)
    plant.get_applied_generalized_force_input_port().fix_value(context, [1.5])
    assert plant.calc_forward_dynamics(context)[0] == pytest.approx(
        1.5 / (I_ZZ + ARMATURE), abs=1e-14)
    forces = MultibodyForces(plant)
    assert plant.calc_inverse_dynamics(context, [2.0], forces)[0] == pytest.approx(
        2.0 * (I_ZZ + ARMATURE), abs=1e-14)


def test_discrete_step_of_a_hinge_uses_the_armature():
    h = 0.01
    plant, _ = _hinge(time_step=h)
    context = plant.create_default_context()
    plant.get_applied_generalized_force_input_port().fix_value(context, [1.5])
    x_next = plant.eval_unique_periodic_discrete_update(context).get_vector(0).get_value()
    assert x_next[-1] == pytest.approx(h * 1.5 / (I_ZZ + ARMATURE), abs=1e-14)


def _tree(armature=True):
    """A floating base with a ball joint, a hinge and a slider below it; armature on
    every joint, and an actuator with reflected inertia on the hinge (or neither)."""
    plant = MultibodyPlant(0.0)
    rng = np.random.default_rng(3)

    def body(name):     # a box of random sides, rotated, its centre of mass offset
        mass, (a, b, c) = 1.0 + rng.random(), 0.1 + rng.random(3)
        R = np.linalg.qr(rng.standard_normal((3, 3)))[0]
        I = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
        return plant.add_rigid_body(name, SpatialInertia.make_from_central_inertia(
            mass, 0.1 * rng.standard_normal(3), R @ I @ R.T))

    base, arm, link, tip = body("base"), body("arm"), body("link"), body("tip")
    free = plant.add_joint(QuaternionFloatingJoint("free", plant.world_frame(),
                                                   base.body_frame()))
    F = plant.add_frame(FixedOffsetFrame("F", base.body_frame(),
                                         RigidTransform([0.1, 0.2, -0.3])))
    ball = plant.add_joint(BallQuaternionJoint("ball", F, arm.body_frame()))
    hinge = plant.add_joint(RevoluteJoint("hinge", arm.body_frame(), link.body_frame(),
                                          [0.3, -0.4, 0.5]))
    slide = plant.add_joint(PrismaticJoint("slide", link.body_frame(), tip.body_frame(),
                                           [1.0, 0.0, 0.0]))
    actuator = plant.add_joint_actuator("motor", hinge)
    if armature:
        free.set_default_armature_vector([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        ball.set_default_armature(0.07)
        hinge.set_default_armature(0.02)
        slide.set_default_armature(0.03)
        actuator.set_default_rotor_inertia(0.01)
        actuator.set_default_gear_ratio(3.0)
    plant.finalize()
    return plant


def _random_context(plant, seed):
    rng = np.random.default_rng(seed)
    context = plant.create_default_context()
    q = plant.get_positions(context)
    for joint in (plant.get_joint_by_name("free"), plant.get_joint_by_name("ball")):
        quat = rng.standard_normal(4)
        q[joint.position_start():joint.position_start() + 4] = quat / np.linalg.norm(quat)
    q[4:7] = rng.standard_normal(3)
    q[-2:] = rng.standard_normal(2)
    plant.set_positions(context, q)
    plant.set_velocities(context, rng.standard_normal(plant.num_velocities()))
    plant.get_actuation_input_port().fix_value(context, [0.0])
    return context


def test_armature_on_every_joint_type_adds_the_per_velocity_diagonal():
    plant, plain = _tree(), _tree(armature=False)
    expected = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.07, 0.07, 0.07, 0.02 + 9 * 0.01,
                         0.03])
    for seed in range(3):
        context = _random_context(plant, seed)
        plain_context = plain.create_default_context()
        plain.set_positions(plain_context, plant.get_positions(context))
        np.testing.assert_allclose(
            plant.calc_mass_matrix(context) - plain.calc_mass_matrix(plain_context),
            np.diag(expected), atol=1e-13)


def test_mass_matrix_inverse_and_forward_dynamics_agree_with_armature():
    plant = _tree()
    nv = plant.num_velocities()
    forces = MultibodyForces(plant)
    rng = np.random.default_rng(7)
    for seed in range(3):
        context = _random_context(plant, seed)
        M = plant.calc_mass_matrix(context)
        # the columns of M by inverse dynamics (RNEA): ID(e_i) - ID(0)
        tau0 = plant.calc_inverse_dynamics(context, np.zeros(nv), forces)
        M_id = np.column_stack([plant.calc_inverse_dynamics(context, e, forces) - tau0
                                for e in np.eye(nv)])
        np.testing.assert_allclose(M_id, M, atol=1e-12 * np.abs(M).max())
        # forward dynamics under an applied force tau (and gravity, which Drake's inverse
        # dynamics leaves out) inverts inverse dynamics
        tau = rng.standard_normal(nv)
        plant.get_applied_generalized_force_input_port().fix_value(context, tau)
        vdot = plant.calc_forward_dynamics(context)
        tau_g = plant.calc_gravity_generalized_forces(context)
        np.testing.assert_allclose(plant.calc_inverse_dynamics(context, vdot, forces),
                                   tau + tau_g, atol=1e-10)
        np.testing.assert_allclose(M @ vdot, tau + tau_g - tau0, atol=1e-10)


def test_bad_armature_is_refused_with_the_function_and_argument():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", SpatialInertia.solid_cube_with_mass(1.0, 0.1))
    joint = plant.add_joint(RevoluteJoint("j", plant.world_frame(), body.body_frame(),
                                          [0.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match="set_default_armature_vector: armature must be "
                                         "finite and >= 0"):
        joint.set_default_armature(-1.0)
    with pytest.raises(ValueError, match=r"armature has shape \(2,\), expected \(1,\)"):
        joint.set_default_armature([1.0, 2.0])
    plant.finalize()
    with pytest.raises(RuntimeError, match="set_default_armature_vector"):
        joint.set_default_armature(1.0)


def test_batched_plant_refuses_joint_armature_naming_it():
    from merganser.multibody import BatchedPlant

    plant, _ = _hinge()
    with pytest.raises(ValueError, match="joint armature"):
        BatchedPlant(plant, 2)
