"""UniformGravityFieldElement: a uniform gravity field g acting on every body."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.force_elements.force_element import ForceElement

__all__ = ["UniformGravityFieldElement"]


class UniformGravityFieldElement(ForceElement):
    """Uniform gravity g_W (m/s², expressed in world) acting at each body's center of mass.

    Every ``MultibodyTree`` owns exactly one, ``tree.gravity_field()`` (force element 0).
    Gravity can be disabled per model instance before ``finalize()``.

    Parameters
    ----------
    gravity_vector : array_like, shape (3,)
        g_W; Drake's default [0, 0, -9.81].

    Notes
    -----
    The force on body B is m g_W at its center of mass Bcm, i.e. at Bo the spatial force
    [p_BoBcm_W × m g_W; m g_W]. The potential energy is V = -Σ m g_W · p_WBcm and the
    conservative power Pc = Σ m g_W · v_WBcm. Masses and centers of mass come from the
    inertial parameters (nb, 10) in node order (``[m, m c, I]`` rows, see
    ``CompiledModel.default_inertia``), passed as `inertia_params`; the compiled
    defaults are used when it is omitted.
    """

    #: Drake's default gravity magnitude (m/s²).
    kDefaultStrength = 9.81

    def __init__(self, gravity_vector=(0.0, 0.0, -9.81)):
        super().__init__(model_instance=0)
        self._g_W = self._check_g(gravity_vector, "UniformGravityFieldElement")
        self._disabled_instances: set[int] = set()
        self._enabled_nodes: np.ndarray | None = None

    @staticmethod
    def _check_g(g, func):
        g = np.array(g, dtype=np.float64)
        if g.shape != (3,) or not np.all(np.isfinite(g)):
            raise ValueError(
                f"{func}: gravity_vector must be a finite vector of shape (3,), got {g!r}"
            )
        return g

    def gravity_vector(self) -> np.ndarray:
        """g_W, the acceleration of gravity expressed in world (m/s²), shape (3,)."""
        return self._g_W.copy()

    def set_gravity_vector(self, g_W) -> None:
        """Set g_W (m/s², shape (3,)); only before finalize(), as in Drake (the plant's
        compiled dynamics read it at finalize)."""
        g = self._check_g(g_W, "UniformGravityFieldElement.set_gravity_vector")
        self._require_not_finalized("set_gravity_vector")
        self._g_W = g

    def is_enabled(self, model_instance: int) -> bool:
        """True unless gravity was disabled for `model_instance`."""
        tree = self._require_tree("is_enabled")
        tree.get_model_instance_name(model_instance)  # validates the index
        return int(model_instance) not in self._disabled_instances

    def set_enabled(self, model_instance: int, is_enabled: bool) -> None:
        """Enable or disable gravity on the bodies of `model_instance` (before finalize)."""
        tree = self._require_tree("set_enabled")
        self._require_not_finalized("set_enabled")
        tree.get_model_instance_name(model_instance)  # validates the index
        if is_enabled:
            self._disabled_instances.discard(int(model_instance))
        else:
            self._disabled_instances.add(int(model_instance))

    def enabled_node_mask(self) -> np.ndarray:
        """Per node, 1.0 if gravity acts on its body else 0.0, shape (nb,) (after finalize)."""
        self._require_finalized("enabled_node_mask")
        return self._enabled_nodes.copy()

    def calc_gravity_generalized_forces(self, context) -> np.ndarray:
        """τ_g(q) (nv,), the generalized forces of gravity on the parent plant in `context`
        (pydrake's ``UniformGravityFieldElement.CalcGravityGeneralizedForces``; the same
        as the plant's ``calc_gravity_generalized_forces``)."""
        return self.get_parent_plant().calc_gravity_generalized_forces(context)

    def _do_finalize(self, tree) -> None:
        model = tree.compiled_model()
        mask = np.ones(model.nb)
        for node in range(model.nb):
            body = tree.get_body(int(model.body_index[node]))
            if body.model_instance() in self._disabled_instances:
                mask[node] = 0.0
        self._enabled_nodes = mask

    def _mass_terms(self, X_WB, inertia_params):
        """Per node: m (nb,) and m p_BoBcm_W (nb, 3), with disabled bodies zeroed."""
        tree = self._require_finalized("calc_and_add_forces")
        P = tree.compiled_model().default_inertia if inertia_params is None else inertia_params
        P = np.asarray(P, dtype=np.float64)
        if P.shape != (X_WB.shape[0], 10):
            raise ValueError(
                f"UniformGravityFieldElement: inertia_params has shape {P.shape}, "
                f"expected ({X_WB.shape[0]}, 10)"
            )
        m = P[:, 0] * self._enabled_nodes
        mc_W = np.einsum("bij,bj->bi", X_WB[:, :3, :3], P[:, 1:4]) * self._enabled_nodes[:, None]
        return m, mc_W

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out, inertia_params=None):
        """Add m g_W at each body's center of mass into `F_Bo_W_out` (nb, 6)."""
        m, mc_W = self._mass_terms(X_WB, inertia_params)
        F_Bo_W_out[:, :3] += np.cross(mc_W, self._g_W)
        F_Bo_W_out[:, 3:] += m[:, None] * self._g_W

    def calc_potential_energy(self, X_WB, V_WB_W, q, v, inertia_params=None) -> float:
        """V = -Σ m g_W · p_WBcm (J)."""
        m, mc_W = self._mass_terms(X_WB, inertia_params)
        return float(-(m @ (X_WB[:, :3, 3] @ self._g_W)) - np.sum(mc_W @ self._g_W))

    def calc_conservative_power(self, X_WB, V_WB_W, q, v, inertia_params=None) -> float:
        """Pc = Σ m g_W · v_WBcm = -dV/dt (W)."""
        m, mc_W = self._mass_terms(X_WB, inertia_params)
        v_terms = m[:, None] * V_WB_W[:, 3:] + np.cross(V_WB_W[:, :3], mc_W)
        return float(np.sum(v_terms @ self._g_W))

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v, inertia_params=None) -> float:
        """Gravity is conservative: 0."""
        return 0.0
