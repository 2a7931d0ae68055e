"""Running a leaf's event handlers against its context, outside any simulator.

Used by the System-side event calls (``forced_publish``, ``execute_forced_events``,
``execute_initialization_events``). An unrestricted update handler receives a copy of
the leaf's state (a State) and a discrete update handler a copy of its discrete state
(a DiscreteValues); the copies are written back after all the leaf's handlers ran, as
Drake does. A handler returning ``EventStatus.failed`` raises SimulationError (a
RuntimeError) naming the system.
"""

from .errors import SimulationError
from .events import EventStatus
from .state import DiscreteValues, State


def check_status(status, system, what):
    """``status`` as an EventStatus or None; raises when it reports a failure."""
    if not isinstance(status, EventStatus):
        return None
    if status.is_failure():
        who = status.system() or system
        raise SimulationError(
            f"{what} event handler of system '{who.get_name()}' failed: {status.message()}")
    return status


def more_severe(a, b):
    """The more severe of two statuses (either may be None)."""
    if b is None:
        return a
    if a is None or b.severity() > a.severity():
        return b
    return a


def _run_handlers(leaf_ctx, events, what, *extra):
    """Call each event's handler as ``callback(leaf_ctx, *extra)``; the most severe status."""
    system = leaf_ctx._system
    status = None
    for event in events:
        if event.callback is not None:
            status = more_severe(status, check_status(event.callback(leaf_ctx, *extra), system, what))
    return status


def run_unrestricted(leaf_ctx, events, what):
    state = State.copy_of(leaf_ctx)
    status = _run_handlers(leaf_ctx, events, what, state)
    leaf_ctx.get_mutable_state().set_from(state)
    return status


def run_discrete(leaf_ctx, events, what):
    values = DiscreteValues([g.copy() for g in leaf_ctx._xd])
    status = _run_handlers(leaf_ctx, events, what, values)
    leaf_ctx.get_mutable_discrete_state().set_from(values)
    return status


def run_publish(leaf_ctx, events, what):
    return _run_handlers(leaf_ctx, events, what)


def _of_kind(events, kind):
    return [e for e in events if e.kind == kind]


def execute(context, events_of, what, publish=True):
    """Run, over every leaf of ``context``: the unrestricted updates, then the discrete
    updates, then (if ``publish``) the publishes that ``events_of(leaf_system)`` lists.

    Returns the most severe EventStatus (None when no handler returned one).
    """
    leaves = list(context._leaf_contexts())
    status = None
    for kind, run in (("unrestricted", run_unrestricted), ("discrete", run_discrete)):
        for leaf_ctx in leaves:
            events = _of_kind(events_of(leaf_ctx._system), kind)
            if events:
                status = more_severe(status, run(leaf_ctx, events, what))
    if publish:
        for leaf_ctx in leaves:
            events = _of_kind(events_of(leaf_ctx._system), "publish")
            if events:
                status = more_severe(status, run_publish(leaf_ctx, events, what))
    return status
