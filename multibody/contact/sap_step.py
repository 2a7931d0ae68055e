"""One SAP-family discrete step ("sap", "similar", "lagged") in a single compiled call.

`sap_step` chains the compiled stages of the step (module docstring of
`multibody.contact.discrete_stepper`):

1. the pose pass (unless the caller's `ws` holds it) and the contact Jacobian J[:3nc] in
   the contact frames (`contact_jacobian_at_poses`);
2. the bilateral constraint rows J[3nc:3nc+m], g, stiffness, damping (`constraint_rows`);
3. v* = v₀ + h v̇, the initial guess v = v₀, the joint-limit rows
   J[3nc+m:3nc+m+nl] of the limits within reach of this step (`limit_rows`, Drake's
   SapLimitConstraint: unilateral) and the tendon rows J[3nc+m+nl:3nc+m+nl+nt] of the
   tendons whose limits the start violates (`tendon_rows`, Drake's SapTendonConstraint:
   unilateral);
4. the Delassus diagonal estimate w (`delassus_estimate`; per constraint for the
   bilateral rows, `constraint_delassus`; a tendon's rows ±aᵀ have Drake's per-constraint
   estimate as their own), the contact parameters (`sap_parameters`), the bilateral
   regularization (`bilateral_regularization`), the limits' (`limit_regularization`)
   and the tendons' (`bilateral_regularization` too: Drake's SapTendonConstraint has
   the same R = max(1/(h k (h + τ)), β²/(4π²) w), β = 0.1, and v̂ = -g/(h + τ) with
   τ = h in the near-rigid regime);
5. the solve (`sap_solve_in`) and τ = Jᵀγ/h (`generalized_impulse`).
"""

import math

from merganser.framework.compilation import kernel
from merganser.multibody.contact.constraint_kernels import (
    bilateral_regularization, constraint_delassus, constraint_rows, limit_regularization,
    limit_rows, tendon_rows,
)
from merganser.multibody.contact.contact_kernels import contact_jacobian_at_poses, pose_pass
from merganser.multibody.contact.problem_kernels import (
    delassus_estimate, generalized_impulse, sap_parameters,
)
from merganser.multibody.contact.sap import sap_solve_in

__all__ = ["sap_step", "CONTACT_WORK_ROWS", "CONSTRAINT_WORK_ROWS"]

CONTACT_WORK_ROWS = 6        # Rt, Rn, v̂, f₀, n₀, ε per contact
CONSTRAINT_WORK_ROWS = 5     # g, stiffness, damping, R, v̂ per constraint, limit, tendon row


@kernel(inline=False)
def sap_step(model, q, v0, vdot, M, h, vs, near_rigid, rel_tol, abs_tol, max_iter, nc, m, node_a,
             node_b, p_WC, R_WC, phi0, k, d, tau, mu, v, gamma, vc, tau_out, ip, fp, ws, kinds, int_params,
             float_params, limit_qv, limit_lower, limit_upper, limit_dof, tendon_start,
             tendon_qv, tendon_a, tendon_params, J, w, contact_work, constraint_work, vstar,
             solver_work, poses_ready):
    """One discrete step of the SAP family (see the module docstring).

    Parameters
    ----------
    model : int
        `multibody.contact.sap.SAP`, ``SIMILAR`` or ``LAGGED``.
    q, v0, vdot : ndarray, shapes (nq,), (nv,), (nv,)
        State and free-motion acceleration v̇(q, v, u).
    M : ndarray, shape (nv, nv)
        Mass matrix.
    h : float
        Time step (s).
    vs : float
        Stiction tolerance (m/s).
    near_rigid : float
        β²/(4π²) of SAP's near-rigid bound (`problem_kernels.near_rigid_factor`).
    rel_tol, abs_tol, max_iter
        Convergence criteria of `sap_solve`.
    nc : int
        Number of contacts; ``node_a`` ... ``mu`` are the per-contact arrays of
        `multibody.contact.contact_manager.PointContactSet` (first nc used).
    m : int
        Number of constraint rows (``ConstraintRows.m``).
    v : ndarray, shape (nv,)
        Output: v_{n+1}.
    gamma, vc : ndarray, shape (>= 3nc + m + 2n + t,)
        Output: impulses (contact frames, then constraint rows, then limit rows, then
        tendon rows) and velocities J v.
    tau_out : ndarray, shape (nv,)
        Output: Jᵀγ/h.
    ip, fp, ws : ndarray
        Packed model and workspace (`multibody.kernels.layout`).
    kinds, int_params, float_params : ndarray
        Constraint tables of `multibody.contact.constraints.ConstraintRows` (m rows).
    limit_qv : ndarray, shape (n, 2), int64
        Position and velocity index of each one-dof joint (q̇ = v) that may have limits.
    limit_lower, limit_upper : ndarray, shape (n,)
        Their position limits (±inf: none).
    limit_dof : ndarray, shape (>= 2n,), int64
        Output: each limit row's velocity index, negated minus one for an upper limit
        (`constraint_kernels.limit_rows`).
    tendon_start, tendon_qv, tendon_a, tendon_params : ndarray
        The tendon tables of `multibody.contact.constraints.ConstraintRows` (at most t
        rows: ``tendon_max_rows``).
    J : ndarray, shape (>= 3nc + m + 2n + t, nv)
        Work: the contact (contact frames), constraint (W), limit and tendon rows.
    w : ndarray, shape (>= 3nc + m + 2n + t,)
        Work: Delassus diagonal estimate.
    contact_work : ndarray, shape (CONTACT_WORK_ROWS, >= nc)
    constraint_work : ndarray, shape (CONSTRAINT_WORK_ROWS, >= max(m + 2n + t, 1))
        Work arrays.
    vstar : ndarray, shape (nv,)
        Output: v*.
    solver_work : tuple
        `multibody.contact.sap.sap_work` (nv, >= 3nc + m + 2n + t, >= nc + m + 2n + t).
    poses_ready : bool
        `ws` already holds the poses of q (`multibody.contact.contact_kernels.pose_pass`).

    The arguments after ``tau_out`` change only when the work arrays grow (the caller
    keeps them in one tuple).

    Returns
    -------
    (iterations, residual, nl, nt)
        As `sap_solve` (iterations < 0 means no convergence or a non-finite v_{n+1}), the
        number nl of limit rows and nt of tendon rows.
    """
    if not poses_ready:
        pose_pass(ip, fp, q, ws)
    contact_jacobian_at_poses(ip, ws, nc, node_a, node_b, p_WC, R_WC, J)
    c3 = 3 * nc
    g, kh, ch = constraint_work[0], constraint_work[1], constraint_work[2]
    Rh, vhath = constraint_work[3], constraint_work[4]
    if m > 0:
        constraint_rows(ip, ws, kinds, int_params, float_params, q, J[c3:], g, kh, ch)
    for c in range(v.shape[0]):
        vstar[c] = v0[c] + h * vdot[c]
        v[c] = v0[c]
    nl = limit_rows(q, v0, vstar, h, limit_qv, limit_lower, limit_upper, J[c3 + m:], g[m:],
                    limit_dof)
    ml = m + nl
    nt = 0
    if tendon_params.shape[0] > 0:
        nt = tendon_rows(q, tendon_start, tendon_qv, tendon_a, tendon_params, J[c3 + ml:],
                         g[ml:], kh[ml:], ch[ml:])
    nh = ml + nt
    delassus_estimate(J, M, c3 + nh, w)
    if m > 0:                            # per constraint, as Drake's SapModel
        constraint_delassus(J[c3:c3 + m], M, kinds, w[c3:])
    Rt, Rn, vhat = contact_work[0], contact_work[1], contact_work[2]
    fe0, n0, eps = contact_work[3], contact_work[4], contact_work[5]
    sap_parameters(nc, w, phi0, k, d, tau, mu, J, v0, h, vs, near_rigid, Rt, Rn, vhat, fe0, n0,
                   eps)
    bilateral_regularization(m, h, w[c3:], g, kh, ch, Rh, vhath)
    limit_regularization(nl, h, w[c3 + m:], g[m:], Rh[m:], vhath[m:])
    if nt > 0:
        bilateral_regularization(nt, h, w[c3 + ml:], g[ml:], kh[ml:], ch[ml:], Rh[ml:],
                                 vhath[ml:])
    it, residual = sap_solve_in(model, M, vstar, v, J, nc, nh, nl + nt, mu, Rt, Rn, vhat, h,
                                k, d, fe0, n0, eps, Rh, vhath, rel_tol, abs_tol, max_iter,
                                gamma, vc, solver_work)
    generalized_impulse(J, gamma, c3 + nh, h, tau_out)
    total = 0.0
    for c in range(v.shape[0]):
        total += v[c]
    if it >= 0 and not math.isfinite(total):
        it = -max(max_iter, 1)
    return it, residual, nl, nt
