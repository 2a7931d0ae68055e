"""Forward kinematics: body poses, spatial velocities and accelerations of all nodes.

The passes run base to tip over the workspace rows (see `multibody.kernels.layout`):
`pose_pass_base_to_tip` fills ``R_PB``, ``p_PB``, ``S_B`` and the world pose
``R_WB``, ``p_WoBo_W``; `motion_pass_base_to_tip` fills the body-frame spatial velocity
``V_B`` and Featherstone's spatial acceleration ``A_B`` (both in B at Bo). The kernels
`calc_forward_kinematics`, `calc_body_spatial_velocities` and
`calc_body_spatial_accelerations` write world-frame results into caller-owned arrays.

Accelerations follow Drake: ``A_WB_W = [alpha_WB_W; a_WBo_W]`` with the classical
(not spatial) acceleration of the body origin Bo.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.joints import (
    calc_joint_bias, calc_joint_pose, joint_pose, joint_velocity,
)
from merganser.multibody.kernels.layout import (
    IP_END, IP_MOBILE, IP_NMOBILE, IP_PARENT, WS_A, WS_CJ, WS_P, WS_PW, WS_R, WS_RW, WS_V,
    bad_q, bad_v,
)
from merganser.multibody.kernels.spatial import (
    add6, cross_motion, load6, motion_to_child, rotate6, store6,
)

__all__ = [
    "set_world_pose", "world_pose", "pose_pass_base_to_tip", "pose_pass_to_nodes",
    "node_motion",
    "motion_pass_base_to_tip",
    "calc_forward_kinematics", "calc_mobile_forward_kinematics",
    "calc_body_spatial_velocities",
    "calc_body_spatial_accelerations",
]


@kernel
def set_world_pose(ws):
    """Set the world row (node 0): identity pose, zero velocity and acceleration."""
    for i in range(WS_V + 12):     # poses, V and A (the blocks before WS_V + 12)
        ws[0, i] = 0.0
    ws[0, WS_R] = ws[0, WS_R + 4] = ws[0, WS_R + 8] = 1.0
    ws[0, WS_RW] = ws[0, WS_RW + 4] = ws[0, WS_RW + 8] = 1.0


@kernel
def world_pose(ws, k, p):
    """Write ``R_WB = R_WP R_PB`` and ``p_WB = p_WP + R_WP p_PB`` of node k (parent p)."""
    for i in range(3):
        a0 = ws[p, WS_RW + 3 * i]
        a1 = ws[p, WS_RW + 3 * i + 1]
        a2 = ws[p, WS_RW + 3 * i + 2]
        for j in range(3):
            ws[k, WS_RW + 3 * i + j] = (a0 * ws[k, WS_R + j] + a1 * ws[k, WS_R + 3 + j]
                                        + a2 * ws[k, WS_R + 6 + j])
        ws[k, WS_PW + i] = (ws[p, WS_PW + i] + a0 * ws[k, WS_P] + a1 * ws[k, WS_P + 1]
                            + a2 * ws[k, WS_P + 2])


@kernel
def pose_pass_base_to_tip(ip, fp, q, ws, last):
    """Fill poses (in parent and in world) and motion subspaces of nodes 1..last."""
    set_world_pose(ws)
    for k in range(1, last + 1):
        calc_joint_pose(ip, fp, q, ws, k)
        world_pose(ws, k, ip[k, IP_PARENT])


@kernel
def pose_pass_to_nodes(ip, fp, q, ws, n0, n1, n2):
    """Fill poses (in parent and in world) and motion subspaces of nodes n0, n1, n2 and
    their ancestors only, base to tip (the other rows are not touched; pass a node
    twice, or the world 0, for fewer targets).

    In depth-first pre-order node j is an ancestor of target n (or n itself) exactly
    when ``j <= n < ip[j, IP_END]`` (n lies in j's subtree); the walk skips every other
    subtree whole, so its cost grows with the depths of the targets and the number of
    subtrees hanging off their paths, not with the number of nodes. Each node visited
    gets the arithmetic of `pose_pass_base_to_tip` (the same bits).
    """
    set_world_pose(ws)
    last = max(n0, max(n1, n2))
    j = 1
    while j <= last:
        end = ip[j, IP_END]
        if (j <= n0 and n0 < end) or (j <= n1 and n1 < end) or (j <= n2 and n2 < end):
            calc_joint_pose(ip, fp, q, ws, j)
            world_pose(ws, j, ip[j, IP_PARENT])
            j += 1
        else:
            j = end


@kernel
def _compose_into(X_WB, k, p, R, px, py, pz):
    """``X_WB[k] = X_WB[p] @ X_PB`` with ``X_PB = (R, p)`` (R a row-major 9-tuple)."""
    for i in range(3):
        a0, a1, a2 = X_WB[p, i, 0], X_WB[p, i, 1], X_WB[p, i, 2]
        X_WB[k, i, 0] = a0 * R[0] + a1 * R[3] + a2 * R[6]
        X_WB[k, i, 1] = a0 * R[1] + a1 * R[4] + a2 * R[7]
        X_WB[k, i, 2] = a0 * R[2] + a1 * R[5] + a2 * R[8]
        X_WB[k, i, 3] = X_WB[p, i, 3] + a0 * px + a1 * py + a2 * pz
    X_WB[k, 3, 0], X_WB[k, 3, 1], X_WB[k, 3, 2], X_WB[k, 3, 3] = 0.0, 0.0, 0.0, 1.0


@kernel
def node_motion(ip, fp, q, v, vd, ws, k, with_acceleration):
    """Fill V_B (and A_B when `with_acceleration`) of node k, in B at Bo.

    Requires the pose and motion subspace of node k and the motion of its parent.
    Recursion: ``V = X V_p + S v_j``; ``A = X A_p + S vd_j + c_J + V x (S v_j)``.
    Returns ``S v_j`` (6-tuple).
    """
    p = ip[k, IP_PARENT]
    vJ = joint_velocity(ip, ws, k, v)
    V = add6(motion_to_child(ws, k, load6(ws, p, WS_V)), vJ)
    store6(ws, k, WS_V, V)
    if with_acceleration:
        calc_joint_bias(ip, fp, q, v, ws, k)
        A = add6(motion_to_child(ws, k, load6(ws, p, WS_A)), load6(ws, k, WS_CJ))
        A = add6(A, cross_motion(V, vJ))
        A = add6(A, joint_velocity(ip, ws, k, vd))
        store6(ws, k, WS_A, A)
    return vJ


@kernel
def motion_pass_base_to_tip(ip, fp, q, v, vd, ws, last, with_acceleration):
    """Fill V_B (and A_B when `with_acceleration`) of nodes 1..last, in B at Bo.

    Requires the poses of nodes 1..last. ``ws[0, WS_A:WS_A+6]`` is the world's
    acceleration (set it to [0; -g] to include gravity).
    """
    for k in range(1, last + 1):
        node_motion(ip, fp, q, v, vd, ws, k, with_acceleration)


@kernel
def calc_forward_kinematics(ip, fp, ws, q, X_WB):
    """Poses of all node bodies in world.

    Parameters
    ----------
    ip, fp, ws, q : ndarray
        The packed model, its workspace (nb, NWS) (`multibody.kernels.layout`) and the
        generalized positions (nq,).
    X_WB : ndarray, shape (nb, 4, 4)
        Output: homogeneous pose of each node's body frame in world.

    Returns
    -------
    int
        0, or 1 if an input has the wrong size (then nothing is computed).
    """
    if bad_q(ip, q):
        return 1
    # Each pose is composed in X_WB from its parent's (a merged welded node's parent is
    # its composite node, its X_PB the fixed X_CB).
    for i in range(4):
        for j in range(4):
            X_WB[0, i, j] = 1.0 if i == j else 0.0
    for k in range(1, ip.shape[0]):
        R, px, py, pz = joint_pose(ip, fp, q, ws, k)
        _compose_into(X_WB, k, ip[k, IP_PARENT], R, px, py, pz)
    return 0


@kernel
def calc_mobile_forward_kinematics(ip, fp, ws, q, X_WM):
    """Poses in world of the mobile nodes' bodies only (the world and the nodes with a
    joint, ``ip[:n_mobile, IP_MOBILE]``; every node when the welded bodies are not
    merged): Pinocchio's joint placements ``oMi``.

    Parameters
    ----------
    ip, fp, ws, q : ndarray
        The packed model, its workspace (nb, NWS) (`multibody.kernels.layout`) and the
        generalized positions (nq,).
    X_WM : ndarray, shape (n_mobile, 4, 4)
        Output: row i is the pose of mobile node ``ip[i, IP_MOBILE]``'s body in world
        (row 0 the world's identity), bitwise the row of that node in
        `calc_forward_kinematics`' output. The world poses ``R_WB``, ``p_WoBo_W`` of the
        mobile nodes are also left in ``ws`` (the welded nodes' rows are not touched).

    Returns
    -------
    int
        0, or 1 if an input has the wrong size (then nothing is computed).
    """
    n = ip[0, IP_NMOBILE]
    if bad_q(ip, q) or X_WM.shape[0] != n:
        return 1
    # The packed parent of a mobile node is mobile (a merged welded parent is replaced
    # by its composite node, the welds composed into X_PF), so the mobile nodes alone
    # form a tree; each pose is composed as in `calc_forward_kinematics`.
    for i in range(4):
        for j in range(4):
            X_WM[0, i, j] = 1.0 if i == j else 0.0
    set_world_pose(ws)
    for m in range(1, n):
        k = ip[m, IP_MOBILE]
        R, px, py, pz = joint_pose(ip, fp, q, ws, k)
        p = ip[k, IP_PARENT]
        for i in range(3):
            a0 = ws[p, WS_RW + 3 * i]
            a1 = ws[p, WS_RW + 3 * i + 1]
            a2 = ws[p, WS_RW + 3 * i + 2]
            r0 = a0 * R[0] + a1 * R[3] + a2 * R[6]
            r1 = a0 * R[1] + a1 * R[4] + a2 * R[7]
            r2 = a0 * R[2] + a1 * R[5] + a2 * R[8]
            t = ws[p, WS_PW + i] + a0 * px + a1 * py + a2 * pz
            ws[k, WS_RW + 3 * i] = X_WM[m, i, 0] = r0
            ws[k, WS_RW + 3 * i + 1] = X_WM[m, i, 1] = r1
            ws[k, WS_RW + 3 * i + 2] = X_WM[m, i, 2] = r2
            ws[k, WS_PW + i] = X_WM[m, i, 3] = t
        X_WM[m, 3, 0], X_WM[m, 3, 1], X_WM[m, 3, 2], X_WM[m, 3, 3] = 0.0, 0.0, 0.0, 1.0
    return 0


@kernel
def calc_body_spatial_velocities(ip, fp, ws, q, v, V_WB_W):
    """Spatial velocity ``[w_WB_W; v_WBo_W]`` of every node body, shape (nb, 6).

    Returns 0, or 1 if an input has the wrong size.
    """
    if bad_q(ip, q) or bad_v(ip, v):
        return 1
    nb = ip.shape[0]
    pose_pass_base_to_tip(ip, fp, q, ws, nb - 1)
    motion_pass_base_to_tip(ip, fp, q, v, v, ws, nb - 1, False)
    for k in range(nb):
        store6(V_WB_W, k, 0, rotate6(ws, k, WS_RW, load6(ws, k, WS_V)))
    return 0


@kernel
def calc_body_spatial_accelerations(ip, fp, ws, q, v, vd, A_WB_W):
    """Spatial acceleration ``[alpha_WB_W; a_WBo_W]`` (classical a_WBo) of every node body.

    Gravity plays no role; the output has shape (nb, 6). Returns 0, or 1 if an input
    has the wrong size.
    """
    if bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, vd):
        return 1
    nb = ip.shape[0]
    pose_pass_base_to_tip(ip, fp, q, ws, nb - 1)
    motion_pass_base_to_tip(ip, fp, q, v, vd, ws, nb - 1, True)
    for k in range(nb):
        V = load6(ws, k, WS_V)
        A = load6(ws, k, WS_A)
        # classical acceleration of Bo = spatial translational part + w x v_Bo
        a = (A[0], A[1], A[2],
             A[3] + V[1] * V[5] - V[2] * V[4],
             A[4] + V[2] * V[3] - V[0] * V[5],
             A[5] + V[0] * V[4] - V[1] * V[3])
        store6(A_WB_W, k, 0, rotate6(ws, k, WS_RW, a))
    return 0
