"""Shared by the BatchedPlant tests."""

import numba


def states_for_each_thread_count(run):
    """`run()` (the final states of a batched rollout) once on one thread and once on
    every thread numba has; returns the list of results."""
    states = []
    threads = numba.get_num_threads()
    try:
        for t in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(t)
            states.append(run())
    finally:
        numba.set_num_threads(threads)
    return states
