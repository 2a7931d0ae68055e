"""Small spatial-algebra helpers on 6-tuples, compiled with numba.

Spatial vectors are handled as tuples ``(wx, wy, wz, vx, vy, vz)`` ([rotational;
translational]) so that numba keeps them in registers. The pose used by a transform is
read from a workspace row: ``R = R_PB`` (row-major, ``ws[k, WS_R:WS_R+9]``) and
``p = p_PoBo_P`` (``ws[k, WS_P:WS_P+3]``), the pose of node k's body B in its parent P.

All helpers are type-generic: they run on float64 and on complex128 (complex-step
derivatives) workspaces.

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, chapter 2.
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import WS_P, WS_R

__all__ = [
    "load6", "store6", "store9", "add6", "sub6", "scale6", "dot6",
    "cross_motion", "cross_force",
    "motion_to_child", "force_to_parent", "rotate6", "rotate6_transpose",
    "inertia_times_motion",
]


@kernel
def load6(a, row, off):
    """Return ``a[row, off:off+6]`` as a 6-tuple."""
    return (a[row, off], a[row, off + 1], a[row, off + 2],
            a[row, off + 3], a[row, off + 4], a[row, off + 5])


@kernel
def store6(a, row, off, x):
    """Write the 6-tuple `x` into ``a[row, off:off+6]``."""
    a[row, off] = x[0]
    a[row, off + 1] = x[1]
    a[row, off + 2] = x[2]
    a[row, off + 3] = x[3]
    a[row, off + 4] = x[4]
    a[row, off + 5] = x[5]


@kernel
def store9(a, row, off, R):
    """Write the 9-tuple `R` into ``a[row, off:off+9]``."""
    a[row, off] = R[0]
    a[row, off + 1] = R[1]
    a[row, off + 2] = R[2]
    a[row, off + 3] = R[3]
    a[row, off + 4] = R[4]
    a[row, off + 5] = R[5]
    a[row, off + 6] = R[6]
    a[row, off + 7] = R[7]
    a[row, off + 8] = R[8]


@kernel
def add6(x, y):
    """Return ``x + y``."""
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3], x[4] + y[4], x[5] + y[5])


@kernel
def sub6(x, y):
    """Return ``x - y``."""
    return (x[0] - y[0], x[1] - y[1], x[2] - y[2], x[3] - y[3], x[4] - y[4], x[5] - y[5])


@kernel
def scale6(s, x):
    """Return ``s * x``."""
    return (s * x[0], s * x[1], s * x[2], s * x[3], s * x[4], s * x[5])


@kernel
def dot6(x, y):
    """Return the dot product ``x . y``."""
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3] + x[4] * y[4] + x[5] * y[5]


@kernel
def cross_motion(m, n):
    """Return the motion cross product ``m x n`` = [w x nw; w x nv + v x nw]."""
    wx, wy, wz, vx, vy, vz = m
    return (wy * n[2] - wz * n[1],
            wz * n[0] - wx * n[2],
            wx * n[1] - wy * n[0],
            wy * n[5] - wz * n[4] + vy * n[2] - vz * n[1],
            wz * n[3] - wx * n[5] + vz * n[0] - vx * n[2],
            wx * n[4] - wy * n[3] + vx * n[1] - vy * n[0])


@kernel
def cross_force(m, f):
    """Return the force cross product ``m x* f`` = [w x n + v x f; w x f]."""
    wx, wy, wz, vx, vy, vz = m
    return (wy * f[2] - wz * f[1] + vy * f[5] - vz * f[4],
            wz * f[0] - wx * f[2] + vz * f[3] - vx * f[5],
            wx * f[1] - wy * f[0] + vx * f[4] - vy * f[3],
            wy * f[5] - wz * f[4],
            wz * f[3] - wx * f[5],
            wx * f[4] - wy * f[3])


@kernel
def motion_to_child(ws, k, m):
    """Map a motion vector from the parent frame P (at Po) to node k's frame B (at Bo).

    Returns ``X_BP m = [R^T w; R^T (v + w x p)]`` with ``R = R_PB``, ``p = p_PoBo_P``.
    """
    wx, wy, wz, vx, vy, vz = m
    px = ws[k, WS_P]
    py = ws[k, WS_P + 1]
    pz = ws[k, WS_P + 2]
    ux = vx + wy * pz - wz * py
    uy = vy + wz * px - wx * pz
    uz = vz + wx * py - wy * px
    r0, r1, r2 = ws[k, WS_R], ws[k, WS_R + 1], ws[k, WS_R + 2]
    r3, r4, r5 = ws[k, WS_R + 3], ws[k, WS_R + 4], ws[k, WS_R + 5]
    r6, r7, r8 = ws[k, WS_R + 6], ws[k, WS_R + 7], ws[k, WS_R + 8]
    return (r0 * wx + r3 * wy + r6 * wz,
            r1 * wx + r4 * wy + r7 * wz,
            r2 * wx + r5 * wy + r8 * wz,
            r0 * ux + r3 * uy + r6 * uz,
            r1 * ux + r4 * uy + r7 * uz,
            r2 * ux + r5 * uy + r8 * uz)


@kernel
def force_to_parent(ws, k, f):
    """Map a spatial force from node k's frame B (at Bo) to its parent frame P (at Po).

    Returns ``X_BP^T f = [R n + p x (R f); R f]`` with ``R = R_PB``, ``p = p_PoBo_P``.
    """
    nx, ny, nz, fx, fy, fz = f
    r0, r1, r2 = ws[k, WS_R], ws[k, WS_R + 1], ws[k, WS_R + 2]
    r3, r4, r5 = ws[k, WS_R + 3], ws[k, WS_R + 4], ws[k, WS_R + 5]
    r6, r7, r8 = ws[k, WS_R + 6], ws[k, WS_R + 7], ws[k, WS_R + 8]
    gx = r0 * fx + r1 * fy + r2 * fz
    gy = r3 * fx + r4 * fy + r5 * fz
    gz = r6 * fx + r7 * fy + r8 * fz
    px = ws[k, WS_P]
    py = ws[k, WS_P + 1]
    pz = ws[k, WS_P + 2]
    return (r0 * nx + r1 * ny + r2 * nz + py * gz - pz * gy,
            r3 * nx + r4 * ny + r5 * nz + pz * gx - px * gz,
            r6 * nx + r7 * ny + r8 * nz + px * gy - py * gx,
            gx, gy, gz)


@kernel
def rotate6(a, row, off, x):
    """Return ``[R x_rot; R x_trans]`` with R row-major at ``a[row, off:off+9]``."""
    r0, r1, r2 = a[row, off], a[row, off + 1], a[row, off + 2]
    r3, r4, r5 = a[row, off + 3], a[row, off + 4], a[row, off + 5]
    r6, r7, r8 = a[row, off + 6], a[row, off + 7], a[row, off + 8]
    return (r0 * x[0] + r1 * x[1] + r2 * x[2],
            r3 * x[0] + r4 * x[1] + r5 * x[2],
            r6 * x[0] + r7 * x[1] + r8 * x[2],
            r0 * x[3] + r1 * x[4] + r2 * x[5],
            r3 * x[3] + r4 * x[4] + r5 * x[5],
            r6 * x[3] + r7 * x[4] + r8 * x[5])


@kernel
def rotate6_transpose(a, row, off, x):
    """Return ``[R^T x_rot; R^T x_trans]`` with R row-major at ``a[row, off:off+9]``."""
    r0, r1, r2 = a[row, off], a[row, off + 1], a[row, off + 2]
    r3, r4, r5 = a[row, off + 3], a[row, off + 4], a[row, off + 5]
    r6, r7, r8 = a[row, off + 6], a[row, off + 7], a[row, off + 8]
    return (r0 * x[0] + r3 * x[1] + r6 * x[2],
            r1 * x[0] + r4 * x[1] + r7 * x[2],
            r2 * x[0] + r5 * x[1] + r8 * x[2],
            r0 * x[3] + r3 * x[4] + r6 * x[5],
            r1 * x[3] + r4 * x[4] + r7 * x[5],
            r2 * x[3] + r5 * x[4] + r8 * x[5])


@kernel
def inertia_times_motion(a, row, off, m):
    """Return a rigid-body spatial inertia applied to a motion vector (both in B at Bo).

    The inertia is given by its 10 parameters ``a[row, off:off+10] = [m, h, I]``
    (``h = m p_BoBcm_B``, ``I = I_BBo_B`` as Ixx, Iyy, Izz, Ixy, Ixz, Iyz); the result is
    ``[I w + h x v; m v + w x h]``.
    """
    wx, wy, wz, vx, vy, vz = m
    mass = a[row, off]
    hx, hy, hz = a[row, off + 1], a[row, off + 2], a[row, off + 3]
    ixx, iyy, izz = a[row, off + 4], a[row, off + 5], a[row, off + 6]
    ixy, ixz, iyz = a[row, off + 7], a[row, off + 8], a[row, off + 9]
    return (ixx * wx + ixy * wy + ixz * wz + hy * vz - hz * vy,
            ixy * wx + iyy * wy + iyz * wz + hz * vx - hx * vz,
            ixz * wx + iyz * wy + izz * wz + hx * vy - hy * vx,
            mass * vx + wy * hz - wz * hy,
            mass * vy + wz * hx - wx * hz,
            mass * vz + wx * hy - wy * hx)
