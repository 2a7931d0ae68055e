"""ContactSurface: the hydroelastic contact surface of two geometries M and N, and
`HydroelasticContactRepresentation`, the choice of its faces (Drake's)."""

import enum

import numpy as np

__all__ = ["ContactSurface", "HydroelasticContactRepresentation"]


class HydroelasticContactRepresentation(enum.Enum):
    """How a contact surface's faces are represented (Drake's enumeration).

    Attributes
    ----------
    kTriangle
        Triangles: each polygon is split into the fan of triangles around its centroid.
    kPolygon
        The polygons where the meshes' elements meet (fewer faces).
    """

    kTriangle = "triangle"
    kPolygon = "polygon"


class ContactSurface:
    """Polygons where two hydroelastic geometries meet, with the pressure field on them.

    Attributes
    ----------
    id_M, id_N : GeometryId
        The geometries (id_M < id_N).
    vertices_W : ndarray (nv, 3)
        Polygon vertices in W (m).
    polygons : list of ndarray (int64)
        Vertex indices of each polygon, counter-clockwise about its normal.
    pressure : ndarray (nv,)
        Pressure at the vertices (Pa), linear over each polygon.
    face_normals_W : ndarray (nf, 3)
        Unit normal of each polygon, pointing out of N into M (the pressure pushes M
        along it), in W.
    face_areas : ndarray (nf,)
        Polygon areas (m²).
    face_centroids_W : ndarray (nf, 3)
        Polygon area centroids in W (m); the quadrature points.
    face_pressures : ndarray (nf,)
        Pressure at the face centroids (Pa): area * pressure is the exact integral of
        the linear field over the polygon.
    face_pressure_gradients : ndarray (nf,)
        |∂p/∂n| of the compliant field on each face (Pa/m): the stiffness per area with
        which the pressure grows with penetration along the normal.
    area : float
        Total area (m²).
    centroid : ndarray (3,)
        Area centroid of the surface in W (m).
    """

    def __init__(self, id_M, id_N, vertices_W, start, pressure, normals, areas, centroids,
                 face_pressures, face_pressure_gradients=None):
        self.id_M = id_M
        self.id_N = id_N
        self.vertices_W = vertices_W
        self._start = start
        self._polygons = None
        self.pressure = pressure
        self.face_normals_W = normals
        self.face_areas = areas
        self.face_centroids_W = centroids
        self.face_pressures = face_pressures
        self.face_pressure_gradients = (np.zeros(len(areas)) if face_pressure_gradients is None
                                        else face_pressure_gradients)
        self.area = float(areas.sum())
        self.centroid = (areas @ centroids / self.area) if self.area > 0.0 else (
            centroids.mean(axis=0) if len(areas) else np.zeros(3))

    @property
    def polygons(self):
        """Vertex indices of each polygon (list of int64 arrays), made on first use."""
        if self._polygons is None:
            start = self._start
            self._polygons = [np.arange(start[f], start[f + 1]) for f in range(len(start) - 1)]
        return self._polygons

    def num_faces(self):
        """Number of polygons."""
        return len(self.face_areas)

    def to_triangles(self):
        """This surface with each polygon split into the triangles (c, v_i, v_i+1) around
        its centroid c: the same area, centroid and pressure integral (the pressure is
        linear on each polygon, so its value at c is the face's centroid pressure).

        Returns
        -------
        ContactSurface
            Triangles only; vertices are (nv_T, 3), faces (nf_T,).
        """
        verts, press, normals, areas, cents, face_p, grads = [], [], [], [], [], [], []
        for f, poly in enumerate(self.polygons):
            c, pc = self.face_centroids_W[f], self.face_pressures[f]
            for i in range(len(poly)):
                a, b = poly[i], poly[(i + 1) % len(poly)]
                tri = np.array([c, self.vertices_W[a], self.vertices_W[b]])
                p_tri = np.array([pc, self.pressure[a], self.pressure[b]])
                verts.append(tri)
                press.append(p_tri)
                normals.append(self.face_normals_W[f])
                areas.append(0.5 * np.linalg.norm(np.cross(tri[1] - tri[0], tri[2] - tri[0])))
                cents.append(tri.mean(axis=0))
                face_p.append(p_tri.mean())
                grads.append(self.face_pressure_gradients[f])
        n = len(areas)
        return ContactSurface(
            self.id_M, self.id_N,
            np.concatenate(verts) if n else np.zeros((0, 3)), np.arange(0, 3 * n + 1, 3),
            np.concatenate(press) if n else np.zeros(0), np.array(normals).reshape(n, 3),
            np.array(areas), np.array(cents).reshape(n, 3), np.array(face_p), np.array(grads))

    def is_triangle(self) -> bool:
        """True if every face is a triangle."""
        return bool(np.all(np.diff(self._start) == 3))

    def representation(self):
        """kTriangle if every face is a triangle, else kPolygon."""
        return (HydroelasticContactRepresentation.kTriangle if self.is_triangle()
                else HydroelasticContactRepresentation.kPolygon)

    def total_normal_force(self):
        """∫ p n dA over the surface (N, in W): the elastic force on M."""
        return (self.face_areas * self.face_pressures) @ self.face_normals_W

    def __repr__(self):
        return (f"ContactSurface(id_M={self.id_M!r}, id_N={self.id_N!r}, "
                f"{self.num_faces()} polygons, area={self.area:.3g})")
