"""Transient collision filter declarations, activation and CollisionFilterScope, checked on
the pairs reported by a real penetration query."""

import pytest

from merganser.geometry import (
    CollisionFilterDeclaration, CollisionFilterScope, FilterId, FramePoseVector, GeometryFrame,
    GeometryInstance, GeometrySet, HalfSpace, ProximityProperties, RigidTransform, SceneGraph,
    Sphere,
)


def _scene():
    # two overlapping balls (0.1 apart, radius 0.1) resting in the ground: 3 colliding pairs
    sg = SceneGraph()
    source = sg.register_source("balls")
    frames, geoms = [], []
    for i, p in enumerate([[0, 0, 0.05], [0.15, 0, 0.05]]):
        f = sg.register_frame(source, GeometryFrame(f"f{i}"))
        inst = GeometryInstance(RigidTransform(), Sphere(0.1), f"s{i}")
        inst.set_proximity_properties(ProximityProperties())
        frames.append((f, p))
        geoms.append(sg.register_geometry(source, f, inst))
    ground = GeometryInstance(RigidTransform(), HalfSpace(), "ground")
    ground.set_proximity_properties(ProximityProperties())
    ground = sg.register_anchored_geometry(source, ground)
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    for f, p in frames:
        poses.set_value(f, RigidTransform(p))
    sg.get_source_pose_port(source).fix_value(ctx, poses)
    return sg, ctx, geoms, ground


def _pairs(sg, ctx):
    query = sg.get_query_output_port().eval(ctx)
    return [(p.id_A, p.id_B) for p in query.compute_point_pair_penetration()]


def test_transient_declaration_removal_restores_the_pairs():
    sg, ctx, (a, b), ground = _scene()
    everything = [(a, b), (a, ground), (b, ground)]
    assert _pairs(sg, ctx) == everything
    manager = sg.collision_filter_manager(ctx)
    assert not manager.has_transient_history()
    first = manager.apply_transient(CollisionFilterDeclaration().exclude_within(GeometrySet([a, b])))
    assert isinstance(first, FilterId)
    assert _pairs(sg, ctx) == [(a, ground), (b, ground)]
    second = manager.apply_transient(
        CollisionFilterDeclaration(scope=CollisionFilterScope.kOmitDeformable)
        .exclude_between(GeometrySet(a), GeometrySet(ground)))
    assert _pairs(sg, ctx) == [(b, ground)]
    assert manager.is_active(first) and manager.is_active(second)
    # the persistent configuration cannot change under a transient history
    with pytest.raises(RuntimeError, match="transient"):
        manager.apply(CollisionFilterDeclaration().exclude_within(GeometrySet([b, ground])))
    # removing the older one keeps the newer one
    assert manager.remove_declaration(first) is True
    assert not manager.is_active(first)
    assert manager.remove_declaration(first) is False
    assert _pairs(sg, ctx) == [(a, b), (b, ground)]
    assert manager.remove_declaration(second) is True
    assert not manager.has_transient_history()
    assert _pairs(sg, ctx) == everything
    manager.apply(CollisionFilterDeclaration().exclude_within(GeometrySet([a, b])))
    assert _pairs(sg, ctx) == [(a, ground), (b, ground)]


def test_transient_allow_is_undone_on_removal():
    sg, ctx, (a, b), ground = _scene()
    manager = sg.collision_filter_manager(ctx)
    manager.apply(CollisionFilterDeclaration().exclude_within(GeometrySet([a, b])))
    fid = manager.apply_transient(CollisionFilterDeclaration().allow_within(GeometrySet([a, b])))
    assert _pairs(sg, ctx) == [(a, b), (a, ground), (b, ground)]
    manager.remove_declaration(fid)
    assert _pairs(sg, ctx) == [(a, ground), (b, ground)]


def test_deactivate_removes_geometry_from_candidates_without_changing_filters():
    sg, ctx, (a, b), ground = _scene()
    manager = sg.collision_filter_manager(ctx)
    manager.deactivate(geometry_set=GeometrySet(a))
    assert _pairs(sg, ctx) == [(b, ground)]
    assert sg.model_inspector().collision_filtered(a, b) is False
    manager.activate(geometry_set=GeometrySet(a))
    assert _pairs(sg, ctx) == [(a, b), (a, ground), (b, ground)]
