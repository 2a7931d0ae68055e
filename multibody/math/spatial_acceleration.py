"""SpatialAcceleration A_MB_E = [alpha_MB_E; a_MBo_E]: the angular acceleration of frame B
in M and the translational acceleration of B's origin Bo in M, expressed in E."""

import numpy as np

from .spatial_vector import SpatialVector, _as_vector3

__all__ = ["SpatialAcceleration"]


class SpatialAcceleration(SpatialVector):
    """Spatial acceleration [alpha; a] of a frame, coefficients of shape (6,).

    Parameters
    ----------
    alpha : array_like, shape (3,) or (6,), optional
        Angular acceleration alpha_MB_E, or the whole [alpha; a] when `a` is omitted.
    a : array_like, shape (3,), optional
        Translational acceleration a_MBo_E of the frame's origin.
    A : array_like, shape (6,), optional
        Keyword only: the whole [alpha; a] (pydrake's ``SpatialAcceleration(A=...)``).

    Omitting all gives NaN, as in Drake.
    """

    __slots__ = ()
    _ROTATIONAL = "alpha"
    _TRANSLATIONAL = "a"

    def __init__(self, alpha=None, a=None, *, A=None):
        self._init_parts(alpha, a, A, "A")

    def shift(self, offset, angular_velocity_of_this_frame):
        """Return A_MQ_E for a point Q fixed in frame P, from A_MP_E (self).

        Parameters
        ----------
        offset : array_like, shape (3,)
            p_PoQ_E, the position of Q from Po, expressed in E.
        angular_velocity_of_this_frame : array_like, shape (3,)
            w_MP_E, the angular velocity of P in M, expressed in E.

        Returns
        -------
        SpatialAcceleration
            [alpha; a + alpha × p + w × (w × p)], the last being the centripetal term.
        """
        p = _as_vector3(offset, "SpatialAcceleration.shift", "offset (p_PoQ_E)")
        w = _as_vector3(angular_velocity_of_this_frame, "SpatialAcceleration.shift",
                        "angular_velocity_of_this_frame (w_MP_E)")
        alpha = self._V[:3]
        a_Q = self._V[3:] + np.cross(alpha, p) + np.cross(w, np.cross(w, p))
        return SpatialAcceleration._unchecked(np.concatenate([alpha, a_Q]))

    def shift_with_zero_angular_velocity(self, offset):
        """Return A_MQ_E when P's angular velocity in M is zero: [alpha; a + alpha × p],
        `offset` being p_PoQ_E, shape (3,)."""
        return self.shift(offset, np.zeros(3))

    def compose_with_moving_frame_acceleration(self, position_of_moving_frame,
                                               angular_velocity_of_this_frame,
                                               velocity_of_moving_frame,
                                               acceleration_of_moving_frame):
        """Return A_MB_E from A_MP_E (self) and B's motion in a moving frame P.

        Parameters
        ----------
        position_of_moving_frame : array_like, shape (3,)
            p_PoBo_E, the position of Bo from Po, expressed in E.
        angular_velocity_of_this_frame : array_like, shape (3,)
            w_MP_E, the angular velocity of P in M, expressed in E.
        velocity_of_moving_frame : SpatialVelocity
            V_PB_E, the spatial velocity of B in P, expressed in E.
        acceleration_of_moving_frame : SpatialAcceleration
            A_PB_E, the spatial acceleration of B in P, expressed in E.

        Returns
        -------
        SpatialAcceleration
            alpha_MB = alpha_MP + alpha_PB + w_MP × w_PB;
            a_MBo = (A_MP shifted to Bo) + a_PBo + 2 w_MP × v_PBo (Coriolis).
        """
        p_PoBo_E, w_MP_E = position_of_moving_frame, angular_velocity_of_this_frame
        V_PB_E, A_PB_E = velocity_of_moving_frame, acceleration_of_moving_frame
        if not isinstance(A_PB_E, SpatialAcceleration):
            raise TypeError(
                "SpatialAcceleration.compose_with_moving_frame_acceleration: A_PB_E must be a "
                f"SpatialAcceleration, got {type(A_PB_E).__name__}"
            )
        w = _as_vector3(w_MP_E, "SpatialAcceleration.compose_with_moving_frame_acceleration",
                        "w_MP_E")
        V = V_PB_E.get_coeffs()
        A_MBo = self.shift(p_PoBo_E, w)._V + A_PB_E._V
        A_MBo[:3] += np.cross(w, V[:3])
        A_MBo[3:] += 2.0 * np.cross(w, V[3:])
        return SpatialAcceleration._unchecked(A_MBo)
