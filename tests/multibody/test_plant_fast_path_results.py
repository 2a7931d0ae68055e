"""The results of the per-call fast paths are the caller's: `eval_body_pose_in_world` and
`calc_jacobian_spatial_velocity` rewrite their last result only when nothing else
references it, so a pose, its rotation, a view of its arrays or a Jacobian kept by the
caller never changes under later queries; and the compiled state write of
`set_positions` / `set_velocities` copies exactly what the general path copies (strided
and read-only vectors, the Context's own storage) and refuses what it refuses.

Every value is compared bit for bit with a fresh context's: for poses the body-poses
output port (full forward kinematics); for Jacobians the fused kernel's first answer in
a new context, itself checked against the cache-based angular and translational
Jacobians.
"""

import gc

import numpy as np
import pytest
from robot_models import actuated_panda

from merganser.geometry import RigidTransform
from merganser.multibody.plant import JacobianWrtVariable

KV = JacobianWrtVariable.kV


@pytest.fixture(scope="module")
def panda():
    plant = actuated_panda()
    bodies = [plant.get_body(i) for i in range(1, plant.num_bodies())]
    return plant, bodies


def states(plant, seed, n):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, plant.num_positions()) for _ in range(n)]


def full_pose(plant, q, body):
    """X_WB (4, 4) of `body` at `q` from the body-poses output port of a fresh context."""
    context = plant.create_default_context()
    context.set_continuous_state(np.concatenate([q, np.zeros(plant.num_velocities())]))
    return plant.get_body_poses_output_port().eval(context)[body.index()].get_as_matrix4()


def general_jacobian(plant, q, frame_B, p, frame_A, frame_E):
    """J (6, nv) at `q` from a fresh context's fused kernel (its second query: the first
    takes the general path), checked against the general path (cache-based angular and
    translational Jacobians, another order of operations: to rounding)."""
    context = plant.create_default_context()
    plant.set_positions(context, q)
    p = np.array(p, dtype=float)
    for _ in range(2):
        J = plant.calc_jacobian_spatial_velocity(context, KV, frame_B, p, frame_A, frame_E)
    general = np.vstack([
        plant.calc_jacobian_angular_velocity(context, KV, frame_B, frame_A, frame_E),
        plant.calc_jacobian_translational_velocity(context, KV, frame_B, p, frame_A,
                                                   frame_E)])
    np.testing.assert_allclose(J, general, rtol=0.0, atol=1e-12)
    return J


def test_kept_poses_rotations_and_views_never_change(panda):
    """Poses kept whole, only their rotation, a view of their rotation matrix, or a
    RigidTransform copied from them, each keep the values of the state they were taken
    at while q changes and other poses are queried."""
    plant, bodies = panda
    context = plant.create_default_context()
    qs = states(plant, 1, 6)
    body = bodies[-1]
    kept = []
    for k, q in enumerate(qs):
        plant.set_positions(context, q)
        X = plant.eval_body_pose_in_world(context, body)
        if k == 0:
            kept.append((q, X))
        elif k == 1:
            kept.append((q, X.rotation()))
        elif k == 2:
            kept.append((q, X.rotation()._R[:, 1]))         # a view of the array
        elif k == 3:
            kept.append((q, RigidTransform(X)))             # shares the rotation and p
        del X
        for other in bodies:                                # later queries, dropped
            plant.eval_body_pose_in_world(context, other)
    gc.collect()
    for k, (q, value) in enumerate(kept):
        want = full_pose(plant, q, body)
        if k in (0, 3):
            np.testing.assert_array_equal(value.get_as_matrix4(), want)
        elif k == 1:
            np.testing.assert_array_equal(value.matrix(), want[:3, :3])
        else:
            np.testing.assert_array_equal(value, want[:3, 1])


def test_dropped_poses_are_rewritten_with_the_right_values(panda):
    """A loop that drops each pose before the next query (the pose's arrays are
    rewritten) gives each body's pose of the current state, bit for bit, in any order of
    bodies."""
    plant, bodies = panda
    context = plant.create_default_context()
    for k, q in enumerate(states(plant, 2, 4)):
        plant.set_positions(context, q)
        for body in (bodies if k % 2 else bodies[::-1]):
            got = plant.eval_body_pose_in_world(context, body).get_as_matrix4()
            np.testing.assert_array_equal(got, full_pose(plant, q, body), err_msg=body.name())


def test_two_contexts_and_a_clone_keep_their_own_results(panda):
    """Two contexts queried alternately and a clone of one: each pose and Jacobian is of
    its own context's state, and kept results of one context survive queries of the
    other."""
    plant, bodies = panda
    body = bodies[-1]
    frame, world, zero = body.body_frame(), plant.world_frame(), np.zeros(3)
    a, b = plant.create_default_context(), plant.create_default_context()
    qa, qb, qc = states(plant, 3, 3)
    plant.set_positions(a, qa)
    plant.set_positions(b, qb)
    plant.eval_body_pose_in_world(a, body)                  # bind a's fast queries
    clone = a.clone()
    plant.set_positions(clone, qc)
    X_a = plant.eval_body_pose_in_world(a, body)
    J_a = plant.calc_jacobian_spatial_velocity(a, KV, frame, zero, world, world)
    for _ in range(3):
        for ctx, q in ((b, qb), (clone, qc), (a, qa)):
            X = plant.eval_body_pose_in_world(ctx, body).get_as_matrix4()
            np.testing.assert_array_equal(X, full_pose(plant, q, body))
            J = plant.calc_jacobian_spatial_velocity(ctx, KV, frame, zero, world, world)
            np.testing.assert_array_equal(J, general_jacobian(plant, q, frame, zero, world,
                                                              world))
    np.testing.assert_array_equal(X_a.get_as_matrix4(), full_pose(plant, qa, body))
    np.testing.assert_array_equal(J_a, general_jacobian(plant, qa, frame, zero, world, world))


def test_kept_jacobians_and_their_views_never_change(panda):
    plant, bodies = panda
    context = plant.create_default_context()
    frame, world = bodies[-1].body_frame(), plant.world_frame()
    p = np.array([0.01, -0.02, 0.05])
    qs = states(plant, 4, 3)
    plant.set_positions(context, qs[0])
    J0 = plant.calc_jacobian_spatial_velocity(context, KV, frame, p, world, world)
    plant.set_positions(context, qs[1])
    rows = plant.calc_jacobian_spatial_velocity(context, KV, frame, p, world, world)[3:]
    plant.set_positions(context, qs[2])
    for _ in range(2):
        J2 = plant.calc_jacobian_spatial_velocity(context, KV, frame, p, world, world)
    np.testing.assert_array_equal(J0, general_jacobian(plant, qs[0], frame, p, world, world))
    np.testing.assert_array_equal(rows, general_jacobian(plant, qs[1], frame, p, world,
                                                         world)[3:])
    np.testing.assert_array_equal(J2, general_jacobian(plant, qs[2], frame, p, world, world))


def test_jacobian_points_of_any_stride_and_bad_sizes(panda):
    """A strided or read-only point gives the Jacobian of its values; a point of another
    size raises the general path's error."""
    plant, bodies = panda
    context = plant.create_default_context()
    frame, world = bodies[-2].body_frame(), plant.world_frame()
    q = states(plant, 5, 1)[0]
    plant.set_positions(context, q)
    p = np.array([0.03, 0.0, -0.04])
    want = general_jacobian(plant, q, frame, p, world, world)
    strided = np.zeros(6)
    strided[::2] = p
    readonly = p.copy()
    readonly.flags.writeable = False
    for point in (p, strided[::2], readonly, p[::-1][::-1], p.reshape(3, 1)):
        J = plant.calc_jacobian_spatial_velocity(context, KV, frame, point, world, world)
        np.testing.assert_array_equal(J, want)
    with pytest.raises(ValueError, match=r"calc_jacobian_spatial_velocity: p_BoBp_B has "
                                         r"shape \(4,\)"):
        plant.calc_jacobian_spatial_velocity(context, KV, frame, np.zeros(4), world, world)


def test_state_writes_of_any_stride_and_from_the_context_itself(panda):
    """set_positions / set_velocities copy strided, reversed and read-only vectors, and a
    vector that is (a view of) the Context's own state, exactly; a wrong size raises
    the general path's error and leaves the state as it was."""
    plant, _ = panda
    nq, nv = plant.num_positions(), plant.num_velocities()
    context = plant.create_default_context()
    q = np.arange(1.0, nq + 1.0) / 10.0
    strided = np.zeros(2 * nq)
    strided[::2] = q
    readonly = q.copy()
    readonly.flags.writeable = False
    for value in (q, strided[::2], q[::-1].copy()[::-1], readonly):
        plant.set_positions(context, np.zeros(nq))
        plant.set_positions(context, value)
        np.testing.assert_array_equal(plant.get_positions(context), q)
    x = context.get_continuous_state_vector()       # read-only view of [q; v]
    v = 100.0 + np.arange(nv)
    plant.set_velocities(context, v)
    plant.set_positions(context, x[:nq])            # the storage itself
    np.testing.assert_array_equal(plant.get_positions(context), q)
    plant.set_positions(context, x[1:nq + 1])       # overlapping the storage, behind q
    q1 = np.append(q[1:], v[0])
    np.testing.assert_array_equal(plant.get_positions(context), q1)
    plant.set_velocities(context, x[nq - 2:nq - 2 + nv])    # overlapping, ahead of v
    np.testing.assert_array_equal(plant.get_velocities(context),
                                  np.concatenate([q1[-2:], v[:nv - 2]]))
    before = plant.get_positions(context)
    with pytest.raises(ValueError, match=rf"set_positions: q has size {nq + 1}, expected "
                                         rf"nq = {nq}"):
        plant.set_positions(context, np.zeros(nq + 1))
    np.testing.assert_array_equal(plant.get_positions(context), before)
    with pytest.raises(TypeError, match=r"set_positions: expected \(context, q\) or "
                                        r"\(context, model_instance, q\), got 1 arguments"):
        plant.set_positions(context)


def test_positions_set_then_poses_of_other_bodies(panda):
    """After each write of q, the poses of bodies not queried before are of that q."""
    plant, bodies = panda
    context = plant.create_default_context()
    for q, body in zip(states(plant, 6, len(bodies)), bodies):
        plant.set_positions(context, q)
        X = plant.eval_body_pose_in_world(context, body)
        np.testing.assert_array_equal(X.get_as_matrix4(), full_pose(plant, q, body))
