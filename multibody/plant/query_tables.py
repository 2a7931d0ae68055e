"""What the plant's per-call fast paths read, derived once after ``finalize()``.

A `QueryTables` holds the constants of the fused query kernels
(`multibody.kernels.queries`) so that a query does no per-call lookups beyond its
arguments: the packed model, sizes, the per-node gravity mask, joint damping, reflected
inertia, the node-to-body map, and memo tables from a body or frame of this plant to its
node (filled at the first use of each element, after the full argument check of the
general path). The plant builds it on first use (``PlantStateMixin._query_tables``); a
pickled or copied plant builds its own.

Each fused kernel is called through its compiled entry point once the first call (through
numba's dispatcher: compilation or cache load, and the type check) has resolved it: the
fast paths pass arrays whose types never change (the plant's own arrays, and arguments
checked to be float64, 1-D and C-contiguous of the right size), so numba's per-call type
dispatch is skipped (`compiled_entry`).

`state_views` gives, for a plant's own Context, where that Context stores the plant's
state: the owning array ``xs`` (the root's continuous state, or the discrete state group)
and the offsets of q and v in it, plus writable views of q and v and the trackers a write
of q and of v notifies. They are remembered on the Context (``ctx._plant_state_views``,
read by the fast paths without further checks): a Context's state arrays are made with
the context tree and never replaced (every write is in place), and the remembered views
are never copied with it (a clone, a deep copy or an unpickled copy reads None there and
makes its own, over its own storage).
"""

import threading
from functools import partial

import numpy as np

from merganser.multibody.kernels.queries import (
    calc_body_pose_at, calc_forward_dynamics_at, calc_frame_jacobian_at,
    calc_gravity_and_damping_forces_at, calc_inverse_dynamics_at, calc_mass_matrix_at,
    copy_state_vector, plant_constants,
)
from merganser.multibody.kernels.lazy_forces import calc_lazy_inverse_dynamics_at, snapshot_state

__all__ = ["QueryTables", "state_views", "own_state_views", "compiled_entry",
           "state_copy_entry", "bind_fast_queries", "bind_lazy_forces", "VIEW_ROOT", "VIEW_FAST", "FAST_POSE",
           "FAST_JACOBIAN", "FAST_POSE_CALL", "FAST_JACOBIAN_CALL"]

#: Slots of `state_views` after the first seven: the root data of the Context's tree, and
#: the Context's list of what its fast queries keep (``PlantQueriesMixin``): their last
#: results (`FAST_POSE`, `FAST_JACOBIAN`, reused when nothing else references them) and
#: their kernels bound to the Context (`FAST_POSE_CALL`, `FAST_JACOBIAN_CALL`:
#: `bind_fast_queries`).
VIEW_ROOT, VIEW_FAST = 7, 8
FAST_POSE, FAST_JACOBIAN, FAST_POSE_CALL, FAST_JACOBIAN_CALL = 0, 1, 2, 3

_EMPTY = np.zeros(0)

#: QueryTables attribute -> the fused kernel it calls.
_KERNELS = {
    "k_pose": calc_body_pose_at,
    "k_jacobian": calc_frame_jacobian_at,
    "k_mass": calc_mass_matrix_at,
    "k_forward": calc_forward_dynamics_at,
    "k_inverse": calc_inverse_dynamics_at,
    "k_gravity": calc_gravity_and_damping_forces_at,
}


def compiled_entry(fn, args):
    """The compiled entry point of kernel `fn` for the types of `args`, or None.

    Call it after a call ``fn(*args)`` has compiled (or loaded) that signature. The entry
    point runs the same machine code as the dispatcher without its type dispatch; it
    checks nothing, so it is only for arguments of exactly those types.
    """
    dispatcher = getattr(fn, "python_dispatcher", None) or getattr(fn, "dispatcher", fn)
    overloads = getattr(dispatcher, "overloads", None)
    if not overloads:
        return None
    try:
        key = tuple(dispatcher.typeof_pyval(a) for a in args)
        return overloads[key].entry_point
    except (AttributeError, KeyError, TypeError):
        return None


_state_copy = []


def state_copy_entry():
    """The compiled entry point of `copy_state_vector` for a contiguous float64 vector
    `dst` and a float64 vector `src` of any stride (numba's layout "A"), compiled (or
    loaded) at the first call; None when it cannot be had (then use the kernel itself).

    Its arguments must be 1-D float64 ndarrays (it checks nothing else; the sizes and the
    overlap it checks and reports, see `copy_state_vector`), `dst` C-contiguous.
    """
    if not _state_copy:
        dst, src = np.zeros(2), np.zeros(4)[::2]        # a strided `src`: layout "A"
        copy_state_vector(dst, src)
        _state_copy.append(compiled_entry(copy_state_vector, (dst, src)))
    return _state_copy[0]


def _bound(fn, constants, args):
    """`fn(*constants, *args)` run now through the dispatcher, and a callable of `args`
    alone running the same compiled code (the entry point for the types of this call
    with `constants` bound; the kernel itself when no entry point can be had)."""
    fn(*constants, *args)
    entry = compiled_entry(fn, constants + args) or fn
    return partial(entry, *constants)


def bind_fast_queries(qt, views):
    """Bind the fused pose and Jacobian kernels to the plant's own Context of `views`
    (`state_views`); returns ``views[VIEW_FAST]``.

    It gets ``call(node, R_WB, p_WB)`` (`calc_body_pose_at`) and ``call(p_BoBp_B, J,
    X_bB)`` (`calc_frame_jacobian_at`, for any 1-D float64 `p_BoBp_B`: compiled for
    numba's layout "A"), both with the packed model, the Context's q and a workspace of
    the Context's own bound (a Context is used by one thread at a time; the kernels
    write their workspace only while they run). Each kernel runs once here, on the
    world (node 0), to be compiled or loaded.
    """
    fast = views[VIEW_FAST]
    constants = (qt.ip, qt.fp, np.zeros_like(qt.local.ws), views[3])   # the thread's shape
    world = np.zeros(25)            # X_bB of the world frame for B, A and E
    world[[0, 4, 8, 12, 16, 20, 24]] = 1.0
    point = np.zeros(6)[::2]        # a strided point: layout "A"
    fast[FAST_POSE_CALL] = _bound(calc_body_pose_at, constants,
                                  (0, np.empty((3, 3)), np.empty(3)))
    fast[FAST_JACOBIAN_CALL] = _bound(calc_frame_jacobian_at, constants,
                                      (point, np.empty(qt.shape_6v), world))
    return fast


def bind_lazy_forces(qt, views, forces, I10):
    """The lazy-forces kernels bound to the plant's own Context of `views` and to the
    MultibodyForces `forces` (sized for `qt`): ``(snapshot(I10), inverse(I10, vd, tau))``.

    ``snapshot`` is `snapshot_state` with the Context's q and v and the forces' snapshot
    arrays bound; ``inverse`` is `calc_lazy_inverse_dynamics_at` with the packed model, a
    workspace of its own, the Context's q and v, the constants and the forces' arrays
    bound, for the Context's I10 (nb, 10) and a C-contiguous float64 ``vd`` and ``tau``
    of size nv. Each runs once here, with the Context's `I10`: the snapshot records the
    state of now, and the inverse dynamics writes only a scratch τ and, when the snapshot
    was not the state, the forces' values (which the caller is about to replace).
    """
    q, v = views[3], views[4]
    snapshot = _bound(snapshot_state, (q, v, forces._snap_qv, forces._snap_I10), (I10,))
    inverse = _bound(calc_lazy_inverse_dynamics_at,
                     (qt.ip, qt.fp, np.zeros_like(qt.local.ws), q, v, qt.constants,
                      forces._snap_qv, forces._snap_I10, forces._tau, forces._F_Bo_W),
                     (I10, np.zeros(qt.nv), np.empty(qt.nv)))
    return snapshot, inverse


def _resolving(tables, name, fn):
    """A stand-in for ``tables.<name>``: calls `fn` through its dispatcher, then puts the
    compiled entry point in its place."""
    def first_call(*args):
        result = fn(*args)
        entry = compiled_entry(fn, args)
        if entry is not None:
            setattr(tables, name, entry)
        return result
    return first_call


class _Workspace(threading.local):
    """The calling thread's kernel workspace: ``ws`` is its `TreeDynamics`' scratch
    (``PlantCore.dyn`` is per thread; so is this)."""

    def __init__(self, core):
        self.ws = core.dyn.workspace


def _rebuilt():
    """Unpickling a `QueryTables` gives None: the copied plant builds its own."""
    return None


class QueryTables:
    """Constants of a finalized plant for its fused queries (see the module docstring).

    Attributes
    ----------
    nq, nv, nb : int
    shape_q, shape_v, shape_vv, shape_6v, shape_F : tuple
        ``(nq,)``, ``(nv,)``, ``(nv, nv)``, ``(6, nv)`` and ``(nb, 6)``.
    continuous : bool
    ip, fp : ndarray
        The packed model (`multibody.kernels.layout.pack_model`), shared, never written.
    local : threading.local
        ``local.ws`` is the calling thread's kernel workspace.
    constants : ndarray
        The packed constants of the kernels (`multibody.kernels.queries.plant_constants`:
        g_W, the kernels' g, the nodes' gravity mask, the joint damping and the reflected
        inertia of the actuators).
    gravity_only : bool
        True when gravity is the only force element.
    rigid : bool
        True without extra (added-mass) spatial inertia: the fused kernels apply.
    lazy_forces : bool
        ``gravity_only and rigid``: `calc_force_elements_contribution` leaves its
        MultibodyForces lazy (`size_forces`, `materialize_forces`).
    node_of_body, frame_info, jacobian_frames : dict
        Memo: RigidBody -> node; Frame -> (node, R_BF (3, 3), p_BF (3,)), both None for
        a body frame; (frame_B, frame_A, frame_E) -> the last argument of the fused
        Jacobian kernel (``PlantQueriesMixin._jacobian_frames``).
    inertia_entry : CacheEntry
        The plant's inertial-parameter cache entry.
    inertia_index : int
        The inertia entry's index in a Context's ``cache_entries``.
    k_pose, k_jacobian, k_mass, k_forward, k_inverse, k_gravity : callable
        The fused kernels of `multibody.kernels.queries` (compiled entry points after
        their first call).
    """

    __slots__ = ("nq", "nv", "nb", "shape_q", "shape_v", "shape_vv", "shape_6v",
                 "shape_F", "continuous", "ip", "fp", "local", "constants",
                 "gravity_only", "rigid", "lazy_forces", "node_of_body", "frame_info", "jacobian_frames",
                 "inertia_entry", "inertia_index") + tuple(_KERNELS)

    def __init__(self, plant):
        t = plant._tables
        tree = plant._tree
        self.nq, self.nv, self.nb = t.nq, t.nv, t.nb
        self.shape_q, self.shape_v = (t.nq,), (t.nv,)
        self.shape_vv, self.shape_6v, self.shape_F = (t.nv, t.nv), (6, t.nv), (t.nb, 6)
        self.continuous = bool(t.continuous)
        self.ip, self.fp = plant._dyn.packed_model
        self.local = _Workspace(plant._core)
        field = tree.gravity_field()
        self.constants = plant_constants(
            field.gravity_vector(), plant._core.gravity, field.enabled_node_mask(), t.damping,
            t.reflected_inertia if t.has_reflected_inertia else _EMPTY)
        self.gravity_only = not t.has_force_elements
        self.rigid = plant._dyn.M_added is None
        self.lazy_forces = self.gravity_only and self.rigid
        self.node_of_body = {}
        self.frame_info = {}
        self.jacobian_frames = {}
        self.inertia_entry = plant._cache.inertia
        self.inertia_index = plant._cache.inertia._index
        for name, fn in _KERNELS.items():
            setattr(self, name, _resolving(self, name, fn))

    def __reduce__(self):
        return (_rebuilt, ())

    def size_forces(self, forces):
        """Give the MultibodyForces `forces`, already checked to have this plant's sizes,
        the snapshot arrays of its lazy state (q and v (nq + nv,), I10 (nb, 10))."""
        if forces._lazy is not None:            # lazy for another plant of these sizes
            forces._materialize()
        forces._snap_qv = snap = np.zeros(self.nq + self.nv)
        forces._snap_q, forces._snap_v = snap[:self.nq], snap[self.nq:]
        forces._snap_I10 = np.zeros((self.nb, 10))
        forces._lazy_call = None                # bound to the arrays replaced here
        forces._sized_for = self

    def materialize_forces(self, forces):
        """Write the values of lazy `forces` (their ``_lazy`` just cleared): gravity and
        the joint damping at their snapshot state, as the eager
        ``calc_force_elements_contribution``."""
        self.k_gravity(self.ip, self.fp, self.local.ws, forces._snap_q, forces._snap_v,
                       forces._snap_I10, self.constants, forces._tau, forces._F_Bo_W)


class _StateViews(tuple):
    """The tuple of `state_views`; a copy of its Context gets None in its place (the
    views are of the original's storage)."""

    __slots__ = ()

    def __copy__(self):             # a shallow copy of a Context shares its storage
        return self

    def __deepcopy__(self, memo):
        return None

    def __reduce__(self):
        return (_none, ())


def _none():
    return None


def own_state_views(qt, ctx):
    """`state_views` of the plant's own context `ctx` for the plant of `qt` (the views
    remembered on `ctx`, or made now)."""
    views = ctx.__dict__.get("_plant_state_views")
    if views is not None:
        return views
    return state_views(ctx, qt.continuous, qt.nq)


def state_views(ctx, continuous, nq):
    """``(xs, q0, v0, q, v, trk_q, trk_v, root, fast)`` for the plant's own context
    `ctx`, or None when its state is not laid out as one block of q followed (anywhere)
    by one block of v.

    ``xs`` is the owning array, ``q = xs[q0:q0 + nq]`` and ``v = xs[v0:v0 + nv]`` are
    writable views; writing them does not notify the Context: the caller notifies
    ``trk_q`` after writing q and ``trk_v`` after writing v (both the discrete group's
    tracker for a discrete plant). ``root`` is the root data of `ctx`'s tree (its
    ``version`` and ``validations``, `framework.cache.notify_changed`); ``fast`` the list
    of what the fast queries keep for `ctx` (`VIEW_FAST`). Remembered on `ctx` (see the
    module docstring).
    """
    views = ctx.__dict__.get("_plant_state_views")
    if views is not None:
        return views
    owner = ctx._root.xc if continuous else ctx._xd[0]
    if continuous:
        parts = getattr(ctx, "_part_index", None)
        if parts is None or parts["q"].__class__ is not slice or parts["v"].__class__ is not slice:
            return None
        q0, v0 = parts["q"].start, parts["v"].start
        nv = parts["v"].stop - v0
        if parts["q"].stop - q0 != nq:
            return None
        trk_q, trk_v = ctx.trk_q, ctx.trk_v
    else:
        q0, v0, nv = 0, nq, owner.shape[0] - nq
        trk_q = trk_v = ctx.trk_xd[0]
    if owner.base is not None or not owner.flags.c_contiguous:
        return None
    views = _StateViews((owner, q0, v0, owner[q0:q0 + nq], owner[v0:v0 + nv], trk_q, trk_v,
                         ctx._root, [None, None, None, None]))
    ctx._plant_state_views = views
    return views
