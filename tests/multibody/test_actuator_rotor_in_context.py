"""Actuators' rotor inertia and gear ratio as Context parameters (Drake's
JointActuator::SetRotorInertia / SetGearRatio / calc_reflected_inertia): the Context's
ρ² Iᵣ is on the mass matrix diagonal of that Context's dynamics (forward and inverse
dynamics, kinetic energy, the discrete step), the fused paths stepping aside; other
Contexts keep the defaults."""

import numpy as np
import pytest

from merganser.framework import Simulator
from merganser.multibody import MultibodyForces, MultibodyPlant, RevoluteJoint, SpatialInertia

MASS, SIDE = 2.0, 0.1
IZZ = MASS * (2 * SIDE ** 2) / 12


def _motor(time_step):
    plant = MultibodyPlant(time_step)
    body = plant.add_rigid_body("b", SpatialInertia.solid_box_with_mass(MASS, SIDE, SIDE, SIDE))
    joint = plant.add_joint(RevoluteJoint("z", plant.world_frame(), body.body_frame(),
                                          [0, 0, 1]))
    actuator = plant.add_joint_actuator("motor", joint)
    actuator.set_default_rotor_inertia(0.001)
    plant.finalize()
    return plant, actuator


@pytest.mark.parametrize("time_step", [0.0, 1e-3])
def test_context_rotor_inertia_and_gear_ratio_enter_that_contexts_dynamics(time_step):
    plant, motor = _motor(time_step)
    ctx, other = plant.create_default_context(), plant.create_default_context()
    for c in (ctx, other):
        plant.get_actuation_input_port().fix_value(c, [1.0])
        plant.set_velocities(c, [2.0])
    assert (motor.rotor_inertia(ctx), motor.gear_ratio(ctx)) == (0.001, 1.0)
    motor.set_rotor_inertia(ctx, 0.01)
    motor.set_gear_ratio(ctx, 3.0)
    assert (motor.rotor_inertia(ctx), motor.gear_ratio(ctx)) == (0.01, 3.0)
    assert motor.calc_reflected_inertia(ctx) == pytest.approx(0.09)
    assert (motor.rotor_inertia(other), motor.default_rotor_inertia()) == (0.001, 0.001)
    inertia = IZZ + 0.09
    np.testing.assert_allclose(plant.calc_mass_matrix(ctx), [[inertia]], rtol=1e-14)
    np.testing.assert_allclose(plant.calc_mass_matrix(other), [[IZZ + 0.001]], rtol=1e-14)
    np.testing.assert_allclose(plant.calc_forward_dynamics(ctx), [1.0 / inertia], rtol=1e-12)
    np.testing.assert_allclose(plant.calc_forward_dynamics(other), [1.0 / (IZZ + 0.001)],
                               rtol=1e-12)
    np.testing.assert_allclose(
        plant.calc_inverse_dynamics(ctx, np.array([1.0]), MultibodyForces(plant)), [inertia],
        rtol=1e-12)
    assert plant.calc_kinetic_energy(ctx) == pytest.approx(0.5 * inertia * 4.0, rel=1e-12)
    Simulator(plant, ctx).advance_to(0.01)
    np.testing.assert_allclose(plant.get_velocities(ctx), [2.0 + 0.01 / inertia], rtol=1e-9)
    with pytest.raises(ValueError, match="rotor_inertia must be finite and >= 0"):
        motor.set_rotor_inertia(ctx, -1.0)
    with pytest.raises(ValueError, match="gear_ratio must be finite"):
        motor.set_gear_ratio(ctx, np.inf)
