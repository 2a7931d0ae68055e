"""Solves with the plant's mass matrix M(q) that report a singular M as
`SingularDynamicsError` (the error the articulated body algorithm raises), naming the
body and joint, instead of numpy's LinAlgError or a silent NaN."""

import numpy as np

from merganser.multibody.kernels.singular_dynamics import (
    singular_dynamics_error, singular_node_of_mass_matrix,
)

__all__ = ["check_mass_matrix_factorization", "solve_with_mass_matrix"]


def check_mass_matrix_factorization(plant, M, fn="calc_forward_dynamics"):
    """Raise `SingularDynamicsError` if M (nv, nv) is not positive definite; return None
    when it is.

    The body named is the one the articulated body algorithm finds at the default
    inertias and zero state (so every path names the same body), else the first joint
    at which a Cholesky factorization of M fails."""
    node = singular_node_of_mass_matrix(plant._model, M)
    if node < 0:
        return
    dyn, model = plant._dyn, plant._model
    dyn.forward_dynamics(np.asarray(plant._tree.get_default_positions(), dtype=np.float64)
                         if model.nq else np.zeros(0), np.zeros(model.nv), np.zeros(model.nv),
                         np.array(model.default_inertia), np.zeros(3), fn_name=fn)
    if node >= 0:
        raise singular_dynamics_error(fn, plant._model, node, plant._dyn.node_joint_names,
                                      plant._dyn.node_source_locations)


def solve_with_mass_matrix(plant, M, b, fn="calc_forward_dynamics"):
    """x = M⁻¹ b for the plant's mass matrix M (nv, nv) and b (nv,) or (nv, k).

    Raises
    ------
    SingularDynamicsError
        If M is singular (or the solution is not finite).
    """
    try:
        x = np.linalg.solve(M, b)
    except np.linalg.LinAlgError:
        x = None
    if x is None or not np.all(np.isfinite(x)):
        check_mass_matrix_factorization(plant, M, fn)
        raise singular_dynamics_error(fn, plant._model, 1, plant._dyn.node_joint_names,
                                  plant._dyn.node_source_locations)
    return x
