"""Evaluate a system's dynamics at many (time, state, input) samples at once (Drake's
BatchEvalTimeDerivatives and BatchEvalUniquePeriodicDiscreteUpdate)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem


class Parallelism:
    """How many threads a batch evaluation may use (Drake's Parallelism).

    merganser evaluates batches serially (the Python-level dynamics hold the GIL), so this
    records the request and changes no result.

    Parameters
    ----------
    parallelize : bool or int, optional
        False (default) for one thread, True for ``Parallelism.max()``, or a thread count.
    num_threads : int, optional
        The thread count (pydrake's keyword), >= 1.
    """

    def __init__(self, parallelize=False, *, num_threads=None):
        if num_threads is None:
            if isinstance(parallelize, bool):
                num_threads = self._max_threads() if parallelize else 1
            else:
                num_threads = parallelize
        num_threads = int(num_threads)
        if num_threads < 1:
            raise ValueError(f"Parallelism: num_threads must be >= 1, got {num_threads}")
        self._num_threads = num_threads

    @staticmethod
    def _max_threads():
        import os
        return os.cpu_count() or 1

    @classmethod
    def max(cls):
        """As many threads as the machine has cores."""
        return cls(num_threads=cls._max_threads())

    def num_threads(self):
        return self._num_threads

    def __repr__(self):
        return f"Parallelism(num_threads={self._num_threads})"


def _samples(fn, system, times, states, inputs, input_port_index):
    times = np.asarray(times, dtype=float).reshape(-1)
    states = np.asarray(states, dtype=float)
    inputs = np.asarray(inputs, dtype=float)
    if states.ndim != 2 or states.shape[1] != times.size:
        raise ValueError(f"{fn}: states must have shape (num_states, {times.size}) to match "
                         f"times, got {states.shape}")
    port = None
    if input_port_index is None:
        if system.num_input_ports():
            port = system.get_input_port(0)
    else:
        port = system.get_input_port(int(input_port_index))
    m = 0 if port is None else port.size()
    if inputs.size == 0 and m == 0:
        inputs = np.zeros((0, times.size))
    if inputs.ndim != 2 or inputs.shape != (m, times.size):
        raise ValueError(f"{fn}: inputs must have shape ({m}, {times.size}) for the input port "
                         f"of system '{system.get_name()}', got {inputs.shape}")
    return times, states, inputs, port


@lists_valid_keywords
def batch_eval_time_derivatives(system, context, times, states, inputs, *,
                                input_port_index=None, parallelize=None):
    """ẋ at each column (t_i, x_i, u_i).

    Parameters
    ----------
    system : System
    context : Context
        A context of ``system``; a clone of it is used, ``context`` is left unchanged.
    times : array_like, shape (1, N) or (N,)
    states : array_like, shape (n, N)
        Continuous states.
    inputs : array_like, shape (m, N)
        Values fixed on the input port (none when the system has no inputs: shape (0, N)).
    input_port_index : int, optional
        The input port; by default the first one, if any.
    parallelize : Parallelism, optional
        Accepted; evaluation is serial.

    Returns
    -------
    ndarray, shape (n, N)
    """
    fn = "batch_eval_time_derivatives"
    times, states, inputs, port = _samples(fn, system, times, states, inputs, input_port_index)
    n = system.num_continuous_states()
    if states.shape[0] != n:
        raise ValueError(f"{fn}: system '{system.get_name()}' has {n} continuous states, "
                         f"states has {states.shape[0]} rows")
    ctx = context.clone()
    out = np.empty((n, times.size))
    for i in range(times.size):
        ctx.set_time(times[i])
        ctx.set_continuous_state(states[:, i])
        if port is not None:
            port.fix_value(ctx, inputs[:, i])
        out[:, i] = system.eval_time_derivatives(ctx)
    return out


@lists_valid_keywords
def batch_eval_unique_periodic_discrete_update(system, context, times, states, inputs, *,
                                               num_time_steps=1, input_port_index=None,
                                               parallelize=None):
    """x after ``num_time_steps`` periodic discrete updates from each column (t_i, x_i, u_i),
    the input held at u_i.

    Parameters
    ----------
    system : LeafSystem
        With periodic discrete updates of one period h and offset, and one discrete group.
    context : Context
        A context of ``system``; a clone of it is used, ``context`` is left unchanged.
    times : array_like, shape (1, N) or (N,)
    states : array_like, shape (n, N)
        Discrete states.
    inputs : array_like, shape (m, N)
    num_time_steps : int
        Updates per sample (>= 1); time advances by h after each.
    input_port_index, parallelize
        As for `batch_eval_time_derivatives`.

    Returns
    -------
    ndarray, shape (n, N)
        The discrete states after the updates.
    """
    fn = "batch_eval_unique_periodic_discrete_update"
    times, states, inputs, port = _samples(fn, system, times, states, inputs, input_port_index)
    if not isinstance(system, LeafSystem):
        raise NotImplementedError(f"{fn}: only a LeafSystem is supported, got "
                                  f"{type(system).__name__} '{system.get_name()}'")
    timing = system.get_unique_periodic_discrete_update_attribute()
    if timing is None:
        raise ValueError(f"{fn}: system '{system.get_name()}' must have periodic discrete "
                         "updates of one single period and offset")
    period = timing.period_sec()
    ctx = context.clone()
    if ctx.num_discrete_state_groups() != 1:
        raise ValueError(f"{fn}: system '{system.get_name()}' must have one discrete state "
                         f"group, has {ctx.num_discrete_state_groups()}")
    n = ctx.get_discrete_state(0).size
    if states.shape[0] != n:
        raise ValueError(f"{fn}: system '{system.get_name()}' has {n} discrete states, "
                         f"states has {states.shape[0]} rows")
    steps = int(num_time_steps)
    if steps < 1:
        raise ValueError(f"{fn}: num_time_steps must be >= 1, got {num_time_steps}")
    out = np.empty((n, times.size))
    for i in range(times.size):
        ctx.set_time(times[i])
        ctx.set_discrete_state(0, states[:, i])
        if port is not None:
            port.fix_value(ctx, inputs[:, i])
        for k in range(steps):
            ctx.set_discrete_state(0, system.eval_unique_periodic_discrete_update(ctx).get_value(0))
            ctx.set_time(times[i] + (k + 1) * period)
        out[:, i] = ctx.get_discrete_state(0)
    return out
