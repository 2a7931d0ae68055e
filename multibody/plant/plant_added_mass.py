"""added-mass spatial inertias of MultibodyPlant bodies, contributed by force elements.

Some forces are proportional to a body's acceleration and so cannot be explicit force
laws: the hydrodynamic added mass of a body in a fluid is the standard case. They enter
the equations of motion as an added-mass spatial inertia fixed in the body. The protocol: a
force element may define

    added_mass_spatial_inertia() -> list of (body_index, M_BBo_B)

with ``M_BBo_B`` (6, 6) symmetric positive semidefinite, about the body origin Bo,
expressed in the body frame B, [rotational; translational]. `collect_added_mass_inertias`
calls it once at ``finalize`` (after the tree is finalized, so the element is too), sums
the contributions per body into the kernels' node-ordered ``M_added`` (nb, 6, 6) and the
plant builds its `TreeDynamics` with it as the default, so that every kernel call that
involves the inertia includes it: the mass matrix, inverse and forward dynamics (and so
the time derivatives and the discrete step), the bias term, the kinetic energy, the
spatial momentum and the exact linearization. The added mass has no weight (gravity
acts on the rigid inertias only; a fluid's buoyancy is a separate force).

Two plant computations outside the kernels use the helpers below: the joint reaction
forces (`calc_added_mass_body_forces`) and the spatial momentum of a subset of model
instances (`calc_added_mass_momentum`).
"""

import numpy as np

__all__ = ["collect_added_mass_inertias", "calc_added_mass_body_forces",
           "calc_added_mass_momentum"]

_FN = "MultibodyPlant.finalize"


def _checked_inertia(element, i, body_index, M, num_bodies):
    """Return (body_index, M (6, 6) symmetrized) of one contribution, or raise."""
    who = f"{_FN}: force element {element!r}: added_mass_spatial_inertia() entry {i}"
    if not isinstance(body_index, (int, np.integer)) or isinstance(body_index, bool):
        raise TypeError(f"{who} has body index {body_index!r}, expected an integer")
    if not 1 <= body_index < num_bodies:
        raise ValueError(f"{who} has body index {body_index}, expected a non-world body in "
                         f"1..{num_bodies - 1}")
    try:
        M = np.array(M, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{who}: the inertia must be a 6x6 array of numbers, got "
                        f"{type(M).__name__}") from None
    if M.shape != (6, 6):
        raise ValueError(f"{who}: the inertia has shape {M.shape}, expected (6, 6)")
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{who}: the inertia must be finite, got {M.tolist()}")
    scale = float(np.max(np.abs(M)))
    if not np.allclose(M, M.T, rtol=0.0, atol=1e-12 * scale):
        raise ValueError(f"{who}: the inertia must be symmetric, got {M.tolist()}")
    M = 0.5 * (M + M.T)
    smallest = float(np.linalg.eigvalsh(M)[0]) if scale > 0.0 else 0.0
    if smallest < -1e-12 * scale:
        raise ValueError(f"{who}: the inertia must be positive semidefinite, but its "
                         f"smallest eigenvalue is {smallest:.6g}")
    return int(body_index), M


def collect_added_mass_inertias(tree, model):
    """The added-mass spatial inertias of the force elements of a finalized tree, node order.

    Parameters
    ----------
    tree : MultibodyTree
        Finalized; its force elements that define ``added_mass_spatial_inertia()`` are asked.
    model : CompiledModel
        The tree's compiled model (for the body -> node map).

    Returns
    -------
    M_added : ndarray, shape (nb, 6, 6), or None
        Sum of the contributions per node (``M_BBo_B``, about Bo, in B), None when no
        element contributes a nonzero inertia.

    Raises
    ------
    TypeError, ValueError
        For a contribution with a bad body index, shape or value (not finite, not
        symmetric, not positive semidefinite), naming the element.
    """
    M_added = np.zeros((model.nb, 6, 6))
    found = False
    for e in range(tree.num_force_elements()):
        element = tree.get_force_element(e)
        method = getattr(element, "added_mass_spatial_inertia", None)
        if method is None:
            continue
        entries = method()
        try:
            entries = list(entries)
        except TypeError:
            raise TypeError(f"{_FN}: force element {element!r}: added_mass_spatial_inertia() must "
                            f"return a list of (body_index, M (6, 6)), got "
                            f"{type(entries).__name__}") from None
        for i, entry in enumerate(entries):
            try:
                body_index, M = entry
            except (TypeError, ValueError):
                raise TypeError(f"{_FN}: force element {element!r}: added_mass_spatial_inertia() "
                                f"entry {i} must be a pair (body_index, M), got "
                                f"{entry!r}") from None
            b, M = _checked_inertia(element, i, body_index, M, tree.num_bodies())
            if np.any(M):
                M_added[model.node_of_body[b]] += M
                found = True
    return M_added if found else None


def _body_frame_motion(X_WB, V_WB_W, A_WB_W):
    """R_WB (n, 3, 3), V_B (n, 6) and the spatial acceleration A_B (n, 6) in B at Bo from
    the world-frame velocities and the classical accelerations of Bo."""
    R = X_WB[:, :3, :3]
    w_W, v_W = V_WB_W[:, :3], V_WB_W[:, 3:]
    RT = R.transpose(0, 2, 1)
    V_B = np.concatenate([np.einsum("nij,nj->ni", RT, w_W),
                          np.einsum("nij,nj->ni", RT, v_W)], axis=1)
    if A_WB_W is None:
        return R, V_B, None
    a_spatial_W = A_WB_W[:, 3:] - np.cross(w_W, v_W)
    A_B = np.concatenate([np.einsum("nij,nj->ni", RT, A_WB_W[:, :3]),
                          np.einsum("nij,nj->ni", RT, a_spatial_W)], axis=1)
    return R, V_B, A_B


def calc_added_mass_body_forces(M_added, X_WB, V_WB_W, A_WB_W):
    """Net spatial force the added masses need, at each Bo, expressed in W (nb, 6).

    ``F_Bo_W = R_WB (M_added A_B + V_B ×* (M_added V_B))`` (both halves rotated), with
    V_B and A_B the body's spatial velocity and acceleration in B (Kirchhoff's
    equations; no gravity term).

    Parameters
    ----------
    M_added : ndarray, shape (nb, 6, 6)
        added-mass spatial inertias, node order (about Bo, in B).
    X_WB : ndarray, shape (nb, 4, 4)
        Body poses in W.
    V_WB_W : ndarray, shape (nb, 6)
        Spatial velocities [w_WB_W; v_WBo_W].
    A_WB_W : ndarray, shape (nb, 6)
        Spatial accelerations [alpha_WB_W; a_WBo_W] (classical acceleration of Bo).

    Returns
    -------
    ndarray, shape (nb, 6)
        [torque about Bo; force], expressed in W.
    """
    R, V_B, A_B = _body_frame_motion(X_WB, V_WB_W, A_WB_W)
    h = np.einsum("nij,nj->ni", M_added, V_B)
    w, v = V_B[:, :3], V_B[:, 3:]
    f_B = np.einsum("nij,nj->ni", M_added, A_B)
    f_B[:, :3] += np.cross(w, h[:, :3]) + np.cross(v, h[:, 3:])
    f_B[:, 3:] += np.cross(w, h[:, 3:])
    return np.concatenate([np.einsum("nij,nj->ni", R, f_B[:, :3]),
                           np.einsum("nij,nj->ni", R, f_B[:, 3:])], axis=1)


def calc_added_mass_momentum(M_added, X_WB, V_WB_W, p_WoP_W):
    """Spatial momentum of the added masses of the given bodies about P, in W.

    Parameters
    ----------
    M_added : ndarray, shape (n, 6, 6)
        added-mass spatial inertias of n bodies (about Bo, in B).
    X_WB : ndarray, shape (n, 4, 4)
        Their poses in W.
    V_WB_W : ndarray, shape (n, 6)
        Their spatial velocities [w_WB_W; v_WBo_W].
    p_WoP_W : ndarray, shape (3,)
        The point P.

    Returns
    -------
    h_P_W, l_W : ndarray, shape (3,) each
        Angular momentum about P and linear momentum, expressed in W.
    """
    R, V_B, _ = _body_frame_motion(X_WB, V_WB_W, None)
    L_B = np.einsum("nij,nj->ni", M_added, V_B)
    h_W = np.einsum("nij,nj->ni", R, L_B[:, :3])
    l_W = np.einsum("nij,nj->ni", R, L_B[:, 3:])
    h_P_W = h_W + np.cross(X_WB[:, :3, 3] - p_WoP_W, l_W)
    return h_P_W.sum(axis=0), l_W.sum(axis=0)
