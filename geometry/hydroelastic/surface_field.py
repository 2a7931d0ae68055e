"""The pressure field on a contact surface, linear on each face (Drake's
``TriangleSurfaceMeshFieldLinear`` / ``PolygonSurfaceMeshFieldLinear``, as returned by
``ContactSurface.tri_e_MN()`` / ``poly_e_MN()``)."""

import numpy as np

__all__ = ["SurfaceMeshFieldLinear"]


class SurfaceMeshFieldLinear:
    """Pressure (Pa) at the vertices of a contact surface, interpolated linearly over each
    face.

    Parameters
    ----------
    vertices_W : ndarray (nv, 3)
        The surface's vertices (m).
    start : ndarray (nf + 1,) int
        Face f has the vertices start[f] .. start[f + 1] - 1.
    values : ndarray (nv,)
        The pressure at each vertex (Pa).
    triangles : bool
        True for the triangle form (`evaluate` with barycentric coordinates), False for
        polygons (`evaluate_gradient`).
    """

    def __init__(self, vertices_W, start, values, triangles):
        self._vertices = vertices_W
        self._start = start
        self._values = values
        self._triangles = triangles
        self._gradients = None

    def values(self):
        """The vertex values, ndarray (nv,) (a copy)."""
        return np.array(self._values, dtype=float)

    def evaluate_at_vertex(self, v):
        """The pressure at vertex v (Pa)."""
        return float(self._values[v])

    def evaluate(self, e, b):
        """The pressure at barycentric coordinates b (3,) of triangle e (triangle form)."""
        if not self._triangles:
            raise RuntimeError("SurfaceMeshFieldLinear.evaluate: barycentric coordinates need "
                               "the triangle form (tri_e_MN); this is the polygon field")
        s = self._start[e]
        return float(np.dot(np.asarray(b, dtype=float).reshape(3), self._values[s:s + 3]))

    def _gradient(self, e):
        if self._gradients is None:
            self._gradients = np.empty((len(self._start) - 1, 3))
            for f in range(len(self._start) - 1):
                P = self._vertices[self._start[f]:self._start[f + 1]]
                p = self._values[self._start[f]:self._start[f + 1]]
                # the in-plane gradient g: least squares of p_i - p_0 = g·(P_i - P_0),
                # exact for the linear field; the minimum-norm g has no normal part
                self._gradients[f] = np.linalg.lstsq(P[1:] - P[0], p[1:] - p[0],
                                                     rcond=None)[0]
        return self._gradients[e]

    def evaluate_gradient(self, e):
        """The gradient of the field on polygon e (Pa/m, in W; in the face's plane)
        (polygon form)."""
        if self._triangles:
            raise RuntimeError("SurfaceMeshFieldLinear.evaluate_gradient: gradients are "
                               "given by the polygon form (poly_e_MN); this is the "
                               "triangle field")
        return self._gradient(e).copy()

    def evaluate_cartesian(self, e, p_MQ):
        """The pressure of face e's linear field at the point p_MQ (3,) (m, in the
        surface's frame; a point off the face plane takes the value of its projection)."""
        s = self._start[e]
        d = np.asarray(p_MQ, dtype=float).reshape(3) - self._vertices[s]
        return float(self._values[s] + self._gradient(e) @ d)
