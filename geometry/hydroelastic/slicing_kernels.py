"""Numba kernels that build contact-surface polygons (all quantities in world W).

Output layout of every kernel: polygon f has vertices ``out_v[out_start[f]:out_start[f+1]]``
(m), pressures ``out_p[...]`` (Pa), unit normal ``out_n[f]`` and ``out_g[f]`` = |∂p/∂n|
(Pa/m), the rate at which the compliant pressure grows with penetration along the
normal (the stiffness per area of the surface); a kernel returns the
number of polygons, or -1 when the output arrays are too small (the caller grows them
and calls again).
"""

import math

import numpy as np
from merganser.framework.compilation import kernel

__all__ = ["slice_tets_with_plane", "clip_triangles_in_tets", "clip_triangles_in_slab",
           "equal_pressure_polygons",
           "polygon_quadrature"]

_EDGES = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], np.int64)


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
def slice_tets_with_plane(V, P, tets, n, o, out_v, out_p, out_start, out_n, out_g):
    """Polygons where the plane n·(x - o) = 0 cuts the tetrahedra.

    Parameters
    ----------
    V : ndarray (nv, 3)
        Tet-mesh vertices in W. P : ndarray (nv,) pressures.
    tets : ndarray (nt, 4) int64
    n, o : ndarray (3,)
        Unit plane normal (the polygons' normal) and a point on the plane, in W.
    """
    # tangent basis of the plane, for ordering quadrilateral vertices
    ax = 0 if abs(n[0]) < 0.6 else 1
    t0 = np.zeros(3)
    t0[ax] = 1.0
    d = t0[0] * n[0] + t0[1] * n[1] + t0[2] * n[2]
    ux, uy, uz = t0[0] - d * n[0], t0[1] - d * n[1], t0[2] - d * n[2]
    un = math.sqrt(ux * ux + uy * uy + uz * uz)
    ux, uy, uz = ux / un, uy / un, uz / un
    wx, wy, wz = n[1] * uz - n[2] * uy, n[2] * ux - n[0] * uz, n[0] * uy - n[1] * ux
    s = np.zeros(4)
    pts = np.zeros((4, 3))
    pp = np.zeros(4)
    ang = np.zeros(4)
    nf = 0
    nvo = 0
    cap_f = out_n.shape[0]
    cap_v = out_v.shape[0]
    out_start[0] = 0
    for t in range(tets.shape[0]):
        npos = 0
        for k in range(4):
            v = tets[t, k]
            s[k] = n[0] * (V[v, 0] - o[0]) + n[1] * (V[v, 1] - o[1]) + n[2] * (V[v, 2] - o[2])
            if s[k] > 0.0:
                npos += 1
        if npos == 0 or npos == 4:
            continue
        m = 0
        for e in range(6):
            a, b = _EDGES[e, 0], _EDGES[e, 1]
            if (s[a] > 0.0) != (s[b] > 0.0):
                r = s[a] / (s[a] - s[b])
                va, vb = tets[t, a], tets[t, b]
                for c in range(3):
                    pts[m, c] = V[va, c] + r * (V[vb, c] - V[va, c])
                pp[m] = P[va] + r * (P[vb] - P[va])
                m += 1
        if nf + 1 > cap_f or nvo + m > cap_v:
            return -1
        cx = cy = cz = 0.0
        for k in range(m):
            cx += pts[k, 0] / m
            cy += pts[k, 1] / m
            cz += pts[k, 2] / m
        for k in range(m):
            dx, dy, dz = pts[k, 0] - cx, pts[k, 1] - cy, pts[k, 2] - cz
            ang[k] = math.atan2(dx * wx + dy * wy + dz * wz, dx * ux + dy * uy + dz * uz)
        for _k in range(m):  # selection order by angle (counter-clockwise about n)
            best = -1
            for j in range(m):
                if ang[j] < 10.0 and (best < 0 or ang[j] < ang[best]):
                    best = j
            out_v[nvo, 0], out_v[nvo, 1], out_v[nvo, 2] = pts[best, 0], pts[best, 1], pts[best, 2]
            out_p[nvo] = pp[best]
            ang[best] = 100.0
            nvo += 1
        out_n[nf, 0], out_n[nf, 1], out_n[nf, 2] = n[0], n[1], n[2]
        g0, g1, g2 = _tet_gradient(V, P, tets, t)
        out_g[nf] = abs(g0 * n[0] + g1 * n[1] + g2 * n[2])
        nf += 1
        out_start[nf] = nvo
    return nf


@kernel(allocates=True, inline=False)
def _tet_gradient(V, P, tets, t):
    """∇p (Pa/m, in W) of the linear pressure in tet t ((0, 0, 0) if degenerate)."""
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
def clip_triangles_in_tets(TV, tris, tri_n, V, P, tets, sign, out_v, out_p, out_start, out_n,
                           out_g):
    """Polygons: each triangle of a rigid surface clipped by each tetrahedron of a compliant
    mesh, with the tet's linear pressure; normals are ``sign * tri_n``.

    Parameters
    ----------
    TV : ndarray (ntv, 3)
        Surface vertices in W. tris : ndarray (nf, 3) int64. tri_n : ndarray (nf, 3) in W.
    V, P, tets : the compliant mesh (vertices in W, pressures, tets).
    sign : float
        +1 or -1.
    """
    nt = tris.shape[0]
    tb = np.zeros((nt, 6))
    for f in range(nt):
        for c in range(3):
            lo, hi = 1e300, -1e300
            for k in range(3):
                x = TV[tris[f, k], c]
                lo = min(lo, x)
                hi = max(hi, x)
            tb[f, c], tb[f, 3 + c] = lo, hi
    buf_a = np.zeros((12, 3))
    buf_b = np.zeros((12, 3))
    planes = np.zeros((4, 4))
    W = np.zeros((4, 3))
    nf = 0
    nvo = 0
    cap_f = out_n.shape[0]
    cap_v = out_v.shape[0]
    out_start[0] = 0
    for t in range(tets.shape[0]):
        for k in range(4):
            for c in range(3):
                W[k, c] = V[tets[t, k], c]
        lo0 = min(W[0, 0], W[1, 0], W[2, 0], W[3, 0])
        hi0 = max(W[0, 0], W[1, 0], W[2, 0], W[3, 0])
        lo1 = min(W[0, 1], W[1, 1], W[2, 1], W[3, 1])
        hi1 = max(W[0, 1], W[1, 1], W[2, 1], W[3, 1])
        lo2 = min(W[0, 2], W[1, 2], W[2, 2], W[3, 2])
        hi2 = max(W[0, 2], W[1, 2], W[2, 2], W[3, 2])
        prepared = False
        g0 = g1 = g2 = 0.0
        for f in range(nt):
            if (tb[f, 0] > hi0 or tb[f, 3] < lo0 or tb[f, 1] > hi1 or tb[f, 4] < lo1
                    or tb[f, 2] > hi2 or tb[f, 5] < lo2):
                continue
            if not prepared:
                prepared = True
                # outward face planes: face opposite vertex k
                for k in range(4):
                    a, b, c = (k + 1) % 4, (k + 2) % 4, (k + 3) % 4
                    e1x, e1y, e1z = W[b, 0] - W[a, 0], W[b, 1] - W[a, 1], W[b, 2] - W[a, 2]
                    e2x, e2y, e2z = W[c, 0] - W[a, 0], W[c, 1] - W[a, 1], W[c, 2] - W[a, 2]
                    nx, ny, nz = e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x
                    off = nx * W[a, 0] + ny * W[a, 1] + nz * W[a, 2]
                    if nx * W[k, 0] + ny * W[k, 1] + nz * W[k, 2] - off > 0.0:
                        nx, ny, nz, off = -nx, -ny, -nz, -off
                    planes[k, 0], planes[k, 1], planes[k, 2], planes[k, 3] = nx, ny, nz, off
                # pressure gradient: solve [e1 e2 e3]^T g = [dp1 dp2 dp3]
                a00, a01, a02 = W[1, 0] - W[0, 0], W[1, 1] - W[0, 1], W[1, 2] - W[0, 2]
                a10, a11, a12 = W[2, 0] - W[0, 0], W[2, 1] - W[0, 1], W[2, 2] - W[0, 2]
                a20, a21, a22 = W[3, 0] - W[0, 0], W[3, 1] - W[0, 1], W[3, 2] - W[0, 2]
                p0 = P[tets[t, 0]]
                b0, b1, b2 = P[tets[t, 1]] - p0, P[tets[t, 2]] - p0, P[tets[t, 3]] - p0
                det = (a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20)
                       + a02 * (a10 * a21 - a11 * a20))
                if det == 0.0:
                    break
                g0 = (b0 * (a11 * a22 - a12 * a21) - a01 * (b1 * a22 - a12 * b2)
                      + a02 * (b1 * a21 - a11 * b2)) / det
                g1 = (a00 * (b1 * a22 - a12 * b2) - b0 * (a10 * a22 - a12 * a20)
                      + a02 * (a10 * b2 - b1 * a20)) / det
                g2 = (a00 * (a11 * b2 - b1 * a21) - a01 * (a10 * b2 - b1 * a20)
                      + b0 * (a10 * a21 - a11 * a20)) / det
            for k in range(3):
                for c in range(3):
                    buf_a[k, c] = TV[tris[f, k], c]
            m = 3
            for k in range(4):
                if k % 2 == 0:
                    m = _clip(buf_a, m, planes[k, 0], planes[k, 1], planes[k, 2], planes[k, 3],
                              buf_b)
                else:
                    m = _clip(buf_b, m, planes[k, 0], planes[k, 1], planes[k, 2], planes[k, 3],
                              buf_a)
                if m < 3:
                    break
            if m < 3:
                continue
            if nf + 1 > cap_f or nvo + m > cap_v:
                return -1
            for k in range(m):
                x, y, z = buf_a[k, 0], buf_a[k, 1], buf_a[k, 2]
                out_v[nvo, 0], out_v[nvo, 1], out_v[nvo, 2] = x, y, z
                out_p[nvo] = max(0.0, p0 + g0 * (x - W[0, 0]) + g1 * (y - W[0, 1])
                                 + g2 * (z - W[0, 2]))
                nvo += 1
            for c in range(3):
                out_n[nf, c] = sign * tri_n[f, c]
            out_g[nf] = abs(g0 * tri_n[f, 0] + g1 * tri_n[f, 1] + g2 * tri_n[f, 2])
            nf += 1
            out_start[nf] = nvo
    return nf


@kernel(allocates=True, inline=False)
def clip_triangles_in_slab(TV, tris, tri_n, n, o, modulus, thickness, sign, out_v, out_p,
                           out_start, out_n, out_g):
    """Polygons: the parts of a rigid surface's triangles inside the half space
    n·(x - o) <= 0, with the slab pressure E · depth / thickness; normals ``sign * tri_n``."""
    buf_a = np.zeros((12, 3))
    buf_b = np.zeros((12, 3))
    off = n[0] * o[0] + n[1] * o[1] + n[2] * o[2]
    nf = 0
    nvo = 0
    cap_f = out_n.shape[0]
    cap_v = out_v.shape[0]
    out_start[0] = 0
    for f in range(tris.shape[0]):
        for k in range(3):
            for c in range(3):
                buf_a[k, c] = TV[tris[f, k], c]
        m = _clip(buf_a, 3, n[0], n[1], n[2], off, buf_b)
        if m < 3:
            continue
        if nf + 1 > cap_f or nvo + m > cap_v:
            return -1
        for k in range(m):
            out_v[nvo, 0], out_v[nvo, 1], out_v[nvo, 2] = buf_b[k, 0], buf_b[k, 1], buf_b[k, 2]
            depth = off - (n[0] * buf_b[k, 0] + n[1] * buf_b[k, 1] + n[2] * buf_b[k, 2])
            out_p[nvo] = modulus * max(0.0, depth) / thickness
            nvo += 1
        for c in range(3):
            out_n[nf, c] = sign * tri_n[f, c]
        out_g[nf] = abs(modulus / thickness * (n[0] * tri_n[f, 0] + n[1] * tri_n[f, 1]
                                               + n[2] * tri_n[f, 2]))
        nf += 1
        out_start[nf] = nvo
    return nf


@kernel(allocates=True, inline=False)
def polygon_quadrature(nf, start, v, p, area, centroid, p_c):
    """Area, area centroid and centroid pressure of each planar polygon (fan
    triangulation); ``area[f] * p_c[f]`` is the exact integral of the linear pressure."""
    for f in range(nf):
        s0 = start[f]
        a_sum = 0.0
        cx = cy = cz = 0.0
        pint = 0.0
        for k in range(s0 + 1, start[f + 1] - 1):
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
        area[f] = a_sum
        if a_sum > 0.0:
            centroid[f, 0], centroid[f, 1], centroid[f, 2] = cx / a_sum, cy / a_sum, cz / a_sum
            p_c[f] = pint / a_sum
        else:
            centroid[f, 0], centroid[f, 1], centroid[f, 2] = v[s0, 0], v[s0, 1], v[s0, 2]
            p_c[f] = p[s0]


@kernel(allocates=True, inline=False)
def _tet_tables(V, P, tets, G, C, planes, box):
    """Per tet: pressure p(x) = C + G·x, outward face planes (n, off) with n·x <= off
    inside, and the AABB."""
    for t in range(tets.shape[0]):
        g0, g1, g2 = _tet_gradient(V, P, tets, t)
        i0 = tets[t, 0]
        G[t, 0], G[t, 1], G[t, 2] = g0, g1, g2
        C[t] = P[i0] - (g0 * V[i0, 0] + g1 * V[i0, 1] + g2 * V[i0, 2])
        for c in range(3):
            lo, hi = 1e300, -1e300
            for k in range(4):
                x = V[tets[t, k], c]
                lo = min(lo, x)
                hi = max(hi, x)
            box[t, c], box[t, 3 + c] = lo, hi
        for k in range(4):
            a, b, c = tets[t, (k + 1) % 4], tets[t, (k + 2) % 4], tets[t, (k + 3) % 4]
            e1x, e1y, e1z = V[b, 0] - V[a, 0], V[b, 1] - V[a, 1], V[b, 2] - V[a, 2]
            e2x, e2y, e2z = V[c, 0] - V[a, 0], V[c, 1] - V[a, 1], V[c, 2] - V[a, 2]
            nx, ny, nz = e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x
            off = nx * V[a, 0] + ny * V[a, 1] + nz * V[a, 2]
            w = tets[t, k]
            if nx * V[w, 0] + ny * V[w, 1] + nz * V[w, 2] - off > 0.0:
                nx, ny, nz, off = -nx, -ny, -nz, -off
            planes[t, k, 0], planes[t, k, 1], planes[t, k, 2], planes[t, k, 3] = nx, ny, nz, off


@kernel(allocates=True, inline=False)
def equal_pressure_polygons(Va, Pa, tets_a, Vb, Pb, tets_b, out_v, out_p, out_start, out_n,
                            out_g):
    """Compliant-compliant: polygons of the surface p_a = p_b inside both meshes (M = a,
    N = b). In each overlapping tet pair the surface is the plane (∇p_a - ∇p_b)·x =
    C_b - C_a, cut by tet a and clipped by tet b; its normal n ∝ ∇p_a - ∇p_b (out of b
    into a); pairs where the pressures do not both grow into their own geometry along n
    (∇p_a·n <= 0 or ∇p_b·n >= 0) are skipped. ``out_g`` is the series stiffness per area
    g_a g_b / (g_a + g_b) with g = |∇p·n|; pressures are p_a."""
    na, nb = tets_a.shape[0], tets_b.shape[0]
    Ga, Ca, PLa, Ba = np.zeros((na, 3)), np.zeros(na), np.zeros((na, 4, 4)), np.zeros((na, 6))
    Gb, Cb, PLb, Bb = np.zeros((nb, 3)), np.zeros(nb), np.zeros((nb, 4, 4)), np.zeros((nb, 6))
    _tet_tables(Va, Pa, tets_a, Ga, Ca, PLa, Ba)
    _tet_tables(Vb, Pb, tets_b, Gb, Cb, PLb, Bb)
    buf_a = np.zeros((12, 3))
    buf_b = np.zeros((12, 3))
    nf = 0
    nvo = 0
    cap_f = out_n.shape[0]
    cap_v = out_v.shape[0]
    out_start[0] = 0
    for ta in range(na):
        for tb in range(nb):
            if (Ba[ta, 0] > Bb[tb, 3] or Ba[ta, 3] < Bb[tb, 0] or Ba[ta, 1] > Bb[tb, 4]
                    or Ba[ta, 4] < Bb[tb, 1] or Ba[ta, 2] > Bb[tb, 5] or Ba[ta, 5] < Bb[tb, 2]):
                continue
            nx, ny, nz = Ga[ta, 0] - Gb[tb, 0], Ga[ta, 1] - Gb[tb, 1], Ga[ta, 2] - Gb[tb, 2]
            nn = math.sqrt(nx * nx + ny * ny + nz * nz)
            if nn == 0.0:
                continue
            nx, ny, nz = nx / nn, ny / nn, nz / nn
            ga = Ga[ta, 0] * nx + Ga[ta, 1] * ny + Ga[ta, 2] * nz
            gb = Gb[tb, 0] * nx + Gb[tb, 1] * ny + Gb[tb, 2] * nz
            if ga <= 0.0 or gb >= 0.0:
                continue
            off = (Cb[tb] - Ca[ta]) / nn
            # polygon = tet a ∩ plane: start from a large square in the plane, clip by a, b
            ux, uy, uz = (1.0, 0.0, 0.0) if abs(nx) < 0.6 else (0.0, 1.0, 0.0)
            dd = ux * nx + uy * ny + uz * nz
            ux, uy, uz = ux - dd * nx, uy - dd * ny, uz - dd * nz
            un = math.sqrt(ux * ux + uy * uy + uz * uz)
            ux, uy, uz = ux / un, uy / un, uz / un
            wx, wy, wz = ny * uz - nz * uy, nz * ux - nx * uz, nx * uy - ny * ux
            cx, cy, cz = (0.5 * (Ba[ta, 0] + Ba[ta, 3]), 0.5 * (Ba[ta, 1] + Ba[ta, 4]),
                          0.5 * (Ba[ta, 2] + Ba[ta, 5]))
            sc = cx * nx + cy * ny + cz * nz - off
            cx, cy, cz = cx - sc * nx, cy - sc * ny, cz - sc * nz
            L = 2.0 * ((Ba[ta, 3] - Ba[ta, 0]) + (Ba[ta, 4] - Ba[ta, 1]) + (Ba[ta, 5] - Ba[ta, 2]))
            for k in range(4):
                su = L if k == 0 or k == 3 else -L
                sw = L if k < 2 else -L
                buf_a[k, 0] = cx + su * ux + sw * wx
                buf_a[k, 1] = cy + su * uy + sw * wy
                buf_a[k, 2] = cz + su * uz + sw * wz
            # counter-clockwise about n: (u, w, n) right-handed, corners (+,+), (-,+), (-,-), (+,-)
            m = 4
            src_is_a = True
            for k in range(8):
                pl = PLa[ta, k] if k < 4 else PLb[tb, k - 4]
                if src_is_a:
                    m = _clip(buf_a, m, pl[0], pl[1], pl[2], pl[3], buf_b)
                else:
                    m = _clip(buf_b, m, pl[0], pl[1], pl[2], pl[3], buf_a)
                src_is_a = not src_is_a
                if m < 3:
                    break
            if m < 3:
                continue
            if nf + 1 > cap_f or nvo + m > cap_v:
                return -1
            for k in range(m):
                x, y, z = buf_a[k, 0], buf_a[k, 1], buf_a[k, 2]
                out_v[nvo, 0], out_v[nvo, 1], out_v[nvo, 2] = x, y, z
                out_p[nvo] = max(0.0, Ca[ta] + Ga[ta, 0] * x + Ga[ta, 1] * y + Ga[ta, 2] * z)
                nvo += 1
            out_n[nf, 0], out_n[nf, 1], out_n[nf, 2] = nx, ny, nz
            out_g[nf] = ga * (-gb) / (ga - gb)
            nf += 1
            out_start[nf] = nvo
    return nf
