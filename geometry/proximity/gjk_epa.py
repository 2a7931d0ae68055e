"""GJK distance and EPA penetration between two convex shapes given by support mappings.

Both work on the Minkowski difference A - B = {a - b}: its point closest to the origin
gives the distance and the witness points of separated shapes (GJK, Gilbert, Johnson &
Keerthi 1988); for intersecting shapes the expanding polytope algorithm grows a
polytope inside A - B until its face nearest the origin lies on the boundary, which
gives the penetration depth and direction (van den Bergen 2001).

Results follow the query conventions: witness points Ca on A and Cb on B, and the unit
normal ``nhat_BA_W`` pointing from B towards A (the direction that moves A out of B).

References
----------
E. G. Gilbert, D. W. Johnson, S. S. Keerthi, "A fast procedure for computing the distance
between complex objects in three-dimensional space", IEEE J. Robotics and Automation, 1988.
G. van den Bergen, "Proximity queries and penetration depth computation on 3D game
objects", GDC 2001.
"""

import math

import numpy as np

from merganser.framework.compilation import kernel
from .support import support

_MAX_V = 160
_MAX_F = 320


@kernel(allocates=True, inline=False)
def _closest_on_subset(W, idx, k, lam):
    """Projection of the origin on the affine hull of W[idx[:k]]; barycentric weights into
    lam[:k]. Returns (ok, px, py, pz) with ok False if degenerate or outside the face."""
    i0 = idx[0]
    if k == 1:
        lam[0] = 1.0
        return True, W[i0, 0], W[i0, 1], W[i0, 2]
    # e_j = W[idx[j]] - W[i0]; solve G mu = -E^T w0
    G = np.zeros((3, 3))
    r = np.zeros(3)
    for a in range(1, k):
        ia = idx[a]
        for b in range(1, k):
            ib = idx[b]
            s = 0.0
            for c in range(3):
                s += (W[ia, c] - W[i0, c]) * (W[ib, c] - W[i0, c])
            G[a - 1, b - 1] = s
        s = 0.0
        for c in range(3):
            s += (W[ia, c] - W[i0, c]) * W[i0, c]
        r[a - 1] = -s
    m = k - 1
    mu = np.zeros(3)
    if m == 1:
        if G[0, 0] <= 1e-30:
            return False, 0.0, 0.0, 0.0
        mu[0] = r[0] / G[0, 0]
    elif m == 2:
        det = G[0, 0] * G[1, 1] - G[0, 1] * G[1, 0]
        if abs(det) <= 1e-24 * (G[0, 0] * G[1, 1] + 1e-300):
            return False, 0.0, 0.0, 0.0
        mu[0] = (r[0] * G[1, 1] - G[0, 1] * r[1]) / det
        mu[1] = (G[0, 0] * r[1] - r[0] * G[1, 0]) / det
    else:
        det = (G[0, 0] * (G[1, 1] * G[2, 2] - G[1, 2] * G[2, 1])
               - G[0, 1] * (G[1, 0] * G[2, 2] - G[1, 2] * G[2, 0])
               + G[0, 2] * (G[1, 0] * G[2, 1] - G[1, 1] * G[2, 0]))
        scale = G[0, 0] * G[1, 1] * G[2, 2] + 1e-300
        if abs(det) <= 1e-18 * scale:
            return False, 0.0, 0.0, 0.0
        for j in range(3):
            M = G.copy()
            for row in range(3):
                M[row, j] = r[row]
            mu[j] = (M[0, 0] * (M[1, 1] * M[2, 2] - M[1, 2] * M[2, 1])
                     - M[0, 1] * (M[1, 0] * M[2, 2] - M[1, 2] * M[2, 0])
                     + M[0, 2] * (M[1, 0] * M[2, 1] - M[1, 1] * M[2, 0])) / det
    l0 = 1.0
    for j in range(m):
        l0 -= mu[j]
    lam[0] = l0
    for j in range(m):
        lam[j + 1] = mu[j]
    for j in range(k):
        if lam[j] < -1e-12:
            return False, 0.0, 0.0, 0.0
    px, py, pz = 0.0, 0.0, 0.0
    for j in range(k):
        ij = idx[j]
        px += lam[j] * W[ij, 0]
        py += lam[j] * W[ij, 1]
        pz += lam[j] * W[ij, 2]
    return True, px, py, pz


@kernel(allocates=True, inline=False)
def _reduce_simplex(W, A, B, n, lam_out):
    """Closest point of the simplex W[:n] to the origin; keeps only its support set.

    Returns (new_n, vx, vy, vz). lam_out[:new_n] holds the barycentric weights.
    """
    idx = np.zeros(4, np.int64)
    lam = np.zeros(4)
    best = 1e300
    best_mask = 0
    bx, by, bz = 0.0, 0.0, 0.0
    best_lam = np.zeros(4)
    for mask in range(1, 1 << n):
        k = 0
        for j in range(n):
            if mask & (1 << j):
                idx[k] = j
                k += 1
        ok, px, py, pz = _closest_on_subset(W, idx, k, lam)
        if ok:
            d = px * px + py * py + pz * pz
            if d < best - 1e-300:
                best = d
                best_mask = mask
                bx, by, bz = px, py, pz
                for j in range(k):
                    best_lam[j] = lam[j]
    k = 0
    for j in range(n):
        if best_mask & (1 << j):
            for c in range(3):
                W[k, c] = W[j, c]
                A[k, c] = A[j, c]
                B[k, c] = B[j, c]
            lam_out[k] = best_lam[k]
            k += 1
    return k, bx, by, bz


@kernel(allocates=True, inline=False)
def gjk(ta, pa, Xa, tb, pb, Xb, with_radius, W, A, B, lam):
    """GJK on shapes A and B (with or without their core radius).

    W, A, B : (4, 3) work arrays that receive the final simplex (Minkowski points and the
    support points of A and B); lam (4,) its barycentric weights.

    Returns
    -------
    (n, dist, intersecting)
        Number of simplex points, the distance between the shapes (0 when intersecting)
        and whether they intersect.
    """
    vx = Xa[0, 3] - Xb[0, 3]
    vy = Xa[1, 3] - Xb[1, 3]
    vz = Xa[2, 3] - Xb[2, 3]
    if vx * vx + vy * vy + vz * vz < 1e-24:
        vx, vy, vz = 1.0, 0.0, 0.0
    n = 0
    vv = vx * vx + vy * vy + vz * vz
    for _ in range(96):
        ax, ay, az = support(ta, pa, Xa, -vx, -vy, -vz, with_radius)
        bx, by, bz = support(tb, pb, Xb, vx, vy, vz, with_radius)
        wx, wy, wz = ax - bx, ay - by, az - bz
        if n > 0:
            vw = vx * wx + vy * wy + vz * wz
            if vv - vw <= 1e-12 * vv + 1e-20:
                return n, math.sqrt(vv), False
            dup = False
            for j in range(n):
                if (abs(W[j, 0] - wx) + abs(W[j, 1] - wy) + abs(W[j, 2] - wz)) < 1e-14:
                    dup = True
            if dup:
                return n, math.sqrt(vv), False
        W[n, 0], W[n, 1], W[n, 2] = wx, wy, wz
        A[n, 0], A[n, 1], A[n, 2] = ax, ay, az
        B[n, 0], B[n, 1], B[n, 2] = bx, by, bz
        n += 1
        n, vx, vy, vz = _reduce_simplex(W, A, B, n, lam)
        vv = vx * vx + vy * vy + vz * vz
        if n == 4 or vv < 1e-24:
            return n, 0.0, True
    return n, math.sqrt(vv), False


@kernel(allocates=True, inline=False)
def gjk_witness(A, B, lam, n):
    """Witness points (Ca, Cb) from the final GJK simplex."""
    cax, cay, caz, cbx, cby, cbz = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    for j in range(n):
        cax += lam[j] * A[j, 0]
        cay += lam[j] * A[j, 1]
        caz += lam[j] * A[j, 2]
        cbx += lam[j] * B[j, 0]
        cby += lam[j] * B[j, 1]
        cbz += lam[j] * B[j, 2]
    return cax, cay, caz, cbx, cby, cbz


@kernel(allocates=True, inline=False)
def _face_setup(V, faces, normals, dist, f, cx, cy, cz):
    """Normal and origin distance of face f, oriented away from the interior point c."""
    i, j, k = faces[f, 0], faces[f, 1], faces[f, 2]
    ex, ey, ez = V[j, 0] - V[i, 0], V[j, 1] - V[i, 1], V[j, 2] - V[i, 2]
    fx, fy, fz = V[k, 0] - V[i, 0], V[k, 1] - V[i, 1], V[k, 2] - V[i, 2]
    nx, ny, nz = ey * fz - ez * fy, ez * fx - ex * fz, ex * fy - ey * fx
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if ln < 1e-30:
        normals[f, 0], normals[f, 1], normals[f, 2] = 0.0, 0.0, 0.0
        dist[f] = 1e300
        return False
    nx, ny, nz = nx / ln, ny / ln, nz / ln
    if nx * (V[i, 0] - cx) + ny * (V[i, 1] - cy) + nz * (V[i, 2] - cz) < 0.0:
        faces[f, 1], faces[f, 2] = k, j
        nx, ny, nz = -nx, -ny, -nz
    normals[f, 0], normals[f, 1], normals[f, 2] = nx, ny, nz
    dist[f] = nx * V[i, 0] + ny * V[i, 1] + nz * V[i, 2]
    return True


@kernel(allocates=True, inline=False)
def _push_support(ta, pa, Xa, tb, pb, Xb, dx, dy, dz, V, VA, VB, nv):
    ax, ay, az = support(ta, pa, Xa, dx, dy, dz, True)
    bx, by, bz = support(tb, pb, Xb, -dx, -dy, -dz, True)
    V[nv, 0], V[nv, 1], V[nv, 2] = ax - bx, ay - by, az - bz
    VA[nv, 0], VA[nv, 1], VA[nv, 2] = ax, ay, az
    VB[nv, 0], VB[nv, 1], VB[nv, 2] = bx, by, bz


@kernel(allocates=True, inline=False)
def _perpendicular(x, y, z):
    if abs(x) < 0.6:
        px, py, pz = 0.0, -z, y
    else:
        px, py, pz = -z, 0.0, x
    ln = math.sqrt(px * px + py * py + pz * pz)
    return px / ln, py / ln, pz / ln


@kernel(allocates=True, inline=False)
def epa(ta, pa, Xa, tb, pb, Xb, W, A, B, n, out):
    """Penetration of intersecting shapes from the GJK simplex W[:n] (with radii).

    Writes out[0:3] = Ca, out[3:6] = Cb, out[6:9] = nhat_BA_W, out[9] = depth.
    Returns True on success.
    """
    V = np.zeros((_MAX_V, 3))
    VA = np.zeros((_MAX_V, 3))
    VB = np.zeros((_MAX_V, 3))
    for j in range(n):
        for c in range(3):
            V[j, c] = W[j, c]
            VA[j, c] = A[j, c]
            VB[j, c] = B[j, c]
    nv = n
    # Blow a degenerate simplex up to a tetrahedron.
    if nv == 1:
        _push_support(ta, pa, Xa, tb, pb, Xb, 1.0, 0.0, 0.0, V, VA, VB, nv)
        nv += 1
        if abs(V[1, 0] - V[0, 0]) + abs(V[1, 1] - V[0, 1]) + abs(V[1, 2] - V[0, 2]) < 1e-14:
            _push_support(ta, pa, Xa, tb, pb, Xb, -1.0, 0.0, 0.0, V, VA, VB, 1)
    if nv == 2:
        ex, ey, ez = V[1, 0] - V[0, 0], V[1, 1] - V[0, 1], V[1, 2] - V[0, 2]
        px, py, pz = _perpendicular(ex, ey, ez)
        _push_support(ta, pa, Xa, tb, pb, Xb, px, py, pz, V, VA, VB, nv)
        nv += 1
    if nv == 3:
        ex, ey, ez = V[1, 0] - V[0, 0], V[1, 1] - V[0, 1], V[1, 2] - V[0, 2]
        fx, fy, fz = V[2, 0] - V[0, 0], V[2, 1] - V[0, 1], V[2, 2] - V[0, 2]
        nx, ny, nz = ey * fz - ez * fy, ez * fx - ex * fz, ex * fy - ey * fx
        ln = math.sqrt(nx * nx + ny * ny + nz * nz)
        if ln < 1e-30:
            return False
        _push_support(ta, pa, Xa, tb, pb, Xb, nx / ln, ny / ln, nz / ln, V, VA, VB, nv)
        d1 = abs((V[3, 0] - V[0, 0]) * nx + (V[3, 1] - V[0, 1]) * ny + (V[3, 2] - V[0, 2]) * nz)
        if d1 < 1e-14 * ln:
            _push_support(ta, pa, Xa, tb, pb, Xb, -nx / ln, -ny / ln, -nz / ln, V, VA, VB, nv)
        nv += 1
    cx = 0.25 * (V[0, 0] + V[1, 0] + V[2, 0] + V[3, 0])
    cy = 0.25 * (V[0, 1] + V[1, 1] + V[2, 1] + V[3, 1])
    cz = 0.25 * (V[0, 2] + V[1, 2] + V[2, 2] + V[3, 2])
    faces = np.zeros((_MAX_F, 3), np.int64)
    normals = np.zeros((_MAX_F, 3))
    dist = np.zeros(_MAX_F)
    alive = np.zeros(_MAX_F, np.bool_)
    init = ((0, 1, 2), (0, 3, 1), (0, 2, 3), (1, 3, 2))
    nf = 0
    for tri in init:
        faces[nf, 0], faces[nf, 1], faces[nf, 2] = tri[0], tri[1], tri[2]
        alive[nf] = _face_setup(V, faces, normals, dist, nf, cx, cy, cz)
        nf += 1
    edges = np.zeros((3 * _MAX_F, 2), np.int64)
    best = -1
    for _ in range(100):
        best = -1
        bd = 1e300
        for f in range(nf):
            if alive[f] and dist[f] < bd:
                bd = dist[f]
                best = f
        if best < 0:
            return False
        nx, ny, nz = normals[best, 0], normals[best, 1], normals[best, 2]
        if nv >= _MAX_V:
            break
        _push_support(ta, pa, Xa, tb, pb, Xb, nx, ny, nz, V, VA, VB, nv)
        dw = nx * V[nv, 0] + ny * V[nv, 1] + nz * V[nv, 2]
        if dw - bd <= 1e-10 + 1e-7 * abs(bd):
            break
        # Remove the faces visible from the new point; collect the horizon.
        ne = 0
        for f in range(nf):
            if not alive[f]:
                continue
            i0 = faces[f, 0]
            if (normals[f, 0] * (V[nv, 0] - V[i0, 0]) + normals[f, 1] * (V[nv, 1] - V[i0, 1])
                    + normals[f, 2] * (V[nv, 2] - V[i0, 2])) > 1e-14:
                alive[f] = False
                for e in range(3):
                    a = faces[f, e]
                    b = faces[f, (e + 1) % 3]
                    found = -1
                    for q in range(ne):
                        if edges[q, 0] == b and edges[q, 1] == a:
                            found = q
                            break
                    if found >= 0:
                        ne -= 1
                        edges[found, 0] = edges[ne, 0]
                        edges[found, 1] = edges[ne, 1]
                    else:
                        edges[ne, 0] = a
                        edges[ne, 1] = b
                        ne += 1
        if nf + ne > _MAX_F:
            break
        for q in range(ne):
            faces[nf, 0], faces[nf, 1], faces[nf, 2] = edges[q, 0], edges[q, 1], nv
            alive[nf] = _face_setup(V, faces, normals, dist, nf, cx, cy, cz)
            nf += 1
        nv += 1
    f = best
    nx, ny, nz = normals[f, 0], normals[f, 1], normals[f, 2]
    d = dist[f]
    # Barycentric coordinates of the projection d n of the origin on face f.
    i, j, k = faces[f, 0], faces[f, 1], faces[f, 2]
    px, py, pz = d * nx, d * ny, d * nz
    v0x, v0y, v0z = V[j, 0] - V[i, 0], V[j, 1] - V[i, 1], V[j, 2] - V[i, 2]
    v1x, v1y, v1z = V[k, 0] - V[i, 0], V[k, 1] - V[i, 1], V[k, 2] - V[i, 2]
    v2x, v2y, v2z = px - V[i, 0], py - V[i, 1], pz - V[i, 2]
    d00 = v0x * v0x + v0y * v0y + v0z * v0z
    d01 = v0x * v1x + v0y * v1y + v0z * v1z
    d11 = v1x * v1x + v1y * v1y + v1z * v1z
    d20 = v2x * v0x + v2y * v0y + v2z * v0z
    d21 = v2x * v1x + v2y * v1y + v2z * v1z
    den = d00 * d11 - d01 * d01
    if abs(den) < 1e-300:
        l1, l2 = 0.0, 0.0
    else:
        l1 = (d11 * d20 - d01 * d21) / den
        l2 = (d00 * d21 - d01 * d20) / den
    l0 = 1.0 - l1 - l2
    for c in range(3):
        out[c] = l0 * VA[i, c] + l1 * VA[j, c] + l2 * VA[k, c]
        out[3 + c] = l0 * VB[i, c] + l1 * VB[j, c] + l2 * VB[k, c]
    # A - B boundary point p = d n: moving A by -d n separates, so nhat_BA = -n.
    out[6], out[7], out[8] = -nx, -ny, -nz
    out[9] = max(d, 0.0)
    return True
