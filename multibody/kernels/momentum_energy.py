"""Spatial momentum about a point, kinetic energy and gravitational potential energy.

- ``L_WSP_W = sum_k [R_WB H_Bo + (p_WoBo_W - p_WoP_W) x R_WB l; R_WB l]`` with
  ``[H_Bo; l] = M_BBo_B V_B`` each body's spatial momentum about Bo in B;
- ``KE = ½ sum_k V_B . (M_BBo_B V_B)``;
- ``PE = -g . sum_k (m_k p_WoBo_W + R_WB h_k)`` (zero at the world origin).

An optional added-mass spatial inertia per node (``M_added`` (nb, 6, 6), see
`multibody.kernels.added_mass`) adds to ``M_BBo_B`` in the momentum and the kinetic
energy; it has no weight, so the potential energy does not see it.
"""

from __future__ import annotations

from merganser.multibody.kernels.center_of_mass import subtree_mass_moments
from merganser.multibody.kernels.joints import calc_joint_pose
from merganser.multibody.kernels.kinematics import (
    motion_pass_base_to_tip, node_motion, pose_pass_base_to_tip, set_world_pose,
)
import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.added_mass import bad_added_mass, added_mass_times_motion
from merganser.multibody.kernels.layout import WS_PW, WS_RW, WS_V, bad_inertia, bad_q, bad_v, bad_vec3
from merganser.multibody.kernels.spatial import add6, dot6, inertia_times_motion, load6, rotate6

__all__ = ["calc_spatial_momentum", "calc_spatial_momentum_with_added_mass", "calc_kinetic_energy",
           "calc_kinetic_energy_with_added_mass", "calc_potential_energy"]


@kernel
def calc_spatial_momentum(ip, fp, ws, q, v, I10, p_WoP_W, L_WSP_W):
    """Write the spatial momentum of the whole tree about point P, in W, shape (6,).

    Returns 0, or 1 if an input has the wrong size.
    """
    return calc_spatial_momentum_with_added_mass(ip, fp, ws, q, v, I10, p_WoP_W, L_WSP_W, None)


@kernel
def calc_spatial_momentum_with_added_mass(ip, fp, ws, q, v, I10, p_WoP_W, L_WSP_W, M_added):
    """`calc_spatial_momentum` with an added-mass spatial inertia `M_added` (nb, 6, 6) or None:
    each body's momentum about Bo is (I + M_added) V_B."""
    if bad_q(ip, q) or bad_v(ip, v) or bad_inertia(ip, I10) or bad_vec3(p_WoP_W):
        return 1
    if M_added is not None:
        if bad_added_mass(ip, M_added):
            return 1
    nb = ip.shape[0]
    pose_pass_base_to_tip(ip, fp, q, ws, nb - 1)
    motion_pass_base_to_tip(ip, fp, q, v, v, ws, nb - 1, False)
    z = 0.0 * ws[0, WS_V]
    hx, hy, hz, lx, ly, lz = z, z, z, z, z, z
    for k in range(1, nb):
        V = load6(ws, k, WS_V)
        if M_added is None:
            h = rotate6(ws, k, WS_RW, inertia_times_motion(I10, k, 0, V))
        else:
            h = rotate6(ws, k, WS_RW, add6(inertia_times_motion(I10, k, 0, V),
                                           added_mass_times_motion(M_added, k, V)))
        dx = ws[k, WS_PW] - p_WoP_W[0]
        dy = ws[k, WS_PW + 1] - p_WoP_W[1]
        dz = ws[k, WS_PW + 2] - p_WoP_W[2]
        hx += h[0] + dy * h[5] - dz * h[4]
        hy += h[1] + dz * h[3] - dx * h[5]
        hz += h[2] + dx * h[4] - dy * h[3]
        lx += h[3]
        ly += h[4]
        lz += h[5]
    L_WSP_W[0], L_WSP_W[1], L_WSP_W[2] = hx, hy, hz
    L_WSP_W[3], L_WSP_W[4], L_WSP_W[5] = lx, ly, lz
    return 0


@kernel
def calc_kinetic_energy(ip, fp, ws, q, v, I10):
    """Return the kinetic energy of the tree (NaN if an input has the wrong size)."""
    if bad_q(ip, q) or bad_v(ip, v) or bad_inertia(ip, I10):
        return np.nan
    return _kinetic_energy(ip, fp, ws, q, v, I10, None)


@kernel
def calc_kinetic_energy_with_added_mass(ip, fp, ws, q, v, I10, M_added):
    """`calc_kinetic_energy` with an added-mass spatial inertia `M_added` (nb, 6, 6) or None:
    each body contributes ½ V_B · (I + M_added) V_B."""
    if bad_q(ip, q) or bad_v(ip, v) or bad_inertia(ip, I10):
        return np.nan
    if M_added is not None:
        if bad_added_mass(ip, M_added):
            return np.nan
    return _kinetic_energy(ip, fp, ws, q, v, I10, M_added)


@kernel
def _kinetic_energy(ip, fp, ws, q, v, I10, M_added):
    """½ Σ V_B · (I + M_added) V_B (arguments checked by the callers)."""
    set_world_pose(ws)
    ke = 0.0 * ws[0, WS_V]
    for k in range(1, ip.shape[0]):
        calc_joint_pose(ip, fp, q, ws, k)
        node_motion(ip, fp, q, v, v, ws, k, False)
        V = load6(ws, k, WS_V)
        ke += 0.5 * dot6(V, inertia_times_motion(I10, k, 0, V))
        if M_added is not None:
            ke += 0.5 * dot6(V, added_mass_times_motion(M_added, k, V))
    return ke


@kernel
def calc_potential_energy(ip, fp, ws, q, I10, g):
    """Return the gravitational potential energy ``-g . (m_total p_WoScm_W)`` (NaN if an
    input has the wrong size)."""
    if bad_q(ip, q) or bad_inertia(ip, I10) or bad_vec3(g):
        return np.nan
    pose_pass_base_to_tip(ip, fp, q, ws, ip.shape[0] - 1)
    m, hx, hy, hz = subtree_mass_moments(ip, ws, I10, False)
    return -(g[0] * hx + g[1] * hy + g[2] * hz)
