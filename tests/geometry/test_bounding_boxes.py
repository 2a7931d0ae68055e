"""Aabb, Obb and Plane (issue 18): analytic boxes of rotated boxes, the separating-axis
overlap tests at their analytic thresholds, half-space and plane overlap, the boxes of
shapes and of a geometry in the world."""

import copy
import pickle

import numpy as np
import pytest

from merganser.geometry import (
    Aabb, Box, Capsule, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame, GeometryInstance,
    HalfSpace, Obb, Plane, RigidTransform, RollPitchYaw, RotationMatrix, SceneGraph, Sphere,
    TriangleSurfaceMesh, VolumeElement, VolumeMesh, calc_obb, compute_aabb_for_triangle_mesh,
    compute_aabb_for_volume_mesh, compute_obb_for_triangle_mesh,
)

PAD = 2e-14          # Obb's round-off padding for boxes of unit scale


def _box_corners(size):
    h = 0.5 * np.asarray(size)
    return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h


def test_aabb_of_a_box_rotated_45_degrees_has_the_analytic_half_widths():
    a, b, c = 2.0, 1.0, 0.5
    R = RotationMatrix.make_z_rotation(np.pi / 4).matrix()
    P = _box_corners([a, b, c]) @ R.T + [1.0, 2.0, 3.0]
    # any triangulation works: the box of the mesh depends on its vertices only
    mesh = TriangleSurfaceMesh([(0, 1, 2), (1, 3, 2), (4, 5, 6), (5, 7, 6)], P)
    aabb = compute_aabb_for_triangle_mesh(mesh_M=mesh, vertices=set(range(8)))
    s = np.sqrt(0.5)
    np.testing.assert_allclose(aabb.half_width(), [s * (a + b) / 2, s * (a + b) / 2, c / 2],
                               atol=1e-14)
    np.testing.assert_allclose(aabb.center(), [1.0, 2.0, 3.0], atol=1e-14)
    np.testing.assert_allclose(aabb.lower(), aabb.center() - aabb.half_width())
    # the principal-axes box of the same vertices is the box itself
    obb = compute_obb_for_triangle_mesh(mesh_M=mesh, vertices=set(range(8)))
    np.testing.assert_allclose(sorted(obb.half_width()), sorted([a / 2, b / 2, c / 2]),
                               atol=1e-12)
    assert obb.calc_volume() == pytest.approx(a * b * c, rel=1e-12)


def test_obb_pads_and_reports_its_pose():
    X = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, -0.5, 0.25])
    obb = Obb(X_HB=X, half_width=[0.5, 1.0, 0.25])
    np.testing.assert_allclose(obb.half_width(), np.array([0.5, 1.0, 0.25]) + PAD, rtol=0,
                               atol=1e-15)
    np.testing.assert_array_equal(obb.center(), X.translation())
    assert obb.calc_volume() == pytest.approx(8 * 0.5 * 1.0 * 0.25, rel=1e-12)
    assert obb.equal(copy.deepcopy(obb)) and obb.equal(pickle.loads(pickle.dumps(obb)))
    assert not obb.equal(Obb(RigidTransform([1.0, -0.5, 0.3]), [0.5, 1.0, 0.25]))
    aabb = Aabb(p_HoBo=[1, 2, 3], half_width=[0.5, 1.0, 1.5])
    assert aabb.calc_volume() == 6.0 and aabb.equal(pickle.loads(pickle.dumps(aabb)))
    np.testing.assert_array_equal(aabb.pose().rotation().matrix(), np.eye(3))
    with pytest.raises(ValueError, match="half_width"):
        Aabb([0, 0, 0], [1.0, -1.0, 1.0])


def test_rotated_box_overlap_threshold_is_analytic():
    cube = Aabb(p_HoBo=[0, 0, 0], half_width=[1, 1, 1])
    R = RotationMatrix.make_z_rotation(np.pi / 4)
    reach = 0.5 * np.sqrt(2.0)           # a 0.5 half-width cube turned 45° reaches 0.707 in x
    for d, expected in ((1.0 + reach - 1e-3, True), (1.0 + reach + 1e-3, False)):
        obb = Obb(RigidTransform(R, [d, 0.0, 0.0]), [0.5, 0.5, 0.5])
        assert Aabb.has_overlap(cube, obb, RigidTransform()) is expected
        assert Obb.has_overlap(obb, cube, RigidTransform()) is expected
        # the same boxes, with b's frame H moved: X_GH carries the offset
        obb_H = Obb(RigidTransform(R, [0.0, 0.0, 0.0]), [0.5, 0.5, 0.5])
        assert Aabb.has_overlap(cube, obb_H, RigidTransform([d, 0.0, 0.0])) is expected
    # two cubes turned 45° about x, offset along their common rotated y axis by more than
    # the sum of their half widths (1 + 1): the face axis separates them
    a = Obb(RigidTransform(RotationMatrix.make_x_rotation(np.pi / 4)), [1, 1, 1])
    far = 2.0 + 0.01
    b = Obb(RigidTransform(RotationMatrix.make_x_rotation(np.pi / 4), [0, far / np.sqrt(2.0),
                                                                        far / np.sqrt(2.0)]),
            [1, 1, 1])
    assert not Obb.has_overlap(a, b, RigidTransform())


def test_half_space_and_plane_overlap():
    box = Obb(RigidTransform(RotationMatrix.make_x_rotation(np.pi / 4)), [1.0, 0.5, 0.5])
    reach = 0.5 * np.sqrt(2.0)           # along z, from the center
    for z, expected in ((reach - 1e-3, True), (reach + 1e-3, False)):
        assert Obb.has_overlap(box, HalfSpace(), RigidTransform([0, 0, z])) is expected
        plane = Plane([0, 0, 2.0], [0, 0, 0])
        assert Obb.has_overlap(box, plane, RigidTransform([0, 0, z])) is expected
        assert Obb.has_overlap(box, plane, RigidTransform([0, 0, -z])) is expected
    assert Obb.has_overlap(box, HalfSpace(), RigidTransform([0, 0, -5.0]))
    plane = Plane(normal=[0, 0, 2.0], point_on_plane=[0, 0, 2.0])
    np.testing.assert_array_equal(plane.unit_normal(), [0, 0, 1])
    assert plane.calc_height(point=[1.0, 1.0, 5.0]) == 3.0
    assert plane.calc_height([-1.0, -1.0, -1.0]) == -3.0
    assert plane.box_overlaps([1, 2, 3], [0.5, 0.25, 1.0], RotationMatrix.identity())
    assert not plane.box_overlaps([1, 1, 0.5], [0, 0, 0], RotationMatrix.identity())
    with pytest.raises(ValueError, match="normal"):
        Plane([0, 0, 0], [0, 0, 0])


def test_shape_boxes_and_world_boxes():
    half = {Box([1.0, 2.0, 3.0]): [0.5, 1.0, 1.5], Sphere(0.5): [0.5] * 3,
            Cylinder(0.5, 2.0): [0.5, 0.5, 1.0], Capsule(0.5, 2.0): [0.5, 0.5, 1.5],
            Ellipsoid(1.0, 2.0, 3.0): [1.0, 2.0, 3.0]}
    for shape, h in half.items():
        np.testing.assert_allclose(calc_obb(shape).half_width(), np.array(h) + PAD, atol=1e-15)
    assert calc_obb(HalfSpace()) is None
    sg = SceneGraph()
    s = sg.register_source("s")
    f = sg.register_frame(s, GeometryFrame("f"))
    X_FG = RigidTransform(RotationMatrix.make_z_rotation(np.pi / 4), [0.0, 0.0, 1.0])
    g = sg.register_geometry(s, f, GeometryInstance(X_FG, Box(2.0, 1.0, 0.5), "box"))
    ground = sg.register_anchored_geometry(s, GeometryInstance(RigidTransform(), HalfSpace(),
                                                               "ground"))
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    X_WF = RigidTransform([1.0, 2.0, 0.0])
    poses.set_value(id=f, value=X_WF)
    sg.get_source_pose_port(s).fix_value(ctx, poses)
    query = sg.get_query_output_port().eval(ctx)
    obb = query.compute_obb_in_world(geometry_id=g)
    assert obb.pose().is_nearly_equal_to(X_WF @ X_FG, 1e-14)
    np.testing.assert_allclose(obb.half_width(), [1.0 + PAD, 0.5 + PAD, 0.25 + PAD], atol=1e-15)
    assert query.compute_obb_in_world(ground) is None
    assert query.compute_aabb_in_world(g) is None          # rigid geometry (as Drake)
    assert sg.model_inspector().get_obb_in_geometry_frame(g).equal(calc_obb(Box(2.0, 1.0, 0.5)))


def test_volume_mesh_volumes_and_box_of_a_vertex_subset():
    vertices = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 3, 4)]
    mesh = VolumeMesh(elements=[VolumeElement(0, 1, 2, 3), (1, 0, 2, 3)], vertices=vertices)
    assert (mesh.num_elements(), mesh.num_vertices()) == (2, 5)
    assert mesh.element(1).vertex(0) == 1
    assert mesh.calc_tetrahedron_volume(0) == pytest.approx(1.0 / 6.0, rel=1e-15)
    assert mesh.calc_tetrahedron_volume(1) == pytest.approx(-1.0 / 6.0, rel=1e-15)
    assert mesh.calc_volume() == pytest.approx(0.0, abs=1e-15)
    aabb = compute_aabb_for_volume_mesh(mesh_M=mesh, vertices={0, 1, 2, 3})
    np.testing.assert_array_equal(aabb.center(), [0.5, 0.5, 0.5])
    np.testing.assert_array_equal(aabb.half_width(), [0.5, 0.5, 0.5])
    aabb = compute_aabb_for_volume_mesh(mesh, {0, 4})
    np.testing.assert_array_equal(aabb.upper(), [2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match="names vertex 7"):
        VolumeMesh([(0, 1, 2, 7)], vertices)
