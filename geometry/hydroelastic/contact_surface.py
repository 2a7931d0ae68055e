"""ContactSurface: the hydroelastic contact surface of two geometries M and N, and
`HydroelasticContactRepresentation`, the choice of its faces (Drake's)."""

import enum

import numpy as np

from ..polygon_surface_mesh import PolygonSurfaceMesh
from ..triangle_surface_mesh import TriangleSurfaceMesh
from .surface_accessors import SurfaceArea, SurfaceCentroid, SurfaceGeometryId
from .surface_field import SurfaceMeshFieldLinear

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

    Drake's accessors are here too: ``id_M()``, ``id_N()``, ``num_faces()``,
    ``num_vertices()``, ``area(face_index)``, ``total_area()``, ``face_normal(face_index)``,
    ``centroid()`` / ``centroid(face_index)``, ``is_triangle()``, ``representation()``,
    ``tri_mesh_W()`` / ``poly_mesh_W()`` and the pressure fields ``tri_e_MN()`` /
    ``poly_e_MN()``, ``has_grad_e_m()`` / ``has_grad_e_n()`` and ``equal(surface)``.
    Each face has its own vertices (a vertex shared by two faces is
    listed once per face), so ``num_vertices()`` counts them per face.

    Attributes
    ----------
    id_M, id_N : GeometryId
        The geometries (id_M < id_N); calling one returns it (Drake's ``id_M()``).
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
        ∂p/∂n of the compliant field on each face (Pa/m): the stiffness per area with
        which the pressure grows with penetration along the normal into the compliant
        geometry (the series value g_M g_N / (g_M + g_N) of two); 0 where it grows more
        slowly than 1e-14 Pa/m or falls (the discrete solvers take no contact there, as
        Drake's).
    area : float
        Total area (m²); ``area(face_index)`` is one face's (Drake's accessor).
    centroid : ndarray (3,)
        Area centroid of the surface in W (m); ``centroid()`` returns it and
        ``centroid(face_index)`` one face's.
    """

    def __init__(self, id_M, id_N, vertices_W, start, pressure, normals, areas, centroids,
                 face_pressures, face_pressure_gradients=None, representation=None):
        self.id_M = SurfaceGeometryId(id_M.get_value())
        self.id_N = SurfaceGeometryId(id_N.get_value())
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
        self._area = self._centroid = None       # made on first use (`area`, `centroid`)
        if representation is None:
            representation = (HydroelasticContactRepresentation.kTriangle
                              if self._all_triangles() else
                              HydroelasticContactRepresentation.kPolygon)
        self._representation = representation
        self._field = None

    @property
    def area(self):
        """Total area (m², a float); ``area(face_index)`` is one face's."""
        if self._area is None:
            self._area = SurfaceArea(self.face_areas)
        return self._area

    @property
    def centroid(self):
        """Area centroid of the surface in W (m), ndarray (3,); ``centroid(face_index)``
        is one face's."""
        if self._centroid is None:
            areas, centroids, area = self.face_areas, self.face_centroids_W, self.area
            self._centroid = SurfaceCentroid((areas @ centroids / area) if area > 0.0 else (
                centroids.mean(axis=0) if len(areas) else np.zeros(3)), centroids)
        return self._centroid

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

    def num_vertices(self):
        """Number of vertices (each face's own; see the class)."""
        return len(self.vertices_W)

    def total_area(self):
        """The total area (m²)."""
        return float(self.area)

    def face_normal(self, face_index):
        """The unit normal of a face, ndarray (3,) in W (out of N into M)."""
        return np.array(self.face_normals_W[face_index], dtype=float)

    def _mesh_arguments(self):
        return [self.vertices_W[v] for v in range(len(self.vertices_W))]

    def _need(self, representation, fn):
        if self._representation is not representation:
            raise RuntimeError(f"ContactSurface.{fn}: the surface's representation is "
                               f"{self._representation.name}, expected {representation.name}")

    def tri_mesh_W(self):
        """The faces as a TriangleSurfaceMesh in W (triangle representation only).

        Raises
        ------
        RuntimeError
            For a polygon surface (as Drake).
        """
        self._need(HydroelasticContactRepresentation.kTriangle, "tri_mesh_W")
        return TriangleSurfaceMesh(self._start[:-1, None] + np.arange(3), self._mesh_arguments())

    def poly_mesh_W(self):
        """The faces as a PolygonSurfaceMesh in W (polygon representation only).

        Raises
        ------
        RuntimeError
            For a triangle surface (as Drake).
        """
        self._need(HydroelasticContactRepresentation.kPolygon, "poly_mesh_W")
        data = []
        for poly in self.polygons:
            data += [len(poly), *poly.tolist()]
        return PolygonSurfaceMesh(data, self._mesh_arguments())

    def _pressure_field(self, representation, fn):
        self._need(representation, fn)
        if self._field is None:
            self._field = SurfaceMeshFieldLinear(
                self.vertices_W, self._start, self.pressure,
                representation is HydroelasticContactRepresentation.kTriangle)
        return self._field

    def tri_e_MN(self):
        """The pressure field on the triangles (triangle representation only)."""
        return self._pressure_field(HydroelasticContactRepresentation.kTriangle, "tri_e_MN")

    def poly_e_MN(self):
        """The pressure field on the polygons (polygon representation only)."""
        return self._pressure_field(HydroelasticContactRepresentation.kPolygon, "poly_e_MN")

    def to_triangles(self):
        """This surface with each polygon split into the triangles (c, v_i, v_i+1) around
        its centroid c: the same area, centroid and pressure integral (the pressure is
        linear on each polygon, so its value at c is the face's centroid pressure).
        Triangles of exactly zero area (at a repeated polygon vertex) are left out.

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
                area = 0.5 * np.linalg.norm(np.cross(tri[1] - tri[0], tri[2] - tri[0]))
                if area == 0.0:             # a repeated vertex: nothing to integrate
                    continue
                p_tri = np.array([pc, self.pressure[a], self.pressure[b]])
                verts.append(tri)
                press.append(p_tri)
                normals.append(self.face_normals_W[f])
                areas.append(area)
                cents.append(tri.mean(axis=0))
                face_p.append(p_tri.mean())
                grads.append(self.face_pressure_gradients[f])
        n = len(areas)
        return ContactSurface(
            self.id_M, self.id_N,
            np.concatenate(verts) if n else np.zeros((0, 3)), np.arange(0, 3 * n + 1, 3),
            np.concatenate(press) if n else np.zeros(0), np.array(normals).reshape(n, 3),
            np.array(areas), np.array(cents).reshape(n, 3), np.array(face_p), np.array(grads),
            HydroelasticContactRepresentation.kTriangle)

    def _all_triangles(self):
        return bool(np.all(np.diff(self._start) == 3))

    def is_triangle(self) -> bool:
        """True for the triangle representation."""
        return self._representation is HydroelasticContactRepresentation.kTriangle

    def representation(self):
        """The representation (kTriangle from `to_triangles`, else kPolygon unless the
        constructor was given one or every face is a triangle)."""
        return self._representation

    def has_grad_e_m(self) -> bool:
        """False: the surface keeps no per-face gradient of M's own pressure field
        (Drake's ``HasGradE_M``; Drake stores it when M is compliant). merganser keeps
        only |∂p/∂n| of the compliant field per face (``face_pressure_gradients``)."""
        return False

    def has_grad_e_n(self) -> bool:
        """False, as `has_grad_e_m` (Drake's ``HasGradE_N``)."""
        return False

    def evaluate_grad_e_m_w(self, index):
        """Drake's ``EvaluateGradE_M_W``; raises, since `has_grad_e_m` is False.

        Raises
        ------
        RuntimeError
            Always (as Drake's, called on a surface without the gradient).
        """
        raise RuntimeError(f"ContactSurface.evaluate_grad_e_m_w: index={index}: the surface "
                           f"has no gradient of e_M (has_grad_e_m() is False)")

    def evaluate_grad_e_n_w(self, index):
        """Drake's ``EvaluateGradE_N_W``; raises, since `has_grad_e_n` is False."""
        raise RuntimeError(f"ContactSurface.evaluate_grad_e_n_w: index={index}: the surface "
                           f"has no gradient of e_N (has_grad_e_n() is False)")

    def equal(self, surface) -> bool:
        """True when `surface` has the same geometry ids, representation, faces (vertex
        positions, in order) and pressure values, exactly (Drake's ``Equal``).

        Raises
        ------
        TypeError
            If `surface` is not a ContactSurface.
        """
        if not isinstance(surface, ContactSurface):
            raise TypeError(f"ContactSurface.equal: surface must be a ContactSurface, got "
                            f"{type(surface).__name__}")
        return (self.id_M == surface.id_M and self.id_N == surface.id_N
                and self._representation is surface._representation
                and np.array_equal(self._start, surface._start)
                and np.array_equal(self.vertices_W, surface.vertices_W)
                and np.array_equal(self.pressure, surface.pressure))

    def total_normal_force(self):
        """∫ p n dA over the surface (N, in W): the elastic force on M."""
        return (self.face_areas * self.face_pressures) @ self.face_normals_W

    def __repr__(self):
        return (f"ContactSurface(id_M={self.id_M!r}, id_N={self.id_N!r}, "
                f"{self.num_faces()} polygons, area={float(self.area):.3g})")
