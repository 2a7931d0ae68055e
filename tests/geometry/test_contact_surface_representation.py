"""Contact surfaces in Drake's two representations (issue 18): the triangle fan of each
polygon around its centroid keeps the area, the centroid and the pressure integral; the
fallback query returns point pairs only for pairs not handled hydroelastically."""

import numpy as np
import pytest

from merganser.geometry import (
    FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace,
    HydroelasticContactRepresentation, ProximityProperties, RigidTransform, SceneGraph, Sphere,
    add_compliant_hydroelastic_properties, add_rigid_hydroelastic_properties,
)

Rep = HydroelasticContactRepresentation


def _query(rigid_ground=True):
    sg = SceneGraph()
    s = sg.register_source("s")
    f = sg.register_frame(s, GeometryFrame("f"))
    ball = sg.register_geometry(s, f, GeometryInstance(RigidTransform(), Sphere(1.0), "ball"))
    sg.assign_role(s, ball, add_compliant_hydroelastic_properties(
        resolution_hint=0.5, hydroelastic_modulus=1e5, properties=ProximityProperties()))
    ground = sg.register_anchored_geometry(s, GeometryInstance(RigidTransform(), HalfSpace(),
                                                               "ground"))
    sg.assign_role(s, ground, add_rigid_hydroelastic_properties(properties=ProximityProperties())
                   if rigid_ground else ProximityProperties())
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    poses.set_value(id=f, value=RigidTransform([0.0, 0.0, 0.5]))
    sg.get_source_pose_port(s).fix_value(ctx, poses)
    return sg.get_query_output_port().eval(ctx)


def test_triangles_keep_area_centroid_and_force():
    query = _query()
    [poly] = query.compute_contact_surfaces(Rep.kPolygon)
    [tri] = query.compute_contact_surfaces(Rep.kTriangle)
    assert poly.representation() is Rep.kPolygon and not poly.is_triangle()
    assert tri.representation() is Rep.kTriangle and tri.is_triangle()
    assert tri.num_faces() > poly.num_faces()
    assert tri.area == pytest.approx(poly.area, rel=1e-12)
    np.testing.assert_allclose(tri.centroid, poly.centroid, atol=1e-12)
    np.testing.assert_allclose(tri.total_normal_force(), poly.total_normal_force(), rtol=1e-12)
    assert query.compute_contact_surfaces()[0].num_faces() == poly.num_faces()
    with pytest.raises(ValueError, match="representation must be"):
        query.compute_contact_surfaces("triangle")


def test_with_fallback_splits_hydroelastic_and_point_pairs():
    surfaces, pairs = _query(rigid_ground=True).compute_contact_surfaces_with_fallback()
    assert len(surfaces) == 1 and pairs == []
    surfaces, pairs = _query(rigid_ground=False).compute_contact_surfaces_with_fallback()
    assert surfaces == [] and len(pairs) == 1
    assert pairs[0].depth == pytest.approx(0.5)
