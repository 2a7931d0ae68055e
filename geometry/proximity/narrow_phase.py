"""Narrow phase: signed distance of any supported pair, and the multi-point contact set of
shapes resting on a half space.

``signed_distance_pair`` dispatches on the type codes: closed forms for sphere-sphere,
sphere-box, sphere-capsule, capsule-capsule and any shape against a half space
(`geometry.proximity.primitives`), GJK on the shapes' cores (spheres and capsules are
inflated points and segments) for separated general pairs and EPA for intersecting ones
(`geometry.proximity.gjk_epa`). Two half spaces are not supported.

``halfspace_contact_points`` gives, for a box, convex hull, cylinder or capsule against a
half space, every penetrating vertex (box and hull corners, 8 points on each rim of a
cylinder, the two end caps of a capsule): the contact set that lets a resting body be
supported at several points by point contact. ``box_box_contact_points`` does the same
for two boxes: the corners of each box inside the other, measured along the normal of
the deepest-point (EPA) contact.
"""

import math

import numpy as np

from merganser.framework.compilation import kernel
from .gjk_epa import epa, gjk, gjk_witness
from .primitives import (
    capsule_capsule, shape_halfspace, sphere_box, sphere_capsule, sphere_sphere, write_row,
)
from .support import (
    BOX, CAPSULE, CONVEX, CYLINDER, HALFSPACE, SPHERE, core_radius, support, to_local, to_world,
)


@kernel(allocates=True, inline=False)
def _generic(ta, pa, Xa, tb, pb, Xb, out):
    W = np.zeros((4, 3))
    A = np.zeros((4, 3))
    B = np.zeros((4, 3))
    lam = np.zeros(4)
    ra, rb = core_radius(ta, pa), core_radius(tb, pb)
    n, dist, inter = gjk(ta, pa, Xa, tb, pb, Xb, False, W, A, B, lam)
    if not inter and dist > 1e-9:
        cax, cay, caz, cbx, cby, cbz = gjk_witness(A, B, lam, n)
        nx, ny, nz = (cax - cbx) / dist, (cay - cby) / dist, (caz - cbz) / dist
        write_row(out, cax - ra * nx, cay - ra * ny, caz - ra * nz,
                  cbx + rb * nx, cby + rb * ny, cbz + rb * nz, nx, ny, nz, dist - ra - rb)
        return True
    if ra > 0.0 or rb > 0.0:
        n, dist, inter = gjk(ta, pa, Xa, tb, pb, Xb, True, W, A, B, lam)
    if not epa(ta, pa, Xa, tb, pb, Xb, W, A, B, n, out):
        return False
    out[9] = -out[9]
    return True


@kernel(allocates=True, inline=False)
def _ordered(ta, pa, Xa, tb, pb, Xb, out):
    """Signed distance for ta <= tb."""
    if tb == HALFSPACE:
        if ta == HALFSPACE:
            return False
        shape_halfspace(ta, pa, Xa, Xb, out)
        return True
    if ta == SPHERE:
        if tb == SPHERE:
            sphere_sphere(Xa[0, 3], Xa[1, 3], Xa[2, 3], pa[0], Xb[0, 3], Xb[1, 3], Xb[2, 3],
                          pb[0], out)
            return True
        if tb == BOX:
            sphere_box(Xa[0, 3], Xa[1, 3], Xa[2, 3], pa[0], pb, Xb, out)
            return True
        if tb == CAPSULE:
            sphere_capsule(Xa[0, 3], Xa[1, 3], Xa[2, 3], pa[0], pb, Xb, out)
            return True
    if ta == CAPSULE and tb == CAPSULE:
        capsule_capsule(pa, Xa, pb, Xb, out)
        return True
    return _generic(ta, pa, Xa, tb, pb, Xb, out)


@kernel(allocates=True, inline=False)
def signed_distance_pair(ta, pa, Xa, tb, pb, Xb, out):
    """Signed distance row (see `geometry.proximity.primitives`) of shapes A and B.

    Returns False for an unsupported pair (two half spaces).
    """
    if ta <= tb:
        return _ordered(ta, pa, Xa, tb, pb, Xb, out)
    ok = _ordered(tb, pb, Xb, ta, pa, Xa, out)
    for c in range(3):
        t = out[c]
        out[c] = out[3 + c]
        out[3 + c] = t
        out[6 + c] = -out[6 + c]
    return ok


@kernel(allocates=True, inline=False)
def _push_point(px, py, pz, Xh, rows, k, flip):
    """Append the contact of point p (on the shape) if below the plane of Xh."""
    nx, ny, nz = Xh[0, 2], Xh[1, 2], Xh[2, 2]
    phi = nx * (px - Xh[0, 3]) + ny * (py - Xh[1, 3]) + nz * (pz - Xh[2, 3])
    if phi >= 0.0 or k >= rows.shape[0]:
        return k
    bx, by, bz = px - phi * nx, py - phi * ny, pz - phi * nz
    if flip:
        write_row(rows[k], bx, by, bz, px, py, pz, -nx, -ny, -nz, phi)
    else:
        write_row(rows[k], px, py, pz, bx, by, bz, nx, ny, nz, phi)
    return k + 1


@kernel(allocates=True, inline=False)
def halfspace_contact_points(ts, ps, Xs, Xh, flip, rows, k):
    """Append to rows[k:] the penetrating points of shape S against half space H.

    Returns the new row count, or -1 if the shape has no multi-point rule (then the
    single deepest point applies). With `flip` the rows are written with the half space
    as A.
    """
    if ts == BOX:
        for i in range(8):
            x = ps[0] if i & 1 else -ps[0]
            y = ps[1] if i & 2 else -ps[1]
            z = ps[2] if i & 4 else -ps[2]
            px, py, pz = to_world(Xs, x, y, z)
            k = _push_point(px, py, pz, Xh, rows, k, flip)
        return k
    if ts == CONVEX:
        for i in range(ps.shape[0] // 3):
            px, py, pz = to_world(Xs, ps[3 * i], ps[3 * i + 1], ps[3 * i + 2])
            k = _push_point(px, py, pz, Xh, rows, k, flip)
        return k
    if ts == CYLINDER:
        for s in range(2):
            z = ps[1] if s else -ps[1]
            for i in range(8):
                a = 0.25 * math.pi * i
                px, py, pz = to_world(Xs, ps[0] * math.cos(a), ps[0] * math.sin(a), z)
                k = _push_point(px, py, pz, Xh, rows, k, flip)
        return k
    if ts == SPHERE:
        # the deepest point, center − r n (the signed-distance row of the pair)
        nx, ny, nz = Xh[0, 2], Xh[1, 2], Xh[2, 2]
        return _push_point(Xs[0, 3] - ps[0] * nx, Xs[1, 3] - ps[0] * ny,
                           Xs[2, 3] - ps[0] * nz, Xh, rows, k, flip)
    if ts == CAPSULE:
        nx, ny, nz = Xh[0, 2], Xh[1, 2], Xh[2, 2]
        for s in range(2):
            z = ps[1] if s else -ps[1]
            cx, cy, cz = to_world(Xs, 0.0, 0.0, z)
            k = _push_point(cx - ps[0] * nx, cy - ps[0] * ny, cz - ps[0] * nz, Xh, rows, k,
                            flip)
        return k
    return -1


@kernel(allocates=True, inline=False)
def _inside_box(h, X, px, py, pz, tol):
    """True if the world point p is inside the box (half sizes h) posed at X."""
    lx, ly, lz = to_local(X, px - X[0, 3], py - X[1, 3], pz - X[2, 3])
    return abs(lx) <= h[0] + tol and abs(ly) <= h[1] + tol and abs(lz) <= h[2] + tol


@kernel(allocates=True, inline=False)
def box_box_contact_points(pa, Xa, pb, Xb, deepest, rows, k):
    """Append to rows[k:] the corners of A inside B and of B inside A (A-B row convention,
    the normal of the `deepest` row, depths measured along it). Returns the new row
    count, or -1 when no corner is inside (edge-edge contact: keep the deepest point)."""
    nx, ny, nz = deepest[6], deepest[7], deepest[8]
    # supporting planes: B's farthest point along n (B's face towards A), A's along -n
    sbx, sby, sbz = support(BOX, pb, Xb, nx, ny, nz, True)
    sax, say, saz = support(BOX, pa, Xa, -nx, -ny, -nz, True)
    tol = 1e-9 + 1e-6 * max(pa[0], max(pb[0], 1e-3))
    k0 = k
    for side in range(2):
        h, X, ho, Xo = (pa, Xa, pb, Xb) if side == 0 else (pb, Xb, pa, Xa)
        for i in range(8):
            if k >= rows.shape[0]:
                return k
            x = h[0] if i & 1 else -h[0]
            y = h[1] if i & 2 else -h[1]
            z = h[2] if i & 4 else -h[2]
            px, py, pz = to_world(X, x, y, z)
            if not _inside_box(ho, Xo, px, py, pz, tol):
                continue
            if side == 0:       # corner of A: depth below B's face
                depth = -(nx * (px - sbx) + ny * (py - sby) + nz * (pz - sbz))
            else:               # corner of B: depth beyond A's face
                depth = nx * (px - sax) + ny * (py - say) + nz * (pz - saz)
            if depth <= 0.0:
                continue
            dup = False
            for r in range(k0, k):
                cx = rows[r, 0] if side == 1 else rows[r, 3]
                cy = rows[r, 1] if side == 1 else rows[r, 4]
                cz = rows[r, 2] if side == 1 else rows[r, 5]
                if abs(cx - px) + abs(cy - py) + abs(cz - pz) < tol:
                    dup = True
            if dup:
                continue
            if side == 0:       # Ca = corner, Cb = Ca + depth n
                write_row(rows[k], px, py, pz, px + depth * nx, py + depth * ny,
                          pz + depth * nz, nx, ny, nz, -depth)
            else:               # Cb = corner, Ca = Cb - depth n
                write_row(rows[k], px - depth * nx, py - depth * ny, pz - depth * nz,
                          px, py, pz, nx, ny, nz, -depth)
            k += 1
    return k if k > k0 else -1
