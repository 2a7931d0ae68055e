"""Numba kernels that build contact-surface polygons, element by element.

The element helpers (``_slice``, ``_clip_in_tet``, ``_equal_pressure_plane``,
``_quadrature``, `tet_tables`) hold each formula once; they serve the candidate-driven
kernels of `geometry.hydroelastic.surface_kernels` (the query's path) and the brute-force
kernels below, which try every element (pair) and are the reference the tests compare
the accelerated query with.

Output layout of the brute-force kernels (all quantities in world W): polygon f has
vertices ``out_v[out_start[f]:out_start[f+1]]`` (m), pressures ``out_p[...]`` (Pa), unit
normal ``out_n[f]`` and ``out_g[f]`` = ∂p/∂n (Pa/m), the rate at which the compliant
pressure grows with penetration along the normal into the compliant geometry (the
stiffness per area of the surface; the series stiffness of two compliant geometries);
a kernel returns the number of polygons, or -1 when the output arrays are too small (the
caller grows them and calls again).

As Drake, a polygon is kept only where the pressure grows into each compliant geometry
along the surface's normal to within `NORMAL_ANGLE_LIMIT` (5π/8, Drake's empirical
threshold: cos θ > cos 5π/8 between the unit pressure gradient and the normal into that
geometry, `along_gradient`); where it grows more slowly than `MIN_GRADIENT` (or falls)
the stiffness per area is 0: the discrete solvers take no contact there (Drake's
``kGradientEpsilon``; `face_stiffness`, which keeps the magnitude of a gradient tangent
to the face to round-off).
"""

import math

import numpy as np
from merganser.framework.compilation import kernel

__all__ = ["slice_tets_with_plane", "clip_triangles_in_tets", "clip_triangles_in_slab",
           "equal_pressure_polygons", "polygon_quadrature", "tet_tables", "along_gradient",
           "face_stiffness", "NORMAL_ANGLE_LIMIT", "MIN_GRADIENT", "ROUND_OFF"]

_EDGES = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], np.int64)

#: The largest angle between a polygon's normal into a compliant geometry and that
#: geometry's pressure gradient for which the polygon is kept (Drake's kAlpha).
NORMAL_ANGLE_LIMIT = 5.0 * math.pi / 8.0
_COS_LIMIT = math.cos(NORMAL_ANGLE_LIMIT)
#: The smallest ∂p/∂n (Pa/m) of a face with stiffness (Drake's kGradientEpsilon).
MIN_GRADIENT = 1.0e-14
#: ∂p/∂n within this fraction of |∇p| of zero is round-off of a gradient tangent to the
#: face (a box's side ramps under its bottom face): its magnitude is kept.
ROUND_OFF = 1.0e-9


@kernel(allocates=True, inline=False)
def face_stiffness(g, gg):
    """A face's stiffness per area from g = ∇p·n (n the normal into the compliant
    geometry) and gg = |∇p|: 0 where the pressure falls along n beyond round-off (as
    Drake, no contact there) or |g| < `MIN_GRADIENT`, else |g|."""
    if g <= -ROUND_OFF * gg:
        return 0.0
    g = abs(g)
    return g if g >= MIN_GRADIENT else 0.0


@kernel(allocates=True, inline=False)
def along_gradient(gx, gy, gz, nx, ny, nz):
    """Whether the direction n is within `NORMAL_ANGLE_LIMIT` of the gradient g (neither
    need be unit; False when either is zero)."""
    gg = gx * gx + gy * gy + gz * gz
    nn = nx * nx + ny * ny + nz * nz
    if not (gg > 0.0 and nn > 0.0):
        return False
    return (gx * nx + gy * ny + gz * nz) > _COS_LIMIT * math.sqrt(gg * nn)


@kernel(allocates=True, inline=False)
def _clip(src, ns, nx, ny, nz, off, dst):
    """Sutherland-Hodgman: the part of polygon src[:ns] with n·x <= off into dst."""
    m = 0
    for k in range(ns):
        k2 = k + 1 if k + 1 < ns else 0
        sa = nx * src[k, 0] + ny * src[k, 1] + nz * src[k, 2] - off
        sb = nx * src[k2, 0] + ny * src[k2, 1] + nz * src[k2, 2] - off
        if sa <= 0.0:
            dst[m, 0], dst[m, 1], dst[m, 2] = src[k, 0], src[k, 1], src[k, 2]
            m += 1
        if (sa <= 0.0) != (sb <= 0.0):
            t = sa / (sa - sb)
            for c in range(3):
                dst[m, c] = src[k, c] + t * (src[k2, c] - src[k, c])
            m += 1
    return m


@kernel(allocates=True, inline=False)
def _clip_in_tet(planes, t, buf_a, m, buf_b):
    """Polygon buf_a[:m] clipped by the four planes planes[t] (4, 4) of a tet (n·x <= off
    inside); the result is back in buf_a; returns its vertex count (< 3: empty)."""
    for k in range(0, 4, 2):
        m = _clip(buf_a, m, planes[t, k, 0], planes[t, k, 1], planes[t, k, 2],
                  planes[t, k, 3], buf_b)
        if m < 3:
            return 0
        m = _clip(buf_b, m, planes[t, k + 1, 0], planes[t, k + 1, 1], planes[t, k + 1, 2],
                  planes[t, k + 1, 3], buf_a)
        if m < 3:
            return 0
    return m


@kernel(allocates=True, inline=False)
def _slice(Wt, vals, s, nx, ny, nz, pts, pp):
    """The polygon where a plane with unit normal n cuts a tetrahedron: vertices Wt
    (4, 3) with signed distances s (4,) to the plane, values `vals` (4,) interpolated
    along the cut edges. Writes its m (0, 3 or 4) vertices counter-clockwise about n into
    pts and the values into pp; returns m.

    The cut edges, in the order of ``_EDGES``, go around a quadrilateral as 0, 1, 3, 2
    (two cut edges are consecutive when they share a face); the orientation is then fixed
    by the sign of the diagonals' cross product along n."""
    m = 0
    for e in range(6):
        a, b = _EDGES[e, 0], _EDGES[e, 1]
        if (s[a] > 0.0) != (s[b] > 0.0):
            r = s[a] / (s[a] - s[b])
            for c in range(3):
                pts[m, c] = Wt[a, c] + r * (Wt[b, c] - Wt[a, c])
            pp[m] = vals[a] + r * (vals[b] - vals[a])
            m += 1
    if m < 3:
        return 0
    last = m - 1
    if m == 4:
        for c in range(3):
            pts[2, c], pts[3, c] = pts[3, c], pts[2, c]
        pp[2], pp[3] = pp[3], pp[2]
        j0, j1, k0, k1 = 0, 2, 1, 3       # the diagonals
    else:
        j0, j1, k0, k1 = 0, 1, 0, 2       # two sides
    # d1 x d2 · n > 0: counter-clockwise about n
    d1x, d1y, d1z = pts[j1, 0] - pts[j0, 0], pts[j1, 1] - pts[j0, 1], pts[j1, 2] - pts[j0, 2]
    d2x, d2y, d2z = pts[k1, 0] - pts[k0, 0], pts[k1, 1] - pts[k0, 1], pts[k1, 2] - pts[k0, 2]
    turn = ((d1y * d2z - d1z * d2y) * nx + (d1z * d2x - d1x * d2z) * ny
            + (d1x * d2y - d1y * d2x) * nz)
    if turn < 0.0:                        # reverse: swap the neighbours of vertex 0
        for c in range(3):
            pts[1, c], pts[last, c] = pts[last, c], pts[1, c]
        pp[1], pp[last] = pp[last], pp[1]
    return m


@kernel(allocates=True, inline=False)
def _tet_gradient(V, P, tets, t):
    """∇p (Pa/m) of the linear pressure in tet t, in V's frame ((0, 0, 0) if degenerate)."""
    i0, i1, i2, i3 = tets[t, 0], tets[t, 1], tets[t, 2], tets[t, 3]
    a00, a01, a02 = V[i1, 0] - V[i0, 0], V[i1, 1] - V[i0, 1], V[i1, 2] - V[i0, 2]
    a10, a11, a12 = V[i2, 0] - V[i0, 0], V[i2, 1] - V[i0, 1], V[i2, 2] - V[i0, 2]
    a20, a21, a22 = V[i3, 0] - V[i0, 0], V[i3, 1] - V[i0, 1], V[i3, 2] - V[i0, 2]
    b0, b1, b2 = P[i1] - P[i0], P[i2] - P[i0], P[i3] - P[i0]
    det = (a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20)
           + a02 * (a10 * a21 - a11 * a20))
    if det == 0.0:
        return 0.0, 0.0, 0.0
    g0 = (b0 * (a11 * a22 - a12 * a21) - a01 * (b1 * a22 - a12 * b2)
          + a02 * (b1 * a21 - a11 * b2)) / det
    g1 = (a00 * (b1 * a22 - a12 * b2) - b0 * (a10 * a22 - a12 * a20)
          + a02 * (a10 * b2 - b1 * a20)) / det
    g2 = (a00 * (a11 * b2 - b1 * a21) - a01 * (a10 * b2 - b1 * a20)
          + b0 * (a10 * a21 - a11 * a20)) / det
    return g0, g1, g2


@kernel(allocates=True, inline=False)
def tet_tables(V, P, tets, G, C, planes):
    """Per tet t, in V's frame: pressure p(x) = C[t] + G[t]·x (G: (nt, 3)) and the four
    face planes planes[t] (4, 4) rows (n, off), n·x <= off inside, the row k the face
    opposite vertex k. A tet without volume gets the planes n = 0, off = -1, which
    reject every point."""
    for t in range(tets.shape[0]):
        g0, g1, g2 = _tet_gradient(V, P, tets, t)
        i0 = tets[t, 0]
        G[t, 0], G[t, 1], G[t, 2] = g0, g1, g2
        C[t] = P[i0] - (g0 * V[i0, 0] + g1 * V[i0, 1] + g2 * V[i0, 2])
        degenerate = False
        for k in range(4):
            a, b, c = tets[t, (k + 1) % 4], tets[t, (k + 2) % 4], tets[t, (k + 3) % 4]
            e1x, e1y, e1z = V[b, 0] - V[a, 0], V[b, 1] - V[a, 1], V[b, 2] - V[a, 2]
            e2x, e2y, e2z = V[c, 0] - V[a, 0], V[c, 1] - V[a, 1], V[c, 2] - V[a, 2]
            nx, ny, nz = e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x
            off = nx * V[a, 0] + ny * V[a, 1] + nz * V[a, 2]
            w = tets[t, k]
            side = nx * V[w, 0] + ny * V[w, 1] + nz * V[w, 2] - off
            if side > 0.0:
                nx, ny, nz, off = -nx, -ny, -nz, -off
            elif side == 0.0:
                degenerate = True
            planes[t, k, 0], planes[t, k, 1], planes[t, k, 2], planes[t, k, 3] = nx, ny, nz, off
        if degenerate:
            for k in range(4):
                planes[t, k, 0], planes[t, k, 1], planes[t, k, 2] = 0.0, 0.0, 0.0
                planes[t, k, 3] = -1.0


@kernel(allocates=True, inline=False)
def _equal_pressure_plane(gax, gay, gaz, Ca, gbx, gby, gbz, Cb):
    """The plane of p_a = p_b in a tet pair (p_a = Ca + ga·x, p_b = Cb + gb·x, one
    frame): (m, off, ok) with m·x = off, m = ga - gb (not normalized: it points out of b
    into a); ok is False when m is not within `NORMAL_ANGLE_LIMIT` of ga, or -m of gb
    (`along_gradient`, Drake's test): no surface."""
    mx, my, mz = gax - gbx, gay - gby, gaz - gbz
    ok = (along_gradient(gax, gay, gaz, mx, my, mz)
          and along_gradient(gbx, gby, gbz, -mx, -my, -mz))
    return mx, my, mz, Cb - Ca, ok


@kernel(allocates=True, inline=False)
def _series_stiffness(gax, gay, gaz, gbx, gby, gbz, mx, my, mz):
    """(n, g) of an equal-pressure plane with normal m (`_equal_pressure_plane`): the unit
    normal and the series stiffness per area g_a g_b / (g_a + g_b), g_a = ∇p_a·n and
    g_b = -∇p_b·n the rates into each tet; 0 when either is below `MIN_GRADIENT`."""
    nn = math.sqrt(mx * mx + my * my + mz * mz)
    nx, ny, nz = mx / nn, my / nn, mz / nn
    gan = face_stiffness(gax * nx + gay * ny + gaz * nz,
                         math.sqrt(gax * gax + gay * gay + gaz * gaz))
    gbn = face_stiffness(-(gbx * nx + gby * ny + gbz * nz),
                         math.sqrt(gbx * gbx + gby * gby + gbz * gbz))
    if gan == 0.0 or gbn == 0.0:
        return nx, ny, nz, 0.0
    return nx, ny, nz, gan * gbn / (gan + gbn)


@kernel(allocates=True, inline=False)
def _crosses(Wt, nx, ny, nz, off, s):
    """Signed distances s (4,) of the tet's vertices Wt (4, 3) to the plane n·x = off;
    True if the plane separates them."""
    npos = 0
    for k in range(4):
        s[k] = nx * Wt[k, 0] + ny * Wt[k, 1] + nz * Wt[k, 2] - off
        if s[k] > 0.0:
            npos += 1
    return 0 < npos < 4


@kernel(allocates=True, inline=False)
def _quadrature(v, p, s0, s1):
    """(area, centroid x, y, z, centroid pressure) of the planar polygon v[s0:s1] with
    the linear pressure p[s0:s1] (fan triangulation; area * centroid pressure is the
    exact integral)."""
    a_sum = 0.0
    cx = cy = cz = 0.0
    pint = 0.0
    for k in range(s0 + 1, s1 - 1):
        e1x, e1y, e1z = v[k, 0] - v[s0, 0], v[k, 1] - v[s0, 1], v[k, 2] - v[s0, 2]
        e2x = v[k + 1, 0] - v[s0, 0]
        e2y = v[k + 1, 1] - v[s0, 1]
        e2z = v[k + 1, 2] - v[s0, 2]
        qx, qy, qz = e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x
        a = 0.5 * math.sqrt(qx * qx + qy * qy + qz * qz)
        a_sum += a
        cx += a * (v[s0, 0] + v[k, 0] + v[k + 1, 0]) / 3.0
        cy += a * (v[s0, 1] + v[k, 1] + v[k + 1, 1]) / 3.0
        cz += a * (v[s0, 2] + v[k, 2] + v[k + 1, 2]) / 3.0
        pint += a * (p[s0] + p[k] + p[k + 1]) / 3.0
    if a_sum > 0.0:
        return a_sum, cx / a_sum, cy / a_sum, cz / a_sum, pint / a_sum
    return 0.0, v[s0, 0], v[s0, 1], v[s0, 2], p[s0]


@kernel(allocates=True, inline=False)
def polygon_quadrature(nf, start, v, p, area, centroid, p_c):
    """Area, area centroid and centroid pressure of each planar polygon (fan
    triangulation); ``area[f] * p_c[f]`` is the exact integral of the linear pressure."""
    for f in range(nf):
        a, cx, cy, cz, pc = _quadrature(v, p, start[f], start[f + 1])
        area[f] = a
        centroid[f, 0], centroid[f, 1], centroid[f, 2] = cx, cy, cz
        p_c[f] = pc


@kernel(allocates=True, inline=False)
def _write(pts, pp, m, nx, ny, nz, g, nf, nvo, out_v, out_p, out_start, out_n, out_g):
    """Append polygon pts[:m] (pressures pp) to the raw output; False if it is full."""
    if nf + 1 > out_n.shape[0] or nvo + m > out_v.shape[0]:
        return False
    for k in range(m):
        out_v[nvo + k, 0], out_v[nvo + k, 1], out_v[nvo + k, 2] = pts[k, 0], pts[k, 1], pts[k, 2]
        out_p[nvo + k] = pp[k]
    out_n[nf, 0], out_n[nf, 1], out_n[nf, 2] = nx, ny, nz
    out_g[nf] = g
    out_start[nf + 1] = nvo + m
    return True


@kernel(allocates=True, inline=False)
def slice_tets_with_plane(V, P, tets, n, o, sign, out_v, out_p, out_start, out_n, out_g):
    """Polygons where the plane n·(x - o) = 0 cuts the tetrahedra.

    Parameters
    ----------
    V : ndarray (nv, 3)
        Tet-mesh vertices in W. P : ndarray (nv,) pressures.
    tets : ndarray (nt, 4) int64
    n, o : ndarray (3,)
        Unit plane normal (the polygons' normal) and a point on the plane, in W.
    sign : float
        +1 when n points into the compliant volume (the rigid half space's outward
        normal), -1 when it points out of it: ∂p/∂n into the volume is sign ∇p·n.
    """
    off = n[0] * o[0] + n[1] * o[1] + n[2] * o[2]
    Wt, vals, s = np.empty((4, 3)), np.empty(4), np.empty(4)
    pts, pp = np.empty((12, 3)), np.empty(12)
    nf = nvo = 0
    out_start[0] = 0
    for t in range(tets.shape[0]):
        for k in range(4):
            v = tets[t, k]
            Wt[k, 0], Wt[k, 1], Wt[k, 2] = V[v, 0], V[v, 1], V[v, 2]
            vals[k] = P[v]
            s[k] = n[0] * V[v, 0] + n[1] * V[v, 1] + n[2] * V[v, 2] - off
        m = _slice(Wt, vals, s, n[0], n[1], n[2], pts, pp)
        if m == 0:
            continue
        g0, g1, g2 = _tet_gradient(V, P, tets, t)
        g = face_stiffness(sign * (g0 * n[0] + g1 * n[1] + g2 * n[2]),
                           math.sqrt(g0 * g0 + g1 * g1 + g2 * g2))
        if not _write(pts, pp, m, n[0], n[1], n[2], g,
                      nf, nvo, out_v, out_p, out_start, out_n, out_g):
            return -1
        nf += 1
        nvo += m
    return nf


@kernel(allocates=True, inline=False)
def clip_triangles_in_tets(TV, tris, tri_n, V, P, tets, sign, out_v, out_p, out_start, out_n,
                           out_g):
    """Polygons: each triangle of a rigid surface clipped by each tetrahedron of a compliant
    mesh (every pair with overlapping boxes), with the tet's linear pressure; normals are
    ``sign * tri_n``.

    Parameters
    ----------
    TV : ndarray (ntv, 3)
        Surface vertices in W. tris : ndarray (nf, 3) int64. tri_n : ndarray (nf, 3) in W.
    V, P, tets : the compliant mesh (vertices in W, pressures, tets).
    sign : float
        +1 or -1.
    """
    nt = tets.shape[0]
    G, C, planes = np.empty((nt, 3)), np.empty(nt), np.empty((nt, 4, 4))
    tet_tables(V, P, tets, G, C, planes)
    buf_a, buf_b, pp = np.empty((12, 3)), np.empty((12, 3)), np.empty(12)
    nf = nvo = 0
    out_start[0] = 0
    for t in range(nt):
        for f in range(tris.shape[0]):
            overlap = True
            for c in range(3):
                lo_t = min(V[tets[t, 0], c], V[tets[t, 1], c], V[tets[t, 2], c],
                           V[tets[t, 3], c])
                hi_t = max(V[tets[t, 0], c], V[tets[t, 1], c], V[tets[t, 2], c],
                           V[tets[t, 3], c])
                lo_f = min(TV[tris[f, 0], c], TV[tris[f, 1], c], TV[tris[f, 2], c])
                hi_f = max(TV[tris[f, 0], c], TV[tris[f, 1], c], TV[tris[f, 2], c])
                overlap = overlap and lo_f <= hi_t and lo_t <= hi_f
            if not overlap or not along_gradient(G[t, 0], G[t, 1], G[t, 2], tri_n[f, 0],
                                                 tri_n[f, 1], tri_n[f, 2]):
                continue
            for k in range(3):
                for c in range(3):
                    buf_a[k, c] = TV[tris[f, k], c]
            m = _clip_in_tet(planes, t, buf_a, 3, buf_b)
            if m == 0:
                continue
            for k in range(m):
                pp[k] = max(0.0, C[t] + G[t, 0] * buf_a[k, 0] + G[t, 1] * buf_a[k, 1]
                            + G[t, 2] * buf_a[k, 2])
            g = face_stiffness(G[t, 0] * tri_n[f, 0] + G[t, 1] * tri_n[f, 1]
                               + G[t, 2] * tri_n[f, 2],
                               math.sqrt(G[t, 0] ** 2 + G[t, 1] ** 2 + G[t, 2] ** 2))
            if not _write(buf_a, pp, m, sign * tri_n[f, 0], sign * tri_n[f, 1],
                          sign * tri_n[f, 2], g, nf, nvo, out_v, out_p, out_start, out_n,
                          out_g):
                return -1
            nf += 1
            nvo += m
    return nf


@kernel(allocates=True, inline=False)
def _slab_polygon(TV, tris, f, nx, ny, nz, off, modulus, thickness, buf_a, buf_b, pp):
    """Triangle f of TV clipped to the half space n·x <= off, into buf_b (m vertices),
    with the slab pressure E · depth / thickness in pp; returns m (< 3: empty)."""
    for k in range(3):
        for c in range(3):
            buf_a[k, c] = TV[tris[f, k], c]
    m = _clip(buf_a, 3, nx, ny, nz, off, buf_b)
    for k in range(m):
        depth = off - (nx * buf_b[k, 0] + ny * buf_b[k, 1] + nz * buf_b[k, 2])
        pp[k] = modulus * max(0.0, depth) / thickness
    return m


@kernel(allocates=True, inline=False)
def clip_triangles_in_slab(TV, tris, tri_n, n, o, modulus, thickness, sign, out_v, out_p,
                           out_start, out_n, out_g):
    """Polygons: the parts of a rigid surface's triangles inside the half space
    n·(x - o) <= 0, with the slab pressure E · depth / thickness; normals ``sign * tri_n``."""
    buf_a, buf_b, pp = np.empty((12, 3)), np.empty((12, 3)), np.empty(12)
    off = n[0] * o[0] + n[1] * o[1] + n[2] * o[2]
    nf = nvo = 0
    out_start[0] = 0
    for f in range(tris.shape[0]):
        if not along_gradient(-n[0], -n[1], -n[2], tri_n[f, 0], tri_n[f, 1], tri_n[f, 2]):
            continue
        m = _slab_polygon(TV, tris, f, n[0], n[1], n[2], off, modulus, thickness, buf_a,
                          buf_b, pp)
        if m < 3:
            continue
        g = face_stiffness(-modulus / thickness * (n[0] * tri_n[f, 0] + n[1] * tri_n[f, 1]
                                                   + n[2] * tri_n[f, 2]), modulus / thickness)
        if not _write(buf_b, pp, m, sign * tri_n[f, 0], sign * tri_n[f, 1], sign * tri_n[f, 2],
                      g, nf, nvo, out_v, out_p, out_start, out_n, out_g):
            return -1
        nf += 1
        nvo += m
    return nf


@kernel(allocates=True, inline=False)
def equal_pressure_polygons(Va, Pa, tets_a, Vb, Pb, tets_b, out_v, out_p, out_start, out_n,
                            out_g):
    """Compliant-compliant: polygons of the surface p_a = p_b inside both meshes (M = a,
    N = b), every tet pair with overlapping boxes: the plane of equal pressure
    (``_equal_pressure_plane``) sliced by tet a and clipped by tet b; ``out_g`` is the
    series stiffness per area (``_series_stiffness``), pressures are p_a."""
    na, nb = tets_a.shape[0], tets_b.shape[0]
    Ga, Ca, PLa = np.empty((na, 3)), np.empty(na), np.empty((na, 4, 4))
    Gb, Cb, PLb = np.empty((nb, 3)), np.empty(nb), np.empty((nb, 4, 4))
    tet_tables(Va, Pa, tets_a, Ga, Ca, PLa)
    tet_tables(Vb, Pb, tets_b, Gb, Cb, PLb)
    Wa, s = np.empty((4, 3)), np.empty(4)
    pts, buf, pp = np.empty((12, 3)), np.empty((12, 3)), np.empty(12)
    nf = nvo = 0
    out_start[0] = 0
    for ta in range(na):
        for tb in range(nb):
            overlap = True
            for c in range(3):
                lo_a = min(Va[tets_a[ta, 0], c], Va[tets_a[ta, 1], c], Va[tets_a[ta, 2], c],
                           Va[tets_a[ta, 3], c])
                hi_a = max(Va[tets_a[ta, 0], c], Va[tets_a[ta, 1], c], Va[tets_a[ta, 2], c],
                           Va[tets_a[ta, 3], c])
                lo_b = min(Vb[tets_b[tb, 0], c], Vb[tets_b[tb, 1], c], Vb[tets_b[tb, 2], c],
                           Vb[tets_b[tb, 3], c])
                hi_b = max(Vb[tets_b[tb, 0], c], Vb[tets_b[tb, 1], c], Vb[tets_b[tb, 2], c],
                           Vb[tets_b[tb, 3], c])
                overlap = overlap and lo_a <= hi_b and lo_b <= hi_a
            if not overlap:
                continue
            for k in range(4):
                for c in range(3):
                    Wa[k, c] = Va[tets_a[ta, k], c]
            mx, my, mz, off, ok = _equal_pressure_plane(Ga[ta, 0], Ga[ta, 1], Ga[ta, 2], Ca[ta],
                                                        Gb[tb, 0], Gb[tb, 1], Gb[tb, 2], Cb[tb])
            if not ok or not _crosses(Wa, mx, my, mz, off, s):
                continue
            m = _clip_in_tet(PLb, tb, pts, _slice(Wa, s, s, mx, my, mz, pts, pp), buf)
            if m == 0:
                continue
            nx, ny, nz, g = _series_stiffness(Ga[ta, 0], Ga[ta, 1], Ga[ta, 2], Gb[tb, 0],
                                              Gb[tb, 1], Gb[tb, 2], mx, my, mz)
            for k in range(m):
                pp[k] = max(0.0, Ca[ta] + Ga[ta, 0] * pts[k, 0] + Ga[ta, 1] * pts[k, 1]
                            + Ga[ta, 2] * pts[k, 2])
            if not _write(pts, pp, m, nx, ny, nz, g, nf, nvo, out_v, out_p, out_start, out_n,
                          out_g):
                return -1
            nf += 1
            nvo += m
    return nf
