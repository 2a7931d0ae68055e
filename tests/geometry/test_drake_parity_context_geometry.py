"""Drake parity: a Context holds the geometry of its creation (edits of the model after it,
or of another Context, do not reach it), inspectors follow later edits of what they
view, and GeometryConfigurationVector's methods."""

import numpy as np
import pytest

from merganser.geometry import (
    Box, Capsule, GeometryConfigurationVector, GeometryFrame, GeometryId, GeometryInstance,
    ProximityProperties, RigidTransform, SceneGraph, Sphere,
)


def _scene_with_sphere():
    sg = SceneGraph()
    source = sg.register_source("src")
    gid = sg.register_geometry(source_id=source, frame_id=sg.world_frame_id(),
                               geometry=GeometryInstance(RigidTransform(), Sphere(1.0), "s"))
    return sg, source, gid


def _context_inspector(sg, context):
    return sg.get_query_output_port().eval(context).inspector()


def test_inspectors_follow_later_edits_of_what_they_view():
    sg, source, gid = _scene_with_sphere()
    context = sg.create_default_context()
    model_inspector = sg.model_inspector()
    context_inspector = _context_inspector(sg, context)
    sg.register_geometry(context=context, source_id=source, frame_id=sg.world_frame_id(),
                         geometry=GeometryInstance(RigidTransform(), Box(1, 2, 3), "b"))
    assert (model_inspector.num_geometries(), context_inspector.num_geometries()) == (1, 2)
    sg.register_geometry(source_id=source, frame_id=sg.world_frame_id(),
                         geometry=GeometryInstance(RigidTransform(), Box(1, 2, 3), "b2"))
    assert (model_inspector.num_geometries(), context_inspector.num_geometries()) == (2, 2)


def test_a_context_keeps_the_geometry_of_its_creation():
    sg, source, gid = _scene_with_sphere()
    context = sg.create_default_context()
    X_FG = RigidTransform(p=[1.0, 2.0, 3.0])
    sg.change_shape(source_id=source, geometry_id=gid, shape=Capsule(1, 2), X_FG=X_FG)
    model_inspector, context_inspector = sg.model_inspector(), _context_inspector(sg, context)
    assert isinstance(model_inspector.get_shape(gid), Capsule)
    np.testing.assert_array_equal(model_inspector.get_pose_in_frame(gid).translation(),
                                  [1.0, 2.0, 3.0])
    assert isinstance(context_inspector.get_shape(gid), Sphere)
    np.testing.assert_array_equal(context_inspector.get_pose_in_frame(gid).translation(),
                                  np.zeros(3))
    later = sg.create_default_context()                 # a new Context: the model as it is
    assert isinstance(_context_inspector(sg, later).get_shape(gid), Capsule)


def test_context_edits_stay_in_that_context():
    sg, source, gid = _scene_with_sphere()
    a, b = sg.create_default_context(), sg.create_default_context()
    sg.change_shape(context=a, source_id=source, geometry_id=gid, shape=Box(1, 2, 3))
    assert isinstance(_context_inspector(sg, a).get_shape(gid), Box)
    assert isinstance(_context_inspector(sg, b).get_shape(gid), Sphere)
    assert isinstance(sg.model_inspector().get_shape(gid), Sphere)
    clone = a.clone()
    sg.remove_geometry(context=a, source_id=source, geometry_id=gid)
    assert _context_inspector(sg, a).num_geometries() == 0
    assert _context_inspector(sg, clone).num_geometries() == 1
    sg.remove_geometry(source_id=source, geometry_id=gid)
    assert sg.model_inspector().num_geometries() == 0
    assert _context_inspector(sg, b).num_geometries() == 1


def test_roles_assigned_to_the_model_after_a_context_do_not_reach_it():
    sg, source, gid = _scene_with_sphere()
    context = sg.create_default_context()
    sg.assign_role(source_id=source, geometry_id=gid, properties=ProximityProperties())
    assert sg.model_inspector().get_proximity_properties(gid) is not None
    assert _context_inspector(sg, context).get_proximity_properties(gid) is None


def test_frames_registered_after_a_context_still_take_poses():
    sg, source, gid = _scene_with_sphere()
    sg.create_default_context()
    frame = sg.register_frame(source_id=source, frame=GeometryFrame("f"))
    sg.register_geometry(source_id=source, frame_id=frame,
                         geometry=GeometryInstance(RigidTransform(), Sphere(0.5), "on_f"))
    assert sg.model_inspector().num_geometries() == 2
    context = sg.create_default_context()
    assert _context_inspector(sg, context).num_geometries() == 2


def test_geometry_configuration_vector_api():
    gcv = GeometryConfigurationVector()
    gid = GeometryId.get_new_id()
    gcv.set_value(id=gid, value=np.arange(6.0))
    assert gcv.size() == 1 and gcv.has_id(id=gid) and gcv.ids() == [gid]
    q = gcv.value(id=gid)
    np.testing.assert_array_equal(q, np.arange(6.0))
    gcv.clear()
    assert gcv.size() == 0 and not gcv.has_id(gid)
    np.testing.assert_array_equal(q, np.arange(6.0))        # the value handed out stays
    with pytest.raises(KeyError, match="no configuration"):
        gcv.value(gid)
    with pytest.raises(TypeError, match="GeometryId"):
        gcv.set_value(id=3, value=np.zeros(3))


def test_inspector_source_and_frame_counts():
    from merganser.geometry import IllustrationProperties, Role
    sg = SceneGraph()
    a, b = sg.register_source("a"), sg.register_source("b")
    f1 = sg.register_frame(source_id=a, frame=GeometryFrame("f1"))
    f2 = sg.register_frame(source_id=a, frame=GeometryFrame("f2"))
    g1 = sg.register_geometry(source_id=a, frame_id=f1,
                              geometry=GeometryInstance(RigidTransform(), Sphere(1.0), "g1"))
    sg.register_geometry(source_id=a, frame_id=f1,
                         geometry=GeometryInstance(RigidTransform(), Box(1, 1, 1), "g2"))
    sg.register_anchored_geometry(
        b, GeometryInstance(RigidTransform(), Sphere(2.0), "ground"))
    sg.assign_role(source_id=a, geometry_id=g1, properties=ProximityProperties())
    inspector = sg.model_inspector()
    assert inspector.get_all_source_ids()[-2:] == [a, b]
    assert inspector.num_frames_for_source(source_id=a) == 2
    assert inspector.num_frames_for_source(source_id=b) == 0
    assert inspector.belongs_to_source(frame_id=f2, source_id=a)
    assert not inspector.belongs_to_source(frame_id=f2, source_id=b)
    assert inspector.belongs_to_source(geometry_id=g1, source_id=a)
    assert (inspector.num_dynamic_geometries(), inspector.num_anchored_geometries()) == (2, 1)
    assert inspector.num_geometries_for_frame_with_role(frame_id=f1, role=Role.kProximity) == 1
    assert inspector.num_geometries_for_frame_with_role(
        frame_id=f1, role=Role.kIllustration) == 0
    sg.assign_role(source_id=a, geometry_id=g1, properties=IllustrationProperties())
    clone = inspector.clone_geometry_instance(geometry_id=g1)
    assert isinstance(clone, GeometryInstance) and clone.id() != g1
    assert clone.name() == "g1" and isinstance(clone.shape(), Sphere)
    assert clone.proximity_properties() is not None
    assert clone.illustration_properties() is not None and clone.perception_properties() is None
    with pytest.raises(TypeError, match="exactly one"):
        inspector.belongs_to_source(source_id=a)


def test_inspector_source_membership_of_geometries_and_frame_sets():
    from merganser.geometry import GeometryFrame, GeometryInstance, RigidTransform, SceneGraph
    from merganser.geometry import Sphere
    sg = SceneGraph()
    src, other = sg.register_source("mine"), sg.register_source("other")
    f = sg.register_frame(src, GeometryFrame("mover"))
    g = sg.register_geometry(src, f, GeometryInstance(RigidTransform(), Sphere(0.1), "ball"))
    inspector = sg.model_inspector()
    assert inspector.belongs_to_source(g, src) and not inspector.belongs_to_source(g, other)
    assert inspector.belongs_to_source(f, src)
    assert inspector.frames_for_source(src) == {f}


def test_every_scene_graph_has_drakes_internal_source_owning_the_world_frame():
    from merganser.geometry import SceneGraph
    sg = SceneGraph()
    inspector = sg.model_inspector()
    assert inspector.num_sources() == 1
    (internal,) = inspector.get_all_source_ids()
    assert inspector.get_name(internal) == "SceneGraphInternal"
    assert inspector.get_owning_source_name(inspector.world_frame_id()) == "SceneGraphInternal"
    mine = sg.register_source("mine")
    assert inspector.num_sources() == 2 and inspector.get_all_source_ids()[1] == mine
    with pytest.raises(ValueError, match="already exists"):
        sg.register_source("SceneGraphInternal")
