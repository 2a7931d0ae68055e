"""TriangleSurfaceMesh and SurfaceTriangle: a triangle mesh as Drake's geometry API gives
it (vertex positions and triangles of vertex indices, counter-clockwise seen from the side
the normals point to)."""

import numpy as np

from .surface_mesh_faces import SurfaceMeshFaces

__all__ = ["SurfaceTriangle", "TriangleSurfaceMesh"]


class SurfaceTriangle:
    """Three vertex indices (v0, v1, v2) of a TriangleSurfaceMesh."""

    __slots__ = ("_v",)

    def __init__(self, v0, v1, v2):
        v = (int(v0), int(v1), int(v2))
        if min(v) < 0 or len(set(v)) != 3:
            raise ValueError(f"SurfaceTriangle: the vertex indices must be three distinct "
                             f"non-negative integers, got {v}")
        self._v = v

    def vertex(self, i):
        """The index of vertex i (0, 1 or 2)."""
        return self._v[i]

    def __eq__(self, other):
        return isinstance(other, SurfaceTriangle) and self._v == other._v

    __hash__ = None

    def __repr__(self):
        return f"SurfaceTriangle({self._v[0]}, {self._v[1]}, {self._v[2]})"


class TriangleSurfaceMesh(SurfaceMeshFaces):
    """A triangle mesh: `triangles` (SurfaceTriangle or index triples) over `vertices`
    (positions (3,), m).

    Raises
    ------
    ValueError
        For an empty mesh, a vertex index out of range or a degenerate (zero-area) triangle.
    """

    def __init__(self, triangles, vertices):
        self._vertices = np.array([np.asarray(p, dtype=np.float64) for p in vertices])
        tris = [t if isinstance(t, SurfaceTriangle) else SurfaceTriangle(*t) for t in triangles]
        if not tris or self._vertices.ndim != 2 or self._vertices.shape[1] != 3:
            raise ValueError("TriangleSurfaceMesh: give at least one triangle and vertices of "
                             "shape (3,)")
        self._triangles = tris
        self._index = np.array([[t.vertex(i) for i in range(3)] for t in tris], dtype=np.int64)
        if self._index.max() >= len(self._vertices):
            raise ValueError(f"TriangleSurfaceMesh: a triangle names vertex "
                             f"{int(self._index.max())}, but there are {len(self._vertices)}")
        a, b, c = (self._vertices[self._index[:, i]] for i in range(3))
        cross = np.cross(b - a, c - a)
        self._areas = 0.5 * np.linalg.norm(cross, axis=1)
        if np.any(self._areas == 0.0):
            raise ValueError(f"TriangleSurfaceMesh: triangle "
                             f"{int(np.argmin(self._areas))} has zero area")
        self._normals = cross / (2.0 * self._areas[:, None])
        self._centroids = (a + b + c) / 3.0

    def num_triangles(self):
        """The number of triangles."""
        return len(self._triangles)

    num_elements = num_triangles

    def triangles(self):
        """The triangles (list of SurfaceTriangle)."""
        return list(self._triangles)

    def vertices(self):
        """The vertex positions (list of ndarray (3,))."""
        return [p.copy() for p in self._vertices]

    def element(self, e):
        """Triangle e."""
        return self._triangles[e]

    def vertex_array(self):
        """Vertex positions, ndarray (nv, 3) (a copy)."""
        return self._vertices.copy()

    def index_array(self):
        """Triangles as vertex indices, ndarray (nt, 3) int64 (a copy)."""
        return self._index.copy()
