"""SpatialForce F_Bp_E = [tau_B_E; f_Bp_E]: a torque and a force applied at point Bp,
expressed in E (the torque is the moment about Bp)."""

import numpy as np

from .spatial_vector import SpatialVector, _as_vector3

__all__ = ["SpatialForce"]


class SpatialForce(SpatialVector):
    """Spatial force [tau; f] applied at a point, coefficients of shape (6,).

    Parameters
    ----------
    tau : array_like, shape (3,) or (6,), optional
        Torque (moment about the application point), or the whole [tau; f] when `f` is
        omitted.
    f : array_like, shape (3,), optional
        Force.
    """

    __slots__ = ()
    _ROTATIONAL = "tau"
    _TRANSLATIONAL = "f"

    def __init__(self, tau=None, f=None):
        super().__init__(tau, f)

    def shift(self, p_BpBq_E):
        """Return F_Bq_E, the equivalent force applied at point Bq instead of Bp.

        Parameters
        ----------
        p_BpBq_E : array_like, shape (3,)
            Position of Bq from Bp, expressed in E.

        Returns
        -------
        SpatialForce
            [tau - p_BpBq_E × f; f] (same force, moment taken about Bq).
        """
        p = _as_vector3(p_BpBq_E, "SpatialForce.shift", "p_BpBq_E")
        f = self._V[3:]
        return SpatialForce._unchecked(np.concatenate([self._V[:3] - np.cross(p, f), f]))

    def dot(self, V):
        """Return the power F · V (a float) delivered to a frame moving with SpatialVelocity V.

        `V` must be the velocity of a frame whose origin is the application point.
        """
        from .spatial_velocity import SpatialVelocity

        if not isinstance(V, SpatialVelocity):
            raise TypeError(f"SpatialForce.dot: expected a SpatialVelocity, got {type(V).__name__}")
        return float(self._V @ V._V)
