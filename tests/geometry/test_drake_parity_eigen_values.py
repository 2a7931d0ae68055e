"""Drake parity of the Eigen value types: Isometry3, AngleAxis setters, Quaternion
overloads, and cast[float]() on the pose and rotation values (pydrake's eigen_geometry
and math bindings: only rigid transforms are admitted, to 1e-5; violations raise
RuntimeError)."""

import copy
import pickle

import numpy as np
import pytest

from merganser.geometry import (AngleAxis, Isometry3, Isometry3_, Quaternion, RigidTransform,
                                RollPitchYaw, RotationMatrix)

R_AB = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])   # 90° about -z
p_AB = np.array([1.0, 2.0, 3.0])


def _X_AB():
    X = np.eye(4)
    X[:3, :3], X[:3, 3] = R_AB, p_AB
    return X


def test_isometry3_constructors_and_accessors():
    np.testing.assert_array_equal(Isometry3().matrix(), np.eye(4))
    np.testing.assert_array_equal(Isometry3.identity().matrix(), np.eye(4))
    X = Isometry3(rotation=R_AB, translation=p_AB)
    np.testing.assert_array_equal(X.matrix(), _X_AB())
    np.testing.assert_array_equal(X.rotation(), R_AB)
    np.testing.assert_array_equal(X.translation(), p_AB)
    np.testing.assert_array_equal(Isometry3(matrix=_X_AB()).matrix(), _X_AB())
    np.testing.assert_array_equal(Isometry3(other=X).matrix(), _X_AB())
    assert Isometry3_[float] is Isometry3
    assert str(Isometry3()) == str(np.eye(4))


def test_isometry3_setters_check_and_keep_the_value_on_error():
    X = Isometry3()
    X.set_translation(p_AB)
    X.set_rotation(R_AB)
    np.testing.assert_array_equal(X.matrix(), _X_AB())
    R_bad = R_AB.copy()
    R_bad[0, 0] = 10.0
    with pytest.raises(RuntimeError, match="Isometry3.set_rotation"):
        X.set_rotation(R_bad)
    np.testing.assert_array_equal(X.rotation(), R_AB)
    M_bad = np.eye(4)
    M_bad[:3, :3] = R_bad
    with pytest.raises(RuntimeError, match="Isometry3.set_matrix"):
        X.set_matrix(M_bad)
    M_bottom = np.eye(4)
    M_bottom[3, 0] = 0.5
    with pytest.raises(RuntimeError, match="bottom row"):
        Isometry3(matrix=M_bottom)
    np.testing.assert_array_equal(X.matrix(), _X_AB())


def test_isometry3_operations():
    X = Isometry3(rotation=R_AB, translation=p_AB)
    np.testing.assert_allclose(X.inverse().multiply(X).matrix(), np.eye(4), atol=1e-15)
    np.testing.assert_allclose((X.inverse() @ X).matrix(), np.eye(4), atol=1e-15)
    # p_AQ = R_AB p_BQ + p_AB = [20, -10, 30] + [1, 2, 3]
    np.testing.assert_allclose(X.multiply(position=[10, 20, 30]), [21.0, -8.0, 33.0])
    cols = np.array([[10, 20, 30], [0, 0, 0]], dtype=float).T
    np.testing.assert_allclose(X.multiply(position=cols), [[21.0, 1.0], [-8.0, 2.0],
                                                           [33.0, 3.0]])
    np.testing.assert_array_equal(copy.copy(X).matrix(), _X_AB())
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(X)).matrix(), _X_AB())
    q = X.quaternion()
    np.testing.assert_allclose(Quaternion(rotation=R_AB).wxyz(), q.wxyz())


def test_rigid_transform_converts_to_and_from_isometry3():
    X = RigidTransform(pose=Isometry3(rotation=R_AB, translation=p_AB))
    np.testing.assert_array_equal(X.get_as_matrix4(), _X_AB())
    np.testing.assert_array_equal(RigidTransform(Isometry3(matrix=_X_AB())).translation(), p_AB)
    iso = X.get_as_isometry3()
    assert isinstance(iso, Isometry3)
    np.testing.assert_array_equal(iso.matrix(), _X_AB())


def test_angle_axis_setters():
    a = AngleAxis(AngleAxis())                 # copy, positionally
    a.set_angle(np.pi / 4)
    v = np.array([0.1, 0.2, 0.3]) / np.linalg.norm([0.1, 0.2, 0.3])
    with pytest.raises(RuntimeError, match="AngleAxis.set_axis"):
        a.set_axis([0.1, 0.2, 0.3])
    a.set_axis(v)
    assert a.angle() == np.pi / 4
    np.testing.assert_array_equal(a.axis(), v)
    a.set_rotation(np.eye(3))
    np.testing.assert_allclose(a.rotation(), np.eye(3), atol=1e-15)
    a.set_quaternion(Quaternion(wxyz=[np.cos(0.25), 0.0, 0.0, np.sin(0.25)]))
    assert a.angle() == pytest.approx(0.5)
    np.testing.assert_allclose(a.axis(), [0.0, 0.0, 1.0])


def test_quaternion_overloads_and_rotation_check():
    q = Quaternion(R_AB)                       # pydrake's Quaternion(rotation)
    np.testing.assert_allclose(q.rotation(), R_AB, atol=1e-15)
    q.set_wxyz(w=0.5, x=0.5, y=0.5, z=0.5)
    np.testing.assert_array_equal(q.wxyz(), [0.5, 0.5, 0.5, 0.5])
    # 120° about [1, 1, 1]/√3 maps x -> y -> z -> x.
    np.testing.assert_allclose(q.multiply(vector=[1.0, 2.0, 3.0]), [3.0, 1.0, 2.0])
    cols = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]).T
    np.testing.assert_allclose(q.multiply(vector=cols), [[3.0, 3.0], [1.0, 1.0], [2.0, 2.0]])
    assert (q @ np.zeros((3, 1))).shape == (3, 1)
    R_bad = R_AB.copy()
    R_bad[0, 0] = 10.0
    with pytest.raises(RuntimeError, match="Quaternion.set_rotation"):
        q.set_rotation(R_bad)
    np.testing.assert_array_equal(q.wxyz(), [0.5, 0.5, 0.5, 0.5])


@pytest.mark.parametrize("value", [
    Quaternion(wxyz=[0.5, 0.5, 0.5, 0.5]), AngleAxis(0.3, [0.0, 1.0, 0.0]),
    RotationMatrix.make_z_rotation(0.2), RollPitchYaw(0.1, 0.2, 0.3),
    RigidTransform(p=[1.0, 2.0, 3.0]), Isometry3(rotation=R_AB, translation=p_AB)],
    ids=lambda v: type(v).__name__)
def test_cast_float_is_a_copy_and_other_scalars_raise(value):
    other = value.cast[float]()
    assert type(other) is type(value) and other is not value
    assert repr(other) == repr(value)
    with pytest.raises(RuntimeError, match=r"cast\[AutoDiffXd\].*float64 only"):
        value.cast[type("AutoDiffXd", (), {})]


def test_quaternion_slerp_follows_the_shorter_arc():
    q0 = Quaternion()
    half = np.pi / 4                            # q1: 90° about z
    q1 = Quaternion(wxyz=[np.cos(half), 0.0, 0.0, np.sin(half)])
    np.testing.assert_array_equal(q0.slerp(t=0, other=q0).wxyz(), [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(q0.slerp(0.0, q1).wxyz(), q0.wxyz(), atol=1e-15)
    np.testing.assert_allclose(q0.slerp(1.0, q1).wxyz(), q1.wxyz(), atol=1e-15)
    # halfway: 45° about z
    np.testing.assert_allclose(q0.slerp(0.5, q1).wxyz(),
                               [np.cos(np.pi / 8), 0.0, 0.0, np.sin(np.pi / 8)], atol=1e-15)
    # -q1 is the same rotation: the interpolation still takes the 45° path.
    q1_neg = Quaternion(wxyz=-q1.wxyz())
    np.testing.assert_allclose(q0.slerp(0.5, q1_neg).wxyz(),
                               [np.cos(np.pi / 8), 0.0, 0.0, np.sin(np.pi / 8)], atol=1e-15)


def test_rigid_transform_copy_constructor_keyword():
    X = RigidTransform(RotationMatrix(R_AB), p_AB)
    assert RigidTransform(other=X).is_exactly_equal_to(X)
    with pytest.raises(TypeError, match="RigidTransform: argument other"):
        RigidTransform(other=Isometry3())


def test_rigid_transform_pydrake_rotation_and_pose_keywords():
    p = [0.5, -1.0, 2.0]
    R = RotationMatrix.make_z_rotation(0.7)
    expected = RigidTransform(R, p).get_as_matrix4()
    np.testing.assert_allclose(RigidTransform(rpy=RollPitchYaw(0.0, 0.0, 0.7), p=p)
                               .get_as_matrix4(), expected, atol=1e-15)
    np.testing.assert_allclose(RigidTransform(quaternion=R.to_quaternion(), p=p)
                               .get_as_matrix4(), expected, atol=1e-15)
    np.testing.assert_allclose(RigidTransform(theta_lambda=AngleAxis(0.7, [0.0, 0.0, 1.0]),
                                              p=p).get_as_matrix4(), expected, atol=1e-15)
    np.testing.assert_array_equal(RigidTransform(pose=expected[:3]).get_as_matrix4(), expected)
    np.testing.assert_array_equal(RigidTransform(pose=expected).get_as_matrix4(), expected)
    np.testing.assert_array_equal(RigidTransform(pose=np.array(p)).translation(), p)
    with pytest.raises(TypeError, match="give one rotation, got R, rpy"):
        RigidTransform(R, rpy=RollPitchYaw(0.0, 0.0, 0.7))
