"""Drake's inertia factories and RotationalInertia/UnitInertia methods, checked against
closed forms and identities (issue 18)."""

import numpy as np
import pytest

from merganser.geometry import (
    Box, Capsule, Cylinder, Ellipsoid, HalfSpace, RigidTransform, RollPitchYaw,
    RotationMatrix, Sphere,
)
from merganser.geometry.hydroelastic import make_box_surface_mesh
from merganser.multibody import (
    RotationalInertia, SpatialInertia, UnitInertia, calc_spatial_inertia,
)

Z = np.array([0.0, 0.0, 1.0])


def _moments(M):
    return M.calc_rotational_inertia().get_moments()


def test_density_factories_have_density_times_volume_mass():
    rho, r, L = 1000.0, 0.1, 0.4
    cases = [
        (SpatialInertia.solid_box_with_density(rho, 0.1, 0.2, 0.3), rho * 0.006),
        (SpatialInertia.solid_cube_with_density(rho, 0.4), rho * 0.064),
        (SpatialInertia.solid_sphere_with_density(rho, 0.5), rho * 4 / 3 * np.pi * 0.125),
        (SpatialInertia.solid_ellipsoid_with_density(rho, 0.2, 0.3, 0.4),
         rho * 4 / 3 * np.pi * 0.024),
        (SpatialInertia.solid_cylinder_with_density(rho, r, L, Z), rho * np.pi * r * r * L),
        (SpatialInertia.solid_capsule_with_density(rho, r, L, Z),
         rho * (np.pi * r * r * L + 4 / 3 * np.pi * r ** 3)),
        (SpatialInertia.hollow_sphere_with_density(2.0, 0.5), 2.0 * 4 * np.pi * 0.25),
    ]
    for M, mass in cases:
        assert M.get_mass() == pytest.approx(mass, rel=1e-14)
        np.testing.assert_array_equal(M.get_com(), np.zeros(3))
    sphere = SpatialInertia.solid_sphere_with_density(rho, 0.5)
    np.testing.assert_allclose(_moments(sphere), 0.4 * sphere.get_mass() * 0.25 * np.ones(3))
    with pytest.raises(ValueError, match="density must be positive"):
        SpatialInertia.solid_box_with_density(-1.0, 1, 1, 1)


def test_hollow_sphere_and_thin_rods():
    shell = SpatialInertia.hollow_sphere_with_mass(2.0, 0.5)
    np.testing.assert_allclose(_moments(shell), 2 / 3 * 2.0 * 0.25 * np.ones(3))
    rod = SpatialInertia.thin_rod_with_mass(2.0, 0.3, Z)
    np.testing.assert_allclose(_moments(rod), [2.0 * 0.09 / 12, 2.0 * 0.09 / 12, 0.0],
                               atol=1e-15)
    end = SpatialInertia.thin_rod_with_mass_about_end(2.0, 0.3, Z)
    np.testing.assert_allclose(end.get_com(), [0, 0, 0.15])
    np.testing.assert_allclose(_moments(end), [2.0 * 0.09 / 3, 2.0 * 0.09 / 3, 0.0],
                               atol=1e-15)


def test_cylinder_about_end_is_the_parallel_axis_shift():
    m, r, L = 0.123, 0.1, 0.4
    M = SpatialInertia.solid_cylinder_with_mass_about_end(m, r, L, Z)
    np.testing.assert_allclose(M.get_com(), [0, 0, L / 2])
    perp = m * (3 * r * r + L * L) / 12 + m * (L / 2) ** 2
    np.testing.assert_allclose(_moments(M), [perp, perp, m * r * r / 2], rtol=1e-14)
    D = SpatialInertia.solid_cylinder_with_density_about_end(1000.0, r, L, Z)
    assert D.get_mass() == pytest.approx(1000.0 * np.pi * r * r * L)
    np.testing.assert_allclose(D.get_com(), [0, 0, L / 2])


def test_calc_spatial_inertia_of_shapes_and_meshes():
    rho = 2.5
    pairs = [
        (Box(1, 2, 3), SpatialInertia.solid_box_with_density(rho, 1, 2, 3)),
        (Sphere(0.5), SpatialInertia.solid_sphere_with_density(rho, 0.5)),
        (Cylinder(0.2, 1.0), SpatialInertia.solid_cylinder_with_density(rho, 0.2, 1.0, Z)),
        (Capsule(0.2, 1.0), SpatialInertia.solid_capsule_with_density(rho, 0.2, 1.0, Z)),
        (Ellipsoid(0.1, 0.2, 0.3), SpatialInertia.solid_ellipsoid_with_density(rho, 0.1, 0.2,
                                                                               0.3)),
    ]
    for shape, expected in pairs:
        np.testing.assert_allclose(calc_spatial_inertia(shape, rho).copy_to_full_matrix6(),
                                   expected.copy_to_full_matrix6(), rtol=1e-14)
    mesh = make_box_surface_mesh(np.array([1.0, 2.0, 3.0]))
    from_mesh = calc_spatial_inertia(mesh=mesh, density=rho)
    np.testing.assert_allclose(from_mesh.copy_to_full_matrix6(),
                               pairs[0][1].copy_to_full_matrix6(), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="HalfSpace has no"):
        calc_spatial_inertia(HalfSpace(), rho)


def test_principal_semi_diameters_recover_the_ellipsoid():
    R = RollPitchYaw(0.3, -0.2, 0.5).to_rotation_matrix()
    p = np.array([0.1, -0.2, 0.3])
    M = SpatialInertia.solid_ellipsoid_with_mass(2.0, 0.2, 0.3, 0.4).re_express(R).shift(-p)
    semi, X = M.calc_principal_semi_diameters_and_pose_for_solid_ellipsoid()
    np.testing.assert_allclose(semi, [0.4, 0.3, 0.2], rtol=1e-12)
    assert isinstance(X, RigidTransform)
    np.testing.assert_allclose(X.translation(), p, atol=1e-15)
    # The largest semi-diameter (c = 0.4, along the body's z) lies along X's x axis.
    np.testing.assert_allclose(abs(X.rotation().matrix()[:, 0] @ R.matrix()[:, 2]), 1.0,
                               rtol=1e-12)


def test_rotational_inertia_methods():
    I = RotationalInertia(2.0, 3.0, 4.0, 0.1, -0.2, 0.3)
    assert I.rows() == 3 and I.cols() == 3 and I[0, 1] == 0.1
    for bad in (0, (0.0, 0.0), (0, 0, 0)):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            I[bad]
    assert I.calc_maximum_possible_moment_of_inertia() == pytest.approx(4.5)
    np.testing.assert_allclose(I * [1.0, 0.0, 0.0], [2.0, 0.1, -0.2])
    m, p_P, p_Q = 1.5, np.array([0.1, 0.2, 0.3]), np.array([-0.3, 0.1, 0.2])
    direct = I.shift_to_then_away_from_center_of_mass(m, p_P, p_Q)
    two_step = I.shift_to_center_of_mass(m, p_P).shift_from_center_of_mass(m, -p_Q)
    np.testing.assert_allclose(direct.copy_to_full_matrix3(), two_step.copy_to_full_matrix3())
    np.testing.assert_array_equal(RotationalInertia.triaxially_symmetric(2.0)
                                  .copy_to_full_matrix3(), 2.0 * np.eye(3))
    moments, R = I.calc_principal_moments_and_axes_of_inertia()
    np.testing.assert_allclose(R.matrix() @ np.diag(moments) @ R.matrix().T,
                               I.copy_to_full_matrix3(), atol=1e-14)
    np.testing.assert_allclose(I.calc_principal_moments_of_inertia(), moments)
    I.set_zero()
    assert I.is_zero()
    I.set_to_nan()
    assert I.is_nan()


def test_unit_inertia_drake_keywords_and_constructor():
    np.testing.assert_allclose(UnitInertia.solid_sphere(r=1.5).get_moments(), [0.9] * 3)
    np.testing.assert_allclose(UnitInertia.hollow_sphere(r=1.5).get_moments(), [1.5] * 3)
    np.testing.assert_allclose(UnitInertia.solid_box(Lx=1, Ly=2, Lz=3).get_moments(),
                               [13 / 12, 10 / 12, 5 / 12])
    np.testing.assert_allclose(UnitInertia.solid_cube(L=2).get_moments(), [4 / 6] * 3)
    np.testing.assert_allclose(UnitInertia.point_mass(p_FQ=[0, 0, 2]).get_moments(),
                               [4, 4, 0])
    G = UnitInertia(I=RotationalInertia(mass=1.0, p_PQ_E=[0.1, 0.2, 0.3]))
    assert isinstance(G, UnitInertia)
    np.testing.assert_allclose(G.copy_to_full_matrix3(),
                               UnitInertia.point_mass([0.1, 0.2, 0.3]).copy_to_full_matrix3())
    assert isinstance(UnitInertia.triaxially_symmetric(1.0), UnitInertia)
    assert repr(SpatialInertia.zero()) == "SpatialInertia.zero()"
    M = SpatialInertia.solid_cube_with_mass(1.0, 1.0)
    M.set_nan()
    assert M.is_nan()
    assert isinstance(UnitInertia(1, 1, 1).re_express(RotationMatrix()), UnitInertia)


def test_triangle_surface_mesh_inertia_of_a_tetrahedron():
    from merganser.geometry import SurfaceTriangle, TriangleSurfaceMesh

    v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    tris = [SurfaceTriangle(0, 2, 1), SurfaceTriangle(0, 1, 3), SurfaceTriangle(0, 3, 2),
            SurfaceTriangle(1, 2, 3)]                       # outward, counter-clockwise
    mesh = TriangleSurfaceMesh(triangles=tris, vertices=v)
    assert mesh.num_triangles() == 4 and mesh.num_vertices() == 4
    assert mesh.total_area() == pytest.approx(1.5 + np.sqrt(3) / 2)
    np.testing.assert_allclose(mesh.face_normal(3), np.ones(3) / np.sqrt(3))
    M = calc_spatial_inertia(mesh=mesh, density=6.0)
    assert M.get_mass() == pytest.approx(1.0)                # volume 1/6
    np.testing.assert_allclose(M.get_com(), [0.25, 0.25, 0.25])
    # Over the unit tetrahedron ∫x² dV = 1/60 and ∫xy dV = 1/120, so about the origin
    # Ixx = ρ (∫y² + ∫z²) = 0.2 and Ixy = -ρ ∫xy dV = -0.05.
    I = M.calc_rotational_inertia().copy_to_full_matrix3()
    np.testing.assert_allclose(np.diag(I), [0.2, 0.2, 0.2])
    np.testing.assert_allclose(I[0, 1], -0.05)
    with pytest.raises(ValueError, match="zero area"):
        TriangleSurfaceMesh([(0, 1, 2)], [(0, 0, 0), (1, 0, 0), (2, 0, 0)])
