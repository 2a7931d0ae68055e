"""Kernels of the lazy force-elements contribution (a ``MultibodyForces`` holding "the
force elements' forces at a recorded state" until read): the snapshot of the state, and
inverse dynamics with those forces in one call.

``calc_force_elements_contribution`` with gravity the only force element records the
state (q, v) and the inertial parameters I10 of the Context in the forces' snapshot
arrays (`snapshot_state`); ``calc_inverse_dynamics`` then computes τ in one kernel call
(`calc_lazy_inverse_dynamics_at`):

- when the snapshot is the state of the Context it is given (bit for bit) and the
  kernels' gravity is the gravity vector (no model instance has gravity disabled), by
  RNEA with gravity as the base acceleration ``a_0 = −g`` and the damping ``τ = … + D v``
  (Featherstone's formulation: equal to the eager value to rounding, not bit for bit,
  because gravity enters the recursion instead of being summed as body forces; the bits
  of ``calc_generalized_forces_for_acceleration``); the forces stay lazy;
- otherwise with the arithmetic of the two fused kernels it replaces
  (`multibody.kernels.queries`: the forces from the snapshot, written into the
  forces' arrays, then inverse dynamics with them): the bits of the eager path.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import IP_NV_TOTAL
from merganser.multibody.kernels.queries import (
    C_GRAVITY, C_KERNEL_GRAVITY, C_NODES, calc_gravity_and_damping_forces_at,
    calc_inverse_dynamics_at,
)
from merganser.multibody.kernels.rnea import calc_inverse_dynamics

__all__ = ["snapshot_state", "calc_lazy_inverse_dynamics_at", "LAZY_KEPT", "LAZY_WRITTEN"]

#: `calc_lazy_inverse_dynamics_at` returned τ and left the forces lazy / wrote them.
LAZY_KEPT, LAZY_WRITTEN = 0, 1


@kernel
def snapshot_state(q, v, snap_qv, snap_I10, I10):
    """Copy q (nq,) and v (nv,) into ``snap_qv`` (nq + nv,) and I10 (nb, 10) into
    ``snap_I10`` (the arguments that change between calls last, so that the others can
    be bound once: `multibody.plant.query_tables.bind_lazy_forces`)."""
    nq = q.shape[0]
    for i in range(nq):
        snap_qv[i] = q[i]
    for i in range(v.shape[0]):
        snap_qv[nq + i] = v[i]
    for k in range(I10.shape[0]):
        for j in range(10):
            snap_I10[k, j] = I10[k, j]
    return 0


@kernel
def _is_snapshot(q, v, I10, snap_qv, snap_I10):
    """True if q, v and I10 equal the snapshot bit for bit (±0 aside)."""
    nq = q.shape[0]
    for i in range(nq):
        if snap_qv[i] != q[i]:
            return False
    for i in range(v.shape[0]):
        if snap_qv[nq + i] != v[i]:
            return False
    for k in range(I10.shape[0]):
        for j in range(10):
            if snap_I10[k, j] != I10[k, j]:
                return False
    return True


@kernel
def calc_lazy_inverse_dynamics_at(ip, fp, ws, q, v, c, snap_qv, snap_I10, tau_app, F_body,
                                  I10, vd, tau):
    """τ = M v̇ + C v − τ_app − Σ J_Bᵀ F_Bo_W (+ reflected v̇) (nv,) at q, v, I10, with the
    force elements' forces (gravity, damping) at the snapshot (see the module docstring).

    Parameters
    ----------
    snap_qv : ndarray, shape (nq + nv,)
        The snapshot ``[q_s; v_s]``.
    snap_I10 : ndarray, shape (nb, 10)
        The snapshot's inertial parameters (node order).
    tau_app : ndarray, shape (nv,)
    F_body : ndarray, shape (nbodies, 6)
        The forces' arrays: written with ``−D v_s`` and the gravity forces (body order)
        unless the result is `LAZY_KEPT`.
    (the other parameters as `multibody.kernels.queries.calc_inverse_dynamics_at`.)

    Returns
    -------
    int
        `LAZY_KEPT` (τ done, forces not written), `LAZY_WRITTEN` (τ done, forces
        written), or > 1: the forces are written, τ is not (an input has the wrong size).

    Notes
    -----
    The arguments that change between calls (I10, v̇, τ) come last, so that the others
    can be bound once per Context and forces (`multibody.plant.query_tables.bind_lazy_forces`).
    """
    gk = C_KERNEL_GRAVITY
    nq = q.shape[0]
    if (c[gk] == c[C_GRAVITY] and c[gk + 1] == c[C_GRAVITY + 1]
            and c[gk + 2] == c[C_GRAVITY + 2] and _is_snapshot(q, v, I10, snap_qv, snap_I10)):
        if calc_inverse_dynamics(ip, fp, ws, q, v, vd, I10, c[gk:gk + 3], F_body, False,
                                 tau) == 0:
            d0 = C_NODES + ip.shape[0]
            nv = ip[0, IP_NV_TOTAL]
            reflected = c[d0 + nv:]
            for i in range(tau.shape[0]):
                tau[i] = tau[i] - (0.0 - c[d0 + i] * v[i])      # τ − τ_app, τ_app = −D v
            for i in range(reflected.shape[0]):
                tau[i] += reflected[i] * vd[i]
            return LAZY_KEPT
    calc_gravity_and_damping_forces_at(ip, fp, ws, snap_qv[:nq], snap_qv[nq:], snap_I10, c,
                                       tau_app, F_body)
    status = calc_inverse_dynamics_at(ip, fp, ws, q, v, vd, I10, c, F_body, tau_app, tau)
    return LAZY_WRITTEN if status == 0 else 1 + status
