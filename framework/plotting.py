"""matplotlib helpers: plot logged signals by name, one axis per signal group, save PNGs.

`save_diagram_svg` renders a system's ``get_graphviz_string()`` with Graphviz's ``dot``
program (Debian package ``graphviz``), which is needed only for that function.

matplotlib is optional: it is imported inside the functions (with the non-interactive
``Agg`` backend unless a backend was already chosen), and a missing matplotlib raises
`PlottingUnavailableError` saying how to install it.

::

    result = diagram.simulate(5.0, record={"x": plant.get_state_output_port()})
    fig = plot_simulation_result(result, signals={"x": ["q1", "q2", "v1", "v2"]},
                                 groups={"angles": ["q1", "q2"], "rates": ["v1", "v2"]})
    save_figure(fig, "state.png")
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

__all__ = ["PlottingUnavailableError", "plot_bars", "plot_signals", "plot_simulation_result",
           "plot_vector_log", "save_diagram_svg", "save_figure"]


class PlottingUnavailableError(ImportError):
    """matplotlib is not installed."""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlottingUnavailableError(
            "framework.plotting needs matplotlib, which is not installed; install it with "
            "`pip install matplotlib` (or the project's `plots` extra: "
            "`pip install -e '.[plots]'`)") from None
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _check_groups(fn, names, groups):
    if groups is None:
        return {name: [name] for name in names}
    if not isinstance(groups, dict) or not groups:
        raise TypeError(f"{fn}: groups must be a non-empty dict of axis title -> list of "
                        f"signal names, got {groups!r}")
    for title, members in groups.items():
        for m in members:
            if m not in names:
                raise ValueError(f"{fn}: groups[{title!r}] names signal {m!r}, which is not "
                                 f"one of {sorted(names)}")
    return groups


def plot_signals(time, signals, groups=None, title=None, xlabel="time (s)"):
    """Plot named signals against time, one axis per group.

    Parameters
    ----------
    time : array_like, shape (N,)
        Sample times (s).
    signals : dict[str, array_like of shape (N,)]
        Signal name -> samples.
    groups : dict[str, list[str]], optional
        Axis title -> names of the signals drawn on that axis (stacked vertically, in
        order, sharing the time axis). By default one axis per signal.
    title : str, optional
        Figure title.
    xlabel : str

    Returns
    -------
    matplotlib.figure.Figure
    """
    fn = "plot_signals"
    t = np.asarray(time, dtype=float)
    if t.ndim != 1:
        raise ValueError(f"{fn}: time must be 1-D, got shape {t.shape}")
    if not isinstance(signals, dict) or not signals:
        raise TypeError(f"{fn}: signals must be a non-empty dict of name -> samples, got "
                        f"{type(signals).__name__}")
    data = {}
    for name, values in signals.items():
        y = np.asarray(values, dtype=float)
        if y.shape != t.shape:
            raise ValueError(f"{fn}: signal {name!r} has shape {y.shape}, expected {t.shape} "
                             f"(one sample per time)")
        data[name] = y
    groups = _check_groups(fn, data, groups)
    plt = _pyplot()
    fig, axes = plt.subplots(len(groups), 1, sharex=True, squeeze=False,
                             figsize=(8.0, 1.0 + 2.2 * len(groups)))
    for ax, (axis_title, members) in zip(axes[:, 0], groups.items()):
        for name in members:
            ax.plot(t, data[name], label=name)
        ax.set_ylabel(axis_title)
        ax.grid(True, alpha=0.3)
        if len(members) > 1 or members[0] != axis_title:
            ax.legend(loc="best", fontsize="small")
    axes[-1, 0].set_xlabel(xlabel)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def _rows(fn, name, values, labels):
    values = np.atleast_2d(np.asarray(values, dtype=float))
    if labels is None:
        labels = [name] if values.shape[0] == 1 else [f"{name}[{i}]"
                                                       for i in range(values.shape[0])]
    if len(labels) != values.shape[0]:
        raise ValueError(f"{fn}: {len(labels)} names given for {name!r}, which has "
                         f"{values.shape[0]} rows")
    return dict(zip(labels, values))


def plot_vector_log(log, names=None, groups=None, title=None):
    """Plot a VectorLog (rows of ``log.data()`` against ``log.sample_times()``).

    Parameters
    ----------
    log : VectorLog
    names : list[str], optional
        One name per row (default ``"x[i]"``).
    groups : dict[str, list[str]], optional
        Axis title -> row names (see `plot_signals`).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    fn = "plot_vector_log"
    if not (hasattr(log, "sample_times") and hasattr(log, "data")):
        raise TypeError(f"{fn}: log must be a VectorLog, got {type(log).__name__}")
    signals = _rows(fn, "x", log.data(), names)
    return plot_signals(log.sample_times(), signals, groups, title)


def plot_simulation_result(result, signals=None, groups=None, title=None):
    """Plot the recorded outputs of a SimulationResult.

    Parameters
    ----------
    result : SimulationResult
    signals : dict[str, list[str] or None], optional
        Recorded output name -> names of its rows (None: ``"name[i]"``). By default
        every recorded output, with one axis per output.
    groups : dict[str, list[str]], optional
        Axis title -> row names. By default one axis per recorded output.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    fn = "plot_simulation_result"
    if not (hasattr(result, "time") and hasattr(result, "outputs")):
        raise TypeError(f"{fn}: result must be a SimulationResult, got "
                        f"{type(result).__name__}")
    if signals is None:
        signals = {name: None for name in result.outputs}
    data, default_groups = {}, {}
    for output, labels in signals.items():
        if output not in result.outputs:
            raise ValueError(f"{fn}: {output!r} was not recorded; recorded outputs are "
                             f"{sorted(result.outputs)}")
        rows = _rows(fn, output, result.outputs[output], labels)
        data.update(rows)
        default_groups[output] = list(rows)
    return plot_signals(result.time, data, groups or default_groups, title)


def plot_bars(values, labels, title=None, ylabel=None):
    """Grouped bar chart: one group per label, one bar per series.

    Parameters
    ----------
    values : dict[str, array_like of shape (K,)]
        Series name -> one value per label.
    labels : list[str]
        K category labels.
    title, ylabel : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    fn = "plot_bars"
    labels = list(labels)
    series = {}
    for name, v in values.items():
        v = np.asarray(v, dtype=float).ravel()
        if v.size != len(labels):
            raise ValueError(f"{fn}: series {name!r} has {v.size} values, expected "
                             f"{len(labels)} (one per label)")
        series[name] = v
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.0, 4.0))
    width = 0.8 / max(len(series), 1)
    x = np.arange(len(labels))
    for k, (name, v) in enumerate(series.items()):
        ax.bar(x + (k - (len(series) - 1) / 2) * width, v, width, label=name)
    ax.set_xticks(x, labels)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


def save_figure(fig, path, dpi=100):
    """Save `fig` as a PNG at `path` (folders created), close it and return the Path."""
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ValueError(f"save_figure: path must end in .png, got {str(path)!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    _pyplot().close(fig)
    return path


def save_diagram_svg(system, path, max_depth=None):
    """Render ``system.get_graphviz_string(max_depth)`` to an SVG file with Graphviz's
    ``dot``; returns the Path.

    Raises
    ------
    PlottingUnavailableError
        When ``dot`` is not on PATH (install Graphviz, e.g. ``apt-get install graphviz``).
    RuntimeError
        When ``dot`` rejects the description (its message is included).
    """
    import shutil
    import subprocess

    path = Path(path)
    if path.suffix.lower() != ".svg":
        raise ValueError(f"save_diagram_svg: path must end in .svg, got {str(path)!r}")
    dot = shutil.which("dot")
    if dot is None:
        raise PlottingUnavailableError(
            "save_diagram_svg needs Graphviz's 'dot' program, which is not on PATH; install "
            "Graphviz (e.g. `apt-get install graphviz`)")
    text = system.get_graphviz_string() if max_depth is None else \
        system.get_graphviz_string(max_depth)
    result = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"save_diagram_svg: dot failed for '{system.get_name()}': "
                           f"{result.stderr.strip()}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(result.stdout, encoding="utf-8")
    return path
