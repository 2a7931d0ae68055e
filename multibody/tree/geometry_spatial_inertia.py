"""The spatial inertia of a uniform-density shape or closed triangle mesh (Drake's
``CalcSpatialInertia(shape, density)`` and ``CalcSpatialInertia(mesh, density)``).

Shapes are centered at their geometry frame's origin, cylinders and capsules along z (as
SceneGraph's shapes); a Convex uses the convex hull of its file's vertices. A mesh's
inertia comes from the divergence theorem: with each outward triangle (a, b, c) and the
origin forming a signed tetrahedron of volume V = a·(b×c)/6, the volume, first moment and
second moment ∫ r rᵀ dV are the sums of V, V (a+b+c)/4 and V/20 (a aᵀ + b bᵀ + c cᵀ +
s sᵀ), s = a+b+c.
"""

import numpy as np

from merganser.geometry import (
    Box, Capsule, Convex, Cylinder, Ellipsoid, Sphere, TriangleSurfaceMesh,
)
from merganser.multibody.math import SpatialInertia, UnitInertia

__all__ = ["calc_spatial_inertia", "mesh_spatial_inertia"]

_Z = np.array([0.0, 0.0, 1.0])


def mesh_spatial_inertia(vertices, triangles, density):
    """M_SSo_S of the closed triangle mesh `triangles` (nt, 3) over `vertices` (nv, 3)
    (outward, counter-clockwise triangles) filled with `density` (kg/m³), about the
    vertices' origin; ValueError unless it encloses a positive volume."""
    v = np.asarray(vertices, dtype=np.float64)
    t = np.asarray(triangles, dtype=np.int64)
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    vol = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    s = a + b + c
    volume = vol.sum()
    if not volume > 0.0:
        raise ValueError(f"calc_spatial_inertia: the mesh encloses the volume {float(volume)!r}; "
                         f"expected a closed mesh with outward (counter-clockwise) triangles")
    first = (vol[:, None] * s).sum(axis=0) / 4.0
    C = sum(np.einsum("i,ij,ik->jk", vol / 20.0, x, x) for x in (a, b, c, s))
    mass = density * volume
    G = (np.trace(C) * np.eye(3) - C) / volume          # about the origin, per unit mass
    return SpatialInertia(mass, first / volume, UnitInertia(G))


def calc_spatial_inertia(shape=None, density=None, *, mesh=None):
    """M_SSo_S of a uniform-density `shape` (kg/m³ `density`) about its frame's origin.

    Parameters
    ----------
    shape : Box, Sphere, Cylinder, Capsule, Ellipsoid or Convex
    density : float
        Mass per volume, > 0.
    mesh : TriangleSurfaceMesh or SurfaceMesh, keyword
        Instead of `shape`: a closed triangle mesh (outward triangles), its vertices in S.

    Raises
    ------
    ValueError
        For a shape without a volume (HalfSpace), a Mesh (give its Convex, or load its
        triangles), a non-positive density or an open mesh.
    """
    if density is None or not (np.isfinite(density) and density > 0.0):
        raise ValueError(f"calc_spatial_inertia: density must be positive and finite, got "
                         f"{density!r}")
    if mesh is not None:
        if shape is not None:
            raise TypeError("calc_spatial_inertia: give shape= or mesh=, not both")
        if isinstance(mesh, TriangleSurfaceMesh):
            return mesh_spatial_inertia(mesh.vertex_array(), mesh.index_array(), density)
        if not (hasattr(mesh, "vertices_G") and hasattr(mesh, "triangles")):
            raise TypeError(f"calc_spatial_inertia: mesh must be a TriangleSurfaceMesh or a "
                            f"SurfaceMesh, got {type(mesh).__name__}")
        return mesh_spatial_inertia(mesh.vertices_G, mesh.triangles, density)
    if isinstance(shape, Box):
        return SpatialInertia.solid_box_with_density(density, *shape.size())
    if isinstance(shape, Sphere):
        return SpatialInertia.solid_sphere_with_density(density, shape.radius())
    if isinstance(shape, Cylinder):
        return SpatialInertia.solid_cylinder_with_density(density, shape.radius(),
                                                          shape.length(), _Z)
    if isinstance(shape, Capsule):
        return SpatialInertia.solid_capsule_with_density(density, shape.radius(),
                                                         shape.length(), _Z)
    if isinstance(shape, Ellipsoid):
        return SpatialInertia.solid_ellipsoid_with_density(density, shape.a(), shape.b(),
                                                           shape.c())
    if isinstance(shape, Convex):
        from merganser.geometry.hydroelastic import make_convex_surface_mesh

        hull = make_convex_surface_mesh(shape.convex_hull_vertices())
        return mesh_spatial_inertia(hull.vertices_G, hull.triangles, density)
    raise ValueError(f"calc_spatial_inertia: shape must be a Box, Sphere, Cylinder, Capsule, "
                     f"Ellipsoid or Convex, got {type(shape).__name__}; a HalfSpace has no "
                     f"finite volume, and a Mesh's inertia needs its triangles (pass mesh=)")
