"""SpatialForce F_Bp_E = [tau_B_E; f_Bp_E]: a torque and a force applied at point Bp,
expressed in E (the torque is the moment about Bp)."""

import numpy as np

from .spatial_vector import SpatialVector, _as_vector3
from .spatial_velocity import SpatialVelocity

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
    F : array_like, shape (6,), optional
        Keyword only: the whole [tau; f] (pydrake's ``SpatialForce(F=...)``).

    Omitting all gives NaN, as in Drake.
    """

    __slots__ = ()
    #: Pairs with a SpatialVelocity in a dot product (power, or twice kinetic energy).
    _DUAL_OF_VELOCITY = True
    _ROTATIONAL = "tau"
    _TRANSLATIONAL = "f"

    def __init__(self, tau=None, f=None, *, F=None):
        self._init_parts(tau, f, F, "F")

    def shift(self, offset):
        """Return F_Bq_E, the equivalent force applied at point Bq instead of Bp.

        Parameters
        ----------
        offset : array_like, shape (3,)
            p_BpBq_E, the position of Bq from Bp, expressed in E (pydrake's keyword).

        Returns
        -------
        SpatialForce
            [tau - p_BpBq_E × f; f] (same force, moment taken about Bq).
        """
        p = _as_vector3(offset, "SpatialForce.shift", "offset (p_BpBq_E)")
        f = self._V[3:]
        return SpatialForce._unchecked(np.concatenate([self._V[:3] - np.cross(p, f), f]))

    def dot(self, velocity):
        """Return the power F · V (a float) delivered to a frame moving with SpatialVelocity
        `velocity`, whose origin must be the application point. ``F @ V`` is the same."""
        return self._dot(velocity, (SpatialVelocity,), "SpatialForce.dot")

    __matmul__ = dot
