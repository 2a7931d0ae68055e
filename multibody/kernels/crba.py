"""Composite rigid body algorithm (CRBA): the joint-space mass matrix M(q).

Composite inertias are accumulated tip to base in 10-parameter form (a sum of rigid
inertias is a rigid inertia), then each column block of M is read off by carrying the
composite force ``F = Ic_k S_k`` up the path to the root. With an added-mass spatial inertia
per node (``M_added``, see `multibody.kernels.added_mass`, not a rigid inertia in
general) the composites are accumulated as 6x6 matrices ``I + M_added + Σ children``
instead.

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, table 6.2.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.added_mass import add_added_mass_to_matrix, bad_added_mass
from merganser.multibody.kernels.inertia import (
    articulated_from_rigid, articulated_to_parent_add, mat6_times, rigid_to_parent_add,
)
from merganser.multibody.kernels.joints import calc_joint_pose, joint_force
from merganser.multibody.kernels.composite import load_composite_inertias
from merganser.multibody.kernels.layout import (
    IP_MOBILE, IP_NMOBILE, IP_NV, IP_PARENT, IP_VS, WS_IA, WS_S, bad_inertia, bad_q,
)
from merganser.multibody.kernels.spatial import force_to_parent, inertia_times_motion, load6

__all__ = ["crba_tip_to_base", "calc_mass_matrix", "calc_mass_matrix_with_added_mass",
           "mass_matrix_at_poses"]


@kernel
def crba_tip_to_base(ip, ws, M, M_added=None):
    """Fill M from the composite inertias in ``ws[:, WS_IA:]`` (consumed).

    For node k, column j (velocity index i = v_start[k] + j):
    ``F = Ic_k S_j``; ``M[i, i'] = S_i'^T F`` for the dofs i' of k, then
    ``F <- X^T F`` and the same for every ancestor, filling both triangles.
    The composites are 10 inertial parameters when `M_added` is None, row-major 6x6
    matrices (36 entries) otherwise (only whether `M_added` is None matters here). With
    `M_added` None the pass visits the mobile nodes (welded bodies merged, see
    `multibody.kernels.composite`), otherwise every node.
    """
    merged = M_added is None
    count = ip[0, IP_NMOBILE] if merged else ip.shape[0]
    for i in range(count - 1, 0, -1):
        k = ip[i, IP_MOBILE] if merged else i
        vs = ip[k, IP_VS]
        n = ip[k, IP_NV]
        for j in range(n):
            if M_added is None:
                F = inertia_times_motion(ws, k, WS_IA, load6(ws, k, WS_S + 6 * j))
            else:
                F = mat6_times(ws, k, WS_IA, load6(ws, k, WS_S + 6 * j))
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
            if M_added is None:
                rigid_to_parent_add(ws, k, p, WS_IA)
            else:
                articulated_to_parent_add(ws, k, p, WS_IA)


@kernel
def calc_mass_matrix(ip, fp, ws, q, I10, M):
    """Joint-space mass matrix by CRBA.

    Parameters
    ----------
    ip, fp, ws, q : ndarray
        The packed model, its workspace (nb, NWS) (`multibody.kernels.layout`) and the
        generalized positions (nq,).
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
    for i in range(1, ip[0, IP_NMOBILE]):
        calc_joint_pose(ip, fp, q, ws, ip[i, IP_MOBILE])
    mass_matrix_at_poses(ip, fp, ws, I10, M)
    return 0


@kernel
def mass_matrix_at_poses(ip, fp, ws, I10, M):
    """`calc_mass_matrix` with the joint poses of q already in `ws` (by any pass that
    ran `calc_joint_pose` on the mobile nodes: ABA, the pose pass); no size checks."""
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            M[i, j] = 0.0
    load_composite_inertias(ip, fp, I10, ws, WS_IA)
    crba_tip_to_base(ip, ws, M, None)


@kernel
def calc_mass_matrix_with_added_mass(ip, fp, ws, q, I10, M, M_added):
    """`calc_mass_matrix` with an added-mass spatial inertia per node.

    `M_added` (nb, 6, 6) (about each Bo, in B, symmetric; see
    `multibody.kernels.added_mass`) is added to each body's rigid inertia, the
    composites being 6x6 matrices; None gives `calc_mass_matrix` (a kernel of its own,
    without the added-mass argument, so that the rigid-body call is unchanged).
    """
    if M_added is None:
        return calc_mass_matrix(ip, fp, ws, q, I10, M)
    if bad_q(ip, q) or bad_inertia(ip, I10) or bad_added_mass(ip, M_added):
        return 1
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            M[i, j] = 0.0
    # Every node: the added mass of a welded body acts at that body.
    for k in range(1, ip.shape[0]):
        calc_joint_pose(ip, fp, q, ws, k)
        articulated_from_rigid(I10, k, 0, ws, k, WS_IA)
        add_added_mass_to_matrix(M_added, k, ws, WS_IA)
    crba_tip_to_base(ip, ws, M, M_added)
    return 0
