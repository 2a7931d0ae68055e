"""Forward dynamics of a floating-base robot whose actuators drive only the legs (the
actuation is not the identity: 8 actuators on 14 velocities, as on a humanoid): the
one-call path scatters u into τ[actuator_v] = u. Checked against the mass matrix and bias
term, v̇ = M⁻¹ (B u − D v − C v + τ_g), and against the general path (taken when an
applied generalized force input is fixed)."""

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody import (FixedOffsetFrame, MultibodyPlant, RevoluteJoint,
                                 SpatialInertia)


def _floating_quadruped():
    plant = MultibodyPlant(0.0)
    trunk = plant.add_rigid_body("trunk", SpatialInertia.solid_box_with_mass(
        4.0, 0.4, 0.2, 0.08))
    for i, (x, y) in enumerate([(0.18, 0.12), (0.18, -0.12), (-0.18, 0.12), (-0.18, -0.12)]):
        thigh = plant.add_rigid_body(f"thigh{i}", SpatialInertia.solid_capsule_with_mass(
            0.3, 0.02, 0.16, [0, 0, 1]))
        shin = plant.add_rigid_body(f"shin{i}", SpatialInertia.solid_capsule_with_mass(
            0.2, 0.015, 0.16, [0, 0, 1]))
        hip_f = plant.add_frame(FixedOffsetFrame(f"hip{i}_f", trunk.body_frame(),
                                                 RigidTransform([x, y, 0.0])))
        top = plant.add_frame(FixedOffsetFrame(f"top{i}", thigh.body_frame(),
                                               RigidTransform([0, 0, 0.1])))
        bot = plant.add_frame(FixedOffsetFrame(f"bot{i}", thigh.body_frame(),
                                               RigidTransform([0, 0, -0.1])))
        shin_f = plant.add_frame(FixedOffsetFrame(f"shin{i}_f", shin.body_frame(),
                                                  RigidTransform([0, 0, 0.1])))
        hip = plant.add_joint(RevoluteJoint(f"hip{i}", hip_f, top, [0, 1, 0], damping=0.3))
        knee = plant.add_joint(RevoluteJoint(f"knee{i}", bot, shin_f, [1, 0, 0],
                                             damping=0.1 * (i + 1)))
        plant.add_joint_actuator(f"hip{i}", hip)
        if i % 2 == 0:                       # two knees stay passive
            plant.add_joint_actuator(f"knee{i}", knee)
    plant.finalize()
    return plant


def test_floating_base_forward_dynamics_scatters_the_actuation():
    plant = _floating_quadruped()
    nq, nv, nu = plant.num_positions(), plant.num_velocities(), plant.num_actuators()
    assert (nq, nv, nu) == (15, 14, 6)
    B = plant.make_actuation_matrix()
    assert B.shape == (nv, nu) and np.count_nonzero(B) == nu
    damping = np.zeros(nv)
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        if joint.num_velocities() == 1:
            damping[joint.velocity_start()] = joint.default_damping()
    rng = np.random.default_rng(7)
    for _ in range(5):
        context = plant.create_default_context()
        q = plant.get_positions(context).copy()
        q[:4] = rng.normal(size=4)
        q[:4] /= np.linalg.norm(q[:4])
        q[4:] = rng.normal(size=nq - 4)
        v, u = rng.normal(size=nv), rng.normal(size=nu) * 3.0
        plant.set_positions(context, q)
        plant.set_velocities(context, v)
        plant.get_actuation_input_port().fix_value(context, u)
        vdot = plant.calc_forward_dynamics(context)
        M = plant.calc_mass_matrix(context)
        rhs = (B @ u - damping * v - plant.calc_bias_term(context)
               + plant.calc_gravity_generalized_forces(context))
        np.testing.assert_allclose(M @ vdot, rhs, rtol=1e-10, atol=1e-10)
        # The output port gives the same numbers.
        np.testing.assert_array_equal(
            plant.get_generalized_acceleration_output_port().eval(context), vdot)
        # The general path (an applied force input of zeros) agrees to round-off.
        plant.get_applied_generalized_force_input_port().fix_value(context, np.zeros(nv))
        np.testing.assert_allclose(plant.calc_forward_dynamics(context), vdot,
                                   rtol=1e-12, atol=1e-12)
        tau_applied = rng.normal(size=nv)
        plant.get_applied_generalized_force_input_port().fix_value(context, tau_applied)
        np.testing.assert_allclose(M @ plant.calc_forward_dynamics(context),
                                   rhs + tau_applied, rtol=1e-10, atol=1e-10)


def test_floating_base_wrong_actuation_size_raises():
    plant = _floating_quadruped()
    context = plant.create_default_context()
    port = plant.get_actuation_input_port()
    try:
        port.fix_value(context, np.zeros(5))
    except (ValueError, RuntimeError) as err:
        assert "5" in str(err) or "size" in str(err)
    else:
        raise AssertionError("fix_value accepted a wrong-size actuation")
