"""Values of a ContactSurface readable both as merganser's attributes and as Drake's
accessors: ``surface.id_M`` / ``surface.id_M()``, ``surface.area`` (total, m²) /
``surface.area(face_index)``, ``surface.centroid`` / ``surface.centroid()`` /
``surface.centroid(face_index)``."""

import numpy as np

from ..geometry_instance import GeometryId

__all__ = ["SurfaceGeometryId", "SurfaceArea", "SurfaceCentroid"]


class SurfaceGeometryId(GeometryId):
    """A GeometryId (equal to, hashed and ordered as, the plain one) that calling returns."""

    __slots__ = ()

    def __call__(self):
        return GeometryId(self._value)

    def __reduce__(self):
        return (SurfaceGeometryId, (self._value,))


class SurfaceArea(float):
    """The total area (a float, m²); ``area(face_index)`` is the area of one face."""

    def __new__(cls, face_areas):
        out = super().__new__(cls, float(np.sum(face_areas)))
        out._face_areas = face_areas
        return out

    def __call__(self, face_index):
        return float(self._face_areas[face_index])

    def __reduce__(self):
        return (SurfaceArea, (self._face_areas,))


class SurfaceCentroid(np.ndarray):
    """The area centroid of the surface, ndarray (3,) in W (m); ``centroid()`` returns it
    and ``centroid(face_index)`` the centroid of one face."""

    def __new__(cls, centroid, face_centroids):
        out = np.array(centroid, dtype=float).reshape(3).view(cls)
        out.flags.writeable = False
        out._face_centroids = face_centroids
        return out

    def __array_finalize__(self, obj):
        # copies (copy.deepcopy, .copy()) keep the per-face centroids
        self._face_centroids = getattr(obj, "_face_centroids", None)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        # arithmetic with the centroid gives plain arrays
        result = np.asarray(array).view(np.ndarray)
        return result[()] if return_scalar else result

    def __getitem__(self, key):
        return np.asarray(self).view(np.ndarray)[key]

    def __call__(self, face_index=None):
        if face_index is None:
            return np.array(self, dtype=float).view(np.ndarray)
        return np.array(self._face_centroids[face_index], dtype=float)

    def __reduce__(self):
        return (SurfaceCentroid, (np.asarray(self).view(np.ndarray).copy(),
                                  self._face_centroids))
