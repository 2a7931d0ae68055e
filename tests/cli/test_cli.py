"""The ``merganser`` command line: --help everywhere, inspect (text and JSON, checked
against the masses in the URDF read independently), simulate (drop versus hold with
gravity compensation, HTML replay), examples (list and run), and usage errors (exit code 2
naming the option or the file)."""

from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from merganser.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "models"
ACROBOT = DATA / "drake" / "acrobot" / "Acrobot.urdf"
CART_POLE = DATA / "drake" / "cart_pole" / "cart_pole.sdf"
PANDA = DATA / "example-robot-data" / "robots" / "panda_description" / "urdf" / "panda.urdf"


def urdf_total_mass(path):
    return sum(float(m.get("value")) for m in etree.parse(str(path)).iterfind(".//inertial/mass"))


@pytest.mark.parametrize("argv", [["--help"], ["inspect", "--help"], ["simulate", "--help"],
                                  ["examples", "--help"]])
def test_help_everywhere(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 0
    assert "usage: merganser" in capsys.readouterr().out


def test_inspect_json_reports_the_acrobot(capsys):
    import json

    assert main(["inspect", str(ACROBOT), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["nq"], info["nv"], info["nu"]) == (2, 2, 1)
    assert info["total_mass"] == pytest.approx(urdf_total_mass(ACROBOT))
    assert [j["name"] for j in info["joints"]] == ["base_weld", "shoulder", "elbow"]
    assert [j["type"] for j in info["joints"]] == ["weld", "revolute", "revolute"]
    assert info["report"]["implemented"] > 0


def test_inspect_text_reports_the_panda(capsys):
    assert main(["inspect", str(PANDA)]) == 0
    out = capsys.readouterr().out
    assert "nq = 16, nv = 15, nu = 0" in out      # free base (7 + 6) + 7 arm + 2 fingers
    mass = float(out.split("total mass = ")[1].split(" kg")[0])
    assert mass == pytest.approx(urdf_total_mass(PANDA), rel=1e-5)
    assert "panda_joint1" in out and "quaternion_floating" in out
    assert "panda.urdf:47: [ignored]" in out      # warnings carry file:line


def test_missing_model_is_a_usage_error_naming_the_file(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["inspect", "no/such/robot.urdf"])
    assert exit_info.value.code == 2
    assert "argument MODEL: file 'no/such/robot.urdf' does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("argv, option", [
    (["simulate", str(ACROBOT), "--time", "-1"], "argument --time"),
    (["simulate", str(ACROBOT), "--time-step", "fast"], "argument --time-step"),
    (["simulate", str(ACROBOT), "--contact", "magic"], "argument --contact"),
    (["simulate", str(ACROBOT), "--frobnicate"], "--frobnicate"),
    (["inspect", str(ACROBOT), "--package", "nopath"], "argument --package"),
])
def test_bad_options_exit_2_naming_the_option(argv, option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert option in capsys.readouterr().err


def _largest_change(out):
    return float(out.split("largest coordinate change ")[1].split(")")[0])


def test_hold_keeps_the_welded_panda_still_while_a_drop_moves_it(capsys):
    argv = ["simulate", str(PANDA), "--weld-base", "--time", "0.3"]
    assert main(argv) == 0
    dropped = _largest_change(capsys.readouterr().out)
    assert main(argv + ["--hold"]) == 0
    held = _largest_change(capsys.readouterr().out)
    assert dropped > 1e-2
    assert held < 1e-6


def test_hold_refuses_a_free_base(capsys):
    assert main(["simulate", str(PANDA), "--hold", "--time", "0.1"]) == 1
    assert "--hold needs a model without a free base" in capsys.readouterr().err


def test_simulate_writes_a_replay(tmp_path, capsys):
    out = tmp_path / "cart_pole.html"
    assert main(["simulate", str(CART_POLE), "--time", "0.5", "--html", str(out)]) == 0
    page = out.read_text()
    assert "/merganser/illustration/plant/Pole/pole_point_mass" in page
    assert '"type":"set_animation"' in page
    assert "replay written to" in capsys.readouterr().out


def test_examples_lists_and_runs(capsys):
    assert main(["examples"]) == 0
    listing = capsys.readouterr().out
    for name in ("acrobot_lqr", "cart_pole_lqr", "pick_and_place", "spring_damper"):
        assert f"  {name} " in listing
    assert main(["examples", "spring_damper", "--quick"]) == 0
    assert "max |x - x_exact|" in capsys.readouterr().out


def test_unknown_example_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["examples", "warp_drive"])
    assert exit_info.value.code == 2
    assert "unknown example 'warp_drive'" in capsys.readouterr().err


def test_json_masses_are_finite(capsys):
    import json

    assert main(["inspect", str(CART_POLE), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert np.all(np.isfinite([b["mass"] for b in info["bodies"]]))
    assert info["format"] == "sdf" and info["nu"] == 1


SOLO = DATA / "example-robot-data" / "robots" / "solo_description" / "robots" / "solo12.urdf"


def _final_z(out):
    return float(out.split("final position [")[1].split("]")[0].split()[2])


def test_contact_with_the_ground_stops_the_fall(capsys):
    argv = ["simulate", str(SOLO), "--time", "0.4", "--height", "0.3"]
    assert main(argv) == 0
    free_fall = _final_z(capsys.readouterr().out)
    assert free_fall == pytest.approx(0.3 - 0.5 * 9.81 * 0.4**2, abs=1e-3)
    assert main(argv + ["--contact", "point"]) == 0
    landed = _final_z(capsys.readouterr().out)
    assert 0.15 < landed < 0.4                    # standing on its legs, not through the ground
