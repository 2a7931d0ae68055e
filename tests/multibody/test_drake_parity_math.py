"""Drake parity of the inertia and spatial algebra (issue 18, group 8): Drake's
constructors and factories under snake_case names, NaN and zero inertias, and the
operators between spatial inertias, velocities, accelerations, forces and momenta.
Expected values are the textbook formulas (Featherstone ch. 2; Drake's
multibody/math and multibody/tree documentation)."""

import numpy as np
import pytest

from merganser.geometry import RotationMatrix
from merganser.multibody.math import (
    RotationalInertia, SpatialAcceleration, SpatialForce, SpatialInertia, SpatialMomentum,
    SpatialVelocity, UnitInertia,
)

Z = np.array([0.0, 0.0, 1.0])


def _point_mass(m, p):
    p = np.asarray(p, dtype=float)
    return m * (p @ p * np.eye(3) - np.outer(p, p))


# ------------------------------------------------------------------ rotational inertia
def test_rotational_inertia_point_mass_constructor():
    p = [1.0, 2.0, 3.0]
    expected = _point_mass(2.0, p)
    np.testing.assert_allclose(RotationalInertia(mass=2.0, p_PQ_E=p).copy_to_full_matrix3(),
                               expected)
    np.testing.assert_allclose(RotationalInertia(2.0, p).copy_to_full_matrix3(), expected)
    with pytest.raises(TypeError, match="mass= and p_PQ_E= together"):
        RotationalInertia(mass=2.0)


def test_rotational_inertia_six_moments_by_keyword():
    I = RotationalInertia(Ixx=1.0, Iyy=2.0, Izz=3.0, Ixy=0.1, Ixz=0.2, Iyz=0.3)
    np.testing.assert_array_equal(I.get_moments(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(I.get_products(), [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(RotationalInertia(1.0, 2.0, 3.0).get_products(), 0.0)
    assert I.trace() == pytest.approx(6.0)


def test_rotational_inertia_default_is_nan_as_in_drake():
    assert RotationalInertia().is_nan() and RotationalInertia.NaN().is_nan()
    assert not RotationalInertia(1.0, 1.0, 1.0).is_nan()
    assert RotationalInertia(0.0, 0.0, 0.0).is_zero()
    assert not RotationalInertia(1.0, 0.0, 0.0).is_zero()


# ------------------------------------------------------------------ unit inertia
@pytest.mark.parametrize("G, diagonal", [
    (UnitInertia.solid_box(1.0, 2.0, 3.0), np.array([13.0, 10.0, 5.0]) / 12.0),
    (UnitInertia.solid_sphere(0.5), [0.1, 0.1, 0.1]),
    (UnitInertia.solid_ellipsoid(1.0, 2.0, 3.0), np.array([13.0, 10.0, 5.0]) / 5.0),
    (UnitInertia.solid_cylinder(0.1, 2.0, Z), [(0.03 + 4.0) / 12.0] * 2 + [0.005]),
    (UnitInertia.triaxially_symmetric(0.3), [0.3, 0.3, 0.3]),
    (UnitInertia.axially_symmetric(0.2, 0.7, Z), [0.7, 0.7, 0.2]),
    (UnitInertia.straight_line(0.5, Z), [0.5, 0.5, 0.0]),
    (UnitInertia.solid_capsule(0.1, 0.4, Z), [0.026625, 0.026625, 0.00475]),  # Drake's value
], ids=["box", "sphere", "ellipsoid", "cylinder", "triaxial", "axial", "line", "capsule"])
def test_unit_inertia_factories(G, diagonal):
    assert isinstance(G, UnitInertia)
    np.testing.assert_allclose(G.copy_to_full_matrix3(), np.diag(diagonal), atol=1e-15)


def test_unit_inertia_identities():
    np.testing.assert_allclose(UnitInertia.point_mass([1.0, 2.0, 3.0]).copy_to_full_matrix3(),
                               _point_mass(1.0, [1.0, 2.0, 3.0]))
    # a cylinder about the center of an end face is the central one shifted by L/2
    shifted = UnitInertia.solid_cylinder(0.1, 2.0, Z).shift_from_center_of_mass([0, 0, 1.0])
    np.testing.assert_allclose(
        UnitInertia.solid_cylinder_about_end(0.1, 2.0, Z).copy_to_full_matrix3(),
        shifted.copy_to_full_matrix3(), atol=1e-15)
    # a capsule of zero length is a sphere
    np.testing.assert_allclose(UnitInertia.solid_capsule(0.3, 0.0, Z).copy_to_full_matrix3(),
                               UnitInertia.solid_sphere(0.3).copy_to_full_matrix3(), atol=1e-15)


# ------------------------------------------------------------------ spatial inertia
def test_spatial_inertia_nan_and_zero():
    assert SpatialInertia.NaN().is_nan() and not SpatialInertia.NaN().is_zero()
    assert SpatialInertia.zero().is_zero() and not SpatialInertia.zero().is_nan()
    box = SpatialInertia.solid_box_with_mass(2.0, 1.0, 1.0, 1.0)
    assert not box.is_zero() and not box.is_nan()


def test_inertia_times_motion_gives_force_and_momentum():
    M = SpatialInertia.solid_box_with_mass(2.0, 0.1, 0.2, 0.3).shift([0.1, -0.2, 0.3])
    V = SpatialVelocity([0.1, 0.2, 0.3], [1.0, -2.0, 0.5])
    A = SpatialAcceleration([0.4, -0.1, 0.2], [0.0, 1.0, -9.81])
    L, F = M * V, M * A
    assert isinstance(L, SpatialMomentum) and isinstance(F, SpatialForce)
    M6 = M.copy_to_full_matrix6()
    np.testing.assert_allclose(L.get_coeffs(), M6 @ V.get_coeffs(), atol=1e-14)
    np.testing.assert_allclose(F.get_coeffs(), M6 @ A.get_coeffs(), atol=1e-14)
    # kinetic energy ½ Vᵀ M V two ways
    assert 0.5 * L.dot(V) == pytest.approx(0.5 * V.get_coeffs() @ M6 @ V.get_coeffs())


def test_kinetic_energy_of_a_body_about_its_center_of_mass():
    m, w, v = 3.0, np.array([0.0, 0.0, 2.0]), np.array([1.0, 0.0, 0.0])
    M = SpatialInertia.solid_sphere_with_mass(m, 0.5)
    L = M * SpatialVelocity(w, v)
    I = 0.4 * m * 0.25
    assert 0.5 * L.dot(SpatialVelocity(w, v)) == pytest.approx(0.5 * m + 0.5 * I * 4.0)


# ------------------------------------------------------------------ spatial vectors
def test_power_is_invariant_under_a_shift_of_point():
    F = SpatialForce([0.1, 0.2, 0.3], [1.0, 2.0, 3.0])
    V = SpatialVelocity([0.3, -0.2, 0.1], [0.5, 0.4, -0.3])
    p = np.array([0.7, -1.1, 0.4])
    assert F.dot(V) == pytest.approx(F.get_coeffs() @ V.get_coeffs())
    assert F.shift(p).dot(V.shift(p)) == pytest.approx(F.dot(V))
    np.testing.assert_allclose(F.shift(p).rotational(),
                               F.rotational() - np.cross(p, F.translational()))


def test_compose_with_moving_frame_velocity():
    V_WP = SpatialVelocity([0.0, 0.0, 1.0], [1.0, 0.0, 0.0])
    V_PB = SpatialVelocity([0.5, 0.0, 0.0], [0.0, 0.0, 2.0])
    p_PoBo = np.array([0.0, 2.0, 0.0])
    V_WB = V_WP.compose_with_moving_frame_velocity(p_PoBo, V_PB)
    np.testing.assert_allclose(V_WB.rotational(), [0.5, 0.0, 1.0])
    np.testing.assert_allclose(V_WB.translational(),
                               [1.0, 0.0, 0.0] + np.cross([0, 0, 1.0], p_PoBo) + [0, 0, 2.0])


def test_vector_arithmetic_and_rotation():
    V = SpatialVelocity([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    W = SpatialVelocity([0.5, 0.5, 0.5], [1.0, 1.0, 1.0])
    np.testing.assert_array_equal((V + W).get_coeffs(), V.get_coeffs() + W.get_coeffs())
    np.testing.assert_array_equal((V - W).get_coeffs(), V.get_coeffs() - W.get_coeffs())
    np.testing.assert_array_equal((-V).get_coeffs(), -V.get_coeffs())
    np.testing.assert_array_equal((2.0 * V).get_coeffs(), (V * 2.0).get_coeffs())
    assert (V + W - W).is_approx(V, 1e-15)
    R = RotationMatrix.make_z_rotation(np.pi / 2)
    np.testing.assert_allclose(V.rotate(R).rotational(), [-2.0, 1.0, 3.0], atol=1e-15)
    assert V.rotate(R).is_approx(R @ V, 0.0)
    with pytest.raises(TypeError, match="both operands must be SpatialVelocity"):
        V + SpatialForce([0, 0, 0], [0, 0, 0])


def test_inertia_constructors_list_their_valid_keywords():
    with pytest.raises(TypeError, match="RotationalInertia: unknown keyword argument 'p_BQ_E'.*;"
                                        " valid keywords: Ixx, Iyy, Izz, Ixy, Ixz, Iyz, mass, "
                                        "p_PQ_E"):
        RotationalInertia(mass=1.0, p_BQ_E=[1.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="SpatialInertia: unknown keyword argument 'p_BoBcm_B'"):
        SpatialInertia(mass=1.0, p_BoBcm_B=[0, 0, 0], G_SP_E=UnitInertia.solid_sphere(1.0))


def test_unit_inertia_set_from_rotational_inertia_in_place():
    from merganser.multibody import RotationalInertia, UnitInertia
    G = UnitInertia(1.0, 1.0, 1.0)
    I = RotationalInertia(2.0, 4.0, 6.0, 0.2, 0.0, -0.4)
    assert G.set_from_rotational_inertia(I, 2.0) is G
    np.testing.assert_allclose(G.copy_to_full_matrix3(), I.copy_to_full_matrix3() / 2.0)
    with pytest.raises(RuntimeError, match="mass must be strictly positive"):
        G.set_from_rotational_inertia(I, 0.0)
    with pytest.raises(ValueError):
        G.set_from_rotational_inertia(I, -1.0)
    np.testing.assert_allclose(G.get_moments(), [1.0, 2.0, 3.0])     # unchanged by the errors
