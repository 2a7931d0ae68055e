"""Drake parity of SceneGraph frame registration keywords and of default identifiers."""

import pytest

from merganser.geometry import FrameId, GeometryFrame, GeometryId, SceneGraph


def test_register_frame_takes_pydrakes_keywords_and_positional_forms():
    sg = SceneGraph()
    source = sg.register_source("src")
    a = sg.register_frame(source_id=source, frame=GeometryFrame("a"))
    b = sg.register_frame(source_id=source, parent_id=a, frame=GeometryFrame("b"))
    c = sg.register_frame(source, GeometryFrame("c"))
    d = sg.register_frame(source, b, GeometryFrame("d"))
    inspector = sg.model_inspector()
    assert inspector.num_frames() == 5            # the world and four
    assert {inspector.get_name(f) for f in (a, b, c, d)} == {"a", "b", "c", "d"}
    assert inspector.get_parent_frame(b) == a and inspector.get_parent_frame(d) == b
    assert inspector.get_parent_frame(c) == sg.world_frame_id()
    with pytest.raises(TypeError, match="GeometryFrame"):
        sg.register_frame(source_id=source, parent_id=a)


def test_default_identifiers_are_invalid_as_in_drake():
    invalid = GeometryId()
    assert not invalid.is_valid() and GeometryId.get_new_id().is_valid()
    assert invalid == GeometryId() and invalid != FrameId()
    assert len({GeometryId(), GeometryId()}) == 1


def test_roles_by_drakes_member_names_and_geometry_ids_by_role():
    from merganser.framework import DiagramBuilder
    from merganser.geometry import CoulombFriction, RigidTransform, Role, Sphere
    from merganser.multibody import SpatialInertia, UnitInertia, add_multibody_plant_scene_graph

    assert Role.kProximity == Role.PROXIMITY and Role.kIllustration == Role.ILLUSTRATION
    assert Role.kPerception == Role.PERCEPTION and Role.kUnassigned == Role.UNASSIGNED
    builder = DiagramBuilder()
    plant, sg = add_multibody_plant_scene_graph(builder, 0.0)
    body = plant.add_rigid_body("ball", SpatialInertia(1.0, [0, 0, 0],
                                                       UnitInertia(0.1, 0.1, 0.1)))
    collision = plant.register_collision_geometry(body, RigidTransform(), Sphere(0.1), "c",
                                                  CoulombFriction(0.5, 0.5))
    visual = plant.register_visual_geometry(body, RigidTransform(), Sphere(0.1), "v")
    assert plant.get_collision_geometries_for_body(body=body) == [collision]
    assert plant.get_visual_geometries_for_body(body=body) == [visual]
    inspector = sg.model_inspector()
    assert inspector.get_all_geometry_ids(Role.kProximity) == [collision]
    assert inspector.get_all_geometry_ids(role=Role.kIllustration) == [visual]
    assert sorted(inspector.get_all_geometry_ids()) == sorted([collision, visual])
