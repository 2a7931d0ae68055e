"""DiagramBuilder: wires systems together and builds a Diagram (Drake's DiagramBuilder)."""


from .diagram import Diagram
from .errors import DiagramBuildError
from .graphviz import builder_to_graphviz
from .indices import InputPortIndex, OutputPortIndex
from .keyword_check import lists_valid_keywords
from .port_graph import PortGraph
from .ports import ABSTRACT, InputPort, OutputPort


def _port_label(port, direction):
    return f"{direction} port '{port.get_name()}' of system '{port.get_system().get_name()}'"


class DiagramBuilder:
    """Collects systems and connections, then ``build()`` freezes them into a Diagram.

    A builder can build only once. Names of systems must be unique within it; unnamed
    systems get a unique name derived from their class.
    """

    def __init__(self):
        self._systems = []
        self._names = set()
        self._connections = []        # (OutputPort, InputPort)
        self._connected_inputs = {}   # id(InputPort) -> OutputPort
        self._input_exports = []      # (name, [InputPort, ...])
        self._output_exports = []     # (name, OutputPort)
        self._exported_inputs = {}    # id(InputPort) -> export index
        self._built = False

    # ---- systems ------------------------------------------------------------------------------
    def _check_not_built(self, fn):
        if self._built:
            raise DiagramBuildError(
                f"DiagramBuilder.{fn}: this builder already built a diagram; a DiagramBuilder may "
                f"only be used once (create a new DiagramBuilder)")

    @lists_valid_keywords
    def add_system(self, system):
        """Add ``system`` and return it. It gets a unique default name if it has none."""
        self._check_not_built("add_system")
        from .system import System

        if not isinstance(system, System):
            raise TypeError(f"DiagramBuilder.add_system: expected a System, got {type(system).__name__}")
        if any(s is system for s in self._systems):
            raise DiagramBuildError(
                f"DiagramBuilder.add_system: system '{system.get_name()}' was already added to this builder")
        if system._parent is not None:
            raise DiagramBuildError(
                f"DiagramBuilder.add_system: system '{system.get_name()}' already belongs to diagram "
                f"'{system._parent.get_name()}'; a system can be part of only one diagram")
        name = system.get_name()
        if not name:
            base = type(system).__name__
            name, k = base, 1
            while name in self._names:
                k += 1
                name = f"{base}_{k}"
            system._name = name
        elif name in self._names:
            raise DiagramBuildError(
                f"DiagramBuilder.add_system: a system named '{name}' is already in this builder; "
                f"system names must be unique within a diagram")
        self._names.add(name)
        self._systems.append(system)
        return system

    def add_named_system(self, name, system):
        """Name ``system`` and add it."""
        self._check_not_built("add_named_system")
        if name in self._names:
            raise DiagramBuildError(
                f"DiagramBuilder.add_named_system: a system named '{name}' is already in this "
                f"builder; system names must be unique within a diagram")
        system.set_name(name)
        return self.add_system(system)

    def get_systems(self):
        """The systems added so far, in order."""
        return list(self._systems)

    def get_mutable_systems(self):
        """The systems added so far, in order (the same objects as ``get_systems``)."""
        return list(self._systems)

    def empty(self):
        """True when no system has been added."""
        return not self._systems

    def num_input_ports(self):
        """Number of diagram inputs exported so far."""
        return len(self._input_exports)

    def num_output_ports(self):
        """Number of diagram outputs exported so far."""
        return len(self._output_exports)

    def remove_system(self, system):
        """Remove ``system`` with every connection and export that involves it.

        The remaining exported inputs and outputs keep their order; those after a removed
        one move down by one index (as in Drake).
        """
        self._check_not_built("remove_system")
        if not any(s is system for s in self._systems):
            raise DiagramBuildError(
                f"DiagramBuilder.remove_system: system "
                f"'{getattr(system, 'get_name', lambda: system)()}' is not in this builder; "
                f"systems: " + ", ".join(repr(s.get_name()) for s in self._systems))
        self._systems = [s for s in self._systems if s is not system]
        self._names.discard(system.get_name())
        self._connections = [(o, i) for o, i in self._connections
                             if o.get_system() is not system and i.get_system() is not system]
        self._connected_inputs = {id(i): o for o, i in self._connections}
        exports = []
        for name, targets in self._input_exports:
            kept = [p for p in targets if p.get_system() is not system]
            if kept:
                exports.append((name, kept))
        self._input_exports = exports
        self._output_exports = [(n, p) for n, p in self._output_exports
                                if p.get_system() is not system]
        self._reindex_input_exports()

    def _reindex_input_exports(self):
        self._exported_inputs = {id(p): k for k, (_, targets) in enumerate(self._input_exports)
                                 for p in targets}

    def get_mutable_subsystem_by_name(self, name):
        """The system named ``name`` (as ``get_subsystem_by_name``)."""
        return self.get_subsystem_by_name(name)

    def get_subsystem_by_name(self, name):
        """The system named ``name``; raises listing the names when there is none."""
        for s in self._systems:
            if s.get_name() == name:
                return s
        raise ValueError(
            f"DiagramBuilder.get_subsystem_by_name: no system named {name!r}; systems: "
            + ", ".join(repr(s.get_name()) for s in self._systems))

    def has_subsystem_named(self, name):
        return name in self._names

    def already_built(self):
        return self._built

    def _check_member(self, port, fn):
        if not any(s is port.get_system() for s in self._systems):
            owner = port.get_system().get_name()
            registered = ", ".join(repr(s.get_name()) for s in self._systems) or "none"
            raise DiagramBuildError(
                f"DiagramBuilder.{fn}: {port!r} belongs to system '{owner}', which has not "
                f"been added to this builder (its systems: {registered}); if '{owner}' is a "
                f"subsystem of one of them, export the port from that diagram "
                f"(export_input / export_output) and connect the exported port")

    # ---- wiring -------------------------------------------------------------------------------
    @lists_valid_keywords
    def connect(self, output_port, input_port):
        """Connect ``output_port`` to ``input_port`` (sizes and types must match)."""
        self._check_not_built("connect")
        if isinstance(output_port, InputPort) and isinstance(input_port, OutputPort):
            output_port, input_port = input_port, output_port
        if not isinstance(output_port, OutputPort) or not isinstance(input_port, InputPort):
            raise TypeError(
                f"DiagramBuilder.connect: expected (OutputPort, InputPort), got "
                f"({type(output_port).__name__}, {type(input_port).__name__})")
        self._check_member(output_port, "connect")
        self._check_member(input_port, "connect")
        if output_port.get_data_type() != input_port.get_data_type():
            raise DiagramBuildError(
                f"DiagramBuilder.connect: {_port_label(output_port, 'output')} is "
                f"{output_port.get_data_type()} but {_port_label(input_port, 'input')} is "
                f"{input_port.get_data_type()}")
        if input_port.get_data_type() != ABSTRACT and output_port.size() != input_port.size():
            raise DiagramBuildError(
                f"DiagramBuilder.connect: {_port_label(output_port, 'output')} has size "
                f"{output_port.size()} but {_port_label(input_port, 'input')} has size "
                f"{input_port.size()}")
        key = id(input_port)
        if key in self._connected_inputs:
            prev = self._connected_inputs[key]
            raise DiagramBuildError(
                f"DiagramBuilder.connect: {_port_label(input_port, 'input')} is already connected "
                f"to {_port_label(prev, 'output')}; an input port takes one connection")
        if key in self._exported_inputs:
            raise DiagramBuildError(
                f"DiagramBuilder.connect: {_port_label(input_port, 'input')} is already exported "
                f"as a diagram input")
        self._connected_inputs[key] = output_port
        self._connections.append((output_port, input_port))

    def disconnect(self, source, dest):
        """Remove the connection from output port ``source`` to input port ``dest``."""
        self._check_not_built("disconnect")
        if not isinstance(source, OutputPort) or not isinstance(dest, InputPort):
            raise TypeError(
                f"DiagramBuilder.disconnect: expected (OutputPort, InputPort), got "
                f"({type(source).__name__}, {type(dest).__name__})")
        if self._connected_inputs.get(id(dest)) is not source:
            raise DiagramBuildError(
                f"DiagramBuilder.disconnect: {_port_label(source, 'output')} is not connected "
                f"to {_port_label(dest, 'input')}")
        del self._connected_inputs[id(dest)]
        self._connections = [(o, i) for o, i in self._connections if i is not dest]

    def connect_to_same(self, exemplar, dest):
        """Connect input port ``dest`` to whatever feeds input port ``exemplar``: the same
        output port, or the same exported diagram input. Returns True when it connected,
        False (and does nothing) when ``exemplar`` is neither connected nor exported."""
        self._check_not_built("connect_to_same")
        for fn, port in (("exemplar", exemplar), ("dest", dest)):
            if not isinstance(port, InputPort):
                raise TypeError(
                    f"DiagramBuilder.connect_to_same: {fn} must be an InputPort, got "
                    f"{type(port).__name__}")
        self._check_member(exemplar, "connect_to_same")
        source = self._connected_inputs.get(id(exemplar))
        if source is not None:
            self.connect(source, dest)
            return True
        if id(exemplar) in self._exported_inputs:
            self.connect_input(self._exported_inputs[id(exemplar)], dest)
            return True
        return False

    def is_connected_or_exported(self, port):
        """True when input port ``port`` is connected to an output or exported."""
        if not isinstance(port, InputPort):
            raise TypeError(
                f"DiagramBuilder.is_connected_or_exported: port must be an InputPort, got "
                f"{type(port).__name__}")
        self._check_member(port, "is_connected_or_exported")
        return id(port) in self._connected_inputs or id(port) in self._exported_inputs

    def connection_map(self):
        """The connections as a dict ``{(dest system, input index): (source system, output
        index)}`` (Drake's ConnectionMap)."""
        return {(i.get_system(), InputPortIndex(i.get_index())):
                (o.get_system(), OutputPortIndex(o.get_index())) for o, i in self._connections}

    @lists_valid_keywords
    def export_input(self, input, name=None):  # noqa: A002 (pydrake's keyword)
        """Make the input port `input` an input of the diagram named `name` (by default
        ``<system>_<port>``); returns the diagram input index."""
        input_port = input
        self._check_not_built("export_input")
        self._check_member(input_port, "export_input")
        if id(input_port) in self._connected_inputs:
            raise DiagramBuildError(
                f"DiagramBuilder.export_input: {_port_label(input_port, 'input')} is already connected")
        if id(input_port) in self._exported_inputs:
            raise DiagramBuildError(
                f"DiagramBuilder.export_input: {_port_label(input_port, 'input')} is already exported")
        if name is None:
            name = f"{input_port.get_system().get_name()}_{input_port.get_name()}"
        if any(n == name for n, _ in self._input_exports):
            raise DiagramBuildError(
                f"DiagramBuilder.export_input: the diagram already has an input named '{name}'")
        index = len(self._input_exports)
        self._input_exports.append((name, [input_port]))
        self._exported_inputs[id(input_port)] = index
        return index

    def connect_input(self, diagram_input=None, input_port=None, *, diagram_port_name=None,
                      diagram_port_index=None, input=None):
        """Connect an already exported diagram input (name or index) to another input port.

        Positionally ``connect_input(name_or_index, input_port)``; with pydrake's keywords
        ``connect_input(diagram_port_name=..., input=...)`` or
        ``connect_input(diagram_port_index=..., input=...)``.
        """
        given = [x for x in (diagram_input, diagram_port_name, diagram_port_index)
                 if x is not None]
        if len(given) != 1 or (input_port is None) == (input is None):
            raise TypeError(
                "DiagramBuilder.connect_input: give one diagram input (diagram_port_name or "
                "diagram_port_index) and one input port (input), got "
                f"{len(given)} diagram input(s) and "
                f"{int(input_port is not None) + int(input is not None)} port(s)")
        diagram_input = given[0]
        input_port = input_port if input is None else input
        self._check_not_built("connect_input")
        self._check_member(input_port, "connect_input")
        if isinstance(diagram_input, str):
            matches = [k for k, (n, _) in enumerate(self._input_exports) if n == diagram_input]
            if not matches:
                raise DiagramBuildError(
                    f"DiagramBuilder.connect_input: no exported input named {diagram_input!r}; "
                    f"exported: {[n for n, _ in self._input_exports]}")
            index = matches[0]
        else:
            index = int(diagram_input)
            if not 0 <= index < len(self._input_exports):
                raise DiagramBuildError(
                    f"DiagramBuilder.connect_input: exported input index {index} out of range "
                    f"({len(self._input_exports)} exported)")
        name, targets = self._input_exports[index]
        first = targets[0]
        if (first.get_data_type() != input_port.get_data_type()
                or first.size() != input_port.size()):
            raise DiagramBuildError(
                f"DiagramBuilder.connect_input: diagram input '{name}' has size {first.size()} "
                f"but {_port_label(input_port, 'input')} has size {input_port.size()}")
        if id(input_port) in self._connected_inputs or id(input_port) in self._exported_inputs:
            raise DiagramBuildError(
                f"DiagramBuilder.connect_input: {_port_label(input_port, 'input')} is already "
                f"connected or exported")
        targets.append(input_port)
        self._exported_inputs[id(input_port)] = index

    @lists_valid_keywords
    def export_output(self, output, name=None):
        """Make the output port `output` an output of the diagram named `name` (by default
        ``<system>_<port>``); returns the diagram output index."""
        output_port = output
        self._check_not_built("export_output")
        self._check_member(output_port, "export_output")
        if name is None:
            name = f"{output_port.get_system().get_name()}_{output_port.get_name()}"
        if any(n == name for n, _ in self._output_exports):
            raise DiagramBuildError(
                f"DiagramBuilder.export_output: the diagram already has an output named '{name}'")
        self._output_exports.append((name, output_port))
        return len(self._output_exports) - 1

    # ---- build --------------------------------------------------------------------------------
    def _port_graph(self):
        graph = PortGraph()
        for s in self._systems:
            for i in range(s.num_input_ports()):
                graph.add_node(("in", id(s), i))
            for j in range(s.num_output_ports()):
                graph.add_node(("out", id(s), j))
            for i in range(s.num_input_ports()):
                for j in range(s.num_output_ports()):
                    if s.has_direct_feedthrough(i, j):
                        graph.add_edge(("in", id(s), i), ("out", id(s), j))
        for out, inp in self._connections:
            graph.add_edge(("out", id(out.get_system()), out.get_index()),
                           ("in", id(inp.get_system()), inp.get_index()))
        return graph

    def _node_label(self, node):
        kind, sid, k = node
        system = next(s for s in self._systems if id(s) == sid)
        port = system._input_ports[k] if kind == "in" else system._output_ports[k]
        return f"{system.get_name()}.{'input' if kind == 'in' else 'output'}[{port.get_name()}]"

    @lists_valid_keywords
    def build(self, name=None):
        """Check the wiring and return the Diagram. The builder cannot be used afterwards.

        As in Drake, inputs may be left unconnected: fix their values on the diagram's
        context (``port.fix_value(context, value)``) before simulating; the Simulator
        refuses to start while a required input is neither connected nor fixed.

        Raises
        ------
        DiagramBuildError
            On an algebraic loop (the message shows the loop), or if already built.
        """
        self._check_not_built("build")
        return self._build_into(Diagram(), name)

    def build_into(self, target, name=None):
        """Build into ``target``, a new, empty Diagram (or instance of a Diagram
        subclass); see ``build``."""
        self._check_not_built("build_into")
        if not isinstance(target, Diagram):
            raise TypeError(
                f"DiagramBuilder.build_into: target must be a Diagram, got "
                f"{type(target).__name__}")
        if target.get_systems():
            raise DiagramBuildError(
                f"DiagramBuilder.build_into: target diagram '{target.get_name()}' was already "
                f"built; give a new Diagram")
        self._build_into(target, name)

    def _build_into(self, diagram, name):
        graph = self._port_graph()
        cycle = graph.find_cycle()
        if cycle:
            nodes = cycle + [cycle[0]]
            path = " -> ".join(self._node_label(n) for n in nodes)
            raise DiagramBuildError(
                f"DiagramBuilder.build: the diagram contains an algebraic loop: {path}. Break it "
                f"with a state (e.g. a ZeroOrderHold or Integrator) or declare that an output does "
                f"not depend on an input (prerequisites_of_calc)")
        feedthrough = set()
        reached = {k: graph.reachable_from(("in", id(p.get_system()), p.get_index())
                                           for p in targets)
                   for k, (_, targets) in enumerate(self._input_exports)}
        for j, (_, out) in enumerate(self._output_exports):
            target = ("out", id(out.get_system()), out.get_index())
            for k, nodes in reached.items():
                if target in nodes:
                    feedthrough.add((k, j))
        diagram._initialize(name or diagram.get_name() or "", self._systems, self._connections,
                            self._input_exports, self._output_exports, feedthrough)
        if not diagram._name:
            diagram._name = f"diagram_{diagram._uid}"
        self._built = True
        return diagram

    def get_graphviz_string(self, max_depth=None):
        """A Graphviz (dot) description of the systems and connections so far; diagrams
        among them are expanded down to ``max_depth`` levels (None: all)."""
        return builder_to_graphviz(self._systems, self._connections, self._input_exports,
                                   self._output_exports, max_depth)
