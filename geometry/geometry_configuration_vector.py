"""GeometryConfigurationVector: vertex positions of deformable geometries, keyed by
GeometryId (Drake's GeometryConfigurationVector, the value of a source's configuration
input).

merganser's SceneGraph has no deformable geometry yet; the container is the value type a
deformable source would provide, with Drake's methods.
"""

import numpy as np

from merganser.geometry.geometry_instance import GeometryId


class GeometryConfigurationVector:
    """Flat vertex positions q_WG (3 V,) of deformable geometries, keyed by GeometryId,
    in insertion order."""

    def __init__(self):
        self._values = {}

    def set_value(self, id, value):  # noqa: A002 (pydrake's keyword)
        """Set the configuration `value` (array_like, (3 V,)) of the geometry `id`
        (GeometryId), adding it if it is new; the vector keeps a copy."""
        if not isinstance(id, GeometryId):
            raise TypeError(f"GeometryConfigurationVector.set_value: id must be a GeometryId, "
                            f"got {type(id).__name__}")
        q = np.array(value, dtype=float)
        if q.ndim != 1:
            raise ValueError(f"GeometryConfigurationVector.set_value: value must be a flat "
                             f"vector (3 V,), got shape {q.shape} for {id!r}")
        self._values[id] = q

    def value(self, id):  # noqa: A002 (pydrake's keyword)
        """The configuration (3 V,) of the geometry `id` (a copy).

        Raises
        ------
        KeyError
            If the vector holds nothing for `id`.
        """
        q = self._values.get(id)
        if q is None:
            raise KeyError(f"GeometryConfigurationVector.value: no configuration for {id!r} "
                           f"(the vector holds {len(self._values)}; see ids())")
        return q.copy()

    def has_id(self, id):  # noqa: A002 (pydrake's keyword)
        """True if the vector holds a configuration for the geometry `id`."""
        return id in self._values

    def ids(self):
        """The GeometryIds held, in insertion order (list)."""
        return list(self._values)

    def size(self):
        """The number of geometries held."""
        return len(self._values)

    def clear(self):
        """Remove every configuration."""
        self._values = {}
