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

from .cache import Tracker, downstream_entries, notify
from .errors import ContextError
from .parameters import Parameters
from .state import AbstractValues, ContinuousState, DiscreteValues, State, discrete_state_view
from .value import BasicVector, Value, as_vector_base


def _readonly(array):
    view = array.view()
    view.flags.writeable = False
    return view



def _discrete_state_args(i_or_x, x, group_index, xd):
    """(i_or_x, x) of ``set_discrete_state`` from its positional arguments and pydrake's
    keywords ``group_index=`` / ``xd=``."""
    if group_index is None and xd is None:
        if i_or_x is None:
            raise TypeError("Context.set_discrete_state: give the values (xd), or a group "
                            "index and the values")
        return i_or_x, x
    if xd is None or (group_index is not None and (i_or_x is not None or x is not None)) \
            or (group_index is None and x is not None):
        raise TypeError("Context.set_discrete_state: give (xd) or (group_index, xd), each once")
    if group_index is None:
        return (xd, None) if i_or_x is None else (i_or_x, xd)
    return group_index, xd

class _RootData:
    """State shared by every context of one tree."""

    __slots__ = ("time", "accuracy", "xc", "version", "validations", "time_tracker",
                 "accuracy_tracker", "xc_root_closure", "cache_frozen", "__weakref__")

    def __init__(self, nxc):
        self.time = 0.0
        self.accuracy = None
        self.xc = np.zeros(nxc)
        self.version = 0
        self.validations = 0    # cache entries made valid so far (see cache.notify_changed)
        self.time_tracker = Tracker("time")
        self.accuracy_tracker = Tracker("accuracy")
        self.xc_root_closure = None
        self.cache_frozen = False


class FixedInputPortValue(Tracker):
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

    def get_mutable_data(self):
        """The fixed value as a Value for in-place changes (Drake's ``GetMutableData``):
        for a vector port a Value holding a BasicVector view of the fixed array, for an
        abstract port a Value holding the fixed object itself. Invalidates everything that
        depends on this input, as Drake does."""
        for entry in downstream_entries((self,)):
            entry.valid = False
        if self.is_vector:
            return Value(BasicVector._wrap(self.value))
        return Value(self.value)

    def get_mutable_vector_data(self):
        """The fixed value of a vector port as a BasicVector view (Drake's
        ``GetMutableVectorData``); invalidates the dependents."""
        if not self.is_vector:
            raise TypeError("FixedInputPortValue.get_mutable_vector_data: the port is abstract; "
                            "use get_mutable_data()")
        return self.get_mutable_data().get_value()

    def _rebuild(self):
        if self.is_vector:
            self.ro = _readonly(self.value)


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

    # ---- cache control (Drake's ContextBase) --------------------------------------------------
    def _cache_values(self):
        """Every cache entry value of this context and its subcontexts."""
        for ctx in self._all_contexts():
            yield from getattr(ctx, "cache_entries", ())
            yield from getattr(ctx, "out_entries", ())
            if ctx.deriv_entry is not None:
                yield ctx.deriv_entry

    def disable_caching(self):
        """Recompute every cached value on each evaluation, in this context and its
        subcontexts (a debugging aid: results must not change)."""
        for entry in self._cache_values():
            entry.disable_caching()

    def enable_caching(self):
        """Undo ``disable_caching()`` (also for entries disabled one by one)."""
        for entry in self._cache_values():
            entry.enable_caching()

    def set_all_cache_entries_out_of_date(self):
        """Mark every cached value out of date, so that the next evaluations recompute."""
        for entry in self._cache_values():
            entry.valid = False

    def freeze_cache(self):
        """Forbid recomputing cached values in the whole context tree: evaluating an
        out-of-date entry raises RuntimeError until ``unfreeze_cache()``."""
        self._root.cache_frozen = True

    def unfreeze_cache(self):
        self._root.cache_frozen = False

    def is_cache_frozen(self):
        return self._root.cache_frozen

    # ---- time and accuracy ------------------------------------------------------------------
    def get_time(self):
        """Current time (s)."""
        return self._root.time

    def set_time(self, t=None, *, time_sec=None):
        """Set the time (`t`, or pydrake's keyword `time_sec`); only allowed on the root
        context."""
        if (t is None) == (time_sec is None):
            raise TypeError("Context.set_time: give the time once, as t or time_sec")
        if t is None:
            t = time_sec
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
        """The ContinuousState (q/v/z split, Drake's accessors); reads are read-only views."""
        return ContinuousState._of(self, False)

    def get_mutable_continuous_state(self):
        """The ContinuousState whose ``get_vector()`` and ``get_mutable_*`` accessors write
        into this context."""
        return ContinuousState._of(self, True)

    def get_continuous_state_vector(self):
        """Continuous state of this context, shape (n,) ([q; v; z]), a read-only VectorBase."""
        ro = self._xc_ro
        if ro is not None:
            return ro
        return as_vector_base(self._root.xc[self._xc_index], False)

    def get_mutable_continuous_state_vector(self):
        """The continuous state as a writable VectorBase; marks all of it changed now."""
        return self._xc_mutable()

    # the owner protocol of ContinuousState
    def _xc_read(self):
        return self.get_continuous_state_vector()

    def _xc_write(self, x):
        self.set_continuous_state(x)

    def _xc_mutable(self):
        if not isinstance(self._xc_index, slice):
            raise ContextError(
                f"Context.get_mutable_continuous_state_vector: the continuous state of "
                f"{self._describe()} is not contiguous in the diagram's [q; v; z] layout; use "
                f"set_continuous_state(x) or the q/v/z parts of get_mutable_continuous_state()")
        self._notify_xc()
        return as_vector_base(self._root.xc[self._xc_index], True)

    def _xc_part(self, part, mutable):
        if mutable:
            self._notify_part(part)
        return as_vector_base(self._root.xc[self._part_index[part]], mutable)

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

    # ---- state objects ------------------------------------------------------------------------
    def get_mutable_discrete_state_vector(self):
        """The only discrete state group as a writable VectorBase; marks it changed now."""
        groups = self._discrete_groups()
        if len(groups) != 1:
            raise ContextError(
                f"Context.get_mutable_discrete_state_vector: requires exactly one discrete state "
                f"group, {self._describe()} has {len(groups)}")
        leaf, k = groups[0]
        notify(leaf.trk_xd[k], self._root.version)
        return as_vector_base(leaf._xd[k], True)

    def _discrete_values(self, mutable):
        """DiscreteValues over this context's own group arrays; when ``mutable``, every
        group is marked changed now and again on each write through it."""
        groups = self._discrete_groups()

        def written(i):
            for leaf, k in (groups if i is None else [groups[i]]):
                notify(leaf.trk_xd[k], leaf._root.version)

        if mutable:
            written(None)
        return DiscreteValues([leaf._xd[k] for leaf, k in groups], written if mutable else None)

    def _state(self, mutable):
        if mutable:
            for leaf in self._leaf_contexts():
                leaf._notify_xc()
                notify(leaf.note_xa, leaf._root.version)
        xa = [leaf._xa[k] for leaf, k in self._abstract_values()]
        return State(ContinuousState._of(self, mutable), self._discrete_values(mutable), xa)

    def _parameters(self, mutable):
        leaves = list(self._leaf_contexts())
        numeric = [p for leaf in leaves for p in leaf._p]
        abstract = [v for leaf in leaves for v in leaf._pa]

        def written():
            for leaf in leaves:
                notify(leaf.note_p, leaf._root.version)

        if mutable:
            written()
        return Parameters._over(numeric, abstract, written if mutable else None)

    def get_parameters(self):
        """The numeric and abstract parameters (of every leaf, in order) as Parameters;
        treat as read-only (use ``get_mutable_parameters()``)."""
        return self._parameters(False)

    def get_mutable_parameters(self):
        """The parameters as Parameters writing into this context; marks them changed."""
        return self._parameters(True)

    def get_state(self):
        """All state (continuous, discrete, abstract) of this context as a State object.

        Its arrays are the context's own: treat it as read-only (use get_mutable_state())."""
        return self._state(False)

    def get_mutable_state(self):
        """All state as a State writing into this context; marks all state changed now."""
        return self._state(True)

    def is_stateless(self):
        """True when the context has no continuous, discrete or abstract state."""
        return (self.num_continuous_states() == 0 and self.num_discrete_state_groups() == 0
                and self.num_abstract_states() == 0)

    def has_only_continuous_state(self):
        return (self.num_continuous_states() > 0 and self.num_discrete_state_groups() == 0
                and self.num_abstract_states() == 0)

    def has_only_discrete_state(self):
        return (self.num_discrete_state_groups() > 0 and self.num_continuous_states() == 0
                and self.num_abstract_states() == 0)

    def num_total_states(self):
        """Continuous plus discrete state variables (abstract states are not counted)."""
        return self.num_continuous_states() + sum(
            leaf._xd[k].size for leaf, k in self._discrete_groups())

    # ---- inputs -------------------------------------------------------------------------------
    def num_input_ports(self):
        """Number of input ports of this context's system."""
        return len(self._inputs)

    def num_output_ports(self):
        """Number of output ports of this context's system."""
        return self._system.num_output_ports()

    # ---- description --------------------------------------------------------------------------
    def get_system_path(self):
        """The system's path from the root, Drake style: ``::diagram::subsystem``."""
        names = []
        ctx = self
        while ctx is not None:
            names.append(ctx._system.get_name())
            ctx = ctx._parent
        return "::" + "::".join(reversed(names))

    def __str__(self):
        return self.to_string()

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
        """Copy time, accuracy, all state and parameters from a context of the same system
        (or of another system with the same layout, as Drake allows)."""
        self._check_compatible("set_time_state_and_parameters_from", source)
        if self._parent is None:
            self._root.time = source._root.time
            self._root.accuracy = source._root.accuracy
            notify(self._root.time_tracker, self._root.version)
            notify(self._root.accuracy_tracker, self._root.version)
        self.set_state_and_parameters_from(source)

    def set_state_and_parameters_from(self, source):
        """Copy all state and parameters (not time or accuracy) from a context of the same
        system, or of another system with the same layout."""
        self._check_compatible("set_state_and_parameters_from", source)
        self.set_continuous_state(source.get_continuous_state_vector())
        for dst, src in zip(self._leaf_contexts(), source._leaf_contexts()):
            dst._copy_state_and_parameters_from(src)

    def _layout(self):
        """What must match for state and parameters to copy: per leaf its system type,
        (nq, nv, nz), discrete group sizes, abstract state count and parameter sizes."""
        return [(type(leaf._system), leaf._nq, leaf._nv, leaf._nz,
                 tuple(g.size for g in leaf._xd), len(leaf._xa),
                 tuple(p.size for p in leaf._p), len(leaf._pa))
                for leaf in self._leaf_contexts()]

    def _check_compatible(self, fn, source):
        if not isinstance(source, Context) or (
                source._system is not self._system and source._layout() != self._layout()):
            got = source._describe() if isinstance(source, Context) else type(source).__name__
            raise ContextError(
                f"Context.{fn}: source context belongs to {got}, whose state and parameters "
                f"are not laid out as those of {self._describe()}")

    def _rebuild_views(self):
        for ctx in self._all_contexts():
            ctx._rebuild_own_views()

    def _rebuild_own_views(self):
        idx = self._xc_index
        if isinstance(idx, slice):
            self._xc_ro = as_vector_base(self._root.xc[idx], False)
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

    def get_discrete_state(self, index=None):
        """Discrete state group ``index``, shape (n_i,), read-only. Without ``index``, as Drake, all
        groups: a DiscreteStateView (group 0 as the array, ``num_groups()``,
        ``get_vector(k)``)."""
        if index is None:
            return discrete_state_view(self._xd_ro)
        self._check_group("get_discrete_state", index)
        return self._xd_ro[index]

    def get_discrete_state_vector(self):
        """The only discrete state group, shape (n,), read-only."""
        if len(self._xd) != 1:
            raise ContextError(
                f"Context.get_discrete_state_vector: requires exactly one discrete state group, "
                f"{self._describe()} has {len(self._xd)}")
        return self._xd_ro[0]

    def set_discrete_state(self, i_or_x=None, x=None, *, group_index=None, xd=None):
        """``set_discrete_state(x)`` (group 0) or ``set_discrete_state(i, x)``; pydrake's
        keywords ``group_index=`` and ``xd=`` are accepted."""
        i_or_x, x = _discrete_state_args(i_or_x, x, group_index, xd)
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

    def get_mutable_discrete_state(self, index=None):
        """With an index, a BasicVector writing into group ``index``; without, the
        DiscreteValues of all groups writing into this context. Marks what it covers
        changed now (as Drake's mutable accessors do)."""
        if index is None:
            return self._discrete_values(True)
        self._check_group("get_mutable_discrete_state", index)
        notify(self.trk_xd[index], self._root.version)
        return BasicVector._wrap(self._xd[index])

    def _discrete_groups(self):
        return [(self, k) for k in range(len(self._xd))]

    def _abstract_values(self):
        return [(self, k) for k in range(len(self._xa))]

    # ---- abstract state -----------------------------------------------------------------------
    def num_abstract_states(self):
        return len(self._xa)

    def _check_abstract(self, fn, i):
        if not 0 <= i < len(self._xa):
            raise ContextError(
                f"Context.{fn}: abstract state {i} out of range; {self._describe()} has "
                f"{len(self._xa)} abstract state(s)")

    def get_abstract_state(self, index=None):
        """Abstract state ``index`` as its Value (``.get_value()`` is the held object), or all
        of them as AbstractValues without ``index`` (Drake's return types)."""
        if index is None:
            return AbstractValues(self._xa)
        self._check_abstract("get_abstract_state", index)
        return self._xa[index]

    def get_mutable_abstract_state(self, index=None):
        """As ``get_abstract_state``, for writing (``.set_value(x)``); marks the abstract
        state changed."""
        if index is None:
            notify(self.note_xa, self._root.version)
            return AbstractValues(self._xa)
        self._check_abstract("get_mutable_abstract_state", index)
        notify(self.trk_xa[index], self._root.version)
        return self._xa[index]

    def set_abstract_state(self, index, value):
        self._check_abstract("set_abstract_state", index)
        self._xa[index].set_value(value)
        notify(self.trk_xa[index], self._root.version)

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

    def get_numeric_parameter(self, index=0):
        """Numeric parameter ``index``, shape (n_i,), read-only."""
        self._check_param("get_numeric_parameter", index)
        return self._p_ro[index]

    def set_numeric_parameter(self, index, value):
        self._check_param("set_numeric_parameter", index)
        value = np.asarray(value, dtype=float)
        if value.size != self._p[index].size:
            raise ContextError(
                f"Context.set_numeric_parameter: parameter {index} of {self._describe()} has size "
                f"{self._p[index].size}, got a value of size {value.size}")
        self._p[index][:] = value.reshape(-1)
        notify(self.trk_p[index], self._root.version)

    def get_mutable_numeric_parameter(self, index=0):
        self._check_param("get_mutable_numeric_parameter", index)
        notify(self.trk_p[index], self._root.version)
        return BasicVector._wrap(self._p[index])

    def get_abstract_parameter(self, index=0):
        """Abstract parameter ``index`` as its Value (Drake's return type)."""
        if not 0 <= index < len(self._pa):
            raise ContextError(
                f"Context.get_abstract_parameter: abstract parameter {index} out of range; "
                f"{self._describe()} has {len(self._pa)}")
        return self._pa[index]

    def set_abstract_parameter(self, index, value):
        if not 0 <= index < len(self._pa):
            raise ContextError(
                f"Context.set_abstract_parameter: abstract parameter {index} out of range; "
                f"{self._describe()} has {len(self._pa)}")
        self._pa[index].set_value(value)
        notify(self.trk_pa[index], self._root.version)

    def to_string(self):
        """Drake's summary of a leaf context: time, states and parameters."""
        title = f"{self.get_system_path()} Context"
        lines = [title, _rule(title), f"Time: {_fmt(self.get_time())}"]
        nxc, nxd, nxa = len(self._root.xc[self._xc_index]), len(self._xd), len(self._xa)
        if nxc or nxd or nxa:
            lines.append("States:")
            if nxc:
                lines += [f"  {nxc} continuous states",
                          f"    {_fmt(self.get_continuous_state_vector())}"]
            if nxd:
                lines.append(f"  {nxd} discrete state groups with")
                for g in self._xd:
                    lines += [f"     {g.size} states", f"       {_fmt(g)}"]
            if nxa:
                lines.append(f"  {nxa} abstract states")
            lines.append("")
        if self._p or self._pa:
            lines.append("Parameters:")
            if self._p:
                lines.append(f"  {len(self._p)} numeric parameter groups with")
                for p in self._p:
                    lines += [f"     {p.size} parameters", f"       {_fmt(p)}"]
            if self._pa:
                lines.append(f"  {len(self._pa)} abstract parameters")
        return "\n".join(lines) + "\n"

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
        self._xd_ro = [as_vector_base(g, False) for g in self._xd]
        self._p_ro = [as_vector_base(p, False) for p in self._p]
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
            self.deriv_entry.ro = as_vector_base(self.deriv_entry.value, False)


class DiagramContext(Context):
    """The context of a Diagram: a list of subcontexts, one per subsystem."""

    def __init__(self, system, subcontexts):
        super().__init__(system)
        self._subcontexts = list(subcontexts)
        self.deriv_entry = None
        self._single_deriv_part = None
        self._deriv_from_leaf = False      # the last derivatives came from that leaf
        self._xc_closure = None
        self._calc_xcdot = calc_derivatives_block_by_block
        self._single_part_default = None
        self._affine_choice = None         # None: the Simulator may fuse (affine_fusion)
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
            self.deriv_entry.ro = as_vector_base(self.deriv_entry.value, False)

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

    def _install_derivative_calc(self, calc):
        """Evaluate this context's derivatives with ``calc(ctx, out)`` (None: block by
        block, the default); used by explicit transforms such as affine fusion."""
        if calc is None:
            self._calc_xcdot = calc_derivatives_block_by_block
            self._single_deriv_part = self._single_part_default
        else:
            self._calc_xcdot = calc
            self._single_deriv_part = None
        self.deriv_entry.valid = False

    def _notify_part(self, part):
        closure = downstream_entries([getattr(c, "trk_" + part) for c in self._leaves])
        for entry in closure:
            entry.valid = False

    # Discrete and abstract state, parameters: the concatenation of the leaves' groups.
    def num_discrete_state_groups(self):
        return len(self._xd_map)

    def _discrete_groups(self):
        return self._xd_map

    def _abstract_values(self):
        return self._xa_map

    def get_mutable_discrete_state(self, index=None):
        """As for a leaf context: all groups (DiscreteValues) without an index."""
        if index is None:
            return self._discrete_values(True)
        leaf, k = self._map(self._xd_map, "get_mutable_discrete_state", index, "discrete state group")
        return leaf.get_mutable_discrete_state(k)

    def to_string(self):
        """Drake's summary of a diagram context: totals, then each subcontext's."""
        title = f"{self.get_system_path()} Context (of a Diagram)"
        lines = [title, _rule(title)]
        if self.num_continuous_states():
            lines.append(f"{self.num_continuous_states()} total continuous states")
        if self._xd_map:
            total = sum(leaf._xd[k].size for leaf, k in self._xd_map)
            lines.append(f"{total} total discrete states in {len(self._xd_map)} groups")
        if self._xa_map:
            lines.append(f"{len(self._xa_map)} total abstract states")
        if self._p_map:
            total = sum(leaf._p[k].size for leaf, k in self._p_map)
            lines.append(f"{total} total numeric parameters in {len(self._p_map)} groups")
        n_pa = sum(len(leaf._pa) for leaf in self._leaves)
        if n_pa:
            lines.append(f"{n_pa} total abstract parameters")
        text = "\n".join(lines) + "\n"
        for sub in self._subcontexts:
            # as Drake: a subsystem without state or parameters is left out
            if (not sub.is_stateless() or sub.num_numeric_parameter_groups()
                    or sub.num_abstract_parameters()):
                text += "\n" + sub.to_string()
        return text

    def _map(self, table, fn, i, what):
        if not 0 <= i < len(table):
            raise ContextError(
                f"Context.{fn}: {what} {i} out of range; {self._describe()} has {len(table)}")
        return table[i]

    def get_discrete_state(self, index=None):
        if index is None:
            return discrete_state_view([leaf._xd_ro[k] for leaf, k in self._xd_map])
        leaf, k = self._map(self._xd_map, "get_discrete_state", index, "discrete state group")
        return leaf.get_discrete_state(k)

    def get_discrete_state_vector(self):
        """All discrete state of the subtree concatenated, shape (n,), a read-only copy."""
        if not self._xd_map:
            return as_vector_base(np.zeros(0), False)
        if len(self._xd_map) == 1:
            leaf, k = self._xd_map[0]
            return leaf._xd_ro[k]
        return as_vector_base(np.concatenate([leaf._xd[k] for leaf, k in self._xd_map]), False)

    def set_discrete_state(self, i_or_x=None, x=None, *, group_index=None, xd=None):
        i_or_x, x = _discrete_state_args(i_or_x, x, group_index, xd)
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

    def num_abstract_states(self):
        return len(self._xa_map)

    def get_abstract_state(self, index=None):
        if index is None:
            return AbstractValues([leaf._xa[k] for leaf, k in self._xa_map])
        leaf, k = self._map(self._xa_map, "get_abstract_state", index, "abstract state")
        return leaf.get_abstract_state(k)

    def get_mutable_abstract_state(self, index=None):
        if index is None:
            for leaf in self._leaves:
                notify(leaf.note_xa, leaf._root.version)
            return AbstractValues([leaf._xa[k] for leaf, k in self._xa_map])
        leaf, k = self._map(self._xa_map, "get_mutable_abstract_state", index, "abstract state")
        return leaf.get_mutable_abstract_state(k)

    def set_abstract_state(self, index, value):
        leaf, k = self._map(self._xa_map, "set_abstract_state", index, "abstract state")
        leaf.set_abstract_state(k, value)

    def num_numeric_parameter_groups(self):
        return len(self._p_map)

    def get_numeric_parameter(self, index=0):
        leaf, k = self._map(self._p_map, "get_numeric_parameter", index, "numeric parameter")
        return leaf.get_numeric_parameter(k)

    def set_numeric_parameter(self, index, value):
        leaf, k = self._map(self._p_map, "set_numeric_parameter", index, "numeric parameter")
        leaf.set_numeric_parameter(k, value)


def _fmt(values):
    """Numbers as Drake prints a context's (fmt_eigen's default layout since Drake 1.52,
    which Drake's own tests expect): a scalar ``0.5``, a vector ``[1, 2.5, -3]`` (%g)."""
    if np.isscalar(values):
        return f"{float(values):g}"
    return "[" + ", ".join(f"{float(v):g}" for v in np.asarray(values).reshape(-1)) + "]"


def _rule(title):
    """Drake's underline of a context's title: one dash per byte (UTF-8) and one more."""
    return "-" * (len(title.encode("utf-8")) + 1)


def calc_derivatives_block_by_block(ctx, out):
    """A diagram context's default derivative evaluation: each leaf's (cached) derivatives
    into its part of ``out``."""
    for system, leaf_ctx, index in ctx._deriv_parts:
        out[index] = system.eval_time_derivatives(leaf_ctx)


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


#: Drake's scalar-type-independent ContextBase and Context<T> are one class here (one
#: scalar type).
ContextBase = Context
