"""Input and output ports.

Evaluation is pull-based: ``input_port.eval(ctx)`` returns the fixed value of the port in
``ctx`` or follows the diagram connection to the source output port, whose value is
computed once and cached in the source's context until a prerequisite changes.
"""

import numpy as np

from .errors import PortError

VECTOR = "vector"
ABSTRACT = "abstract"


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
        """Index of this port in its system's input or output list."""
        return self._index

    def get_name(self):
        """The port's name (unique among the system's ports of the same direction)."""
        return self._name

    def get_data_type(self):
        """``"vector"`` or ``"abstract"``."""
        return self._kind

    def size(self):
        """Number of elements of a vector port (0 for abstract ports)."""
        return self._size

    def _describe(self):
        return f"port '{self._name}' of system '{self._system.get_name()}'"

    def _context_for(self, context, fn):
        system = self._system
        if context._system is system:
            return context
        return system._context_from(context, f"{type(self).__name__}.{fn}")


class InputPort(PortBase):
    """An input port (Drake's InputPort)."""

    def __init__(self, system, index, name, kind, size, model_value=None, required=True,
                 default_value=None):
        super().__init__(system, index, name, kind, size)
        self._model_value = model_value
        self._required = required
        self._default = default_value
        if default_value is not None and kind == VECTOR:
            self._default = np.asarray(default_value, dtype=float)
            self._default.flags.writeable = False

    def is_required(self):
        """Whether a Diagram containing the system must connect or export this port."""
        return self._required

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

    def fix_value(self, context, value):
        """Fix the port's value in ``context`` (overrides any connection); returns the value holder."""
        ctx = self._context_for(context, "fix_value")
        return self._system._fix_input(ctx, self, value)

    FixValue = fix_value

    def __repr__(self):
        return f"<InputPort {self._describe()} ({self._kind}, size {self._size})>"


class OutputPort(PortBase):
    """An output port (Drake's OutputPort)."""

    def eval(self, context):
        """The port's value, computed if out of date: a read-only ndarray for vector ports."""
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

    def eval(self, context):
        ctx = context if context._system is self._system else self._context_for(context, "eval")
        entry = ctx.out_entries[self._index]
        if entry.valid:
            return entry.ro
        self._calc(ctx, entry.holder)
        entry.valid = True
        if self._kind == ABSTRACT:
            entry.ro = entry.value = entry.holder._value
        return entry.ro

    def calc(self, context, output):
        """Compute the value into ``output`` (a BasicVector or Value) without caching."""
        ctx = self._context_for(context, "calc")
        self._calc(ctx, output)


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


class DiagramInputPort(InputPort):
    """An input port of a Diagram, exported to one or more subsystem input ports."""

    def __init__(self, system, index, name, kind, size, model_value, targets):
        super().__init__(system, index, name, kind, size, model_value, required=True)
        self._targets = targets         # list of (subsystem index, input port index)
