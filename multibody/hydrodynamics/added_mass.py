"""Added mass of the plant's HydrodynamicForce elements in the equations of motion.

Each body B with an added mass M_A (6x6, about Bo, in B, rotational first) carries the
kinetic energy ½ V_Bᵀ M_A V_B of the fluid it accelerates, V_B = [w_WB_B; v_WBo_B] =
J_B v. With Kirchhoff's equations the fluid force on B at Bo, expressed in B, is

    F_A_B = -(M_A dV_B/dt + V_B ×* (M_A V_B)),

where dV_B/dt is the time derivative of the components of V_B (in B) and
[w; v] ×* [n; f] = [w × n + v × f; w × f] is the spatial force cross product. With
dV_B/dt = J_B v̇ + c_B the equations of motion become

    (M + Σ_B J_Bᵀ M_A J_B) v̇ + C v + Σ_B J_Bᵀ (M_A c_B + V_B ×* M_A V_B) = τ_g + τ + ...

The plant does this itself: `HydrodynamicForce.added_mass_spatial_inertia` hands M_A to the
plant at finalize and the compiled kernels add it to B's inertia (composite inertia in
CRBA, momentum rate in RNEA, articulated inertia and bias force in ABA; see
`multibody.kernels.added_mass`), so ``plant.calc_mass_matrix`` and
``plant.calc_forward_dynamics`` (and the simulation, inverse dynamics, bias term, kinetic
energy and momentum) include the added mass. The two ``*_with_added_mass`` functions are
kept as thin wrappers over them. `calc_added_mass_matrix` and `calc_added_mass_bias`
evaluate the added-mass terms on their own, from the plant's Jacobians (O(n) Jacobian
calls per body), as a check of the kernels and for analysis.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.hydrodynamics.hydrodynamic_force import HydrodynamicForce
from merganser.multibody.plant import JacobianWrtVariable

__all__ = [
    "calc_added_mass_bias",
    "calc_added_mass_matrix",
    "calc_forward_dynamics_with_added_mass",
    "calc_mass_matrix_with_added_mass",
    "hydrodynamic_force_elements",
]


def hydrodynamic_force_elements(plant) -> list:
    """The plant's HydrodynamicForce elements that contribute an added mass."""
    out = []
    for i in range(plant.num_force_elements()):
        element = plant.get_force_element(i)
        if isinstance(element, HydrodynamicForce) and element.added_mass_spatial_inertia():
            out.append(element)
    return out


def _body_jacobian_and_velocity(plant, context, body):
    """R_WB (3, 3), J_B (6, nv) mapping v to V_B (in B) and V_B (6,)."""
    W = plant.world_frame()
    J_W = plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kV,
                                               body.body_frame(), np.zeros(3), W, W)
    R = plant.eval_body_pose_in_world(context, body).rotation().matrix()
    J_B = np.vstack([R.T @ J_W[:3], R.T @ J_W[3:]])
    V_B = J_B @ plant.get_velocities(context)
    return R, J_B, V_B


def calc_added_mass_matrix(plant, context) -> np.ndarray:
    """Σ_B J_Bᵀ M_A J_B (nv, nv): the added mass in generalized coordinates (the part of
    ``plant.calc_mass_matrix`` that the added mass contributes), from Jacobians."""
    nv = plant.num_velocities()
    M_added = np.zeros((nv, nv))
    for element in hydrodynamic_force_elements(plant):
        _, J_B, _ = _body_jacobian_and_velocity(plant, context, element.body())
        M_added += J_B.T @ element.added_mass_matrix() @ J_B
    return M_added


def calc_mass_matrix_with_added_mass(plant, context) -> np.ndarray:
    """M(q) (nv, nv) including Σ J_Bᵀ M_A J_B: ``plant.calc_mass_matrix(context)``, which
    includes the added mass of every HydrodynamicForce element."""
    return plant.calc_mass_matrix(context)


def _spatial_force_cross(V, h) -> np.ndarray:
    """V ×* h for V = [w; v], h = [n; f]: [w × n + v × f; w × f]."""
    w, v = V[:3], V[3:]
    return np.concatenate([np.cross(w, h[:3]) + np.cross(v, h[3:]), np.cross(w, h[3:])])


def calc_added_mass_bias(plant, context) -> np.ndarray:
    """Σ_B J_Bᵀ (M_A c_B + V_B ×* M_A V_B) (nv,): the velocity-dependent added-mass
    forces, on the left-hand side of the equations of motion (the part of
    ``plant.calc_bias_term`` that the added mass contributes), from Jacobians.

    c_B = dV_B/dt at v̇ = 0 follows from the bias spatial acceleration Ab_WB = [αb; ab]
    of Bo (J̇ v in W): c_B = [R_WBᵀ αb; R_WBᵀ (ab - w_WB × v_WBo)].
    """
    W = plant.world_frame()
    bias = np.zeros(plant.num_velocities())
    for element in hydrodynamic_force_elements(plant):
        body = element.body()
        R, J_B, V_B = _body_jacobian_and_velocity(plant, context, body)
        Ab = plant.calc_bias_spatial_acceleration(
            context, JacobianWrtVariable.kV, body.body_frame(), np.zeros(3), W, W).get_coeffs()
        V_W = plant.eval_body_spatial_velocity_in_world(context, body).get_coeffs()
        c_B = np.concatenate([R.T @ Ab[:3], R.T @ (Ab[3:] - np.cross(V_W[:3], V_W[3:]))])
        M_A = element.added_mass_matrix()
        bias += J_B.T @ (M_A @ c_B + _spatial_force_cross(V_B, M_A @ V_B))
    return bias


def calc_forward_dynamics_with_added_mass(plant, context) -> np.ndarray:
    """v̇ (nv,) including the added mass of every HydrodynamicForce element:
    ``plant.calc_forward_dynamics(context)``, which includes it."""
    return plant.calc_forward_dynamics(context)
