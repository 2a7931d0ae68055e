"""PolygonSurfaceMesh: a surface of planar convex polygons (Drake's), the polygon form of
a hydroelastic contact surface."""

import numpy as np

from .surface_mesh_faces import SurfaceMeshFaces

__all__ = ["PolygonSurfaceMesh", "SurfacePolygon"]


class SurfacePolygon:
    """One polygon of a PolygonSurfaceMesh: its vertex indices, counter-clockwise about
    the face normal."""

    def __init__(self, vertices):
        self._vertices = tuple(int(v) for v in vertices)

    def num_vertices(self):
        """The number of vertices."""
        return len(self._vertices)

    def vertex(self, i):
        """The mesh index of the polygon's i-th vertex."""
        return self._vertices[i]

    def __repr__(self):
        return f"SurfacePolygon({list(self._vertices)})"


class PolygonSurfaceMesh(SurfaceMeshFaces):
    """Planar polygons over shared vertices.

    Parameters
    ----------
    face_data : sequence of int
        Drake's encoding: for each polygon its vertex count n, then its n vertex indices.
    vertices : sequence of array_like (3,)
        Vertex positions (m).

    Raises
    ------
    ValueError
        For empty data, a polygon of fewer than three vertices, an index out of range or
        a polygon without area.
    """

    def __init__(self, face_data, vertices):
        fn = "PolygonSurfaceMesh"
        self._vertices = np.array([np.asarray(p, dtype=np.float64) for p in vertices])
        data = [int(x) for x in face_data]
        if not data or self._vertices.ndim != 2 or self._vertices.shape[1] != 3:
            raise ValueError(f"{fn}: give at least one polygon (face_data) and vertices of "
                             f"shape (3,); got {len(data)} face_data entries")
        self._face_data = data
        self._polygons, i = [], 0
        while i < len(data):
            n = data[i]
            poly = data[i + 1:i + 1 + n]
            if n < 3 or len(poly) != n:
                raise ValueError(f"{fn}: face_data entry {i} starts a polygon of {n} "
                                 f"vertices with {len(poly)} indices; expected n >= 3")
            if max(poly) >= len(self._vertices) or min(poly) < 0:
                raise ValueError(f"{fn}: polygon {len(self._polygons)} names vertex "
                                 f"{max(poly)}, but there are {len(self._vertices)}")
            self._polygons.append(SurfacePolygon(poly))
            i += 1 + n
        nf = len(self._polygons)
        self._areas, self._normals, self._centroids = np.empty(nf), np.empty((nf, 3)), \
            np.empty((nf, 3))
        for f, poly in enumerate(self._polygons):
            P = self._vertices[list(poly._vertices)]
            # fan about vertex 0: area vector and area-weighted triangle centroids
            cross = np.cross(P[1:-1] - P[0], P[2:] - P[0])
            tri_area = 0.5 * np.linalg.norm(cross, axis=1)
            area_vector = 0.5 * cross.sum(axis=0)
            area = np.linalg.norm(area_vector)
            if area == 0.0:
                raise ValueError(f"{fn}: polygon {f} has zero area")
            self._areas[f] = area
            self._normals[f] = area_vector / area
            self._centroids[f] = tri_area @ ((P[0] + P[1:-1] + P[2:]) / 3.0) / tri_area.sum()

    def num_faces(self):
        """The number of polygons."""
        return len(self._polygons)

    num_elements = num_faces

    def element(self, e):
        """Polygon e (SurfacePolygon)."""
        return self._polygons[e]

    def face_data(self):
        """Drake's polygon encoding (list of int; see the constructor)."""
        return list(self._face_data)





