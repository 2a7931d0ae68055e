"""Simulator: advances a system's context through time (Drake's Simulator).

Step algorithm (Drake's event timing, the contract tested in tests/framework)::

    initialize():
        dispatch initialization events: unrestricted updates, discrete updates, publishes
        find timed events due at the start time t0 (periodic events with offset t0 ...)
        publish now: per-step publish events and timed publish events due at t0
        keep as pending: per-step update events and timed update events due at t0
        forced publish if publish_every_time_step; call the monitor

    advance_to(T):
        loop:
            apply the pending unrestricted updates, then the pending discrete updates
            tn = time of the next timed event strictly after t (inf if none)
            integrate the continuous state one step, no further than min(tn, T),
              localizing any witness function zero crossing in the step (bisection)
            pending := per-step events
                       + timed events at tn if the step reached tn
                       + the events of witness functions that triggered
            dispatch the pending publish events now (end of the step arriving at t)
            forced publish if publish_every_time_step; call the monitor
            stop when t >= T; updates still pending at T run at the start of the next
            advance_to (so an update scheduled at T is not applied by advance_to(T))

A state variable that becomes NaN or infinite stops the run with NonFiniteStateError
naming the subsystem and the state index. An event handler or monitor returning
EventStatus.failed raises SimulationError; reached_termination ends advance_to early.
"""

import math
import time as _time

import numpy as np

from .cache import notify
from .errors import ContextError, NonFiniteStateError, SimulationError
from .events import EventStatus
from .affine_fusion import fuse_by_default
from .state import DiscreteValues, State


class SimulatorStatus:
    """Why ``advance_to`` returned (Drake's SimulatorStatus)."""

    REACHED_BOUNDARY_TIME = 0
    REACHED_TERMINATION_CONDITION = 1
    EVENT_HANDLER_FAILED = 2

    def __init__(self, boundary_time, return_time, reason=0, system=None, message=""):
        self._boundary_time = boundary_time
        self._return_time = return_time
        self._reason = reason
        self._system = system
        self._message = message

    def boundary_time(self):
        return self._boundary_time

    def return_time(self):
        return self._return_time

    def reason(self):
        return self._reason

    def system(self):
        return self._system

    def message(self):
        return self._message

    def succeeded(self):
        return self._reason != self.EVENT_HANDLER_FAILED

    def reached_termination(self):
        return self._reason == self.REACHED_TERMINATION_CONDITION

    def FormatMessage(self):
        return self.format_message()

    def format_message(self):
        if self._reason == self.REACHED_BOUNDARY_TIME:
            return f"Simulator successfully reached the boundary time ({self._boundary_time})."
        who = self._system.get_name() if self._system is not None else "?"
        if self._reason == self.REACHED_TERMINATION_CONDITION:
            return (f"Simulator returned early at time {self._return_time} because system '{who}' "
                    f"requested termination with message: \"{self._message}\"")
        return f"Simulator stopped at time {self._return_time} because system '{who}' failed: {self._message}"

    def __repr__(self):
        return f"<SimulatorStatus {self.format_message()}>"


class Simulator:
    """Advances ``system``'s root context in time with an integrator and events.

    Parameters
    ----------
    system : System
    context : Context, optional
        Root context of ``system``; a default context is created when omitted.
    """

    def __init__(self, system, context=None):
        from .integrators import make_integrator

        self._system = system
        if context is None:
            context = system.create_default_context()
        if context._system is not system or context._parent is not None:
            raise ContextError(
                f"Simulator: the context must be the root context of system '{system.get_name()}', "
                f"got a context of '{context._system.get_name()}'")
        self._context = context
        fuse_by_default(system, context)
        self._integrator = make_integrator("runge_kutta3", system, context, 0.1)
        self._integrator.set_target_accuracy(1e-4)
        self._initialized = False
        self._publish_every_time_step = False
        self._publish_at_initialization = True
        self._target_realtime_rate = 0.0
        self._monitor = None
        self._pending = []
        self.reset_statistics()
        self._collect_events()

    # ---- configuration ----------------------------------------------------------------------
    def get_system(self):
        return self._system

    def get_context(self):
        return self._context

    def get_mutable_context(self):
        return self._context

    def reset_context(self, context):
        """Use another root context of the same system; requires initialize() again."""
        if context._system is not self._system or context._parent is not None:
            raise ContextError("Simulator.reset_context: expected a root context of the simulated system")
        self._context = context
        fuse_by_default(self._system, context)
        self._integrator.reset_context(context)
        self._initialized = False
        self._collect_events()

    def get_integrator(self):
        return self._integrator

    def get_mutable_integrator(self):
        return self._integrator

    def reset_integrator(self, integrator):
        """Replace the integrator (it must be built for this simulator's system and context)."""
        integrator.reset_context(self._context)
        self._integrator = integrator
        self._initialized = False
        return integrator

    def set_target_realtime_rate(self, rate):
        rate = float(rate)
        if rate < 0.0:
            raise ValueError(f"Simulator.set_target_realtime_rate: rate must be >= 0, got {rate}")
        self._target_realtime_rate = rate

    def get_target_realtime_rate(self):
        return self._target_realtime_rate

    def get_actual_realtime_rate(self):
        wall = _time.perf_counter() - self._wall_start
        if wall <= 0.0:
            return 0.0
        return (self._context.get_time() - self._sim_start) / wall

    def set_publish_every_time_step(self, publish):
        self._publish_every_time_step = bool(publish)

    def get_publish_every_time_step(self):
        return self._publish_every_time_step

    def set_publish_at_initialization(self, publish):
        self._publish_at_initialization = bool(publish)

    def set_monitor(self, monitor):
        """``monitor(root_context)`` runs after initialization and every step; it may return
        an EventStatus (reached_termination stops advance_to, failed raises)."""
        if monitor is not None and not callable(monitor):
            raise TypeError("Simulator.set_monitor: monitor must be callable or None")
        self._monitor = monitor

    def clear_monitor(self):
        self._monitor = None

    def get_monitor(self):
        return self._monitor

    def has_been_initialized(self):
        return self._initialized

    # ---- statistics -------------------------------------------------------------------------
    def reset_statistics(self):
        self._num_steps = 0
        self._num_publishes = 0
        self._num_discrete_updates = 0
        self._num_unrestricted_updates = 0
        self._wall_start = _time.perf_counter()
        self._sim_start = self._context.get_time()

    def get_num_steps_taken(self):
        return self._num_steps

    def get_num_publishes(self):
        return self._num_publishes

    def get_num_discrete_updates(self):
        return self._num_discrete_updates

    def get_num_unrestricted_updates(self):
        return self._num_unrestricted_updates

    # ---- event bookkeeping ------------------------------------------------------------------
    def _collect_events(self):
        ctx = self._context
        leaves = list(ctx._leaf_contexts())
        self._leaves = leaves
        self._discrete_scratch = {}
        self._periodic = []
        self._per_step = []
        self._init_events = []
        self._witness_leaves = []
        for leaf in leaves:
            s = leaf._system
            for data, event in s._periodic_events:
                self._periodic.append((data, s, leaf, event))
            for event in s._per_step_events:
                self._per_step.append((s, leaf, event))
            for event in s._initialization_events:
                self._init_events.append((s, leaf, event))
            if s._witnesses or type(s).do_get_witness_functions is not _leaf_witness_default():
                self._witness_leaves.append((s, leaf))
        self._nxc = ctx.num_continuous_states()

    def _next_timed_events(self, t, inclusive):
        best = math.inf
        events = []
        for data, s, leaf, event in self._periodic:
            tn = data.next_time(t, inclusive)
            if tn < best:
                best = tn
                events = [(s, leaf, event)]
            elif tn == best:
                events.append((s, leaf, event))
        return best, events

    def _run_events(self, events):
        """Dispatch unrestricted updates, then discrete updates, then publishes."""
        if len(events) == 1 and events[0][2].kind == "discrete":
            return self._apply_discrete(events)
        status = None
        unrestricted, discrete, publish = [], [], []
        for e in events:
            kind = e[2].kind
            if kind == "discrete":
                discrete.append(e)
            elif kind == "publish":
                publish.append(e)
            elif kind == "unrestricted":
                unrestricted.append(e)
        if unrestricted:
            status = self._merge(status, self._apply_unrestricted(unrestricted))
        if discrete:
            status = self._merge(status, self._apply_discrete(discrete))
        if publish:
            status = self._merge(status, self._apply_publish(publish))
        return status

    @staticmethod
    def _merge(a, b):
        if b is None:
            return a
        if a is None or b.severity() > a.severity():
            return b
        return a

    def _handle(self, status, system, what):
        if isinstance(status, EventStatus):
            if status.is_failure():
                who = status.system() or system
                raise SimulationError(
                    f"Simulator: {what} event handler of system '{who.get_name()}' failed at time "
                    f"{self._context.get_time()}: {status.message()}")
            return status
        return None

    def _group_by_leaf(self, events):
        if len(events) == 1:
            s, leaf, event = events[0]
            return [(s, leaf, [event])]
        groups = {}
        order = []
        for s, leaf, event in events:
            key = id(leaf)
            if key not in groups:
                groups[key] = (s, leaf, [])
                order.append(key)
            groups[key][2].append(event)
        return [groups[k] for k in order]

    def _apply_unrestricted(self, events):
        status = None
        results = []
        for s, leaf, evs in self._group_by_leaf(events):
            state = State.copy_of(leaf)
            for event in evs:
                if event.callback is not None:
                    status = self._merge(status, self._handle(event.callback(leaf, state), s, "unrestricted update"))
            results.append((leaf, state))
        for leaf, state in results:
            if state._xc.size:
                leaf.set_continuous_state(state._xc)
            for i, g in enumerate(state._xd._groups):
                leaf._xd[i][:] = g
            if state._xd._groups:
                notify(leaf.note_xd, leaf._root.version)
            if state._xa:
                for i, v in enumerate(state._xa):
                    leaf._xa[i] = v
                notify(leaf.note_xa, leaf._root.version)
        self._num_unrestricted_updates += 1
        self._check_finite("an unrestricted update")
        return status

    def _discrete_values(self, leaf):
        """DiscreteValues holding a copy of `leaf`'s discrete state, in storage reused
        from step to step (as Drake's simulator reuses its discrete-update scratch)."""
        scratch = self._discrete_scratch.get(id(leaf))
        if scratch is None or scratch[0] is not leaf:   # (a leaf's group sizes are fixed)
            scratch = self._discrete_scratch[id(leaf)] = (leaf, [g.copy() for g in leaf._xd])
        else:
            for a, g in zip(scratch[1], leaf._xd):
                np.copyto(a, g)
        return DiscreteValues(list(scratch[1]))

    def _apply_discrete(self, events):
        if len(events) == 1:                # one event of one leaf (e.g. a plant's step)
            s, leaf, event = events[0]
            values = self._discrete_values(leaf)
            status = None
            if event.callback is not None:
                result = event.callback(leaf, values)
                if result is not None:
                    status = self._handle(result, s, "discrete update")
            xd = leaf._xd
            for i, g in enumerate(values._groups):
                xd[i][:] = g
            notify(leaf.note_xd, leaf._root.version)
            self._num_discrete_updates += 1
            self._check_finite_xd(leaf, "a discrete update")
            return status
        status = None
        results = []
        for s, leaf, evs in self._group_by_leaf(events):
            values = self._discrete_values(leaf)
            for event in evs:
                if event.callback is not None:
                    status = self._merge(status, self._handle(event.callback(leaf, values), s, "discrete update"))
            results.append((leaf, values))
        for leaf, values in results:
            for i, g in enumerate(values._groups):
                leaf._xd[i][:] = g
            notify(leaf.note_xd, leaf._root.version)
        self._num_discrete_updates += 1
        # Only the updated discrete states changed.
        for leaf, _ in results:
            self._check_finite_xd(leaf, "a discrete update")
        return status

    def _apply_publish(self, events):
        status = None
        for s, leaf, event in events:
            if event.callback is not None:
                status = self._merge(status, self._handle(event.callback(leaf), s, "publish"))
        self._num_publishes += 1
        return status

    def _forced_publish(self):
        for leaf in self._leaves:
            s = leaf._system
            for event in s._forced_publish_events:
                self._handle(event.callback(leaf), s, "forced publish")

    def _call_monitor(self):
        if self._monitor is None:
            return None
        status = self._monitor(self._context)
        if isinstance(status, EventStatus):
            if status.is_failure():
                who = status.system().get_name() if status.system() is not None else "monitor"
                raise SimulationError(
                    f"Simulator: monitor reported failure of '{who}' at time "
                    f"{self._context.get_time()}: {status.message()}")
            return status
        return None

    def _is_plain_discrete(self):
        """True when a step of `advance_to` is one periodic discrete update and nothing else
        (no continuous state, no other event, no witness, monitor or pacing)."""
        return (self._nxc == 0 and len(self._periodic) == 1
                and self._periodic[0][3].kind == "discrete" and not self._per_step
                and not self._witness_leaves and self._monitor is None
                and not self._publish_every_time_step and not self._target_realtime_rate > 0.0
                and all(e[2].kind == "discrete" for e in self._pending))

    def _is_plain_integration(self):
        """True when a step of `advance_to` is one integration step and nothing else."""
        return (self._nxc > 0 and not self._pending and not self._periodic
                and not self._per_step and not self._witness_leaves and self._monitor is None
                and not self._publish_every_time_step and not self._target_realtime_rate > 0.0)

    # ---- finiteness -------------------------------------------------------------------------
    def _check_finite(self, where):
        self._check_finite_xc(where)
        for leaf in self._leaves:
            self._check_finite_xd(leaf, where)

    def _check_finite_xd(self, leaf, where):
        """Raise NonFiniteStateError naming the subsystem, group and index of a non-finite
        discrete state of ``leaf`` (a leaf context)."""
        for k, group in enumerate(leaf._xd):
            if group.size and not math.isfinite(float(np.add.reduce(group))):
                bad = np.flatnonzero(~np.isfinite(group))
                if not bad.size:        # finite values whose sum overflows
                    continue
                i = int(bad[0])
                raise NonFiniteStateError(
                    f"Simulator: discrete state group {k} index {i} of subsystem "
                    f"'{leaf._system.get_name()}' ({type(leaf._system).__name__}) became "
                    f"{group[i]} at time {self._context.get_time()} after {where}")

    def _check_finite_xc(self, where):
        """Raise NonFiniteStateError naming the subsystem and index of a non-finite
        continuous state."""
        ctx = self._context
        xc = ctx._root.xc
        if xc.size and not math.isfinite(float(np.add.reduce(xc))):
            bad = np.flatnonzero(~np.isfinite(xc))
            if bad.size:
                g = int(bad[0])
                for leaf in self._leaves:
                    local = np.flatnonzero(leaf._global_xc == g)
                    if local.size:
                        raise NonFiniteStateError(
                            f"Simulator: continuous state index {int(local[0])} of subsystem "
                            f"'{leaf._system.get_name()}' ({type(leaf._system).__name__}) became "
                            f"{xc[g]} at time {ctx.get_time()} after {where}")

    # ---- main loop --------------------------------------------------------------------------
    def initialize(self):
        """Dispatch initialization events and publishes due at the start time."""
        ctx = self._context
        self._collect_events()
        self._integrator.reset_context(ctx)
        self._integrator.initialize()
        status = None
        if self._init_events:
            status = self._run_events(self._init_events)
        t0 = ctx.get_time()
        tn, timed = self._next_timed_events(t0, inclusive=True)
        pending = list(self._per_step)
        if tn == t0:
            pending += timed
        publishes = [e for e in pending if e[2].kind == "publish"]
        self._pending = [e for e in pending if e[2].kind != "publish"]
        if self._publish_at_initialization and publishes:
            status = self._merge(status, self._apply_publish(publishes))
        if self._publish_every_time_step:
            self._forced_publish()
        status = self._merge(status, self._call_monitor())
        self._initialized = True
        self.reset_statistics()
        self._check_finite("initialization")
        return status

    Initialize = initialize

    def advance_to(self, boundary_time):
        """Advance to ``boundary_time`` (s); returns a SimulatorStatus."""
        boundary_time = float(boundary_time)
        ctx = self._context
        if boundary_time < ctx.get_time():
            raise ValueError(
                f"Simulator.advance_to: boundary_time {boundary_time} is before the current time "
                f"{ctx.get_time()}")
        if not self._initialized:
            init_status = self.initialize()
            if init_status is not None and init_status.is_reached_termination():
                return SimulatorStatus(boundary_time, ctx.get_time(),
                                       SimulatorStatus.REACHED_TERMINATION_CONDITION,
                                       init_status.system(), init_status.message())
        root = ctx._root
        if self._is_plain_integration():
            # Nothing but integration steps (no events, witnesses, monitor or pacing): the
            # loop below reduced to what it does in that case.
            integrate = self._integrator.integrate_no_further_than_time
            inf = math.inf
            while True:
                integrate(inf, inf, boundary_time)
                self._check_finite_xc("an integration step")
                self._num_steps += 1
                if root.time >= boundary_time:
                    return SimulatorStatus(boundary_time, root.time)
        if self._is_plain_discrete():
            # One periodic discrete update (e.g. a discrete plant) and nothing else: the
            # loop below reduced to what it does in that case.
            data, system, leaf, event = self._periodic[0]
            timed = [(system, leaf, event)]
            while True:
                if self._pending:
                    status = self._apply_discrete(self._pending)
                    self._pending = []
                    if status is not None and status.is_reached_termination():
                        return self._terminated(boundary_time, status)
                tn = data.next_time(root.time, False)
                ctx.set_time(tn if tn < boundary_time else boundary_time)
                self._num_steps += 1
                if root.time == tn:
                    self._pending = timed
                if root.time >= boundary_time:
                    return SimulatorStatus(boundary_time, root.time)
        while True:
            status = None
            if self._pending:
                status = self._run_events(self._pending)
                self._pending = []
                if status is not None and status.is_reached_termination():
                    return self._terminated(boundary_time, status)
            next_update = next_publish = tn = math.inf
            timed = ()
            if self._periodic:
                tn, timed = self._next_timed_events(root.time, inclusive=False)
                for e in timed:
                    if e[2].kind == "publish":
                        next_publish = tn
                    else:
                        next_update = tn
            witnessed = self._integrate(next_publish, next_update, boundary_time)
            self._num_steps += 1
            if (len(timed) == 1 and not self._per_step and not witnessed
                    and timed[0][2].kind != "publish"):
                # one update event (e.g. a discrete plant's step): due when time reached it
                if root.time == tn:
                    self._pending = timed
            elif self._per_step or timed or witnessed:
                pending = list(self._per_step)
                if timed and root.time == tn:
                    pending += timed
                if witnessed:
                    pending += witnessed
                publishes = [e for e in pending if e[2].kind == "publish"]
                self._pending = [e for e in pending if e[2].kind != "publish"]
                if publishes:
                    status = self._merge(status, self._apply_publish(publishes))
            if self._publish_every_time_step:
                self._forced_publish()
            status = self._merge(status, self._call_monitor())
            if self._target_realtime_rate > 0.0:
                self._pause_if_too_fast()
            if status is not None and status.is_reached_termination():
                return self._terminated(boundary_time, status)
            if root.time >= boundary_time:
                break
        return SimulatorStatus(boundary_time, root.time)

    AdvanceTo = advance_to

    def advance_pending_events(self):
        """Apply pending update events at the current time without advancing time."""
        if self._pending:
            status = self._run_events(self._pending)
            self._pending = []
            return status
        return None

    def _terminated(self, boundary_time, status):
        return SimulatorStatus(boundary_time, self._context.get_time(),
                               SimulatorStatus.REACHED_TERMINATION_CONDITION, status.system(),
                               status.message())

    def _pause_if_too_fast(self):
        sim_elapsed = self._context.get_time() - self._sim_start
        desired_wall = sim_elapsed / self._target_realtime_rate
        wall = _time.perf_counter() - self._wall_start
        if desired_wall > wall:
            _time.sleep(desired_wall - wall)

    def _active_witnesses(self):
        out = []
        for s, leaf in self._witness_leaves:
            for w in s.do_get_witness_functions(leaf):
                out.append((w, leaf))
        return out

    def _integrate(self, next_publish, next_update, boundary_time):
        """One integration step; returns the witness-triggered events (list) or None."""
        ctx = self._context
        root = ctx._root
        t_stop = min(next_publish, next_update, boundary_time)
        if self._nxc == 0:
            ctx.set_time(t_stop)
            return None
        witnesses = self._active_witnesses() if self._witness_leaves else []
        if witnesses:
            t0 = root.time
            x0 = root.xc.copy()
            w0 = [w.calc_witness_value(leaf) for w, leaf in witnesses]
        self._integrator.integrate_no_further_than_time(next_publish, next_update, boundary_time)
        self._check_finite("an integration step")
        if not witnesses:
            return None
        tf = root.time
        wf = [w.calc_witness_value(leaf) for w, leaf in witnesses]
        triggered = [k for k, (w, _) in enumerate(witnesses) if w.should_trigger(w0[k], wf[k])]
        if not triggered:
            return None
        xf = root.xc.copy()
        lo, hi = t0, tf
        tol = 1e-12 * max(1.0, abs(tf))
        integrator = self._integrator
        while hi - lo > tol:
            mid = 0.5 * (lo + hi)
            if mid <= lo or mid >= hi:
                break
            ctx.set_time_and_continuous_state(t0, x0)
            integrator.integrate_with_single_fixed_step_to_time(mid)
            now = [k for k in triggered
                   if witnesses[k][0].should_trigger(w0[k], witnesses[k][0].calc_witness_value(witnesses[k][1]))]
            if now:
                hi, triggered, xf = mid, now, root.xc.copy()
            else:
                lo = mid
        ctx.set_time_and_continuous_state(hi, xf)
        events = []
        for k in triggered:
            w, leaf = witnesses[k]
            if w.get_event() is not None:
                events.append((w.get_system(), leaf, w.get_event()))
        return events


def _leaf_witness_default():
    from .leaf_system import LeafSystem

    return LeafSystem.do_get_witness_functions
