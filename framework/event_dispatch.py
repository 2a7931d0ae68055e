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


def calc_into(context, events_of, what, discrete_state=None, state=None):
    """Run the discrete (``discrete_state`` given) or unrestricted (``state`` given)
    update events that ``events_of(leaf_system)`` lists with ``context`` as input,
    writing the results into the caller's holder, which first receives the context's
    current values (Drake's CalcForced*Update); ``context`` is unchanged.

    ``discrete_state`` is a DiscreteValues laid out as the context's groups; ``state``
    is a State of a leaf system. Returns the most severe EventStatus, or None.
    """
    kind = "discrete" if discrete_state is not None else "unrestricted"
    groups = list(context._discrete_groups())
    if discrete_state is not None:
        if discrete_state.num_groups() != len(groups):
            raise ValueError(
                f"calc_forced_discrete_variable_update: discrete_state has "
                f"{discrete_state.num_groups()} groups, system '{context._system.get_name()}' "
                f"has {len(groups)}")
        for i, (leaf, k) in enumerate(groups):
            discrete_state.set_value(i, leaf._xd[k])
    else:
        if context._system._subsystems():
            raise NotImplementedError(
                f"calc_forced_unrestricted_update: system '{context._system.get_name()}' is a "
                f"Diagram; call it on the leaf systems (their own contexts)")
        state.set_from(State.copy_of(context))
    status = None
    for leaf_ctx in context._leaf_contexts():
        events = _of_kind(events_of(leaf_ctx._system), kind)
        if not events:
            continue
        if discrete_state is not None:
            own = DiscreteValues([discrete_state.get_mutable_value(i)
                                  for i, (leaf, _) in enumerate(groups) if leaf is leaf_ctx])
            status = more_severe(status, _run_handlers(leaf_ctx, events, what, own))
        else:
            status = more_severe(status, _run_handlers(leaf_ctx, events, what, state))
    return status
