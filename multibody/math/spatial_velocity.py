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
    V : array_like, shape (6,), optional
        Keyword only: the whole [w; v] (pydrake's ``SpatialVelocity(V=...)``).

    Omitting all gives NaN, as in Drake.
    """

    __slots__ = ()
    _ROTATIONAL = "w"
    _TRANSLATIONAL = "v"

    def __init__(self, w=None, v=None, *, V=None):
        self._init_parts(w, v, V, "V")

    def shift(self, offset):
        """Return V_MBq_E, the spatial velocity of frame Bq (B shifted to point Bq).

        Parameters
        ----------
        offset : array_like, shape (3,)
            p_BoBq_E, the position of Bq from Bo, expressed in E (pydrake's keyword).

        Returns
        -------
        SpatialVelocity
            [w; v + w × p_BoBq_E].
        """
        p = _as_vector3(offset, "SpatialVelocity.shift", "offset (p_BoBq_E)")
        w = self._V[:3]
        return SpatialVelocity._unchecked(np.concatenate([w, self._V[3:] + np.cross(w, p)]))

    def compose_with_moving_frame_velocity(self, position_of_moving_frame,
                                           velocity_of_moving_frame):
        """Return V_MB_E from V_MP_E (self) and B's velocity V_PB_E in a moving frame P.

        Parameters
        ----------
        position_of_moving_frame : array_like, shape (3,)
            p_PoBo_E, the position of Bo from Po, expressed in E.
        velocity_of_moving_frame : SpatialVelocity
            V_PB_E, the spatial velocity of B in P, expressed in E.

        Returns
        -------
        SpatialVelocity
            V_MP shifted to Bo plus V_PB: [w_MP + w_PB; v_MPo + w_MP × p_PoBo + v_PBo].
        """
        p_PoBo_E, V_PB_E = position_of_moving_frame, velocity_of_moving_frame
        if not isinstance(V_PB_E, SpatialVelocity):
            raise TypeError(
                "SpatialVelocity.compose_with_moving_frame_velocity: V_PB_E must be a "
                f"SpatialVelocity, got {type(V_PB_E).__name__}"
            )
        return self.shift(p_PoBo_E) + V_PB_E

    def dot(self, force=None, *, momentum=None):
        """Return V · F (a float): the power of a SpatialForce `force` applied at the same
        point, or, with ``momentum=`` (or a SpatialMomentum as `force`), L · V, twice the
        kinetic energy when L = M V about the same point. ``V @ F`` is the same."""
        if (force is None) == (momentum is None):
            raise TypeError("SpatialVelocity.dot: pass exactly one of force=, momentum=")
        other = force if momentum is None else momentum
        if not getattr(other, "_DUAL_OF_VELOCITY", False):
            raise TypeError(f"SpatialVelocity.dot: expected a SpatialForce or SpatialMomentum, "
                            f"got {type(other).__name__}")
        return float(self._V @ other._V)

    def __matmul__(self, other):
        return self.dot(other)
