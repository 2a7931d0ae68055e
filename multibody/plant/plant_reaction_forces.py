"""Joint reaction forces of MultibodyPlant (the ``reaction_forces`` output port).

For each joint J with child body C and child frame Jc (the joint's ``frame_on_child``),
the output is F_CJc_Jc: the total spatial force that the joint applies on C, at the
origin of Jc, expressed in Jc (Drake's convention). It includes the constraint force
and the component along the joint's motion (actuation, damping, springs acting through
the joint).

It is computed by the tip-to-base pass of Newton-Euler inverse dynamics at the
accelerations of the forward dynamics: for each body B, with the body's spatial
acceleration A_WB = [α; a_Bo] (classical acceleration of Bo) and velocity V_WB = [ω; v],
the net spatial force at Bo expressed in W is

    f_B = m a_Bo + α × m c + ω × (ω × m c),
    τ_B = I_Bo α + ω × (I_Bo ω) + m c × a_Bo,

with c = p_BoBcm_W and I_Bo the rotational inertia about Bo in W (plus, for a body with
an added-mass spatial inertia such as added mass, that inertia's force, see
`multibody.plant.plant_added_mass`). The joint force on B
is the net force minus the external forces on B (gravity m g at Bcm, force elements,
applied spatial forces) plus the forces B's children's joints transmit to them (shifted
to Bo).
"""

import numpy as np

from merganser.multibody.math import SpatialForce
from merganser.multibody.plant.plant_added_mass import calc_added_mass_body_forces

__all__ = ["calc_reaction_forces"]


def _symmetric(I6):
    """(n, 6) [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] -> (n, 3, 3)."""
    Ixx, Iyy, Izz, Ixy, Ixz, Iyz = I6.T
    return np.stack([np.stack([Ixx, Ixy, Ixz], -1), np.stack([Ixy, Iyy, Iyz], -1),
                     np.stack([Ixz, Iyz, Izz], -1)], -2)


def calc_reaction_forces(plant, context):
    """F_CJc_Jc of every joint, by joint index (list of SpatialForce).

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant.
    context : Context
        The plant's own context.

    Returns
    -------
    list of SpatialForce
        One per joint (``plant.num_joints()``), in joint-index order.
    """
    t = plant._tables
    model = plant._model
    X = plant._eval_X_WB(context)
    V = plant._eval_V_WB(context)
    A = plant._cache.acceleration.eval(context).A_WB
    I10 = plant._eval_I10(context)
    fd = plant._cache.forward_dynamics.eval(context)
    R = X[:, :3, :3]
    m = I10[:, 0]
    mc = np.einsum("nij,nj->ni", R, I10[:, 1:4])
    I_W = R @ _symmetric(I10[:, 4:]) @ R.transpose(0, 2, 1)
    w, alpha, a_o = V[:, :3], A[:, :3], A[:, 3:]
    f = m[:, None] * a_o + np.cross(alpha, mc) + np.cross(w, np.cross(w, mc))
    tau = (np.einsum("nij,nj->ni", I_W, alpha)
           + np.cross(w, np.einsum("nij,nj->ni", I_W, w)) + np.cross(mc, a_o))
    F = np.concatenate([tau, f], axis=1)
    if plant._dyn.M_added is not None:
        F += calc_added_mass_body_forces(plant._dyn.M_added, X, V, A)
    g = plant._kernel_gravity()
    F[:, :3] -= np.cross(mc, g)
    F[:, 3:] -= m[:, None] * g
    if fd.has_F:
        F -= fd.F_Bo_W
    p = X[:, :3, 3]
    for k in range(t.nb - 1, 0, -1):
        parent = model.parent[k]
        if parent > 0:
            F[parent, :3] += F[k, :3] + np.cross(p[k] - p[parent], F[k, 3:])
            F[parent, 3:] += F[k, 3:]
    out = []
    for j in range(len(t.joint_node)):
        k = t.joint_node[j]
        X_BM = t.joint_X_BM[j]
        R_WM = R[k] @ X_BM[:3, :3]
        p_BoMo_W = R[k] @ X_BM[:3, 3]
        tau_Mo = F[k, :3] - np.cross(p_BoMo_W, F[k, 3:])
        out.append(SpatialForce(R_WM.T @ tau_Mo, R_WM.T @ F[k, 3:]))
    return out
