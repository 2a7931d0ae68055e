"""Compiled position update of the discrete step: x_{n+1} = [q_n + h N(q_n) v_{n+1};
v_{n+1}] with the quaternions re-normalized, in one call (the same arithmetic, in the
same order, as the numpy expression it replaces, so results are bit-identical)."""

import math

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.joint_velocity_maps import map_velocity_to_qdot


@kernel(allocates=True, inline=False)
def next_state(ip, q, v_next, h, identity_n, quat_starts, qdot, x_next):
    """Write x_next = [q + h q̇; v_next] (nq + nv,), q̇ = N(q) v_next.

    Parameters
    ----------
    ip : ndarray (nn, k) int64
        Packed model of `multibody.kernels.layout.pack_model`.
    q : ndarray (nq,)
    v_next : ndarray (nv,)
    h : float
        Time step (s).
    identity_n : bool
        N(q) is the identity (then q̇ = v_next and `qdot` is not used).
    quat_starts : ndarray (nquat,) int64
        q index of the w component of every quaternion (normalized after the update).
    qdot : ndarray (nq,)
        Work array.
    x_next : ndarray (nq + nv,)
        Output.

    Returns
    -------
    int
        0, or 1 if N(q) v could not be formed (sizes), x_next then untouched.
    """
    nq = q.shape[0]
    nv = v_next.shape[0]
    if identity_n:
        for i in range(nq):
            x_next[i] = q[i] + v_next[i] * h
    else:
        if map_velocity_to_qdot(ip, q, v_next, qdot) != 0:
            return 1
        for i in range(nq):
            x_next[i] = q[i] + qdot[i] * h
    for i in range(nv):
        x_next[nq + i] = v_next[i]
    for a in range(quat_starts.shape[0]):
        qs = quat_starts[a]
        w, x, y, z = x_next[qs], x_next[qs + 1], x_next[qs + 2], x_next[qs + 3]
        s = math.sqrt(w * w + x * x + y * y + z * z)
        for i in range(4):
            x_next[qs + i] = x_next[qs + i] / s
    return 0
