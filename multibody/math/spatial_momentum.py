"""SpatialMomentum L_NBp_E = [h_NBp_E; l_NB_E]: the angular momentum about point Bp and the
linear momentum of a body B in frame N, expressed in E."""

import numpy as np

from .spatial_vector import SpatialVector, _as_vector3

__all__ = ["SpatialMomentum"]


class SpatialMomentum(SpatialVector):
    """Spatial momentum [h; l] about a point, coefficients of shape (6,).

    Parameters
    ----------
    h : array_like, shape (3,) or (6,), optional
        Angular momentum about the point, or the whole [h; l] when `l` is omitted.
    l : array_like, shape (3,), optional
        Linear momentum.
    """

    __slots__ = ()
    _ROTATIONAL = "h"
    _TRANSLATIONAL = "l"

    def __init__(self, h=None, l=None):
        super().__init__(h, l)

    def shift(self, p_BpBq_E):
        """Return L_NBq_E, the momentum about point Bq: [h - p_BpBq_E × l; l].

        Parameters
        ----------
        p_BpBq_E : array_like, shape (3,)
            Position of Bq from Bp, expressed in E.
        """
        p = _as_vector3(p_BpBq_E, "SpatialMomentum.shift", "p_BpBq_E")
        l = self._V[3:]
        return SpatialMomentum._unchecked(np.concatenate([self._V[:3] - np.cross(p, l), l]))

    def dot(self, V):
        """Return L · V (a float), twice the kinetic energy when L = M V about the same point."""
        from .spatial_velocity import SpatialVelocity

        if not isinstance(V, SpatialVelocity):
            raise TypeError(
                f"SpatialMomentum.dot: expected a SpatialVelocity, got {type(V).__name__}"
            )
        return float(self._V @ V._V)
