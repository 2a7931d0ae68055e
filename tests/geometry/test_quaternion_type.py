"""merganser.geometry's Quaternion value and quaternion kinematics (Drake's
math/quaternion.h)."""

import math

import numpy as np
import pytest

from merganser.framework import RandomGenerator
from merganser.geometry import (AngleAxis, Quaternion, RollPitchYaw, RotationMatrix,
                                are_quaternions_equal_for_orientation,
                                calculate_angular_velocity_expressed_in_b_from_quaternion_dt,
                                calculate_quaternion_dt_constraint_violation,
                                calculate_quaternion_dt_from_angular_velocity_expressed_in_b,
                                closest_quaternion, is_both_quaternion_and_quaternion_dt_ok,
                                is_quaternion_in_canonical_form, is_quaternion_valid,
                                quaternion_to_canonical_form, uniformly_random_angle_axis,
                                uniformly_random_quaternion, uniformly_random_rotation_matrix,
                                uniformly_random_rpy)

c, s = math.cos(0.3), math.sin(0.3)     # rotation by 0.6 rad about z


def test_quaternion_value():
    q = Quaternion()
    np.testing.assert_array_equal(q.wxyz(), [1, 0, 0, 0])
    qz = Quaternion(c, 0.0, 0.0, s)
    assert (qz.w(), qz.x(), qz.y(), qz.z()) == (c, 0.0, 0.0, s)
    np.testing.assert_allclose(qz.rotation(), RotationMatrix.make_z_rotation(0.6).matrix(),
                               atol=1e-15)
    np.testing.assert_allclose(Quaternion(rotation=qz.rotation()).wxyz(), qz.wxyz(),
                               atol=1e-15)
    np.testing.assert_allclose((qz @ qz).wxyz(), [math.cos(0.6), 0, 0, math.sin(0.6)],
                               atol=1e-15)
    np.testing.assert_allclose((qz @ qz.inverse()).wxyz(), [1, 0, 0, 0], atol=1e-15)
    np.testing.assert_allclose(qz.multiply([1.0, 0.0, 0.0]), [math.cos(0.6), math.sin(0.6), 0],
                               atol=1e-15)
    with pytest.raises(RuntimeError, match="unit quaternion"):
        Quaternion([1.0, 1.0, 0.0, 0.0])


def test_canonical_forms_and_closest():
    q = Quaternion([-c, 0.0, 0.0, -s])            # the same orientation as [c, 0, 0, s]
    assert not is_quaternion_in_canonical_form(q)
    np.testing.assert_array_equal(quaternion_to_canonical_form(q).wxyz(), [c, 0, 0, s])
    assert are_quaternions_equal_for_orientation(q, Quaternion([c, 0, 0, s]), 1e-15)
    assert not are_quaternions_equal_for_orientation(q, Quaternion(), 1e-3)
    np.testing.assert_array_equal(closest_quaternion(Quaternion(), q).wxyz(), [c, 0, 0, s])
    np.testing.assert_array_equal(closest_quaternion(q, q).wxyz(), q.wxyz())


def test_quaternion_rate_round_trip():
    q = Quaternion([c, 0.0, 0.0, s])
    w = np.array([0.0, 0.0, 2.0])                 # spin about the common z axis
    qdot = calculate_quaternion_dt_from_angular_velocity_expressed_in_b(q, w)
    # d/dt [cos(θ/2), 0, 0, sin(θ/2)] with θ̇ = 2: [-sin(θ/2), 0, 0, cos(θ/2)].
    np.testing.assert_allclose(qdot, [-s, 0, 0, c], atol=1e-15)
    w_general = np.array([0.4, -1.1, 0.7])
    qdot_general = calculate_quaternion_dt_from_angular_velocity_expressed_in_b(q, w_general)
    np.testing.assert_allclose(
        calculate_angular_velocity_expressed_in_b_from_quaternion_dt(q, qdot_general),
        w_general, atol=1e-14)
    assert calculate_quaternion_dt_constraint_violation(q, qdot_general) == pytest.approx(
        0.0, abs=1e-15)
    assert calculate_quaternion_dt_constraint_violation(q, q.wxyz()) == pytest.approx(2.0)
    assert is_quaternion_valid(q, 1e-12)
    assert is_both_quaternion_and_quaternion_dt_ok(q, qdot_general, 1e-12)
    assert not is_both_quaternion_and_quaternion_dt_ok(q, q.wxyz(), 1e-3)


def test_rotation_keyword_constructors():
    qz = Quaternion([c, 0.0, 0.0, s])
    Rz = RotationMatrix.make_z_rotation(0.6)
    for R in (RotationMatrix(quaternion=qz), RotationMatrix(qz), RotationMatrix(other=Rz),
              RotationMatrix(matrix=Rz.matrix()), RotationMatrix(rpy=RollPitchYaw(0, 0, 0.6))):
        np.testing.assert_allclose(R.matrix(), Rz.matrix(), atol=1e-15)
    for rpy in (RollPitchYaw(rpy=[0.0, 0.0, 0.6]), RollPitchYaw(quaternion=qz),
                RollPitchYaw(R=Rz), RollPitchYaw(matrix=Rz.matrix()),
                RollPitchYaw(other=RollPitchYaw(0.0, 0.0, 0.6)),
                RollPitchYaw(roll=0.0, pitch=0.0, yaw=0.6)):
        np.testing.assert_allclose(rpy.vector(), [0.0, 0.0, 0.6], atol=1e-15)
    with pytest.raises(TypeError, match="RotationMatrix: expected one of"):
        RotationMatrix(Rz, other=Rz)
    with pytest.raises(TypeError, match="RollPitchYaw"):
        RollPitchYaw()


def test_angle_axis_value():
    aa = AngleAxis(0.6, [0.0, 0.0, 1.0])
    np.testing.assert_allclose(aa.rotation(), RotationMatrix.make_z_rotation(0.6).matrix(),
                               atol=1e-15)
    np.testing.assert_allclose(aa.quaternion().wxyz(), [c, 0, 0, s], atol=1e-15)
    back = AngleAxis(quaternion=Quaternion([c, 0, 0, s]))
    assert back.angle() == pytest.approx(0.6) and np.allclose(back.axis(), [0, 0, 1])
    assert (aa @ aa).angle() == pytest.approx(1.2)
    assert (aa @ aa.inverse()).angle() == pytest.approx(0.0, abs=1e-15)
    assert AngleAxis.identity().angle() == 0.0
    with pytest.raises(RuntimeError, match="unit vector"):
        AngleAxis(0.1, [1.0, 1.0, 0.0])


def test_uniformly_random_rotations():
    g = RandomGenerator(7)
    qs = np.array([uniformly_random_quaternion(g).wxyz() for _ in range(4000)])
    np.testing.assert_allclose(np.linalg.norm(qs, axis=1), 1.0, atol=1e-14)
    # Uniform on S³: E[q qᵀ] = I/4 (within ~4 standard errors of 4000 samples).
    np.testing.assert_allclose(qs.T @ qs / len(qs), np.eye(4) / 4, atol=0.02)
    R = uniformly_random_rotation_matrix(g).matrix()
    np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-14)
    assert 0.0 <= uniformly_random_angle_axis(g).angle() <= math.pi
    assert uniformly_random_rpy(g).shape == (3,)
    # The same seed gives the same draws.
    np.testing.assert_array_equal(uniformly_random_quaternion(RandomGenerator(3)).wxyz(),
                                  uniformly_random_quaternion(RandomGenerator(3)).wxyz())


def test_to_quaternion_is_the_wxyz_array_with_quaternion_methods():
    # API.md: RotationMatrix.to_quaternion() -> [w, x, y, z]; pydrake: a Quaternion
    q = RotationMatrix.make_z_rotation(0.6).to_quaternion()
    assert isinstance(q, np.ndarray) and isinstance(q, Quaternion)
    assert q.shape == (4,) and q.dtype == np.float64
    np.testing.assert_allclose(q, [c, 0.0, 0.0, s], atol=1e-15)
    assert (q.w(), q.z()) == (q[0], q[3])
    # arithmetic and slices are plain arrays (not unit quaternions)
    for value in (-q, 2.0 * q, q - [1.0, 0.0, 0.0, 0.0], q[1:], np.abs(q)):
        assert type(value) is np.ndarray
    np.testing.assert_allclose(-q, [-c, 0.0, 0.0, -s], atol=1e-15)
    assert float(q.dot(q)) == pytest.approx(1.0, abs=1e-15)
    w, x, y, z = q
    assert (w, x, y, z) == (q.w(), q.x(), q.y(), q.z())
    np.testing.assert_allclose((w, x, y, z), (c, 0.0, 0.0, s), atol=1e-15)
    # @ and conjugate are the quaternion's (pydrake)
    np.testing.assert_allclose(q @ q, [math.cos(0.6), 0, 0, math.sin(0.6)], atol=1e-15)
    np.testing.assert_allclose(q.conjugate(), [c, 0.0, 0.0, -s], atol=1e-15)
    import pickle
    back = pickle.loads(pickle.dumps(q))
    assert isinstance(back, Quaternion)
    np.testing.assert_array_equal(back, q)
