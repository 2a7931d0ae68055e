"""Broad phase: world poses of the geometries, axis-aligned bounding boxes and the candidate
pairs whose boxes overlap (sweep and prune along x), so that scenes with hundreds of
geometries do not test every pair in the narrow phase.

Half spaces have unbounded boxes; they are paired with every allowed geometry whose
box reaches below their plane.
"""

import math

from merganser.framework.compilation import kernel
from .support import BOX, CAPSULE, CONVEX, CYLINDER, HALFSPACE, SPHERE


@kernel(allocates=True, inline=False)
def geometry_poses(frame_slot, X_FG, X_WF, X_WG):
    """X_WG[i] = X_WF[frame_slot[i]] @ X_FG[i] for every geometry i."""
    for i in range(X_FG.shape[0]):
        f = frame_slot[i]
        for r in range(3):
            for c in range(4):
                s = 0.0
                for k in range(3):
                    s += X_WF[f, r, k] * X_FG[i, k, c]
                if c == 3:
                    s += X_WF[f, r, 3]
                X_WG[i, r, c] = s
        X_WG[i, 3, 0] = 0.0
        X_WG[i, 3, 1] = 0.0
        X_WG[i, 3, 2] = 0.0
        X_WG[i, 3, 3] = 1.0


@kernel(allocates=True, inline=False)
def compute_aabbs(gtype, pstart, params, X_WG, margin, aabb):
    """aabb[i] = [min x, min y, min z, max x, max y, max z] of geometry i, grown by margin.

    Closed forms per shape (R = R_WG, c the world axis): the half width along c is
    Σₖ |R[c, k]| hₖ for a box (half sizes h), r for a sphere, |R[c, 2]| l + r for a
    capsule (half length l), |R[c, 2]| l + r √(1 − R[c, 2]²) for a cylinder and
    √(Σₖ (R[c, k] aₖ)²) for an ellipsoid (semi-axes a); a hull's box is the box of its
    vertices in W.
    """
    for i in range(gtype.shape[0]):
        t = gtype[i]
        if t == HALFSPACE:
            for c in range(3):
                aabb[i, c] = -math.inf
                aabb[i, 3 + c] = math.inf
            continue
        p0 = pstart[i]
        X = X_WG[i]
        if t == CONVEX:
            for c in range(3):
                aabb[i, c] = math.inf
                aabb[i, 3 + c] = -math.inf
            for v in range((pstart[i + 1] - p0) // 3):
                x, y, z = params[p0 + 3 * v], params[p0 + 3 * v + 1], params[p0 + 3 * v + 2]
                for c in range(3):
                    w = X[c, 0] * x + X[c, 1] * y + X[c, 2] * z + X[c, 3]
                    if w < aabb[i, c]:
                        aabb[i, c] = w
                    if w > aabb[i, 3 + c]:
                        aabb[i, 3 + c] = w
            for c in range(3):
                aabb[i, c] -= margin
                aabb[i, 3 + c] += margin
            continue
        for c in range(3):
            if t == SPHERE:
                half = params[p0]
            elif t == BOX:
                half = (abs(X[c, 0]) * params[p0] + abs(X[c, 1]) * params[p0 + 1]
                        + abs(X[c, 2]) * params[p0 + 2])
            elif t == CAPSULE:
                half = abs(X[c, 2]) * params[p0 + 1] + params[p0]
            elif t == CYLINDER:
                half = (abs(X[c, 2]) * params[p0 + 1]
                        + params[p0] * math.sqrt(max(0.0, 1.0 - X[c, 2] * X[c, 2])))
            else:                                   # ELLIPSOID
                ax = X[c, 0] * params[p0]
                ay = X[c, 1] * params[p0 + 1]
                az = X[c, 2] * params[p0 + 2]
                half = math.sqrt(ax * ax + ay * ay + az * az)
            aabb[i, c] = X[c, 3] - half - margin
            aabb[i, 3 + c] = X[c, 3] + half + margin


@kernel(allocates=True, inline=False)
def _below_plane(aabb, j, Xh, margin):
    """True if some corner of box j is within `margin` of, or below, the plane of Xh."""
    nx, ny, nz = Xh[0, 2], Xh[1, 2], Xh[2, 2]
    # the corner that minimizes n . p
    px = aabb[j, 0] if nx >= 0.0 else aabb[j, 3]
    py = aabb[j, 1] if ny >= 0.0 else aabb[j, 4]
    pz = aabb[j, 2] if nz >= 0.0 else aabb[j, 5]
    return nx * (px - Xh[0, 3]) + ny * (py - Xh[1, 3]) + nz * (pz - Xh[2, 3]) <= margin


@kernel(allocates=True, inline=False)
def candidate_pairs(gtype, aabb, X_WG, allowed, order, pairs):
    """Pairs (i < j) of allowed geometries whose boxes overlap.

    Parameters
    ----------
    order : ndarray (n,) int64
        Persistent permutation sorted by box min x (warm-started insertion sort).
    pairs : ndarray (capacity, 2) int64
        Output.

    Returns
    -------
    int
        The number of candidate pairs; when it exceeds the capacity only the first
        `capacity` are written (call again with a larger array).
    """
    n = gtype.shape[0]
    cap = pairs.shape[0]
    # insertion sort of order by aabb min x (nearly sorted between steps)
    for a in range(1, n):
        key = order[a]
        kx = aabb[key, 0]
        b = a - 1
        while b >= 0 and aabb[order[b], 0] > kx:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = key
    count = 0
    for a in range(n):
        i = order[a]
        if gtype[i] == HALFSPACE:
            continue
        maxx = aabb[i, 3]
        for b in range(a + 1, n):
            j = order[b]
            if aabb[j, 0] > maxx:
                break
            if gtype[j] == HALFSPACE:
                continue
            if (aabb[j, 1] > aabb[i, 4] or aabb[i, 1] > aabb[j, 4] or aabb[j, 2] > aabb[i, 5]
                    or aabb[i, 2] > aabb[j, 5]):
                continue
            lo, hi = (i, j) if i < j else (j, i)
            if allowed[lo, hi] == 0:
                continue
            if count < cap:
                pairs[count, 0] = lo
                pairs[count, 1] = hi
            count += 1
    for h in range(n):
        if gtype[h] != HALFSPACE:
            continue
        for j in range(n):
            if j == h or gtype[j] == HALFSPACE:
                continue
            lo, hi = (h, j) if h < j else (j, h)
            if allowed[lo, hi] == 0 or not _below_plane(aabb, j, X_WG[h], 0.0):
                continue
            if count < cap:
                pairs[count, 0] = lo
                pairs[count, 1] = hi
            count += 1
    return count
