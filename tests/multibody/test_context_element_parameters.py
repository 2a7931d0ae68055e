"""Element parameters that Drake keeps in the plant's Context: a bushing's stiffness and
damping constants (LinearBushingRollPitchYaw.Get/Set...Constants(context)), the
constraints' active status (MultibodyPlant.Get/SetConstraintActiveStatus) and the distance
constraints' parameters (Get/SetDistanceConstraintParams)."""

import numpy as np
import pytest

from merganser.framework import Simulator
from merganser.multibody import (
    DistanceConstraintParams, LinearBushingRollPitchYaw, MultibodyPlant, PrismaticJoint,
    RevoluteJoint, SpatialInertia,
)


def _bushing_plant():
    """A 2 kg body on a prismatic x joint, held to the world by a bushing (no gravity
    along x)."""
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("body", M_BBo_B=SpatialInertia.solid_sphere_with_mass(2.0, 0.1))
    plant.add_joint(PrismaticJoint("x", plant.world_frame(), body.body_frame(), [1.0, 0, 0]))
    bushing = plant.add_force_element(LinearBushingRollPitchYaw(
        plant.world_frame(), body.body_frame(), [1.0, 1.0, 1.0], [0.0, 0.0, 0.0],
        [100.0, 100.0, 100.0], [4.0, 4.0, 4.0]))
    plant.finalize()
    return plant, bushing


def _vdot(plant, context):
    return plant.eval_time_derivatives(context).get_vector().copy_to_vector()[1]


def test_bushing_constants_in_a_context_change_its_dynamics_only():
    plant, bushing = _bushing_plant()
    ctx, other = plant.create_default_context(), plant.create_default_context()
    for c in (ctx, other):
        plant.set_positions(c, [0.1])
        plant.set_velocities(c, [0.5])
    # f = -(k x + d ẋ) on the 2 kg body
    assert _vdot(plant, ctx) == pytest.approx(-(100.0 * 0.1 + 4.0 * 0.5) / 2.0)
    bushing.set_force_stiffness_constants(ctx, [300.0, 300.0, 300.0])
    bushing.set_force_damping_constants(context=ctx, force_damping=[0.0, 0.0, 0.0])
    assert _vdot(plant, ctx) == pytest.approx(-300.0 * 0.1 / 2.0)
    assert _vdot(plant, other) == pytest.approx(-(100.0 * 0.1 + 4.0 * 0.5) / 2.0)
    np.testing.assert_array_equal(bushing.get_force_stiffness_constants(ctx), [300.0] * 3)
    np.testing.assert_array_equal(bushing.get_force_stiffness_constants(other), [100.0] * 3)
    np.testing.assert_array_equal(bushing.force_stiffness_constants(), [100.0] * 3)   # defaults
    fresh = plant.create_default_context()          # new contexts start from the defaults
    np.testing.assert_array_equal(bushing.get_force_damping_constants(fresh), [4.0] * 3)


def test_bushing_spatial_forces_on_its_frames_balance():
    plant, bushing = _bushing_plant()
    ctx = plant.create_default_context()
    plant.set_positions(ctx, [0.1])
    plant.set_velocities(ctx, [0.5])
    bushing.set_force_damping_constants(ctx, [0.0, 0.0, 0.0])
    F_C = bushing.calc_bushing_spatial_force_on_frame_c(ctx)
    F_A = bushing.calc_bushing_spatial_force_on_frame_a(ctx)
    # C is 0.1 m along +x of A: f = -k x on C (at Co, no moment), -f on A; the moment of
    # -f about Ao is zero since f acts along the line AoCo
    np.testing.assert_allclose(F_C.translational(), [-100.0 * 0.1, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(F_C.rotational(), [0.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(F_A.translational(), -F_C.translational(), atol=1e-15)
    np.testing.assert_allclose(F_A.rotational(), [0.0, 0.0, 0.0], atol=1e-12)
    # the force the plant applies on the body is F_C
    vdot = plant.calc_forward_dynamics(ctx)
    np.testing.assert_allclose(vdot, [F_C.translational()[0] / 2.0], rtol=1e-12)


def test_bushing_frame_forces_are_equal_and_opposite_about_one_point():
    from merganser.geometry import RigidTransform
    from merganser.multibody import FixedOffsetFrame
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("body", M_BBo_B=SpatialInertia.solid_sphere_with_mass(2.0, 0.1))
    plant.add_joint(PrismaticJoint("x", plant.world_frame(), body.body_frame(), [1.0, 0, 0]))
    C = plant.add_frame(FixedOffsetFrame("C", body.body_frame(), RigidTransform([0, 0.05, 0])))
    bushing = plant.add_force_element(LinearBushingRollPitchYaw(
        plant.world_frame(), C, [1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [100.0, 200.0, 300.0],
        [0.0, 0.0, 0.0]))
    plant.finalize()
    ctx = plant.create_default_context()
    plant.set_positions(ctx, [0.1])
    F_A = bushing.calc_bushing_spatial_force_on_frame_a(ctx).get_coeffs()
    F_C = bushing.calc_bushing_spatial_force_on_frame_c(ctx).get_coeffs()
    # f = -(kx x, ky y, kz z) at p_AoCo = (0.1, 0.05, 0): not along AoCo, so both have a
    # moment; shifted to one point the two cancel (Newton's third law)
    np.testing.assert_allclose(F_C[3:], [-10.0, -10.0, 0.0], atol=1e-12)
    assert abs(F_A[2]) > 0.1 and abs(F_C[2]) > 0.1
    p_CoAo = np.array([-0.1, -0.05, 0.0])
    tau_A_at_Co = F_A[:3] + np.cross(p_CoAo, F_A[3:])
    np.testing.assert_allclose(tau_A_at_Co + F_C[:3], 0.0, atol=1e-12)
    np.testing.assert_allclose(F_A[3:] + F_C[3:], 0.0, atol=1e-15)


def test_bushing_torque_constants_round_trip_and_are_checked():
    plant, bushing = _bushing_plant()
    ctx = plant.create_default_context()
    bushing.set_torque_stiffness_constants(ctx, torque_stiffness=[1.0, 2.0, 3.0])
    bushing.set_torque_damping_constants(ctx, torque_damping=[4.0, 5.0, 6.0])
    np.testing.assert_array_equal(bushing.get_torque_stiffness_constants(ctx), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(bushing.get_torque_damping_constants(context=ctx),
                                  [4.0, 5.0, 6.0])
    with pytest.raises(ValueError, match="set_force_stiffness_constants.*force_stiffness"):
        bushing.set_force_stiffness_constants(ctx, [-1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="force_damping"):
        bushing.set_force_damping_constants(ctx, [1.0, 2.0])
    # the context's values survive cloning
    clone = ctx.clone()
    np.testing.assert_array_equal(bushing.get_torque_stiffness_constants(clone), [1.0, 2.0, 3.0])


def _coupled_plant():
    plant = MultibodyPlant(0.01)
    inertia = SpatialInertia.solid_box_with_density(1000.0, 0.1, 0.1, 0.1)
    b0 = plant.add_rigid_body("b0", M_BBo_B=inertia)
    b1 = plant.add_rigid_body("b1", M_BBo_B=inertia)
    j0 = plant.add_joint(RevoluteJoint("j0", plant.world_frame(), b0.body_frame(), [0, 0, 1.0]))
    j1 = plant.add_joint(RevoluteJoint("j1", plant.world_frame(), b1.body_frame(), [0, 0, 1.0]))
    plant.add_joint_actuator("a0", j0)
    cid = plant.add_coupler_constraint(j0, j1, gear_ratio=2.0)
    plant.finalize()
    return plant, cid


def test_inactive_constraint_is_not_enforced_in_that_context():
    plant, cid = _coupled_plant()
    assert plant.get_constraint_ids() == [cid]
    active, inactive = plant.create_default_context(), plant.create_default_context()
    assert plant.get_constraint_active_status(context=active, id=cid) is True
    plant.set_constraint_active_status(context=inactive, id=cid, status=False)
    assert plant.get_constraint_active_status(inactive, cid) is False
    assert plant.get_constraint_active_status(active, cid) is True
    for c in (active, inactive):
        plant.get_actuation_input_port().fix_value(c, [1.0])
        Simulator(plant, c).advance_to(0.2)
    q_active, q_inactive = plant.get_positions(active), plant.get_positions(inactive)
    # q0 = 2 q1, held by Drake's near-rigid coupler (β = 0.1): pydrake 1.51.1 gives
    # [10.080006079265242, 5.039987841469503] for this plant (SAP) at 0.2 s
    np.testing.assert_allclose(q_active, [10.080006079265242, 5.039987841469503], rtol=1e-13)
    assert q_active[0] == pytest.approx(2.0 * q_active[1], rel=1e-5)
    assert q_active[1] > 0.1
    assert q_inactive[1] == 0.0 and q_inactive[0] > q_active[0]           # j1 is free
    # active again: enforced again (the velocity error is corrected)
    plant.set_constraint_active_status(inactive, cid, True)
    Simulator(plant, inactive).advance_to(0.4)
    v0, v1 = plant.get_velocities(inactive)
    assert v0 == pytest.approx(2.0 * v1, rel=1e-3)


def test_constraint_status_errors_name_the_function_and_the_id():
    plant, cid = _coupled_plant()
    ctx = plant.create_default_context()
    with pytest.raises(RuntimeError, match=r"get_constraint_active_status: id 7 is not a "
                                           r"constraint of plant .*constraint ids: \[0\]"):
        plant.get_constraint_active_status(ctx, 7)
    with pytest.raises(TypeError, match="set_constraint_active_status: status must be a bool"):
        plant.set_constraint_active_status(ctx, cid, 1)
    unfinalized = MultibodyPlant(0.01)
    with pytest.raises(RuntimeError, match=r"get_constraint_active_status\(\) requires "
                                           r"finalize\(\)"):
        unfinalized.get_constraint_active_status(ctx, 0)


def _distance_plant():
    """A body on a prismatic x joint held at distance 1 from the world origin."""
    plant = MultibodyPlant(0.01)
    body = plant.add_rigid_body("body", M_BBo_B=SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    joint = plant.add_joint(PrismaticJoint("x", plant.world_frame(), body.body_frame(),
                                           [1.0, 0, 0]))
    cid = plant.add_distance_constraint(plant.world_body(), [0, 0, 0], body, [0, 0, 0], 1.0)
    plant.finalize()
    return plant, body, joint, cid


def test_distance_constraint_params_in_a_context():
    plant, body, joint, cid = _distance_plant()
    ctx, other = plant.create_default_context(), plant.create_default_context()
    for c in (ctx, other):
        joint.set_translation(c, 1.0)
    default = plant.get_distance_constraint_params(ctx, cid)
    assert default == plant.get_default_distance_constraint_params()[cid]
    assert default.distance() == 1.0
    params = DistanceConstraintParams(default.bodyA(), default.p_AP(), default.bodyB(),
                                      default.p_BQ(), distance=1.5, stiffness=np.inf,
                                      damping=0.0)
    plant.set_distance_constraint_params(context=ctx, id=cid, params=params)
    assert plant.get_distance_constraint_params(ctx, cid).distance() == 1.5
    assert plant.get_distance_constraint_params(other)[cid].distance() == 1.0
    for c in (ctx, other):
        Simulator(plant, c).advance_to(1.0)
    assert joint.get_translation(ctx) == pytest.approx(1.5, abs=1e-3)
    assert joint.get_translation(other) == pytest.approx(1.0, abs=1e-9)


def test_distance_constraint_params_errors():
    plant, body, joint, cid = _distance_plant()
    ctx = plant.create_default_context()
    with pytest.raises(RuntimeError, match=r"get_distance_constraint_params: id 3 is not a "
                                           r"constraint"):
        plant.get_distance_constraint_params(ctx, 3)
    with pytest.raises(TypeError, match="params must be a DistanceConstraintParams"):
        plant.set_distance_constraint_params(ctx, cid, 1.5)
    bad = DistanceConstraintParams(0, [0, 0, 0], 7, [0, 0, 0], 1.0)
    with pytest.raises(RuntimeError, match=r"params.bodyB\(\) = 7 is not a body"):
        plant.set_distance_constraint_params(ctx, cid, bad)
    coupled, cid2 = _coupled_plant()
    with pytest.raises(RuntimeError, match="constraint 0 is not a distance constraint"):
        coupled.get_distance_constraint_params(coupled.create_default_context(), cid2)
