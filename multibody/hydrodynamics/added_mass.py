"""Added mass of the plant's HydrodynamicForce elements in the equations of motion.

Each body B with an added mass M_A (6x6, about Bo, in B, rotational first) carries the
kinetic energy ½ V_Bᵀ M_A V_B of the fluid it accelerates, V_B = [w_WB_B; v_WBo_B] =
J_B v. With Kirchhoff's equations the fluid force on B at Bo, expressed in B, is

    F_A_B = -(M_A dV_B/dt + V_B ×* (M_A V_B)),

where dV_B/dt is the time derivative of the components of V_B (in B) and
[w; v] ×* [n; f] = [w × n + v × f; w × f] is the spatial force cross product. With
dV_B/dt = J_B v̇ + c_B, the equations of motion of the plant become

    (M + Σ_B J_Bᵀ M_A J_B) v̇ = M v̇₀ - Σ_B J_Bᵀ (M_A c_B + V_B ×* M_A V_B),

where v̇₀ is the plant's forward dynamics without added mass (gravity, actuation,
damping, buoyancy, drag and all other forces included). c_B follows from the plant's
bias spatial acceleration Ab_WB = [αb; ab] of Bo (J̇ v in W):
c_B = [R_WBᵀ αb; R_WBᵀ (ab - w_WB × v_WBo)].

This is exact, but it is evaluated here in Python with the plant's public queries
(O(n) Jacobian calls per body); the compiled kernels would need an extra per-body 6x6
inertia (added to the composite inertia in CRBA, to the articulated inertia in ABA and
to I a + v ×* I v in RNEA) to include it at kernel speed.
"""

from __future__ import annotations

import numpy as np

from multibody.hydrodynamics.hydrodynamic_force import HydrodynamicForce
from multibody.plant import JacobianWrtVariable

__all__ = [
    "calc_added_mass_bias",
    "calc_added_mass_matrix",
    "calc_forward_dynamics_with_added_mass",
    "calc_mass_matrix_with_added_mass",
    "hydrodynamic_force_elements",
]


def hydrodynamic_force_elements(plant) -> list:
    """The plant's HydrodynamicForce elements that have a non-zero added mass."""
    out = []
    for i in range(plant.num_force_elements()):
        element = plant.get_force_element(i)
        if isinstance(element, HydrodynamicForce) and np.any(element.added_mass_matrix()):
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
    """Σ_B J_Bᵀ M_A J_B (nv, nv): the added mass in generalized coordinates."""
    nv = plant.num_velocities()
    M_added = np.zeros((nv, nv))
    for element in hydrodynamic_force_elements(plant):
        _, J_B, _ = _body_jacobian_and_velocity(plant, context, element.body())
        M_added += J_B.T @ element.added_mass_matrix() @ J_B
    return M_added


def calc_mass_matrix_with_added_mass(plant, context) -> np.ndarray:
    """M(q) + Σ_B J_Bᵀ M_A J_B (nv, nv), the mass matrix the body "feels" in the fluid."""
    return plant.calc_mass_matrix(context) + calc_added_mass_matrix(plant, context)


def _spatial_force_cross(V, h) -> np.ndarray:
    """V ×* h for V = [w; v], h = [n; f]: [w × n + v × f; w × f]."""
    w, v = V[:3], V[3:]
    return np.concatenate([np.cross(w, h[:3]) + np.cross(v, h[3:]), np.cross(w, h[3:])])


def calc_added_mass_bias(plant, context) -> np.ndarray:
    """Σ_B J_Bᵀ (M_A c_B + V_B ×* M_A V_B) (nv,): the velocity-dependent added-mass
    forces, on the left-hand side of the equations of motion (see module docstring)."""
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
    """v̇ (nv,) including the added mass of every HydrodynamicForce element.

    Solves (M + Σ J_Bᵀ M_A J_B) v̇ = M v̇₀ - Σ J_Bᵀ (M_A c_B + V_B ×* M_A V_B), with v̇₀
    the plant's `calc_forward_dynamics` (see the module docstring).
    """
    vdot0 = plant.calc_forward_dynamics(context)
    if not hydrodynamic_force_elements(plant):
        return vdot0
    M = plant.calc_mass_matrix(context)
    lhs = M + calc_added_mass_matrix(plant, context)
    rhs = M @ vdot0 - calc_added_mass_bias(plant, context)
    return np.linalg.solve(lhs, rhs)
