"""VolumeMesh and VolumeElement: a tetrahedral mesh as Drake's geometry API gives it
(vertex positions and tetrahedra of vertex indices). The hydroelastic engine's own mesh,
with its pressure field, is `geometry.hydroelastic.VolumeMesh`."""

import numpy as np

__all__ = ["VolumeElement", "VolumeMesh"]


class VolumeElement:
    """A tetrahedron of a VolumeMesh: four vertex indices, ordered so that v3 is on the
    side of the face (v0, v1, v2) its right-handed normal points to (positive volume)."""

    def __init__(self, v0, v1, v2, v3):
        self._v = (int(v0), int(v1), int(v2), int(v3))

    def vertex(self, i):
        """The mesh index of the element's i-th vertex (i in 0..3)."""
        return self._v[i]

    def __eq__(self, other):
        return isinstance(other, VolumeElement) and other._v == self._v

    def __hash__(self):
        return hash(self._v)

    def __repr__(self):
        return f"VolumeElement({', '.join(map(str, self._v))})"


class VolumeMesh:
    """Tetrahedra (VolumeElement or index quadruples) over vertex positions (3,) (m).

    Raises
    ------
    ValueError
        For an empty mesh or a vertex index out of range.
    """

    def __init__(self, elements, vertices):
        self._vertices = np.array([np.asarray(p, dtype=np.float64) for p in vertices])
        self._elements = [e if isinstance(e, VolumeElement) else VolumeElement(*e)
                          for e in elements]
        if not self._elements or self._vertices.ndim != 2 or self._vertices.shape[1] != 3:
            raise ValueError(f"VolumeMesh: give at least one element and vertices of shape "
                             f"(3,); got {len(self._elements)} elements")
        self._index = np.array([e._v for e in self._elements], dtype=np.int64)
        if self._index.max() >= len(self._vertices) or self._index.min() < 0:
            raise ValueError(f"VolumeMesh: an element names vertex {int(self._index.max())}, "
                             f"but there are {len(self._vertices)}")

    def num_elements(self):
        """The number of tetrahedra."""
        return len(self._elements)

    def num_vertices(self):
        """The number of vertices."""
        return len(self._vertices)

    def element(self, e):
        """Tetrahedron e (VolumeElement)."""
        return self._elements[e]

    def vertex(self, v):
        """The position of vertex v, ndarray (3,)."""
        return self._vertices[v].copy()

    def tetrahedra(self):
        """The tetrahedra (list of VolumeElement)."""
        return list(self._elements)

    def vertices(self):
        """The vertex positions (list of ndarray (3,))."""
        return [p.copy() for p in self._vertices]

    def calc_tetrahedron_volume(self, e):
        """The signed volume of tetrahedron e, (a × b)·c / 6 for its edges from v0 (m³)."""
        p = self._vertices[self._index[e]]
        return float(np.dot(np.cross(p[1] - p[0], p[2] - p[0]), p[3] - p[0]) / 6.0)

    def calc_volume(self):
        """The sum of the tetrahedra's signed volumes (m³)."""
        return float(sum(self.calc_tetrahedron_volume(e) for e in range(len(self._elements))))
