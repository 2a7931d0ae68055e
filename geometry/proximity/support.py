"""Support mappings of the convex shapes, in world, for GJK/EPA and half-space tests.

A shape is (type code, params, X_WG): the codes and parameter layouts are those of
`geometry.shapes` (``kernel_params``): sphere [r], box [hx, hy, hz], cylinder [r, hl],
capsule [r, hl], ellipsoid [a, b, c], convex [x0 y0 z0 x1 ...] (hull vertices in G).
``support(t, prm, X, d)`` returns the point of the shape farthest along the world
direction d (not necessarily unit).

Spheres and capsules are "inflated cores": a point or a segment plus a radius.
``core_support`` gives the support of the core and ``core_radius`` its radius, so that GJK
can work on the cores and add the radii (exact and robust for round shapes).
"""

import math

from merganser.framework.compilation import kernel

SPHERE, BOX, CYLINDER, CAPSULE, ELLIPSOID, HALFSPACE, CONVEX = 0, 1, 2, 3, 4, 5, 6


@kernel(allocates=True, inline=False)
def to_local(X, dx, dy, dz):
    """R_WGᵀ d: a world direction expressed in G."""
    return (X[0, 0] * dx + X[1, 0] * dy + X[2, 0] * dz,
            X[0, 1] * dx + X[1, 1] * dy + X[2, 1] * dz,
            X[0, 2] * dx + X[1, 2] * dy + X[2, 2] * dz)


@kernel(allocates=True, inline=False)
def to_world(X, x, y, z):
    """X_WG p_G: a point of G in world."""
    return (X[0, 0] * x + X[0, 1] * y + X[0, 2] * z + X[0, 3],
            X[1, 0] * x + X[1, 1] * y + X[1, 2] * z + X[1, 3],
            X[2, 0] * x + X[2, 1] * y + X[2, 2] * z + X[2, 3])


@kernel(allocates=True, inline=False)
def _sgn(x):
    return 1.0 if x >= 0.0 else -1.0


@kernel(allocates=True, inline=False)
def local_support(t, prm, lx, ly, lz, with_radius):
    """Support point in G along the G direction (lx, ly, lz)."""
    if t == BOX:
        return _sgn(lx) * prm[0], _sgn(ly) * prm[1], _sgn(lz) * prm[2]
    if t == SPHERE or t == CAPSULE:
        x, y, z = 0.0, 0.0, 0.0
        if t == CAPSULE:
            z = _sgn(lz) * prm[1]
        if with_radius:
            n = math.sqrt(lx * lx + ly * ly + lz * lz)
            if n > 0.0:
                r = prm[0] / n
                x += r * lx
                y += r * ly
                z += r * lz
        return x, y, z
    if t == CYLINDER:
        rho = math.sqrt(lx * lx + ly * ly)
        x, y = 0.0, 0.0
        if rho > 0.0:
            x = prm[0] * lx / rho
            y = prm[0] * ly / rho
        return x, y, _sgn(lz) * prm[1]
    if t == ELLIPSOID:
        a2x = prm[0] * prm[0] * lx
        b2y = prm[1] * prm[1] * ly
        c2z = prm[2] * prm[2] * lz
        s = math.sqrt(a2x * lx + b2y * ly + c2z * lz)
        if s == 0.0:
            return prm[0], 0.0, 0.0
        return a2x / s, b2y / s, c2z / s
    # CONVEX: farthest hull vertex
    nv = prm.shape[0] // 3
    best = -1e300
    bi = 0
    for i in range(nv):
        d = prm[3 * i] * lx + prm[3 * i + 1] * ly + prm[3 * i + 2] * lz
        if d > best:
            best = d
            bi = i
    return prm[3 * bi], prm[3 * bi + 1], prm[3 * bi + 2]


@kernel(allocates=True, inline=False)
def support(t, prm, X, dx, dy, dz, with_radius):
    """World support point of shape (t, prm) posed at X along world direction d."""
    lx, ly, lz = to_local(X, dx, dy, dz)
    sx, sy, sz = local_support(t, prm, lx, ly, lz, with_radius)
    return to_world(X, sx, sy, sz)


@kernel(allocates=True, inline=False)
def core_radius(t, prm):
    """Radius of the inflated core (spheres and capsules), else 0."""
    if t == SPHERE or t == CAPSULE:
        return prm[0]
    return 0.0


@kernel(allocates=True, inline=False)
def bounding_radius(t, prm):
    """Radius of a sphere about Go containing the shape (inf for a half space)."""
    if t == SPHERE:
        return prm[0]
    if t == BOX:
        return math.sqrt(prm[0] * prm[0] + prm[1] * prm[1] + prm[2] * prm[2])
    if t == CYLINDER:
        return math.sqrt(prm[0] * prm[0] + prm[1] * prm[1])
    if t == CAPSULE:
        return prm[0] + prm[1]
    if t == ELLIPSOID:
        return max(prm[0], max(prm[1], prm[2]))
    if t == HALFSPACE:
        return math.inf
    r2 = 0.0
    for i in range(prm.shape[0] // 3):
        d = prm[3 * i] ** 2 + prm[3 * i + 1] ** 2 + prm[3 * i + 2] ** 2
        if d > r2:
            r2 = d
    return math.sqrt(r2)


@kernel(allocates=True, inline=False)
def half_extent_along(t, prm, X, ax, ay, az):
    """Half width of the shape's extent along the world unit axis a (for AABBs)."""
    sx, sy, sz = support(t, prm, X, ax, ay, az, True)
    return (sx - X[0, 3]) * ax + (sy - X[1, 3]) * ay + (sz - X[2, 3]) * az
