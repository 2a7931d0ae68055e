"""SpatialMomentum L_NBp_E = [h_NBp_E; l_NB_E]: the angular momentum about point Bp and the
linear momentum of a body B in frame N, expressed in E."""

import numpy as np

from .spatial_vector import SpatialVector, _as_vector3
from .spatial_velocity import SpatialVelocity

__all__ = ["SpatialMomentum"]


class SpatialMomentum(SpatialVector):
    """Spatial momentum [h; l] about a point, coefficients of shape (6,).

    Parameters
    ----------
    h : array_like, shape (3,) or (6,), optional
        Angular momentum about the point, or the whole [h; l] when `l` is omitted.
    l : array_like, shape (3,), optional
        Linear momentum.
    L : array_like, shape (6,), optional
        Keyword only: the whole [h; l] (pydrake's ``SpatialMomentum(L=...)``).

    Omitting all gives NaN, as in Drake.
    """

    __slots__ = ()
    #: Pairs with a SpatialVelocity in a dot product (power, or twice kinetic energy).
    _DUAL_OF_VELOCITY = True
    _ROTATIONAL = "h"
    _TRANSLATIONAL = "l"

    def __init__(self, h=None, l=None, *, L=None):
        self._init_parts(h, l, L, "L")

    def shift(self, offset):
        """Return L_NBq_E, the momentum about point Bq: [h - p_BpBq_E × l; l].

        Parameters
        ----------
        offset : array_like, shape (3,)
            p_BpBq_E, the position of Bq from Bp, expressed in E (pydrake's keyword).
        """
        p = _as_vector3(offset, "SpatialMomentum.shift", "offset (p_BpBq_E)")
        l = self._V[3:]
        return SpatialMomentum._unchecked(np.concatenate([self._V[:3] - np.cross(p, l), l]))

    def dot(self, velocity):
        """Return L · V (a float), twice the kinetic energy when L = M V about the same
        point. ``L @ V`` is the same."""
        return self._dot(velocity, (SpatialVelocity,), "SpatialMomentum.dot")

    __matmul__ = dot
