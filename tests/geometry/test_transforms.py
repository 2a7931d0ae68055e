"""Tests of RotationMatrix, RollPitchYaw, RigidTransform and the quaternion helpers."""

import pickle

import numpy as np
import pytest

from merganser.geometry import (
    RigidTransform,
    RollPitchYaw,
    RotationMatrix,
    quaternion_multiply,
    quaternion_to_rotation_matrix,
    rotation_matrix_to_quaternion,
)

RNG_SEED = 20240601


def random_unit_quaternions(n, rng):
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def random_transform(rng):
    q = random_unit_quaternions(1, rng)[0]
    return RigidTransform(RotationMatrix(q), rng.normal(size=3))


# ---------------------------------------------------------------------- RotationMatrix
def test_elementary_rotations_map_axes_by_right_hand_rule():
    ex, ey, ez = np.eye(3)
    np.testing.assert_allclose(RotationMatrix.make_z_rotation(np.pi / 2) @ ex, ey, atol=1e-15)
    np.testing.assert_allclose(RotationMatrix.make_x_rotation(np.pi / 2) @ ey, ez, atol=1e-15)
    np.testing.assert_allclose(RotationMatrix.make_y_rotation(np.pi / 2) @ ez, ex, atol=1e-15)


def test_rotation_inverse_is_transpose_and_composes_to_identity():
    R = RotationMatrix(RollPitchYaw(0.3, -1.1, 2.5))
    np.testing.assert_array_equal(R.inverse().matrix(), R.matrix().T)
    np.testing.assert_array_equal(R.transpose().matrix(), R.matrix().T)
    assert (R @ R.inverse()).is_identity_to_within_tolerance(4e-16)


def test_rotation_applies_to_single_vectors_and_columns_alike():
    rng = np.random.default_rng(RNG_SEED)
    R = RotationMatrix(random_unit_quaternions(1, rng)[0])
    V = rng.normal(size=(3, 5))
    np.testing.assert_allclose(R @ V, R.matrix() @ V, rtol=0, atol=1e-15)
    np.testing.assert_allclose((R @ V)[:, 2], R @ V[:, 2], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(R.col(1), R.matrix()[:, 1])
    np.testing.assert_array_equal(R.row(2), R.matrix()[2, :])


def test_rotation_is_immutable_and_matrix_returns_a_copy():
    R = RotationMatrix.make_x_rotation(0.4)
    M = R.matrix()
    M[0, 0] = 7.0
    assert R.matrix()[0, 0] == 1.0
    with pytest.raises(ValueError):
        R._R[0, 0] = 7.0


def test_rotation_rejects_non_orthonormal_matrix_naming_the_error():
    with pytest.raises(ValueError, match=r"not orthonormal: max \|R Rᵀ - I\| = 0\.02"):
        RotationMatrix(np.diag([1.01, 1.0, 1.0]))


def test_rotation_rejects_reflection_naming_the_determinant():
    with pytest.raises(ValueError, match="determinant -1, expected \\+1"):
        RotationMatrix(np.diag([1.0, 1.0, -1.0]))


def test_rotation_rejects_wrong_shape_and_nan():
    with pytest.raises(ValueError, match=r"got an array of shape \(2, 2\)"):
        RotationMatrix(np.eye(2))
    with pytest.raises(ValueError, match="must be finite"):
        RotationMatrix(np.full((3, 3), np.nan))
    with pytest.raises(TypeError, match="got str"):
        RotationMatrix("identity")


def test_rotation_accepts_roundoff_within_128_eps():
    R = RotationMatrix.make_z_rotation(0.7).matrix()
    R[0, 0] += 5e-15
    np.testing.assert_array_equal(RotationMatrix(R).matrix(), R)
    R[0, 0] += 1e-12
    with pytest.raises(ValueError, match="not orthonormal"):
        RotationMatrix(R)


def test_project_to_rotation_matrix_recovers_a_perturbed_rotation():
    R = RotationMatrix(RollPitchYaw(0.1, 0.2, 0.3))
    projected = RotationMatrix.project_to_rotation_matrix(R.matrix() * 1.001 + 1e-6)
    assert projected.is_nearly_equal_to(R, 2e-6)
    with pytest.raises(ValueError, match="determinant"):
        RotationMatrix.project_to_rotation_matrix(-np.eye(3))


def test_angle_axis_round_trip():
    axis = np.array([1.0, -2.0, 2.0]) / 3.0
    R = RotationMatrix.make_from_angle_axis(2.0, axis)
    angle, axis_out = R.to_angle_axis()
    assert angle == pytest.approx(2.0, abs=1e-14)
    np.testing.assert_allclose(axis_out, axis, atol=1e-14)
    np.testing.assert_allclose(R @ axis, axis, atol=1e-15)  # the axis is fixed
    assert RotationMatrix().to_angle_axis()[0] == 0.0


# ---------------------------------------------------------------------- quaternions
def test_quaternion_of_z_rotation_is_half_angle():
    theta = 0.9
    q = np.array([np.cos(theta / 2), 0.0, 0.0, np.sin(theta / 2)])
    R = RotationMatrix(q)
    assert R.is_nearly_equal_to(RotationMatrix.make_z_rotation(theta), 1e-15)
    np.testing.assert_allclose(R.to_quaternion(), q, atol=1e-15)


def test_quaternion_round_trip_is_canonical_with_nonnegative_w():
    rng = np.random.default_rng(RNG_SEED)
    for q in random_unit_quaternions(200, rng):
        q_out = RotationMatrix(q).to_quaternion()
        assert q_out[0] >= 0.0
        np.testing.assert_allclose(q_out, np.sign(q[0]) * q, atol=5e-15)


def test_negated_quaternion_gives_the_same_rotation():
    q = np.array([-0.5, 0.5, -0.5, 0.5])  # w < 0
    R_neg, R_pos = RotationMatrix(q), RotationMatrix(-q)
    assert R_neg.is_nearly_equal_to(R_pos, 0.0)
    np.testing.assert_allclose(R_neg.to_quaternion(), -q, atol=1e-15)


@pytest.mark.parametrize("axis", range(3))
def test_half_turn_quaternions_use_the_diagonal_pivots(axis):
    R = [RotationMatrix.make_x_rotation, RotationMatrix.make_y_rotation,
         RotationMatrix.make_z_rotation][axis](np.pi)
    expected = np.zeros(4)
    expected[1 + axis] = 1.0
    q = R.to_quaternion()
    np.testing.assert_allclose(np.abs(q), expected, atol=1e-15)  # sign of a w = 0 turn is free
    assert RotationMatrix(q).is_nearly_equal_to(R, 1e-15)


def test_non_unit_quaternion_is_normalized_and_zero_quaternion_raises():
    assert RotationMatrix([2.0, 0.0, 0.0, 0.0]).is_exactly_identity()
    R = RotationMatrix([3.0, 0.0, 0.0, 3.0])  # 90 degrees about z, norm 3 sqrt(2)
    assert R.is_nearly_equal_to(RotationMatrix.make_z_rotation(np.pi / 2), 1e-15)
    with pytest.raises(ValueError, match="non-zero quaternion"):
        RotationMatrix([0.0, 0.0, 0.0, 0.0])


def test_quaternion_product_composes_like_rotation_matrices():
    rng = np.random.default_rng(RNG_SEED)
    q1, q2 = random_unit_quaternions(2, rng)
    np.testing.assert_allclose(
        quaternion_to_rotation_matrix(quaternion_multiply(q1, q2)),
        quaternion_to_rotation_matrix(q1) @ quaternion_to_rotation_matrix(q2),
        atol=1e-15,
    )
    np.testing.assert_allclose(
        rotation_matrix_to_quaternion(RotationMatrix(q1).matrix()), np.sign(q1[0]) * q1,
        atol=1e-15,
    )


# ---------------------------------------------------------------------- RollPitchYaw
def test_rpy_matrix_is_extrinsic_xyz_product():
    r, p, y = 0.3, -0.7, 2.2
    expected = (
        RotationMatrix.make_z_rotation(y)
        @ RotationMatrix.make_y_rotation(p)
        @ RotationMatrix.make_x_rotation(r)
    )
    assert RollPitchYaw(r, p, y).to_rotation_matrix().is_nearly_equal_to(expected, 1e-15)
    assert RotationMatrix(RollPitchYaw([r, p, y])).is_nearly_equal_to(expected, 1e-15)


def test_rpy_accessors():
    rpy = RollPitchYaw(0.1, 0.2, 0.3)
    assert (rpy.roll_angle(), rpy.pitch_angle(), rpy.yaw_angle()) == (0.1, 0.2, 0.3)
    np.testing.assert_array_equal(rpy.vector(), [0.1, 0.2, 0.3])


def test_rpy_round_trip_through_rotation_matrix_and_quaternion():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(200):
        angles = rng.uniform([-np.pi, -np.pi / 2, -np.pi], [np.pi, np.pi / 2, np.pi])
        rpy = RollPitchYaw(angles)
        np.testing.assert_allclose(RollPitchYaw(rpy.to_rotation_matrix()).vector(), angles,
                                   atol=1e-12)
        np.testing.assert_allclose(RollPitchYaw(rpy.to_quaternion()).vector(), angles,
                                   atol=1e-12)


def test_rpy_from_matrix_is_in_the_principal_range():
    # pitch beyond pi/2 is re-expressed with pitch in [-pi/2, pi/2].
    R = RollPitchYaw(0.2, 2.0, 0.1).to_rotation_matrix()
    rpy = RollPitchYaw(R)
    assert -np.pi / 2 <= rpy.pitch_angle() <= np.pi / 2
    assert rpy.pitch_angle() == pytest.approx(np.pi - 2.0, abs=1e-14)
    assert rpy.to_rotation_matrix().is_nearly_equal_to(R, 1e-15)


@pytest.mark.parametrize("pitch", [np.pi / 2, -np.pi / 2, np.pi / 2 - 1e-9, -np.pi / 2 + 3e-12])
def test_rpy_from_matrix_reproduces_matrix_at_gimbal_lock(pitch):
    R = RollPitchYaw(0.4, pitch, -1.3).to_rotation_matrix()
    rpy = RollPitchYaw(R)
    assert rpy.to_rotation_matrix().is_nearly_equal_to(R, 4e-16)
    assert rpy.pitch_angle() == pytest.approx(pitch, abs=1e-8)
    if abs(pitch) == np.pi / 2:
        # Only roll - yaw (pitch = +pi/2) or roll + yaw (pitch = -pi/2) is determined.
        s = np.sign(pitch)
        combo = rpy.roll_angle() - s * rpy.yaw_angle()
        assert np.cos(combo - (0.4 + s * 1.3)) == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("tilt", [0.0, 1e-13, 1e-9])
def test_rpy_from_matrix_is_robust_to_roundoff_near_gimbal_lock(tilt):
    # Ry(pi/2) with exact zeros, then a tiny rotation: the entries that fix roll and yaw
    # separately are pure roundoff-sized noise, so a naive atan2 of them is meaningless.
    Ry_exact = RotationMatrix(np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]))
    tiny = RotationMatrix.make_from_angle_axis(tilt, np.array([2.0, -1.0, 2.0]) / 3.0)
    R = (RotationMatrix.make_z_rotation(-1.3) @ Ry_exact @ RotationMatrix.make_x_rotation(0.4)
         @ tiny)
    assert RollPitchYaw(R).to_rotation_matrix().is_nearly_equal_to(R, 1e-15)


def test_rpy_rates_match_finite_difference_of_rotation():
    rpy0, rpy_dot = np.array([0.3, -0.4, 1.2]), np.array([0.7, -0.2, 0.5])
    h = 1e-6
    R_plus = RollPitchYaw(rpy0 + h * rpy_dot).to_rotation_matrix().matrix()
    R_minus = RollPitchYaw(rpy0 - h * rpy_dot).to_rotation_matrix().matrix()
    R = RollPitchYaw(rpy0).to_rotation_matrix().matrix()
    w_skew = (R_plus - R_minus) / (2 * h) @ R.T  # [w]x = Rdot R^T
    w_expected = np.array([w_skew[2, 1], w_skew[0, 2], w_skew[1, 0]])
    w = RollPitchYaw(rpy0).calc_angular_velocity_in_parent_from_rpy_dt(rpy_dot)
    np.testing.assert_allclose(w, w_expected, atol=1e-9)
    np.testing.assert_allclose(
        RollPitchYaw(rpy0).calc_rpy_dt_from_angular_velocity_in_parent(w), rpy_dot, atol=1e-14
    )
    with pytest.raises(ValueError, match="gimbal lock"):
        RollPitchYaw(0, np.pi / 2, 0).calc_rpy_dt_from_angular_velocity_in_parent(w)


def test_rpy_rejects_bad_input():
    with pytest.raises(ValueError, match="give all three angles"):
        RollPitchYaw(0.1, 0.2)
    with pytest.raises(ValueError, match=r"got shape \(2,\)"):
        RollPitchYaw([0.1, 0.2])
    with pytest.raises(ValueError, match="finite"):
        RollPitchYaw(0.0, np.nan, 0.0)


# ---------------------------------------------------------------------- RigidTransform
def test_transform_constructors():
    p = np.array([1.0, 2.0, 3.0])
    R = RotationMatrix.make_y_rotation(0.5)
    X = RigidTransform(R, p)
    assert RigidTransform().is_exactly_identity()
    np.testing.assert_array_equal(RigidTransform(p).translation(), p)
    assert RigidTransform(p).rotation().is_exactly_identity()
    assert RigidTransform(RollPitchYaw(0, 0.5, 0), p).is_nearly_equal_to(X, 1e-15)
    assert RigidTransform(X.get_as_matrix4()).is_nearly_equal_to(X, 0.0)
    assert RigidTransform(R.to_quaternion(), p).is_nearly_equal_to(X, 1e-15)
    assert RigidTransform(R.matrix(), p).is_nearly_equal_to(X, 0.0)
    assert RigidTransform(p=p).is_nearly_equal_to(RigidTransform(p), 0.0)


def test_transform_inverse_closed_form():
    X_AB = RigidTransform(RotationMatrix.make_z_rotation(np.pi / 2), [1.0, 0.0, 0.0])
    X_BA = X_AB.inverse()
    np.testing.assert_allclose(X_BA.translation(), [0.0, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(X_BA @ np.array([1.0, 0.0, 0.0]), [0.0, 0.0, 0.0], atol=1e-15)


def test_transform_times_inverse_is_identity():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(20):
        X = random_transform(rng)
        assert (X @ X.inverse()).is_nearly_equal_to(RigidTransform(), 1e-14)
        assert (X.inverse() @ X).is_nearly_equal_to(RigidTransform(), 1e-14)


def test_transform_composition_matches_4x4_products_and_is_associative():
    rng = np.random.default_rng(RNG_SEED)
    X_AB, X_BC, X_CD = (random_transform(rng) for _ in range(3))
    np.testing.assert_allclose(
        (X_AB @ X_BC).get_as_matrix4(), X_AB.get_as_matrix4() @ X_BC.get_as_matrix4(),
        atol=1e-14,
    )
    assert ((X_AB @ X_BC) @ X_CD).is_nearly_equal_to(X_AB @ (X_BC @ X_CD), 1e-14)


def test_transform_maps_points_like_homogeneous_matrix():
    rng = np.random.default_rng(RNG_SEED)
    X = random_transform(rng)
    p_BQ = rng.normal(size=(3, 4))
    homogeneous = X.get_as_matrix4() @ np.vstack([p_BQ, np.ones(4)])
    np.testing.assert_allclose(X @ p_BQ, homogeneous[:3], atol=1e-14)
    np.testing.assert_allclose(X @ p_BQ[:, 1], homogeneous[:3, 1], atol=1e-14)
    with pytest.raises(ValueError, match=r"p must have shape \(3,\) or \(3, n\)"):
        X @ np.zeros(4)


def test_transform_rejects_bad_input():
    with pytest.raises(ValueError, match="bottom row"):
        RigidTransform(np.ones((4, 4)))
    with pytest.raises(ValueError, match=r"p must have shape \(3,\), got shape \(2,\)"):
        RigidTransform(RotationMatrix(), [1.0, 2.0])
    with pytest.raises(ValueError, match="not orthonormal"):
        RigidTransform(2 * np.eye(3), [0.0, 0.0, 0.0])


def test_transform_pickle_and_repr_round_trip():
    X = random_transform(np.random.default_rng(RNG_SEED))
    X_pickled = pickle.loads(pickle.dumps(X))
    np.testing.assert_array_equal(X_pickled.get_as_matrix4(), X.get_as_matrix4())
    X_repr = eval(repr(X), {"RigidTransform": RigidTransform, "RotationMatrix": RotationMatrix})
    np.testing.assert_array_equal(X_repr.get_as_matrix4(), X.get_as_matrix4())
    rpy = RollPitchYaw(0.1, 0.2, 0.3)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(rpy)).vector(), rpy.vector())
    # pydrake's printed form, row by row
    assert repr(RigidTransform([1.0, 2.0, 3.0])) == (
        "RigidTransform(\n  R=RotationMatrix([\n    [1.0, 0.0, 0.0],\n    [0.0, 1.0, 0.0],\n"
        "    [0.0, 0.0, 1.0],\n  ]),\n  p=[1.0, 2.0, 3.0],\n)")
