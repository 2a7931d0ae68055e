"""System: the base of LeafSystem and Diagram (Drake's System / SystemBase).

A system declares its ports, state, parameters and events at construction and is
immutable afterwards; every number lives in a Context created by
``create_default_context()``. The public methods validate their arguments and call the
overridable ``do_*`` methods.
"""

import copy
import enum
import itertools
import operator

import numpy as np

from .context import FixedInputPortValue
from .context_tree import finalize_root, wire_subtree
from . import event_dispatch
from .errors import ContextError, PortError
from . import graphviz
from .ports import VECTOR, SystemOutput
from .indices import SystemConstraintIndex
from .system_constraint import make_constraint
from .scalar_conversion import ScalarConversionProperty, SystemScalarConverter
from .state import DiscreteValues, detached_continuous_state
from .value import Value

_counter = itertools.count(1)


def _names_list(items):
    names = [p.get_name() for p in items]
    return ", ".join(repr(n) for n in names) if names else "(none)"


class SystemVisitor:
    """Visitor over a system tree (Drake's SystemVisitor): subclass it, override
    ``visit_system(system)`` (leaves) and ``visit_diagram(diagram)``, and call
    ``system.accept(visitor)``; a diagram's visit usually recurses with
    ``for s in diagram.get_systems(): s.accept(self)``."""

    def visit_system(self, system):
        raise NotImplementedError(f"{type(self).__name__} must override visit_system")

    def visit_diagram(self, diagram):
        raise NotImplementedError(f"{type(self).__name__} must override visit_diagram")


class _SystemType(type):
    """Checks, once a system is constructed, that its ``__init__`` ran System's: a
    subclass whose ``__init__`` forgets ``super().__init__()`` fails at construction with
    a TypeError naming the base to call, instead of later with an AttributeError."""

    def __call__(cls, *args, **kwargs):
        system = super().__call__(*args, **kwargs)
        if "_uid" not in system.__dict__:
            base = next((b.__name__ for b in cls.__mro__[1:]
                         if b.__module__.startswith(__package__)), "System")
            raise TypeError(f"{cls.__name__}.__init__ must call {base}.__init__(self) "
                            f"(or super().__init__()) before returning")
        return system


class System(metaclass=_SystemType):
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

    def get_system_name(self):
        """The name, or ``"_"`` when it is empty (Drake's GetSystemName)."""
        return self._name or "_"

    def get_system_pathname(self):
        """The names from the root diagram down to this system, each preceded by
        ``::`` (Drake's GetSystemPathname, e.g. ``::diagram::adder``)."""
        names, system = [], self
        while system is not None:
            names.append(system.get_system_name())
            system = system._parent
        return "".join("::" + n for n in reversed(names))

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

    @staticmethod
    def _index_or_name(fn, i_or_name, port_index, port_name):
        """The one of `i_or_name` and pydrake's keywords ``port_index=``, ``port_name=``
        that is given (None when none is)."""
        given = [v for v in (i_or_name, port_index, port_name) if v is not None]
        if len(given) > 1:
            raise TypeError(f"{fn}: give the port once: by position, port_index= or "
                            f"port_name=")
        return given[0] if given else None

    def get_input_port(self, i_or_name=None, warn_deprecated=True, *, port_index=None,
                       port_name=None):
        """Input port by index or name (also pydrake's ``port_index=`` / ``port_name=``);
        no argument when the system has exactly one. (``warn_deprecated`` is pydrake's;
        merganser has no deprecated ports.)"""
        i_or_name = self._index_or_name("get_input_port", i_or_name, port_index, port_name)
        return self._port(self._input_ports, "input", i_or_name, "get_input_port")

    def get_output_port(self, i_or_name=None, warn_deprecated=True, *, port_index=None,
                        port_name=None):
        """Output port by index or name (also pydrake's ``port_index=`` / ``port_name=``);
        no argument when the system has exactly one."""
        i_or_name = self._index_or_name("get_output_port", i_or_name, port_index, port_name)
        return self._port(self._output_ports, "output", i_or_name, "get_output_port")

    def get_input_port_selection(self, port_index):
        """The input port an InputPortSelection or index names (Drake's
        get_input_port_selection): None for ``kNoInput`` and for
        ``kUseFirstInputIfItExists`` on a system without inputs."""
        return self._port_selection(self._input_ports, self.get_input_port, port_index)

    def get_output_port_selection(self, port_index):
        """The output port an OutputPortSelection or index names (None for
        ``kNoOutput``, or ``kUseFirstOutputIfItExists`` without outputs)."""
        return self._port_selection(self._output_ports, self.get_output_port, port_index)

    @staticmethod
    def _port_selection(ports, get, selection):
        value = selection.value if isinstance(selection, enum.Enum) else selection
        if value == -1:
            return None
        if value == -2:
            return ports[0] if ports else None
        return get(value)

    def has_input_port(self, port_name):
        """True if the system has an input port named `port_name`."""
        return any(p.get_name() == port_name for p in self._input_ports)

    def has_output_port(self, port_name):
        """True if the system has an output port named `port_name`."""
        return any(p.get_name() == port_name for p in self._output_ports)

    def eval_vector_input(self, context, port_index):
        """The value of vector input port ``port_index`` as a read-only BasicVector
        (Drake's ``EvalVectorInput``); ``get_input_port(i).eval(context)`` gives the ndarray."""
        return self.get_input_port(port_index).eval_basic_vector(context)

    def eval_abstract_input(self, context, port_index):
        """The value of input port ``port_index`` as a Value (Drake's ``EvalAbstractInput``)."""
        return self.get_input_port(port_index).eval_abstract(context)

    def allocate_input_vector(self, input_port):
        """A new BasicVector sized for vector ``input_port`` (Drake's ``AllocateInputVector``)."""
        if input_port.get_system() is not self or input_port.get_data_type() != VECTOR:
            raise PortError(
                f"allocate_input_vector: input_port must be a vector input port of system "
                f"'{self._name}', got {input_port!r}")
        return input_port.allocate()

    def allocate_input_abstract(self, input_port):
        """A new Value for ``input_port`` (Drake's ``AllocateInputAbstract``): a clone of the
        model value of an abstract port, a Value holding a BasicVector for a vector port."""
        if input_port.get_system() is not self:
            raise PortError(
                f"allocate_input_abstract: input_port must be an input port of system "
                f"'{self._name}', got {input_port!r}")
        value = input_port.allocate()
        return Value(value) if input_port.get_data_type() == VECTOR else value

    def num_constraints(self):
        """Number of system constraints (those added by `add_external_constraint`)."""
        return len(getattr(self, "_constraints", ()))

    def add_external_constraint(self, constraint):
        """Add an ExternalSystemConstraint (Drake's AddExternalConstraint; pydrake's
        ``_AddExternalConstraint``) and return its index; one without a calc function is
        added disabled (size 0), as in Drake. A clone keeps it."""
        made = make_constraint(self, constraint)
        self.__dict__.setdefault("_constraints", []).append(made)
        return SystemConstraintIndex(len(self._constraints) - 1)

    def get_constraint(self, constraint_index):
        """The SystemConstraint of that index.

        Raises
        ------
        IndexError
            An index outside [0, num_constraints()).
        """
        index = int(constraint_index)
        if not 0 <= index < self.num_constraints():
            raise IndexError(f"get_constraint: system '{self._name}': constraint index {index} "
                             f"is out of range; there are {self.num_constraints()} constraints")
        return self._constraints[index]

    def check_system_constraints_satisfied(self, context, tol):
        """Whether `context` satisfies every constraint within `tol` (Drake's
        CheckSystemConstraintsSatisfied)."""
        self._check_context(context, "check_system_constraints_satisfied")
        return all(c.check_satisfied(context, tol) for c in getattr(self, "_constraints", ()))

    def clone(self):
        """A deep copy of this system (Drake's Clone): same name, ports, declarations and
        defaults; it belongs to no Diagram (a subsystem is copied without its Diagram)."""
        memo = {} if self._parent is None else {id(self._parent): None}
        twin = copy.deepcopy(self, memo)
        twin._parent, twin._index_in_parent = None, -1
        return twin

    def accept(self, v):
        """Visitor dispatch (Drake's ``Accept``): ``v.visit_system(self)``; a Diagram calls
        ``v.visit_diagram(self)``."""
        return v.visit_system(self)

    # ---- contexts ---------------------------------------------------------------------------
    def allocate_context(self):
        """A new context tree for this system (state not yet set to defaults)."""
        ctx = self._make_context_tree()
        finalize_root(ctx)
        return ctx

    def allocate_output(self):
        """A SystemOutput with a value holder for every output port."""
        return SystemOutput(self, [p.allocate() for p in self._output_ports])

    def calc_output(self, context, outputs):
        """Compute every output port's value into ``outputs`` (from ``allocate_output()``)."""
        ctx = self._check_context(context, "calc_output")
        if not isinstance(outputs, SystemOutput) or outputs.num_ports() != len(self._output_ports):
            raise ValueError(
                f"calc_output: outputs must be the SystemOutput of system '{self._name}' "
                f"(allocate_output()), got {type(outputs).__name__}")
        for port, value in zip(self._output_ports, outputs._values):
            port.calc(ctx, value)

    def allocate_time_derivatives(self):
        """A zero ContinuousState laid out as this system's [q; v; z], for
        ``calc_time_derivatives``."""
        leaves = [s for s in self._all_systems() if not s._subsystems()]
        nq, nv, nz = (sum(getattr(s, attr, 0) for s in leaves) for attr in ("_nq", "_nv", "_nz"))
        return detached_continuous_state(np.zeros(nq + nv + nz), nq, nv, nz)

    def allocate_discrete_variables(self):
        """DiscreteValues holding a copy of every discrete state group's default value."""
        leaves = [s for s in self._all_systems() if not s._subsystems()]
        return DiscreteValues([m.copy() for s in leaves for m in getattr(s, "_xd_model", [])])

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
        """Fix ``value`` (already checked by the port) on ``port`` in ``ctx`` and rewire."""
        fixed = FixedInputPortValue(value, port._kind == VECTOR)
        ctx._fixed[port.get_index()] = fixed
        root = ctx
        while root._parent is not None:
            root = root._parent
        root._root.version += 1
        wire_subtree(root)      # invalidates the dependents of every input whose source changed
        return fixed

    # ---- dynamics ---------------------------------------------------------------------------
    def eval_time_derivatives(self, context):
        """Time derivatives of the continuous state, shape (n,), cached; read-only."""
        raise NotImplementedError

    def calc_time_derivatives(self, context, derivatives):
        """Compute the time derivatives into ``derivatives`` (an ndarray of size n, a
        ContinuousState from ``allocate_time_derivatives()`` or a BasicVector), bypassing
        and leaving alone the cache (``eval_time_derivatives`` caches)."""
        raise NotImplementedError

    def map_velocity_to_qdot(self, context, v):
        """q̇ for generalized velocities ``v``; identity unless a system overrides it."""
        raise NotImplementedError

    def map_qdot_to_velocity(self, context, qdot):
        raise NotImplementedError

    def calc_kinetic_energy(self, context):
        return 0.0

    def eval_kinetic_energy(self, context):
        """Kinetic energy in ``context`` (Drake's EvalKineticEnergy; computed per call)."""
        return self.calc_kinetic_energy(context)

    def eval_potential_energy(self, context):
        """Potential energy in ``context`` (Drake's EvalPotentialEnergy; computed per call)."""
        return self.calc_potential_energy(context)

    # ---- implicit form (Drake's default: residual = proposed ẋ − f(x, u, t)) -----------------
    def implicit_time_derivatives_residual_size(self):
        """Size of the residual of the implicit dynamics 0 = g(x, ẋ); by default n."""
        return self.num_continuous_states()

    def allocate_implicit_time_derivatives_residual(self):
        """A zero residual vector, shape (implicit_time_derivatives_residual_size(),)."""
        return np.zeros(self.implicit_time_derivatives_residual_size())

    def calc_implicit_time_derivatives_residual(self, context, proposed_derivatives, residual):
        """Write g(x, ẋ_proposed) = ẋ_proposed − f(x, u, t) into ``residual`` (ndarray of
        the residual size, written in place); ``proposed_derivatives`` is a
        ContinuousState, BasicVector or array_like of size n."""
        fn = "calc_implicit_time_derivatives_residual"
        ctx = self._check_context(context, fn)
        proposed = proposed_derivatives
        if hasattr(proposed, "copy_to_vector"):
            proposed = proposed.copy_to_vector()
        proposed = np.asarray(proposed, dtype=float).reshape(-1)
        n = self.num_continuous_states()
        if proposed.size != n or not isinstance(residual, np.ndarray) or residual.size != n:
            raise ValueError(f"{fn}: proposed_derivatives and residual must have {n} elements "
                             f"(system '{self._name}'), got {proposed.size} and "
                             f"{getattr(residual, 'size', None)}")
        residual.reshape(-1)[:] = proposed - self.eval_time_derivatives(ctx)

    def calc_potential_energy(self, context):
        return 0.0

    def calc_conservative_power(self, context):
        return 0.0

    def calc_non_conservative_power(self, context):
        return 0.0

    # ---- structure --------------------------------------------------------------------------
    def has_direct_feedthrough(self, *args, input_port=None, output_port=None,
                               input_index=None, output_index=None):
        """True if output ``output_port`` may depend on input ``input_port`` at the same
        time instant: ``has_direct_feedthrough(input_port, output_port)``. With one
        argument, ``has_direct_feedthrough(output_port)``: whether that output depends on
        some input (Drake's HasDirectFeedthrough overloads). Ports are indices (or
        names); pydrake's keywords ``input_port=`` / ``output_port=`` and the older
        ``input_index=`` / ``output_index=`` are accepted.

        Raises
        ------
        TypeError
            On more than two arguments or an argument given twice.
        """
        fn = "has_direct_feedthrough"
        if len(args) > 2:
            raise TypeError(f"{fn}: takes (output_port) or (input_port, output_port), got "
                            f"{len(args)} arguments")
        if len(args) == 1:
            args = (None, args[0])
        given_in = [x for x in (args[0] if args else None, input_port, input_index)
                    if x is not None]
        given_out = [x for x in (args[1] if args else None, output_port, output_index)
                     if x is not None]
        if len(given_in) > 1 or len(given_out) > 1:
            raise TypeError(f"{fn}: an input or output port given twice")
        if not given_out:
            if not given_in:
                raise TypeError(f"{fn}: give output_port, or input_port and output_port")
            # (input only: whether some output depends on it)
            return any(self._has_feedthrough(given_in[0], j)
                       for j in range(self.num_output_ports()))
        if not given_in:
            return any(self._has_feedthrough(i, given_out[0])
                       for i in range(self.num_input_ports()))
        return self._has_feedthrough(given_in[0], given_out[0])

    def _has_feedthrough(self, input_index, output_index):
        """Whether output `output_index` may depend on input `input_index` (subclasses)."""
        raise NotImplementedError

    def has_any_direct_feedthrough(self):
        """True when some output may depend on some input at the same instant."""
        return any(self._has_feedthrough(i, j) for i in range(self.num_input_ports())
                   for j in range(self.num_output_ports()))

    def validate_context(self, context):
        """Raise ContextError unless ``context`` was created for this very system (Drake's
        ValidateContext)."""
        if getattr(context, "_system", None) is not self:
            got = getattr(getattr(context, "_system", None), "get_system_pathname", None)
            raise ContextError(
                f"validate_context: the context was not created for system "
                f"{self.get_system_pathname()} ({type(self).__name__}); it belongs to "
                f"{got() if got else type(context).__name__}")

    def fix_input_ports_from(self, other_system, other_context, target_context):
        """Fix every input port of ``target_context`` (a context of this system) to the
        value the same-index port of ``other_system`` has in ``other_context``; ports
        without a value there are left alone (Drake's FixInputPortsFrom)."""
        fn = "fix_input_ports_from"
        self.validate_context(target_context)
        other_system.validate_context(other_context)
        if other_system.num_input_ports() != self.num_input_ports():
            raise ValueError(f"{fn}: system {other_system.get_system_pathname()} has "
                             f"{other_system.num_input_ports()} input ports, "
                             f"{self.get_system_pathname()} has {self.num_input_ports()}")
        for port, other in zip(self._input_ports, other_system._input_ports):
            if not other.has_value(other_context):
                continue
            if port.get_data_type() == VECTOR:
                port.fix_value(target_context, np.array(other.eval(other_context)))
            else:
                port.fix_value(target_context, other.eval_abstract(other_context).clone())

    def _all_systems(self):
        yield self

    def _subsystems(self):
        """The direct subsystems (none for a leaf)."""
        return ()

    def get_graphviz_string(self, max_depth=None, options=None):
        """A Graphviz (dot) document of the system and its ports (Drake's
        GetGraphvizString); nested diagrams are expanded down to ``max_depth`` levels
        (None: all). ``options`` (dict of str) are passed to the fragments:
        ``{"split": "I/O"}`` draws a leaf's inputs and outputs as two nodes, and a
        diagram hands ``"<subsystem name>/<key>"`` to that subsystem as ``<key>``."""
        return graphviz.document(self, self.get_graphviz_fragment(max_depth, options))

    def get_graphviz_fragment(self, max_depth=None, options=None):
        """This system's part of a Graphviz document, a GraphvizFragment with
        ``fragments`` (dot text pieces), ``input_ports`` and ``output_ports`` (dot ids)."""
        return self.do_get_graphviz_fragment(graphviz.make_params(self, max_depth, options))

    def do_get_graphviz_fragment(self, params):
        """Override to change how this system is drawn (e.g. add ``params.header_lines``)
        and return ``super().do_get_graphviz_fragment(params)``."""
        return graphviz.leaf_fragment(self, params)

    def num_continuous_states(self):
        return 0

    # Drake's scalar conversion: merganser's systems compute in float64 only.
    def _no_scalar_conversion(self, fn, scalar):
        raise RuntimeError(
            f"{fn}: system '{self._name}' ({type(self).__name__}) cannot be converted to the "
            f"scalar type {scalar}: merganser computes in float64 only (no AutoDiffXd or "
            f"symbolic Expression systems); differentiate with merganser.framework.linearize "
            f"or finite differences instead")

    def get_system_scalar_converter(self):
        """The system's SystemScalarConverter (Drake's get_system_scalar_converter): the one
        given to ``LeafSystem.__init__(converter=)``, else an empty one; merganser's
        converters support no conversion (float64 only)."""
        converter = getattr(self, "_scalar_converter", None)
        if converter is None:
            converter = self._scalar_converter = SystemScalarConverter()
        return converter

    to_scalar_type = ScalarConversionProperty(
        "to_scalar_type", maybe=False,
        doc="Drake's ToScalarType<T>: ``system.to_scalar_type[T]()`` (or "
            "``System.to_scalar_type[T](system)``) raises RuntimeError for every T (float64 "
            "only; Drake does not convert a system to its own type either).")
    to_scalar_type_maybe = ScalarConversionProperty(
        "to_scalar_type_maybe", maybe=True,
        doc="Drake's ToScalarTypeMaybe<T>: ``system.to_scalar_type_maybe[T]()`` is None, as "
            "for a system without that conversion.")

    def to_auto_diff_xd(self):
        """Drake's ToAutoDiffXd: always raises RuntimeError (float64 only)."""
        self._no_scalar_conversion("to_auto_diff_xd", "AutoDiffXd")

    def to_symbolic(self):
        """Drake's ToSymbolic: always raises RuntimeError (float64 only)."""
        self._no_scalar_conversion("to_symbolic", "Expression")

    def to_auto_diff_xd_maybe(self):
        """Drake's ToAutoDiffXdMaybe: None, as for a system without scalar conversion."""
        return None

    def to_symbolic_maybe(self):
        """Drake's ToSymbolicMaybe: None, as for a system without scalar conversion."""
        return None

    # Drake's structure counts: a leaf counts its declarations, a diagram sums its subsystems.
    def num_discrete_state_groups(self):
        """Number of discrete state groups (Drake's num_discrete_state_groups)."""
        return 0

    def num_abstract_states(self):
        """Number of abstract states (Drake's num_abstract_states)."""
        return 0

    def num_numeric_parameter_groups(self):
        """Number of numeric parameter groups (Drake's num_numeric_parameter_groups)."""
        return 0

    def num_abstract_parameters(self):
        """Number of abstract parameters (Drake's num_abstract_parameters)."""
        return 0

    def num_total_inputs(self):
        """Total size of the vector-valued input ports (abstract ports count 0), as Drake."""
        return sum(self.get_input_port(i).size() for i in range(self.num_input_ports()))

    def num_total_outputs(self):
        """Total size of the vector-valued output ports (abstract ports count 0), as Drake."""
        return sum(self.get_output_port(i).size() for i in range(self.num_output_ports()))

    def is_time_invariant_affine(self):
        """True when the outputs and derivatives are time-invariant affine functions of the
        state and inputs for every context (lets diagrams fuse their evaluation)."""
        return False

    # ---- events -----------------------------------------------------------------------------
    def forced_publish(self, context):
        """Run the forced publish events of this system (and its subsystems) now."""
        ctx = self._check_context(context, "forced_publish")
        return event_dispatch.execute(ctx, _forced_publish_events, "forced publish")

    def execute_forced_events(self, context, publish=True):
        """Run the forced unrestricted updates, then the forced discrete updates, then (if
        ``publish``) the forced publishes, writing the updates into ``context``."""
        ctx = self._check_context(context, "execute_forced_events")
        return event_dispatch.execute(ctx, _forced_events, "forced", publish=publish)

    def calc_forced_discrete_variable_update(self, context, discrete_state):
        """Run the forced discrete updates with ``context`` as input, writing into
        ``discrete_state`` (a DiscreteValues laid out as this system's, e.g. from
        ``allocate_discrete_variables()``); ``context`` is unchanged."""
        ctx = self._check_context(context, "calc_forced_discrete_variable_update")
        return event_dispatch.calc_into(ctx, _forced_discrete_events, "forced discrete",
                                        discrete_state=discrete_state)

    def calc_forced_unrestricted_update(self, context, state):
        """Run the forced unrestricted updates with ``context`` as input, writing into
        ``state`` (a State of this system, e.g. a clone of the context's); ``context`` is
        unchanged."""
        ctx = self._check_context(context, "calc_forced_unrestricted_update")
        return event_dispatch.calc_into(ctx, _forced_unrestricted_events,
                                        "forced unrestricted", state=state)

    def execute_initialization_events(self, context):
        """Run the initialization events (unrestricted updates, then discrete updates, then
        publishes) into ``context``, as ``Simulator.initialize()`` does, without a
        simulator. Returns the most severe EventStatus, or None."""
        ctx = self._check_context(context, "execute_initialization_events")
        return event_dispatch.execute(ctx, _initialization_events, "initialization")

    def __repr__(self):
        return f"<{type(self).__name__} '{self._name}'>"


def _forced_publish_events(leaf):
    return leaf._forced_publish_events


def _forced_events(leaf):
    return leaf._forced_publish_events + leaf._forced_discrete_events + leaf._forced_unrestricted_events


# a leaf's events of one kind, as `event_dispatch` reads them
_forced_discrete_events = operator.attrgetter("_forced_discrete_events")
_forced_unrestricted_events = operator.attrgetter("_forced_unrestricted_events")
_initialization_events = operator.attrgetter("_initialization_events")


def _write_derivatives(system, xdot, derivatives):
    """Copy computed derivatives ``xdot`` into the caller's ``derivatives`` holder."""
    if isinstance(derivatives, np.ndarray):
        if derivatives.size != xdot.size:
            raise ValueError(
                f"calc_time_derivatives: derivatives has size {derivatives.size}, expected "
                f"{xdot.size} for system '{system.get_name()}'")
        derivatives[:] = xdot
    else:
        derivatives.set_value(xdot)


#: Drake splits System into a scalar-type-independent SystemBase and System<T>; merganser
#: has one scalar type, so the two are one class.
SystemBase = System
