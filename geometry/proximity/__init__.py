"""Proximity: compiled narrow-phase pair tests (closed forms, GJK/EPA), the broad phase and
the scene-level query kernels used by QueryObject.

Modules: ``support`` (support mappings of the convex shapes), ``primitives`` (closed-form
pairs), ``gjk_epa`` (distance and penetration of general convex pairs), ``narrow_phase``
(pair dispatch), ``broad_phase`` (bounding boxes, sweep and prune), ``scene`` (world
poses and whole-scene queries), ``tables`` (the flat arrays built from a SceneGraph
model), ``mesh_loading`` (convex hulls of mesh files through trimesh).
"""
