"""Whole-scene proximity kernels over the flat tables of `geometry.proximity.tables`.

Rows are the signed-distance rows of `geometry.proximity.primitives` (Ca, Cb, nhat_BA_W,
φ) with the geometry indices (i, j), i < j, in a separate (n, 2) array.
"""

from .broad_phase import candidate_pairs, compute_aabbs
from merganser.framework.compilation import kernel
from .narrow_phase import box_box_contact_points, halfspace_contact_points, signed_distance_pair
from .support import BOX, HALFSPACE


@kernel(allocates=True, inline=False)
def sort_pairs(pairs, count):
    """Insertion sort of pairs[:count] by (i, j)."""
    for a in range(1, count):
        i, j = pairs[a, 0], pairs[a, 1]
        b = a - 1
        while b >= 0 and (pairs[b, 0] > i or (pairs[b, 0] == i and pairs[b, 1] > j)):
            pairs[b + 1, 0] = pairs[b, 0]
            pairs[b + 1, 1] = pairs[b, 1]
            b -= 1
        pairs[b + 1, 0] = i
        pairs[b + 1, 1] = j


@kernel(allocates=True, inline=False)
def penetration_rows(gtype, pstart, params, X_WG, pairs, npairs, rows, out_pairs):
    """One row per penetrating candidate pair (deepest point); returns the row count."""
    k = 0
    for p in range(npairs):
        i, j = pairs[p, 0], pairs[p, 1]
        ok = signed_distance_pair(gtype[i], params[pstart[i]:pstart[i + 1]], X_WG[i],
                                  gtype[j], params[pstart[j]:pstart[j + 1]], X_WG[j], rows[k])
        if ok and rows[k, 9] < 0.0:
            out_pairs[k, 0] = i
            out_pairs[k, 1] = j
            k += 1
    return k


@kernel(allocates=True, inline=False)
def contact_point_rows(gtype, pstart, params, X_WG, pairs, npairs, rows, out_pairs):
    """Point contacts for the plant: like `penetration_rows`, but a box, hull, cylinder or
    capsule against a half space, and a box against a box, give one row per penetrating
    vertex.

    Returns the row count, or -1 if `rows` is too small (call again with more rows).
    """
    k = 0
    cap = rows.shape[0]
    for p in range(npairs):
        i, j = pairs[p, 0], pairs[p, 1]
        if k + 16 > cap:
            return -1
        ti, tj = gtype[i], gtype[j]
        pi = params[pstart[i]:pstart[i + 1]]
        pj = params[pstart[j]:pstart[j + 1]]
        k_new = -1
        if tj == HALFSPACE and ti != HALFSPACE:
            k_new = halfspace_contact_points(ti, pi, X_WG[i], X_WG[j], False, rows, k)
        elif ti == HALFSPACE and tj != HALFSPACE:
            k_new = halfspace_contact_points(tj, pj, X_WG[j], X_WG[i], True, rows, k)
        if k_new >= 0:
            for r in range(k, k_new):
                out_pairs[r, 0] = i
                out_pairs[r, 1] = j
            k = k_new
            continue
        ok = signed_distance_pair(ti, pi, X_WG[i], tj, pj, X_WG[j], rows[k])
        if not ok or rows[k, 9] >= 0.0:
            continue
        if ti == BOX and tj == BOX:
            k_new = box_box_contact_points(pi, X_WG[i], pj, X_WG[j], rows[k].copy(), rows,
                                           k)
            if k_new > k:
                for r in range(k, k_new):
                    out_pairs[r, 0] = i
                    out_pairs[r, 1] = j
                k = k_new
                continue
        out_pairs[k, 0] = i
        out_pairs[k, 1] = j
        k += 1
    return k


@kernel(allocates=True, inline=False)
def contact_point_query(gtype, pstart, params, X_WG, aabb, allowed, order, pairs, rows,
                        out_pairs):
    """Broad phase (zero margin), pair sort and `contact_point_rows` in one call.

    Returns
    -------
    (int, int)
        (candidate pair count, row count); the row count is -1 if the candidate pairs
        exceed ``pairs`` or the rows exceed ``rows`` (grow the short one, call again).
    """
    compute_aabbs(gtype, pstart, params, X_WG, 0.0, aabb)
    count = candidate_pairs(gtype, aabb, X_WG, allowed, order, pairs)
    if count > pairs.shape[0]:
        return count, -1
    sort_pairs(pairs, count)
    return count, contact_point_rows(gtype, pstart, params, X_WG, pairs, count, rows,
                                     out_pairs)


@kernel(allocates=True, inline=False)
def distance_rows(gtype, pstart, params, X_WG, pairs, npairs, max_distance, rows, out_pairs):
    """Signed distance rows of candidate pairs with φ <= max_distance; returns the count."""
    k = 0
    for p in range(npairs):
        i, j = pairs[p, 0], pairs[p, 1]
        ok = signed_distance_pair(gtype[i], params[pstart[i]:pstart[i + 1]], X_WG[i],
                                  gtype[j], params[pstart[j]:pstart[j + 1]], X_WG[j], rows[k])
        if ok and rows[k, 9] <= max_distance:
            out_pairs[k, 0] = i
            out_pairs[k, 1] = j
            k += 1
    return k
