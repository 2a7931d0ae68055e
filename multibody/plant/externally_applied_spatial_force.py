"""ExternallyAppliedSpatialForce: a spatial force applied to a body through the plant's
``applied_spatial_force`` input port (Drake's ExternallyAppliedSpatialForce)."""

import numpy as np

from merganser.multibody.math import SpatialForce

__all__ = ["ExternallyAppliedSpatialForce"]


class ExternallyAppliedSpatialForce:
    """A spatial force F_Bq_W applied at a point Bq fixed to body B.

    Parameters
    ----------
    body_index : int
        Index of the body B the force acts on.
    p_BoBq_B : array_like, shape (3,), optional
        Position of the application point Bq from the body origin Bo, expressed in B
        (m); zero by default.
    F_Bq_W : SpatialForce or array_like, shape (6,), optional
        The spatial force [torque; force] applied at Bq, expressed in the world frame W
        (N·m, N); zero by default.

    Attributes
    ----------
    body_index : int
    p_BoBq_B : ndarray, shape (3,)
    F_Bq_W : SpatialForce

    Notes
    -----
    The attributes may be reassigned, as in Drake; the plant validates them when it
    reads the input port.
    """

    __slots__ = ("body_index", "p_BoBq_B", "F_Bq_W")

    def __init__(self, body_index=0, p_BoBq_B=None, F_Bq_W=None):
        self.body_index = body_index
        self.p_BoBq_B = np.zeros(3) if p_BoBq_B is None else np.array(p_BoBq_B, dtype=float)
        if F_Bq_W is None:
            F_Bq_W = SpatialForce.zero()
        elif not isinstance(F_Bq_W, SpatialForce):
            F_Bq_W = SpatialForce(np.asarray(F_Bq_W, dtype=float))
        self.F_Bq_W = F_Bq_W

    def __repr__(self):
        return (f"ExternallyAppliedSpatialForce(body_index={self.body_index}, "
                f"p_BoBq_B={np.asarray(self.p_BoBq_B).tolist()}, "
                f"F_Bq_W={self.F_Bq_W.get_coeffs().tolist()})")
