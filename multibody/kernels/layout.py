"""Packed arrays read by the kernels: the model as two tables and the workspace columns.

The numba kernels take the model as two arrays, so that a call from Python passes a
handful of arguments (every array argument costs dispatch time):

- ``ip`` (nb, NIP) int64: per-node integers (parent, joint type, q/v offsets and counts,
  flags);
- ``fp`` (nb, NFP) float64: per-node fixed geometry (X_PF, X_MB, axis, pitch) plus
  constants derived from it once (the body-frame motion subspace of one-dof joints and
  the factors of ``R_PF R_FM(θ) = P0 + cos θ P1 + sin θ P2`` for revolute joints).

Welded bodies are merged (``pack_model(model, merge_welded=True)``, the default): the
packed tree is the model's tree with every welded node hung directly on its composite
node (`CompiledModel.composite_node`) by the fixed pose ``X_CB``, and every other node
on its nearest non-welded ancestor, its X_PF composed with the welds in between. The
packed tree has the same nodes, numbering and kinematics as the model (so a kernel that
visits every node gives the same results), and its numbering stays a depth-first
pre-order. The dynamics kernels visit only the *mobile* nodes (the world and the nodes
with a joint, listed in column ``IP_MOBILE``) with composite inertias (each mobile
body's own plus those of the welded bodies merged into it, `multibody.kernels.composite`);
the welded nodes (column ``IP_WELDED``) get poses where a kernel reports them.
``merge_welded=False`` packs the model's tree as it is, every node mobile.

Per-evaluation quantities live in a workspace ``ws`` (nb, NWS) (Pinocchio's ``Data``),
one row per node, with the column blocks named ``WS_*`` below. Rotation matrices are
stored row-major (9 entries), spatial vectors as [rotational; translational], 6x6
matrices row-major, the motion subspace column by column (column j of node k at
``ws[k, WS_S + 6 j : WS_S + 6 j + 6]``), expressed in the node's body frame B at Bo.
"""

from __future__ import annotations

import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.tree.compiled_model import CompiledModel, JointType

__all__ = ["pack_model", "make_workspace", "bad_q", "bad_v", "bad_inertia", "bad_forces",
           "bad_vec3"]

# Joint codes as plain ints (numba folds module-level ints into constants).
WELD = int(JointType.WELD)
REVOLUTE = int(JointType.REVOLUTE)
PRISMATIC = int(JointType.PRISMATIC)
BALL_RPY = int(JointType.BALL_RPY)
UNIVERSAL = int(JointType.UNIVERSAL)
PLANAR = int(JointType.PLANAR)
SCREW = int(JointType.SCREW)
QUATERNION_FLOATING = int(JointType.QUATERNION_FLOATING)
RPY_FLOATING = int(JointType.RPY_FLOATING)
BALL_QUATERNION = int(JointType.BALL_QUATERNION)

# ---- ip columns
IP_PARENT = 0
IP_JTYPE = 1
IP_QS = 2          # q_start
IP_NQ = 3          # nq_j
IP_VS = 4          # v_start
IP_NV = 5          # nv_j
IP_MB_IDENTITY = 6  # 1 when X_MB is the identity
IP_BODY = 7        # the body (index) of the node
IP_NQ_TOTAL = 8    # nq of the model (same in every row)
IP_NV_TOTAL = 9    # nv of the model (same in every row)
IP_MOBILE = 10     # row i < n_mobile: the i-th mobile node (row 0: the world), ascending
IP_NMOBILE = 11    # n_mobile (same in every row)
IP_WELDED = 12     # row i < n_welded: the i-th welded node merged into a moving node
IP_NWELDED = 13    # n_welded (same in every row)
IP_END = 14        # first node after the node's subtree in the packed tree
IP_COMPOSITE = 15  # composite node (the node itself unless it is a merged welded node)
NIP = 16

# ---- fp columns
FP_R_PF = 0        # R_PF (9)
FP_P_PF = 9        # p_PF (3)
FP_R_MB = 12       # R_MB (9)
FP_P_MB = 21       # p_MB (3)
FP_AXIS = 24       # axis a in F (3)
FP_PITCH = 27      # screw pitch / (2 pi): metres per radian
FP_S = 28          # motion subspace of one-dof joints in B (6)
FP_P0 = 34         # (R_PF a) a^T (9)
FP_P1 = 43         # R_PF - P0 (9)
FP_P2 = 52         # R_PF [a]x (9)
FP_RA = 61         # R_PF a (3)
FP_R0 = 64         # R_PF R_MB (9): constant R_PB of welds and prismatic joints
FP_P0B = 73        # p_PF + R_PF p_MB (3): p_PB of welds, prismatic at q = 0
NFP = 76

# ---- ws columns (per node)
WS_R = 0           # R_PB (9)
WS_P = 9           # p_PB, in P (3)
WS_RW = 12         # R_WB (9)
WS_PW = 21         # p_WB, in W (3)
WS_S = 24          # motion subspace S_B, 6 columns of 6
WS_CJ = 60         # joint velocity-product acceleration S°(q) v_j, in B (6)
WS_V = 66          # spatial velocity of B in B (6)
WS_A = 72          # spatial acceleration of B in B (6)
WS_F = 78          # spatial force (6)
WS_IA = 84         # articulated (or composite) inertia 6x6 (36)
WS_PA = 120        # articulated bias force (6)
WS_U = 126         # U = IA S, 6 columns of 6 (36)
WS_DINV = 162      # D^-1, row-major nv_j x nv_j in a 6x6 block (36)
WS_UU = 198        # u = tau - S^T pA (6)
WS_C = 204         # velocity-product acceleration of B (6)
WS_RFM = 210       # R_FM of multi-dof joints (9)
WS_TMP = 219       # scratch (12)
WS_IW = 232        # welded inertia memo (10): see multibody.kernels.composite
WS_IC = 242        # composite inertia of a mobile node, 10 parameters (10)
NWS = 252


@kernel
def bad_q(ip, q):
    """True if `q` does not have nq entries."""
    return q.shape[0] != ip[0, IP_NQ_TOTAL]


@kernel
def bad_v(ip, v):
    """True if `v` does not have nv entries."""
    return v.shape[0] != ip[0, IP_NV_TOTAL]


@kernel
def bad_inertia(ip, I10):
    """True if `I10` is not (nb, 10)."""
    return I10.shape[0] != ip.shape[0] or I10.shape[1] != 10


@kernel
def bad_forces(ip, F):
    """True if `F` is not (nb, 6)."""
    return F.shape[0] != ip.shape[0] or F.shape[1] != 6


@kernel
def bad_vec3(x):
    """True if `x` does not have 3 entries."""
    return x.shape[0] != 3


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _packed_tree(model: CompiledModel, merge_welded: bool):
    """Parent, X_PF and X_MB of the packed tree (see the module docstring)."""
    if not merge_welded:
        return model.parent, model.X_PF, model.X_MB
    composite, X_CB = model.composite_node, model.X_CB
    parent = model.parent.copy()
    X_PF, X_MB = model.X_PF.copy(), model.X_MB.copy()
    for k in range(1, model.nb):
        if model.jtype[k] == WELD:
            parent[k] = composite[k]
            X_PF[k], X_MB[k] = X_CB[k], np.eye(4)
        else:
            parent[k] = composite[model.parent[k]]
            X_PF[k] = X_CB[model.parent[k]] @ model.X_PF[k]
            X_PF[k, 3] = (0.0, 0.0, 0.0, 1.0)
    return parent, X_PF, X_MB


def pack_model(model: CompiledModel, merge_welded: bool = True):
    """Pack a `CompiledModel` into the kernels' integer and float tables.

    Parameters
    ----------
    model : CompiledModel
        A validated model.
    merge_welded : bool
        Merge the welded bodies into their composite nodes (the default; see the module
        docstring), or pack the model's tree as it is.

    Returns
    -------
    ip : ndarray of int64, shape (nb, NIP)
        Per-node integers, columns ``IP_*``.
    fp : ndarray of float64, shape (nb, NFP)
        Per-node geometry and derived constants, columns ``FP_*``.
    """
    nb = model.nb
    ip = np.zeros((nb, NIP), dtype=np.int64)
    fp = np.zeros((nb, NFP), dtype=np.float64)
    parent, X_PF, X_MB = _packed_tree(model, merge_welded)
    ip[:, IP_PARENT] = parent
    welded = np.arange(nb) > 0
    welded &= (model.jtype == WELD) if merge_welded else False
    mobile = np.flatnonzero(~welded)
    ip[:mobile.size, IP_MOBILE] = mobile
    ip[:, IP_NMOBILE] = mobile.size
    # Bodies welded to the world take no part in the dynamics: not listed.
    merged = np.flatnonzero(welded & (parent > 0))
    ip[:merged.size, IP_WELDED] = merged
    ip[:, IP_NWELDED] = merged.size
    end = np.arange(1, nb + 1)
    for k in range(nb - 1, 0, -1):
        end[parent[k]] = max(end[parent[k]], end[k])
    ip[:, IP_END] = end
    ip[:, IP_COMPOSITE] = np.where(welded, parent, np.arange(nb))
    ip[:, IP_BODY] = model.body_index
    ip[:, IP_JTYPE] = model.jtype
    ip[:, IP_QS] = model.q_start
    ip[:, IP_NQ] = model.nq_j
    ip[:, IP_VS] = model.v_start
    ip[:, IP_NV] = model.nv_j
    ip[:, IP_NQ_TOTAL] = model.nq
    ip[:, IP_NV_TOTAL] = model.nv
    for k in range(nb):
        R_PF, p_PF = X_PF[k, :3, :3], X_PF[k, :3, 3]
        R_MB, p_MB = X_MB[k, :3, :3], X_MB[k, :3, 3]
        a = model.axis[k]
        ip[k, IP_MB_IDENTITY] = int(np.array_equal(X_MB[k], np.eye(4)))
        fp[k, FP_R_PF:FP_R_PF + 9] = R_PF.ravel()
        fp[k, FP_P_PF:FP_P_PF + 3] = p_PF
        fp[k, FP_R_MB:FP_R_MB + 9] = R_MB.ravel()
        fp[k, FP_P_MB:FP_P_MB + 3] = p_MB
        fp[k, FP_AXIS:FP_AXIS + 3] = a
        fp[k, FP_PITCH] = model.screw_pitch[k] / (2.0 * np.pi)
        P0 = np.outer(R_PF @ a, a)
        fp[k, FP_P0:FP_P0 + 9] = P0.ravel()
        fp[k, FP_P1:FP_P1 + 9] = (R_PF - P0).ravel()
        fp[k, FP_P2:FP_P2 + 9] = (R_PF @ _skew(a)).ravel()
        fp[k, FP_RA:FP_RA + 3] = R_PF @ a
        fp[k, FP_R0:FP_R0 + 9] = (R_PF @ R_MB).ravel()
        fp[k, FP_P0B:FP_P0B + 3] = p_PF + R_PF @ p_MB
        # Motion subspace of one-dof joints in M at Mo, then moved to B at Bo:
        # S_B = [R_MB^T w; R_MB^T (v + w x p_MB)].
        jt = int(model.jtype[k])
        if jt in (REVOLUTE, PRISMATIC, SCREW):
            if jt == REVOLUTE:
                w, v = a, np.zeros(3)
            elif jt == PRISMATIC:
                w, v = np.zeros(3), a
            else:
                w, v = a, a * fp[k, FP_PITCH]
            fp[k, FP_S:FP_S + 3] = R_MB.T @ w
            fp[k, FP_S + 3:FP_S + 6] = R_MB.T @ (v + np.cross(w, p_MB))
    return ip, fp


def make_workspace(nb: int, dtype=np.float64) -> np.ndarray:
    """Return a zeroed workspace of shape (nb, NWS) for the kernels."""
    return np.zeros((nb, NWS), dtype=dtype)
