"""Closed-form signed distance of primitive pairs, in world.

Every function writes the result row ``out`` (10,): out[0:3] = Ca (witness on A),
out[3:6] = Cb (witness on B), out[6:9] = nhat_BA_W (unit, from B towards A),
out[9] = φ, the signed distance (negative when penetrating, then -φ is the depth). The
witnesses satisfy Ca - Cb = φ nhat_BA_W.
"""

import math

from merganser.framework.compilation import kernel
from .support import support, to_local, to_world


@kernel(allocates=True, inline=False)
def write_row(out, ax, ay, az, bx, by, bz, nx, ny, nz, phi):
    out[0], out[1], out[2] = ax, ay, az
    out[3], out[4], out[5] = bx, by, bz
    out[6], out[7], out[8] = nx, ny, nz
    out[9] = phi


@kernel(allocates=True, inline=False)
def sphere_sphere(ax, ay, az, ra, bx, by, bz, rb, out):
    """Spheres (centre a, radius ra) and (centre b, radius rb)."""
    dx, dy, dz = ax - bx, ay - by, az - bz
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d > 1e-15:
        nx, ny, nz = dx / d, dy / d, dz / d
    else:
        nx, ny, nz = 0.0, 0.0, 1.0
    write_row(out, ax - ra * nx, ay - ra * ny, az - ra * nz,
              bx + rb * nx, by + rb * ny, bz + rb * nz, nx, ny, nz, d - ra - rb)


@kernel(allocates=True, inline=False)
def shape_halfspace(ta, pa, Xa, Xh, out):
    """Any convex shape A against the half space H (z <= 0 of frame H)."""
    nx, ny, nz = Xh[0, 2], Xh[1, 2], Xh[2, 2]
    sx, sy, sz = support(ta, pa, Xa, -nx, -ny, -nz, True)
    phi = nx * (sx - Xh[0, 3]) + ny * (sy - Xh[1, 3]) + nz * (sz - Xh[2, 3])
    write_row(out, sx, sy, sz, sx - phi * nx, sy - phi * ny, sz - phi * nz, nx, ny, nz, phi)


@kernel(allocates=True, inline=False)
def sphere_box(cx, cy, cz, r, hb, Xb, out):
    """Sphere (centre c, radius r) against box B (half sizes hb) posed at Xb."""
    dx, dy, dz = cx - Xb[0, 3], cy - Xb[1, 3], cz - Xb[2, 3]
    lx, ly, lz = to_local(Xb, dx, dy, dz)
    qx = min(max(lx, -hb[0]), hb[0])
    qy = min(max(ly, -hb[1]), hb[1])
    qz = min(max(lz, -hb[2]), hb[2])
    ex, ey, ez = lx - qx, ly - qy, lz - qz
    d = math.sqrt(ex * ex + ey * ey + ez * ez)
    if d > 1e-15:
        mx, my, mz = ex / d, ey / d, ez / d
        phi = d - r
    else:
        # centre inside the box: leave through the nearest face
        gx, gy, gz = hb[0] - abs(lx), hb[1] - abs(ly), hb[2] - abs(lz)
        mx, my, mz = 0.0, 0.0, 0.0
        if gx <= gy and gx <= gz:
            mx = 1.0 if lx >= 0.0 else -1.0
            qx = mx * hb[0]
            g = gx
        elif gy <= gz:
            my = 1.0 if ly >= 0.0 else -1.0
            qy = my * hb[1]
            g = gy
        else:
            mz = 1.0 if lz >= 0.0 else -1.0
            qz = mz * hb[2]
            g = gz
        phi = -g - r
    nx = Xb[0, 0] * mx + Xb[0, 1] * my + Xb[0, 2] * mz
    ny = Xb[1, 0] * mx + Xb[1, 1] * my + Xb[1, 2] * mz
    nz = Xb[2, 0] * mx + Xb[2, 1] * my + Xb[2, 2] * mz
    bx, by, bz = to_world(Xb, qx, qy, qz)
    write_row(out, cx - r * nx, cy - r * ny, cz - r * nz, bx, by, bz, nx, ny, nz, phi)


@kernel(allocates=True, inline=False)
def segment_of(X, hl):
    """End points of the core segment (±hl along z) of a capsule posed at X."""
    return (X[0, 3] - hl * X[0, 2], X[1, 3] - hl * X[1, 2], X[2, 3] - hl * X[2, 2],
            X[0, 3] + hl * X[0, 2], X[1, 3] + hl * X[1, 2], X[2, 3] + hl * X[2, 2])


@kernel(allocates=True, inline=False)
def closest_on_segment(px, py, pz, ax, ay, az, bx, by, bz):
    """Closest point to p on segment [a, b]."""
    ux, uy, uz = bx - ax, by - ay, bz - az
    uu = ux * ux + uy * uy + uz * uz
    t = 0.0
    if uu > 0.0:
        t = ((px - ax) * ux + (py - ay) * uy + (pz - az) * uz) / uu
        t = min(max(t, 0.0), 1.0)
    return ax + t * ux, ay + t * uy, az + t * uz


@kernel(allocates=True, inline=False)
def _clamp01(x):
    return min(max(x, 0.0), 1.0)


@kernel(allocates=True, inline=False)
def closest_segment_segment(p1x, p1y, p1z, q1x, q1y, q1z, p2x, p2y, p2z, q2x, q2y, q2z):
    """Closest points (c1 on [p1, q1], c2 on [p2, q2]) of two segments."""
    d1x, d1y, d1z = q1x - p1x, q1y - p1y, q1z - p1z
    d2x, d2y, d2z = q2x - p2x, q2y - p2y, q2z - p2z
    rx, ry, rz = p1x - p2x, p1y - p2y, p1z - p2z
    a = d1x * d1x + d1y * d1y + d1z * d1z
    e = d2x * d2x + d2y * d2y + d2z * d2z
    f = d2x * rx + d2y * ry + d2z * rz
    eps = 1e-30
    if a <= eps and e <= eps:
        s, t = 0.0, 0.0
    elif a <= eps:
        s = 0.0
        t = _clamp01(f / e)
    else:
        c = d1x * rx + d1y * ry + d1z * rz
        if e <= eps:
            t = 0.0
            s = _clamp01(-c / a)
        else:
            b = d1x * d2x + d1y * d2y + d1z * d2z
            den = a * e - b * b
            s = _clamp01((b * f - c * e) / den) if den > 1e-14 * a * e else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                t = 0.0
                s = _clamp01(-c / a)
            elif t > 1.0:
                t = 1.0
                s = _clamp01((b - c) / a)
    return (p1x + s * d1x, p1y + s * d1y, p1z + s * d1z,
            p2x + t * d2x, p2y + t * d2y, p2z + t * d2z)


@kernel(allocates=True, inline=False)
def sphere_capsule(cx, cy, cz, ra, pb, Xb, out):
    """Sphere (centre c, radius ra) against capsule B (params [r, hl]) posed at Xb."""
    ax, ay, az, bx, by, bz = segment_of(Xb, pb[1])
    qx, qy, qz = closest_on_segment(cx, cy, cz, ax, ay, az, bx, by, bz)
    sphere_sphere(cx, cy, cz, ra, qx, qy, qz, pb[0], out)


@kernel(allocates=True, inline=False)
def capsule_capsule(pa, Xa, pb, Xb, out):
    """Capsules A and B (params [r, hl]) posed at Xa and Xb."""
    a0x, a0y, a0z, a1x, a1y, a1z = segment_of(Xa, pa[1])
    b0x, b0y, b0z, b1x, b1y, b1z = segment_of(Xb, pb[1])
    cax, cay, caz, cbx, cby, cbz = closest_segment_segment(
        a0x, a0y, a0z, a1x, a1y, a1z, b0x, b0y, b0z, b1x, b1y, b1z)
    dx, dy, dz = cax - cbx, cay - cby, caz - cbz
    if dx * dx + dy * dy + dz * dz > 1e-24:
        sphere_sphere(cax, cay, caz, pa[0], cbx, cby, cbz, pb[0], out)
        return
    # Crossing core segments: separate along the common perpendicular.
    ux, uy, uz = Xa[0, 2], Xa[1, 2], Xa[2, 2]
    vx, vy, vz = Xb[0, 2], Xb[1, 2], Xb[2, 2]
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if ln < 1e-12:
        nx, ny, nz = (1.0, 0.0, 0.0) if abs(ux) < 0.9 else (0.0, 1.0, 0.0)
        ln = 1.0
    nx, ny, nz = nx / ln, ny / ln, nz / ln
    if nx * (Xa[0, 3] - Xb[0, 3]) + ny * (Xa[1, 3] - Xb[1, 3]) + nz * (Xa[2, 3] - Xb[2, 3]) < 0.0:
        nx, ny, nz = -nx, -ny, -nz
    write_row(out, cax - pa[0] * nx, cay - pa[0] * ny, caz - pa[0] * nz,
              cbx + pb[0] * nx, cby + pb[0] * ny, cbz + pb[0] * nz, nx, ny, nz,
              -pa[0] - pb[0])
