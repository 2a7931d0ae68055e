"""Composite rigid body algorithm (CRBA): the joint-space mass matrix M(q).

Composite inertias are accumulated tip to base in 10-parameter form (a sum of rigid
inertias is a rigid inertia), then each column block of M is read off by carrying the
composite force ``F = Ic_k S_k`` up the path to the root.

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, table 6.2.
"""

from __future__ import annotations

from multibody.kernels.compilation import kernel
from multibody.kernels.inertia import rigid_to_parent_add
from multibody.kernels.joints import calc_joint_pose, joint_force
from multibody.kernels.layout import IP_NV, IP_PARENT, IP_VS, WS_IA, WS_S, bad_inertia, bad_q
from multibody.kernels.spatial import force_to_parent, inertia_times_motion, load6

__all__ = ["crba_tip_to_base", "calc_mass_matrix"]


@kernel
def crba_tip_to_base(ip, ws, M):
    """Fill M from the composite inertias in ``ws[:, WS_IA:WS_IA+10]`` (consumed).

    For node k, column j (velocity index i = v_start[k] + j):
    ``F = Ic_k S_j``; ``M[i, i'] = S_i'^T F`` for the dofs i' of k, then
    ``F <- X^T F`` and the same for every ancestor, filling both triangles.
    """
    for k in range(ip.shape[0] - 1, 0, -1):
        vs = ip[k, IP_VS]
        n = ip[k, IP_NV]
        for j in range(n):
            F = inertia_times_motion(ws, k, WS_IA, load6(ws, k, WS_S + 6 * j))
            for jj in range(n):
                M[vs + jj, vs + j] = joint_force(ws, k, jj, F)
            a = k
            pa = ip[a, IP_PARENT]
            while pa > 0:
                F = force_to_parent(ws, a, F)
                a = pa
                pa = ip[a, IP_PARENT]
                vsa = ip[a, IP_VS]
                for jj in range(ip[a, IP_NV]):
                    x = joint_force(ws, a, jj, F)
                    M[vsa + jj, vs + j] = x
                    M[vs + j, vsa + jj] = x
        p = ip[k, IP_PARENT]
        if p > 0:
            rigid_to_parent_add(ws, k, p, WS_IA)


@kernel
def calc_mass_matrix(ip, fp, ws, q, I10, M):
    """Joint-space mass matrix by CRBA.

    Parameters
    ----------
    ip, fp : ndarray
        Packed model.
    ws : ndarray, shape (nb, NWS)
        Workspace.
    q : ndarray, shape (nq,)
        Generalized positions.
    I10 : ndarray, shape (nb, 10)
        Inertial parameters of each node's body (about Bo, in B).
    M : ndarray, shape (nv, nv)
        Output mass matrix (symmetric; every entry is written).

    Returns
    -------
    int
        0, or 1 if an input has the wrong size (then nothing is computed).
    """
    if bad_q(ip, q) or bad_inertia(ip, I10):
        return 1
    nb = ip.shape[0]
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            M[i, j] = 0.0
    for k in range(1, nb):
        calc_joint_pose(ip, fp, q, ws, k)
        for i in range(10):
            ws[k, WS_IA + i] = I10[k, i]
    crba_tip_to_base(ip, ws, M)
    return 0
