"""Exact derivatives of inverse dynamics and of the mass matrix.

State derivatives use the complex step through the same (type-generic) RNEA kernel:
for a direction d, ``d tau = Im(RNEA(x + i h d)) / h`` with ``h = 1e-30``, which has no
subtraction and so is exact to machine precision. Position derivatives are taken along
the columns of a direction matrix ``Dq`` (nq x m):

- ``Dq = N(q)`` (m = nv): tangent-space derivative, the change of tau for a position
  change ``δq = N(q) δv`` (for a quaternion joint, a rotation by the angle vector δw
  expressed in F, Pinocchio's convention); this is what linearizing ``q̇ = N(q) v``
  needs;
- ``Dq = 1`` (m = nq): derivative with respect to the coordinates themselves (for a
  quaternion, of the function of the normalized quaternion).

Inertial parameters enter linearly: column (k, p) of the regressor is RNEA (or CRBA)
with the parameters set to the unit vector e_kp, exactly.

References
----------
J. Martins, P. Sturdza, J. Alonso, "The complex-step derivative approximation",
ACM TOMS 29(3), 2003. J. Carpentier, N. Mansard, "Analytical derivatives of rigid body
dynamics algorithms", RSS 2018 (the forward-dynamics derivatives as ``-M^-1 dID``).
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.crba import calc_mass_matrix
from merganser.multibody.kernels.rnea import calc_inverse_dynamics, calc_inverse_dynamics_with_added_mass

__all__ = ["COMPLEX_STEP", "inverse_dynamics_state_derivatives", "inverse_dynamics_regressor",
           "mass_matrix_parameter_derivative"]

#: Complex-step size.
COMPLEX_STEP = 1e-30


@kernel
def inverse_dynamics_state_derivatives(ip, fp, wsc, q, v, vd, I10, g, F_ext_W, use_fext,
                                       Dq, qc, vc, vdc, tauc, dtau_dq, dtau_dv, M_added=None):
    """Complex-step derivatives of RNEA with respect to q (along Dq) and v.

    Parameters
    ----------
    ip, fp : ndarray
        Packed model.
    wsc : ndarray of complex128, shape (nb, NWS)
        Complex workspace.
    q, v, vd, I10, g, F_ext_W, use_fext, M_added
        As in `calc_inverse_dynamics` (float64; `M_added` optional, last).
    Dq : ndarray, shape (nq, m)
        Position directions (N(q) for tangent-space derivatives, identity for coordinates).
    qc, vc, vdc, tauc : ndarray of complex128, shapes (nq,), (nv,), (nv,), (nv,)
        Complex scratch vectors.
    dtau_dq : ndarray, shape (nv, m)
        Output derivative along each column of Dq.
    dtau_dv : ndarray, shape (nv, nv)
        Output derivative with respect to v.
    """
    h = COMPLEX_STEP
    nq = q.shape[0]
    nv = v.shape[0]
    for i in range(nq):
        qc[i] = q[i]
    for i in range(nv):
        vc[i] = v[i]
        vdc[i] = vd[i]
    for j in range(Dq.shape[1]):
        for i in range(nq):
            qc[i] = q[i] + 1j * h * Dq[i, j]
        calc_inverse_dynamics_with_added_mass(ip, fp, wsc, qc, vc, vdc, I10, g, F_ext_W,
                                         use_fext, tauc, M_added)
        for i in range(nv):
            dtau_dq[i, j] = tauc[i].imag / h
    for i in range(nq):
        qc[i] = q[i]
    for j in range(nv):
        vc[j] = v[j] + 1j * h
        calc_inverse_dynamics_with_added_mass(ip, fp, wsc, qc, vc, vdc, I10, g, F_ext_W,
                                         use_fext, tauc, M_added)
        for i in range(nv):
            dtau_dv[i, j] = tauc[i].imag / h
        vc[j] = v[j]


@kernel
def inverse_dynamics_regressor(ip, fp, ws, q, v, vd, g, E, fext, tau, Y):
    """Regressor ``Y`` (nv, nb, 10) with ``tau_ID = sum_kp Y[:, k, p] I10[k, p]``.

    Gravity g is included, external forces and any added mass (``M_added``) are not
    (they do not depend on the parameters). `E` is an (nb, 10) scratch array, `fext` an (nb, 6) dummy, `tau` (nv,).
    """
    nb = ip.shape[0]
    for k in range(nb):
        for p in range(10):
            E[k, p] = 0.0
    for k in range(1, nb):
        for p in range(10):
            E[k, p] = 1.0
            calc_inverse_dynamics(ip, fp, ws, q, v, vd, E, g, fext, False, tau)
            for i in range(tau.shape[0]):
                Y[i, k, p] = tau[i]
            E[k, p] = 0.0
    for i in range(tau.shape[0]):
        for p in range(10):
            Y[i, 0, p] = 0.0


@kernel
def mass_matrix_parameter_derivative(ip, fp, ws, q, node, param, E, dM):
    """``dM/dθ`` for θ = I10[node, param]: CRBA with unit parameters (M is linear in θ)."""
    for k in range(ip.shape[0]):
        for p in range(10):
            E[k, p] = 0.0
    E[node, param] = 1.0
    calc_mass_matrix(ip, fp, ws, q, E, dM)
    E[node, param] = 0.0
