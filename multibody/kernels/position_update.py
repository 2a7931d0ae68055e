"""The position update of every discrete step: q_{n+1} = q_n + h N(q_n) v_{n+1}, then each
quaternion divided by its norm (the one copy of this formula: the plant's contact-free
step, the contact steppers and the batched plant all call it)."""

import math

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.joint_velocity_maps import map_velocity_to_qdot

__all__ = ["advance_positions", "next_state", "normalize_quaternions"]


@kernel
def normalize_quaternions(q, quat_starts):
    """Divide each quaternion q[qs:qs + 4] (qs in `quat_starts`, int64) by its norm."""
    for a in range(quat_starts.shape[0]):
        qs = quat_starts[a]
        w, x, y, z = q[qs], q[qs + 1], q[qs + 2], q[qs + 3]
        s = math.sqrt(w * w + x * x + y * y + z * z)
        for i in range(4):
            q[qs + i] = q[qs + i] / s


@kernel
def advance_positions(ip, q, v, h, identity_n, quat_starts, qdot, q_next):
    """Write q_next = q + h N(q) v (nq,), quaternions re-normalized.

    Parameters
    ----------
    ip : ndarray (nn, k) int64
        Packed model of `multibody.kernels.layout.pack_model`.
    q : ndarray (nq,)
    v : ndarray (nv,)
        The velocity of the step's end, v_{n+1}.
    h : float
        Time step (s).
    identity_n : bool
        N(q) is the identity (then q̇ = v and `qdot` is not used).
    quat_starts : ndarray (nquat,) int64
        q index of the w component of every quaternion.
    qdot : ndarray (nq,)
        Work array.
    q_next : ndarray (>= nq,)
        Output, its first nq entries; may be `q` itself (the update is then in place).

    Returns
    -------
    int
        0, or 1 if N(q) v could not be formed (sizes); q_next is then untouched.
    """
    nq = q.shape[0]
    if identity_n:
        if v.shape[0] != nq:
            return 1
        for i in range(nq):
            q_next[i] = q[i] + v[i] * h
    else:
        if map_velocity_to_qdot(ip, q, v, qdot) != 0:
            return 1
        for i in range(nq):
            q_next[i] = q[i] + qdot[i] * h
    normalize_quaternions(q_next, quat_starts)
    return 0


@kernel
def next_state(ip, q, v_next, h, identity_n, quat_starts, qdot, x_next):
    """Write x_next = [q + h N(q) v_next; v_next] (nq + nv,) (see `advance_positions`).

    Returns 0, or 1 if the sizes do not match (x_next then untouched)."""
    nq = q.shape[0]
    nv = v_next.shape[0]
    if x_next.shape[0] != nq + nv:
        return 1
    if advance_positions(ip, q, v_next, h, identity_n, quat_starts, qdot, x_next) != 0:
        return 1
    for i in range(nv):
        x_next[nq + i] = v_next[i]
    return 0
