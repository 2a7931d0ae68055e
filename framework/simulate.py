"""``System.simulate``: build a Simulator, record outputs, show progress, return a result.

The simulator sits above ``system.py`` in the framework's import DAG (it applies affine
fusion, which uses the linearization, which uses the primitives, which are LeafSystems),
so ``System`` cannot import it. This module, imported by the package, adds the method
``System.simulate`` instead: every System, leaf or diagram, has it once
``merganser.framework`` is imported (importing any of its modules does that first).
"""

import threading
import time as _time
from dataclasses import dataclass, field

import numpy as np

from .arguments import as_finite_float
from .keyword_check import lists_valid_keywords
from .ports import OutputPort
from .system import System


@dataclass
class SimulationResult:
    """The outcome of ``simulate``.

    Attributes
    ----------
    time : ndarray, shape (N,)
        Sample times: the start time and the end of every simulator step.
    outputs : dict[str, ndarray]
        For each recorded name, the port values, shape (size, N).
    context : Context
        The final root context (the one that was advanced).
    status : SimulatorStatus
    simulator : Simulator
    num_steps : int
        Simulator steps taken.
    num_rejected_steps : int
        Steps the integrator rejected and retried smaller (error control or a failed
        implicit solve).
    smallest_step : float
        Smallest step (s) error control chose; NaN for fixed-step integration.
    """

    time: np.ndarray
    outputs: dict = field(default_factory=dict)
    context: object = None
    status: object = None
    simulator: object = None
    num_steps: int = 0
    num_rejected_steps: int = 0
    smallest_step: float = float("nan")


def _check_record(system, record):
    record = dict(record or {})
    for name, port in record.items():
        if not isinstance(port, OutputPort):
            raise TypeError(
                f"simulate: record[{name!r}] must be an OutputPort, got {type(port).__name__}")
        owner = port.get_system()
        if owner is not system and not any(s is owner for s in system._all_systems()):
            raise ValueError(
                f"simulate: record[{name!r}] is {port!r}, whose system is not part of "
                f"'{system.get_name()}'")
        if port.get_data_type() != "vector":
            raise ValueError(f"simulate: record[{name!r}] is an abstract port; only vector ports can be recorded")
    return record


class _Progress:
    """A tqdm bar that appears once a run has taken more than ``delay`` seconds."""

    def __init__(self, t0, t_final, mode, delay=2.0):
        self._t0, self._tf = t0, t_final
        self._mode = mode
        self._bar = None
        self._start = _time.perf_counter()
        self._delay = 0.0 if mode is True else delay
        self._last = t0

    def update(self, t):
        if self._mode is False:
            return
        if self._bar is None:
            if _time.perf_counter() - self._start < self._delay:
                return
            from tqdm.auto import tqdm

            self._bar = tqdm(total=float(self._tf - self._t0), unit="sim s", desc="simulate",
                             bar_format="{l_bar}{bar}| {n:.3g}/{total:.3g} sim s [{elapsed}<{remaining}]")
        self._bar.update(float(t - self._last))
        self._last = t

    def watch(self, context, period=0.25):
        """Update the bar from a background thread every `period` seconds with the time
        of `context`, instead of from a monitor: the Simulator then runs without one, so
        its loops that skip the per-step observation (e.g. a discrete plant's compiled
        contact steps) still apply. Stopped by `close`."""
        if self._mode is False:
            return
        self._stop = threading.Event()

        def run():
            while not self._stop.wait(period):
                self.update(context.get_time())

        self._thread = threading.Thread(target=run, name="simulate progress", daemon=True)
        self._thread.start()

    def close(self):
        thread = getattr(self, "_thread", None)
        if thread is not None:
            self._stop.set()
            thread.join()
            self._thread = None
        if self._bar is not None:
            self._bar.close()


def simulate_system(system, t_final, *, context=None, config=None, record=None, progress=None):
    """See ``System.simulate``."""
    from .simulator import Simulator

    t_final = as_finite_float("simulate", "t_final", t_final)
    record = _check_record(system, record)
    if context is None:
        context = system.create_default_context()
    simulator = Simulator(system, context)
    if config is not None:
        from .simulator_config import apply_simulator_config

        apply_simulator_config(config, simulator)
    ctx = simulator.get_context()
    if t_final < ctx.get_time():
        raise ValueError(f"simulate: t_final {t_final} is before the context's time {ctx.get_time()}")
    sources = [(name, port, port.get_system().get_my_context_from_root(ctx))
               for name, port in record.items()]
    times = []
    samples = {name: [] for name in record}

    def sample():
        times.append(ctx.get_time())
        for name, port, sub in sources:
            samples[name].append(np.array(port.eval(sub), dtype=float))

    bar = _Progress(ctx.get_time(), t_final, progress)
    user_monitor = simulator.get_monitor()

    def monitor(root_context):
        if record:
            sample()
        bar.update(root_context.get_time())
        if user_monitor is not None:
            return user_monitor(root_context)
        return None

    # A monitor only when something must be observed after every step (samples, the
    # user's monitor); else none, and the progress bar polls the time from a thread.
    if record or user_monitor is not None:
        simulator.set_monitor(monitor)
    else:
        bar.watch(ctx)
    try:
        status = simulator.advance_to(t_final)
    finally:
        bar.close()
        simulator.set_monitor(user_monitor)
    time_arr = np.asarray(times)
    outputs = {}
    for name, port, _ in sources:
        data = samples[name]
        outputs[name] = np.stack(data, axis=1) if data else np.zeros((port.size(), 0))
    integrator = simulator.get_integrator()
    return SimulationResult(
        time=time_arr, outputs=outputs, context=ctx, status=status, simulator=simulator,
        num_steps=simulator.get_num_steps_taken(),
        num_rejected_steps=(integrator.get_num_step_shrinkages_from_error_control()
                            + integrator.get_num_step_shrinkages_from_substep_failures()),
        smallest_step=float(integrator.get_smallest_adapted_step_size_taken()))


def _simulate(self, t_final, *, context=None, config=None, record=None, progress=None):
    """Simulate from ``context`` (default context if None) to ``t_final``.

    Parameters
    ----------
    t_final : float
        Final time (s).
    context : Context, optional
        Root context to start from; it is advanced in place.
    config : SimulatorConfig, optional
        Integration scheme, accuracy, step size.
    record : dict[str, OutputPort], optional
        Output ports (of this system or any subsystem) sampled at the initial time and
        at the end of every simulator step.
    progress : bool or None
        None shows a progress bar only for runs longer than about two seconds of wall time.
        Without `record` the Simulator runs with no monitor (the bar polls the time from a
        thread), so its compiled loops (e.g. a discrete plant's contact steps) apply.

    Returns
    -------
    SimulationResult
        ``time`` (N,), ``outputs[name]`` (size, N), ``context``, ``status``.
    """
    return simulate_system(self, t_final, context=context, config=config, record=record,
                           progress=progress)


_simulate.__name__, _simulate.__qualname__ = "simulate", "System.simulate"
System.simulate = lists_valid_keywords(_simulate)
