"""Composite inertias of the mobile nodes: each body's own plus its merged welded bodies'.

With the welded bodies merged (`multibody.kernels.layout.pack_model`), the dynamics
kernels see one rigid body per mobile node: the node's body and every welded body whose
composite node it is. Its 10 inertial parameters (about the mobile body's origin, in its
frame) are ``I10[k] + Σ_w X_CB[w] · I10[w]`` (each welded body's inertia shifted by its
fixed pose in the composite body, `multibody.kernels.inertia.rigid_inertia_shifted`).

The kernels take the per-body ``I10`` (nb, 10) as always; the welded part of the sum is
recomputed only when the welded bodies' parameters change (a mass parameter set in a
Context, a different parameter set): the workspace keeps a memo, in the block
``WS_IW`` of each row, of the welded body's parameters last merged (welded rows) and of
the sum of its welded bodies' shifted inertias (mobile rows), and a call compares the
welded rows of ``I10`` with the memo (10 comparisons per welded body) before it uses
it. A zeroed workspace is a valid memo (all parameters zero), and the comparison of a
non-finite parameter always fails, so the sum is then recomputed.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.inertia import rigid_inertia_shifted
from merganser.multibody.kernels.kinematics import set_world_pose
from merganser.multibody.kernels.layout import (
    FP_P0B, FP_R0, IP_MOBILE, IP_NMOBILE, IP_NWELDED, IP_PARENT, IP_WELDED, WS_A, WS_IW, WS_RW,
)
from merganser.multibody.kernels.spatial import load6, rotate6_transpose

__all__ = ["welded_parameters_changed", "merge_welded_inertias", "load_composite_inertias",
           "add_welded_forces", "begin_gravity_pass"]


@kernel
def welded_parameters_changed(ip, I10, ws):
    """True if a welded node's row of `I10` differs from the memo in ``ws[:, WS_IW:]``.

    The loop exits at the first difference; while nothing changed its branches are
    always predicted (cheaper here than a sum of the differences, whose additions form
    one dependency chain). A NaN compares unequal to itself, so a non-finite parameter
    always reads as changed."""
    for i in range(ip[0, IP_NWELDED]):
        w = ip[i, IP_WELDED]
        for j in range(10):
            if ws[w, WS_IW + j] != I10[w, j]:
                return True
    return False


@kernel
def merge_welded_inertias(ip, fp, I10, ws):
    """Recompute the memo: the welded rows' parameters and, at each mobile row, the sum
    of its welded bodies' inertias shifted into its frame."""
    for i in range(ip[0, IP_NMOBILE]):
        k = ip[i, IP_MOBILE]
        for j in range(10):
            ws[k, WS_IW + j] = 0.0
    for i in range(ip[0, IP_NWELDED]):
        w = ip[i, IP_WELDED]
        c = ip[w, IP_PARENT]
        for j in range(10):
            ws[w, WS_IW + j] = I10[w, j]
        R = (fp[w, FP_R0], fp[w, FP_R0 + 1], fp[w, FP_R0 + 2], fp[w, FP_R0 + 3],
             fp[w, FP_R0 + 4], fp[w, FP_R0 + 5], fp[w, FP_R0 + 6], fp[w, FP_R0 + 7],
             fp[w, FP_R0 + 8])
        s = rigid_inertia_shifted(R, fp[w, FP_P0B], fp[w, FP_P0B + 1], fp[w, FP_P0B + 2],
                                  I10[w, 0], I10[w, 1], I10[w, 2], I10[w, 3], I10[w, 4],
                                  I10[w, 5], I10[w, 6], I10[w, 7], I10[w, 8], I10[w, 9])
        for j in range(10):
            ws[c, WS_IW + j] += s[j]


@kernel
def load_composite_inertias(ip, fp, I10, ws, off):
    """Write the composite inertia of every mobile node k >= 1 into
    ``ws[k, off:off+10]`` (about Bo, in B), merging again if the welded bodies'
    parameters changed since the memo was made."""
    if welded_parameters_changed(ip, I10, ws):
        merge_welded_inertias(ip, fp, I10, ws)
    for i in range(1, ip[0, IP_NMOBILE]):
        k = ip[i, IP_MOBILE]
        for j in range(10):
            ws[k, off + j] = I10[k, j] + ws[k, WS_IW + j]


@kernel
def add_welded_forces(ip, fp, ws, F_ext_W, off, sign):
    """Add ``sign`` times the external force of every welded body (``F_ext_W[w]``, at
    its origin, in W) to its composite node's force ``ws[c, off:off+6]`` (at Co, in C).

    Requires the world rotation ``R_WC`` of the composite nodes in ``ws[c, WS_RW:]``;
    with ``p = p_CoBo_C`` (the fixed offset): ``f_C = R_WCᵀ f_W``,
    ``τ_C = R_WCᵀ τ_W + p × f_C``. (Bodies welded to the world are not listed.)
    """
    for i in range(ip[0, IP_NWELDED]):
        w = ip[i, IP_WELDED]
        c = ip[w, IP_PARENT]
        F = load6(F_ext_W, w, 0)
        if (F[0] == 0.0 and F[1] == 0.0 and F[2] == 0.0 and F[3] == 0.0 and F[4] == 0.0
                and F[5] == 0.0):
            continue
        t = rotate6_transpose(ws, c, WS_RW, F)
        px, py, pz = fp[w, FP_P0B], fp[w, FP_P0B + 1], fp[w, FP_P0B + 2]
        ws[c, off] += sign * (t[0] + py * t[5] - pz * t[4])
        ws[c, off + 1] += sign * (t[1] + pz * t[3] - px * t[5])
        ws[c, off + 2] += sign * (t[2] + px * t[4] - py * t[3])
        ws[c, off + 3] += sign * t[3]
        ws[c, off + 4] += sign * t[4]
        ws[c, off + 5] += sign * t[5]


@kernel
def begin_gravity_pass(ip, fp, I10, g, ws, slot, merged):
    """Start a base-to-tip dynamics pass: the world row at rest with acceleration [0; -g]
    (gravity as a base acceleration) and, with `merged`, the composite inertias in the
    workspace block `slot` (`load_composite_inertias`). Returns the number of rows i the
    pass visits: node ``ip[i, IP_MOBILE]`` when merged, else node i, for 1 <= i < count."""
    set_world_pose(ws)
    ws[0, WS_A + 3] = -g[0]
    ws[0, WS_A + 4] = -g[1]
    ws[0, WS_A + 5] = -g[2]
    if merged:
        load_composite_inertias(ip, fp, I10, ws, slot)
        return ip[0, IP_NMOBILE]
    return ip.shape[0]

