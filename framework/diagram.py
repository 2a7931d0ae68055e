"""Diagram: a system made of subsystems wired by a DiagramBuilder (Drake's Diagram)."""

import numpy as np

from . import graphviz
from .cache import frozen_cache_error
from .context import DiagramContext
from .indices import InputPortIndex, OutputPortIndex
from .ports import VECTOR, DiagramInputPort, DiagramOutputPort
from .state import DiscreteValues
from .system import System, _write_derivatives


class Diagram(System):
    """A built, immutable composition of systems. Create it with ``DiagramBuilder.build()``.

    Continuous state, discrete state groups, abstract states and parameters of a Diagram
    are those of its leaves, in depth-first order (continuous state as [all q; all v;
    all z], as Drake lays it out).
    """

    def __init__(self):
        super().__init__()
        self._systems = []
        self._connection_map = {}      # (subsystem index, input index) -> (subsystem index, output index)
        self._input_export_of = {}     # (subsystem index, input index) -> diagram input index
        self._output_sources = []      # diagram output index -> (subsystem index, output index)
        self._feedthrough = None

    # ---- construction (called by the builder) -------------------------------------------------
    def _initialize(self, name, systems, connections, input_exports, output_exports, feedthrough):
        self._name = name
        self._systems = list(systems)
        index_of = {id(s): k for k, s in enumerate(self._systems)}
        for k, s in enumerate(self._systems):
            s._parent = self
            s._index_in_parent = k
        for src, dst in connections:
            self._connection_map[(index_of[id(dst.get_system())], dst.get_index())] = (
                index_of[id(src.get_system())], src.get_index())
        for name_i, targets in input_exports:
            first = targets[0]
            index = len(self._input_ports)
            tlist = [(index_of[id(p.get_system())], p.get_index()) for p in targets]
            for key in tlist:
                self._input_export_of[key] = index
            port = DiagramInputPort(self, index, name_i, first.get_data_type(), first.size(),
                                    first._model_value, tlist)
            self._input_ports.append(port)
        for name_o, src in output_exports:
            k = index_of[id(src.get_system())]
            self._output_sources.append((k, src.get_index()))
            if isinstance(src, DiagramOutputPort):
                leaf_port, path = src._source, [k] + list(src._path)
            else:
                leaf_port, path = src, [k]
            port = DiagramOutputPort(self, len(self._output_ports), name_o, leaf_port, tuple(path))
            self._output_ports.append(port)
        self._feedthrough = feedthrough

    # ---- structure ----------------------------------------------------------------------------
    def accept(self, v):
        """Visitor dispatch: ``v.visit_diagram(self)`` (see SystemVisitor)."""
        return v.visit_diagram(self)

    def get_systems(self):
        """The subsystems, in the order they were added."""
        return list(self._systems)

    def get_system(self, index):
        """The subsystem at ``index`` (a SubsystemIndex or int), in order of addition."""
        if not 0 <= int(index) < len(self._systems):
            raise IndexError(
                f"Diagram.get_system: index {int(index)} out of range for diagram "
                f"'{self._name}', which has {len(self._systems)} subsystem(s)")
        return self._systems[int(index)]

    def get_subsystem_by_name(self, name):
        """The direct subsystem named ``name``."""
        for s in self._systems:
            if s.get_name() == name:
                return s
        names = ", ".join(repr(s.get_name()) for s in self._systems)
        raise ValueError(
            f"get_subsystem_by_name: diagram '{self._name}' has no subsystem named {name!r}; "
            f"subsystems: {names}")

    def has_subsystem_named(self, name):
        return any(s.get_name() == name for s in self._systems)

    def _all_systems(self):
        yield self
        for s in self._systems:
            yield from s._all_systems()

    def _subsystems(self):
        return self._systems

    def get_subsystem_context(self, subsystem, context=None, *, root_ctx=None, root_context=None):
        """The context of ``subsystem`` (at any depth) inside this diagram's root ``context``
        (Drake's keywords ``subsystem=``, ``context=``; API.md's ``root_ctx=`` and the
        earlier ``root_context=`` name the same argument)."""
        given = [c for c in (context, root_ctx, root_context) if c is not None]
        if len(given) != 1:
            raise TypeError(f"Diagram.get_subsystem_context(): expected the root context once "
                            f"(as context=, root_ctx= or root_context=), got {len(given)} for "
                            f"diagram '{self.get_name()}'")
        ctx = self._check_context(given[0], "get_subsystem_context")
        if subsystem is self:
            return ctx
        return subsystem.get_my_context_from_root(ctx)

    get_mutable_subsystem_context = get_subsystem_context

    def get_mutable_subsystem_state(self, subsystem, context):
        """The State of ``subsystem`` (at any depth) in this diagram's ``context``, writing
        into it (Drake's GetMutableSubsystemState)."""
        return self.get_subsystem_context(subsystem, context).get_mutable_state()

    def get_subsystem_state(self, subsystem, context):
        return self.get_subsystem_context(subsystem, context).get_state()

    def get_connections(self):
        """List of (source OutputPort, destination InputPort) pairs."""
        return [(self._systems[src[0]].get_output_port(src[1]),
                 self._systems[dst[0]].get_input_port(dst[1]))
                for dst, src in self._connection_map.items()]

    def connection_map(self):
        """The connections as ``{(dest system, input index): (source system, output
        index)}`` (Drake's Diagram::connection_map)."""
        return {(self._systems[dst[0]], InputPortIndex(dst[1])):
                (self._systems[src[0]], OutputPortIndex(src[1]))
                for dst, src in self._connection_map.items()}

    def get_input_port_locators(self, port_index):
        """The subsystem input ports that diagram input ``port_index`` feeds, as a list of
        ``(subsystem, input index)`` (Drake's ``GetInputPortLocators``)."""
        i = self.get_input_port(port_index).get_index()
        return [(self._systems[k], j) for (k, j), idx in self._input_export_of.items()
                if idx == i]

    def get_output_port_locator(self, port_index):
        """The ``(subsystem, output index)`` that diagram output ``port_index`` exports
        (Drake's ``get_output_port_locator``)."""
        k, j = self._output_sources[self.get_output_port(port_index).get_index()]
        return (self._systems[k], j)

    def are_connected(self, output, input):
        """Whether subsystem output port ``output`` feeds subsystem input port ``input``
        inside this diagram (Drake's ``AreConnected``)."""
        idx = {id(s): k for k, s in enumerate(self._systems)}
        src = idx.get(id(output.get_system()))
        dst = idx.get(id(input.get_system()))
        if src is None or dst is None:
            return False
        return self._connection_map.get((dst, input.get_index())) == (src, output.get_index())

    def _has_feedthrough(self, input_index, output_index):
        i = self.get_input_port(input_index).get_index()
        j = self.get_output_port(output_index).get_index()
        return (i, j) in self._feedthrough

    def num_continuous_states(self):
        return sum(s.num_continuous_states() for s in self._systems)

    def num_discrete_state_groups(self):
        return sum(s.num_discrete_state_groups() for s in self._systems)

    def num_abstract_states(self):
        return sum(s.num_abstract_states() for s in self._systems)

    def num_numeric_parameter_groups(self):
        return sum(s.num_numeric_parameter_groups() for s in self._systems)

    def num_abstract_parameters(self):
        return sum(s.num_abstract_parameters() for s in self._systems)

    # ---- periodic updates and witnesses over the leaves (Drake's System methods) ------------
    def _leaf_systems(self):
        """The leaf systems of the subtree, depth first in subsystem order."""
        for system in self._systems:
            if isinstance(system, Diagram):
                yield from system._leaf_systems()
            else:
                yield system

    def get_unique_periodic_discrete_update_attribute(self):
        """The PeriodicEventData shared by every periodic discrete update of the leaves,
        or None when there is none or several timings (Drake's
        GetUniquePeriodicDiscreteUpdateAttribute)."""
        timings = {t for leaf in self._leaf_systems() for t, e in leaf.get_periodic_events()
                   if e.kind == "discrete"}
        return next(iter(timings)) if len(timings) == 1 else None

    def is_difference_equation_system(self):
        """``(True, period)`` when the diagram is x[n+1] = f(n, x[n], u[n]): one discrete
        state group in all, no continuous or abstract state, one periodic discrete update
        timing with offset 0; ``(False, 0.0)`` otherwise (pydrake's tuple form of
        IsDifferenceEquationSystem)."""
        timing = self.get_unique_periodic_discrete_update_attribute()
        if (self.num_continuous_states() or self.num_abstract_states()
                or self.num_discrete_state_groups() != 1 or timing is None
                or timing.offset_sec() != 0.0):
            return False, 0.0
        return True, timing.period_sec()

    def is_differential_equation_system(self):
        """True when no leaf has discrete or abstract state and every input port of the
        diagram is a vector port (Drake's IsDifferentialEquationSystem)."""
        return (not self.num_discrete_state_groups() and not self.num_abstract_states()
                and all(self.get_input_port(i).get_data_type() == VECTOR
                        for i in range(self.num_input_ports())))

    def eval_unique_periodic_discrete_update(self, context):
        """The diagram's discrete state (a new DiscreteValues, the groups in the context's
        order) after every leaf's periodic discrete updates, all computed from `context`,
        which is unchanged (Drake's EvalUniquePeriodicDiscreteUpdate).

        Raises
        ------
        ValueError
            When the periodic discrete updates do not share one period and offset.
        """
        fn = "eval_unique_periodic_discrete_update"
        if self.get_unique_periodic_discrete_update_attribute() is None:
            raise ValueError(f"Diagram.{fn}: diagram '{self.get_name()}' must have periodic "
                             f"discrete updates of one single period and offset")
        ctx = self._check_context(context, f"Diagram.{fn}")
        updated = {}
        groups = []
        for leaf_ctx, k in ctx._discrete_groups():
            key = id(leaf_ctx)
            if key not in updated:
                leaf = leaf_ctx._system
                updated[key] = (leaf.eval_unique_periodic_discrete_update(leaf_ctx)
                                if leaf.get_unique_periodic_discrete_update_attribute()
                                else None)
            values = updated[key]
            groups.append(np.array(values.get_value(k) if values is not None
                                   else leaf_ctx.get_discrete_state(k), dtype=float))
        return DiscreteValues(groups)

    def get_witness_functions(self, context):
        """The witness functions of every leaf (Drake's GetWitnessFunctions), in leaf
        order."""
        ctx = self._check_context(context, "Diagram.get_witness_functions")
        return [w for leaf_ctx in ctx._leaves
                for w in leaf_ctx._system.get_witness_functions(leaf_ctx)]

    def do_get_graphviz_fragment(self, params):
        """A cluster of the subsystems' fragments, with the diagram's port nodes and
        edges (a leaf-like node once ``params.max_depth`` reaches 0)."""
        if params.max_depth <= 0:
            return super().do_get_graphviz_fragment(params)
        return graphviz.diagram_fragment(self, params)

    # ---- contexts -----------------------------------------------------------------------------
    def _make_context_tree(self):
        subs = [s._make_context_tree() for s in self._systems]
        ctx = DiagramContext(self, subs)
        for sub in subs:
            sub._parent = ctx
        return ctx

    # ---- dynamics -----------------------------------------------------------------------------
    def eval_time_derivatives(self, context):
        ctx = context if context._system is self else self._context_from(
            context, "eval_time_derivatives")
        entry = ctx.deriv_entry
        single = ctx._single_deriv_part
        if single is not None:
            # The leaf's own (cached) derivatives are the diagram's; the diagram's entry
            # only records that they are current (integrators count evaluations by it).
            entry.valid = True
            ctx._deriv_from_leaf = True
            return single[0].eval_time_derivatives(single[1])
        if entry.valid and not ctx._deriv_from_leaf:
            return entry.ro
        if ctx._root.cache_frozen:
            raise frozen_cache_error(entry)
        ctx._deriv_from_leaf = False
        ctx._calc_xcdot(ctx, entry.value)
        entry.valid = entry.enabled
        return entry.ro

    def calc_time_derivatives(self, context, derivatives):
        ctx = self._check_context(context, "calc_time_derivatives")
        out = np.zeros(ctx.num_continuous_states())
        for system, leaf_ctx, index in ctx._deriv_parts:
            part = np.zeros(leaf_ctx.num_continuous_states())
            system.calc_time_derivatives(leaf_ctx, part)
            out[index] = part
        _write_derivatives(self, out, derivatives)

    def _split(self, ctx, values, attr, fn):
        values = np.asarray(values, dtype=float).reshape(-1)
        expected = sum(getattr(c._system, attr) for c in ctx._leaves)
        if values.size != expected:
            raise ValueError(
                f"{fn}: argument has size {values.size}, expected {expected} for diagram "
                f"'{self._name}'")
        return values

    def map_velocity_to_qdot(self, context, v):
        ctx = self._context_from(context, "map_velocity_to_qdot")
        v = self._split(ctx, v, "_nv", "map_velocity_to_qdot")
        parts, start = [], 0
        for leaf in ctx._leaves:
            s = leaf._system
            if s._nq:
                parts.append(s.map_velocity_to_qdot(leaf, v[start:start + s._nv]))
            start += s._nv
        return np.concatenate(parts) if parts else np.zeros(0)

    def map_qdot_to_velocity(self, context, qdot):
        ctx = self._context_from(context, "map_qdot_to_velocity")
        qdot = self._split(ctx, qdot, "_nq", "map_qdot_to_velocity")
        parts, start = [], 0
        for leaf in ctx._leaves:
            s = leaf._system
            if s._nq:
                parts.append(s.map_qdot_to_velocity(leaf, qdot[start:start + s._nq]))
            start += s._nq
        return np.concatenate(parts) if parts else np.zeros(0)

    def _energy(self, context, method):
        ctx = self._context_from(context, method)
        return sum(getattr(c._system, method)(c) for c in ctx._subcontexts)

    def calc_kinetic_energy(self, context):
        return self._energy(context, "calc_kinetic_energy")

    def calc_potential_energy(self, context):
        return self._energy(context, "calc_potential_energy")

    def calc_conservative_power(self, context):
        return self._energy(context, "calc_conservative_power")

    def calc_non_conservative_power(self, context):
        return self._energy(context, "calc_non_conservative_power")

    def __getstate__(self):
        return self.__dict__.copy()
