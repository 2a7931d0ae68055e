"""Graphviz (dot) rendering of systems and diagrams, in Drake's layout.

A system renders itself as a *fragment* (Drake's ``GraphvizFragment``): the dot text of
its node(s) plus the dot ids of its input and output ports, so that a Diagram can draw
edges between its subsystems' ports. ``System.do_get_graphviz_fragment(params)`` is the
override point; ``params`` (a ``GraphvizFragmentParams``) carries the remaining depth,
the options, the node id and the header lines (class name in bold, then ``name=...``).
The option ``{"split": "I/O"}`` draws a leaf as two nodes, inputs and outputs apart; a
diagram passes ``"<subsystem name>/<key>"`` options on to that subsystem as ``<key>``.
"""


def html_escape(text):
    """``text`` with ``<``, ``>`` and ``&`` replaced by their HTML entities."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class GraphvizFragmentParams:
    """What ``do_get_graphviz_fragment`` is asked to draw (Drake's GraphvizFragmentParams).

    Attributes
    ----------
    max_depth : int
        How many more levels of nested diagrams to expand (0: draw as a leaf).
    options : dict[str, str]
    node_id : str
        The dot id of this system's node (``s<system id>``).
    header_lines : list[str]
        HTML lines of the node's header.
    """

    def __init__(self, max_depth, options, node_id, header_lines):
        self.max_depth = max_depth
        self.options = dict(options)
        self.node_id = node_id
        self.header_lines = list(header_lines)


class GraphvizFragment:
    """A system's dot text and port ids (Drake's GraphvizFragment).

    Attributes
    ----------
    input_ports, output_ports : list[str]
        dot ids (``node:port``) of the input and output ports, in port order.
    fragments : list[str]
        The dot text, in pieces; ``"".join(fragments)`` is the text.
    """

    def __init__(self, input_ports=None, output_ports=None, fragments=None):
        self.input_ports = list(input_ports or [])
        self.output_ports = list(output_ports or [])
        self.fragments = list(fragments or [])


def make_params(system, max_depth, options):
    """The GraphvizFragmentParams with which ``system.get_graphviz_fragment`` starts."""
    if max_depth is not None and int(max_depth) < 0:
        raise ValueError(f"get_graphviz_fragment: max_depth must be >= 0 or None, got {max_depth} "
                         f"(system '{system.get_name()}')")
    header = [f"<B>{html_escape(type(system).__name__)}</B>"]
    if system.get_name():
        header.append(f"name={html_escape(system.get_name())}")
    depth = 2 ** 31 - 1 if max_depth is None else int(max_depth)
    return GraphvizFragmentParams(depth, options or {}, f"s{system._uid}", header)


def document(system, fragment):
    """The complete dot document around ``fragment`` (Drake's GetGraphvizString)."""
    return f"digraph _{system._uid} {{\nrankdir=LR\n{''.join(fragment.fragments)}}}\n"


def _port_labels(ports):
    return [html_escape(p.get_name()) for p in ports]


def leaf_fragment(system, params):
    """A table node with the inputs on the left and the outputs on the right (two nodes
    with ``options["split"] == "I/O"``), as Drake's System::DoGetGraphvizFragment draws."""
    split = params.options.get("split") == "I/O"
    id_in = params.node_id + ("in" if split else "")
    id_out = params.node_id + ("out" if split else "")
    labels = [_port_labels(system._input_ports), _port_labels(system._output_ports)]
    n_in, n_out = len(labels[0]), len(labels[1])
    rows = max(n_in, n_out)
    result = GraphvizFragment([f"{id_in}:u{i}" for i in range(n_in)],
                              [f"{id_out}:y{j}" for j in range(n_out)])
    cells = [[labels[col][i] if i < len(labels[col]) else None for col in (0, 1)]
             for i in range(rows)]
    styles = [["", ""] for _ in range(rows)]
    if n_in != n_out:
        short = 0 if n_in < n_out else 1
        low = min(n_in, n_out)
        if low == 1:
            styles[0][short] = f'ROWSPAN="{rows}"'
        else:
            cells[low][short] = ""
            styles[low][short] = (f'COLOR="grey" ROWSPAN="{rows - low}" '
                                  f'SIDES="{"BL" if short == 0 else "BR"}"')
    nodes = [(id_in, n_in), (id_out, n_out)] if split else [(params.node_id, rows)]
    header = "<BR/>\n".join(params.header_lines)
    for node, (node_id, node_rows) in enumerate(nodes):
        result.fragments.append(
            f'{node_id} [shape=none, border=0, label=<\n<TABLE BORDER="0" CELLSPACING="0">\n'
            f'<TR><TD BORDER="1" COLSPAN="2">\n{header}\n</TD></TR>\n')
        for i in range(node_rows):
            result.fragments.append("<TR>\n")
            for col in (0, 1):
                if split and col != node:
                    if i == 0:
                        span = n_out if col == 0 else n_in
                        result.fragments.append(
                            f'<TD BORDER="1" STYLE="dotted" COLOR="cadetblue" ROWSPAN="{span}">\n'
                            f'<FONT COLOR="cadetblue">(split)</FONT>\n</TD>\n')
                    continue
                if cells[i][col] is not None:
                    result.fragments.append(
                        f'<TD PORT="{"uy"[col]}{i}" BORDER="1" {styles[i][col]}>'
                        f'{cells[i][col]}</TD>\n')
            result.fragments.append("</TR>\n")
        result.fragments.append("</TABLE>\n>];\n")
    return result


def _ports_cluster(result, ids, kind, node_id, color, labels):
    result.fragments.append(
        f'subgraph cluster{node_id} {{\nrank=same\ncolor=lightgrey\nstyle=filled\n'
        f'label="{kind} ports"\n{node_id} [shape=none, label=<\n'
        f'<TABLE BORDER="0" COLOR="{color}" CELLSPACING="3" STYLE="rounded">\n')
    for i, label in enumerate(labels):
        result.fragments.append(f'<TR><TD BORDER="1" PORT="{i}">{label}</TD></TR>\n')
        ids.append(f"{node_id}:{i}")
    result.fragments.append("</TABLE>\n>];\n}\n")


def subsystem_options(options, subsystem):
    """The options meant for ``subsystem``: keys ``"<its name>/<key>"`` become ``<key>``."""
    prefix = subsystem.get_name() + "/"
    return {k[len(prefix):]: v for k, v in options.items() if k.startswith(prefix)}


def _sub_fragments(systems, params):
    return {id(s): s.get_graphviz_fragment(params.max_depth - 1,
                                           subsystem_options(params.options, s))
            for s in systems}


def _open_cluster(result, cluster_id, header_lines):
    header = "<BR/>\n".join(header_lines)
    result.fragments.append(
        f'subgraph cluster{cluster_id}diagram {{\ncolor=black\nconcentrate=true\n'
        f'label=<<TABLE BORDER="0"><TR><TD>\n{header}\n'
        f'</TD></TR></TABLE>>;\n')
    return result


def _edges(result, subs, connections, input_targets, output_sources):
    """Connections (``(src system, j), (dst system, i)``), then the diagram's input
    fan-outs and output sources, as Drake draws them."""
    for (src, j), (dst, i) in connections:
        result.fragments.append(
            f"{subs[id(src)].output_ports[j]}:e -> {subs[id(dst)].input_ports[i]}:w\n")
    for k, targets in enumerate(input_targets):
        for dst, i in targets:
            result.fragments.append(f"{result.input_ports[k]}:e -> "
                                    f"{subs[id(dst)].input_ports[i]}:w [color=blue];\n")
    for k, (src, j) in enumerate(output_sources):
        result.fragments.append(f"{subs[id(src)].output_ports[j]}:e -> "
                                f"{result.output_ports[k]}:w [color=green];\n")


def composite_fragment(node_id, cluster_id, header_lines, params, systems, connections,
                       input_ports, output_ports):
    """A cluster holding ``systems`` wired by ``connections``, with port nodes for the
    ``input_ports`` (each ``(label, [(subsystem, input index)...])``) and
    ``output_ports`` (each ``(label, (subsystem, output index))``): Drake's
    Diagram::DoGetGraphvizFragment."""
    subs = _sub_fragments(systems, params)
    result = _open_cluster(GraphvizFragment(), cluster_id, header_lines)
    if input_ports:
        _ports_cluster(result, result.input_ports, "input", f"{node_id}in", "blue",
                       [label for label, _ in input_ports])
    if output_ports:
        _ports_cluster(result, result.output_ports, "output", f"{node_id}out", "green",
                       [label for label, _ in output_ports])
    result.fragments.append(f'subgraph cluster{cluster_id}subsystems {{\ncolor=white\nlabel=""\n')
    for s in systems:
        result.fragments.extend(subs[id(s)].fragments)
    _edges(result, subs, connections, [t for _, t in input_ports], [s for _, s in output_ports])
    result.fragments.append("}\n}\n")
    return result


def diagram_fragment(diagram, params):
    """Drake's Diagram::DoGetGraphvizFragment for ``diagram``."""
    systems = diagram._subsystems()
    connections = [((systems[sk], sj), (systems[dk], di))
                   for (dk, di), (sk, sj) in diagram._connection_map.items()]
    inputs = [(html_escape(p.get_name()), diagram.get_input_port_locators(p.get_index()))
              for p in diagram._input_ports]
    outputs = [(html_escape(p.get_name()), diagram.get_output_port_locator(p.get_index()))
               for p in diagram._output_ports]
    return composite_fragment(params.node_id, diagram._uid, params.header_lines, params,
                              systems, connections, inputs, outputs)


def builder_to_graphviz(systems, connections, input_exports, output_exports, max_depth=None):
    """The dot source of a DiagramBuilder's contents (systems, connections and exports so
    far), drawn like the diagram it would build; used by
    ``DiagramBuilder.get_graphviz_string``."""
    depth = 2 ** 31 - 1 if max_depth is None else int(max_depth)
    params = GraphvizFragmentParams(depth + 1, {}, "builder", ["<B>DiagramBuilder</B>"])
    conns = [((out.get_system(), out.get_index()), (inp.get_system(), inp.get_index()))
             for out, inp in connections]
    inputs = [(html_escape(name), [(p.get_system(), p.get_index()) for p in targets])
              for name, targets in input_exports]
    outputs = [(html_escape(name), (p.get_system(), p.get_index())) for name, p in output_exports]
    fragment = composite_fragment("builder", "builder", params.header_lines, params,
                                  systems, conns, inputs, outputs)
    return f"digraph _builder {{\nrankdir=LR\n{''.join(fragment.fragments)}}}\n"
