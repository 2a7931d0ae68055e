"""Drake's RigidBody force helpers: add a spatial force on a body into a MultibodyForces
and read it back (``add_in_force``, ``add_in_force_in_world``, ``get_force_in_world``).

A MultibodyForces stores, per body (body-index rows), the spatial force F_Bo_W applied at
the body origin Bo, expressed in the world W; these methods convert to and from that.
"""

import numpy as np

from merganser.multibody.math.spatial_force import SpatialForce

__all__ = ["RigidBodyForcesMixin"]


def _coeffs(fn, arg, F):
    values = F.get_coeffs() if isinstance(F, SpatialForce) else F
    a = np.asarray(values, dtype=np.float64).reshape(-1)
    if a.shape != (6,) or not np.all(np.isfinite(a)):
        raise ValueError(f"{fn}: {arg} must be a finite SpatialForce or 6-vector "
                         f"[torque; force], got {values!r}")
    return a


class RigidBodyForcesMixin:
    """Methods of RigidBody that read and write a `MultibodyForces` (see module doc)."""

    def _forces_row(self, forces, fn):
        try:
            F_all = forces.mutable_body_forces()
        except AttributeError:
            raise TypeError(f"RigidBody.{fn}: forces must be a MultibodyForces, got "
                            f"{type(forces).__name__}") from None
        if self.index() >= F_all.shape[0]:
            raise ValueError(f"RigidBody.{fn}: forces has {F_all.shape[0]} bodies, body "
                             f"{self.name()!r} has index {self.index()}; use a "
                             f"MultibodyForces of this body's plant")
        return F_all

    def add_in_force_in_world(self, context, F_Bo_W, forces):
        """Add the spatial force F_Bo_W (SpatialForce, at Bo, expressed in W) on this body
        into `forces` (MultibodyForces). `context` is accepted for Drake's signature."""
        fn = "add_in_force_in_world"
        F = _coeffs(f"RigidBody.{fn}", "F_Bo_W", F_Bo_W)
        self._forces_row(forces, fn)[self.index()] += F

    def add_in_force(self, context, p_BP_E, F_Bp_E, frame_E, forces):
        """Add a spatial force F_Bp_E applied at point P of this body into `forces`.

        Parameters
        ----------
        context : Context
            The plant's context (for the poses of B and E).
        p_BP_E : array_like, shape (3,)
            Position of P from Bo, expressed in frame E.
        F_Bp_E : SpatialForce
            [torque; force] applied at P, expressed in E.
        frame_E : Frame
        forces : MultibodyForces
        """
        fn = "RigidBody.add_in_force"
        F = _coeffs(fn, "F_Bp_E", F_Bp_E)
        p = np.asarray(p_BP_E, dtype=np.float64).reshape(-1)
        if p.shape != (3,) or not np.all(np.isfinite(p)):
            raise ValueError(f"{fn}: p_BP_E must be a finite 3-vector, got {p_BP_E!r}")
        R_WE = frame_E.calc_pose_in_world(context).rotation().matrix()
        tau_W, f_W, p_W = R_WE @ F[:3], R_WE @ F[3:], R_WE @ p
        # moved from P to Bo: tau_Bo = tau_P + p_BoP × f
        row = self._forces_row(forces, "add_in_force")
        row[self.index(), :3] += tau_W + np.cross(p_W, f_W)
        row[self.index(), 3:] += f_W

    def get_force_in_world(self, context, forces):
        """F_Bo_W (SpatialForce): the spatial force on this body stored in `forces`."""
        return SpatialForce(*np.split(self._forces_row(forces, "get_force_in_world")
                                      [self.index()].copy(), 2))
