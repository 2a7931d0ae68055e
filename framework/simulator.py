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

    A compiled diagram (``framework.compiled_diagram``) runs this loop in compiled code,
    step for step the same (``compiled_diagram.integration`` without events,
    ``compiled_diagram.event_loop`` with periodic discrete updates and loggers), when
    all that a step does is compiled; otherwise, or from where it hands back, in Python.

    initialize() first refuses to start while a required input port is neither
    connected nor fixed (every such port is named; ports with a default value, like a
    plant's actuation, are not required). advance_to refuses a NaN boundary time, one
    before the context time, and an infinite one unless the run can end (no state and no
    timed events, or a monitor that may return reached_termination).

A state variable that becomes NaN or infinite stops the run with NonFiniteStateError
naming the subsystem and the state index, and the context keeps the last finite state:
new discrete and unrestricted values are checked before they are written, and an
integration step that produced a non-finite continuous state is undone (the context goes
back to the step's start). The exception carries that time and state
(``last_finite_time``, ``last_finite_continuous_state``, ``last_finite_discrete_state``).
An event handler or monitor returning EventStatus.failed raises SimulationError;
reached_termination ends advance_to early (SimulatorStatus.ReturnReason
kReachedTerminationCondition).

When a step is one periodic discrete update and nothing else (no continuous state, no
other event, witness, monitor or pacing), the loop is the same with nothing observed
between updates, so the system may take several updates in one call
(`LeafSystem._repeat_discrete_update`, e.g. a discrete MultibodyPlant's compiled contact
step): it takes up to `_REPEAT_CHUNK` of the updates due before T, each as the event
would, and stops before any it cannot take exactly (the loop then applies that one).
"""

import dataclasses
import functools
import math
import time as _time

import numpy as np

from .compiled_diagram import fuse_by_default
from .compiled_diagram.event_loop import charge_python_time, run_compiled_simulation
from .compiled_diagram.integration import run_compiled_integration
from .cache import notify
from .context import Context
from .drake_enum import DrakeIntEnum
from .errors import ContextError, NonFiniteStateError, PortError, SimulationError
from .events import EventStatus
from .integrators import make_integrator
from .keyword_check import lists_valid_keywords
from .leaf_system import LeafSystem
from .state import DiscreteValues, State
from .system import System

#: The most discrete updates the plain discrete loop hands a system at once
#: (`Simulator._repeat_discrete`): a handful of µs per call spread over many updates,
#: and a short look-ahead of update times when the system stops early.
_REPEAT_CHUNK = 256


class ReturnReason(DrakeIntEnum):
    """Why ``advance_to`` returned (Drake's SimulatorStatus::ReturnReason).

    Drake's names (``kReachedBoundaryTime``, ...) are the canonical members; the project's
    upper-case spellings are the same members under a second name.
    """

    kReachedBoundaryTime = 0
    kReachedTerminationCondition = 1
    kEventHandlerFailed = 2
    REACHED_BOUNDARY_TIME = 0
    REACHED_TERMINATION_CONDITION = 1
    EVENT_HANDLER_FAILED = 2


@dataclasses.dataclass
class InitializeParams:
    """Options of ``Simulator.initialize`` (Drake's InitializeParams).

    Attributes
    ----------
    suppress_initialization_events : bool
        Skip the initialization events.
    """

    suppress_initialization_events: bool = False


def _monitor_status(monitor, root_context):
    """Call a user's monitor; None counts as EventStatus.did_nothing() (Drake's)."""
    status = monitor(root_context)
    return EventStatus.did_nothing() if status is None else status


class SimulatorStatus:
    """Why ``advance_to`` returned (Drake's SimulatorStatus).

    Parameters
    ----------
    boundary_time : float
        The time ``advance_to`` was asked to reach (s).
    return_time : float, optional
        The time it returned at (defaults to ``boundary_time``).
    reason : ReturnReason
    system : System, optional
        The system that requested termination or whose handler failed.
    message : str

    The members of ``SimulatorStatus.ReturnReason`` are also attributes of the class
    (``SimulatorStatus.kReachedBoundaryTime``), as in pydrake.
    """

    ReturnReason = ReturnReason

    def __init__(self, boundary_time, return_time=None, reason=ReturnReason.kReachedBoundaryTime,
                 system=None, message=""):
        self._boundary_time = float(boundary_time)
        self._return_time = self._boundary_time if return_time is None else float(return_time)
        self._reason = ReturnReason(reason)
        self._system = system
        self._message = str(message)

    def boundary_time(self):
        return self._boundary_time

    def return_time(self):
        return self._return_time

    def reason(self):
        """A ``ReturnReason`` member."""
        return self._reason

    def system(self):
        return self._system

    def message(self):
        return self._message

    def succeeded(self):
        """False only when an event handler failed."""
        return self._reason != ReturnReason.kEventHandlerFailed

    def reached_termination(self):
        return self._reason == ReturnReason.kReachedTerminationCondition

    def set_reached_boundary_time(self):
        """Record that the boundary time was reached."""
        self._return_time = self._boundary_time
        self._reason = ReturnReason.kReachedBoundaryTime
        self._system, self._message = None, ""

    def set_reached_termination(self, termination_time, system, message):
        """Record that ``system`` requested termination at ``termination_time``."""
        self._return_time = float(termination_time)
        self._reason = ReturnReason.kReachedTerminationCondition
        self._system, self._message = system, str(message)

    def set_event_handler_failed(self, failure_time, system, message):
        """Record that an event handler of ``system`` failed at ``failure_time``."""
        self._return_time = float(failure_time)
        self._reason = ReturnReason.kEventHandlerFailed
        self._system, self._message = system, str(message)

    def is_identical_status(self, other):
        """True when every field equals ``other``'s (the system by identity)."""
        return (self._boundary_time == other._boundary_time
                and self._return_time == other._return_time
                and self._reason == other._reason and self._system is other._system
                and self._message == other._message)

    def format_message(self):
        if self._reason == ReturnReason.kReachedBoundaryTime:
            return f"Simulator successfully reached the boundary time ({self._boundary_time})."
        who = (f"{type(self._system).__name__} System '{self._system.get_name()}'"
               if self._system is not None else "System")
        if self._reason == ReturnReason.kReachedTerminationCondition:
            return (f"Simulator returned early at time {self._return_time} because {who} "
                    f"requested termination with message: \"{self._message}\"")
        return (f"Simulator stopped at time {self._return_time} because {who} failed with "
                f"message: \"{self._message}\"")

    def __repr__(self):
        return f"<SimulatorStatus {self.format_message()}>"


for _name, _member in ReturnReason.__members__.items():   # pydrake exports the values
    setattr(SimulatorStatus, _name, _member)
del _name, _member


class Simulator:
    """Advances ``system``'s root context in time with an integrator and events.

    Parameters
    ----------
    system : System
    context : Context, optional
        Root context of ``system``; a default context is created when omitted.
    """

    @lists_valid_keywords
    def __init__(self, system, context=None):
        if not isinstance(system, System):
            raise TypeError(
                f"Simulator: system must be a System (a LeafSystem or a Diagram), got "
                f"{type(system).__name__} {_short_repr(system)}")
        self._system = system
        if context is None:
            context = system.create_default_context()
        self._check_root_context("Simulator", context)
        self._context = context
        fuse_by_default(system, context)
        self._integrator = make_integrator("runge_kutta3", system, context, 0.1)
        self._integrator.set_target_accuracy(1e-4)
        # Drake's Simulator gives its default integrator this first step
        self._integrator.request_initial_step_size_target(1e-4)
        self._initialized = False
        self._publish_every_time_step = False
        self._publish_at_initialization = True
        self._target_realtime_rate = 0.0
        self._monitor = None
        self._pending = []
        self.reset_statistics()
        self._collect_events()

    def _check_root_context(self, fn, context):
        if not isinstance(context, Context):
            raise TypeError(
                f"{fn}: context must be a Context of system '{self._system.get_name()}', got "
                f"{type(context).__name__} {_short_repr(context)}")
        if context.get_system() is not self._system or context._parent is not None:
            raise ContextError(
                f"{fn}: context must be the root context of system "
                f"'{self._system.get_name()}', got a context of "
                f"'{context.get_system().get_name()}'"
                + ("" if context._parent is None else " that is not a root context"))

    # ---- configuration ----------------------------------------------------------------------
    def get_system(self):
        return self._system

    def has_context(self):
        """False only after ``reset_context(None)`` (or ``release_context()``)."""
        return self._context is not None

    def get_context(self):
        """The root context being advanced."""
        if self._context is None:
            raise RuntimeError(
                "Simulator.get_context: this simulator has no context (reset_context(None) or "
                "release_context() removed it); give it one with reset_context(context)")
        return self._context

    get_mutable_context = get_context

    def reset_context(self, context):
        """Use another root context of the same system (or None: no context); the
        simulator must be initialized again (``advance_to`` does it)."""
        if context is not None:
            self._check_root_context("Simulator.reset_context", context)
        self._context = context
        fuse_by_default(self._system, context)
        self._integrator.reset_context(context)
        self._initialized = False
        self._pending = []
        if context is not None:
            self._collect_events()

    def release_context(self):
        """Return the context and leave the simulator without one."""
        context = self.get_context()
        self.reset_context(None)
        return context

    def get_integrator(self):
        return self._integrator

    def get_mutable_integrator(self):
        return self._integrator

    def reset_integrator(self, integrator):
        """Replace the integrator (one built for this simulator's system) and return it; it
        integrates this simulator's context from now on."""
        get_system = getattr(integrator, "get_system", None)
        if get_system is None or not hasattr(integrator, "integrate_no_further_than_time"):
            raise TypeError(
                f"Simulator.reset_integrator: integrator must be an integrator (e.g. "
                f"RungeKutta3Integrator(system)), got {type(integrator).__name__}")
        if get_system() is not self._system:
            raise ValueError(
                f"Simulator.reset_integrator: the integrator integrates system "
                f"'{get_system().get_name()}', not this simulator's system "
                f"'{self._system.get_name()}'")
        integrator.reset_context(self._context)
        self._integrator = integrator
        self._initialized = False
        return integrator

    def set_target_realtime_rate(self, realtime_rate):
        """Pace the run at ``realtime_rate`` times wall-clock time (0: as fast as possible)."""
        rate = float(realtime_rate)
        if not (rate >= 0.0 and math.isfinite(rate)):
            raise ValueError(f"Simulator.set_target_realtime_rate: realtime_rate must be a "
                             f"finite number >= 0, got {rate}")
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
        """The monitor set with ``set_monitor``, as Drake returns it: a callable
        ``monitor(root_context)`` that always returns an EventStatus (did_nothing when the
        user's function returns None); None when no monitor is set. Calling it calls the
        user's function."""
        if self._monitor is None:
            return None
        return functools.partial(_monitor_status, self._monitor)

    def has_been_initialized(self):
        return self._initialized

    # ---- statistics -------------------------------------------------------------------------
    def reset_statistics(self):
        self._num_steps = 0
        self._num_publishes = 0
        self._num_discrete_updates = 0
        self._num_unrestricted_updates = 0
        self._wall_start = _time.perf_counter()
        self._sim_start = self._context.get_time() if self._context is not None else 0.0

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
        self._repeat_skip = 0      # updates the loop applies before it asks the system again
        self._repeat_backoff = 1   # (doubled on every refusal in a row, see _repeat_discrete)
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
        for leaf, state in results:        # nothing is written unless everything is finite
            self._check_finite_xd(leaf, "an unrestricted update", state._xd._groups)
            if state._xc.size and not np.all(np.isfinite(state._xc)):
                i = int(np.flatnonzero(~np.isfinite(state._xc))[0])
                self._raise_nonfinite(
                    f"continuous state index {i} of subsystem '{leaf._system.get_name()}' "
                    f"({type(leaf._system).__name__}) became {state._xc[i]}",
                    "an unrestricted update")
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

    def _repeat_discrete(self, repeat, data, leaf, event, boundary_time):
        """The plain discrete loop's next updates (the one pending now, at the context's
        time, then those of `data` earlier than `boundary_time`, `_REPEAT_CHUNK` at
        most), taken at once by the system when it can
        (`LeafSystem._repeat_discrete_update`); the context is then at the time of the
        last update taken, as after that update in the loop. Returns False when the
        system took none; after a refusal the loop applies the next 1, 2, 4 ... 1024 updates
        itself (refusals in a row: a system stops where its own update must run, e.g. a
        deep contact, which lasts a few steps, or it never repeats) before it asks again.
        `repeat` is the system's bound `LeafSystem._repeat_discrete_update`."""
        if self._repeat_skip:
            self._repeat_skip -= 1
            return False
        root = self._context._root
        t = root.time
        times = [t]
        while len(times) < _REPEAT_CHUNK:
            t = data.next_time(t, False)
            if t >= boundary_time:
                break
            times.append(t)
        done = repeat(leaf, event, leaf._xd, len(times))
        if done <= 0:
            self._repeat_skip = self._repeat_backoff
            self._repeat_backoff = min(2 * self._repeat_backoff, 1024)
            return False
        self._repeat_backoff = 1
        notify(leaf.note_xd, leaf._root.version)
        self._num_discrete_updates += done
        self._num_steps += done - 1
        if done > 1:
            self._context.set_time(times[done - 1])
        return True

    def _apply_discrete(self, events):
        if len(events) == 1:                # one event of one leaf (e.g. a plant's step)
            s, leaf, event = events[0]
            values = self._discrete_values(leaf)
            status = None
            if event.callback is not None:
                result = event.callback(leaf, values)
                if result is not None:
                    status = self._handle(result, s, "discrete update")
            self._check_finite_xd(leaf, "a discrete update", values._groups)
            xd = leaf._xd
            for i, g in enumerate(values._groups):
                xd[i][:] = g
            notify(leaf.note_xd, leaf._root.version)
            self._num_discrete_updates += 1
            return status
        status = None
        results = []
        for s, leaf, evs in self._group_by_leaf(events):
            values = self._discrete_values(leaf)
            for event in evs:
                if event.callback is not None:
                    status = self._merge(status, self._handle(event.callback(leaf, values), s, "discrete update"))
            results.append((leaf, values))
        for leaf, values in results:        # nothing is written unless everything is finite
            self._check_finite_xd(leaf, "a discrete update", values._groups)
        for leaf, values in results:
            for i, g in enumerate(values._groups):
                leaf._xd[i][:] = g
            notify(leaf.note_xd, leaf._root.version)
        self._num_discrete_updates += 1
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
    # A non-finite state is never left in the context: new discrete and unrestricted
    # values are checked before they are written, and an integration step that produced a
    # non-finite continuous state is undone (the context goes back to where the step
    # began). NonFiniteStateError carries that last finite time and state.
    def _check_finite(self, where):
        self._check_finite_xc(where)
        for leaf in self._leaves:
            self._check_finite_xd(leaf, where)

    def _check_finite_xd(self, leaf, where, groups=None):
        """Raise NonFiniteStateError naming the subsystem, group and index of a non-finite
        value in ``groups`` (default: the discrete state of the leaf context ``leaf``)."""
        for k, group in enumerate(leaf._xd if groups is None else groups):
            if group.size and not math.isfinite(float(np.add.reduce(group))):
                bad = np.flatnonzero(~np.isfinite(group))
                if not bad.size:        # finite values whose sum overflows
                    continue
                i = int(bad[0])
                self._raise_nonfinite(
                    f"discrete state group {k} index {i} of subsystem "
                    f"'{leaf._system.get_name()}' ({type(leaf._system).__name__}) became "
                    f"{group[i]}", where)

    def _check_finite_xc(self, where, roll_back=False):
        """Raise NonFiniteStateError naming the subsystem and index of a non-finite
        continuous state; with ``roll_back``, first undo the integrator's last step."""
        ctx = self._context
        xc = ctx._root.xc
        if xc.size and not math.isfinite(float(np.add.reduce(xc))):
            bad = np.flatnonzero(~np.isfinite(xc))
            if bad.size:
                g = int(bad[0])
                what = f"continuous state index {g}"
                for leaf in self._leaves:
                    local = np.flatnonzero(leaf._global_xc == g)
                    if local.size:
                        what = (f"continuous state index {int(local[0])} of subsystem "
                                f"'{leaf._system.get_name()}' ({type(leaf._system).__name__})")
                        break
                what += f" became {xc[g]}"
                if roll_back:
                    t_bad = ctx.get_time()
                    self._integrator.restore_step_start()
                    self._raise_nonfinite(what, where, t_bad)
                self._raise_nonfinite(what, where)

    def _raise_nonfinite(self, what, where, t_bad=None):
        ctx = self._context
        t_bad = ctx.get_time() if t_bad is None else t_bad
        xc = np.array(ctx.get_continuous_state_vector())
        xd = self._all_discrete_state()
        finite = bool(np.all(np.isfinite(xc)) and np.all(np.isfinite(xd)))
        t_last = ctx.get_time() if finite else None
        note = (f"; the context holds the last finite state, at time {t_last}" if finite
                else "")
        raise NonFiniteStateError(
            f"Simulator: {what} at time {t_bad} after {where}{note}",
            last_finite_time=t_last,
            last_finite_continuous_state=xc if finite else None,
            last_finite_discrete_state=xd if finite else None)

    # ---- main loop --------------------------------------------------------------------------
    def _unconnected_inputs(self):
        """Descriptions of the required input ports in the context tree that are neither
        connected nor fixed (ports with a default value, like a plant's actuation, are
        not required)."""
        ctx = self._context
        missing = []
        system = self._system
        for port in (system.get_input_port(i) for i in range(system.num_input_ports())):
            if port.is_required() and not port.has_value(ctx):
                missing.append(f"input port '{port.get_name()}' of the simulated system "
                               f"'{system.get_name()}'")
        for leaf in self._leaves:
            s = leaf._system
            if s is system:
                continue
            for i in range(s.num_input_ports()):
                port = s.get_input_port(i)
                if port.is_required() and not port.has_value(leaf):
                    missing.append(f"input port '{port.get_name()}' of system '{s.get_name()}'")
        return missing

    def initialize(self, params=None):
        """Check the inputs, dispatch initialization events and the publishes due at the
        start time; returns a SimulatorStatus.

        Parameters
        ----------
        params : InitializeParams, optional
            ``InitializeParams(suppress_initialization_events=True)`` skips the
            initialization events (e.g. when re-initializing a context that has run them).

        Raises
        ------
        PortError
            While a required input port is neither connected nor fixed (every such port
            is named).
        """
        ctx = self.get_context()
        if params is not None and not isinstance(params, InitializeParams):
            raise TypeError(f"Simulator.initialize: params must be InitializeParams, got "
                            f"{type(params).__name__}")
        suppress = params is not None and params.suppress_initialization_events
        self._collect_events()
        missing = self._unconnected_inputs()
        if missing:
            raise PortError(
                f"Simulator.initialize: {len(missing)} required input port(s) neither "
                f"connected nor fixed: " + "; ".join(missing) + ". Connect them in the "
                "DiagramBuilder or fix their values with port.fix_value(context, value)")
        self._integrator.reset_context(ctx)
        self._integrator.initialize()
        # (before the initialization events: Drake counts their publishes and updates)
        self.reset_statistics()
        status = None
        if self._init_events and not suppress:
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
        self._check_finite("initialization")
        if status is not None and status.is_reached_termination():
            return self._terminated(t0, status)
        return SimulatorStatus(t0)

    def _check_boundary_time(self, boundary_time):
        """``boundary_time`` as a float the run can reach, or raise naming advance_to."""
        fn = "Simulator.advance_to"
        try:
            t = float(boundary_time)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}: boundary_time must be a number (s), got "
                            f"{type(boundary_time).__name__} {_short_repr(boundary_time)}") from None
        now = self.get_context().get_time()
        if math.isnan(t):
            raise ValueError(f"{fn}: boundary_time must be a number (s), got nan")
        if t < now:
            raise ValueError(
                f"{fn}: boundary_time {t} is before the current time {now}")
        if t == math.inf and self._monitor is None and self._runs_forever():
            raise ValueError(
                f"{fn}: boundary_time is inf, but system '{self._system.get_name()}' has "
                f"state or timed events, so the run would never end; give a finite time (or "
                f"set a monitor that returns EventStatus.reached_termination)")
        return t

    def _runs_forever(self):
        return bool(self._nxc or self._periodic or self._per_step or self._witness_leaves
                    or self._all_discrete_state().size)

    def _all_discrete_state(self):
        """Every discrete state group of every leaf, depth-first, concatenated (copy)."""
        groups = [g for leaf in self._leaves for g in leaf._xd]
        return np.concatenate(groups) if groups else np.zeros(0)

    def advance_to(self, boundary_time, interruptible=True):
        """Advance to ``boundary_time`` (s); returns a SimulatorStatus.

        ``interruptible`` is accepted for pydrake compatibility: a Python run can always
        be interrupted (Ctrl-C raises KeyboardInterrupt between steps).

        Raises
        ------
        ValueError
            If ``boundary_time`` is NaN, earlier than the context time, or infinite for a
            system with state or timed events and no monitor (it would never return).
        NonFiniteStateError
            When a state becomes NaN or infinite; the context then holds the last finite
            state (see the module docstring).
        """
        if self._context is None:
            self.get_context()          # raises: no context
        if not self._initialized:
            self._collect_events()
        boundary_time = self._check_boundary_time(boundary_time)
        ctx = self._context
        if not self._initialized:
            init_status = self.initialize()
            if init_status.reached_termination():
                return SimulatorStatus(boundary_time, ctx.get_time(),
                                       ReturnReason.kReachedTerminationCondition,
                                       init_status.system(), init_status.message())
        root = ctx._root
        if self._is_plain_integration():
            # Nothing but integration steps (no events, witnesses, monitor or pacing): the
            # loop below reduced to what it does in that case.
            integrate = self._integrator.integrate_no_further_than_time
            inf = math.inf
            while True:
                if root.time < boundary_time:
                    # a compiled diagram: its compiled loop runs the steps (None: it does
                    # not apply; False: this step is Python's)
                    done = run_compiled_integration(self, boundary_time)
                    if done:
                        return SimulatorStatus(boundary_time, root.time)
                integrate(inf, inf, boundary_time)
                self._check_finite_xc("an integration step", roll_back=True)
                self._num_steps += 1
                if root.time >= boundary_time:
                    return SimulatorStatus(boundary_time, root.time)
        # a compiled diagram whose events compile: its compiled loop runs the steps
        # (None: it does not apply; False: it handed one step back to the Python loop)
        done = run_compiled_simulation(self, boundary_time)
        if done is None:
            start = _time.perf_counter()
            status = self._advance_with_events(boundary_time)
            charge_python_time(self, _time.perf_counter() - start)
            return status
        while not done:
            status = self._advance_with_events(boundary_time, one_step=True)
            if status is not None:
                return status
            done = run_compiled_simulation(self, boundary_time)
            if done is None:
                return self._advance_with_events(boundary_time)
        return SimulatorStatus(boundary_time, root.time)

    def _advance_with_events(self, boundary_time, one_step=False):
        """The loop of `advance_to` with events (see the module docstring); with
        ``one_step``, one iteration of it (None when that did not end the run)."""
        ctx = self._context
        root = ctx._root
        if self._is_plain_discrete() and not one_step:
            # One periodic discrete update (e.g. a discrete plant) and nothing else: the
            # loop below reduced to what it does in that case.
            data, system, leaf, event = self._periodic[0]
            timed = [(system, leaf, event)]
            # the system's repeated update, unless it keeps LeafSystem's (which takes none)
            repeat = getattr(system, "_repeat_discrete_update", None)
            if getattr(type(system), "_repeat_discrete_update", None) is \
                    LeafSystem._repeat_discrete_update:
                repeat = None
            while True:
                if self._pending:
                    if not (repeat is not None and len(self._pending) == 1
                            and self._pending[0][2] is event
                            and self._repeat_discrete(repeat, data, leaf, event,
                                                      boundary_time)):
                        status = self._apply_discrete(self._pending)
                        if status is not None and status.is_reached_termination():
                            self._pending = []
                            return self._terminated(boundary_time, status)
                    self._pending = []
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
            if one_step:
                return None
        return SimulatorStatus(boundary_time, root.time)

    def advance_pending_events(self):
        """Apply the update events left pending at the current time by the last
        ``advance_to`` (e.g. an update scheduled exactly at its boundary time) without
        advancing time; returns a SimulatorStatus at the current time."""
        if not self._initialized:
            self.initialize()
        t = self._context.get_time()
        if self._pending:
            status = self._run_events(self._pending)
            self._pending = []
            if status is not None and status.is_reached_termination():
                return self._terminated(t, status)
        return SimulatorStatus(t)

    def _terminated(self, boundary_time, status):
        return SimulatorStatus(boundary_time, self._context.get_time(),
                               ReturnReason.kReachedTerminationCondition, status.system(),
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
        self._check_finite_xc("an integration step", roll_back=True)
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
    return LeafSystem.do_get_witness_functions


def _short_repr(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
