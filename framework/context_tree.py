"""Building a context tree: lay out the continuous state, create the cache entries of every
leaf, and wire input ports to their sources (fixed values, connections, exports).

Called by ``System.allocate_context`` and after ``InputPort.fix_value``; knows contexts
and the diagram's connection tables, never the system classes themselves.
"""

import numpy as np

from .cache import UncountedCacheEntryValue, downstream_entries
from .context import DiagramContext, LeafContext, _RootData
from .value import as_vector_base


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


def finalize_root(root_ctx):
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
    wire_subtree(root_ctx)


def _setup_diagram_context(ctx):
    leaves = _leaves_in_order(ctx, [])
    ctx._leaves = leaves
    ctx._xd_map = [(leaf, k) for leaf in leaves for k in range(len(leaf._xd))]
    ctx._xa_map = [(leaf, k) for leaf in leaves for k in range(len(leaf._xa))]
    ctx._p_map = [(leaf, k) for leaf in leaves for k in range(len(leaf._p))]
    n = ctx._nq + ctx._nv + ctx._nz
    # uncounted: marked current by the diagram's eval and by integrators (framework.cache)
    entry = UncountedCacheEntryValue(np.zeros(n),
                                     f"time derivatives of '{ctx._system.get_name()}'")
    position = {int(g): i for i, g in enumerate(ctx._global_xc)}
    parts = []
    for leaf in leaves:
        if leaf._global_xc.size == 0:
            continue
        leaf.deriv_entry.subscribe(entry)
        parts.append((leaf._system, leaf, _as_index([position[int(g)] for g in leaf._global_xc])))
    ctx.deriv_entry = entry
    entry.ro = as_vector_base(entry.value, False)     # has Drake's size()
    ctx._deriv_parts = parts
    # one leaf holding the whole continuous state in order: its derivatives are the
    # diagram's (no copy)
    ctx._single_part_default = (parts[0][:2] if len(parts) == 1 and parts[0][2] == slice(0, n)
                                else None)
    ctx._single_deriv_part = ctx._single_part_default


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


def wire_subtree(ctx):
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
        wire_subtree(sub)
    ctx._root.version += 1
