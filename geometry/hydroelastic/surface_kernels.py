"""The contact-surface kernels of a query: one compiled call per geometry pair finds the
candidate elements in the bounding-volume hierarchies (`geometry.hydroelastic.bvh`),
builds each polygon in the frame A of the compliant (or first) geometry with the element
helpers of `geometry.hydroelastic.slicing_kernels`, and writes it, with its quadrature,
in world W.

Output of every kernel (first nf rows used):

- ``out_v`` (cv, 3), ``out_p`` (cv,): polygon vertices in W (m) and their pressures (Pa);
  polygon f is ``out_start[f]:out_start[f + 1]``, counter-clockwise about its normal;
- ``faces`` (cf, 9): per polygon the unit normal in W (3), the area centroid in W (3),
  the area (m²), the pressure at the centroid (Pa; area times it is the exact integral of
  the linear field) and ∂p/∂n (Pa/m, the stiffness per area: the rate at which the
  pressure grows along the normal into the compliant geometry, 0 where it falls
  (`slicing_kernels.face_stiffness`), the series stiffness of two compliant geometries).

As Drake, a rigid triangle's polygon is kept only where the triangle's normal is within
5π/8 of the compliant element's pressure gradient, and an equal-pressure polygon only
where its normal is within 5π/8 of both gradients (`slicing_kernels.along_gradient`);
a half space cuts every element it meets.

Polygons of negligible area are left out: the specks and slivers of round-off where a
surface passes through an element's edge or vertex, area <= MIN_RELATIVE_AREA times the
squared diagonal of the compliant element's box (the triangle's for the slab). A kernel
returns nf, or -(k + 1) when its candidate or output arrays are too small for the k
candidates it found: the caller then makes every array hold k (``faces`` k rows, ``out_v``
8 k) and calls again.
"""

import math

import numpy as np
from merganser.framework.compilation import kernel

from .bvh import BOUND_COLUMNS, equal_pressure_candidates, plane_candidates
from .slicing_kernels import (
    _clip_in_tet, _crosses, _equal_pressure_plane, _quadrature, _series_stiffness, _slab_polygon,
    _slice, along_gradient, face_stiffness,
)

__all__ = ["plane_volume_surface", "surface_volume_surface", "slab_surface_surface",
           "volume_volume_surface", "MAX_POLYGON_VERTICES", "FACE_COLUMNS",
           "MIN_RELATIVE_AREA"]

MAX_POLYGON_VERTICES = 8
FACE_COLUMNS = 9
MIN_RELATIVE_AREA = 1e-12


@kernel(allocates=True, inline=False)
def _emit(pts, pp, m, X_WA, nx, ny, nz, g, boxes, e, counts, out_v, out_p, out_start, faces):
    """Append polygon pts[:m] (frame A, pressures pp) in W with its quadrature; normal n
    in W; boxes[e] (6,): the box of the element it came from. ``counts`` (2,) int: the
    polygons and vertices written so far, advanced here unless the polygon's area is
    negligible (then it is not kept)."""
    nf, nvo = counts[0], counts[1]
    for k in range(m):
        for r in range(3):
            out_v[nvo + k, r] = (X_WA[r, 3] + X_WA[r, 0] * pts[k, 0] + X_WA[r, 1] * pts[k, 1]
                                 + X_WA[r, 2] * pts[k, 2])
        out_p[nvo + k] = pp[k]
    a, cx, cy, cz, pc = _quadrature(out_v, out_p, nvo, nvo + m)
    if not a > MIN_RELATIVE_AREA * ((boxes[e, 3] - boxes[e, 0]) ** 2
                                    + (boxes[e, 4] - boxes[e, 1]) ** 2
                                    + (boxes[e, 5] - boxes[e, 2]) ** 2):
        return
    faces[nf, 0], faces[nf, 1], faces[nf, 2] = nx, ny, nz
    faces[nf, 3], faces[nf, 4], faces[nf, 5] = cx, cy, cz
    faces[nf, 6], faces[nf, 7], faces[nf, 8] = a, pc, g
    out_start[nf + 1] = nvo + m
    counts[0] = nf + 1
    counts[1] = nvo + m


@kernel(allocates=True, inline=False)
def _norm(x, y, z):
    return math.sqrt(x * x + y * y + z * z)


@kernel(allocates=True, inline=False)
def _start(out_start):
    """The polygon and vertex counters of `_emit`, at zero."""
    out_start[0] = 0
    return np.zeros(2, np.int64)


@kernel(allocates=True, inline=False)
def _rotate(X, sign, x, y, z):
    """sign · R x for the rotation R = X[:3, :3] (a pose (4, 4) or a rotation (3, 3))."""
    return (sign * (X[0, 0] * x + X[0, 1] * y + X[0, 2] * z),
            sign * (X[1, 0] * x + X[1, 1] * y + X[1, 2] * z),
            sign * (X[2, 0] * x + X[2, 1] * y + X[2, 2] * z))


@kernel(allocates=True, inline=False)
def _fits(k, cand_cap, out_v, faces):
    return k <= cand_cap and k <= faces.shape[0] and MAX_POLYGON_VERTICES * k <= out_v.shape[0]


@kernel(allocates=True, inline=False)
def _pairs_in_A(X_WA, X_WB, a_nodes, a_elements, a_order, a_leaves, a_bounds, b_nodes,
                b_elements, b_order, b_leaves, b_bounds, moved, stamp, pairs, R_AB, p_AB):
    """The candidate element pairs of the trees of A and B at the poses X_WA, X_WB (4, 4)
    (`bvh.equal_pressure_candidates`; bounds without rows: boxes only); writes R_AB
    (3, 3) and p_AB (3,) and returns the count."""
    _relative(X_WA, X_WB, R_AB, p_AB)
    return equal_pressure_candidates(a_nodes, a_elements, a_order, a_leaves, a_bounds,
                                     b_nodes, b_elements, b_order, b_leaves, b_bounds, R_AB,
                                     p_AB, moved, stamp, pairs)


@kernel(allocates=True, inline=False)
def _relative(X_WA, X_WB, R_AB, p_AB):
    """R_AB, p_AB of the poses X_WA, X_WB (4, 4)."""
    for r in range(3):
        p_AB[r] = 0.0
        for q in range(3):
            p_AB[r] += X_WA[q, r] * (X_WB[q, 3] - X_WA[q, 3])
            s = 0.0
            for k in range(3):
                s += X_WA[k, r] * X_WB[k, q]
            R_AB[r, q] = s


@kernel(allocates=True, inline=False)
def plane_volume_surface(X_WA, X_WP, sign, V, P, tets, field, nodes, elements, order,
                         num_leaves, cand, out_v, out_p, out_start, faces):
    """Compliant volume A (vertices V, pressures P, tets, ``field`` (nt, 4) rows
    (∇p, C) in A, tet tree) cut by the rigid plane z = 0 of pose X_WP; the polygons'
    normal is ``sign`` times the plane's; ``cand`` (nt,) is work."""
    nwx, nwy, nwz = sign * X_WP[0, 2], sign * X_WP[1, 2], sign * X_WP[2, 2]
    nx = X_WA[0, 0] * nwx + X_WA[1, 0] * nwy + X_WA[2, 0] * nwz
    ny = X_WA[0, 1] * nwx + X_WA[1, 1] * nwy + X_WA[2, 1] * nwz
    nz = X_WA[0, 2] * nwx + X_WA[1, 2] * nwy + X_WA[2, 2] * nwz
    off = (nwx * (X_WP[0, 3] - X_WA[0, 3]) + nwy * (X_WP[1, 3] - X_WA[1, 3])
           + nwz * (X_WP[2, 3] - X_WA[2, 3]))
    k = plane_candidates(nodes, elements, order, num_leaves, nx, ny, nz, off, False, cand)
    if not _fits(k, cand.shape[0], out_v, faces):
        return -(k + 1)
    Wt, vals, s = np.empty((4, 3)), np.empty(4), np.empty(4)
    pts, pp = np.empty((12, 3)), np.empty(12)
    counts = _start(out_start)
    for i in range(k):
        t = cand[i]
        for q in range(4):
            v = tets[t, q]
            Wt[q, 0], Wt[q, 1], Wt[q, 2] = V[v, 0], V[v, 1], V[v, 2]
            vals[q] = P[v]
            s[q] = nx * V[v, 0] + ny * V[v, 1] + nz * V[v, 2] - off
        m = _slice(Wt, vals, s, nx, ny, nz, pts, pp)
        if m == 0:
            continue
        # ∂p/∂n into A: along the plane's own normal, ``sign`` times the polygons'
        g = face_stiffness(sign * (field[t, 0] * nx + field[t, 1] * ny + field[t, 2] * nz),
                           _norm(field[t, 0], field[t, 1], field[t, 2]))
        _emit(pts, pp, m, X_WA, nwx, nwy, nwz, g, elements, t, counts, out_v, out_p,
              out_start, faces)
    return counts[0]


@kernel(allocates=True, inline=False)
def surface_volume_surface(X_WA, X_WB, sign, field, planes, a_nodes, a_elements, a_order,
                           a_leaves, TV, tris, tri_n, b_nodes, b_elements, b_order, b_leaves,
                           moved, stamp, pairs, out_v, out_p, out_start, faces):
    """Compliant volume A (``field`` (nt, 4) rows (∇p, C) and face ``planes`` (nt, 4, 4)
    in A, tet tree) against the rigid triangles of B (vertices TV, ``tris``, unit normals
    ``tri_n``, in B; triangle tree): each triangle clipped by each tet it meets, with the
    tet's pressure; normals ``sign`` times the triangles' in W; ``moved``, ``stamp`` (of
    `geometry.hydroelastic.bvh.pair_candidates`) and ``pairs`` (k, 2) are work."""
    R_AB, p_AB = np.empty((3, 3)), np.empty(3)
    none = np.empty((0, BOUND_COLUMNS))
    k = _pairs_in_A(X_WA, X_WB, a_nodes, a_elements, a_order, a_leaves, none, b_nodes,
                    b_elements, b_order, b_leaves, none, moved, stamp, pairs, R_AB, p_AB)
    if not _fits(k, pairs.shape[0], out_v, faces):
        return -(k + 1)
    buf_a, buf_b, pp = np.empty((12, 3)), np.empty((12, 3)), np.empty(12)
    counts = _start(out_start)
    for i in range(k):
        t, f = pairs[i, 0], pairs[i, 1]
        # the triangle's outward normal (into A) within 5π/8 of the tet's gradient
        nax, nay, naz = _rotate(R_AB, 1.0, tri_n[f, 0], tri_n[f, 1], tri_n[f, 2])
        if not along_gradient(field[t, 0], field[t, 1], field[t, 2], nax, nay, naz):
            continue
        for q in range(3):
            v = tris[f, q]
            for r in range(3):
                buf_a[q, r] = (p_AB[r] + R_AB[r, 0] * TV[v, 0] + R_AB[r, 1] * TV[v, 1]
                               + R_AB[r, 2] * TV[v, 2])
        m = _clip_in_tet(planes, t, buf_a, 3, buf_b)
        if m == 0:
            continue
        for q in range(m):
            pp[q] = max(0.0, field[t, 3] + field[t, 0] * buf_a[q, 0] + field[t, 1] * buf_a[q, 1]
                        + field[t, 2] * buf_a[q, 2])
        g = face_stiffness(field[t, 0] * nax + field[t, 1] * nay + field[t, 2] * naz,
                           _norm(field[t, 0], field[t, 1], field[t, 2]))
        nwx, nwy, nwz = _rotate(X_WA, sign, nax, nay, naz)
        _emit(buf_a, pp, m, X_WA, nwx, nwy, nwz, g, a_elements, t, counts, out_v, out_p,
              out_start, faces)
    return counts[0]


@kernel(allocates=True, inline=False)
def slab_surface_surface(X_WS, X_WB, modulus, thickness, sign, TV, tris, tri_n, nodes,
                         elements, order, num_leaves, cand, out_v, out_p, out_start, faces):
    """Compliant half-space slab S (surface z = 0 of X_WS, pressure E · depth / thickness
    below it) against the rigid triangles of B (in B, triangle tree): the parts of the
    triangles below the surface; normals ``sign`` times the triangles' in W; ``cand``
    (ntris,) is work."""
    nx = X_WB[0, 0] * X_WS[0, 2] + X_WB[1, 0] * X_WS[1, 2] + X_WB[2, 0] * X_WS[2, 2]
    ny = X_WB[0, 1] * X_WS[0, 2] + X_WB[1, 1] * X_WS[1, 2] + X_WB[2, 1] * X_WS[2, 2]
    nz = X_WB[0, 2] * X_WS[0, 2] + X_WB[1, 2] * X_WS[1, 2] + X_WB[2, 2] * X_WS[2, 2]
    off = (X_WS[0, 2] * (X_WS[0, 3] - X_WB[0, 3]) + X_WS[1, 2] * (X_WS[1, 3] - X_WB[1, 3])
           + X_WS[2, 2] * (X_WS[2, 3] - X_WB[2, 3]))
    k = plane_candidates(nodes, elements, order, num_leaves, nx, ny, nz, off, True, cand)
    if not _fits(k, cand.shape[0], out_v, faces):
        return -(k + 1)
    buf_a, buf_b, pp = np.empty((12, 3)), np.empty((12, 3)), np.empty(12)
    ratio = modulus / thickness
    counts = _start(out_start)
    for i in range(k):
        f = cand[i]
        # the slab's pressure grows along -n: the triangle's normal within 5π/8 of it
        if not along_gradient(-nx, -ny, -nz, tri_n[f, 0], tri_n[f, 1], tri_n[f, 2]):
            continue
        m = _slab_polygon(TV, tris, f, nx, ny, nz, off, modulus, thickness, buf_a, buf_b, pp)
        if m < 3:
            continue
        g = face_stiffness(-ratio * (nx * tri_n[f, 0] + ny * tri_n[f, 1] + nz * tri_n[f, 2]),
                           ratio)
        nwx, nwy, nwz = _rotate(X_WB, sign, tri_n[f, 0], tri_n[f, 1], tri_n[f, 2])
        _emit(buf_b, pp, m, X_WB, nwx, nwy, nwz, g, elements, f, counts, out_v, out_p,
              out_start, faces)
    return counts[0]


@kernel(allocates=True)
def volume_volume_surface(X_WA, X_WB, Va, tets_a, field_a, a_nodes, a_elements, a_order,
                          a_leaves, a_bounds, Vb, tets_b, field_b, planes_b, b_nodes, b_elements,
                          b_order, b_leaves, b_bounds, moved, stamp, pairs, out_v, out_p,
                          out_start, faces):
    """Compliant volumes A (vertices Va, tets, ``field_a`` (nt, 4), in A) and B (the same
    and ``planes_b``, in B): the surface p_a = p_b, tet pair by tet pair: the plane of
    equal pressure (`geometry.hydroelastic.slicing_kernels._equal_pressure_plane`), kept
    where it crosses both tets, sliced by tet a and clipped by tet b; pressures p_a;
    candidates pruned by the pressure bounds ``a_bounds``, ``b_bounds``
    (`geometry.hydroelastic.bvh.pressure_bounds`); ``moved``, ``stamp`` (of
    `geometry.hydroelastic.bvh.equal_pressure_candidates`) and ``pairs`` (k, 2) are
    work."""
    R_AB, p_AB = np.empty((3, 3)), np.empty(3)
    k = _pairs_in_A(X_WA, X_WB, a_nodes, a_elements, a_order, a_leaves, a_bounds, b_nodes,
                    b_elements, b_order, b_leaves, b_bounds, moved, stamp, pairs, R_AB, p_AB)
    if not _fits(k, pairs.shape[0], out_v, faces):
        return -(k + 1)
    Wa, Wb, s = np.empty((4, 3)), np.empty((4, 3)), np.empty(4)
    pts, buf, pp = np.empty((12, 3)), np.empty((12, 3)), np.empty(12)
    pl = np.empty((1, 4, 4))
    counts = _start(out_start)
    last = -1
    gb0 = gb1 = gb2 = cb = 0.0
    for i in range(k):
        ta, tb = pairs[i, 0], pairs[i, 1]
        if tb != last:          # the candidates come in runs of one tet b: it in A, once
            last = tb
            # ∇p_A = R_AB ∇p_B, C_A = C_B - ∇p_A·p_AB; planes n_A = R_AB n_B,
            # off_A = off_B + n_A·p_AB; vertices R_AB x_B + p_AB
            fx, fy, fz = field_b[tb, 0], field_b[tb, 1], field_b[tb, 2]
            gb0 = R_AB[0, 0] * fx + R_AB[0, 1] * fy + R_AB[0, 2] * fz
            gb1 = R_AB[1, 0] * fx + R_AB[1, 1] * fy + R_AB[1, 2] * fz
            gb2 = R_AB[2, 0] * fx + R_AB[2, 1] * fy + R_AB[2, 2] * fz
            cb = field_b[tb, 3] - gb0 * p_AB[0] - gb1 * p_AB[1] - gb2 * p_AB[2]
            for q in range(4):
                o = planes_b[tb, q, 3]
                v = tets_b[tb, q]
                for r in range(3):
                    pl[0, q, r] = (R_AB[r, 0] * planes_b[tb, q, 0]
                                   + R_AB[r, 1] * planes_b[tb, q, 1]
                                   + R_AB[r, 2] * planes_b[tb, q, 2])
                    o += pl[0, q, r] * p_AB[r]
                    Wb[q, r] = (p_AB[r] + R_AB[r, 0] * Vb[v, 0] + R_AB[r, 1] * Vb[v, 1]
                                + R_AB[r, 2] * Vb[v, 2])
                pl[0, q, 3] = o
        gax, gay, gaz, ca = field_a[ta, 0], field_a[ta, 1], field_a[ta, 2], field_a[ta, 3]
        mx, my, mz, off, ok = _equal_pressure_plane(gax, gay, gaz, ca, gb0, gb1, gb2, cb)
        if not ok or not _crosses(Wb, mx, my, mz, off, s):
            continue
        for q in range(4):
            v = tets_a[ta, q]
            Wa[q, 0], Wa[q, 1], Wa[q, 2] = Va[v, 0], Va[v, 1], Va[v, 2]
        if not _crosses(Wa, mx, my, mz, off, s):
            continue
        m = _clip_in_tet(pl, 0, pts, _slice(Wa, s, s, mx, my, mz, pts, pp), buf)
        if m == 0:
            continue
        nx, ny, nz, g = _series_stiffness(gax, gay, gaz, gb0, gb1, gb2, mx, my, mz)
        for q in range(m):
            pp[q] = max(0.0, ca + gax * pts[q, 0] + gay * pts[q, 1] + gaz * pts[q, 2])
        nwx, nwy, nwz = _rotate(X_WA, 1.0, nx, ny, nz)
        _emit(pts, pp, m, X_WA, nwx, nwy, nwz, g, a_elements, ta, counts, out_v, out_p,
              out_start, faces)
    return counts[0]
