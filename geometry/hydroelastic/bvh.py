"""Bounding-volume hierarchies over mesh elements (tetrahedra or triangles) and their
traversal kernels.

`Bvh` is an implicit complete binary tree of axis-aligned boxes in the mesh's frame G,
stored in heap order: node k has children 2k + 1 and 2k + 2; the last ``num_leaves``
nodes are leaves, leaf l holding the elements ``order[LEAF * l : LEAF * (l + 1)]``
(-1 pads). It is built once per mesh, top-down: each node's elements are split at the
median of their centroids along the longest axis of the node (all nodes of a level at
once). Empty nodes have the box (+inf, -inf), which no test accepts.

The traversal kernels find the candidates of one query: the elements whose boxes a plane
crosses (`plane_candidates`), or the element pairs of two meshes in relative pose X_AB
whose boxes overlap (`pair_candidates`; B's boxes are bounded in A by the box of the
rotated box, each computed once per query). All accept every element (pair) that can
intersect and are followed by the exact element kernels of
`geometry.hydroelastic.surface_kernels`.

Two pressure fields meet only where p_a = p_b, so `equal_pressure_candidates` also prunes
by the fields: `pressure_bounds` bounds each node's piecewise-linear field between two
parallel affine functions, g·x + c_lo <= p(x) <= g·x + c_hi on its elements (g the mean
gradient of its elements; an element's own field has c_lo = c_hi). A node (element) pair
is kept only if p_a - p_b, bounded by (g_a - g_b)·x + [c_lo_a - c_hi_b, c_hi_a - c_lo_b],
can vanish somewhere in the overlap of the two boxes. Unlike a pressure-range test (every
pair in the overlap touches p = 0), this one rejects the pairs far from the surface.
"""

from dataclasses import dataclass

import numpy as np
from merganser.framework.compilation import kernel

__all__ = ["Bvh", "build_bvh", "element_boxes", "plane_candidates", "pair_candidates",
           "equal_pressure_candidates", "pressure_bounds", "LEAF"]

BOUND_COLUMNS = 5

LEAF = 4


@dataclass(frozen=True, eq=False)
class Bvh:
    """Box tree over the elements of one mesh (see the module docstring).

    Attributes
    ----------
    nodes : ndarray (2 num_leaves - 1, 6)
        Node boxes in G, rows (lo, hi) (m).
    elements : ndarray (ne, 6)
        Element boxes in G, rows (lo, hi) (m).
    order : ndarray (LEAF num_leaves,) int64
        Element indices of the leaves, -1 for padding.
    num_leaves : int
        A power of two.
    """

    nodes: np.ndarray
    elements: np.ndarray
    order: np.ndarray
    num_leaves: int

    def arrays(self):
        """(nodes, elements, order, num_leaves): the arguments of the traversal kernels."""
        return self.nodes, self.elements, self.order, self.num_leaves

    def move_work(self):
        """New work arrays (moved, stamp) of `pair_candidates` and
        `equal_pressure_candidates` with this tree as B."""
        n = self.nodes.shape[0] + self.elements.shape[0]
        return np.empty((n, 6 + BOUND_COLUMNS)), np.zeros(n + 1, np.int64)


def element_boxes(vertices, elements):
    """Boxes (lo, hi), each (ne, 3), of the elements (ne, k) of a mesh with `vertices`."""
    P = vertices[elements]
    return P.min(axis=1), P.max(axis=1)


def build_bvh(vertices, elements):
    """The `Bvh` of a tetrahedral (ne, 4) or triangle (ne, 3) mesh, vertices (nv, 3) in G."""
    lo, hi = element_boxes(np.asarray(vertices, float), np.asarray(elements, np.int64))
    ne = lo.shape[0]
    num_leaves = 1
    while num_leaves * LEAF < ne:
        num_leaves *= 2
    slots = num_leaves * LEAF
    centre = np.full((slots + 1, 3), np.nan)
    centre[:ne] = 0.5 * (lo + hi)
    order = np.full(slots, -1, np.int64)
    order[:ne] = np.arange(ne)
    segments = 1
    while segments < num_leaves:
        view = order.reshape(segments, -1)
        c = centre[view]                                # padding (-1) reads the nan row
        pad = np.isnan(c)
        extent = np.where(pad, -np.inf, c).max(axis=1) - np.where(pad, np.inf, c).min(axis=1)
        axis = np.argmax(extent, axis=1)
        key = np.take_along_axis(c, axis[:, None, None], axis=2)[:, :, 0]
        key = np.where(np.isnan(key), np.inf, key)
        order = np.take_along_axis(view, np.argsort(key, axis=1, kind="stable"), 1).ravel()
        segments *= 2
    big = np.full((1, 3), np.inf)
    lo_pad = np.concatenate([lo, big])[order].reshape(num_leaves, LEAF, 3).min(axis=1)
    hi_pad = np.concatenate([hi, -big])[order].reshape(num_leaves, LEAF, 3).max(axis=1)
    levels_lo, levels_hi = [lo_pad], [hi_pad]
    while levels_lo[-1].shape[0] > 1:
        levels_lo.append(levels_lo[-1].reshape(-1, 2, 3).min(axis=1))
        levels_hi.append(levels_hi[-1].reshape(-1, 2, 3).max(axis=1))
    nodes = np.hstack([np.concatenate(levels_lo[::-1]), np.concatenate(levels_hi[::-1])])
    return Bvh(np.ascontiguousarray(nodes), np.ascontiguousarray(np.hstack([lo, hi])), order,
               num_leaves)


def pressure_bounds(bvh, vertices, tets, field):
    """Affine pressure bounds of the nodes and elements of `bvh` (a tet tree).

    Parameters
    ----------
    bvh : Bvh
        The tree over `tets`.
    vertices : ndarray (nv, 3)
        Vertices in G (m). tets : ndarray (nt, 4) int64.
    field : ndarray (nt, 4)
        Per tet p(x) = field[t, 3] + field[t, :3]·x (Pa).

    Returns
    -------
    ndarray (num_nodes + nt, 5)
        Rows (g (3), c_lo, c_hi): g·x + c_lo <= p(x) <= g·x + c_hi on the node's (element's)
        tets; node rows first, then element t at row num_nodes + t; an empty node has
        (0, +inf, -inf).
    """
    field = np.asarray(field, float)
    order, nl = bvh.order, bvh.num_leaves
    valid = order >= 0
    e = np.where(valid, order, 0)
    G, C = field[e, :3], field[e, 3]
    P = np.asarray(vertices, float)[np.asarray(tets, np.int64)[e]]        # (slots, 4, 3)
    pv = C[:, None] + np.einsum("sc,svc->sv", G, P)                   # p at the vertices
    mask = np.repeat(valid, 4)
    rows = []
    segments = 1
    while segments <= nl:
        w = valid.reshape(segments, -1)
        n = np.maximum(w.sum(axis=1), 1)[:, None]
        g = (G * valid[:, None]).reshape(segments, -1, 3).sum(axis=1) / n
        # c = p(v) - g·v at the node's element vertices
        c = pv.reshape(segments, -1) - np.matmul(P.reshape(segments, -1, 3), g[:, :, None])[:, :, 0]
        m = mask.reshape(segments, -1)
        lo = np.where(m, c, np.inf).min(axis=1)
        hi = np.where(m, c, -np.inf).max(axis=1)
        rows.append(np.column_stack([g, lo, hi]))
        segments *= 2
    own = np.column_stack([field[:, :3], field[:, 3], field[:, 3]])
    return np.ascontiguousarray(np.concatenate(rows + [own]))


@kernel(allocates=True, inline=False)
def _meets_plane(boxes, k, nx, ny, nz, off, half_space):
    """Box k of `boxes` (rows lo, hi) crosses the plane n·x = off or, if `half_space`,
    reaches into n·x <= off (false for an empty box)."""
    lx, ly, lz = boxes[k, 0], boxes[k, 1], boxes[k, 2]
    hx, hy, hz = boxes[k, 3], boxes[k, 4], boxes[k, 5]
    s = nx * 0.5 * (lx + hx) + ny * 0.5 * (ly + hy) + nz * 0.5 * (lz + hz) - off
    r = 0.5 * (abs(nx) * (hx - lx) + abs(ny) * (hy - ly) + abs(nz) * (hz - lz))
    return s - r <= 0.0 if half_space else abs(s) <= r


@kernel(allocates=True, inline=False)
def plane_candidates(nodes, elements, order, num_leaves, nx, ny, nz, off, half_space, out):
    """Elements whose box the plane n·x = off (in G) crosses, or, if `half_space`, whose
    box reaches into n·x <= off, into `out`; returns their count (`out` needs room for
    every element)."""
    first_leaf = num_leaves - 1
    per_leaf = order.shape[0] // num_leaves
    stack = np.empty(64, np.int64)
    top = 1
    stack[0] = 0
    count = 0
    while top > 0:
        top -= 1
        k = stack[top]
        if not _meets_plane(nodes, k, nx, ny, nz, off, half_space):
            continue
        if k >= first_leaf:
            base = (k - first_leaf) * per_leaf
            for q in range(base, base + per_leaf):
                e = order[q]
                if e >= 0 and _meets_plane(elements, e, nx, ny, nz, off, half_space):
                    out[count] = e
                    count += 1
        else:
            stack[top] = 2 * k + 1
            stack[top + 1] = 2 * k + 2
            top += 2
    return count


@kernel(allocates=True, inline=False)
def _overlap(boxes, k, moved, row):
    """Box k of `boxes` (rows lo, hi) meets the box moved[row] (centre, half sizes)
    (false if either is empty or nan)."""
    return (boxes[k, 0] <= moved[row, 0] + moved[row, 3]
            and moved[row, 0] - moved[row, 3] <= boxes[k, 3]
            and boxes[k, 1] <= moved[row, 1] + moved[row, 4]
            and moved[row, 1] - moved[row, 4] <= boxes[k, 4]
            and boxes[k, 2] <= moved[row, 2] + moved[row, 5]
            and moved[row, 2] - moved[row, 5] <= boxes[k, 5])


@kernel(allocates=True, inline=False)
def _move(boxes, k, R, p, moved, row, stamp, bounds):
    """moved[row, :6] = (centre, half sizes) in A of the box that bounds box k of `boxes`
    (rows lo, hi; frame B), with R = R_AB and p = p_AB, and, if `bounds` has rows,
    moved[row, 6:] = the pressure bounds bounds[row] (`pressure_bounds`) in A; computed
    once per query (stamp[row] equal to the query's number stamp[-1] marks it done)."""
    if stamp[row] == stamp[-1]:
        return
    stamp[row] = stamp[-1]
    shift = 0.0
    for r in range(3):
        cr, er = p[r], 0.0
        for q in range(3):
            cr += R[r, q] * 0.5 * (boxes[k, q] + boxes[k, 3 + q])
            er += abs(R[r, q]) * 0.5 * (boxes[k, 3 + q] - boxes[k, q])
        moved[row, r], moved[row, 3 + r] = cr, er
        if bounds.shape[0] > 0:
            # p_b = g_B·x_B + c with x_B = R^T (x_A - p): g_A = R g_B, c_A = c - g_A·p
            gr = R[r, 0] * bounds[row, 0] + R[r, 1] * bounds[row, 1] + R[r, 2] * bounds[row, 2]
            moved[row, 6 + r] = gr
            shift += gr * p[r]
    if bounds.shape[0] > 0:
        moved[row, 9], moved[row, 10] = bounds[row, 3] - shift, bounds[row, 4] - shift


@kernel(allocates=True, inline=False)
def _pressures_meet(boxes, k, bounds, ra, moved, row):
    """p_a - p_b can vanish in the overlap of box k of `boxes` (rows lo, hi; A) with the
    box moved[row] (of `_move`), p_a bounded by bounds[ra] and p_b by moved[row, 6:]
    (`pressure_bounds`, both in A); with a relative slack of 1e-9 for round-off."""
    hmin = hmax = scale = 0.0
    for r in range(3):
        lo = max(boxes[k, r], moved[row, r] - moved[row, 3 + r])
        hi = min(boxes[k, 3 + r], moved[row, r] + moved[row, 3 + r])
        h = bounds[ra, r] - moved[row, 6 + r]
        if h > 0.0:
            hmin += h * lo
            hmax += h * hi
        else:
            hmin += h * hi
            hmax += h * lo
        scale += abs(h) * (abs(lo) + abs(hi))
    cla, cha, clb, chb = bounds[ra, 3], bounds[ra, 4], moved[row, 9], moved[row, 10]
    tol = 1e-9 * (scale + abs(cla) + abs(cha) + abs(clb) + abs(chb))
    return hmin <= chb - cla + tol and hmax >= clb - cha - tol


@kernel(allocates=True, inline=False)
def pair_candidates(a_nodes, a_elements, a_order, a_leaves, b_nodes, b_elements, b_order,
                    b_leaves, R_AB, p_AB, moved, stamp, out):
    """Element pairs (a, b) of two meshes whose element boxes overlap (B's boxes bounded
    in A), found by descending both trees; writes up to len(out) pairs (k, 2) and returns
    the total count (a count above len(out) asks for a larger `out`).

    ``moved`` (nb_nodes + nb_elements, >= 6) and ``stamp`` (nb_nodes + nb_elements + 1,)
    int64 are work kept from query to query (`Bvh.move_work`): B's node and element boxes
    in A, each computed at most once per query."""
    none = np.empty((0, BOUND_COLUMNS))
    return _descend(a_nodes, a_elements, a_order, a_leaves, b_nodes, b_elements, b_order,
                    b_leaves, R_AB, p_AB, moved, stamp, out, none, none)


@kernel(allocates=True)
def equal_pressure_candidates(a_nodes, a_elements, a_order, a_leaves, a_bounds, b_nodes,
                              b_elements, b_order, b_leaves, b_bounds, R_AB, p_AB, moved, stamp,
                              out):
    """The pairs of `pair_candidates` (same arguments and result; ``moved`` with 11
    columns) where also p_a = p_b can hold: the pressure bounds ``a_bounds``,
    ``b_bounds`` (`pressure_bounds` of each tree, in its own frame) let p_a - p_b vanish
    in the overlap of the node (element) boxes; bounds without rows ((0, 5) both): the
    boxes only, as `pair_candidates`."""
    return _descend(a_nodes, a_elements, a_order, a_leaves, b_nodes, b_elements, b_order,
                    b_leaves, R_AB, p_AB, moved, stamp, out, a_bounds, b_bounds)


@kernel(allocates=True)
def _descend(a_nodes, a_elements, a_order, a_leaves, b_nodes, b_elements, b_order,
             b_leaves, R_AB, p_AB, moved, stamp, out, a_bounds, b_bounds):
    """The traversal of `pair_candidates` (bounds without rows: boxes only) and
    `equal_pressure_candidates`. Compiled with the raised inlining threshold (unlike the
    other geometry kernels): its box and pressure helpers inlined, the two-sphere query's
    traversal takes ~40% less time, for ~0.1 s more compile time."""
    prune = a_bounds.shape[0] > 0
    nan_ = a_nodes.shape[0]
    fa, fb = a_leaves - 1, b_leaves - 1
    la, lb = a_order.shape[0] // a_leaves, b_order.shape[0] // b_leaves
    nbn = b_nodes.shape[0]
    stamp[-1] += 1
    stack = np.empty((256, 2), np.int64)
    stack[0, 0], stack[0, 1] = 0, 0
    top = 1
    cap = out.shape[0]
    count = 0
    while top > 0:
        top -= 1
        ka, kb = stack[top, 0], stack[top, 1]
        _move(b_nodes, kb, R_AB, p_AB, moved, kb, stamp, b_bounds)
        if not _overlap(a_nodes, ka, moved, kb):
            continue
        if prune and not _pressures_meet(a_nodes, ka, a_bounds, ka, moved, kb):
            continue
        leaf_a, leaf_b = ka >= fa, kb >= fb
        if leaf_a and leaf_b:
            for sb in range((kb - fb) * lb, (kb - fb + 1) * lb):
                eb = b_order[sb]
                if eb < 0:
                    continue
                _move(b_elements, eb, R_AB, p_AB, moved, nbn + eb, stamp, b_bounds)
                if prune and not _pressures_meet(a_nodes, ka, a_bounds, ka, moved, nbn + eb):
                    continue        # b's own field against leaf a's bounds
                for sa in range((ka - fa) * la, (ka - fa + 1) * la):
                    ea = a_order[sa]
                    if ea >= 0 and _overlap(a_elements, ea, moved, nbn + eb) and (
                            not prune or _pressures_meet(a_elements, ea, a_bounds, nan_ + ea,
                                                         moved, nbn + eb)):
                        if count < cap:
                            out[count, 0], out[count, 1] = ea, eb
                        count += 1
            continue
        # split the larger box (its diagonal is frame invariant), never a leaf
        da = db = 0.0
        for q in range(3):
            da += (a_nodes[ka, 3 + q] - a_nodes[ka, q]) ** 2
            db += (b_nodes[kb, 3 + q] - b_nodes[kb, q]) ** 2
        if leaf_b or (not leaf_a and da >= db):
            stack[top, 0], stack[top, 1] = 2 * ka + 1, kb
            stack[top + 1, 0], stack[top + 1, 1] = 2 * ka + 2, kb
        else:
            stack[top, 0], stack[top, 1] = ka, 2 * kb + 1
            stack[top + 1, 0], stack[top + 1, 1] = ka, 2 * kb + 2
        top += 2
    return count
