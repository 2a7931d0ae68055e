"""The step kernel of `multibody.batched.BatchedPlant`: a chunk of envs per call.

`step_envs` advances the envs of one contiguous chunk (with the chunk's own workspace)
by ``num_steps`` steps of size h; `multibody.batched.env_pool.run_chunks` runs the chunks
on the cores, so the result does not depend on the number of threads. With ``vdot = ABA(q, v, τ)`` (gravity
included) and per actuator a, driving velocity ``iv(a)`` of a joint with position
``iq(a)``::

    u_a = u_ff,a [+ Kp_a (q_d,a - q[iq(a)]) - Kd_a (v[iv(a)] - v_d,a)]   (PD actuators)
    τ   = B u - D v                              (actuation, joint damping)

Schemes:

- semi-explicit Euler, the discrete plant's step (same formula and operation order as
  `multibody.plant.discrete_update.SemiExplicitEulerStepper`)::

      v_{n+1} = v_n + h vdot(q_n, v_n)
      q_{n+1} = q_n + h N(q_n) v_{n+1}     (`multibody.kernels.position_update`)

- explicit Runge-Kutta with tableau (A, b), combined as in
  `framework.integrators.runge_kutta.combine_stages`::

      k_i = f(x_n + h sum_{j<i} a_ij k_j),   x_{n+1} = x_n + h sum_i b_i k_i

After each step every quaternion is divided by its norm.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.kernels.aba import calc_forward_dynamics, calc_forward_dynamics_armature
from merganser.framework.compilation import kernel
from merganser.multibody.kernels.joint_velocity_maps import map_velocity_to_qdot
from merganser.multibody.kernels.layout import NWS
from merganser.multibody.kernels.position_update import advance_positions, normalize_quaternions

__all__ = ["BATCHED_INTEGRATION_SCHEMES", "env_accelerations", "env_generalized_forces",
           "env_inputs", "env_scratch",
           "load_state", "runge_kutta_tableau", "step_envs", "store_state"]

#: Butcher tableaux (rows of A, b) of the explicit schemes; the framework's for the
#: names it shares (framework.integrators.runge_kutta), plus the classical RK4.
_TABLEAUX = {
    "explicit_euler": (((),), (1.0,)),
    "runge_kutta2": (((), (1.0,)), (0.5, 0.5)),
    "runge_kutta3": (((), (0.5,), (-1.0, 2.0)), (1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0)),
    "runge_kutta4": (((), (0.5,), (0.0, 0.5), (0.0, 0.0, 1.0)),
                     (1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0)),
}
#: Names accepted by ``BatchedPlant(..., integration_scheme=...)``.
BATCHED_INTEGRATION_SCHEMES = ("semi_explicit_euler",) + tuple(_TABLEAUX)


def runge_kutta_tableau(scheme):
    """(A (s, s), b (s,)) of `scheme`; s = 0 for ``"semi_explicit_euler"``."""
    rows, b = _TABLEAUX.get(scheme, ((), ()))
    A = np.zeros((len(b), len(b)))
    for i, row in enumerate(rows):
        A[i, :len(row)] = row
    return A, np.array(b, dtype=float)


@kernel
def env_accelerations(model, drive, scratch, q, v, armature):
    """scratch's vd = ABA(q, v, τ) with τ = B u - D v (see the module docstring), with
    M + diag(armature) for M when armature (nv,) is not empty (shape (0,)).

    model = (ip, fp, g, I10 of the env); drive = (U (N, nu), actuators (2, nu): velocity
    and position index per actuator, damping (nv,), KP, KD (1 or N, nu), XD = [q_d; v_d]
    (1 or N, 2 nu), use_pd, e: the env's row; `env_inputs`); scratch = (ws, fext, tau,
    vd, qdot).
    """
    ip, fp, g, inertia = model
    ws, fext, tau, vd, _ = scratch
    env_generalized_forces(drive, q, v, tau)
    if armature.shape[0] > 0:
        calc_forward_dynamics_armature(ip, fp, ws, q, v, tau, armature, inertia, g, fext,
                                       False, vd)
    else:
        calc_forward_dynamics(ip, fp, ws, q, v, tau, inertia, g, fext, False, vd)


@kernel
def env_generalized_forces(drive, q, v, tau):
    """tau (nv,) = B u - D v, u with the PD law when ``use_pd`` (`env_accelerations`'s
    `drive`)."""
    U, actuators, damping, KP, KD, XD, use_pd, e = drive
    nu = U.shape[1]
    ek = e if KP.shape[0] > 1 else 0
    ed = e if KD.shape[0] > 1 else 0
    ex = e if XD.shape[0] > 1 else 0
    for i in range(tau.shape[0]):
        tau[i] = 0.0
    for a in range(nu):
        ua = U[e, a]
        if use_pd:
            ua += (KP[ek, a] * (XD[ex, a] - q[actuators[1, a]])
                   - KD[ed, a] * (v[actuators[0, a]] - XD[ex, nu + a]))
        tau[actuators[0, a]] += ua
    for i in range(damping.shape[0]):
        tau[i] -= damping[i] * v[i]


@kernel
def _semi_explicit_euler_step(model, drive, scratch, q, v, h, qdot_is_v, quat_starts):
    """v += h vdot(q, v);  q += h N(q) v (the new v), quaternions re-normalized."""
    env_accelerations(model, drive, scratch, q, v, q[:0])
    vd, qdot = scratch[3], scratch[4]
    for i in range(v.shape[0]):
        v[i] = vd[i] * h + v[i]
    advance_positions(model[0], q, v, h, qdot_is_v, quat_starts, qdot, q)


@kernel
def _runge_kutta_step(model, drive, scratch, q, v, h, qdot_is_v, tab_a, tab_b, x0, K):
    """One explicit Runge-Kutta step of x = [q; v] (module docstring); x0 (nx,) and
    K (s, nx) are scratch."""
    nq, nx = q.shape[0], x0.shape[0]
    vd, qdot = scratch[3], scratch[4]
    for i in range(nq):
        x0[i] = q[i]
    for i in range(nx - nq):
        x0[nq + i] = v[i]
    for st in range(tab_b.shape[0] + 1):
        weights = tab_a[st] if st < tab_b.shape[0] else tab_b
        if st > 0:                       # x = x0 + h sum_{j < st} w_j K_j
            for i in range(nx):
                acc = 0.0
                for j in range(st):
                    acc += weights[j] * K[j, i]
                xi = x0[i] + h * acc
                if i < nq:
                    q[i] = xi
                else:
                    v[i - nq] = xi
        if st == tab_b.shape[0]:
            break
        env_accelerations(model, drive, scratch, q, v, q[:0])
        if qdot_is_v:
            for i in range(nq):
                K[st, i] = v[i]
        else:
            map_velocity_to_qdot(model[0], q, v, qdot)
            for i in range(nq):
                K[st, i] = qdot[i]
        for i in range(nx - nq):
            K[st, nq + i] = vd[i]


@kernel(allocates=True, inline=False)
def step_envs(lo, hi, ip, fp, X, U, I10, g, h, num_steps, actuators, damping, quat_starts,
              qdot_is_v, tab_a, tab_b, KP, KD, XD, use_pd):
    """Advance the envs lo..hi-1 of X (N, nq + nv) by `num_steps` steps of size h, in place
    (one chunk of `multibody.batched.env_pool.run_chunks`; the call releases the GIL).

    Parameters
    ----------
    ip, fp : ndarray
        Packed model (`multibody.kernels.layout.pack_model`).
    X : ndarray, shape (N, nq + nv)
        States [q; v], overwritten.
    U : ndarray, shape (N, nu)
        Feedforward actuation, held over the steps.
    I10 : ndarray, shape (N, nb, 10)
        Inertial parameters per env, node order.
    g : ndarray, shape (3,)
        Gravity, expressed in W.
    h : float
        Step size (s).
    num_steps : int
    actuators : ndarray of int64, shape (2, nu)
        Velocity index (row 0) and position index (row 1) of each actuator's joint.
    damping : ndarray, shape (nv,)
        Joint viscous damping per velocity.
    quat_starts : ndarray of int64
        q index of every quaternion's w.
    qdot_is_v : bool
        N(q) is the identity.
    tab_a, tab_b : ndarray, shapes (s, s) and (s,)
        Runge-Kutta tableau; s = 0 selects semi-explicit Euler.
    KP, KD : ndarray, shape (1, nu) or (N, nu)
        PD gains per actuator (shared or per env), read when `use_pd`.
    XD : ndarray, shape (1, 2 nu) or (N, 2 nu)
        Desired state [q_d; v_d] per actuator, read when `use_pd`.
    use_pd : bool
        Whether the actuators are PD-controlled.
    """
    nx, nv = X.shape[1], damping.shape[0]
    nq = nx - nv
    scratch = env_scratch(ip.shape[0], nq, nv)
    q, v, x0 = np.empty(nq), np.empty(nv), np.empty(nx)
    K = np.empty((max(tab_b.shape[0], 1), nx))
    for e in range(lo, hi):
        load_state(X, e, q, v)
        model, drive = env_inputs(e, ip, fp, g, I10, U, actuators, damping, KP, KD, XD,
                                  use_pd)
        for _ in range(num_steps):
            if tab_b.shape[0] == 0:
                _semi_explicit_euler_step(model, drive, scratch, q, v, h, qdot_is_v,
                                          quat_starts)
            else:
                _runge_kutta_step(model, drive, scratch, q, v, h, qdot_is_v, tab_a, tab_b,
                                  x0, K)
                normalize_quaternions(q, quat_starts)
        store_state(X, e, q, v)


@kernel(allocates=True)
def env_scratch(nb, nq, nv):
    """Work arrays of one parallel task: (ws, fext, tau, vd, qdot)."""
    return (np.zeros((nb, NWS)), np.zeros((nb, 6)), np.empty(nv), np.empty(nv),
            np.empty(nq))


@kernel(allocates=True)
def env_inputs(e, ip, fp, g, I10, U, actuators, damping, KP, KD, XD, use_pd):
    """(model, drive) of env e (see `env_accelerations`; one array view per env, the
    other rows are indexed with e); KP, KD, XD have one row shared by all envs or one
    per env."""
    return (ip, fp, g, I10[e]), (U, actuators, damping, KP, KD, XD, use_pd, e)


@kernel
def load_state(X, e, q, v):
    """q, v = X[e] split."""
    nq = q.shape[0]
    for i in range(nq):
        q[i] = X[e, i]
    for i in range(v.shape[0]):
        v[i] = X[e, nq + i]


@kernel
def store_state(X, e, q, v):
    """X[e] = [q; v]."""
    nq = q.shape[0]
    for i in range(nq):
        X[e, i] = q[i]
    for i in range(v.shape[0]):
        X[e, nq + i] = v[i]
