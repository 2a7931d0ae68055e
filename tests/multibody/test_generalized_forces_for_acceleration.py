"""MultibodyPlant.calc_generalized_forces_for_acceleration: computed torque at a given state,
against the closed form of a damped pendulum and against the public inverse-dynamics path
(calc_force_elements_contribution + calc_inverse_dynamics on a context at that state)."""

import numpy as np
import pytest

from merganser.geometry import RigidTransform
from merganser.multibody import (FixedOffsetFrame, MultibodyForces, MultibodyPlant, RevoluteJoint,
                       RevoluteSpring, SpatialInertia)

G = 9.81


def _chain(masses, lengths, damping, spring=None, rotor=None):
    """Point masses at the rod tips, swinging about y from the world origin, all actuated.

    spring: (joint index, nominal angle, stiffness) for a RevoluteSpring; rotor: (joint
    index, rotor inertia, gear ratio) for the actuator's reflected inertia.
    """
    plant = MultibodyPlant(0.0)
    parent, joints = plant.world_frame(), []
    for k, (m, l, d) in enumerate(zip(masses, lengths, damping), start=1):
        link = plant.add_rigid_body(f"link{k}", SpatialInertia.point_mass(m, [0.0, 0.0, -l]))
        joints.append(plant.add_joint(RevoluteJoint(f"joint{k}", parent, link.body_frame(),
                                                    [0, 1, 0], damping=d)))
        motor = plant.add_joint_actuator(f"motor{k}", joints[-1])
        if rotor is not None and rotor[0] == k - 1:
            motor.set_default_rotor_inertia(rotor[1])
            motor.set_default_gear_ratio(rotor[2])
        parent = plant.add_frame(FixedOffsetFrame(f"tip{k}", link.body_frame(),
                                                  RigidTransform([0.0, 0.0, -l])))
    if spring is not None:
        plant.add_force_element(RevoluteSpring(joints[spring[0]], spring[1], spring[2]))
    plant.finalize()
    return plant


def _api_path(plant, x, vdot):
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(context, forces)
    return plant.calc_inverse_dynamics(context, vdot, forces)


def test_pendulum_closed_form_with_damping():
    # tau = m l² θ̈ + m g l sin θ + d θ̇ for a point mass m at distance l, damping d.
    m, l, d = 2.0, 0.7, 0.3
    plant = _chain([m], [l], [d])
    context = plant.create_default_context()
    for theta, thetadot, thetaddot in ((0.4, -1.2, 3.0), (-2.0, 0.5, -0.7), (0.0, 0.0, 0.0)):
        tau = plant.calc_generalized_forces_for_acceleration(
            context, np.array([theta, thetadot]), np.array([thetaddot]))
        expected = m * l * l * thetaddot + m * G * l * np.sin(theta) + d * thetadot
        np.testing.assert_allclose(tau, [expected], rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("spring, rotor", [
    (None, None),                         # gravity only: the compiled fast path
    ((1, 0.3, 7.0), None),                # a force element: forces from the kinematics at x
    (None, (0, 0.01, 5.0)),               # reflected inertia 25 * 0.01 on joint 1
])
def test_equals_the_public_inverse_dynamics_path(spring, rotor):
    plant = _chain([1.5, 0.8], [1.0, 0.6], [0.2, 0.05], spring, rotor)
    rng = np.random.default_rng(3)
    context = plant.create_default_context()       # its state (zero) must not be used
    for _ in range(5):
        x, vdot = rng.normal(size=4), rng.normal(size=2)
        expected = _api_path(plant, x, vdot)
        out = np.full(2, np.nan)
        tau = plant.calc_generalized_forces_for_acceleration(context, x, vdot, out)
        assert tau is out
        np.testing.assert_allclose(tau, expected, rtol=1e-12, atol=1e-12)
        # M v̇ + C v − τ_g + D v (+ spring) from the other algorithms
        ctx = plant.create_default_context()
        plant.set_positions_and_velocities(ctx, x)
        identity = (plant.calc_mass_matrix(ctx) @ vdot + plant.calc_bias_term(ctx)
                    - plant.calc_gravity_generalized_forces(ctx) + [0.2, 0.05] * x[2:])
        if spring is not None:
            identity[1] += 7.0 * (x[1] - 0.3)
        np.testing.assert_allclose(tau, identity, rtol=1e-12, atol=1e-12)


def test_accepts_lists_and_rejects_wrong_sizes():
    plant = _chain([1.0, 1.0], [1.0, 1.0], [0.0, 0.0])
    context = plant.create_default_context()
    a = plant.calc_generalized_forces_for_acceleration(context, [0.1, 0.2, 0.0, 0.0], [1, 2])
    b = plant.calc_generalized_forces_for_acceleration(
        context, np.array([0.1, 0.2, 0.0, 0.0]), np.array([1.0, 2.0]))
    np.testing.assert_array_equal(a, b)
    fn = "calc_generalized_forces_for_acceleration"
    with pytest.raises(ValueError, match=fn + r": x has size 3, expected nq \+ nv = 4"):
        plant.calc_generalized_forces_for_acceleration(context, np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match=fn + ": known_vdot has size 3, expected nv = 2"):
        plant.calc_generalized_forces_for_acceleration(context, np.zeros(4), np.zeros(3))
    with pytest.raises(ValueError, match=fn + r": out must be an ndarray of shape \(2,\)"):
        plant.calc_generalized_forces_for_acceleration(context, np.zeros(4), np.zeros(2),
                                                       np.zeros(3))
    with pytest.raises(TypeError, match=fn + ": expected a Context"):
        plant.calc_generalized_forces_for_acceleration(None, np.zeros(4), np.zeros(2))
