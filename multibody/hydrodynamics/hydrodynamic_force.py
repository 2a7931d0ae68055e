"""HydrodynamicForce: buoyancy and drag on one body, and its added mass.

For a body B with parameters `BodyHydroData` (all rotational first, in B, about Bo):

- Buoyancy: a force of magnitude ρ g V acting at the center of buoyancy Bcb, directed
  opposite the plant's gravity (+z of W for the default gravity [0, 0, -9.81]).
  Its potential energy is -f_W · p_WBcb (a constant force), so it is conservative.
- Drag: with V_B = [w_WB_B; v_WBo_B], the spatial velocity of B expressed in B, the
  spatial force on B at Bo, expressed in B, is

      F_drag_B = a ∘ V_B + b ∘ V_B ∘ |V_B|      (∘: elementwise product)

  with a = ``linear_drag`` and b = ``quadratic_drag``. Sign convention (the
  RobotDynamics / Fossen one): the coefficients are the force per unit velocity, so
  *negative* coefficients oppose the motion and dissipate energy; the non-conservative
  power F_drag_B · V_B is then <= 0.
- Added mass M_A (6x6): the fluid's reaction to the body's acceleration. It enters the
  equations of motion like an extra (general, not rigid-body) spatial inertia fixed in
  B: the fluid force is -(M_A dV_B/dt + V_B ×* M_A V_B) (Kirchhoff's equations). It
  depends on the acceleration, so it is not an explicit force of this element: the
  element declares it through ``added_mass_spatial_inertia()`` and the plant adds it to the
  body's inertia in its compiled kernels at finalize
  (`multibody.plant.plant_added_mass`), so the plant's mass matrix, forward and
  inverse dynamics, bias term, kinetic energy and momentum include it. It has no
  weight (buoyancy is the separate force above).
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.hydrodynamics.body_hydro_data import BodyHydroData
from merganser.multibody.tree import ForceElement

__all__ = ["HydrodynamicForce"]


class HydrodynamicForce(ForceElement):
    """Buoyancy and drag on `body`, and its added mass as an added mass (see the module
    docstring for the model).

    Parameters
    ----------
    body : RigidBody
        The body B the fluid acts on.
    data : BodyHydroData
        Its parameters (rotational first, in B, about Bo).
    fluid_density : float
        ρ (kg/m³), > 0; water by default.
    gravity : float
        g (m/s²) used for buoyancy, >= 0.
    """

    def __init__(self, body, data: BodyHydroData, fluid_density: float = 1000.0,
                 gravity: float = 9.81):
        func = "HydrodynamicForce"
        if not isinstance(data, BodyHydroData):
            raise TypeError(f"{func}: data must be a BodyHydroData, got {type(data).__name__}")
        if not hasattr(body, "body_frame"):
            raise TypeError(f"{func}: body must be a RigidBody, got {type(body).__name__}")
        for arg, value, lower in (("fluid_density", fluid_density, 0.0), ("gravity", gravity,
                                                                          0.0)):
            if not (np.isfinite(value) and float(value) >= lower):
                raise ValueError(f"{func}: {arg} must be finite and >= {lower}, got {value!r}")
        if not float(fluid_density) > 0.0:
            raise ValueError(f"{func}: fluid_density must be > 0, got {fluid_density!r}")
        super().__init__(body.model_instance())
        self._body = body
        self._data = BodyHydroData(
            data.has_hydro, data.linear_drag.copy(), data.quadratic_drag.copy(), data.volume,
            data.center_of_buoyancy.copy(), data.added_mass_matrix.copy())
        self._rho = float(fluid_density)
        self._g = float(gravity)
        self._up_W = np.array([0.0, 0.0, 1.0])

    # ---- parameters -------------------------------------------------------------------
    def body(self):
        """The body B."""
        return self._body

    def hydro_data(self) -> BodyHydroData:
        """The parameters (a copy)."""
        d = self._data
        return BodyHydroData(d.has_hydro, d.linear_drag.copy(), d.quadratic_drag.copy(),
                             d.volume, d.center_of_buoyancy.copy(), d.added_mass_matrix.copy())

    def fluid_density(self) -> float:
        """ρ (kg/m³)."""
        return self._rho

    def added_mass_matrix(self) -> np.ndarray:
        """M_A (6, 6), about Bo, expressed in B, rotational first (a copy)."""
        return self._data.added_mass_matrix.copy()

    def added_mass_spatial_inertia(self) -> list:
        """The added mass as the plant's added mass of B (see
        `multibody.plant.plant_added_mass`).

        Returns
        -------
        list of (int, ndarray)
            ``[(body_index, M_A)]`` with M_A (6, 6) about Bo, in B, rotational first; empty
            when the body has no hydrodynamics or no added mass.
        """
        M_A = self._data.added_mass_matrix
        if not self._data.has_hydro or not np.any(M_A):
            return []
        return [(self._body.index(), M_A.copy())]

    def buoyancy_magnitude(self) -> float:
        """ρ g V (N)."""
        return self._rho * self._g * self._data.volume

    # ---- lifecycle ----------------------------------------------------------------------
    def _do_finalize(self, tree) -> None:
        b = getattr(self._body, "_index", None)
        if b is None or not 0 <= b < tree.num_bodies() or tree.get_body(b) is not self._body:
            raise ValueError(f"HydrodynamicForce: body {self._body.name()!r} does not belong "
                             f"to this plant")
        self._node = self._node_of(self._body)
        g = np.asarray(tree.gravity_field().gravity_vector(), dtype=np.float64)
        norm = float(np.linalg.norm(g))
        self._up_W = -g / norm if norm > 0.0 else np.array([0.0, 0.0, 1.0])

    # ---- force laws ---------------------------------------------------------------------
    def calc_buoyancy_force_in_world(self) -> np.ndarray:
        """f_W (3,): ρ g V along the up direction (opposite gravity)."""
        return self.buoyancy_magnitude() * self._up_W

    def calc_drag_spatial_force(self, V_WB_B) -> np.ndarray:
        """F_drag_Bo_B (6,) = a ∘ V + b ∘ V ∘ |V| for V = V_WB_B (6,) = [w; v] in B."""
        V = np.asarray(V_WB_B, dtype=np.float64).reshape(6)
        d = self._data
        return d.linear_drag * V + d.quadratic_drag * V * np.abs(V)

    def _body_velocity(self, X_WB, V_WB_W):
        R = X_WB[self._node, :3, :3]
        V_B = np.empty(6)
        V_B[:3] = R.T @ V_WB_W[self._node, :3]
        V_B[3:] = R.T @ V_WB_W[self._node, 3:]
        return R, V_B

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add buoyancy (at Bcb) and drag (at Bo) on B into `F_Bo_W_out[node]`."""
        if not self._data.has_hydro:
            return
        R, V_B = self._body_velocity(X_WB, V_WB_W)
        n = self._node
        f_W = self.calc_buoyancy_force_in_world()
        p_BoBcb_W = R @ self._data.center_of_buoyancy
        F_B = self.calc_drag_spatial_force(V_B)
        F_Bo_W_out[n, :3] += np.cross(p_BoBcb_W, f_W) + R @ F_B[:3]
        F_Bo_W_out[n, 3:] += f_W + R @ F_B[3:]

    # ---- energy ---------------------------------------------------------------------------
    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        """-f_W · p_WBcb (J) (buoyancy is a constant force)."""
        if not self._data.has_hydro:
            return 0.0
        n = self._node
        p_WBcb = X_WB[n, :3, 3] + X_WB[n, :3, :3] @ self._data.center_of_buoyancy
        return -float(self.calc_buoyancy_force_in_world() @ p_WBcb)

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """f_W · v_WBcb (W)."""
        if not self._data.has_hydro:
            return 0.0
        n = self._node
        p_BoBcb_W = X_WB[n, :3, :3] @ self._data.center_of_buoyancy
        v_WBcb = V_WB_W[n, 3:] + np.cross(V_WB_W[n, :3], p_BoBcb_W)
        return float(self.calc_buoyancy_force_in_world() @ v_WBcb)

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """F_drag_B · V_WB_B (W); <= 0 when the drag coefficients are <= 0."""
        if not self._data.has_hydro:
            return 0.0
        _, V_B = self._body_velocity(X_WB, V_WB_W)
        return float(self.calc_drag_spatial_force(V_B) @ V_B)

    def __repr__(self) -> str:
        return (f"HydrodynamicForce(body={self._body.name()!r}, volume={self._data.volume}, "
                f"fluid_density={self._rho})")
