"""Graphviz (dot) rendering of systems and diagrams, with nested clusters."""


def _quote(text):
    return '"' + str(text).replace('"', r'\"') + '"'


def _leaf_node(system, node_id):
    ins = "|".join(f"<u{i}> {p.get_name()}" for i, p in enumerate(system._input_ports))
    outs = "|".join(f"<y{j}> {p.get_name()}" for j, p in enumerate(system._output_ports))
    label = f"{{{{{ins}}}|{system.get_name()}|{{{outs}}}}}"
    return f"{node_id} [shape=record, label={_quote(label)}];"


def _emit(system, lines, ids, depth, max_depth):
    node_id = f"s{system._uid}"
    ids[id(system)] = node_id
    if not system._subsystems() or (max_depth is not None and depth >= max_depth):
        lines.append(_leaf_node(system, node_id))
        return
    lines.append(f"subgraph cluster{node_id} {{")
    lines.append(f"label={_quote(system.get_name())};")
    ins = [f"{node_id}_u{i} [shape=rarrow, label={_quote(p.get_name())}];"
           for i, p in enumerate(system._input_ports)]
    outs = [f"{node_id}_y{j} [shape=rarrow, label={_quote(p.get_name())}];"
            for j, p in enumerate(system._output_ports)]
    lines.extend(ins + outs)
    for sub in system._subsystems():
        _emit(sub, lines, ids, depth + 1, max_depth)
    lines.append("}")


def _port_ref(system, kind, index, ids, depth, max_depth):
    """dot endpoint for (system, 'u'|'y', index), descending into expanded diagrams."""
    node_id = ids[id(system)]
    if system._subsystems() and not (max_depth is not None and depth >= max_depth):
        return f"{node_id}_{kind}{index}"
    return f"{node_id}:{kind}{index}"


def _edges(system, lines, ids, depth, max_depth):
    if not system._subsystems() or (max_depth is not None and depth >= max_depth):
        return
    node_id = ids[id(system)]
    for (dst_k, dst_i), (src_k, src_j) in system._connection_map.items():
        src = _port_ref(system._systems[src_k], "y", src_j, ids, depth + 1, max_depth)
        dst = _port_ref(system._systems[dst_k], "u", dst_i, ids, depth + 1, max_depth)
        lines.append(f"{src} -> {dst};")
    for (k, i), export in system._input_export_of.items():
        dst = _port_ref(system._systems[k], "u", i, ids, depth + 1, max_depth)
        lines.append(f"{node_id}_u{export} -> {dst};")
    for j, (k, src_j) in enumerate(system._output_sources):
        src = _port_ref(system._systems[k], "y", src_j, ids, depth + 1, max_depth)
        lines.append(f"{src} -> {node_id}_y{j};")
    for sub in system._subsystems():
        _edges(sub, lines, ids, depth + 1, max_depth)


def system_to_graphviz(system, max_depth=None):
    """The dot source of ``system``: records with input/output ports, clusters per diagram."""
    lines = ["digraph _merganser_diagram_ {", "rankdir=LR;", "node [fontsize=10];"]
    ids = {}
    _emit(system, lines, ids, 0, max_depth)
    _edges(system, lines, ids, 0, max_depth)
    lines.append("}")
    return "\n".join(lines)


def builder_to_graphviz(systems, connections, input_exports, output_exports, max_depth=None):
    """The dot source of a DiagramBuilder's contents (systems, connections and exports so
    far), drawn like the diagram it would build; used by
    ``DiagramBuilder.get_graphviz_string``."""
    lines = ["digraph _merganser_diagram_ {", "rankdir=LR;", "node [fontsize=10];"]
    ids = {}
    for k, (name, _) in enumerate(input_exports):
        lines.append(f"builder_u{k} [shape=rarrow, label={_quote(name)}];")
    for j, (name, _) in enumerate(output_exports):
        lines.append(f"builder_y{j} [shape=rarrow, label={_quote(name)}];")
    for system in systems:
        _emit(system, lines, ids, 1, max_depth)
    for out, inp in connections:
        src = _port_ref(out.get_system(), "y", out.get_index(), ids, 1, max_depth)
        dst = _port_ref(inp.get_system(), "u", inp.get_index(), ids, 1, max_depth)
        lines.append(f"{src} -> {dst};")
    for k, (_, targets) in enumerate(input_exports):
        for port in targets:
            dst = _port_ref(port.get_system(), "u", port.get_index(), ids, 1, max_depth)
            lines.append(f"builder_u{k} -> {dst};")
    for j, (_, port) in enumerate(output_exports):
        src = _port_ref(port.get_system(), "y", port.get_index(), ids, 1, max_depth)
        lines.append(f"{src} -> builder_y{j};")
    for system in systems:
        _edges(system, lines, ids, 1, max_depth)
    lines.append("}")
    return "\n".join(lines)
