"""SceneGraph registration, roles, inspector, collision filters, the broad phase and the
QueryObject on a scene with fixed frame poses."""

import itertools

import numpy as np
import pytest

from merganser.geometry import (
    Box, CollisionFilterDeclaration, CoulombFriction, FramePoseVector, GeometryFrame,
    GeometryInstance, GeometrySet, HalfSpace, IllustrationProperties, ProximityProperties,
    RigidTransform, Role, SceneGraph, Sphere, add_compliant_hydroelastic_properties,
    add_contact_material, add_rigid_hydroelastic_properties,
)


def proximity(shape, name, X=None):
    g = GeometryInstance(RigidTransform() if X is None else X, shape, name)
    g.set_proximity_properties(ProximityProperties())
    return g


def make_scene(positions, radius=0.1):
    sg = SceneGraph()
    source = sg.register_source("balls")
    frames, geoms = [], []
    for i in range(len(positions)):
        f = sg.register_frame(source, GeometryFrame(f"f{i}"))
        frames.append(f)
        geoms.append(sg.register_geometry(source, f, proximity(Sphere(radius), f"s{i}")))
    ground = sg.register_anchored_geometry(source, proximity(HalfSpace(), "ground"))
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    for f, p in zip(frames, positions):
        poses.set_value(f, RigidTransform(p))
    sg.get_source_pose_port(source).fix_value(ctx, poses)
    return sg, source, frames, geoms, ground, ctx


def test_penetration_pairs_sorted_with_world_witnesses():
    sg, _, _, geoms, ground, ctx = make_scene([[0, 0, 0.05], [0.15, 0, 0.05], [1, 1, 1]])
    query = sg.get_query_output_port().eval(ctx)
    pairs = query.compute_point_pair_penetration()
    got = [(p.id_A, p.id_B) for p in pairs]
    assert got == [(geoms[0], geoms[1]), (geoms[0], ground), (geoms[1], ground)]
    ball_ball = pairs[0]
    assert ball_ball.depth == pytest.approx(0.05)
    np.testing.assert_allclose(ball_ball.nhat_BA_W, [-1, 0, 0])
    np.testing.assert_allclose(ball_ball.p_WCb, ball_ball.p_WCa + 0.05 * ball_ball.nhat_BA_W)
    assert pairs[1].depth == pytest.approx(0.05)
    assert query.has_collisions()


def test_signed_distance_respects_max_distance_and_reports_frames():
    sg, _, _, geoms, ground, ctx = make_scene([[0, 0, 0.5], [0.5, 0, 0.5]])
    query = sg.get_query_output_port().eval(ctx)
    all_pairs = query.compute_signed_distance_pairwise_closest_points()
    assert len(all_pairs) == 3
    near = query.compute_signed_distance_pairwise_closest_points(max_distance=0.35)
    assert [(p.id_A, p.id_B) for p in near] == [(geoms[0], geoms[1])]
    assert near[0].distance == pytest.approx(0.3)
    np.testing.assert_allclose(near[0].p_ACa, [0.1, 0, 0])    # in A's frame
    np.testing.assert_allclose(near[0].p_BCb, [-0.1, 0, 0])
    assert not query.has_collisions()


def test_broad_phase_finds_exactly_the_overlapping_pairs():
    rng = np.random.default_rng(7)
    positions = rng.uniform([-1, -1, 0.2], [1, 1, 1.0], size=(120, 3))
    sg, _, _, geoms, _, ctx = make_scene(positions, radius=0.08)
    query = sg.get_query_output_port().eval(ctx)
    got = {(p.id_A, p.id_B) for p in query.compute_point_pair_penetration()}
    expected = {(geoms[i], geoms[j]) for i, j in itertools.combinations(range(120), 2)
                if np.linalg.norm(positions[i] - positions[j]) < 0.16}
    assert got == expected and len(expected) > 5
    engine = sg._eval_proximity(ctx)
    assert engine.npairs < 120 * 119 // 2 // 10      # far fewer than all pairs were tested


def test_collision_filter_excludes_between_and_within():
    sg, source, frames, geoms, ground, ctx = make_scene([[0, 0, 0.05], [0.15, 0, 0.05]])
    manager = sg.collision_filter_manager()
    manager.apply(CollisionFilterDeclaration().exclude_between(GeometrySet(frames[0]),
                                                               GeometrySet(ground)))
    assert not manager.can_collide_with(geoms[0], ground)
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    poses.set_value(frames[0], RigidTransform([0, 0, 0.05]))
    poses.set_value(frames[1], RigidTransform([0.15, 0, 0.05]))
    sg.get_source_pose_port(source).fix_value(ctx, poses)
    pairs = sg.get_query_output_port().eval(ctx).compute_point_pair_penetration()
    assert [(p.id_A, p.id_B) for p in pairs] == [(geoms[0], geoms[1]), (geoms[1], ground)]
    # a context-level filter leaves the model alone
    sg.collision_filter_manager(ctx).apply(
        CollisionFilterDeclaration().exclude_within(GeometrySet(geoms)))
    pairs = sg.get_query_output_port().eval(ctx).compute_point_pair_penetration()
    assert [(p.id_A, p.id_B) for p in pairs] == [(geoms[1], ground)]
    assert sg.model_inspector().collision_filtered(geoms[0], geoms[1]) is False


def test_geometries_on_one_frame_and_anchored_pairs_never_collide():
    sg = SceneGraph()
    source = sg.register_source("s")
    f = sg.register_frame(source, GeometryFrame("f"))
    a = sg.register_geometry(source, f, proximity(Sphere(0.1), "a"))
    b = sg.register_geometry(source, f, proximity(Sphere(0.1), "b"))
    c = sg.register_anchored_geometry(source, proximity(Box(1, 1, 1), "c"))
    d = sg.register_anchored_geometry(source, proximity(Sphere(1), "d"))
    inspector = sg.model_inspector()
    assert inspector.collision_filtered(a, b) and inspector.collision_filtered(c, d)
    assert not inspector.collision_filtered(a, c)
    assert inspector.get_collision_candidates() == [(a, c), (a, d), (b, c), (b, d)]


def test_inspector_takes_pydrakes_id_keywords():
    sg = SceneGraph()
    source = sg.register_source("robot")
    f = sg.register_frame(source, GeometryFrame("link"))
    a = sg.register_geometry(source, f, proximity(Sphere(0.1), "a"))
    c = sg.register_anchored_geometry(source, proximity(Box(1, 1, 1), "c"))
    inspector = sg.model_inspector()
    assert inspector.get_name(geometry_id=a) == "a"
    assert inspector.get_name(frame_id=f) == "link"
    assert inspector.get_name(source_id=source) == "robot"
    assert inspector.get_owning_source_name(geometry_id=c) == "robot"
    assert inspector.get_owning_source_name(frame_id=f) == "robot"
    assert inspector.collision_filtered(geometry_id1=a, geometry_id2=c) is False
    with pytest.raises(TypeError, match="SceneGraphInspector.get_name: expected one id .*got 2"):
        inspector.get_name(a, frame_id=f)
    with pytest.raises(TypeError, match="SceneGraphInspector.get_owning_source_name: expected "
                                        "one id .*got 0"):
        inspector.get_owning_source_name()


def test_registration_and_roles_through_the_inspector():
    sg = SceneGraph()
    source = sg.register_source("robot")
    f = sg.register_frame(source, GeometryFrame("link", 3))
    inst = GeometryInstance(RigidTransform([0, 0, 0.1]), Box(0.1, 0.2, 0.3), "body")
    g = sg.register_geometry(source, f, inst)
    inspector = sg.model_inspector()
    assert inspector.get_name(g) == "body" and inspector.get_frame_id(g) == f
    assert inspector.get_frame_group(f) == 3 and inspector.get_name(source) == "robot"
    np.testing.assert_allclose(inspector.get_pose_in_frame(g).translation(), [0, 0, 0.1])
    assert inspector.get_proximity_properties(g) is None
    props = add_contact_material(dissipation=2.0, point_stiffness=1e5,
                                 friction=CoulombFriction(0.6, 0.4))
    sg.assign_role(source, g, props)
    illustration = IllustrationProperties()
    illustration.add_property("phong", "diffuse", np.array([1.0, 0, 0, 1]))
    sg.assign_role(source, g, illustration)
    assert inspector.get_geometry_ids(role=Role.PROXIMITY) == [g]
    assert inspector.get_proximity_properties(g).get_property("material",
                                                              "point_contact_stiffness") == 1e5
    with pytest.raises(ValueError, match="already has the proximity role"):
        sg.assign_role(source, g, ProximityProperties())
    sg.assign_role(source, g, ProximityProperties(), assign="replace")
    assert not inspector.get_proximity_properties(g).has_group("material")
    assert inspector.get_geometry_id_by_name(f, Role.ILLUSTRATION, "body") == g


def test_registration_errors_name_the_problem():
    sg = SceneGraph()
    source = sg.register_source("s")
    with pytest.raises(ValueError, match="already exists"):
        sg.register_source("s")
    f = sg.register_frame(source, GeometryFrame("f"))
    sg.register_geometry(source, f, proximity(Sphere(0.1), "a"))
    with pytest.raises(ValueError, match="already has a geometry named 'a' with the "
                                         "proximity role"):
        sg.register_geometry(source, f, proximity(Sphere(0.1), "a"))
    # names are unique per frame and role (Drake): a visual may share the name
    visual = GeometryInstance(RigidTransform(), Sphere(0.1), "a")
    visual.set_illustration_properties(IllustrationProperties())
    sg.register_geometry(source, f, visual)
    unroled = sg.register_geometry(source, f, GeometryInstance(RigidTransform(), Sphere(0.1),
                                                               "a"))
    with pytest.raises(ValueError, match="named 'a' with the proximity role"):
        sg.assign_role(source, unroled, ProximityProperties())
    other = SceneGraph().register_source("x")
    with pytest.raises(ValueError, match="not a registered source"):
        sg.register_frame(other, GeometryFrame("g"))
    with pytest.raises(TypeError, match="GeometryInstance"):
        sg.register_anchored_geometry(source, Sphere(1.0))
    with pytest.raises(ValueError, match="radius must be finite and >= 0"):
        Sphere(-1.0)


def test_property_helpers_write_drake_names():
    props = add_compliant_hydroelastic_properties(0.01, 1e6, ProximityProperties())
    assert props.get_property("hydroelastic", "compliance_type") == "compliant"
    assert props.get_property("hydroelastic", "hydroelastic_modulus") == 1e6
    rigid = add_rigid_hydroelastic_properties(0.02)
    assert rigid.get_property("hydroelastic", "compliance_type") == "rigid"
    with pytest.raises(ValueError, match="point_stiffness must be finite and > 0"):
        add_contact_material(point_stiffness=0.0)
    with pytest.raises(ValueError, match="dynamic_friction .* must not exceed"):
        CoulombFriction(0.2, 0.5)


def test_compute_contact_surfaces_refuses_geometry_without_hydroelastic_properties():
    sg, _, _, _, _, ctx = make_scene([[0, 0, 0.05]])
    with pytest.raises(ValueError, match="'s0'.*'ground'|'ground'.*'s0'"):
        sg.get_query_output_port().eval(ctx).compute_contact_surfaces()


def test_nested_frames_compose_poses():
    sg = SceneGraph()
    source = sg.register_source("s")
    parent = sg.register_frame(source, GeometryFrame("parent"))
    child = sg.register_frame(source, parent, GeometryFrame("child"))
    g = sg.register_geometry(source, child, proximity(Sphere(0.1), "ball"))
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    poses.set_value(parent, RigidTransform([1.0, 0, 0]))
    poses.set_value(child, RigidTransform([0, 2.0, 0]))
    sg.get_source_pose_port(source).fix_value(ctx, poses)
    X = sg.get_query_output_port().eval(ctx).get_pose_in_world(g)
    np.testing.assert_allclose(X.translation(), [1.0, 2.0, 0])
