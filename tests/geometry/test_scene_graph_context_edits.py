"""SceneGraph's Context-modifying model edits (Drake's RegisterGeometry, ChangeShape,
RemoveGeometry, AssignRole and RemoveRole given a Context): the Context's copy of the
model changes; the system's model and other Contexts do not."""

import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import (
    Box, FramePoseVector, GeometryInstance, IllustrationProperties,
    ProximityProperties, RigidTransform, Role, Sphere,
)
from scene_graph_scenes import context_at_identity, two_sphere_scene


def _distances(sg, ctx):
    query = sg.get_query_output_port().eval(ctx)
    return [p.distance for p in query.compute_signed_distance_pairwise_closest_points()]


def test_change_shape_in_a_context_changes_that_context_only():
    sg, s, f, a, b = two_sphere_scene()
    ctx, other = context_at_identity(sg, s, f), context_at_identity(sg, s, f)
    assert _distances(sg, ctx) == [pytest.approx(1.0)]
    sg.change_shape(ctx, s, a, Box(2.0, 2.0, 2.0))                 # face at x = 1
    assert _distances(sg, ctx) == [pytest.approx(0.5)]
    assert _distances(sg, other) == [pytest.approx(1.0)]
    assert isinstance(sg.model_inspector().get_shape(a), Sphere)    # the model is unchanged
    inspector = sg.get_query_output_port().eval(ctx).inspector()
    assert isinstance(inspector.get_shape(a), Box)
    sg.change_shape(context=ctx, source_id=s, geometry_id=a, shape=Sphere(0.5),
                    X_FG=RigidTransform([0.25, 0, 0]))
    assert _distances(sg, ctx) == [pytest.approx(0.75)]
    assert _distances(sg, context_at_identity(sg, s, f)) == [pytest.approx(1.0)]   # new contexts: the model's


def test_remove_geometry_in_a_context():
    sg, s, f, a, b = two_sphere_scene()
    ctx = context_at_identity(sg, s, f)
    sg.remove_geometry(ctx, s, b)
    assert _distances(sg, ctx) == []
    assert sg.get_query_output_port().eval(ctx).inspector().num_geometries() == 1
    assert sg.model_inspector().num_geometries() == 2
    assert _distances(sg, context_at_identity(sg, s, f)) == [pytest.approx(1.0)]
    with pytest.raises(RuntimeError, match="SceneGraph.remove_geometry: geometry_id .* is not a "
                                           "registered geometry"):
        sg.remove_geometry(ctx, s, b)
    # the context's copy survives cloning
    assert _distances(sg, ctx.clone()) == []


def test_failed_context_edit_leaves_the_context_unchanged():
    sg, s, f, a, b = two_sphere_scene()
    other = sg.register_source("other")      # (sources come before contexts)
    ctx = context_at_identity(sg, s, f)
    with pytest.raises(RuntimeError, match="SceneGraph.change_shape: geometry 'a' does not belong "
                                           "to source 'other'"):
        sg.change_shape(ctx, other, a, Box(2.0, 2.0, 2.0))
    assert _distances(sg, ctx) == [pytest.approx(1.0)]


def test_assign_and_remove_role_in_a_context():
    sg, s, f, a, b = two_sphere_scene()
    ctx = context_at_identity(sg, s, f)
    assert sg.remove_role(ctx, s, a, Role.kProximity) == 1
    assert _distances(sg, ctx) == []
    assert sg.model_inspector().get_proximity_properties(a) is not None
    assert sg.remove_role(context=ctx, source_id=s, geometry_id=a, role=Role.kProximity) == 0
    sg.assign_role(ctx, s, a, ProximityProperties())
    assert _distances(sg, ctx) == [pytest.approx(1.0)]
    with pytest.raises(RuntimeError, match="SceneGraph.assign_role: geometry 'a' already has the"):
        sg.assign_role(ctx, s, a, ProximityProperties())
    sg.assign_role(ctx, s, a, IllustrationProperties())
    inspector = sg.get_query_output_port().eval(ctx).inspector()
    assert inspector.get_illustration_properties(a) is not None
    assert sg.model_inspector().get_illustration_properties(a) is None


def test_remove_role_by_frame_counts_the_geometries():
    sg, s, f, a, b = two_sphere_scene()
    c = sg.register_geometry(s, f, GeometryInstance(RigidTransform(), Sphere(0.1), "c"))
    sg.assign_role(s, c, ProximityProperties())
    ctx = context_at_identity(sg, s, f)
    assert sg.remove_role(ctx, s, f, Role.kProximity) == 2
    assert sg.remove_role(ctx, source_id=s, frame_id=f, role=Role.kProximity) == 0
    assert _distances(sg, ctx) == []
    assert sg.remove_role(s, sg.world_frame_id(), Role.kProximity) == 1     # the model's b
    assert sg.model_inspector().get_proximity_properties(b) is None


def test_register_geometry_in_a_context():
    sg, s, f, a, b = two_sphere_scene()
    ctx = context_at_identity(sg, s, f)
    g = sg.register_geometry(ctx, s, f, GeometryInstance(RigidTransform([-2.0, 0, 0]),
                                                         Sphere(0.5), "d"))
    sg.assign_role(ctx, s, g, ProximityProperties())
    # d and a share frame f (never paired); d is 3 from b
    assert sorted(_distances(sg, ctx)) == [pytest.approx(1.0), pytest.approx(3.0)]
    assert sg.model_inspector().num_geometries() == 2


def test_context_edit_through_a_diagram_context():
    sg, s, f, a, b = two_sphere_scene()
    builder = DiagramBuilder()
    builder.add_system(sg)
    diagram = builder.build()
    root = diagram.create_default_context()
    sg.remove_geometry(root, s, b)          # the scene graph's subcontext is edited
    sub = sg.get_my_context_from_root(root)
    assert sg.get_query_output_port().eval(sub).inspector().num_geometries() == 1


def test_contexts_with_different_poses_query_their_own_poses_in_turn():
    # the contexts share one proximity engine (per model and thread): each query poses it
    # from its own context, including after another context's query and a pose change
    sg, s, f, a, b = two_sphere_scene()
    ctx, other = context_at_identity(sg, s, f), context_at_identity(sg, s, f)

    def move(context, x):
        poses = FramePoseVector()
        poses.set_value(id=f, value=RigidTransform([x, 0, 0]))
        sg.get_source_pose_port(s).fix_value(context, poses)

    move(other, 0.5)
    for _ in range(2):
        assert _distances(sg, ctx) == [pytest.approx(1.0)]
        assert _distances(sg, other) == [pytest.approx(0.5)]
    move(ctx, -1.0)
    assert _distances(sg, ctx) == [pytest.approx(2.0)]
    assert _distances(sg, ctx) == [pytest.approx(2.0)]
    assert _distances(sg, other) == [pytest.approx(0.5)]
