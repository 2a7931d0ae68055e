"""Compiled kernel of the discrete hydroelastic contact: the quadrature points of a contact
surface as point contacts of the discrete solvers.

Face f of the surface between geometries M and N (normal n_f out of N into M, area A_f,
centroid pressure p0_f, pressure gradient g_f = ∂p/∂n into the compliant geometry (the
series value of two; the SceneGraph's query gives 0 below 1e-14 Pa/m, Drake's
kGradientEpsilon) becomes the point contact at its centroid with A = N, B = M, contact
frame z = n_f, stiffness k = A_f g_f and signed distance φ₀ = -p0_f / g_f, so that
k (-φ₀) = A_f p0_f is the face's force; faces with g_f = 0 (as Drake: no constraint
there) or p0_f = 0 carry no force and are skipped.
"""

from merganser.framework.compilation import kernel
from merganser.multibody.contact.contact_kernels import make_contact_frame

__all__ = ["append_surface_contacts"]


@kernel(allocates=True, inline=False)
def append_surface_contacts(centroid, normal, area, p0, grad, node_m, node_n, geom_m, geom_n,
                            d, tau, mu, surface, nc, node_a, node_b, geom_a, geom_b, p_WC, R_WC,
                            phi0, k, d_out, tau_out, mu_out, rows, surface_out):
    """Append the faces of one contact surface as point contacts from index nc on.

    Parameters
    ----------
    centroid, normal : ndarray (nf, 3)
        Face centroids and unit normals (out of N into M), in W.
    area, p0, grad : ndarray (nf,)
        Face areas (m²), centroid pressures (Pa) and ∂p/∂n (Pa/m; 0: no stiffness).
    node_m, node_n, geom_m, geom_n : int
        Body nodes and proximity-table indices of M and N.
    d, tau, mu : float
        The pair's dissipation (s/m), relaxation time (s) and friction.
    surface : int
        The surface's index, written to ``surface_out``.
    nc : int
        Contacts already in the arrays.
    node_a ... rows : ndarray
        The `multibody.contact.contact_manager.PointContactSet` arrays (room for nc + nf).
    surface_out : ndarray (room for nc + nf,) int64
        Per contact, the index of its surface (written for the appended ones).

    Returns
    -------
    int
        The new contact count.
    """
    for f in range(area.shape[0]):
        g = grad[f]
        if not (g > 0.0 and p0[f] > 0.0):
            continue
        nx, ny, nz = normal[f, 0], normal[f, 1], normal[f, 2]
        node_a[nc], node_b[nc] = node_n, node_m
        geom_a[nc], geom_b[nc] = geom_n, geom_m
        make_contact_frame(nx, ny, nz, R_WC, nc)
        phi0[nc] = -p0[f] / g
        k[nc] = area[f] * g
        d_out[nc], tau_out[nc], mu_out[nc] = d, tau, mu
        for c in range(3):
            p_WC[nc, c] = centroid[f, c]
            rows[nc, c] = centroid[f, c]
            rows[nc, 3 + c] = centroid[f, c]
        rows[nc, 6], rows[nc, 7], rows[nc, 8] = -nx, -ny, -nz
        rows[nc, 9] = phi0[nc]
        surface_out[nc] = surface
        nc += 1
    return nc
