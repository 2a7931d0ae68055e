"""Drake parity of SceneGraph's query results (issue 18, group 9): default-constructible
results, an unbound QueryObject that raises, signed distance to a point, the broad-phase
collision candidates and FramePoseVector's pydrake keywords. Expected values are closed
forms for spheres and boxes."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import (
    Box, CoulombFriction, FrameId, FramePoseVector, GeometryId, PenetrationAsPointPair,
    QueryObject,
    RigidTransform, SignedDistancePair, SignedDistanceToPoint, Sphere,
)
from merganser.multibody import SpatialInertia, add_multibody_plant_scene_graph


def _scene(extra_sphere_at=None):
    """A unit sphere at the origin and a 2 m cube at (5, 0, 0), anchored; optionally a
    sphere of radius 0.5 on a free body."""
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    world = plant.world_body()
    friction = CoulombFriction(0.5, 0.5)
    ids = [plant.register_collision_geometry(world, RigidTransform(), Sphere(1.0), "sphere",
                                             friction),
           plant.register_collision_geometry(world, RigidTransform([5.0, 0.0, 0.0]),
                                             Box(2.0, 2.0, 2.0), "box", friction)]
    body = None
    if extra_sphere_at is not None:
        body = plant.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.5))
        ids.append(plant.register_collision_geometry(body, RigidTransform(), Sphere(0.5),
                                                     "ball", friction))
        plant.set_default_free_body_pose(body, RigidTransform(extra_sphere_at))
    plant.finalize()
    diagram = builder.build()
    context = diagram.create_default_context()
    sg_context = scene_graph.get_my_context_from_root(context)
    query = scene_graph.get_query_output_port().eval(sg_context)
    return query, ids


def test_query_results_are_default_constructible_as_in_drake():
    pair = PenetrationAsPointPair()
    assert pair.depth == -1.0 and isinstance(pair.id_A, GeometryId) and not pair.id_A.is_valid()
    np.testing.assert_array_equal(pair.nhat_BA_W, np.zeros(3))
    distance = SignedDistancePair()
    assert distance.distance == 0.0
    np.testing.assert_array_equal(distance.p_ACa, np.zeros(3))
    assert SignedDistanceToPoint().distance == 0.0


def test_default_query_object_raises_on_use():
    query = QueryObject()
    with pytest.raises(RuntimeError, match="QueryObject.compute_point_pair_penetration: this "
                                           "QueryObject is not bound to a SceneGraph context"):
        query.compute_point_pair_penetration()
    with pytest.raises(RuntimeError, match="not bound"):
        query.inspector()
    with pytest.raises(RuntimeError, match="find_collision_candidates"):
        query.find_collision_candidates()


def test_signed_distance_to_point_outside_and_inside():
    query, (sphere, box) = _scene()
    above = {r.id_G: r for r in query.compute_signed_distance_to_point([0.0, 0.0, 3.0])}
    assert above[sphere].distance == pytest.approx(2.0)
    np.testing.assert_allclose(above[sphere].p_GN, [0.0, 0.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(above[sphere].grad_W, [0.0, 0.0, 1.0], atol=1e-12)
    assert above[box].distance == pytest.approx(np.hypot(4.0, 2.0))
    np.testing.assert_allclose(above[box].p_GN, [-1.0, 0.0, 1.0], atol=1e-9)
    inside = {r.id_G: r for r in query.compute_signed_distance_to_point([5.0, 0.0, 0.5])}
    assert inside[box].distance == pytest.approx(-0.5)
    np.testing.assert_allclose(inside[box].grad_W, [0.0, 0.0, 1.0], atol=1e-9)
    np.testing.assert_allclose(inside[box].p_GN, [0.0, 0.0, 1.0], atol=1e-9)


def test_signed_distance_to_point_threshold():
    query, (sphere, box) = _scene()
    near = query.compute_signed_distance_to_point([0.0, 0.0, 3.0], threshold=2.5)
    assert [r.id_G for r in near] == [sphere]
    assert query.compute_signed_distance_to_point([0.0, 0.0, 3.0], threshold=1.0) == []
    with pytest.raises(ValueError, match="p_WQ must be a finite 3-vector"):
        query.compute_signed_distance_to_point([0.0, 1.0])


def test_collision_candidates_are_the_overlapping_bounding_boxes():
    query, ids = _scene(extra_sphere_at=[1.2, 0.0, 0.0])
    sphere, box, ball = ids
    # the ball (radius 0.5 at x = 1.2) overlaps the unit sphere's box, not the cube's
    assert query.find_collision_candidates() == [tuple(sorted((sphere, ball)))]
    far_query, _ = _scene(extra_sphere_at=[0.0, 0.0, 10.0])
    assert far_query.find_collision_candidates() == []


def test_frame_pose_vector_with_pydrake_keywords():
    poses = FramePoseVector()
    a, b = FrameId.get_new_id(), FrameId.get_new_id()
    poses.set_value(id=a, value=RigidTransform([1.0, 2.0, 3.0]))
    poses.set_value(b, RigidTransform())
    assert poses.size() == 2 and poses.ids() == [a, b]
    assert poses.has_id(id=a) and not poses.has_id(FrameId.get_new_id())
    np.testing.assert_array_equal(poses.value(id=a).translation(), [1.0, 2.0, 3.0])
    poses.set_value(id=a, value=RigidTransform([0.0, 0.0, 1.0]))
    np.testing.assert_array_equal(poses.value(a).translation(), [0.0, 0.0, 1.0])
    with pytest.raises(KeyError, match="no pose for"):
        poses.value(FrameId.get_new_id())
    poses.clear()
    assert poses.size() == 0 and poses.ids() == []


def test_signed_distance_pair_by_pydrakes_keywords():
    # unit sphere at the origin, ball of radius 0.5 at (0, 3, 0): 1.5 m apart
    query, (sphere, box, ball) = _scene(extra_sphere_at=[0.0, 3.0, 0.0])
    pair = query.compute_signed_distance_pair_closest_points(geometry_id_A=sphere,
                                                              geometry_id_B=ball)
    assert pair.distance == pytest.approx(1.5)
    np.testing.assert_allclose(pair.p_ACa, [0.0, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(pair.p_BCb, [0.0, -0.5, 0.0], atol=1e-12)
    with pytest.raises(ValueError, match="compute_signed_distance_pair_closest_points: "
                                         "geometry_id_B .* is not a geometry"):
        query.compute_signed_distance_pair_closest_points(sphere, GeometryId.get_new_id())
