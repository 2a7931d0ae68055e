"""parameter_sweep: the cartesian product of a grid, outputs against the closed-form
damped oscillator, dict outputs as columns, the pandas table, executors, failures."""

import concurrent.futures
import math
import sys

import numpy as np
import pytest

from merganser.framework import LeafSystem, Simulator, SimulatorConfig, apply_simulator_config
from merganser.framework.parameter_sweep import SweepResult, parameter_sweep

T = 2.0
GRID = {"k": [1.0, 4.0, 9.0], "c": [0.2, 0.6], "mass": [1.0, 2.0]}


class SpringDamper(LeafSystem):
    """m ẍ + c ẋ + k x = 0; state [x, ẋ]."""

    def __init__(self, k, c, mass):
        super().__init__()
        self.k, self.c, self.m = k, c, mass
        self.declare_continuous_state(1, 1, 0)
        self.declare_state_output_port("y", 0)

    def do_calc_time_derivatives(self, context, derivatives):
        x, v = context.get_continuous_state_vector()
        derivatives.set_value([v, -(self.k * x + self.c * v) / self.m])


def make_simulator(k, c, mass=1.0):
    if k <= 0.0:
        raise ValueError(f"stiffness k must be > 0, got {k}")
    system = SpringDamper(k, c, mass)
    context = system.create_default_context()
    context.set_continuous_state([1.0, 0.0])
    simulator = Simulator(system, context)
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-10),
                           simulator)
    return simulator


def position(system, context):
    return float(context.get_continuous_state_vector()[0])


def position_and_energy(system, context):
    x, v = context.get_continuous_state_vector()
    return {"x": float(x), "energy": 0.5 * system.m * v * v + 0.5 * system.k * x * x}


def closed_form_position(k, c, mass, t):
    """x(t) of the underdamped oscillator from x(0) = 1, ẋ(0) = 0."""
    zeta_wn = c / (2.0 * mass)
    wd = math.sqrt(k / mass - zeta_wn ** 2)
    return math.exp(-zeta_wn * t) * (math.cos(wd * t) + zeta_wn / wd * math.sin(wd * t))


def test_sweep_visits_the_cartesian_product_in_grid_order():
    result = parameter_sweep(make_simulator, position, T, GRID)
    assert isinstance(result, SweepResult) and len(result) == 12
    assert result.parameter_names == ("k", "c", "mass") and result.output_names == ("output",)
    points = [(r["k"], r["c"], r["mass"]) for r in result]
    assert points[:3] == [(1.0, 0.2, 1.0), (1.0, 0.2, 2.0), (1.0, 0.6, 1.0)]   # last key fastest
    assert sorted(points) == sorted(
        (k, c, m) for k in GRID["k"] for c in GRID["c"] for m in GRID["mass"])
    assert result.failures() == []


def test_outputs_match_the_closed_form_damped_oscillator():
    result = parameter_sweep(make_simulator, position, T, GRID)
    for r in result:
        assert r["exception"] is None
        assert r["output"] == pytest.approx(closed_form_position(r["k"], r["c"], r["mass"], T),
                                            abs=1e-7)
    assert len(set(result.column("output"))) == 12


def test_dict_outputs_become_columns_of_the_dataframe():
    pd = pytest.importorskip("pandas")
    result = parameter_sweep(make_simulator, position_and_energy, T, {"k": [4.0], "c": [0.0, 0.4]})
    assert result.output_names == ("x", "energy")
    df = result.to_dataframe()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["k", "c", "x", "energy", "exception"]
    assert df.shape == (2, 5)
    # Undamped: energy is conserved (0.5 k x0² = 2); damped: it decays.
    assert df.loc[0, "energy"] == pytest.approx(2.0, rel=1e-8)
    assert df.loc[1, "energy"] < 2.0 * math.exp(-0.4 * T) * 1.2
    assert df.loc[1, "x"] == pytest.approx(closed_form_position(4.0, 0.4, 1.0, T), abs=1e-7)


def test_an_executor_gives_the_same_table():
    serial = parameter_sweep(make_simulator, position, T, GRID)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        threaded = parameter_sweep(make_simulator, position, T, GRID, executor=executor)
    assert threaded.records == serial.records


def test_a_failing_point_is_recorded_and_the_others_complete():
    result = parameter_sweep(make_simulator, position, T, {"k": [4.0, -1.0, 9.0], "c": [0.2]})
    failed = result.failures()
    assert len(failed) == 1 and failed[0]["k"] == -1.0
    assert isinstance(failed[0]["exception"], ValueError)
    assert "stiffness k must be > 0, got -1.0" in str(failed[0]["exception"])
    assert failed[0]["output"] is None
    ok = [r for r in result if r["exception"] is None]
    assert [r["k"] for r in ok] == [4.0, 9.0]
    assert ok[1]["output"] == pytest.approx(closed_form_position(9.0, 0.2, 1.0, T), abs=1e-7)


@pytest.mark.parametrize("grid, error, match", [
    ([1, 2], TypeError, "grid must be a dict of parameter name -> list of values, got list"),
    ({}, TypeError, "grid must be a non-empty dict"),
    ({"k": []}, ValueError, r"grid\['k'\] is empty"),
    ({"k": 3.0}, TypeError, r"grid\['k'\] must be a list of values, got float"),
    ({"output": [1.0]}, ValueError, "grid key 'output' is reserved"),
    ({"spring k": [1.0]}, ValueError, "grid key 'spring k' must be a valid keyword"),
])
def test_bad_grids_raise_naming_the_problem(grid, error, match):
    with pytest.raises(error, match=f"parameter_sweep: {match}"):
        parameter_sweep(make_simulator, position, T, grid)


def test_output_keys_clashing_with_parameters_raise():
    def clashing(system, context):
        return {"k": 0.0}

    with pytest.raises(ValueError, match=r"parameter_sweep: output keys \['k'\] clash"):
        parameter_sweep(make_simulator, clashing, 0.1, {"k": [1.0], "c": [0.0]})


def test_to_dataframe_without_pandas_says_so(monkeypatch):
    result = parameter_sweep(make_simulator, position, 0.1, {"k": [1.0], "c": [0.0]})
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pandas is not installed"):
        result.to_dataframe()
    assert result.records[0]["output"] == pytest.approx(math.cos(0.1), abs=1e-9)


def test_records_hold_numpy_outputs_unchanged():
    def state(system, context):
        return np.array(context.get_continuous_state_vector())

    result = parameter_sweep(make_simulator, state, 0.5, {"k": [1.0], "c": [0.0]})
    np.testing.assert_allclose(result[0]["output"], [math.cos(0.5), -math.sin(0.5)], atol=1e-9)
