"""Hydroelastic geometry: pressure-field volume meshes, rigid surface meshes and the
compliant-rigid contact-surface kernels, checked against closed forms and identities."""

import numpy as np
import pytest

from merganser.geometry import (
    Box, HalfSpace, ProximityProperties, Sphere, add_compliant_hydroelastic_properties,
    add_compliant_hydroelastic_properties_for_half_space, add_rigid_hydroelastic_properties,
)
from merganser.geometry import Capsule, Cylinder, Ellipsoid
from merganser.geometry.hydroelastic import (
    make_box_surface_mesh, make_box_volume_mesh, make_capsule_surface_mesh,
    make_capsule_volume_mesh, make_cylinder_surface_mesh,
    make_cylinder_volume_mesh, make_ellipsoid_surface_mesh, make_ellipsoid_volume_mesh,
    make_representation, make_sphere_surface_mesh, make_sphere_volume_mesh,
)
from merganser.geometry.proximity.vtk_volume_mesh import boundary_triangles
from merganser.geometry.hydroelastic.slicing_kernels import (
    clip_triangles_in_slab, clip_triangles_in_tets, equal_pressure_polygons, polygon_quadrature,
    slice_tets_with_plane,
)

E = 1e5


def tet_volumes(mesh):
    V = mesh.vertices_G[mesh.tetrahedra]
    return np.abs(np.einsum("ij,ij->i", np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0]),
                            V[:, 3] - V[:, 0])) / 6.0


def integrate(kernel, args, cap):
    out_v, out_p = np.zeros((8 * cap, 3)), np.zeros(8 * cap)
    start, n, g = np.zeros(cap + 1, np.int64), np.zeros((cap, 3)), np.zeros(cap)
    nf = kernel(*args, out_v, out_p, start, n, g)
    assert nf >= 0
    area, cen, pc = np.zeros(nf), np.zeros((nf, 3)), np.zeros(nf)
    polygon_quadrature(nf, start, out_v, out_p, area, cen, pc)
    integrate.gradients = g[:nf]
    return (area * pc) @ n[:nf], area.sum(), cen, area


def sphere_force_closed_form(R, delta):
    """∫ E (1 - r/R) dA over the disk where the plane at depth δ cuts the sphere."""
    h = R - delta
    return E * (np.pi * (R * R - h * h) - 2.0 * np.pi / (3.0 * R) * (R ** 3 - h ** 3))


def test_sphere_mesh_volume_converges_and_pressure_is_zero_on_the_surface():
    R = 0.1
    errors = []
    for hint in (0.05, 0.025, 0.0125):
        m = make_sphere_volume_mesh(R, hint, E)
        errors.append(abs(tet_volumes(m).sum() / (4.0 / 3.0 * np.pi * R ** 3) - 1.0))
        r = np.linalg.norm(m.vertices_G, axis=1)
        on_surface = np.isclose(r, R)
        assert on_surface.any() and np.all(m.pressure[on_surface] == 0.0)
        np.testing.assert_allclose(m.pressure, E * (1.0 - r / R), atol=1e-9 * E)
        assert m.pressure.max() == pytest.approx(E)
    assert errors[0] > errors[1] > errors[2] and errors[2] < 0.02


@pytest.mark.parametrize("hint", [0.02, None])
def test_box_mesh_fills_the_box_with_the_exact_distance_field(hint):
    size = np.array([0.2, 0.1, 0.06])
    m = make_box_volume_mesh(size, hint, E)
    assert tet_volumes(m).sum() == pytest.approx(size.prod(), rel=1e-12)
    # the field at the vertices is the distance to the boundary over m
    half = size / 2
    d = (half - np.abs(m.vertices_G)).min(axis=1)
    np.testing.assert_allclose(m.pressure, E * d / half.min(), atol=1e-9 * E)
    # a plane cut at depth δ below the top: exact integral E δ/m over the region
    # farther than δ from the side faces, plus the linear ramps near them
    delta = 0.01
    force, area, _, _ = integrate(slice_tets_with_plane, (
        m.vertices_G, m.pressure, m.tetrahedra, np.array([0.0, 0.0, 1.0]),
        np.array([0.0, 0.0, half[2] - delta]), 1.0), m.tetrahedra.shape[0])
    a, b = half[0], half[1]
    # ∫∫ min(δ, a-|x|, b-|y|) dx dy = ∫_0^δ area{d > t} dt = ∫_0^δ 4 (a-t)(b-t) dt
    exact = E / half.min() * 4.0 * (a * b * delta - (a + b) * delta ** 2 / 2 + delta ** 3 / 3)
    assert force[2] == pytest.approx(exact, rel=1e-12)
    assert area == pytest.approx(4 * a * b, rel=1e-12)


@pytest.mark.parametrize("size, tets", [
    ([0.1, 0.1, 0.1], 24),          # medial axis a point
    ([0.1, 0.1, 0.3], 32),          # a segment
    ([0.4, 0.2, 0.1], 48),          # a rectangle
])
def test_box_mesh_without_a_hint_is_drakes_conforming_symmetric_tessellation(size, tets):
    # Drake's compliant box (MakeBoxVolumeMeshWithMaAndSymmetricTriangles): each face
    # four triangles about its center, the medial axis respected, no resolution hint
    m = make_box_volume_mesh(size, None, E)
    assert m.tetrahedra.shape[0] == tets
    assert (tet_volumes(m) > 0).all()
    assert tet_volumes(m).sum() == pytest.approx(np.prod(size), rel=1e-12)
    faces = boundary_triangles(m.tetrahedra)     # conforming: inner faces come in pairs
    assert faces.shape[0] == 24
    half = np.array(size) / 2
    centers = m.vertices_G[faces].mean(axis=1)
    assert np.isclose(np.abs(centers), half).any(axis=1).all()     # on the box's faces
    rigid = make_box_surface_mesh(size)          # Drake's rigid box: the same 24 triangles
    assert rigid.triangles.shape[0] == 24
    np.testing.assert_allclose(np.abs(rigid.normals_G).sum(axis=1), 1.0)


def test_sphere_slice_matches_the_closed_form_and_converges_at_second_order():
    R, delta = 0.1, 0.02
    exact = sphere_force_closed_form(R, delta)
    errors = []
    for hint in (0.025, 0.0125, 0.00625):
        m = make_sphere_volume_mesh(R, hint, E)
        V = m.vertices_G + np.array([0.2, -0.1, R - delta])
        force, area, _, _ = integrate(slice_tets_with_plane, (
            V, m.pressure, m.tetrahedra, np.array([0.0, 0.0, 1.0]), np.zeros(3), 1.0),
            m.tetrahedra.shape[0])
        assert force[:2] == pytest.approx([0.0, 0.0], abs=1e-9 * exact)
        errors.append(abs(force[2] / exact - 1.0))
    assert errors[2] < 0.01
    assert errors[0] / errors[1] > 3.0 and errors[1] / errors[2] > 3.0


def test_clipping_a_rigid_box_surface_equals_slicing_with_its_top_plane():
    m = make_box_volume_mesh([0.1, 0.1, 0.1], 0.025, E)
    top = -0.05 + 0.007
    force_plane, area_plane, _, _ = integrate(slice_tets_with_plane, (
        m.vertices_G, m.pressure, m.tetrahedra, np.array([0.0, 0.0, 1.0]),
        np.array([0.0, 0.0, top]), 1.0), m.tetrahedra.shape[0])
    # a rigid 1 m box whose top face is the plane z = top
    s = make_box_surface_mesh([1.0, 1.0, 1.0], 0.25)
    TV = s.vertices_G + np.array([0.03, -0.02, top - 0.5])
    force, area, _, _ = integrate(clip_triangles_in_tets, (
        TV, s.triangles, s.normals_G, m.vertices_G, m.pressure, m.tetrahedra, 1.0), 20000)
    np.testing.assert_allclose(force, force_plane, rtol=1e-9, atol=1e-9 * force_plane[2])
    assert area == pytest.approx(area_plane, rel=1e-9)


def test_slab_against_a_rigid_box_gives_the_linear_slab_pressure():
    T, s, delta = 0.5, 0.1, 0.01
    mesh = make_box_surface_mesh([s, s, s], 0.02)
    TV = mesh.vertices_G + np.array([0.0, 0.0, s / 2 - delta])
    force, area, _, _ = integrate(clip_triangles_in_slab, (
        TV, mesh.triangles, mesh.normals_G, np.array([0.0, 0.0, 1.0]), np.zeros(3), E, T,
        -1.0), 400)
    # force on the box (normals flipped to point into it): up, E δ/T on the bottom face;
    # the side faces' pressures cancel
    np.testing.assert_allclose(force, [0.0, 0.0, E * delta / T * s * s], atol=1e-9 * E * s * s)
    # stiffness per area: E/T on the bottom faces, 0 on the side faces
    np.testing.assert_allclose(np.unique(np.round(integrate.gradients, 6)), [0.0, E / T])
    assert area == pytest.approx(s * s + 4 * s * delta, rel=1e-12)


def test_surface_meshes_are_closed_and_outward():
    for mesh, volume in ((make_box_surface_mesh([0.2, 0.1, 0.3], 0.05), 0.006),
                         (make_sphere_surface_mesh(0.1, 0.01), 4 / 3 * np.pi * 1e-3),
                         (make_ellipsoid_surface_mesh(0.1, 0.2, 0.3, 0.01),
                          4 / 3 * np.pi * 0.006),
                         (make_cylinder_surface_mesh(0.1, 0.3, 0.01), np.pi * 0.003),
                         (make_capsule_surface_mesh(0.05, 0.1, 0.005),
                          np.pi * 0.05 ** 2 * 0.1 + 4 / 3 * np.pi * 0.05 ** 3)):
        V = mesh.vertices_G[mesh.triangles]
        # divergence theorem: V = 1/3 ∮ x·n dA
        cross = np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0])
        np.testing.assert_allclose(cross / np.linalg.norm(cross, axis=1)[:, None],
                                   mesh.normals_G, atol=1e-12)
        enclosed = np.einsum("ij,ij->i", V[:, 0], cross).sum() / 6.0
        exact_box = mesh.triangles.shape[0] < 1000
        assert enclosed == pytest.approx(volume, rel=1e-12 if exact_box else 0.01)


def test_representations_follow_the_properties():
    compliant = add_compliant_hydroelastic_properties(0.05, E, ProximityProperties())
    rigid = add_rigid_hydroelastic_properties(properties=ProximityProperties())
    slab = add_compliant_hydroelastic_properties_for_half_space(0.2, E, ProximityProperties())
    assert make_representation(Sphere(0.1), compliant).kind == "volume"
    assert make_representation(Box(0.1, 0.2, 0.3), compliant).modulus == E
    assert make_representation(HalfSpace(), slab).thickness == 0.2
    assert make_representation(HalfSpace(), rigid).kind == "plane"
    assert make_representation(Box(0.1, 0.1, 0.1), rigid).kind == "surface"
    assert make_representation(Sphere(0.1), ProximityProperties()) is None
    bad = ProximityProperties()
    bad.add_property("hydroelastic", "compliance_type", "compliant")
    with pytest.raises(ValueError, match="hydroelastic_modulus"):
        make_representation(Sphere(0.1), bad, "ball")
    no_hint = ProximityProperties()                     # a box needs no hint, as in Drake
    no_hint.add_property("hydroelastic", "compliance_type", "compliant")
    no_hint.add_property("hydroelastic", "hydroelastic_modulus", E)
    assert make_representation(Box(0.1, 0.2, 0.3), no_hint).kind == "volume"
    with pytest.raises(ValueError, match="resolution_hint"):
        make_representation(Sphere(0.1), no_hint, "ball")
    for props in (compliant, rigid):        # a contact point has nothing to mesh
        with pytest.raises(ValueError, match="geometry ball is a zero-radius Sphere"):
            make_representation(Sphere(0.0), props, "ball")
    assert make_representation(Sphere(0.0), ProximityProperties()) is None


def test_two_equal_spheres_meet_on_the_mid_plane_with_the_rigid_plane_force():
    """Compliant-compliant: two identical spheres overlapping by 2δ press like one sphere
    on a rigid plane at depth δ (the equal-pressure surface is the mid plane)."""
    R, delta = 0.1, 0.02
    exact = sphere_force_closed_form(R, delta)
    errors = []
    for hint in (0.05, 0.025):
        m = make_sphere_volume_mesh(R, hint, E)
        Va = m.vertices_G + np.array([0.0, 0.0, R - delta])
        Vb = m.vertices_G - np.array([0.0, 0.0, R - delta])
        force, area, cen, _ = integrate(equal_pressure_polygons, (
            Va, m.pressure, m.tetrahedra, Vb, m.pressure, m.tetrahedra),
            8 * m.tetrahedra.shape[0])
        assert np.all(np.abs(cen[:, 2]) < 1e-9 + 0.3 * hint)
        assert np.all(integrate.gradients > 0.0)
        errors.append(abs(force[2] / exact - 1.0))
        # the force on b (swapped roles) is the opposite
        force_b, area_b, _, _ = integrate(equal_pressure_polygons, (
            Vb, m.pressure, m.tetrahedra, Va, m.pressure, m.tetrahedra),
            8 * m.tetrahedra.shape[0])
        np.testing.assert_allclose(force_b, -force, rtol=1e-9, atol=1e-9 * exact)
        assert area_b == pytest.approx(area, rel=1e-9)
    assert errors[1] < 0.1 and errors[0] / errors[1] > 3.0


def slice_at(mesh, z):
    return integrate(slice_tets_with_plane, (
        mesh.vertices_G, mesh.pressure, mesh.tetrahedra, np.array([0.0, 0.0, 1.0]),
        np.array([0.0, 0.0, z]), 1.0), mesh.tetrahedra.shape[0])


def test_ellipsoid_slice_is_the_scaled_sphere_closed_form():
    a, b, c, delta = 0.05, 0.08, 0.1, 0.02
    # affine image of the unit sphere: F = a b F_unit(δ / c)
    exact = a * b * sphere_force_closed_form(1.0, delta / c)
    errors = []
    for hint in (0.0125, 0.00625, 0.003125):  # refinement levels 4, 5, 6 (hint / c)
        m = make_ellipsoid_volume_mesh(a, b, c, hint, E)
        assert tet_volumes(m).sum() == pytest.approx(4 / 3 * np.pi * a * b * c, rel=0.15)
        force, _, _, _ = slice_at(m, c - delta)
        errors.append(abs(force[2] / exact - 1.0))
    assert errors[0] > errors[1] > errors[2] and errors[2] < 0.01


def test_cylinder_standing_slice_converges_to_the_distance_field_integral():
    R, L, delta = 0.05, 0.2, 0.005
    # E/m ∫∫ min(δ, R - r) dA = E/m ∫_0^δ π (R - t)² dt, m = min(R, L/2)
    exact = E / R * np.pi * (R * R * delta - R * delta ** 2 + delta ** 3 / 3)
    errors = []
    for hint in (0.02, 0.01, 0.005):
        m = make_cylinder_volume_mesh(R, L, hint, E)
        force, area, _, _ = slice_at(m, -L / 2 + delta)
        errors.append(abs(force[2] / exact - 1.0))
    assert errors[0] > errors[1] > errors[2] and errors[2] < 0.005
    assert make_representation(Cylinder(R, L), add_compliant_hydroelastic_properties(
        0.01, E, ProximityProperties())).kind == "volume"
    assert make_representation(Ellipsoid(0.1, 0.2, 0.3), add_rigid_hydroelastic_properties(
        properties=ProximityProperties())).kind == "surface"


def test_capsule_standing_on_its_cap_presses_like_a_sphere():
    R, L, delta = 0.05, 0.1, 0.01
    exact = sphere_force_closed_form(R, delta)
    errors, volumes = [], []
    for hint in (0.02, 0.01, 0.005):
        m = make_capsule_volume_mesh(R, L, hint, E)
        volumes.append(tet_volumes(m).sum())
        force, _, _, _ = slice_at(m, -L / 2 - R + delta)
        errors.append(abs(force[2] / exact - 1.0))
    assert errors[0] > errors[1] > errors[2] and errors[2] < 0.02
    assert volumes[2] == pytest.approx(np.pi * R * R * L + 4 / 3 * np.pi * R ** 3, rel=0.005)
    assert make_representation(Capsule(R, L), add_compliant_hydroelastic_properties(
        0.01, E, ProximityProperties())).kind == "volume"


CUBE = np.array([[x, y, z] for x in (-0.05, 0.05) for y in (-0.05, 0.05) for z in (-0.05, 0.05)])


def test_convex_cube_fan_mesh_has_the_box_distance_field(tmp_path):
    from merganser.geometry import Convex
    from merganser.geometry.hydroelastic import make_convex_surface_mesh, make_convex_volume_mesh
    m = make_convex_volume_mesh(CUBE, E)
    assert tet_volumes(m).sum() == pytest.approx(1e-3, rel=1e-12)
    delta, a = 0.01, 0.05
    force, area, _, _ = slice_at(m, -0.05 + delta)
    # the centroid fan of a cube is its face-distance field: E/m ∫_0^δ 4 (a - t)² dt
    exact = E / a * 4.0 * (a * a * delta - a * delta ** 2 + delta ** 3 / 3)
    assert force[2] == pytest.approx(exact, rel=1e-12)
    surface = make_convex_surface_mesh(CUBE)
    V = surface.vertices_G[surface.triangles]
    assert np.all(np.einsum("ij,ij->i", surface.normals_G, V.mean(axis=1)) > 0.0)
    # from a file: the Convex shape's hull
    path = tmp_path / "cube.obj"
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in CUBE)
                    + "f 1 2 4 3\nf 5 7 8 6\nf 1 5 6 2\nf 3 4 8 7\nf 1 3 7 5\nf 2 6 8 4\n")
    rep = make_representation(Convex(str(path)), add_compliant_hydroelastic_properties(
        0.01, E, ProximityProperties()))
    assert rep.kind == "volume" and tet_volumes(rep.mesh).sum() == pytest.approx(1e-3)
