"""ForceElement: base class of elements that apply forces computed from the state.

Every force element works on the plant-side kinematics, all in *node order* (the
order of ``CompiledModel`` nodes, world = node 0):

- ``X_WB``: body poses in world, ndarray (nb, 4, 4);
- ``V_WB_W``: spatial velocities of the body origins, measured and expressed in
  world, [w; v], ndarray (nb, 6);
- ``q`` (nq,) and ``v`` (nv,): generalized positions and velocities.

``calc_and_add_forces`` *adds* its contribution into a generalized-force array
``tau_out`` (nv,) and/or a spatial-force array ``F_Bo_W_out`` (nb, 6) (forces on each
node's body, applied at its origin Bo, expressed in world, [torque; force]); both
appear on the right-hand side of M v̇ + C v = τ. Energies and powers follow Drake:
potential energy V, conservative power Pc = -dV/dt, non-conservative power Pnc
(the power of the dissipative forces, <= 0 for dampers).
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.element import MultibodyElement

__all__ = ["ForceElement", "add_point_force", "point_kinematics"]


class ForceElement(MultibodyElement):
    """Base class of force elements (springs, dampers, bushings, gravity).

    Parameters
    ----------
    model_instance : int or None
        Model instance the element belongs to (``None``: decided by the subclass).

    Notes
    -----
    Subclasses implement ``calc_and_add_forces`` and, where Drake defines them, the
    energy and power methods (the defaults return 0). They may override
    ``_do_finalize(tree)`` to cache node or coordinate indices; the tree calls it at
    the end of ``finalize()``.
    """

    _kind = "force element"

    def __init__(self, model_instance: int | None = None):
        super().__init__(model_instance)

    def _do_finalize(self, tree) -> None:
        """Cache indices once the tree is compiled (default: nothing)."""

    def _default_context_parameters(self):
        """The default values of the parameters this element keeps in the plant's Context
        (ndarray), or None (the default: none). An element that has some receives them in
        ``calc_and_add_forces(..., parameters=p)``."""
        return None

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add this element's forces into `tau_out` (nv,) and/or `F_Bo_W_out` (nb, 6)."""
        raise NotImplementedError(f"{type(self).__name__}.calc_and_add_forces is not implemented")

    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        """Potential energy V stored in the element (J); 0 by default."""
        return 0.0

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Conservative power Pc = -dV/dt (W); 0 by default."""
        return 0.0

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Power of the non-conservative (e.g. damping) forces (W); 0 by default."""
        return 0.0

    # -- helpers for subclasses -----------------------------------------------------------
    def _node_of(self, body) -> int:
        """Node index of `body` in the compiled model (after finalize)."""
        tree = self._require_finalized("calc_and_add_forces")
        return int(tree.compiled_model().node_of_body[body.index()])


def point_kinematics(X_WB: np.ndarray, V_WB_W: np.ndarray, node: int, p_BQ_B: np.ndarray):
    """Position and velocity in world of a point Q fixed to the body of `node`.

    Parameters
    ----------
    X_WB : ndarray, shape (nb, 4, 4)
        Body poses in world, node order.
    V_WB_W : ndarray, shape (nb, 6)
        Body spatial velocities [w; v] in world, node order.
    node : int
        Node of the body B.
    p_BQ_B : ndarray, shape (3,)
        Position of Q from Bo, expressed in B.

    Returns
    -------
    p_WQ : ndarray, shape (3,)
        Position of Q in world.
    p_BoQ_W : ndarray, shape (3,)
        Position of Q from Bo, expressed in world.
    v_WQ : ndarray, shape (3,)
        Velocity of Q in world, v_WBo + w_WB × p_BoQ_W.
    """
    R_WB = X_WB[node, :3, :3]
    p_BoQ_W = R_WB @ p_BQ_B
    p_WQ = X_WB[node, :3, 3] + p_BoQ_W
    v_WQ = V_WB_W[node, 3:] + np.cross(V_WB_W[node, :3], p_BoQ_W)
    return p_WQ, p_BoQ_W, v_WQ


def add_point_force(F_Bo_W_out: np.ndarray, node: int, p_BoQ_W: np.ndarray, f_Q_W: np.ndarray):
    """Add force `f_Q_W` applied at Q to `F_Bo_W_out[node]`, shifted to the body origin.

    The torque about Bo is p_BoQ_W × f_Q_W. (Forces on the world, node 0, are added
    too; the dynamics ignore them.)
    """
    F_Bo_W_out[node, :3] += np.cross(p_BoQ_W, f_Q_W)
    F_Bo_W_out[node, 3:] += f_Q_W
