"""calc_volume(shape): the volume enclosed by a shape (Drake's CalcVolume)."""

import math

import numpy as np

from .shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, MeshcatCone, Sphere

__all__ = ["calc_volume"]


def _mesh_volume(mesh):
    """Volume of the closed triangle mesh in a Mesh shape (scaled): the divergence
    theorem over its triangles (read by `proximity.mesh_loading.load_triangles`)."""
    from .proximity.mesh_loading import load_triangles
    vertices, faces, _ = load_triangles(mesh.source())
    a, b, c = (vertices[faces[:, i]] for i in range(3))
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0
    return abs(float(volume)) * abs(float(np.prod(mesh.scale3())))


def calc_volume(shape):
    """The volume (m³) of `shape`; ``inf`` for a HalfSpace.

    A Convex uses its convex hull; a Mesh the (closed) triangle mesh itself.
    """
    if isinstance(shape, Sphere):
        return 4.0 / 3.0 * math.pi * shape.radius() ** 3
    if isinstance(shape, Box):
        return float(np.prod(shape.size()))
    if isinstance(shape, Capsule):
        r = shape.radius()
        return math.pi * r * r * shape.length() + 4.0 / 3.0 * math.pi * r ** 3
    if isinstance(shape, Cylinder):
        return math.pi * shape.radius() ** 2 * shape.length()
    if isinstance(shape, Ellipsoid):
        return 4.0 / 3.0 * math.pi * shape.a() * shape.b() * shape.c()
    if isinstance(shape, HalfSpace):
        return math.inf
    if isinstance(shape, MeshcatCone):
        return math.pi * shape.a() * shape.b() * shape.height() / 3.0
    if isinstance(shape, Convex):
        from scipy.spatial import ConvexHull
        return float(ConvexHull(shape.convex_hull_vertices()).volume)
    if isinstance(shape, Mesh):
        return _mesh_volume(shape)
    raise TypeError(f"calc_volume: expected a Shape, got {type(shape).__name__}")
