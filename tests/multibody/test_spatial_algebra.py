"""Tests of the spatial vectors, rotational / unit / spatial inertias and their validity."""

import pickle
import warnings

import numpy as np
import pytest

from merganser.geometry import RollPitchYaw, RotationMatrix
from merganser.multibody.math import (
    InertiaValidityWarning,
    RotationalInertia,
    SpatialAcceleration,
    SpatialForce,
    SpatialInertia,
    SpatialMomentum,
    SpatialVelocity,
    UnitInertia,
    check_spatial_inertia,
)

RNG_SEED = 7
# The example of a physically questionable (triangle-inequality-violating) central inertia.
TRIANGLE_VIOLATING_I = np.array([[1.0, 0.001, 0.002], [0.001, 0.01, 0.003], [0.002, 0.003, 0.01]])


def random_rotation(rng):
    q = rng.normal(size=4)
    return RotationMatrix(q / np.linalg.norm(q))


def random_spatial_inertia(rng):
    """A valid spatial inertia about a point P away from the center of mass."""
    box = SpatialInertia.solid_box_with_mass(rng.uniform(0.5, 3), *rng.uniform(0.1, 1, size=3))
    return box.re_express(random_rotation(rng)).shift(rng.normal(size=3))


def skew(c):
    return np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])


# ---------------------------------------------------------------------- spatial vectors
def test_spatial_vector_construction_and_coefficient_order():
    V = SpatialVelocity([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(V.get_coeffs(), [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(V.rotational(), [1, 2, 3])
    np.testing.assert_array_equal(V.translational(), [4, 5, 6])
    np.testing.assert_array_equal(SpatialVelocity(np.arange(6.0)).get_coeffs(), np.arange(6.0))
    np.testing.assert_array_equal(SpatialForce(tau=[1, 0, 0], f=[0, 0, 2]).get_coeffs(),
                                  [1, 0, 0, 0, 0, 2])
    # Default construction is NaN, as in Drake; zero() is the zero vector.
    assert np.isnan(SpatialAcceleration().get_coeffs()).all()
    np.testing.assert_array_equal(SpatialAcceleration.zero().get_coeffs(), np.zeros(6))
    coeffs = V.get_coeffs()
    coeffs[0] = 99.0
    assert V.rotational()[0] == 1.0  # a copy, the object is immutable
    with pytest.raises(ValueError, match=r"v must have shape \(3,\), got shape \(2,\)"):
        SpatialVelocity([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"one vector of shape \(6,\), got shape \(5,\)"):
        SpatialForce(np.zeros(5))


def test_spatial_vector_arithmetic():
    A = SpatialAcceleration(np.arange(6.0))
    B = SpatialAcceleration(np.ones(6))
    np.testing.assert_array_equal((A + B).get_coeffs(), np.arange(6.0) + 1)
    np.testing.assert_array_equal((A - B).get_coeffs(), np.arange(6.0) - 1)
    np.testing.assert_array_equal((2 * A).get_coeffs(), 2 * np.arange(6.0))
    np.testing.assert_array_equal((np.float64(2) * A).get_coeffs(), 2 * np.arange(6.0))
    np.testing.assert_array_equal((A / 2).get_coeffs(), np.arange(6.0) / 2)
    np.testing.assert_array_equal((-A).get_coeffs(), -np.arange(6.0))
    assert type(A + B) is SpatialAcceleration


def test_spatial_vectors_of_different_kinds_do_not_mix():
    with pytest.raises(TypeError, match="both operands must be SpatialVelocity"):
        SpatialVelocity(np.ones(6)) + SpatialForce(np.ones(6))
    with pytest.raises(TypeError, match="expected a SpatialVelocity"):
        SpatialForce(np.ones(6)).dot(SpatialForce(np.ones(6)))
    with pytest.raises(TypeError, match="expected RotationMatrix @ SpatialForce"):
        np.eye(3) @ SpatialForce(np.ones(6))


def test_re_expression_rotates_both_parts_and_inverts():
    rng = np.random.default_rng(RNG_SEED)
    R_AE = random_rotation(rng)
    V_E = SpatialVelocity(rng.normal(size=6))
    V_A = R_AE @ V_E
    assert type(V_A) is SpatialVelocity
    np.testing.assert_allclose(V_A.rotational(), R_AE.matrix() @ V_E.rotational(), atol=1e-15)
    np.testing.assert_allclose(V_A.translational(), R_AE.matrix() @ V_E.translational(),
                               atol=1e-15)
    assert (R_AE.inverse() @ V_A).is_approx(V_E, 1e-14)


def test_velocity_shift_of_rotating_frame_closed_form():
    V_WP = SpatialVelocity([0.0, 0.0, 2.0], [1.0, 0.0, 0.0])
    V_WQ = V_WP.shift([3.0, 0.0, 0.0])  # v_Q = v_P + w x p = [1, 0, 0] + [0, 6, 0]
    np.testing.assert_array_equal(V_WQ.get_coeffs(), [0, 0, 2, 1, 6, 0])


def test_force_shift_moves_the_moment_point():
    F_P = SpatialForce([0.0, 0.0, 0.0], [0.0, 0.0, -10.0])  # weight applied at P
    F_Q = F_P.shift([1.0, 0.0, 0.0])  # Q is 1 m along +x: the weight twists about +y at Q
    np.testing.assert_array_equal(F_Q.get_coeffs(), [0, -10, 0, 0, 0, -10])


def test_power_is_invariant_under_shift_and_re_expression():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(10):
        V_P, F_P = SpatialVelocity(rng.normal(size=6)), SpatialForce(rng.normal(size=6))
        p_PQ, R = rng.normal(size=3), random_rotation(rng)
        power = F_P.dot(V_P)
        assert power == pytest.approx(V_P.dot(F_P), rel=1e-15)
        assert F_P.shift(p_PQ).dot(V_P.shift(p_PQ)) == pytest.approx(power, rel=1e-12)
        assert (R @ F_P).dot(R @ V_P) == pytest.approx(power, rel=1e-12)


def _motion(t):
    """A frame P rotating about z with theta = t^2/2 and a moving origin; returns
    (R_WP, p_WPo, w_WP, alpha_WP, v_WPo, a_WPo)."""
    R = RotationMatrix.make_z_rotation(0.5 * t * t).matrix()
    return R, np.array([0.5 * t * t, t**3 / 3, 0.0]), np.array([0, 0, t]), np.array([0, 0, 1.0]), \
        np.array([t, t * t, 0.0]), np.array([1.0, 2 * t, 0.0])


def test_acceleration_shift_matches_derivative_of_shifted_velocity():
    t, h = 0.7, 1e-5
    p_PQ_P = np.array([0.3, -0.2, 0.5])

    def v_WQ(t):
        R, _, w, _, v, _ = _motion(t)
        return SpatialVelocity(w, v).shift(R @ p_PQ_P).translational()

    R, _, w, alpha, _, a = _motion(t)
    A_WQ = SpatialAcceleration(alpha, a).shift(R @ p_PQ_P, w)
    np.testing.assert_allclose(A_WQ.translational(), (v_WQ(t + h) - v_WQ(t - h)) / (2 * h),
                               atol=1e-9)
    np.testing.assert_array_equal(A_WQ.rotational(), alpha)


def test_acceleration_shift_has_centripetal_term():
    A = SpatialAcceleration.zero().shift([2.0, 0.0, 0.0], [0.0, 0.0, 3.0])
    np.testing.assert_allclose(A.translational(), [-18.0, 0.0, 0.0])  # -w^2 r
    A0 = SpatialAcceleration([0, 0, 1.0], [0, 0, 0]).shift_with_zero_angular_velocity([2.0, 0, 0])
    np.testing.assert_allclose(A0.translational(), [0.0, 2.0, 0.0])


def test_composition_with_moving_frame_matches_finite_differences():
    """B moves in the moving frame P; compose V_WB and A_WB and differentiate numerically."""
    t, h = 0.7, 1e-4

    def kinematics_of_B(t):
        R_WP, p_WPo, w_WP, _, _, _ = _motion(t)
        p_PoBo_P = np.array([t, 0.5 * t * t, 0.2])  # v = [1, t, 0], a = [0, 1, 0] in P
        R_PB = RotationMatrix.make_x_rotation(t * t).matrix()  # w_PB_P = [2t, 0, 0]
        return R_WP @ R_PB, p_WPo + R_WP @ p_PoBo_P

    R_WP, _, w_WP, alpha_WP, v_WPo, a_WPo = _motion(t)
    p_PoBo_W = R_WP @ np.array([t, 0.5 * t * t, 0.2])
    V_PB_W = SpatialVelocity(R_WP @ [2 * t, 0, 0], R_WP @ [1.0, t, 0.0])
    A_PB_W = SpatialAcceleration(R_WP @ [2.0, 0, 0], R_WP @ [0.0, 1.0, 0.0])
    V_WB = SpatialVelocity(w_WP, v_WPo).compose_with_moving_frame_velocity(p_PoBo_W, V_PB_W)
    A_WB = SpatialAcceleration(alpha_WP, a_WPo).compose_with_moving_frame_acceleration(
        p_PoBo_W, w_WP, V_PB_W, A_PB_W)

    (R0, p0), (Rp, pp), (Rm, pm) = (kinematics_of_B(s) for s in (t, t + h, t - h))
    np.testing.assert_allclose(V_WB.translational(), (pp - pm) / (2 * h), atol=1e-7)
    np.testing.assert_allclose(A_WB.translational(), (pp - 2 * p0 + pm) / h**2, atol=1e-6)
    w_skew = (Rp - Rm) / (2 * h) @ R0.T
    np.testing.assert_allclose(V_WB.rotational(), [w_skew[2, 1], w_skew[0, 2], w_skew[1, 0]],
                               atol=1e-7)

    def w_WB(s):
        R_WP_s, _, w_WP_s, _, _, _ = _motion(s)
        return w_WP_s + R_WP_s @ [2 * s, 0, 0]

    np.testing.assert_allclose(A_WB.rotational(), (w_WB(t + h) - w_WB(t - h)) / (2 * h),
                               atol=1e-7)


def test_spatial_vectors_pickle():
    F = SpatialForce(np.arange(6.0))
    F2 = pickle.loads(pickle.dumps(F))
    assert type(F2) is SpatialForce and F2.is_approx(F, 0.0)


# ---------------------------------------------------------------------- inertias
def test_solid_box_inertia_closed_form():
    M = SpatialInertia.solid_box_with_mass(2.0, 1.0, 2.0, 3.0)
    I = M.calc_rotational_inertia()
    np.testing.assert_allclose(I.get_moments(), [2 * 13 / 12, 2 * 10 / 12, 2 * 5 / 12], rtol=1e-15)
    np.testing.assert_array_equal(I.get_products(), np.zeros(3))
    assert M.get_mass() == 2.0
    np.testing.assert_array_equal(M.get_com(), np.zeros(3))
    np.testing.assert_allclose(UnitInertia.solid_cube(0.6).get_moments(), np.full(3, 0.06))


def test_solid_sphere_and_ellipsoid_inertia_closed_forms():
    I = SpatialInertia.solid_sphere_with_mass(3.0, 0.5).calc_rotational_inertia()
    np.testing.assert_allclose(I.copy_to_full_matrix3(), 0.4 * 3.0 * 0.25 * np.eye(3), rtol=1e-15)
    I = SpatialInertia.solid_ellipsoid_with_mass(5.0, 1.0, 2.0, 3.0).calc_rotational_inertia()
    np.testing.assert_allclose(I.get_moments(), [13.0, 10.0, 5.0], rtol=1e-15)  # m (b²+c²)/5


def test_solid_cylinder_inertia_closed_form_and_axis():
    m, r, L = 2.0, 0.3, 1.2
    I_z = SpatialInertia.solid_cylinder_with_mass(m, r, L, [0, 0, 1]).calc_rotational_inertia()
    transverse = m * (3 * r * r + L * L) / 12
    np.testing.assert_allclose(I_z.get_moments(), [transverse, transverse, m * r * r / 2],
                               rtol=1e-15)
    # Along another axis: the z-cylinder re-expressed by a rotation that maps z to that axis.
    R = RotationMatrix(RollPitchYaw(0.4, -0.9, 1.7))
    I_b = SpatialInertia.solid_cylinder_with_mass(m, r, L, R.col(2)).calc_rotational_inertia()
    assert I_b.is_nearly_equal_to(I_z.re_express(R), 1e-14)
    with pytest.raises(ValueError, match="unit_vector must be a unit vector"):
        UnitInertia.solid_cylinder(r, L, [0, 0, 2])


def test_solid_capsule_equals_cylinder_plus_two_hemispheres():
    m, r, L = 1.5, 0.2, 0.8
    v_cyl, v_sph = np.pi * r * r * L, 4 / 3 * np.pi * r**3
    m_cyl, m_hemi = m * v_cyl / (v_cyl + v_sph), 0.5 * m * v_sph / (v_cyl + v_sph)
    total = SpatialInertia.solid_cylinder_with_mass(m_cyl, r, L, [0, 0, 1])
    for side in (1.0, -1.0):
        # A hemisphere about its sphere center has G = 2r²/5 · 1 and its com at 3r/8.
        hemi = SpatialInertia(m_hemi, [0, 0, side * 3 * r / 8], 0.4 * r * r * np.eye(3))
        total = total + hemi.shift([0, 0, -side * L / 2])  # about the capsule center
    capsule = SpatialInertia.solid_capsule_with_mass(m, r, L, [0, 0, 1])
    assert capsule.is_nearly_equal_to(total, 1e-15)
    # Limits: no cylinder gives a sphere.
    np.testing.assert_allclose(UnitInertia.solid_capsule(r, 0.0, [1, 0, 0]).get_moments(),
                               UnitInertia.solid_sphere(r).get_moments(), rtol=1e-15)


def test_point_mass_and_triaxial_inertias():
    M = SpatialInertia.point_mass(2.0, [1.0, 2.0, 0.0])
    np.testing.assert_allclose(M.calc_rotational_inertia().copy_to_full_matrix3(),
                               2.0 * np.array([[4, -2, 0], [-2, 1, 0], [0, 0, 5.0]]))
    np.testing.assert_array_equal(UnitInertia.triaxially_symmetric(0.3).copy_to_full_matrix3(),
                                  0.3 * np.eye(3))
    np.testing.assert_allclose(
        RotationalInertia.point_mass(2.0, [1.0, 2.0, 0.0]).copy_to_full_matrix3(),
        M.calc_rotational_inertia().copy_to_full_matrix3())


def test_parallel_axis_theorem():
    m, d = 2.0, 0.5
    I_cm = SpatialInertia.solid_box_with_mass(m, 1.0, 2.0, 3.0).calc_rotational_inertia()
    I_Q = I_cm.shift_from_center_of_mass(m, [0.0, d, 0.0])
    np.testing.assert_allclose(I_Q.get_moments() - I_cm.get_moments(), [m * d * d, 0, m * d * d])
    assert I_Q.shift_to_center_of_mass(m, [0.0, -d, 0.0]).is_nearly_equal_to(I_cm, 1e-15)
    # The spatial inertia shifted away from its center of mass agrees.
    M_Q = SpatialInertia.solid_box_with_mass(m, 1.0, 2.0, 3.0).shift([0.0, -d, 0.0])
    np.testing.assert_allclose(M_Q.get_com(), [0.0, d, 0.0])
    assert M_Q.calc_rotational_inertia().is_nearly_equal_to(I_Q, 1e-15)
    G = UnitInertia.solid_sphere(0.1)
    assert G.shift_from_center_of_mass([0, 0, 1]).shift_to_center_of_mass([0, 0, 1]) \
        .is_nearly_equal_to(G, 1e-14)


def test_principal_moments_are_invariant_under_rotation():
    I = SpatialInertia.solid_box_with_mass(2.0, 1.0, 2.0, 3.0).calc_rotational_inertia()
    R = RotationMatrix(RollPitchYaw(0.3, 0.2, -1.0))
    I_rotated = I.re_express_in(R)
    assert np.any(np.abs(I_rotated.get_products()) > 0.1)
    np.testing.assert_allclose(I_rotated.calc_principal_moments(), np.sort(I.get_moments()),
                               rtol=1e-14)
    moments, R_EA = I_rotated.calc_principal_moments_and_axes()
    np.testing.assert_allclose(I_rotated.re_express(R_EA.inverse()).copy_to_full_matrix3(),
                               np.diag(moments), atol=1e-14)


def test_full_matrix6_gives_spatial_momentum_of_a_particle():
    m, c = 2.0, np.array([0.3, -0.1, 0.4])
    M = SpatialInertia.point_mass(m, c)
    w, v = np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.2, -0.3])
    v_particle = v + np.cross(w, c)
    L = M @ SpatialVelocity(w, v)
    assert type(L) is SpatialMomentum
    np.testing.assert_allclose(L.translational(), m * v_particle, rtol=1e-15)
    np.testing.assert_allclose(L.rotational(), np.cross(c, m * v_particle), rtol=1e-14)
    M6 = M.copy_to_full_matrix6()
    np.testing.assert_array_equal(M6, M6.T)
    np.testing.assert_allclose(M6[:3, 3:], m * skew(c))


def test_inertia_times_acceleration_is_newton_euler_force_at_rest():
    M = SpatialInertia.solid_box_with_mass(2.0, 1.0, 2.0, 3.0)
    F = M @ SpatialAcceleration([0.1, 0.2, 0.3], [0.0, 0.0, -9.81])
    assert type(F) is SpatialForce
    np.testing.assert_allclose(F.translational(), [0, 0, -19.62])
    np.testing.assert_allclose(F.rotational(),
                               M.calc_rotational_inertia().copy_to_full_matrix3() @ [0.1, 0.2, 0.3])


def test_kinetic_energy_is_invariant_under_shift_and_re_expression():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(10):
        M_P = random_spatial_inertia(rng)
        V_P = SpatialVelocity(rng.normal(size=6))
        ke = 0.5 * (M_P @ V_P).dot(V_P)
        assert ke > 0
        p_PQ, R = rng.normal(size=3), random_rotation(rng)
        V_Q, M_Q = V_P.shift(p_PQ), M_P.shift(p_PQ)
        assert 0.5 * (M_Q @ V_Q).dot(V_Q) == pytest.approx(ke, rel=1e-12)
        assert 0.5 * (M_P.re_express(R) @ (R @ V_P)).dot(R @ V_P) == pytest.approx(ke, rel=1e-12)
        # Momentum shifts like a force: (M_P V_P) about Q equals M_Q V_Q.
        assert (M_P @ V_P).shift(p_PQ).is_approx(M_Q @ V_Q, 1e-12)


def test_adding_inertias_adds_their_6x6_matrices():
    rng = np.random.default_rng(RNG_SEED)
    M1, M2 = random_spatial_inertia(rng), random_spatial_inertia(rng)
    M = M1 + M2
    assert M.get_mass() == pytest.approx(M1.get_mass() + M2.get_mass())
    np.testing.assert_allclose(M.copy_to_full_matrix6(),
                               M1.copy_to_full_matrix6() + M2.copy_to_full_matrix6(), atol=1e-13)
    two = SpatialInertia.point_mass(1.0, [1, 0, 0]) + SpatialInertia.point_mass(3.0, [-1, 0, 0])
    np.testing.assert_allclose(two.get_com(), [-0.5, 0, 0])


def test_inertia_parameters_round_trip_and_layout():
    M = SpatialInertia.make_from_central_inertia(
        2.0, [0.1, 0.2, 0.3], RotationalInertia(0.3, 0.4, 0.5, 0.01, -0.02, 0.03))
    params = M.to_inertia_parameters()
    I_P = M.calc_rotational_inertia().copy_to_full_matrix3()
    np.testing.assert_allclose(params[:4], [2.0, 0.2, 0.4, 0.6])
    np.testing.assert_allclose(params[4:], [I_P[0, 0], I_P[1, 1], I_P[2, 2],
                                            I_P[0, 1], I_P[0, 2], I_P[1, 2]])
    # I_P = I_cm + m (|c|² 1 - c cᵀ): Ixx = 0.3 + 2 (0.04 + 0.09), Ixy = 0.01 - 2 (0.02).
    assert params[4] == pytest.approx(0.56) and params[7] == pytest.approx(-0.03)
    assert SpatialInertia.from_inertia_parameters(params).is_nearly_equal_to(M, 1e-15)
    with pytest.raises(ValueError, match=r"params must have shape \(10,\)"):
        SpatialInertia.from_inertia_parameters(np.zeros(9))
    with pytest.raises(ValueError, match="mass is 0"):
        SpatialInertia.from_inertia_parameters([0, 0, 0, 0, 1, 1, 1, 0, 0, 0])


def test_spatial_inertia_pickles():
    M = random_spatial_inertia(np.random.default_rng(RNG_SEED))
    assert pickle.loads(pickle.dumps(M)).is_nearly_equal_to(M, 0.0)


# ---------------------------------------------------------------------- validity
def test_valid_inertias_pass_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        M = SpatialInertia.solid_cylinder_with_mass(1.0, 0.1, 0.5, [0, 1, 0]).shift([1, 2, 3])
        assert check_spatial_inertia(M, name="link1") == []
        assert M.is_physically_valid()
        SpatialInertia.point_mass(1.0, [1, 2, 3])  # zero central inertia is valid


def test_nan_and_negative_mass_are_rejected_with_values():
    with pytest.raises(ValueError, match="values must be finite, got mass = nan"):
        SpatialInertia(np.nan, [0, 0, 0], np.eye(3))
    with pytest.raises(ValueError, match="mass must be non-negative, got mass = -1"):
        SpatialInertia(-1.0, [0, 0, 0], np.eye(3))
    with pytest.raises(ValueError, match="mass must be positive and finite, got 0"):
        SpatialInertia.solid_sphere_with_mass(0.0, 1.0)
    with pytest.raises(ValueError, match="solid_sphere: r must be finite and non-negative, got -1"):
        UnitInertia.solid_sphere(-1.0)


def test_non_psd_central_inertia_is_rejected_naming_the_principal_moment():
    with pytest.raises(ValueError, match=r"positive semidefinite, but its smallest principal "
                                         r"moment is -0\.1 < 0"):
        SpatialInertia.make_from_central_inertia(1.0, [0.1, 0, 0], np.diag([1.0, -0.1, 1.0]))
    # A unit inertia about P too small for its center of mass: I_cm = G - (|c|² 1 - c cᵀ) < 0.
    with pytest.raises(ValueError, match="positive semidefinite"):
        SpatialInertia(1.0, [1.0, 0.0, 0.0], UnitInertia.solid_sphere(0.1))


def test_triangle_inequality_violation_is_accepted_with_a_warning():
    with pytest.warns(InertiaValidityWarning, match=r"triangle inequality Ixx <= Iyy \+ Izz: "
                                                    r"1 > 0\.01 \+ 0\.01"):
        M = SpatialInertia.make_from_central_inertia(2.0, [0.1, 0.2, 0.3], TRIANGLE_VIOLATING_I)
    assert M.get_mass() == 2.0
    assert not M.is_physically_valid()
    I = RotationalInertia(TRIANGLE_VIOLATING_I)
    assert not I.triangle_inequality_holds() and not I.could_be_physically_valid()
    assert I.calc_principal_moments()[0] > 0  # positive definite nonetheless


def test_check_spatial_inertia_names_the_body():
    M = SpatialInertia(2.0, [0, 0, 0], TRIANGLE_VIOLATING_I / 2, skip_validity_check=True)
    with pytest.warns(InertiaValidityWarning, match="spatial inertia of 'link3'.*triangle"):
        violations = check_spatial_inertia(M, name="link3")
    assert len(violations) == 1 and "triangle inequality" in violations[0]
    with pytest.raises(ValueError, match="check_spatial_inertia: spatial inertia of 'link3'"):
        check_spatial_inertia(M, strict=True, name="link3")
    bad = SpatialInertia(-1.0, [0, 0, 0], np.eye(3), skip_validity_check=True)
    with pytest.raises(ValueError, match="'link4'.*mass must be non-negative"):
        check_spatial_inertia(bad, name="link4")


def test_rotational_inertia_input_errors():
    with pytest.raises(ValueError, match="matrix must be symmetric"):
        RotationalInertia([[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ValueError, match="entries must be finite"):
        RotationalInertia(1.0, np.inf, 1.0)
    with pytest.raises(TypeError, match="G_SP_E must be a UnitInertia"):
        SpatialInertia(1.0, [0, 0, 0], RotationalInertia(1.0, 1.0, 1.0))
