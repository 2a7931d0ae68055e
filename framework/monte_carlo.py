"""Monte Carlo simulation: many randomized runs of one stochastic simulation.

Drake's ``monte_carlo.h``, with the runs distributed over any
`concurrent.futures.Executor`. One run (`random_simulation`) is::

    simulator = make_simulator(generator)
    system = simulator.get_system()
    system.set_random_context(simulator.get_mutable_context(), generator)
    simulator.advance_to(final_time)
    return output(system, simulator.get_context())

As in Drake, ``set_random_context`` resets every state and parameter to its default and
then lets each system draw its random values (``LeafSystem.set_random_state`` /
``set_random_parameters``); values that `make_simulator` draws must therefore go into
the systems themselves (their defaults or their constructor arguments), not into the
context it returns.

`monte_carlo_simulation` gives sample i its own generator, a `RandomGenerator` (Drake's
type: a numpy Generator over a 32-bit Mersenne twister) in the state of numpy's
``MT19937(seed_i)``, with ``seed_i`` derived from ``(seed, i)`` by
`numpy.random.SeedSequence` (``SeedSequence(seed).spawn(n)[i]``), so every sample's
result is the same whichever executor runs it, in whatever order, on however many
workers. `map_tasks` is the execution engine it shares with
`framework.parameter_sweep.parameter_sweep`: serial, or one task per sample submitted to
an executor, results in sample order, a sample's exception recorded (not raised), and a
progress bar of completed samples.
"""

from __future__ import annotations

import concurrent.futures
import pickle
import traceback as _traceback
import warnings
from dataclasses import dataclass

import numpy as np

from .arguments import as_finite_float, as_nonnegative_int
from .keyword_check import lists_valid_keywords
from .random_generator import RandomGenerator

__all__ = ["RandomSimulationResult", "SampleError", "map_tasks", "monte_carlo_simulation",
           "portable_exception", "random_simulation", "resolve_executor", "run_task",
           "sample_seed"]


class SampleError(RuntimeError):
    """Stands in for a sample's exception that cannot be pickled (so that it can cross
    process boundaries); its message is ``"<module>.<type>: <message>"``."""


@dataclass(frozen=True)
class RandomSimulationResult:
    """The outcome of one sample of `monte_carlo_simulation`.

    Attributes
    ----------
    output : object
        ``output(system, context)`` at ``final_time``; None if the sample failed.
    seed : int
        Seed of the sample's generator, a RandomGenerator in the state of numpy's
        ``MT19937(seed)``.
    generator_snapshot : RandomGenerator
        (property, Drake's name) A new generator in the state the sample's had when it
        started: ``random_simulation(make_simulator, output, final_time,
        result.generator_snapshot)`` reproduces the sample.
    index : int
        Sample index, 0 .. num_samples - 1.
    exception : BaseException or None
        The exception the sample raised (a `SampleError` if it could not be pickled),
        None when it succeeded.
    traceback : str or None
        The formatted traceback of `exception`.
    """

    output: object
    seed: int
    index: int
    exception: BaseException | None = None
    traceback: str | None = None

    @property
    def succeeded(self):
        """True when the sample raised no exception."""
        return self.exception is None

    @property
    def generator_snapshot(self):
        """The sample's generator as it started (a new one each call): passing it to
        `random_simulation` reproduces the sample."""
        return _sample_generator(self.seed)


def _sample_generator(seed):
    """The RandomGenerator of a sample seed: its Mersenne-twister state is numpy's
    ``MT19937(seed)`` (seeded through SeedSequence, so all 128 bits of `seed` count)."""
    generator = RandomGenerator()
    generator.bit_generator.state = np.random.MT19937(seed).state
    return generator


def sample_seed(seed, index):
    """The seed of sample `index` of a Monte Carlo run with base `seed`.

    Parameters
    ----------
    seed : int
        Base seed (>= 0).
    index : int
        Sample index (>= 0).

    Returns
    -------
    int
        A 128-bit integer: the state of ``SeedSequence(seed, spawn_key=(index,))`` (the
        index-th child of ``SeedSequence(seed)``), independent of every other sample's.
    """
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2, np.uint64)
    return int(words[0]) | (int(words[1]) << 64)


def random_simulation(make_simulator, output, final_time, generator):
    """Run one stochastic simulation (Drake's RandomSimulation); see the module docstring.

    Parameters
    ----------
    make_simulator : callable
        ``make_simulator(generator) -> Simulator``.
    output : callable
        ``output(system, context) -> object``, evaluated at `final_time`.
    final_time : float
        Time (s) to advance to.
    generator : numpy.random.Generator
        The only source of randomness.

    Returns
    -------
    object
        The value of `output`.
    """
    simulator = make_simulator(generator)
    system = simulator.get_system()
    system.set_random_context(simulator.get_mutable_context(), generator)
    simulator.advance_to(final_time)
    return output(system, simulator.get_context())


def portable_exception(exc):
    """`exc` if it can cross a process boundary, else a `SampleError` naming it.

    The test is the standard pickle protocol of exceptions, ``type(exc)(*exc.args)``
    after ``pickle.dumps``, not a round trip in this process, whose result would depend
    on libraries that patch exception pickling (tblib, imported by Dask).
    """
    try:
        pickle.dumps(exc)
        type(exc)(*exc.args)
        return exc
    except Exception:
        name = f"{type(exc).__module__}.{type(exc).__qualname__}"
        return SampleError(f"{name}: {exc}")


def run_task(fn, args):
    """``(fn(*args), None, None)``, or ``(None, exception, traceback text)`` if it raised.

    The exception is made picklable by `portable_exception`; this is the function the
    executors run, so it is module-level (picklable by reference).
    """
    try:
        return fn(*args), None, None
    except Exception as exc:
        return None, portable_exception(exc), _traceback.format_exc()


def _run_sample(make_simulator, output, final_time, seed):
    return random_simulation(make_simulator, output, final_time, _sample_generator(seed))


def resolve_executor(fn, executor):
    """Check `executor` for the function named `fn`: None, an object whose ``submit``
    returns `concurrent.futures.Future` objects, or a Dask Client (its executor)."""
    if executor is None or isinstance(executor, concurrent.futures.Executor):
        return executor
    get_executor = getattr(executor, "get_executor", None)
    if callable(get_executor):
        return get_executor()
    if callable(getattr(executor, "submit", None)):
        return executor
    raise TypeError(f"{fn}: executor must be None, a concurrent.futures.Executor or a Dask "
                    f"distributed.Client, got {type(executor).__name__}")


class _Progress:
    """tqdm bar of completed tasks: None shows it after 2 s, True at once, False never."""

    def __init__(self, total, mode, desc):
        self._bar = None
        if mode is not False and total > 0:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc=desc, unit="sample",
                             delay=0.0 if mode is True else 2.0)

    def update(self):
        if self._bar is not None:
            self._bar.update(1)

    def close(self):
        if self._bar is not None:
            self._bar.close()


def map_tasks(fn, tasks, executor=None, progress=None, desc="samples"):
    """Run ``fn(*args)`` for every ``args`` in `tasks`, serially or on an executor.

    Parameters
    ----------
    fn : callable
        Module-level (picklable) function when an executor is used.
    tasks : sequence of tuple
        Argument tuples, one per task.
    executor : concurrent.futures.Executor or distributed.Client, optional
        None runs the tasks here, one after the other; otherwise each task is submitted
        (as ``executor.submit(run_task, fn, args)``).
    progress : bool or None
        Progress bar of completed tasks: None shows it once the run has taken 2 s, True
        at once, False never.
    desc : str
        The bar's label.

    Returns
    -------
    list of tuple
        ``(value, exception, traceback)`` per task, in the order of `tasks`. A task that
        raised, or that the executor could not run (a worker died, an argument or the
        result could not be pickled), has value None and its exception.
    """
    executor = resolve_executor("map_tasks", executor)
    tasks = list(tasks)
    bar = _Progress(len(tasks), progress, desc)
    results = [None] * len(tasks)
    try:
        if executor is None:
            for i, args in enumerate(tasks):
                results[i] = run_task(fn, args)
                bar.update()
            return results
        futures = {}
        try:
            for i, args in enumerate(tasks):
                try:
                    futures[executor.submit(run_task, fn, args)] = i
                except Exception as exc:       # e.g. the task could not be pickled
                    results[i] = (None, portable_exception(exc), _traceback.format_exc())
                    bar.update()
            for future in concurrent.futures.as_completed(futures):
                i = futures[future]
                try:
                    results[i] = future.result()
                except Exception as exc:       # the executor failed to run the task
                    results[i] = (None, portable_exception(exc),
                                  "".join(_traceback.format_exception(exc)))
                bar.update()
        except BaseException:                  # KeyboardInterrupt: drop what has not run
            for future in futures:
                future.cancel()
            raise
        return results
    finally:
        bar.close()


@lists_valid_keywords
def monte_carlo_simulation(make_simulator, output, final_time, num_samples, seed=None,
                           executor=None, progress=None, *, generator=None, parallelism=None):
    """Run `num_samples` independent random simulations (Drake's MonteCarloSimulation).

    Parameters
    ----------
    make_simulator : callable
        ``make_simulator(generator) -> Simulator`` with ``generator`` a
        `numpy.random.Generator`, the sample's only source of randomness. Must be
        picklable (a module-level function) when an executor runs it in other processes.
    output : callable
        ``output(system, context) -> object`` (picklable, like its return value).
    final_time : float
        Time (s) each sample is advanced to.
    num_samples : int
        Number of samples (>= 0).
    seed : int
        Base seed (>= 0); sample i's generator is a RandomGenerator in the state of
        numpy's ``MT19937(sample_seed(seed, i))``.
    executor : concurrent.futures.Executor or distributed.Client, optional
        None runs the samples serially here. A ``ProcessPoolExecutor``, a Dask
        ``Client`` (or its ``get_executor()``), or any object whose ``submit`` returns a
        `concurrent.futures.Future` (e.g. Ray through an adapter) runs one task per
        sample. The results do not depend on the choice.
    progress : bool or None
        Progress bar of completed samples: None shows it once the run has taken 2 s,
        True at once, False never.
    generator : numpy.random.Generator, optional
        pydrake's keyword instead of `seed`: the base seed is drawn from it (advancing
        it), so the same generator state gives the same samples.
    parallelism : Parallelism, bool or int, optional
        pydrake's keyword instead of `executor`: more than one thread runs the samples on
        a thread pool of that size (the results are the same).

    Returns
    -------
    list of RandomSimulationResult
        One per sample, in index order. A sample that raises is recorded with its
        exception (and traceback text) and does not stop the others.
    """
    fn = "monte_carlo_simulation"
    for arg, value in (("make_simulator", make_simulator), ("output", output)):
        if not callable(value):
            raise TypeError(f"{fn}: {arg} must be callable, got {type(value).__name__}")
    final_time = as_finite_float(fn, "final_time", final_time)
    num_samples = as_nonnegative_int(fn, "num_samples", num_samples)
    if generator is not None:
        if seed is not None:
            raise TypeError(f"{fn}: give seed or generator, not both")
        if not isinstance(generator, np.random.Generator):
            raise TypeError(f"{fn}: generator must be a numpy.random.Generator (or "
                            f"RandomGenerator), got {type(generator).__name__}")
        seed = int(generator.integers(0, 2 ** 63))
    seed = as_nonnegative_int(fn, "seed", 0 if seed is None else seed)
    owned = None
    if parallelism is not None:
        if executor is not None:
            raise TypeError(f"{fn}: give executor or parallelism, not both")
        threads = _thread_count(fn, parallelism)
        if threads > 1:
            executor = owned = concurrent.futures.ThreadPoolExecutor(threads)
    executor = resolve_executor(fn, executor)
    seeds = [sample_seed(seed, i) for i in range(num_samples)]
    tasks = [(make_simulator, output, final_time, s) for s in seeds]
    try:
        outcomes = map_tasks(_run_sample, tasks, executor, progress, desc=fn)
    finally:
        if owned is not None:
            owned.shutdown()
    results = [RandomSimulationResult(output=value, seed=s, index=i, exception=exc,
                                      traceback=tb)
               for i, (s, (value, exc, tb)) in enumerate(zip(seeds, outcomes))]
    _warn_if_all_identical(results)
    return results


def _thread_count(fn, parallelism):
    """Threads of pydrake's `parallelism` argument: a Parallelism (its num_threads()), a
    bool (True: every core) or an int >= 1."""
    if hasattr(parallelism, "num_threads"):
        return int(parallelism.num_threads())
    if isinstance(parallelism, bool):
        import os
        return (os.cpu_count() or 1) if parallelism else 1
    if isinstance(parallelism, (int, np.integer)) and parallelism >= 1:
        return int(parallelism)
    raise TypeError(f"{fn}: parallelism must be a Parallelism, a bool or an int >= 1, got "
                    f"{parallelism!r}")


def _same_output(a, b):
    """True when two sample outputs are equal (arrays element-wise, bit for bit)."""
    try:
        x, y = np.asarray(a), np.asarray(b)
        if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
            return x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=True))
    except Exception:
        pass
    try:
        return pickle.dumps(a) == pickle.dumps(b)
    except Exception:
        return False


def _warn_if_all_identical(results):
    """Warn when two or more samples succeeded and every output is the same: the usual
    cause is randomness written into the context inside make_simulator, which
    set_random_context then resets (as in Drake)."""
    outputs = [r.output for r in results if r.exception is None]
    if len(outputs) < 2 or not all(_same_output(outputs[0], o) for o in outputs[1:]):
        return
    warnings.warn(
        f"monte_carlo_simulation: all {len(outputs)} successful samples produced identical "
        f"outputs. If make_simulator draws random values and writes them into the context, "
        f"set_random_context (run after make_simulator, as in Drake) resets them to the "
        f"systems' defaults: put the random values into the systems (their defaults or "
        f"constructor arguments) or declare random state and parameters "
        f"(set_random_state / set_random_parameters).", UserWarning, stacklevel=4)

