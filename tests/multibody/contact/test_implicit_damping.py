"""Joint damping in the discrete step: implicit in the SAP family, as Drake's
((M + h D)(v - v₀)/h = k(x₀), k holding -D v₀), explicit in TAMSI; the free motion of a
damped plant (ABA on M + h D, the armature h D) against a closed form, against the
dense solve with M + h D, and the batched kernel bitwise equal to the plant."""

import numpy as np
import pytest

from merganser.framework import Simulator
from merganser.geometry import RigidTransform
from merganser.multibody import MultibodyPlant, SpatialInertia
from merganser.multibody.batched import BatchedPlant
from merganser.multibody.tree import FixedOffsetFrame, QuaternionFloatingJoint, RevoluteJoint

H = 1e-3


def _spinner(approximation, damping, inertia=0.25):
    """A disk on a vertical pin (no gravity torque), moment of inertia `inertia` about
    the pin, one actuator."""
    plant = MultibodyPlant(H)
    plant.set_discrete_contact_approximation(approximation)
    disk = plant.add_rigid_body("disk", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, 0.0], np.diag([0.15, 0.15, inertia])))
    joint = plant.add_joint(RevoluteJoint("pin", plant.world_frame(), disk.body_frame(),
                                          [0, 0, 1], damping=damping))
    plant.add_joint_actuator("motor", joint)
    plant.finalize()
    return plant


@pytest.mark.parametrize("approximation", ["sap", "similar", "lagged"])
def test_sap_family_damps_implicitly(approximation):
    b, inertia, u, v0 = 3.0, 0.25, 0.7, 5.0
    plant = _spinner(approximation, b, inertia)
    context = plant.create_default_context()
    plant.set_velocities(context, [v0])
    plant.get_actuation_input_port().fix_value(context, [u])
    Simulator(plant, context).advance_to(H)
    v1 = (inertia * v0 + H * u) / (inertia + H * b)     # v₀ + h (u - b v₀)/(I + h b)
    np.testing.assert_allclose(plant.get_velocities(context), [v1], rtol=1e-14)
    np.testing.assert_allclose(plant.get_positions(context), [H * v1], rtol=1e-14)


def test_tamsi_damps_explicitly():
    b, inertia, u, v0 = 3.0, 0.25, 0.7, 5.0
    plant = _spinner("tamsi", b, inertia)
    context = plant.create_default_context()
    plant.set_velocities(context, [v0])
    plant.get_actuation_input_port().fix_value(context, [u])
    Simulator(plant, context).advance_to(H)
    np.testing.assert_allclose(plant.get_velocities(context),
                               [v0 + H * (u - b * v0) / inertia], rtol=1e-14)


def _damped_chain(damping=(0.4, 1.5, 0.02, 0.8)):
    """Four links on revolute joints about alternating axes, under gravity, with the
    given joint damping and one actuator per joint; no geometry, no limits."""
    plant = MultibodyPlant(H)
    plant.set_discrete_contact_approximation("sap")
    parent = plant.world_body()
    axes = ([0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0])
    for i, (axis, d) in enumerate(zip(axes, damping)):
        link = plant.add_rigid_body(f"link{i}", SpatialInertia.make_from_central_inertia(
            1.0 - 0.2 * i, [0.05, 0.0, -0.2], np.diag([0.02, 0.03 - 0.005 * i, 0.01])))
        frame = parent.body_frame()
        if i:
            frame = plant.add_frame(FixedOffsetFrame(f"tip{i}", parent.body_frame(),
                                                     RigidTransform([0.1, 0.0, -0.4])))
        joint = plant.add_joint(RevoluteJoint(f"j{i}", frame, link.body_frame(), axis,
                                              damping=d))
        plant.add_joint_actuator(f"m{i}", joint)
        parent = link
    plant.finalize()
    return plant


def test_damped_free_motion_solves_with_m_plus_h_d():
    plant = _damped_chain()
    D = np.array([0.4, 1.5, 0.02, 0.8])
    rng = np.random.default_rng(7)
    context = plant.create_default_context()
    q0, v0, u = rng.uniform(-1, 1, 4), rng.uniform(-3, 3, 4), rng.uniform(-2, 2, 4)
    plant.set_positions(context, q0)
    plant.set_velocities(context, v0)
    plant.get_actuation_input_port().fix_value(context, u)
    M = plant.calc_mass_matrix(context)
    k = M @ plant.calc_forward_dynamics(context)       # τ - C v + τ_g with the -D v₀
    v1 = v0 + H * np.linalg.solve(M + H * np.diag(D), k)
    Simulator(plant, context).advance_to(H)
    np.testing.assert_allclose(plant.get_velocities(context), v1, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(plant.get_positions(context), q0 + H * v1, rtol=1e-14)
    # and not the explicit step
    assert not np.allclose(plant.get_velocities(context),
                           v0 + H * np.linalg.solve(M, k), rtol=1e-6, atol=0)


def test_batched_damped_free_motion_is_bitwise_the_plants():
    plant = _damped_chain()
    rng = np.random.default_rng(3)
    n = 3
    X0 = np.hstack([rng.uniform(-1, 1, (n, 4)), rng.uniform(-3, 3, (n, 4))])
    U = rng.uniform(-2, 2, (n, 4))
    envs = BatchedPlant(plant, n)
    envs.set_state(X0)
    for _ in range(40):
        envs.step(U)
    for e in range(n):
        context = plant.create_default_context()
        plant.set_positions_and_velocities(context, X0[e])
        plant.get_actuation_input_port().fix_value(context, U[e])
        simulator = Simulator(plant, context)
        simulator.advance_to(40 * H)
        np.testing.assert_array_equal(envs.get_state()[e],
                                      plant.get_positions_and_velocities(context))


def test_damped_free_body_solves_with_m_plus_h_d():
    # a free body's six velocities each take h D (angular, translational damping)
    plant = MultibodyPlant(H)
    plant.set_discrete_contact_approximation("sap")
    body = plant.add_rigid_body("body", SpatialInertia.make_from_central_inertia(
        3.0, [0.02, -0.01, 0.05],
        np.array([[0.05, 0.004, 0.0], [0.004, 0.12, -0.006], [0.0, -0.006, 0.16]])))
    plant.add_joint(QuaternionFloatingJoint("free", plant.world_frame(), body.body_frame(),
                                            angular_damping=2.0, translational_damping=30.0))
    plant.finalize()
    D = np.array([2.0] * 3 + [30.0] * 3)
    context = plant.create_default_context()
    plant.set_velocities(context, [3.0, -1.0, 2.0, 0.5, 0.2, -1.0])
    v0 = plant.get_velocities(context)
    q0 = plant.get_positions(context)
    M = plant.calc_mass_matrix(context)
    k = M @ plant.calc_forward_dynamics(context)
    v1 = v0 + H * np.linalg.solve(M + H * np.diag(D), k)
    Simulator(plant, context).advance_to(H)
    np.testing.assert_allclose(plant.get_velocities(context), v1, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(plant.get_positions(context)[4:], q0[4:] + H * v1[3:],
                               rtol=1e-14)
