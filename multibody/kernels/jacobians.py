"""Spatial Jacobian of a point fixed on a body and its bias acceleration J̇v.

For a point Bp fixed on node k's body B (``p_BoBp_B``), the Jacobian ``J`` (6 x nv) maps
v to the spatial velocity ``V_WBp_W = [w_WB_W; v_WBp_W] = J v``; the bias
``AsBias_WBp_W = J̇ v`` is the spatial acceleration of Bp (measured and expressed in W,
classical translational acceleration) when ``vd = 0``, so that
``A_WBp_W = J vd + J̇ v``. Gravity plays no role.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.kinematics import (
    node_motion, pose_pass_base_to_tip, pose_pass_to_nodes,
)
from merganser.multibody.kernels.layout import (
    FP_P0B, FP_R0, IP_COMPOSITE, IP_NV, IP_PARENT, IP_VS, WS_A, WS_PW, WS_RW, WS_S, WS_V,
    bad_q, bad_v, bad_vec3,
)
from merganser.multibody.kernels.spatial import load6, rotate6

__all__ = ["point_in_world", "point_jacobian_columns", "calc_jacobian_spatial",
           "calc_bias_spatial_acceleration"]


@kernel
def point_in_world(ws, k, p_BoBp_B):
    """Return ``p_WBp_W`` (3-tuple) of a point fixed on node k (world pose in ws[k])."""
    x = (ws[k, WS_RW] * p_BoBp_B[0] + ws[k, WS_RW + 1] * p_BoBp_B[1]
         + ws[k, WS_RW + 2] * p_BoBp_B[2] + ws[k, WS_PW])
    y = (ws[k, WS_RW + 3] * p_BoBp_B[0] + ws[k, WS_RW + 4] * p_BoBp_B[1]
         + ws[k, WS_RW + 5] * p_BoBp_B[2] + ws[k, WS_PW + 1])
    z = (ws[k, WS_RW + 6] * p_BoBp_B[0] + ws[k, WS_RW + 7] * p_BoBp_B[1]
         + ws[k, WS_RW + 8] * p_BoBp_B[2] + ws[k, WS_PW + 2])
    return x, y, z


@kernel
def calc_jacobian_spatial(ip, fp, ws, q, node, p_BoBp_B, J):
    """Spatial Jacobian of point Bp fixed on `node`'s body, w.r.t. v.

    Parameters
    ----------
    ip, fp, ws, q : ndarray
        The packed model, its workspace (nb, NWS) (`multibody.kernels.layout`) and the
        generalized positions (nq,).
    node : int
        Node of the body B.
    p_BoBp_B : ndarray, shape (3,)
        Position of Bp from Bo, expressed in B.
    J : ndarray, shape (6, nv)
        Output; column i is the spatial velocity of Bp in W (expressed in W) per unit v_i.

    Returns
    -------
    int
        0, or 1 if an input has the wrong size or `node` is out of range.
    """
    if bad_q(ip, q) or bad_vec3(p_BoBp_B) or node < 0 or node >= ip.shape[0]:
        return 1
    for i in range(6):
        for j in range(J.shape[1]):
            J[i, j] = 0.0
    # A merged welded body's point is a point of its composite body C:
    # p_CoBp_C = R_CB p_BoBp_B + p_CoBo_C (the fixed pose R0, P0B of the welded node).
    c = ip[node, IP_COMPOSITE]
    if c == node:
        rx, ry, rz = p_BoBp_B[0], p_BoBp_B[1], p_BoBp_B[2]
    else:
        x, y, z = p_BoBp_B[0], p_BoBp_B[1], p_BoBp_B[2]
        rx = fp[node, FP_R0] * x + fp[node, FP_R0 + 1] * y + fp[node, FP_R0 + 2] * z \
            + fp[node, FP_P0B]
        ry = fp[node, FP_R0 + 3] * x + fp[node, FP_R0 + 4] * y + fp[node, FP_R0 + 5] * z \
            + fp[node, FP_P0B + 1]
        rz = fp[node, FP_R0 + 6] * x + fp[node, FP_R0 + 7] * y + fp[node, FP_R0 + 8] * z \
            + fp[node, FP_P0B + 2]
    pose_pass_to_nodes(ip, fp, q, ws, c, c, c)
    px, py, pz = point_in_world(ws, c, (rx, ry, rz))
    point_jacobian_columns(ip, ws, c, px, py, pz, J, False)
    return 0


@kernel
def point_jacobian_columns(ip, ws, node, px, py, pz, J, subtract):
    """Write (or, with `subtract`, subtract from J) the columns of the spatial Jacobian
    of the point at ``p_WP = (px, py, pz)`` moving with `node`'s body, in W.

    Requires the world poses and motion subspaces of `node` and its ancestors in `ws`;
    columns of the other joints are not touched.
    """
    a = node
    while a > 0:
        dx = px - ws[a, WS_PW]
        dy = py - ws[a, WS_PW + 1]
        dz = pz - ws[a, WS_PW + 2]
        vs = ip[a, IP_VS]
        for j in range(ip[a, IP_NV]):
            s = rotate6(ws, a, WS_RW, load6(ws, a, WS_S + 6 * j))
            c = vs + j
            if subtract:
                J[0, c] -= s[0]
                J[1, c] -= s[1]
                J[2, c] -= s[2]
                J[3, c] -= s[3] + s[1] * dz - s[2] * dy
                J[4, c] -= s[4] + s[2] * dx - s[0] * dz
                J[5, c] -= s[5] + s[0] * dy - s[1] * dx
            else:
                J[0, c] = s[0]
                J[1, c] = s[1]
                J[2, c] = s[2]
                J[3, c] = s[3] + s[1] * dz - s[2] * dy
                J[4, c] = s[4] + s[2] * dx - s[0] * dz
                J[5, c] = s[5] + s[0] * dy - s[1] * dx
        a = ip[a, IP_PARENT]


@kernel
def calc_bias_spatial_acceleration(ip, fp, ws, q, v, zeros_nv, node, p_BoBp_B, out):
    """Bias spatial acceleration ``J̇ v`` of point Bp fixed on `node`'s body, in W.

    ``zeros_nv`` is a zero vector of size nv (the generalized acceleration used).
    Writes ``out = [alpha_WB_W; a_WBp_W]`` at vd = 0, shape (6,). Returns 0, or 1 if an
    input has the wrong size or `node` is out of range.
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_vec3(p_BoBp_B) or node < 0
            or node >= ip.shape[0]):
        return 1
    pose_pass_base_to_tip(ip, fp, q, ws, node)
    for i in range(6):
        ws[0, WS_A + i] = 0.0
    for k in range(1, node + 1):
        node_motion(ip, fp, q, v, zeros_nv, ws, k, True)
    w = load6(ws, node, WS_V)
    A = load6(ws, node, WS_A)
    rx, ry, rz = p_BoBp_B[0], p_BoBp_B[1], p_BoBp_B[2]
    # velocity of Bp: v + w x r; classical acceleration: a + alpha x r + w x v_Bp
    ux = w[3] + w[1] * rz - w[2] * ry
    uy = w[4] + w[2] * rx - w[0] * rz
    uz = w[5] + w[0] * ry - w[1] * rx
    acc = (A[0], A[1], A[2],
           A[3] + A[1] * rz - A[2] * ry + w[1] * uz - w[2] * uy,
           A[4] + A[2] * rx - A[0] * rz + w[2] * ux - w[0] * uz,
           A[5] + A[0] * ry - A[1] * rx + w[0] * uy - w[1] * ux)
    r = rotate6(ws, node, WS_RW, acc)
    out[0], out[1], out[2], out[3], out[4], out[5] = r
    return 0
