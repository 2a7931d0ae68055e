"""What the surface meshes (TriangleSurfaceMesh, PolygonSurfaceMesh) answer alike from
their per-face areas, unit normals and centroids."""

import numpy as np

__all__ = ["SurfaceMeshFaces"]


class SurfaceMeshFaces:
    """Per-face queries over ``_vertices`` (nv, 3), ``_areas`` (nf,), ``_normals`` (nf, 3)
    and ``_centroids`` (nf, 3), set by the mesh's constructor."""

    def num_vertices(self):
        """The number of vertices."""
        return len(self._vertices)

    def vertex(self, v):
        """The position of vertex v, ndarray (3,)."""
        return self._vertices[v].copy()

    def area(self, f):
        """The area of face f (m²)."""
        return float(self._areas[f])

    def total_area(self):
        """The sum of the faces' areas (m²)."""
        return float(self._areas.sum())

    def face_normal(self, f):
        """The unit normal of face f (right-handed about its vertex order)."""
        return self._normals[f].copy()

    def element_centroid(self, f):
        """The area centroid of face f."""
        return self._centroids[f].copy()

    def centroid(self):
        """The area-weighted centroid of the mesh."""
        return np.asarray(self._areas @ self._centroids / self._areas.sum())
