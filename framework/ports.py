"""Input and output ports.

Evaluation is pull-based: ``input_port.eval(ctx)`` returns the fixed value of the port in
``ctx`` or follows the diagram connection to the source output port, whose value is
computed once and cached in the source's context until a prerequisite changes.
"""

import enum
import numbers

import numpy as np

from .cache import Tickets, frozen_cache_error
from .cache_entry import OutputPortCacheEntry
from .errors import PortError, PortTypeError
from .indices import InputPortIndex, OutputPortIndex
from .keyword_check import lists_valid_keywords
from .value import BasicVector, Value, as_value

VECTOR = "vector"
ABSTRACT = "abstract"


class PortDataType(str, enum.Enum):
    """Drake's PortDataType; ``port.get_data_type()`` compares equal to these."""

    kVectorValued = VECTOR
    kAbstractValued = ABSTRACT

    def __str__(self):
        return f"PortDataType.{self.name}"


_DATA_TYPES = {VECTOR: PortDataType.kVectorValued, ABSTRACT: PortDataType.kAbstractValued}


class _UseDefaultName(str):
    """The type of :data:`kUseDefaultName`."""

    __slots__ = ()

    def __repr__(self):
        return "kUseDefaultName"


kUseDefaultName = _UseDefaultName("kUseDefaultName")
"""Drake's kUseDefaultName: as a port name, gives the port the name ``u{i}`` / ``y{i}``."""


def _same_kind(value, model):
    """Whether ``value`` may stand in for an abstract port's ``model`` value."""
    if isinstance(value, type(model)):
        return True
    if isinstance(model, numbers.Number) and isinstance(value, numbers.Number):
        return True
    return isinstance(model, np.ndarray) and isinstance(value, (list, tuple, np.ndarray))


class PortBase:
    """Common port data: owning system, index, name, kind and size."""

    def __init__(self, system, index, name, kind, size):
        self._system = system
        self._index = index
        self._name = name
        self._kind = kind
        self._size = size

    def get_system(self):
        """The system that owns this port."""
        return self._system

    def get_index(self):
        """Index of this port in its system's input or output list (an InputPortIndex or
        OutputPortIndex, as pydrake's: an int)."""
        return self._index_type(self._index)

    def get_name(self):
        """The port's name (unique among the system's ports of the same direction)."""
        return self._name

    def get_data_type(self):
        """``PortDataType.kVectorValued`` or ``kAbstractValued`` (str members: they equal
        ``"vector"`` and ``"abstract"``)."""
        return _DATA_TYPES[self._kind]

    def size(self):
        """Number of elements of a vector port (0 for abstract ports)."""
        return self._size

    def _describe(self):
        return f"port '{self._name}' of system '{self._system.get_name()}'"

    def get_full_description(self):
        """``InputPort[i] (name) of System ::path (Type)``, Drake's description."""
        kind = "InputPort" if isinstance(self, InputPort) else "OutputPort"
        return (f"{kind}[{self._index}] ({self._name}) of System "
                f"{self._system.get_system_pathname()} ({type(self._system).__name__})")

    def eval_vector(self, context):
        """The value of a vector port, a read-only ndarray of ``size()`` elements."""
        if self._kind != VECTOR:
            raise PortError(
                f"{type(self).__name__}.eval_vector: {self._describe()} is abstract; use eval() "
                f"or eval_abstract()")
        return self.eval(context)

    def eval_basic_vector(self, context):
        """The value of a vector port as a (read-only) BasicVector."""
        return BasicVector._wrap(self.eval_vector(context))

    def eval_abstract(self, context):
        """The value as an AbstractValue: a Value holding the object (abstract ports) or a
        read-only BasicVector (vector ports), as Drake's ``EvalAbstract``."""
        if self._kind == VECTOR:
            return Value(BasicVector._wrap(self.eval_vector(context)))
        return Value(self.eval(context))

    def _context_for(self, context, fn):
        system = self._system
        if context._system is system:
            return context
        return system._context_from(context, f"{type(self).__name__}.{fn}")


class InputPort(PortBase):
    """An input port (Drake's InputPort)."""

    _index_type = InputPortIndex

    def __init__(self, system, index, name, kind, size, model_value=None, required=True,
                 default_value=None, random_type=None):
        super().__init__(system, index, name, kind, size)
        self._model_value = model_value
        self._random_type = random_type
        self._required = required
        self._default = default_value
        if default_value is not None and kind == VECTOR:
            self._default = np.asarray(default_value, dtype=float)
            self._default.flags.writeable = False

    def ticket(self):
        """The dependency ticket of this input port, for ``prerequisites_of_calc``."""
        return Tickets.input_port(self._index)

    def is_required(self):
        """Whether a Diagram containing the system must connect or export this port."""
        return self._required

    def is_random(self):
        """Whether the port expects a random signal (declared with ``random_type``)."""
        return self._random_type is not None

    def get_random_type(self):
        """The RandomDistribution the port's signal should follow, or None."""
        return self._random_type

    def eval(self, context):
        """The port's value: a read-only ndarray (vector ports) or the held object."""
        ctx = context if context._system is self._system else self._context_for(context, "eval")
        source = ctx._inputs[self._index]
        if source is None:
            if self._default is not None:
                return self._default
            raise PortError(
                f"InputPort.eval: input {self._describe()} is neither connected nor fixed; connect "
                f"it in the DiagramBuilder or call fix_value(context, value)")
        if source.__class__ is tuple:
            port, source_ctx = source
            entry = source_ctx.out_entries[port._index]
            if entry.valid:
                return entry.ro
            return port.eval(source_ctx)
        return source.ro

    def has_value(self, context):
        """True when the port is connected or has a fixed value in ``context``."""
        ctx = self._context_for(context, "has_value")
        return ctx._inputs[self._index] is not None

    @lists_valid_keywords
    def fix_value(self, context, value):
        """Fix the port's value in ``context`` (overrides any connection); returns the
        FixedInputPortValue holder.

        Vector ports take an array_like or BasicVector of ``size()`` floats; abstract ports
        a Value or an object of the model value's type. Anything else raises PortError (a
        RuntimeError and a ValueError).
        """
        ctx = self._context_for(context, "fix_value")
        return self._system._fix_input(ctx, self, self._checked_value(value))

    def _checked_value(self, value):
        fn = "InputPort.fix_value"
        if self._kind == VECTOR:
            # pydrake: a raw object that is no vector is a TypeError, a Value of the wrong
            # type a RuntimeError (PortTypeError is both)
            error = PortError if isinstance(value, Value) else PortTypeError
            if isinstance(value, (BasicVector, Value)):
                value = value.get_value()
            try:
                arr = np.array(value, dtype=float).reshape(-1)
            except (TypeError, ValueError):
                raise error(
                    f"{fn}: argument 'value' for {self._describe()} must be an array_like of "
                    f"{self._size} floats or a BasicVector, got {type(value).__name__} "
                    f"{value!r:.60}") from None
            if arr.size != self._size:
                raise PortError(
                    f"{fn}: {self._describe()} has size {self._size}, got a value of size "
                    f"{arr.size}")
            return arr
        wrapped = isinstance(value, Value)
        if wrapped:
            value = value.get_value()
        model = self._model_value.get_value() if self._model_value is not None else None
        if model is None:
            return value
        if type(model) is object:
            # pydrake's Value[object] port takes any raw object, but not an explicitly
            # typed Value such as Value("text") (a Value[str])
            if wrapped and isinstance(value, str):
                raise PortError(
                    f"{fn}: abstract {self._describe()} holds Value[object]; got a Value[str] "
                    f"(pass the raw object instead)")
            return value
        if not _same_kind(value, model):
            error = PortError if wrapped else PortTypeError
            raise error(
                f"{fn}: abstract {self._describe()} holds values of type "
                f"{type(model).__name__}, got {type(value).__name__}")
        return value

    def allocate(self):
        """A new value holder for this port: a BasicVector or a Value (a model clone)."""
        if self._kind == VECTOR:
            return BasicVector(self._size)
        return self._model_value.clone() if self._model_value is not None else Value(None)


    def __repr__(self):
        return f"<InputPort {self._describe()} ({self._kind}, size {self._size})>"


class OutputPort(PortBase):
    """An output port (Drake's OutputPort)."""

    _index_type = OutputPortIndex

    def eval(self, context):
        """The port's value, computed if out of date: a read-only ndarray for vector ports."""
        raise NotImplementedError

    def allocate(self):
        """A new value holder: a BasicVector (vector ports) or a Value (abstract ports)."""
        raise NotImplementedError

    def calc(self, context, output):
        """Compute the value into ``output`` (from ``allocate()``), bypassing the cache."""
        raise NotImplementedError

    def __repr__(self):
        return f"<OutputPort {self._describe()} ({self._kind}, size {self._size})>"


class LeafOutputPort(OutputPort):
    """An output port of a LeafSystem, computed by a calc callback into a cache entry."""

    def __init__(self, system, index, name, kind, size, calc, alloc, prerequisites):
        super().__init__(system, index, name, kind, size)
        self._calc = calc
        self._alloc = alloc
        self._prerequisites = prerequisites
        self._cache_entry = None

    def cache_entry(self):
        """The CacheEntry holding this port's value (Drake's OutputPort::cache_entry)."""
        if self._cache_entry is None:
            self._cache_entry = OutputPortCacheEntry(self)
        return self._cache_entry

    def disable_caching_by_default(self):
        """Contexts created from now on recompute this port's value on every evaluation."""
        self.cache_entry().disable_caching_by_default()

    def eval(self, context):
        ctx = context if context._system is self._system else self._context_for(context, "eval")
        entry = ctx.out_entries[self._index]
        if entry.valid:
            return entry.ro
        if ctx._root.cache_frozen:
            raise frozen_cache_error(entry)
        self._calc(ctx, entry.holder)
        entry.valid = entry.enabled
        ctx._root.validations += 1
        if self._kind == ABSTRACT:
            entry.ro = entry.value = entry.holder._value
        return entry.ro

    def calc(self, context, output):
        """Compute the value into ``output`` (a BasicVector or Value) without caching."""
        ctx = self._context_for(context, "calc")
        self._calc(ctx, output)

    def allocate(self):
        storage = self._alloc()
        if self._kind == VECTOR:
            return BasicVector(np.asarray(storage, dtype=float))
        return as_value(storage)


class DiagramOutputPort(OutputPort):
    """An output port of a Diagram, exported from a subsystem's output port."""

    def __init__(self, system, index, name, source_port, path):
        super().__init__(system, index, name, source_port.get_data_type(), source_port.size())
        self._source = source_port      # the leaf output port ultimately producing the value
        self._path = path               # subcontext indices from the diagram down to the leaf

    def eval(self, context):
        ctx = context if context._system is self._system else self._context_for(context, "eval")
        for i in self._path:
            ctx = ctx._subcontexts[i]
        return self._source.eval(ctx)

    def allocate(self):
        return self._source.allocate()

    def calc(self, context, output):
        ctx = self._context_for(context, "calc")
        for i in self._path:
            ctx = ctx._subcontexts[i]
        self._source.calc(ctx, output)


class SystemOutput:
    """Values of all output ports of a system (Drake's SystemOutput), from
    ``system.allocate_output()`` and filled by ``system.calc_output(context, output)``."""

    def __init__(self, system, values):
        self._system = system
        self._values = values

    def num_ports(self):
        return len(self._values)

    def _check(self, fn, index):
        if not 0 <= index < len(self._values):
            raise PortError(
                f"SystemOutput.{fn}: port index {index} out of range; system "
                f"'{self._system.get_name()}' has {len(self._values)} output port(s)")
        return self._values[index]

    def get_data(self, index):
        """The AbstractValue of output ``index`` (a BasicVector's values wrapped in a Value
        for vector ports)."""
        value = self._check("get_data", index)
        return Value(value) if isinstance(value, BasicVector) else value

    def get_mutable_data(self, index):
        return self.get_data(index)

    def get_vector_data(self, index):
        """The BasicVector of vector output ``index``."""
        value = self._check("get_vector_data", index)
        if not isinstance(value, BasicVector):
            raise PortError(
                f"SystemOutput.get_vector_data: output port {index} of system "
                f"'{self._system.get_name()}' is abstract; use get_data({index})")
        return value

    def get_mutable_vector_data(self, index):
        return self.get_vector_data(index)

    def get_system_id(self):
        return self._system._uid


class DiagramInputPort(InputPort):
    """An input port of a Diagram, exported to one or more subsystem input ports."""

    def __init__(self, system, index, name, kind, size, model_value, targets):
        super().__init__(system, index, name, kind, size, model_value, required=True)
        self._targets = targets         # list of (subsystem index, input port index)
