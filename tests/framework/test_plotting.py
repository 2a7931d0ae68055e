"""framework.plotting: one axis per signal group with the logged data on it, named rows of
a SimulationResult and a VectorLog, PNG output, and argument errors that name the culprit."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from merganser.framework import SimulationResult, VectorLog  # noqa: E402
from merganser.framework.plotting import (plot_bars, plot_signals, plot_simulation_result,  # noqa: E402
                                plot_vector_log, save_figure)

T = np.linspace(0.0, 1.0, 11)


def lines_by_label(ax):
    return {line.get_label(): line for line in ax.get_lines()}


def test_one_axis_per_group_with_the_samples_on_it():
    fig = plot_signals(T, {"a": T**2, "b": -T, "c": np.sin(T)},
                       groups={"squares": ["a"], "others": ["b", "c"]})
    axes = fig.get_axes()
    assert [ax.get_ylabel() for ax in axes] == ["squares", "others"]
    np.testing.assert_array_equal(lines_by_label(axes[0])["a"].get_ydata(), T**2)
    assert sorted(lines_by_label(axes[1])) == ["b", "c"]
    np.testing.assert_array_equal(lines_by_label(axes[1])["c"].get_xdata(), T)


def test_simulation_result_rows_are_named_and_grouped_per_output():
    result = SimulationResult(time=T, outputs={"x": np.vstack([T, 2 * T]), "u": T[None] * 3})
    fig = plot_simulation_result(result, signals={"x": ["q", "v"], "u": None})
    axes = fig.get_axes()
    assert [ax.get_ylabel() for ax in axes] == ["x", "u"]
    np.testing.assert_array_equal(lines_by_label(axes[0])["v"].get_ydata(), 2 * T)
    np.testing.assert_array_equal(lines_by_label(axes[1])["u"].get_ydata(), 3 * T)


def test_vector_log_default_names():
    log = VectorLog(2)
    for t in T:
        log.add_data(t, [t, -t])
    fig = plot_vector_log(log)
    assert [ax.get_ylabel() for ax in fig.get_axes()] == ["x[0]", "x[1]"]
    np.testing.assert_array_equal(fig.get_axes()[1].get_lines()[0].get_ydata(), -T)


def test_bars_and_png_output(tmp_path):
    fig = plot_bars({"A": [1.0, 2.0], "B": [3.0, 4.0]}, ["first", "second"])
    heights = sorted(p.get_height() for p in fig.get_axes()[0].patches)
    assert heights == [1.0, 2.0, 3.0, 4.0]
    path = save_figure(fig, tmp_path / "sub" / "bars.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="must end in .png"):
        save_figure(plot_bars({"A": [1.0]}, ["x"]), tmp_path / "bars.jpg")


def test_errors_name_the_signal_and_the_choices():
    with pytest.raises(ValueError, match="signal 'a' has shape \\(3,\\), expected \\(11,\\)"):
        plot_signals(T, {"a": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="groups\\['g'\\] names signal 'z'"):
        plot_signals(T, {"a": T}, groups={"g": ["z"]})
    result = SimulationResult(time=T, outputs={"x": T[None]})
    with pytest.raises(ValueError, match="'y' was not recorded; recorded outputs are \\['x'\\]"):
        plot_simulation_result(result, signals={"y": None})
    with pytest.raises(ValueError, match="2 names given for 'x', which has 1 rows"):
        plot_simulation_result(result, signals={"x": ["a", "b"]})


def test_diagram_svg_names_the_systems(tmp_path):
    import shutil

    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not on PATH (apt-get install graphviz)")
    from merganser.framework import ConstantVectorSource, DiagramBuilder, Integrator
    from merganser.framework.plotting import save_diagram_svg

    builder = DiagramBuilder()
    source = builder.add_named_system("force_source", ConstantVectorSource([1.0]))
    integrator = builder.add_named_system("velocity_integrator", Integrator(1))
    builder.connect(source.get_output_port(), integrator.get_input_port())
    diagram = builder.build()
    svg = save_diagram_svg(diagram, tmp_path / "diagram.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "force_source" in svg and "velocity_integrator" in svg
    with pytest.raises(ValueError, match="must end in .svg"):
        save_diagram_svg(diagram, tmp_path / "diagram.png")
