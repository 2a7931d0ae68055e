"""The compiled simulation loop: ``Simulator.advance_to`` of a compiled diagram with
periodic discrete updates and loggers, in one compiled call.

`compiled_simulation_loop` is the template of that loop (``codegen`` copies its source
into each generated module, beside ``time_derivatives``, ``discrete_update``, ``record``
and the integration loop). It repeats, step for step, the Simulator's event loop
(``framework/simulator.py``), Drake's order::

    loop:
        apply the pending discrete updates (all computed from the state before any is
        written: the generated ``discrete_update``)
        tn = time of the next periodic event strictly after t
        one integration step no further than min(tn, T) (``explicit_runge_kutta_loop``
        with its single-step flag; with no continuous state, t = min(tn, T))
        pending := the discrete updates due at tn if the step reached tn
        record the loggers due now: per-step ones, and periodic ones due at tn
        stop when t >= T (updates due at T stay pending for the next advance_to)

and counts what the Simulator counts (steps, publishes, discrete updates). Whatever it
does not handle it hands back at the top of a loop iteration, with the state, the
pending updates and the statistics as the Python loop has them there: a step the
integration loop hands back (below the minimum step size, non-finite), a discrete update
with a non-finite value (the Python loop then raises NonFiniteStateError), or full log
buffers (flushed into the loggers' VectorLogs, then the loop goes on).

`run_compiled_simulation` is the Simulator's side: it checks that the loop applies (every
periodic and per-step event is a compiled leaf's discrete update or a VectorLogSink's
record of a compiled port; no witness, monitor, pacing or forced publishing; an explicit
Runge-Kutta integrator or no continuous state), builds the event tables, runs the loop
and writes state, logs, pending events and statistics back.
"""

import functools
import inspect
import math

import numpy as np

from ..cache import downstream_entries, notify
from ..context import DiagramContext
from ..events import next_periodic_time
from .integration import applies, call_compiled, integrator_arrays, write_back_statistics

__all__ = ["compiled_simulation_loop", "simulation_loop_source", "next_time_source",
           "run_compiled_simulation"]

#: codes the loop returns with the time reached
REACHED, PYTHON_STEP, LOGS_FULL, NONFINITE_UPDATE = 0, 1, 2, 3


def compiled_simulation_loop(t, x, p, w, arrays, t_final, A, b, e, c, K, x0, x1, err, settings,
                             stats, events, ev_kind, ev_target, ev_next, pending, due, touched,
                             invalidates, per_step_log, log_due, log_y, log_size, log_off,
                             log_n, log_t, log_v, counts):  # pragma: no cover (generated)
    """Advance (t, x, the discrete states in w) to t_final; returns (time, code).

    events (E, 2) [period, offset]; ev_kind (E,) 0 discrete update, 1 logger record;
    ev_target (E,) the discrete leaf or logger index; pending (E,) the updates due;
    due, touched, invalidates (D,) per discrete leaf; per_step_log, log_due, log_y,
    log_size, log_off, log_n (L,) per logger, log_t (L, cap), log_v (rows, cap) the
    records; counts [steps, publishes, discrete updates].
    """
    n_ev = ev_kind.shape[0]
    n_log = log_y.shape[0]
    n_dis = due.shape[0]
    nxc = x.shape[0]
    cap = log_t.shape[1]
    while True:
        for j in range(n_log):
            if log_n[j] + 2 > cap:
                return t, 2
        any_pending = False
        for i in range(n_ev):
            if pending[i] != 0:
                any_pending = True
        if any_pending:
            for d in range(n_dis):
                due[d] = 0
            for i in range(n_ev):
                if pending[i] != 0:
                    due[ev_target[i]] = 1
            if discrete_update(t, x, p, w, due, arrays) != 0:
                return t, 3
            counts[2] += 1.0
            for i in range(n_ev):
                pending[i] = 0
            for d in range(n_dis):
                if due[d] != 0:
                    touched[d] = 1
                    if invalidates[d] != 0:
                        stats[9] = 0.0          # the derivatives in K[0] are stale
        tn = math.inf
        for i in range(n_ev):
            ev_next[i] = next_periodic_time(events[i, 0], events[i, 1], t, False)
            if ev_next[i] < tn:
                tn = ev_next[i]
        if nxc == 0:
            t = tn if tn < t_final else t_final
        else:
            # the integrator's target: the event time when no further than the boundary
            target = tn if tn - t <= t_final - t else t_final
            settings[1] = stats[8]
            settings[14] = stats[9]
            t, code = explicit_runge_kutta_loop(t, x, p, w, arrays, target, A, b, e, c, K, x0,
                                                x1, err, settings, stats)
            if code != 0:
                return t, 1
        counts[0] += 1.0
        any_log = False
        for j in range(n_log):
            log_due[j] = per_step_log[j]
        if t == tn:
            for i in range(n_ev):
                if ev_next[i] == tn:
                    if ev_kind[i] == 0:
                        pending[i] = 1
                    else:
                        log_due[ev_target[i]] += 1
        for j in range(n_log):
            if log_due[j] != 0:
                any_log = True
        if any_log:
            record(t, x, p, w, arrays)
            for j in range(n_log):
                for _ in range(log_due[j]):
                    k = log_n[j]
                    log_t[j, k] = t
                    for r in range(log_size[j]):
                        log_v[log_off[j] + r, k] = w[log_y[j] + r]
                    log_n[j] = k + 1
            counts[1] += 1.0
        if t >= t_final:
            return t, 0


@functools.lru_cache(maxsize=None)
def simulation_loop_source():
    """The template's source, for a generated module (numba-compilable there)."""
    source = inspect.getsource(compiled_simulation_loop)
    return source.replace("  # pragma: no cover (generated)", "")


@functools.lru_cache(maxsize=None)
def next_time_source():
    """The source of ``events.next_periodic_time`` (the one formula of a periodic event's
    times), for a generated module."""
    return inspect.getsource(next_periodic_time)


class NotApplicable(Exception):
    """The compiled simulation loop does not run this simulator's events."""


class EventTables:
    """The arrays of the compiled loop for one simulator's events and one plan.

    Raises
    ------
    NotApplicable
        When an event is not a compiled discrete update or logger record.
    """

    def __init__(self, plan, ctx, periodic, per_step):
        layout = plan._layout
        leaves = ctx._leaves
        position = {id(leaf): k for k, leaf in enumerate(leaves)}
        discrete = {lay.index: d for d, lay in enumerate(layout.discrete)}
        loggers = {k: j for j, (k, _) in enumerate(layout.loggers)}
        rows, kinds, targets, self.events = [], [], [], []
        for data, s, leaf, event in periodic:
            k = position[id(leaf)]
            if event.kind == "discrete" and k in discrete:
                kinds.append(0)
                targets.append(discrete[k])
            elif event.kind == "publish" and k in loggers:
                kinds.append(1)
                targets.append(loggers[k])
            else:
                raise NotApplicable(f"event of system '{s.get_name()}'")
            rows.append((data.period_sec(), data.offset_sec()))
            self.events.append((s, leaf, event))
        n_log = len(layout.loggers)
        self.per_step_log = np.zeros(n_log, dtype=np.int64)
        for s, leaf, event in per_step:
            k = position[id(leaf)]
            if event.kind != "publish" or k not in loggers:
                raise NotApplicable(f"per-step event of system '{s.get_name()}'")
            self.per_step_log[loggers[k]] += 1
        self.table = np.array(rows, dtype=float).reshape(-1, 2)
        self.kind = np.array(kinds, dtype=np.int64)
        self.target = np.array(targets, dtype=np.int64)
        self.next = np.zeros(len(rows))
        self.pending = np.zeros(len(rows), dtype=np.int64)
        n_dis = len(layout.discrete)
        self.due = np.zeros(n_dis, dtype=np.int64)
        self.touched = np.zeros(n_dis, dtype=np.int64)
        entry = ctx.deriv_entry
        self.invalidates = np.array(
            [any(e is entry for e in downstream_entries([leaves[lay.index].note_xd]))
             for lay in layout.discrete], dtype=np.int64)
        self.logger_leaves = [leaves[k] for k, _ in layout.loggers]
        sizes = [node.y_area[1] - node.y_area[0] for _, node in layout.loggers]
        self.log_y = np.array([node.y_area[0] for _, node in layout.loggers], dtype=np.int64)
        self.log_size = np.array(sizes, dtype=np.int64)
        self.log_off = np.array(np.cumsum([0] + sizes[:-1]), dtype=np.int64)[:n_log]
        self.log_due = np.zeros(n_log, dtype=np.int64)
        self.log_n = np.zeros(n_log, dtype=np.int64)
        self.rows = int(sum(sizes))
        self.capacity = 0
        self.log_t = self.log_v = None

    def reserve(self, t, t_final):
        """Log buffers for about the records until ``t_final`` (at least 16, at most
        65536 per logger; the loop hands back when they are full)."""
        want = 1024 if self.per_step_log.any() else 16
        for i in range(len(self.kind)):
            if self.kind[i] == 1 and math.isfinite(t_final):
                want = max(want, int((t_final - t) / self.table[i, 0]) + 2)
        capacity = min(max(want, 16), 65536)
        if capacity > self.capacity:
            self.capacity = capacity
            self.log_t = np.zeros((len(self.log_y), capacity))
            self.log_v = np.zeros((self.rows, capacity))

    def set_pending(self, pending_events):
        """Flag the simulator's pending events; False when one is not in the tables."""
        self.pending[:] = 0
        for _, leaf, event in pending_events:
            for i, (_, other_leaf, other) in enumerate(self.events):
                if other is event and other_leaf is leaf:
                    self.pending[i] = 1
                    break
            else:
                return False
        return True

    def pending_events(self):
        return [self.events[i] for i in range(len(self.events)) if self.pending[i]]

    def flush_logs(self):
        """Append the buffered records to the loggers' VectorLogs."""
        for j, leaf in enumerate(self.logger_leaves):
            n = int(self.log_n[j])
            if n:
                a = int(self.log_off[j])
                log = leaf._system.get_log(leaf)
                log.append_samples(self.log_t[j, :n], self.log_v[a:a + int(self.log_size[j]), :n])
            self.log_n[j] = 0


def _tables(simulator, plan, ctx):
    """The simulator's EventTables for ``plan`` (built once per plan and event set)."""
    key = (id(plan), id(plan._layout), id(simulator._periodic), id(simulator._per_step))
    cached = getattr(simulator, "_compiled_event_tables", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    tables = EventTables(plan, ctx, simulator._periodic, simulator._per_step)
    simulator._compiled_event_tables = (key, tables)
    return tables


def _plan_of(simulator):
    ctx = simulator._context
    plan = getattr(ctx, "_calc_xcdot", None) if isinstance(ctx, DiagramContext) else None
    return plan if hasattr(plan, "prepare_simulation") else None


def _simulator_applies(simulator, plan):
    if (plan is None or simulator._witness_leaves or simulator._monitor is not None
            or simulator._publish_every_time_step or simulator._target_realtime_rate > 0.0
            or not (simulator._periodic or simulator._per_step)):
        return False
    if simulator._nxc:
        integrator = simulator._integrator
        if not applies(simulator, plan):
            return False
        if not integrator._initialized:
            integrator.initialize()
        if integrator._xc_in_place is None:
            return False
    return True


def run_compiled_simulation(simulator, boundary_time):
    """Advance ``simulator`` toward ``boundary_time`` with the compiled simulation loop.

    Returns
    -------
    bool or None
        None when the loop does not apply (see the module docstring); True when the
        context reached ``boundary_time``; False when the Simulator's Python loop takes
        the next iteration (the context, pending events and statistics are where that
        loop has them at the top of one), after which this loop may go on.
    """
    plan = _plan_of(simulator)
    if not _simulator_applies(simulator, plan):
        return None
    ctx = simulator._context
    if plan.prepare_simulation(ctx) is None:
        return None
    try:
        tables = _tables(simulator, plan, ctx)
    except NotApplicable:
        return None
    if not tables.set_pending(simulator._pending):
        return None
    module = plan._module
    loop = module.compiled_simulation_loop
    root = ctx._root
    nxc = simulator._nxc
    if nxc:
        settings, stats, tableau = integrator_arrays(simulator, ctx, True)
    else:
        settings, stats = np.zeros(18), np.zeros(11)
        tableau = (np.zeros((1, 1)), np.zeros(1), np.zeros(1), np.zeros(1), np.zeros((1, 0)),
                   np.zeros(0), np.zeros(0), np.zeros(0))
    tables.reserve(root.time, float(boundary_time))
    tables.touched[:] = 0
    counts = np.zeros(3)
    t = root.time
    while True:
        args = (t, root.xc, plan._p, plan._w, plan._arrays, float(boundary_time), *tableau,
                settings, stats, tables.table, tables.kind, tables.target, tables.next,
                tables.pending, tables.due, tables.touched, tables.invalidates,
                tables.per_step_log, tables.log_due, tables.log_y, tables.log_size,
                tables.log_off, tables.log_n, tables.log_t, tables.log_v, counts)
        result = call_compiled(plan, ctx, loop, args)
        if result is None:
            return None
        t, code = result
        tables.flush_logs()
        if code != LOGS_FULL:
            break
    _write_back(simulator, plan, ctx, tables, stats, counts, t)
    return code == REACHED


def _write_back(simulator, plan, ctx, tables, stats, counts, t):
    """The discrete states, time, statistics and pending events after the loop."""
    leaves = ctx._leaves
    w = plan._w
    for d, lay in enumerate(plan._layout.discrete):
        if tables.touched[d]:
            leaf = leaves[lay.index]
            offset = lay.xd_area[0]
            for group in leaf._xd:
                group[:] = w[offset:offset + group.size]
                offset += group.size
            notify(leaf.note_xd, leaf._root.version)
    if simulator._nxc:
        write_back_statistics(simulator, ctx, stats, t)
    else:
        ctx.set_time(t)
    simulator._num_steps += int(counts[0])
    simulator._num_publishes += int(counts[1])
    simulator._num_discrete_updates += int(counts[2])
    simulator._pending = tables.pending_events()


def charge_python_time(simulator, seconds):
    """Count ``seconds`` of the Python event loop toward the compilation threshold of a
    waiting plan whose events the compiled loop would run (a diagram without continuous
    state evaluates no derivatives to count)."""
    plan = _plan_of(simulator)
    if plan is not None and not plan.compiled and not plan._layout.event_blockers:
        plan.charge(seconds)
