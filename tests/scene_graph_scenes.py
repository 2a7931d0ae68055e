"""A small SceneGraph scene shared by the model-edit tests: two unit-diameter spheres,
one on a moving frame at the origin, one anchored 2 m along x (signed distance 1)."""

from merganser.geometry import (
    FramePoseVector, GeometryFrame, GeometryInstance, ProximityProperties, RigidTransform,
    SceneGraph, Sphere,
)


def two_sphere_scene():
    """Return (scene_graph, source_id, frame_id, geometry_a, geometry_b), both with
    proximity roles."""
    sg = SceneGraph()
    s = sg.register_source("s")
    f = sg.register_frame(s, GeometryFrame("f"))
    a = sg.register_geometry(s, f, GeometryInstance(RigidTransform(), Sphere(0.5), "a"))
    b = sg.register_anchored_geometry(s, GeometryInstance(RigidTransform([2.0, 0, 0]),
                                                          Sphere(0.5), "b"))
    for g in (a, b):
        sg.assign_role(s, g, ProximityProperties())
    return sg, s, f, a, b


def context_at_identity(sg, s, f):
    """A default Context of `sg` with source `s`'s frame `f` posed at the identity."""
    ctx = sg.create_default_context()
    poses = FramePoseVector()
    poses.set_value(id=f, value=RigidTransform())
    sg.get_source_pose_port(s).fix_value(ctx, poses)
    return ctx
