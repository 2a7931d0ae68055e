"""SpatialVelocity V_MB_E = [w_MB_E; v_MBo_E]: the angular velocity of frame B in M and
the translational velocity of a point (B's origin Bo) of B in M, expressed in E."""

import numpy as np

from .spatial_vector import SpatialVector, _as_vector3

__all__ = ["SpatialVelocity"]


class SpatialVelocity(SpatialVector):
    """Spatial velocity [w; v] of a frame, ndarray coefficients of shape (6,).

    Parameters
    ----------
    w : array_like, shape (3,) or (6,), optional
        Angular velocity w_MB_E, or the whole [w; v] when `v` is omitted.
    v : array_like, shape (3,), optional
        Translational velocity v_MBo_E of the frame's origin.
    """

    __slots__ = ()
    _ROTATIONAL = "w"
    _TRANSLATIONAL = "v"

    def __init__(self, w=None, v=None):
        super().__init__(w, v)

    def shift(self, p_BoBq_E):
        """Return V_MBq_E, the spatial velocity of frame Bq (B shifted to point Bq).

        Parameters
        ----------
        p_BoBq_E : array_like, shape (3,)
            Position of Bq from Bo, expressed in E.

        Returns
        -------
        SpatialVelocity
            [w; v + w × p_BoBq_E].
        """
        p = _as_vector3(p_BoBq_E, "SpatialVelocity.shift", "p_BoBq_E")
        w = self._V[:3]
        return SpatialVelocity._unchecked(np.concatenate([w, self._V[3:] + np.cross(w, p)]))

    def compose_with_moving_frame_velocity(self, p_PoBo_E, V_PB_E):
        """Return V_MB_E from V_MP_E (self) and B's velocity V_PB_E in a moving frame P.

        Parameters
        ----------
        p_PoBo_E : array_like, shape (3,)
            Position of Bo from Po, expressed in E.
        V_PB_E : SpatialVelocity
            Spatial velocity of B in P, expressed in E.

        Returns
        -------
        SpatialVelocity
            V_MP shifted to Bo plus V_PB: [w_MP + w_PB; v_MPo + w_MP × p_PoBo + v_PBo].
        """
        if not isinstance(V_PB_E, SpatialVelocity):
            raise TypeError(
                "SpatialVelocity.compose_with_moving_frame_velocity: V_PB_E must be a "
                f"SpatialVelocity, got {type(V_PB_E).__name__}"
            )
        return self.shift(p_PoBo_E) + V_PB_E

    def dot(self, F):
        """Return the power F · V (a float) of a SpatialForce `F` applied at the same point."""
        from .spatial_force import SpatialForce

        if not isinstance(F, SpatialForce):
            raise TypeError(
                f"SpatialVelocity.dot: expected a SpatialForce, got {type(F).__name__}"
            )
        return float(self._V @ F._V)
