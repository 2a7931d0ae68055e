"""What the plant's per-call fast paths read, derived once after ``finalize()``.

A `QueryTables` holds the constants of the fused query kernels
(`multibody.kernels.queries`) so that a query does no per-call lookups beyond its
arguments: the packed model, sizes, the per-node gravity mask, joint damping, reflected
inertia, the node-to-body map, and memo tables from a body or frame of this plant to its
node (filled at the first use of each element, after the full argument check of the
general path). The plant builds it on first use (``PlantStateMixin._query_tables``).

`state_views` gives, for a plant's own Context, where that Context stores the plant's
state: the owning array ``xs`` (the root's continuous state, or the discrete state group)
and the offsets of q and v in it, plus writable views of q and v. They are remembered on
the Context and checked against the Context's current storage at every use (a clone or
an unpickled copy gets its own).
"""

import numpy as np

__all__ = ["QueryTables", "state_views"]

_EMPTY = np.zeros(0)


class QueryTables:
    """Constants of a finalized plant for its fused queries (see the module docstring).

    Attributes
    ----------
    nq, nv, nb : int
    shape_q, shape_v : tuple
        ``(nq,)`` and ``(nv,)``.
    continuous : bool
    ip, fp : ndarray
        The packed model (`multibody.kernels.layout.pack_model`), shared, never written.
    gravity : ndarray, shape (3,)
        g_W.
    gravity_enabled : ndarray, shape (nb,)
        1.0 where gravity acts on the node's body, 0.0 where it is disabled.
    damping : ndarray, shape (nv,)
    reflected : ndarray, shape (nv,) or (0,)
        Reflected inertia of the actuators; size 0 when there is none.
    body_of_node : ndarray of int64, shape (nb,)
    gravity_only : bool
        True when gravity is the only force element.
    rigid : bool
        True without extra (added-mass) spatial inertia: the fused kernels apply.
    node_of_body, frame_info, jacobian_frames : dict
        Memo: RigidBody -> node; Frame -> (node, R_BF (3, 3), p_BF (3,)), both None for
        a body frame; (frame_B, frame_A, frame_E) -> (node_B, R_BF, p_BF, node_A, node_E,
        R_BE) for the Jacobians.
    inertia_entry, position_entry : CacheEntry
        The plant's inertial-parameter and position-kinematics cache entries.
    """

    __slots__ = ("nq", "nv", "nb", "shape_q", "shape_v", "continuous", "ip", "fp",
                 "gravity", "gravity_enabled", "damping", "reflected", "body_of_node",
                 "gravity_only", "rigid", "node_of_body", "frame_info", "jacobian_frames",
                 "inertia_entry",
                 "position_entry")

    def __init__(self, plant):
        t = plant._tables
        tree = plant._tree
        self.nq, self.nv, self.nb = t.nq, t.nv, t.nb
        self.shape_q, self.shape_v = (t.nq,), (t.nv,)
        self.continuous = bool(t.continuous)
        self.ip, self.fp = plant._dyn.packed_model
        field = tree.gravity_field()
        self.gravity = np.ascontiguousarray(field.gravity_vector(), dtype=np.float64)
        self.gravity_enabled = np.ascontiguousarray(field.enabled_node_mask(), dtype=np.float64)
        self.damping = np.ascontiguousarray(t.damping, dtype=np.float64)
        self.reflected = (np.ascontiguousarray(t.reflected_inertia, dtype=np.float64)
                          if t.has_reflected_inertia else _EMPTY)
        self.body_of_node = np.ascontiguousarray(t.body_of_node, dtype=np.int64)
        self.gravity_only = not t.has_force_elements
        self.rigid = plant._dyn.M_added is None
        self.node_of_body = {}
        self.frame_info = {}
        self.jacobian_frames = {}
        self.inertia_entry = plant._cache.inertia
        self.position_entry = plant._cache.position


def state_views(ctx, continuous, nq):
    """``(xs, q0, v0, q, v)`` for the plant's own context `ctx`, or None when its state
    is not laid out as one block of q followed (anywhere) by one block of v.

    ``xs`` is the owning array, ``q = xs[q0:q0 + nq]`` and ``v = xs[v0:v0 + nv]`` are
    writable views; writing them does not notify the Context (the caller does).
    """
    owner = ctx._root.xc if continuous else ctx._xd[0]
    views = getattr(ctx, "_plant_state_views", None)
    if views is not None and views[0] is owner and views[3].base is owner:
        return views
    if continuous:
        parts = getattr(ctx, "_part_index", None)
        if parts is None or parts["q"].__class__ is not slice or parts["v"].__class__ is not slice:
            return None
        q0, v0 = parts["q"].start, parts["v"].start
        nv = parts["v"].stop - v0
        if parts["q"].stop - q0 != nq:
            return None
    else:
        q0, v0, nv = 0, nq, owner.shape[0] - nq
    if owner.base is not None or not owner.flags.c_contiguous:
        return None
    views = (owner, q0, v0, owner[q0:q0 + nq], owner[v0:v0 + nv])
    ctx._plant_state_views = views
    return views
