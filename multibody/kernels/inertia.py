"""Spatial inertia operations used by CRBA and ABA, compiled with numba.

Two representations:

- a rigid-body (or composite) inertia by its 10 parameters
  ``[m, hx, hy, hz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz]`` about the frame origin
  (``h = m p_oCm``), used by CRBA's composite inertias;
- an articulated inertia as a symmetric 6x6 matrix, row-major in 36 workspace entries,
  ``[[A, B], [B^T, C]]`` in [rotational; translational] order, used by ABA.

Both are moved from node k's body frame B to its parent P with the pose ``R = R_PB``,
``p = p_PoBo_P`` stored in ``ws[k]``: ``I_P = X_BP^T I_B X_BP``.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import WS_P, WS_R
from merganser.multibody.kernels.spatial import store6

__all__ = [
    "rigid_inertia_shifted", "rigid_to_parent_add", "articulated_from_rigid",
    "articulated_to_parent_add",
    "mat6_times", "subtract_symmetric_outer",
]


@kernel
def _rot(ws, k):
    return (ws[k, WS_R], ws[k, WS_R + 1], ws[k, WS_R + 2], ws[k, WS_R + 3], ws[k, WS_R + 4],
            ws[k, WS_R + 5], ws[k, WS_R + 6], ws[k, WS_R + 7], ws[k, WS_R + 8])


@kernel
def _sandwich_sym(R, M):
    """Return ``R M R^T`` for a symmetric M (row-major 9-tuples; 6 products computed)."""
    t0 = M[0] * R[0] + M[1] * R[1] + M[2] * R[2]
    t1 = M[0] * R[3] + M[1] * R[4] + M[2] * R[5]
    t2 = M[0] * R[6] + M[1] * R[7] + M[2] * R[8]
    t3 = M[3] * R[0] + M[4] * R[1] + M[5] * R[2]
    t4 = M[3] * R[3] + M[4] * R[4] + M[5] * R[5]
    t5 = M[3] * R[6] + M[4] * R[7] + M[5] * R[8]
    t6 = M[6] * R[0] + M[7] * R[1] + M[8] * R[2]
    t7 = M[6] * R[3] + M[7] * R[4] + M[8] * R[5]
    t8 = M[6] * R[6] + M[7] * R[7] + M[8] * R[8]
    a00 = R[0] * t0 + R[1] * t3 + R[2] * t6
    a01 = R[0] * t1 + R[1] * t4 + R[2] * t7
    a02 = R[0] * t2 + R[1] * t5 + R[2] * t8
    a11 = R[3] * t1 + R[4] * t4 + R[5] * t7
    a12 = R[3] * t2 + R[4] * t5 + R[5] * t8
    a22 = R[6] * t2 + R[7] * t5 + R[8] * t8
    return (a00, a01, a02, a01, a11, a12, a02, a12, a22)


@kernel
def rigid_inertia_shifted(R, px, py, pz, m, hx, hy, hz, ixx, iyy, izz, ixy, ixz, iyz):
    """10 parameters (10-tuple) of a rigid inertia given in B about Bo, re-expressed in A
    about Ao, with ``R = R_AB`` (row-major 9-tuple) and ``p = p_AoBo_A``.

    With ``g = R h``: ``m' = m``; ``h' = g + m p``;
    ``I' = R I R^T + m (|p|^2 1 - p p^T) + 2 (p . g) 1 - g p^T - p g^T``.
    """
    gx = R[0] * hx + R[1] * hy + R[2] * hz
    gy = R[3] * hx + R[4] * hy + R[5] * hz
    gz = R[6] * hx + R[7] * hy + R[8] * hz
    J = _sandwich_sym(R, (ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz))
    d = m * (px * px + py * py + pz * pz) + 2.0 * (px * gx + py * gy + pz * gz)
    return (m, gx + m * px, gy + m * py, gz + m * pz,
            J[0] + d - m * px * px - 2.0 * gx * px,
            J[4] + d - m * py * py - 2.0 * gy * py,
            J[8] + d - m * pz * pz - 2.0 * gz * pz,
            J[1] - m * px * py - gx * py - px * gy,
            J[2] - m * px * pz - gx * pz - px * gz,
            J[5] - m * py * pz - gy * pz - py * gz)


@kernel
def rigid_to_parent_add(ws, k, p, off):
    """Add node k's 10-parameter inertia ``ws[k, off:off+10]`` (in B about Bo) to
    ``ws[p, off:off+10]`` after expressing it in the parent frame P about Po."""
    s = rigid_inertia_shifted(_rot(ws, k), ws[k, WS_P], ws[k, WS_P + 1], ws[k, WS_P + 2],
                 ws[k, off], ws[k, off + 1], ws[k, off + 2], ws[k, off + 3], ws[k, off + 4],
                 ws[k, off + 5], ws[k, off + 6], ws[k, off + 7], ws[k, off + 8],
                 ws[k, off + 9])
    ws[p, off] += s[0]
    ws[p, off + 1] += s[1]
    ws[p, off + 2] += s[2]
    ws[p, off + 3] += s[3]
    ws[p, off + 4] += s[4]
    ws[p, off + 5] += s[5]
    ws[p, off + 6] += s[6]
    ws[p, off + 7] += s[7]
    ws[p, off + 8] += s[8]
    ws[p, off + 9] += s[9]


@kernel
def articulated_from_rigid(src, row, soff, ws, k, off):
    """Write the 6x6 spatial inertia ``[[I, [h]x], [[h]x^T, m 1]]`` of the 10 parameters
    ``src[row, soff:soff+10]`` into ``ws[k, off:off+36]`` (row-major)."""
    m = src[row, soff]
    hx, hy, hz = src[row, soff + 1], src[row, soff + 2], src[row, soff + 3]
    ixx, iyy, izz = src[row, soff + 4], src[row, soff + 5], src[row, soff + 6]
    ixy, ixz, iyz = src[row, soff + 7], src[row, soff + 8], src[row, soff + 9]
    z = 0.0 * m
    store6(ws, k, off, (ixx, ixy, ixz, z, -hz, hy))
    store6(ws, k, off + 6, (ixy, iyy, iyz, hz, z, -hx))
    store6(ws, k, off + 12, (ixz, iyz, izz, -hy, hx, z))
    store6(ws, k, off + 18, (z, hz, -hy, m, z, z))
    store6(ws, k, off + 24, (-hz, z, hx, z, m, z))
    store6(ws, k, off + 30, (hy, -hx, z, z, z, m))


@kernel
def subtract_symmetric_outer(ws, k, off, a, b):
    """Subtract the outer product ``a b^T`` from the symmetric 6x6 matrix at
    ``ws[k, off:off+36]``, computing the upper triangle and mirroring it (the caller
    guarantees that the accumulated update is symmetric). `a` and `b` are 6-tuples; the
    loops are unrolled by the compiler (benchmarks/bench_kernels.py measured no gain
    from unrolling them by hand)."""
    for i in range(6):
        ai = a[i]
        ws[k, off + 7 * i] -= ai * b[i]
        for j in range(i + 1, 6):
            d = ai * b[j]
            ws[k, off + 6 * i + j] -= d
            ws[k, off + 6 * j + i] -= d


@kernel
def mat6_times(ws, k, off, m):
    """Return ``ws[k, off:off+36]`` (a row-major 6x6 matrix) times the 6-tuple `m`."""
    o = off
    return (ws[k, o] * m[0] + ws[k, o + 1] * m[1] + ws[k, o + 2] * m[2]
            + ws[k, o + 3] * m[3] + ws[k, o + 4] * m[4] + ws[k, o + 5] * m[5],
            ws[k, o + 6] * m[0] + ws[k, o + 7] * m[1] + ws[k, o + 8] * m[2]
            + ws[k, o + 9] * m[3] + ws[k, o + 10] * m[4] + ws[k, o + 11] * m[5],
            ws[k, o + 12] * m[0] + ws[k, o + 13] * m[1] + ws[k, o + 14] * m[2]
            + ws[k, o + 15] * m[3] + ws[k, o + 16] * m[4] + ws[k, o + 17] * m[5],
            ws[k, o + 18] * m[0] + ws[k, o + 19] * m[1] + ws[k, o + 20] * m[2]
            + ws[k, o + 21] * m[3] + ws[k, o + 22] * m[4] + ws[k, o + 23] * m[5],
            ws[k, o + 24] * m[0] + ws[k, o + 25] * m[1] + ws[k, o + 26] * m[2]
            + ws[k, o + 27] * m[3] + ws[k, o + 28] * m[4] + ws[k, o + 29] * m[5],
            ws[k, o + 30] * m[0] + ws[k, o + 31] * m[1] + ws[k, o + 32] * m[2]
            + ws[k, o + 33] * m[3] + ws[k, o + 34] * m[4] + ws[k, o + 35] * m[5])


@kernel
def _sandwich(R, M):
    """Return ``R M R^T`` (row-major 9-tuples)."""
    t0 = M[0] * R[0] + M[1] * R[1] + M[2] * R[2]
    t1 = M[0] * R[3] + M[1] * R[4] + M[2] * R[5]
    t2 = M[0] * R[6] + M[1] * R[7] + M[2] * R[8]
    t3 = M[3] * R[0] + M[4] * R[1] + M[5] * R[2]
    t4 = M[3] * R[3] + M[4] * R[4] + M[5] * R[5]
    t5 = M[3] * R[6] + M[4] * R[7] + M[5] * R[8]
    t6 = M[6] * R[0] + M[7] * R[1] + M[8] * R[2]
    t7 = M[6] * R[3] + M[7] * R[4] + M[8] * R[5]
    t8 = M[6] * R[6] + M[7] * R[7] + M[8] * R[8]
    return (R[0] * t0 + R[1] * t3 + R[2] * t6,
            R[0] * t1 + R[1] * t4 + R[2] * t7,
            R[0] * t2 + R[1] * t5 + R[2] * t8,
            R[3] * t0 + R[4] * t3 + R[5] * t6,
            R[3] * t1 + R[4] * t4 + R[5] * t7,
            R[3] * t2 + R[4] * t5 + R[5] * t8,
            R[6] * t0 + R[7] * t3 + R[8] * t6,
            R[6] * t1 + R[7] * t4 + R[8] * t7,
            R[6] * t2 + R[7] * t5 + R[8] * t8)


@kernel
def _block(ws, k, o):
    """3x3 block of a row-major 6x6 matrix starting at entry offset o."""
    return (ws[k, o], ws[k, o + 1], ws[k, o + 2],
            ws[k, o + 6], ws[k, o + 7], ws[k, o + 8],
            ws[k, o + 12], ws[k, o + 13], ws[k, o + 14])


@kernel
def _skew_times(px, py, pz, M):
    """Return ``[p]x M`` (column j is p x M[:, j])."""
    return (py * M[6] - pz * M[3], py * M[7] - pz * M[4], py * M[8] - pz * M[5],
            pz * M[0] - px * M[6], pz * M[1] - px * M[7], pz * M[2] - px * M[8],
            px * M[3] - py * M[0], px * M[4] - py * M[1], px * M[5] - py * M[2])


@kernel
def _times_skew(M, px, py, pz):
    """Return ``M [p]x`` (row i is M[i, :] x p)."""
    return (M[1] * pz - M[2] * py, M[2] * px - M[0] * pz, M[0] * py - M[1] * px,
            M[4] * pz - M[5] * py, M[5] * px - M[3] * pz, M[3] * py - M[4] * px,
            M[7] * pz - M[8] * py, M[8] * px - M[6] * pz, M[6] * py - M[7] * px)


@kernel
def _add_block(ws, p, o, M):
    """Add the 3x3 (9-tuple) M to the block of a row-major 6x6 at entry offset o."""
    ws[p, o] += M[0]
    ws[p, o + 1] += M[1]
    ws[p, o + 2] += M[2]
    ws[p, o + 6] += M[3]
    ws[p, o + 7] += M[4]
    ws[p, o + 8] += M[5]
    ws[p, o + 12] += M[6]
    ws[p, o + 13] += M[7]
    ws[p, o + 14] += M[8]


@kernel
def articulated_to_parent_add(ws, k, p, off):
    """Add node k's 6x6 inertia ``ws[k, off:off+36]`` (in B at Bo) to ``ws[p, off:...]``
    after the congruence ``X_BP^T I X_BP`` into the parent frame P at Po.

    With the blocks ``[[A, B], [B^T, C]]`` rotated into P (``A~ = R A R^T`` and likewise
    B~, C~, ``R = R_PB``, ``p = p_PoBo_P``): ``C' = C~``; ``B' = B~ + [p] C~``;
    ``A' = A~ - X - X^T - [p] C~ [p]`` with ``X = B~ [p]``.
    """
    R = _rot(ws, k)
    px, py, pz = ws[k, WS_P], ws[k, WS_P + 1], ws[k, WS_P + 2]
    A = _sandwich_sym(R, _block(ws, k, off))
    B = _sandwich(R, _block(ws, k, off + 3))
    C = _sandwich_sym(R, _block(ws, k, off + 21))
    pC = _skew_times(px, py, pz, C)
    X = _times_skew(B, px, py, pz)
    pCp = _times_skew(pC, px, py, pz)
    _add_block(ws, p, off, (A[0] - 2.0 * X[0] - pCp[0], A[1] - X[1] - X[3] - pCp[1],
                            A[2] - X[2] - X[6] - pCp[2], A[3] - X[3] - X[1] - pCp[3],
                            A[4] - 2.0 * X[4] - pCp[4], A[5] - X[5] - X[7] - pCp[5],
                            A[6] - X[6] - X[2] - pCp[6], A[7] - X[7] - X[5] - pCp[7],
                            A[8] - 2.0 * X[8] - pCp[8]))
    Bp = (B[0] + pC[0], B[1] + pC[1], B[2] + pC[2], B[3] + pC[3], B[4] + pC[4],
          B[5] + pC[5], B[6] + pC[6], B[7] + pC[7], B[8] + pC[8])
    _add_block(ws, p, off + 3, Bp)
    _add_block(ws, p, off + 18, (Bp[0], Bp[3], Bp[6], Bp[1], Bp[4], Bp[7], Bp[2], Bp[5],
                                 Bp[8]))
    _add_block(ws, p, off + 21, C)
