"""System: the base of LeafSystem and Diagram (Drake's System / SystemBase).

A system declares its ports, state, parameters and events at construction and is
immutable afterwards; every number lives in a Context created by
``create_default_context()``. The public methods validate their arguments and call the
overridable ``do_*`` methods.
"""

import itertools

import numpy as np

from .cache import downstream_entries
from .context import DiagramContext, FixedInputValue, LeafContext, _RootData
from .errors import ContextError, PortError
from .ports import VECTOR

_counter = itertools.count(1)


def _names_list(items):
    names = [p.get_name() for p in items]
    return ", ".join(repr(n) for n in names) if names else "(none)"


class System:
    """Base class of every system. Subclass LeafSystem (or build a Diagram) instead."""

    def __init__(self):
        self._name = ""
        self._input_ports = []
        self._output_ports = []
        self._parent = None          # the Diagram containing this system, if any
        self._index_in_parent = -1
        self._uid = next(_counter)

    # ---- names and ports --------------------------------------------------------------------
    def get_name(self):
        """The system's name ("" until named or added to a DiagramBuilder)."""
        return self._name

    def set_name(self, name):
        """Set the system's name (before it is added to a diagram)."""
        if not isinstance(name, str):
            raise TypeError(f"System.set_name: name must be a str, got {type(name).__name__}")
        if self._parent is not None:
            raise RuntimeError(
                f"System.set_name: system '{self._name}' is already part of diagram "
                f"'{self._parent.get_name()}'; names are fixed after build()")
        self._name = name

    def get_system_type(self):
        return f"{type(self).__module__}.{type(self).__qualname__}"

    def num_input_ports(self):
        return len(self._input_ports)

    def num_output_ports(self):
        return len(self._output_ports)

    def _port(self, ports, which, i_or_name, fn):
        if i_or_name is None:
            if len(ports) != 1:
                raise PortError(
                    f"{fn}: system '{self._name}' has {len(ports)} {which} ports "
                    f"({_names_list(ports)}); pass an index or a name")
            return ports[0]
        if isinstance(i_or_name, str):
            for p in ports:
                if p.get_name() == i_or_name:
                    return p
            raise PortError(
                f"{fn}: system '{self._name}' has no {which} port named {i_or_name!r}; "
                f"valid names: {_names_list(ports)}")
        i = int(i_or_name)
        if not 0 <= i < len(ports):
            raise PortError(
                f"{fn}: {which} port index {i} out of range for system '{self._name}', which has "
                f"{len(ports)} {which} port(s)")
        return ports[i]

    def get_input_port(self, i_or_name=None):
        """Input port by index or name; no argument when the system has exactly one."""
        return self._port(self._input_ports, "input", i_or_name, "get_input_port")

    def get_output_port(self, i_or_name=None):
        """Output port by index or name; no argument when the system has exactly one."""
        return self._port(self._output_ports, "output", i_or_name, "get_output_port")

    def has_input_port(self, name):
        return any(p.get_name() == name for p in self._input_ports)

    def has_output_port(self, name):
        return any(p.get_name() == name for p in self._output_ports)

    get_input_port_by_name = get_input_port
    get_output_port_by_name = get_output_port

    # ---- contexts ---------------------------------------------------------------------------
    def allocate_context(self):
        """A new context tree for this system (state not yet set to defaults)."""
        ctx = self._make_context_tree()
        _finalize_root(ctx)
        return ctx

    def create_default_context(self):
        """A new context with default state and parameters."""
        ctx = self.allocate_context()
        self.set_default_context(ctx)
        return ctx

    def set_default_context(self, context):
        """Reset state and parameters in ``context`` to their defaults."""
        ctx = self._check_context(context, "set_default_context")
        for leaf_ctx in ctx._leaf_contexts():
            leaf_ctx._system._set_default_leaf(leaf_ctx)

    def set_random_context(self, context, generator):
        """Set state and parameters from ``generator`` (a numpy Generator); systems without
        randomness use their defaults."""
        ctx = self._check_context(context, "set_random_context")
        for leaf_ctx in ctx._leaf_contexts():
            leaf_ctx._system._set_random_leaf(leaf_ctx, generator)

    def set_default_state(self, context, state=None):
        self.set_default_context(context)

    def _path_from_root(self):
        path = []
        system = self
        while system._parent is not None:
            path.append(system._index_in_parent)
            system = system._parent
        return system, path[::-1]

    def get_my_context_from_root(self, root_context):
        """This system's subcontext within ``root_context`` (the root's own system included)."""
        if root_context._system is self:
            return root_context
        top, path = self._path_from_root()
        ctx = root_context
        if ctx._system is not top:
            # root_context may itself be a subcontext; walk to the real root first.
            while ctx._parent is not None:
                ctx = ctx._parent
            if ctx._system is not top:
                raise ContextError(
                    f"get_my_context_from_root: system '{self._name}' is not part of the diagram "
                    f"'{root_context._system.get_name()}' that owns this context")
        for i in path:
            ctx = ctx._subcontexts[i]
        return ctx

    get_my_mutable_context_from_root = get_my_context_from_root

    def _context_from(self, context, fn):
        """``context`` if it is ours, else our subcontext of the tree it belongs to."""
        if context._system is self:
            return context
        try:
            return self.get_my_context_from_root(context)
        except ContextError:
            raise ContextError(
                f"{fn}: the context was created for system '{context._system.get_name()}' "
                f"({type(context._system).__name__}), which does not contain system "
                f"'{self._name}' ({type(self).__name__})") from None

    def _check_context(self, context, fn):
        if not hasattr(context, "_system"):
            raise TypeError(f"{fn}: expected a Context, got {type(context).__name__}")
        return self._context_from(context, fn)

    def _fix_input(self, ctx, port, value):
        if port._kind == VECTOR:
            if hasattr(value, "get_value") and not isinstance(value, np.ndarray):
                value = value.get_value()
            arr = np.array(value, dtype=float).reshape(-1)
            if arr.size != port.size():
                raise PortError(
                    f"InputPort.fix_value: {port._describe()} has size {port.size()}, got a value "
                    f"of size {arr.size}")
            fixed = FixedInputValue(arr, True)
        else:
            if hasattr(value, "get_value") and type(value).__name__ in ("Value", "AbstractValue"):
                value = value.get_value()
            fixed = FixedInputValue(value, False)
        ctx._fixed[port.get_index()] = fixed
        root = ctx
        while root._parent is not None:
            root = root._parent
        root._root.version += 1
        _wire_subtree(root)      # invalidates the dependents of every input whose source changed
        return fixed

    # ---- dynamics ---------------------------------------------------------------------------
    def eval_time_derivatives(self, context):
        """Time derivatives of the continuous state, shape (n,), cached; read-only."""
        raise NotImplementedError

    def calc_time_derivatives(self, context, derivatives):
        """Compute the time derivatives into ``derivatives`` (an ndarray or a vector object)."""
        xdot = self.eval_time_derivatives(context)
        if isinstance(derivatives, np.ndarray):
            if derivatives.size != xdot.size:
                raise ValueError(
                    f"calc_time_derivatives: derivatives has size {derivatives.size}, expected "
                    f"{xdot.size} for system '{self._name}'")
            derivatives[:] = xdot
        else:
            derivatives.set_value(xdot)

    def map_velocity_to_qdot(self, context, v):
        """q̇ for generalized velocities ``v``; identity unless a system overrides it."""
        raise NotImplementedError

    def map_qdot_to_velocity(self, context, qdot):
        raise NotImplementedError

    def calc_kinetic_energy(self, context):
        return 0.0

    def calc_potential_energy(self, context):
        return 0.0

    def calc_conservative_power(self, context):
        return 0.0

    def calc_non_conservative_power(self, context):
        return 0.0

    # ---- structure --------------------------------------------------------------------------
    def has_direct_feedthrough(self, input_index, output_index=None):
        """True if output ``output_index`` may depend on input ``input_index`` at the same time
        instant. With a single argument, whether any output depends on that input."""
        raise NotImplementedError

    def _all_systems(self):
        yield self

    def get_graphviz_string(self, max_depth=None):
        """A Graphviz (dot) description of the system and its ports."""
        from .graphviz import system_to_graphviz

        return system_to_graphviz(self, max_depth)

    def num_continuous_states(self):
        return 0

    def is_time_invariant_affine(self):
        """True when the outputs and derivatives are time-invariant affine functions of the
        state and inputs for every context (lets diagrams fuse their evaluation)."""
        return False

    def force_publish(self, context):
        """Dispatch the forced publish events of this system (and its subsystems)."""
        ctx = self._check_context(context, "force_publish")
        for leaf_ctx in ctx._leaf_contexts():
            leaf = leaf_ctx._system
            for event in leaf._forced_publish_events:
                _dispatch_status(leaf, event.callback(leaf_ctx), "forced publish")

    ForcedPublish = force_publish

    def simulate(self, t_final, *, context=None, config=None, record=None, progress=None):
        """Simulate from ``context`` (default context if None) to ``t_final``.

        Parameters
        ----------
        t_final : float
            Final time (s).
        context : Context, optional
            Root context to start from; it is advanced in place.
        config : SimulatorConfig, optional
            Integration scheme, accuracy, step size.
        record : dict[str, OutputPort], optional
            Output ports (of this system or any subsystem) sampled at the initial time and
            at the end of every simulator step.
        progress : bool or None
            None shows a progress bar only for runs longer than about two seconds of wall time.

        Returns
        -------
        SimulationResult
            ``time`` (N,), ``outputs[name]`` (size, N), ``context``, ``status``.
        """
        from .simulate import simulate_system

        return simulate_system(self, t_final, context=context, config=config, record=record,
                               progress=progress)

    def __repr__(self):
        return f"<{type(self).__name__} '{self._name}'>"


def _dispatch_status(system, status, what):
    from .events import EventStatus
    from .errors import SimulationError

    if status is not None and isinstance(status, EventStatus) and status.is_failure():
        raise SimulationError(
            f"{what} event handler of system '{system.get_name()}' failed: {status.message()}")
    return status


# ---- context tree construction ------------------------------------------------------------

def _leaves_in_order(ctx, out):
    if isinstance(ctx, DiagramContext):
        for sub in ctx._subcontexts:
            _leaves_in_order(sub, out)
    else:
        out.append(ctx)
    return out


def _as_index(indices):
    indices = np.asarray(indices, dtype=np.int64)
    if indices.size == 0:
        return slice(0, 0)
    if np.all(np.diff(indices) == 1):
        return slice(int(indices[0]), int(indices[-1]) + 1)
    return indices


def _finalize_root(root_ctx):
    """Lay out the continuous state, create cache entries and wire inputs for a new tree."""
    leaves = _leaves_in_order(root_ctx, [])
    nq = sum(c._system._nq for c in leaves)
    nv = sum(c._system._nv for c in leaves)
    nz = sum(c._system._nz for c in leaves)
    root = _RootData(nq + nv + nz)
    global_index = {}
    oq, ov, oz = 0, nq, nq + nv
    for leaf in leaves:
        s = leaf._system
        idx = (list(range(oq, oq + s._nq)) + list(range(ov, ov + s._nv))
               + list(range(oz, oz + s._nz)))
        oq += s._nq
        ov += s._nv
        oz += s._nz
        global_index[id(leaf)] = np.asarray(idx, dtype=np.int64)
    for ctx in root_ctx._all_contexts():
        ctx._root = root
        subtree = _leaves_in_order(ctx, [])
        g = np.concatenate([global_index[id(c)] for c in subtree]) if subtree else np.zeros(0, int)
        # order the subtree's indices as [q; v; z] (already true: q < v < z globally)
        g = np.sort(g)
        ctx._xc_index = _as_index(g)
        ctx._global_xc = g
        ctx._nq = sum(c._system._nq for c in subtree)
        ctx._nv = sum(c._system._nv for c in subtree)
        ctx._nz = sum(c._system._nz for c in subtree)
        nq_sub, nv_sub = ctx._nq, ctx._nv
        # each part of a subtree is contiguous in the root array (its leaves are
        # consecutive in depth-first order)
        ctx._part_index = {"q": _as_index(g[:nq_sub]), "v": _as_index(g[nq_sub:nq_sub + nv_sub]),
                           "z": _as_index(g[nq_sub + nv_sub:])}
    for leaf in leaves:
        leaf._link_root_trackers()
        leaf._system._create_entries(leaf)
    for ctx in root_ctx._all_contexts():
        if isinstance(ctx, DiagramContext):
            _setup_diagram_context(ctx)
    root_ctx._rebuild_views()
    _wire_subtree(root_ctx)


def _setup_diagram_context(ctx):
    from .cache import CacheEntryValue

    leaves = _leaves_in_order(ctx, [])
    ctx._leaves = leaves
    ctx._xd_map = [(leaf, k) for leaf in leaves for k in range(len(leaf._xd))]
    ctx._xa_map = [(leaf, k) for leaf in leaves for k in range(len(leaf._xa))]
    ctx._p_map = [(leaf, k) for leaf in leaves for k in range(len(leaf._p))]
    n = ctx._nq + ctx._nv + ctx._nz
    entry = CacheEntryValue(np.zeros(n), f"time derivatives of '{ctx._system.get_name()}'")
    position = {int(g): i for i, g in enumerate(ctx._global_xc)}
    parts = []
    for leaf in leaves:
        if leaf._global_xc.size == 0:
            continue
        leaf.deriv_entry.subscribe(entry)
        parts.append((leaf._system, leaf, _as_index([position[int(g)] for g in leaf._global_xc])))
    ctx.deriv_entry = entry
    ctx._deriv_parts = parts
    # one leaf holding the whole continuous state in order: its derivatives are the
    # diagram's (no copy)
    ctx._single_deriv_part = (parts[0][:2] if len(parts) == 1 and parts[0][2] == slice(0, n)
                              else None)


def _resolve_output(diagram_ctx, subsystem_index, port_index):
    """The (leaf output port, leaf context) feeding output ``port_index`` of a subsystem."""
    system = diagram_ctx._system._systems[subsystem_index]
    ctx = diagram_ctx._subcontexts[subsystem_index]
    port = system._output_ports[port_index]
    if isinstance(ctx, DiagramContext):
        for i in port._path:
            ctx = ctx._subcontexts[i]
        port = port._source
    return port, ctx


def _set_source(ctx, i, source):
    old = ctx._inputs[i]
    ctx._inputs[i] = source
    if isinstance(ctx, LeafContext):
        trk = ctx.trk_u[i]
        old_node = _source_node(old)
        new_node = _source_node(source)
        if old_node is not None and old_node is not new_node:
            old_node.unsubscribe(trk)
        if new_node is not None:
            new_node.subscribe(trk)
        if old != source:
            for entry in downstream_entries([trk]):
                entry.valid = False


def _source_node(source):
    if source is None:
        return None
    if source.__class__ is tuple:
        port, leaf_ctx = source
        return leaf_ctx.out_entries[port._index]
    return source


def _wire_subtree(ctx):
    """Recompute the input sources of ``ctx`` and everything below it."""
    if ctx._parent is None:
        for i in range(len(ctx._inputs)):
            _set_source(ctx, i, ctx._fixed.get(i))
    if not isinstance(ctx, DiagramContext):
        return
    diagram = ctx._system
    for k, sub in enumerate(ctx._subcontexts):
        for i in range(len(sub._inputs)):
            if i in sub._fixed:
                source = sub._fixed[i]
            else:
                conn = diagram._connection_map.get((k, i))
                if conn is not None:
                    source = _resolve_output(ctx, conn[0], conn[1])
                else:
                    exported = diagram._input_export_of.get((k, i))
                    source = ctx._inputs[exported] if exported is not None else None
            _set_source(sub, i, source)
        _wire_subtree(sub)
    ctx._root.version += 1
