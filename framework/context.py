"""Context: every number a system needs to compute, kept apart from the immutable system.

A Context holds time, accuracy, continuous state ``xc``, discrete state groups ``xd``,
abstract state ``xa``, numeric and abstract parameters, fixed input port values and the
cache. A Diagram's context is a tree mirroring the diagram: one LeafContext per leaf
system under DiagramContexts. Time and accuracy are shared by the whole tree and can be
set only on the root.

The continuous state of a tree lives in one flat array owned by the root, laid out as
Drake's DiagramContinuousState: all generalized positions q of the leaves (in
depth-first order), then all velocities v, then all miscellaneous states z. Each context
keeps the indices of its own part; a leaf's state is a view into the root array when its
parts are contiguous.

Arrays returned by getters are read-only views or copies; writing goes through setters,
which mark dependent cache entries out of date.
"""

import copy

import numpy as np

from .cache import CacheEntryValue, Tracker, downstream_entries, notify
from .errors import ContextError
from .value import BasicVector, Value


def _readonly(array):
    view = array.view()
    view.flags.writeable = False
    return view


class _RootData:
    """State shared by every context of one tree."""

    __slots__ = ("time", "accuracy", "xc", "version", "time_tracker", "accuracy_tracker",
                 "xc_root_closure", "__weakref__")

    def __init__(self, nxc):
        self.time = 0.0
        self.accuracy = None
        self.xc = np.zeros(nxc)
        self.version = 0
        self.time_tracker = Tracker("time")
        self.accuracy_tracker = Tracker("accuracy")
        self.xc_root_closure = None


class FixedInputValue(Tracker):
    """A value fixed on an input port of a context (Drake's FixedInputPortValue)."""

    __slots__ = ("value", "ro", "is_vector")

    def __init__(self, value, is_vector):
        super().__init__("fixed input")
        self.is_vector = is_vector
        self.value = value
        self.ro = _readonly(value) if is_vector else value

    def get_value(self):
        return self.ro

    def get_mutable_value(self):
        return self.value

    def _rebuild(self):
        if self.is_vector:
            self.ro = _readonly(self.value)


class ContinuousStateView:
    """The continuous state of one context (Drake's ContinuousState), read and written
    through the context so that caches stay consistent.

    Attributes
    ----------
    num_q(), num_v(), num_z(), size()
        The q/v/z split.
    """

    __slots__ = ("_ctx",)

    def __init__(self, ctx):
        self._ctx = ctx

    def num_q(self):
        return self._ctx._nq

    def num_v(self):
        return self._ctx._nv

    def num_z(self):
        return self._ctx._nz

    def size(self):
        return self._ctx._nq + self._ctx._nv + self._ctx._nz

    def __len__(self):
        return self.size()

    def get_value(self):
        """All continuous state, shape (n,), read-only."""
        return self._ctx.get_continuous_state_vector()

    def copy_to_vector(self):
        return np.array(self._ctx.get_continuous_state_vector())

    def get_vector(self):
        return self

    def get_mutable_vector(self):
        return self

    def set_value(self, x):
        self._ctx.set_continuous_state(x)

    def set_from_vector(self, x):
        self._ctx.set_continuous_state(x)

    def get_generalized_position(self):
        return self._ctx.get_continuous_state_vector()[: self._ctx._nq]

    def get_generalized_velocity(self):
        c = self._ctx
        return c.get_continuous_state_vector()[c._nq: c._nq + c._nv]

    def get_misc_continuous_state(self):
        c = self._ctx
        return c.get_continuous_state_vector()[c._nq + c._nv:]

    def get_mutable_generalized_position(self):
        """q as a BasicVector writing into the context; only q-dependents go out of date."""
        return BasicVector._wrap(self._ctx._mutable_part("q"))

    def get_mutable_generalized_velocity(self):
        """v as a BasicVector writing into the context; only v-dependents go out of date."""
        return BasicVector._wrap(self._ctx._mutable_part("v"))

    def get_mutable_misc_continuous_state(self):
        """z as a BasicVector writing into the context; only z-dependents go out of date."""
        return BasicVector._wrap(self._ctx._mutable_part("z"))

    def __getitem__(self, i):
        return self._ctx.get_continuous_state_vector()[i]

    def __setitem__(self, i, value):
        x = np.array(self._ctx.get_continuous_state_vector())
        x[i] = value
        self._ctx.set_continuous_state(x)


class Context:
    """Base of LeafContext and DiagramContext; see the module docstring."""

    def __init__(self, system):
        self._system = system
        self._parent = None
        self._root = None
        self._xc_index = slice(0, 0)
        self._nq = self._nv = self._nz = 0
        self._xc_ro = None
        self._fixed = {}
        self._inputs = [None] * system.num_input_ports()

    # ---- identity -------------------------------------------------------------------------
    def get_system(self):
        """The system this context was created for."""
        return self._system

    def is_root_context(self):
        return self._parent is None

    def get_parent_context(self):
        return self._parent

    def _describe(self):
        return f"{type(self._system).__name__} '{self._system.get_name()}'"

    # ---- time and accuracy ------------------------------------------------------------------
    def get_time(self):
        """Current time (s)."""
        return self._root.time

    def set_time(self, t):
        """Set the time; only allowed on the root context."""
        if self._parent is not None:
            raise ContextError(
                f"Context.set_time: time can only be set on the root context, but this is the "
                f"context of subsystem {self._describe()}")
        t = float(t)
        if t != t:
            raise ContextError("Context.set_time: time is NaN")
        self._root.time = t
        notify(self._root.time_tracker, self._root.version)

    def get_accuracy(self):
        """Requested accuracy (None when unset)."""
        return self._root.accuracy

    def set_accuracy(self, accuracy):
        """Set the accuracy used by integrators and accuracy-dependent computations (root only)."""
        if self._parent is not None:
            raise ContextError(
                f"Context.set_accuracy: accuracy can only be set on the root context, not on the "
                f"context of subsystem {self._describe()}")
        if accuracy is not None:
            accuracy = float(accuracy)
            if not accuracy > 0.0:
                raise ContextError(f"Context.set_accuracy: accuracy must be > 0, got {accuracy}")
        self._root.accuracy = accuracy
        notify(self._root.accuracy_tracker, self._root.version)

    # ---- continuous state ---------------------------------------------------------------------
    def num_continuous_states(self):
        return self._nq + self._nv + self._nz

    def get_continuous_state(self):
        """A view object with the q/v/z split (num_q(), num_v(), num_z(), get_value())."""
        return ContinuousStateView(self)

    def get_mutable_continuous_state(self):
        return ContinuousStateView(self)

    def get_continuous_state_vector(self):
        """Continuous state of this context, shape (n,) ([q; v; z]), read-only."""
        ro = self._xc_ro
        if ro is not None:
            return ro
        out = self._root.xc[self._xc_index]
        out.flags.writeable = False
        return out

    def get_mutable_continuous_state_vector(self):
        return ContinuousStateView(self)

    def set_continuous_state(self, x):
        """Overwrite the continuous state; ``x`` has ``num_continuous_states()`` elements."""
        x = np.asarray(x, dtype=float)
        n = self._nq + self._nv + self._nz
        if x.size != n:
            raise ContextError(
                f"Context.set_continuous_state: x has size {x.size}, expected {n} for "
                f"{self._describe()}")
        self._root.xc[self._xc_index] = x.reshape(-1)
        self._notify_xc()

    def _mutable_part(self, part):
        """A writable view of part ``part`` ("q", "v" or "z") of the continuous state; marks
        only that part changed (Drake's get_mutable_generalized_position() and kin)."""
        self._notify_part(part)
        return self._root.xc[self._part_index[part]]

    def set_time_and_continuous_state(self, t, x):
        """Set time and continuous state in one call (root only; used by integrators)."""
        if self._parent is not None:
            raise ContextError("Context.set_time_and_continuous_state: only allowed on the root context")
        self._root.xc[:] = x
        self._set_time_after_writing_xc(t)

    def _set_time_after_writing_xc(self, t):
        """Set the time and mark everything depending on time or the continuous state out
        of date, after the caller wrote ``_root.xc`` in place (root only; integrators)."""
        root = self._root
        root.time = t
        cached = root.xc_root_closure
        if cached is None or cached[0] != root.version:
            trackers = [root.time_tracker] + [c.note_xc for c in self._leaf_contexts()]
            cached = (root.version, downstream_entries(trackers))
            root.xc_root_closure = cached
        for entry in cached[1]:
            entry.valid = False

    # ---- inputs -------------------------------------------------------------------------------
    def _input_source(self, index):
        return self._inputs[index]

    # ---- copying ------------------------------------------------------------------------------
    def clone(self):
        """A deep copy of this (root) context, for the same system."""
        if self._parent is not None:
            raise ContextError(
                f"Context.clone: only a root context can be cloned; this is the context of subsystem "
                f"{self._describe()} (clone the root and use get_my_context_from_root)")
        memo = {}
        for system in self._system._all_systems():
            memo[id(system)] = system
            for port in system._input_ports + system._output_ports:
                memo[id(port)] = port
        clone = copy.deepcopy(self, memo)
        clone._rebuild_views()
        return clone

    def __setstate__(self, state):
        self.__dict__.update(state)
        if self._parent is None:
            self._rebuild_views()

    def _all_contexts(self):
        yield self

    def _leaf_contexts(self):
        raise NotImplementedError

    def set_time_state_and_parameters_from(self, source):
        """Copy time, accuracy, all state and parameters from a context of the same system."""
        if source._system is not self._system:
            raise ContextError(
                "Context.set_time_state_and_parameters_from: source context belongs to "
                f"{source._describe()}, expected {self._describe()}")
        if self._parent is None:
            self._root.time = source._root.time
            self._root.accuracy = source._root.accuracy
            notify(self._root.time_tracker, self._root.version)
            notify(self._root.accuracy_tracker, self._root.version)
        self.set_continuous_state(source.get_continuous_state_vector())
        for dst, src in zip(self._leaf_contexts(), source._leaf_contexts()):
            dst._copy_state_and_parameters_from(src)

    def _rebuild_views(self):
        for ctx in self._all_contexts():
            ctx._rebuild_own_views()

    def _rebuild_own_views(self):
        idx = self._xc_index
        if isinstance(idx, slice):
            self._xc_ro = _readonly(self._root.xc[idx])
        else:
            self._xc_ro = None
        for fixed in self._fixed.values():
            fixed._rebuild()


class LeafContext(Context):
    """The context of a LeafSystem."""

    def __init__(self, system):
        super().__init__(system)
        self._xd = []
        self._xd_ro = []
        self._xa = []
        self._p = []
        self._p_ro = []
        self._pa = []
        self._make_trackers(0, 0, 0, 0, 0)
        self.out_entries = []
        self.cache_entries = []
        self.deriv_entry = None
        self.deriv_holder = None

    def _leaf_contexts(self):
        yield self

    def _make_trackers(self, n_xd, n_xa, n_p, n_pa, n_u):
        """Create the dependency trackers of this leaf (Drake's well-known tickets).

        Ticket trackers (``trk_*``) are what cache entries subscribe to; each aggregate
        subscribes to its parts (q, v, z -> xc; xc, xd, xa -> all state; ...), so a
        change of a part reaches every aggregate. The change notes (``note_*``) are what
        writers notify when a whole group changed: their "subscribers" are the parts.
        """
        self.trk_q, self.trk_v, self.trk_z = Tracker("q"), Tracker("v"), Tracker("z")
        self.trk_xc = _aggregate("xc", [self.trk_q, self.trk_v, self.trk_z])
        self.trk_xd = [Tracker(f"xd{i}") for i in range(n_xd)]
        self.trk_xd_all = _aggregate("xd", self.trk_xd)
        self.trk_xa = [Tracker(f"xa{i}") for i in range(n_xa)]
        self.trk_xa_all = _aggregate("xa", self.trk_xa)
        self.trk_x = _aggregate("all state", [self.trk_xc, self.trk_xd_all, self.trk_xa_all])
        self.trk_p = [Tracker(f"p{i}") for i in range(n_p)]
        self.trk_pn = _aggregate("numeric parameters", self.trk_p)
        self.trk_pa = [Tracker(f"pa{i}") for i in range(n_pa)]
        self.trk_pa_all = _aggregate("abstract parameters", self.trk_pa)
        self.trk_params = _aggregate("all parameters", [self.trk_pn, self.trk_pa_all])
        self.trk_u = [Tracker(f"u{i}") for i in range(n_u)]
        self.trk_u_all = _aggregate("all input ports", self.trk_u)
        # time and accuracy join once the root exists (_link_root_trackers)
        self.trk_nonu = _aggregate("all sources except input ports",
                                   [self.trk_x, self.trk_params])
        self.trk_sources = _aggregate("all sources", [self.trk_nonu, self.trk_u_all])
        self.note_xc = _note("xc", [self.trk_q, self.trk_v, self.trk_z])
        self.note_xd = _note("xd", self.trk_xd)
        self.note_xa = _note("xa", self.trk_xa)
        self.note_p = _note("parameters", self.trk_p + self.trk_pa)

    def _link_root_trackers(self):
        self._root.time_tracker.subscribe(self.trk_nonu)
        self._root.accuracy_tracker.subscribe(self.trk_nonu)

    def _notify_xc(self):
        notify(self.note_xc, self._root.version)

    def _notify_part(self, part):
        notify(getattr(self, "trk_" + part), self._root.version)

    # ---- discrete state -----------------------------------------------------------------------
    def num_discrete_state_groups(self):
        return len(self._xd)

    def _check_group(self, fn, i):
        if not 0 <= i < len(self._xd):
            raise ContextError(
                f"Context.{fn}: discrete state group {i} out of range; {self._describe()} has "
                f"{len(self._xd)} group(s)")

    def get_discrete_state(self, i=0):
        """Discrete state group ``i``, shape (n_i,), read-only."""
        self._check_group("get_discrete_state", i)
        return self._xd_ro[i]

    def get_discrete_state_vector(self):
        """The only discrete state group, shape (n,), read-only."""
        if len(self._xd) != 1:
            raise ContextError(
                f"Context.get_discrete_state_vector: requires exactly one discrete state group, "
                f"{self._describe()} has {len(self._xd)}")
        return self._xd_ro[0]

    def set_discrete_state(self, i_or_x, x=None):
        """``set_discrete_state(x)`` (group 0) or ``set_discrete_state(i, x)``."""
        if x is None:
            i, x = 0, i_or_x
        else:
            i = int(i_or_x)
        self._check_group("set_discrete_state", i)
        x = np.asarray(x, dtype=float)
        if x.size != self._xd[i].size:
            raise ContextError(
                f"Context.set_discrete_state: group {i} of {self._describe()} has size "
                f"{self._xd[i].size}, got a value of size {x.size}")
        self._xd[i][:] = x.reshape(-1)
        notify(self.trk_xd[i], self._root.version)

    def get_mutable_discrete_state(self, i=0):
        """A BasicVector writing into group ``i`` (marks the group changed now)."""
        self._check_group("get_mutable_discrete_state", i)
        notify(self.trk_xd[i], self._root.version)
        return BasicVector._wrap(self._xd[i])

    def get_mutable_discrete_state_vector(self):
        return self.get_mutable_discrete_state(0)

    # ---- abstract state -----------------------------------------------------------------------
    def num_abstract_states(self):
        return len(self._xa)

    def _check_abstract(self, fn, i):
        if not 0 <= i < len(self._xa):
            raise ContextError(
                f"Context.{fn}: abstract state {i} out of range; {self._describe()} has "
                f"{len(self._xa)} abstract state(s)")

    def get_abstract_state(self, i=0):
        """The value held by abstract state ``i``."""
        self._check_abstract("get_abstract_state", i)
        return self._xa[i].get_value()

    def get_mutable_abstract_state(self, i=0):
        """The (mutable) value of abstract state ``i``; marks it changed."""
        self._check_abstract("get_mutable_abstract_state", i)
        notify(self.trk_xa[i], self._root.version)
        return self._xa[i].get_mutable_value()

    def set_abstract_state(self, i, value):
        self._check_abstract("set_abstract_state", i)
        self._xa[i].set_value(value)
        notify(self.trk_xa[i], self._root.version)

    # ---- parameters ---------------------------------------------------------------------------
    def num_numeric_parameter_groups(self):
        return len(self._p)

    def num_abstract_parameters(self):
        return len(self._pa)

    def _check_param(self, fn, i):
        if not 0 <= i < len(self._p):
            raise ContextError(
                f"Context.{fn}: numeric parameter {i} out of range; {self._describe()} has "
                f"{len(self._p)} numeric parameter(s)")

    def get_numeric_parameter(self, i=0):
        """Numeric parameter ``i``, shape (n_i,), read-only."""
        self._check_param("get_numeric_parameter", i)
        return self._p_ro[i]

    def set_numeric_parameter(self, i, value):
        self._check_param("set_numeric_parameter", i)
        value = np.asarray(value, dtype=float)
        if value.size != self._p[i].size:
            raise ContextError(
                f"Context.set_numeric_parameter: parameter {i} of {self._describe()} has size "
                f"{self._p[i].size}, got a value of size {value.size}")
        self._p[i][:] = value.reshape(-1)
        notify(self.trk_p[i], self._root.version)

    def get_mutable_numeric_parameter(self, i=0):
        self._check_param("get_mutable_numeric_parameter", i)
        notify(self.trk_p[i], self._root.version)
        return BasicVector._wrap(self._p[i])

    def get_abstract_parameter(self, i=0):
        if not 0 <= i < len(self._pa):
            raise ContextError(
                f"Context.get_abstract_parameter: abstract parameter {i} out of range; "
                f"{self._describe()} has {len(self._pa)}")
        return self._pa[i].get_value()

    def set_abstract_parameter(self, i, value):
        if not 0 <= i < len(self._pa):
            raise ContextError(
                f"Context.set_abstract_parameter: abstract parameter {i} out of range; "
                f"{self._describe()} has {len(self._pa)}")
        self._pa[i].set_value(value)
        notify(self.trk_pa[i], self._root.version)

    # ---- copying ------------------------------------------------------------------------------
    def _copy_state_and_parameters_from(self, src):
        for dst_g, src_g in zip(self._xd, src._xd):
            dst_g[:] = src_g
        for k, value in enumerate(src._xa):
            self._xa[k] = value.clone()
        for dst_p, src_p in zip(self._p, src._p):
            dst_p[:] = src_p
        for k, value in enumerate(src._pa):
            self._pa[k] = value.clone()
        version = self._root.version
        for note in (self.note_xd, self.note_xa, self.note_p):
            notify(note, version)

    def _rebuild_own_views(self):
        super()._rebuild_own_views()
        self._xd_ro = [_readonly(g) for g in self._xd]
        self._p_ro = [_readonly(p) for p in self._p]
        entries = list(self.out_entries) + list(self.cache_entries)
        if self.deriv_entry is not None:
            entries.append(self.deriv_entry)
        for entry in entries:
            if isinstance(entry.value, np.ndarray):
                entry.ro = _readonly(entry.value)
                if isinstance(entry.holder, BasicVector):
                    entry.holder._data = entry.value
            else:
                entry.ro = entry.value
                if isinstance(entry.holder, Value):
                    entry.holder._value = entry.value
        if self.deriv_holder is not None and self.deriv_entry is not None:
            self.deriv_holder._data = self.deriv_entry.value


class DiagramContext(Context):
    """The context of a Diagram: a list of subcontexts, one per subsystem."""

    def __init__(self, system, subcontexts):
        super().__init__(system)
        self._subcontexts = list(subcontexts)
        self.deriv_entry = None
        self._single_deriv_part = None
        self._deriv_from_leaf = False      # the last derivatives came from that leaf
        self._xc_closure = None
        self._affine_plan = None
        self._leaves = []
        self._xd_map = []
        self._xa_map = []
        self._p_map = []

    def _all_contexts(self):
        yield self
        for sub in self._subcontexts:
            yield from sub._all_contexts()

    def _leaf_contexts(self):
        return iter(self._leaves)

    def _rebuild_own_views(self):
        super()._rebuild_own_views()
        if self.deriv_entry is not None:
            self.deriv_entry.ro = _readonly(self.deriv_entry.value)

    def get_subsystem_context(self, index):
        return self._subcontexts[index]

    def num_subcontexts(self):
        return len(self._subcontexts)

    def _notify_xc(self):
        root = self._root
        cached = self._xc_closure
        if cached is None or cached[0] != root.version:
            cached = (root.version, downstream_entries([c.note_xc for c in self._leaves]))
            self._xc_closure = cached
        for entry in cached[1]:
            entry.valid = False

    def _notify_part(self, part):
        closure = downstream_entries([getattr(c, "trk_" + part) for c in self._leaves])
        for entry in closure:
            entry.valid = False

    # Discrete and abstract state, parameters: the concatenation of the leaves' groups.
    def num_discrete_state_groups(self):
        return len(self._xd_map)

    def _map(self, table, fn, i, what):
        if not 0 <= i < len(table):
            raise ContextError(
                f"Context.{fn}: {what} {i} out of range; {self._describe()} has {len(table)}")
        return table[i]

    def get_discrete_state(self, i=0):
        leaf, k = self._map(self._xd_map, "get_discrete_state", i, "discrete state group")
        return leaf.get_discrete_state(k)

    def get_discrete_state_vector(self):
        """All discrete state of the subtree concatenated, shape (n,), a read-only copy."""
        if not self._xd_map:
            return _readonly(np.zeros(0))
        out = np.concatenate([leaf._xd[k] for leaf, k in self._xd_map])
        out.flags.writeable = False
        return out

    def set_discrete_state(self, i_or_x, x=None):
        if x is not None:
            leaf, k = self._map(self._xd_map, "set_discrete_state", int(i_or_x), "discrete state group")
            leaf.set_discrete_state(k, x)
            return
        x = np.asarray(i_or_x, dtype=float).reshape(-1)
        total = sum(leaf._xd[k].size for leaf, k in self._xd_map)
        if len(self._xd_map) == 1:
            leaf, k = self._xd_map[0]
            leaf.set_discrete_state(k, x)
            return
        if x.size != total:
            raise ContextError(
                f"Context.set_discrete_state: the discrete state of {self._describe()} has size "
                f"{total}, got {x.size}")
        start = 0
        for leaf, k in self._xd_map:
            n = leaf._xd[k].size
            leaf.set_discrete_state(k, x[start:start + n])
            start += n

    def get_mutable_discrete_state(self, i=0):
        leaf, k = self._map(self._xd_map, "get_mutable_discrete_state", i, "discrete state group")
        return leaf.get_mutable_discrete_state(k)

    def num_abstract_states(self):
        return len(self._xa_map)

    def get_abstract_state(self, i=0):
        leaf, k = self._map(self._xa_map, "get_abstract_state", i, "abstract state")
        return leaf.get_abstract_state(k)

    def get_mutable_abstract_state(self, i=0):
        leaf, k = self._map(self._xa_map, "get_mutable_abstract_state", i, "abstract state")
        return leaf.get_mutable_abstract_state(k)

    def set_abstract_state(self, i, value):
        leaf, k = self._map(self._xa_map, "set_abstract_state", i, "abstract state")
        leaf.set_abstract_state(k, value)

    def num_numeric_parameter_groups(self):
        return len(self._p_map)

    def get_numeric_parameter(self, i=0):
        leaf, k = self._map(self._p_map, "get_numeric_parameter", i, "numeric parameter")
        return leaf.get_numeric_parameter(k)

    def set_numeric_parameter(self, i, value):
        leaf, k = self._map(self._p_map, "set_numeric_parameter", i, "numeric parameter")
        leaf.set_numeric_parameter(k, value)


def _aggregate(description, parts):
    """A ticket tracker that every tracker in ``parts`` notifies."""
    tracker = Tracker(description)
    for part in parts:
        part.subscribe(tracker)
    return tracker


def _note(description, parts):
    """A change note: notifying it reaches everything downstream of each of ``parts``."""
    note = Tracker("change of " + description)
    note.subscribers = list(parts)
    return note


def make_cache_entry(value, description, holder=None):
    """A new cache entry around preallocated storage."""
    return CacheEntryValue(value, description, holder)
