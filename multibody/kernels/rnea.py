"""Recursive Newton-Euler inverse dynamics (RNEA), in body coordinates.

Computes ``tau = M(q) vd + C(q, v) v - tau_g(q) - sum_k J_k^T F_ext_k`` where the
external force F_ext_k acts on node k's body at its origin Bo and is expressed in W.
Gravity enters as the world's spatial acceleration ``a_0 = [0; -g]``. With an added mass
spatial inertia per node (``M_added``, see `multibody.kernels.added_mass`),
`calc_inverse_dynamics_with_added_mass` adds ``M_added (A - A_g) + V x* M_added V`` to each
body's net force between the two passes.

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, table 5.1.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.added_mass import add_added_mass_body_forces, bad_added_mass
from merganser.multibody.kernels.composite import add_welded_forces, begin_gravity_pass
from merganser.multibody.kernels.joints import calc_joint_pose, joint_force
from merganser.multibody.kernels.kinematics import node_motion, world_pose
from merganser.multibody.kernels.layout import (
    IP_MOBILE, IP_NMOBILE, IP_NV, IP_PARENT, IP_VS, WS_A, WS_F, WS_IC, WS_RW, WS_V, bad_forces,
    bad_inertia, bad_q, bad_v, bad_vec3,
)
from merganser.multibody.kernels.spatial import (
    add6, cross_force, force_to_parent, inertia_times_motion, load6, rotate6_transpose,
    store6, sub6,
)

__all__ = ["rnea_base_to_tip", "rnea_tip_to_base", "bias_forces_at_poses",
           "calc_inverse_dynamics", "calc_inverse_dynamics_with_added_mass"]


@kernel
def rnea_base_to_tip(ip, fp, ws, q, v, vd, I10, g, F_ext_W, use_fext, merged=True,
                     poses_ready=False):
    """Forward pass: poses, V_B, A_B and the net body forces f_B = I A + V x* I V - F_ext.

    The world row's acceleration is set to [0; -g]. With `merged` (the default) the pass
    visits the mobile nodes with their composite inertias (`multibody.kernels.composite`)
    and adds the external forces of the welded bodies to their composite nodes; without,
    every node with its own inertia ``I10[k]``. With `poses_ready` the joint poses of q
    are already in `ws` (a pass that ran `calc_joint_pose` on the nodes visited).
    """
    count = begin_gravity_pass(ip, fp, I10, g, ws, WS_IC, merged)
    for i in range(1, count):
        k = ip[i, IP_MOBILE] if merged else i
        if not poses_ready:
            calc_joint_pose(ip, fp, q, ws, k)
        node_motion(ip, fp, q, v, vd, ws, k, True)
        V = load6(ws, k, WS_V)
        if merged:
            f = add6(inertia_times_motion(ws, k, WS_IC, load6(ws, k, WS_A)),
                     cross_force(V, inertia_times_motion(ws, k, WS_IC, V)))
        else:
            f = add6(inertia_times_motion(I10, k, 0, load6(ws, k, WS_A)),
                     cross_force(V, inertia_times_motion(I10, k, 0, V)))
        if use_fext:
            world_pose(ws, k, ip[k, IP_PARENT])
            f = sub6(f, rotate6_transpose(ws, k, WS_RW, load6(F_ext_W, k, 0)))
        store6(ws, k, WS_F, f)
    if merged and use_fext:
        add_welded_forces(ip, fp, ws, F_ext_W, WS_F, -1.0)


@kernel
def rnea_tip_to_base(ip, ws, tau, merged=True):
    """Backward pass: ``tau_j = S^T f``, then the parent accumulates ``X^T f`` (over the
    mobile nodes with `merged`, the default, else over every node)."""
    count = ip[0, IP_NMOBILE] if merged else ip.shape[0]
    for i in range(count - 1, 0, -1):
        k = ip[i, IP_MOBILE] if merged else i
        f = load6(ws, k, WS_F)
        vs = ip[k, IP_VS]
        for j in range(ip[k, IP_NV]):
            tau[vs + j] = joint_force(ws, k, j, f)
        p = ip[k, IP_PARENT]
        if p > 0:
            store6(ws, p, WS_F, add6(load6(ws, p, WS_F), force_to_parent(ws, k, f)))


@kernel
def bias_forces_at_poses(ip, fp, ws, q, v, zeros_nv, I10, g, tau):
    """``tau = C(q, v) v - tau_g(q)``, RNEA at vd = 0 (`zeros_nv`, (nv,) zeros), with the
    joint poses of q already in `ws` (e.g. `multibody.contact.contact_kernels.pose_pass`);
    no size checks, no external forces."""
    rnea_base_to_tip(ip, fp, ws, q, v, zeros_nv, I10, g, ws, False, True, True)
    rnea_tip_to_base(ip, ws, tau)


@kernel
def calc_inverse_dynamics(ip, fp, ws, q, v, vd, I10, g, F_ext_W, use_fext, tau):
    """Inverse dynamics by RNEA.

    Parameters
    ----------
    ip, fp : ndarray
        Packed model.
    ws : ndarray, shape (nb, NWS)
        Workspace (float64, or complex128 for complex-step derivatives).
    q : ndarray, shape (nq,)
        Generalized positions.
    v, vd : ndarray, shape (nv,)
        Generalized velocities and accelerations.
    I10 : ndarray, shape (nb, 10)
        Inertial parameters of each node's body (about Bo, in B).
    g : ndarray, shape (3,)
        Gravity expressed in W.
    F_ext_W : ndarray, shape (nb, 6)
        Spatial force on each node's body at Bo, expressed in W (read when `use_fext`).
    use_fext : bool
        Whether to apply `F_ext_W`.
    tau : ndarray, shape (nv,)
        Output generalized forces ``M vd + C v - tau_g - sum J^T F_ext``.

    Returns
    -------
    int
        0, or 1 if an input has the wrong size (then nothing is computed).
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, vd) or bad_inertia(ip, I10) or bad_vec3(g)
            or (use_fext and bad_forces(ip, F_ext_W))):
        return 1
    rnea_base_to_tip(ip, fp, ws, q, v, vd, I10, g, F_ext_W, use_fext)
    rnea_tip_to_base(ip, ws, tau)
    return 0


@kernel
def calc_inverse_dynamics_with_added_mass(ip, fp, ws, q, v, vd, I10, g, F_ext_W, use_fext, tau,
                                     M_added):
    """`calc_inverse_dynamics` with an added-mass spatial inertia per node.

    `M_added` (nb, 6, 6) (about each Bo, in B; see `multibody.kernels.added_mass`) is
    included in M and C and has no weight; None gives `calc_inverse_dynamics` (a kernel of
    its own, without the added-mass argument, so that the rigid-body call is unchanged).
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, vd) or bad_inertia(ip, I10) or bad_vec3(g)
            or (use_fext and bad_forces(ip, F_ext_W))):
        return 1
    if M_added is None:
        return calc_inverse_dynamics(ip, fp, ws, q, v, vd, I10, g, F_ext_W, use_fext, tau)
    if bad_added_mass(ip, M_added):
        return 1
    # Every node: the added mass of a welded body acts at that body.
    rnea_base_to_tip(ip, fp, ws, q, v, vd, I10, g, F_ext_W, use_fext, False)
    add_added_mass_body_forces(ip, ws, M_added, g, WS_F, True)
    rnea_tip_to_base(ip, ws, tau, False)
    return 0
