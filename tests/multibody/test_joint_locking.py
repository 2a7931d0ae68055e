"""Drake's joint locking (Joint.Lock / Unlock / is_locked, RigidBody.Lock for floating
bodies), kept in the plant's Context: a locked joint has zero velocity and acts as a weld
at its current position, in the continuous forward dynamics (Drake's
JointLocking.PendulumAccelerationTest) and in the discrete step."""

import numpy as np
import pytest

from merganser.framework import Simulator
from merganser.geometry import RigidTransform
from merganser.multibody import (
    FixedOffsetFrame, MultibodyPlant, RevoluteJoint, SpatialInertia, WeldJoint,
)


def _box(plant, name, mass, lx):
    inertia = SpatialInertia.solid_box_with_mass(mass, lx, 1.0, 1.0)
    # the box's center of mass at x = lx / 2 (a link hanging from its end)
    return plant.add_rigid_body(name, M_BBo_B=inertia.shift(np.array([-lx / 2, 0.0, 0.0])))


def _pendulums(time_step, elbow_weld=False, coupler=False):
    """A double pendulum A-B (shoulder and elbow about y) and, if `elbow_weld`, the same
    with the elbow welded (one composite link); optionally a third joint coupled to the
    shoulder (a constraint, so the discrete step goes through the contact solver)."""
    plant = MultibodyPlant(time_step)
    A, B = _box(plant, "A", 1.0, 1.0), _box(plant, "B", 2.0, 2.0)
    shoulder = plant.add_joint(RevoluteJoint("shoulder", plant.world_frame(), A.body_frame(),
                                             [0.0, 1.0, 0.0]))
    F = plant.add_frame(FixedOffsetFrame("elbow_F", A.body_frame(), RigidTransform([1.0, 0, 0])))
    if elbow_weld:
        elbow = plant.add_joint(WeldJoint("elbow", F, B.body_frame(), RigidTransform()))
    else:
        elbow = plant.add_joint(RevoluteJoint("elbow", F, B.body_frame(), [0.0, 1.0, 0.0]))
    if coupler:
        D = _box(plant, "D", 1.0, 1.0)
        follower = plant.add_joint(RevoluteJoint("follower", plant.world_frame(), D.body_frame(),
                                                 [0.0, 0.0, 1.0]))
        plant.add_coupler_constraint(follower, shoulder, gear_ratio=1.0)
    plant.finalize()
    return plant, shoulder, elbow


def test_lock_zeroes_the_velocities_and_is_per_context():
    plant, shoulder, elbow = _pendulums(0.0)
    ctx, other = plant.create_default_context(), plant.create_default_context()
    for c in (ctx, other):
        plant.set_velocities(c, [0.3, -0.7])
    assert not elbow.is_locked(ctx)
    elbow.lock(ctx)
    assert elbow.is_locked(ctx) and not elbow.is_locked(other)
    np.testing.assert_array_equal(plant.get_velocities(ctx), [0.3, 0.0])
    np.testing.assert_array_equal(plant.get_velocities(other), [0.3, -0.7])
    assert elbow.child_body().is_locked(ctx)          # a body reports its inboard joint
    elbow.unlock(ctx)
    assert not elbow.is_locked(ctx)
    assert elbow.is_locked(ctx.clone()) is False


def test_locked_elbow_accelerates_the_shoulder_as_the_welded_pendulum():
    locked_plant, shoulder, elbow = _pendulums(0.0)
    welded_plant, welded_shoulder, _ = _pendulums(0.0, elbow_weld=True)
    ctx = locked_plant.create_default_context()
    elbow.lock(ctx)
    shoulder.set_angle(ctx, 0.7)
    shoulder.set_angular_rate(ctx, -1.1)
    wctx = welded_plant.create_default_context()
    welded_shoulder.set_angle(wctx, 0.7)
    welded_shoulder.set_angular_rate(wctx, -1.1)
    vdot = locked_plant.eval_time_derivatives(ctx).get_vector().copy_to_vector()[2:]
    vdot_welded = welded_plant.eval_time_derivatives(wctx).get_vector().copy_to_vector()[1:]
    assert vdot[1] == 0.0
    assert vdot[0] == pytest.approx(vdot_welded[0], rel=1e-12)
    np.testing.assert_allclose(locked_plant.calc_forward_dynamics(ctx), vdot, rtol=1e-12)
    elbow.unlock(ctx)
    free = locked_plant.eval_time_derivatives(ctx).get_vector().copy_to_vector()[2:]
    assert free[1] != 0.0 and free[0] != pytest.approx(vdot_welded[0], rel=1e-3)


@pytest.mark.parametrize("coupler", [False, True])
def test_locked_joint_holds_in_the_discrete_step(coupler):
    locked_plant, shoulder, elbow = _pendulums(1e-3, coupler=coupler)
    welded_plant, welded_shoulder, _ = _pendulums(1e-3, elbow_weld=True, coupler=coupler)
    ctx = locked_plant.create_default_context()
    elbow.lock(ctx)                         # at 0, the welded twin's elbow angle
    shoulder.set_angle(ctx, 0.7)
    plant_velocities = locked_plant.get_velocities(ctx).copy()
    plant_velocities[1] = 0.5               # a velocity written after locking is ignored
    locked_plant.set_velocities(ctx, plant_velocities)
    wctx = welded_plant.create_default_context()
    welded_shoulder.set_angle(wctx, 0.7)
    Simulator(locked_plant, ctx).advance_to(0.3)
    Simulator(welded_plant, wctx).advance_to(0.3)
    assert elbow.get_angle(ctx) == 0.0 and elbow.get_angular_rate(ctx) == 0.0
    tol = 1e-12 if not coupler else 1e-6
    assert shoulder.get_angle(ctx) == pytest.approx(welded_shoulder.get_angle(wctx), abs=tol)
    assert shoulder.get_angle(ctx) != pytest.approx(0.7, abs=1e-3)       # it did swing


def test_lock_errors_name_the_function_and_the_body():
    plant, shoulder, elbow = _pendulums(0.0)
    ctx = plant.create_default_context()
    with pytest.raises(RuntimeError, match="RigidBody.lock: body 'B' is not a floating base"):
        elbow.child_body().lock(ctx)
    other, _, other_elbow = _pendulums(0.0)
    with pytest.raises(RuntimeError, match="Joint.lock: the context was created for"):
        other_elbow.lock(ctx)


def test_floating_body_lock():
    plant = MultibodyPlant(1e-3)
    body = plant.add_rigid_body("ball", M_BBo_B=SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    plant.finalize()
    ctx = plant.create_default_context()
    plant.set_velocities(ctx, [0.0, 0.0, 1.0, 0.0, 0.0, 2.0])
    body.lock(ctx)
    assert body.is_locked(ctx)
    np.testing.assert_array_equal(plant.get_velocities(ctx), np.zeros(6))
    Simulator(plant, ctx).advance_to(0.1)           # gravity cannot move it
    np.testing.assert_array_equal(plant.get_velocities(ctx), np.zeros(6))
    body.unlock(ctx)
    Simulator(plant, ctx).advance_to(0.2)
    assert plant.get_velocities(ctx)[5] == pytest.approx(-9.81 * 0.1, rel=1e-2)


def test_locked_elbow_matches_pydrake():
    # Reference values: pydrake 1.51.1 on the same models (SAP for the discrete plant; Drake
    # removes the locked velocity from the problem, merganser makes it very heavy).
    plant, shoulder, elbow = _pendulums(1e-3, coupler=True)
    follower = plant.get_joint_by_name("follower")
    ctx = plant.create_default_context()
    elbow.set_angle(ctx, 0.3)
    elbow.lock(ctx)
    shoulder.set_angle(ctx, 0.7)
    follower.set_angle(ctx, 0.7)
    Simulator(plant, ctx).advance_to(0.3)
    np.testing.assert_allclose(plant.get_positions(ctx),
                               [0.8360775201155272, 0.3, 0.8360775187323576], atol=2e-9)
    continuous, shoulder, elbow = _pendulums(0.0)
    c = continuous.create_default_context()
    elbow.set_angle(c, 0.3)
    elbow.lock(c)
    shoulder.set_angle(c, 0.7)
    shoulder.set_angular_rate(c, -1.1)
    vdot = continuous.eval_time_derivatives(c).get_vector().copy_to_vector()[2:]
    np.testing.assert_allclose(vdot, [3.2363979970624475, 0.0], rtol=1e-13, atol=0)
