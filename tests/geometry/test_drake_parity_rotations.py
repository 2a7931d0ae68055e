"""Drake parity of RotationMatrix and RollPitchYaw (issue 18): ToQuaternion returns a
Quaternion (still read as [w, x, y, z]), MakeUnchecked / IsValid / IsNearlyIdentity /
InvertAndCompose, and RollPitchYaw's rate functions, checked against finite differences
of R(t) = R(rpy(t)) along rpy(t) = rpy0 + ṙpy t + ½ r̈py t²."""

import numpy as np
import pytest

from merganser.geometry import Quaternion, RigidTransform, RollPitchYaw, RotationMatrix

RPY0 = np.array([0.3, -0.4, 1.1])
RPY_DT = np.array([0.7, -1.3, 0.4])
RPY_DDT = np.array([-0.5, 0.9, 1.7])
H = 1e-5


def _R(t):
    return RollPitchYaw(RPY0 + RPY_DT * t + 0.5 * RPY_DDT * t * t).to_rotation_matrix().matrix()


def _w_A(t):
    """w_AD_A from the central difference of R: [w]× = Ṙ Rᵀ."""
    W = (_R(t + H) - _R(t - H)) / (2 * H) @ _R(t).T
    return np.array([W[2, 1], W[0, 2], W[1, 0]])


def test_to_quaternion_is_a_quaternion_read_as_wxyz():
    R = RollPitchYaw(RPY0).to_rotation_matrix()
    for q in (R.to_quaternion(), RollPitchYaw(RPY0).to_quaternion()):
        assert isinstance(q, Quaternion)
        wxyz = q.wxyz()
        assert wxyz[0] >= 0.0 and np.linalg.norm(wxyz) == pytest.approx(1.0, abs=1e-15)
        np.testing.assert_allclose(q.rotation(), R.matrix(), atol=1e-15)
        # the array habits of the former (4,) return value keep working
        np.testing.assert_array_equal(np.asarray(q), wxyz)
        assert q[0] == wxyz[0] and len(q) == 4 and list(q) == wxyz.tolist()
        np.testing.assert_array_equal(q[1:], q.xyz())
        np.testing.assert_array_equal(np.concatenate([q, [1.0, 2.0, 3.0]])[:4], wxyz)
        assert RigidTransform(q, [1.0, 2.0, 3.0]).rotation().is_nearly_equal_to(R, 1e-15)
        assert RollPitchYaw(q).is_nearly_equal_to(RollPitchYaw(RPY0), 1e-14)
    # the 90° rotation about z: q = [cos 45°, 0, 0, sin 45°]
    np.testing.assert_allclose(RotationMatrix.make_z_rotation(np.pi / 2).to_quaternion().wxyz(),
                               [np.sqrt(0.5), 0.0, 0.0, np.sqrt(0.5)], atol=1e-15)


def test_make_unchecked_is_valid_identity_and_invert_and_compose():
    bad = RotationMatrix.make_unchecked(R=2.0 * np.eye(3))   # no check, as Drake's
    np.testing.assert_array_equal(bad.matrix(), 2.0 * np.eye(3))
    assert not bad.is_valid()
    assert not RotationMatrix.make_unchecked(np.full((3, 3), np.inf)).is_valid()
    assert not RotationMatrix.make_unchecked(np.diag([1.0, 1.0, -1.0])).is_valid()  # reflection
    R_AB = RotationMatrix(RollPitchYaw(RPY0))
    assert R_AB.is_valid() and RotationMatrix.make_unchecked(R_AB.matrix()).is_valid()
    with pytest.raises(ValueError, match=r"make_unchecked: R must have shape \(3, 3\)"):
        RotationMatrix.make_unchecked(np.eye(2))
    R_AC = RotationMatrix.make_x_rotation(0.25)
    R_BC = R_AB.invert_and_compose(other=R_AC)
    np.testing.assert_allclose(R_BC.matrix(), R_AB.matrix().T @ R_AC.matrix(), atol=1e-15)
    assert R_AB.invert_and_compose(R_AB).is_nearly_identity()
    assert RotationMatrix().is_nearly_identity(0.0)
    assert not RotationMatrix.make_z_rotation(1e-6).is_nearly_identity()
    assert RotationMatrix.make_z_rotation(1e-6).is_nearly_identity(tolerance=2e-6)
    with pytest.raises(TypeError, match="invert_and_compose: other must be a RotationMatrix"):
        R_AB.invert_and_compose(np.eye(3))


def test_rpy_rates_against_finite_differences():
    rpy = RollPitchYaw(RPY0)
    R = _R(0.0)
    Rdot_fd = (_R(H) - _R(-H)) / (2 * H)
    np.testing.assert_allclose(rpy.calc_rotation_matrix_dt(rpyDt=RPY_DT), Rdot_fd, atol=1e-9)
    w_A = rpy.calc_angular_velocity_in_parent_from_rpy_dt(rpyDt=RPY_DT)
    np.testing.assert_allclose(w_A, _w_A(0.0), atol=1e-9)
    w_D = rpy.calc_angular_velocity_in_child_from_rpy_dt(rpyDt=RPY_DT)
    np.testing.assert_allclose(w_D, R.T @ w_A, atol=1e-14)
    np.testing.assert_allclose(rpy.calc_rpy_dt_from_angular_velocity_in_child(w_AD_D=w_D),
                               RPY_DT, atol=1e-14)
    np.testing.assert_allclose(rpy.calc_rpy_dt_from_angular_velocity_in_parent(w_AD_A=w_A),
                               RPY_DT, atol=1e-14)
    # angular acceleration: α_A = ẇ_A (the derivative of w in A); α_D = Rᵀ α_A (ω × ω = 0)
    alpha_A = (_w_A(H) - _w_A(-H)) / (2 * H)
    np.testing.assert_allclose(
        rpy.calc_rpy_d_dt_from_rpy_dt_and_angular_accel_in_parent(rpyDt=RPY_DT,
                                                                  alpha_AD_A=alpha_A),
        RPY_DDT, atol=2e-5)
    np.testing.assert_allclose(
        rpy.calc_rpy_d_dt_from_angular_accel_in_child(rpyDt=RPY_DT, alpha_AD_D=R.T @ alpha_A),
        RPY_DDT, atol=2e-5)
    # zero rates and accelerations give zeros (Drake's test point)
    zero = RollPitchYaw(0.0, 0.0, 0.0)
    np.testing.assert_array_equal(zero.calc_rotation_matrix_dt([0, 0, 0]), np.zeros((3, 3)))
    np.testing.assert_array_equal(
        zero.calc_rpy_d_dt_from_angular_accel_in_child([0, 0, 0], [0, 0, 0]), np.zeros(3))


def test_rpy_rate_inverses_refuse_gimbal_lock_and_bad_shapes():
    lock = RollPitchYaw(0.2, np.pi / 2, 0.1)
    for call in (lambda: lock.calc_rpy_dt_from_angular_velocity_in_child([1, 0, 0]),
                 lambda: lock.calc_rpy_d_dt_from_rpy_dt_and_angular_accel_in_parent(
                     [0, 0, 0], [1, 0, 0]),
                 lambda: lock.calc_rpy_d_dt_from_angular_accel_in_child([0, 0, 0], [1, 0, 0])):
        with pytest.raises(ValueError, match="gimbal lock"):
            call()
    with pytest.raises(ValueError, match=r"calc_angular_velocity_in_child_from_rpy_dt: rpyDt "
                                         r"must have shape \(3,\), got \(2,\)"):
        lock.calc_angular_velocity_in_child_from_rpy_dt([1.0, 2.0])


def test_rotation_matrix_from_angle_axis():
    from merganser.geometry import AngleAxis

    # 90° about z maps x to y
    for R in (RotationMatrix(AngleAxis(np.pi / 2, [0.0, 0.0, 1.0])),
              RotationMatrix(theta_lambda=AngleAxis(angle=np.pi / 2, axis=[0.0, 0.0, 1.0]))):
        np.testing.assert_allclose(R @ np.array([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0], atol=1e-15)
        assert R.is_nearly_equal_to(RotationMatrix.make_z_rotation(np.pi / 2), 1e-15)
    with pytest.raises(TypeError):
        RotationMatrix(theta_lambda=AngleAxis(0.1, [1.0, 0.0, 0.0]), rpy=RollPitchYaw(0, 0, 0))


def test_row_and_col_take_pydrakes_index_keyword():
    R = RotationMatrix.make_z_rotation(np.pi / 2)     # columns: x_B = y_A, y_B = -x_A
    np.testing.assert_allclose(R.col(index=0), [0.0, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(R.row(index=0), [0.0, -1.0, 0.0], atol=1e-15)
    np.testing.assert_array_equal(R.col(1), R.matrix()[:, 1])


def test_rigid_transform_comparisons_and_invert_and_compose():
    X_AB = RigidTransform(RollPitchYaw(0.3, -0.2, 1.1), [1.0, -2.0, 0.5])
    X_AC = RigidTransform(RollPitchYaw(-0.7, 0.4, 0.2), [0.25, 3.0, -1.0])
    # X_BC = X_AB⁻¹ X_AC, and X_AB X_BC = X_AC
    X_BC = X_AB.invert_and_compose(other=X_AC)
    np.testing.assert_allclose(X_BC.get_as_matrix4(),
                               (X_AB.inverse() @ X_AC).get_as_matrix4(), atol=1e-15)
    np.testing.assert_allclose((X_AB @ X_BC).get_as_matrix4(), X_AC.get_as_matrix4(),
                               atol=1e-15)
    # ‖X_AB - X_AC‖∞ over [R, p]: here the translations differ by 5 in y
    assert X_AB.get_maximum_absolute_difference(other=X_AC) == 5.0
    assert X_AB.get_maximum_absolute_translation_difference(other=X_AC) == 5.0
    shifted = RigidTransform(X_AB.rotation(), X_AB.translation() + [0.0, 0.0, 1e-3])
    assert X_AB.get_maximum_absolute_translation_difference(shifted) == pytest.approx(1e-3)
    diff_R = np.max(np.abs(X_AB.rotation().matrix() - X_AC.rotation().matrix()))
    near = RigidTransform(X_AC.rotation(), X_AB.translation())
    assert X_AB.get_maximum_absolute_difference(near) == diff_R
    assert X_AB.is_nearly_equal_to(other=near, tolerance=diff_R)
    assert not X_AB.is_nearly_equal_to(near, tolerance=0.5 * diff_R)
    assert X_AB.is_exactly_equal_to(other=RigidTransform(X_AB))
    assert not X_AB.is_exactly_equal_to(shifted)
    identity = RigidTransform()
    assert identity.is_nearly_identity(translation_tolerance=0.0)
    assert RigidTransform([0.0, 1e-9, 0.0]).is_nearly_identity(translation_tolerance=1e-8)
    assert not RigidTransform([0.0, 1e-7, 0.0]).is_nearly_identity(translation_tolerance=1e-8)
    assert not RigidTransform(RotationMatrix.make_z_rotation(1e-6)).is_nearly_identity(1.0)
    with pytest.raises(TypeError, match="RigidTransform.invert_and_compose: other must be a "
                                        "RigidTransform, got ndarray"):
        X_AB.invert_and_compose(np.eye(4))


@pytest.mark.parametrize("axis_index", [0, 1, 2])
def test_make_from_one_vector_puts_the_vector_in_the_column_and_completes_the_basis(
        axis_index):
    rng = np.random.default_rng(axis_index)
    for b in [rng.normal(size=3) for _ in range(20)] + [np.array([0.0, 0.0, 3.0]),
                                                         np.array([1.0, -2.0, 0.0])]:
        R = RotationMatrix.make_from_one_vector(b, axis_index).matrix()
        np.testing.assert_allclose(R[:, axis_index], b / np.linalg.norm(b), rtol=1e-15)
        np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-15)
        assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-15)
        # Drake's basis: with i the smallest-magnitude entry of u, the next column has a
        # zero there and the last its largest (positive) entry there
        u = b / np.linalg.norm(b)
        i = int(np.argmin(np.abs(u)))
        v, w = R[:, (axis_index + 1) % 3], R[:, (axis_index + 2) % 3]
        assert v[i] == 0.0
        assert w[i] == pytest.approx(np.sqrt(1.0 - u[i] ** 2), rel=1e-15)
        np.testing.assert_allclose(w, np.cross(u, v), atol=1e-15)
    z = RotationMatrix.make_from_one_vector([0.0, 0.0, 1.0], 2).matrix()
    np.testing.assert_array_equal(z, [[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(
        RotationMatrix.make_from_one_unit_vector([0.0, 0.0, 1.0], 2).matrix(), z)
    with pytest.raises(ValueError, match="magnitude >= 1e-10"):
        RotationMatrix.make_from_one_vector([0.0, 0.0, 1e-12], 0)
    with pytest.raises(ValueError, match="axis_index must be 0, 1 or 2, got 3"):
        RotationMatrix.make_from_one_vector([1.0, 0.0, 0.0], 3)
    with pytest.raises(ValueError, match="must be a unit vector"):
        RotationMatrix.make_from_one_unit_vector([1.0, 1.0, 0.0], 0)


def test_rigid_transform_make_unchecked_takes_a_3x4_pose_without_checks():
    R = RotationMatrix.make_z_rotation(0.3).matrix()
    X = RigidTransform.make_unchecked(np.hstack([R, [[1.0], [2.0], [3.0]]]))
    np.testing.assert_array_equal(X.rotation().matrix(), R)
    np.testing.assert_array_equal(X.translation(), [1.0, 2.0, 3.0])
    skewed = RigidTransform.make_unchecked(np.hstack([2.0 * np.eye(3), np.zeros((3, 1))]))
    assert not skewed.rotation().is_valid()
    with pytest.raises(ValueError, match=r"pose must have shape \(3, 4\), got \(4, 4\)"):
        RigidTransform.make_unchecked(np.eye(4))


def test_copy_constructors_take_pydrakes_other_keyword():
    from merganser.geometry import AngleAxis
    q = Quaternion([0.5, 0.5, 0.5, 0.5])
    np.testing.assert_array_equal(Quaternion(other=q).wxyz(), q.wxyz())
    a = AngleAxis(0.3, [0.0, 0.0, 1.0])
    b = AngleAxis(other=a)
    assert b.angle() == 0.3 and np.array_equal(b.axis(), [0.0, 0.0, 1.0])
    with pytest.raises(TypeError, match="other must be an AngleAxis"):
        AngleAxis(other=q)


def test_to_angle_axis_is_an_angle_axis_and_a_pair():
    from merganser.geometry import AngleAxis
    R = RotationMatrix.make_x_rotation(0.3) @ RotationMatrix.make_y_rotation(0.2)
    aa = R.to_angle_axis()
    assert isinstance(aa, AngleAxis)
    angle, axis = aa                                   # the pair, as before
    assert angle == aa.angle() == aa[0] and np.array_equal(axis, aa.axis())
    np.testing.assert_allclose(RotationMatrix(aa).matrix(), R.matrix(), atol=1e-15)
    np.testing.assert_allclose(aa.rotation(), R.matrix(), atol=1e-15)
    identity = RotationMatrix().to_angle_axis()
    assert identity.angle() == 0.0 and np.array_equal(identity.axis(), [0.0, 0.0, 1.0])
    # a rotation by more than π comes back as its equivalent in [0, π] about -axis
    big = RotationMatrix.make_from_angle_axis(4.0, [0.0, 0.0, 1.0]).to_angle_axis()
    assert big.angle() == pytest.approx(2 * np.pi - 4.0, abs=1e-14)
    np.testing.assert_allclose(big.axis(), [0.0, 0.0, -1.0], atol=1e-14)


def test_shapes_print_their_dimensions_as_drake():
    from merganser.geometry import Box, Capsule, Ellipsoid, Sphere
    assert repr(Box(1.0, 2.0, 0.1)) == "Box(width=1, depth=2, height=0.1)"
    assert repr(Sphere(0.5)) == "Sphere(radius=0.5)"
    assert repr(Capsule(1.0, 2.5)) == "Capsule(radius=1, length=2.5)"
    assert repr(Ellipsoid(1.0, 2.0, 3e-7)) == "Ellipsoid(a=1, b=2, c=3e-07)"
