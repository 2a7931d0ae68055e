"""Drake's ContactSurface accessors (issue 18) on a compliant ball pressed into a rigid
half space: the contact disk's area against the closed form, the per-face accessors
against the totals, the triangle and polygon meshes and the linear pressure fields."""

import pickle

import numpy as np
import pytest

from merganser.geometry import (
    FramePoseVector, GeometryFrame, GeometryId, GeometryInstance, HalfSpace,
    HydroelasticContactRepresentation, PolygonSurfaceMesh, ProximityProperties, RigidTransform,
    SceneGraph, Sphere, TriangleSurfaceMesh, add_compliant_hydroelastic_properties,
    add_rigid_hydroelastic_properties,
)

Rep = HydroelasticContactRepresentation
R, HEIGHT, X0, Y0 = 1.0, 0.8, 0.3, -0.2      # ball radius, center height, center x, y (m)


@pytest.fixture(scope="module")
def scene():
    sg = SceneGraph()
    s = sg.register_source("s")
    f = sg.register_frame(s, GeometryFrame("f"))
    ball = sg.register_geometry(s, f, GeometryInstance(RigidTransform(), Sphere(R), "ball"))
    sg.assign_role(s, ball, add_compliant_hydroelastic_properties(
        resolution_hint=0.1, hydroelastic_modulus=1e5, properties=ProximityProperties()))
    ground = sg.register_anchored_geometry(
        s, GeometryInstance(RigidTransform(), HalfSpace(), "ground"))
    sg.assign_role(s, ground, add_rigid_hydroelastic_properties(properties=ProximityProperties()))
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    poses.set_value(id=f, value=RigidTransform([X0, Y0, HEIGHT]))
    sg.get_source_pose_port(s).fix_value(ctx, poses)
    query = sg.get_query_output_port().eval(ctx)
    return query, ball, ground


def test_ids_and_totals(scene):
    query, ball, ground = scene
    [s] = query.compute_contact_surfaces(Rep.kPolygon)
    assert s.id_M() == ball and s.id_N() == ground and s.id_M == ball
    assert type(s.id_M()) is GeometryId and hash(s.id_M) == hash(ball)
    assert pickle.loads(pickle.dumps(s.id_N)) == ground and {s.id_N: 1}[ground] == 1
    # the sphere meets z = 0 in a disk of radius sqrt(R² - h²); the mesh is inscribed
    disk = np.pi * (R * R - HEIGHT * HEIGHT)
    assert s.total_area() == pytest.approx(disk, rel=0.03)
    face_areas = [s.area(face_index=i) for i in range(s.num_faces())]
    assert s.total_area() == pytest.approx(sum(face_areas), rel=1e-12)
    assert float(s.area) == s.total_area()
    centroids = np.array([s.centroid(face_index=i) for i in range(s.num_faces())])
    np.testing.assert_allclose(s.centroid(), np.array(face_areas) @ centroids / sum(face_areas),
                               atol=1e-12)
    np.testing.assert_allclose(s.centroid(), [X0, Y0, 0.0], atol=5e-3)
    for i in range(s.num_faces()):
        # out of N (the ground) into M (the ball): +z
        np.testing.assert_allclose(s.face_normal(face_index=i), [0.0, 0.0, 1.0], atol=1e-12)
    assert s.num_vertices() >= 3 * s.num_faces()


def test_meshes_match_the_surface(scene):
    query = scene[0]
    [poly] = query.compute_contact_surfaces(Rep.kPolygon)
    [tri] = query.compute_contact_surfaces(Rep.kTriangle)
    assert (poly.is_triangle(), poly.representation()) == (False, Rep.kPolygon)
    assert (tri.is_triangle(), tri.representation()) == (True, Rep.kTriangle)
    mesh_p = poly.poly_mesh_W()
    mesh_t = tri.tri_mesh_W()
    assert isinstance(mesh_p, PolygonSurfaceMesh) and isinstance(mesh_t, TriangleSurfaceMesh)
    assert mesh_p.num_faces() == poly.num_faces() and mesh_t.num_triangles() == tri.num_faces()
    assert mesh_p.total_area() == pytest.approx(poly.total_area(), rel=1e-12)
    assert mesh_t.total_area() == pytest.approx(tri.total_area(), rel=1e-12)
    for i in range(poly.num_faces()):
        assert mesh_p.area(i) == pytest.approx(poly.area(i), rel=1e-9)
        np.testing.assert_allclose(mesh_p.face_normal(i), poly.face_normal(i), atol=1e-9)
        np.testing.assert_allclose(mesh_p.element_centroid(i), poly.centroid(i), atol=1e-12)
    with pytest.raises(RuntimeError, match="representation"):
        poly.tri_mesh_W()
    with pytest.raises(RuntimeError, match="representation"):
        tri.poly_e_MN()


def test_pressure_fields_are_linear_on_each_face(scene):
    query = scene[0]
    [poly] = query.compute_contact_surfaces(Rep.kPolygon)
    [tri] = query.compute_contact_surfaces(Rep.kTriangle)
    field = poly.poly_e_MN()
    for e, vertices in enumerate(poly.polygons):
        # the field at the face centroid is the face's centroid pressure
        assert field.evaluate_cartesian(e=e, p_MQ=poly.centroid(e)) == pytest.approx(
            poly.face_pressures[e], rel=1e-9)
        g = field.evaluate_gradient(e=e)
        assert abs(g @ poly.face_normal(e)) < 1e-6 * max(1.0, np.linalg.norm(g))
        for v in vertices:
            assert field.evaluate_cartesian(e, poly.vertices_W[v]) == pytest.approx(
                field.evaluate_at_vertex(v=v), rel=1e-9, abs=1e-6)
    tri_field = tri.tri_e_MN()
    b = np.array([0.25, 0.5, 0.25])
    for e in range(tri.num_faces()):
        p = [tri_field.evaluate_at_vertex(v) for v in tri.polygons[e]]
        assert tri_field.evaluate(e=e, b=b) == pytest.approx(b @ p, rel=1e-12)
        assert tri_field.evaluate(e, (1.0, 0.0, 0.0)) == pytest.approx(p[0], rel=1e-12)
    with pytest.raises(RuntimeError, match="polygon form"):
        tri_field.evaluate_gradient(0)
    # the pressure is zero on the ball's boundary and largest at the deepest point
    assert min(field.values()) >= -1e-6 and max(field.values()) > 0.0


def test_surface_survives_pickle_and_copy(scene):
    import copy
    [s] = scene[0].compute_contact_surfaces(Rep.kPolygon)
    for other in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert other.id_M() == s.id_M() and other.total_area() == s.total_area()
        assert other.area(0) == s.area(0)
        np.testing.assert_array_equal(other.centroid(1), s.centroid(1))
        np.testing.assert_array_equal(other.centroid(), s.centroid())


def test_equal_and_gradient_queries(scene):
    # Drake's ContactSurface::Equal compares ids, faces and the pressure field exactly;
    # a copy is equal, the triangle form of the same surface is not (other faces).
    import copy

    query, _ball, _ground = scene
    [s] = query.compute_contact_surfaces(Rep.kPolygon)
    assert s.equal(surface=s) and s.equal(copy.copy(s)) and s.equal(copy.deepcopy(s))
    [s_again] = query.compute_contact_surfaces(Rep.kPolygon)
    assert s.equal(s_again)
    assert not s.equal(s.to_triangles())
    with pytest.raises(TypeError, match="ContactSurface.equal: surface must be"):
        s.equal(3)
    # merganser's surfaces keep |∂p/∂n| per face, not the gradients of e_M / e_N
    assert s.has_grad_e_m() is False and s.has_grad_e_n() is False
    with pytest.raises(RuntimeError, match="evaluate_grad_e_m_w: index=0"):
        s.evaluate_grad_e_m_w(index=0)
    with pytest.raises(RuntimeError, match="evaluate_grad_e_n_w"):
        s.evaluate_grad_e_n_w(index=0)
