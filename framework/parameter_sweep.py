"""Parameter sweep: one simulation per point of a cartesian grid of parameters.

For every combination ``params`` of the values in ``grid`` (a dict of lists; the last
key varies fastest, as `itertools.product`)::

    simulator = make_simulator(**params)
    simulator.advance_to(final_time)
    value = output(simulator.get_system(), simulator.get_context())

The points run serially or on any `concurrent.futures.Executor` (see
`framework.monte_carlo.map_tasks`); the result is a table with one record per point.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from .arguments import as_finite_float
from .monte_carlo import map_tasks, resolve_executor

__all__ = ["SweepResult", "parameter_sweep"]


class SweepResult:
    """The table of a `parameter_sweep`: one record (dict) per grid point.

    Each record maps every parameter name to its value, then the output columns (the
    keys of a dict returned by ``output``, otherwise the single column ``"output"``),
    then ``"exception"`` (None, or the exception the point raised; its output columns
    are then None).

    Attributes
    ----------
    records : list of dict
        In grid order.
    parameter_names : tuple of str
    output_names : tuple of str
    """

    def __init__(self, records, parameter_names, output_names):
        self.records = records
        self.parameter_names = tuple(parameter_names)
        self.output_names = tuple(output_names)

    def __len__(self):
        return len(self.records)

    def __iter__(self):
        return iter(self.records)

    def __getitem__(self, i):
        return self.records[i]

    def failures(self):
        """The records whose simulation raised."""
        return [r for r in self.records if r["exception"] is not None]

    def column(self, name):
        """The values of column `name`, in grid order."""
        if self.records and name not in self.records[0]:
            raise KeyError(f"SweepResult.column: no column {name!r}; the columns are "
                           f"{list(self.records[0])}")
        return [r[name] for r in self.records]

    def to_dataframe(self):
        """The table as a pandas DataFrame (one row per grid point).

        Raises
        ------
        ImportError
            If pandas is not installed.
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("SweepResult.to_dataframe: pandas is not installed; use "
                              "SweepResult.records (a list of dicts) or pip install "
                              "pandas") from None
        columns = list(self.parameter_names) + list(self.output_names) + ["exception"]
        return pd.DataFrame.from_records(self.records, columns=columns)

    def __repr__(self):
        return (f"<SweepResult: {len(self.records)} points over {self.parameter_names}, "
                f"{len(self.failures())} failed>")


def _run_point(make_simulator, output, final_time, params):
    simulator = make_simulator(**params)
    simulator.advance_to(final_time)
    return output(simulator.get_system(), simulator.get_context())


def _grid_points(fn, grid):
    if not isinstance(grid, Mapping) or not grid:
        raise TypeError(f"{fn}: grid must be a non-empty dict of parameter name -> list of "
                        f"values, got {grid!r}" if isinstance(grid, Mapping) else
                        f"{fn}: grid must be a dict of parameter name -> list of values, got "
                        f"{type(grid).__name__}")
    names = list(grid)
    values = []
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"{fn}: grid key {name!r} must be a valid keyword argument name")
        if name in ("output", "exception"):
            raise ValueError(f"{fn}: grid key {name!r} is reserved for the result table")
        try:
            v = list(grid[name])
        except TypeError:
            raise TypeError(f"{fn}: grid[{name!r}] must be a list of values, got "
                            f"{type(grid[name]).__name__}") from None
        if not v:
            raise ValueError(f"{fn}: grid[{name!r}] is empty")
        values.append(v)
    return names, [dict(zip(names, combo)) for combo in itertools.product(*values)]


def parameter_sweep(make_simulator, output, final_time, grid, executor=None, progress=None):
    """Simulate every point of the cartesian product of `grid` and tabulate the outputs.

    Parameters
    ----------
    make_simulator : callable
        ``make_simulator(**params) -> Simulator`` for one grid point (picklable, e.g. a
        module-level function, when an executor runs it in other processes).
    output : callable
        ``output(system, context) -> value`` at `final_time`; a dict value gives one
        column per key, anything else the column ``"output"``.
    final_time : float
        Time (s) each simulation is advanced to.
    grid : dict of str -> list
        Parameter name -> values; names are keyword arguments of `make_simulator`.
    executor : concurrent.futures.Executor or distributed.Client, optional
        None runs the points serially; see `framework.monte_carlo.monte_carlo_simulation`.
    progress : bool or None
        Progress bar of completed points (None: after 2 s, True: at once, False: never).

    Returns
    -------
    SweepResult
        One record per grid point, in grid order; ``.to_dataframe()`` gives a pandas
        DataFrame. A point that raises is recorded with its exception.
    """
    fn = "parameter_sweep"
    for arg, value in (("make_simulator", make_simulator), ("output", output)):
        if not callable(value):
            raise TypeError(f"{fn}: {arg} must be callable, got {type(value).__name__}")
    final_time = as_finite_float(fn, "final_time", final_time)
    names, points = _grid_points(fn, grid)
    executor = resolve_executor(fn, executor)
    outcomes = map_tasks(_run_point, [(make_simulator, output, final_time, p) for p in points],
                         executor, progress, desc=fn)
    output_names = []
    for value, exc, _ in outcomes:
        if exc is not None:
            continue
        for key in (value if isinstance(value, Mapping) else ["output"]):
            if key not in output_names:
                output_names.append(key)
    output_names = output_names or ["output"]
    clash = [k for k in output_names if k in names or k == "exception"]
    if clash:
        raise ValueError(f"{fn}: output keys {clash} clash with the parameter names "
                         f"{names} or 'exception'; rename them")
    records = []
    for params, (value, exc, _) in zip(points, outcomes):
        record = dict(params)
        if exc is None and isinstance(value, Mapping):
            record.update({k: value.get(k) for k in output_names})
        else:
            record.update({k: None for k in output_names})
            if exc is None:
                record["output"] = value
        record["exception"] = exc
        records.append(record)
    return SweepResult(records, names, output_names)
