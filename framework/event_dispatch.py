"""Running a leaf's event handlers against its context, outside any simulator.

Used by the System-side event calls (``forced_publish``, ``execute_forced_events``,
``execute_initialization_events``). An unrestricted update handler receives a copy of
the leaf's state (a State) and a discrete update handler a copy of its discrete state
(a DiscreteValues); the copies are written back after all the leaf's handlers ran, as
Drake does. A handler returning ``EventStatus.failed`` raises SimulationError (a
RuntimeError) naming the system.
"""

import numpy as np

from .errors import ContextError, SimulationError
from .events import EventStatus
from .state import DiscreteValues, State, detached_continuous_state


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
    is a State laid out as the context's (a leaf's, or a diagram's: every leaf's
    continuous state in the diagram's [q; v; z] order, then the leaves' discrete groups
    and abstract values in order). Returns the most severe EventStatus, or None.
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
        _check_state_layout(context, state)
        state.set_from(context.get_state())
    diagram = bool(context._system._subsystems())
    status = None
    for leaf_ctx in context._leaf_contexts():
        events = _of_kind(events_of(leaf_ctx._system), kind)
        if not events:
            continue
        if discrete_state is not None:
            own = DiscreteValues([discrete_state.get_mutable_value(i)
                                  for i, (leaf, _) in enumerate(groups) if leaf is leaf_ctx])
            status = more_severe(status, _run_handlers(leaf_ctx, events, what, own))
        elif diagram:
            # the leaf's handlers see a State of the leaf's own layout (Drake's substate),
            # holding the leaf's slice of `state`; the slice is written back afterwards
            own = _leaf_slice_of(context, leaf_ctx, state)
            status = more_severe(status, _run_handlers(leaf_ctx, events, what, own))
            _write_leaf_slice(context, leaf_ctx, own, state)
        else:
            status = more_severe(status, _run_handlers(leaf_ctx, events, what, state))
    return status


def _check_state_layout(context, state):
    fn = "calc_forced_unrestricted_update"
    if not isinstance(state, State):
        raise ContextError(f"{fn}: state must be a State (e.g. context.clone().get_mutable_state()), "
                        f"got {type(state).__name__}")
    n_xc = context.num_continuous_states()
    n_xd = len(list(context._discrete_groups()))
    n_xa = len(list(context._abstract_values()))
    got = (state.get_continuous_state().size(), state.get_discrete_state().num_groups(),
           state.num_abstract_states())
    if got != (n_xc, n_xd, n_xa):
        raise ContextError(
            f"{fn}: state has (continuous size, discrete groups, abstract states) = {got}, "
            f"expected {(n_xc, n_xd, n_xa)} for system '{context._system.get_name()}'")


def _leaf_xc_positions(context, leaf_ctx):
    """Where the leaf's continuous state sits in ``context``'s continuous vector."""
    everything = np.arange(context._root.xc.size)
    mine = everything[context._xc_index]
    where = np.full(everything.size, -1, dtype=np.int64)
    where[mine] = np.arange(mine.size)
    return where[everything[leaf_ctx._xc_index]]


def _leaf_slice_of(context, leaf_ctx, state):
    xc = np.array(state.get_continuous_state().get_value(), dtype=float)
    groups = [state.get_discrete_state().get_value(i).copy()
              for i, (leaf, _) in enumerate(context._discrete_groups()) if leaf is leaf_ctx]
    abstract = [state.get_abstract_state(i).clone()
                for i, (leaf, _) in enumerate(context._abstract_values()) if leaf is leaf_ctx]
    return State(detached_continuous_state(xc[_leaf_xc_positions(context, leaf_ctx)],
                                           leaf_ctx._nq, leaf_ctx._nv, leaf_ctx._nz),
                 DiscreteValues(groups), abstract)


def _write_leaf_slice(context, leaf_ctx, own, state):
    if leaf_ctx._nq + leaf_ctx._nv + leaf_ctx._nz:
        xc = state.get_mutable_continuous_state()
        x = np.array(xc.get_value(), dtype=float)
        x[_leaf_xc_positions(context, leaf_ctx)] = own.get_continuous_state().get_value()
        xc.set_from_vector(x)
    k = 0
    for i, (leaf, _) in enumerate(context._discrete_groups()):
        if leaf is leaf_ctx:
            state.get_mutable_discrete_state().set_value(i, own.get_discrete_state().get_value(k))
            k += 1
    k = 0
    for i, (leaf, _) in enumerate(context._abstract_values()):
        if leaf is leaf_ctx:
            state.set_abstract_state(i, own.get_abstract_state(k).clone().get_value())
            k += 1
