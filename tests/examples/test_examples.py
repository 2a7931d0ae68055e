"""Every example runs in its shortened mode (``--quick``) and reaches its outcome; one run
also writes its HTML replay and its plot."""

import base64
import importlib.util
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name):
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(name, *args):
    return load(name).main(["--quick", *args])


def test_every_example_has_a_docstring_and_a_main_taking_argv():
    names = sorted(p.stem for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
    assert {"acrobot_lqr", "cart_pole_lqr", "pick_and_place", "panda_tracking",
            "spring_damper", "two_link_formulations", "underwater_vehicle",
            "contact_solvers", "planar_biped"} <= set(names)
    for name in names:
        module = load(name)
        assert module.__doc__ and "Run:" in module.__doc__, name
        assert module.main.__code__.co_varnames[0] == "argv", name


def test_spring_damper_matches_the_closed_form():
    assert run("spring_damper") < 1e-6


def test_cart_pole_is_balanced_after_the_push():
    out = run("cart_pole_lqr")
    assert out["final_error"] < 5e-2
    assert out["max_tilt"] < 0.3


def test_acrobot_swings_up_and_lqr_balances():
    out = run("acrobot_lqr")
    np.testing.assert_allclose(out["K"].ravel(), [-278.442, -112.291, -119.725, -56.828],
                               atol=1e-2)
    assert 0.5 < out["handover_time"] < 8.0
    assert out["final_error"] < 2e-2


def test_two_link_formulations_agree():
    assert run("two_link_formulations")["max_difference"] < 1e-9


def test_pick_and_place_reaches_waypoints_clears_the_wall_and_reports_unreachable():
    out = run("pick_and_place")
    assert max(out["waypoint_errors"]) <= 1e-3
    assert out["wall_clearance"] > 0.03
    assert out["unreachable_error"] > 0.9


def test_panda_tracks_the_trajectory_and_pushes_the_box():
    out = run("panda_tracking")
    assert out["tracking_error"] < 1e-4
    assert out["hand_travel"] > 0.1
    assert out["max_contact_force"] > 0.1
    assert 0.08 < out["box_displacement"] < 0.25      # the sphere travels 20 cm past the box
    assert out["box_height_error"] < 2e-3
    assert out["box_tilt"] < 0.1


def test_example_writes_its_replay_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    umsgpack = pytest.importorskip("umsgpack")
    html = tmp_path / "cart_pole.html"
    run("cart_pole_lqr", "--html", str(html), "--plots", str(tmp_path / "plots"))
    page = html.read_text()
    uris = json.loads(re.search(r'id="merganser-commands">(.*?)</script>', page,
                                re.S).group(1))           # msgpack data URIs
    commands = [umsgpack.unpackb(base64.b64decode(u.split(",", 1)[1])) for u in uris]
    paths = {c["path"] for c in commands if c["type"] == "set_object"}
    assert "/merganser/illustration/plant/CartPole/Pole/pole_rod" in paths
    assert any(c["type"] == "set_animation" for c in commands)
    png = tmp_path / "plots" / "cart_pole_lqr_state.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_underwater_vehicle_is_neutrally_buoyant_and_feels_added_mass_and_drag():
    out = run("underwater_vehicle")
    assert out["depth_drift"] < 2e-3
    assert out["final_pitch"] < 0.02
    assert out["initial_acceleration"] == pytest.approx(30.0 / (20.0 + 10.0), rel=0.02)
    assert out["terminal_speed"] == pytest.approx((-5 + np.sqrt(25 + 3600)) / 60)
    assert out["final_speed"] == pytest.approx(out["terminal_speed"], rel=0.01)


def test_contact_solvers_agree_on_the_sliding_cube():
    table = run("contact_solvers")
    slip = 1.0 / (2 * 0.5 * 9.81)
    for name in ("tamsi (point)", "sap (point)", "lcp (point)"):
        r = table[name]
        assert r["slip"] == pytest.approx(slip, rel=0.05), name
        assert r["normal_force"] == pytest.approx(9.81, rel=0.01), name
        assert r["energy_lost"] == pytest.approx(0.5, abs=0.025), name
        assert 0.0 <= r["penetration"] < 1e-3, name
    assert "sap (hydroelastic)" in table


def test_planar_biped_walks_with_the_zmp_inside_and_friction_below_mu():
    out = run("planar_biped")
    assert out["advance"] == pytest.approx(out["planned"], abs=0.02)
    assert out["planned"] == pytest.approx(0.12)       # --quick: two steps of 12 cm
    assert out["height_error"] < 0.02 and out["pitch"] < 0.05
    assert out["zmp_margin"] > 0.01
    assert out["friction_ratio"] < 0.8
    assert out["slip"] < 2e-3
