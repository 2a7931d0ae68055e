"""Articulated body algorithm (ABA): forward dynamics in O(n), in body coordinates.

Solves ``M(q) vd + C(q, v) v = tau + tau_g(q) + sum_k J_k^T F_ext_k`` for vd, with
gravity entering as the world's acceleration ``a_0 = [0; -g]``. Every quantity of node k
is expressed in its body frame B at Bo (so precision does not depend on the distance
from the world origin), and articulated inertias move to the parent by the congruence
``X^T Ia X``:

1. base to tip: ``V = X V_p + vJ`` (``vJ = S v_j``); ``c = c_J + V x vJ``; ``IA = I``;
   ``pA = V x* I V - F_ext``;
2. tip to base: ``U = IA S``, ``D = S^T U``, ``u = tau_j - S^T pA``;
   ``Ia = IA - U D^-1 U^T``, ``pa = pA + Ia c + U D^-1 u``; the parent receives
   ``X^T Ia X`` and ``X^T pa``;
3. base to tip: ``a = X a_p + c``; ``vd_j = D^-1 (u - U^T a)``; ``a += S vd_j``.

With an armature (a diagonal (nv,) added to M, ``(M + diag(a)) vd = ...``), pass 2 adds
``a_j`` to D's diagonal (Featherstone's treatment of rotor inertia, section 9.6); the
discrete SAP step uses it with ``a = h D_joint`` for Drake's implicit joint damping
(`calc_forward_dynamics_armature`).

With an added-mass spatial inertia per node (``M_added``, see
`multibody.kernels.added_mass`), `calc_forward_dynamics_with_added_mass` adds ``M_added``
to ``IA`` and ``V x* M_added V - M_added A_g`` to ``pA`` after pass 1; passes 2 and 3
are unchanged.

A joint whose D = Sᵀ IA S has a pivot that is not finite or not above `PIVOT_TOLERANCE`
times D's largest diagonal entry (a massless body on a free or unconstrained joint) stops
the kernels with the status `SINGULAR`; `TreeDynamics.forward_dynamics` turns it into
`SingularDynamicsError` (`multibody.kernels.singular_dynamics`).

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, table 7.1.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.added_mass import (
    add_added_mass_body_forces, add_added_mass_to_matrix, bad_added_mass,
)
from merganser.multibody.kernels.composite import add_welded_forces, begin_gravity_pass
from merganser.multibody.kernels.inertia import (
    articulated_from_rigid, articulated_to_parent_add, mat6_times, subtract_symmetric_outer,
)
from merganser.multibody.kernels.joints import calc_joint_bias, calc_joint_pose, joint_velocity
from merganser.multibody.kernels.kinematics import world_pose
from merganser.multibody.kernels.layout import (
    IP_MOBILE, IP_NMOBILE, IP_NV, IP_PARENT, IP_VS, WS_A, WS_C, WS_CJ, WS_DINV, WS_IA, WS_IC,
    WS_PA, WS_RW, WS_S, WS_U, WS_UU, WS_V, bad_forces, bad_inertia, bad_q, bad_v, bad_vec3,
)
from merganser.multibody.kernels.spatial import (
    add6, cross_force, cross_motion, dot6, force_to_parent, inertia_times_motion, load6,
    motion_to_child, rotate6_transpose, scale6, store6, sub6,
)

#: Return code of the forward-dynamics kernels for a singular articulated inertia.
SINGULAR = 2
#: A pivot of D = Sᵀ IA S at most this fraction of D's largest diagonal entry is singular.
PIVOT_TOLERANCE = 1e-13
INFINITY = float("inf")

__all__ = ["SINGULAR", "PIVOT_TOLERANCE", "aba_base_to_tip_velocities", "aba_tip_to_base",
           "aba_base_to_tip_accelerations", "calc_forward_dynamics", "calc_forward_dynamics_armature",
           "calc_forward_dynamics_damped",
           "calc_forward_dynamics_with_added_mass"]


@kernel
def aba_base_to_tip_velocities(ip, fp, ws, q, v, I10, g, F_ext_W, use_fext, merged=True):
    """Pass 1: poses, V_B, c = c_J + V x vJ, IA = I, pA = V x* I V - F_ext (all in B).

    With `merged` (the default) over the mobile nodes with their composite inertias
    (`multibody.kernels.composite`), the welded bodies' external forces added to their
    composite nodes; without, over every node with its own inertia.
    """
    count = begin_gravity_pass(ip, fp, I10, g, ws, WS_IC, merged)
    for i in range(1, count):
        k = ip[i, IP_MOBILE] if merged else i
        calc_joint_pose(ip, fp, q, ws, k)
        p = ip[k, IP_PARENT]
        vJ = joint_velocity(ip, ws, k, v)
        V = add6(motion_to_child(ws, k, load6(ws, p, WS_V)), vJ)
        store6(ws, k, WS_V, V)
        calc_joint_bias(ip, fp, q, v, ws, k)
        store6(ws, k, WS_C, add6(load6(ws, k, WS_CJ), cross_motion(V, vJ)))
        if merged:
            articulated_from_rigid(ws, k, WS_IC, ws, k, WS_IA)
            pA = cross_force(V, inertia_times_motion(ws, k, WS_IC, V))
        else:
            articulated_from_rigid(I10, k, 0, ws, k, WS_IA)
            pA = cross_force(V, inertia_times_motion(I10, k, 0, V))
        if use_fext:
            world_pose(ws, k, p)
            pA = sub6(pA, rotate6_transpose(ws, k, WS_RW, load6(F_ext_W, k, 0)))
        store6(ws, k, WS_PA, pA)
    if merged and use_fext:
        add_welded_forces(ip, fp, ws, F_ext_W, WS_PA, -1.0)


@kernel
def _invert_in_place(ws, k, off, n):
    """Invert the SPD n x n matrix stored with row stride 6 at ``ws[k, off:]``
    (Gauss-Jordan without pivoting).

    Returns False, leaving the block partly inverted, when a pivot is not finite or not
    greater than `PIVOT_TOLERANCE` times the largest diagonal entry (a singular or
    indefinite articulated inertia); True otherwise."""
    scale = 0.0
    for c in range(n):
        scale = max(scale, ws[k, off + 7 * c])
    tol = PIVOT_TOLERANCE * scale
    for c in range(n):
        d = ws[k, off + 7 * c]
        if not (tol < d < INFINITY):
            return False
        piv = 1.0 / d
        ws[k, off + 7 * c] = 1.0
        for j in range(n):
            ws[k, off + 6 * c + j] *= piv
        for i in range(n):
            if i != c:
                f = ws[k, off + 6 * i + c]
                ws[k, off + 6 * i + c] = 0.0
                for j in range(n):
                    ws[k, off + 6 * i + j] -= f * ws[k, off + 6 * c + j]
    return True


@kernel
def aba_tip_to_base(ip, ws, tau, armature, merged=True):
    """Pass 2: ``U = IA S``, ``D = S^T U (+ diag(armature_j))``, ``u = tau - S^T pA``;
    the parent receives ``X^T (IA - U D^-1 U^T) X`` and ``X^T (pA + Ia c + U D^-1 u)``
    (over the mobile nodes with `merged`, the default, else over every node). armature
    is (nv,), or (0,) for none.

    Returns 0, or the first node k (tip to base) whose D is singular (see
    `_invert_in_place`); then the pass stops there."""
    count = ip[0, IP_NMOBILE] if merged else ip.shape[0]
    for i in range(count - 1, 0, -1):
        k = ip[i, IP_MOBILE] if merged else i
        n = ip[k, IP_NV]
        vs = ip[k, IP_VS]
        pA = load6(ws, k, WS_PA)
        for j in range(n):
            U = mat6_times(ws, k, WS_IA, load6(ws, k, WS_S + 6 * j))
            store6(ws, k, WS_U + 6 * j, U)
            ws[k, WS_UU + j] = tau[vs + j] - dot6(load6(ws, k, WS_S + 6 * j), pA)
            for i in range(n):
                ws[k, WS_DINV + 6 * i + j] = dot6(load6(ws, k, WS_S + 6 * i), U)
            if armature.shape[0] > 0:
                ws[k, WS_DINV + 7 * j] += armature[vs + j]
        if not _invert_in_place(ws, k, WS_DINV, n):
            return k
        p = ip[k, IP_PARENT]
        if p == 0:
            continue
        # Ia = IA - W U^T with W = U D^-1 (a symmetric update); pa = pA + Ia c + W u.
        for j in range(n):
            z = 0.0 * pA[0]
            W = (z, z, z, z, z, z)
            for i in range(n):
                W = add6(W, scale6(ws[k, WS_DINV + 6 * i + j], load6(ws, k, WS_U + 6 * i)))
            subtract_symmetric_outer(ws, k, WS_IA, W, load6(ws, k, WS_U + 6 * j))
            pA = add6(pA, scale6(ws[k, WS_UU + j], W))
        pa = add6(pA, mat6_times(ws, k, WS_IA, load6(ws, k, WS_C)))
        articulated_to_parent_add(ws, k, p, WS_IA)
        store6(ws, p, WS_PA, add6(load6(ws, p, WS_PA), force_to_parent(ws, k, pa)))
    return 0


@kernel
def aba_base_to_tip_accelerations(ip, ws, vd, merged=True):
    """Pass 3: ``a = X a_p + c``; ``vd_j = D^-1 (u - U^T a)``; ``a += S vd_j`` (over
    the mobile nodes with `merged`, the default, else over every node)."""
    count = ip[0, IP_NMOBILE] if merged else ip.shape[0]
    for i in range(1, count):
        k = ip[i, IP_MOBILE] if merged else i
        p = ip[k, IP_PARENT]
        a = add6(motion_to_child(ws, k, load6(ws, p, WS_A)), load6(ws, k, WS_C))
        n = ip[k, IP_NV]
        vs = ip[k, IP_VS]
        for i in range(n):
            ws[k, WS_PA + i] = ws[k, WS_UU + i] - dot6(load6(ws, k, WS_U + 6 * i), a)
        for i in range(n):
            x = 0.0 * a[0]
            for j in range(n):
                x += ws[k, WS_DINV + 6 * i + j] * ws[k, WS_PA + j]
            vd[vs + i] = x
        a = add6(a, joint_velocity(ip, ws, k, vd))
        store6(ws, k, WS_A, a)


@kernel
def _finish(ip, ws, tau, armature, vd, merged=True):
    """Passes 2 and 3; returns 0, or SINGULAR with the singular node in ``ws[0, WS_DINV]``
    (the world row, which has no joint) and `vd` untouched."""
    k = aba_tip_to_base(ip, ws, tau, armature, merged)
    if k != 0:
        ws[0, WS_DINV] = k
        return SINGULAR
    aba_base_to_tip_accelerations(ip, ws, vd, merged)
    return 0


@kernel
def calc_forward_dynamics(ip, fp, ws, q, v, tau, I10, g, F_ext_W, use_fext, vd):
    """Forward dynamics by ABA.

    Parameters
    ----------
    ip, fp, ws, q : ndarray
        The packed model, its workspace (nb, NWS) (`multibody.kernels.layout`) and the
        generalized positions (nq,).
    v, tau : ndarray, shape (nv,)
        Generalized velocities and applied generalized forces.
    I10 : ndarray, shape (nb, 10)
        Inertial parameters of each node's body (about Bo, in B).
    g : ndarray, shape (3,)
        Gravity expressed in W.
    F_ext_W : ndarray, shape (nb, 6)
        Spatial force on each node's body at Bo, expressed in W (read when `use_fext`).
    use_fext : bool
        Whether to apply `F_ext_W`.
    vd : ndarray, shape (nv,)
        Output generalized accelerations.

    Returns
    -------
    int
        0; 1 if an input has the wrong size (then nothing is computed); `SINGULAR` (2)
        if a joint's articulated inertia D = Sᵀ IA S is singular (a massless body on a
        free or unconstrained joint), with the node in ``ws[0, WS_DINV]`` and `vd`
        untouched.
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, tau) or bad_inertia(ip, I10) or bad_vec3(g)
            or (use_fext and bad_forces(ip, F_ext_W))):
        return 1
    aba_base_to_tip_velocities(ip, fp, ws, q, v, I10, g, F_ext_W, use_fext)
    return _finish(ip, ws, tau, tau[:0], vd)


@kernel
def calc_forward_dynamics_armature(ip, fp, ws, q, v, tau, armature, I10, g, F_ext_W,
                                   use_fext, vd):
    """`calc_forward_dynamics` with a diagonal added to the mass matrix:
    ``(M(q) + diag(armature)) vd + C(q, v) v = tau + tau_g(q) + sum_k J_k^T F_ext_k``.

    Parameters
    ----------
    armature : ndarray, shape (nv,)
        Added to M's diagonal (rotor inertia; ``h D`` for the discrete step's implicit
        joint damping, `multibody.contact.discrete_stepper`).
    (the other parameters and the return value as `calc_forward_dynamics`)
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, tau) or bad_v(ip, armature)
            or bad_inertia(ip, I10) or bad_vec3(g) or (use_fext and bad_forces(ip, F_ext_W))):
        return 1
    aba_base_to_tip_velocities(ip, fp, ws, q, v, I10, g, F_ext_W, use_fext)
    return _finish(ip, ws, tau, armature, vd)


@kernel
def calc_forward_dynamics_damped(ip, fp, ws, q, v, u, damping, I10, g, F_ext_W, use_fext,
                                 tau, vd):
    """`calc_forward_dynamics` with the applied forces tau = u − D v formed in the call.

    Parameters
    ----------
    u : ndarray, shape (nv,)
        Generalized forces other than joint damping (e.g. the actuation).
    damping : ndarray, shape (nv,)
        Joint damping coefficients D (diagonal).
    tau : ndarray, shape (nv,)
        Output: u − D v, the applied generalized forces used.
    (the other parameters and the return value as `calc_forward_dynamics`)
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, u) or bad_v(ip, damping) or bad_v(ip, tau)
            or bad_inertia(ip, I10) or bad_vec3(g) or (use_fext and bad_forces(ip, F_ext_W))):
        return 1
    for i in range(tau.shape[0]):
        tau[i] = u[i] - damping[i] * v[i]
    aba_base_to_tip_velocities(ip, fp, ws, q, v, I10, g, F_ext_W, use_fext)
    return _finish(ip, ws, tau, tau[:0], vd)


@kernel
def calc_forward_dynamics_with_added_mass(ip, fp, ws, q, v, tau, I10, g, F_ext_W, use_fext, vd,
                                     M_added):
    """`calc_forward_dynamics` with an added-mass spatial inertia per node.

    `M_added` (nb, 6, 6) (about each Bo, in B, symmetric; see
    `multibody.kernels.added_mass`) is included in M and C and has no weight; None
    gives `calc_forward_dynamics` (a kernel of its own, without the added-mass argument, so
    that the rigid-body call is unchanged).
    """
    if (bad_q(ip, q) or bad_v(ip, v) or bad_v(ip, tau) or bad_inertia(ip, I10) or bad_vec3(g)
            or (use_fext and bad_forces(ip, F_ext_W))):
        return 1
    if M_added is None:
        return calc_forward_dynamics(ip, fp, ws, q, v, tau, I10, g, F_ext_W, use_fext, vd)
    if bad_added_mass(ip, M_added):
        return 1
    # Every node: the added mass of a welded body acts at that body.
    aba_base_to_tip_velocities(ip, fp, ws, q, v, I10, g, F_ext_W, use_fext, False)
    for k in range(1, ip.shape[0]):
        add_added_mass_to_matrix(M_added, k, ws, WS_IA)
    add_added_mass_body_forces(ip, ws, M_added, g, WS_PA, False)
    return _finish(ip, ws, tau, tau[:0], vd, False)
