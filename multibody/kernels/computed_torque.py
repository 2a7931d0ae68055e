"""Computed torque in one compiled call: a PID acceleration law followed by inverse dynamics.

For a fully actuated model (nq = nv = n) with state x = [q; v] (2n,), desired state
x_d = [q_d; v_d] (2n,), gains kp, kd, ki (n,), integral z (n,) and reference acceleration
v̇_ref (n,)::

    v̇ = kp ⊙ (q_d − q) + kd ⊙ (v_d − v) + ki ⊙ z + v̇_ref
    τ = RNEA(q, v, v̇, g) + D v          (= M v̇ + C v − τ_g(q) − τ_damping)

with D the joint damping coefficients (n,). This is what an inverse-dynamics controller
evaluates on every derivative evaluation; doing it in one call spares the half dozen
numpy operations and calls around `calc_inverse_dynamics` (the arithmetic is the same, in
the same order).
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import bad_inertia, bad_q, bad_v, bad_vec3
from merganser.multibody.kernels.rnea import rnea_base_to_tip, rnea_tip_to_base

__all__ = ["calc_computed_torque"]


@kernel
def calc_computed_torque(ip, fp, ws, x, x_d, kp, kd, ki, z, vd_ref, damping, I10, g, F_unused,
                         vd, tau):
    """τ (n,) of the computed-torque law in the module docstring.

    Parameters
    ----------
    ip, fp, ws : ndarray
        Packed model and workspace (`multibody.kernels.layout`).
    x, x_d : ndarray, shape (2 n,)
        Estimated and desired state [q; v].
    kp, kd : ndarray, shape (n,)
        Position and velocity gains.
    ki, z : ndarray, shape (n,) or (0,)
        Integral gains and the integral of q_d − q (both empty when there is no integral).
    vd_ref : ndarray, shape (n,) or (0,)
        Reference acceleration (empty when there is none).
    damping : ndarray, shape (n,)
        Joint damping coefficients D.
    I10 : ndarray, shape (nb, 10)
        Inertial parameters (node order).
    g : ndarray, shape (3,)
        Gravity, expressed in W.
    F_unused : ndarray, shape (nb, 6)
        Unused external-force array of the RNEA passes (any (nb, 6) array).
    vd : ndarray, shape (n,)
        Output: the commanded accelerations v̇.
    tau : ndarray, shape (n,)
        Output: the generalized forces τ.

    Returns
    -------
    int
        0, or 1 if an input has the wrong size (then nothing is computed).
    """
    n = vd.shape[0]
    if (x.shape[0] != 2 * n or x_d.shape[0] != 2 * n or kp.shape[0] != n or kd.shape[0] != n
            or damping.shape[0] != n or tau.shape[0] != n or ki.shape[0] != z.shape[0]
            or (z.shape[0] != 0 and z.shape[0] != n)
            or (vd_ref.shape[0] != 0 and vd_ref.shape[0] != n)):
        return 1
    q = x[:n]
    v = x[n:]
    if bad_q(ip, q) or bad_v(ip, v) or bad_inertia(ip, I10) or bad_vec3(g):
        return 1
    for i in range(n):
        vd[i] = kp[i] * (x_d[i] - q[i]) + kd[i] * (x_d[n + i] - v[i])
    for i in range(z.shape[0]):
        vd[i] += ki[i] * z[i]
    for i in range(vd_ref.shape[0]):
        vd[i] += vd_ref[i]
    rnea_base_to_tip(ip, fp, ws, q, v, vd, I10, g, F_unused, False)
    rnea_tip_to_base(ip, ws, tau)
    for i in range(n):
        tau[i] += damping[i] * v[i]
    return 0
