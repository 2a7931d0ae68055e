"""added-mass spatial inertia of the bodies (e.g. hydrodynamic added mass) in the kernels.

The optional argument ``M_added`` (nb, 6, 6) of the dynamics kernels holds for each node
k a constant matrix ``M_BBo_B``: a spatial inertia fixed in the node's body B, about its
origin Bo, expressed in B, [rotational; translational], symmetric positive semidefinite
but otherwise general (not necessarily the inertia of a rigid body; row 0, the world, is
not read). It adds to the body's rigid inertia everywhere the inertia appears:

- momentum and kinetic energy: ``(I_B + M_added) V_B`` and ``½ V_B · (I_B + M_added) V_B``;
- CRBA: composite inertias ``Ic = I + M_added + Σ children`` (6x6 instead of 10
  parameters);
- RNEA: the body's net force gains ``M_added (A_B - A_g) + V_B ×* (M_added V_B)``
  (Kirchhoff's equations);
- ABA: ``IA = I + M_added`` and ``pA`` gains ``V_B ×* (M_added V_B) - M_added A_g``.

``A_B`` is the spatial acceleration of B in B as the kernels compute it, with gravity
entering as the world's acceleration ``[0; -g]``; ``A_g = [0; -R_WBᵀ g]`` is that
offset seen in B. Subtracting it makes the added mass weightless: gravity acts on the
rigid inertia (I10) only, as on a body's added mass (its weight is the fluid's and
buoyancy is a separate force).

The rigid-body kernels (``calc_inverse_dynamics`` etc.) are unchanged; each has a
``*_with_added_mass`` twin taking ``M_added`` as a last argument, which runs the same passes
and adds the added-mass terms: RNEA and ABA in a separate loop after the first pass
(`add_added_mass_body_forces`), CRBA, the energy and the momentum in branches that numba
removes at compile time when ``M_added`` is None (it prunes ``is None`` tests on
arguments), so that ``*_with_added_mass(..., None)`` equals the rigid-body kernel.

Every helper is type-generic (float64 or complex128 workspaces).
"""

from __future__ import annotations

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.kinematics import world_pose
from merganser.multibody.kernels.layout import IP_PARENT, WS_A, WS_RW, WS_V
from merganser.multibody.kernels.spatial import add6, cross_force, load6, store6

__all__ = ["bad_added_mass", "has_gravity", "added_mass_times_motion", "add_added_mass_to_matrix",
           "added_mass_force", "add_added_mass_body_forces"]


@kernel
def bad_added_mass(ip, M_added):
    """True if `M_added` is not (nb, 6, 6)."""
    return (M_added.shape[0] != ip.shape[0] or M_added.shape[1] != 6
            or M_added.shape[2] != 6)


@kernel
def has_gravity(g):
    """True if the gravity vector `g` (3,) is not zero (then `added_mass_force` needs R_WB)."""
    return g[0] != 0.0 or g[1] != 0.0 or g[2] != 0.0


@kernel
def added_mass_times_motion(M_added, k, m):
    """Return ``M_added[k] m`` for a motion 6-tuple `m` (both in B at Bo)."""
    return (M_added[k, 0, 0] * m[0] + M_added[k, 0, 1] * m[1] + M_added[k, 0, 2] * m[2]
            + M_added[k, 0, 3] * m[3] + M_added[k, 0, 4] * m[4] + M_added[k, 0, 5] * m[5],
            M_added[k, 1, 0] * m[0] + M_added[k, 1, 1] * m[1] + M_added[k, 1, 2] * m[2]
            + M_added[k, 1, 3] * m[3] + M_added[k, 1, 4] * m[4] + M_added[k, 1, 5] * m[5],
            M_added[k, 2, 0] * m[0] + M_added[k, 2, 1] * m[1] + M_added[k, 2, 2] * m[2]
            + M_added[k, 2, 3] * m[3] + M_added[k, 2, 4] * m[4] + M_added[k, 2, 5] * m[5],
            M_added[k, 3, 0] * m[0] + M_added[k, 3, 1] * m[1] + M_added[k, 3, 2] * m[2]
            + M_added[k, 3, 3] * m[3] + M_added[k, 3, 4] * m[4] + M_added[k, 3, 5] * m[5],
            M_added[k, 4, 0] * m[0] + M_added[k, 4, 1] * m[1] + M_added[k, 4, 2] * m[2]
            + M_added[k, 4, 3] * m[3] + M_added[k, 4, 4] * m[4] + M_added[k, 4, 5] * m[5],
            M_added[k, 5, 0] * m[0] + M_added[k, 5, 1] * m[1] + M_added[k, 5, 2] * m[2]
            + M_added[k, 5, 3] * m[3] + M_added[k, 5, 4] * m[4] + M_added[k, 5, 5] * m[5])


@kernel
def add_added_mass_to_matrix(M_added, k, ws, off):
    """Add ``M_added[k]`` to the row-major 6x6 matrix at ``ws[k, off:off+36]``."""
    for i in range(6):
        for j in range(6):
            ws[k, off + 6 * i + j] += M_added[k, i, j]


@kernel
def added_mass_force(M_added, ws, k, V, A, g, with_gravity):
    """Return ``M_added[k] (A - A_g) + V ×* (M_added[k] V)`` (in B at Bo).

    Parameters
    ----------
    M_added : ndarray, shape (nb, 6, 6)
    ws : ndarray, shape (nb, NWS)
        Workspace; with `with_gravity`, ``R_WB`` of node k must be in ``WS_RW``.
    k : int
        Node.
    V, A : 6-tuples
        Spatial velocity and acceleration of B in B (A with the gravity offset).
    g : ndarray, shape (3,)
        Gravity expressed in W.
    with_gravity : bool
        False when g is zero (then ``A_g = 0`` and R_WB is not read).
    """
    if with_gravity:
        # A - A_g = A + [0; R_WBᵀ g]
        gx = ws[k, WS_RW] * g[0] + ws[k, WS_RW + 3] * g[1] + ws[k, WS_RW + 6] * g[2]
        gy = ws[k, WS_RW + 1] * g[0] + ws[k, WS_RW + 4] * g[1] + ws[k, WS_RW + 7] * g[2]
        gz = ws[k, WS_RW + 2] * g[0] + ws[k, WS_RW + 5] * g[1] + ws[k, WS_RW + 8] * g[2]
        return add6(added_mass_times_motion(M_added, k, (A[0], A[1], A[2], A[3] + gx, A[4] + gy,
                                                    A[5] + gz)),
                    cross_force(V, added_mass_times_motion(M_added, k, V)))
    return add6(added_mass_times_motion(M_added, k, A),
                cross_force(V, added_mass_times_motion(M_added, k, V)))


@kernel
def add_added_mass_body_forces(ip, ws, M_added, g, off, with_acceleration):
    """Add each node's added-mass force to the spatial force at ``ws[k, off:off+6]``.

    The force (in B at Bo) is ``M_added (A - A_g) + V ×* (M_added V)`` with V and A the
    node's ``WS_V`` and ``WS_A`` (RNEA's net body force, `with_acceleration` True), or
    with A = 0, ``V ×* (M_added V) - M_added A_g`` (ABA's bias force, False). Requires
    the poses and velocities of the first pass (and the world row set); writes ``R_WB``
    when g is not zero.
    """
    with_g = has_gravity(g)
    for k in range(1, ip.shape[0]):
        if with_g:
            world_pose(ws, k, ip[k, IP_PARENT])
        V = load6(ws, k, WS_V)
        if with_acceleration:
            f = added_mass_force(M_added, ws, k, V, load6(ws, k, WS_A), g, with_g)
        else:
            z = 0.0 * V[0]
            f = added_mass_force(M_added, ws, k, V, (z, z, z, z, z, z), g, with_g)
        store6(ws, k, off, add6(load6(ws, k, off), f))
