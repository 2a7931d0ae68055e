"""GeometryVersion per role and QueryObject frame poses (issue 18): a role's revision
changes exactly when geometry with that role changes; a frame's pose in its parent is the
pose its source gave, and its world pose composes the parent's."""

import copy

import numpy as np

from merganser.geometry import (
    FramePoseVector, GeometryFrame, GeometryInstance, GeometryVersion, IllustrationProperties,
    ProximityProperties, RigidTransform, RollPitchYaw, Role, SceneGraph, Sphere,
)

ROLES = (Role.kProximity, Role.kPerception, Role.kIllustration)


def _same(a, b):
    return tuple(a.is_same_as(other=b, role=r) for r in ROLES)


def test_versions_change_only_for_the_roles_edited():
    sg = SceneGraph()
    inspector = sg.model_inspector()
    v0 = inspector.geometry_version()
    assert _same(v0, copy.deepcopy(v0)) == (True, True, True)
    assert _same(v0, GeometryVersion(other=v0)) == (True, True, True)
    assert _same(v0, GeometryVersion()) == (False, False, False)
    s = sg.register_source("s")
    f = sg.register_frame(s, GeometryFrame("f"))
    v1 = inspector.geometry_version()
    assert _same(v0, v1) == (True, True, True)            # frames carry no role data
    instance = GeometryInstance(RigidTransform(), Sphere(0.1), "ball")
    instance.set_illustration_properties(IllustrationProperties())
    g = sg.register_geometry(s, f, instance)
    v2 = inspector.geometry_version()
    assert _same(v1, v2) == (True, True, False)
    sg.assign_role(s, g, ProximityProperties())
    v3 = inspector.geometry_version()
    assert _same(v2, v3) == (False, True, True)
    sg.remove_role(s, g, Role.kIllustration)
    assert _same(v3, inspector.geometry_version()) == (True, True, False)


def test_frame_poses_in_parent_and_world():
    sg = SceneGraph()
    s = sg.register_source("s")
    parent = sg.register_frame(s, GeometryFrame("parent"))
    child = sg.register_frame(source_id=s, parent_id=parent, frame=GeometryFrame("child"))
    ctx = sg.create_default_context()
    X_WP = RigidTransform(RollPitchYaw(0.3, -0.2, 0.9), [1.0, 2.0, 3.0])
    X_PC = RigidTransform(RollPitchYaw(-0.5, 0.1, 0.2), [0.0, 0.5, -0.25])
    poses = FramePoseVector()
    poses.set_value(id=parent, value=X_WP)
    poses.set_value(id=child, value=X_PC)
    sg.get_source_pose_port(s).fix_value(ctx, poses)
    query = sg.get_query_output_port().eval(ctx)
    assert query.get_pose_in_parent(frame_id=child).is_nearly_equal_to(X_PC, 1e-14)
    assert query.get_pose_in_parent(frame_id=parent).is_nearly_equal_to(X_WP, 1e-14)
    X_WC = query.get_pose_in_world(frame_id=child)
    np.testing.assert_allclose(X_WC.get_as_matrix4(), (X_WP @ X_PC).get_as_matrix4(),
                               atol=1e-14)
    world = sg.model_inspector().world_frame_id()
    assert query.get_pose_in_world(frame_id=world).is_exactly_identity()
