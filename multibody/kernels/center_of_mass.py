"""Center of mass of the whole tree and its Jacobian.

``p_WoScm_W = sum_k (m_k p_WoBo_W + R_WB h_k) / m_total`` with ``h_k = m_k p_BoBcm_B``.
The Jacobian ``J_com`` (3 x nv) maps v to ``v_WScm_W``; the column of velocity index i
(joint of node a) is ``(m_sub v_i + w_i x (h_sub - m_sub p_WoAo_W)) / m_total`` with
``[w_i; v_i]`` the motion-subspace column in W at Ao and ``m_sub``, ``h_sub`` the mass
and first moment about Wo of the subtree of a.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.kinematics import pose_pass_base_to_tip
from merganser.multibody.kernels.layout import (
    IP_NV, IP_PARENT, IP_VS, WS_PW, WS_RW, WS_S, WS_TMP, bad_inertia, bad_q,
)
from merganser.multibody.kernels.spatial import load6, rotate6

__all__ = ["subtree_mass_moments", "calc_center_of_mass", "calc_center_of_mass_jacobian"]


@kernel
def subtree_mass_moments(ip, ws, I10, subtree):
    """Write each node's ``[m, m p_WoBcm_W]`` into ``ws[k, WS_TMP:WS_TMP+4]``; with
    `subtree`, accumulate tip to base so that each row holds its subtree's sums.
    Requires world poses. Returns the total mass and first moment (4-tuple)."""
    nb = ip.shape[0]
    for i in range(4):
        ws[0, WS_TMP + i] = 0.0
    for k in range(1, nb):
        m = I10[k, 0]
        hx, hy, hz = I10[k, 1], I10[k, 2], I10[k, 3]
        ws[k, WS_TMP] = m
        for i in range(3):
            ws[k, WS_TMP + 1 + i] = (m * ws[k, WS_PW + i] + ws[k, WS_RW + 3 * i] * hx
                                     + ws[k, WS_RW + 3 * i + 1] * hy
                                     + ws[k, WS_RW + 3 * i + 2] * hz)
    if subtree:
        for k in range(nb - 1, 0, -1):
            p = ip[k, IP_PARENT]
            for i in range(4):
                ws[p, WS_TMP + i] += ws[k, WS_TMP + i]
        return ws[0, WS_TMP], ws[0, WS_TMP + 1], ws[0, WS_TMP + 2], ws[0, WS_TMP + 3]
    m = 0.0 * ws[0, WS_TMP]
    hx, hy, hz = m, m, m
    for k in range(1, nb):
        m += ws[k, WS_TMP]
        hx += ws[k, WS_TMP + 1]
        hy += ws[k, WS_TMP + 2]
        hz += ws[k, WS_TMP + 3]
    return m, hx, hy, hz


@kernel
def calc_center_of_mass(ip, fp, ws, q, I10, p_WoScm_W):
    """Write the center of mass ``p_WoScm_W`` (3,) and return the total mass.

    When the total mass is zero the output is left untouched (the caller raises); when
    an input has the wrong size nothing is computed and -1 is returned.
    """
    if bad_q(ip, q) or bad_inertia(ip, I10):
        return -1.0
    pose_pass_base_to_tip(ip, fp, q, ws, ip.shape[0] - 1)
    m, hx, hy, hz = subtree_mass_moments(ip, ws, I10, False)
    if m != 0.0:
        p_WoScm_W[0] = hx / m
        p_WoScm_W[1] = hy / m
        p_WoScm_W[2] = hz / m
    return m


@kernel
def calc_center_of_mass_jacobian(ip, fp, ws, q, I10, J):
    """Write the center-of-mass Jacobian J (3, nv) and return the total mass (-1 and
    nothing computed if an input has the wrong size)."""
    if bad_q(ip, q) or bad_inertia(ip, I10):
        return -1.0
    nb = ip.shape[0]
    pose_pass_base_to_tip(ip, fp, q, ws, nb - 1)
    mtot, _, _, _ = subtree_mass_moments(ip, ws, I10, True)
    if mtot == 0.0:
        return mtot
    for k in range(1, nb):
        ms = ws[k, WS_TMP]
        gx = ws[k, WS_TMP + 1] - ms * ws[k, WS_PW]
        gy = ws[k, WS_TMP + 2] - ms * ws[k, WS_PW + 1]
        gz = ws[k, WS_TMP + 3] - ms * ws[k, WS_PW + 2]
        vs = ip[k, IP_VS]
        for j in range(ip[k, IP_NV]):
            s = rotate6(ws, k, WS_RW, load6(ws, k, WS_S + 6 * j))
            J[0, vs + j] = (ms * s[3] + s[1] * gz - s[2] * gy) / mtot
            J[1, vs + j] = (ms * s[4] + s[2] * gx - s[0] * gz) / mtot
            J[2, vs + j] = (ms * s[5] + s[0] * gy - s[1] * gx) / mtot
    return mtot
